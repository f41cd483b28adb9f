// SPDX-License-Identifier: MIT
// Contact features at a configuration: every VF, FV and EE pair closer than a tolerance. A BVH
// descent keeps node pairs whose boxes (B's inflated by the tolerance) overlap; leaf pairs go
// to pdTriangleOwnedContactFeatures. A feature shared by neighbouring triangles (a vertex of
// several faces, an edge of two) is tested and reported only by the triangle that owns it
// (pdMesh.featureOwnership), so each feature pair comes out once, in traversal order. Past
// maxFeatures the closest ones are kept. The swept variant carries A's boxes along a step's
// rigid motion (linear sweep, grown by the rotation's reach) and keeps the pairs whose gap now
// or predicted after the step is within the tolerance, of the triangle pairs that no
// separating axis keeps apart all through the step (pdSweptTrianglesApart).
#include "core.h"
#include "proximity.h"
#include "tri_distance.h"


typedef struct pdFeatureEntry
{
	int a, b;
} pdFeatureEntry;

// True when p's plane (prepared: the BVH keeps B's, A's is made once per triangle) puts all of
// q's corners farther than reach on one side: then no feature pair of the two is within reach.
// The allowance is a few ulps of the coordinates involved.
static bool pdPlaneSeparated( const pdTrianglePlane* plane, const pdVec3 p[3], const pdVec3 q[3], double reach )
{
	return pdTrianglePlane_Separates( plane, p[0], q, reach + 1e-12 * pdPairCoordinateScale( p, q ) );
}

// True when the two triangles' projections on the line through their centroids are more than
// reach apart: a separating axis, so no point of one is within reach of the other. It rejects
// the pairs that lie side by side, level with each other (a ring resting on a ring), which
// neither plane test can: 17% of the pairs that pass both in the debris scene, none of which
// had a feature pair within reach. Coincident centroids prove nothing.
static bool pdCentroidAxisSeparated( const pdVec3 p[3], const pdVec3 q[3], double reach )
{
	pdVec3 w = pdSub( pdAdd( pdAdd( q[0], q[1] ), q[2] ), pdAdd( pdAdd( p[0], p[1] ), p[2] ) );
	double len = pdLength( w );
	if ( !( len > 0.0 ) )
	{
		return false;
	}
	double maxP = pdMaxD( pdDot( w, p[0] ), pdMaxD( pdDot( w, p[1] ), pdDot( w, p[2] ) ) );
	double minQ = pdMinD( pdDot( w, q[0] ), pdMinD( pdDot( w, q[1] ), pdDot( w, q[2] ) ) );
	// Rounding allowance as in pdPlaneSeparated: a few ulps of the coordinates involved.
	return minQ - maxP > ( reach + 1e-12 * pdPairCoordinateScale( p, q ) ) * len;
}

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
	pdVec3 centreA = pdScale( pdAdd( pdAdd( pdAdd( a[0], a[1] ), pdAdd( a[2], aEnd[0] ) ), pdAdd( aEnd[1], aEnd[2] ) ),
							  1.0 / 6.0 );
	pdVec3 centreB = pdScale( pdAdd( pdAdd( b[0], b[1] ), b[2] ), 1.0 / 3.0 );
	return pdAxisSeparatesMoving( pdSub( centreB, centreA ), centreA, a, aEnd, b, reach );
}

static void pdFillFeature( const pdMesh* mesh, int triangle, pdFeature* f )
{
	f->triangle = triangle;
	if ( f->type == PD_FEATURE_FACE )
	{
		f->index = 0;
		f->vertex = -1;
	}
	else
	{
		f->vertex = mesh->triangles[triangle][f->index];
	}
}

