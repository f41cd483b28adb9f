// SPDX-License-Identifier: MIT
// A segment against one mesh: exact segment-surface distance by a BVH descent with the
// segment as a needle triangle at the leaves, and the deepest point of a segment inside a
// closed mesh by best-first bisection with a proven lower bound.
#include "rounded_segment.h"

#include "core.h"
#include "proximity.h"

typedef struct pdiSegmentEntry
{
	int node;
	double bound;
} pdiSegmentEntry;

typedef struct pdiSegmentQuery
{
	pdVec3 a, b, mid;
	double halfLength;
	double u;
	pdiSurfacePoint best;
} pdiSegmentQuery;

// A lower bound of the segment's distance to a node's box: every point of the segment lies
// within halfLength of its middle.
static double pdiSegmentNodeBound( const pdiSegmentQuery* q, const pdiBvhNode* node )
{
	double d = sqrt( pdiBvh_PointDistanceSq( node, q->mid ) ) - q->halfLength;
	return d > 0.0 ? d : 0.0;
}

static void pdiSegmentLeaf( pdiSegmentQuery* q, const pdMesh* mesh, const pdiBvhNode* node )
{
	const pdVec3 needle[3] = { q->a, q->b, q->b };
	pdVec3 ab = pdiSub( q->b, q->a );
	double len2 = pdiLengthSq( ab );
	for ( int k = 0; k < node->count; ++k )
	{
		int slot = node->start + k;
		pdVec3 pa, pb;
		pdiTriFeature fa, fb;
		double d = pdiTriangleDistance( needle, mesh->bvh.leafVertices[slot], &pa, &pb, &fa, &fb );
		if ( q->best.triangle < 0 || d < q->best.distance )
		{
			double u = len2 > 0.0 ? pdiDot( pdiSub( pa, q->a ), ab ) / len2 : 0.0;
			q->u = u < 0.0 ? 0.0 : ( u > 1.0 ? 1.0 : u );
			q->best = ( pdiSurfacePoint ){ d, pb, mesh->bvh.triangleOrder[slot], fb };
		}
	}
}

bool pdiMesh_SegmentClosest( const pdMesh* mesh, pdVec3 a, pdVec3 b, pdWorkspace* ws, double* outU,
							 pdiSurfacePoint* out )
{
	pdiSegmentQuery q;
	q.a = a;
	q.b = b;
	q.mid = pdiScale( pdiAdd( a, b ), 0.5 );
	q.halfLength = 0.5 * pdiLength( pdiSub( b, a ) );
	q.u = 0.0;
	q.best = ( pdiSurfacePoint ){ INFINITY, a, -1, { PD_FEATURE_FACE, 0 } };
	*outU = 0.0;
	*out = q.best;
	const pdiBvh* bvh = &mesh->bvh;
	if ( bvh->nodeCount == 0 ||
		 !pdiBuffer_Reserve( &ws->stack, PDI_BVH_PAIR_STACK * sizeof( pdiSegmentEntry ), false ) )
	{
		return false;
	}
	pdiSegmentEntry* stack = ws->stack.data;
	int top = 0;
	stack[top++] = ( pdiSegmentEntry ){ 0, pdiSegmentNodeBound( &q, bvh->nodes ) };
	for ( int guard = 0; guard <= bvh->nodeCount && top > 0; ++guard )
	{
		pdiSegmentEntry e = stack[--top];
		if ( q.best.triangle >= 0 && e.bound >= q.best.distance )
		{
			continue;
		}
		const pdiBvhNode* node = bvh->nodes + e.node;
		if ( node->count > 0 )
		{
			pdiSegmentLeaf( &q, mesh, node );
			if ( q.best.distance <= 0.0 )
			{
				break; // crossing: nothing is closer
			}
			continue;
		}
		if ( top + 2 > PDI_BVH_PAIR_STACK )
		{
			break; // cannot happen with the depth cap; stay finite anyway
		}
		pdiSegmentEntry l = { e.node + 1, pdiSegmentNodeBound( &q, bvh->nodes + e.node + 1 ) };
		pdiSegmentEntry r = { node->start, pdiSegmentNodeBound( &q, bvh->nodes + node->start ) };
		// The nearer on top.
		stack[top++] = l.bound <= r.bound ? r : l;
		stack[top++] = l.bound <= r.bound ? l : r;
	}
	*outU = q.u;
	*out = q.best;
	return q.best.triangle >= 0;
}

// ---------------------------------------------------------------------------------------------
// Deepest point

typedef struct pdiInterval
{
	double u0, u1;
	double f0, f1; ///< f at the ends
	double bound;  ///< lower bound of f on [u0, u1]
} pdiInterval;

typedef struct pdiDeepSearch
{
	const pdMesh* mesh;
	pdVec3 a, b;
	pdWorkspace* ws;
	pdiSegmentDeepest* out;
} pdiDeepSearch;

static pdVec3 pdiSegmentAt( const pdiDeepSearch* s, double u )
{
	return pdiLerp( s->a, s->b, u );
}

// f(u), keeping the smallest value seen.
static double pdiDeep_Evaluate( pdiDeepSearch* s, double u )
{
	pdiSurfacePoint closest;
	bool inside = false;
	double f = pdiMesh_SignedDistance( s->mesh, pdiSegmentAt( s, u ), s->ws, &closest, &inside );
	++s->out->evaluations;
	if ( f < s->out->value )
	{
		s->out->value = f;
		s->out->u = u;
		s->out->closest = closest;
		s->out->inside = inside;
	}
	return f;
}

