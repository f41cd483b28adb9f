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
	/// their mean. Default 0.95.
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

// ---------------------------------------------------------------------------------------------
// Private per-pair state of the plugin. Callers only allocate it (inside pdContactPair) and must
// not read or write it: pdContactPair_Reset clears it, pdContactPair_SetMotion and
// pdContactPair_SetRigidMotion set the motion hints. Its layout is written raw into contact
// recordings (contact_record.h), so the field order and types are part of the recording format.
// All vectors are in B's frame so they survive B moving, except the input hints (world).
// ---------------------------------------------------------------------------------------------
typedef struct pdContactPairInternal
{
	pdPenetrationCache penetration;               ///< motion coherence of the PD query
	int frame;                                    ///< calls made on this pair
	pdPenetrationState lastState;                 ///< state of the last call
	pdVec3 lastTranslation;                       ///< last PD translation (B frame)
	unsigned slotMask;                            ///< slots used by the last call (bit i = slot i)
	pdVec3 slotNormals[PD_MAX_CONTACT_MANIFOLDS]; ///< their normals (B frame)
	int slotPointCount[PD_MAX_CONTACT_MANIFOLDS]; ///< points each slot wrote last call
	pdVec3 slotPoints[PD_MAX_CONTACT_MANIFOLDS][PD_MAX_CONTACT_POINTS]; ///< those points on B (B frame)
	bool hasFreeSide;                                                   ///< freeSide is known
	pdVec3 freeSide;      ///< unit: the side of B that A was last free on (B frame)
	bool hasFreePosition; ///< freePosition is known
	pdVec3 freePosition;  ///< A's origin at its last free configuration (B frame)
	pdVec3 motion;        ///< input hint: A's displacement relative to B over the last step (world)
	pdVec3 rotation;      ///< input hint: A's rotation relative to B over the step (axis * angle, world)
	pdVec3 pivot;         ///< input hint: the world point A rotates about (its centre of mass)
	// A proven gap: at the reference pose (A relative to B) the meshes were at least
	// apartBound apart; until A has moved, relative to B, by more than that bound minus the
	// reach of a contact, the pair needs no query at all.
	bool apartValid;
	double apartBound;
	pdVec3 apartPosition;     ///< A's origin in B's frame at the reference
	pdQuat apartRotation;     ///< A's rotation relative to B at the reference
	const pdMesh* proofMeshA; ///< the meshes the proven gap and the held contact were made for
	const pdMesh* proofMeshB;
	// A held contact: the manifolds of the last full call, fixed to A and to B, answered again
	// (points moved with the bodies, distances measured anew) while A has moved relative to B
	// by less than holdBound since holdPosition/holdRotation. Every feature pair the full call
	// did not turn into a point was at least twice that far apart, so none can touch meanwhile.
	bool holdValid;
	int holdCalls;       ///< calls answered from the hold since it was made
	double holdBound;    ///< world units: the motion the hold allows
	pdVec3 holdPosition; ///< A's origin in B's frame when the hold was made
	pdQuat holdRotation; ///< A's rotation relative to B then
	pdPenetrationState holdState;
	bool holdSpeculative;
	bool holdResolvedOneSided;
	pdVec3 holdTranslation; ///< the PD translation (B frame)
	int holdCount;          ///< manifolds held
	int holdSlot[PD_MAX_CONTACT_MANIFOLDS];
	int holdPointCount[PD_MAX_CONTACT_MANIFOLDS];
	pdVec3 holdNormal[PD_MAX_CONTACT_MANIFOLDS];                        ///< B frame
	pdVec3 holdPointA[PD_MAX_CONTACT_MANIFOLDS][PD_MAX_CONTACT_POINTS]; ///< on A (A's frame)
	pdVec3 holdPointB[PD_MAX_CONTACT_MANIFOLDS][PD_MAX_CONTACT_POINTS]; ///< on B (B's frame)
} pdContactPairInternal;

/// Caller-owned per-pair state, kept by value (one per colliding pair). Zero-initialise it or
/// call pdContactPair_Reset; set the motion hints with pdContactPair_SetMotion or
/// pdContactPair_SetRigidMotion. Everything in it is private to the plugin.
typedef struct pdContactPair
{
	pdContactPairInternal internal; ///< private: do not read or write
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

/// Generates the contact manifolds of A against B. Penetrating: one region per local PD
/// (points on B at the PD contact configuration, depth -(d . n)); separated closer than the
/// contact distance: closest-feature regions with positive distance; otherwise none.
/// Resting patches (shallow, A slow relative to B) keep their points from the last call where
/// they still bear load, pick new ones along directions fixed to B, and take a wide patch's
/// plane on B as the normal, so an engine's point cache matches them and warm-starts.
/// def may be NULL. Returns the status also stored in outSet.
PD_API pdStatus pdContactPair_Generate( pdContactPair* ioPair, const pdMesh* meshA, const pdTransform* poseA,
									const pdMesh* meshB, const pdTransform* poseB, const pdContactDef* def,
									pdWorkspace* ioWorkspace, pdContactManifoldSet* outSet );

/// Manifold reduction: picks at most PD_MAX_CONTACT_POINTS of pointCount points: the deepest
/// (smallest distance) first, then the ones whose convex hull, projected on the plane normal
/// to normal, has the largest area (exact for pointCount <= 16; larger sets are pre-filtered to
/// their extreme points). Writes indices into outIndices and returns how many (0 if
/// pointCount <= 0).
PD_API int pdReduceContactPoints( pdVec3 normal, const pdVec3* points, const double* distances, int pointCount,
								  int outIndices[PD_MAX_CONTACT_POINTS] );

PD_C_END
