// SPDX-License-Identifier: MIT
// The mixed scene (samples/common/scene_mixed.cpp) and the world hooks it is built with: every
// shape class it promises, its figures by pair class, a short episode that keeps every body and
// meets every pair class, and the heightfield and collision-shape hooks of smpSceneWorld.
#include "scene.h"
#include "scene_world.h"

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>

namespace
{

const char* const kRegistrationFailed = "polydepth::bullet::registerAlgorithm failed";
const char* const kClasses[] = { "primitive_mesh", "primitive_bowl", "mesh_terrain", "mesh_plane", "mesh_mesh" };
/// The classes the layout brings into contact (the tori and the bowl lie apart).
const char* const kTouchingClasses[] = { "primitive_mesh", "primitive_bowl", "mesh_terrain", "mesh_plane" };

std::map<std::string, double> testFigures( const smpScene& scene )
{
	std::map<std::string, double> figures;
	for ( const smpSceneFigure& f : scene.figures() )
	{
		EXPECT_FALSE( f.label.empty() ) << f.key;
		EXPECT_TRUE( figures.emplace( f.key, f.value ).second ) << "figure " << f.key << " twice";
	}
	return figures;
}

/// The mixed scene for steps steps with algo; nullptr (skipped) when PolyDepth cannot be
/// registered, a failure for anything else.
std::unique_ptr<smpScene> testMixed( smpSceneAlgo algo, int steps, unsigned seed = 1 )
{
	smpSceneConfig c;
	c.kind = SMP_SCENE_MIXED;
	c.algo = algo;
	c.steps = steps;
	c.seed = seed;
	std::string error;
	std::unique_ptr<smpScene> scene = smpScene::create( c, &error );
	if ( !scene )
	{
		if ( error.rfind( kRegistrationFailed, 0 ) == 0 )
			[&] { GTEST_SKIP() << error; }();
		else
			ADD_FAILURE() << "smpScene::create failed: " << error;
	}
	return scene;
}

} // namespace

// The scene holds a heightfield, a slope and four walls (planes), a dynamic bowl and three tori
// as GImpact meshes, and every primitive class, each drawn as a mesh (closed for the dynamic
// bodies), with sleeping off.
TEST( PdSceneMixed, BuildsEveryShapeClass )
{
	std::unique_ptr<smpScene> scene = testMixed( SMP_SCENE_ALGO_GIMPACT, 1 );
	ASSERT_NE( scene, nullptr );
	auto* world = dynamic_cast<smpSceneWorld*>( scene.get() );
	ASSERT_NE( world, nullptr );
	EXPECT_FALSE( scene->config().sleeping );
	std::map<int, int> dynamicTypes, staticTypes;
	int compoundChildren = 0;
	for ( int b = 0; b < scene->bodyCount(); ++b )
	{
		const btCollisionShape* shape = world->rigidBody( b )->getCollisionShape();
		smpSceneMesh mesh = scene->bodyMesh( b );
		EXPECT_GT( mesh.triangleCount, 0 ) << "body " << b << " has nothing to draw";
		if ( scene->bodyIsStatic( b ) )
		{
			++staticTypes[shape->getShapeType()];
			EXPECT_FALSE( mesh.closed );
			continue;
		}
		++dynamicTypes[shape->getShapeType()];
		EXPECT_TRUE( mesh.closed );
		EXPECT_EQ( world->rigidBody( b )->getActivationState(), DISABLE_DEACTIVATION ) << "body " << b;
		if ( shape->getShapeType() == COMPOUND_SHAPE_PROXYTYPE )
		{
			const btCompoundShape* compound = static_cast<const btCompoundShape*>( shape );
			compoundChildren = compound->getNumChildShapes();
			for ( int k = 0; k < compound->getNumChildShapes(); ++k )
				EXPECT_EQ( compound->getChildShape( k )->getShapeType(), BOX_SHAPE_PROXYTYPE );
		}
	}
	EXPECT_EQ( staticTypes[TERRAIN_SHAPE_PROXYTYPE], 1 );
	EXPECT_EQ( staticTypes[STATIC_PLANE_PROXYTYPE], 5 );
	EXPECT_EQ( dynamicTypes[GIMPACT_SHAPE_PROXYTYPE], 4 ); // the bowl and three tori
	for ( int type : { BOX_SHAPE_PROXYTYPE, CONVEX_HULL_SHAPE_PROXYTYPE, CYLINDER_SHAPE_PROXYTYPE, CONE_SHAPE_PROXYTYPE,
					   SPHERE_SHAPE_PROXYTYPE, CAPSULE_SHAPE_PROXYTYPE, COMPOUND_SHAPE_PROXYTYPE } )
		EXPECT_GE( dynamicTypes[type], 1 ) << "no dynamic body of Bullet shape type " << type;
	EXPECT_EQ( compoundChildren, 2 );
	EXPECT_EQ( scene->metrics().dynamicBodies, 21 );
}

