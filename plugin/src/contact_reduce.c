// SPDX-License-Identifier: MIT
// Manifold reduction: a region's candidate points down to PD_CONTACT_MAX_POINTS. The public
// deepest-plus-largest-area reduction (pdContact_ReducePoints, pdcHullArea4), the stable
// reduction along directions fixed to B (resting patches), the banded and impact variants, and
// the plane of a wide resting patch.
#include "contact_internal.h"

#define PD_PI 3.14159265358979323846

// An orthonormal tangent basis of the plane normal to n (n unit or zero).
static void pdcTangents( pdVec3 n, pdVec3* u, pdVec3* v )
{
	pdVec3 a = fabs( n.x ) < 0.57 ? pdV3( 1.0, 0.0, 0.0 ) : pdV3( 0.0, 1.0, 0.0 );
	*u = pdNormalize( pdCross( n, a ) );
	if ( pdDot( *u, *u ) == 0.0 )
	{
		*u = pdV3( 1.0, 0.0, 0.0 );
	}
	*v = pdCross( n, *u );
}

// Tangent basis of the plane normal to n whose first axis is B's reference axis projected on
// it, so directions in the contact plane turn with B and not with the points found.
static void pdcBodyTangents( pdVec3 n, pdVec3 axis, pdVec3* u, pdVec3* v )
{
	pdVec3 t = pdMulAdd( axis, -pdDot( axis, n ), n );
	if ( pdDot( t, t ) < 0.01 )
	{
		// The axis is (nearly) the normal: use the one perpendicular to both.
		pdcTangents( n, u, v );
		return;
	}
	*u = pdNormalize( t );
	*v = pdCross( n, *u );
}

// The direction at angle in the plane spanned by u and v.
static pdVec3 pdcPlaneDirection( pdVec3 u, pdVec3 v, double angle )
{
	return pdAdd( pdScale( u, cos( angle ) ), pdScale( v, sin( angle ) ) );
}

// Index of the smallest distance (the first of equals).
static int pdcDeepestIndex( const double* distances, int count )
{
	int deepest = 0;
	for ( int i = 1; i < count; ++i )
	{
		if ( distances[i] < distances[deepest] )
		{
			deepest = i;
		}
	}
	return deepest;
}

// Swaps the pick with the smallest distance (the first of equals) to the front.
void pdcDeepestFirst( const double* distances, int* picked, int count )
{
	int first = 0;
	for ( int j = 1; j < count; ++j )
	{
		if ( distances[picked[j]] < distances[picked[first]] )
		{
			first = j;
		}
	}
	int t = picked[0];
	picked[0] = picked[first];
	picked[first] = t;
}

static double pdcTriangleArea( pdVec3 n, pdVec3 a, pdVec3 b, pdVec3 c )
{
	return 0.5 * fabs( pdDot( n, pdCross( pdSub( b, a ), pdSub( c, a ) ) ) );
}

double pdcHullArea4( pdVec3 normal, const pdVec3* points, int count )
{
	if ( points == NULL || count < 3 )
	{
		return 0.0;
	}
	pdVec3 n = pdNormalize( normal );
	const pdVec3* p = points;
	if ( count == 3 )
	{
		return pdcTriangleArea( n, p[0], p[1], p[2] );
	}
	// The hull of 4 points is either one of the 4 triangles (a point inside) or the simple
	// quadrilateral among the 3 cyclic orders; every candidate is <= the hull, one equals it.
	double best = 0.0;
	best = fmax( best, pdcTriangleArea( n, p[0], p[1], p[2] ) );
	best = fmax( best, pdcTriangleArea( n, p[0], p[1], p[3] ) );
	best = fmax( best, pdcTriangleArea( n, p[0], p[2], p[3] ) );
	best = fmax( best, pdcTriangleArea( n, p[1], p[2], p[3] ) );
	// Signed area of quad abcd = 0.5 n . ((c - a) x (d - b)).
	best = fmax( best, 0.5 * fabs( pdDot( n, pdCross( pdSub( p[2], p[0] ), pdSub( p[3], p[1] ) ) ) ) );
	best = fmax( best, 0.5 * fabs( pdDot( n, pdCross( pdSub( p[3], p[0] ), pdSub( p[2], p[1] ) ) ) ) );
	best = fmax( best, 0.5 * fabs( pdDot( n, pdCross( pdSub( p[1], p[0] ), pdSub( p[3], p[2] ) ) ) ) );
	return best;
}

