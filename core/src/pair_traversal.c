// SPDX-License-Identifier: MIT
// The depth-first BVH-pair traversal shared by the contact-feature queries: node pairs whose
// boxes (B's inflated by the collector's reach; A's swept along the step's motion and grown by
// the rotation's reach when moving) overlap are descended; leaf pairs cull triangle pairs by
// their boxes and separating planes, or for a triangle the step moves by more than the
// tolerance by the swept triangle's separating axes (pdiSweptTrianglesApart), and hand the
// rest to the collector.
#include "pair_traversal.h"

#include "core.h"

#include <string.h>

typedef struct pdiNodePair
{
	int a, b;
} pdiNodePair;

// The projections of p (moving to pEnd) and q on axis n, more than reach apart (n unnormalised).
static bool pdiAxisSeparatesMoving( pdVec3 n, pdVec3 origin, const pdVec3 p[3], const pdVec3 pEnd[3], const pdVec3 q[3],
								   double reach )
{
	double len = pdiLength( n );
	if ( !( len > 0.0 ) )
	{
		return false;
	}
	double pMin = INFINITY, pMax = -INFINITY, qMin = INFINITY, qMax = -INFINITY;
	for ( int k = 0; k < 3; ++k )
	{
		double a = pdiDot( n, pdiSub( p[k], origin ) ), b = pdiDot( n, pdiSub( pEnd[k], origin ) );
		pMin = pdiMinD( pMin, pdiMinD( a, b ) );
		pMax = pdiMaxD( pMax, pdiMaxD( a, b ) );
		double c = pdiDot( n, pdiSub( q[k], origin ) );
		qMin = pdiMinD( qMin, c );
		qMax = pdiMaxD( qMax, c );
	}
	double limit = reach * len;
	return qMin - pMax > limit || pMin - qMax > limit;
}

// Swept pairs: true when a separating axis keeps triangle a (B's frame, at aEnd after the
// step) more than reach from triangle b all through the step, every point moving linearly to
// its first-order end position (so a stays in the hull of a and aEnd). The caller has tried
// b's plane; the axes here are a's plane, against b moved back by the motion (the step seen
// from A), and the line through the centroids. A feature pair of such triangles can look
// closing only through the first-order gap's error (a sideways motion read along a slanted
// normal), not by coming within reach.
static bool pdiSweptTrianglesApart( const pdVec3 a[3], const pdVec3 aEnd[3], const pdiTrianglePlane* planeA,
								   const pdVec3 b[3], pdVec3 linear, pdVec3 angular, pdVec3 pivot, double reach )
{
	pdVec3 bBack[3];
	for ( int k = 0; k < 3; ++k )
	{
		bBack[k] = pdiSub( b[k], pdiAdd( linear, pdiCross( angular, pdiSub( b[k], pivot ) ) ) );
	}
	if ( pdiAxisSeparatesMoving( planeA->n, a[0], b, bBack, a, reach ) )
	{
		return true;
	}
	pdVec3 centreA =
		pdiScale( pdiAdd( pdiAdd( pdiAdd( a[0], a[1] ), pdiAdd( a[2], aEnd[0] ) ), pdiAdd( aEnd[1], aEnd[2] ) ), 1.0 / 6.0 );
	pdVec3 centreB = pdiScale( pdiAdd( pdiAdd( b[0], b[1] ), b[2] ), 1.0 / 3.0 );
	return pdiAxisSeparatesMoving( pdiSub( centreB, centreA ), centreA, a, aEnd, b, reach );
}

