// SPDX-License-Identifier: MIT
// PolyDepth end to end (penetration.c): against analytic PDs, the SAT oracle for convex pairs
// and the brute-force directional oracle for non-convex pairs; invariances, caps, states,
// local PDs, allocation, repro files.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "oracle.h"

extern "C" {
#include "proximity.h"
#include "repro_io.h"
#include "shapes.h"
}

namespace
{

struct Mesh
{
	smpSoup soup = {};
	pdMesh* mesh = nullptr;
	~Mesh()
	{
		pdDestroyMesh( mesh );
		smpFreeSoup( &soup );
	}
	bool Make()
	{
		pdMeshReport report;
		mesh = smpSoupCreateMesh( &soup, &report );
		return mesh != nullptr;
	}
};

pdTransform Pose( pdVec3 p, pdQuat q = { 1, 0, 0, 0 } )
{
	pdTransform t;
	double n = std::sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
	t.q = { q.w / n, q.x / n, q.y / n, q.z / n };
	t.p = p;
	return t;
}

pdQuat RandomQuat( std::mt19937& rng )
{
	std::normal_distribution<double> g( 0.0, 1.0 );
	pdQuat q = { g( rng ), g( rng ), g( rng ), g( rng ) };
	double n = std::sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
	return { q.w / n, q.x / n, q.y / n, q.z / n };
}

pdVec3 Add( pdVec3 a, pdVec3 b )
{
	return { a.x + b.x, a.y + b.y, a.z + b.z };
}
pdVec3 Scale( pdVec3 a, double s )
{
	return { a.x * s, a.y * s, a.z * s };
}
double Length( pdVec3 a )
{
	return std::sqrt( a.x * a.x + a.y * a.y + a.z * a.z );
}
pdVec3 Sub( pdVec3 a, pdVec3 b )
{
	return { a.x - b.x, a.y - b.y, a.z - b.z };
}

double Dot( pdVec3 a, pdVec3 b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

// Rotate v by unit q.
pdVec3 Rotate( pdQuat q, pdVec3 v )
{
	pdVec3 u = { q.x, q.y, q.z };
	auto cross = []( pdVec3 a, pdVec3 b ) {
		return pdVec3{ a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
	};
	pdVec3 t = Scale( cross( u, v ), 2.0 );
	return Add( Add( v, Scale( t, q.w ) ), cross( u, t ) );
}
pdQuat Mul( pdQuat a, pdQuat b )
{
	return { a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
			 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w };
}

double Tolerance( const pdMesh* a, const pdMesh* b )
{
	pdVec3 lo, hi;
	pdMesh_GetBounds( a, &lo, &hi );
	double da = Length( { hi.x - lo.x, hi.y - lo.y, hi.z - lo.z } );
	pdMesh_GetBounds( b, &lo, &hi );
	double db = Length( { hi.x - lo.x, hi.y - lo.y, hi.z - lo.z } );
	return 1e-4 * std::min( da, db );
}

class PdPenetration : public ::testing::Test
{
protected:
	void SetUp() override
	{
		ws = pdCreateWorkspace();
		ASSERT_NE( ws, nullptr );
	}
	void TearDown() override { pdDestroyWorkspace( ws ); }

	pdPenetrationResult Run( const Mesh& a, const pdTransform& pa, const Mesh& b, const pdTransform& pb,
							 const pdPenetrationDef* def = nullptr, pdPenetrationCache* cache = nullptr )
	{
		pdPenetrationResult r;
		pdStatus s = pdComputePenetration( a.mesh, &pa, b.mesh, &pb, def, cache, ws, &r );
		EXPECT_GE( s, 0 ) << pdStatusString( s );
		EXPECT_EQ( s, r.status );
		EXPECT_TRUE( std::isfinite( r.depth ) && std::isfinite( r.translation.x ) && std::isfinite( r.translation.y ) &&
					 std::isfinite( r.translation.z ) );
		return r;
	}
	bool Valid( const Mesh& a, const pdTransform& pa, const Mesh& b, const pdTransform& pb, pdVec3 t )
	{
		return testOracleIsValidAnswer( a.mesh, pa, b.mesh, pb, t, Tolerance( a.mesh, b.mesh ),
									  pdMesh_IsClosed( a.mesh ) && pdMesh_IsClosed( b.mesh ), ws );
	}

	pdWorkspace* ws = nullptr;
};

pdPenetrationDef NoExactPath()
{
	pdPenetrationDef def = pdDefaultPenetrationDef();
	def.useConvexExactPath = false;
	return def;
}

} // namespace

TEST_F( PdPenetration, SeparatedAndTouching )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 1, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 1, &b.soup ) && b.Make() );
	pdPenetrationResult r = Run( a, Pose( { 1.5, 0, 0 } ), b, Pose( { 0, 0, 0 } ) );
	EXPECT_EQ( r.state, PD_STATE_SEPARATED );
	EXPECT_EQ( r.depth, 0.0 );
	EXPECT_EQ( Length( r.translation ), 0.0 );
	// A gap well inside the tolerance (1e-4 of the diagonal) is touching.
	double tol = Tolerance( a.mesh, b.mesh );
	r = Run( a, Pose( { 1.0 + 0.3 * tol, 0, 0 } ), b, Pose( { 0, 0, 0 } ) );
	EXPECT_EQ( r.state, PD_STATE_TOUCHING );
	EXPECT_EQ( r.depth, 0.0 );
}

