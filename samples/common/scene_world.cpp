// SPDX-License-Identifier: MIT
// The scenes' shared Bullet world and metrics (see scene.h).
#include "scene_world.h"

#include "polydepth/bullet.h"
#include "polydepth/bullet_parallel.h"
#include "polydepth/penetration.h"
#include "sphere_contact.h"

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <LinearMath/btConvexHullComputer.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>

btQuaternion smpSceneRandom::rotation()
{
	double u1 = uniform(), u2 = uniform(), u3 = uniform();
	double a = std::sqrt( 1.0 - u1 ), b = std::sqrt( u1 );
	double t1 = 2.0 * M_PI * u2, t2 = 2.0 * M_PI * u3;
	btQuaternion q( btScalar( a * std::sin( t1 ) ), btScalar( a * std::cos( t1 ) ), btScalar( b * std::sin( t2 ) ),
					btScalar( b * std::cos( t2 ) ) );
	return q.normalized();
}

namespace
{

// The command-line names of the scene kinds and algorithms.
template <typename Enum> struct NamedValue
{
	const char* name;
	Enum value;
};

constexpr NamedValue<smpSceneKind> kKindNames[] = {
	{ "debris", SMP_SCENE_DEBRIS },
	{ "tori", SMP_SCENE_TORI },
	{ "ragdoll", SMP_SCENE_RAGDOLL },
	{ "assembly", SMP_SCENE_ASSEMBLY },
	{ "mixed", SMP_SCENE_MIXED },
};

constexpr NamedValue<smpSceneAlgo> kAlgoNames[] = {
	{ "gimpact", SMP_SCENE_ALGO_GIMPACT },
	{ "polydepth", SMP_SCENE_ALGO_POLYDEPTH },
	{ "convex", SMP_SCENE_ALGO_CONVEX },
	{ "exact", SMP_SCENE_ALGO_EXACT },
};

// Sets *outValue to the value table names text (exact, case-sensitive); false, *outValue
// untouched, when text is null or no name matches.
template <typename Enum, size_t N>
bool parseName( const NamedValue<Enum> ( &table )[N], const char* text, Enum* outValue )
{
	if ( text == nullptr )
		return false;
	for ( const NamedValue<Enum>& entry : table )
	{
		if ( std::strcmp( text, entry.name ) == 0 )
		{
			*outValue = entry.value;
			return true;
		}
	}
	return false;
}

} // namespace

bool smpParseSceneKind( const char* text, smpSceneKind* outKind )
{
	return parseName( kKindNames, text, outKind );
}

bool smpParseSceneAlgo( const char* text, smpSceneAlgo* outAlgo )
{
	return parseName( kAlgoNames, text, outAlgo );
}

const char* smpSceneAlgoName( smpSceneAlgo algo )
{
	for ( const NamedValue<smpSceneAlgo>& entry : kAlgoNames )
	{
		if ( entry.value == algo )
			return entry.name;
	}
	return "gimpact";
}

std::unique_ptr<smpScene> smpScene::create( const smpSceneConfig& config, std::string* error )
{
	std::string local;
	std::string* err = error != nullptr ? error : &local;
	if ( config.timeStep <= 0.0 || !std::isfinite( config.timeStep ) )
	{
		*err = "time step must be positive";
		return nullptr;
	}
	if ( config.algo == SMP_SCENE_ALGO_EXACT )
	{
		*err = "the exact-sphere peer applies to the awake scene sphere-pour only";
		return nullptr;
	}
	if ( config.kind == SMP_SCENE_RAGDOLL )
	{
		if ( config.algo == SMP_SCENE_ALGO_CONVEX )
		{
			*err = "the convex algorithm has convex pieces for tori only, not for ragdolls";
			return nullptr;
		}
		return smpCreateRagdollScene( config, err );
	}
	if ( config.kind == SMP_SCENE_ASSEMBLY )
		return smpCreateAssemblyScene( config, err );
	if ( config.kind == SMP_SCENE_MIXED )
		return smpCreateMixedScene( config, err );
	return smpCreateDebrisScene( config, err );
}

void smpSceneNormalizeMesh( std::vector<double>* vertices, double diagonal )
{
	std::vector<double>& v = *vertices;
	if ( v.size() < 3 )
		return;
	double lo[3] = { v[0], v[1], v[2] }, hi[3] = { v[0], v[1], v[2] };
	for ( size_t i = 0; i + 2 < v.size(); i += 3 )
		for ( int k = 0; k < 3; ++k )
		{
			lo[k] = std::min( lo[k], v[i + k] );
			hi[k] = std::max( hi[k], v[i + k] );
		}
	double d = std::sqrt( ( hi[0] - lo[0] ) * ( hi[0] - lo[0] ) + ( hi[1] - lo[1] ) * ( hi[1] - lo[1] ) +
						  ( hi[2] - lo[2] ) * ( hi[2] - lo[2] ) );
	double s = d > 0.0 ? diagonal / d : 1.0;
	for ( size_t i = 0; i + 2 < v.size(); i += 3 )
		for ( int k = 0; k < 3; ++k )
			v[i + k] = ( v[i + k] - 0.5 * ( lo[k] + hi[k] ) ) * s;
}

