// SPDX-License-Identifier: MIT
// The inner-ball certificate of the static checks (solids only): A translated by x collides
// with B when a ball inside A overlaps a ball inside B. A's ball i and B's ball j overlap when
// A's origin, in B's frame, lies within r_i + r_j of c_j - R c_i: a ball in translation space.
// The rotation R is the same for every check of a query, so a query that tests balls often puts
// those balls once into a uniform grid over their boxes (when its cells are selective), and a
// check tests only the pairs of the cell it falls in, with the same arithmetic as the test of
// every pair (so the verdict is that test's).
#include "initial_config.h"
#include "plugin_interface.h"
#include "proximity.h"

#include <math.h>
#include <string.h>

// Cells along the longest side of the grid's box at most.
#define PDI_BALL_GRID_SIDE 24
// Cells a pair is filed in, on average, at most: a grid finer than that for its balls costs
// more to build than the checks of a query save (large balls, as in a bulky solid, overlap
// early in the plain loop anyway).
#define PDI_BALL_GRID_FILINGS 8
// The test at which a query builds the grid: the build costs about a hundred plain tests of
// 32 x 32 pairs, which a query with few static checks (a single start) never makes up.
#define PDI_BALL_GRID_AFTER 64

typedef struct pdiBallGridCell
{
	int x, y, z;
} pdiBallGridCell;

static int pdiBallGrid_Clamp( double v, int n )
{
	int k = (int)floor( v );
	return k < 0 ? 0 : ( k >= n ? n - 1 : k );
}

static pdiBallGridCell pdiBallGrid_CellOf( const pdiBallGrid* g, pdVec3 p )
{
	pdiBallGridCell c = { pdiBallGrid_Clamp( ( p.x - g->lo.x ) / g->cell, g->size[0] ),
						  pdiBallGrid_Clamp( ( p.y - g->lo.y ) / g->cell, g->size[1] ),
						  pdiBallGrid_Clamp( ( p.z - g->lo.z ) / g->cell, g->size[2] ) };
	return c;
}

static int pdiBallGrid_Index( const pdiBallGrid* g, int x, int y, int z )
{
	return ( z * g->size[1] + y ) * g->size[0] + x;
}

// The box of pair (i, j)'s translation ball, padded for the rounding of the pair test.
static void pdiBallGrid_PairBox( const pdiStartContext* ctx, int i, int j, pdVec3* outLo, pdVec3* outHi )
{
	const pdiBall* bb = ctx->meshB->innerBalls + j;
	pdVec3 c = pdiSub( bb->center, ctx->ballCentersA[i] );
	double r = ctx->meshA->innerBalls[i].radius + bb->radius;
	double pad = r + 1e-9 * ( r + fabs( c.x ) + fabs( c.y ) + fabs( c.z ) + ctx->meshB->diagonal );
	*outLo = pdiV3( c.x - pad, c.y - pad, c.z - pad );
	*outHi = pdiV3( c.x + pad, c.y + pad, c.z + pad );
}

// Visits every cell of pair (i, j)'s box: counts it there (items == NULL), or files the pair in
// the slot before the cell's end and moves the end down.
static void pdiBallGrid_File( pdiBallGrid* g, const pdiStartContext* ctx, int i, int j, int* ends, int* items )
{
	pdVec3 lo, hi;
	pdiBallGrid_PairBox( ctx, i, j, &lo, &hi );
	pdiBallGridCell a = pdiBallGrid_CellOf( g, lo ), b = pdiBallGrid_CellOf( g, hi );
	for ( int z = a.z; z <= b.z; ++z )
	{
		for ( int y = a.y; y <= b.y; ++y )
		{
			for ( int x = a.x; x <= b.x; ++x )
			{
				int cell = pdiBallGrid_Index( g, x, y, z );
				if ( items == NULL )
				{
					ends[cell] += 1;
				}
				else
				{
					items[--ends[cell]] = ( i << 8 ) | j;
				}
			}
		}
	}
}