pdStatus pdiPairTraversal_Make( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							   const pdTransform* poseB, double tolerance, const pdRigidMotion* motion, pdWorkspace* ws,
							   pdiPairTraversal* out )
{
	memset( out, 0, sizeof( *out ) );
	if ( !pdiIsValidMesh( meshA ) || !pdiIsValidMesh( meshB ) )
	{
		return PD_STATUS_INVALID_MESH;
	}
	if ( !pdiIsValidWorkspace( ws ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdStatus status = pdiMakeFrame( poseA, &out->frameA );
	if ( status == PD_STATUS_OK )
	{
		status = pdiMakeFrame( poseB, &out->frameB );
	}
	if ( status == PD_STATUS_OK && ( !pdiIsUsablePosition( out->frameA.p ) || !pdiIsUsablePosition( out->frameB.p ) ) )
	{
		status = PD_STATUS_INVALID_POSE;
	}
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	out->meshA = meshA;
	out->meshB = meshB;
	out->tolerance = tolerance;
	out->rel = pdiRelativeFrame( &out->frameA, &out->frameB );
	// The motion in B's mesh frame: A's boxes sweep along linearB, grown by the rotation's reach
	// at their distance from the pivot.
	out->linearB = pdiV3( 0.0, 0.0, 0.0 );
	out->pivotB = pdiV3( 0.0, 0.0, 0.0 );
	out->angularB = pdiV3( 0.0, 0.0, 0.0 );
	if ( motion != NULL )
	{
		const pdiFrame* frameB = &out->frameB;
		out->moving = true;
		out->linearB = pdiMulMTV( &frameB->r, motion->linear );
		out->pivotB = pdiMulMTV( &frameB->r, pdiSub( motion->pivot, frameB->p ) );
		out->angularB = pdiMulMTV( &frameB->r, motion->angular );
		out->spin = pdiLength( motion->angular );
		out->travel = pdiLength( motion->linear );
	}
	return PD_STATUS_OK;
}

// True when the node pair cannot hold a triangle pair within reach (moving: A's box swept
// along the step and grown by the rotation's reach).
static bool pdiPairTraversal_NodesFar( const pdiPairTraversal* t, const pdiBvhNode* na, const pdiBvhNode* nb, double reach )
{
	pdiBvhPair pair;
	if ( !t->moving )
	{
		pdiBvh_RelatePair( na, nb, &t->rel, &pair );
		return !pdiBvh_PairOverlap( &pair, na, nb, reach );
	}
	pdiBvhMoved moved;
	pdiBvh_MoveNode( na, &t->rel, &moved );
	pdiBvh_RelateMoved( &moved, nb, &pair );
	double radius = pdiLength( pdiSub( moved.center, t->pivotB ) ) + pdiLength( na->halfExtent );
	double grown = reach + t->spin * radius;
	if ( !pdiBvh_PairOverlap( &pair, na, nb, grown + t->travel ) )
	{
		return true;
	}
	double w[3] = { pdiDot( nb->axes.cx, t->linearB ), pdiDot( nb->axes.cy, t->linearB ),
					pdiDot( nb->axes.cz, t->linearB ) };
	return pdiBvh_PairSweep( &pair, na, nb, w, grown, 1.0 ) > 1.0;
}

// A's triangle of a leaf pair, moved into B's frame, with what its culls need.
typedef struct pdiLeafTriangleA
{
	pdVec3 v[3];
	pdVec3 lo, hi; // its box, swept along the step when moving
	pdiTrianglePlane plane;
	bool havePlane; // made at the first pair that reaches the plane culls
	pdVec3 vEnd[3];
	bool haveEnd;        // the triangle at the end of the step (swept culls)
	double boxReach;     // the box cull's reach
	double featureReach; // the features that can close to the tolerance within the step
	bool sweptCulls;
} pdiLeafTriangleA;

static void pdiLeafTriangleA_Make( const pdiPairTraversal* t, int slot, double reach, pdiLeafTriangleA* a )
{
	pdiMesh_MovedLeafTriangle( t->meshA, slot, &t->rel, a->v, &a->lo, &a->hi );
	a->havePlane = false;
	a->haveEnd = false;
	// Moving: the box swept along the step, within reach grown by the rotation, and the
	// features that can close to the tolerance within the step.
	a->boxReach = reach;
	a->featureReach = t->tolerance;
	if ( t->moving )
	{
		double radius = 0.0;
		for ( int k = 0; k < 3; ++k )
		{
			radius = pdiMaxD( radius, pdiLength( pdiSub( a->v[k], t->pivotB ) ) );
		}
		pdVec3 loEnd = pdiAdd( a->lo, t->linearB ), hiEnd = pdiAdd( a->hi, t->linearB );
		a->lo = pdiV3( pdiMinD( a->lo.x, loEnd.x ), pdiMinD( a->lo.y, loEnd.y ), pdiMinD( a->lo.z, loEnd.z ) );
		a->hi = pdiV3( pdiMaxD( a->hi.x, hiEnd.x ), pdiMaxD( a->hi.y, hiEnd.y ), pdiMaxD( a->hi.z, hiEnd.z ) );
		a->boxReach = reach + t->spin * radius;
		a->featureReach = t->tolerance + t->travel + t->spin * radius;
	}
	// Where the step moves the triangle by more than the tolerance, culls on the swept triangle
	// (pdiSweptTrianglesApart) instead of the static ones at featureReach; below that the static
	// culls are nearly as tight, and cheaper. Nothing is lost by skipping the static ones: a
	// pair they reject has no feature within featureReach, and every point of A moves by at
	// most featureReach - tolerance, so B's swept plane test rejects it too.
	a->sweptCulls = a->featureReach > 2.0 * t->tolerance;
}

// True when the planes (or the swept triangle's axes) keep A's triangle and B's triangle j of
// the chunk apart by more than the reach that matters. Makes A's plane when it gets that far.
static bool pdiPairTraversal_TrianglesApart( const pdiPairTraversal* t, pdiLeafTriangleA* a, const pdiLeafChunk* cb, int j )
{
	if ( a->sweptCulls )
	{
		// Rounding allowance as in pdiPlaneSeparated.
		double allowance = 1e-12 * pdiPairCoordinateScale( a->v, cb->v[j] );
		if ( !a->haveEnd )
		{
			for ( int k = 0; k < 3; ++k )
			{
				a->vEnd[k] = pdiAdd( a->v[k], pdiAdd( t->linearB, pdiCross( t->angularB, pdiSub( a->v[k], t->pivotB ) ) ) );
			}
			a->haveEnd = true;
		}
		if ( pdiAxisSeparatesMoving( cb->plane[j].n, cb->v[j][0], a->v, a->vEnd, cb->v[j], t->tolerance + allowance ) )
		{
			return true;
		}
		if ( !a->havePlane )
		{
			pdiTrianglePlane_Make( a->v, &a->plane );
			a->havePlane = true;
		}
		return pdiSweptTrianglesApart( a->v, a->vEnd, &a->plane, cb->v[j], t->linearB, t->angularB, t->pivotB,
									  t->tolerance + allowance );
	}
	if ( pdiPlaneSeparated( cb->plane + j, cb->v[j], a->v, a->featureReach ) )
	{
		return true;
	}
	if ( !a->havePlane )
	{
		pdiTrianglePlane_Make( a->v, &a->plane );
		a->havePlane = true;
	}
	return pdiPlaneSeparated( &a->plane, a->v, cb->v[j], a->featureReach ) ||
		   pdiCentroidAxisSeparated( a->v, cb->v[j], a->featureReach );
}

// Every triangle pair of two leaves that passes the culls goes to the collector.
static void pdiPairTraversal_Leaves( const pdiPairTraversal* t, const pdiBvhNode* na, const pdiBvhNode* nb,
									pdiPairCollector* collector )
{
	const pdiBvh* bvhA = &t->meshA->bvh;
	for ( int chunk = 0; chunk < nb->count && !collector->stop; chunk += PDI_BVH_LEAF_SIZE )
	{
		pdiLeafChunk cb;
		pdiLeafChunk_Load( t->meshB, nb, chunk, &cb );
		for ( int i = 0; i < na->count && !collector->stop; ++i )
		{
			pdiLeafTriangleA a;
			pdiLeafTriangleA_Make( t, na->start + i, collector->reach, &a );
			if ( !pdiBoxesWithin( a.lo, a.hi, cb.allLo, cb.allHi, a.boxReach ) )
			{
				continue;
			}
			for ( int j = 0; j < cb.count && !collector->stop; ++j )
			{
				if ( !pdiBoxesWithin( a.lo, a.hi, cb.lo[j], cb.hi[j], a.boxReach ) ||
					 pdiPairTraversal_TrianglesApart( t, &a, &cb, j ) )
				{
					continue;
				}
				pdiTrianglePairHit hit;
				hit.triangleA = bvhA->triangleOrder[na->start + i];
				hit.triangleB = cb.index[j];
				hit.va = a.v;
				hit.vb = cb.v[j];
				hit.planeA = &a.plane;
				hit.planeB = cb.plane + j;
				hit.loA = a.lo;
				hit.hiA = a.hi;
				hit.loB = cb.lo[j];
				hit.hiB = cb.hi[j];
				hit.featureReach = a.featureReach;
				collector->addPair( collector, &hit );
			}
		}
	}
}

pdStatus pdiPairTraversal_Run( const pdiPairTraversal* t, pdWorkspace* ws, pdiPairCollector* collector, int* outVisits )
{
	*outVisits = 0;
	const pdiBvh* bvhA = &t->meshA->bvh;
	const pdiBvh* bvhB = &t->meshB->bvh;
	if ( bvhA->nodeCount == 0 || bvhB->nodeCount == 0 ||
		 !pdiBuffer_Reserve( &ws->stack, PDI_BVH_PAIR_STACK * sizeof( pdiNodePair ), false ) )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	pdStatus status = PD_STATUS_OK;
	int visits = 0;
	pdiNodePair* stack = ws->stack.data;
	int top = 0;
	stack[top++] = ( pdiNodePair ){ 0, 0 };
	while ( top > 0 && !collector->stop )
	{
		if ( visits >= PDI_PAIR_TRAVERSAL_MAX_VISITS )
		{
			status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		++visits;
		pdiNodePair e = stack[--top];
		const pdiBvhNode* na = bvhA->nodes + e.a;
		const pdiBvhNode* nb = bvhB->nodes + e.b;
		if ( pdiPairTraversal_NodesFar( t, na, nb, collector->reach ) )
		{
			continue;
		}
		if ( na->count > 0 && nb->count > 0 )
		{
			pdiPairTraversal_Leaves( t, na, nb, collector );
			if ( collector->status < 0 )
			{
				return collector->status;
			}
			continue;
		}
		if ( top + 2 > PDI_BVH_PAIR_STACK )
		{
			status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		if ( pdiBvh_DescendA( na, nb ) )
		{
			stack[top++] = ( pdiNodePair ){ na->start, e.b };
			stack[top++] = ( pdiNodePair ){ e.a + 1, e.b };
		}
		else
		{
			stack[top++] = ( pdiNodePair ){ e.a, nb->start };
			stack[top++] = ( pdiNodePair ){ e.a, e.b + 1 };
		}
	}
	*outVisits = visits;
	return status;
}
