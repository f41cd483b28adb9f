// SPDX-License-Identifier: MIT
// Bad input and hard geometry for every query (collide, distance, CCD, PD): NaN/Inf poses,
// non-unit quaternions, bad defs and tiny caps give a status with every output field defined;
// needles, slivers, coplanar soups, duplicate and flipped triangles, holes, self-intersections,
// far-from-origin and tiny/huge scales, long edges against shallow overlaps, containment and
// exact touching give a status, never NaN, and a PD that separates (checked with pdCollide).
// Results are pre-filled with NaN bytes so a field the library forgets to write is caught.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <memory>
#include <random>
#include <vector>

#include "oracle.h"

extern "C"
{
#include "polydepth/polydepth.h"
#include "polydepth/research.h"
#include "shapes.h"
}

namespace
{

struct MeshDeleter
{
	void operator()( pdMesh* m ) const
	{
		pdDestroyMesh( m );
	}
};
using MeshPtr = std::unique_ptr<pdMesh, MeshDeleter>;

struct WorkspaceDeleter
{
	void operator()( pdWorkspace* w ) const
	{
		pdDestroyWorkspace( w );
	}
};
using WorkspacePtr = std::unique_ptr<pdWorkspace, WorkspaceDeleter>;

// A soup under construction (double vertices, uint32 indices).
struct Soup
{
	std::vector<double> v;
	std::vector<uint32_t> idx;

	uint32_t Vertex( double x, double y, double z )
	{
		v.push_back( x );
		v.push_back( y );
		v.push_back( z );
		return (uint32_t)( v.size() / 3 - 1 );
	}
	void Tri( uint32_t a, uint32_t b, uint32_t c )
	{
		idx.push_back( a );
		idx.push_back( b );
		idx.push_back( c );
	}
	void Append( const smpSoup& s )
	{
		uint32_t base = (uint32_t)( v.size() / 3 );
		v.insert( v.end(), s.vertices, s.vertices + 3 * s.vertexCount );
		for ( int i = 0; i < 3 * s.triangleCount; ++i )
		{
			idx.push_back( base + s.indices[i] );
		}
	}
	smpSoup View()
	{
		smpSoup s = { v.data(), (int)( v.size() / 3 ), idx.data(), (int)( idx.size() / 3 ) };
		return s;
	}
	MeshPtr Create()
	{
		smpSoup s = View();
		pdMeshReport report;
		pdMesh* mesh = smpSoupCreateMesh( &s, &report );
		EXPECT_NE( mesh, nullptr ) << report.message;
		return MeshPtr( mesh );
	}
};

Soup FromSoup( const smpSoup& s )
{
	Soup out;
	out.Append( s );
	return out;
}

Soup BoxSoup( pdVec3 half, int subdivisions = 1, pdVec3 offset = { 0, 0, 0 } )
{
	smpSoup s = {};
	EXPECT_TRUE( smpMakeBox( half, subdivisions, &s ) );
	Soup out = FromSoup( s );
	smpFreeSoup( &s );
	for ( size_t i = 0; i < out.v.size(); i += 3 )
	{
		out.v[i] += offset.x;
		out.v[i + 1] += offset.y;
		out.v[i + 2] += offset.z;
	}
	return out;
}

MeshPtr Shape( const char* name, int tris, double size )
{
	smpSoup s = {};
	EXPECT_TRUE( smpMakeShapeByName( name, tris, size, &s ) ) << name;
	pdMeshReport report;
	MeshPtr mesh( smpSoupCreateMesh( &s, &report ) );
	EXPECT_NE( mesh, nullptr ) << name << ": " << report.message;
	smpFreeSoup( &s );
	return mesh;
}

pdTransform Pose( double tx, double ty, double tz, double angle = 0.0, pdVec3 axis = { 0, 0, 1 } )
{
	double len = std::sqrt( axis.x * axis.x + axis.y * axis.y + axis.z * axis.z );
	double s = std::sin( 0.5 * angle ) / len;
	pdTransform t;
	t.q = { std::cos( 0.5 * angle ), s * axis.x, s * axis.y, s * axis.z };
	t.p = { tx, ty, tz };
	return t;
}

bool Finite( double x )
{
	return std::isfinite( x );
}
bool Finite( pdVec3 v )
{
	return std::isfinite( v.x ) && std::isfinite( v.y ) && std::isfinite( v.z );
}

void ExpectStatusInRange( pdStatus s )
{
	EXPECT_GE( (int)s, (int)PD_STATUS_INVALID_DEF );
	EXPECT_LE( (int)s, (int)PD_STATUS_FEATURE_LIMIT );
	EXPECT_NE( pdGetStatusString( s ), nullptr );
}

// Garbage that reads as NaN in every double field.
template <typename T> void Poison( T* result )
{
	std::memset( (void*)result, 0xFF, sizeof( T ) );
}

void CheckFeature( const pdFeature& f, const pdMesh* mesh, const char* what )
{
	EXPECT_GE( (int)f.type, 0 ) << what;
	EXPECT_LE( (int)f.type, 2 ) << what;
	if ( mesh != nullptr && f.triangle >= 0 )
	{
		EXPECT_LT( f.triangle, pdMesh_GetInfo( mesh ).triangleCount ) << what;
	}
}

void CheckCollide( const pdCollideResult& r, pdStatus returned, const pdMesh* a, const pdMesh* b )
{
	EXPECT_EQ( r.status, returned );
	ExpectStatusInRange( r.status );
	EXPECT_GE( r.pairCount, 0 );
	EXPECT_GE( r.nodeVisits, 0 );
	if ( r.status < 0 )
	{
		EXPECT_FALSE( r.colliding );
		EXPECT_EQ( r.pairCount, 0 );
		return;
	}
	if ( r.pairCount > 0 )
	{
		ASSERT_NE( r.pairs, nullptr );
		for ( int i = 0; i < r.pairCount; ++i )
		{
			EXPECT_GE( r.pairs[i].triangleA, 0 );
			EXPECT_LT( r.pairs[i].triangleA, pdMesh_GetInfo( a ).triangleCount );
			EXPECT_GE( r.pairs[i].triangleB, 0 );
			EXPECT_LT( r.pairs[i].triangleB, pdMesh_GetInfo( b ).triangleCount );
		}
	}
}

void CheckDistance( const pdDistanceResult& r, pdStatus returned, const pdMesh* a, const pdMesh* b )
{
	EXPECT_EQ( r.status, returned );
	ExpectStatusInRange( r.status );
	EXPECT_TRUE( Finite( r.distance ) ) << r.distance;
	EXPECT_GE( r.distance, 0.0 );
	EXPECT_TRUE( Finite( r.pointA ) );
	EXPECT_TRUE( Finite( r.pointB ) );
	EXPECT_GE( r.nodeVisits, 0 );
	if ( r.status >= 0 )
	{
		CheckFeature( r.featureA, a, "distance featureA" );
		CheckFeature( r.featureB, b, "distance featureB" );
	}
}

void CheckCcd( const pdCcdResult& r, pdStatus returned )
{
	EXPECT_EQ( r.status, returned );
	ExpectStatusInRange( r.status );
	EXPECT_TRUE( Finite( r.toc ) );
	EXPECT_GE( r.toc, 0.0 );
	EXPECT_LE( r.toc, 1.0 );
	EXPECT_TRUE( Finite( r.contactPosition ) );
	EXPECT_GE( r.featureCount, 0 );
	EXPECT_GE( r.nodeVisits, 0 );
	if ( r.featureCount > 0 )
	{
		ASSERT_NE( r.features, nullptr );
		for ( int i = 0; i < r.featureCount; ++i )
		{
			const pdContactFeature& f = r.features[i];
			EXPECT_TRUE( Finite( f.pointA ) && Finite( f.pointB ) && Finite( f.normal ) && Finite( f.distance ) )
				<< "feature " << i;
		}
	}
}

void CheckPenetration( const pdPenetrationResult& r, pdStatus returned )
{
	EXPECT_EQ( r.status, returned );
	ExpectStatusInRange( r.status );
	EXPECT_GE( (int)r.state, 0 );
	EXPECT_LE( (int)r.state, 2 );
	EXPECT_TRUE( Finite( r.depth ) ) << r.depth;
	EXPECT_GE( r.depth, 0.0 );
	EXPECT_TRUE( Finite( r.translation ) );
	EXPECT_TRUE( Finite( r.elapsedMs ) );
	EXPECT_GE( r.iterations, 0 );
	EXPECT_GE( r.starts, 0 );
	EXPECT_GE( r.contactPlaneCount, 0 );
	EXPECT_GE( r.nodeVisits, 0 );
	EXPECT_GE( r.localCount, 0 );
	EXPECT_LE( r.localCount, PD_MAX_LOCAL_REGIONS );
	// Every slot, also the unused ones: nothing in the result may be NaN.
	for ( int i = 0; i < PD_MAX_LOCAL_REGIONS; ++i )
	{
		const pdLocalPenetration& l = r.local[i];
		EXPECT_TRUE( Finite( l.normal ) && Finite( l.depth ) && Finite( l.translation ) ) << "local " << i;
		EXPECT_GE( l.pointCount, 0 );
		EXPECT_LE( l.pointCount, PD_MAX_REGION_POINTS );
		for ( int k = 0; k < PD_MAX_REGION_POINTS; ++k )
		{
			EXPECT_TRUE( Finite( l.points[k] ) ) << "local " << i << " point " << k;
		}
	}
	if ( r.status < 0 )
	{
		EXPECT_EQ( r.depth, 0.0 );
		EXPECT_EQ( r.localCount, 0 );
	}
	if ( r.state != PD_STATE_PENETRATING && r.status >= 0 )
	{
		EXPECT_EQ( r.depth, 0.0 );
	}
}

// Runs all four queries on a pair, checks every output, and for a PD answer checks that A moved
// by it is at most touching (overlap shallower than the tolerance). Returns the PD result.
pdPenetrationResult RunAll( const char* name, const pdMesh* a, const pdTransform& poseA, const pdMesh* b,
							const pdTransform& poseB, const pdPenetrationDef* def = nullptr )
{
	SCOPED_TRACE( name );
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );

