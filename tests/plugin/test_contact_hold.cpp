// SPDX-License-Identifier: MIT
// PdContactHold: persistent contact (contact_hold.c). A resting pair's manifolds answer the
// calls that follow while A has moved relative to B by less than the hold's bound; the answers
// stay close to what a full call gives, and anything that breaks the bound takes a full call.
#include "contact_pair.h" // the private pair state (plugin/src)
#include "contact_test_util.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace
{

double deepestOf( const pdContactManifoldSet& set )
{
	double deepest = 1e30;
	for ( int m = 0; m < set.manifoldCount; ++m )
		for ( int p = 0; p < set.manifolds[m].pointCount; ++p )
			deepest = std::min( deepest, set.manifolds[m].points[p].distance );
	return deepest;
}

// A box of half size 0.2 resting on a box floor of half height 0.1, pressed in by depth.
struct RestingBoxes
{
	MeshHolder cube{ makeBox( 0.2, 0.2, 0.2 ) };
	MeshHolder floor{ makeBox( 1.0, 0.1, 1.0 ) };
	WorkspaceHolder ws;
	pdContactDef def = pdDefaultContactDef();
	pdTransform poseB = at( 0.0, 0.0, 0.0 );

	pdTransform cubeAt( double x, double depth, double angle ) const
	{
		pdTransform pose = at( x, 0.3 - depth, 0.0 );
		pose.q = axisAngle( 1, angle );
		return pose;
	}
};

} // namespace

TEST( PdContactHold, RestingPairIsAnsweredFromItsHoldAndMatchesFullCalls )
{
	// The cube creeps and turns a little every call (0.05 mm, 0.0001 rad); one pair may hold, the
	// other is made to run the full call every time. The held answers keep the same regions and
	// never report a penetration shallower than the full call's by more than the hold allows.
	RestingBoxes s;
	ASSERT_TRUE( s.cube.mesh != nullptr && s.floor.mesh != nullptr );
	pdContactPair holding, full;
	pdContactPair_Reset( &holding );
	pdContactPair_Reset( &full );
	int held = 0;
	const int calls = 60;
	for ( int i = 0; i < calls; ++i )
	{
		pdTransform poseA = s.cubeAt( 5e-5 * i, 1e-3 + 1e-5 * i, 1e-4 * i );
		bool willHold = pdiPairStateOf( &holding )->holdValid;
		pdiPairStateOf( &full )->holdValid = false;
		pdContactManifoldSet a, b;
		ASSERT_GE( pdContactPair_Generate( &holding, s.cube.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &a ),
				   0 );
		ASSERT_GE( pdContactPair_Generate( &full, s.cube.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &b ), 0 );
		bool answeredFromHold = willHold && pdiPairStateOf( &holding )->holdCalls > 0 && a.iterations == 0;
		held += answeredFromHold ? 1 : 0;
		ASSERT_EQ( a.state, b.state ) << "call " << i;
		ASSERT_EQ( a.manifoldCount, b.manifoldCount ) << "call " << i;
		ASSERT_GT( a.manifoldCount, 0 ) << "call " << i;
		for ( int m = 0; m < a.manifoldCount; ++m )
		{
			pdVec3 na = a.manifolds[m].normal, nb = b.manifolds[m].normal;
			EXPECT_GT( na.x * nb.x + na.y * nb.y + na.z * nb.z, 0.999 ) << "call " << i;
			EXPECT_EQ( a.manifolds[m].slot, b.manifolds[m].slot ) << "call " << i;
		}
		// The motion since the hold bounds how far any distance can have moved.
		EXPECT_NEAR( deepestOf( a ), deepestOf( b ), pdiPairStateOf( &holding )->holdBound + 1e-6 ) << "call " << i;
	}
	std::printf( "resting cube: %d of %d calls answered from the hold\n", held, calls );
	EXPECT_GT( held, calls / 2 ) << "a resting pair is mostly held";
}