// Candidates besides the deepest: all of them up to 16, else the extreme points along 16
// directions in the contact plane (the hull of the best 4 uses hull vertices only).
static int pdcReductionCandidates( pdVec3 n, const pdVec3* points, int count, int deepest, int cand[16] )
{
	int candCount = 0;
	if ( count <= 17 )
	{
		for ( int i = 0; i < count; ++i )
		{
			if ( i != deepest )
			{
				cand[candCount++] = i;
			}
		}
		return candCount;
	}
	pdVec3 u, v;
	pdcTangents( n, &u, &v );
	for ( int k = 0; k < 16; ++k )
	{
		pdVec3 dir = pdcPlaneDirection( u, v, 2.0 * PD_PI * (double)k / 16.0 );
		int best = -1;
		double bestValue = -DBL_MAX;
		for ( int i = 0; i < count; ++i )
		{
			double value = pdDot( dir, points[i] );
			if ( i != deepest && value > bestValue )
			{
				bestValue = value;
				best = i;
			}
		}
		if ( best >= 0 && !pdcHasIndex( cand, candCount, best ) )
		{
			cand[candCount++] = best;
		}
	}
	return candCount;
}

// The three candidates that with the deepest span the largest hull area; returns that area.
static double pdcLargestQuad( pdVec3 n, const pdVec3* points, int deepest, const int* cand, int candCount,
							  int outSet[3] )
{
	double bestArea = -1.0;
	outSet[0] = cand[0];
	outSet[1] = cand[1];
	outSet[2] = cand[2];
	for ( int a = 0; a < candCount; ++a )
	{
		for ( int b = a + 1; b < candCount; ++b )
		{
			for ( int c = b + 1; c < candCount; ++c )
			{
				pdVec3 quad[4] = { points[deepest], points[cand[a]], points[cand[b]], points[cand[c]] };
				double area = pdcHullArea4( n, quad, 4 );
				if ( area > bestArea )
				{
					bestArea = area;
					outSet[0] = cand[a];
					outSet[1] = cand[b];
					outSet[2] = cand[c];
				}
			}
		}
	}
	return bestArea;
}

// All collinear (zero area): the two candidates farthest from the deepest and from each other
// follow it in outIndices. Returns the count (2 or 3).
static int pdcFarthestPair( const pdVec3* points, int deepest, const int* cand, int candCount,
							int outIndices[PD_CONTACT_MAX_POINTS] )
{
	int far1 = cand[0];
	double d1 = -1.0;
	for ( int j = 0; j < candCount; ++j )
	{
		double d = pdLength( pdSub( points[cand[j]], points[deepest] ) );
		if ( d > d1 )
		{
			d1 = d;
			far1 = cand[j];
		}
	}
	int far2 = far1;
	double d2 = -1.0;
	for ( int j = 0; j < candCount; ++j )
	{
		double d = pdLength( pdSub( points[cand[j]], points[far1] ) );
		if ( cand[j] != far1 && d > d2 )
		{
			d2 = d;
			far2 = cand[j];
		}
	}
	outIndices[1] = far1;
	if ( far2 == far1 || far2 == deepest )
	{
		return 2;
	}
	outIndices[2] = far2;
	return 3;
}

int pdContact_ReducePoints( pdVec3 normal, const pdVec3* points, const double* distances, int count,
							int outIndices[PD_CONTACT_MAX_POINTS] )
{
	if ( points == NULL || distances == NULL || outIndices == NULL || count <= 0 )
	{
		return 0;
	}
	int deepest = pdcDeepestIndex( distances, count );
	outIndices[0] = deepest;
	if ( count <= PD_CONTACT_MAX_POINTS )
	{
		int k = 1;
		for ( int i = 0; i < count; ++i )
		{
			if ( i != deepest )
			{
				outIndices[k++] = i;
			}
		}
		return count;
	}
	pdVec3 n = pdNormalize( normal );
	int cand[16];
	int candCount = pdcReductionCandidates( n, points, count, deepest, cand );
	int bestSet[3];
	double bestArea = pdcLargestQuad( n, points, deepest, cand, candCount, bestSet );
	if ( !( bestArea > 0.0 ) )
	{
		return pdcFarthestPair( points, deepest, cand, candCount, outIndices );
	}
	outIndices[1] = bestSet[0];
	outIndices[2] = bestSet[1];
	outIndices[3] = bestSet[2];
	return 4;
}