	pdCollideResult c;
	Poison( &c );
	pdStatus s = pdCollide( a, &poseA, b, &poseB, nullptr, ws.get(), &c );
	CheckCollide( c, s, a, b );
	EXPECT_GE( (int)s, 0 ) << pdGetStatusString( s );

	pdDistanceResult d;
	Poison( &d );
	s = pdComputeDistance( a, &poseA, b, &poseB, nullptr, ws.get(), &d );
	CheckDistance( d, s, a, b );
	EXPECT_GE( (int)s, 0 ) << pdGetStatusString( s );

	pdVec3 lo = pdMesh_GetInfo( a ).boundsMin, hi = pdMesh_GetInfo( a ).boundsMax;
	pdVec3 end = { poseA.p.x + 2.0 * ( hi.x - lo.x ) + 1.0, poseA.p.y, poseA.p.z };
	pdCcdResult ccd;
	Poison( &ccd );
	s = pdComputeTranslationalCcd( a, &poseA, end, b, &poseB, nullptr, ws.get(), &ccd );
	CheckCcd( ccd, s );
	EXPECT_GE( (int)s, 0 ) << pdGetStatusString( s );

	pdPenetrationResult p;
	Poison( &p );
	s = pdComputePenetration( a, &poseA, b, &poseB, def, nullptr, ws.get(), &p );
	CheckPenetration( p, s );
	EXPECT_GE( (int)s, 0 ) << pdGetStatusString( s );
	if ( s >= 0 && p.state == PD_STATE_PENETRATING )
	{
		pdPenetrationDef defaults = pdDefaultPenetrationDef();
		const pdPenetrationDef* used = def != nullptr ? def : &defaults;
		double tol = used->contactTolerance;
		pdVec3 la, ha, lb, hb;
		la = pdMesh_GetInfo( a ).boundsMin;
		ha = pdMesh_GetInfo( a ).boundsMax;
		lb = pdMesh_GetInfo( b ).boundsMin;
		hb = pdMesh_GetInfo( b ).boundsMax;
		if ( !( tol > 0.0 ) )
		{
			double da = std::sqrt( ( ha.x - la.x ) * ( ha.x - la.x ) + ( ha.y - la.y ) * ( ha.y - la.y ) +
								   ( ha.z - la.z ) * ( ha.z - la.z ) );
			double db = std::sqrt( ( hb.x - lb.x ) * ( hb.x - lb.x ) + ( hb.y - lb.y ) * ( hb.y - lb.y ) +
								   ( hb.z - lb.z ) * ( hb.z - lb.z ) );
			tol = 1e-4 * std::fmin( da, db );
		}
		bool containment = used->closedAsSolid && pdMesh_GetInfo( a ).closed && pdMesh_GetInfo( b ).closed;
		EXPECT_TRUE( testOracleIsValidAnswer( a, poseA, b, poseB, p.translation, 1.01 * tol, containment, ws.get() ) )
			<< "PD " << p.depth << " along (" << p.translation.x << ", " << p.translation.y << ", "
			<< p.translation.z << ") does not separate; tol " << tol;
	}
	return p;
}

