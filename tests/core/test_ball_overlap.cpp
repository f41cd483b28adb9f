// SPDX-License-Identifier: MIT
// The inner-ball certificate of the static checks (ball_overlap.c): its verdict, from the
// grid of translation-space balls or from the plain loop, against every ball pair tested.
#include <gtest/gtest.h>

#include <cmath>

#include "plugin_interface.h"
#include "polydepth/penetration.h"
#include "start_fixture.h"

namespace
{

// Every pair of inner balls of A (posed as rel says) and B, tested independently.
bool AnyBallPairOverlaps( const pdMesh* a, const pdMesh* b, const pdiFrame& rel )
{
	for ( int i = 0; i < a->innerBallCount; ++i )
	{
		pdVec3 c = pdiFrameApply( &rel, a->innerBalls[i].center );
		for ( int j = 0; j < b->innerBallCount; ++j )
		{
			double r = a->innerBalls[i].radius + b->innerBalls[j].radius;
			if ( pdiDistanceSq( c, b->innerBalls[j].center ) < r * r )
				return true;
		}
	}
	return false;
}

// The relative frame of A translated by x (what pdiStart_Collides hands the certificate).
pdiFrame RelativeAt( const pdiStartContext& ctx, pdVec3 x )
{
	pdiFrame moved = ctx.frameA;
	moved.p = pdiAdd( moved.p, x );
	return pdiRelativeFrame( &moved, &ctx.frameB );
}

// A generated shape against itself, both at the identity, and the start context of the pair.
struct ShapeAtRest
{
	Mesh m;
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdiStartContext ctx = {};
	explicit ShapeAtRest( const char* name )
	{
		EXPECT_TRUE( smpMakeShapeByName( name, 1000, 2.0, &m.soup ) && m.Make() ) << name;
		pdTransform pose = pdIdentityTransform();
		if ( m.mesh != nullptr )
			ctx = Context( m.mesh, pose, m.mesh, pose, ws );
	}
	~ShapeAtRest() { pdDestroyWorkspace( ws ); }
};

} // namespace

// Shapes with many small balls (the grid) and one large ball (the plain loop), at translations
// from deep overlap to apart; every call counts as one test, and a hit as one hit.
TEST( PdBallOverlap, VerdictIsThatOfEveryBallPair )
{
	struct Shape
	{
		const char* name;
		int tris;
	};
	const Shape shapes[] = { { "grate", 1000 }, { "knot", 3000 }, { "torus", 1000 }, { "box", 12 } };
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	int gridShapes = 0, loopShapes = 0;
	for ( const Shape& shape : shapes )
	{
		SCOPED_TRACE( shape.name );
		Mesh m;
		ASSERT_TRUE( smpMakeShapeByName( shape.name, shape.tris, 2.0, &m.soup ) && m.Make() );
		ASSERT_GT( m.mesh->innerBallCount, 0 );
		double n = std::sqrt( 0.81 + 0.09 + 0.01 + 0.04 );
		pdTransform pa = { { 0.9 / n, 0.3 / n, 0.1 / n, 0.2 / n }, { 0.1, -0.2, 0.05 } };
		pdTransform pb = pdIdentityTransform();
		pdiStartContext ctx = Context( m.mesh, pa, m.mesh, pb, ws );
		// As if 63 tests had settled their checks: the next one builds the grid (where the balls
		// allow one), and the rule that stops a query testing balls which rarely settle a check
		// is kept off by counting every test as a hit beforehand.
		ctx.ballTests = 63;
		ctx.ballHits = 63;
		int hits = 0, misses = 0;
		for ( int k = 0; k < 729; ++k )
		{
			pdVec3 x = pdiScale( pdiV3( ( k % 9 ) - 4.0, ( ( k / 9 ) % 9 ) - 4.0, ( k / 81 ) - 4.0 ), 0.31 );
			pdiFrame rel = RelativeAt( ctx, x );
			bool expected = AnyBallPairOverlaps( m.mesh, m.mesh, rel );
			int tests = ctx.ballTests;
			ctx.ballHits = tests;
			EXPECT_EQ( pdiStart_BallsOverlap( &ctx, &rel ), expected ) << "translation " << k;
			EXPECT_EQ( ctx.ballTests, tests + 1 );
			EXPECT_EQ( ctx.ballHits, tests + ( expected ? 1 : 0 ) );
			hits += expected ? 1 : 0;
			misses += expected ? 0 : 1;
		}
		EXPECT_GT( hits, 20 );
		EXPECT_GT( misses, 20 );
		gridShapes += ctx.ballGrid.ready ? 1 : 0;
		loopShapes += ctx.ballGrid.ready ? 0 : 1;
	}
	// Both ways of finding the pairs were exercised.
	EXPECT_GE( gridShapes, 1 );
	EXPECT_GE( loopShapes, 1 );
	pdDestroyWorkspace( ws );
}