TEST_F( PdPenetration, InvalidInputIsRejectedWithZeroedResult )
{
	Mesh a;
	ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 1, &a.soup ) && a.Make() );
	pdTransform p = Pose( { 0, 0, 0 } );
	pdPenetrationResult r;
	r.depth = 42.0;
	EXPECT_EQ( pdComputePenetration( nullptr, &p, a.mesh, &p, nullptr, nullptr, ws, &r ), PD_STATUS_INVALID_MESH );
	EXPECT_EQ( r.depth, 0.0 );
	EXPECT_EQ( r.status, PD_STATUS_INVALID_MESH );
	EXPECT_EQ( pdComputePenetration( a.mesh, &p, a.mesh, &p, nullptr, nullptr, nullptr, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdComputePenetration( a.mesh, &p, a.mesh, &p, nullptr, nullptr, ws, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	pdTransform bad = p;
	bad.q.w = 2.0;
	EXPECT_EQ( pdComputePenetration( a.mesh, &bad, a.mesh, &p, nullptr, nullptr, ws, &r ), PD_STATUS_INVALID_POSE );
	bad = p;
	bad.p.x = NAN;
	EXPECT_EQ( pdComputePenetration( a.mesh, &p, a.mesh, &bad, nullptr, nullptr, ws, &r ), PD_STATUS_INVALID_POSE );
	pdPenetrationDef def = {};
	EXPECT_EQ( pdComputePenetration( a.mesh, &p, a.mesh, &p, &def, nullptr, ws, &r ), PD_STATUS_DEF_NOT_INITIALIZED );
	def = pdDefaultPenetrationDef();
	def.maxIterations = 0;
	EXPECT_EQ( pdComputePenetration( a.mesh, &p, a.mesh, &p, &def, nullptr, ws, &r ), PD_STATUS_INVALID_DEF );
	def = pdDefaultPenetrationDef();
	def.timeBudgetMs = -1.0;
	EXPECT_EQ( pdComputePenetration( a.mesh, &p, a.mesh, &p, &def, nullptr, ws, &r ), PD_STATUS_INVALID_DEF );
	EXPECT_EQ( r.depth, 0.0 );
	EXPECT_EQ( r.localCount, 0 );
}

TEST_F( PdPenetration, AnalyticBoxOverlapAtThreeTessellations )
{
	// Refinement stability: the same boxes tessellated 1, 2 and 4 times per edge.
	const pdVec3 halfA = { 0.5, 0.4, 0.3 }, halfB = { 0.8, 0.6, 0.5 };
	const pdVec3 offsets[] = { { 0.9, 0.2, 0.1 }, { 0.3, 0.75, -0.1 }, { -0.2, 0.1, 0.62 }, { 0.05, 0.02, 0.01 } };
	for ( int subdivisions : { 1, 2, 4 } )
	{
		Mesh a, b;
		ASSERT_TRUE( smpMakeBox( halfA, subdivisions, &a.soup ) && a.Make() );
		ASSERT_TRUE( smpMakeBox( halfB, subdivisions, &b.soup ) && b.Make() );
		for ( const pdVec3& o : offsets )
		{
			SCOPED_TRACE( "subdivisions " + std::to_string( subdivisions ) + " offset " + std::to_string( o.x ) + "," +
						  std::to_string( o.y ) + "," + std::to_string( o.z ) );
			TestOracleResult exact = testOracleBoxBox( o, halfA, { 0, 0, 0 }, halfB );
			ASSERT_TRUE( exact.ok );
			for ( bool exactPath : { false, true } )
			{
				pdPenetrationDef def = pdDefaultPenetrationDef();
				def.useConvexExactPath = exactPath;
				pdPenetrationResult r = Run( a, Pose( o ), b, Pose( { 0, 0, 0 } ), &def );
				EXPECT_EQ( r.state, PD_STATE_PENETRATING );
				EXPECT_NEAR( r.depth, exact.depth, 0.01 * exact.depth );
				EXPECT_TRUE( Valid( a, Pose( o ), b, Pose( { 0, 0, 0 } ), r.translation ) );
			}
		}
	}
}

TEST_F( PdPenetration, ConvexPairsMatchSatOracle )
{
	int within = 0, total = 0;
	for ( unsigned seed = 1; seed <= 12; ++seed )
	{
		SCOPED_TRACE( "seed " + std::to_string( seed ) );
		std::mt19937 rng( seed );
		Mesh a, b;
		if ( seed % 3 == 0 )
		{
			ASSERT_TRUE( smpMakeIcosphere( 0.6, 1 + seed % 2, &a.soup ) && a.Make() );
		}
		else
		{
			ASSERT_TRUE( smpMakeRandomConvex( 14 + (int)seed, seed, &a.soup ) && a.Make() );
		}
		ASSERT_TRUE( smpMakeRandomConvex( 18, 100 + seed, &b.soup ) && b.Make() );
		std::uniform_real_distribution<double> u( -0.6, 0.6 );
		pdTransform pa = Pose( { u( rng ), u( rng ), u( rng ) }, RandomQuat( rng ) );
		pdTransform pb = Pose( { 0.1, -0.05, 0.0 }, RandomQuat( rng ) );
		TestOracleResult exact = testOracleConvexPenetration( a.soup, pa, b.soup, pb );
		ASSERT_TRUE( exact.ok );
		if ( exact.depth <= 0.0 )
		{
			continue;
		}
		pdPenetrationDef def = NoExactPath();
		pdPenetrationResult r = Run( a, pa, b, pb, &def );
		EXPECT_EQ( r.state, PD_STATE_PENETRATING );
		EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
		// Never shorter than the exact PD (beyond the tolerance): that would be invalid.
		EXPECT_GE( r.depth, exact.depth - 2.0 * Tolerance( a.mesh, b.mesh ) );
		total += 1;
		if ( r.depth <= 1.01 * exact.depth + Tolerance( a.mesh, b.mesh ) )
		{
			within += 1;
		}
		else
		{
			ADD_FAILURE() << "seed " << seed << ": PD " << r.depth << " exact " << exact.depth;
		}
	}
	EXPECT_GT( total, 6 );
	EXPECT_EQ( within, total );
}

// Two rings (R 1, r 0.3) linked like chain links: A turned and shifted off B's centre.
static void MakeLinkedRings( Mesh* a, Mesh* b, pdTransform* pa, pdTransform* pb )
{
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &a->soup ) && a->Make() );
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &b->soup ) && b->Make() );
	*pa = Pose( { 0.4, 0.2, 0.1 }, { 0.9, 0.3, 0.1, 0.0 } );
	*pb = Pose( { 0, 0, 0 } );
}

TEST_F( PdPenetration, InvariantUnderMovingBothMeshes )
{
	Mesh a, b;
	pdTransform pa, pb;
	ASSERT_NO_FATAL_FAILURE( MakeLinkedRings( &a, &b, &pa, &pb ) );
	pdPenetrationResult r0 = Run( a, pa, b, pb );
	ASSERT_EQ( r0.state, PD_STATE_PENETRATING );
	std::mt19937 rng( 5 );
	for ( int k = 0; k < 3; ++k )
	{
		SCOPED_TRACE( "motion " + std::to_string( k ) );
		pdQuat q = RandomQuat( rng );
		pdVec3 t = { 3.0 * k - 2.0, 1.5, -0.7 * k };
		pdTransform qa = Pose( Add( Rotate( q, pa.p ), t ), Mul( q, pa.q ) );
		pdTransform qb = Pose( Add( Rotate( q, pb.p ), t ), Mul( q, pb.q ) );
		pdPenetrationResult r = Run( a, qa, b, qb );
		EXPECT_EQ( r.state, PD_STATE_PENETRATING );
		EXPECT_NEAR( r.depth, r0.depth, 0.01 * r0.depth );
		EXPECT_TRUE( Valid( a, qa, b, qb, r.translation ) );
	}
}

// Two rings linked like chain links: a free cell where they stay linked without touching lies
// 0.1846 away (a 2,000-direction oracle), behind collisions along its own direction, so only a
// pocket sample at the right depth finds it; the rings' inner balls make those samples cheap
// enough to take on every start direction. Before, the query pulled the rings apart (1.0335).
TEST_F( PdPenetration, LinkedRingsFindTheChainLinkPocket )
{
	Mesh a, b;
	pdTransform pa, pb;
	ASSERT_NO_FATAL_FAILURE( MakeLinkedRings( &a, &b, &pa, &pb ) );
	pdPenetrationResult r = Run( a, pa, b, pb );
	ASSERT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
	EXPECT_LT( r.depth, 1.01 * 0.1846 );
}