// ---------------------------------------------------------------------------------------------
// Bad input

TEST( PdRobustness, InvalidPosesAreRejectedWithDefinedOutputs )
{
	Soup boxA = BoxSoup( { 1, 1, 1 } );
	MeshPtr a = boxA.Create();
	MeshPtr b = boxA.Create();
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	const double nan = std::numeric_limits<double>::quiet_NaN();
	const double inf = std::numeric_limits<double>::infinity();
	pdTransform good = Pose( 0.5, 0, 0 );
	std::vector<pdTransform> bad;
	pdTransform t = good;
	t.p.x = nan;
	bad.push_back( t );
	t = good;
	t.p.z = inf;
	bad.push_back( t );
	t = good;
	t.p.y = -inf;
	bad.push_back( t );
	t = good;
	t.q.x = nan;
	bad.push_back( t );
	t = good;
	t.q.w = inf;
	bad.push_back( t );
	t = good;
	t.q = { 2.0, 0, 0, 0 }; // length 2
	bad.push_back( t );
	t = good;
	t.q = { 0, 0, 0, 0 }; // zero quaternion
	bad.push_back( t );
	t = good;
	t.q = { 1.0, 0.01, 0, 0 }; // 5e-5 off, within the documented 1e-4? No: |q| - 1 = 5e-5 -> accepted below
	t.q = { 1.0, 0.1, 0, 0 };  // |q| - 1 = 5e-3: rejected
	bad.push_back( t );
	// A finite but huge translation (1e308) is covered by PdRegression.HugeFinitePoseOverflows.

	for ( size_t i = 0; i < bad.size(); ++i )
	{
		for ( int side = 0; side < 2; ++side )
		{
			SCOPED_TRACE( "bad pose " + std::to_string( i ) + ( side == 0 ? " as A" : " as B" ) );
			const pdTransform* pa = side == 0 ? &bad[i] : &good;
			const pdTransform* pb = side == 0 ? &good : &bad[i];
			pdVec3 end = { 0, 0, 0 };

			pdCollideResult c;
			Poison( &c );
			pdStatus s = pdCollide( a.get(), pa, b.get(), pb, nullptr, ws.get(), &c );
			CheckCollide( c, s, a.get(), b.get() );
			pdDistanceResult d;
			Poison( &d );
			pdStatus sd = pdComputeDistance( a.get(), pa, b.get(), pb, nullptr, ws.get(), &d );
			CheckDistance( d, sd, a.get(), b.get() );
			pdCcdResult ccd;
			Poison( &ccd );
			pdStatus sc = pdComputeTranslationalCcd( a.get(), pa, end, b.get(), pb, nullptr, ws.get(), &ccd );
			CheckCcd( ccd, sc );
			pdPenetrationResult p;
			Poison( &p );
			pdStatus sp = pdComputePenetration( a.get(), pa, b.get(), pb, nullptr, nullptr, ws.get(), &p );
			CheckPenetration( p, sp );
			{
				EXPECT_EQ( s, PD_STATUS_INVALID_POSE ) << pdGetStatusString( s );
				EXPECT_EQ( sd, PD_STATUS_INVALID_POSE ) << pdGetStatusString( sd );
				EXPECT_EQ( sc, PD_STATUS_INVALID_POSE ) << pdGetStatusString( sc );
				EXPECT_EQ( sp, PD_STATUS_INVALID_POSE ) << pdGetStatusString( sp );
			}
		}
	}

	// A NaN CCD end position.
	pdCcdResult ccd;
	Poison( &ccd );
	pdVec3 end = { nan, 0, 0 };
	pdStatus s = pdComputeTranslationalCcd( a.get(), &good, end, b.get(), &good, nullptr, ws.get(), &ccd );
	CheckCcd( ccd, s );
	EXPECT_LT( (int)s, 0 ) << pdGetStatusString( s );
	end = { inf, 0, 0 };
	Poison( &ccd );
	s = pdComputeTranslationalCcd( a.get(), &good, end, b.get(), &good, nullptr, ws.get(), &ccd );
	CheckCcd( ccd, s );
	EXPECT_LT( (int)s, 0 ) << pdGetStatusString( s );
}

