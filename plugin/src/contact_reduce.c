// SPDX-License-Identifier: MIT
// Manifold reduction: a region's candidate points down to PD_MAX_CONTACT_POINTS. The public
// deepest-plus-largest-area reduction (pdReduceContactPoints, pdiHullArea4), the stable
// reduction along directions fixed to B (resting patches), the banded and impact variants, and
// the plane of a wide resting patch.
#include "contact_internal.h"

#define PDI_PI 3.14159265358979323846

// An orthonormal tangent basis of the plane normal to n (n unit or zero).
static void pdiTangents( pdVec3 n, pdVec3* u, pdVec3* v )
{
	pdVec3 a = fabs( n.x ) < 0.57 ? pdiV3( 1.0, 0.0, 0.0 ) : pdiV3( 0.0, 1.0, 0.0 );
	*u = pdiNormalize( pdiCross( n, a ) );
	if ( pdiDot( *u, *u ) == 0.0 )
	{
		*u = pdiV3( 1.0, 0.0, 0.0 );
	}
	*v = pdiCross( n, *u );
}

// Tangent basis of the plane normal to n whose first axis is B's reference axis projected on
// it, so directions in the contact plane turn with B and not with the points found.
static void pdiBodyTangents( pdVec3 n, pdVec3 axis, pdVec3* u, pdVec3* v )
{
	pdVec3 t = pdiMulAdd( axis, -pdiDot( axis, n ), n );
	if ( pdiDot( t, t ) < 0.01 )
	{
		// The axis is (nearly) the normal: use the one perpendicular to both.
		pdiTangents( n, u, v );
		return;
	}
	*u = pdiNormalize( t );
	*v = pdiCross( n, *u );
}

// The direction at angle in the plane spanned by u and v.
static pdVec3 pdiPlaneDirection( pdVec3 u, pdVec3 v, double angle )
{
	return pdiAdd( pdiScale( u, cos( angle ) ), pdiScale( v, sin( angle ) ) );
}

// Index of the smallest distance (the first of equals).
static int pdiDeepestIndex( const double* distances, int count )
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

// The deepest point; of points level with it (a face patch resting flat: every vertex of the
// footprint at one depth), the one farthest from their centroid, a corner of the patch, so the
// largest area around it is the patch's own and not a quad through an edge's midpoint.
static int pdiDeepestCornerIndex( const pdVec3* points, const double* distances, int count )
{
	int deepest = pdiDeepestIndex( distances, count );
	double level = distances[deepest] + 1e-12 + 1e-9 * fabs( distances[deepest] );
	pdVec3 centroid = pdiV3( 0.0, 0.0, 0.0 );
	int levelCount = 0;
	for ( int i = 0; i < count; ++i )
	{
		if ( distances[i] <= level )
		{
			centroid = pdiAdd( centroid, points[i] );
			levelCount += 1;
		}
	}
	centroid = pdiScale( centroid, 1.0 / (double)levelCount );
	int corner = deepest;
	double farthest = -1.0;
	for ( int i = 0; i < count; ++i )
	{
		double d = pdiDistanceSq( points[i], centroid );
		if ( distances[i] <= level && d > farthest )
		{
			corner = i;
			farthest = d;
		}
	}
	return corner;
}

// Swaps the pick with the smallest distance (the first of equals) to the front.
void pdiDeepestFirst( const double* distances, int* picked, int count )
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

static double pdiTriangleArea( pdVec3 n, pdVec3 a, pdVec3 b, pdVec3 c )
{
	return 0.5 * fabs( pdiDot( n, pdiCross( pdiSub( b, a ), pdiSub( c, a ) ) ) );
}

double pdiHullArea4( pdVec3 normal, const pdVec3* points, int count )
{
	if ( points == NULL || count < 3 )
	{
		return 0.0;
	}
	pdVec3 n = pdiNormalize( normal );
	const pdVec3* p = points;
	if ( count == 3 )
	{
		return pdiTriangleArea( n, p[0], p[1], p[2] );
	}
	// The hull of 4 points is either one of the 4 triangles (a point inside) or the simple
	// quadrilateral among the 3 cyclic orders; every candidate is <= the hull, one equals it.
	double best = 0.0;
	best = fmax( best, pdiTriangleArea( n, p[0], p[1], p[2] ) );
	best = fmax( best, pdiTriangleArea( n, p[0], p[1], p[3] ) );
	best = fmax( best, pdiTriangleArea( n, p[0], p[2], p[3] ) );
	best = fmax( best, pdiTriangleArea( n, p[1], p[2], p[3] ) );
	// Signed area of quad abcd = 0.5 n . ((c - a) x (d - b)).
	best = fmax( best, 0.5 * fabs( pdiDot( n, pdiCross( pdiSub( p[2], p[0] ), pdiSub( p[3], p[1] ) ) ) ) );
	best = fmax( best, 0.5 * fabs( pdiDot( n, pdiCross( pdiSub( p[3], p[0] ), pdiSub( p[2], p[1] ) ) ) ) );
	best = fmax( best, 0.5 * fabs( pdiDot( n, pdiCross( pdiSub( p[1], p[0] ), pdiSub( p[3], p[2] ) ) ) ) );
	return best;
}