TEST_F( PdPenetration, SwappingMeshesNegatesTheTranslation )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeRandomConvex( 20, 3, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeBox( { 0.7, 0.5, 0.4 }, 2, &b.soup ) && b.Make() );
	pdTransform pa = Pose( { 0.5, 0.3, 0.2 }, { 0.8, 0.1, 0.3, 0.2 } );
	pdTransform pb = Pose( { 0, 0, 0 } );
	pdPenetrationDef def = NoExactPath();
	pdPenetrationResult ab = Run( a, pa, b, pb, &def );
	pdPenetrationResult ba = Run( b, pb, a, pa, &def );
	ASSERT_EQ( ab.state, PD_STATE_PENETRATING );
	ASSERT_EQ( ba.state, PD_STATE_PENETRATING );
	double tol = 4.0 * Tolerance( a.mesh, b.mesh ) + 0.01 * ab.depth;
	EXPECT_NEAR( ab.translation.x, -ba.translation.x, tol );
	EXPECT_NEAR( ab.translation.y, -ba.translation.y, tol );
	EXPECT_NEAR( ab.translation.z, -ba.translation.z, tol );
}

TEST_F( PdPenetration, UniformScalingScalesTheDepth )
{
	pdPenetrationDef def = NoExactPath();
	double base = 0.0;
	for ( double s : { 1.0, 1e-3, 250.0 } )
	{
		SCOPED_TRACE( "scale " + std::to_string( s ) );
		Mesh a, b;
		ASSERT_TRUE( smpMakeTorus( 1.0 * s, 0.25 * s, 24, 12, &a.soup ) && a.Make() );
		ASSERT_TRUE( smpMakeBox( { 0.6 * s, 0.6 * s, 0.2 * s }, 2, &b.soup ) && b.Make() );
		pdTransform pa = Pose( { 0.3 * s, 0.1 * s, 0.15 * s }, { 0.95, 0.2, 0.1, 0.0 } );
		pdTransform pb = Pose( { 0, 0, 0 } );
		pdPenetrationResult r = Run( a, pa, b, pb, &def );
		ASSERT_EQ( r.state, PD_STATE_PENETRATING );
		EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
		if ( s == 1.0 )
		{
			base = r.depth;
		}
		else
		{
			EXPECT_NEAR( r.depth / s, base, 0.01 * base );
		}
	}
}

TEST_F( PdPenetration, NonConvexPairsMatchTheDirectionalOracle )
{
	struct Case
	{
		const char* name;
		int shapeA, shapeB; // 0 torus, 1 knot, 2 grate, 3 box, 4 cup, 5 sphere
		pdVec3 offset;
		pdQuat rotation;
	};
	auto make = []( int shape, Mesh* m ) {
		switch ( shape )
		{
			case 0:
				return smpMakeTorus( 1.0, 0.3, 24, 12, &m->soup ) && m->Make();
			case 1:
				return smpMakeTorusKnot( 2, 3, 0.6, 0.15, 64, 8, &m->soup ) && m->Make();
			case 2:
				return smpMakeGrate( 2.0, 0.2, 3, &m->soup ) && m->Make();
			case 3:
				return smpMakeBox( { 0.25, 0.25, 0.6 }, 1, &m->soup ) && m->Make();
			case 4:
				return smpMakeCup( 0.8, 1.2, 0.12, 24, &m->soup ) && m->Make();
			default:
				return smpMakeIcosphere( 0.35, 2, &m->soup ) && m->Make();
		}
	};
	const Case cases[] = {
		{ "torus/torus shallow", 0, 0, { 0.0, 0.0, 0.5 }, { 1, 0, 0, 0 } },
		{ "torus/torus deep", 0, 0, { 0.3, 0.2, 0.1 }, { 0.9, 0.4, 0.0, 0.1 } },
		{ "torus/torus linked", 0, 0, { 1.0, 0.0, 0.0 }, { 0.7071, 0.7071, 0, 0 } },
		{ "knot/torus", 1, 0, { 0.2, 0.1, 0.05 }, { 0.9, 0.1, 0.3, 0.0 } },
		{ "grate/box", 3, 2, { 0.3, 0.35, 0.1 }, { 1, 0, 0, 0 } },
		{ "box/grate", 2, 3, { -0.3, -0.35, -0.1 }, { 1, 0, 0, 0 } },
		{ "sphere/cup wall", 5, 4, { 0.75, 0.0, 0.2 }, { 1, 0, 0, 0 } },
		{ "sphere/cup bottom", 5, 4, { 0.1, 0.0, -0.5 }, { 1, 0, 0, 0 } },
	};
	int within = 0, total = 0;
	for ( const Case& c : cases )
	{
		SCOPED_TRACE( c.name );
		Mesh a, b;
		ASSERT_TRUE( make( c.shapeA, &a ) );
		ASSERT_TRUE( make( c.shapeB, &b ) );
		pdTransform pa = Pose( c.offset, c.rotation );
		pdTransform pb = Pose( { 0, 0, 0 } );
		pdPenetrationResult r = Run( a, pa, b, pb );
		if ( r.state != PD_STATE_PENETRATING )
		{
			continue;
		}
		total += 1;
		EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) ) << c.name;
		bool containment = pdMesh_IsClosed( a.mesh ) && pdMesh_IsClosed( b.mesh );
		TestOracleResult oracle = testOracleDirectionalPenetration( a.mesh, pa, b.mesh, pb, 200, containment, ws );
		ASSERT_TRUE( oracle.ok );
		double tol = Tolerance( a.mesh, b.mesh );
		printf( "  %-20s PD %.6f oracle %.6f ratio %.4f iterations %d starts %d\n", c.name, r.depth, oracle.depth,
				r.depth / oracle.depth, r.iterations, r.starts );
		if ( r.depth <= 1.01 * oracle.depth + tol )
		{
			within += 1;
		}
	}
	EXPECT_GE( total, 6 );
	// Most cases within 1% of the directional oracle (an upper bound near the global PD).
	EXPECT_GE( within, total - 1 );
}

TEST_F( PdPenetration, KissingSweepIsContinuous )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 2, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeBox( { 1.0, 1.0, 0.5 }, 2, &b.soup ) && b.Make() );
	double tol = Tolerance( a.mesh, b.mesh );
	pdPenetrationDef def = NoExactPath();
	for ( int k = 0; k <= 20; ++k )
	{
		double z = 0.8 + 0.02 * k; // depth 0.2 .. -0.2 through zero at k = 10
		SCOPED_TRACE( "z " + std::to_string( z ) );
		pdTransform pa = Pose( { 0.1, -0.2, z } );
		pdPenetrationResult r = Run( a, pa, b, Pose( { 0, 0, 0 } ), &def );
		double expected = std::max( 0.0, 1.0 - z );
		EXPECT_NEAR( r.depth, expected, 0.01 * expected + 2.0 * tol );
		if ( expected > 2.0 * tol )
		{
			EXPECT_EQ( r.state, PD_STATE_PENETRATING );
			EXPECT_NEAR( r.translation.z, expected, 0.01 * expected + 2.0 * tol );
		}
		else if ( z > 1.0 + 2.0 * tol )
		{
			EXPECT_EQ( r.state, PD_STATE_SEPARATED );
		}
	}
}