TEST( PdRobustness, NearlyUnitQuaternionIsAccepted )
{
	Soup box = BoxSoup( { 1, 1, 1 } );
	MeshPtr a = box.Create();
	MeshPtr b = box.Create();
	pdTransform pa = Pose( 1.5, 0.2, 0 );
	pa.q = { 1.0 + 2e-5, 0, 0, 0 };
	pdTransform pb = Pose( 0, 0, 0 );
	pdPenetrationResult p = RunAll( "nearly unit", a.get(), pa, b.get(), pb );
	EXPECT_EQ( p.status, PD_STATUS_OK );
	EXPECT_EQ( p.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( p.depth, 0.5, 0.01 );
}

TEST( PdRobustness, BadArgumentsAndDefsAreRejected )
{
	Soup box = BoxSoup( { 1, 1, 1 } );
	MeshPtr a = box.Create();
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	pdTransform id = pdIdentityTransform();
	pdVec3 end = { 1, 0, 0 };

	pdCollideResult c;
	Poison( &c );
	pdStatus s = pdCollide( nullptr, &id, a.get(), &id, nullptr, ws.get(), &c );
	CheckCollide( c, s, a.get(), a.get() );
	EXPECT_EQ( s, PD_STATUS_INVALID_MESH );
	Poison( &c );
	s = pdCollide( a.get(), &id, a.get(), &id, nullptr, nullptr, &c );
	CheckCollide( c, s, a.get(), a.get() );
	EXPECT_LT( (int)s, 0 );
	Poison( &c );
	s = pdCollide( a.get(), nullptr, a.get(), &id, nullptr, ws.get(), &c );
	CheckCollide( c, s, a.get(), a.get() );
	EXPECT_LT( (int)s, 0 );

	pdCollideDef cdef = pdDefaultCollideDef();
	cdef.internalValue = 0;
	Poison( &c );
	s = pdCollide( a.get(), &id, a.get(), &id, &cdef, ws.get(), &c );
	CheckCollide( c, s, a.get(), a.get() );
	EXPECT_EQ( s, PD_STATUS_DEF_NOT_INITIALIZED );

	pdDistanceResult d;
	Poison( &d );
	s = pdComputeDistance( a.get(), &id, nullptr, &id, nullptr, ws.get(), &d );
	CheckDistance( d, s, a.get(), a.get() );
	EXPECT_EQ( s, PD_STATUS_INVALID_MESH );
	pdDistanceDef ddef = pdDefaultDistanceDef();
	ddef.lowerBound = std::numeric_limits<double>::quiet_NaN();
	Poison( &d );
	s = pdComputeDistance( a.get(), &id, a.get(), &id, &ddef, ws.get(), &d );
	CheckDistance( d, s, a.get(), a.get() );
	EXPECT_LT( (int)s, 0 ) << "NaN lowerBound accepted";

	pdCcdResult ccd;
	Poison( &ccd );
	s = pdComputeTranslationalCcd( a.get(), &id, end, nullptr, &id, nullptr, ws.get(), &ccd );
	CheckCcd( ccd, s );
	EXPECT_EQ( s, PD_STATUS_INVALID_MESH );
	pdCcdDef ccdDef = pdDefaultCcdDef();
	ccdDef.contactTolerance = std::numeric_limits<double>::quiet_NaN();
	Poison( &ccd );
	s = pdComputeTranslationalCcd( a.get(), &id, end, a.get(), &id, &ccdDef, ws.get(), &ccd );
	CheckCcd( ccd, s );
	EXPECT_LT( (int)s, 0 ) << "NaN contactTolerance accepted";

	pdPenetrationResult p;
	std::vector<pdPenetrationDef> defs;
	pdPenetrationDef def = pdDefaultPenetrationDef();
	def.internalValue = 0;
	defs.push_back( def );
	def = pdDefaultPenetrationDef();
	def.maxIterations = 0;
	defs.push_back( def );
	// Settings out of range, each in a settings object of its own (the defs point at them).
	static pdPenetrationSettings badSettings[3];
	for ( pdPenetrationSettings& bad : badSettings )
	{
		bad = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
	}
	badSettings[0].maxStarts = -3;
	badSettings[1].maxContactPlanes = 0;
	badSettings[2].startStrategies = 0x80000000u;
	for ( const pdPenetrationSettings& bad : badSettings )
	{
		def = pdDefaultPenetrationDef();
		def.settings = &bad;
		defs.push_back( def );
	}
	def = pdDefaultPenetrationDef();
	def.quality = (pdPenetrationQuality)7;
	defs.push_back( def );
	def = pdDefaultPenetrationDef();
	def.contactTolerance = std::numeric_limits<double>::quiet_NaN();
	defs.push_back( def );
	def = pdDefaultPenetrationDef();
	def.timeBudgetMs = -1.0;
	defs.push_back( def );
	def = pdDefaultPenetrationDef();
	def.timeBudgetMs = std::numeric_limits<double>::infinity();
	defs.push_back( def );

	for ( size_t i = 0; i < defs.size(); ++i )
	{
		SCOPED_TRACE( "bad def " + std::to_string( i ) );
		Poison( &p );
		s = pdComputePenetration( a.get(), &id, a.get(), &id, &defs[i], nullptr, ws.get(), &p );
		CheckPenetration( p, s );
		EXPECT_LT( (int)s, 0 );
	}
	Poison( &p );
	s = pdComputePenetration( a.get(), &id, a.get(), &id, nullptr, nullptr, nullptr, &p );
	CheckPenetration( p, s );
	EXPECT_EQ( s, PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdComputePenetration( a.get(), &id, a.get(), &id, nullptr, nullptr, ws.get(), nullptr ),
			   PD_STATUS_INVALID_ARGUMENT );
	Poison( &p );
	s = pdComputePenetration( a.get(), &id, a.get(), nullptr, nullptr, nullptr, ws.get(), &p );
	CheckPenetration( p, s );
	EXPECT_EQ( s, PD_STATUS_INVALID_ARGUMENT );
}

// ---------------------------------------------------------------------------------------------
// Caps

TEST( PdRobustness, TinyNodeVisitCapsGiveTraversalLimit )
{
	MeshPtr a = Shape( "torus", 2000, 2.0 );
	MeshPtr b = Shape( "knot", 2000, 2.0 );
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	pdTransform pa = Pose( 0.2, 0.1, 0.0, 0.3, { 1, 1, 0 } );
	pdTransform pb = Pose( 0, 0, 0 );

	pdCollideDef cdef = pdDefaultCollideDef();
	cdef.maxNodeVisits = 1;
	cdef.reportAllPairs = true;
	pdCollideResult c;
	Poison( &c );
	pdStatus s = pdCollide( a.get(), &pa, b.get(), &pb, &cdef, ws.get(), &c );
	CheckCollide( c, s, a.get(), b.get() );
	EXPECT_EQ( s, PD_STATUS_TRAVERSAL_LIMIT ) << pdGetStatusString( s );

	pdDistanceDef ddef = pdDefaultDistanceDef();
	ddef.maxNodeVisits = 1;
	pdTransform far = Pose( 5.0, 0, 0 );
	pdDistanceResult d;
	Poison( &d );
	s = pdComputeDistance( a.get(), &far, b.get(), &pb, &ddef, ws.get(), &d );
	CheckDistance( d, s, a.get(), b.get() );
	EXPECT_EQ( s, PD_STATUS_TRAVERSAL_LIMIT ) << pdGetStatusString( s );

	pdCcdDef ccdDef = pdDefaultCcdDef();
	ccdDef.maxNodeVisits = 1;
	pdCcdResult ccd;
	Poison( &ccd );
	s = pdComputeTranslationalCcd( a.get(), &far, { 0, 0, 0 }, b.get(), &pb, &ccdDef, ws.get(), &ccd );
	CheckCcd( ccd, s );
	EXPECT_EQ( s, PD_STATUS_TRAVERSAL_LIMIT ) << pdGetStatusString( s );
}

TEST( PdRobustness, IterationAndTimeCapsGiveAValidUpperBound )
{
	MeshPtr a = Shape( "torus", 1500, 2.0 );
	MeshPtr b = Shape( "cup", 1500, 2.0 );
	std::mt19937 rng( 7 );
	std::uniform_real_distribution<double> u( -0.4, 0.4 );
	int iterationCaps = 0, timeCaps = 0, penetrating = 0;
	for ( int i = 0; i < 12; ++i )
	{
		pdTransform pa = Pose( u( rng ), u( rng ), u( rng ), 3.0 * u( rng ), { u( rng ), 1.0, u( rng ) } );
		pdTransform pb = Pose( 0, 0, 0 );
		SCOPED_TRACE( "seed 7 case " + std::to_string( i ) );

		pdPenetrationDef def = pdDefaultPenetrationDef();
		pdPenetrationSettings defSettings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
		def.settings = &defSettings;
		def.maxIterations = 1;
		defSettings.maxStarts = 1;
		defSettings.useConvexExactPath = false;
		pdPenetrationResult p = RunAll( "maxIterations 1", a.get(), pa, b.get(), pb, &def );
		EXPECT_TRUE( p.status == PD_STATUS_OK || p.status == PD_STATUS_ITERATION_LIMIT ) << pdGetStatusString( p.status );
		EXPECT_LE( p.iterations, def.maxIterations * defSettings.maxStarts + 1 );
		iterationCaps += p.status == PD_STATUS_ITERATION_LIMIT;
		penetrating += p.state == PD_STATE_PENETRATING;

		def = pdDefaultPenetrationDef();
		def.timeBudgetMs = 1e-9;
		p = RunAll( "timeBudgetMs 1e-9", a.get(), pa, b.get(), pb, &def );
		if ( p.state == PD_STATE_PENETRATING )
		{
			EXPECT_TRUE( p.status == PD_STATUS_OK || p.status == PD_STATUS_TIME_LIMIT ) << pdGetStatusString( p.status );
		}
		timeCaps += p.status == PD_STATUS_TIME_LIMIT;
	}
	ASSERT_GT( penetrating, 0 );
	EXPECT_GT( iterationCaps, 0 ) << "maxIterations = 1 never reported PD_STATUS_ITERATION_LIMIT";
	EXPECT_GT( timeCaps, 0 ) << "a 1e-9 ms budget never reported PD_STATUS_TIME_LIMIT";
}

// ---------------------------------------------------------------------------------------------
// Hard geometry

TEST( PdRobustness, NeedleTriangles )
{
	// A fan of needles (length 2, width 1e-7) through a box, and a box of needles.
	Soup needles;
	for ( int i = 0; i < 24; ++i )
	{
		double a = 0.26 * i;
		uint32_t p0 = needles.Vertex( -1.0, 0.3 * std::cos( a ), 0.3 * std::sin( a ) );
		uint32_t p1 = needles.Vertex( 1.0, 0.3 * std::cos( a ), 0.3 * std::sin( a ) );
		uint32_t p2 = needles.Vertex( 1.0, 0.3 * std::cos( a ) + 1e-7, 0.3 * std::sin( a ) );
		needles.Tri( p0, p1, p2 );
	}
	MeshPtr a = needles.Create();
	Soup box = BoxSoup( { 0.5, 0.5, 0.5 } );
	MeshPtr b = box.Create();
	RunAll( "needles in box", a.get(), Pose( 0, 0, 0 ), b.get(), Pose( 0.1, 0, 0 ) );
	RunAll( "box in needles", b.get(), Pose( 0.3, 0.1, 0 ), a.get(), Pose( 0, 0, 0 ) );
	RunAll( "needles vs needles", a.get(), Pose( 0, 0.01, 0, 0.5, { 1, 0, 0 } ), a.get(), Pose( 0, 0, 0 ) );
}

TEST( PdRobustness, SliverTriangles )
{
	// Every face of a box split into slivers around a vertex 1e-9 off an edge.
	Soup s;
	uint32_t c[8];
	for ( int i = 0; i < 8; ++i )
	{
		c[i] = s.Vertex( ( i & 1 ) ? 1 : -1, ( i & 2 ) ? 1 : -1, ( i & 4 ) ? 1 : -1 );
	}
	// Outward quads (a, b, c, d counter-clockwise from outside).
	const int quads[6][4] = { { 0, 2, 3, 1 }, { 4, 5, 7, 6 }, { 0, 1, 5, 4 }, { 2, 6, 7, 3 }, { 0, 4, 6, 2 }, { 1, 3, 7, 5 } };
	for ( auto& q : quads )
	{
		// A vertex almost on edge a-b (1e-9 inside the face), fanned to the other corners.
		const double* va = &s.v[3 * c[q[0]]];
		const double* vb = &s.v[3 * c[q[1]]];
		const double* vd = &s.v[3 * c[q[3]]];
		double m[3];
		for ( int k = 0; k < 3; ++k )
		{
			m[k] = 0.5 * ( va[k] + vb[k] ) + 1e-9 * ( vd[k] - va[k] );
		}
		uint32_t mid = s.Vertex( m[0], m[1], m[2] );
		s.Tri( c[q[0]], mid, c[q[3]] );
		s.Tri( mid, c[q[1]], c[q[2]] );
		s.Tri( mid, c[q[2]], c[q[3]] );
		s.Tri( c[q[0]], c[q[1]], mid ); // the sliver itself (area ~1e-9)
	}
	MeshPtr a = s.Create();
	MeshPtr b = s.Create();
	RunAll( "slivers face", a.get(), Pose( 1.7, 0.1, 0.05 ), b.get(), Pose( 0, 0, 0 ) );
	RunAll( "slivers edge", a.get(), Pose( 1.9, 1.9, 0, 0.2, { 0, 0, 1 } ), b.get(), Pose( 0, 0, 0 ) );
	RunAll( "slivers deep", a.get(), Pose( 0.2, 0.3, 0.1, 0.7, { 1, 2, 3 } ), b.get(), Pose( 0, 0, 0 ) );
}

TEST( PdRobustness, CoplanarOverlappingSoups )
{
	// Flat squares in the same plane, overlapping; and a square lying in a box face.
	Soup sq;
	uint32_t v0 = sq.Vertex( -1, -1, 0 ), v1 = sq.Vertex( 1, -1, 0 ), v2 = sq.Vertex( 1, 1, 0 ), v3 = sq.Vertex( -1, 1, 0 );
	sq.Tri( v0, v1, v2 );
	sq.Tri( v0, v2, v3 );
	MeshPtr a = sq.Create();
	MeshPtr b = sq.Create();
	RunAll( "coplanar squares", a.get(), Pose( 0.5, 0.3, 0 ), b.get(), Pose( 0, 0, 0 ) );
	RunAll( "coplanar squares rotated", a.get(), Pose( 0.2, 0, 0, 0.7 ), b.get(), Pose( 0, 0, 0 ) );
	RunAll( "identical squares", a.get(), Pose( 0, 0, 0 ), b.get(), Pose( 0, 0, 0 ) );
	Soup box = BoxSoup( { 1, 1, 1 } );
	MeshPtr c = box.Create();
	RunAll( "square in box face", a.get(), Pose( 0.3, 0.2, 1.0 ), c.get(), Pose( 0, 0, 0 ) );
	RunAll( "identical boxes", c.get(), Pose( 0, 0, 0 ), c.get(), Pose( 0, 0, 0 ) );
}

TEST( PdRobustness, DuplicateAndFlippedTriangles )
{
	Soup box = BoxSoup( { 1, 1, 1 }, 2 );
	Soup dup = box;
	dup.idx.insert( dup.idx.end(), box.idx.begin(), box.idx.end() );
	MeshPtr d = dup.Create();
	Soup flipped = box;
	for ( size_t t = 0; t < flipped.idx.size(); t += 6 )
	{
		std::swap( flipped.idx[t + 1], flipped.idx[t + 2] );
	}
	MeshPtr f = flipped.Create();
	Soup inward = box;
	for ( size_t t = 0; t < inward.idx.size(); t += 3 )
	{
		std::swap( inward.idx[t + 1], inward.idx[t + 2] );
	}
	MeshPtr in = inward.Create();
	MeshPtr b = box.Create();
	RunAll( "duplicate vs box", d.get(), Pose( 1.5, 0.2, 0.1 ), b.get(), Pose( 0, 0, 0 ) );
	RunAll( "duplicate vs duplicate", d.get(), Pose( 0.3, 1.2, 0.1, 0.4 ), d.get(), Pose( 0, 0, 0 ) );
	RunAll( "flipped vs box", f.get(), Pose( 1.5, 0.2, 0.1 ), b.get(), Pose( 0, 0, 0 ) );
	RunAll( "flipped vs flipped", f.get(), Pose( 0.2, 0.1, 0.3, 1.0, { 1, 1, 1 } ), f.get(), Pose( 0, 0, 0 ) );
	RunAll( "inward vs box", in.get(), Pose( 1.5, 0.2, 0.1 ), b.get(), Pose( 0, 0, 0 ) );
	RunAll( "box vs inward", b.get(), Pose( 1.5, 0.2, 0.1 ), in.get(), Pose( 0, 0, 0 ) );
}

TEST( PdRobustness, OpenMeshesWithHoles )
{
	// A box without its top face, a grate, and a single triangle.
	Soup box = BoxSoup( { 1, 1, 1 }, 2 );
	Soup open;
	open.v = box.v;
	for ( size_t t = 0; t < box.idx.size(); t += 3 )
	{
		double z = ( box.v[3 * box.idx[t] + 2] + box.v[3 * box.idx[t + 1] + 2] + box.v[3 * box.idx[t + 2] + 2] ) / 3.0;
		if ( z < 0.999 )
		{
			open.Tri( box.idx[t], box.idx[t + 1], box.idx[t + 2] );
		}
	}
	MeshPtr o = open.Create();
	EXPECT_FALSE( pdMesh_GetInfo( o.get() ).closed );
	MeshPtr b = box.Create();
	MeshPtr grate = Shape( "grate", 800, 2.0 );
	Soup tri;
	tri.Tri( tri.Vertex( -1, -1, 0 ), tri.Vertex( 1, -1, 0 ), tri.Vertex( 0, 1, 0 ) );
	MeshPtr t = tri.Create();
	Soup small = BoxSoup( { 0.3, 0.3, 0.3 } );
	MeshPtr s = small.Create();
	RunAll( "small box inside open box", s.get(), Pose( 0, 0, 0 ), o.get(), Pose( 0, 0, 0 ) );
	RunAll( "small box through open top", s.get(), Pose( 0, 0, 1.0 ), o.get(), Pose( 0, 0, 0 ) );
	RunAll( "small box through the wall", s.get(), Pose( 1.0, 0.2, 0 ), o.get(), Pose( 0, 0, 0 ) );
	RunAll( "open vs open", o.get(), Pose( 0.4, 0.3, 0.5, 0.5, { 1, 0, 0 } ), o.get(), Pose( 0, 0, 0 ) );
	RunAll( "box vs grate", b.get(), Pose( 0.2, 0.1, 0.5 ), grate.get(), Pose( 0, 0, 0 ) );
	RunAll( "triangle vs box", t.get(), Pose( 0.1, 0.1, 0.5 ), b.get(), Pose( 0, 0, 0 ) );
	RunAll( "triangle vs triangle", t.get(), Pose( 0.1, 0, 0, 1.57, { 1, 0, 0 } ), t.get(), Pose( 0, 0, 0 ) );
}

TEST( PdRobustness, SelfIntersectingMeshes )
{
	// Two overlapping boxes in one soup, and a torus merged with a box through it.
	Soup s = BoxSoup( { 1, 0.4, 0.4 } );
	Soup second = BoxSoup( { 0.4, 1, 0.4 } );
	s.Append( second.View() );
	MeshPtr cross = s.Create();
	smpSoup torus = {};
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &torus ) );
	Soup tb = FromSoup( torus );
	smpFreeSoup( &torus );
	Soup bar = BoxSoup( { 1.5, 0.1, 0.1 } );
	tb.Append( bar.View() );
	MeshPtr torusBar = tb.Create();
	Soup box = BoxSoup( { 0.5, 0.5, 0.5 } );
	MeshPtr b = box.Create();
	RunAll( "cross vs box", cross.get(), Pose( 0.6, 0.6, 0.3 ), b.get(), Pose( 0, 0, 0 ) );
	RunAll( "cross vs cross", cross.get(), Pose( 0.1, 0.2, 0.3, 0.785 ), cross.get(), Pose( 0, 0, 0 ) );
	RunAll( "torus bar vs box", torusBar.get(), Pose( 1.0, 0.1, 0 ), b.get(), Pose( 0, 0, 0 ) );
	RunAll( "torus bar vs itself", torusBar.get(), Pose( 0.3, 0.2, 0.1, 1.0, { 1, 0, 0 } ), torusBar.get(),
			Pose( 0, 0, 0 ) );
}

