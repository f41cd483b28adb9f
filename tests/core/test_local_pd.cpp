// SPDX-License-Identifier: MIT
// Local PDs (local_pd.c): the regions of the contacts at the global PD, from the query and from
// features the caller gathered.
#include "feature_calls.h"
#include "penetration_test.h"
#include "plugin_interface.h"

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
		pdiPenetrationOptions def;
		ASSERT_EQ( pdiPlugin_ResolvePenetrationDef( nullptr, &def ), PD_STATUS_OK );
		pdPenetrationResult full = Run( a, pa, b, pb, nullptr );
		def.computeLocalPenetrations = false;
		pdPenetrationResult bare;
		pdiPlugin_ComputePenetration( a.mesh, &pa, b.mesh, &pb, &def, nullptr, ws, &bare );
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
		ASSERT_EQ( pdiPlugin_ComputeLocalPenetrations( a.mesh, b.mesh, &def, features, count, &bare ), PD_STATUS_OK );
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
	pdiPenetrationOptions options;
	ASSERT_EQ( pdiPlugin_ResolvePenetrationDef( nullptr, &options ), PD_STATUS_OK );
	EXPECT_EQ( pdiPlugin_ComputeLocalPenetrations( a.mesh, a.mesh, &options, nullptr, 0, nullptr ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdiPlugin_ComputeLocalPenetrations( a.mesh, a.mesh, &options, nullptr, 3, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdiPlugin_ComputeLocalPenetrations( a.mesh, a.mesh, &options, nullptr, -1, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdiPlugin_ComputeLocalPenetrations( nullptr, a.mesh, &options, nullptr, 0, &r ), PD_STATUS_INVALID_MESH );
	// Far features and a result that is not penetrating give no regions.
	pdContactFeature far = {};
	far.kind = PD_CONTACT_VF;
	far.normal = { 0.0, 0.0, 1.0 };
	far.distance = 0.05;
	EXPECT_EQ( pdiPlugin_ComputeLocalPenetrations( a.mesh, a.mesh, &options, &far, 1, &r ), PD_STATUS_OK );
	EXPECT_EQ( r.localCount, 0 );
	far.distance = 0.0;
	EXPECT_EQ( pdiPlugin_ComputeLocalPenetrations( a.mesh, a.mesh, &options, &far, 1, &r ), PD_STATUS_OK );
	EXPECT_EQ( r.localCount, 1 );
	r.state = PD_STATE_SEPARATED;
	EXPECT_EQ( pdiPlugin_ComputeLocalPenetrations( a.mesh, a.mesh, &options, &far, 1, &r ), PD_STATUS_OK );
	EXPECT_EQ( r.localCount, 0 );
}

// One connected planar patch of contact is one region with its extent: the local PDs of a face,
// an edge and a vertex resting on a face, a box flat on a cup's inner bottom and a torus lying
// on a floor. Oracle: the patch's analytic corners (or ring), on B's face at the contact.
namespace
{

// The number of points of l within 1e-6 of p.
int CountNear( const pdLocalPenetration& l, pdVec3 p )
{
	int n = 0;
	for ( int k = 0; k < l.pointCount; ++k )
	{
		n += Length( Sub( l.points[k], p ) ) < 1e-6 ? 1 : 0;
	}
	return n;
}

// The one region's normal and depth, and every point on B's plane `z` inside [lo, hi] (x, y),
// all within tol (the normal's cosine within tol of 1, the depth within 1e-3 of it relative).
void ExpectOneRegion( const pdPenetrationResult& r, pdVec3 normal, double depth, double z, pdVec3 lo, pdVec3 hi,
					  double tol = 1e-6 )
{
	ASSERT_EQ( r.state, PD_STATE_PENETRATING );
	ASSERT_EQ( r.localCount, 1 ) << "one connected planar patch, one region";
	const pdLocalPenetration& l = r.local[0];
	EXPECT_NEAR( Dot( l.normal, normal ), 1.0, tol );
	EXPECT_NEAR( l.depth, depth, 1e-3 * depth + tol );
	ASSERT_GE( l.pointCount, 1 );
	ASSERT_LE( l.pointCount, PD_MAX_REGION_POINTS );
	for ( int k = 0; k < l.pointCount; ++k )
	{
		SCOPED_TRACE( k );
		EXPECT_NEAR( Dot( l.points[k], normal ), z, 1e-6 );
		EXPECT_TRUE( l.points[k].x >= lo.x - tol && l.points[k].x <= hi.x + tol );
		EXPECT_TRUE( l.points[k].y >= lo.y - tol && l.points[k].y <= hi.y + tol );
		for ( int j = 0; j < k; ++j )
		{
			EXPECT_GT( Length( Sub( l.points[k], l.points[j] ) ), 1e-9 ) << "a point repeated";
		}
	}
}

// A unit cube turned by angle about the unit axis.
pdQuat AxisAngle( pdVec3 axis, double angle )
{
	double s = std::sin( 0.5 * angle );
	return { std::cos( 0.5 * angle ), s * axis.x, s * axis.y, s * axis.z };
}

} // namespace

TEST_F( PdPenetration, LocalRegionOfAFaceContactHoldsTheFacesCorners )
{
	for ( int subdivisions : { 1, 2 } )
	{
		SCOPED_TRACE( subdivisions );
		Mesh a, b;
		ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, subdivisions, &a.soup ) && a.Make() );
		ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, subdivisions, &b.soup ) && b.Make() );
		// A 0.3 into B's +x face, shifted 0.1 along y: the patch is x = 0.5, y in [-0.4, 0.5].
		// Turned so the test's plane check reads z: B's +x face is the plane "z" = 0.5 below.
		pdPenetrationResult r = Run( a, Pose( { 0.7, 0.1, 0.0 } ), b, Pose( { 0, 0, 0 } ) );
		ASSERT_EQ( r.state, PD_STATE_PENETRATING );
		ASSERT_EQ( r.localCount, 1 ) << "one face contact, one region";
		const pdLocalPenetration& l = r.local[0];
		EXPECT_NEAR( l.normal.x, 1.0, 1e-9 );
		EXPECT_NEAR( l.depth, 0.3, 1e-3 );
		for ( int k = 0; k < l.pointCount; ++k )
		{
			EXPECT_NEAR( l.points[k].x, 0.5, 1e-6 );
			EXPECT_TRUE( l.points[k].y >= -0.4 - 1e-6 && l.points[k].y <= 0.5 + 1e-6 );
			EXPECT_TRUE( std::fabs( l.points[k].z ) <= 0.5 + 1e-6 );
		}
		for ( pdVec3 corner : { pdVec3{ 0.5, -0.4, -0.5 }, pdVec3{ 0.5, 0.5, -0.5 }, pdVec3{ 0.5, 0.5, 0.5 },
								pdVec3{ 0.5, -0.4, 0.5 } } )
		{
			EXPECT_EQ( CountNear( l, corner ), 1 ) << "corner " << corner.y << " " << corner.z;
		}
	}
}

