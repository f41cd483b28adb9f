// SPDX-License-Identifier: MIT
// PolyDepth plugin: engine-agnostic contact generation between two posed meshes, built on the
// core's penetration-depth and proximity queries. Uses only the public core API.
//
// One call per pair per step:
//   pdContactPair pair;                      // caller-owned, one per colliding pair
//   pdContactPair_Reset( &pair );
//   ...every step:
//   pdContactPair_SetMotion( &pair, relativeDisplacementOfAOverTheStep ); // optional hint
//   pdContactManifoldSet set;
//   pdContactPair_Generate( &pair, meshA, &poseA, meshB, &poseB, NULL, workspace, &set );
//   for each set.manifolds[i] (stable slot id, normal on B toward A, <= 4 points):
//       feed pointB, normal and distance (negative = penetration) to the engine
//
// Sign conventions (Bullet's): the normal is on B pointing toward A (the direction A leaves
// along); distance < 0 is penetration, > 0 is a gap; points lie on B's surface and the
// matching point on A is pointB + normal * distance.
#pragma once

#include "polydepth/penetration.h"

PD_C_BEGIN

/// Contact points per region (matches Bullet's btPersistentManifold capacity).
#define PD_MAX_CONTACT_POINTS 4
/// Contact regions (manifolds) per pair; each keeps a stable slot id frame to frame.
#define PD_MAX_CONTACT_MANIFOLDS 8

/// How the pair treats B when B is an open surface (a zero-thickness floor, a wall, a sheet).
typedef enum pdOneSidedMode
{
	PD_ONE_SIDED_AUTO = 0,   ///< one-sided when B is not a closed mesh (the default)
	PD_ONE_SIDED_ALWAYS = 1, ///< B is always one-sided: A stays on the side it came from
	PD_ONE_SIDED_NEVER = 2,  ///< plain PD, either side
} pdOneSidedMode;

/// Options of contact generation. Initialise with pdDefaultContactDef(); NULL means defaults.
typedef struct pdContactDef
{
	/// Separated pairs closer than this get closest-feature contacts with positive distance
	/// (world units). 0 disables them. Default 0.02 (Bullet's default breaking threshold).
	double contactDistance;
	/// Speculative reach (world units): a separated pair farther apart than contactDistance
	/// but closer than this still gets contacts, at its closest patch and with their positive
	/// distance. A solver that treats a positive distance as a gap the bodies may close within
	/// the step, and no more (Bullet's does), then stops a fast body at the surface instead of a
	/// step inside it. Set it per call to the distance the pair can close in one step; the
	/// Bullet shim does. With the pair's rigid motion given (pdContactPair_SetRigidMotion),
	/// only the feature pairs that motion brings within contactDistance over the step become
	/// such contacts (pdComputeContactFeatures with the motion), not every pair within the reach; a pair
	/// with none of those keeps one point at its closest pair.
	/// 0 disables. Default 0.
	double speculativeDistance;
	/// PD contact tolerance relative to the smaller mesh's bounding-box diagonal. Default 1e-4.
	double relativeTolerance;
	int maxIterations;       ///< PD iterations per start. Default 30
	double timeBudgetMs;     ///< PD wall-clock budget per call; 0 = none. Default 0
	pdOneSidedMode oneSided; ///< default PD_ONE_SIDED_AUTO
	/// Features whose normals are within this angle (cosine) join one region; its normal is
	/// their mean. Default 0.95. (The local path groups within 45 degrees and takes each
	/// region's own push as its normal: a tessellated crest is one region.)
	double regionCosine;
	/// A region whose normal moved less than this (cosine) since the last frame keeps last
	/// frame's normal, so resting contacts do not jitter. 1 disables. Default 0.99 (~8 deg).
	double holdCosine;
	int maxFeatures; ///< contact features gathered per call (the closest ones; 4x for a fast body). Default 256
	/// Skin, relative to the smaller mesh's bounding-box diagonal: every point's distance is
	/// reported this much smaller than the surfaces' (pointA moves in with it), so a solver
	/// that drives contact distances to zero rests the bodies a skin apart instead of
	/// touching, where a pair takes the cheap separated path (a distance query) instead of a
	/// PD query on most steps. Regions, normals and which pairs get contacts do not change.
	/// At most half of contactDistance is applied (none when contactDistance is 0: a pair
	/// must still get contacts where it hovers). Valid range [0, 0.1).
	/// Default 0 (the exact surfaces); the Bullet shim passes pdBulletDef.relativeSkin.
	double relativeSkin;
	int internalValue; ///< set by pdDefaultContactDef(); do not touch
} pdContactDef;

/// Bytes of a pdContactPair: the plugin's private per-pair state (plugin/src/contact_pair.h).
#define PD_CONTACT_PAIR_SIZE 3344

/// Caller-owned per-pair state, kept by value (one per colliding pair). Zero-initialise it or
/// call pdContactPair_Reset; set the motion hints with pdContactPair_SetMotion or
/// pdContactPair_SetRigidMotion. Its contents are private to the plugin (the last frame's
/// slots and normals, the held contact, the proven gap, the PD cache); contact recordings
/// (contact_record.h) store it as bytes.
typedef struct pdContactPair
{
	double opaque[PD_CONTACT_PAIR_SIZE / sizeof( double )]; ///< private: do not read or write
} pdContactPair;

/// One contact point.
typedef struct pdContactPoint
{
	pdVec3 pointB;   ///< on B's surface, world frame
	pdVec3 pointA;   ///< the matching point on A at the input poses: pointB + normal * distance
	double distance; ///< signed along the region normal, less the skin; negative = penetration (world units)
} pdContactPoint;