TEST( PdContactHold, HeldPointsMoveWithTheBodies )
{
	// Held points ride on A and B: pressing the cube 0.1 mm deeper deepens every held point by
	// 0.1 mm, and pointA stays pointB + normal * distance.
	RestingBoxes s;
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet first, second;
	pdTransform poseA = s.cubeAt( 0.0, 1e-3, 0.0 );
	ASSERT_GE( pdContactPair_Generate( &pair, s.cube.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &first ), 0 );
	ASSERT_TRUE( pdiPairStateOf( &pair )->holdValid );
	poseA.p.y -= 1e-4;
	ASSERT_GE( pdContactPair_Generate( &pair, s.cube.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &second ), 0 );
	ASSERT_EQ( pdiPairStateOf( &pair )->holdCalls, 1 );
	ASSERT_EQ( first.manifoldCount, second.manifoldCount );
	for ( int m = 0; m < first.manifoldCount; ++m )
	{
		ASSERT_EQ( first.manifolds[m].pointCount, second.manifolds[m].pointCount );
		for ( int p = 0; p < first.manifolds[m].pointCount; ++p )
		{
			const pdContactPoint& was = first.manifolds[m].points[p];
			const pdContactPoint& now = second.manifolds[m].points[p];
			pdVec3 n = second.manifolds[m].normal;
			EXPECT_NEAR( now.distance, was.distance - 1e-4 * n.y, 1e-9 );
			EXPECT_NEAR( now.pointA.y, now.pointB.y + n.y * now.distance, 1e-12 );
			EXPECT_NEAR( now.pointB.x, was.pointB.x, 1e-12 ) << "B did not move";
		}
	}
}

TEST( PdContactHold, MotionBeyondTheBoundTakesAFullCall )
{
	RestingBoxes s;
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	pdTransform poseA = s.cubeAt( 0.0, 1e-3, 0.0 );
	ASSERT_GE( pdContactPair_Generate( &pair, s.cube.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &set ), 0 );
	ASSERT_TRUE( pdiPairStateOf( &pair )->holdValid );
	double bound = pdiPairStateOf( &pair )->holdBound;
	ASSERT_GT( bound, 0.0 );
	// Down by just under the bound: held. Then past it: a full call (a new hold, no calls).
	poseA.p.y -= 0.9 * bound;
	ASSERT_GE( pdContactPair_Generate( &pair, s.cube.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &set ), 0 );
	EXPECT_EQ( pdiPairStateOf( &pair )->holdCalls, 1 );
	poseA.p.y -= 0.2 * bound;
	ASSERT_GE( pdContactPair_Generate( &pair, s.cube.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &set ), 0 );
	EXPECT_EQ( pdiPairStateOf( &pair )->holdCalls, 0 ) << "moved past the bound: answered by a full call";
	EXPECT_TRUE( pdiPairStateOf( &pair )->holdValid ) << "which makes a new hold";
	// Turning counts at A's reach (0.35 for the cube): 2 sin(angle / 2) * reach > bound.
	pdTransform turned = poseA;
	turned.q = axisAngle( 1, 10.0 * bound );
	ASSERT_GE( pdContactPair_Generate( &pair, s.cube.mesh, &turned, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &set ), 0 );
	EXPECT_EQ( pdiPairStateOf( &pair )->holdCalls, 0 ) << "a turn past the bound takes a full call too";
}

TEST( PdContactHold, ImpactsAndOtherMeshesTakeAFullCall )
{
	RestingBoxes s;
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	pdTransform poseA = s.cubeAt( 0.0, 1e-3, 0.0 );
	ASSERT_GE( pdContactPair_Generate( &pair, s.cube.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &set ), 0 );
	ASSERT_TRUE( pdiPairStateOf( &pair )->holdValid );
	// A step that can move A by more than the contact distance is an impact.
	pdContactPair_SetMotion( &pair, { 0.0, -2.0 * s.def.contactDistance, 0.0 } );
	ASSERT_GE( pdContactPair_Generate( &pair, s.cube.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &set ), 0 );
	EXPECT_EQ( pdiPairStateOf( &pair )->holdCalls, 0 );
	EXPECT_FALSE( pdiPairStateOf( &pair )->holdValid ) << "no hold made on an impact";
	ASSERT_GE( pdContactPair_Generate( &pair, s.cube.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &set ), 0 );
	ASSERT_TRUE( pdiPairStateOf( &pair )->holdValid );
	// The same pair state with another mesh: never the old hold.
	MeshHolder other{ makeBox( 0.2, 0.2, 0.2 ) };
	ASSERT_GE( pdContactPair_Generate( &pair, other.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &set ), 0 );
	EXPECT_EQ( pdiPairStateOf( &pair )->holdCalls, 0 );
}

