// SPDX-License-Identifier: MIT
// Minimum distance between two posed meshes: best-first descent of both BVHs (a binary heap of
// node pairs keyed by their lower bound), pruning by the best distance so far, exact triangle
// distance at the leaves. Best-first expands only pairs whose bound is below the current best,
// about a third fewer than a depth-first descent on separated meshes. The bounded variant stops
// as soon as the answer is proven below lowerBound or above upperBound.
#include "core.h"
#include "kernels.h"
#include "pair_heap.h"
#include "pair_query.h"
#include "proximity.h"
#include "tri_distance.h"

#include <string.h>

pdDistanceDef pdiDistanceDefaults( void )
{
	pdDistanceDef def;
	memset( &def, 0, sizeof( def ) );
	def.lowerBound = 0.0;
	def.upperBound = INFINITY;
	def.maxNodeVisits = 50000000;
	def.internalValue = PDI_SECRET_COOKIE;
	return def;
}

static pdFeature pdiMakeFeature( const pdMesh* mesh, int triangle, pdiTriFeature f )
{
	pdFeature out;
	out.type = f.type;
	out.triangle = triangle;
	out.index = f.type == PD_FEATURE_FACE ? 0 : f.index;
	out.vertex = f.type == PD_FEATURE_FACE ? -1 : mesh->triangles[triangle][out.index];
	return out;
}

// A leaf triangle in B's frame with the data the cheap rejection tests use.
typedef struct pdiLeafTriangle
{
	pdVec3 v[3];
	pdVec3 lo, hi;         ///< axis-aligned bounds
	pdVec3 normal;         ///< unit face normal
	double axisLo, axisHi; ///< projection interval on the best axis so far
	int index;
} pdiLeafTriangle;

static inline void pdiLeafTriangle_Project( pdiLeafTriangle* t, pdVec3 axis )
{
	double p0 = pdiDot( axis, t->v[0] ), p1 = pdiDot( axis, t->v[1] ), p2 = pdiDot( axis, t->v[2] );
	t->axisLo = pdiMinD( p0, pdiMinD( p1, p2 ) );
	t->axisHi = pdiMaxD( p0, pdiMaxD( p1, p2 ) );
}

// Squared gap between two axis-aligned boxes (0 when they overlap).
static double pdiBoundsGapSq( pdVec3 loA, pdVec3 hiA, pdVec3 loB, pdVec3 hiB )
{
	double gx = pdiMaxD( pdiMaxD( loA.x - hiB.x, loB.x - hiA.x ), 0.0 );
	double gy = pdiMaxD( pdiMaxD( loA.y - hiB.y, loB.y - hiA.y ), 0.0 );
	double gz = pdiMaxD( pdiMaxD( loA.z - hiB.z, loB.z - hiA.z ), 0.0 );
	return gx * gx + gy * gy + gz * gz;
}

// One distance query: the frames and bounds it runs with, its heap of pending node pairs, and
// the closest triangle pair found so far.
typedef struct pdiDistanceSearch
{
	const pdMesh* meshA;
	const pdMesh* meshB;
	pdiFrame rel; ///< A's mesh frame in B's mesh frame; the search works in B's frame
	double lowerBound, upperBound;
	int maxNodeVisits;
	pdiPairHeap heap; ///< pending node pairs keyed by a lower bound on their distance
	int visits;
	double best;        ///< smallest exact triangle distance so far
	double prunedAbove; ///< smallest bound of a pair dropped for exceeding upperBound
	int bestA, bestB;   ///< the triangles of best (-1 before the first pair)
	pdVec3 bestPA, bestPB;
	pdiTriFeature bestFA, bestFB;
	bool stoppedBelow;
	bool haveAxis;
	pdVec3 bestAxis; ///< unit, B's frame: from A's closest point toward B's
} pdiDistanceSearch;

// Makes triangles ta of A and tb of B the closest pair: their distance (returned), closest
// points and features.
static double pdiDistance_TakePair( pdiDistanceSearch* s, int ta, int tb )
{
	s->bestA = ta;
	s->bestB = tb;
	pdVec3 va[3], vb[3];
	pdiMesh_TriangleVertices( s->meshA, ta, va );
	pdiMesh_TriangleVertices( s->meshB, tb, vb );
	for ( int k = 0; k < 3; ++k )
	{
		va[k] = pdiFrameApply( &s->rel, va[k] );
	}
	return pdiTriangleDistance( va, vb, &s->bestPA, &s->bestPB, &s->bestFA, &s->bestFB );
}

