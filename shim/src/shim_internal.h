// SPDX-License-Identifier: MIT
// Private declarations shared by the shim's sources: the shape-to-mesh cache, the per-dispatcher
// registration record and the collision algorithm's create function.
#pragma once

#include "polydepth/bullet.h"
#include "polydepth/contact.h"
#include "polydepth/contact_record.h"

#include <btBulletCollisionCommon.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace polydepth::bullet
{
inline namespace PD_BULLET_ABI
{

/// A pdMesh built from one Bullet shape at one scaling. Immutable; shared by every pair that
/// uses the shape (pdMesh is thread-safe to read).
struct MeshEntry
{
	const btCollisionShape* shape = nullptr;
	uint64_t signature = 0; ///< content + scaling signature it was built from
	uint64_t scaleKey = 0;  ///< scaling part of the signature (cheap to recheck every frame)
	pdMesh* mesh = nullptr; ///< NULL when the shape's triangles were rejected
	bool closed = false;
	~MeshEntry();
};

using MeshRef = std::shared_ptr<const MeshEntry>;

/// True for the shapes the algorithm handles: btGImpactMeshShape (trimesh, not compound),
/// btBvhTriangleMeshShape and btScaledBvhTriangleMeshShape.
bool isSupportedShape( const btCollisionShape* shape );
/// True for a btGImpactMeshShape (the dynamic side of a pair).
bool isGImpactMesh( const btCollisionShape* shape );
/// Signature of the shape's scaling only (per GImpact part, or interface x scaled-shape scale).
uint64_t shapeScaleKey( const btCollisionShape* shape );

/// Shape pointer -> mesh. Keyed by pointer and validated by a content signature (mesh
/// interface, array pointers, counts, a few vertex values, scaling) because Bullet has no
/// shape-deleted callback: a new shape at a freed address with other data is rebuilt.
class MeshCache
{
  public:
	MeshRef acquire( const btCollisionShape* shape );
	int size() const;
	uint64_t builds() const { return m_builds.load(); }

  private:
	mutable std::mutex m_mutex;
	std::unordered_map<const btCollisionShape*, std::shared_ptr<MeshEntry>> m_entries;
	std::atomic<uint64_t> m_builds{ 0 };
};

class Registration;

/// Creates the algorithm for our cells; delegates unsupported shapes (GImpact compounds,
/// GImpact parts) to the create function that was registered before us.
class CreateFunc : public btCollisionAlgorithmCreateFunc
{
  public:
	CreateFunc( Registration* owner, bool closestPoints ) : m_owner( owner ), m_closestPoints( closestPoints ) {}
	btCollisionAlgorithm* CreateCollisionAlgorithm( btCollisionAlgorithmConstructionInfo& ci,
													const btCollisionObjectWrapper* body0Wrap,
													const btCollisionObjectWrapper* body1Wrap ) override;

  private:
	Registration* m_owner;
	bool m_closestPoints;
};

/// Everything one registerAlgorithm call owns. Live algorithms hold a shared reference, so
/// unregistering while pairs still exist is safe.
class Registration : public std::enable_shared_from_this<Registration>
{
  public:
	struct SavedCell
	{
		int type0, type1;
		btCollisionAlgorithmCreateFunc* contact;
		btCollisionAlgorithmCreateFunc* closest;
		bool wroteClosest;
	};

	btCollisionDispatcher* dispatcher = nullptr;
	pdBulletDef def{};
	pdContactDef contactDef{};
	MeshCache cache;
	CreateFunc contactFunc{ this, false };
	CreateFunc closestFunc{ this, true };
	std::vector<SavedCell> saved;
	std::atomic<uint64_t> pairsProcessed{ 0 };
	std::atomic<uint64_t> contactsWritten{ 0 };

	/// Recording of the pdContactPair_Generate calls (pdBullet_StartRecording): the flag is read
	/// without the lock on every call, the recorder written under it.
	std::atomic<bool> recording{ false };
	std::mutex recordMutex;
	pdContactRecorder* recorder = nullptr;
	/// Ends a recording, if any, with recordMutex held: no call is written after it, the file is
	/// closed (pdDestroyContactRecorder's status; PD_STATUS_INVALID_ARGUMENT when none was on),
	/// and *outCalls (may be NULL) gets the number of calls it holds.
	pdStatus endRecordingLocked( long* outCalls );
	/// Writes one call's inputs if recording (any thread).
	void record( const pdContactPair& pair, const pdMesh* meshA, const pdTransform& poseA, const pdMesh* meshB,
				 const pdTransform& poseB, const pdContactDef& def );
	~Registration();

	/// The create function that was in the cell before us (NULL if we do not own the cell).
	btCollisionAlgorithmCreateFunc* previous( int type0, int type1, bool closestPoints ) const;
	/// True when the dispatcher's contact table gives a pair of these shapes to this
	/// registration's PolyDepth algorithm (not to the create function it delegates to).
	bool handlesPair( const btCollisionShape* shape0, const btCollisionShape* shape1 ) const;
};

/// The registration on dispatcher, or NULL when it has none (registration.cpp).
std::shared_ptr<Registration> findRegistration( btCollisionDispatcher* dispatcher );

/// Builds the algorithm object (collision_algorithm.cpp).
btCollisionAlgorithm* createPolyDepthAlgorithm( btCollisionAlgorithmConstructionInfo& ci,
												const btCollisionObjectWrapper* body0Wrap,
												const btCollisionObjectWrapper* body1Wrap,
												std::shared_ptr<Registration> registration, bool closestPoints );

} // namespace PD_BULLET_ABI
} // namespace polydepth::bullet
