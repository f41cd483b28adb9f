// SPDX-License-Identifier: MIT
// PdContactLocal: local-first contact (contact_local.c). A box wedged between two walls gets
// both walls, each with its own normal and depth, where the global PD would lift it out of the
// channel; a pair whose overlap the neighbourhood cannot explain (one solid inside the other)
// takes the global PD. Oracles: analytic depths of axis-aligned boxes.
#include "contact_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace
{

// Two walls as one closed mesh (two components): half sizes 0.01 x 0.1 x 0.1, inner faces at
// x = -gap/2 and x = +gap/2.
pdMesh* makeChannel( double gap )
{
	std::vector<double> v;
	std::vector<uint32_t> idx;
	for ( int side = -1; side <= 1; side += 2 )
	{
		smpSoup soup{};
		if ( !smpMakeBox( { 0.01, 0.1, 0.1 }, 1, &soup ) )
			return nullptr;
		uint32_t base = (uint32_t)( v.size() / 3 );
		for ( int i = 0; i < soup.vertexCount; ++i )
		{
			v.push_back( soup.vertices[3 * i] + side * ( 0.5 * gap + 0.01 ) );
			v.push_back( soup.vertices[3 * i + 1] );
			v.push_back( soup.vertices[3 * i + 2] );
		}
		for ( int i = 0; i < 3 * soup.triangleCount; ++i )
			idx.push_back( base + soup.indices[i] );
		smpFreeSoup( &soup );
	}
	return makeMesh( v, idx );
}

} // namespace

TEST( PdContactLocal, WedgedBoxGetsBothWallsWithTheirOwnDepths )
{
	// The box is 2 mm wider than the channel, 1 mm into each wall; lifting it out takes 0.15.
	MeshHolder channel{ makeChannel( 0.2 ) }, box{ makeBox( 0.101, 0.05, 0.05 ) };
	ASSERT_NE( channel.mesh, nullptr );
	ASSERT_NE( box.mesh, nullptr );
	ASSERT_TRUE( pdMesh_GetInfo( channel.mesh ).closed );
	WorkspaceHolder ws;
	pdTransform poseA = at( 0.0002, 0.0, 0.0 ), poseB = at( 0.0, 0.0, 0.0 ); // 1.2 mm right, 0.8 mm left
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	ASSERT_EQ( pdContactPair_Generate( &pair, box.mesh, &poseA, channel.mesh, &poseB, nullptr, ws.ws, &set ),
			   PD_STATUS_OK );
	EXPECT_TRUE( set.local );
	EXPECT_EQ( set.state, PD_STATE_PENETRATING );
	EXPECT_EQ( set.iterations, 0 ) << "no PD search";
	double deepestLeft = 0.0, deepestRight = 0.0;
	for ( int m = 0; m < set.manifoldCount; ++m )
	{
		const pdContactManifold& man = set.manifolds[m];
		EXPECT_GT( std::fabs( man.normal.x ), 0.999 ) << "manifold " << m << ": a wall's normal";
		for ( int k = 0; k < man.pointCount; ++k )
		{
			double depth = -man.points[k].distance;
			( man.normal.x > 0.0 ? deepestLeft : deepestRight ) =
				std::max( man.normal.x > 0.0 ? deepestLeft : deepestRight, depth );
		}
	}
	EXPECT_NEAR( deepestLeft, 0.0008, 1e-9 ) << "the left wall pushes the box right by its own depth";
	EXPECT_NEAR( deepestRight, 0.0012, 1e-9 ) << "the right wall pushes the box left by its own depth";
	EXPECT_NEAR( set.depth, 0.0012, 1e-9 ) << "the deepest region's own push";
	EXPECT_NEAR( set.translation.x, -0.0012, 1e-9 );
}

