// SPDX-License-Identifier: MIT
// Private machinery shared by the scenes: the Bullet world, meshes as Bullet shapes, bodies,
// joints, and the per-step bookkeeping behind smpSceneMetrics.
#pragma once

#include "scene.h"

#include <btBulletDynamicsCommon.h>

#include <array>
#include <cmath>
#include <functional>
#include <set>
#include <utility>

struct pdMesh;
struct pdWorkspace;

/// Deterministic generator (splitmix64): the same seed gives the same scene on every platform.
class smpSceneRandom
{
  public:
	explicit smpSceneRandom( uint64_t seed ) : m_state( seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull ) {}
	uint64_t next()
	{
		uint64_t z = ( m_state += 0x9E3779B97F4A7C15ull );
		z = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
		z = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
		return z ^ ( z >> 31 );
	}
	/// Uniform in [0, 1).
	double uniform() { return (double)( next() >> 11 ) * ( 1.0 / 9007199254740992.0 ); }
	double range( double lo, double hi ) { return lo + ( hi - lo ) * uniform(); }
	/// Uniformly distributed rotation (Shoemake).
	btQuaternion rotation();

  private:
	uint64_t m_state;
};

/// A triangle mesh used by one or more bodies, with its Bullet shape.
struct smpSceneShape
{
	std::vector<double> vertices;
	std::vector<uint32_t> indices;
	bool closed = true;
	std::vector<btScalar> btVertices;
	std::vector<int> btIndices;
	/// Shapes of other kinds (smpSceneWorld::addCollisionShape, addHeightfieldShape): the shapes a
	/// compound refers to, and the heights a btHeightfieldTerrainShape reads (it keeps no copy).
	/// Declared before `shape`, so they outlive it.
	std::vector<std::unique_ptr<btCollisionShape>> children;
	std::vector<float> heights;
	std::unique_ptr<btTriangleIndexVertexArray> meshInterface;
	std::unique_ptr<btCollisionShape> shape; ///< GImpact (dynamic) or BVH (static); inertia comes from it
	/// SMP_SCENE_ALGO_CONVEX only: the bodies' collision shape, a compound of convex hull pieces
	/// whose union is the mesh (see smpSceneWorld::setConvexPieces). Declared after its children,
	/// so it is destroyed first.
	std::vector<std::unique_ptr<btConvexHullShape>> convexPieces;
	std::unique_ptr<btCompoundShape> convexShape;
	/// SMP_SCENE_ALGO_EXACT only: the bodies' collision shape, a btSphereShape.
	std::unique_ptr<btCollisionShape> exactShape;
	pdMesh* pdiMeshHandle = nullptr; ///< for the penetration measurement, made on first use
	bool pdiMeshTried = false;
	double diagonal = 0.0;
	std::array<float, 3> color = { { 0.7f, 0.7f, 0.7f } };
};

struct smpSceneBody
{
	btRigidBody* body = nullptr;
	int shape = -1;
	bool isStatic = false;
	std::array<float, 3> color = { { 0.7f, 0.7f, 0.7f } };
};

struct smpSceneJoint
{
	btTypedConstraint* constraint = nullptr;
	int bodyA = -1;
	int bodyB = -1;
};

/// Axis-aligned region that holds the bodies; a dynamic body whose centre leaves it is lost.
struct smpSceneArea
{
	double minX = -3.0, maxX = 3.0, minZ = -3.0, maxZ = 3.0;
	double floorY = 0.0;
};

class smpSceneWorld : public smpScene
{
  public:
	explicit smpSceneWorld( const smpSceneConfig& config, const char* name );
	~smpSceneWorld() override;