// The finest cell side, from side / PDI_BALL_GRID_SIDE up to side / 3, at which the pairs are
// filed in PDI_BALL_GRID_FILINGS cells each on average at most and a cell holds an eighth of the
// pairs at most on average (a coarser grid saves a check too little); 0 when none is.
static double pdiBallGrid_ChooseCell( const pdiStartContext* ctx, int countA, int countB, pdVec3 extent )
{
	double side = fmax( extent.x, fmax( extent.y, extent.z ) );
	int pairs = countA * countB;
	for ( int sideCells = PDI_BALL_GRID_SIDE; sideCells >= 3; sideCells /= 2 )
	{
		double h = side / sideCells;
		double filings = 0.0;
		for ( int i = 0; i < countA; ++i )
		{
			for ( int j = 0; j < countB; ++j )
			{
				double r = ctx->meshA->innerBalls[i].radius + ctx->meshB->innerBalls[j].radius;
				double across = fmin( floor( 2.0 * r / h ) + 2.0, sideCells );
				filings += across * across * across;
			}
		}
		double cells =
			( floor( extent.x / h ) + 1.0 ) * ( floor( extent.y / h ) + 1.0 ) * ( floor( extent.z / h ) + 1.0 );
		if ( filings <= PDI_BALL_GRID_FILINGS * pairs && 8.0 * filings <= cells * pairs )
		{
			return h;
		}
	}
	return 0.0;
}

// Builds the grid of the query's ball pairs in the workspace. False (the caller then tests
// every pair) when memory runs out or the boxes are not finite.
static bool pdiBallGrid_Build( pdiStartContext* ctx, int countA, int countB )
{
	pdiBallGrid* g = &ctx->ballGrid;
	pdVec3 lo = pdiV3( INFINITY, INFINITY, INFINITY ), hi = pdiV3( -INFINITY, -INFINITY, -INFINITY );
	for ( int i = 0; i < countA; ++i )
	{
		for ( int j = 0; j < countB; ++j )
		{
			pdVec3 l, h;
			pdiBallGrid_PairBox( ctx, i, j, &l, &h );
			lo = pdiMin3( lo, l );
			hi = pdiMax3( hi, h );
		}
	}
	pdVec3 extent = pdiSub( hi, lo );
	double side = fmax( extent.x, fmax( extent.y, extent.z ) );
	if ( !pdiIsFiniteVec( lo ) || !pdiIsFiniteVec( hi ) || !( side > 0.0 ) )
	{
		return false;
	}
	g->lo = lo;
	g->hi = hi;
	g->cell = pdiBallGrid_ChooseCell( ctx, countA, countB, extent );
	if ( g->cell == 0.0 )
	{
		return false;
	}
	g->size[0] = pdiBallGrid_Clamp( extent.x / g->cell, PDI_BALL_GRID_SIDE ) + 1;
	g->size[1] = pdiBallGrid_Clamp( extent.y / g->cell, PDI_BALL_GRID_SIDE ) + 1;
	g->size[2] = pdiBallGrid_Clamp( extent.z / g->cell, PDI_BALL_GRID_SIDE ) + 1;
	int cells = g->size[0] * g->size[1] * g->size[2];
	pdWorkspace* ws = ctx->ws;
	if ( !pdiBuffer_Reserve( &ws->ballGridStarts, (size_t)( cells + 1 ) * sizeof( int ), false ) )
	{
		return false;
	}
	// Counts, summed into each cell's end; filing moves every end down to the cell's start.
	int* starts = ws->ballGridStarts.data;
	memset( starts, 0, (size_t)( cells + 1 ) * sizeof( int ) );
	for ( int i = 0; i < countA; ++i )
	{
		for ( int j = 0; j < countB; ++j )
		{
			pdiBallGrid_File( g, ctx, i, j, starts, NULL );
		}
	}
	for ( int k = 1; k < cells; ++k )
	{
		starts[k] += starts[k - 1];
	}
	starts[cells] = starts[cells - 1];
	if ( !pdiBuffer_Reserve( &ws->ballGridItems, (size_t)( starts[cells] > 0 ? starts[cells] : 1 ) * sizeof( int ),
							 false ) )
	{
		return false;
	}
	for ( int i = 0; i < countA; ++i )
	{
		for ( int j = 0; j < countB; ++j )
		{
			pdiBallGrid_File( g, ctx, i, j, starts, ws->ballGridItems.data );
		}
	}
	return true;
}

