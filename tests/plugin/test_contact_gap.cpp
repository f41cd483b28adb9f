// SPDX-License-Identifier: MIT
// PdContact: proven gaps (contact_gap.c): apart pairs skip the queries and get the same
// contacts as the queries give.
#include "contact_pair.h" // the private pair state (plugin/src)
#include "contact_test_util.h"

#include <gtest/gtest.h>

#include <cstdio>

TEST( PdContact, ApartPairsSkipTheQueriesAndGiveTheSameContacts )
{
	// A ring approaching a box from half a metre while turning: one pair that may skip the
	// queries once it has proven a gap, one forced to run them every call. Same contacts.
	MeshHolder torus{ makeTorus( 24, 8 ) };
	MeshHolder box{ makeBox( 1.0, 0.1, 1.0 ) };
	ASSERT_TRUE( torus.mesh != nullptr && box.mesh != nullptr );
	WorkspaceHolder ws;
	pdContactDef def = pdDefaultContactDef();
	pdContactPair skipping, forced;
	pdContactPair_Reset( &skipping );
	pdContactPair_Reset( &forced );
	pdTransform poseB = at( 0.0, 0.0, 0.0 );
	int skipped = 0, withContacts = 0;
	const int steps = 120;
	for ( int i = 0; i <= steps; ++i )
	{
		double s = (double)i / steps;
		double angle = 0.3 * s;
		pdTransform poseA = at( 0.1 * s, 0.1 + 0.6 + 0.6 * ( 1.0 - s ), 0.0 );
		poseA.q = { std::cos( 0.5 * angle ), std::sin( 0.5 * angle ), 0.0, 0.0 };
		pdiPairStateOf( &forced )->apartValid = false;
		bool willSkip = pdiPairStateOf( &skipping )->apartValid;
		pdContactManifoldSet a, b;
		ASSERT_GE( pdContactPair_Generate( &skipping, torus.mesh, &poseA, box.mesh, &poseB, &def, ws.ws, &a ), 0 );
		ASSERT_GE( pdContactPair_Generate( &forced, torus.mesh, &poseA, box.mesh, &poseB, &def, ws.ws, &b ), 0 );
		skipped += willSkip && pdiPairStateOf( &skipping )->apartValid ? 1 : 0;
		ASSERT_EQ( a.state, b.state ) << "step " << i;
		ASSERT_EQ( a.manifoldCount, b.manifoldCount ) << "step " << i;
		withContacts += a.manifoldCount > 0 ? 1 : 0;
		for ( int m = 0; m < a.manifoldCount; ++m )
		{
			ASSERT_EQ( a.manifolds[m].pointCount, b.manifolds[m].pointCount ) << "step " << i;
			for ( int k = 0; k < a.manifolds[m].pointCount; ++k )
			{
				EXPECT_EQ( a.manifolds[m].points[k].distance, b.manifolds[m].points[k].distance ) << "step " << i;
				EXPECT_EQ( a.manifolds[m].points[k].pointB.x, b.manifolds[m].points[k].pointB.x ) << "step " << i;
			}
		}
	}
	std::printf( "apart pairs: %d of %d calls skipped the queries, %d had contacts\n", skipped, steps + 1, withContacts );
	EXPECT_GT( skipped, 20 ) << "far poses skip";
	EXPECT_GT( withContacts, 3 ) << "and the ring does reach the box";
	EXPECT_FALSE( pdiPairStateOf( &skipping )->apartValid ) << "no proven gap once in contact";
}