TEST( PdRobustness, FarFromOrigin )
{
	// 1e6 offset in the vertices and in the poses; the overlap of 0.25 must be found at both.
	const double off = 1e6;
	Soup boxA = BoxSoup( { 1, 1, 1 }, 1, { off, off, -off } );
	Soup boxB = BoxSoup( { 1, 1, 1 }, 1, { off, off, -off } );
	MeshPtr a = boxA.Create();
	MeshPtr b = boxB.Create();
	pdPenetrationResult p = RunAll( "offset vertices", a.get(), Pose( 1.75, 0.1, 0.2 ), b.get(), Pose( 0, 0, 0 ) );
	EXPECT_EQ( p.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( p.depth, 0.25, 0.01 );
	Soup box = BoxSoup( { 1, 1, 1 } );
	MeshPtr c = box.Create();
	p = RunAll( "offset poses", c.get(), Pose( off + 1.75, off + 0.1, -off + 0.2 ), c.get(), Pose( off, off, -off ) );
	EXPECT_EQ( p.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( p.depth, 0.25, 0.01 );
	MeshPtr knot = Shape( "knot", 1500, 2.0 );
	MeshPtr torus = Shape( "torus", 1500, 2.0 );
	RunAll( "offset knot/torus", knot.get(), Pose( off + 0.2, off, off, 0.5, { 1, 0, 0 } ), torus.get(),
			Pose( off, off, off ) );
}

TEST( PdRobustness, TinyAndHugeScales )
{
	for ( double scale : { 1e-4, 1e-2, 1.0, 1e2, 1e4 } )
	{
		SCOPED_TRACE( "scale " + std::to_string( scale ) );
		Soup box = BoxSoup( { scale, scale, scale } );
		MeshPtr a = box.Create();
		pdPenetrationResult p =
			RunAll( "box pair", a.get(), Pose( 1.7 * scale, 0.2 * scale, 0.1 * scale ), a.get(), Pose( 0, 0, 0 ) );
		EXPECT_EQ( p.state, PD_STATE_PENETRATING );
		EXPECT_NEAR( p.depth, 0.3 * scale, 0.01 * scale );
		MeshPtr t = Shape( "torus", 800, 2.0 * scale );
		MeshPtr k = Shape( "spoon", 800, 2.0 * scale );
		RunAll( "torus/spoon", t.get(), Pose( 0.1 * scale, 0.05 * scale, 0, 0.8, { 0, 1, 0 } ), k.get(),
				Pose( 0, 0, 0 ) );
	}
}

TEST( PdRobustness, LongEdgesAgainstShallowPenetration )
{
	// A 200 x 200 slab made of 12 triangles (edges ~280) against a 0.1 box sunk 1e-3 into it
	// (ratio ~1e5, the Jolt #2065 class): the PD must be the shallow one.
	Soup slab = BoxSoup( { 100, 100, 0.5 } );
	MeshPtr s = slab.Create();
	Soup small = BoxSoup( { 0.05, 0.05, 0.05 } );
	MeshPtr b = small.Create();
	for ( pdVec3 at : { pdVec3{ 0, 0, 0 }, pdVec3{ 63.7, -41.2, 0 }, pdVec3{ 99.0, 99.0, 0 } } )
	{
		pdPenetrationResult p =
			RunAll( "small box on slab", b.get(), Pose( at.x, at.y, 0.5 + 0.05 - 1e-3 ), s.get(), Pose( 0, 0, 0 ) );
		EXPECT_EQ( p.state, PD_STATE_PENETRATING );
		EXPECT_NEAR( p.depth, 1e-3, 2e-4 ) << "at " << at.x << ", " << at.y;
		EXPECT_GT( p.translation.z, 0.0 );
		// And the other way round: the slab is A.
		p = RunAll( "slab on small box", s.get(), Pose( -at.x, -at.y, -( 0.5 + 0.05 - 1e-3 ) ), b.get(), Pose( 0, 0, 0 ) );
		EXPECT_EQ( p.state, PD_STATE_PENETRATING );
		EXPECT_NEAR( p.depth, 1e-3, 2e-4 );
	}
}

TEST( PdRobustness, FullyContained )
{
	Soup big = BoxSoup( { 2, 2, 2 } );
	Soup small = BoxSoup( { 0.5, 0.5, 0.5 } );
	MeshPtr a = small.Create();
	MeshPtr b = big.Create();
	// Small inside big, off-centre: must leave through the nearest wall (+x: 2 - 1.2 + 0.5 = 1.3).
	pdPenetrationResult p = RunAll( "small in big", a.get(), Pose( 1.2, 0.1, 0 ), b.get(), Pose( 0, 0, 0 ) );
	EXPECT_EQ( p.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( p.depth, 1.3, 0.013 );
	// Big around small: A must move 2.5 + ... along the shortest axis.
	p = RunAll( "big around small", b.get(), Pose( 0.3, 0, 0 ), a.get(), Pose( 0, 0, 0 ) );
	EXPECT_EQ( p.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( p.depth, 2.5 - 0.3, 0.025 );
	// Concave containment: a small sphere inside the solid torus tube (centre line through x = 1).
	smpSoup tor = {};
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 32, 16, &tor ) );
	Soup torusSoup = FromSoup( tor );
	smpFreeSoup( &tor );
	MeshPtr torus = torusSoup.Create();
	smpSoup sph = {};
	ASSERT_TRUE( smpMakeIcosphere( 0.05, 2, &sph ) );
	Soup sphere = FromSoup( sph );
	smpFreeSoup( &sph );
	MeshPtr s = sphere.Create();
	p = RunAll( "sphere in torus tube", s.get(), Pose( 1.0, 0, 0 ), torus.get(), Pose( 0, 0, 0 ) );
	EXPECT_EQ( p.state, PD_STATE_PENETRATING );
	EXPECT_LT( p.depth, 0.36 ) << "the tube wall is at most ~0.3 + 0.05 away";
	// Identical poses of the same closed mesh: fully coincident.
	RunAll( "coincident boxes", a.get(), Pose( 0, 0, 0 ), a.get(), Pose( 0, 0, 0 ) );
}

TEST( PdRobustness, ExactlyTouching )
{
	Soup box = BoxSoup( { 1, 1, 1 } );
	MeshPtr a = box.Create();
	struct Case
	{
		const char* name;
		pdTransform pose;
	};
	const double r2 = std::sqrt( 2.0 );
	const Case cases[] = {
		{ "face-face", Pose( 2.0, 0, 0 ) },
		{ "face-face offset", Pose( 2.0, 1.3, -0.7 ) },
		{ "edge-edge", Pose( 2.0, 2.0, 0 ) },
		{ "vertex-vertex", Pose( 2.0, 2.0, 2.0 ) },
		{ "edge on face", Pose( 1.0 + r2, 0.3, 0, 0.785398163397448, { 0, 0, 1 } ) },
		{ "face-face minus 1e-12", Pose( 2.0 - 1e-12, 0, 0 ) },
		{ "face-face plus 1e-12", Pose( 2.0 + 1e-12, 0, 0 ) },
	};
	for ( const Case& c : cases )
	{
		pdPenetrationResult p = RunAll( c.name, a.get(), c.pose, a.get(), Pose( 0, 0, 0 ) );
		SCOPED_TRACE( c.name );
		EXPECT_LE( p.depth, 1e-3 ) << "touching pair reported deep penetration";
		EXPECT_NE( p.state, PD_STATE_SEPARATED ) << "exact contact reported separated (distance <= tolerance)";
	}
}

TEST( PdRobustness, RandomSoupsNeverProduceNaN )
{
	// Small random soups (arbitrary triangles, some degenerate) at random poses.
	const unsigned seed = 12345;
	std::mt19937 rng( seed );
	std::uniform_real_distribution<double> u( -1.0, 1.0 );
	for ( int iter = 0; iter < 30; ++iter )
	{
		Soup sa, sb;
		for ( Soup* s : { &sa, &sb } )
		{
			int tris = 1 + (int)( rng() % 12 );
			for ( int t = 0; t < tris; ++t )
			{
				uint32_t i0 = s->Vertex( u( rng ), u( rng ), u( rng ) );
				uint32_t i1 = s->Vertex( u( rng ), u( rng ), u( rng ) );
				uint32_t i2 = ( rng() % 4 == 0 ) ? i0 + 0 : s->Vertex( u( rng ), u( rng ), u( rng ) );
				if ( i2 == i0 )
				{
					i2 = s->Vertex( s->v[3 * i1] * 0.5 + s->v[3 * i0] * 0.5, s->v[3 * i1 + 1] * 0.5 + s->v[3 * i0 + 1] * 0.5,
									s->v[3 * i1 + 2] * 0.5 + s->v[3 * i0 + 2] * 0.5 ); // collinear
					s->Tri( i0, i1, i2 );
					i2 = s->Vertex( u( rng ), u( rng ), u( rng ) );
				}
				s->Tri( i0, i1, i2 );
			}
		}
		MeshPtr a = sa.Create();
		MeshPtr b = sb.Create();
		ASSERT_TRUE( a && b ) << "seed " << seed << " iteration " << iter;
		pdTransform pa = Pose( 0.5 * u( rng ), 0.5 * u( rng ), 0.5 * u( rng ), 3.0 * u( rng ), { u( rng ), u( rng ), 1.0 } );
		RunAll( ( "random soup, seed 12345, iteration " + std::to_string( iter ) ).c_str(), a.get(), pa, b.get(),
				Pose( 0, 0, 0 ) );
	}
}

} // namespace