// The extreme points along 2 * half directions fixed to B, among the points within band of the
// deepest (the patch's rim, a flank that only just came within reach, would otherwise be every
// direction's extreme). Returns the count, without repeats.
static int pdcStablePicks( const pdcRegion* r, int half, double band, int* outIndices, int maxOut )
{
	double lowest = pdcLowest( r->distance, r->count );
	pdVec3 u, v;
	pdcBodyTangents( r->normal, r->axis, &u, &v );
	int n = 0;
	for ( int k = 0; k < 2 * half && n < maxOut; ++k )
	{
		// Order +u, +v, -u, -v (then the diagonals) so the first 4 span the patch.
		int quarter = k % 4;
		double angle = 0.5 * PD_PI * (double)quarter;
		if ( k >= 4 )
		{
			angle += 0.25 * PD_PI;
		}
		pdVec3 dir = pdcPlaneDirection( u, v, angle );
		// Ties (a face patch's edge along B's axis: every point of it is extreme) go to the
		// point farthest along the next direction, the edge's corner: the first found could
		// be the edge's midpoint, or a corner that another direction picks too.
		pdVec3 next = pdcPlaneDirection( u, v, angle + 0.5 * PD_PI );
		int best = 0;
		double bestValue = -DBL_MAX, bestNext = -DBL_MAX;
		for ( int i = 0; i < r->count; ++i )
		{
			double value = pdDot( dir, r->pointB[i] );
			double along = pdDot( next, r->pointB[i] );
			double tie = 1e-9 * ( 1.0 + fabs( value ) );
			if ( r->distance[i] <= lowest + band &&
				 ( value > bestValue + tie || ( value >= bestValue - tie && along > bestNext ) ) )
			{
				bestValue = value;
				bestNext = along;
				best = i;
			}
		}
		if ( !pdcHasIndex( outIndices, n, best ) )
		{
			outIndices[n++] = best;
		}
	}
	return n;
}

// A point deeper than every pick by more than deepMargin replaces the pick nearest to it.
static void pdcKeepDeepCorner( const pdcRegion* r, double deepMargin, int* picked, int n )
{
	int deepest = pdcDeepestIndex( r->distance, r->count );
	double pickedMin = DBL_MAX;
	for ( int j = 0; j < n; ++j )
	{
		pickedMin = fmin( pickedMin, r->distance[picked[j]] );
	}
	if ( pdcHasIndex( picked, n, deepest ) || !( r->distance[deepest] < pickedMin - deepMargin ) )
	{
		return;
	}
	int nearest = 0;
	double nearestLength = DBL_MAX;
	for ( int j = 0; j < n; ++j )
	{
		double len = pdLength( pdSub( r->pointB[picked[j]], r->pointB[deepest] ) );
		if ( len < nearestLength )
		{
			nearestLength = len;
			nearest = j;
		}
	}
	picked[nearest] = deepest;
}

// Reduction that keeps point identity frame to frame: the extreme points along directions fixed
// to B in the contact plane (2 * half directions), not the deepest plus the largest area,
// whose choice on a near-uniform patch (a ring on a ring) jumps around every frame and defeats
// warm starting. A point clearly deeper than every pick (by more than deepMargin) replaces the
// pick nearest to it, so a deep corner is never lost. Returns the count; the deepest is first.
int pdcReduceStable( const pdcRegion* r, int half, double deepMargin, double band, int* outIndices, int maxOut )
{
	if ( r->count <= 0 || maxOut <= 0 )
	{
		return 0;
	}
	int n = pdcStablePicks( r, half, band, outIndices, maxOut );
	pdcKeepDeepCorner( r, deepMargin, outIndices, n );
	pdcDeepestFirst( r->distance, outIndices, n );
	return n;
}

