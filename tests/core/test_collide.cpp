// SPDX-License-Identifier: MIT
// pdCollide (collide.c) against brute force over all triangle pairs: the verdict and the full
// set of intersecting pairs on random soups and generated shapes in random poses;
// containment; caps; invalid input; no allocation after warm-up.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "query_fixture.h"

extern "C"
{
#include "mesh.h"
#include "shapes.h"
#include "tri_distance.h"
#include "workspace.h"
}

using namespace polydepth::test;

namespace
{

std::set<std::pair<int, int>> BrutePairs( const pdMesh* a, const pdTransform& pa, const pdMesh* b,
										  const pdTransform& pb )
{
	std::vector<std::vector<pdVec3>> ta( a->triangleCount ), tb( b->triangleCount );
	for ( int i = 0; i < a->triangleCount; ++i )
	{
		ta[i].resize( 3 );
		WorldTriangle( a, pa, i, ta[i].data() );
	}
	for ( int j = 0; j < b->triangleCount; ++j )
	{
		tb[j].resize( 3 );
		WorldTriangle( b, pb, j, tb[j].data() );
	}
	std::set<std::pair<int, int>> out;
	for ( int i = 0; i < a->triangleCount; ++i )
	{
		for ( int j = 0; j < b->triangleCount; ++j )
		{
			if ( pdiTrianglesIntersect( ta[i].data(), tb[j].data() ) )
			{
				out.insert( { i, j } );
			}
		}
	}
	return out;
}

pdTransform Identity()
{
	return pdIdentityTransform();
}

// Full pair set with B at the identity (so world = B's frame and both sides test the very
// same coordinates) must equal brute force exactly.
void CheckPairSet( const pdMesh* a, const pdTransform& pa, const pdMesh* b, pdWorkspace* ws, const char* what )
{
	pdTransform pb = Identity();
	std::set<std::pair<int, int>> expected = BrutePairs( a, pa, b, pb );
	pdCollideDef def = pdDefaultCollideDef();
	def.reportAllPairs = true;
	def.maxPairs = 1 << 20;
	def.checkContainment = false;
	pdCollideResult r;
	ASSERT_EQ( pdCollide( a, &pa, b, &pb, &def, ws, &r ), PD_STATUS_OK ) << what;
	std::set<std::pair<int, int>> got;
	for ( int k = 0; k < r.pairCount; ++k )
	{
		got.insert( { r.pairs[k].triangleA, r.pairs[k].triangleB } );
	}
	EXPECT_EQ( (size_t)r.pairCount, got.size() ) << what << ": duplicate pairs";
	EXPECT_EQ( got, expected ) << what;
	EXPECT_EQ( r.colliding, !expected.empty() ) << what;

	// First-hit mode: same verdict, and the reported pair is a real one.
	pdCollideResult first;
	pdCollideDef firstDef = pdDefaultCollideDef();
	firstDef.checkContainment = false;
	ASSERT_EQ( pdCollide( a, &pa, b, &pb, &firstDef, ws, &first ), PD_STATUS_OK );
	EXPECT_EQ( first.colliding, !expected.empty() ) << what;
	if ( first.colliding )
	{
		ASSERT_EQ( first.pairCount, 1 );
		EXPECT_TRUE( expected.count( { first.pairs[0].triangleA, first.pairs[0].triangleB } ) ) << what;
		EXPECT_LE( first.nodeVisits, r.nodeVisits );
	}
}

} // namespace

TEST( PdCollide, PairSetEqualsBruteForceOnRandomSoups )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	for ( unsigned seed = 100; seed < 108; ++seed )
	{
		std::mt19937 rng( seed );
		pdMesh* a = MakeRandomSoup( rng, 120, 1.0, 0.35 );
		pdMesh* b = MakeRandomSoup( rng, 150, 1.0, 0.35 );
		ASSERT_TRUE( a && b );
		for ( int k = 0; k < 4; ++k )
		{
			pdTransform pa = RandomPose( rng, 1.2 );
			CheckPairSet( a, pa, b, ws, ( "seed " + std::to_string( seed ) + " pose " + std::to_string( k ) ).c_str() );
		}
		pdDestroyMesh( a );
		pdDestroyMesh( b );
	}
	pdDestroyWorkspace( ws );
}

TEST( PdCollide, PairSetEqualsBruteForceOnShapes )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	const char* names[][2] = {
		{ "torus", "knot" }, { "knot", "knot" }, { "torus", "torus" }, { "cup", "spoon" }, { "grate", "icosphere" } };
	unsigned seed = 200;
	for ( auto& pair : names )
	{
		pdMesh* a = MakeShape( pair[0], 250, 2.0 );
		pdMesh* b = MakeShape( pair[1], 300, 2.0 );
		ASSERT_TRUE( a && b );
		std::mt19937 rng( seed );
		for ( int k = 0; k < 4; ++k )
		{
			pdTransform pa = RandomPose( rng, 0.9 );
			std::string what = std::string( pair[0] ) + "/" + pair[1] + " seed " + std::to_string( seed ) + " pose " +
							   std::to_string( k );
			CheckPairSet( a, pa, b, ws, what.c_str() );
		}
		++seed;
		pdDestroyMesh( a );
		pdDestroyMesh( b );
	}
	pdDestroyWorkspace( ws );
}