// Candidates besides the deepest: all of them up to 16, else the extreme points along 16
// directions in the contact plane (the hull of the best 4 uses hull vertices only).
static int pdiReductionCandidates( pdVec3 n, const pdVec3* points, int count, int deepest, int cand[16] )
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
	pdiTangents( n, &u, &v );
	for ( int k = 0; k < 16; ++k )
	{
		pdVec3 dir = pdiPlaneDirection( u, v, 2.0 * PDI_PI * (double)k / 16.0 );
		int best = -1;
		double bestValue = -DBL_MAX;
		for ( int i = 0; i < count; ++i )
		{
			double value = pdiDot( dir, points[i] );
			if ( i != deepest && value > bestValue )
			{
				bestValue = value;
				best = i;
			}
		}
		if ( best >= 0 && !pdiHasIndex( cand, candCount, best ) )
		{
			cand[candCount++] = best;
		}
	}
	return candCount;
}

// The three candidates that with the deepest span the largest hull area; returns that area.
static double pdiLargestQuad( pdVec3 n, const pdVec3* points, int deepest, const int* cand, int candCount,
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
				double area = pdiHullArea4( n, quad, 4 );
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
static int pdiFarthestPair( const pdVec3* points, int deepest, const int* cand, int candCount,
							int outIndices[PD_MAX_CONTACT_POINTS] )
{
	int far1 = cand[0];
	double d1 = -1.0;
	for ( int j = 0; j < candCount; ++j )
	{
		double d = pdiLength( pdiSub( points[cand[j]], points[deepest] ) );
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
		double d = pdiLength( pdiSub( points[cand[j]], points[far1] ) );
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

int pdReduceContactPoints( pdVec3 normal, const pdVec3* points, const double* distances, int count,
							int outIndices[PD_MAX_CONTACT_POINTS] )
{
	if ( points == NULL || distances == NULL || outIndices == NULL || count <= 0 )
	{
		return 0;
	}
	int deepest = pdiDeepestCornerIndex( points, distances, count );
	outIndices[0] = deepest;
	if ( count <= PD_MAX_CONTACT_POINTS )
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
	pdVec3 n = pdiNormalize( normal );
	int cand[16];
	int candCount = pdiReductionCandidates( n, points, count, deepest, cand );
	int bestSet[3];
	double bestArea = pdiLargestQuad( n, points, deepest, cand, candCount, bestSet );
	if ( !( bestArea > 0.0 ) )
	{
		return pdiFarthestPair( points, deepest, cand, candCount, outIndices );
	}
	outIndices[1] = bestSet[0];
	outIndices[2] = bestSet[1];
	outIndices[3] = bestSet[2];
	return 4;
}

// The extreme points along 2 * half directions fixed to B, among the points within band of the
// deepest (the patch's rim, a flank that only just came within reach, would otherwise be every
// direction's extreme). Returns the count, without repeats.
static int pdiStablePicks( const pdiRegion* r, int half, double band, int* outIndices, int maxOut )
{
	double lowest = pdiLowest( r->distance, r->count );
	pdVec3 u, v;
	pdiBodyTangents( r->normal, r->axis, &u, &v );
	int n = 0;
	for ( int k = 0; k < 2 * half && n < maxOut; ++k )
	{
		// Order +u, +v, -u, -v (then the diagonals) so the first 4 span the patch.
		int quarter = k % 4;
		double angle = 0.5 * PDI_PI * (double)quarter;
		if ( k >= 4 )
		{
			angle += 0.25 * PDI_PI;
		}
		pdVec3 dir = pdiPlaneDirection( u, v, angle );
		// Ties (a face patch's edge along B's axis: every point of it is extreme) go to the
		// point farthest along the next direction, the edge's corner: the first found could
		// be the edge's midpoint, or a corner that another direction picks too.
		pdVec3 next = pdiPlaneDirection( u, v, angle + 0.5 * PDI_PI );
		int best = 0;
		double bestValue = -DBL_MAX, bestNext = -DBL_MAX;
		for ( int i = 0; i < r->count; ++i )
		{
			double value = pdiDot( dir, r->pointB[i] );
			double along = pdiDot( next, r->pointB[i] );
			double tie = 1e-9 * ( 1.0 + fabs( value ) );
			if ( r->distance[i] <= lowest + band &&
				 ( value > bestValue + tie || ( value >= bestValue - tie && along > bestNext ) ) )
			{
				bestValue = value;
				bestNext = along;
				best = i;
			}
		}
		if ( !pdiHasIndex( outIndices, n, best ) )
		{
			outIndices[n++] = best;
		}
	}
	return n;
}

// A point deeper than every pick by more than deepMargin replaces the pick nearest to it.
static void pdiKeepDeepCorner( const pdiRegion* r, double deepMargin, int* picked, int n )
{
	int deepest = pdiDeepestIndex( r->distance, r->count );
	double pickedMin = DBL_MAX;
	for ( int j = 0; j < n; ++j )
	{
		pickedMin = fmin( pickedMin, r->distance[picked[j]] );
	}
	if ( pdiHasIndex( picked, n, deepest ) || !( r->distance[deepest] < pickedMin - deepMargin ) )
	{
		return;
	}
	int nearest = 0;
	double nearestLength = DBL_MAX;
	for ( int j = 0; j < n; ++j )
	{
		double len = pdiLength( pdiSub( r->pointB[picked[j]], r->pointB[deepest] ) );
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
int pdiReduceStable( const pdiRegion* r, int half, double deepMargin, double band, int* outIndices, int maxOut )
{
	if ( r->count <= 0 || maxOut <= 0 )
	{
		return 0;
	}
	int n = pdiStablePicks( r, half, band, outIndices, maxOut );
	pdiKeepDeepCorner( r, deepMargin, outIndices, n );
	pdiDeepestFirst( r->distance, outIndices, n );
	return n;
}

// Normal of the plane through a wide patch's picked points on B. A ring resting on a ring
// touches along a crest whose faces tilt either way by half a tessellation segment; the region
// normal (a PD direction or a few features' normals) follows whichever face touched this frame,
// so it flips by ~10 degrees frame to frame and pushes the stack sideways. The support points
// themselves lie in the patch's plane. Only for patches of at least minArea whose plane agrees
// with the region normal (cosine >= minCosine); returns false otherwise.
bool pdiPatchNormal( const pdiRegion* r, const int* picked, int count, double minArea, double minCosine,
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
	pdVec3 best = pdiCross( pdiSub( p[1], p[0] ), pdiSub( p[2], p[0] ) );
	if ( count >= 4 )
	{
		pdVec3 c[3] = {
			pdiCross( pdiSub( p[2], p[0] ), pdiSub( p[3], p[1] ) ),
			pdiCross( pdiSub( p[3], p[0] ), pdiSub( p[2], p[1] ) ),
			pdiCross( pdiSub( p[1], p[0] ), pdiSub( p[3], p[2] ) ),
		};
		best = c[0];
		for ( int k = 1; k < 3; ++k )
		{
			best = pdiDot( c[k], c[k] ) > pdiDot( best, best ) ? c[k] : best;
		}
	}
	double twiceArea = pdiLength( best );
	if ( !( twiceArea >= 2.0 * minArea ) || !isfinite( twiceArea ) )
	{
		return false;
	}
	pdVec3 n = pdiScale( best, 1.0 / twiceArea );
	if ( pdiDot( n, r->normal ) < 0.0 )
	{
		n = pdiScale( n, -1.0 );
	}
	if ( pdiDot( n, r->normal ) < minCosine )
	{
		return false;
	}
	*outNormal = n;
	return true;
}

// Deepest plus largest area (pdReduceContactPoints) over the points within band of the
// deepest and the points penetrating now: the largest area otherwise goes to rim points that do
// not bear load. Depth is the predicted one: where each point will be after the step. A point
// that penetrates now bears load whatever the band says: a ring sunk along an arc of another
// that gets points only at its deeper end rocks about the other end, deeper end up one step and
// down the next, and falls asleep deep in it.
int pdiReduceDeepest( const pdiRegion* r, double band, int outIndices[PD_MAX_CONTACT_POINTS] )
{
	double lowest = pdiLowest( r->predicted, r->count );
	int map[PDI_REGION_CANDIDATES];
	pdVec3 points[PDI_REGION_CANDIDATES];
	double distances[PDI_REGION_CANDIDATES];
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
	int pc = pdReduceContactPoints( r->normal, points, distances, n, outIndices );
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
int pdiReduceImpact( const pdiRegion* r, double band, int outIndices[PD_MAX_CONTACT_POINTS] )
{
	int level[PD_MAX_CONTACT_POINTS];
	int levelCount = pdiReduceDeepest( r, fmax( r->band, band ), level );
	int all = pdReduceContactPoints( r->normal, r->pointB, r->predicted, r->count, outIndices );
	pdVec3 a[PD_MAX_CONTACT_POINTS], b[PD_MAX_CONTACT_POINTS];
	for ( int k = 0; k < levelCount; ++k )
	{
		a[k] = r->pointB[level[k]];
	}
	for ( int k = 0; k < all; ++k )
	{
		b[k] = r->pointB[outIndices[k]];
	}
	if ( pdiHullArea4( r->normal, a, levelCount ) >= 0.5 * pdiHullArea4( r->normal, b, all ) )
	{
		for ( int k = 0; k < levelCount; ++k )
		{
			outIndices[k] = level[k];
		}
		return levelCount;
	}
	return all;
}