// Without the containment rule, or once a query's tests settle fewer than one check in eight,
// no ball is tested.
TEST( PdBallOverlap, NotAskedWithoutSolidsOrWhenItRarelySettles )
{
	ShapeAtRest torus( "torus" );
	ASSERT_NE( torus.m.mesh, nullptr );
	pdiStartContext& ctx = torus.ctx;
	pdiFrame rel = RelativeAt( ctx, pdiV3( 0.0, 0.0, 0.0 ) );
	ASSERT_TRUE( AnyBallPairOverlaps( torus.m.mesh, torus.m.mesh, rel ) );
	ctx.containment = false;
	EXPECT_FALSE( pdiStart_BallsOverlap( &ctx, &rel ) );
	EXPECT_EQ( ctx.ballTests, 0 );
	ctx.containment = true;
	ctx.ballTests = 16;
	ctx.ballHits = 1;
	EXPECT_FALSE( pdiStart_BallsOverlap( &ctx, &rel ) );
	EXPECT_EQ( ctx.ballTests, 16 );
	ctx.ballHits = 2;
	EXPECT_TRUE( pdiStart_BallsOverlap( &ctx, &rel ) );
	EXPECT_EQ( ctx.ballTests, 17 );
	EXPECT_EQ( ctx.ballHits, 3 );
}

// The grid is built at a query's 64th ball test, not before: a query with few static checks
// does not pay for it. Before and after, the verdicts are those of every pair.
TEST( PdBallOverlap, GridIsBuiltAtTheSixtyFourthTest )
{
	ShapeAtRest grate( "grate" );
	ASSERT_NE( grate.m.mesh, nullptr );
	pdiStartContext& ctx = grate.ctx;
	for ( int k = 1; k <= 80; ++k )
	{
		pdiFrame rel = RelativeAt( ctx, pdiV3( 0.01 * k, -0.005 * k, 0.002 * k ) );
		ctx.ballHits = ctx.ballTests;
		EXPECT_EQ( pdiStart_BallsOverlap( &ctx, &rel ), AnyBallPairOverlaps( grate.m.mesh, grate.m.mesh, rel ) ) << k;
		EXPECT_EQ( ctx.ballTests, k );
		EXPECT_EQ( ctx.ballGrid.ready, k >= 64 ) << k;
	}
}

// The deepest inner-ball overlap as the plugin's lower bound on the PD (pdiPlugin_InnerBallOverlap):
// never above the exact PD, positive when the solids are sunk deep into each other, 0 apart and
// for open meshes.
TEST( PdBallOverlap, DeepestOverlapBoundsThePdFromBelow )
{
	const char* names[] = { "torus", "knot", "cup" };
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	for ( const char* name : names )
	{
		SCOPED_TRACE( name );
		Mesh m;
		ASSERT_TRUE( smpMakeShapeByName( name, 1000, 2.0, &m.soup ) && m.Make() );
		ASSERT_GT( m.mesh->innerBallCount, 0 );
		int positive = 0;
		for ( int k = 0; k < 24; ++k )
		{
			pdTransform pa = pdIdentityTransform(), pb = pdIdentityTransform();
			double t = 0.05 * k;
			pa.p = { 0.6 * std::cos( 1.3 * k ) * t, 0.5 * t, 0.4 * std::sin( 0.7 * k ) * t };
			pa.q = pdQuat{ std::cos( 0.2 * k ), 0.0, std::sin( 0.2 * k ), 0.0 };
			double bound = pdiPlugin_InnerBallOverlap( m.mesh, &pa, m.mesh, &pb );
			pdPenetrationResult pr;
			ASSERT_GE( pdComputePenetration( m.mesh, &pa, m.mesh, &pb, nullptr, nullptr, ws, &pr ), 0 );
			double pd = pr.state == PD_STATE_PENETRATING ? pr.depth : 0.0;
			EXPECT_LE( bound, pd + 1e-9 ) << "placement " << k;
			EXPECT_GE( bound, 0.0 );
			positive += bound > 0.0 ? 1 : 0;
			if ( pr.state == PD_STATE_SEPARATED )
				EXPECT_EQ( bound, 0.0 ) << "placement " << k;
		}
		EXPECT_GT( positive, 2 ) << "deep placements give a bound";
	}
	Mesh open;
	ASSERT_TRUE( smpMakeShapeByName( "torus", 1000, 2.0, &open.soup ) );
	open.soup.triangleCount -= 4; // a hole: no inner balls
	ASSERT_TRUE( open.Make() );
	pdTransform pose = pdIdentityTransform();
	EXPECT_EQ( pdiPlugin_InnerBallOverlap( open.mesh, &pose, open.mesh, &pose ), 0.0 );
	EXPECT_EQ( pdiPlugin_InnerBallOverlap( nullptr, &pose, open.mesh, &pose ), 0.0 );
	pdDestroyWorkspace( ws );
}