void smpSceneMakeCapsule( double radius, double height, int segments, int rings, std::vector<double>* outVertices,
						 std::vector<uint32_t>* outIndices )
{
	std::vector<double>& v = *outVertices;
	std::vector<uint32_t>& t = *outIndices;
	v.clear();
	t.clear();
	// Latitude rings from the top pole to the bottom pole; rings per cap, two equators.
	std::vector<std::pair<double, double>> lat; // (y, ring radius)
	for ( int k = 1; k <= rings; ++k )
	{
		double phi = 0.5 * M_PI * ( 1.0 - (double)k / rings );
		lat.push_back( { 0.5 * height + radius * std::sin( phi ), radius * std::cos( phi ) } );
	}
	for ( int k = 0; k < rings; ++k )
	{
		double phi = 0.5 * M_PI * (double)k / rings;
		lat.push_back( { -0.5 * height - radius * std::sin( phi ), radius * std::cos( phi ) } );
	}
	v.insert( v.end(), { 0.0, 0.5 * height + radius, 0.0 } );
	for ( const auto& ring : lat )
		for ( int s = 0; s < segments; ++s )
		{
			double a = 2.0 * M_PI * s / segments;
			v.insert( v.end(), { ring.second * std::cos( a ), ring.first, -ring.second * std::sin( a ) } );
		}
	uint32_t bottom = (uint32_t)( v.size() / 3 );
	v.insert( v.end(), { 0.0, -0.5 * height - radius, 0.0 } );
	uint32_t n = (uint32_t)segments;
	// Angle grows counter-clockwise seen from +y, so (ring i, s), (ring i+1, s), (ring i+1, s+1) faces out.
	for ( uint32_t s = 0; s < n; ++s )
		t.insert( t.end(), { 0u, 1 + s, 1 + ( s + 1 ) % n } );
	for ( uint32_t r = 0; r + 1 < lat.size(); ++r )
		for ( uint32_t s = 0; s < n; ++s )
		{
			uint32_t a = 1 + r * n + s, b = 1 + r * n + ( s + 1 ) % n;
			uint32_t c = a + n, d = b + n;
			t.insert( t.end(), { a, c, d, a, d, b } );
		}
	uint32_t last = 1 + (uint32_t)( lat.size() - 1 ) * n;
	for ( uint32_t s = 0; s < n; ++s )
		t.insert( t.end(), { bottom, last + ( s + 1 ) % n, last + s } );
}

void smpSceneAppendQuad( const btVector3& corner, const btVector3& u, const btVector3& v, int cells,
						std::vector<double>* vertices, std::vector<uint32_t>* indices )
{
	uint32_t base = (uint32_t)( vertices->size() / 3 );
	int n = std::max( 1, cells );
	for ( int j = 0; j <= n; ++j )
		for ( int i = 0; i <= n; ++i )
		{
			btVector3 p = corner + u * btScalar( (double)i / n ) + v * btScalar( (double)j / n );
			vertices->insert( vertices->end(), { (double)p.x(), (double)p.y(), (double)p.z() } );
		}
	uint32_t row = (uint32_t)n + 1;
	for ( int j = 0; j < n; ++j )
		for ( int i = 0; i < n; ++i )
		{
			uint32_t a = base + (uint32_t)j * row + (uint32_t)i;
			indices->insert( indices->end(), { a, a + 1, a + row + 1, a, a + row + 1, a + row } );
		}
}

smpSceneWorld::smpSceneWorld( const smpSceneConfig& config, const char* name ) : m_config( config ), m_name( name ) {}

smpSceneWorld::~smpSceneWorld()
{
	if ( m_world )
	{
		for ( smpSceneJoint& joint : m_joints )
		{
			m_world->removeConstraint( joint.constraint );
			delete joint.constraint;
		}
		for ( smpSceneBody& body : m_bodies )
		{
			m_world->removeRigidBody( body.body );
			delete body.body;
		}
	}
	m_world.reset();
	m_solver.reset();
	m_broadphase.reset();
	if ( m_polydepthRegistered && m_dispatcher )
		polydepth::bullet::unregisterAlgorithm( m_dispatcher.get() );
	m_dispatcher.reset();
	m_exactSpheres.reset();
	m_collisionConfig.reset();
	for ( auto& shape : m_shapes )
	{
		shape->convexShape.reset();
		shape->convexPieces.clear();
		shape->shape.reset();
		shape->meshInterface.reset();
		pdDestroyMesh( shape->pdiMeshHandle );
	}
	if ( m_workspace != nullptr )
		pdDestroyWorkspace( m_workspace );
}

