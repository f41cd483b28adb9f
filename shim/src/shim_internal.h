// SPDX-License-Identifier: MIT
// Private declarations shared by the shim's sources: the shape-to-mesh cache, the per-dispatcher
// registration record and the collision algorithm's create function.
#pragma once

#include "polydepth/bullet.h"
#include "polydepth/contact.h"
#include "polydepth/contact_record.h"
#include "polydepth/rounded.h"

#include <BulletCollision/CollisionDispatch/btCompoundCollisionAlgorithm.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
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

/// True for the shapes the mesh cache builds: btGImpactMeshShape (trimesh, not compound),
/// btBvhTriangleMeshShape, btScaledBvhTriangleMeshShape and the convex shapes of isConvexShape.
bool isSupportedShape( const btCollisionShape* shape );
/// True for the shapes a pair with a btGImpactMeshShape gets the PolyDepth algorithm for: the
/// cached ones, the ground shapes (isGroundShape) and the rounded shapes (isRoundedShape).
bool isPairShape( const btCollisionShape* shape );
/// True when the algorithm handles a pair of these shapes: one is a btGImpactMeshShape and the
/// other a pair shape.
bool isSupportedPair( const btCollisionShape* shape0, const btCollisionShape* shape1 );

/// Flat triangles: 3 doubles per vertex, 3 indices per triangle.
struct ShapeTriangles
{
	std::vector<double> vertices;
	std::vector<uint32_t> indices;
};

/// Convex shapes built as closed meshes (shape_mesh.cpp): btBoxShape, btConvexHullShape,
/// btConvexPointCloudShape, btConvexTriangleMeshShape, btBU_Simplex1to4, btCylinderShape (any
/// axis), btConeShape (any axis).
bool isConvexShape( const btCollisionShape* shape );
/// Segments of a tessellated circle whose rim is within relativeError of the radius, in and
/// out (8 to 512).
int roundSegments( double relativeError );
/// Cheap per-frame key of a convex shape: its type, dimensions, scaling and point array.
uint64_t convexShapeKey( const btCollisionShape* shape );
/// The key plus every point of a polyhedral shape.
uint64_t convexContentSignature( const btCollisionShape* shape );
/// The convex shape's closed mesh in its own frame; false with *outProblem when it has no
/// volume (zero extent, flat hull, fewer than 4 points).
bool convexShapeTriangles( const btCollisionShape* shape, int segments, ShapeTriangles& out, const char** outProblem );
/// Winds the triangles of a convex solid outward; false with *outProblem when it is flat or
/// not finite.
bool orientConvexTriangles( ShapeTriangles& out, const char** outProblem );

/// btSphereShape, btCapsuleShape and btMultiSphereShape: met as the core's rounded shapes
/// (rounded_shape.cpp), not as meshes.
bool isRoundedShape( const btCollisionShape* shape );
/// The shape's skeleton and radius in its own frame (with its scaling); false with *outProblem
/// when it has none the core takes: a zero radius, or a multi-sphere that is not a sphere or a
/// capsule (radii that differ, centres off one line, uneven scaling).
bool roundedShapeSkeleton( const btCollisionShape* shape, pdRoundedShape* out, const char** outProblem );

/// btStaticPlaneShape and btHeightfieldTerrainShape: met through a per-pair GroundPatch.
bool isGroundShape( const btCollisionShape* shape );

/// The closed solid of a ground shape under one body, in the ground's frame (ground_patch.cpp).
/// Owned by one pair; rebuilt when the body leaves what the current patch guarantees.
class GroundPatch
{
  public:
	GroundPatch() = default;
	GroundPatch( const GroundPatch& ) = delete;
	GroundPatch& operator=( const GroundPatch& ) = delete;
	~GroundPatch();
	/// The patch for body (its shape and pose) against ground at groundPose, its bounds grown
	/// by reach (world units). NULL when no ground lies under the body or the ground is
	/// degenerate (failed() then says so).
	const pdMesh* update( const btCollisionShape* ground, const btTransform& groundPose, const btCollisionShape* body,
						  const btTransform& bodyPose, double reach );
	/// The ground itself cannot be built (a plane with a zero or non-finite normal).
	bool failed() const { return m_failed; }
	int triangleCount() const { return m_triangles; }
	uint64_t builds() const { return m_builds; }

  private:
	const pdMesh* updatePlane( const btStaticPlaneShape* plane, const btVector3& centre, double radius );
	const pdMesh* updateTerrain( const btHeightfieldTerrainShape* terrain, const btVector3& amin, const btVector3& amax,
								 double reach );
	void gather( const btHeightfieldTerrainShape* terrain, const double lo[2], const double hi[2],
				 std::vector<double>& out ) const;
	static bool buildTerrainSolid( int up, const std::vector<double>& soup, double bottom, ShapeTriangles& out );
	void replace( pdMesh* mesh );

	pdMesh* m_mesh = nullptr;
	int m_triangles = 0;
	uint64_t m_builds = 0;
	bool m_failed = false;
	uint64_t m_key = 0; ///< plane: its normal and constant; terrain: its triangles in the region
	// Plane box: built for radius <= m_radius, depth <= m_depth, centre within m_radius of (m_u, m_v).
	double m_radius = 0.0, m_depth = 0.0, m_u = 0.0, m_v = 0.0;
	// Terrain: the lateral region gathered, the highest surface point in it, the bottom.
	double m_lo[2] = { 0.0, 0.0 }, m_hi[2] = { 0.0, 0.0 };
	double m_surfaceMax = 0.0, m_bottom = 0.0;
	std::vector<double> m_soup; ///< scratch: the gathered triangles
};
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
	/// Segments of tessellated cylinders and cones (set once, before the first acquire).
	int roundSegments = 50;
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

/// Creates the algorithm for a btCompoundShape against a concave mesh, in either order
/// (compound_algorithm.cpp): its children within reach of the step's motion, each through the
/// dispatcher's table.
class CompoundCreateFunc : public btCollisionAlgorithmCreateFunc
{
  public:
	btCollisionAlgorithm* CreateCollisionAlgorithm( btCollisionAlgorithmConstructionInfo& ci,
													const btCollisionObjectWrapper* body0Wrap,
													const btCollisionObjectWrapper* body1Wrap ) override;
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
	std::atomic<uint64_t> patchBuilds{ 0 };
	std::atomic<int> largestPatch{ 0 };
	std::atomic<uint64_t> pairsLeft{ 0 };
	CompoundCreateFunc compoundFunc;
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
	/// registration's PolyDepth algorithm (not to the create function it delegates to) and the
	/// algorithm answers it itself (a convex shape it cannot build goes to that function); a
	/// compound against a mesh when its compound algorithm takes the pair and every child's pair
	/// is handled.
	bool handlesPair( const btCollisionShape* shape0, const btCollisionShape* shape1 );
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