// At the first step every body is still where it was dropped from, clear of everything: the
// measurement finds no pair within 1 cm and no depth.
TEST( PdSceneMixed, SpawnsEveryBodyClear )
{
	std::unique_ptr<smpScene> scene = testMixed( SMP_SCENE_ALGO_GIMPACT, 1 );
	ASSERT_NE( scene, nullptr );
	scene->step();
	std::map<std::string, double> f = testFigures( *scene );
	for ( const char* c : kClasses )
	{
		SCOPED_TRACE( c );
		EXPECT_EQ( f[std::string( c ) + "_max_penetration"], 0.0 );
		EXPECT_EQ( f[std::string( c ) + "_contacts"], 0.0 );
	}
	EXPECT_EQ( f["measure_failures"], 0.0 );
}

// A short episode with PolyDepth registered: finite, nothing lost, every pair class the layout
// brings together met, every figure named and finite.
TEST( PdSceneMixed, ShortEpisodeMeetsEveryPairClass )
{
	const int steps = 120;
	std::unique_ptr<smpScene> scene = testMixed( SMP_SCENE_ALGO_POLYDEPTH, steps );
	if ( !scene )
		return;
	while ( scene->step() )
	{
	}
	smpSceneMetrics m = scene->metrics();
	EXPECT_EQ( m.steps, steps );
	EXPECT_TRUE( m.finite );
	EXPECT_EQ( m.lost, 0 );
	EXPECT_EQ( m.penetrationFailures, 0 );
	std::map<std::string, double> f = testFigures( *scene );
	for ( const char* c : kClasses )
		for ( const char* suffix : { "_max_penetration", "_settled_penetration", "_settled_over_size", "_contacts" } )
		{
			std::string key = std::string( c ) + suffix;
			ASSERT_EQ( f.count( key ), 1u ) << "no figure " << key;
			EXPECT_TRUE( std::isfinite( f[key] ) ) << key;
			EXPECT_GE( f[key], 0.0 ) << key;
		}
	for ( const char* c : kTouchingClasses )
		EXPECT_GT( f[std::string( c ) + "_contacts"], 0.0 ) << c << " never met";
	for ( const char* key : { "arrival_step", "round_measure_bound", "measure_failures", "lost", "rest_speed" } )
		EXPECT_EQ( f.count( key ), 1u ) << "no figure " << key;
	EXPECT_EQ( f["arrival_step"], 72.0 ); // 0.6 of the steps
	EXPECT_EQ( f["measure_failures"], 0.0 );
	EXPECT_EQ( f["lost"], 0.0 );
	EXPECT_GE( f["rest_speed"], 0.0 );
	EXPECT_GT( f["round_measure_bound"], 0.0 );
	EXPECT_LT( f["round_measure_bound"], 1e-4 );
}

