// SPDX-License-Identifier: MIT
// PdContact: contact regions (contact_regions.c): separated pairs' closest-feature regions, each
// point's own gap, and the normals that join a region. Oracles: analytic gaps and normals.
#include "contact_test_util.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace
{

// The manifolds of a fresh pair (no history) at the poses, with the default def.
pdContactManifoldSet GenerateFresh( const pdMesh* a, const pdTransform& poseA, const pdMesh* b,
									const pdTransform& poseB, pdWorkspace* ws )
{
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	EXPECT_GE( pdContactPair_Generate( &pair, a, &poseA, b, &poseB, nullptr, ws, &set ), 0 );
	return set;
}

} // namespace

TEST( PdContact, SeparatedCloseContactsHavePositiveDistance )
{
	MeshHolder a{ makeBox( 0.2, 0.1, 0.2 ) }, b{ makeBox( 0.5, 0.1, 0.5 ) };
	WorkspaceHolder ws;
	pdContactDef def = pdDefaultContactDef();
	def.contactDistance = 0.02;
	pdTransform poseB = at( 0, 0, 0 );
	{
		pdTransform poseA = at( 0.0, 0.2 + 0.01, 0.0 ); // 1 cm gap
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		ASSERT_GE( pdContactPair_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, &set ), 0 );
		EXPECT_EQ( set.state, PD_STATE_SEPARATED );
		ASSERT_GE( set.manifoldCount, 1 );
		for ( int i = 0; i < set.manifoldCount; ++i )
		{
			const pdContactManifold& m = set.manifolds[i];
			EXPECT_GT( m.normal.y, 0.99 );
			EXPECT_LE( m.pointCount, PD_MAX_CONTACT_POINTS );
			for ( int k = 0; k < m.pointCount; ++k )
			{
				EXPECT_NEAR( m.points[k].distance, 0.01, 1e-6 );
				EXPECT_GT( m.points[k].distance, 0.0 );
			}
		}
	}
	{
		pdTransform poseA = at( 0.0, 0.2 + 0.05, 0.0 ); // beyond the contact distance
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		ASSERT_GE( pdContactPair_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, &set ), 0 );
		EXPECT_EQ( set.state, PD_STATE_SEPARATED );
		EXPECT_EQ( set.manifoldCount, 0 );
	}
}

TEST( PdContact, SlightlyTiltedRingOnAFloorIsNotReportedLevel )
{
	// A ring lying on a floor, tilted 0.2 mrad about z: its +x side 0.1 mm into the floor, its
	// -x side 0.1 mm above it. At the PD contact configuration (lifted 0.1 mm) the -x side is
	// 0.2 mm up, within the reach of the core's local PDs (1.5 x its tolerance, about 0.28 mm
	// here): the core counts it as touching. Reported at the full depth it would make the ring
	// look level and sunk, and a resting ring would stay tilted until the pair turned to touching
	// and it dropped; the plugin takes every point's gap from its own gathering.
	MeshHolder torus{ makeTorus( 16, 8 ) }; // coarse: the core's few local-PD points cover the ring
	MeshHolder floor{ makeFloor( 2.0, 8 ) };
	ASSERT_TRUE( torus.mesh != nullptr && floor.mesh != nullptr );
	WorkspaceHolder ws;
	pdTransform poseA = at( 0.0, 0.0, 0.0 );
	poseA.q = quatMul( axisAngle( 2, -2e-4 ), kFlat ); // +x side down
	poseA.p.y = -1e-4 - lowestRotatedY( torus.mesh, poseA.q );
	pdContactManifoldSet set = GenerateFresh( torus.mesh, poseA, floor.mesh, at( 0.0, 0.0, 0.0 ), ws.ws );
	ASSERT_EQ( set.state, PD_STATE_PENETRATING );
	ASSERT_EQ( set.manifoldCount, 1 );
	const pdContactManifold& m = set.manifolds[0];
	EXPECT_GT( m.normal.y, 0.9999 );
	bool deepSide = false, highSide = false;
	for ( int k = 0; k < m.pointCount; ++k )
	{
		const pdContactPoint& cp = m.points[k];
		SCOPED_TRACE( k );
		if ( cp.pointB.x > 0.4 )
		{
			deepSide = true;
			EXPECT_NEAR( cp.distance, -1e-4, 2e-5 ) << "the +x side is 0.1 mm in";
		}
		if ( cp.pointB.x < -0.4 )
		{
			highSide = true;
			EXPECT_GE( cp.distance, -1e-5 ) << "the -x side is above the floor, not 0.1 mm in";
		}
	}
	EXPECT_TRUE( deepSide && highSide ) << "the points span the ring";
}