bool smpSceneWorld::initWorld( std::string* error )
{
	m_collisionConfig.reset( new btDefaultCollisionConfiguration() );
	if ( m_config.collisionThreads > 0 )
		m_dispatcher.reset(
			new polydepth::bullet::ParallelCollisionDispatcher( m_collisionConfig.get(), m_config.collisionThreads ) );
	else
		m_dispatcher.reset( new btCollisionDispatcher( m_collisionConfig.get() ) );
	btGImpactCollisionAlgorithm::registerAlgorithm( m_dispatcher.get() );
	// 0.1 m covers what any pair of the pour closes in a step (6 m/s at 60 Hz) and the 5 cm
	// between the column's layers.
	if ( m_config.algo == SMP_SCENE_ALGO_EXACT )
		m_exactSpheres = smpRegisterExactSpheres( m_dispatcher.get(), 0.1 );
	if ( m_config.algo == SMP_SCENE_ALGO_POLYDEPTH )
	{
		// Later registrations win, so this overrides GImpact for the concave mesh pairs only.
		pdBulletDef def = pdDefaultBulletDef();
		if ( m_config.relativeSkin >= 0.0 )
			def.relativeSkin = m_config.relativeSkin;
		pdStatus status = polydepth::bullet::registerAlgorithm( m_dispatcher.get(), &def );
		if ( status != PD_STATUS_OK )
		{
			*error = std::string( "polydepth::bullet::registerAlgorithm failed: " ) + pdGetStatusString( status );
			return false;
		}
		m_polydepthRegistered = true;
	}
	m_broadphase.reset( new btDbvtBroadphase() );
	m_solver.reset( new btSequentialImpulseConstraintSolver() );
	m_world.reset( new btDiscreteDynamicsWorld( m_dispatcher.get(), m_broadphase.get(), m_solver.get(),
												m_collisionConfig.get() ) );
	m_world->setGravity( btVector3( 0, btScalar( -9.81 ), 0 ) );
	if ( m_config.solverIterations > 0 )
		m_world->getSolverInfo().m_numIterations = m_config.solverIterations;
	return true;
}

int smpSceneWorld::addShape( std::vector<double> vertices, std::vector<uint32_t> indices, bool forStatic,
							std::array<float, 3> color )
{
	std::unique_ptr<smpSceneShape> s( new smpSceneShape() );
	s->vertices = std::move( vertices );
	s->indices = std::move( indices );
	s->closed = !forStatic;
	s->color = color;
	s->btVertices.assign( s->vertices.begin(), s->vertices.end() );
	s->btIndices.assign( s->indices.begin(), s->indices.end() );
	int triangleCount = (int)( s->indices.size() / 3 );
	int vertexCount = (int)( s->vertices.size() / 3 );
	s->meshInterface.reset( new btTriangleIndexVertexArray( triangleCount, s->btIndices.data(), 3 * (int)sizeof( int ),
															vertexCount, s->btVertices.data(),
															3 * (int)sizeof( btScalar ) ) );
	if ( forStatic )
	{
		s->shape.reset( new btBvhTriangleMeshShape( s->meshInterface.get(), true ) );
	}
	else
	{
		btGImpactMeshShape* gimpact = new btGImpactMeshShape( s->meshInterface.get() );
		if ( m_config.margin > 0.0 )
			gimpact->setMargin( btScalar( m_config.margin ) );
		gimpact->updateBound();
		s->shape.reset( gimpact );
	}
	btVector3 lo, hi;
	btTransform identity;
	identity.setIdentity();
	s->shape->getAabb( identity, lo, hi );
	s->diagonal = (double)( hi - lo ).length();
	m_shapes.push_back( std::move( s ) );
	return (int)m_shapes.size() - 1;
}

int smpSceneWorld::addCollisionShape( std::unique_ptr<btCollisionShape> shape, std::vector<double> vertices,
									  std::vector<uint32_t> indices, bool closed, std::array<float, 3> color,
									  std::vector<std::unique_ptr<btCollisionShape>> children )
{
	std::unique_ptr<smpSceneShape> s( new smpSceneShape() );
	s->vertices = std::move( vertices );
	s->indices = std::move( indices );
	s->closed = closed;
	s->color = color;
	s->children = std::move( children );
	s->shape = std::move( shape );
	// The size of what is drawn: a plane's Bullet bounds are unbounded.
	double lo[3] = { 0.0, 0.0, 0.0 }, hi[3] = { 0.0, 0.0, 0.0 };
	for ( size_t i = 0; i + 2 < s->vertices.size(); i += 3 )
		for ( int k = 0; k < 3; ++k )
		{
			lo[k] = i == 0 ? s->vertices[k] : std::min( lo[k], s->vertices[i + k] );
			hi[k] = i == 0 ? s->vertices[k] : std::max( hi[k], s->vertices[i + k] );
		}
	s->diagonal = std::sqrt( ( hi[0] - lo[0] ) * ( hi[0] - lo[0] ) + ( hi[1] - lo[1] ) * ( hi[1] - lo[1] ) +
							 ( hi[2] - lo[2] ) * ( hi[2] - lo[2] ) );
	m_shapes.push_back( std::move( s ) );
	return (int)m_shapes.size() - 1;
}

namespace
{

/// Collects the triangles a concave shape hands out (a heightfield's, in its own frame).
struct smpTriangleCollector : public btTriangleCallback
{
	std::vector<btVector3> corners;
	void processTriangle( btVector3* triangle, int, int ) override
	{
		corners.insert( corners.end(), { triangle[0], triangle[1], triangle[2] } );
	}
};

} // namespace

