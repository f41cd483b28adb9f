// SPDX-License-Identifier: MIT
// PolyDepth for Bullet: a narrow-phase collision algorithm for concave mesh pairs
// (btGImpactMeshShape with btGImpactMeshShape, and with static btBvhTriangleMeshShape /
// btScaledBvhTriangleMeshShape, in both orders), driven by translational penetration depth.
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
	int internalValue;
} pdBulletDef;

PD_API pdBulletDef pdDefaultBulletDef( void );

/// C entry points (dispatcher is a btCollisionDispatcher*). Return PD_STATUS_OK, or
/// PD_STATUS_INVALID_ARGUMENT for a NULL dispatcher / PD_STATUS_DEF_NOT_INITIALIZED.
PD_API pdStatus pdBullet_Register( void* dispatcher, const pdBulletDef* def );
PD_API pdStatus pdBullet_Unregister( void* dispatcher );

/// Counters of one registration (for tests and diagnostics).
typedef struct pdBulletStats
{
	int cachedMeshCount;         ///< meshes currently in the shape cache
	uint64_t meshBuilds;      ///< meshes built so far (a shape is built once per scaling)
	uint64_t pairsProcessed;  ///< processCollision calls handled
	uint64_t contactsWritten; ///< contact points handed to Bullet
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
