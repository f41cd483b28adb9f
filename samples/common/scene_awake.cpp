// SPDX-License-Identifier: MIT
// The awake scenes (polydepth-bench awake): scenes of the users' kind run with Bullet's sleeping
// off, so every body is simulated every step. Tori-only scenes also build for the convex peer
// (SMP_SCENE_ALGO_CONVEX); the others refuse it with an error.
//   tori-heap     the benchmark's 60 tori in the open box (SMP_SCENE_TORI)
//   torus-chain   linked tori hanging from a static link, swinging
//   box-stack     boxes made as GImpact meshes stacked on a static triangle-mesh floor
//   bowl-pour     small tori poured into a static zero-thickness hemispherical bowl
//   kinematic     a kinematic torus moved through a resting pile of tori every step
//   torus-drop    tori dropped at 10 m/s onto a zero-thickness floor and onto a resting torus
#include "scene_world.h"

#include "shapes.h"

#include <cmath>

namespace
{

const int kMajor = 48; ///< the benchmark torus: 48 x 16 x 2 = 1,536 triangles
const int kMinor = 16;
const std::array<float, 3> kTorusColor = { { 0.90f, 0.55f, 0.20f } };
const std::array<float, 3> kStaticColor = { { 0.82f, 0.82f, 0.85f } };

bool smpAwakeTori( const std::string& name )
{
	return name == "tori-heap" || name == "torus-chain" || name == "bowl-pour" || name == "kinematic" ||
		   name == "torus-drop";
}

/// A torus shape (ring in the xy-plane) of major radius R, with the convex peer's pieces when the
/// algorithm is convex. Returns the shape index, or -1 with *error.
int smpAddTorusShape( smpSceneWorld* scene, double R, double r, bool forStatic, std::string* error )
{
	smpSoup soup = {};
	if ( !smpMakeTorus( R, r, kMajor, kMinor, &soup ) )
	{
		*error = "cannot generate a torus";
		return -1;
	}
	std::vector<double> v( soup.vertices, soup.vertices + 3 * soup.vertexCount );
	std::vector<uint32_t> t( soup.indices, soup.indices + 3 * soup.triangleCount );
	smpFreeSoup( &soup );
	std::vector<std::vector<uint32_t>> pieces;
	bool convex = !forStatic && scene->config().algo == SMP_SCENE_ALGO_CONVEX;
	if ( convex && !smpTorusPieces( v, t, kMajor, kMinor, &pieces, error ) )
		return -1;
	int shape = scene->addShape( std::move( v ), std::move( t ), forStatic, forStatic ? kStaticColor : kTorusColor );
	if ( convex && !scene->setConvexPieces( shape, pieces, error ) )
		return -1;
	return shape;
}

/// A static zero-thickness square floor at y = 0, half-width w, facing up.
int smpAddFloor( smpSceneWorld* scene, double w )
{
	std::vector<double> v;
	std::vector<uint32_t> t;
	smpSceneAppendQuad( btVector3( btScalar( -w ), 0, btScalar( -w ) ), btVector3( 0, 0, btScalar( 2 * w ) ),
						btVector3( btScalar( 2 * w ), 0, 0 ), 12, &v, &t );
	int shape = scene->addShape( std::move( v ), std::move( t ), true, kStaticColor );
	btTransform identity;
	identity.setIdentity();
	return scene->addBody( shape, identity, 0.0 );
}

btTransform smpPose( const btQuaternion& q, double x, double y, double z )
{
	return btTransform( q, btVector3( btScalar( x ), btScalar( y ), btScalar( z ) ) );
}

/// Links alternate between the xy- and zy-planes, 0.6 m apart (0.1 m slack: they drop into
/// their hanging distance of 0.7 m) and come to rest hanging straight. Nothing is
/// below the chain; it hangs clear of y = 0 (where a body counts as lost).
bool smpBuildChain( smpSceneWorld* scene, int links, std::string* error )
{
	int fixed = smpAddTorusShape( scene, 0.5, 0.15, true, error );
	int link = smpAddTorusShape( scene, 0.5, 0.15, false, error );
	if ( fixed < 0 || link < 0 )
		return false;
	scene->setShapeClosed( fixed );
	const btQuaternion flat( 0, 0, 0, 1 ), turned( btVector3( 0, 1, 0 ), btScalar( M_PI / 2 ) );
	const double top = 1.2 + 0.7 * links;
	scene->addBody( fixed, smpPose( flat, 0, top, 0 ), 0.0 );
	for ( int i = 1; i <= links; ++i )
		scene->addBody( link, smpPose( i % 2 ? turned : flat, 0, top - 0.6 * i, 0 ), 1.0 );
	scene->setCamera( btVector3( 4, btScalar( top ), 6 ), btVector3( 0, btScalar( 0.5 * top ), 0 ) );
	return true;
}

bool smpBuildStack( smpSceneWorld* scene, int boxes, std::string* error )
{
	smpAddFloor( scene, 3.0 );
	smpSoup soup = {};
	if ( !smpMakeBox( pdVec3{ 0.5, 0.5, 0.5 }, 2, &soup ) )
	{
		*error = "cannot generate a box";
		return false;
	}
	std::vector<double> v( soup.vertices, soup.vertices + 3 * soup.vertexCount );
	std::vector<uint32_t> t( soup.indices, soup.indices + 3 * soup.triangleCount );
	smpFreeSoup( &soup );
	int box = scene->addShape( std::move( v ), std::move( t ), false, { { 0.55f, 0.75f, 0.35f } } );
	for ( int i = 0; i < boxes; ++i )
		scene->addBody( box, smpPose( btQuaternion( 0, 0, 0, 1 ), 0.02 * ( i % 2 ), 0.52 + 1.02 * i, 0 ), 1.0 );
	scene->setCamera( btVector3( 5, 3, 7 ), btVector3( 0, btScalar( 0.5 * boxes ), 0 ) );
	return true;
}

/// An open hemisphere of radius 2 m, centre at y = 2 (bottom at y = 0), triangles facing in.
bool smpBuildBowl( smpSceneWorld* scene, int bodies, std::string* error )
{
	const double radius = 2.0, cy = 2.0;
	const int rings = 12, segments = 32;
	std::vector<double> v;
	std::vector<uint32_t> t;
	v.insert( v.end(), { 0.0, cy - radius, 0.0 } ); // bottom pole
	for ( int i = 1; i <= rings; ++i )
	{
		double polar = 0.5 * M_PI * i / rings; // from the bottom pole up to the rim
		for ( int j = 0; j < segments; ++j )
		{
			double az = 2.0 * M_PI * j / segments;
			v.insert( v.end(), { radius * std::sin( polar ) * std::cos( az ), cy - radius * std::cos( polar ),
								 radius * std::sin( polar ) * std::sin( az ) } );
		}
	}
	auto at = [&]( int ring, int j ) { return (uint32_t)( 1 + ( ring - 1 ) * segments + ( j % segments ) ); };
	for ( int j = 0; j < segments; ++j )
		t.insert( t.end(), { 0u, at( 1, j + 1 ), at( 1, j ) } );
	for ( int i = 1; i < rings; ++i )
		for ( int j = 0; j < segments; ++j )
			t.insert( t.end(), { at( i, j ), at( i + 1, j + 1 ), at( i + 1, j ), at( i, j ), at( i, j + 1 ),
								 at( i + 1, j + 1 ) } );
	int bowl = scene->addShape( std::move( v ), std::move( t ), true, kStaticColor );
	btTransform identity;
	identity.setIdentity();
	scene->addBody( bowl, identity, 0.0 );
	btVector3 centre( 0, btScalar( cy ), 0 );
	scene->setStaticDepth(
		[centre, radius]( const btVector3& p )
		{ return p.y() < centre.y() ? std::max( 0.0, (double)( p - centre ).length() - radius ) : 0.0; } );
	int torus = smpAddTorusShape( scene, 0.2, 0.06, false, error );
	if ( torus < 0 )
		return false;
	// Poured in a column of layers of 2 x 2 above the bowl's centre, 0.55 m apart (each torus
	// fits a 0.26 m sphere).
	smpSceneRandom random( scene->config().seed );
	for ( int i = 0; i < bodies; ++i )
	{
		int layer = i / 4, cell = i % 4;
		scene->addBody(
			torus,
			smpPose( random.rotation(), 0.55 * ( cell % 2 ) - 0.275, 1.0 + 0.55 * layer, 0.55 * ( cell / 2 ) - 0.275 ),
			1.0 );
	}
	smpSceneArea area;
	area.minX = area.minZ = -2.5;
	area.maxX = area.maxZ = 2.5;
	area.floorY = -0.1;
	scene->setArea( area );
	scene->setCamera( btVector3( 4, 5, 6 ), btVector3( 0, 1, 0 ) );
	return true;
}

/// A pile of tori settles on the floor for the first third of the run; then a kinematic torus
/// (standing up, ring in the xy-plane) sweeps through it along x at 1.5 m/s from x = -2 m (to
/// 2 m at most) until 1.5 s before the end, so the last second is at rest again.
bool smpBuildKinematic( smpSceneWorld* scene, int bodies, std::string* error )
{
	smpAddFloor( scene, 3.0 );
	int torus = smpAddTorusShape( scene, 0.5, 0.15, false, error );
	if ( torus < 0 )
		return false;
	int sweeper = scene->addBody( torus, smpPose( btQuaternion( 0, 0, 0, 1 ), -2.0, 0.66, 0 ), 0.0 );
	btRigidBody* k = scene->rigidBody( sweeper );
	k->setCollisionFlags( k->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT );
	k->setActivationState( DISABLE_DEACTIVATION );
	smpSceneRandom random( scene->config().seed );
	for ( int i = 0; i < bodies; ++i )
	{
		int layer = i / 4, cell = i % 4;
		scene->addBody(
			torus, smpPose( random.rotation(), 1.4 * ( cell % 2 ) - 0.7, 0.7 + 1.4 * layer, 1.4 * ( cell / 2 ) - 0.7 ),
			1.0 );
	}
	const int start = scene->stepCount() / 3;
	const int stop = scene->stepCount() - (int)std::ceil( 1.5 / scene->config().timeStep );
	const double dt = scene->config().timeStep;
	scene->setBeforeStep(
		[sweeper, start, stop, dt]( smpSceneWorld& world, int step )
		{
			if ( step < start || step >= stop )
				return;
			double x = std::min( 2.0, -2.0 + 1.5 * dt * ( step - start + 1 ) );
			world.rigidBody( sweeper )->setWorldTransform( smpPose( btQuaternion( 0, 0, 0, 1 ), x, 0.66, 0 ) );
		} );
	scene->setCamera( btVector3( 5, 5, 7 ), btVector3( 0, 0.5, 0 ) );
	return true;
}

/// One torus lies flat on the floor; one is dropped onto it and one onto the bare floor, both
/// at 10 m/s from 1.5 m.
bool smpBuildDrop( smpSceneWorld* scene, std::string* error )
{
	smpAddFloor( scene, 3.0 );
	int torus = smpAddTorusShape( scene, 0.5, 0.15, false, error );
	if ( torus < 0 )
		return false;
	const btQuaternion flat( btVector3( 1, 0, 0 ), btScalar( M_PI / 2 ) ); // ring in the xz-plane
	const btQuaternion tilted( btVector3( 1, 0, 1 ), btScalar( 0.3 ) );
	scene->addBody( torus, smpPose( flat, -1.2, 0.15, 0 ), 1.0 );
	scene->addBody( torus, smpPose( tilted * flat, -1.2, 1.5, 0.1 ), 1.0, btVector3( 0, -10, 0 ) );
	scene->addBody( torus, smpPose( tilted * flat, 1.2, 1.5, 0 ), 1.0, btVector3( 0, -10, 0 ) );
	scene->setCamera( btVector3( 3, 3, 5 ), btVector3( 0, 0.3, 0 ) );
	return true;
}

} // namespace