TEST_F( PdPenetration, ClosedContainmentIsPenetration )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeBox( { 0.2, 0.2, 0.2 }, 1, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeBox( { 1.0, 1.0, 1.0 }, 1, &b.soup ) && b.Make() );
	pdTransform pa = Pose( { 0.3, 0.1, 0.0 } );
	pdTransform pb = Pose( { 0, 0, 0 } );
	pdPenetrationDef def = NoExactPath();
	pdPenetrationResult r = Run( a, pa, b, pb, &def );
	ASSERT_EQ( r.state, PD_STATE_PENETRATING );
	// Out through the nearest face: 1 - 0.3 + 0.2 = 0.9 along +x.
	EXPECT_NEAR( r.depth, 0.9, 0.009 );
	EXPECT_NEAR( r.translation.x, 0.9, 0.009 );
	EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
	// As open surfaces the small box is simply not touching.
	def.closedAsSolid = false;
	r = Run( a, pa, b, pb, &def );
	EXPECT_EQ( r.state, PD_STATE_SEPARATED );
}

TEST_F( PdPenetration, CapsReturnAValidBound )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeTorusKnot( 2, 3, 0.6, 0.15, 64, 8, &b.soup ) && b.Make() );
	pdTransform pa = Pose( { 0.2, 0.1, 0.05 }, { 0.9, 0.1, 0.3, 0.0 } );
	pdTransform pb = Pose( { 0, 0, 0 } );
	pdPenetrationDef def = pdDefaultPenetrationDef();
	def.maxIterations = 1;
	pdPenetrationResult r = Run( a, pa, b, pb, &def );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_TRUE( r.status == PD_STATUS_OK || r.status == PD_STATUS_ITERATION_LIMIT );
	EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
	def = pdDefaultPenetrationDef();
	def.timeBudgetMs = 1e-6;
	r = Run( a, pa, b, pb, &def );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_EQ( r.status, PD_STATUS_TIME_LIMIT );
	EXPECT_GT( r.depth, 0.0 );
	EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
	def = pdDefaultPenetrationDef();
	def.maxStarts = 1;
	def.startStrategies = PD_START_CENTROID;
	r = Run( a, pa, b, pb, &def );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_LE( r.starts, 1 );
	EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
	def.startStrategies = 0;
	r = Run( a, pa, b, pb, &def );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
}

TEST_F( PdPenetration, LocalPenetrationsAreProjectionsOfTheGlobalPd )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 2, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeBox( { 1.0, 1.0, 0.5 }, 2, &b.soup ) && b.Make() );
	pdTransform pa = Pose( { 0.2, 0.1, 0.85 } );
	pdPenetrationResult r = Run( a, pa, b, Pose( { 0, 0, 0 } ) );
	ASSERT_EQ( r.state, PD_STATE_PENETRATING );
	ASSERT_GE( r.localCount, 1 );
	for ( int i = 0; i < r.localCount; ++i )
	{
		const pdLocalPenetration& l = r.local[i];
		EXPECT_NEAR( Length( l.normal ), 1.0, 1e-9 );
		EXPECT_NEAR( l.depth, Dot( r.translation, l.normal ), 1e-12 );
		EXPECT_GT( l.depth, 0.0 );
		EXPECT_NEAR( l.translation.x, l.depth * l.normal.x, 1e-12 );
		EXPECT_NEAR( l.translation.y, l.depth * l.normal.y, 1e-12 );
		EXPECT_NEAR( l.translation.z, l.depth * l.normal.z, 1e-12 );
		EXPECT_GE( l.pointCount, 1 );
		EXPECT_LE( l.pointCount, PD_MAX_REGION_POINTS );
		for ( int k = 0; k < l.pointCount; ++k )
		{
			// Points on B's top face (z = 0.5).
			EXPECT_NEAR( l.points[k].z, 0.5, 1e-3 );
		}
	}
	// The top face is the one region: normal +z, depth 0.15.
	EXPECT_NEAR( r.local[0].normal.z, 1.0, 1e-6 );
	EXPECT_NEAR( r.local[0].depth, 0.15, 0.0015 );
}

// A caller that gathers the contacts at the answer itself (wider, as the Bullet plugin does)
// gets the query's own local PDs from them; features beyond the local reach do not count.
TEST_F( PdPenetration, LocalPenetrationsFromCallerFeaturesMatchTheQuery )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &b.soup ) && b.Make() );
	std::mt19937 rng( 7 );
	std::uniform_real_distribution<double> u( -0.6, 0.6 );
	int compared = 0;
	for ( int trial = 0; trial < 12; ++trial )
	{
		SCOPED_TRACE( "trial " + std::to_string( trial ) );
		pdTransform pa = Pose( { u( rng ), u( rng ), 0.3 * u( rng ) }, RandomQuat( rng ) );
		pdTransform pb = Pose( { 0, 0, 0 } );
		pdPenetrationDef def = pdDefaultPenetrationDef();
		pdPenetrationResult full = Run( a, pa, b, pb, &def );
		def.computeLocalPenetrations = false;
		pdPenetrationResult bare = Run( a, pa, b, pb, &def );
		EXPECT_EQ( bare.localCount, 0 );
		if ( full.state != PD_STATE_PENETRATING )
		{
			continue;
		}
		// Local PDs do not steer the search.
		ASSERT_EQ( bare.translation.x, full.translation.x );
		ASSERT_EQ( bare.translation.y, full.translation.y );
		ASSERT_EQ( bare.translation.z, full.translation.z );
		double tol = Tolerance( a.mesh, b.mesh );
		pdTransform moved = pa;
		moved.p = Add( pa.p, bare.translation );
		pdVec3 approach = { -bare.translation.x, -bare.translation.y, -bare.translation.z };
		int count = 0;
		const pdContactFeature* features = nullptr;
		ASSERT_GE( pdComputeContactFeatures( a.mesh, &moved, b.mesh, &pb, 20.0 * tol, approach, 256, ws, &count,
											 &features ),
				   0 );
		ASSERT_EQ( pdComputeLocalPenetrations( a.mesh, b.mesh, &def, features, count, &bare ), PD_STATUS_OK );
		ASSERT_EQ( bare.localCount, full.localCount );
		for ( int i = 0; i < full.localCount; ++i )
		{
			const pdLocalPenetration& x = full.local[i];
			const pdLocalPenetration& y = bare.local[i];
			EXPECT_NEAR( y.depth, x.depth, 1e-9 );
			EXPECT_NEAR( Dot( y.normal, x.normal ), 1.0, 1e-9 );
			ASSERT_EQ( y.pointCount, x.pointCount );
			for ( int k = 0; k < x.pointCount; ++k )
			{
				EXPECT_NEAR( Length( Sub( y.points[k], x.points[k] ) ), 0.0, 1e-9 );
			}
		}
		compared += full.localCount > 0 ? 1 : 0;
	}
	EXPECT_GE( compared, 6 );
}