// Seeds the search with the root pair. Overlapping roots first get a first-hit collide: it is
// much cheaper than an ordered descent among box pairs that all have a zero bound, and settles
// intersecting meshes at distance 0. (Wasted on meshes that do not intersect: the caller who
// knows says so with knownSeparated.)
static void pdiDistance_Seed( pdiDistanceSearch* s, const pdDistanceDef* def, bool knownSeparated,
							 const pdTransform* poseA, const pdTransform* poseB, pdWorkspace* ws )
{
	const pdiBvh* bvhA = &s->meshA->bvh;
	const pdiBvh* bvhB = &s->meshB->bvh;
	pdiBvhPair root;
	pdiBvhMoved rootMoved;
	pdiBvh_MoveNode( bvhA->nodes, &s->rel, &rootMoved );
	pdiBvh_RelateMoved( &rootMoved, bvhB->nodes, &root );
	if ( knownSeparated || !pdiBvh_PairOverlap( &root, bvhA->nodes, bvhB->nodes, 0.0 ) )
	{
		pdiPairHeap_Push( &s->heap, ( pdiKeyedPair ){ 0, 0, pdiBvh_PairLowerBound( &root, bvhA->nodes, bvhB->nodes ) } );
		return;
	}
	pdCollideDef collideDef = pdiCollideDefaults();
	collideDef.checkContainment = false;
	collideDef.maxNodeVisits = def->maxNodeVisits;
	pdCollideResult hit;
	pdiCollide( s->meshA, poseA, s->meshB, poseB, &collideDef, ws, &hit );
	s->visits = hit.nodeVisits;
	if ( hit.colliding && hit.pairCount > 0 )
	{
		s->best = pdiDistance_TakePair( s, hit.pairs[0].triangleA, hit.pairs[0].triangleB );
		s->stoppedBelow = s->best < s->lowerBound;
	}
	else
	{
		pdiPairHeap_Push( &s->heap, ( pdiKeyedPair ){ 0, 0, 0.0 } );
	}
}

// Triangles [chunk, chunk + PDI_BVH_LEAF_SIZE) of B's leaf nb (one chunk for an ordinary leaf),
// gathered once rather than once per triangle of A, projected on the best axis, with the box of
// them all. Returns how many.
static int pdiDistance_LoadChunk( const pdiDistanceSearch* s, const pdiBvhNode* nb, int chunk,
								 pdiLeafTriangle cb[PDI_BVH_LEAF_SIZE], pdVec3* outLo, pdVec3* outHi )
{
	const pdiBvh* bvhB = &s->meshB->bvh;
	int chunkCount = nb->count - chunk < PDI_BVH_LEAF_SIZE ? nb->count - chunk : PDI_BVH_LEAF_SIZE;
	pdVec3 leafLo = pdiV3( INFINITY, INFINITY, INFINITY ), leafHi = pdiV3( -INFINITY, -INFINITY, -INFINITY );
	for ( int j = 0; j < chunkCount; ++j )
	{
		pdiLeafTriangle* t = cb + j;
		int slot = nb->start + chunk + j;
		t->index = bvhB->triangleOrder[slot];
		t->v[0] = bvhB->leafVertices[slot][0];
		t->v[1] = bvhB->leafVertices[slot][1];
		t->v[2] = bvhB->leafVertices[slot][2];
		t->lo = bvhB->leafLo[slot];
		t->hi = bvhB->leafHi[slot];
		t->normal = s->meshB->faceNormals[t->index];
		pdiLeafTriangle_Project( t, s->bestAxis );
		leafLo = pdiV3( pdiMinD( leafLo.x, t->lo.x ), pdiMinD( leafLo.y, t->lo.y ), pdiMinD( leafLo.z, t->lo.z ) );
		leafHi = pdiV3( pdiMaxD( leafHi.x, t->hi.x ), pdiMaxD( leafHi.y, t->hi.y ), pdiMaxD( leafHi.z, t->hi.z ) );
	}
	*outLo = leafLo;
	*outHi = leafHi;
	return chunkCount;
}