	/// Creates the Bullet world with the configured algorithm. False with *error on failure.
	bool initWorld( std::string* error );
	/// Takes a mesh (closed solid for dynamic bodies, open one-sided surface for static ones).
	int addShape( std::vector<double> vertices, std::vector<uint32_t> indices, bool forStatic,
				  std::array<float, 3> color );
	/// Takes a Bullet shape of any kind (a primitive, a compound of primitives, a
	/// btStaticPlaneShape) for bodies, with the triangles that stand for it wherever the scenes
	/// need a mesh (the renderer, the bodies' sizes): a closed solid for a dynamic body, an open
	/// one-sided surface for the static environment. children are the shapes a compound refers
	/// to, kept alive with it. The bodies' inertia is the shape's own.
	int addCollisionShape( std::unique_ptr<btCollisionShape> shape, std::vector<double> vertices,
						   std::vector<uint32_t> indices, bool closed, std::array<float, 3> color,
						   std::vector<std::unique_ptr<btCollisionShape>> children = {} );
	/// A static btHeightfieldTerrainShape, y up: columns x rows heights (m, x fastest), spacing
	/// (m) between columns and rows, centred on x = z = 0; its height range is made symmetric about
	/// 0 so that a body at the identity puts every height at that world y. The shape keeps the
	/// heights; its mesh is Bullet's own triangles of the terrain, facing up. -1 when there are
	/// fewer than 2 x 2 heights, the count does not match, or a height or the spacing is not finite
	/// (or the spacing not positive).
	int addHeightfieldShape( std::vector<float> heights, int columns, int rows, double spacing,
							 std::array<float, 3> color );
	/// SMP_SCENE_ALGO_CONVEX: gives a dynamic shape its bodies' collision shape, a btCompoundShape of
	/// one btConvexHullShape per piece (each piece a list of the mesh's vertex indices, their hull
	/// shrunk by the margin so that hull + margin stays within the mesh). Call before addBody for
	/// the shape. margin > 0 replaces the configuration's for this shape (a part thinner than
	/// twice the scene's margin). False with *error if a piece is out of range or has no volume.
	bool setConvexPieces( int shape, const std::vector<std::vector<uint32_t>>& pieces, std::string* error,
						  double margin = 0.0 );
	/// SMP_SCENE_ALGO_EXACT: gives a dynamic shape its bodies' collision shape, a btSphereShape of
	/// the radius (> 0, finite; false with *error otherwise). Call before addBody for the shape.
	bool setExactSphere( int shape, double radius, std::string* error );
	/// The body's inertia is always the mesh shape's (GImpact's calculateLocalInertia), whatever
	/// collision shape the algorithm gives it, so the algorithms differ in their contacts only.
	int addBody( int shape, const btTransform& pose, double mass, const btVector3& velocity = btVector3( 0, 0, 0 ) );
	/// Adds a constraint between two bodies (collision between them disabled).
	void addJoint( btTypedConstraint* constraint, int bodyA, int bodyB );
	void setArea( const smpSceneArea& area ) { m_area = area; }
	/// The floor is the square |x|, |z| <= halfExtent (default: unbounded): the floor
	/// measurement reads only the vertices over it, so a body hanging over its edge reads none.
	void setFloorHalfExtent( double halfExtent ) { m_floorHalfExtent = halfExtent; }
	void setCamera( const btVector3& eye, const btVector3& target )
	{
		m_eye = eye;
		m_target = target;
	}
	btRigidBody* rigidBody( int body ) const { return m_bodies[body].body; }
	/// The Bullet collision shape of a scene shape (addShape, addCollisionShape, addHeightfieldShape).
	btCollisionShape* collisionShape( int shape ) const { return m_shapes[shape]->shape.get(); }
	btDiscreteDynamicsWorld* world() const { return m_world.get(); }

	bool step() override;
	int stepIndex() const override { return m_step; }
	int stepCount() const override { return m_stepCount; }
	int bodyCount() const override { return (int)m_bodies.size(); }
	bool bodyIsStatic( int body ) const override { return m_bodies[body].isStatic; }
	pdTransform bodyPose( int body ) const override;
	smpSceneMesh bodyMesh( int body ) const override;
	void bodyColor( int body, float outRgb[3] ) const override;
	const std::vector<smpSceneContact>& contacts() const override { return m_contacts; }
	smpSceneMetrics metrics() const override;
	uint64_t hash() const override;
	double measurePenetration() override;
	const smpSceneConfig& config() const override { return m_config; }
	void camera( double outEye[3], double outTarget[3] ) const override;
	const char* name() const override { return m_name; }

	/// Called before every step with the index of the step about to run (kinematic motion).
	void setBeforeStep( std::function<void( smpSceneWorld&, int )> hook ) { m_beforeStep = std::move( hook ); }
	/// Called after every step (before the periodic penetration sample) with the index of the
	/// step just taken: the scene's own measurements.
	void setAfterStep( std::function<void( smpSceneWorld&, int )> hook ) { m_afterStep = std::move( hook ); }
	/// The scene's own figures (smpScene::figures).
	void setFigures( std::function<std::vector<smpSceneFigure>()> figures ) { m_figures = std::move( figures ); }
	std::vector<smpSceneFigure> figures() const override
	{
		return m_figures ? m_figures() : std::vector<smpSceneFigure>();
	}
	/// Depth (m) of a world point into the static environment beyond the floor plane (an analytic
	/// bowl, say); the floor measurement takes the larger of the two. None by default.
	void setStaticDepth( std::function<double( const btVector3& )> depth ) { m_staticDepth = std::move( depth ); }
	/// Marks a static shape as a closed solid, so that the penetration measurement pairs it with
	/// the dynamic bodies (a static torus link, a kinematic body).
	void setShapeClosed( int shape ) { m_shapes[shape]->closed = true; }
	void setStepCount( int steps ) { m_stepCount = steps; }
	void setBodySize( double size ) { m_bodySize = size; }