// How close a kept pair comes during the step: its gap now, or the gap predicted at the end of
// the step if smaller (world frame; first order in the motion).
static double pdSweptKey( const pdContactFeature* f, const pdRigidMotion* motion )
{
	if ( motion == NULL )
	{
		return f->distance;
	}
	pdVec3 move = pdAdd( motion->linear, pdCross( motion->angular, pdSub( f->pointA, motion->pivot ) ) );
	double predicted = f->distance + pdDot( move, f->normal );
	return predicted < f->distance ? predicted : f->distance;
}

// The traversal of the queries; motion is NULL for the static one (and for a zero motion).
// With outApart, it also tells whether no two triangles lie within gap (<= tolerance) of each
// other at the pose: every such pair is among the pairs within the tolerance it visits anyway,
// so the few that pass the feature culls get the cheap separations at gap and, failing those,
// the exact triangle distance (the distance query's primitive). *outApart is false when a pair
// within gap exists or the traversal could not see them all (a cap).
// With stopWithinGap, the first pair within gap ends the traversal (for callers that want the
// features only of an apart pair).
// With outMinDistance (static only), every pair that passes the separations at gap gets the
// exact triangle distance and *outMinDistance is the smallest: the surfaces' distance when it
// is at most gap (a pair at that distance passes every conservative cull), a value above gap
// otherwise. The traversal ends at the first pair at distance 0 (intersecting: the features
// are then incomplete). Meaningless when the status is not OK (a cap narrowed the search).
static pdStatus pdGatherContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										 const pdTransform* poseB, double tolerance, const pdRigidMotion* motion,
										 pdVec3 approachDirection, int maxFeatures, double gap, pdWorkspace* ws,
										 int* outCount, const pdContactFeature** outFeatures, bool* outApart,
										 bool stopWithinGap, double* outMinDistance, int outClosestPair[2],
										 int* outVisits )
{
	if ( outMinDistance != NULL )
	{
		*outMinDistance = 0.0;
	}
	if ( outClosestPair != NULL )
	{
		outClosestPair[0] = outClosestPair[1] = -1;
	}
	if ( outVisits != NULL )
	{
		*outVisits = 0;
	}
	if ( outApart != NULL )
	{
		*outApart = false;
	}
	if ( outCount != NULL )
	{
		*outCount = 0;
	}
	if ( outFeatures != NULL )
	{
		*outFeatures = NULL;
	}
	if ( outCount == NULL || outFeatures == NULL || !isfinite( tolerance ) || tolerance < 0.0 || maxFeatures < 0 ||
		 !pdIsFiniteVec( approachDirection ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	if ( !pdIsValidMesh( meshA ) || !pdIsValidMesh( meshB ) )
	{
		return PD_STATUS_INVALID_MESH;
	}
	if ( !pdIsValidWorkspace( ws ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdFrame frameA, frameB;
	pdStatus status = pdMakeFrame( poseA, &frameA );
	if ( status == PD_STATUS_OK )
	{
		status = pdMakeFrame( poseB, &frameB );
	}
	if ( status == PD_STATUS_OK && ( !pdIsUsablePosition( frameA.p ) || !pdIsUsablePosition( frameB.p ) ) )
	{
		status = PD_STATUS_INVALID_POSE;
	}
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	const pdBvh* bvhA = &meshA->bvh;
	const pdBvh* bvhB = &meshB->bvh;
	if ( bvhA->nodeCount == 0 || bvhB->nodeCount == 0 ||
		 !pdBuffer_Reserve( &ws->stack, PD_BVH_PAIR_STACK * sizeof( pdFeatureEntry ), false ) )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}

	pdFrame rel = pdRelativeFrame( &frameA, &frameB );
	pdVec3 approachB = pdMulMTV( &frameB.r, approachDirection );
	// The motion in B's mesh frame: A's boxes sweep along linearB, grown by the rotation's reach
	// at their distance from the pivot.
	pdVec3 linearB = pdV3( 0.0, 0.0, 0.0 ), pivotB = pdV3( 0.0, 0.0, 0.0 ), angularB = pdV3( 0.0, 0.0, 0.0 );
	double spin = 0.0, travel = 0.0;
	if ( motion != NULL )
	{
		linearB = pdMulMTV( &frameB.r, motion->linear );
		pivotB = pdMulMTV( &frameB.r, pdSub( motion->pivot, frameB.p ) );
		angularB = pdMulMTV( &frameB.r, motion->angular );
		spin = pdLength( motion->angular );
		travel = pdLength( motion->linear );
	}
	// Ownership makes every reported feature pair distinct: no repeats to remove afterwards.
	// When more than maxFeatures pairs are within the tolerance, the closest maxFeatures are
	// kept (not the first found): the list is then a bounded set ordered by nothing, the
	// farthest kept pair is tracked, and the traversal only looks for closer ones.
	int rawCap = maxFeatures;
	int rawCount = 0;
	int visits = 0;
	const int maxVisits = 50000000;
	pdFeatureEntry* stack = ws->stack.data;
	int top = 0;
	stack[top++] = ( pdFeatureEntry ){ 0, 0 };
	bool full = false;
	int worst = -1;           // index of the farthest kept pair once full
	double worstKey = 0.0;    // its distance (swept: how close it comes during the step)
	double reach = tolerance; // node and triangle pairs farther apart than this cannot contribute
	bool stop = false;        // the traversal is over (maxFeatures 0 and a feature; a pair within gap, see below)
	bool checkGap = outApart != NULL;
	bool measureGap = outMinDistance != NULL && motion == NULL;
	bool withinGap = false;         // a triangle pair within gap was found
	double minDistance = INFINITY; // the smallest exact triangle distance computed (measureGap)
	int closestA = -1, closestB = -1; // its triangles
	// The proof alone (a gap to prove and no feature to keep): no feature is looked for, and
	// the first pair within gap ends the traversal.
	bool proofOnly = checkGap && maxFeatures == 0;

	while ( top > 0 && !stop )
	{
		if ( visits >= maxVisits )
		{
			status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		++visits;
		pdFeatureEntry e = stack[--top];
		const pdBvhNode* na = bvhA->nodes + e.a;
		const pdBvhNode* nb = bvhB->nodes + e.b;
		pdBvhPair pair;
		if ( motion == NULL )
		{
			pdBvh_RelatePair( na, nb, &rel, &pair );
			if ( !pdBvh_PairOverlap( &pair, na, nb, reach ) )
			{
				continue;
			}
		}
		else
		{
			pdBvhMoved moved;
			pdBvh_MoveNode( na, &rel, &moved );
			pdBvh_RelateMoved( &moved, nb, &pair );
			double radius = pdLength( pdSub( moved.center, pivotB ) ) + pdLength( na->halfExtent );
			double grown = reach + spin * radius;
			if ( !pdBvh_PairOverlap( &pair, na, nb, grown + travel ) )
			{
				continue;
			}
			double w[3] = { pdDot( nb->axes.cx, linearB ), pdDot( nb->axes.cy, linearB ),
							pdDot( nb->axes.cz, linearB ) };
			if ( pdBvh_PairSweep( &pair, na, nb, w, grown, 1.0 ) > 1.0 )
			{
				continue;
			}
		}
		if ( na->count > 0 && nb->count > 0 )
		{
			for ( int chunk = 0; chunk < nb->count && !stop; chunk += PD_BVH_LEAF_SIZE )
			{
				pdLeafChunk cb;
				pdLeafChunk_Load( meshB, nb, chunk, &cb );
				for ( int i = 0; i < na->count && !stop; ++i )
				{
					int ta = bvhA->triangleOrder[na->start + i];
					pdVec3 va[3], loA, hiA;
					pdMesh_MovedLeafTriangle( meshA, na->start + i, &rel, va, &loA, &hiA );
					pdTrianglePlane planeA;
					bool havePlaneA = false; // made at the first pair that reaches the plane culls
					pdVec3 vaEnd[3];
					bool haveEndA = false; // A's triangle at the end of the step (swept pairs)
					// Moving: the box swept along the step, within reach grown by the rotation,
					// and the features that can close to the tolerance within the step.
					double boxReach = reach, featureReach = tolerance;
					if ( motion != NULL )
					{
						double radius = 0.0;
						for ( int k = 0; k < 3; ++k )
						{
							radius = pdMaxD( radius, pdLength( pdSub( va[k], pivotB ) ) );
						}
						pdVec3 loEnd = pdAdd( loA, linearB ), hiEnd = pdAdd( hiA, linearB );
						loA = pdV3( pdMinD( loA.x, loEnd.x ), pdMinD( loA.y, loEnd.y ), pdMinD( loA.z, loEnd.z ) );
						hiA = pdV3( pdMaxD( hiA.x, hiEnd.x ), pdMaxD( hiA.y, hiEnd.y ), pdMaxD( hiA.z, hiEnd.z ) );
						boxReach = reach + spin * radius;
						featureReach = tolerance + travel + spin * radius;
					}
					// Where the step moves the triangle by more than the tolerance, culls on the
					// swept triangle (pdSweptTrianglesApart) instead of the static ones at
					// featureReach; below that the static culls are nearly as tight, and cheaper.
					// Nothing is lost by skipping the static ones: a pair they reject has no
					// feature within featureReach, and every point of A moves by at most
					// featureReach - tolerance, so B's swept plane test rejects it too.
					bool sweptCulls = featureReach > 2.0 * tolerance;
					if ( !pdBoxesWithin( loA, hiA, cb.allLo, cb.allHi, boxReach ) )
					{
						continue;
					}
					for ( int j = 0; j < cb.count && !stop; ++j )
					{
						if ( !pdBoxesWithin( loA, hiA, cb.lo[j], cb.hi[j], boxReach ) )
						{
							continue;
						}
						if ( sweptCulls )
						{
							// Rounding allowance as in pdPlaneSeparated.
							double allowance = 1e-12 * pdPairCoordinateScale( va, cb.v[j] );
							if ( !haveEndA )
							{
								for ( int k = 0; k < 3; ++k )
								{
									vaEnd[k] =
										pdAdd( va[k], pdAdd( linearB, pdCross( angularB, pdSub( va[k], pivotB ) ) ) );
								}
								haveEndA = true;
							}
							if ( pdAxisSeparatesMoving( cb.plane[j].n, cb.v[j][0], va, vaEnd, cb.v[j],
														tolerance + allowance ) )
							{
								continue;
							}
							if ( !havePlaneA )
							{
								pdTrianglePlane_Make( va, &planeA );
								havePlaneA = true;
							}
							if ( pdSweptTrianglesApart( va, vaEnd, &planeA, cb.v[j], linearB, angularB, pivotB,
														tolerance + allowance ) )
							{
								continue;
							}
						}
						else
						{
							if ( pdPlaneSeparated( cb.plane + j, cb.v[j], va, featureReach ) )
							{
								continue;
							}
							if ( !havePlaneA )
							{
								pdTrianglePlane_Make( va, &planeA );
								havePlaneA = true;
							}
							if ( pdPlaneSeparated( &planeA, va, cb.v[j], featureReach ) ||
								 pdCentroidAxisSeparated( va, cb.v[j], featureReach ) )
							{
								continue;
							}
						}
						if ( ( measureGap || ( checkGap && !withinGap ) ) &&
							 pdBoxesWithin( loA, hiA, cb.lo[j], cb.hi[j], gap ) &&
							 !pdPlaneSeparated( cb.plane + j, cb.v[j], va, gap ) &&
							 !pdPlaneSeparated( &planeA, va, cb.v[j], gap ) && !pdCentroidAxisSeparated( va, cb.v[j], gap ) )
						{
							pdVec3 pa, pb;
							double d = pdTriangleDistance( va, cb.v[j], &pa, &pb, NULL, NULL );
							withinGap = withinGap || d <= gap;
							if ( d < minDistance )
							{
								minDistance = d;
								closestA = ta;
								closestB = cb.index[j];
							}
							if ( measureGap && !( d > 0.0 ) )
							{
								stop = true; // intersecting: nothing closer, and the caller wants no features
								continue;
							}
						}
						if ( proofOnly || ( stopWithinGap && withinGap ) )
						{
							stop = withinGap;
							continue;
						}
						int tb = cb.index[j];
						pdContactFeature local[15];
						int n = pdTriangleOwnedContactFeatures( va, cb.v[j], featureReach, approachB,
																meshA->featureOwnership[ta],
																meshB->featureOwnership[tb], local );
						if ( n <= 0 )
						{
							continue;
						}
						if ( rawCap == 0 )
						{
							full = stop = true;
							break;
						}
						if ( !pdBuffer_Reserve( &ws->features,
												(size_t)( rawCount + n < rawCap ? rawCount + n : rawCap ) *
													sizeof( pdContactFeature ),
												true ) )
						{
							return PD_STATUS_OUT_OF_MEMORY;
						}
						pdContactFeature* out = (pdContactFeature*)ws->features.data;
						for ( int k = 0; k < n; ++k )
						{
							pdContactFeature f = local[k];
							f.pointA = pdFrameApply( &frameB, f.pointA );
							f.pointB = pdFrameApply( &frameB, f.pointB );
							f.normal = pdMulMV( &frameB.r, f.normal );
							double key = pdSweptKey( &f, motion );
							if ( motion != NULL && !( key <= tolerance ) )
							{
								continue; // does not come within the tolerance during the step
							}
							int slot = rawCount;
							if ( rawCount == rawCap )
							{
								full = true;
								if ( !( key < worstKey ) )
								{
									continue;
								}
								slot = worst;
							}
							pdFillFeature( meshA, ta, &f.featureA );
							pdFillFeature( meshB, tb, &f.featureB );
							out[slot] = f;
							if ( slot == rawCount )
							{
								rawCount += 1;
							}
							if ( rawCount == rawCap )
							{
								// (Re)find the farthest kept pair; only closer ones matter from here.
								worst = 0;
								worstKey = pdSweptKey( out, motion );
								for ( int q = 1; q < rawCount; ++q )
								{
									double qKey = pdSweptKey( out + q, motion );
									if ( qKey > worstKey )
									{
										worst = q;
										worstKey = qKey;
									}
								}
								reach = pdMinD( tolerance, pdMaxD( worstKey, 0.0 ) );
							}
						}
					}
				}
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
			stack[top++] = ( pdFeatureEntry ){ na->start, e.b };
			stack[top++] = ( pdFeatureEntry ){ e.a + 1, e.b };
		}
		else
		{
			stack[top++] = ( pdFeatureEntry ){ e.a, nb->start };
			stack[top++] = ( pdFeatureEntry ){ e.a, e.b + 1 };
		}
	}

	if ( outVisits != NULL )
	{
		*outVisits = visits;
	}
	int count = rawCount;
	if ( full && status == PD_STATUS_OK )
	{
		status = PD_STATUS_FEATURE_LIMIT;
	}
	if ( outApart != NULL )
	{
		// A full list narrowed the search to the closest pairs: the rest went unseen.
		*outApart = status == PD_STATUS_OK && !full && !withinGap;
	}
	if ( outMinDistance != NULL )
	{
		*outMinDistance = minDistance;
	}
	if ( outClosestPair != NULL )
	{
		outClosestPair[0] = closestA;
		outClosestPair[1] = closestB;
	}
	*outCount = count;
	*outFeatures = count > 0 ? ws->features.data : NULL;
	return status;
}

pdStatus pdComputeContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
								   const pdTransform* poseB, double tolerance, pdVec3 approachDirection,
								   int maxFeatures, pdWorkspace* ws, int* outCount,
								   const pdContactFeature** outFeatures )
{
	return pdGatherContactFeatures( meshA, poseA, meshB, poseB, tolerance, NULL, approachDirection, maxFeatures, 0.0, ws,
									outCount, outFeatures, NULL, false, NULL, NULL, NULL );
}

pdStatus pdComputeSweptContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										const pdTransform* poseB, double tolerance, const pdRigidMotion* motion,
										pdVec3 approachDirection, int maxFeatures, pdWorkspace* ws, int* outCount,
										const pdContactFeature** outFeatures )
{
	if ( motion != NULL &&
		 ( !pdIsFiniteVec( motion->linear ) || !pdIsFiniteVec( motion->angular ) || !pdIsFiniteVec( motion->pivot ) ) )
	{
		if ( outCount != NULL )
		{
			*outCount = 0;
		}
		if ( outFeatures != NULL )
		{
			*outFeatures = NULL;
		}
		return PD_STATUS_INVALID_ARGUMENT;
	}
	bool still = motion == NULL || ( pdLengthSq( motion->linear ) == 0.0 && pdLengthSq( motion->angular ) == 0.0 );
	return pdGatherContactFeatures( meshA, poseA, meshB, poseB, tolerance, still ? NULL : motion, approachDirection,
									maxFeatures, 0.0, ws, outCount, outFeatures, NULL, false, NULL, NULL, NULL );
}

pdStatus pdContactFeatures_GatherProvingGap( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
											 const pdTransform* poseB, double tolerance, pdVec3 approachDirection,
											 int maxFeatures, double gap, bool stopWithinGap, pdWorkspace* ws,
											 int* outCount, const pdContactFeature** outFeatures, bool* outApart,
											 int* outVisits )
{
	if ( outVisits != NULL )
	{
		*outVisits = 0;
	}
	if ( !( gap >= 0.0 && gap <= tolerance ) )
	{
		if ( outCount != NULL )
		{
			*outCount = 0;
		}
		if ( outFeatures != NULL )
		{
			*outFeatures = NULL;
		}
		*outApart = false;
		return PD_STATUS_INVALID_ARGUMENT;
	}
	return pdGatherContactFeatures( meshA, poseA, meshB, poseB, tolerance, NULL, approachDirection, maxFeatures, gap,
									ws, outCount, outFeatures, outApart, stopWithinGap, NULL, NULL, outVisits );
}

pdStatus pdContactFeatures_GatherMeasuringGap( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
												const pdTransform* poseB, double tolerance, pdVec3 approachDirection,
												int maxFeatures, pdWorkspace* ws, int* outCount,
												const pdContactFeature** outFeatures, double* outMinDistance,
												int outClosestPair[2], int* outVisits )
{
	return pdGatherContactFeatures( meshA, poseA, meshB, poseB, tolerance, NULL, approachDirection, maxFeatures,
									tolerance, ws, outCount, outFeatures, NULL, false, outMinDistance, outClosestPair,
									outVisits );
}

pdStatus pdContactFeatures_ProveGap( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									 const pdTransform* poseB, double gap, pdWorkspace* ws, bool* outApart,
									 int* outVisits )
{
	int count = 0;
	const pdContactFeature* features = NULL;
	return pdContactFeatures_GatherProvingGap( meshA, poseA, meshB, poseB, gap, pdV3( 0.0, 0.0, 0.0 ), 0, gap, true, ws,
											   &count, &features, outApart, outVisits );
}

pdStatus pdComputeGapProof( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							const pdTransform* poseB, double gap, pdWorkspace* ioWorkspace, bool* outApart )
{
	if ( outApart == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	*outApart = false;
	if ( poseA == NULL || poseB == NULL || !isfinite( gap ) || gap < 0.0 )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	return pdContactFeatures_ProveGap( meshA, poseA, meshB, poseB, gap, ioWorkspace, outApart, NULL );
}

// ---------------------------------------------------------------------------------------------
// Local closeness of one feature

// Angular slack for neighbours level with the feature (a flat patch, a ring lying flat).
#define PD_LOCAL_SLACK 1e-6

// False when some vertex w among `count` lies further along dir than p (beyond the slack).
static bool pdNoneAhead( const pdMesh* mesh, const int* vertices, int count, pdVec3 p, pdVec3 dir )
{
	for ( int i = 0; i < count; ++i )
	{
		pdVec3 w = pdSub( mesh->vertices[vertices[i]], p );
		double len = pdLength( w );
		if ( len > 0.0 && pdDot( w, dir ) > PD_LOCAL_SLACK * len )
		{
			return false;
		}
	}
	return true;
}

// True when the vertex or edge f of mesh is the mesh's extreme along dir (mesh frame) among
// its neighbours: the vertices of the faces around a vertex, the opposite vertices of the two
// faces of an edge.
static bool pdFeatureIsExtreme( const pdMesh* mesh, const pdFeature* f, pdVec3 dir )
{
	if ( f->triangle < 0 || f->triangle >= mesh->triangleCount || f->index < 0 || f->index > 2 )
	{
		return true;
	}
	const int* tri = mesh->triangles[f->triangle];
	if ( f->type == PD_FEATURE_VERTEX )
	{
		int v = tri[f->index];
		int c = mesh->canonicalVertex[v];
		pdVec3 p = mesh->vertices[v];
		for ( int k = mesh->vertexFaceStart[c]; k < mesh->vertexFaceStart[c + 1]; ++k )
		{
			if ( !pdNoneAhead( mesh, mesh->triangles[mesh->vertexFaces[k]], 3, p, dir ) )
			{
				return false;
			}
		}
		return true;
	}
	if ( f->type == PD_FEATURE_EDGE )
	{
		const pdMeshEdge* e = mesh->edges + mesh->triangleEdges[f->triangle][f->index];
		if ( e->face0 < 0 || e->face1 < 0 ||
			 ( e->flags & ( PD_EDGE_BOUNDARY | PD_EDGE_NONMANIFOLD | PD_EDGE_INCONSISTENT ) ) )
		{
			return true;
		}
		pdVec3 p = mesh->vertices[tri[f->index]];
		return pdNoneAhead( mesh, mesh->triangles[e->face0], 3, p, dir ) &&
			   pdNoneAhead( mesh, mesh->triangles[e->face1], 3, p, dir );
	}
	return true;
}

bool pdContactFeature_IsExtremeAlong( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									  const pdTransform* poseB, const pdContactFeature* feature, pdVec3 direction )
{
	if ( feature == NULL || poseA == NULL || poseB == NULL || !pdIsValidMesh( meshA ) || !pdIsValidMesh( meshB ) )
	{
		return true;
	}
	double len = pdLength( direction );
	if ( !( len > 0.0 ) || !isfinite( len ) )
	{
		return true;
	}
	pdVec3 d = pdScale( direction, 1.0 / len );
	pdFrame frameA, frameB;
	if ( pdMakeFrame( poseA, &frameA ) != PD_STATUS_OK || pdMakeFrame( poseB, &frameB ) != PD_STATUS_OK )
	{
		return true;
	}
	// A's feature must be A's extreme toward B (-d), B's its extreme toward A (+d).
	pdVec3 towardB = pdMulMTV( &frameA.r, pdNeg( d ) );
	pdVec3 towardA = pdMulMTV( &frameB.r, d );
	return pdFeatureIsExtreme( meshA, &feature->featureA, towardB ) &&
		   pdFeatureIsExtreme( meshB, &feature->featureB, towardA );
}

bool pdContactFeature_IsLocallyClosest( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										const pdTransform* poseB, const pdContactFeature* feature )
{
	if ( feature == NULL )
	{
		return true;
	}
	return pdContactFeature_IsExtremeAlong( meshA, poseA, meshB, poseB, feature,
											pdSub( feature->pointA, feature->pointB ) );
}