int smpSceneWorld::addHeightfieldShape( std::vector<float> heights, int columns, int rows, double spacing,
										std::array<float, 3> color )
{
	if ( columns < 2 || rows < 2 || (size_t)columns * (size_t)rows != heights.size() || !std::isfinite( spacing ) ||
		 spacing <= 0.0 )
		return -1;
	double extent = 0.0;
	for ( float h : heights )
	{
		if ( !std::isfinite( h ) )
			return -1;
		extent = std::max( extent, std::fabs( (double)h ) );
	}
	std::unique_ptr<smpSceneShape> s( new smpSceneShape() );
	s->heights = std::move( heights );
	s->closed = false;
	s->color = color;
	// Bullet centres the terrain on its height range: a range symmetric about 0 keeps the heights
	// where they are.
	const btScalar top = btScalar( extent + 1e-3 );
	btHeightfieldTerrainShape* terrain =
		new btHeightfieldTerrainShape( columns, rows, s->heights.data(), -top, top, 1, false );
	terrain->setLocalScaling( btVector3( btScalar( spacing ), 1, btScalar( spacing ) ) );
	s->shape.reset( terrain );
	smpTriangleCollector collector;
	btVector3 lo, hi;
	btTransform identity;
	identity.setIdentity();
	terrain->getAabb( identity, lo, hi );
	terrain->processAllTriangles( &collector, lo - btVector3( 1, 1, 1 ), hi + btVector3( 1, 1, 1 ) );
	// One vertex per grid point (the corners are grid points), triangles facing up.
	std::map<std::pair<long, long>, uint32_t> vertexAt;
	for ( size_t t = 0; t + 2 < collector.corners.size(); t += 3 )
	{
		uint32_t index[3];
		for ( int k = 0; k < 3; ++k )
		{
			const btVector3& p = collector.corners[t + k];
			std::pair<long, long> key( std::lround( (double)p.x() / spacing ), std::lround( (double)p.z() / spacing ) );
			auto found = vertexAt.find( key );
			if ( found == vertexAt.end() )
			{
				found = vertexAt.emplace( key, (uint32_t)( s->vertices.size() / 3 ) ).first;
				s->vertices.insert( s->vertices.end(), { (double)p.x(), (double)p.y(), (double)p.z() } );
			}
			index[k] = found->second;
		}
		const btVector3* corner = &collector.corners[t];
		btVector3 n = ( corner[1] - corner[0] ).cross( corner[2] - corner[0] );
		if ( n.y() < 0 )
			std::swap( index[1], index[2] );
		s->indices.insert( s->indices.end(), { index[0], index[1], index[2] } );
	}
	s->diagonal = (double)( hi - lo ).length();
	m_shapes.push_back( std::move( s ) );
	return (int)m_shapes.size() - 1;
}

bool smpSceneWorld::setConvexPieces( int shape, const std::vector<std::vector<uint32_t>>& pieces, std::string* error,
									 double shapeMargin )
{
	smpSceneShape& s = *m_shapes[shape];
	// Bullet's usual treatment of a convex piece with a margin (the convex decomposition demos):
	// shrink the hull by the margin, then let the margin round it out again. Every face of the
	// rounded piece lies on its face of the mesh's hull (to 0.04 mm, single precision); edges and corners are rounded inward by
	// at most margin * (1 / cos(a / 2) - 1) for a dihedral turn a: 0.2 mm on the torus's 16-sided
	// tube (a = 22.5 degrees), but up to the margin itself where a piece's end cap meets the tube
	// (a = 90 degrees): the compound has a groove about margin deep and 2 margin wide at each of
	// the torus's 48 seams. A surface of curvature radius R >= 0.15 m dips into it by at most
	// margin^2 / 2R (0.3 mm at 0.01 m), and a mesh seam ridge stands up to margin * tan(3.75
	// degrees), 0.65 mm, proud of the plane on the groove's shoulders (the bend between
	// segments). So where another body can touch it the compound is the mesh to about a
	// millimetre, and it is never outside the mesh.
	const double margin = shapeMargin > 0.0 ? shapeMargin : ( m_config.margin > 0.0 ? m_config.margin : 0.01 );
	const int vertexCount = (int)( s.vertices.size() / 3 );
	btTransform identity;
	identity.setIdentity();
	std::unique_ptr<btCompoundShape> compound( new btCompoundShape( true, (int)pieces.size() ) );
	std::vector<std::unique_ptr<btConvexHullShape>> hulls;
	for ( size_t p = 0; p < pieces.size(); ++p )
	{
		std::vector<double> points;
		for ( uint32_t v : pieces[p] )
		{
			if ( (int)v >= vertexCount )
			{
				*error = "convex piece " + std::to_string( p ) + " names vertex " + std::to_string( v ) + " of " +
						 std::to_string( vertexCount );
				return false;
			}
			points.insert( points.end(), { s.vertices[3 * v], s.vertices[3 * v + 1], s.vertices[3 * v + 2] } );
		}
		btConvexHullComputer computer;
		// shrinkClamp 0.4 of the inner radius (the piece's centre to its nearest face): the
		// torus's segments are 33 mm from centre to end cap, so up to 13 mm shrinks unclamped.
		btScalar shrunk = computer.compute( points.data(), 3 * (int)sizeof( double ), (int)pieces[p].size(),
											btScalar( margin ), btScalar( 0.4 ) );
		if ( computer.vertices.size() < 4 || !( shrunk > btScalar( 0.999 * margin ) ) )
		{
			*error = "convex piece " + std::to_string( p ) + " is too thin for the margin " + std::to_string( margin ) +
					 " m (shrunk by " + std::to_string( (double)shrunk ) + " m)";
			return false;
		}
		// The computer's output is the hull's vertices and no others, so optimizeConvexHull (what
		// Bullet's URDF importer calls on raw mesh points) has nothing to remove.
		// initializePolyhedralFeatures (SAT and face clipping) is opt-in in Bullet's importers
		// (CUF_INITIALIZE_SAT_FEATURES); left off: the default GJK/EPA with persistent manifolds.
		std::unique_ptr<btConvexHullShape> hull( new btConvexHullShape(
			&computer.vertices[0].getX(), computer.vertices.size(), (int)sizeof( btVector3 ) ) );
		hull->setMargin( btScalar( margin ) );
		hull->recalcLocalAabb();
		compound->addChildShape( identity, hull.get() );
		hulls.push_back( std::move( hull ) );
	}
	if ( hulls.empty() )
	{
		*error = "no convex pieces";
		return false;
	}
	s.convexShape = std::move( compound );
	s.convexPieces = std::move( hulls );
	return true;
}

