// SPDX-License-Identifier: MIT
// PdContact: one-sided surfaces (contact_one_sided.c). Oracle: the plain (two-sided) PD for the
// open floor.
#include "contact_pair.h" // the private pair state (plugin/src)
#include "contact_test_util.h"

#include <gtest/gtest.h>

#include <cstdio>

TEST( PdContact, OneSidedFloorResolvesTowardTheSideItCameFrom )
{
	MeshHolder box{ makeBox( 0.15, 0.15, 0.15 ) }, floor{ makeFloor( 1.0, 4 ) };
	ASSERT_NE( floor.mesh, nullptr );
	ASSERT_FALSE( pdMesh_GetInfo( floor.mesh ).closed );
	WorkspaceHolder ws;
	pdTransform poseB = at( 0, 0, 0 );
	// Bottom at -0.18, top at 0.12: the plain PD pushes it down through the floor (0.12 < 0.18).
	pdTransform through = at( 0.0, -0.03, 0.0 );

	{
		pdContactDef def = pdDefaultContactDef();
		def.oneSided = PD_ONE_SIDED_NEVER;
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		ASSERT_GE( pdContactPair_Generate( &pair, box.mesh, &through, floor.mesh, &poseB, &def, ws.ws, &set ), 0 );
		ASSERT_EQ( set.state, PD_STATE_PENETRATING );
		EXPECT_LT( set.translation.y, 0.0 ) << "oracle: the two-sided PD goes down";
	}
	{
		// The pair saw the box free above the floor last frame.
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		pdTransform above = at( 0.0, 0.16, 0.0 );
		ASSERT_GE( pdContactPair_Generate( &pair, box.mesh, &above, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		EXPECT_EQ( set.state, PD_STATE_SEPARATED );
		ASSERT_TRUE( pdiPairStateOf( &pair )->hasFreeSide );
		EXPECT_GT( pdiPairStateOf( &pair )->freeSide.y, 0.9 );
		ASSERT_GE( pdContactPair_Generate( &pair, box.mesh, &through, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		ASSERT_EQ( set.state, PD_STATE_PENETRATING );
		EXPECT_TRUE( set.resolvedOneSided );
		EXPECT_NEAR( set.translation.y, 0.18, 2e-3 ) << "pushed back up";
		ASSERT_GE( set.manifoldCount, 1 );
		EXPECT_GT( set.manifolds[0].normal.y, 0.99 );
		EXPECT_NEAR( set.manifolds[0].points[0].distance, -0.18, 2e-3 );
	}
	{
		// No history, but the motion hint says it came from above.
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactPair_SetMotion( &pair, { 0.0, -0.2, 0.0 } );
		pdContactManifoldSet set;
		ASSERT_GE( pdContactPair_Generate( &pair, box.mesh, &through, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		EXPECT_GT( set.translation.y, 0.1 );
		ASSERT_GE( set.manifoldCount, 1 );
		EXPECT_GT( set.manifolds[0].normal.y, 0.99 );
	}
	{
		// Came from below: stays below (the rule is "the side it came from", not "up").
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		pdTransform below = at( 0.0, -0.16, 0.0 );
		pdTransform nearTop = at( 0.0, 0.03, 0.0 ); // plain PD would go up
		ASSERT_GE( pdContactPair_Generate( &pair, box.mesh, &below, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		ASSERT_GE( pdContactPair_Generate( &pair, box.mesh, &nearTop, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		EXPECT_LT( set.translation.y, -0.1 );
	}
}