// The same seed builds and runs the same scene; another seed moves the terrain and the drops.
TEST( PdSceneMixed, SameSeedSameRun )
{
	std::unique_ptr<smpScene> a = testMixed( SMP_SCENE_ALGO_GIMPACT, 30, 4 );
	std::unique_ptr<smpScene> b = testMixed( SMP_SCENE_ALGO_GIMPACT, 30, 4 );
	std::unique_ptr<smpScene> c = testMixed( SMP_SCENE_ALGO_GIMPACT, 30, 5 );
	ASSERT_TRUE( a && b && c );
	for ( smpScene* scene : { a.get(), b.get(), c.get() } )
		while ( scene->step() )
		{
		}
	EXPECT_EQ( a->hash(), b->hash() );
	EXPECT_NE( a->hash(), c->hash() );
}

// The awake benchmark builds it by name; the convex peer has no pieces for it and says so.
TEST( PdSceneMixed, AwakeByNameAndNoConvexPeer )
{
	smpSceneConfig c;
	c.steps = 1;
	c.sleeping = true; // the awake scenes turn it off
	std::string error;
	std::unique_ptr<smpScene> scene = smpCreateAwakeScene( "mixed", c, &error );
	ASSERT_NE( scene, nullptr ) << error;
	EXPECT_STREQ( scene->name(), "mixed" );
	EXPECT_FALSE( scene->config().sleeping );
	bool listed = false;
	for ( const char* name : smpAwakeSceneNames )
		listed = listed || std::string( name ) == "mixed";
	EXPECT_TRUE( listed );
	smpSceneKind kind = SMP_SCENE_DEBRIS;
	EXPECT_TRUE( smpParseSceneKind( "mixed", &kind ) );
	EXPECT_EQ( kind, SMP_SCENE_MIXED );

	c.algo = SMP_SCENE_ALGO_CONVEX;
	error.clear();
	EXPECT_EQ( smpCreateAwakeScene( "mixed", c, &error ), nullptr );
	EXPECT_NE( error.find( "mixed" ), std::string::npos ) << error;
}

// addHeightfieldShape: Bullet's own triangles of the terrain, two per cell, facing up, with every
// grid point at its height and place; bad input is refused, not built.
TEST( PdSceneMixed, HeightfieldShapeIsBulletsTerrainFacingUp )
{
	smpSceneConfig c;
	smpSceneWorld world( c, "test" );
	std::string error;
	ASSERT_TRUE( world.initWorld( &error ) ) << error;
	const float nan = std::numeric_limits<float>::quiet_NaN();
	EXPECT_EQ( world.addHeightfieldShape( { 0, 0, 0 }, 2, 2, 1.0, { { 1, 1, 1 } } ), -1 );      // count
	EXPECT_EQ( world.addHeightfieldShape( { 0, 0 }, 2, 1, 1.0, { { 1, 1, 1 } } ), -1 );         // one row
	EXPECT_EQ( world.addHeightfieldShape( { 0, 0, nan, 0 }, 2, 2, 1.0, { { 1, 1, 1 } } ), -1 ); // NaN
	EXPECT_EQ( world.addHeightfieldShape( { 0, 0, 0, 0 }, 2, 2, 0.0, { { 1, 1, 1 } } ), -1 );   // spacing
	EXPECT_EQ( world.addHeightfieldShape( { 0, 0, 0, 0 }, 2, 2, NAN, { { 1, 1, 1 } } ), -1 );   // spacing
	// 3 x 2 heights, 0.5 m apart: x in {-0.5, 0, 0.5}, z in {-0.25, 0.25}.
	const std::vector<float> heights = { 0.1f, -0.2f, 0.3f, 0.0f, 0.25f, -0.1f };
	int shape = world.addHeightfieldShape( heights, 3, 2, 0.5, { { 1, 1, 1 } } );
	ASSERT_GE( shape, 0 );
	EXPECT_EQ( world.collisionShape( shape )->getShapeType(), TERRAIN_SHAPE_PROXYTYPE );
	btTransform identity;
	identity.setIdentity();
	int body = world.addBody( shape, identity, 0.0 );
	smpSceneMesh mesh = world.bodyMesh( body );
	EXPECT_FALSE( mesh.closed );
	EXPECT_EQ( mesh.vertexCount, 6 );
	EXPECT_EQ( mesh.triangleCount, 4 );
	for ( int v = 0; v < mesh.vertexCount; ++v )
	{
		const double* p = mesh.vertices + 3 * v;
		int i = (int)std::lround( p[0] / 0.5 + 1.0 ), j = (int)std::lround( p[2] / 0.5 + 0.5 );
		ASSERT_TRUE( i >= 0 && i < 3 && j >= 0 && j < 2 ) << p[0] << " " << p[2];
		EXPECT_NEAR( p[0], -0.5 + 0.5 * i, 1e-6 );
		EXPECT_NEAR( p[2], -0.25 + 0.5 * j, 1e-6 );
		EXPECT_NEAR( p[1], heights[(size_t)j * 3 + i], 1e-6 );
	}
	for ( int t = 0; t < mesh.triangleCount; ++t )
	{
		const double* a = mesh.vertices + 3 * mesh.indices[3 * t];
		const double* b = mesh.vertices + 3 * mesh.indices[3 * t + 1];
		const double* d = mesh.vertices + 3 * mesh.indices[3 * t + 2];
		double ny = ( b[2] - a[2] ) * ( d[0] - a[0] ) - ( b[0] - a[0] ) * ( d[2] - a[2] );
		EXPECT_GT( ny, 0.0 ) << "triangle " << t << " faces down";
	}
}