const char* const smpAwakeSceneNames[9] = { "tori-heap",    "torus-chain",      "box-stack",
											"bowl-pour",    "kinematic",        "torus-drop",
											"assembly-peg", "assembly-washers", "assembly-plates" };

std::unique_ptr<smpScene> smpCreateAwakeScene( const std::string& name, const smpSceneConfig& inConfig,
											   std::string* error )
{
	smpSceneConfig config = inConfig;
	config.sleeping = false;
	if ( name.rfind( "assembly-", 0 ) == 0 )
	{
		config.variant = name.substr( std::string( "assembly-" ).size() );
		return smpCreateAssemblyScene( config, error );
	}
	if ( config.algo == SMP_SCENE_ALGO_CONVEX && !smpAwakeTori( name ) )
	{
		*error = "the convex algorithm has convex pieces for tori only, not for the scene '" + name + "'";
		return nullptr;
	}
	if ( name == "tori-heap" )
	{
		config.kind = SMP_SCENE_TORI;
		return smpScene::create( config, error );
	}
	if ( config.steps <= 0 )
		config.steps = 600;
	config.substeps = std::max( 1, config.substeps );
	if ( config.solverIterations <= 0 )
		config.solverIterations = 10;
	const char* stored = nullptr; // the scene's name, kept for smpScene::name()
	for ( const char* known : smpAwakeSceneNames )
		if ( name == known )
			stored = known;
	if ( stored == nullptr )
	{
		*error = "unknown awake scene '" + name + "'";
		return nullptr;
	}
	std::unique_ptr<smpSceneWorld> scene( new smpSceneWorld( config, stored ) );
	if ( !scene->initWorld( error ) )
		return nullptr;
	scene->setStepCount( config.steps );
	bool ok = false;
	if ( name == "torus-chain" )
		ok = smpBuildChain( scene.get(), config.bodies > 0 ? config.bodies : 6, error );
	else if ( name == "box-stack" )
		ok = smpBuildStack( scene.get(), config.bodies > 0 ? config.bodies : 4, error );
	else if ( name == "bowl-pour" )
		ok = smpBuildBowl( scene.get(), config.bodies > 0 ? config.bodies : 24, error );
	else if ( name == "kinematic" )
		ok = smpBuildKinematic( scene.get(), config.bodies > 0 ? config.bodies : 16, error );
	else
		ok = smpBuildDrop( scene.get(), error );
	if ( !ok )
		return nullptr;
	return scene;
}