TEST_F( PdPenetration, LocalPenetrationsFromFeaturesRejectBadArguments )
{
	Mesh a;
	ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 1, &a.soup ) && a.Make() );
	pdPenetrationResult r = {};
	r.state = PD_STATE_PENETRATING;
	r.translation = { 0.0, 0.0, 0.1 };
	EXPECT_EQ( pdComputeLocalPenetrations( a.mesh, a.mesh, nullptr, nullptr, 0, nullptr ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdComputeLocalPenetrations( a.mesh, a.mesh, nullptr, nullptr, 3, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdComputeLocalPenetrations( a.mesh, a.mesh, nullptr, nullptr, -1, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdComputeLocalPenetrations( nullptr, a.mesh, nullptr, nullptr, 0, &r ), PD_STATUS_INVALID_MESH );
	pdPenetrationDef bad = {};
	EXPECT_EQ( pdComputeLocalPenetrations( a.mesh, a.mesh, &bad, nullptr, 0, &r ), PD_STATUS_DEF_NOT_INITIALIZED );
	// Far features and a result that is not penetrating give no regions.
	pdContactFeature far = {};
	far.kind = PD_CONTACT_VF;
	far.normal = { 0.0, 0.0, 1.0 };
	far.distance = 0.05;
	EXPECT_EQ( pdComputeLocalPenetrations( a.mesh, a.mesh, nullptr, &far, 1, &r ), PD_STATUS_OK );
	EXPECT_EQ( r.localCount, 0 );
	far.distance = 0.0;
	EXPECT_EQ( pdComputeLocalPenetrations( a.mesh, a.mesh, nullptr, &far, 1, &r ), PD_STATUS_OK );
	EXPECT_EQ( r.localCount, 1 );
	r.state = PD_STATE_SEPARATED;
	EXPECT_EQ( pdComputeLocalPenetrations( a.mesh, a.mesh, nullptr, &far, 1, &r ), PD_STATUS_OK );
	EXPECT_EQ( r.localCount, 0 );
}

TEST_F( PdPenetration, CoherentQueriesStayValid )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &b.soup ) && b.Make() );
	pdPenetrationCache cache;
	pdResetPenetrationCache( &cache );
	pdPenetrationResult previous = {};
	for ( int frame = 0; frame < 6; ++frame )
	{
		SCOPED_TRACE( "frame " + std::to_string( frame ) );
		pdTransform pa = Pose( { 0.3 + 0.01 * frame, 0.2, 0.1 }, { 0.9, 0.4, 0.0, 0.1 } );
		pdTransform pb = Pose( { 0, 0, 0 } );
		pdPenetrationResult r = Run( a, pa, b, pb, nullptr, &cache );
		ASSERT_EQ( r.state, PD_STATE_PENETRATING );
		EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
		pdPenetrationResult fresh = Run( a, pa, b, pb );
		EXPECT_LE( r.depth, 1.01 * fresh.depth + Tolerance( a.mesh, b.mesh ) );
		previous = r;
	}
	EXPECT_EQ( cache.count, 3 );
}

// A resting pair: A a fraction of a tolerance inside B, jittering by less than a tolerance per
// frame. Its cached contact configuration is then usually still one (free and within the
// tolerance of touching) and becomes the start's contact without an out-projection; when it
// collides it is pushed out by a few tolerances. Every answer stays valid and as short as a
// query without history finds, and a frame repeated exactly gives the same answer.
TEST_F( PdPenetration, RestingPairsReuseTheirCachedContact )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &b.soup ) && b.Make() );
	double tol = Tolerance( a.mesh, b.mesh );
	pdTransform pb = Pose( { 0, 0, 0 } );
	pdTransform deep = Pose( { 0.3, 0.2, 0.1 }, { 0.9, 0.4, 0.0, 0.1 } );
	pdPenetrationResult first = Run( a, deep, b, pb );
	ASSERT_EQ( first.state, PD_STATE_PENETRATING );
	pdVec3 u = pdNormalize( first.translation );
	pdPenetrationCache cache;
	pdResetPenetrationCache( &cache );
	int penetrating = 0;
	for ( int frame = 0; frame < 12; ++frame )
	{
		SCOPED_TRACE( "frame " + std::to_string( frame ) );
		// 1.5 tolerances inside along the first answer, jittered by up to 0.6 of one.
		double jitter = 0.6 * tol * std::sin( 2.3 * frame );
		pdTransform pa = deep;
		pa.p = pdAdd( deep.p, pdScale( first.translation, 1.0 - ( 1.5 * tol + jitter ) / first.depth ) );
		pa.p = pdAdd( pa.p, pdScale( pdNormalize( pdCross( u, pdV3( 0, 0, 1 ) ) ), 0.3 * tol * std::cos( 1.7 * frame ) ) );
		pdPenetrationResult r = Run( a, pa, b, pb, nullptr, &cache );
		if ( r.state != PD_STATE_PENETRATING )
		{
			continue;
		}
		penetrating += 1;
		EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
		pdPenetrationResult fresh = Run( a, pa, b, pb );
		EXPECT_LE( r.depth, fresh.depth + tol );
		EXPECT_LT( r.depth, 3.0 * tol );
		// The same frame again, from the cache this frame left.
		pdPenetrationCache again = cache;
		pdPenetrationResult repeat = Run( a, pa, b, pb, nullptr, &again );
		EXPECT_TRUE( Valid( a, pa, b, pb, repeat.translation ) );
		EXPECT_LE( repeat.depth, r.depth + 1e-12 );
	}
	EXPECT_GE( penetrating, 8 );
}

