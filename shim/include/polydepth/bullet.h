// SPDX-License-Identifier: MIT
// PolyDepth for Bullet: a narrow-phase collision algorithm for concave mesh pairs, driven by
// translational penetration depth. It takes a btGImpactMeshShape, in both orders, against:
//   - btGImpactMeshShape, static btBvhTriangleMeshShape / btScaledBvhTriangleMeshShape;
//   - btBoxShape (its 12 triangles), btConvexHullShape, btConvexPointCloudShape,
//     btConvexTriangleMeshShape, btBU_Simplex1to4 (the faces of btConvexHullComputer's hull of
//     their points), btCylinderShape and btConeShape on any axis (tessellated: see
//     pdBulletDef.roundError);
//   - btStaticPlaneShape (the half-space below it) and btHeightfieldTerrainShape (the solid
//     below the surface, from the cells under the body only);
//   - btSphereShape, btCapsuleShape (X, Y, Z) and btMultiSphereShape: rounded shapes, a point or
//     a segment swept by a radius, met exactly by the core's rounded query
//     (polydepth/rounded.h), not tessellated; a multi-sphere only when it is a sphere or a
//     capsule (equal radii, centres on one line, uniform scaling);
//   - btCompoundShape: Bullet's compound algorithm, whose children pairs come back here.
// Left on what was registered before (GImpact's): every class named in
// pdBulletDef.gimpactClasses, and a shape without volume (a box of zero extent, a flat hull, a
// zero-radius cylinder, sphere or capsule, a plane without a normal, a multi-sphere that is
// not a sphere or a capsule): such pairs are answered by the create function registered
// before, never by no one (pdBulletStats.pairsLeft counts them).
//
// Margins: GImpact meshes and triangle meshes are their triangles (the margin is not added).
// Boxes and cylinders are getHalfExtentsWithMargin(), the size given at construction (Bullet's
// implicit margin lies inside it); cones their radius and height; polyhedral shapes the hull of
// their points; spheres and capsules are their margin (radius = getRadius()), exactly. Bullet's own convex algorithms round those shapes by the margin (a box's
// corners, a hull's and a cone's whole surface grow by it); PolyDepth keeps them sharp, so a
// hull or a cone rests on a mesh its margin lower than on a convex shape.
//
// Usage (after creating the dispatcher, before adding bodies):
//   btGImpactCollisionAlgorithm::registerAlgorithm( dispatcher ); // GImpact for everything else
//   polydepth::bullet::registerAlgorithm( dispatcher, nullptr );  // later registrations win
//   ...
//   polydepth::bullet::unregisterAlgorithm( dispatcher );         // puts back what was there
//
// This header includes no Bullet header.
//
// Float and double Bullet builds: the entry points take names that depend on
// BT_USE_DOUBLE_PRECISION (pkg-config bullet-float64 defines it), and the library defines only
// the names of the Bullet it was built against, so mixing the two fails at link time
// (undefined pdBullet_RegisterDouble, or polydepth::bullet::bt_double::registerAlgorithm).
// C callers that never include Bullet must define BT_USE_DOUBLE_PRECISION themselves when they
// use the double build.
//
// Limits: Bullet has no shape-deleted callback, so meshes are cached per shape pointer and
// validated by a content signature (rebuilt when the data or scaling changes); an entry lives
// until unregistration or until no pair uses it and the cache grows. Shapes must not change
// their triangles in place while pairs are alive.
#pragma once

#include "polydepth/base.h"

#if defined( BT_USE_DOUBLE_PRECISION )
#define pdDefaultBulletDef pdDefaultBulletDefDouble
#define pdBullet_Register pdBullet_RegisterDouble
#define pdBullet_Unregister pdBullet_UnregisterDouble
#define pdBullet_GetStats pdBullet_GetStatsDouble
#define pdBullet_StartRecording pdBullet_StartRecordingDouble
#define pdBullet_StopRecording pdBullet_StopRecordingDouble
#define PD_BULLET_ABI bt_double
#else
#define PD_BULLET_ABI bt_float
#endif

PD_C_BEGIN

