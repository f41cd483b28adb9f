// SPDX-License-Identifier: MIT
// Contact features of one triangle pair (tri_features.c): vertex-face, crossing edges, the
// dropped vertex-edge and parallel-edge cases, and random pairs checked against the long-double
// reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "tri_fixture.h"

namespace
{

void ExpectUnit( const pdContactFeature& c )
{
	EXPECT_NEAR( pdiLength( c.normal ), 1.0, 1e-12 );
}

TEST( PdTriDistance, ContactVertexOnFace )
{
	pdContactFeature out[15];
	for ( int kb = 0; kb < 6; ++kb )
	{
		Tri b = Variant( kBase, kb );
		for ( double h : { 0.0, 1e-7 } )
		{
			Tri a = { { V( 0.2, 0.2, h ), V( 0.3, 0.25, 1 ), V( 0.1, 0.4, 1 ) } };
			// Zero separation: the approach direction decides (a came down from +z).
			int n = pdiTriangleContactFeatures( a.v, b.v, 1e-6, h == 0.0 ? V( 0, 0, -1 ) : V( 0, 0, 0 ), out );
			ASSERT_EQ( n, 1 ) << "variant " << kb << " h " << h;
			EXPECT_EQ( out[0].kind, PD_CONTACT_VF );
			EXPECT_EQ( out[0].featureA.type, PD_FEATURE_VERTEX );
			EXPECT_EQ( out[0].featureA.index, 0 );
			EXPECT_EQ( out[0].featureB.type, PD_FEATURE_FACE );
			EXPECT_EQ( out[0].featureA.triangle, -1 );
			EXPECT_EQ( out[0].featureB.vertex, -1 );
			EXPECT_NEAR( out[0].normal.z, 1.0, 1e-12 );
			EXPECT_NEAR( out[0].distance, h, 1e-15 );
			EXPECT_NEAR( out[0].pointB.z, 0.0, 1e-15 );
			ExpectUnit( out[0] );
		}
		// From below (approach +z) the normal flips.
		Tri a = { { V( 0.2, 0.2, 0 ), V( 0.3, 0.25, -1 ), V( 0.1, 0.4, -1 ) } };
		ASSERT_EQ( pdiTriangleContactFeatures( a.v, b.v, 1e-6, V( 0, 0, 1 ), out ), 1 );
		EXPECT_NEAR( out[0].normal.z, -1.0, 1e-12 );
		// Swapped roles: FV with the normal still from b (now the vertex) toward a.
		ASSERT_EQ( pdiTriangleContactFeatures( b.v, a.v, 1e-6, V( 0, 0, -1 ), out ), 1 );
		EXPECT_EQ( out[0].kind, PD_CONTACT_FV );
		EXPECT_EQ( out[0].featureB.type, PD_FEATURE_VERTEX );
		EXPECT_NEAR( out[0].normal.z, 1.0, 1e-12 );
	}
	// Out of tolerance: nothing.
	Tri a = { { V( 0.2, 0.2, 1e-3 ), V( 0.3, 0.25, 1 ), V( 0.1, 0.4, 1 ) } };
	EXPECT_EQ( pdiTriangleContactFeatures( a.v, kBase.v, 1e-6, V( 0, 0, 0 ), out ), 0 );
}

TEST( PdTriDistance, ContactCrossingEdges )
{
	pdContactFeature out[15];
	for ( double d : { 1e-8, 0.0 } )
	{
		for ( int ka = 0; ka < 6; ++ka )
		{
			Tri a = Variant( Tri{ { V( -1, 0, d ), V( 1, 0, d ), V( 0, 0.5, 1 ) } }, ka );
			Tri b = { { V( 0, -1, 0 ), V( 0, 1, 0 ), V( 0.5, 0, -1 ) } };
			int n = pdiTriangleContactFeatures( a.v, b.v, 1e-6, V( 0, 0, -1 ), out );
			ASSERT_EQ( n, 1 ) << "d " << d << " variant " << ka;
			EXPECT_EQ( out[0].kind, PD_CONTACT_EE );
			EXPECT_EQ( out[0].featureA.type, PD_FEATURE_EDGE );
			EXPECT_EQ( out[0].featureB.type, PD_FEATURE_EDGE );
			EXPECT_EQ( out[0].featureB.index, 0 );
			// The reported edge of a is the one along x.
			pdVec3 e0 = a.v[out[0].featureA.index], e1 = a.v[( out[0].featureA.index + 1 ) % 3];
			EXPECT_EQ( e0.z, d );
			EXPECT_EQ( e1.z, d );
			EXPECT_NEAR( out[0].normal.z, 1.0, 1e-12 );
			EXPECT_NEAR( out[0].distance, d, 1e-15 );
			ExpectUnit( out[0] );
		}
	}
	// Approach from below with zero gap flips the normal.
	Tri a = { { V( -1, 0, 0 ), V( 1, 0, 0 ), V( 0, 0.5, 1 ) } };
	Tri b = { { V( 0, -1, 0 ), V( 0, 1, 0 ), V( 0.5, 0, -1 ) } };
	ASSERT_EQ( pdiTriangleContactFeatures( a.v, b.v, 1e-6, V( 0, 0, 1 ), out ), 1 );
	EXPECT_NEAR( out[0].normal.z, -1.0, 1e-12 );
}

TEST( PdTriDistance, ContactVertexOnEdgeAndParallelEdges )
{
	pdContactFeature out[15];
	// Vertex of a on edge 0 of b: a VF with b's face (closed inside test), no EE.
	Tri a = { { V( 0.5, 0, 0 ), V( 0.5, -0.2, 1 ), V( 0.6, 0.1, 1 ) } };
	int n = pdiTriangleContactFeatures( a.v, kBase.v, 1e-6, V( 0, 0, -1 ), out );
	ASSERT_EQ( n, 1 );
	EXPECT_EQ( out[0].kind, PD_CONTACT_VF );
	EXPECT_EQ( out[0].featureB.type, PD_FEATURE_FACE );
	EXPECT_NEAR( out[0].normal.z, 1.0, 1e-12 );
	// Parallel edges at a small distance: dropped.
	Tri bv = { { V( 0, 0, 0 ), V( 1, 0, 0 ), V( 0.5, 0, -1 ) } };
	Tri ap = { { V( 0.2, 0, 1e-5 ), V( 0.8, 0, 1e-5 ), V( 0.5, 1, 1 ) } };
	EXPECT_EQ( pdiTriangleContactFeatures( ap.v, bv.v, 1e-3, V( 0, 0, -1 ), out ), 0 );
}

TEST( PdTriDistance, ContactFeaturesRandomAreConsistent )
{
	const uint64_t seed = 6060;
	Rng rng( seed );
	pdContactFeature out[15];
	for ( int i = 0; i < 500; ++i )
	{
		Tri a = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		Tri b = RandomTri( rng, rng.Point( 1.5 ), 1.0 );
		double tol = 0.2;
		int n = pdiTriangleContactFeatures( a.v, b.v, tol, V( 1, 0, 0 ), out );
		ASSERT_LE( n, 15 );
		double d = Dist( a, b );
		if ( d > tol )
		{
			EXPECT_EQ( n, 0 ) << "seed " << seed << " pair " << i;
		}
		for ( int k = 0; k < n; ++k )
		{
			const pdContactFeature& c = out[k];
			ExpectUnit( c );
			EXPECT_LE( std::fabs( c.distance ), tol + 1e-12 ) << "seed " << seed << " pair " << i;
			// distance is the separation along the normal, and no pair is closer than the triangles.
			EXPECT_NEAR( pdiDot( pdiSub( c.pointA, c.pointB ), c.normal ), c.distance, 1e-12 );
			EXPECT_GE( Gap( c.pointA, c.pointB ), d - 1e-12 ) << "seed " << seed << " pair " << i;
			EXPECT_LE( (double)RefPointTriangle( c.pointA, a ), 1e-8 ) << "seed " << seed << " pair " << i;
			EXPECT_LE( (double)RefPointTriangle( c.pointB, b ), 1e-8 ) << "seed " << seed << " pair " << i;
			if ( d > 1e-9 )
			{
				EXPECT_GE( c.distance, -1e-12 ) << "seed " << seed << " pair " << i; // oriented from b toward a
			}
		}
	}
}

} // namespace