// Normal of the plane through a wide patch's picked points on B. A ring resting on a ring
// touches along a crest whose faces tilt either way by half a tessellation segment; the region
// normal (a PD direction or a few features' normals) follows whichever face touched this frame,
// so it flips by ~10 degrees frame to frame and pushes the stack sideways. The support points
// themselves lie in the patch's plane. Only for patches of at least minArea whose plane agrees
// with the region normal (cosine >= minCosine); returns false otherwise.
bool pdcPatchNormal( const pdcRegion* r, const int* picked, int count, double minArea, double minCosine,
					 pdVec3* outNormal )
{
	if ( count < 3 )
	{
		return false;
	}
	pdVec3 p[4];
	for ( int k = 0; k < count && k < 4; ++k )
	{
		p[k] = r->pointB[picked[k]];
	}
	// Twice the area vector: of the triangle, or of the quad in whichever cyclic order is simple
	// (that order gives the longest diagonal cross product).
	pdVec3 best = pdCross( pdSub( p[1], p[0] ), pdSub( p[2], p[0] ) );
	if ( count >= 4 )
	{
		pdVec3 c[3] = {
			pdCross( pdSub( p[2], p[0] ), pdSub( p[3], p[1] ) ),
			pdCross( pdSub( p[3], p[0] ), pdSub( p[2], p[1] ) ),
			pdCross( pdSub( p[1], p[0] ), pdSub( p[3], p[2] ) ),
		};
		best = c[0];
		for ( int k = 1; k < 3; ++k )
		{
			best = pdDot( c[k], c[k] ) > pdDot( best, best ) ? c[k] : best;
		}
	}
	double twiceArea = pdLength( best );
	if ( !( twiceArea >= 2.0 * minArea ) || !isfinite( twiceArea ) )
	{
		return false;
	}
	pdVec3 n = pdScale( best, 1.0 / twiceArea );
	if ( pdDot( n, r->normal ) < 0.0 )
	{
		n = pdScale( n, -1.0 );
	}
	if ( pdDot( n, r->normal ) < minCosine )
	{
		return false;
	}
	*outNormal = n;
	return true;
}

// Deepest plus largest area (pdContact_ReducePoints) over the points within band of the
// deepest and the points penetrating now: the largest area otherwise goes to rim points that do
// not bear load. Depth is the predicted one: where each point will be after the step. A point
// that penetrates now bears load whatever the band says: a ring sunk along an arc of another
// (9 to 17 mm along a metre of it) that gets points only at its deeper end rocks about the
// other end, deeper end up one step and down the next, and falls asleep 17 mm deep (seed 8 of
// the 60 tori, bench/results/debris.md).
int pdcReduceDeepest( const pdcRegion* r, double band, int outIndices[PD_CONTACT_MAX_POINTS] )
{
	double lowest = pdcLowest( r->predicted, r->count );
	int map[PD_REGION_CANDIDATES];
	pdVec3 points[PD_REGION_CANDIDATES];
	double distances[PD_REGION_CANDIDATES];
	int n = 0;
	for ( int i = 0; i < r->count; ++i )
	{
		if ( r->predicted[i] <= lowest + band || r->distance[i] <= 0.0 )
		{
			map[n] = i;
			points[n] = r->pointB[i];
			distances[n] = r->predicted[i];
			++n;
		}
	}
	int pc = pdContact_ReducePoints( r->normal, points, distances, n, outIndices );
	for ( int k = 0; k < pc; ++k )
	{
		outIndices[k] = map[outIndices[k]];
	}
	return pc;
}

// Impact: the four points that will be deepest with the largest area, over the points that
// will be level with the deepest (within band) when they span at least half the area the
// points over the whole reach do (a ring landing flat stands on its bottom circle, not on the
// outer side of its tube a centimetre up), over the whole reach otherwise (a wobbling ring
// comes down on both sides).
int pdcReduceImpact( const pdcRegion* r, double band, int outIndices[PD_CONTACT_MAX_POINTS] )
{
	int level[PD_CONTACT_MAX_POINTS];
	int levelCount = pdcReduceDeepest( r, fmax( r->band, band ), level );
	int all = pdContact_ReducePoints( r->normal, r->pointB, r->predicted, r->count, outIndices );
	pdVec3 a[PD_CONTACT_MAX_POINTS], b[PD_CONTACT_MAX_POINTS];
	for ( int k = 0; k < levelCount; ++k )
	{
		a[k] = r->pointB[level[k]];
	}
	for ( int k = 0; k < all; ++k )
	{
		b[k] = r->pointB[outIndices[k]];
	}
	if ( pdcHullArea4( r->normal, a, levelCount ) >= 0.5 * pdcHullArea4( r->normal, b, all ) )
	{
		for ( int k = 0; k < levelCount; ++k )
		{
			outIndices[k] = level[k];
		}
		return levelCount;
	}
	return all;
}