bool smpSceneWorld::setExactSphere( int shape, double radius, std::string* error )
{
	if ( !( radius > 0.0 ) || !std::isfinite( radius ) )
	{
		*error = "exact sphere of shape " + std::to_string( shape ) + ": radius " + std::to_string( radius ) +
				 " is not positive and finite";
		return false;
	}
	m_shapes[shape]->exactShape.reset( new btSphereShape( btScalar( radius ) ) );
	return true;
}

int smpSceneWorld::addBody( int shape, const btTransform& pose, double mass, const btVector3& velocity )
{
	smpSceneShape& s = *m_shapes[shape];
	btVector3 inertia( 0, 0, 0 );
	if ( mass > 0.0 )
		s.shape->calculateLocalInertia( btScalar( mass ), inertia );
	btCollisionShape* collisionShape = s.shape.get();
	if ( s.convexShape )
		collisionShape = s.convexShape.get();
	else if ( s.exactShape )
		collisionShape = s.exactShape.get();
	btRigidBody::btRigidBodyConstructionInfo info( btScalar( mass ), nullptr, collisionShape, inertia );
	info.m_startWorldTransform = pose;
	btRigidBody* body = new btRigidBody( info );
	if ( mass > 0.0 )
	{
		body->setLinearVelocity( velocity );
		if ( !m_config.sleeping )
			body->setActivationState( DISABLE_DEACTIVATION );
	}
	m_world->addRigidBody( body );
	smpSceneBody b;
	b.body = body;
	b.shape = shape;
	b.isStatic = mass <= 0.0;
	b.color = s.color;
	m_bodies.push_back( b );
	return (int)m_bodies.size() - 1;
}

void smpSceneWorld::addJoint( btTypedConstraint* constraint, int bodyA, int bodyB )
{
	m_world->addConstraint( constraint, true );
	m_joints.push_back( { constraint, bodyA, bodyB } );
	m_linked.insert( { std::min( bodyA, bodyB ), std::max( bodyA, bodyB ) } );
}

pdTransform smpSceneWorld::bodyPose( int body ) const
{
	const btTransform& t = m_bodies[body].body->getWorldTransform();
	btQuaternion q = t.getRotation();
	pdTransform pose;
	pose.q = { (double)q.w(), (double)q.x(), (double)q.y(), (double)q.z() };
	pose.p = { (double)t.getOrigin().x(), (double)t.getOrigin().y(), (double)t.getOrigin().z() };
	return pose;
}

smpSceneMesh smpSceneWorld::bodyMesh( int body ) const
{
	const smpSceneShape& s = *m_shapes[m_bodies[body].shape];
	smpSceneMesh m;
	m.vertices = s.vertices.data();
	m.vertexCount = (int)( s.vertices.size() / 3 );
	m.indices = s.indices.data();
	m.triangleCount = (int)( s.indices.size() / 3 );
	m.closed = s.closed;
	return m;
}

void smpSceneWorld::bodyColor( int body, float outRgb[3] ) const
{
	for ( int k = 0; k < 3; ++k )
		outRgb[k] = m_bodies[body].color[k];
}

void smpSceneWorld::camera( double outEye[3], double outTarget[3] ) const
{
	for ( int k = 0; k < 3; ++k )
	{
		outEye[k] = (double)m_eye[k];
		outTarget[k] = (double)m_target[k];
	}
}