// Triangle ta of A (ca, in B's frame) against a chunk of B's leaf: the exact distance of every
// pair the cheap bounds do not rule out, keeping the closest.
static void pdiDistance_TriangleChunk( pdiDistanceSearch* s, int ta, pdiLeafTriangle* ca, pdiLeafTriangle* cb,
									  int chunkCount )
{
	for ( int j = 0; j < chunkCount; ++j )
	{
		const pdiLeafTriangle* tb = cb + j;
		if ( s->bestA >= 0 )
		{
			// Cheap lower bounds first (box gap, the best axis, both supporting planes): the
			// exact triangle distance is the expensive part.
			double best = s->best;
			if ( pdiBoundsGapSq( ca->lo, ca->hi, tb->lo, tb->hi ) >= best * best ||
				 ( s->haveAxis && pdiMaxD( tb->axisLo - ca->axisHi, ca->axisLo - tb->axisHi ) >= best ) ||
				 pdiPlaneGap( tb->normal, tb->v[0], ca->v ) >= best ||
				 pdiPlaneGap( ca->normal, ca->v[0], tb->v ) >= best )
			{
				continue;
			}
		}
		pdVec3 pa, pb;
		pdiTriFeature fa, fb;
		double d = pdiTriangleDistance( ca->v, tb->v, &pa, &pb, &fa, &fb );
		if ( d < s->best || s->bestA < 0 )
		{
			pdVec3 gap = pdiSub( pb, pa );
			double len = pdiLength( gap );
			s->haveAxis = len > 0.0;
			s->bestAxis = s->haveAxis ? pdiScale( gap, 1.0 / len ) : s->bestAxis;
			s->best = d;
			s->bestA = ta;
			s->bestB = tb->index;
			s->bestPA = pa;
			s->bestPB = pb;
			s->bestFA = fa;
			s->bestFB = fb;
			// The axis moved: refresh the projections that use it.
			pdiLeafTriangle_Project( ca, s->bestAxis );
			for ( int k = 0; k < chunkCount; ++k )
			{
				pdiLeafTriangle_Project( cb + k, s->bestAxis );
			}
		}
	}
}

// Every triangle pair of the leaf pair (na, nb) that could beat the best.
static void pdiDistance_Leaves( pdiDistanceSearch* s, const pdiBvhNode* na, const pdiBvhNode* nb )
{
	const pdiBvh* bvhA = &s->meshA->bvh;
	for ( int chunk = 0; chunk < nb->count; chunk += PDI_BVH_LEAF_SIZE )
	{
		pdiLeafTriangle cb[PDI_BVH_LEAF_SIZE];
		pdVec3 leafLo, leafHi;
		int chunkCount = pdiDistance_LoadChunk( s, nb, chunk, cb, &leafLo, &leafHi );
		for ( int i = 0; i < na->count; ++i )
		{
			int ta = bvhA->triangleOrder[na->start + i];
			pdiLeafTriangle ca;
			pdiMesh_MovedLeafTriangle( s->meshA, na->start + i, &s->rel, ca.v, &ca.lo, &ca.hi );
			// The whole chunk is out of reach of this triangle.
			if ( s->bestA >= 0 && pdiBoundsGapSq( ca.lo, ca.hi, leafLo, leafHi ) >= s->best * s->best )
			{
				continue;
			}
			ca.normal = pdiMulMV( &s->rel.r, s->meshA->faceNormals[ta] );
			pdiLeafTriangle_Project( &ca, s->bestAxis );
			pdiDistance_TriangleChunk( s, ta, &ca, cb, chunkCount );
		}
	}
}

// Bounds both child pairs of the internal pair e and queues those that could beat the best.
// The heap has room for two (the caller grew it).
static void pdiDistance_PushChildren( pdiDistanceSearch* s, pdiKeyedPair e )
{
	const pdiBvhNode* nodesA = s->meshA->bvh.nodes;
	const pdiBvhNode* nodesB = s->meshB->bvh.nodes;
	pdiChildPairs c = pdiPairQuery_Split( nodesA + e.a, nodesB + e.b, e.a, e.b );
	pdiBvhPair p0, p1;
	pdiBvh_RelateChildren( nodesA, nodesB, c.a0, c.b0, c.a1, c.b1, &s->rel, &p0, &p1 );
	double d0 = pdiBvh_PairLowerBound( &p0, nodesA + c.a0, nodesB + c.b0 );
	double d1 = pdiBvh_PairLowerBound( &p1, nodesA + c.a1, nodesB + c.b1 );
	// The best axis is cheap and, near the answer, the sharpest; the refined gap (costlier)
	// only runs for separated pairs that would still be expanded.
	if ( s->haveAxis )
	{
		d0 = pdiMaxD( d0, pdiBvh_PairAxisGap( &p0, nodesA + c.a0, nodesB + c.b0, s->bestAxis ) );
		d1 = pdiMaxD( d1, pdiBvh_PairAxisGap( &p1, nodesA + c.a1, nodesB + c.b1, s->bestAxis ) );
	}
	if ( d0 > 0.0 && d0 < s->best )
	{
		d0 = pdiMaxD( d0, pdiBvh_PairRefinedGap( &p0, nodesA + c.a0, nodesB + c.b0 ) );
	}
	if ( d1 > 0.0 && d1 < s->best )
	{
		d1 = pdiMaxD( d1, pdiBvh_PairRefinedGap( &p1, nodesA + c.a1, nodesB + c.b1 ) );
	}
	// Pairs that cannot beat the best so far are dropped right away.
	if ( d0 < s->best )
	{
		pdiPairHeap_Push( &s->heap, ( pdiKeyedPair ){ c.a0, c.b0, d0 } );
	}
	if ( d1 < s->best )
	{
		pdiPairHeap_Push( &s->heap, ( pdiKeyedPair ){ c.a1, c.b1, d1 } );
	}
}

