// SPDX-License-Identifier: MIT
// PdContact: manifold slots and persistence (contact_slots.c): pair state reused across frames,
// and a resting ring that keeps its points and a vertical normal.
#include "contact_test_util.h"
#include "contact_internal.h" // pdiHullArea4 (private)

#include <gtest/gtest.h>

#include <cstdio>

TEST( PdContact, PairStateIsReusedAcrossFrames )
{
	MeshHolder a{ makeBox( 0.2, 0.1, 0.2 ) }, b{ makeBox( 0.5, 0.1, 0.5 ) };
	WorkspaceHolder ws;
	pdTransform poseB = at( 0, 0, 0 );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet first, second;
	pdTransform poseA = at( 0.0, 0.19, 0.0 );
	ASSERT_GE( pdContactPair_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, nullptr, ws.ws, &first ), 0 );
	ASSERT_GE( first.manifoldCount, 1 );
	EXPECT_EQ( pdiPairStateOf( &pair )->frame, 1 );
	EXPECT_NE( pdiPairStateOf( &pair )->slotMask, 0u );
	// A tiny tilt of B: the region keeps its slot and its normal (held), depth follows.
	pdTransform tilted = poseB;
	double angle = 0.0005; // rad, under the hold angle
	tilted.q = { std::cos( angle / 2 ), std::sin( angle / 2 ), 0.0, 0.0 };
	pdTransform poseA2 = at( 0.001, 0.188, 0.0 );
	ASSERT_GE( pdContactPair_Generate( &pair, a.mesh, &poseA2, b.mesh, &tilted, nullptr, ws.ws, &second ), 0 );
	ASSERT_GE( second.manifoldCount, 1 );
	EXPECT_EQ( pdiPairStateOf( &pair )->frame, 2 );
	EXPECT_EQ( second.manifolds[0].slot, first.manifolds[0].slot );
	// Held in B's frame: the world normal turned with B exactly.
	pdVec3 n = second.manifolds[0].normal;
	EXPECT_NEAR( n.y, std::cos( angle ), 1e-9 );
	EXPECT_NEAR( n.z, std::sin( angle ), 1e-9 );
	EXPECT_LT( second.manifolds[0].points[0].distance, first.manifolds[0].points[0].distance );
	EXPECT_TRUE( second.local ) << "a shallow contact of two solids, answered from its neighbourhood";
	EXPECT_NEAR( pdiPairStateOf( &pair )->lastTranslation.y, second.depth, 1e-12 ) << "the next call's reach";

	// Reset forgets.
	pdContactPair_Reset( &pair );
	EXPECT_EQ( pdiPairStateOf( &pair )->frame, 0 );
	EXPECT_EQ( pdiPairStateOf( &pair )->slotMask, 0u );
	EXPECT_FALSE( pdiPairStateOf( &pair )->hasFreeSide );
}

TEST( PdContact, RestingRingOnRingKeepsItsPointsAndAVerticalNormal )
{
	// Two identical tori (axis z) stacked concentrically, the upper (A) turned half a segment
	// and sunk 0.5 mm: the exact contact is the whole crest circle with normal +z.
	MeshHolder torus{ makeTorus( 48, 16 ) };
	ASSERT_NE( torus.mesh, nullptr );
	WorkspaceHolder ws;
	const double sink = 5e-4;
	const double half = 3.14159265358979323846 / 48.0 / 2.0;
	pdTransform poseB = at( 0.0, 0.0, 0.0 );
	pdTransform poseA = at( 0.0, 0.0, 0.3 - sink );
	poseA.q = { std::cos( half ), 0.0, 0.0, std::sin( half ) };
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet frames[3];
	for ( int f = 0; f < 3; ++f )
	{
		// A settles by a fraction of a millimetre between calls, as a resting body does.
		pdTransform pose = poseA;
		pose.p.x += 1e-4 * f;
		pose.p.z += 5e-5 * f;
		ASSERT_GE( pdContactPair_Generate( &pair, torus.mesh, &pose, torus.mesh, &poseB, nullptr, ws.ws, frames + f ), 0 );
		ASSERT_EQ( frames[f].state, PD_STATE_PENETRATING ) << "frame " << f;
		ASSERT_EQ( frames[f].manifoldCount, 1 ) << "one crest region, frame " << f;
		const pdContactManifold& m = frames[f].manifolds[0];
		EXPECT_GT( m.normal.z, std::cos( 0.5 * 3.14159265358979323846 / 180.0 ) ) << "within 0.5 deg of +z, frame " << f;
		ASSERT_EQ( m.pointCount, 4 ) << "frame " << f;
		pdVec3 quad[4];
		for ( int k = 0; k < 4; ++k )
		{
			quad[k] = m.points[k].pointB;
			EXPECT_GE( m.points[k].distance, -sink - 2e-3 ) << "frame " << f;
			EXPECT_LE( m.points[k].distance, 1e-3 ) << "frame " << f;
		}
		// Spread over the ring (an inscribed square of the 0.5 m circle has area 0.5).
		EXPECT_GT( pdiHullArea4( m.normal, quad, 4 ), 0.25 ) << "frame " << f;
	}
	// The points persist: every point of a later frame is where one of the first frame was.
	for ( int f = 1; f < 3; ++f )
	{
		for ( int k = 0; k < 4; ++k )
		{
			double nearest = 1e30;
			for ( int q = 0; q < 4; ++q )
			{
				pdVec3 a = frames[f].manifolds[0].points[k].pointB, b = frames[0].manifolds[0].points[q].pointB;
				nearest = std::min( nearest, std::sqrt( ( a.x - b.x ) * ( a.x - b.x ) + ( a.y - b.y ) * ( a.y - b.y ) +
														( a.z - b.z ) * ( a.z - b.z ) ) );
			}
			EXPECT_LT( nearest, 1e-3 ) << "frame " << f << " point " << k;
		}
	}
}