bool smpSceneWorld::isLost( int body ) const
{
	const btVector3& p = m_bodies[body].body->getWorldTransform().getOrigin();
	return !( p.y() >= m_area.floorY && p.x() >= m_area.minX && p.x() <= m_area.maxX && p.z() >= m_area.minZ &&
			  p.z() <= m_area.maxZ );
}

static bool smpIsFiniteVector( const btVector3& v )
{
	return std::isfinite( v.x() ) && std::isfinite( v.y() ) && std::isfinite( v.z() );
}

bool smpSceneWorld::step()
{
	if ( m_step >= m_stepCount )
		return false;
	btScalar dt = btScalar( m_config.timeStep );
	int substeps = std::max( 1, m_config.substeps );
	bool recordingCalls = !m_config.recordCallsPath.empty() && m_config.algo == SMP_SCENE_ALGO_POLYDEPTH;
	if ( recordingCalls && m_step == m_config.recordFrom &&
		 polydepth::bullet::startRecording( m_dispatcher.get(), m_config.recordCallsPath.c_str() ) != PD_STATUS_OK )
	{
		std::fprintf( stderr, "polydepth-sample: cannot record to %s\n", m_config.recordCallsPath.c_str() );
	}
	if ( m_beforeStep )
		m_beforeStep( *this, m_step );
	auto start = std::chrono::steady_clock::now();
	m_world->stepSimulation( dt, substeps, dt / btScalar( substeps ) );
	auto stop = std::chrono::steady_clock::now();
	m_stepMs.push_back( std::chrono::duration<double, std::milli>( stop - start ).count() );
	++m_step;
	if ( recordingCalls && m_config.recordSteps > 0 && m_step == m_config.recordFrom + m_config.recordSteps )
	{
		polydepth::bullet::stopRecording( m_dispatcher.get(), nullptr ); // (unregistration ends it otherwise)
	}

	int points = 0;
	if ( m_config.recordContacts )
		m_contacts.clear();
	int manifolds = m_dispatcher->getNumManifolds();
	for ( int i = 0; i < manifolds; ++i )
	{
		btPersistentManifold* manifold = m_dispatcher->getManifoldByIndexInternal( i );
		int n = manifold->getNumContacts();
		points += n;
		if ( !m_config.recordContacts )
			continue;
		for ( int k = 0; k < n; ++k )
		{
			const btManifoldPoint& mp = manifold->getContactPoint( k );
			smpSceneContact c;
			for ( int a = 0; a < 3; ++a )
			{
				c.point[a] = (double)mp.getPositionWorldOnB()[a];
				c.normal[a] = (double)mp.m_normalWorldOnB[a];
			}
			c.distance = (double)mp.getDistance();
			m_contacts.push_back( c );
		}
	}
	m_stepContacts.push_back( points );

	// Resting jitter: the last second of the run, bodies still in the area.
	int lastSecond = (int)std::ceil( 1.0 / m_config.timeStep );
	for ( size_t i = 0; i < m_bodies.size(); ++i )
	{
		const smpSceneBody& b = m_bodies[i];
		if ( b.isStatic )
			continue;
		const btTransform& t = b.body->getWorldTransform();
		if ( !smpIsFiniteVector( t.getOrigin() ) || !smpIsFiniteVector( b.body->getLinearVelocity() ) ||
			 !smpIsFiniteVector( b.body->getAngularVelocity() ) || !smpIsFiniteVector( t.getBasis()[0] ) ||
			 !smpIsFiniteVector( t.getBasis()[1] ) || !smpIsFiniteVector( t.getBasis()[2] ) )
			m_finite = false;
		if ( m_step > m_stepCount - lastSecond && !isLost( (int)i ) )
			m_jitter = std::max( m_jitter, (double)b.body->getLinearVelocity().length() );
	}
	measureJoints();
	if ( m_afterStep )
		m_afterStep( *this, m_step - 1 );
	if ( m_config.penetrationEvery > 0 && ( m_step % m_config.penetrationEvery == 0 || m_step == m_stepCount ) )
		measurePenetration();
	return m_step < m_stepCount;
}