// Best-first descent until the heap empties or what is left cannot change the answer. Returns
// PD_STATUS_TRAVERSAL_LIMIT when a cap ended it (the entry that met the cap stays in the heap
// for the conservative bound), else PD_STATUS_OK.
static pdStatus pdiDistance_Traverse( pdiDistanceSearch* s )
{
	// Every pop removes one entry and a visit adds at most two, so maxNodeVisits bounds the loop.
	while ( s->heap.count > 0 )
	{
		pdiKeyedPair e = pdiPairHeap_Pop( &s->heap );
		// Entries come out in increasing bound: once one cannot matter, none after it can.
		if ( e.key >= s->best )
		{
			break;
		}
		if ( e.key > s->upperBound )
		{
			s->prunedAbove = fmin( s->prunedAbove, e.key );
			break;
		}
		if ( s->visits >= s->maxNodeVisits )
		{
			pdiPairHeap_Push( &s->heap, e ); // keep the entry for the conservative bound
			return PD_STATUS_TRAVERSAL_LIMIT;
		}
		++s->visits;
		const pdiBvhNode* na = s->meshA->bvh.nodes + e.a;
		const pdiBvhNode* nb = s->meshB->bvh.nodes + e.b;
		if ( na->count > 0 && nb->count > 0 )
		{
			pdiDistance_Leaves( s, na, nb );
			if ( s->best < s->lowerBound )
			{
				s->stoppedBelow = true;
				break;
			}
			if ( s->best <= 0.0 )
			{
				break; // intersecting: nothing can be closer
			}
			continue;
		}
		if ( !pdiPairHeap_Grow( &s->heap ) )
		{
			pdiPairHeap_Push( &s->heap, e ); // room for one is left: the pop freed it
			return PD_STATUS_TRAVERSAL_LIMIT;
		}
		pdiDistance_PushChildren( s, e );
	}
	return PD_STATUS_OK;
}

// Fills the result from the finished search (status from pdiDistance_Traverse).
static void pdiDistance_Finish( pdiDistanceSearch* s, pdStatus status, const pdiFrame* frameB,
							   pdDistanceResult* outResult )
{
	double distance = s->best;
	bool stoppedAbove = false;
	if ( status == PD_STATUS_TRAVERSAL_LIMIT )
	{
		// Best so far when any pair was evaluated (an upper bound), else the smallest bound
		// still pending (a lower bound).
		if ( s->bestA < 0 )
		{
			double pending = s->prunedAbove;
			const pdiKeyedPair* pendingEntries = s->heap.buffer->data;
			for ( int k = 0; k < s->heap.count; ++k )
			{
				pending = fmin( pending, pendingEntries[k].key );
			}
			distance = pending > 0.0 ? pending : 0.0;
		}
	}
	else if ( !s->stoppedBelow && !( s->best <= s->upperBound ) )
	{
		// Everything left was pruned above upperBound: the distance exceeds it.
		stoppedAbove = true;
		distance = fmin( s->best, s->prunedAbove );
	}
	if ( !isfinite( distance ) )
	{
		distance = 0.0; // only reachable with an infinite upperBound and no pair (cannot happen)
	}
	if ( s->bestA < 0 )
	{
		// No triangle pair evaluated (stopped above at the roots): report the first leaf pair's
		// closest points so every field stays meaningful.
		const pdiBvhNode* la = s->meshA->bvh.nodes;
		const pdiBvhNode* lb = s->meshB->bvh.nodes;
		pdiDistance_TakePair( s, s->meshA->bvh.triangleOrder[la->count > 0 ? la->start : 0],
							 s->meshB->bvh.triangleOrder[lb->count > 0 ? lb->start : 0] );
	}

	outResult->status = status;
	outResult->distance = distance;
	outResult->pointA = pdiFrameApply( frameB, s->bestPA );
	outResult->pointB = pdiFrameApply( frameB, s->bestPB );
	outResult->featureA = pdiMakeFeature( s->meshA, s->bestA, s->bestFA );
	outResult->featureB = pdiMakeFeature( s->meshB, s->bestB, s->bestFB );
	outResult->stoppedBelow = s->stoppedBelow;
	outResult->stoppedAbove = stoppedAbove;
	outResult->nodeVisits = s->visits;
}