// The pair test: A's ball i (its centre turned into B's frame) moved by p overlaps B's ball j.
static bool pdiBallPairOverlaps( const pdiStartContext* ctx, int i, int j, pdVec3 p )
{
	pdVec3 c = pdiAdd( ctx->ballCentersA[i], p );
	double r = ctx->meshA->innerBalls[i].radius + ctx->meshB->innerBalls[j].radius;
	return pdiDistanceSq( c, ctx->meshB->innerBalls[j].center ) < r * r;
}

// Some pair of the grid's cell holding p overlaps (none when p is outside the grid's box).
static bool pdiBallGrid_AnyOverlap( const pdiStartContext* ctx, pdVec3 p )
{
	const pdiBallGrid* g = &ctx->ballGrid;
	// Written so that a NaN coordinate is outside too (the plain loop's tests are false for it).
	if ( !( p.x >= g->lo.x && p.y >= g->lo.y && p.z >= g->lo.z && p.x <= g->hi.x && p.y <= g->hi.y && p.z <= g->hi.z ) )
	{
		return false;
	}
	pdiBallGridCell c = pdiBallGrid_CellOf( g, p );
	int cell = pdiBallGrid_Index( g, c.x, c.y, c.z );
	const int* starts = ctx->ws->ballGridStarts.data;
	const int* items = ctx->ws->ballGridItems.data;
	for ( int k = starts[cell]; k < starts[cell + 1]; ++k )
	{
		if ( pdiBallPairOverlaps( ctx, items[k] >> 8, items[k] & 0xff, p ) )
		{
			return true;
		}
	}
	return false;
}

// The inner balls a test uses: the mesh's, at most PDI_MAX_INNER_BALLS of them (largest first).
static int pdiUsedInnerBalls( const pdMesh* mesh )
{
	return mesh->innerBallCount < PDI_MAX_INNER_BALLS ? mesh->innerBallCount : PDI_MAX_INNER_BALLS;
}

bool pdiStart_BallsOverlap( pdiStartContext* ctx, const pdiFrame* rel )
{
	const pdMesh* meshA = ctx->meshA;
	const pdMesh* meshB = ctx->meshB;
	if ( !ctx->containment || meshA->innerBallCount <= 0 || meshB->innerBallCount <= 0 )
	{
		return false;
	}
	// Thin-walled solids have small balls that seldom overlap: after 16 tests, a query whose
	// tests settled fewer than one check in eight stops paying for them.
	if ( ctx->ballTests >= 16 && 8 * ctx->ballHits < ctx->ballTests )
	{
		return false;
	}
	ctx->ballTests += 1;
	int countA = pdiUsedInnerBalls( meshA );
	int countB = pdiUsedInnerBalls( meshB );
	if ( !ctx->ballsReady )
	{
		// rel's rotation is the same for every x of the query.
		for ( int i = 0; i < countA; ++i )
		{
			ctx->ballCentersA[i] = pdiMulMV( &rel->r, meshA->innerBalls[i].center );
		}
		ctx->ballsReady = true;
	}
	if ( ctx->ballTests == PDI_BALL_GRID_AFTER )
	{
		ctx->ballGrid.ready = pdiBallGrid_Build( ctx, countA, countB );
	}
	bool overlap = false;
	if ( ctx->ballGrid.ready )
	{
		overlap = pdiBallGrid_AnyOverlap( ctx, rel->p );
	}
	else
	{
		for ( int i = 0; i < countA && !overlap; ++i )
		{
			for ( int j = 0; j < countB && !overlap; ++j )
			{
				overlap = pdiBallPairOverlaps( ctx, i, j, rel->p );
			}
		}
	}
	ctx->ballHits += overlap ? 1 : 0;
	return overlap;
}

