// SPDX-License-Identifier: MIT
// PolyDepth core: rounded shapes against a mesh. A rounded shape is a skeleton, a point or a
// segment, swept by a radius: a sphere or a capsule, exactly, not a tessellation. Its
// penetration depth against a mesh is the smallest translation that leaves the skeleton at
// least the radius away from the mesh's solid (a closed mesh) or surface (an open one), and
// its contacts are where the rounded surface touches the mesh: one per local minimum of the
// distance from the skeleton, so a sphere rolling over a tessellated floor meets one smooth
// surface and a sphere in a fold touches both sides.
//
//   pdRoundedShape ball = { { { 0, 0, 0 } }, 1, 0.25 };   // a sphere of radius 0.25
//   pdRoundedResult r;
//   pdComputeRoundedPenetration( &ball, &poseA, floorMesh, &poseB, NULL, ws, &r );
//   if ( r.state == PD_STATE_PENETRATING ) move A by r.translation;
//   for each of r.contacts[0 .. r.contactCount): point, normal (on B toward A), distance
#pragma once

#include "penetration.h"

PD_C_BEGIN

/// Contacts a rounded query reports at most.
#define PD_MAX_ROUNDED_CONTACTS 8

/// A point (skeletonCount 1) or a segment (skeletonCount 2) in A's frame, swept by radius.
typedef struct pdRoundedShape
{
	pdVec3 skeleton[2]; ///< A's frame: the point, or the segment's ends (may coincide: a sphere)
	int skeletonCount;  ///< 1 or 2
	double radius;      ///< world units, > 0 and finite
} pdRoundedShape;

/// Options of a rounded query. Initialise with pdDefaultRoundedDef(); NULL means the defaults.
typedef struct pdRoundedDef
{
	/// World units, >= 0: contacts are reported for separations up to this. Default 0
	double contactDistance;
	/// World units: the answer's accuracy; a returned translation leaves any overlap shallower
	/// than this. <= 0 means 1e-4 of the smaller of the shape's size (2 radius + segment length)
	/// and B's bounding-box diagonal. Default 0
	double tolerance;
	/// Signed-distance evaluations of the deepest-point search along a segment inside a closed
	/// mesh (past it PD_STATUS_ITERATION_LIMIT, with the bracket found). 2 to 100000. Default 64
	int maxEvaluations;
	/// Push-out steps when the translation along the deepest point's normal does not clear B
	/// (a segment wedged between two sides). 1 to 1000. Default 8
	int maxIterations;
	/// World frame, any length, may be zero: A came from -approachDirection. Orients the normal
	/// where a skeleton point lies on an open mesh's surface (which side is undecidable there).
	/// Default zero (the surface's front side).
	pdVec3 approachDirection;
	/// World frame, any length, may be zero: the side of B that A was last outside of (the
	/// normal of its last push). A skeleton point inside a closed mesh leaves toward it, through
	/// the surface opposite its nearest one, while that is at most twice as far: over a thin wall
	/// whose middle the point has crossed, the nearest way out is through the far side. Default
	/// zero (the nearest surface).
	pdVec3 preferredDirection;
	int internalValue; ///< set by pdDefaultRoundedDef(); do not touch
} pdRoundedDef;

/// A point where A's rounded surface meets B.
typedef struct pdRoundedContact
{
	pdVec3 pointA;            ///< on A's rounded surface (skeleton point - radius * normal), world frame
	pdVec3 pointB;            ///< on B's surface, world frame
	pdVec3 normal;            ///< unit, world frame, on B pointing toward A
	double distance;          ///< signed separation along normal, world units: negative = penetration
	double skeletonParameter; ///< where the skeleton point lies: 0 at skeleton[0], 1 at skeleton[1]
	pdFeature featureB;       ///< the feature of B the point lies on
} pdRoundedContact;

typedef struct pdRoundedResult
{
	pdStatus status; ///< OK, or PD_STATUS_ITERATION_LIMIT with valid bounds
	pdPenetrationState state;
	/// World units: the smallest signed distance from the skeleton to B minus the radius
	/// (positive apart, negative overlapping; its accuracy is the tolerance).
	double separation;
	double depth;       ///< |translation|, world units; 0 unless penetrating
	pdVec3 translation; ///< translate A by this (world) to leave A and B at most touching
	/// World units: no translation shorter than this separates them (-separation when
	/// penetrating, else 0; the skeleton's deepest point must travel at least that far).
	double lowerBound;
	/// depth equals lowerBound within the tolerance: the translation is the exact PD. Always
	/// so for a sphere against a convex mesh and for the deepest point's normal clearing B.
	bool exact;
	double skeletonParameter; ///< where the deepest skeleton point lies, 0..1
	int contactCount;         ///< entries of contacts
	/// The deepest first. A sphere: the local minima of the distance from its centre within
	/// radius + contactDistance (inside a closed mesh: the nearest surface). A capsule: those of
	/// its two end spheres and of its deepest point when that lies between them and deeper.
	pdRoundedContact contacts[PD_MAX_ROUNDED_CONTACTS];
	int evaluations; ///< signed-distance evaluations (about one distance query each)
	int iterations;  ///< push-out steps taken
} pdRoundedResult;

PD_API pdRoundedDef pdDefaultRoundedDef( void );

/// The penetration depth and contacts of rounded shape A against mesh B. def may be NULL.
/// Errors: PD_STATUS_INVALID_ARGUMENT (NULL shape, pose, mesh or result; skeletonCount not 1
/// or 2; a radius that is not positive and finite; a skeleton point not finite),
/// PD_STATUS_INVALID_MESH, PD_STATUS_INVALID_POSE, PD_STATUS_DEF_NOT_INITIALIZED,
/// PD_STATUS_INVALID_DEF; the result is then zeroed.
PD_API pdStatus pdComputeRoundedPenetration( const pdRoundedShape* shapeA, const pdTransform* poseA,
											 const pdMesh* meshB, const pdTransform* poseB, const pdRoundedDef* def,
											 pdWorkspace* ioWorkspace, pdRoundedResult* outResult );

PD_C_END