TEST_F( PdPenetration, LocalRegionOfAnEdgeContactSpansTheEdge )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 1, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeBox( { 1.0, 1.0, 0.5 }, 2, &b.soup ) && b.Make() );
	// Turned 45 degrees about x: the lowest edge runs along x, 0.05 into B's top face.
	pdQuat q = AxisAngle( { 1, 0, 0 }, 0.25 * 3.14159265358979323846 );
	pdPenetrationResult r = Run( a, Pose( { 0.1, 0.13, 0.5 + std::sqrt( 0.5 ) - 0.05 }, q ), b, Pose( { 0, 0, 0 } ) );
	ExpectOneRegion( r, { 0, 0, 1 }, 0.05, 0.5, { -0.4, 0.13, 0 }, { 0.6, 0.13, 0 } );
	if ( r.localCount == 1 )
	{
		EXPECT_EQ( CountNear( r.local[0], { -0.4, 0.13, 0.5 } ), 1 );
		EXPECT_EQ( CountNear( r.local[0], { 0.6, 0.13, 0.5 } ), 1 );
	}
}

TEST_F( PdPenetration, LocalRegionOfAVertexContactIsItsPoint )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 1, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeBox( { 1.0, 1.0, 0.5 }, 2, &b.soup ) && b.Make() );
	// Turned so the corner (-0.5, -0.5, -0.5) points straight down, 0.05 into B's top face.
	const double s3 = std::sqrt( 3.0 );
	pdQuat q = AxisAngle( { 1.0 / std::sqrt( 2.0 ), -1.0 / std::sqrt( 2.0 ), 0.0 }, std::acos( 1.0 / s3 ) );
	pdPenetrationResult r = Run( a, Pose( { 0.13, 0.07, 0.5 + 0.5 * s3 - 0.05 }, q ), b, Pose( { 0, 0, 0 } ) );
	ExpectOneRegion( r, { 0, 0, 1 }, 0.05, 0.5, { 0.13, 0.07, 0 }, { 0.13, 0.07, 0 } );
	if ( r.localCount == 1 )
	{
		EXPECT_EQ( r.local[0].pointCount, 1 );
	}
}

