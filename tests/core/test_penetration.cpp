// SPDX-License-Identifier: MIT
// PolyDepth end to end (penetration.c): against analytic PDs, the SAT oracle for convex pairs
// and the brute-force directional oracle for non-convex pairs; invariances, caps, states,
// coherence, allocation, repro files. The stages have their own files (test_classify.cpp,
// test_local_pd.cpp, test_direction_search.cpp).
#include "penetration_test.h"
#include "plugin_interface.h"

#include <cstring>

namespace
{

// Two copies of the torus the coherence tests share.
bool MakeTwoTori( Mesh* a, Mesh* b )
{
	return smpMakeTorus( 1.0, 0.3, 24, 12, &a->soup ) && a->Make() && smpMakeTorus( 1.0, 0.3, 24, 12, &b->soup ) &&
		   b->Make();
}

// The deep overlapping pose of A those tests start from (B at the origin).
pdTransform DeepTorusPose()
{
	return Pose( { 0.3, 0.2, 0.1 }, { 0.9, 0.4, 0.0, 0.1 } );
}

// A cache for a new pair.
pdPenetrationCache NewCache()
{
	pdPenetrationCache cache;
	memset( &cache, 0, sizeof( cache ) );
	return cache;
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
	EXPECT_EQ( pdComputePenetration( a.mesh, &p, a.mesh, &p, nullptr, nullptr, nullptr, &r ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdComputePenetration( a.mesh, &p, a.mesh, &p, nullptr, nullptr, ws, nullptr ),
			   PD_STATUS_INVALID_ARGUMENT );
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
				pdPenetrationSettings defSettings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
				def.settings = &defSettings;
				defSettings.useConvexExactPath = exactPath;
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
	int within = 0, total = 0, bounded = 0;
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
		// The certified lower bound: never above the exact PD, nor above the answer.
		EXPECT_GE( r.lowerBound, 0.0 );
		EXPECT_LE( r.lowerBound, exact.depth + 1e-12 );
		EXPECT_LE( r.lowerBound, r.depth );
		bounded += r.lowerBound > 0.0 ? 1 : 0;
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
	EXPECT_GT( bounded, total / 2 ) << "the inner balls bound most of these overlaps";
}

TEST_F( PdPenetration, LowerBoundMeasuresABallDeepInsideTheOtherSolid )
{
	// A 0.2 cube off the centre of a unit cube, its centre 0.2 inside the nearest face: it must
	// move 0.2 + 0.1 = 0.3 to leave. The cubes' inner balls (radius about 0.1 and 0.5, centres
	// 0.42 apart) overlap by at most 0.18; the small cube's ball, its centre 0.2 deep in the big
	// cube's solid, certifies its radius + 0.2: within the few percent the shrinking ball stops
	// inside the faces of the exact PD.
	Mesh small, big;
	ASSERT_TRUE( smpMakeBox( { 0.1, 0.1, 0.1 }, 1, &small.soup ) && small.Make() );
	ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 1, &big.soup ) && big.Make() );
	pdTransform pa = Pose( { 0.3, 0.3, 0.0 } ), pb = Pose( { 0, 0, 0 } );
	for ( bool swap : { false, true } )
	{
		SCOPED_TRACE( swap ? "big cube as A" : "small cube as A" );
		pdPenetrationResult r = swap ? Run( big, pb, small, pa, nullptr ) : Run( small, pa, big, pb, nullptr );
		ASSERT_EQ( r.state, PD_STATE_PENETRATING );
		EXPECT_NEAR( r.depth, 0.3, 1e-3 );
		EXPECT_GT( r.lowerBound, 0.29 ) << "a ball-ball overlap gives at most 0.18";
		EXPECT_LE( r.lowerBound, r.depth );
	}
}

TEST_F( PdPenetration, LowerBoundLeftOutSaysZeroAndKeepsTheAnswer )
{
	// With computeLowerBound off (contact generation reads the translation only) the result
	// carries 0, still a valid bound, and the same translation.
	Mesh small, big;
	ASSERT_TRUE( smpMakeBox( { 0.1, 0.1, 0.1 }, 1, &small.soup ) && small.Make() );
	ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 1, &big.soup ) && big.Make() );
	pdTransform pa = Pose( { 0.3, 0.3, 0.0 } ), pb = Pose( { 0, 0, 0 } );
	pdiPenetrationOptions options;
	ASSERT_EQ( pdiPlugin_ResolvePenetrationDef( nullptr, &options ), PD_STATUS_OK );
	pdPenetrationResult with, without;
	ASSERT_EQ( pdiPlugin_ComputePenetration( small.mesh, &pa, big.mesh, &pb, &options, nullptr, ws, &with ),
			   PD_STATUS_OK );
	options.computeLowerBound = false;
	ASSERT_EQ( pdiPlugin_ComputePenetration( small.mesh, &pa, big.mesh, &pb, &options, nullptr, ws, &without ),
			   PD_STATUS_OK );
	EXPECT_GT( with.lowerBound, 0.29 );
	EXPECT_EQ( without.lowerBound, 0.0 );
	EXPECT_EQ( without.state, PD_STATE_PENETRATING );
	EXPECT_EQ( without.translation.x, with.translation.x );
	EXPECT_EQ( without.translation.y, with.translation.y );
	EXPECT_EQ( without.translation.z, with.translation.z );
}

