// SPDX-License-Identifier: MIT
// Debris: mixed concave bodies (btGImpactMeshShape) falling into an open box built as a static
// btBvhTriangleMeshShape (6 m x 6 m, 7 m walls, one-sided triangles facing in), and the
// benchmark's "tori" variant, which matches the GImpact baseline of bullet.md section 3.
#include "scene_world.h"

#include "model_io.h"
#include "shapes.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace
{

const char* const kShapeNames[] = { "torus", "knot", "grate", "cup", "spoon", "bunny" };
const int kTorusMajorSegments = 48; ///< 48 x 16 x 2 = 1,536 triangles, the benchmark's torus
const int kTorusMinorSegments = 16;

std::array<float, 3> smpShapeColor( const std::string& name )
{
	if ( name == "torus" )
		return { { 0.90f, 0.55f, 0.20f } };
	if ( name == "knot" )
		return { { 0.30f, 0.60f, 0.90f } };
	if ( name == "grate" )
		return { { 0.55f, 0.75f, 0.35f } };
	if ( name == "cup" )
		return { { 0.85f, 0.35f, 0.40f } };
	if ( name == "spoon" )
		return { { 0.75f, 0.70f, 0.30f } };
	return { { 0.80f, 0.78f, 0.72f } }; // bunny
}

bool smpTakeSoup( smpSoup* soup, bool ok, std::vector<double>* v, std::vector<uint32_t>* t )
{
	if ( ok && soup->vertexCount > 0 && soup->triangleCount > 0 )
	{
		v->assign( soup->vertices, soup->vertices + 3 * soup->vertexCount );
		t->assign( soup->indices, soup->indices + 3 * soup->triangleCount );
	}
	if ( ok )
		smpFreeSoup( soup );
	return ok && !v->empty() && !t->empty();
}

/// Builds one debris shape by name; the torus keeps the benchmark's exact dimensions, the others
/// are scaled to a 1.3 m bounding-box diagonal so that they fit the 1.4 m spawn pitch.
bool smpMakeDebrisShape( const std::string& name, const std::string& modelsDir, double scale, std::vector<double>* v,
						std::vector<uint32_t>* t, std::string* error )
{
	smpSoup soup = {};
	bool ok = false;
	if ( name == "torus" )
	{
		ok = smpTakeSoup( &soup, smpMakeTorus( 0.5 * scale, 0.15 * scale, kTorusMajorSegments, kTorusMinorSegments, &soup ),
						 v, t );
		if ( ok )
			return true;
	}
	else if ( name == "knot" )
		ok = smpTakeSoup( &soup, smpMakeTorusKnot( 2, 3, 1.0, 0.45, 96, 10, &soup ), v, t );
	else if ( name == "grate" )
		ok = smpTakeSoup( &soup, smpMakeGrate( 1.0, 0.12, 3, &soup ), v, t );
	else if ( name == "cup" )
		ok = smpTakeSoup( &soup, smpMakeCup( 0.35, 0.6, 0.05, 24, &soup ), v, t );
	else if ( name == "spoon" )
		ok = smpTakeSoup( &soup, smpMakeSpoon( 1.2, 24, &soup ), v, t );
	else if ( name == "bunny" )
	{
		std::string path = modelsDir + "/pqp_spinning_bunny.tris";
		char message[256] = "";
		ok = smpTakeSoup( &soup, smpLoadSoup( path.c_str(), &soup, message, sizeof( message ) ), v, t );
		if ( !ok )
		{
			*error = message[0] != 0 ? message : path + ": cannot load";
			return false;
		}
	}
	else
	{
		*error = "unknown shape '" + name + "' (torus, knot, grate, cup, spoon, bunny)";
		return false;
	}
	if ( !ok )
	{
		*error = "cannot generate shape '" + name + "'";
		return false;
	}
	smpSceneNormalizeMesh( v, 1.3 * scale );
	return true;
}

bool smpFileExists( const std::string& path )
{
	FILE* f = std::fopen( path.c_str(), "rb" );
	if ( f == nullptr )
		return false;
	std::fclose( f );
	return true;
}

} // namespace

/// The convex algorithm's pieces of a torus from smpMakeTorus( R, r, major, minor ): its vertices
/// are major rings of minor vertices in order, and segment i (the quads between rings i and
/// i + 1) is planar trapezoids on the hull of those two rings, so the hulls' union is the mesh.
/// False (with *error) when the mesh does not have that layout: every triangle must lie within
/// one segment's two rings.
bool smpTorusPieces( const std::vector<double>& v, const std::vector<uint32_t>& t, int major, int minor,
					std::vector<std::vector<uint32_t>>* pieces, std::string* error )
{
	if ( v.size() != 3 * (size_t)major * (size_t)minor )
	{
		*error = "torus mesh has " + std::to_string( v.size() / 3 ) + " vertices, not " +
				 std::to_string( major * minor ) + " (" + std::to_string( major ) + " rings of " +
				 std::to_string( minor ) + ")";
		return false;
	}
	for ( size_t k = 0; k + 2 < t.size(); k += 3 )
	{
		// Its rings: one, or two neighbours (a and a + 1 modulo major).
		int a = (int)( t[k] / (uint32_t)minor ), b = a;
		for ( int c = 1; c < 3; ++c )
		{
			int r = (int)( t[k + c] / (uint32_t)minor );
			if ( r != a && r != b )
				b = b == a ? r : -1;
		}
		if ( b < 0 || ( b != a && b != ( a + 1 ) % major && a != ( b + 1 ) % major ) )
		{
			*error = "torus triangle " + std::to_string( k / 3 ) + " spans more than one segment";
			return false;
		}
	}
	pieces->assign( (size_t)major, std::vector<uint32_t>() );
	for ( int i = 0; i < major; ++i )
		for ( int ring : { i, ( i + 1 ) % major } )
			for ( int j = 0; j < minor; ++j )
				( *pieces )[(size_t)i].push_back( (uint32_t)( ring * minor + j ) );
	return true;
}