void smpSceneWorld::measureJoints()
{
	for ( const smpSceneJoint& joint : m_joints )
	{
		btTransform frameA, frameB;
		double limitViolation = 0.0;
		btTypedConstraint* c = joint.constraint;
		const btTransform& ta = c->getRigidBodyA().getCenterOfMassTransform();
		const btTransform& tb = c->getRigidBodyB().getCenterOfMassTransform();
		if ( c->getConstraintType() == HINGE_CONSTRAINT_TYPE )
		{
			btHingeConstraint* h = static_cast<btHingeConstraint*>( c );
			frameA = ta * h->getAFrame();
			frameB = tb * h->getBFrame();
			double angle = (double)h->getHingeAngle();
			double lo = (double)h->getLowerLimit(), hi = (double)h->getUpperLimit();
			limitViolation = std::max( { 0.0, lo - angle, angle - hi } );
			// Hinge axes (frame z) should stay parallel: the misalignment is an angular joint error.
			double axisDot = (double)frameA.getBasis().getColumn( 2 ).dot( frameB.getBasis().getColumn( 2 ) );
			m_maxJointAngleError =
				std::max( m_maxJointAngleError, std::acos( std::min( 1.0, std::max( -1.0, axisDot ) ) ) );
		}
		else if ( c->getConstraintType() == CONETWIST_CONSTRAINT_TYPE )
		{
			btConeTwistConstraint* ct = static_cast<btConeTwistConstraint*>( c );
			frameA = ta * ct->getAFrame();
			frameB = tb * ct->getBFrame();
			// Swing: angle between the twist axes (frame x), limited by the cone. Twist about that
			// axis is an angular joint error: Bullet holds a zero twist span only softly.
			btVector3 xa = frameA.getBasis().getColumn( 0 ), xb = frameB.getBasis().getColumn( 0 );
			double swing = std::acos( std::min( 1.0, std::max( -1.0, (double)xa.dot( xb ) ) ) );
			double swingLimit = std::max( (double)ct->getSwingSpan1(), (double)ct->getSwingSpan2() );
			btQuaternion rel = frameA.getRotation().inverse() * frameB.getRotation();
			double twist = std::fabs( 2.0 * std::atan2( (double)rel.x(), (double)rel.w() ) );
			if ( twist > M_PI )
				twist = 2.0 * M_PI - twist;
			limitViolation = std::max( 0.0, swing - swingLimit );
			m_maxJointAngleError =
				std::max( m_maxJointAngleError, std::max( 0.0, twist - (double)ct->getTwistSpan() ) );
		}
		else
		{
			continue;
		}
		double error = (double)( frameA.getOrigin() - frameB.getOrigin() ).length();
		if ( std::isfinite( error ) )
			m_maxJointError = std::max( m_maxJointError, error );
		else
			m_finite = false;
		if ( std::isfinite( limitViolation ) )
			m_maxLimitViolation = std::max( m_maxLimitViolation, limitViolation );
	}
}

static pdTransform smpToTransform( const btTransform& t )
{
	btQuaternion q = t.getRotation();
	pdTransform pose;
	pose.q = { (double)q.w(), (double)q.x(), (double)q.y(), (double)q.z() };
	pose.p = { (double)t.getOrigin().x(), (double)t.getOrigin().y(), (double)t.getOrigin().z() };
	return pose;
}

double smpSceneWorld::measurePenetration()
{
	if ( m_workspace == nullptr )
		m_workspace = pdCreateWorkspace( NULL );
	pdPenetrationDef def = pdDefaultPenetrationDef();
	double deepest = 0.0;
	double deepestBelowFloor = 0.0;
	std::vector<int> live;
	for ( size_t i = 0; i < m_bodies.size(); ++i )
		if ( !m_bodies[i].isStatic && !isLost( (int)i ) )
			live.push_back( (int)i );

	for ( int i : live )
	{
		// Floor: the deepest vertex below y = 0 over the floor (the floor is part of every
		// environment; a vertex hanging past its edge is no contact), or into the static
		// environment's analytic shape when the scene gives one.
		const smpSceneShape& s = *m_shapes[m_bodies[i].shape];
		const btTransform& t = m_bodies[i].body->getWorldTransform();
		double minY = 0.0;
		for ( size_t k = 0; k + 2 < s.vertices.size(); k += 3 )
		{
			btVector3 p = t * btVector3( btScalar( s.vertices[k] ), btScalar( s.vertices[k + 1] ),
										 btScalar( s.vertices[k + 2] ) );
			if ( std::fabs( (double)p.x() ) <= m_floorHalfExtent && std::fabs( (double)p.z() ) <= m_floorHalfExtent )
				minY = std::min( minY, (double)p.y() - m_area.floorY );
			if ( m_staticDepth )
				minY = std::min( minY, -m_staticDepth( p ) );
		}
		deepestBelowFloor = std::max( deepestBelowFloor, -minY );
	}
	m_lastFloorPenetration = deepestBelowFloor;
	m_maxFloorPenetration = std::max( m_maxFloorPenetration, deepestBelowFloor );

	// Closed static solids (a static link, a kinematic body) are paired with the dynamic bodies.
	size_t dynamicCount = live.size();
	for ( size_t i = 0; i < m_bodies.size(); ++i )
		if ( m_bodies[i].isStatic && m_shapes[m_bodies[i].shape]->closed )
			live.push_back( (int)i );
	for ( size_t a = 0; a < dynamicCount; ++a )
	{
		for ( size_t b = a + 1; b < live.size(); ++b )
		{
			int i = live[a], j = live[b];
			if ( m_linked.count( { std::min( i, j ), std::max( i, j ) } ) != 0 )
				continue;
			btVector3 loA, hiA, loB, hiB;
			m_bodies[i].body->getAabb( loA, hiA );
			m_bodies[j].body->getAabb( loB, hiB );
			if ( loA.x() > hiB.x() || loB.x() > hiA.x() || loA.y() > hiB.y() || loB.y() > hiA.y() ||
				 loA.z() > hiB.z() || loB.z() > hiA.z() )
				continue;
			smpSceneShape* sa = m_shapes[m_bodies[i].shape].get();
			smpSceneShape* sb = m_shapes[m_bodies[j].shape].get();
			for ( smpSceneShape* s : { sa, sb } )
			{
				if ( !s->pdiMeshTried )
				{
					s->pdiMeshTried = true;
					pdMeshDef md = pdDefaultMeshDef();
					md.vertices = s->vertices.data();
					md.vertexCount = (int)( s->vertices.size() / 3 );
					md.vertexType = PD_SCALAR_FLOAT64;
					md.indices = s->indices.data();
					md.triangleCount = (int)( s->indices.size() / 3 );
					md.indexType = PD_INDEX_UINT32;
					s->pdiMeshHandle = pdCreateMesh( &md, nullptr );
				}
			}
			++m_penetrationQueries;
			if ( sa->pdiMeshHandle == nullptr || sb->pdiMeshHandle == nullptr )
			{
				++m_penetrationFailures;
				continue;
			}
			pdTransform pa = smpToTransform( m_bodies[i].body->getWorldTransform() );
			pdTransform pb = smpToTransform( m_bodies[j].body->getWorldTransform() );
			pdPenetrationResult result;
			pdStatus status = pdComputePenetration( sa->pdiMeshHandle, &pa, sb->pdiMeshHandle, &pb, &def, nullptr,
													m_workspace, &result );
			if ( status < 0 )
			{
				++m_penetrationFailures;
				continue;
			}
			if ( result.state == PD_STATE_PENETRATING && std::isfinite( result.depth ) )
				deepest = std::max( deepest, result.depth );
		}
	}
	++m_penetrationSamples;
	m_lastPenetration = deepest;
	if ( deepest > m_maxPenetration || m_maxPenetrationStep < 0 )
	{
		m_maxPenetration = std::max( m_maxPenetration, deepest );
		m_maxPenetrationStep = m_step;
	}
	return deepest;
}

