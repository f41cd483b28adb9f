// SPDX-License-Identifier: MIT
// The classification of a pair by the PolyDepth query (classify.c): apart, touching or
// penetrating, confirmed apart by one proof traversal, and the gathering that confirms it.
#include "feature_calls.h"
#include "plugin_interface.h"
#include "penetration_test.h"

#include <cstring>

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
	memset( &cache, 0, sizeof( cache ) );
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
	memset( &cache, 0, sizeof( cache ) );
	pdPenetrationResult first = Run( a, linked, b, pb, nullptr, &cache );
	pdPenetrationResult second = Run( a, linked, b, pb, nullptr, &cache );
	EXPECT_EQ( first.state, PD_STATE_SEPARATED );
	EXPECT_EQ( second.state, PD_STATE_SEPARATED );
	// The proof alone: reach and gap the tolerance, no features, ending at the first pair within.
	pdContactFeatureDef proof = pdDefaultContactFeatureDef();
	proof.reach = tol;
	proof.maxFeatures = 0;
	proof.gap = tol;
	pdiGapProof gapProof = { true, false, false };
	pdContactFeatureResult r;
	ASSERT_EQ( pdiPlugin_ComputeContactFeatures( a.mesh, &linked, b.mesh, &pb, &proof, gapProof, ws, &r ), PD_STATUS_OK );
	int count = r.featureCount, proofVisits = r.nodeVisits;
	bool apart = r.apart;
	EXPECT_TRUE( apart );
	EXPECT_EQ( count, 0 );
	EXPECT_GT( proofVisits, 0 );
	EXPECT_EQ( second.nodeVisits, proofVisits );
	EXPECT_NE( first.nodeVisits, proofVisits );
	// Moved within the tolerance of touching, the proof ends at the first pair within it.
	pdTransform near = Pose( { 2.6 + 0.5 * tol, 0.0, 0.0 } );
	ASSERT_EQ( pdiPlugin_ComputeContactFeatures( a.mesh, &near, b.mesh, &pb, &proof, gapProof, ws, &r ), PD_STATUS_OK );
	count = r.featureCount;
	apart = r.apart;
	EXPECT_FALSE( apart );
	EXPECT_EQ( count, 0 );

	// A small closed box that was apart from a big one and is now wholly inside it.
	Mesh small, big;
	ASSERT_TRUE( smpMakeBox( { 0.2, 0.2, 0.2 }, 1, &small.soup ) && small.Make() );
	ASSERT_TRUE( smpMakeBox( { 1.0, 1.0, 1.0 }, 1, &big.soup ) && big.Make() );
	pdPenetrationDef def = NoExactPath();
	memset( &cache, 0, sizeof( cache ) );
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
	memset( &cache, 0, sizeof( cache ) );
	memset( &queryCache, 0, sizeof( queryCache ) );
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
		ASSERT_EQ( testConfirmApart( a.mesh, &pa, b.mesh, &pb, tol, true, &cache, reach, approach, 256, ws, &apart, &count,
									 &features ),
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
		ASSERT_EQ( testContactFeatures( a.mesh, &pa, b.mesh, &pb, reach, approach, 256, ws, &expectedCount, &expected ),
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
	ASSERT_EQ( testConfirmApart( a.mesh, &far, b.mesh, &pb, tol, true, nullptr, reach, approach, 256, ws, &apart, &count,
								 &features ),
			   PD_STATUS_OK );
	EXPECT_TRUE( apart );

	// A small closed box that was apart from a big one and is now wholly inside it.
	Mesh small, big;
	ASSERT_TRUE( smpMakeBox( { 0.2, 0.2, 0.2 }, 1, &small.soup ) && small.Make() );
	ASSERT_TRUE( smpMakeBox( { 1.0, 1.0, 1.0 }, 1, &big.soup ) && big.Make() );
	pdPenetrationDef def = NoExactPath();
	memset( &cache, 0, sizeof( cache ) );
	EXPECT_EQ( Run( small, Pose( { 3.0, 0.0, 0.0 } ), big, pb, &def, &cache ).state, PD_STATE_SEPARATED );
	ASSERT_TRUE( cache.lastSeparated );
	pdTransform inside = Pose( { 0.3, 0.1, 0.0 } );
	apart = true;
	ASSERT_EQ( testConfirmApart( small.mesh, &inside, big.mesh, &pb, Tolerance( small.mesh, big.mesh ), def.closedAsSolid,
								 &cache, reach, approach, 256, ws, &apart, &count, &features ),
			   PD_STATUS_OK );
	EXPECT_FALSE( apart );
	EXPECT_EQ( count, 0 );

	// Bad input: a reach below the gap, a missing result, an uninitialised def.
	pdContactFeatureDef confirm = pdDefaultContactFeatureDef();
	confirm.reach = 0.5 * tol;
	confirm.gap = tol;
	pdiGapProof confirmProof = { true, false, false };
	pdContactFeatureResult r;
	EXPECT_EQ( pdiPlugin_ComputeContactFeatures( a.mesh, &far, b.mesh, &pb, &confirm, confirmProof, ws, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_FALSE( r.apart );
	confirm.reach = reach;
	EXPECT_EQ( pdiPlugin_ComputeContactFeatures( a.mesh, &far, b.mesh, &pb, &confirm, confirmProof, ws, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	pdContactFeatureDef zero;
	std::memset( &zero, 0, sizeof( zero ) );
	EXPECT_EQ( pdComputeContactFeatures( a.mesh, &far, b.mesh, &pb, &zero, ws, &r ), PD_STATUS_DEF_NOT_INITIALIZED );
}