// addCollisionShape: any Bullet shape with the mesh that stands for it; a box dropped onto a
// btStaticPlaneShape comes to rest on it, its centre at its half extent.
TEST( PdSceneMixed, CollisionShapeBodiesRestOnAPlane )
{
	smpSceneConfig c;
	smpSceneWorld world( c, "test" );
	std::string error;
	ASSERT_TRUE( world.initWorld( &error ) ) << error;
	std::vector<double> quad = { -1, 0, -1, -1, 0, 1, 1, 0, 1, 1, 0, -1 };
	int plane =
		world.addCollisionShape( std::unique_ptr<btCollisionShape>( new btStaticPlaneShape( btVector3( 0, 1, 0 ), 0 ) ),
								 quad, { 0, 1, 2, 0, 2, 3 }, false, { { 1, 1, 1 } } );
	btTransform identity;
	identity.setIdentity();
	int ground = world.addBody( plane, identity, 0.0 );
	EXPECT_TRUE( world.bodyIsStatic( ground ) );
	EXPECT_FALSE( world.bodyMesh( ground ).closed );
	// Half extents 0.25 m: Bullet's own box-plane contact lets a box of the size of its margin
	// (0.04 m) sink into the plane.
	std::vector<double> v = { -0.25, -0.25, -0.25, 0.25, -0.25, -0.25, 0.25, 0.25, -0.25, -0.25, 0.25, -0.25,
							  -0.25, -0.25, 0.25,  0.25, -0.25, 0.25,  0.25, 0.25, 0.25,  -0.25, 0.25, 0.25 };
	std::vector<uint32_t> t = { 0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
								2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3 };
	int box = world.addCollisionShape(
		std::unique_ptr<btCollisionShape>( new btBoxShape( btVector3( 0.25f, 0.25f, 0.25f ) ) ), v, t, true,
		{ { 1, 0, 0 } } );
	int dropped = world.addBody( box, btTransform( btQuaternion( 0, 0, 0, 1 ), btVector3( 0.0f, 0.6f, 0.0f ) ), 1.0 );
	EXPECT_FALSE( world.bodyIsStatic( dropped ) );
	EXPECT_TRUE( world.bodyMesh( dropped ).closed );
	EXPECT_EQ( world.bodyMesh( dropped ).triangleCount, 12 );
	world.setStepCount( 120 );
	while ( world.step() )
	{
	}
	EXPECT_NEAR( world.bodyPose( dropped ).p.y, 0.25, 0.005 );
	EXPECT_LT( world.rigidBody( dropped )->getLinearVelocity().length(), 0.05 );
	EXPECT_EQ( world.metrics().lost, 0 );
}