TEST( PdContact, RingOnAFloorGridGetsOnlyTheFloorNormal )
{
	// A ring flat on a floor whose grid vertices lie under its bottom ring: there, floor edges
	// (the grid's diagonals among them) cross the ring's edges. Such a touching edge-edge pair
	// has the edges' cross product for a normal, up to 90 degrees from the floor's, though the
	// floor edge is not the floor's extreme along it (its faces are flat). Every region must
	// have the floor's normal: level and sunk or raised 0.01 mm, and tilted 0.2 mrad, turned
	// and shifted (the pose where, without the applicability test, a region came out with a
	// nearly horizontal normal; such regions pushed a resting torus sideways).
	MeshHolder torus{ makeTorus( 48, 16 ) };
	MeshHolder floor{ makeFloor( 2.0, 8 ) };
	ASSERT_TRUE( torus.mesh != nullptr && floor.mesh != nullptr );
	WorkspaceHolder ws;
	struct Pose
	{
		double dx, tilt, yaw, height;
	} poses[] = { { 0.0, 0.0, 0.0, -1e-5 }, { 0.0, 0.0, 0.0, 1e-5 }, { 3e-4, 2e-4, 0.13, 1e-4 } };
	pdTransform poseB = at( 0.0, 0.0, 0.0 );
	for ( const Pose& p : poses )
	{
		SCOPED_TRACE( p.height );
		SCOPED_TRACE( p.tilt );
		// Flat, then the tilt about z, then the yaw about y.
		pdTransform poseA = at( p.dx, 0.15 + p.height, 0.0 );
		poseA.q = quatMul( axisAngle( 1, p.yaw ), quatMul( axisAngle( 2, p.tilt ), kFlat ) );
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		ASSERT_GE( pdContactPair_Generate( &pair, torus.mesh, &poseA, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		ASSERT_GE( set.manifoldCount, 1 );
		for ( int i = 0; i < set.manifoldCount; ++i )
		{
			EXPECT_GT( set.manifolds[i].normal.y, std::cos( 1.0 * 3.14159265358979323846 / 180.0 ) )
				<< "region " << i << " of " << set.manifoldCount;
		}
	}
}

TEST( PdContact, BoxRestingOnABoxFaceGetsOneManifoldOfItsCorners )
{
	// A 0.4 x 0.2 x 0.4 box resting on a 1 x 0.2 x 1 box's top face (y = 0.1): 1 mm in, and
	// shifted so its footprint overhangs nothing. The contact is one face patch: one manifold
	// whose 4 points are the footprint's corners.
	MeshHolder a{ makeBox( 0.2, 0.1, 0.2 ) }, b{ makeBox( 0.5, 0.1, 0.5 ) };
	WorkspaceHolder ws;
	const double cx = 0.13, cz = -0.07;
	pdContactManifoldSet set = GenerateFresh( a.mesh, at( cx, 0.2 - 1e-3, cz ), b.mesh, at( 0.0, 0.0, 0.0 ), ws.ws );
	ASSERT_EQ( set.state, PD_STATE_PENETRATING );
	ASSERT_EQ( set.manifoldCount, 1 ) << "one face patch, one manifold";
	const pdContactManifold& m = set.manifolds[0];
	EXPECT_NEAR( m.normal.y, 1.0, 1e-9 );
	ASSERT_EQ( m.pointCount, 4 );
	bool corner[4] = { false, false, false, false };
	for ( int k = 0; k < m.pointCount; ++k )
	{
		const pdContactPoint& p = m.points[k];
		EXPECT_NEAR( p.pointB.y, 0.1, 1e-9 );
		EXPECT_NEAR( p.distance, -1e-3, 1e-5 );
		for ( int c = 0; c < 4; ++c )
		{
			double x = cx + ( c & 1 ? 0.2 : -0.2 ), z = cz + ( c & 2 ? 0.2 : -0.2 );
			corner[c] = corner[c] || ( std::fabs( p.pointB.x - x ) < 1e-6 && std::fabs( p.pointB.z - z ) < 1e-6 );
		}
	}
	EXPECT_TRUE( corner[0] && corner[1] && corner[2] && corner[3] ) << "the footprint's 4 corners";
}

TEST( PdContact, VertexSunkIntoAThinPlateGetsNoContactWithItsUnderside )
{
	// A 10 cm cube sunk 12 mm into a 4 cm plate, with a speculative reach past the plate's
	// underside: the cube's bottom vertices lie 28 mm above the underside, behind its face.
	// Reported along the push (+y) such a pair reads +28 mm at the very point of the cube
	// where the top reads -12 mm, and Bullet keeps one of the two points a body's point maps to.
	MeshHolder cube{ makeBox( 0.05, 0.05, 0.05 ) }, plate{ makeBox( 0.5, 0.02, 0.5 ) };
	ASSERT_NE( cube.mesh, nullptr );
	ASSERT_NE( plate.mesh, nullptr );
	WorkspaceHolder ws;
	pdContactDef def = pdDefaultContactDef();
	def.speculativeDistance = 0.05;
	const double depth = 0.012;
	pdTransform poseA = at( 0.1, 0.02 + 0.05 - depth, 0.05 ), poseB = at( 0, 0, 0 );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	ASSERT_GE( pdContactPair_Generate( &pair, cube.mesh, &poseA, plate.mesh, &poseB, &def, ws.ws, &set ), 0 );
	EXPECT_EQ( set.state, PD_STATE_PENETRATING );
	int points = 0;
	for ( int i = 0; i < set.manifoldCount; ++i )
	{
		const pdContactManifold& m = set.manifolds[i];
		for ( int k = 0; k < m.pointCount; ++k, ++points )
		{
			const pdContactPoint& p = m.points[k];
			EXPECT_GT( p.pointB.y, 0.0 ) << "a point on the plate's underside, distance " << p.distance;
			if ( m.normal.y > 0.99 )
			{
				EXPECT_NEAR( p.distance, -depth, 1e-4 );
			}
		}
	}
	EXPECT_GE( points, 4 );
}

TEST( PdContact, BoxTippingOntoATubeGetsPointsOverItsWholeOverlap )
{
	// A 0.24 x 0.18 x 0.16 box (12 triangles, as Bullet's btBoxShape) tipping onto the top of a
	// torus tube (R 0.5, r 0.15, 48 x 16 segments, axis z), falling and spinning (the step's
	// motion as Bullet gives it), 16.6 mm deep: a pose from the mixed scene. Its bottom face
	// overlaps the tube from the tangent point under one end to 6 mm deep under the other, but
	// only the tangent point is locally closest: the rest of the overlap has no applicable
	// feature pair, and a manifold of that one point let the box turn about it and sink its
	// other end 33 mm into the tube in the next step. The push's manifold must carry
	// penetrating points over the overlap.
	smpSoup soup{};
	ASSERT_TRUE( smpMakeBox( { 0.12, 0.09, 0.08 }, 1, &soup ) );
	MeshHolder box{ smpSoupCreateMesh( &soup, nullptr ) }, torus{ makeTorus( 48, 16 ) };
	smpFreeSoup( &soup );
	ASSERT_NE( box.mesh, nullptr );
	ASSERT_NE( torus.mesh, nullptr );
	WorkspaceHolder ws;
	pdTransform poseBox = at( 0.201014042, 0.499002934, -0.219770283 );
	poseBox.q = { -0.068149053, 0.784153104, 0.587648630, 0.187426522 };
	pdContactDef def = pdDefaultContactDef();
	def.contactDistance = 0.003397;
	def.speculativeDistance = 0.072128;
	def.relativeSkin = 2.5e-4;
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactPair_SetRigidMotion( &pair, { -0.010137, 0.007272, 0.036526 }, { -0.177775, -0.049529, -0.069125 },
								  poseBox.p );
	pdTransform poseTorus = at( 0.0, 0.0, 0.0 );
	pdContactManifoldSet set;
	ASSERT_GE( pdContactPair_Generate( &pair, box.mesh, &poseBox, torus.mesh, &poseTorus, &def, ws.ws, &set ), 0 );
	ASSERT_EQ( set.state, PD_STATE_PENETRATING );
	std::vector<pdVec3> inside;
	double deepest = 0.0;
	for ( int i = 0; i < set.manifoldCount; ++i )
	{
		for ( int k = 0; k < set.manifolds[i].pointCount; ++k )
		{
			const pdContactPoint& p = set.manifolds[i].points[k];
			deepest = std::fmin( deepest, p.distance );
			if ( p.distance < 0.0 )
			{
				inside.push_back( p.pointB );
			}
		}
	}
	double spread = 0.0;
	for ( const pdVec3& a : inside )
	{
		for ( const pdVec3& b : inside )
		{
			spread = std::fmax( spread, std::hypot( a.x - b.x, a.y - b.y, a.z - b.z ) );
		}
	}
	EXPECT_GE( inside.size(), 3u ) << "the overlap's extent, not its tangent point alone";
	EXPECT_GT( spread, 0.1 ) << "penetrating points under both ends of the box";
	EXPECT_NEAR( deepest, -set.depth, 0.1 * set.depth ) << "the deepest point carries the push's depth";
}
