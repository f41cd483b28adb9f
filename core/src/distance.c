// SPDX-License-Identifier: MIT
// Minimum distance between two posed meshes: ordered depth-first descent of both BVHs (the
// nearer child pair first), pruning by the best distance so far, exact triangle distance at
// the leaves. The bounded variant stops as soon as the answer is proven below lowerBound or
// above upperBound.
#include "core.h"
#include "proximity.h"
#include "tri_distance.h"

#include <string.h>

typedef struct pdDistanceEntry
{
	int a, b;
	double bound;     ///< lower bound on the distance of the pair's subtrees (B's mesh units = world units)
	pdBvhMoved moved; ///< node a in B's frame, reused when the descent splits b
} pdDistanceEntry;

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
	if ( bvhA->nodeCount == 0 || bvhB->nodeCount == 0 ||
		 !pdBuffer_Reserve( &ws->stack, PD_BVH_PAIR_STACK * sizeof( pdDistanceEntry ), false ) )
	{
		outResult->status = PD_STATUS_OUT_OF_MEMORY;
		return outResult->status;
	}

	pdFrame rel = pdRelativeFrame( &frameA, &frameB );
	const double lowerBound = def->lowerBound;
	const double upperBound = def->upperBound;
	pdDistanceEntry* stack = ws->stack.data;
	int top = 0, visits = 0;
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
	if ( pdBvh_PairOverlap( &root, bvhA->nodes, bvhB->nodes, 0.0 ) )
	{
		// Overlapping roots: a first-hit collide is much cheaper than an ordered descent among
		// box pairs that all have a zero bound, and settles intersecting meshes at distance 0.
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
			top = 0;
		}
		else
		{
			stack[top++] = ( pdDistanceEntry ){ 0, 0, 0.0, rootMoved };
		}
	}
	else
	{
		stack[top++] = ( pdDistanceEntry ){ 0, 0, pdBvh_PairLowerBound( &root, bvhA->nodes, bvhB->nodes ), rootMoved };
	}

	while ( top > 0 )
	{
		pdDistanceEntry e = stack[--top];
		if ( e.bound >= best )
		{
			continue;
		}
		if ( e.bound > upperBound )
		{
			prunedAbove = fmin( prunedAbove, e.bound );
			continue;
		}
		if ( visits >= def->maxNodeVisits )
		{
			++top; // keep the entry for the conservative bound below
			status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		++visits;
		const pdBvhNode* na = bvhA->nodes + e.a;
		const pdBvhNode* nb = bvhB->nodes + e.b;
		if ( na->count > 0 && nb->count > 0 )
		{
			for ( int i = 0; i < na->count; ++i )
			{
				int ta = bvhA->triangleOrder[na->start + i];
				pdVec3 va[3];
				pdMesh_TriangleVertices( meshA, ta, va );
				va[0] = pdFrameApply( &rel, va[0] );
				va[1] = pdFrameApply( &rel, va[1] );
				va[2] = pdFrameApply( &rel, va[2] );
				pdVec3 loA, hiA;
				pdTriangleBox( va, &loA, &hiA );
				pdVec3 nA = pdMulMV( &rel.r, meshA->faceNormals[ta] );
				for ( int j = 0; j < nb->count; ++j )
				{
					int tb = bvhB->triangleOrder[nb->start + j];
					pdVec3 vb[3];
					pdMesh_TriangleVertices( meshB, tb, vb );
					if ( bestA >= 0 )
					{
						// Cheap lower bounds first (box gap, both supporting planes): the exact
						// triangle distance is the expensive part of the query.
						pdVec3 loB, hiB;
						pdTriangleBox( vb, &loB, &hiB );
						if ( pdBoundsGapSq( loA, hiA, loB, hiB ) >= best * best ||
							 ( haveAxis && pdAxisGap( bestAxis, va, vb ) >= best ) ||
							 pdPlaneGap( meshB->faceNormals[tb], vb[0], va ) >= best ||
							 pdPlaneGap( nA, va[0], vb ) >= best )
						{
							continue;
						}
					}
					pdVec3 pa, pb;
					pdTriFeature fa, fb;
					double d = pdTriangleDistance( va, vb, &pa, &pb, &fa, &fb );
					if ( d < best || bestA < 0 )
					{
						pdVec3 gap = pdSub( pb, pa );
						double len = pdLength( gap );
						haveAxis = len > 0.0;
						bestAxis = haveAxis ? pdScale( gap, 1.0 / len ) : bestAxis;
						best = d;
						bestA = ta;
						bestB = tb;
						bestPA = pa;
						bestPB = pb;
						bestFA = fa;
						bestFB = fb;
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
		if ( top + 2 > PD_BVH_PAIR_STACK )
		{
			++top;
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
		pdBvhMoved m0, m1;
		if ( a0 != a1 )
		{
			pdBvh_MoveNode( bvhA->nodes + a0, &rel, &m0 );
			pdBvh_MoveNode( bvhA->nodes + a1, &rel, &m1 );
		}
		else
		{
			m0 = m1 = e.moved;
		}
		pdBvh_RelateMoved( &m0, bvhB->nodes + b0, &p0 );
		pdBvh_RelateMoved( &m1, bvhB->nodes + b1, &p1 );
		double d0 = pdBvh_PairLowerBound( &p0, bvhA->nodes + a0, bvhB->nodes + b0 );
		double d1 = pdBvh_PairLowerBound( &p1, bvhA->nodes + a1, bvhB->nodes + b1 );
		// Separated pairs that would be expanded get the sharper (costlier) bound.
		if ( d0 > 0.0 && d0 < best )
		{
			double g0 = pdBvh_PairRefinedGap( &p0, bvhA->nodes + a0, bvhB->nodes + b0 );
			d0 = g0 > d0 ? g0 : d0;
		}
		if ( d1 > 0.0 && d1 < best )
		{
			double g1 = pdBvh_PairRefinedGap( &p1, bvhA->nodes + a1, bvhB->nodes + b1 );
			d1 = g1 > d1 ? g1 : d1;
		}
		if ( haveAxis )
		{
			double g0 = pdBvh_PairAxisGap( &p0, bvhA->nodes + a0, bvhB->nodes + b0, bestAxis );
			double g1 = pdBvh_PairAxisGap( &p1, bvhA->nodes + a1, bvhB->nodes + b1, bestAxis );
			d0 = g0 > d0 ? g0 : d0;
			d1 = g1 > d1 ? g1 : d1;
		}
		// The nearer pair goes on top so it is explored first.
		pdDistanceEntry e0 = { a0, b0, d0, m0 }, e1 = { a1, b1, d1, m1 };
		// Pairs that cannot beat the best so far are dropped right away.
		if ( d0 <= d1 )
		{
			if ( d1 < best )
			{
				stack[top++] = e1;
			}
			if ( d0 < best )
			{
				stack[top++] = e0;
			}
		}
		else
		{
			if ( d0 < best )
			{
				stack[top++] = e0;
			}
			if ( d1 < best )
			{
				stack[top++] = e1;
			}
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
			for ( int k = 0; k < top; ++k )
			{
				pending = fmin( pending, stack[k].bound );
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
