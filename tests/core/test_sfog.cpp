// SPDX-License-Identifier: MIT
// The orientation graph build (sfog.c): face nodes merged across flat edges, vertex regions
// classified (convex, pseudo-vertex, undecidable), arcs classified (minor, major, point).
#include <gtest/gtest.h>

#include "sfog_test_util.h"

using namespace PdSfogTest;

TEST( PdSfog, BuildMergesFlatFacesAndClassifiesVertices )
{
	Soup box;
	ASSERT_TRUE( smpMakeBox( pdiV3( 1, 2, 3 ), 3, &box.soup ) );
	MeshPtr m = MakeMesh( box.soup );
	ASSERT_NE( m->sfog, nullptr );
	EXPECT_TRUE( m->sfog->decidable );
	EXPECT_TRUE( m->sfog->convex );
	EXPECT_EQ( m->sfog->nodeCount, 6 ); // coplanar triangles merged into one face node per side
	EXPECT_GT( pdiSfog_Bytes( m->sfog ), 0u );
	int corners8 = 0;
	for ( int v : UsedVertices( m.get() ) )
	{
		EXPECT_EQ( m->sfog->vertexKind[v], PDI_SFOG_VERTEX_CONVEX ) << v;
		int c = m->sfog->cornerStart[v + 1] - m->sfog->cornerStart[v];
		EXPECT_TRUE( c == 1 || c == 2 || c == 3 ) << v; // face interior, box edge, box corner
		corners8 += c == 3 ? 1 : 0;
	}
	EXPECT_EQ( corners8, 8 );
	for ( int e = 0; e < m->edgeCount; ++e )
	{
		EXPECT_EQ( m->sfog->arcKind[e] == PDI_SFOG_ARC_POINT, EdgeIsFlat( m.get(), e ) ) << e;
	}

	Soup torus;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.35, 24, 12, &torus.soup ) );
	MeshPtr t = MakeMesh( torus.soup );
	ASSERT_NE( t->sfog, nullptr );
	EXPECT_TRUE( t->sfog->decidable );
	EXPECT_FALSE( t->sfog->convex );
	int kinds[3] = { 0, 0, 0 };
	for ( int v : UsedVertices( t.get() ) )
	{
		kinds[t->sfog->vertexKind[v]] += 1;
	}
	EXPECT_GT( kinds[PDI_SFOG_VERTEX_CONVEX], 0 );                                     // outer ring
	EXPECT_GT( kinds[PDI_SFOG_VERTEX_UNDECIDABLE] + kinds[PDI_SFOG_VERTEX_PSEUDO], 0 ); // saddles of the inner ring
	int major = 0;
	for ( int e = 0; e < t->edgeCount; ++e )
	{
		major += t->sfog->arcKind[e] == PDI_SFOG_ARC_MAJOR ? 1 : 0;
	}
	EXPECT_GT( major, 0 );
	pdiSfog_Destroy( nullptr );
	EXPECT_EQ( pdiSfog_Bytes( nullptr ), 0u );
}