TEST( PdCollide, VerdictEqualsBruteForceWithBothPosed )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "knot", 300, 2.0 );
	pdMesh* b = MakeShape( "torus", 300, 2.0 );
	ASSERT_TRUE( a && b );
	std::mt19937 rng( 300 );
	int hits = 0;
	for ( int k = 0; k < 16; ++k )
	{
		pdTransform pa = RandomPose( rng, 0.8 );
		pdTransform pb = RandomPose( rng, 0.8 );
		bool expected = !BrutePairs( a, pa, b, pb ).empty();
		pdCollideDef def = pdDefaultCollideDef();
		def.checkContainment = false;
		pdCollideResult r;
		ASSERT_EQ( pdCollide( a, &pa, b, &pb, &def, ws, &r ), PD_STATUS_OK );
		EXPECT_EQ( r.colliding, expected ) << "seed 300 pose " << k;
		hits += expected;
	}
	EXPECT_GT( hits, 2 );
	EXPECT_LT( hits, 14 );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}

TEST( PdCollide, ContainmentOfClosedMeshes )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* big = MakeBox( 2.0, 2.0, 2.0, 2 );
	pdMesh* small = MakeBox( 0.3, 0.2, 0.4, 1 );
	ASSERT_TRUE( big && small );
	std::mt19937 rng( 400 );
	pdTransform pb = RandomPose( rng, 3.0 );
	pdTransform inside = pb;
	inside.q = RandomPose( rng, 0.0 ).q;
	pdCollideResult r;
	// Small inside big, either way round.
	ASSERT_EQ( pdCollide( small, &inside, big, &pb, nullptr, ws, &r ), PD_STATUS_OK );
	EXPECT_TRUE( r.colliding );
	EXPECT_TRUE( r.containment );
	EXPECT_EQ( r.pairCount, 0 );
	ASSERT_EQ( pdCollide( big, &pb, small, &inside, nullptr, ws, &r ), PD_STATUS_OK );
	EXPECT_TRUE( r.colliding );
	EXPECT_TRUE( r.containment );
	// Switched off: not colliding.
	pdCollideDef def = pdDefaultCollideDef();
	def.checkContainment = false;
	ASSERT_EQ( pdCollide( small, &inside, big, &pb, &def, ws, &r ), PD_STATUS_OK );
	EXPECT_FALSE( r.colliding );
	// Outside (but inside the big box's bounding volume corner region): not colliding.
	pdTransform outside = pb;
	outside.p = pdiAdd( pb.p, pdVec3{ 0.0, 0.0, 3.0 } );
	ASSERT_EQ( pdCollide( small, &outside, big, &pb, nullptr, ws, &r ), PD_STATUS_OK );
	EXPECT_FALSE( r.colliding );
	EXPECT_FALSE( r.containment );
	// Crossing the surface: colliding through pairs, not containment.
	pdTransform crossing = pb;
	pdiFrame fb;
	pdiMakeFrame( &pb, &fb );
	crossing.p = pdiFrameApply( &fb, pdVec3{ 2.0, 0.0, 0.0 } );
	ASSERT_EQ( pdCollide( small, &crossing, big, &pb, nullptr, ws, &r ), PD_STATUS_OK );
	EXPECT_TRUE( r.colliding );
	EXPECT_FALSE( r.containment );
	EXPECT_EQ( r.pairCount, 1 );

	// An open big box never contains.
	smpSoup soup = {};
	ASSERT_TRUE( smpMakeBox( pdVec3{ 2.0, 2.0, 2.0 }, 2, &soup ) );
	soup.triangleCount -= 2;
	pdMesh* open = MakeMesh( &soup );
	smpFreeSoup( &soup );
	ASSERT_NE( open, nullptr );
	EXPECT_FALSE( open->closed );
	ASSERT_EQ( pdCollide( small, &inside, open, &pb, nullptr, ws, &r ), PD_STATUS_OK );
	EXPECT_FALSE( r.colliding );
	EXPECT_FALSE( r.containment );
	pdDestroyMesh( open );
	pdDestroyMesh( big );
	pdDestroyMesh( small );
	pdDestroyWorkspace( ws );
}

TEST( PdCollide, PairCapGivesFeatureLimit )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "torus", 600, 2.0 );
	pdMesh* b = MakeShape( "torus", 600, 2.0 );
	ASSERT_TRUE( a && b );
	pdTransform pa = Identity();
	pa.p.x = 0.3;
	pdCollideDef def = pdDefaultCollideDef();
	def.reportAllPairs = true;
	pdCollideResult all;
	pdTransform pb = Identity();
	ASSERT_EQ( pdCollide( a, &pa, b, &pb, &def, ws, &all ), PD_STATUS_OK );
	ASSERT_GT( all.pairCount, 8 );
	def.maxPairs = 5;
	pdCollideResult capped;
	EXPECT_EQ( pdCollide( a, &pa, b, &pb, &def, ws, &capped ), PD_STATUS_FEATURE_LIMIT );
	EXPECT_EQ( capped.status, PD_STATUS_FEATURE_LIMIT );
	EXPECT_TRUE( capped.colliding );
	EXPECT_EQ( capped.pairCount, 5 );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}