uint64_t smpSceneWorld::hash() const
{
	uint64_t h = 0xCBF29CE484222325ull;
	auto mix = [&h]( const void* data, size_t size )
	{
		const unsigned char* p = static_cast<const unsigned char*>( data );
		for ( size_t i = 0; i < size; ++i )
		{
			h ^= p[i];
			h *= 0x100000001B3ull;
		}
	};
	for ( const smpSceneBody& b : m_bodies )
	{
		if ( b.isStatic )
			continue;
		const btTransform& t = b.body->getWorldTransform();
		btScalar values[18];
		for ( int r = 0; r < 3; ++r )
			for ( int c = 0; c < 3; ++c )
				values[3 * r + c] = t.getBasis()[r][c];
		for ( int k = 0; k < 3; ++k )
		{
			values[9 + k] = t.getOrigin()[k];
			values[12 + k] = b.body->getLinearVelocity()[k];
			values[15 + k] = b.body->getAngularVelocity()[k];
		}
		mix( values, sizeof( values ) );
	}
	return h;
}

smpSceneMetrics smpSceneWorld::metrics() const
{
	smpSceneMetrics m;
	m.steps = m_step;
	m.simulatedSeconds = m_step * m_config.timeStep;
	if ( !m_stepMs.empty() )
	{
		std::vector<double> sorted = m_stepMs;
		std::sort( sorted.begin(), sorted.end() );
		m.medianStepMs = sorted[sorted.size() / 2];
		m.p95StepMs = sorted[std::min( sorted.size() - 1, (size_t)( 0.95 * (double)sorted.size() ) )];
		double sum = 0.0;
		for ( double v : sorted )
			sum += v;
		m.meanStepMs = sum / (double)sorted.size();
		double contacts = 0.0;
		for ( int c : m_stepContacts )
		{
			contacts += c;
			m.maxContacts = std::max( m.maxContacts, c );
		}
		m.meanContacts = contacts / (double)m_stepContacts.size();
	}
	for ( size_t i = 0; i < m_bodies.size(); ++i )
	{
		if ( m_bodies[i].isStatic )
			continue;
		++m.dynamicBodies;
		if ( isLost( (int)i ) )
			++m.lost;
		if ( m_bodies[i].body->getActivationState() == ISLAND_SLEEPING )
			++m.asleep;
	}
	m.maxPenetration = m_maxPenetration;
	m.maxPenetrationStep = m_maxPenetrationStep;
	m.finalPenetration = m_lastPenetration;
	m.penetrationSamples = m_penetrationSamples;
	m.penetrationQueries = m_penetrationQueries;
	m.penetrationFailures = m_penetrationFailures;
	m.maxFloorPenetration = m_maxFloorPenetration;
	m.lastFloorPenetration = m_lastFloorPenetration;
	m.jitter = m_jitter;
	m.joints = (int)m_joints.size();
	m.maxJointError = m_maxJointError;
	m.maxLimitViolation = m_maxLimitViolation;
	m.maxJointAngleError = m_maxJointAngleError;
	m.finite = m_finite;
	m.hash = hash();
	m.bodySize = m_bodySize;
	return m;
}
