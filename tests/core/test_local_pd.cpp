// SPDX-License-Identifier: MIT
// Local PDs (local_pd.c): the regions of the contacts at the global PD, from the query and from
// features the caller gathered.
#include "feature_calls.h"
#include "penetration_test.h"

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
		ASSERT_GE( testContactFeatures( a.mesh, &moved, b.mesh, &pb, 20.0 * tol, approach, 256, ws, &count,
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
