// SPDX-License-Identifier: MIT
// Per-mesh free-space data (clearance.c): maximally clear points and inner balls, checked by
// brute force over the mesh's vertices and triangles.
#include <gtest/gtest.h>

#include <cmath>

extern "C"
{
#include "clearance.h"
#include "proximity.h"
#include "shapes.h"
}

#include "start_fixture.h"

TEST( PdInitialConfig, TorusHoleIsAMaximallyClearPoint )
{
	Mesh t;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.25, 32, 12, &t.soup ) && t.Make() );
	ASSERT_GE( t.mesh->clearanceCount, 1 );
	// The largest clearance is at (or a cell from) the centre of the hole, radius about R - r.
	pdVec3 p = t.mesh->clearancePoints[0];
	double cell = 2.5 / 16.0;
	EXPECT_LT( pdiLength( p ), 1.5 * cell );
	EXPECT_NEAR( t.mesh->clearanceRadii[0], 0.75, 1.5 * cell );
	for ( int i = 1; i < t.mesh->clearanceCount; ++i )
	{
		EXPECT_GE( t.mesh->clearanceRadii[i - 1], t.mesh->clearanceRadii[i] );
	}
}

TEST( PdInitialConfig, ClearPointsAreOutsideSolidsAndInsideTheBox )
{
	Mesh box, cup;
	ASSERT_TRUE( smpMakeBox( { 1.0, 0.7, 0.5 }, 2, &box.soup ) && box.Make() );
	// Every interior cell of a box is inside the solid: no free space, no clear points.
	EXPECT_EQ( box.mesh->clearanceCount, 0 );
	ASSERT_TRUE( smpMakeCup( 0.8, 1.2, 0.1, 24, &cup.soup ) && cup.Make() );
	ASSERT_GE( cup.mesh->clearanceCount, 1 );
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	for ( int i = 0; i < cup.mesh->clearanceCount; ++i )
	{
		pdVec3 p = cup.mesh->clearancePoints[i];
		EXPECT_TRUE( p.x > cup.mesh->boundsMin.x && p.x < cup.mesh->boundsMax.x );
		EXPECT_TRUE( p.y > cup.mesh->boundsMin.y && p.y < cup.mesh->boundsMax.y );
		EXPECT_TRUE( p.z > cup.mesh->boundsMin.z && p.z < cup.mesh->boundsMax.z );
		// The stored clearance is the distance to the surface (independent brute force).
		double best = INFINITY;
		for ( int v = 0; v < cup.mesh->vertexCount; ++v )
		{
			best = std::fmin( best, pdiLength( pdiSub( cup.mesh->vertices[v], p ) ) );
		}
		EXPECT_LE( cup.mesh->clearanceRadii[i], best + 1e-12 );
	}
	pdDestroyWorkspace( ws );
}

// The closest point of triangle abc to p (Voronoi regions of the vertices, edges and face).
static pdVec3 ClosestPointOnTriangle( pdVec3 p, pdVec3 a, pdVec3 b, pdVec3 c )
{
	pdVec3 ab = pdiSub( b, a ), ac = pdiSub( c, a ), ap = pdiSub( p, a );
	double d1 = pdiDot( ab, ap ), d2 = pdiDot( ac, ap );
	if ( d1 <= 0.0 && d2 <= 0.0 )
		return a;
	pdVec3 bp = pdiSub( p, b );
	double d3 = pdiDot( ab, bp ), d4 = pdiDot( ac, bp );
	if ( d3 >= 0.0 && d4 <= d3 )
		return b;
	double vc = d1 * d4 - d3 * d2;
	if ( vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 )
		return pdiMulAdd( a, d1 / ( d1 - d3 ), ab );
	pdVec3 cp = pdiSub( p, c );
	double d5 = pdiDot( ab, cp ), d6 = pdiDot( ac, cp );
	if ( d6 >= 0.0 && d5 <= d6 )
		return c;
	double vb = d5 * d2 - d1 * d6;
	if ( vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 )
		return pdiMulAdd( a, d2 / ( d2 - d6 ), ac );
	double va = d3 * d6 - d5 * d4;
	if ( va <= 0.0 && ( d4 - d3 ) >= 0.0 && ( d5 - d6 ) >= 0.0 )
		return pdiMulAdd( b, ( d4 - d3 ) / ( ( d4 - d3 ) + ( d5 - d6 ) ), pdiSub( c, b ) );
	double denom = 1.0 / ( va + vb + vc );
	return pdiAdd( a, pdiAdd( pdiScale( ab, vb * denom ), pdiScale( ac, vc * denom ) ) );
}

