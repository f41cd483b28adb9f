// SPDX-License-Identifier: MIT
// Minimum distance between two posed meshes: best-first descent of both BVHs (a binary heap of
// node pairs keyed by their lower bound), pruning by the best distance so far, exact triangle
// distance at the leaves. Best-first expands only pairs whose bound is below the current best,
// about a third fewer than a depth-first descent on separated meshes. The bounded variant stops
// as soon as the answer is proven below lowerBound or above upperBound.
#include "core.h"
#include "pair_heap.h"
#include "proximity.h"
#include "tri_distance.h"

#include <string.h>

pdDistanceDef pdDefaultDistanceDef( void )
{
	pdDistanceDef def;
	memset( &def, 0, sizeof( def ) );
	def.lowerBound = 0.0;
	def.upperBound = INFINITY;
	def.maxNodeVisits = 50000000;
	def.internalValue = PD_SECRET_COOKIE;
	return def;
}

static pdFeature pdMakeFeature( const pdMesh* mesh, int triangle, pdTriFeature f )
{
	pdFeature out;
	out.type = f.type;
	out.triangle = triangle;
	out.index = f.type == PD_FEATURE_FACE ? 0 : f.index;
	out.vertex = f.type == PD_FEATURE_FACE ? -1 : mesh->triangles[triangle][out.index];
	return out;
}

// A leaf triangle in B's frame with the data the cheap rejection tests use.
typedef struct pdLeafTriangle
{
	pdVec3 v[3];
	pdVec3 lo, hi;         ///< axis-aligned bounds
	pdVec3 normal;         ///< unit face normal
	double axisLo, axisHi; ///< projection interval on the best axis so far
	int index;
} pdLeafTriangle;

static inline void pdLeafTriangle_Project( pdLeafTriangle* t, pdVec3 axis )
{
	double p0 = pdDot( axis, t->v[0] ), p1 = pdDot( axis, t->v[1] ), p2 = pdDot( axis, t->v[2] );
	t->axisLo = pdMinD( p0, pdMinD( p1, p2 ) );
	t->axisHi = pdMaxD( p0, pdMaxD( p1, p2 ) );
}

// Squared gap between two axis-aligned boxes (0 when they overlap).
static double pdBoundsGapSq( pdVec3 loA, pdVec3 hiA, pdVec3 loB, pdVec3 hiB )
{
	double gx = pdMaxD( pdMaxD( loA.x - hiB.x, loB.x - hiA.x ), 0.0 );
	double gy = pdMaxD( pdMaxD( loA.y - hiB.y, loB.y - hiA.y ), 0.0 );
	double gz = pdMaxD( pdMaxD( loA.z - hiB.z, loB.z - hiA.z ), 0.0 );
	return gx * gx + gy * gy + gz * gz;
}

