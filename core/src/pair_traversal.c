// SPDX-License-Identifier: MIT
// The depth-first BVH-pair traversal shared by the contact-feature queries: node pairs whose
// boxes (B's inflated by the collector's reach; A's swept along the step's motion and grown by
// the rotation's reach when moving) overlap are descended; leaf pairs cull triangle pairs by
// their boxes and separating planes, or for a triangle the step moves by more than the
// tolerance by the swept triangle's separating axes (pdSweptTrianglesApart), and hand the
// rest to the collector.
#include "pair_traversal.h"

#include "core.h"

#include <string.h>

typedef struct pdNodePair
{
	int a, b;
} pdNodePair;

// The projections of p (moving to pEnd) and q on axis n, more than reach apart (n unnormalised).
static bool pdAxisSeparatesMoving( pdVec3 n, pdVec3 origin, const pdVec3 p[3], const pdVec3 pEnd[3], const pdVec3 q[3],
								   double reach )
{
	double len = pdLength( n );
	if ( !( len > 0.0 ) )
	{
		return false;
	}
	double pMin = INFINITY, pMax = -INFINITY, qMin = INFINITY, qMax = -INFINITY;
	for ( int k = 0; k < 3; ++k )
	{
		double a = pdDot( n, pdSub( p[k], origin ) ), b = pdDot( n, pdSub( pEnd[k], origin ) );
		pMin = pdMinD( pMin, pdMinD( a, b ) );
		pMax = pdMaxD( pMax, pdMaxD( a, b ) );
		double c = pdDot( n, pdSub( q[k], origin ) );
		qMin = pdMinD( qMin, c );
		qMax = pdMaxD( qMax, c );
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
static bool pdSweptTrianglesApart( const pdVec3 a[3], const pdVec3 aEnd[3], const pdTrianglePlane* planeA,
								   const pdVec3 b[3], pdVec3 linear, pdVec3 angular, pdVec3 pivot, double reach )
{
	pdVec3 bBack[3];
	for ( int k = 0; k < 3; ++k )
	{
		bBack[k] = pdSub( b[k], pdAdd( linear, pdCross( angular, pdSub( b[k], pivot ) ) ) );
	}
	if ( pdAxisSeparatesMoving( planeA->n, a[0], b, bBack, a, reach ) )
	{
		return true;
	}
	pdVec3 centreA =
		pdScale( pdAdd( pdAdd( pdAdd( a[0], a[1] ), pdAdd( a[2], aEnd[0] ) ), pdAdd( aEnd[1], aEnd[2] ) ), 1.0 / 6.0 );
	pdVec3 centreB = pdScale( pdAdd( pdAdd( b[0], b[1] ), b[2] ), 1.0 / 3.0 );
	return pdAxisSeparatesMoving( pdSub( centreB, centreA ), centreA, a, aEnd, b, reach );
}

pdStatus pdPairTraversal_Make( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							   const pdTransform* poseB, double tolerance, const pdRigidMotion* motion, pdWorkspace* ws,
							   pdPairTraversal* out )
{
	memset( out, 0, sizeof( *out ) );
	if ( !pdIsValidMesh( meshA ) || !pdIsValidMesh( meshB ) )
	{
		return PD_STATUS_INVALID_MESH;
	}
	if ( !pdIsValidWorkspace( ws ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdStatus status = pdMakeFrame( poseA, &out->frameA );
	if ( status == PD_STATUS_OK )
	{
		status = pdMakeFrame( poseB, &out->frameB );
	}
	if ( status == PD_STATUS_OK && ( !pdIsUsablePosition( out->frameA.p ) || !pdIsUsablePosition( out->frameB.p ) ) )
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
	out->rel = pdRelativeFrame( &out->frameA, &out->frameB );
	// The motion in B's mesh frame: A's boxes sweep along linearB, grown by the rotation's reach
	// at their distance from the pivot.
	out->linearB = pdV3( 0.0, 0.0, 0.0 );
	out->pivotB = pdV3( 0.0, 0.0, 0.0 );
	out->angularB = pdV3( 0.0, 0.0, 0.0 );
	if ( motion != NULL )
	{
		const pdFrame* frameB = &out->frameB;
		out->moving = true;
		out->linearB = pdMulMTV( &frameB->r, motion->linear );
		out->pivotB = pdMulMTV( &frameB->r, pdSub( motion->pivot, frameB->p ) );
		out->angularB = pdMulMTV( &frameB->r, motion->angular );
		out->spin = pdLength( motion->angular );
		out->travel = pdLength( motion->linear );
	}
	return PD_STATUS_OK;
}

// True when the node pair cannot hold a triangle pair within reach (moving: A's box swept
// along the step and grown by the rotation's reach).
static bool pdPairTraversal_NodesFar( const pdPairTraversal* t, const pdBvhNode* na, const pdBvhNode* nb, double reach )
{
	pdBvhPair pair;
	if ( !t->moving )
	{
		pdBvh_RelatePair( na, nb, &t->rel, &pair );
		return !pdBvh_PairOverlap( &pair, na, nb, reach );
	}
	pdBvhMoved moved;
	pdBvh_MoveNode( na, &t->rel, &moved );
	pdBvh_RelateMoved( &moved, nb, &pair );
	double radius = pdLength( pdSub( moved.center, t->pivotB ) ) + pdLength( na->halfExtent );
	double grown = reach + t->spin * radius;
	if ( !pdBvh_PairOverlap( &pair, na, nb, grown + t->travel ) )
	{
		return true;
	}
	double w[3] = { pdDot( nb->axes.cx, t->linearB ), pdDot( nb->axes.cy, t->linearB ),
					pdDot( nb->axes.cz, t->linearB ) };
	return pdBvh_PairSweep( &pair, na, nb, w, grown, 1.0 ) > 1.0;
}

// A's triangle of a leaf pair, moved into B's frame, with what its culls need.
typedef struct pdLeafTriangleA
{
	pdVec3 v[3];
	pdVec3 lo, hi; // its box, swept along the step when moving
	pdTrianglePlane plane;
	bool havePlane; // made at the first pair that reaches the plane culls
	pdVec3 vEnd[3];
	bool haveEnd;        // the triangle at the end of the step (swept culls)
	double boxReach;     // the box cull's reach
	double featureReach; // the features that can close to the tolerance within the step
	bool sweptCulls;
} pdLeafTriangleA;

static void pdLeafTriangleA_Make( const pdPairTraversal* t, int slot, double reach, pdLeafTriangleA* a )
{
	pdMesh_MovedLeafTriangle( t->meshA, slot, &t->rel, a->v, &a->lo, &a->hi );
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
			radius = pdMaxD( radius, pdLength( pdSub( a->v[k], t->pivotB ) ) );
		}
		pdVec3 loEnd = pdAdd( a->lo, t->linearB ), hiEnd = pdAdd( a->hi, t->linearB );
		a->lo = pdV3( pdMinD( a->lo.x, loEnd.x ), pdMinD( a->lo.y, loEnd.y ), pdMinD( a->lo.z, loEnd.z ) );
		a->hi = pdV3( pdMaxD( a->hi.x, hiEnd.x ), pdMaxD( a->hi.y, hiEnd.y ), pdMaxD( a->hi.z, hiEnd.z ) );
		a->boxReach = reach + t->spin * radius;
		a->featureReach = t->tolerance + t->travel + t->spin * radius;
	}
	// Where the step moves the triangle by more than the tolerance, culls on the swept triangle
	// (pdSweptTrianglesApart) instead of the static ones at featureReach; below that the static
	// culls are nearly as tight, and cheaper. Nothing is lost by skipping the static ones: a
	// pair they reject has no feature within featureReach, and every point of A moves by at
	// most featureReach - tolerance, so B's swept plane test rejects it too.
	a->sweptCulls = a->featureReach > 2.0 * t->tolerance;
}

// True when the planes (or the swept triangle's axes) keep A's triangle and B's triangle j of
// the chunk apart by more than the reach that matters. Makes A's plane when it gets that far.
static bool pdPairTraversal_TrianglesApart( const pdPairTraversal* t, pdLeafTriangleA* a, const pdLeafChunk* cb, int j )
{
	if ( a->sweptCulls )
	{
		// Rounding allowance as in pdPlaneSeparated.
		double allowance = 1e-12 * pdPairCoordinateScale( a->v, cb->v[j] );
		if ( !a->haveEnd )
		{
			for ( int k = 0; k < 3; ++k )
			{
				a->vEnd[k] = pdAdd( a->v[k], pdAdd( t->linearB, pdCross( t->angularB, pdSub( a->v[k], t->pivotB ) ) ) );
			}
			a->haveEnd = true;
		}
		if ( pdAxisSeparatesMoving( cb->plane[j].n, cb->v[j][0], a->v, a->vEnd, cb->v[j], t->tolerance + allowance ) )
		{
			return true;
		}
		if ( !a->havePlane )
		{
			pdTrianglePlane_Make( a->v, &a->plane );
			a->havePlane = true;
		}
		return pdSweptTrianglesApart( a->v, a->vEnd, &a->plane, cb->v[j], t->linearB, t->angularB, t->pivotB,
									  t->tolerance + allowance );
	}
	if ( pdPlaneSeparated( cb->plane + j, cb->v[j], a->v, a->featureReach ) )
	{
		return true;
	}
	if ( !a->havePlane )
	{
		pdTrianglePlane_Make( a->v, &a->plane );
		a->havePlane = true;
	}
	return pdPlaneSeparated( &a->plane, a->v, cb->v[j], a->featureReach ) ||
		   pdCentroidAxisSeparated( a->v, cb->v[j], a->featureReach );
}

// Every triangle pair of two leaves that passes the culls goes to the collector.
static void pdPairTraversal_Leaves( const pdPairTraversal* t, const pdBvhNode* na, const pdBvhNode* nb,
									pdPairCollector* collector )
{
	const pdBvh* bvhA = &t->meshA->bvh;
	for ( int chunk = 0; chunk < nb->count && !collector->stop; chunk += PD_BVH_LEAF_SIZE )
	{
		pdLeafChunk cb;
		pdLeafChunk_Load( t->meshB, nb, chunk, &cb );
		for ( int i = 0; i < na->count && !collector->stop; ++i )
		{
			pdLeafTriangleA a;
			pdLeafTriangleA_Make( t, na->start + i, collector->reach, &a );
			if ( !pdBoxesWithin( a.lo, a.hi, cb.allLo, cb.allHi, a.boxReach ) )
			{
				continue;
			}
			for ( int j = 0; j < cb.count && !collector->stop; ++j )
			{
				if ( !pdBoxesWithin( a.lo, a.hi, cb.lo[j], cb.hi[j], a.boxReach ) ||
					 pdPairTraversal_TrianglesApart( t, &a, &cb, j ) )
				{
					continue;
				}
				pdTrianglePairHit hit;
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

pdStatus pdPairTraversal_Run( const pdPairTraversal* t, pdWorkspace* ws, pdPairCollector* collector, int* outVisits )
{
	*outVisits = 0;
	const pdBvh* bvhA = &t->meshA->bvh;
	const pdBvh* bvhB = &t->meshB->bvh;
	if ( bvhA->nodeCount == 0 || bvhB->nodeCount == 0 ||
		 !pdBuffer_Reserve( &ws->stack, PD_BVH_PAIR_STACK * sizeof( pdNodePair ), false ) )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	pdStatus status = PD_STATUS_OK;
	int visits = 0;
	pdNodePair* stack = ws->stack.data;
	int top = 0;
	stack[top++] = ( pdNodePair ){ 0, 0 };
	while ( top > 0 && !collector->stop )
	{
		if ( visits >= PD_PAIR_TRAVERSAL_MAX_VISITS )
		{
			status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		++visits;
		pdNodePair e = stack[--top];
		const pdBvhNode* na = bvhA->nodes + e.a;
		const pdBvhNode* nb = bvhB->nodes + e.b;
		if ( pdPairTraversal_NodesFar( t, na, nb, collector->reach ) )
		{
			continue;
		}
		if ( na->count > 0 && nb->count > 0 )
		{
			pdPairTraversal_Leaves( t, na, nb, collector );
			if ( collector->status < 0 )
			{
				return collector->status;
			}
			continue;
		}
		if ( top + 2 > PD_BVH_PAIR_STACK )
		{
			status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		if ( pdBvh_DescendA( na, nb ) )
		{
			stack[top++] = ( pdNodePair ){ na->start, e.b };
			stack[top++] = ( pdNodePair ){ e.a + 1, e.b };
		}
		else
		{
			stack[top++] = ( pdNodePair ){ e.a, nb->start };
			stack[top++] = ( pdNodePair ){ e.a, e.b + 1 };
		}
	}
	*outVisits = visits;
	return status;
}