TEST( PdCollide, NodeVisitCapGivesTraversalLimit )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "knot", 800, 2.0 );
	pdMesh* b = MakeShape( "knot", 800, 2.0 );
	ASSERT_TRUE( a && b );
	pdTransform pa = Identity(), pb = Identity();
	pa.p.x = 0.05; // deep overlap: many node pairs to visit
	pdCollideDef def = pdDefaultCollideDef();
	def.reportAllPairs = true;
	def.maxNodeVisits = 3;
	pdCollideResult r;
	EXPECT_EQ( pdCollide( a, &pa, b, &pb, &def, ws, &r ), PD_STATUS_TRAVERSAL_LIMIT );
	EXPECT_EQ( r.status, PD_STATUS_TRAVERSAL_LIMIT );
	EXPECT_EQ( r.nodeVisits, 3 );
	def.maxNodeVisits = 0;
	EXPECT_EQ( pdCollide( a, &pa, b, &pb, &def, ws, &r ), PD_STATUS_INVALID_DEF );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}

TEST( PdCollide, InvalidInputsGiveStatusAndZeroedResult )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeBox( 1.0, 1.0, 1.0, 1 );
	ASSERT_NE( a, nullptr );
	pdTransform good = Identity();
	pdTransform nanPose = good;
	nanPose.p.y = std::nan( "" );
	pdTransform badQuat = good;
	badQuat.q.w = 1.1;
	pdCollideDef uninit;
	std::memset( &uninit, 0, sizeof( uninit ) );
	pdCollideResult r;
	auto zeroed = [&]( const pdCollideResult& x )
	{ return !x.colliding && !x.containment && x.pairCount == 0 && x.pairs == nullptr && x.nodeVisits == 0; };
	EXPECT_EQ( pdCollide( a, &nanPose, a, &good, nullptr, ws, &r ), PD_STATUS_INVALID_POSE );
	EXPECT_EQ( r.status, PD_STATUS_INVALID_POSE );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdCollide( a, &good, a, &badQuat, nullptr, ws, &r ), PD_STATUS_INVALID_POSE );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdCollide( a, nullptr, a, &good, nullptr, ws, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdCollide( nullptr, &good, a, &good, nullptr, ws, &r ), PD_STATUS_INVALID_MESH );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdCollide( a, &good, a, &good, nullptr, nullptr, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdCollide( a, &good, a, &good, &uninit, ws, &r ), PD_STATUS_DEF_NOT_INITIALIZED );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdCollide( a, &good, a, &good, nullptr, ws, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	// A finite but huge translation (its square overflows) is not a usable pose.
	pdTransform huge = good;
	huge.p.x = 1e200;
	EXPECT_EQ( pdCollide( a, &huge, a, &good, nullptr, ws, &r ), PD_STATUS_INVALID_POSE );
	EXPECT_TRUE( zeroed( r ) );
	// A destroyed-looking handle.
	pdMesh fake;
	std::memset( &fake, 0, sizeof( fake ) );
	EXPECT_EQ( pdCollide( &fake, &good, a, &good, nullptr, ws, &r ), PD_STATUS_INVALID_MESH );
	// Valid call for contrast.
	EXPECT_EQ( pdCollide( a, &good, a, &good, nullptr, ws, &r ), PD_STATUS_OK );
	EXPECT_TRUE( r.colliding );
	pdDestroyMesh( a );
	pdDestroyWorkspace( ws );
}

TEST( PdCollide, WarmWorkspaceDoesNotAllocate )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "knot", 600, 2.0 );
	pdMesh* b = MakeShape( "torus", 600, 2.0 );
	ASSERT_TRUE( a && b );
	std::mt19937 rng( 500 );
	std::vector<pdTransform> poses;
	for ( int k = 0; k < 20; ++k )
	{
		poses.push_back( RandomPose( rng, 1.0 ) );
	}
	pdCollideDef def = pdDefaultCollideDef();
	def.reportAllPairs = true;
	pdTransform pb = Identity();
	pdCollideResult r;
	for ( const pdTransform& p : poses )
	{
		pdCollide( a, &p, b, &pb, &def, ws, &r );
	}
	uint64_t before = pdGetAllocatorStats().allocations;
	for ( int rep = 0; rep < 3; ++rep )
	{
		for ( const pdTransform& p : poses )
		{
			ASSERT_GE( pdCollide( a, &p, b, &pb, &def, ws, &r ), 0 );
			pdCollide( a, &p, b, &pb, nullptr, ws, &r );
		}
	}
	EXPECT_EQ( pdGetAllocatorStats().allocations, before );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}