double pdiInnerBallOverlapAt( const pdMesh* meshA, const pdiFrame* frameA, const pdMesh* meshB, const pdiFrame* frameB )
{
	int countA = pdiUsedInnerBalls( meshA );
	int countB = pdiUsedInnerBalls( meshB );
	pdVec3 centresB[PDI_MAX_INNER_BALLS];
	for ( int j = 0; j < countB; ++j )
	{
		centresB[j] = pdiFrameApply( frameB, meshB->innerBalls[j].center );
	}
	double deepest = 0.0;
	for ( int i = 0; i < countA; ++i )
	{
		pdVec3 a = pdiFrameApply( frameA, meshA->innerBalls[i].center );
		for ( int j = 0; j < countB; ++j )
		{
			double overlap =
				meshA->innerBalls[i].radius + meshB->innerBalls[j].radius - pdiLength( pdiSub( a, centresB[j] ) );
			deepest = overlap > deepest ? overlap : deepest;
		}
	}
	return isfinite( deepest ) ? deepest : 0.0;
}

// The deepest of `balls` (in ballFrame) measured against the solid of mesh (in meshFrame): a
// ball of radius r whose centre lies at depth delta inside the solid needs the solid moved at
// least r + delta before the two part, since the solid holds the ball of radius delta about that
// centre. Centres within a millionth of the diagonal of the surface are skipped: the parity
// test that says inside is only trusted away from it.
static double pdiBallsInsideSolid( const pdiBall* balls, int count, const pdiFrame* ballFrame, const pdMesh* mesh,
								   const pdiFrame* meshFrame, pdWorkspace* ws )
{
	double deepest = 0.0;
	double skip = 1e-6 * mesh->diagonal;
	// No point lies deeper in a solid than half its bounds' thinnest side.
	pdVec3 extent = pdiSub( mesh->boundsMax, mesh->boundsMin );
	double deepestPossible = 0.5 * fmin( extent.x, fmin( extent.y, extent.z ) );
	for ( int i = 0; i < count; ++i )
	{
		pdVec3 c = pdiFrameApplyInverse( meshFrame, pdiFrameApply( ballFrame, balls[i].center ) );
		if ( balls[i].radius + deepestPossible <= deepest || !pdiMesh_ContainsPoint( mesh, c, ws ) )
		{
			continue;
		}
		double depth = pdiMesh_PointDistance( mesh, c, INFINITY, ws );
		if ( depth > skip && isfinite( depth ) && balls[i].radius + depth > deepest )
		{
			deepest = balls[i].radius + depth;
		}
	}
	return deepest;
}

double pdiPenetrationLowerBound( const pdMesh* meshA, const pdiFrame* frameA, const pdMesh* meshB,
								 const pdiFrame* frameB, pdWorkspace* ws )
{
	double bound = pdiInnerBallOverlapAt( meshA, frameA, meshB, frameB );
	if ( !meshA->closed || !meshB->closed )
	{
		return bound;
	}
	int countA = pdiUsedInnerBalls( meshA );
	int countB = pdiUsedInnerBalls( meshB );
	double inA = pdiBallsInsideSolid( meshB->innerBalls, countB, frameB, meshA, frameA, ws );
	double inB = pdiBallsInsideSolid( meshA->innerBalls, countA, frameA, meshB, frameB, ws );
	bound = inA > bound ? inA : bound;
	bound = inB > bound ? inB : bound;
	return isfinite( bound ) ? bound : 0.0;
}

double pdiPlugin_InnerBallOverlap( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
								   const pdTransform* poseB )
{
	pdiFrame frameA, frameB;
	if ( !pdiIsValidMesh( meshA ) || !pdiIsValidMesh( meshB ) || poseA == NULL || poseB == NULL ||
		 pdiMakeFrame( poseA, &frameA ) != PD_STATUS_OK || pdiMakeFrame( poseB, &frameB ) != PD_STATUS_OK )
	{
		return 0.0;
	}
	return pdiInnerBallOverlapAt( meshA, &frameA, meshB, &frameB );
}