/// One contact region (feeds one engine manifold).
typedef struct pdContactManifold
{
	int slot;       ///< stable id in [0, PD_MAX_CONTACT_MANIFOLDS): the same region keeps its slot
	pdVec3 normal;  ///< unit, world, on B pointing toward A
	int pointCount; ///< 1..PD_MAX_CONTACT_POINTS
	pdContactPoint points[PD_MAX_CONTACT_POINTS]; ///< points[0] is the deepest
	/// A resting patch lying face on: shallow, A slow relative to B, and its points spanning a
	/// plane wide enough to carry A (a box on a floor or on another box; not a ring on a ring).
	/// Its points are kept from call to call while they bear load and its normal is the plane's,
	/// so an engine may hold static friction at them (Bullet's friction anchors) instead of
	/// re-deriving it from the velocities every step.
	bool restingFlat;
} pdContactManifold;

/// Everything one call produces. Fully written by every call.
typedef struct pdContactManifoldSet
{
	pdStatus status;          ///< status of the underlying queries (cap statuses are fine)
	pdPenetrationState state; ///< state at the input poses
	pdVec3 translation;       ///< PD translation used for A (world); zero unless penetrating
	double depth;             ///< its length
	bool resolvedOneSided;    ///< the PD was replaced by the solution on A's remembered side
	bool speculative;         ///< the contacts are speculative (gap beyond contactDistance)
	/// The answer came from the pair's own neighbourhood (two closed meshes): one gathering at
	/// the input poses saw every feature pair within the local reach (the contact distance, at
	/// least twice the last depth plus the step's motion), every vertex inside the
	/// other solid lies well within that reach of the surface it leaves by, and each region
	/// carries its own normal and the depth that separates it; translation is then the deepest
	/// region's own push. No global PD was searched. False when the overlap was not local
	/// (deeper than the reach, one solid inside the other) and the global PD decided, and for
	/// open or one-sided meshes.
	bool local;
	int iterations;           ///< PD iterations spent
	int manifoldCount;        ///< manifolds written
	pdContactManifold manifolds[PD_MAX_CONTACT_MANIFOLDS];
} pdContactManifoldSet;

PD_API pdContactDef pdDefaultContactDef( void );

/// Forgets everything about the pair (first contact, new bodies).
PD_API void pdContactPair_Reset( pdContactPair* pair );

/// Hint for the next call: A's displacement relative to B over the last step (world units),
/// e.g. (vA - vB) * dt. Lets a one-sided surface know where A came from on first contact.
PD_API void pdContactPair_SetMotion( pdContactPair* pair, pdVec3 relativeDisplacement );

/// The same hint with rotation: over the step a point p of A moves relative to B by
/// linearDisplacement + rotation x (p - pivot) (rotation = relative angular velocity * dt,
/// world; pivot = A's centre of mass). With it, contacts of a spinning or tumbling body pick
/// the points that will arrive first, not only the ones that are deepest now.
PD_API void pdContactPair_SetRigidMotion( pdContactPair* pair, pdVec3 linearDisplacement, pdVec3 rotation,
										  pdVec3 pivot );

/// Marks the pair as driven (true) when one of its bodies moves whatever its contacts say (a
/// kinematic body): its penetrating calls then take the global path, one escape direction for
/// the whole pair, instead of each region its own push; a dynamic body squeezed between a
/// kinematic body and the floor by opposed local regions is thrown out. Kept until changed or
/// pdContactPair_Reset; the Bullet shim sets it every call from isKinematicObject().
PD_API void pdContactPair_SetDriven( pdContactPair* pair, bool driven );

/// Generates the contact manifolds of A against B. Two closed meshes first take the local
/// path (set.local): one gathering at the input poses, and each region its own normal (B's
/// faces it presses on, or the direction of the shortest push that separates it) with its points
/// at their own gaps, so a
/// peg wedged in its bore gets both sides of the hole, each at its own depth. Where the
/// neighbourhood cannot explain the overlap (deeper than the local reach, one solid inside the
/// other), and for open or one-sided meshes, the global path: one region per local PD of the
/// global PD (points on B at the PD contact configuration, depth -(d . n)). Separated closer
/// than the contact distance: closest-feature regions with positive distance; otherwise none.
/// Resting patches (shallow, A slow relative to B) keep their points from the last call where
/// they still bear load, pick new ones along directions fixed to B, and take a wide patch's
/// plane on B as the normal, so an engine's point cache matches them and warm-starts.
/// def may be NULL. Returns the status also stored in outSet.
PD_API pdStatus pdContactPair_Generate( pdContactPair* ioPair, const pdMesh* meshA, const pdTransform* poseA,
									const pdMesh* meshB, const pdTransform* poseB, const pdContactDef* def,
									pdWorkspace* ioWorkspace, pdContactManifoldSet* outSet );

/// Manifold reduction: picks at most PD_MAX_CONTACT_POINTS of pointCount points: the deepest
/// (smallest distance; of points level with it, the one farthest from their centroid) first,
/// then the ones whose convex hull, projected on the plane normal to normal, has the largest
/// area (exact for pointCount <= 16; larger sets are pre-filtered to their extreme points).
/// Writes indices into outIndices and returns how many (0 if pointCount <= 0).
PD_API int pdReduceContactPoints( pdVec3 normal, const pdVec3* points, const double* distances, int pointCount,
								  int outIndices[PD_MAX_CONTACT_POINTS] );

PD_C_END