TEST( PdContactHold, SlidingContactEndsTheHold )
{
	// A torus lying on the floor rolling about z: its held points' halves part along the
	// surface, and the hold ends before they are a support band apart.
	MeshHolder torus{ makeTorus( 48, 16 ) };
	MeshHolder floor{ makeBox( 2.0, 0.1, 2.0 ) };
	WorkspaceHolder ws;
	pdContactDef def = pdDefaultContactDef();
	pdTransform poseB = at( 0.0, 0.0, 0.0 );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	double lowest = lowestRotatedY( torus.mesh, kFlat );
	int full = 0;
	const int calls = 40;
	for ( int i = 0; i < calls; ++i )
	{
		// Rolling: turn by a and move by a * r so the touching line stays in place on B.
		double angle = 2e-3 * i;
		pdTransform poseA = at( 0.0, 0.1 - lowest - 2e-4, 0.0 );
		poseA.q = quatMul( axisAngle( 2, angle ), kFlat );
		poseA.p.x = -0.15 * angle;
		pdContactManifoldSet set;
		ASSERT_GE( pdContactPair_Generate( &pair, torus.mesh, &poseA, floor.mesh, &poseB, &def, ws.ws, &set ), 0 );
		ASSERT_GT( set.manifoldCount, 0 );
		full += pdiPairStateOf( &pair )->holdCalls == 0 ? 1 : 0;
	}
	std::printf( "rolling torus: %d of %d calls full\n", full, calls );
	EXPECT_GT( full, 3 ) << "a rolling contact is re-picked";
	EXPECT_LT( full, calls ) << "between re-picks it is held";
}

TEST( PdContactHold, RestingFacePatchesAreMarkedFlat )
{
	// A cube resting face on on the floor is a resting flat patch (engines may anchor friction
	// there), in the full call and in the held answers after it; the same cube moving fast, or
	// resting on an edge (its points on a line, no plane), is not.
	RestingBoxes s;
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	pdTransform poseA = s.cubeAt( 0.0, 1e-4, 0.0 );
	for ( int call = 0; call < 3; ++call )
	{
		ASSERT_GE( pdContactPair_Generate( &pair, s.cube.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &set ),
				   0 );
		ASSERT_EQ( set.manifoldCount, 1 ) << "call " << call;
		EXPECT_TRUE( set.manifolds[0].restingFlat ) << "call " << call;
	}
	EXPECT_GT( pdiPairStateOf( &pair )->holdCalls, 0 ) << "the later calls were answered from the hold";

	pdContactPair moving;
	pdContactPair_Reset( &moving );
	pdContactPair_SetMotion( &moving, pdVec3{ 0.05, -0.05, 0.0 } );
	ASSERT_GE( pdContactPair_Generate( &moving, s.cube.mesh, &poseA, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &set ),
			   0 );
	ASSERT_GE( set.manifoldCount, 1 );
	for ( int m = 0; m < set.manifoldCount; ++m )
		EXPECT_FALSE( set.manifolds[m].restingFlat ) << "a cube arriving at 3 m/s";

	pdContactPair edge;
	pdContactPair_Reset( &edge );
	pdTransform onEdge = at( 0.0, 0.1 + 0.2 * std::sqrt( 2.0 ) - 1e-4, 0.0 );
	onEdge.q = axisAngle( 0, M_PI / 4.0 );
	ASSERT_GE( pdContactPair_Generate( &edge, s.cube.mesh, &onEdge, s.floor.mesh, &s.poseB, &s.def, s.ws.ws, &set ), 0 );
	ASSERT_GE( set.manifoldCount, 1 );
	for ( int m = 0; m < set.manifoldCount; ++m )
		EXPECT_FALSE( set.manifolds[m].restingFlat ) << "a cube balanced on an edge";
}