/// Options of the Bullet integration. Must be initialised with pdDefaultBulletDef(); NULL means
/// the defaults.
typedef struct pdBulletDef
{
	/// Contacts are generated for separated pairs closer than this (world units, Bullet's
	/// scale). <= 0 means use each manifold's contact breaking threshold.
	double contactDistance;
	/// Contact tolerance of the PD query relative to the smaller mesh's bounding-box diagonal.
	/// Default 1e-4.
	double relativeTolerance;
	/// PD iteration budget per pair per step (anytime: the best bound is used). Default 30.
	int maxIterations;
	/// Wall-clock budget per pair per step in ms; 0 = none. Default 0.
	double timeBudgetMs;
	/// Speculative contacts: a pair that can close its gap within the step (relative speed,
	/// including rotation, times the step) gets contacts before it touches, with their positive
	/// distance, which Bullet's solver lets close and no further. Without them a body falling
	/// a few centimetres per step lands up to a step deep in what it hits. Default true.
	bool speculativeContacts;
	/// Also register for the closest-points table (contactTest / contactPairTest). Default true.
	bool registerClosestPoints;
	/// Register for btScaledBvhTriangleMeshShape too. Default true.
	bool includeScaledTriangleMesh;
	/// Skin relative to the smaller mesh's bounding-box diagonal (pdContactDef.relativeSkin):
	/// contact points report their distance this much smaller, so Bullet's solver rests
	/// bodies about a skin apart (0.47 mm for a 1.3 m torus at the default) and a resting
	/// pair mostly takes the cheap separated path instead of a PD query (what that saves in the
	/// debris scene: docs/experiments.md). contactTest and contactPairTest
	/// report the exact surfaces. At most half the contact distance is applied. 0 turns it
	/// off; valid range [0, 0.1). Default 2.5e-4.
	double relativeSkin;
	/// Friction anchors at resting face-on contacts (pdContactManifold.restingFlat): those
	/// points carry Bullet's BT_CONTACT_FLAG_FRICTION_ANCHOR, so while static friction holds a
	/// point stays where it was on both bodies and the solver pulls the surfaces back together
	/// along the contact plane. Without them Bullet's solver (one friction direction per point,
	/// taken from the velocity) lets a stack of boxes creep sideways by a centimetre in 15 s.
	/// Moving, rolling and curved contacts (a ring on a ring) are not anchored: there an anchor
	/// turns rest into stick-slip. Bodies with CF_HAS_FRICTION_ANCHOR anchor every point, as
	/// Bullet does, either way. Default true.
	bool frictionAnchors;
	/// Shape classes (pdBulletShapeClass bits) left on the create function that was registered
	/// before (GImpact's): their pairs with a GImpact mesh are not claimed. Default 0.
	unsigned gimpactClasses;
	/// Cylinders and cones are tessellated so that the rim lies within roundError times the
	/// radius of the true circle, outward at the corners and inward at the edge middles
	/// alike (the polygon's corners sit at r * 2 / (1 + cos(pi / n)); error r tan^2(pi / 2n)).
	/// Valid (0, 0.1]; finer than 512 segments (about 9.4e-6) is clamped there. Default 1e-3
	/// (50 segments: 1 mm on a 1 m radius).
	double roundError;
	int internalValue;
} pdBulletDef;

/// Shape classes for pdBulletDef.gimpactClasses.
typedef enum pdBulletShapeClass
{
	PD_BULLET_BOX = 1 << 0, ///< btBoxShape
	PD_BULLET_CONVEX_HULL =
		1 << 1, ///< btConvexHullShape, btConvexPointCloudShape, btConvexTriangleMeshShape, btBU_Simplex1to4
	PD_BULLET_CYLINDER = 1 << 2,    ///< btCylinderShape (X, Y, Z)
	PD_BULLET_CONE = 1 << 3,        ///< btConeShape (X, Y, Z)
	PD_BULLET_PLANE = 1 << 4,       ///< btStaticPlaneShape
	PD_BULLET_HEIGHTFIELD = 1 << 5, ///< btHeightfieldTerrainShape
	PD_BULLET_COMPOUND = 1 << 6,    ///< btCompoundShape (its children through Bullet's compound algorithm)
	PD_BULLET_SPHERE = 1 << 7,       ///< btSphereShape
	PD_BULLET_CAPSULE = 1 << 8,      ///< btCapsuleShape (X, Y, Z)
	PD_BULLET_MULTI_SPHERE = 1 << 9, ///< btMultiSphereShape (claimed when it is a sphere or a capsule)
	PD_BULLET_ALL_CLASSES = 0x3ff
} pdBulletShapeClass;

