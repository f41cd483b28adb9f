// SPDX-License-Identifier: MIT
// Free configurations (initial_config.c): start candidates, each checked with an independent
// static collision query.
#include <gtest/gtest.h>

#include <cstring>
#include <cmath>
#include <string>

extern "C" {
#include "initial_config.h"
#include "proximity.h"
#include "shapes.h"
}

#include "start_fixture.h"

TEST( PdInitialConfig, EveryStartIsCollisionFree )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &b.soup ) && b.Make() );
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	double n = std::sqrt( 0.81 + 0.16 + 0.01 );
	pdTransform pa = { { 0.9 / n, 0.4 / n, 0.0, 0.1 / n }, { 0.3, 0.2, 0.1 } };
	pdTransform pb = pdIdentityTransform();

	// Pairs at o, as the driver gathers them.
	pdCollideDef cdef = pdDefaultCollideDef();
	cdef.reportAllPairs = true;
	pdCollideResult cr;
	ASSERT_GE( pdCollide( a.mesh, &pa, b.mesh, &pb, &cdef, ws, &cr ), 0 );
	ASSERT_TRUE( cr.colliding );
	std::vector<pdTrianglePair> pairs( cr.pairs, cr.pairs + cr.pairCount );

	pdPenetrationCache cache;
	memset( &cache, 0, sizeof( cache ) );
	cache.configurations[0] = pdiV3( 0.3, 0.2, 0.9 );
	cache.count = 1;
	cache.next = 1;

	pdiStartContext ctx = Context( a.mesh, pa, b.mesh, pb, ws );
	const pdiStartCandidate* list = nullptr;
	int count = pdiProposeStarts( &ctx, PD_START_ALL, &cache, pairs.data(), (int)pairs.size(), 16, 1, &list );
	ASSERT_GT( count, 16 );
	std::vector<pdiStartCandidate> candidates( list, list + count );
	unsigned seen = 0;
	int freeCount = 0;
	for ( int i = 0; i < count; ++i )
	{
		seen |= candidates[i].strategy;
		for ( double bound : { (double)INFINITY, 1.0, 0.4 } )
		{
			pdVec3 start;
			if ( !pdiStart_MakeFree( &ctx, &candidates[i], bound, true, &start ) )
			{
				continue;
			}
			freeCount += 1;
			EXPECT_FALSE( CollidesIndependently( a.mesh, pa, start, b.mesh, pb, ws ) )
				<< "candidate " << i << " strategy " << candidates[i].strategy << " bound " << bound;
			if ( bound < INFINITY )
			{
				EXPECT_LE( pdiLength( start ), bound + 1e-12 );
			}
		}
	}
	EXPECT_GT( freeCount, 10 );
	EXPECT_TRUE( seen & PD_START_COHERENCE );
	EXPECT_TRUE( seen & PD_START_CONTACT_NORMALS );
	EXPECT_TRUE( seen & PD_START_PRINCIPAL_AXES );
	EXPECT_TRUE( seen & PD_START_CENTROID );
	EXPECT_TRUE( seen & PD_START_RANDOM );
	EXPECT_TRUE( seen & PD_START_CLEARANCE );
	EXPECT_EQ( candidates[0].strategy, (unsigned)PD_START_COHERENCE );
	pdDestroyWorkspace( ws );
}

// A cached contact configuration that collides by a fraction of a tolerance (a resting pair
// one step later) is pushed out by a few tolerances, not by 5% of the size: the out-projection
// that follows then sweeps a short way back instead of across the whole contact region.
TEST( PdInitialConfig, CoherenceStartThatJustCollidesIsPushedOutByAFewTolerances )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &b.soup ) && b.Make() );
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	double n = std::sqrt( 0.81 + 0.16 + 0.01 );
	pdTransform pa = { { 0.9 / n, 0.4 / n, 0.0, 0.1 / n }, { 0.3, 0.2, 0.1 } };
	pdTransform pb = pdIdentityTransform();
	ASSERT_TRUE( CollidesIndependently( a.mesh, pa, pdiV3( 0, 0, 0 ), b.mesh, pb, ws ) );
	int checked = 0;
	for ( int k = 0; k < 6; ++k )
	{
		pdVec3 u = pdiNormalize( pdiV3( std::cos( 1.1 * k ), std::sin( 1.1 * k ), 0.6 - 0.25 * k ) );
		pdiStartContext ctx = Context( a.mesh, pa, b.mesh, pb, ws );
		// The last colliding translation along u, to far below the tolerance.
		double lo = 0.0, hi = pdiStart_SeparationDistance( &ctx, u );
		for ( int it = 0; it < 60; ++it )
		{
			double mid = 0.5 * ( lo + hi );
			( CollidesIndependently( a.mesh, pa, pdiScale( u, mid ), b.mesh, pb, ws ) ? lo : hi ) = mid;
		}
		pdVec3 cached = pdiScale( u, lo - 0.3 * ctx.tolerance );
		if ( !CollidesIndependently( a.mesh, pa, cached, b.mesh, pb, ws ) )
		{
			continue; // a pocket along u: not the case under test
		}
		SCOPED_TRACE( k );
		pdiStartCandidate candidate = {};
		candidate.translation = cached;
		candidate.strategy = PD_START_COHERENCE;
		candidate.priority = true;
		for ( bool lineRefinement : { false, true } )
		{
			pdVec3 start;
			ASSERT_TRUE( pdiStart_MakeFree( &ctx, &candidate, INFINITY, lineRefinement, &start ) );
			EXPECT_FALSE( CollidesIndependently( a.mesh, pa, start, b.mesh, pb, ws ) );
			// On the cached ray, no farther out than the third push (32 tolerances); past the
			// cached point unless line refinement found free space nearer to o (a pocket).
			EXPECT_NEAR( pdiDot( start, u ), pdiLength( start ), 1e-9 );
			EXPECT_LE( pdiLength( start ), pdiLength( cached ) + 32.0 * ctx.tolerance + 1e-12 );
			if ( !lineRefinement )
			{
				EXPECT_GT( pdiLength( start ), pdiLength( cached ) );
			}
		}
		checked += 1;
	}
	EXPECT_GE( checked, 3 );
	pdDestroyWorkspace( ws );
}