  protected:
	bool isLost( int body ) const;
	void measureJoints();

	smpSceneConfig m_config;
	const char* m_name;
	int m_stepCount = 600;
	int m_step = 0;
	smpSceneArea m_area;
	double m_floorHalfExtent = INFINITY;
	btVector3 m_eye = btVector3( 8, 7, 10 );
	btVector3 m_target = btVector3( 0, 1, 0 );
	double m_bodySize = 1.0;

	std::unique_ptr<btDefaultCollisionConfiguration> m_collisionConfig;
	/// SMP_SCENE_ALGO_EXACT: the sphere-sphere contacts' create function, kept while the
	/// dispatcher that points to it lives.
	std::unique_ptr<btCollisionAlgorithmCreateFunc> m_exactSpheres;
	std::unique_ptr<btCollisionDispatcher> m_dispatcher;
	std::unique_ptr<btBroadphaseInterface> m_broadphase;
	std::unique_ptr<btSequentialImpulseConstraintSolver> m_solver;
	std::unique_ptr<btDiscreteDynamicsWorld> m_world;
	bool m_polydepthRegistered = false;

	std::vector<std::unique_ptr<smpSceneShape>> m_shapes;
	std::vector<smpSceneBody> m_bodies;
	std::vector<smpSceneJoint> m_joints;
	std::set<std::pair<int, int>> m_linked;

	std::vector<smpSceneContact> m_contacts;
	std::vector<double> m_stepMs;
	std::vector<int> m_stepContacts;
	double m_maxPenetration = 0.0;
	int m_maxPenetrationStep = -1;
	double m_lastPenetration = 0.0;
	int m_penetrationSamples = 0;
	int m_penetrationQueries = 0;
	int m_penetrationFailures = 0;
	double m_maxFloorPenetration = 0.0;
	double m_lastFloorPenetration = 0.0;
	double m_jitter = 0.0;
	double m_maxJointError = 0.0;
	double m_maxLimitViolation = 0.0;
	double m_maxJointAngleError = 0.0;
	bool m_finite = true;
	pdWorkspace* m_workspace = nullptr;
	std::function<void( smpSceneWorld&, int )> m_beforeStep;
	std::function<void( smpSceneWorld&, int )> m_afterStep;
	std::function<std::vector<smpSceneFigure>()> m_figures;
	std::function<double( const btVector3& )> m_staticDepth;
};

/// Shape helpers shared by the scenes.
void smpSceneNormalizeMesh( std::vector<double>* vertices, double diagonal );
/// A capsule along y: cylinder part of the given height, hemispherical caps (outward triangles).
void smpSceneMakeCapsule( double radius, double height, int segments, int rings, std::vector<double>* outVertices,
						 std::vector<uint32_t>* outIndices );
/// Appends an axis-aligned quad subdivided into cells x cells, facing +normal (one-sided).
/// corner + u * s + v * t for s, t in [0, 1]; the normal is u x v.
void smpSceneAppendQuad( const btVector3& corner, const btVector3& u, const btVector3& v, int cells,
						std::vector<double>* vertices, std::vector<uint32_t>* indices );

/// The convex peer's pieces of a torus from smpMakeTorus( R, r, major, minor ): one per major
/// segment (scene_debris.cpp). False with *error when the mesh does not have that layout.
bool smpTorusPieces( const std::vector<double>& v, const std::vector<uint32_t>& t, int major, int minor,
					std::vector<std::vector<uint32_t>>* pieces, std::string* error );

std::unique_ptr<smpScene> smpCreateDebrisScene( const smpSceneConfig& config, std::string* error );
std::unique_ptr<smpScene> smpCreateRagdollScene( const smpSceneConfig& config, std::string* error );
/// The mixed scene (SMP_SCENE_MIXED, scene_mixed.cpp); sleeping off whatever config.sleeping says.
std::unique_ptr<smpScene> smpCreateMixedScene( const smpSceneConfig& config, std::string* error );