PD_API pdBulletDef pdDefaultBulletDef( void );

/// C entry points (dispatcher is a btCollisionDispatcher*). Return PD_STATUS_OK, or
/// PD_STATUS_INVALID_ARGUMENT for a NULL dispatcher / PD_STATUS_DEF_NOT_INITIALIZED /
/// PD_STATUS_INVALID_DEF (a value out of its range, unknown gimpactClasses bits).
PD_API pdStatus pdBullet_Register( void* dispatcher, const pdBulletDef* def );
PD_API pdStatus pdBullet_Unregister( void* dispatcher );

/// Counters of one registration (for tests and diagnostics).
typedef struct pdBulletStats
{
	int cachedMeshCount;      ///< meshes currently in the shape cache
	uint64_t meshBuilds;      ///< meshes built so far (a shape is built once per scaling)
	uint64_t pairsProcessed;  ///< processCollision calls handled
	uint64_t contactsWritten; ///< contact points handed to Bullet
	uint64_t groundPatches; ///< plane and terrain solids built for pairs (one per pair, rebuilt as the body moves away)
	int largestGroundPatch; ///< triangles of the largest of them
	uint64_t pairsLeft;     ///< pairs handed to the previous create function (a shape without volume)
} pdBulletStats;

/// Fills outStats for the registration on dispatcher. PD_STATUS_INVALID_ARGUMENT when the
/// dispatcher is NULL or not registered (outStats is zeroed).
PD_API pdStatus pdBullet_GetStats( void* dispatcher, pdBulletStats* outStats );

/// Records every pdContactPair_Generate call of the registration on dispatcher (contact points and
/// closest points, any thread) into the file at path, replacing a recording in progress, until
/// pdBullet_StopRecording (or unregistration). A replay (polydepth/contact_record.h, or
/// `polydepth-bench contact-replay FILE`) runs the same calls outside Bullet. PD_STATUS_OK, or
/// PD_STATUS_INVALID_ARGUMENT for a NULL argument, a dispatcher that is not registered or a
/// file that cannot be created.
PD_API pdStatus pdBullet_StartRecording( void* dispatcher, const char* path );
/// Ends the recording and closes the file; *outCalls (may be NULL) gets the calls written.
/// PD_STATUS_FAILED when a write failed (disk full), PD_STATUS_INVALID_ARGUMENT when nothing
/// was being recorded.
PD_API pdStatus pdBullet_StopRecording( void* dispatcher, long* outCalls );

PD_C_END

#ifdef __cplusplus
class btCollisionDispatcher;

namespace polydepth::bullet
{
inline namespace PD_BULLET_ABI
{
/// Registers the PolyDepth algorithm on dispatcher for the concave mesh pairs. Call it after
/// btGImpactCollisionAlgorithm::registerAlgorithm (the last registration wins) and before
/// bodies are added (Bullet caches an algorithm per broadphase pair).
PD_API pdStatus registerAlgorithm( btCollisionDispatcher* dispatcher, const pdBulletDef* def );
/// Restores the create functions that were registered before registerAlgorithm.
PD_API pdStatus unregisterAlgorithm( btCollisionDispatcher* dispatcher );
/// pdBullet_StartRecording and pdBullet_StopRecording.
PD_API pdStatus startRecording( btCollisionDispatcher* dispatcher, const char* path );
PD_API pdStatus stopRecording( btCollisionDispatcher* dispatcher, long* outCalls );
} // namespace PD_BULLET_ABI
} // namespace polydepth::bullet
#endif