// A cache that remembers a separated pair lets the next query confirm the gap with one proof
// traversal (no two triangles within the tolerance) instead of the collision traversal and a
// distance query: same states and answers as a query without a cache, only that traversal while
// apart, and containment still caught.
TEST_F( PdPenetration, ApartPairsAreConfirmedByOneProofTraversal )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &b.soup ) && b.Make() );
	const double tol = Tolerance( a.mesh, b.mesh );
	pdPenetrationCache cache;
	pdResetPenetrationCache( &cache );
	pdTransform pb = Pose( { 0, 0, 0 } );
	// Side by side in one plane: the gap between the tubes is x - 2.6.
	struct Step
	{
		double gap;
		pdPenetrationState state;
	};
	const Step steps[] = { { 0.05, PD_STATE_SEPARATED },	 { 0.02, PD_STATE_SEPARATED },
						   { 0.5 * tol, PD_STATE_TOUCHING }, { 0.03, PD_STATE_SEPARATED },
						   { -0.02, PD_STATE_PENETRATING },	 { 0.04, PD_STATE_SEPARATED } };
	for ( const Step& step : steps )
	{
		SCOPED_TRACE( "gap " + std::to_string( step.gap ) );
		pdTransform pa = Pose( { 2.6 + step.gap, 0.0, 0.0 } );
		pdPenetrationResult cached = Run( a, pa, b, pb, nullptr, &cache );
		pdPenetrationResult fresh = Run( a, pa, b, pb );
		EXPECT_EQ( cached.state, step.state );
		EXPECT_EQ( fresh.state, step.state );
		EXPECT_EQ( cache.lastSeparated, step.state == PD_STATE_SEPARATED );
		if ( step.state == PD_STATE_PENETRATING )
		{
			EXPECT_NEAR( cached.depth, fresh.depth, 0.01 * fresh.depth );
			EXPECT_TRUE( Valid( a, pa, b, pb, cached.translation ) );
		}
	}

	// Linked rings 0.4 apart: their boxes overlap, so the collision traversal has work to do
	// and the confirmed gap skips it: the second query's node visits are exactly the proof's.
	pdTransform linked = Pose( { 1.0, 0.0, 0.0 }, { std::sqrt( 0.5 ), std::sqrt( 0.5 ), 0.0, 0.0 } );
	pdResetPenetrationCache( &cache );
	pdPenetrationResult first = Run( a, linked, b, pb, nullptr, &cache );
	pdPenetrationResult second = Run( a, linked, b, pb, nullptr, &cache );
	EXPECT_EQ( first.state, PD_STATE_SEPARATED );
	EXPECT_EQ( second.state, PD_STATE_SEPARATED );
	int count = -1, proofVisits = 0;
	const pdContactFeature* features = nullptr;
	bool apart = false;
	ASSERT_EQ( pdContactFeatures_GatherProvingGap( a.mesh, &linked, b.mesh, &pb, tol, { 0, 0, 0 }, 0, tol, true, ws,
												   &count, &features, &apart, &proofVisits ),
			   PD_STATUS_OK );
	EXPECT_TRUE( apart );
	EXPECT_EQ( count, 0 );
	EXPECT_GT( proofVisits, 0 );
	EXPECT_EQ( second.nodeVisits, proofVisits );
	EXPECT_NE( first.nodeVisits, proofVisits );
	// Moved within the tolerance of touching, the proof ends at the first pair within it.
	pdTransform near = Pose( { 2.6 + 0.5 * tol, 0.0, 0.0 } );
	ASSERT_EQ( pdContactFeatures_GatherProvingGap( a.mesh, &near, b.mesh, &pb, tol, { 0, 0, 0 }, 0, tol, true, ws,
												   &count, &features, &apart, &proofVisits ),
			   PD_STATUS_OK );
	EXPECT_FALSE( apart );
	EXPECT_EQ( count, 0 );

	// A small closed box that was apart from a big one and is now wholly inside it.
	Mesh small, big;
	ASSERT_TRUE( smpMakeBox( { 0.2, 0.2, 0.2 }, 1, &small.soup ) && small.Make() );
	ASSERT_TRUE( smpMakeBox( { 1.0, 1.0, 1.0 }, 1, &big.soup ) && big.Make() );
	pdPenetrationDef def = NoExactPath();
	pdResetPenetrationCache( &cache );
	pdPenetrationResult outside = Run( small, Pose( { 3.0, 0.0, 0.0 } ), big, pb, &def, &cache );
	EXPECT_EQ( outside.state, PD_STATE_SEPARATED );
	ASSERT_TRUE( cache.lastSeparated );
	pdPenetrationResult inside = Run( small, Pose( { 0.3, 0.1, 0.0 } ), big, pb, &def, &cache );
	EXPECT_EQ( inside.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( inside.depth, 0.9, 0.009 );
}

// The gathering that confirms a pair apart: for an apart pair, the features of
// pdComputeContactFeatures and the answer pdComputePenetration gives (separated), whatever the
// cache says, recorded in the cache as that query records it; for any other pair, not apart and
// no features (the traversal ends at the first pair within the tolerance); a solid moved wholly
// inside another is not apart.
TEST_F( PdPenetration, ApartPairsAreConfirmedWhileGatheringFeatures )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &b.soup ) && b.Make() );
	const double tol = Tolerance( a.mesh, b.mesh );
	const double reach = 0.1;
	const pdVec3 approach = { -1.0, 0.0, 0.0 };
	pdTransform pb = Pose( { 0, 0, 0 } );
	// Side by side in one plane: the gap between the tubes is x - 2.6. Each step asks the
	// gathering traversal with one cache and the query with another (both kept as the plugin
	// keeps its pair's), so the traversal sees caches that say apart and caches that do not.
	pdPenetrationCache cache, queryCache;
	pdResetPenetrationCache( &cache );
	pdResetPenetrationCache( &queryCache );
	const double gaps[] = { 0.05, 0.02, 0.5 * tol, 1.5 * tol, 0.03, -0.02, 0.04, 0.2, -0.01, 0.03 };
	int confirmed = 0, confirmedWithoutHistory = 0, refused = 0;
	for ( double gap : gaps )
	{
		SCOPED_TRACE( "gap " + std::to_string( gap ) );
		pdTransform pa = Pose( { 2.6 + gap, 0.0, 0.0 } );
		bool wasApart = cache.lastSeparated;
		bool apart = !wasApart;
		int count = -1;
		const pdContactFeature* features = nullptr;
		ASSERT_EQ( pdConfirmApartGatheringFeatures( a.mesh, &pa, b.mesh, &pb, nullptr, &cache, reach, approach, 256, ws,
													&apart, &count, &features ),
				   PD_STATUS_OK );
		std::vector<pdContactFeature> gathered( features, features + count );
		pdPenetrationResult r = Run( a, pa, b, pb, nullptr, &queryCache );
		EXPECT_EQ( apart, r.state == PD_STATE_SEPARATED );
		if ( !apart )
		{
			EXPECT_EQ( count, 0 );
			// The plugin then runs the query with its cache, which records what it finds.
			Run( a, pa, b, pb, nullptr, &cache );
			refused += 1;
			continue;
		}
		EXPECT_TRUE( cache.lastSeparated );
		confirmed += 1;
		confirmedWithoutHistory += wasApart ? 0 : 1;
		int expectedCount = -1;
		const pdContactFeature* expected = nullptr;
		ASSERT_EQ( pdComputeContactFeatures( a.mesh, &pa, b.mesh, &pb, reach, approach, 256, ws, &expectedCount, &expected ),
				   PD_STATUS_OK );
		ASSERT_EQ( count, expectedCount );
		for ( int i = 0; i < count; ++i )
		{
			const pdContactFeature &f = gathered[i], &e = expected[i];
			EXPECT_TRUE( f.kind == e.kind && f.featureA.triangle == e.featureA.triangle &&
						 f.featureB.triangle == e.featureB.triangle && f.featureA.index == e.featureA.index &&
						 f.featureB.index == e.featureB.index && f.distance == e.distance &&
						 f.pointA.x == e.pointA.x && f.pointA.y == e.pointA.y && f.pointA.z == e.pointA.z &&
						 f.pointB.x == e.pointB.x && f.pointB.y == e.pointB.y && f.pointB.z == e.pointB.z &&
						 f.normal.x == e.normal.x && f.normal.y == e.normal.y && f.normal.z == e.normal.z )
				<< "feature " << i;
		}
	}
	EXPECT_GE( confirmed, 5 );
	EXPECT_GE( confirmedWithoutHistory, 2 ); // right after a penetrating or touching step
	EXPECT_GE( refused, 3 );

	// Without a cache: the same answer.
	bool apart = false;
	int count = 0;
	const pdContactFeature* features = nullptr;
	pdTransform far = Pose( { 3.0, 0.0, 0.0 } );
	ASSERT_EQ( pdConfirmApartGatheringFeatures( a.mesh, &far, b.mesh, &pb, nullptr, nullptr, reach, approach, 256, ws,
												&apart, &count, &features ),
			   PD_STATUS_OK );
	EXPECT_TRUE( apart );

	// A small closed box that was apart from a big one and is now wholly inside it.
	Mesh small, big;
	ASSERT_TRUE( smpMakeBox( { 0.2, 0.2, 0.2 }, 1, &small.soup ) && small.Make() );
	ASSERT_TRUE( smpMakeBox( { 1.0, 1.0, 1.0 }, 1, &big.soup ) && big.Make() );
	pdPenetrationDef def = NoExactPath();
	pdResetPenetrationCache( &cache );
	EXPECT_EQ( Run( small, Pose( { 3.0, 0.0, 0.0 } ), big, pb, &def, &cache ).state, PD_STATE_SEPARATED );
	ASSERT_TRUE( cache.lastSeparated );
	pdTransform inside = Pose( { 0.3, 0.1, 0.0 } );
	apart = true;
	ASSERT_EQ( pdConfirmApartGatheringFeatures( small.mesh, &inside, big.mesh, &pb, &def, &cache, reach, approach, 256, ws,
												&apart, &count, &features ),
			   PD_STATUS_OK );
	EXPECT_FALSE( apart );
	EXPECT_EQ( count, 0 );

	// Bad input: a reach below the contact tolerance, missing outputs, an uninitialised def.
	EXPECT_EQ( pdConfirmApartGatheringFeatures( a.mesh, &far, b.mesh, &pb, nullptr, &cache, 0.5 * tol, approach, 256, ws,
												&apart, &count, &features ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_FALSE( apart );
	EXPECT_EQ( pdConfirmApartGatheringFeatures( a.mesh, &far, b.mesh, &pb, nullptr, &cache, reach, approach, 256, ws,
												nullptr, &count, &features ),
			   PD_STATUS_INVALID_ARGUMENT );
	pdPenetrationDef zero;
	std::memset( &zero, 0, sizeof( zero ) );
	EXPECT_EQ( pdConfirmApartGatheringFeatures( a.mesh, &far, b.mesh, &pb, &zero, &cache, reach, approach, 256, ws,
												&apart, &count, &features ),
			   PD_STATUS_DEF_NOT_INITIALIZED );
}

TEST_F( PdPenetration, NoAllocationAfterWarmUp )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &b.soup ) && b.Make() );
	pdTransform pa = Pose( { 0.3, 0.2, 0.1 }, { 0.9, 0.4, 0.0, 0.1 } );
	pdTransform pb = Pose( { 0, 0, 0 } );
	pdPenetrationCache cache;
	pdResetPenetrationCache( &cache );
	Run( a, pa, b, pb, nullptr, &cache );
	Run( a, pa, b, pb, nullptr, &cache );
	uint64_t before = pdGetAllocationCount();
	for ( int k = 0; k < 3; ++k )
	{
		Run( a, pa, b, pb, nullptr, &cache );
	}
	EXPECT_EQ( pdGetAllocationCount(), before );
}