/// The open box: floor at y = 0, walls at |x| = 3 and |z| = 3, 12 x 12 cells per face.
static void smpMakeContainer( std::vector<double>* v, std::vector<uint32_t>* t )
{
	const double h = 7.0, w = 6.0;
	const int cells = 12;
	smpSceneAppendQuad( btVector3( -3, 0, -3 ), btVector3( 0, 0, w ), btVector3( w, 0, 0 ), cells, v, t ); // floor, +y
	smpSceneAppendQuad( btVector3( -3, 0, -3 ), btVector3( 0, h, 0 ), btVector3( 0, 0, w ), cells, v, t ); // x = -3, +x
	smpSceneAppendQuad( btVector3( 3, 0, -3 ), btVector3( 0, 0, w ), btVector3( 0, h, 0 ), cells, v, t );  // x = +3, -x
	smpSceneAppendQuad( btVector3( -3, 0, -3 ), btVector3( w, 0, 0 ), btVector3( 0, h, 0 ), cells, v, t ); // z = -3, +z
	smpSceneAppendQuad( btVector3( -3, 0, 3 ), btVector3( 0, h, 0 ), btVector3( w, 0, 0 ), cells, v, t );  // z = +3, -z
}

std::unique_ptr<smpScene> smpCreateDebrisScene( const smpSceneConfig& inConfig, std::string* error )
{
	smpSceneConfig config = inConfig;
	bool tori = config.kind == SMP_SCENE_TORI;
	if ( config.bodies <= 0 )
		config.bodies = tori ? 60 : 32;
	if ( config.steps <= 0 )
		config.steps = 600;
	if ( config.substeps <= 0 )
		config.substeps = 1;
	if ( config.solverIterations <= 0 )
		config.solverIterations = 10; // Bullet's default
	if ( config.bodies > 4096 )
	{
		*error = "too many bodies (at most 4096)";
		return nullptr;
	}

	std::vector<std::string> mix;
	if ( tori )
	{
		mix.push_back( "torus" );
	}
	else if ( config.shapes.empty() )
	{
		for ( const char* name : kShapeNames )
			if ( std::string( name ) != "bunny" || smpFileExists( config.modelsDir + "/pqp_spinning_bunny.tris" ) )
				mix.push_back( name );
	}
	else
	{
		std::stringstream list( config.shapes );
		std::string item;
		while ( std::getline( list, item, ',' ) )
			if ( !item.empty() )
				mix.push_back( item );
		if ( mix.empty() )
		{
			*error = "empty shape list";
			return nullptr;
		}
	}

	std::unique_ptr<smpSceneWorld> scene( new smpSceneWorld( config, tori ? "tori" : "debris" ) );
	if ( !scene->initWorld( error ) )
		return nullptr;
	scene->setStepCount( config.steps );

	std::vector<double> cv;
	std::vector<uint32_t> ct;
	smpMakeContainer( &cv, &ct );
	int container = scene->addShape( std::move( cv ), std::move( ct ), true, { { 0.82f, 0.82f, 0.85f } } );
	btTransform identity;
	identity.setIdentity();
	scene->addBody( container, identity, 0.0 ); // static first: it is body0 of its pairs, as in the baseline

	const bool convex = config.algo == SMP_SCENE_ALGO_CONVEX;
	for ( const std::string& name : mix )
	{
		if ( convex && name != "torus" )
		{
			*error = "the convex algorithm has convex pieces for tori only, not for '" + name +
					 "' (use the tori scene or --shapes torus)";
			return nullptr;
		}
	}
	std::vector<int> shapeOf;
	for ( const std::string& name : mix )
	{
		std::vector<double> v;
		std::vector<uint32_t> t;
		if ( !smpMakeDebrisShape( name, config.modelsDir, 1.0, &v, &t, error ) )
			return nullptr;
		std::vector<std::vector<uint32_t>> pieces;
		if ( convex && !smpTorusPieces( v, t, kTorusMajorSegments, kTorusMinorSegments, &pieces, error ) )
			return nullptr;
		int shape = scene->addShape( std::move( v ), std::move( t ), false, smpShapeColor( name ) );
		if ( convex && !scene->setConvexPieces( shape, pieces, error ) )
			return nullptr;
		shapeOf.push_back( shape );
	}

	// Layers of 4 x 4 at a 1.4 m pitch; every shape fits a 0.65 m sphere, so nothing overlaps.
	smpSceneRandom random( config.seed );
	const double pitch = 1.4;
	for ( int i = 0; i < config.bodies; ++i )
	{
		int layer = i / 16, cell = i % 16;
		double x = ( cell % 4 - 1.5 ) * pitch;
		double z = ( cell / 4 - 1.5 ) * pitch;
		double y = std::max( 0.66, config.spawnHeight ) + layer * pitch;
		int kind = mix.size() == 1 ? 0 : (int)( random.next() % mix.size() );
		btTransform pose( random.rotation(), btVector3( btScalar( x ), btScalar( y ), btScalar( z ) ) );
		scene->addBody( shapeOf[kind], pose, 1.0 );
	}
	scene->setArea( smpSceneArea() );
	scene->setCamera( btVector3( 5.6f, 6.4f, 8.0f ), btVector3( -0.2f, 0.6f, -0.2f ) );
	scene->setBodySize( 1.3 );
	return scene;
}