pdStatus pdComputeDistance( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							const pdTransform* poseB, const pdDistanceDef* def, pdWorkspace* ws,
							pdDistanceResult* outResult )
{
	if ( outResult == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	memset( outResult, 0, sizeof( *outResult ) );
	outResult->featureA.vertex = outResult->featureB.vertex = -1;
	outResult->featureA.type = outResult->featureB.type = PD_FEATURE_FACE;
	pdDistanceDef defaults = pdDefaultDistanceDef();
	if ( def == NULL )
	{
		def = &defaults;
	}
	pdStatus status = PD_STATUS_OK;
	pdFrame frameA, frameB;
	if ( def->internalValue != PD_SECRET_COOKIE )
	{
		status = PD_STATUS_DEF_NOT_INITIALIZED;
	}
	else if ( def->maxNodeVisits <= 0 || isnan( def->lowerBound ) || isnan( def->upperBound ) )
	{
		status = PD_STATUS_INVALID_DEF;
	}
	else if ( !pdIsValidMesh( meshA ) || !pdIsValidMesh( meshB ) )
	{
		status = PD_STATUS_INVALID_MESH;
	}
	else if ( !pdIsValidWorkspace( ws ) )
	{
		status = PD_STATUS_INVALID_ARGUMENT;
	}
	else if ( ( status = pdMakeFrame( poseA, &frameA ) ) == PD_STATUS_OK )
	{
		status = pdMakeFrame( poseB, &frameB );
		if ( status == PD_STATUS_OK && ( !pdIsUsablePosition( frameA.p ) || !pdIsUsablePosition( frameB.p ) ) )
		{
			status = PD_STATUS_INVALID_POSE;
		}
	}
	if ( status != PD_STATUS_OK )
	{
		outResult->status = status;
		return status;
	}
	const pdBvh* bvhA = &meshA->bvh;
	const pdBvh* bvhB = &meshB->bvh;
	pdPairHeap heap;
	if ( bvhA->nodeCount == 0 || bvhB->nodeCount == 0 || !pdPairHeap_Init( &heap, &ws->stack ) )
	{
		outResult->status = PD_STATUS_OUT_OF_MEMORY;
		return outResult->status;
	}

	pdFrame rel = pdRelativeFrame( &frameA, &frameB );
	const double lowerBound = def->lowerBound;
	const double upperBound = def->upperBound;
	int visits = 0;
	double best = INFINITY;        // smallest exact triangle distance so far
	double prunedAbove = INFINITY; // smallest bound of a pair dropped for exceeding upperBound
	int bestA = -1, bestB = -1;
	pdVec3 bestPA = pdV3( 0.0, 0.0, 0.0 ), bestPB = pdV3( 0.0, 0.0, 0.0 );
	pdTriFeature bestFA = { PD_FEATURE_FACE, 0 }, bestFB = { PD_FEATURE_FACE, 0 };
	bool stoppedBelow = false;
	bool haveAxis = false;
	pdVec3 bestAxis = pdV3( 0.0, 0.0, 1.0 ); // unit, B's frame: from A's closest point toward B's

	pdBvhPair root;
	pdBvhMoved rootMoved;
	pdBvh_MoveNode( bvhA->nodes, &rel, &rootMoved );
	pdBvh_RelateMoved( &rootMoved, bvhB->nodes, &root );
	if ( !def->knownSeparated && pdBvh_PairOverlap( &root, bvhA->nodes, bvhB->nodes, 0.0 ) )
	{
		// Overlapping roots: a first-hit collide is much cheaper than an ordered descent among
		// box pairs that all have a zero bound, and settles intersecting meshes at distance 0.
		// (Wasted on meshes that do not intersect: the caller who knows says so.)
		pdCollideDef collideDef = pdDefaultCollideDef();
		collideDef.checkContainment = false;
		collideDef.maxNodeVisits = def->maxNodeVisits;
		pdCollideResult hit;
		pdCollide( meshA, poseA, meshB, poseB, &collideDef, ws, &hit );
		visits = hit.nodeVisits;
		if ( hit.colliding && hit.pairCount > 0 )
		{
			bestA = hit.pairs[0].triangleA;
			bestB = hit.pairs[0].triangleB;
			pdVec3 va[3], vb[3];
			pdMesh_TriangleVertices( meshA, bestA, va );
			pdMesh_TriangleVertices( meshB, bestB, vb );
			for ( int k = 0; k < 3; ++k )
			{
				va[k] = pdFrameApply( &rel, va[k] );
			}
			best = pdTriangleDistance( va, vb, &bestPA, &bestPB, &bestFA, &bestFB );
			stoppedBelow = best < lowerBound;
		}
		else
		{
			pdPairHeap_Push( &heap, ( pdKeyedPair ){ 0, 0, 0.0 } );
		}
	}
	else
	{
		pdPairHeap_Push( &heap,
							 ( pdKeyedPair ){ 0, 0, pdBvh_PairLowerBound( &root, bvhA->nodes, bvhB->nodes ) } );
	}

	// Every pop removes one entry and a visit adds at most two, so maxNodeVisits bounds the loop.
	while ( heap.count > 0 )
	{
		pdKeyedPair e = pdPairHeap_Pop( &heap );
		// Entries come out in increasing bound: once one cannot matter, none after it can.
		if ( e.key >= best )
		{
			break;
		}
		if ( e.key > upperBound )
		{
			prunedAbove = fmin( prunedAbove, e.key );
			break;
		}
		if ( visits >= def->maxNodeVisits )
		{
			pdPairHeap_Push( &heap, e ); // keep the entry for the conservative bound below
			status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		++visits;
		const pdBvhNode* na = bvhA->nodes + e.a;
		const pdBvhNode* nb = bvhB->nodes + e.b;
		if ( na->count > 0 && nb->count > 0 )
		{
			// B's leaf in chunks (one for an ordinary leaf): its triangles, boxes and normals are
			// gathered once rather than once per triangle of A.
			for ( int chunk = 0; chunk < nb->count; chunk += PD_BVH_LEAF_SIZE )
			{
				int chunkCount = nb->count - chunk < PD_BVH_LEAF_SIZE ? nb->count - chunk : PD_BVH_LEAF_SIZE;
				pdLeafTriangle cb[PD_BVH_LEAF_SIZE];
				pdVec3 leafLo = pdV3( INFINITY, INFINITY, INFINITY ), leafHi = pdV3( -INFINITY, -INFINITY, -INFINITY );
				for ( int j = 0; j < chunkCount; ++j )
				{
					pdLeafTriangle* t = cb + j;
					int slot = nb->start + chunk + j;
					t->index = bvhB->triangleOrder[slot];
					t->v[0] = bvhB->leafVertices[slot][0];
					t->v[1] = bvhB->leafVertices[slot][1];
					t->v[2] = bvhB->leafVertices[slot][2];
					t->lo = bvhB->leafLo[slot];
					t->hi = bvhB->leafHi[slot];
					t->normal = meshB->faceNormals[t->index];
					pdLeafTriangle_Project( t, bestAxis );
					leafLo =
						pdV3( pdMinD( leafLo.x, t->lo.x ), pdMinD( leafLo.y, t->lo.y ), pdMinD( leafLo.z, t->lo.z ) );
					leafHi =
						pdV3( pdMaxD( leafHi.x, t->hi.x ), pdMaxD( leafHi.y, t->hi.y ), pdMaxD( leafHi.z, t->hi.z ) );
				}
				for ( int i = 0; i < na->count; ++i )
				{
					int ta = bvhA->triangleOrder[na->start + i];
					pdLeafTriangle ca;
					pdMesh_MovedLeafTriangle( meshA, na->start + i, &rel, ca.v, &ca.lo, &ca.hi );
					// The whole chunk is out of reach of this triangle.
					if ( bestA >= 0 && pdBoundsGapSq( ca.lo, ca.hi, leafLo, leafHi ) >= best * best )
					{
						continue;
					}
					ca.normal = pdMulMV( &rel.r, meshA->faceNormals[ta] );
					pdLeafTriangle_Project( &ca, bestAxis );
					for ( int j = 0; j < chunkCount; ++j )
					{
						const pdLeafTriangle* tb = cb + j;
						if ( bestA >= 0 )
						{
							// Cheap lower bounds first (box gap, the best axis, both supporting
							// planes): the exact triangle distance is the expensive part.
							if ( pdBoundsGapSq( ca.lo, ca.hi, tb->lo, tb->hi ) >= best * best ||
								 ( haveAxis && pdMaxD( tb->axisLo - ca.axisHi, ca.axisLo - tb->axisHi ) >= best ) ||
								 pdPlaneGap( tb->normal, tb->v[0], ca.v ) >= best ||
								 pdPlaneGap( ca.normal, ca.v[0], tb->v ) >= best )
							{
								continue;
							}
						}
						pdVec3 pa, pb;
						pdTriFeature fa, fb;
						double d = pdTriangleDistance( ca.v, tb->v, &pa, &pb, &fa, &fb );
						if ( d < best || bestA < 0 )
						{
							pdVec3 gap = pdSub( pb, pa );
							double len = pdLength( gap );
							haveAxis = len > 0.0;
							bestAxis = haveAxis ? pdScale( gap, 1.0 / len ) : bestAxis;
							best = d;
							bestA = ta;
							bestB = tb->index;
							bestPA = pa;
							bestPB = pb;
							bestFA = fa;
							bestFB = fb;
							// The axis moved: refresh the projections that use it.
							pdLeafTriangle_Project( &ca, bestAxis );
							for ( int k = 0; k < chunkCount; ++k )
							{
								pdLeafTriangle_Project( cb + k, bestAxis );
							}
						}
					}
				}
			}
			if ( best < lowerBound )
			{
				stoppedBelow = true;
				break;
			}
			if ( best <= 0.0 )
			{
				break; // intersecting: nothing can be closer
			}
			continue;
		}
		if ( !pdPairHeap_Grow( &heap ) )
		{
			pdPairHeap_Push( &heap, e ); // room for one is left: the pop freed it
			status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		int a0, a1, b0, b1;
		if ( pdBvh_DescendA( na, nb ) )
		{
			a0 = e.a + 1;
			a1 = na->start;
			b0 = b1 = e.b;
		}
		else
		{
			a0 = a1 = e.a;
			b0 = e.b + 1;
			b1 = nb->start;
		}
		pdBvhPair p0, p1;
		pdBvh_RelateChildren( bvhA->nodes, bvhB->nodes, a0, b0, a1, b1, &rel, &p0, &p1 );
		double d0 = pdBvh_PairLowerBound( &p0, bvhA->nodes + a0, bvhB->nodes + b0 );
		double d1 = pdBvh_PairLowerBound( &p1, bvhA->nodes + a1, bvhB->nodes + b1 );
		// The best axis is cheap and, near the answer, the sharpest; the refined gap (costlier)
		// only runs for separated pairs that would still be expanded.
		if ( haveAxis )
		{
			d0 = pdMaxD( d0, pdBvh_PairAxisGap( &p0, bvhA->nodes + a0, bvhB->nodes + b0, bestAxis ) );
			d1 = pdMaxD( d1, pdBvh_PairAxisGap( &p1, bvhA->nodes + a1, bvhB->nodes + b1, bestAxis ) );
		}
		if ( d0 > 0.0 && d0 < best )
		{
			d0 = pdMaxD( d0, pdBvh_PairRefinedGap( &p0, bvhA->nodes + a0, bvhB->nodes + b0 ) );
		}
		if ( d1 > 0.0 && d1 < best )
		{
			d1 = pdMaxD( d1, pdBvh_PairRefinedGap( &p1, bvhA->nodes + a1, bvhB->nodes + b1 ) );
		}
		// Pairs that cannot beat the best so far are dropped right away.
		if ( d0 < best )
		{
			pdPairHeap_Push( &heap, ( pdKeyedPair ){ a0, b0, d0 } );
		}
		if ( d1 < best )
		{
			pdPairHeap_Push( &heap, ( pdKeyedPair ){ a1, b1, d1 } );
		}
	}

	double distance = best;
	bool stoppedAbove = false;
	if ( status == PD_STATUS_TRAVERSAL_LIMIT )
	{
		// Best so far when any pair was evaluated (an upper bound), else the smallest bound
		// still pending (a lower bound).
		if ( bestA < 0 )
		{
			double pending = prunedAbove;
			const pdKeyedPair* pendingEntries = heap.buffer->data;
			for ( int k = 0; k < heap.count; ++k )
			{
				pending = fmin( pending, pendingEntries[k].key );
			}
			distance = pending > 0.0 ? pending : 0.0;
		}
	}
	else if ( !stoppedBelow && !( best <= upperBound ) )
	{
		// Everything left was pruned above upperBound: the distance exceeds it.
		stoppedAbove = true;
		distance = fmin( best, prunedAbove );
	}
	if ( !isfinite( distance ) )
	{
		distance = 0.0; // only reachable with an infinite upperBound and no pair (cannot happen)
	}
	if ( bestA < 0 )
	{
		// No triangle pair evaluated (stopped above at the roots): report the first leaf pair's
		// closest points so every field stays meaningful.
		const pdBvhNode* la = bvhA->nodes;
		const pdBvhNode* lb = bvhB->nodes;
		bestA = bvhA->triangleOrder[la->count > 0 ? la->start : 0];
		bestB = bvhB->triangleOrder[lb->count > 0 ? lb->start : 0];
		pdVec3 va[3], vb[3];
		pdMesh_TriangleVertices( meshA, bestA, va );
		pdMesh_TriangleVertices( meshB, bestB, vb );
		for ( int k = 0; k < 3; ++k )
		{
			va[k] = pdFrameApply( &rel, va[k] );
		}
		pdTriangleDistance( va, vb, &bestPA, &bestPB, &bestFA, &bestFB );
	}

	outResult->status = status;
	outResult->distance = distance;
	outResult->pointA = pdFrameApply( &frameB, bestPA );
	outResult->pointB = pdFrameApply( &frameB, bestPB );
	outResult->featureA = pdMakeFeature( meshA, bestA, bestFA );
	outResult->featureB = pdMakeFeature( meshB, bestB, bestFB );
	outResult->stoppedBelow = stoppedBelow;
	outResult->stoppedAbove = stoppedAbove;
	outResult->nodeVisits = visits;
	return status;
}