// A lower bound of f on [u0, u1] from two arguments, the larger taken: f is 1-Lipschitz, so
// f >= (f0 + f1 - length) / 2 (tight where the ends lie outside, far from the surface); and
// every triangle's distance is convex along the segment, so a point inside is no deeper than
// min_T max( dist(x(u0), T), dist(x(u1), T) ) (tight inside, near a face).
static pdiInterval pdiDeep_Interval( const pdiDeepSearch* s, double u0, double u1, double f0, double f1 )
{
	pdVec3 p0 = pdiSegmentAt( s, u0 ), p1 = pdiSegmentAt( s, u1 );
	double lipschitz = 0.5 * ( f0 + f1 - pdiLength( pdiSub( p1, p0 ) ) );
	double t = pdiMesh_TwoPointBound( s->mesh, p0, p1, INFINITY, s->ws );
	double convex = isfinite( t ) ? -t : -s->mesh->diagonal;
	return ( pdiInterval ){ u0, u1, f0, f1, pdiMaxD( lipschitz, convex ) };
}

// Best-first bisection over the intervals, from f(0) = f0 and f(1) = f1; returns false when the
// workspace cannot hold them.
static bool pdiDeep_Bisect( pdiDeepSearch* s, double f0, double f1, double tolerance, int maxEvaluations )
{
	int capacity = 2 * maxEvaluations + 2;
	if ( !pdiBuffer_Reserve( &s->ws->scratch, (size_t)capacity * sizeof( pdiInterval ), false ) )
	{
		return false;
	}
	pdiInterval* open = s->ws->scratch.data;
	int count = 0;
	open[count++] = pdiDeep_Interval( s, 0.0, 1.0, f0, f1 );
	pdiSegmentDeepest* out = s->out;
	// Each pass removes one interval and adds at most two, evaluating once: maxEvaluations
	// caps the loop.
	for ( ;; )
	{
		int lowest = 0;
		for ( int i = 1; i < count; ++i )
		{
			lowest = open[i].bound < open[lowest].bound ? i : lowest;
		}
		if ( count == 0 || open[lowest].bound >= out->value - tolerance )
		{
			break;
		}
		if ( out->evaluations >= maxEvaluations || count + 1 > capacity )
		{
			out->capped = true;
			break;
		}
		pdiInterval e = open[lowest];
		open[lowest] = open[--count];
		double mid = 0.5 * ( e.u0 + e.u1 );
		double fm = pdiDeep_Evaluate( s, mid );
		pdiInterval left = pdiDeep_Interval( s, e.u0, mid, e.f0, fm );
		pdiInterval right = pdiDeep_Interval( s, mid, e.u1, fm, e.f1 );
		left.bound = pdiMaxD( left.bound, e.bound );
		right.bound = pdiMaxD( right.bound, e.bound );
		open[count++] = left;
		open[count++] = right;
	}
	double bound = out->value;
	for ( int i = 0; i < count; ++i )
	{
		bound = pdiMinD( bound, open[i].bound );
	}
	out->bound = bound; // every interval left is within tolerance below value unless capped
	return true;
}

void pdiMesh_SegmentDeepest( const pdMesh* mesh, pdVec3 a, pdVec3 b, double tolerance, int maxEvaluations,
							 pdWorkspace* ws, pdiSegmentDeepest* out )
{
	out->u = 0.0;
	out->value = INFINITY;
	out->bound = -INFINITY;
	out->closest = ( pdiSurfacePoint ){ INFINITY, a, -1, { PD_FEATURE_FACE, 0 } };
	out->inside = false;
	out->evaluations = 0;
	out->capped = false;

	double u = 0.0;
	pdiSurfacePoint closest;
	if ( !pdiMesh_SegmentClosest( mesh, a, b, ws, &u, &closest ) )
	{
		return;
	}
	bool crossing = !( closest.distance > 0.0 );
	pdVec3 at = pdiLerp( a, b, u );
	if ( !crossing && ( !mesh->closed || !pdiMesh_ContainsPoint( mesh, at, ws ) ) )
	{
		// Outside (or a sheet): the segment distance is the minimum, exactly.
		out->u = u;
		out->value = out->bound = closest.distance;
		out->closest = closest;
		return;
	}
	if ( crossing && !mesh->closed )
	{
		// Through a sheet: the unsigned distance is 0 there.
		out->u = u;
		out->value = out->bound = 0.0;
		out->closest = closest;
		return;
	}
	pdiDeepSearch s = { mesh, a, b, ws, out };
	if ( crossing )
	{
		// The crossing point is on the surface: f = 0 there.
		out->u = u;
		out->value = 0.0;
		out->closest = closest;
	}
	double f0 = pdiDeep_Evaluate( &s, 0.0 );
	double f1 = pdiDeep_Evaluate( &s, 1.0 );
	if ( !pdiDeep_Bisect( &s, f0, f1, tolerance, maxEvaluations < 2 ? 2 : maxEvaluations ) )
	{
		out->capped = true;
		out->bound = -mesh->diagonal;
	}
}