TEST_F( PdPenetration, LocalRegionOfABoxFlatInACupHoldsItsBottomCorners )
{
	Mesh box, cup;
	ASSERT_TRUE( smpMakeBox( { 0.3, 0.3, 0.2 }, 1, &box.soup ) && box.Make() );
	ASSERT_TRUE( smpMakeCup( 1.0, 1.0, 0.1, 32, &cup.soup ) && cup.Make() );
	// The cup's inner bottom is z = -0.4; the box's bottom 0.02 below it.
	pdPenetrationResult r = Run( box, Pose( { 0.05, 0.02, -0.4 + 0.2 - 0.02 } ), cup, Pose( { 0, 0, 0 } ) );
	ExpectOneRegion( r, { 0, 0, 1 }, 0.02, -0.4, { -0.25, -0.28, 0 }, { 0.35, 0.32, 0 } );
	if ( r.localCount == 1 )
	{
		for ( pdVec3 corner : { pdVec3{ -0.25, -0.28, -0.4 }, pdVec3{ 0.35, -0.28, -0.4 }, pdVec3{ 0.35, 0.32, -0.4 },
								pdVec3{ -0.25, 0.32, -0.4 } } )
		{
			EXPECT_EQ( CountNear( r.local[0], corner ), 1 ) << "corner " << corner.x << " " << corner.y;
		}
	}
}

TEST_F( PdPenetration, LocalRegionOfATorusOnAFloorIsItsRing )
{
	Mesh torus, floor;
	// 24 x 12: a ring of 24 vertices at the bottom (z = -0.3), 1.0 from the axis.
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &torus.soup ) && torus.Make() );
	ASSERT_TRUE( smpMakeBox( { 3.0, 3.0, 0.5 }, 1, &floor.soup ) && floor.Make() );
	pdPenetrationResult r = Run( torus, Pose( { 0, 0, 0.3 - 0.01 } ), floor, Pose( { 0, 0, -0.5 } ) );
	// The answer may lean within the contact tolerance (2e-4 here): so may the ring's points.
	ExpectOneRegion( r, { 0, 0, 1 }, 0.01, 0.0, { -1, -1, 0 }, { 1, 1, 0 }, 1e-3 );
	if ( r.localCount == 1 )
	{
		const pdLocalPenetration& l = r.local[0];
		EXPECT_EQ( l.pointCount, PD_MAX_REGION_POINTS ) << "more ring points than the region keeps";
		pdVec3 lo = { 1e9, 1e9, 0 }, hi = { -1e9, -1e9, 0 };
		for ( int k = 0; k < l.pointCount; ++k )
		{
			EXPECT_NEAR( std::hypot( l.points[k].x, l.points[k].y ), 1.0, 1e-3 ) << "a ring vertex";
			lo = { std::min( lo.x, l.points[k].x ), std::min( lo.y, l.points[k].y ), 0 };
			hi = { std::max( hi.x, l.points[k].x ), std::max( hi.y, l.points[k].y ), 0 };
		}
		// The kept points are the ring's extremes: they span it both ways.
		EXPECT_GT( hi.x - lo.x, 1.9 );
		EXPECT_GT( hi.y - lo.y, 1.9 );
	}
}