TEST_F( PdPenetration, OpenMeshesCarryNoLowerBound )
{
	// A torus with a hole in its surface has no inside, so no balls inside it: the only bound
	// known is 0, however deep the overlap. Closed, the same placement has one.
	Mesh closed, open;
	ASSERT_TRUE( smpMakeTorus( 0.5, 0.15, 32, 12, &closed.soup ) && closed.Make() );
	ASSERT_TRUE( smpMakeTorus( 0.5, 0.15, 32, 12, &open.soup ) );
	open.soup.triangleCount -= 2;
	ASSERT_TRUE( open.Make() );
	pdTransform pa = Pose( { 0.05, 0.02, 0.0 }, { 1.0, 0.0, 0.0, 0.0 } ),
				pb = Pose( { 0, 0, 0 }, { 1.0, 0.0, 0.0, 0.0 } );
	pdPenetrationResult solid = Run( closed, pa, closed, pb, nullptr );
	ASSERT_EQ( solid.state, PD_STATE_PENETRATING );
	EXPECT_GT( solid.lowerBound, 0.0 );
	EXPECT_LE( solid.lowerBound, solid.depth );
	pdPenetrationResult soup = Run( open, pa, open, pb, nullptr );
	ASSERT_EQ( soup.state, PD_STATE_PENETRATING );
	EXPECT_EQ( soup.lowerBound, 0.0 );
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
// enough to take on every start direction. Pulling the rings apart instead gives 1.0335.
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
	auto make = []( int shape, Mesh* m )
	{
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
		bool containment = pdMesh_GetInfo( a.mesh ).closed && pdMesh_GetInfo( b.mesh ).closed;
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
	pdPenetrationSettings defSettings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
	def.settings = &defSettings;
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
	def.settings = &defSettings;
	defSettings.maxStarts = 1;
	defSettings.startStrategies = PD_START_CENTROID;
	r = Run( a, pa, b, pb, &def );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_LE( r.starts, 1 );
	EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
	defSettings.startStrategies = 0;
	r = Run( a, pa, b, pb, &def );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
}

TEST_F( PdPenetration, CoherentQueriesStayValid )
{
	Mesh a, b;
	ASSERT_TRUE( MakeTwoTori( &a, &b ) );
	pdPenetrationCache cache = NewCache();
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
	ASSERT_TRUE( MakeTwoTori( &a, &b ) );
	double tol = Tolerance( a.mesh, b.mesh );
	pdTransform pb = Pose( { 0, 0, 0 } );
	pdTransform deep = DeepTorusPose();
	pdPenetrationResult first = Run( a, deep, b, pb );
	ASSERT_EQ( first.state, PD_STATE_PENETRATING );
	pdVec3 u = pdiNormalize( first.translation );
	pdPenetrationCache cache = NewCache();
	int penetrating = 0;
	for ( int frame = 0; frame < 12; ++frame )
	{
		SCOPED_TRACE( "frame " + std::to_string( frame ) );
		// 1.5 tolerances inside along the first answer, jittered by up to 0.6 of one.
		double jitter = 0.6 * tol * std::sin( 2.3 * frame );
		pdTransform pa = deep;
		pa.p = pdiAdd( deep.p, pdiScale( first.translation, 1.0 - ( 1.5 * tol + jitter ) / first.depth ) );
		pa.p =
			pdiAdd( pa.p, pdiScale( pdiNormalize( pdiCross( u, pdiV3( 0, 0, 1 ) ) ), 0.3 * tol * std::cos( 1.7 * frame ) ) );
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

// Motion coherence (pdPenetrationSettings.maxTrackedQueries): a pair moving a little per query is
// answered from its cached contact, at most maxTrackedQueries times in a row, then by the full
// search; each answer is valid and as short as a query without history finds (within 1% and
// the tolerance).
TEST_F( PdPenetration, TrackedQueriesAreCappedAndAsShortAsTheFullSearch )
{
	Mesh a, b;
	ASSERT_TRUE( MakeTwoTori( &a, &b ) );
	double tol = Tolerance( a.mesh, b.mesh );
	pdTransform pb = Pose( { 0, 0, 0 } );
	for ( int cap : { 0, 3 } )
	{
		SCOPED_TRACE( "maxTrackedQueries " + std::to_string( cap ) );
		pdPenetrationDef def = pdDefaultPenetrationDef();
		pdPenetrationSettings defSettings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
		def.settings = &defSettings;
		defSettings.maxTrackedQueries = cap;
		pdPenetrationCache cache = NewCache();
		int trackedInARow = 0, tracked = 0;
		for ( int frame = 0; frame < 12; ++frame )
		{
			SCOPED_TRACE( "frame " + std::to_string( frame ) );
			// 4 mm and 0.6 degrees a frame: well inside the turn a cached contact is tracked over.
			pdQuat turn = { std::cos( 0.005 * frame ), 0.0, 0.0, std::sin( 0.005 * frame ) };
			pdTransform pa = Pose( { 0.3 + 0.004 * frame, 0.2, 0.1 }, Mul( turn, { 0.9, 0.4, 0.0, 0.1 } ) );
			pdPenetrationResult r = Run( a, pa, b, pb, &def, &cache );
			ASSERT_EQ( r.state, PD_STATE_PENETRATING );
			EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
			pdPenetrationResult fresh = Run( a, pa, b, pb );
			EXPECT_FALSE( fresh.tracked );
			EXPECT_LE( r.depth, 1.01 * fresh.depth + tol );
			if ( frame == 0 || cap == 0 )
			{
				EXPECT_FALSE( r.tracked );
			}
			else
			{
				// Tracked until the cap, then one full search.
				EXPECT_EQ( r.tracked, trackedInARow < cap );
			}
			trackedInARow = r.tracked ? trackedInARow + 1 : 0;
			tracked += r.tracked ? 1 : 0;
		}
		EXPECT_EQ( tracked, cap == 0 ? 0 : 9 );
	}
}

// A relative turn of more than about 6 degrees since the cached contact was found takes the
// full search; a smaller one is tracked. Moving both meshes together turns nothing.
TEST_F( PdPenetration, TrackingStopsWhenThePairTurns )
{
	Mesh a, b;
	ASSERT_TRUE( MakeTwoTori( &a, &b ) );
	pdTransform pb = Pose( { 0, 0, 0 } );
	pdQuat base = { 0.9, 0.4, 0.0, 0.1 };
	struct Case
	{
		double angle;
		bool tracked;
	};
	for ( Case c : { Case{ 0.05, true }, Case{ 0.2, false } } )
	{
		SCOPED_TRACE( "turn " + std::to_string( c.angle ) );
		pdPenetrationCache cache = NewCache();
		pdPenetrationResult first = Run( a, Pose( { 0.3, 0.2, 0.1 }, base ), b, pb, nullptr, &cache );
		ASSERT_EQ( first.state, PD_STATE_PENETRATING );
		pdQuat turn = { std::cos( 0.5 * c.angle ), 0.0, std::sin( 0.5 * c.angle ), 0.0 };
		pdTransform pa = Pose( { 0.3, 0.2, 0.1 }, Mul( turn, base ) );
		pdPenetrationResult r = Run( a, pa, b, pb, nullptr, &cache );
		ASSERT_EQ( r.state, PD_STATE_PENETRATING );
		EXPECT_EQ( r.tracked, c.tracked );
		EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
	}
	// Both meshes turned by 0.5 rad together: the relative rotation is the cached one.
	pdPenetrationCache cache = NewCache();
	Run( a, Pose( { 0.3, 0.2, 0.1 }, base ), b, pb, nullptr, &cache );
	pdQuat turn = { std::cos( 0.25 ), std::sin( 0.25 ), 0.0, 0.0 };
	pdTransform pa = Pose( Rotate( turn, { 0.3, 0.2, 0.1 } ), Mul( turn, base ) );
	pdTransform pbTurned = Pose( { 0, 0, 0 }, turn );
	pdPenetrationResult r = Run( a, pa, b, pbTurned, nullptr, &cache );
	EXPECT_TRUE( r.tracked );
}

// A cache written over with nonsense is not trusted: the query runs the full search, and a
// maxTrackedQueries out of range is rejected.
TEST_F( PdPenetration, TrackingDistrustsACorruptCache )
{
	Mesh a, b;
	ASSERT_TRUE( MakeTwoTori( &a, &b ) );
	pdTransform pa = DeepTorusPose();
	pdTransform pb = Pose( { 0, 0, 0 } );
	pdPenetrationCache cache = NewCache();
	Run( a, pa, b, pb, nullptr, &cache );
	pdPenetrationCache bad = cache;
	bad.configurations[( bad.next + 2 ) % 3].x = std::nan( "" );
	pdPenetrationResult r = Run( a, pa, b, pb, nullptr, &bad );
	EXPECT_FALSE( r.tracked );
	EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );
	bad = cache;
	bad.next = 7;
	r = Run( a, pa, b, pb, nullptr, &bad );
	EXPECT_FALSE( r.tracked );
	EXPECT_TRUE( Valid( a, pa, b, pb, r.translation ) );

	pdPenetrationDef def = pdDefaultPenetrationDef();
	pdPenetrationSettings defSettings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
	def.settings = &defSettings;
	defSettings.maxTrackedQueries = -1;
	pdPenetrationResult out;
	EXPECT_EQ( pdComputePenetration( a.mesh, &pa, b.mesh, &pb, &def, &cache, ws, &out ), PD_STATUS_INVALID_DEF );
	EXPECT_EQ( out.depth, 0.0 );
}

TEST_F( PdPenetration, NoAllocationAfterWarmUp )
{
	Mesh a, b;
	ASSERT_TRUE( MakeTwoTori( &a, &b ) );
	pdTransform pa = DeepTorusPose();
	pdTransform pb = Pose( { 0, 0, 0 } );
	pdPenetrationCache cache = NewCache();
	Run( a, pa, b, pb, nullptr, &cache );
	Run( a, pa, b, pb, nullptr, &cache );
	uint64_t before = pdGetAllocatorStats().allocations;
	for ( int k = 0; k < 3; ++k )
	{
		Run( a, pa, b, pb, nullptr, &cache );
	}
	EXPECT_EQ( pdGetAllocatorStats().allocations, before );
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
	pdPenetrationSettings unculledSettings = *NoExactPathSettings();
	unculledSettings.useOrientationCulling = false;
	unculled.settings = &unculledSettings;
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
	EXPECT_FALSE( unpruned.settings->useOrientationPruning ); // the default
	pdPenetrationSettings prunedSettings = *NoExactPathSettings();
	prunedSettings.useOrientationPruning = true;
	pruned.settings = &prunedSettings;
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
		fewerPlanes += on.contactPlaneCount < off.contactPlaneCount ? 1 : 0;
	}
	EXPECT_GE( penetrating, 24 ); // the poses must mostly overlap for the test to mean anything
	EXPECT_GE( fewerPlanes, 1 );  // and the pruning must have dropped planes somewhere
}

TEST_F( PdPenetration, ReproRoundTrip )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 12, 8, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeBox( { 0.5, 0.4, 0.3 }, 1, &b.soup ) && b.Make() );
	pdTransform pa = DeepTorusPose();
	pdTransform pb = Pose( { -0.1, 0.05, 0.0 }, { 0.8, 0.0, 0.6, 0.0 } );
	pdPenetrationDef def = pdDefaultPenetrationDef();
	pdPenetrationSettings defSettings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
	def.settings = &defSettings;
	defSettings.maxStarts = 7;
	defSettings.randomSeed = 99;
	defSettings.lineRefinement = false;
	defSettings.useOrientationCulling = false;
	defSettings.useOrientationPruning = true; // not the default: the file must carry it
	defSettings.coneDirections = 17;
	std::string path = ::testing::TempDir() + "pd_repro_roundtrip.txt";
	ASSERT_EQ( pdWriteRepro( path.c_str(), a.mesh, &pa, b.mesh, &pb, &def ), PD_STATUS_OK );
	EXPECT_EQ( pdWriteRepro( nullptr, a.mesh, &pa, b.mesh, &pb, &def ), PD_STATUS_INVALID_ARGUMENT );

	Mesh ra, rb;
	pdTransform qa, qb;
	smpReproDef rdef;
	char error[256];
	ASSERT_TRUE( smpReadRepro( path.c_str(), &ra.soup, &rb.soup, &qa, &qb, &rdef, error, sizeof( error ) ) ) << error;
	ASSERT_TRUE( ra.Make() && rb.Make() );
	EXPECT_EQ( ra.soup.vertexCount, pdMesh_GetInfo( a.mesh ).vertexCount );
	EXPECT_EQ( rb.soup.triangleCount, pdMesh_GetInfo( b.mesh ).triangleCount );
	EXPECT_EQ( qa.p.x, pa.p.x );
	EXPECT_EQ( qb.q.y, pb.q.y );
	EXPECT_EQ( rdef.settings.maxStarts, 7 );
	EXPECT_EQ( rdef.settings.randomSeed, 99u );
	EXPECT_FALSE( rdef.settings.lineRefinement );
	EXPECT_FALSE( rdef.settings.useOrientationCulling );
	EXPECT_TRUE( rdef.settings.useOrientationPruning );
	EXPECT_EQ( rdef.settings.coneDirections, 17 );
	pdPenetrationResult r1 = Run( a, pa, b, pb, &def );
	pdPenetrationResult r2 = Run( ra, qa, rb, qb, &rdef.def );
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
		EXPECT_TRUE( rdef.settings.useOrientationCulling );
		EXPECT_EQ( rdef.settings.coneDirections, 0 );
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
