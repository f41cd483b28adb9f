// SPDX-License-Identifier: MIT
// A btCollisionDispatcher that runs the narrow phase on several threads, for Bullet builds
// without BT_THREADSAFE (Debian's Bullet 3.24: btCreateDefaultTaskScheduler() returns NULL, so
// btCollisionDispatcherMt runs the pairs one after another).
//
//   btDefaultCollisionConfiguration configuration;
//   polydepth::bullet::ParallelCollisionDispatcher dispatcher( &configuration, 2 );
//   btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
//   polydepth::bullet::registerAlgorithm( &dispatcher, nullptr );
//   btDiscreteDynamicsWorld world( &dispatcher, &broadphase, &solver, &configuration );
//
// What runs where: the PolyDepth pairs (and every pair without a GImpact shape) are spread over
// the threads, one pair at a time to whichever thread is free. The pairs that Bullet's own
// GImpact algorithm handles all run on one thread, one after another, alongside the others:
// GImpact locks a shape's triangle data with a plain counter in the shape part
// (btGImpactMeshShapePart::TrimeshPrimitiveManager::lock/unlock, and the unlock that reaches
// zero clears the vertex pointer), so two GImpact pairs that share a body or a shape must not
// run at once. Continuous dispatch (btDispatcherInfo::DISPATCH_CONTINUOUS writes the shared time
// of impact) runs on the calling thread.
//
// Determinism: after each dispatch the manifolds are put in the order of the overlapping pairs
// (then the manifolds of no pair, such as predictive contacts, in their previous order), so the
// solver sees the same contacts in the same order whatever the thread count, and a step's
// result does not depend on it (tests/shim/test_bullet_mt.cpp). This order differs from the one
// a plain btCollisionDispatcher leaves, so the results are not bit-identical to that.
//
// The manifold and algorithm pools are guarded by a mutex. A near callback set with
// setNearCallback, and Bullet's global contact callbacks (gContactAddedCallback,
// gContactStartedCallback, gContactProcessedCallback, ...), are called from several threads at
// once and must be safe there.
#pragma once

#include "polydepth/bullet.h"

#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>

#include <memory>

namespace polydepth::bullet
{
inline namespace PD_BULLET_ABI
{

/// Pairs of the last dispatchAllCollisionPairs call, by where they ran.
struct ParallelDispatchCounts
{
	int parallelPairs = 0; ///< spread over the threads
	int serialPairs = 0;   ///< GImpact's pairs, one after another on one thread
	int threadsUsed = 0;   ///< threads that ran at least one task (1 when everything ran on the caller)
};

class PD_API ParallelCollisionDispatcher : public btCollisionDispatcher
{
  public:
	/// threadCount >= 1 (smaller values are taken as 1): the calling thread and threadCount - 1
	/// workers started here and kept until destruction.
	ParallelCollisionDispatcher( btCollisionConfiguration* configuration, int threadCount );
	~ParallelCollisionDispatcher() override;
	ParallelCollisionDispatcher( const ParallelCollisionDispatcher& ) = delete;
	ParallelCollisionDispatcher& operator=( const ParallelCollisionDispatcher& ) = delete;

	int getThreadCount() const;
	ParallelDispatchCounts getLastDispatchCounts() const;

	void dispatchAllCollisionPairs( btOverlappingPairCache* pairCache, const btDispatcherInfo& dispatchInfo,
									btDispatcher* dispatcher ) override;
	btPersistentManifold* getNewManifold( const btCollisionObject* body0, const btCollisionObject* body1 ) override;
	void releaseManifold( btPersistentManifold* manifold ) override;
	void* allocateCollisionAlgorithm( int size ) override;
	void freeCollisionAlgorithm( void* ptr ) override;

  private:
	struct Pool;
	std::unique_ptr<Pool> m_pool;
};

} // namespace PD_BULLET_ABI
} // namespace polydepth::bullet