TEST( PdInitialConfig, RandomDirectionsAreDeterministicAndSpread )
{
	Mesh a;
	ASSERT_TRUE( smpMakeIcosphere( 0.5, 1, &a.soup ) && a.Make() );
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdTransform p = pdIdentityTransform();
	pdiStartContext ctx = Context( a.mesh, p, a.mesh, p, ws );
	const pdiStartCandidate* list = nullptr;
	int count = pdiProposeStarts( &ctx, PD_START_RANDOM, nullptr, nullptr, 0, 64, 7, &list );
	ASSERT_EQ( count, 64 );
	std::vector<pdiStartCandidate> first( list, list + count );
	count = pdiProposeStarts( &ctx, PD_START_RANDOM, nullptr, nullptr, 0, 64, 7, &list );
	ASSERT_EQ( count, 64 );
	pdVec3 sum = pdiV3( 0, 0, 0 );
	for ( int i = 0; i < count; ++i )
	{
		EXPECT_EQ( first[i].translation.x, list[i].translation.x );
		EXPECT_NEAR( pdiLength( list[i].translation ), 1.0, 1e-12 );
		sum = pdiAdd( sum, list[i].translation );
	}
	// Even coverage: the directions nearly cancel.
	EXPECT_LT( pdiLength( sum ), 0.05 * count );
	count = pdiProposeStarts( &ctx, PD_START_RANDOM, nullptr, nullptr, 0, 64, 8, &list );
	EXPECT_NE( first[0].translation.x, list[0].translation.x );
	pdDestroyWorkspace( ws );
}

// The dense random set: every direction proposed once, about 32 evenly spread ones sampled for
// pockets (probeOnly false) and the rest probed once; and the set turns with B, so moving both
// meshes rigidly moves every start direction with them.
TEST( PdInitialConfig, DenseRandomDirectionsSamplePocketsOnAnEvenSubsetInBsFrame )
{
	Mesh a;
	ASSERT_TRUE( smpMakeIcosphere( 0.5, 1, &a.soup ) && a.Make() );
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdTransform p = pdIdentityTransform();
	pdiStartContext ctx = Context( a.mesh, p, a.mesh, p, ws );
	const pdiStartCandidate* list = nullptr;
	int count = pdiProposeStarts( &ctx, PD_START_RANDOM, nullptr, nullptr, 0, 512, 3, &list );
	ASSERT_EQ( count, 512 );
	std::vector<pdiStartCandidate> base( list, list + count );
	int sampled = 0;
	pdVec3 sampledSum = pdiV3( 0, 0, 0 );
	for ( const pdiStartCandidate& c : base )
	{
		EXPECT_TRUE( c.direction );
		if ( !c.probeOnly )
		{
			sampled += 1;
			sampledSum = pdiAdd( sampledSum, c.translation );
		}
	}
	EXPECT_EQ( sampled, 32 );
	// The sampled subset covers the sphere evenly too: its directions nearly cancel.
	EXPECT_LT( pdiLength( sampledSum ), 0.1 * sampled );
	// With 32 directions or fewer every one is sampled (the plugin's setting).
	count = pdiProposeStarts( &ctx, PD_START_RANDOM, nullptr, nullptr, 0, 32, 3, &list );
	ASSERT_EQ( count, 32 );
	for ( int i = 0; i < count; ++i )
	{
		EXPECT_FALSE( list[i].probeOnly );
	}

	// Both meshes turned by the same rotation: every direction turns with them.
	pdTransform turned = pdIdentityTransform();
	turned.q = { 0.6, 0.0, 0.8, 0.0 };
	pdiStartContext moved = Context( a.mesh, turned, a.mesh, turned, ws );
	pdiMat33 r = pdiMat33FromQuat( turned.q );
	count = pdiProposeStarts( &moved, PD_START_RANDOM, nullptr, nullptr, 0, 512, 3, &list );
	ASSERT_EQ( count, 512 );
	for ( int i = 0; i < count; ++i )
	{
		pdVec3 expected = pdiMulMV( &r, base[i].translation );
		EXPECT_NEAR( list[i].translation.x, expected.x, 1e-12 );
		EXPECT_NEAR( list[i].translation.y, expected.y, 1e-12 );
		EXPECT_NEAR( list[i].translation.z, expected.z, 1e-12 );
		EXPECT_EQ( list[i].probeOnly, base[i].probeOnly );
	}
	pdDestroyWorkspace( ws );
}