// Orientation culling in the out-projection's CCD skips only triangles that face away from the
// motion on closed outward meshes, which cannot make the first contact, so every contact it
// finds is a true one. The features gathered there come from the front-facing triangles only,
// so the iteration may take another path: both answers must be valid and agree closely.
TEST_F( PdPenetration, OrientationCullingNeverChangesTheAnswer )
{
	Mesh torus, knot, box;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &torus.soup ) && torus.Make() );
	ASSERT_TRUE( smpMakeTorusKnot( 2, 3, 0.6, 0.15, 64, 8, &knot.soup ) && knot.Make() );
	ASSERT_TRUE( smpMakeBox( { 0.4, 0.3, 0.5 }, 2, &box.soup ) && box.Make() );
	const Mesh* meshes[3] = { &torus, &knot, &box };
	pdPenetrationDef culled = NoExactPath(), unculled = NoExactPath();
	unculled.useOrientationCulling = false;
	std::mt19937 rng( 7 );
	std::uniform_real_distribution<double> u( -1.0, 1.0 );
	int penetrating = 0;
	for ( int k = 0; k < 48; ++k )
	{
		const Mesh& a = *meshes[k % 3];
		const Mesh& b = *meshes[( k / 3 ) % 3];
		pdTransform pa = Pose( { 0.6 * u( rng ), 0.6 * u( rng ), 0.6 * u( rng ) },
							   { u( rng ), u( rng ), u( rng ), u( rng ) + 1.5 } );
		pdTransform pb = Pose( { 0, 0, 0 }, { 1, 0, 0, 0 } );
		SCOPED_TRACE( k );
		pdPenetrationResult on = Run( a, pa, b, pb, &culled );
		pdPenetrationResult off = Run( a, pa, b, pb, &unculled );
		EXPECT_EQ( on.state, off.state );
		EXPECT_NEAR( on.depth, off.depth, 0.01 * off.depth + Tolerance( a.mesh, b.mesh ) );
		EXPECT_TRUE( Valid( a, pa, b, pb, on.translation ) );
		EXPECT_TRUE( Valid( a, pa, b, pb, off.translation ) );
		penetrating += on.state == PD_STATE_PENETRATING ? 1 : 0;
	}
	EXPECT_GE( penetrating, 24 ); // the poses must mostly overlap for the test to mean anything
}

// Contact-space pruning (off by default) keeps only applicable feature pairs as contact planes.
// An inapplicable pair's plane does not bound the contact space near the contact, so leaving it
// out may change the iteration's path but never makes an answer invalid; on these poses the
// answers agree closely either way.
TEST_F( PdPenetration, ContactSpacePruningKeepsTheAnswersValid )
{
	Mesh torus, knot, box;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &torus.soup ) && torus.Make() );
	ASSERT_TRUE( smpMakeTorusKnot( 2, 3, 0.6, 0.15, 64, 8, &knot.soup ) && knot.Make() );
	ASSERT_TRUE( smpMakeBox( { 0.4, 0.3, 0.5 }, 2, &box.soup ) && box.Make() );
	const Mesh* meshes[3] = { &torus, &knot, &box };
	pdPenetrationDef pruned = NoExactPath(), unpruned = NoExactPath();
	EXPECT_FALSE( unpruned.useOrientationPruning ); // the default
	pruned.useOrientationPruning = true;
	std::mt19937 rng( 11 );
	std::uniform_real_distribution<double> u( -1.0, 1.0 );
	int penetrating = 0, fewerPlanes = 0;
	for ( int k = 0; k < 48; ++k )
	{
		const Mesh& a = *meshes[k % 3];
		const Mesh& b = *meshes[( k / 3 ) % 3];
		pdTransform pa = Pose( { 0.6 * u( rng ), 0.6 * u( rng ), 0.6 * u( rng ) },
							   { u( rng ), u( rng ), u( rng ), u( rng ) + 1.5 } );
		pdTransform pb = Pose( { 0, 0, 0 }, { 1, 0, 0, 0 } );
		SCOPED_TRACE( k );
		pdPenetrationResult on = Run( a, pa, b, pb, &pruned );
		pdPenetrationResult off = Run( a, pa, b, pb, &unpruned );
		EXPECT_EQ( on.state, off.state );
		EXPECT_NEAR( on.depth, off.depth, 0.01 * off.depth + Tolerance( a.mesh, b.mesh ) );
		EXPECT_TRUE( Valid( a, pa, b, pb, on.translation ) );
		EXPECT_TRUE( Valid( a, pa, b, pb, off.translation ) );
		penetrating += on.state == PD_STATE_PENETRATING ? 1 : 0;
		fewerPlanes += on.contacts < off.contacts ? 1 : 0;
	}
	EXPECT_GE( penetrating, 24 ); // the poses must mostly overlap for the test to mean anything
	EXPECT_GE( fewerPlanes, 1 );  // and the pruning must have dropped planes somewhere
}

