// SPDX-License-Identifier: MIT
// Static checks of the start search (start_checks.c) against independent collision queries.
#include <gtest/gtest.h>

#include <cmath>

#include "start_fixture.h"

// The static check of the start search (which may settle a configuration by an overlap of inner
// balls, or by a triangle pair that intersected before) against a plain collision query, on
// deep, shallow and free translations of linked and knotted pairs.
TEST( PdInitialConfig, StaticCheckEqualsAFullCollisionQuery )
{
	Mesh torus, knot;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &torus.soup ) && torus.Make() );
	ASSERT_TRUE( smpMakeTorusKnot( 2, 3, 0.6, 0.15, 64, 8, &knot.soup ) && knot.Make() );
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	const Mesh* pairs[3][2] = { { &torus, &torus }, { &knot, &knot }, { &torus, &knot } };
	int colliding = 0, free = 0;
	for ( const auto& pair : pairs )
	{
		const pdMesh* a = pair[0]->mesh;
		const pdMesh* b = pair[1]->mesh;
		pdTransform pa = { { 0.9, 0.3, 0.1, 0.2 }, { 0.3, 0.1, -0.05 } };
		double n = std::sqrt( 0.81 + 0.09 + 0.01 + 0.04 );
		pa.q = { 0.9 / n, 0.3 / n, 0.1 / n, 0.2 / n };
		pdTransform pb = pdIdentityTransform();
		pdiStartContext ctx = Context( a, pa, b, pb, ws );
		// Translations on a lattice out to beyond the enclosing spheres, in the order a start
		// search visits them (each check may reuse what the previous ones found).
		for ( int k = 0; k < 343; ++k )
		{
			pdVec3 x = pdiScale( pdiV3( ( k % 7 ) - 3.0, ( ( k / 7 ) % 7 ) - 3.0, ( k / 49 ) - 3.0 ), 0.42 );
			bool expected = CollidesIndependently( a, pa, x, b, pb, ws );
			EXPECT_EQ( pdiStart_Collides( &ctx, x ), expected ) << "translation " << k;
			colliding += expected ? 1 : 0;
			free += expected ? 0 : 1;
		}
	}
	// Both answers occur often enough for the comparison to mean something.
	EXPECT_GT( colliding, 100 );
	EXPECT_GT( free, 100 );
	pdDestroyWorkspace( ws );
}

TEST( PdInitialConfig, SeparationDistanceIsFreeByConstruction )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeTorusKnot( 2, 3, 0.6, 0.15, 64, 8, &b.soup ) && b.Make() );
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdTransform pa = { { 0.9, 0.1, 0.3, 0.0 }, { 0.2, 0.1, 0.05 } };
	double n = std::sqrt( 0.81 + 0.01 + 0.09 );
	pa.q = { 0.9 / n, 0.1 / n, 0.3 / n, 0.0 };
	pdTransform pb = pdIdentityTransform();
	pdiStartContext ctx = Context( a.mesh, pa, b.mesh, pb, ws );
	for ( int k = 0; k < 26; ++k )
	{
		pdVec3 u = pdiNormalize( pdiV3( ( k % 3 ) - 1.0, ( ( k / 3 ) % 3 ) - 1.0, ( k / 9 ) - 1.0 + 0.1 ) );
		double t = pdiStart_SeparationDistance( &ctx, u );
		EXPECT_GT( t, 0.0 );
		EXPECT_FALSE( CollidesIndependently( a.mesh, pa, pdiScale( u, t ), b.mesh, pb, ws ) ) << "direction " << k;
	}
	pdDestroyWorkspace( ws );
}
