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
//   sphere-pour   icospheres poured into a zero-thickness hemisphere (a user's report)
//   tall-stack    four cubes stacked 1 mm apart on a mesh floor (a user's report)
// the assembly parts (scene_assembly.cpp) and the mixed scene (scene_mixed.cpp). The convex
// peer also builds the scenes of convex bodies (one hull per body).
#include "scene_world.h"

#include "shapes.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace
{

const int kMajor = 48; ///< the benchmark torus: 48 x 16 x 2 = 1,536 triangles
const int kMinor = 16;
const std::array<float, 3> kTorusColor = { { 0.90f, 0.55f, 0.20f } };
const std::array<float, 3> kStaticColor = { { 0.82f, 0.82f, 0.85f } };

/// The scenes the convex peer builds: the tori (48 hulls each) and the convex bodies (one hull).
bool smpAwakeConvexPeer( const std::string& name )
{
	return name == "tori-heap" || name == "torus-chain" || name == "bowl-pour" || name == "kinematic" ||
		   name == "torus-drop" || name == "sphere-pour" || name == "tall-stack";
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
	scene->setFloorHalfExtent( w );
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

/// A static open hemisphere (the lower half) of the given radius centred at (0, cy, 0), rings
/// from the bottom pole to the rim and segments around, triangles facing in; its analytic depth
/// joins the floor measurement.
void smpAddBowl( smpSceneWorld* scene, double radius, double cy, int rings, int segments )
{
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
}

/// An open hemisphere of radius 2 m, centre at y = 2 (bottom at y = 0), triangles facing in.
bool smpBuildBowl( smpSceneWorld* scene, int bodies, std::string* error )
{
	smpAddBowl( scene, 2.0, 2.0, 12, 32 );
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
/// 2 m at most) until 1.5 s before the end, so the last second is at rest again. The floor (and
/// the area that holds the bodies) ends at 3 m: the sweep can push a torus off its edge, which
/// the scene's figures tell apart from one lost through the floor.
bool smpBuildKinematic( smpSceneWorld* scene, int bodies, std::string* error )
{
	const double floorHalf = 3.0;
	smpAddFloor( scene, floorHalf );
	int torus = smpAddTorusShape( scene, 0.5, 0.15, false, error );
	if ( torus < 0 )
		return false;
	int sweeper = scene->addBody( torus, smpPose( btQuaternion( 0, 0, 0, 1 ), -2.0, 0.66, 0 ), 0.0 );
	btRigidBody* k = scene->rigidBody( sweeper );
	k->setCollisionFlags( k->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT );
	k->setActivationState( DISABLE_DEACTIVATION );
	smpSceneRandom random( scene->config().seed );
	std::vector<int> pile;
	for ( int i = 0; i < bodies; ++i )
	{
		int layer = i / 4, cell = i % 4;
		pile.push_back( scene->addBody(
			torus, smpPose( random.rotation(), 1.4 * ( cell % 2 ) - 0.7, 0.7 + 1.4 * layer, 1.4 * ( cell / 2 ) - 0.7 ),
			1.0 ) );
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
	// How each lost torus left, the first step its centre was out: past the floor's edge while
	// above it (pushed off), or below the floor within its edges (through it).
	struct Losses
	{
		std::vector<char> seen;
		int offEdge = 0, throughFloor = 0;
	};
	std::shared_ptr<Losses> losses = std::make_shared<Losses>();
	losses->seen.assign( pile.size(), 0 );
	scene->setAfterStep(
		[pile, losses, floorHalf]( smpSceneWorld& world, int )
		{
			for ( size_t i = 0; i < pile.size(); ++i )
			{
				const btVector3& p = world.rigidBody( pile[i] )->getWorldTransform().getOrigin();
				bool beyondEdge = !( std::fabs( p.x() ) <= floorHalf && std::fabs( p.z() ) <= floorHalf );
				bool below = !( p.y() >= 0.0 );
				if ( losses->seen[i] || !( beyondEdge || below ) )
					continue;
				losses->seen[i] = 1;
				( beyondEdge ? losses->offEdge : losses->throughFloor ) += 1;
			}
		} );
	scene->setFigures(
		[losses]()
		{
			return std::vector<smpSceneFigure>{
				{ "lost_off_edge", (double)losses->offEdge, "tori pushed past the floor's edge (lost)" },
				{ "lost_through_floor", (double)losses->throughFloor, "tori whose centre went below the floor (lost)" },
			};
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

/// A dynamic shape from a generated convex soup; with the convex peer, one hull of all its
/// vertices. -1 with *error on failure.
int smpAddConvexBodyShape( smpSceneWorld* scene, smpSoup* soup, std::array<float, 3> color, std::string* error )
{
	std::vector<double> v( soup->vertices, soup->vertices + 3 * soup->vertexCount );
	std::vector<uint32_t> t( soup->indices, soup->indices + 3 * soup->triangleCount );
	smpFreeSoup( soup );
	std::vector<uint32_t> all( v.size() / 3 );
	for ( size_t i = 0; i < all.size(); ++i )
		all[i] = (uint32_t)i;
	int shape = scene->addShape( std::move( v ), std::move( t ), false, color );
	if ( scene->config().algo == SMP_SCENE_ALGO_CONVEX && !scene->setConvexPieces( shape, { all }, error ) )
		return -1;
	return shape;
}

/// A user's report: icospheres of radius 0.2 m (320 triangles) poured from a loose 2 x 2 column,
/// 0.45 m apart, from y = 0.5 m up, into a zero-thickness hemisphere of radius 2 m (96 x 32
/// segments) centred at y = 2. The seed moves each start by up to 1 mm horizontally (the run is
/// chaotic: the benchmark reports figures over seeds). Figures, every step: the deepest
/// sphere-sphere overlap 2 r - |c_i - c_j| and sphere-bowl overlap |c - C| + r - R, against the
/// ideal spheres (the facets lie inside them by up to r - inradius), until a sphere's centre goes
/// through the bowl (counted instead).
bool smpBuildSpherePour( smpSceneWorld* scene, int bodies, std::string* error )
{
	const double radius = 0.2, bowlRadius = 2.0;
	const btVector3 bowlCentre( 0, 2, 0 );
	smpAddBowl( scene, bowlRadius, 2.0, 32, 96 );
	smpSoup soup = {};
	if ( !smpMakeIcosphere( radius, 2, &soup ) )
	{
		*error = "cannot generate an icosphere";
		return false;
	}
	double inradius = radius;
	for ( int k = 0; k < soup.triangleCount; ++k )
	{
		const double* a = soup.vertices + 3 * soup.indices[3 * k];
		const double* b = soup.vertices + 3 * soup.indices[3 * k + 1];
		const double* c = soup.vertices + 3 * soup.indices[3 * k + 2];
		double u[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, w[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
		double n[3] = { u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0] };
		double len = std::sqrt( n[0] * n[0] + n[1] * n[1] + n[2] * n[2] );
		if ( len > 0.0 )
			inradius = std::min( inradius, std::fabs( n[0] * a[0] + n[1] * a[1] + n[2] * a[2] ) / len );
	}
	int sphere = smpAddConvexBodyShape( scene, &soup, { { 0.35f, 0.60f, 0.90f } }, error );
	if ( sphere < 0 )
		return false;
	if ( scene->config().algo == SMP_SCENE_ALGO_EXACT && !scene->setExactSphere( sphere, radius, error ) )
		return false;
	smpSceneRandom random( scene->config().seed );
	std::vector<int> spheres;
	for ( int i = 0; i < bodies; ++i )
	{
		int layer = i / 4, cell = i % 4;
		double x = 0.45 * ( cell % 2 ) - 0.225 + random.range( -0.001, 0.001 );
		double z = 0.45 * ( cell / 2 ) - 0.225 + random.range( -0.001, 0.001 );
		spheres.push_back(
			scene->addBody( sphere, smpPose( btQuaternion( 0, 0, 0, 1 ), x, 0.5 + 0.45 * layer, z ), 1.0 ) );
	}
	struct Deepest
	{
		double sphere = 0.0, bowl = 0.0;
		int sphereStep = -1, bowlStep = -1;
		std::vector<char> through; ///< per sphere: its centre went through the bowl (no longer measured)
	};
	std::shared_ptr<Deepest> deepest = std::make_shared<Deepest>();
	deepest->through.assign( spheres.size(), 0 );
	scene->setAfterStep(
		[=]( smpSceneWorld& world, int step )
		{
			std::vector<btVector3> c;
			for ( int b : spheres )
				c.push_back( world.rigidBody( b )->getWorldTransform().getOrigin() );
			for ( size_t i = 0; i < c.size(); ++i )
			{
				double fromCentre = (double)( c[i] - bowlCentre ).length();
				if ( deepest->through[i] || !std::isfinite( fromCentre ) ||
					 ( c[i].y() < bowlCentre.y() && fromCentre > bowlRadius ) )
				{
					deepest->through[i] = 1;
					continue;
				}
				if ( c[i].y() < bowlCentre.y() )
				{
					double d = fromCentre + radius - bowlRadius;
					if ( d > deepest->bowl && std::isfinite( d ) )
					{
						deepest->bowl = d;
						deepest->bowlStep = step;
					}
				}
				for ( size_t j = i + 1; j < c.size(); ++j )
				{
					if ( deepest->through[j] )
						continue;
					double d = 2.0 * radius - (double)( c[i] - c[j] ).length();
					if ( d > deepest->sphere && std::isfinite( d ) )
					{
						deepest->sphere = d;
						deepest->sphereStep = step;
					}
				}
			}
		} );
	scene->setFigures(
		[deepest, inradius, radius]()
		{
			double through = (double)std::count( deepest->through.begin(), deepest->through.end(), 1 );
			return std::vector<smpSceneFigure>{
				{ "through_bowl", through, "spheres whose centre went through the bowl (not measured after)" },
				{ "max_sphere_penetration", deepest->sphere, "deepest sphere-sphere 2r - centre distance (m)" },
				{ "max_sphere_penetration_step", (double)deepest->sphereStep, "the step it was seen" },
				{ "max_bowl_penetration", deepest->bowl, "deepest sphere-bowl |c - C| + r - R (m)" },
				{ "max_bowl_penetration_step", (double)deepest->bowlStep, "the step it was seen" },
				{ "facet_offset", radius - inradius,
				  "icosphere radius minus inradius: faces touching read this much per sphere (m)" } };
		} );
	smpSceneArea area;
	area.minX = area.minZ = -2.5;
	area.maxX = area.maxZ = 2.5;
	area.floorY = -0.1;
	scene->setArea( area );
	scene->setCamera( btVector3( 4, 5, 6 ), btVector3( 0, 1, 0 ) );
	return true;
}

/// A user's report: 0.5 m cubes (48 triangles) stacked on a static 10 x 10 m floor, 1 mm apart
/// (and 1 mm above the floor), each moved by up to 2 mm horizontally and turned by up to 2
/// degrees about y by the seed. Figure: the top cube's horizontal drift from its start, at the
/// end and the largest over the run.
bool smpBuildTallStack( smpSceneWorld* scene, int boxes, std::string* error )
{
	smpAddFloor( scene, 5.0 );
	smpSoup soup = {};
	if ( !smpMakeBox( pdVec3{ 0.25, 0.25, 0.25 }, 2, &soup ) )
	{
		*error = "cannot generate a box";
		return false;
	}
	int box = smpAddConvexBodyShape( scene, &soup, { { 0.55f, 0.75f, 0.35f } }, error );
	if ( box < 0 )
		return false;
	smpSceneRandom random( scene->config().seed );
	int top = -1;
	for ( int i = 0; i < boxes; ++i )
	{
		btQuaternion yaw( btVector3( 0, 1, 0 ), btScalar( random.range( -2.0, 2.0 ) * M_PI / 180.0 ) );
		double x = random.range( -0.002, 0.002 ), z = random.range( -0.002, 0.002 );
		top = scene->addBody( box, smpPose( yaw, x, 0.251 + 0.501 * i, z ), 1.0 );
	}
	const btVector3 start = scene->rigidBody( top )->getWorldTransform().getOrigin();
	std::shared_ptr<std::array<double, 2>> drift = std::make_shared<std::array<double, 2>>();
	scene->setAfterStep(
		[=]( smpSceneWorld& world, int )
		{
			btVector3 d = world.rigidBody( top )->getWorldTransform().getOrigin() - start;
			double h = std::hypot( (double)d.x(), (double)d.z() );
			( *drift )[0] = h;
			if ( std::isfinite( h ) )
				( *drift )[1] = std::max( ( *drift )[1], h );
		} );
	scene->setFigures(
		[drift]()
		{
			return std::vector<smpSceneFigure>{
				{ "top_drift_final", ( *drift )[0], "top box's horizontal drift from its start at the end (m)" },
				{ "top_drift_max", ( *drift )[1], "the largest over the run (m)" } };
		} );
	scene->setCamera( btVector3( 5, 3, 7 ), btVector3( 0, btScalar( 0.5 * boxes ), 0 ) );
	return true;
}
} // namespace

const char* const smpAwakeSceneNames[12] = { "tori-heap",    "torus-chain",      "box-stack",       "bowl-pour",
											 "kinematic",    "torus-drop",       "sphere-pour",     "tall-stack",
											 "assembly-peg", "assembly-washers", "assembly-plates", "mixed" };

std::unique_ptr<smpScene> smpCreateAwakeScene( const std::string& name, const smpSceneConfig& inConfig,
											   std::string* error )
{
	smpSceneConfig config = inConfig;
	config.sleeping = false;
	if ( config.algo == SMP_SCENE_ALGO_EXACT && name != "sphere-pour" )
	{
		*error = "the exact-sphere peer applies to the scene 'sphere-pour' only, not to '" + name + "'";
		return nullptr;
	}
	if ( name.rfind( "assembly-", 0 ) == 0 )
	{
		config.variant = name.substr( std::string( "assembly-" ).size() );
		return smpCreateAssemblyScene( config, error );
	}
	if ( name == "mixed" )
		return smpCreateMixedScene( config, error );
	if ( config.algo == SMP_SCENE_ALGO_CONVEX && !smpAwakeConvexPeer( name ) )
	{
		*error =
			"the convex algorithm has convex pieces for tori and convex bodies only, not for the scene '" + name + "'";
		return nullptr;
	}
	if ( name == "tori-heap" )
	{
		config.kind = SMP_SCENE_TORI;
		return smpScene::create( config, error );
	}
	if ( config.steps <= 0 )
		config.steps = name == "sphere-pour" || name == "tall-stack" ? 900 : 600;
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
	else if ( name == "sphere-pour" )
		ok = smpBuildSpherePour( scene.get(), config.bodies > 0 ? config.bodies : 40, error );
	else if ( name == "tall-stack" )
		ok = smpBuildTallStack( scene.get(), config.bodies > 0 ? config.bodies : 4, error );
	else if ( name == "kinematic" )
		ok = smpBuildKinematic( scene.get(), config.bodies > 0 ? config.bodies : 16, error );
	else
		ok = smpBuildDrop( scene.get(), error );
	if ( !ok )
		return nullptr;
	return scene;
}
