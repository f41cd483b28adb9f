// SPDX-License-Identifier: MIT
// Private: the depth-first BVH-pair traversal of the contact-feature queries (pair_traversal.c).
// It descends node pairs whose boxes (A's swept along a step's motion, if any) come within the
// collector's reach, culls triangle pairs by their boxes and separating planes (or, for a
// motion that moves a triangle by more than the tolerance, by the swept triangle's separating
// axes), and hands each surviving triangle pair to a collector: the feature gathering, the gap
// proof and the gap measure (contact_features.c) are collectors of this one traversal.
#pragma once

#include "mesh.h"
#include "polydepth/query.h"
#include "tri_distance.h"
#include "workspace.h"

// True when p's plane (prepared: the BVH keeps B's, A's is made once per triangle) puts all of
// q's corners farther than reach on one side: then no feature pair of the two is within reach.
// The allowance is a few ulps of the coordinates involved.
static inline bool pdiPlaneSeparated( const pdiTrianglePlane* plane, const pdVec3 p[3], const pdVec3 q[3], double reach )
{
	return pdiTrianglePlane_Separates( plane, p[0], q, reach + 1e-12 * pdiPairCoordinateScale( p, q ) );
}

// True when the two triangles' projections on the line through their centroids are more than
// reach apart: a separating axis, so no point of one is within reach of the other. It rejects
// the pairs that lie side by side, level with each other (a ring resting on a ring), which
// neither plane test can (docs/experiments.md counts them in the debris scene). Coincident
// centroids prove nothing.
static inline bool pdiCentroidAxisSeparated( const pdVec3 p[3], const pdVec3 q[3], double reach )
{
	pdVec3 w = pdiSub( pdiAdd( pdiAdd( q[0], q[1] ), q[2] ), pdiAdd( pdiAdd( p[0], p[1] ), p[2] ) );
	double len = pdiLength( w );
	if ( !( len > 0.0 ) )
	{
		return false;
	}
	double maxP = pdiMaxD( pdiDot( w, p[0] ), pdiMaxD( pdiDot( w, p[1] ), pdiDot( w, p[2] ) ) );
	double minQ = pdiMinD( pdiDot( w, q[0] ), pdiMinD( pdiDot( w, q[1] ), pdiDot( w, q[2] ) ) );
	// Rounding allowance as in pdiPlaneSeparated: a few ulps of the coordinates involved.
	return minQ - maxP > ( reach + 1e-12 * pdiPairCoordinateScale( p, q ) ) * len;
}

/// Node pairs a traversal visits at most before it stops with PD_STATUS_TRAVERSAL_LIMIT.
#define PDI_PAIR_TRAVERSAL_MAX_VISITS 50000000

/// A posed pair and the motion of A over a step, in B's mesh frame.
typedef struct pdiPairTraversal
{
	const pdMesh* meshA;
	const pdMesh* meshB;
	pdiFrame frameA, frameB;
	pdiFrame rel;      ///< A's mesh frame relative to B's
	double tolerance; ///< world units: the pairs of features within it are the ones sought
	bool moving;      ///< a step's motion sweeps A's boxes and triangles
	pdVec3 linearB;   ///< the motion's translation, B's frame
	pdVec3 angularB;  ///< the motion's rotation vector (radians), B's frame
	pdVec3 pivotB;    ///< the rotation's pivot, B's frame
	double spin;      ///< |angular| (radians)
	double travel;    ///< |linear| (world units)
} pdiPairTraversal;

/// One triangle pair that passed the traversal's culls, in B's mesh frame.
typedef struct pdiTrianglePairHit
{
	int triangleA, triangleB;      ///< kept-triangle indices
	const pdVec3* va;              ///< A's triangle (3 corners) moved into B's frame
	const pdVec3* vb;              ///< B's triangle (3 corners)
	const pdiTrianglePlane* planeA; ///< A's triangle's plane
	const pdiTrianglePlane* planeB; ///< B's triangle's plane
	pdVec3 loA, hiA;               ///< A's triangle box (swept along the step when moving)
	pdVec3 loB, hiB;               ///< B's triangle box
	double featureReach;           ///< world units: the tolerance plus how far the step can move the triangle
} pdiTrianglePairHit;

/// What a traversal hands its triangle pairs to. The traversal reads reach before every cull
/// (a collector that keeps the closest pairs shrinks it once full) and ends when stop is set;
/// a status below zero (out of memory) ends it with that status.
typedef struct pdiPairCollector pdiPairCollector;
struct pdiPairCollector
{
	void ( *addPair )( pdiPairCollector* self, const pdiTrianglePairHit* hit );
	double reach; ///< world units: node and triangle pairs farther apart are culled
	bool stop;
	pdStatus status;
};

/// Validates the meshes, the workspace and the poses and makes the traversal of the pair at
/// the poses (motion NULL: static; otherwise finite, world frame). PD_STATUS_INVALID_MESH,
/// INVALID_ARGUMENT (workspace), a pose's status or INVALID_POSE.
pdStatus pdiPairTraversal_Make( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							   const pdTransform* poseB, double tolerance, const pdRigidMotion* motion, pdWorkspace* ws,
							   pdiPairTraversal* out );

/// Runs the traversal depth first from the root pair, A's or B's node descended as
/// pdiBvh_DescendA says. Returns PD_STATUS_OK, PD_STATUS_TRAVERSAL_LIMIT (visit cap or stack),
/// PD_STATUS_OUT_OF_MEMORY or the collector's failure; *outVisits gets the node pairs visited.
pdStatus pdiPairTraversal_Run( const pdiPairTraversal* t, pdWorkspace* ws, pdiPairCollector* collector, int* outVisits );