TEST_F( PdPenetration, ReproRoundTrip )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 12, 8, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeBox( { 0.5, 0.4, 0.3 }, 1, &b.soup ) && b.Make() );
	pdTransform pa = Pose( { 0.3, 0.2, 0.1 }, { 0.9, 0.4, 0.0, 0.1 } );
	pdTransform pb = Pose( { -0.1, 0.05, 0.0 }, { 0.8, 0.0, 0.6, 0.0 } );
	pdPenetrationDef def = pdDefaultPenetrationDef();
	def.maxStarts = 7;
	def.randomSeed = 99;
	def.lineRefinement = false;
	def.useOrientationCulling = false;
	def.useOrientationPruning = true; // not the default: the file must carry it
	def.coneDirections = 17;
	std::string path = ::testing::TempDir() + "pd_repro_roundtrip.txt";
	ASSERT_EQ( pdWriteRepro( path.c_str(), a.mesh, &pa, b.mesh, &pb, &def ), PD_STATUS_OK );
	EXPECT_EQ( pdWriteRepro( nullptr, a.mesh, &pa, b.mesh, &pb, &def ), PD_STATUS_INVALID_ARGUMENT );

	Mesh ra, rb;
	pdTransform qa, qb;
	pdPenetrationDef rdef;
	char error[256];
	ASSERT_TRUE( smpReadRepro( path.c_str(), &ra.soup, &rb.soup, &qa, &qb, &rdef, error, sizeof( error ) ) ) << error;
	ASSERT_TRUE( ra.Make() && rb.Make() );
	EXPECT_EQ( ra.soup.vertexCount, pdMesh_GetVertexCount( a.mesh ) );
	EXPECT_EQ( rb.soup.triangleCount, pdMesh_GetTriangleCount( b.mesh ) );
	EXPECT_EQ( qa.p.x, pa.p.x );
	EXPECT_EQ( qb.q.y, pb.q.y );
	EXPECT_EQ( rdef.maxStarts, 7 );
	EXPECT_EQ( rdef.randomSeed, 99u );
	EXPECT_FALSE( rdef.lineRefinement );
	EXPECT_FALSE( rdef.useOrientationCulling );
	EXPECT_TRUE( rdef.useOrientationPruning );
	EXPECT_EQ( rdef.coneDirections, 17 );
	pdPenetrationResult r1 = Run( a, pa, b, pb, &def );
	pdPenetrationResult r2 = Run( ra, qa, rb, qb, &rdef );
	EXPECT_EQ( r1.depth, r2.depth );

	// A file written before useOrientationCulling and coneDirections existed (13 def fields)
	// reads culling as on and the cone search as off, as the query it records ran.
	FILE* f = std::fopen( path.c_str(), "w" );
	ASSERT_NE( f, nullptr );
	std::fputs( "polydepth-repro 1\ndef 0 63 12 30 0 20 100 32 1 1 1 1 1\npose a 1 0 0 0 0 0 0\n"
				"pose b 1 0 0 0 0.5 0 0\nmesh a 3 1\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n"
				"mesh b 3 1\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\nend\n",
				f );
	std::fclose( f );
	{
		Mesh oa, ob;
		ASSERT_TRUE( smpReadRepro( path.c_str(), &oa.soup, &ob.soup, &qa, &qb, &rdef, error, sizeof( error ) ) )
			<< error;
		EXPECT_TRUE( rdef.useOrientationCulling );
		EXPECT_EQ( rdef.coneDirections, 0 );
	}

	// A damaged file names the line.
	f = std::fopen( path.c_str(), "w" );
	ASSERT_NE( f, nullptr );
	std::fputs( "polydepth-repro 1\ndef 0 63 12 30 0 20 100 32 1 1 1 1 1\npose a 1 0 0 0 0 0 0\npose b 1 0 0 0\n", f );
	std::fclose( f );
	Mesh da, db;
	EXPECT_FALSE( smpReadRepro( path.c_str(), &da.soup, &db.soup, &qa, &qb, &rdef, error, sizeof( error ) ) );
	EXPECT_NE( std::string( error ).find( "line 4" ), std::string::npos ) << error;
	std::remove( path.c_str() );
}

// A knot through a knot (about 1,000 triangles each) whose shortest translation, 0.11413 by a
// 2,000-direction oracle, lies in a basin beside the local optimum that the starts and the
// pattern search settle in (0.11603, 1.7% longer): the cone search around the best answer's
// direction finds it (0.11417).
TEST_F( PdPenetration, ConeSearchFindsTheBasinBesideTheLocalOptimum )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeShapeByName( "knot", 1000, 1.0, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeShapeByName( "knot", 1000, 1.0, &b.soup ) && b.Make() );
	pdTransform pa = Pose( { -0.25809435692650184, 0.20549625067131677, -0.00062318970962668696 },
						   { 0.068803455117938242, -0.83763338518378505, -0.059462359494006835, 0.53860990001372278 } );
	pdTransform pb = Pose( { 0, 0, 0 } );
	pdPenetrationDef off = pdDefaultPenetrationDef();
	off.coneDirections = 0;
	pdPenetrationResult without = Run( a, pa, b, pb, &off );
	pdPenetrationResult with = Run( a, pa, b, pb );
	ASSERT_EQ( without.state, PD_STATE_PENETRATING );
	ASSERT_EQ( with.state, PD_STATE_PENETRATING );
	EXPECT_TRUE( Valid( a, pa, b, pb, with.translation ) );
	EXPECT_LT( with.depth, 0.99 * without.depth );
	TestOracleResult oracle = testOracleDirectionalPenetration( a.mesh, pa, b.mesh, pb, 2000, true, ws );
	ASSERT_TRUE( oracle.ok );
	printf( "  cone on %.6f, off %.6f, directional oracle (2,000 directions) %.6f\n", with.depth, without.depth,
			oracle.depth );
	EXPECT_LE( with.depth, 1.01 * oracle.depth );
	EXPECT_GT( without.depth, 1.01 * oracle.depth ); // the case needs the cone search
}