TEST( PdContactLocal, DrivenPairTakesTheGlobalPd )
{
	// The wedged box again, but one body is driven (kinematic): one escape direction for the pair.
	MeshHolder channel{ makeChannel( 0.2 ) }, box{ makeBox( 0.101, 0.05, 0.05 ) };
	WorkspaceHolder ws;
	pdTransform poseA = at( 0.0002, 0.0, 0.0 ), poseB = at( 0.0, 0.0, 0.0 );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactPair_SetDriven( &pair, true );
	pdContactManifoldSet set;
	ASSERT_GE( pdContactPair_Generate( &pair, box.mesh, &poseA, channel.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
	EXPECT_FALSE( set.local );
	EXPECT_EQ( set.state, PD_STATE_PENETRATING );
	EXPECT_GT( set.depth, 0.01 ) << "the global PD leaves the channel, far deeper than either wall";
	pdContactPair_SetDriven( &pair, false );
	ASSERT_GE( pdContactPair_Generate( &pair, box.mesh, &poseA, channel.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
	EXPECT_TRUE( set.local );
	pdContactPair_SetDriven( nullptr, true ); // ignored
}

TEST( PdContactLocal, SolidInsideTheOtherTakesTheGlobalPd )
{
	// A small cube wholly inside a big one, off centre: no surface within reach.
	MeshHolder small{ makeBox( 0.05, 0.05, 0.05 ) }, big{ makeBox( 1.0, 1.0, 1.0 ) };
	WorkspaceHolder ws;
	pdTransform poseA = at( 0.0, 0.8, 0.0 ), poseB = at( 0.0, 0.0, 0.0 );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	ASSERT_GE( pdContactPair_Generate( &pair, small.mesh, &poseA, big.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
	EXPECT_FALSE( set.local );
	EXPECT_EQ( set.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( set.translation.y, 0.25, 1e-3 ) << "out through the nearest face";
	ASSERT_GE( set.manifoldCount, 1 );
	EXPECT_NEAR( set.manifolds[0].normal.y, 1.0, 1e-6 );
}

TEST( PdContactLocal, DeepOverlapTakesTheGlobalPd )
{
	// A cube sunk 0.15 into a big block, far beyond the local reach (a twentieth of the smaller
	// body for a query without a motion hint, four times that on the second look).
	MeshHolder cube{ makeBox( 0.1, 0.1, 0.1 ) }, block{ makeBox( 1.0, 0.2, 1.0 ) };
	WorkspaceHolder ws;
	pdTransform poseA = at( 0.0, 0.2 + 0.1 - 0.15, 0.0 ), poseB = at( 0.0, 0.0, 0.0 );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	ASSERT_GE( pdContactPair_Generate( &pair, cube.mesh, &poseA, block.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
	EXPECT_FALSE( set.local );
	EXPECT_NEAR( set.depth, 0.15, 1e-3 );
	EXPECT_NEAR( set.translation.y, 0.15, 1e-3 );
}

TEST( PdContactLocal, OpenMeshTakesTheGlobalPath )
{
	MeshHolder floor{ makeFloor( 1.0, 4 ) }, box{ makeBox( 0.1, 0.1, 0.1 ) };
	WorkspaceHolder ws;
	pdTransform poseA = at( 0.0, 0.099, 0.0 ), poseB = at( 0.0, 0.0, 0.0 );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	ASSERT_GE( pdContactPair_Generate( &pair, box.mesh, &poseA, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
	EXPECT_FALSE( set.local );
	EXPECT_EQ( set.state, PD_STATE_PENETRATING );
}

TEST( PdContactLocal, SpheresSunkIntoEachOtherTakeTheGlobalPd )
{
	// Two icospheres (r 0.2, 320 triangles) from a pour, sunk 20 mm into each other along their
	// centre line while the last call read 1.3 mm: the lens they share is thicker than the local
	// reach, its inner vertices lie beyond it and cross nothing, and the pairs at its rim read
	// 0.4 mm. The inner balls' overlap (a certified lower bound on the PD) sends the pair to the
	// global PD.
	MeshHolder sphere{ makePourSphere() };
	ASSERT_NE( sphere.mesh, nullptr );
	WorkspaceHolder ws;
	pdTransform poseA = at( -0.21028827, 0.22013216, 0.19882914 ), poseB = at( -0.21587352, 0.59021109, 0.25857338 );
	poseA.q = pdQuat{ 0.999361244, -0.027969378, -0.022000865, 0.003283352 };
	poseB.q = pdQuat{ 0.998133833, 0.020785145, -0.006970365, 0.056993354 };
	pdPenetrationResult exact;
	ASSERT_GE( pdComputePenetration( sphere.mesh, &poseA, sphere.mesh, &poseB, nullptr, nullptr, ws.ws, &exact ), 0 );
	ASSERT_GT( exact.depth, 0.015 );
	pdContactDef def = pdDefaultContactDef();
	def.contactDistance = 0.0073;
	def.speculativeDistance = 0.059;
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	// The call before: the spheres 1.3 mm into each other along the same line.
	pdVec3 line = { poseB.p.x - poseA.p.x, poseB.p.y - poseA.p.y, poseB.p.z - poseA.p.z };
	double length = std::sqrt( line.x * line.x + line.y * line.y + line.z * line.z );
	double back = exact.depth - 0.0013;
	pdTransform before = poseA;
	before.p = { poseA.p.x - back * line.x / length, poseA.p.y - back * line.y / length,
				 poseA.p.z - back * line.z / length };
	ASSERT_GE( pdContactPair_Generate( &pair, sphere.mesh, &before, sphere.mesh, &poseB, &def, ws.ws, &set ), 0 );
	ASSERT_EQ( set.state, PD_STATE_PENETRATING );
	ASSERT_LT( set.depth, 0.004 );
	pdContactPair_SetRigidMotion( &pair, pdVec3{ -0.0250124, 0.00874049, -0.00867997 },
								  pdVec3{ -0.0218445, -0.0187035, -0.0117381 }, poseA.p );
	ASSERT_GE( pdContactPair_Generate( &pair, sphere.mesh, &poseA, sphere.mesh, &poseB, &def, ws.ws, &set ), 0 );
	std::printf( "spheres sunk %.1f mm: local %d, depth %.1f mm\n", 1e3 * exact.depth, (int)set.local,
				 1e3 * set.depth );
	EXPECT_FALSE( set.local );
	EXPECT_NEAR( set.depth, exact.depth, 0.02 * exact.depth );
}