// Brute force over every triangle: the distance from p to the mesh surface.
static double SurfaceDistance( const pdMesh* mesh, pdVec3 p )
{
	double best = INFINITY;
	for ( int t = 0; t < mesh->triangleCount; ++t )
	{
		pdVec3 v[3];
		pdiMesh_TriangleVertices( mesh, t, v );
		pdVec3 q = ClosestPointOnTriangle( p, v[0], v[1], v[2] );
		best = std::fmin( best, pdiLength( pdiSub( p, q ) ) );
	}
	return best;
}

TEST( PdInitialConfig, InnerBallsLieInsideTheSolidAndHoldNoSurface )
{
	Mesh torus, knot, box, cup, grate;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.25, 32, 12, &torus.soup ) && torus.Make() );
	ASSERT_TRUE( smpMakeTorusKnot( 2, 3, 0.6, 0.15, 64, 8, &knot.soup ) && knot.Make() );
	ASSERT_TRUE( smpMakeBox( { 1.0, 0.7, 0.5 }, 2, &box.soup ) && box.Make() );
	ASSERT_TRUE( smpMakeCup( 0.8, 1.2, 0.1, 24, &cup.soup ) && cup.Make() );
	ASSERT_TRUE( smpMakeGrate( 1.0, 0.1, 3, &grate.soup ) && grate.Make() );
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	for ( const Mesh* m : { &torus, &knot, &box, &cup, &grate } )
	{
		const pdMesh* mesh = m->mesh;
		ASSERT_TRUE( mesh->closed );
		ASSERT_GE( mesh->innerBallCount, 4 ) << "triangles " << mesh->triangleCount;
		ASSERT_LE( mesh->innerBallCount, PDI_MAX_INNER_BALLS );
		for ( int i = 0; i < mesh->innerBallCount; ++i )
		{
			const pdiBall& ball = mesh->innerBalls[i];
			if ( i > 0 )
			{
				EXPECT_GE( mesh->innerBalls[i - 1].radius, ball.radius );
			}
			EXPECT_GT( ball.radius, 0.0 );
			// No surface within the radius (brute force), and the centre inside the solid: then
			// the whole ball is inside.
			EXPECT_GE( SurfaceDistance( mesh, ball.center ), ball.radius * ( 1.0 - 1e-12 ) ) << "ball " << i;
			EXPECT_TRUE( pdiMesh_ContainsPoint( mesh, ball.center, ws ) ) << "ball " << i;
		}
	}
	// A tube's balls are about as wide as the tube (faceted: a little less).
	for ( int i = 0; i < torus.mesh->innerBallCount; ++i )
	{
		EXPECT_GT( torus.mesh->innerBalls[i].radius, 0.8 * 0.25 );
		EXPECT_LE( torus.mesh->innerBalls[i].radius, 0.25 );
	}
	pdDestroyWorkspace( ws );
}

TEST( PdInitialConfig, OpenSoupsHaveNoInnerBalls )
{
	Mesh open;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.25, 32, 12, &open.soup ) );
	// Drop one triangle: the soup is no longer closed, so it has no inside to hold a ball.
	open.soup.triangleCount -= 1;
	ASSERT_TRUE( open.Make() );
	EXPECT_FALSE( open.mesh->closed );
	EXPECT_EQ( open.mesh->innerBallCount, 0 );
	EXPECT_EQ( open.mesh->innerBalls, nullptr );
}