pdDistanceDef pdDefaultDistanceDef( void )
{
	return pdiDistanceDefaults();
}

static void pdiDistance_ClearResult( pdDistanceResult* outResult )
{
	memset( outResult, 0, sizeof( *outResult ) );
	outResult->featureA.vertex = outResult->featureB.vertex = -1;
	outResult->featureA.type = outResult->featureB.type = PD_FEATURE_FACE;
}

pdStatus pdiComputeDistance( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							 const pdTransform* poseB, const pdDistanceDef* def, bool knownSeparated, pdWorkspace* ws,
							 pdDistanceResult* outResult )
{
	pdiDistance_ClearResult( outResult );
	pdiDistanceSearch s;
	pdiPairFrames frames;
	pdStatus status = pdiPairQuery_Frames( poseA, poseB, &frames );
	if ( status == PD_STATUS_OK &&
		 ( !pdiPairQuery_HasTrees( meshA, meshB ) || !pdiPairHeap_Init( &s.heap, &ws->stack ) ) )
	{
		status = PD_STATUS_OUT_OF_MEMORY;
	}
	if ( status != PD_STATUS_OK )
	{
		outResult->status = status;
		return status;
	}

	s.meshA = meshA;
	s.meshB = meshB;
	s.rel = frames.rel;
	s.lowerBound = def->lowerBound;
	s.upperBound = def->upperBound;
	s.maxNodeVisits = def->maxNodeVisits;
	s.visits = 0;
	s.best = INFINITY;
	s.prunedAbove = INFINITY;
	s.bestA = s.bestB = -1;
	s.bestPA = s.bestPB = pdiV3( 0.0, 0.0, 0.0 );
	s.bestFA = s.bestFB = ( pdiTriFeature ){ PD_FEATURE_FACE, 0 };
	s.stoppedBelow = false;
	s.haveAxis = false;
	s.bestAxis = pdiV3( 0.0, 0.0, 1.0 );
	pdiDistance_Seed( &s, def, knownSeparated, poseA, poseB, ws );
	status = pdiDistance_Traverse( &s );
	pdiDistance_Finish( &s, status, &frames.b, outResult );
	return status;
}

pdStatus pdiCheckedDistance( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							 const pdTransform* poseB, const pdDistanceDef* def, bool knownSeparated, pdWorkspace* ws,
							 pdDistanceResult* outResult )
{
	if ( outResult == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdiDistance_ClearResult( outResult );
	pdDistanceDef defaults = pdiDistanceDefaults();
	if ( def == NULL )
	{
		def = &defaults;
	}
	pdStatus defStatus = pdiPairQuery_DefStatus( def->internalValue );
	if ( defStatus == PD_STATUS_OK &&
		 ( def->maxNodeVisits <= 0 || isnan( def->lowerBound ) || isnan( def->upperBound ) ) )
	{
		defStatus = PD_STATUS_INVALID_DEF;
	}
	pdiPairFrames frames;
	pdStatus status = pdiPairQuery_Check( defStatus, meshA, poseA, meshB, poseB, ws, &frames );
	if ( status != PD_STATUS_OK )
	{
		outResult->status = status;
		return status;
	}
	return pdiComputeDistance( meshA, poseA, meshB, poseB, def, knownSeparated, ws, outResult );
}

pdStatus pdComputeDistance( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							const pdTransform* poseB, const pdDistanceDef* def, pdWorkspace* ws,
							pdDistanceResult* outResult )
{
	return pdiCheckedDistance( meshA, poseA, meshB, poseB, def, false, ws, outResult );
}
