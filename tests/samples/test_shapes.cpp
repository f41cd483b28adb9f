// SPDX-License-Identifier: MIT
// Shape generators: every output is checked by an independent edge map (each undirected edge in
// exactly two triangles, in opposite directions), positive volume, no degenerate or duplicate
// triangles, welded vertices, the Euler characteristic of its topology, and analytic volumes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

extern "C" {
#include "shapes.h"
}

namespace
{

const double kPi = 3.14159265358979323846;

struct SoupGuard
{
	smpSoup soup{};
	~SoupGuard()
	{
		smpFreeSoup( &soup );
	}
};

std::array<double, 3> Vertex( const smpSoup& s, uint32_t i )
{
	return { s.vertices[3 * i], s.vertices[3 * i + 1], s.vertices[3 * i + 2] };
}

double Volume( const smpSoup& s )
{
	double sum = 0.0;
	for ( int t = 0; t < s.triangleCount; ++t )
	{
		auto a = Vertex( s, s.indices[3 * t] );
		auto b = Vertex( s, s.indices[3 * t + 1] );
		auto c = Vertex( s, s.indices[3 * t + 2] );
		sum += a[0] * ( b[1] * c[2] - b[2] * c[1] ) - a[1] * ( b[0] * c[2] - b[2] * c[0] ) +
			   a[2] * ( b[0] * c[1] - b[1] * c[0] );
	}
	return sum / 6.0;
}

double Diagonal( const smpSoup& s )
{
	double lo[3] = { 1e300, 1e300, 1e300 }, hi[3] = { -1e300, -1e300, -1e300 };
	for ( int i = 0; i < s.vertexCount; ++i )
	{
		for ( int a = 0; a < 3; ++a )
		{
			lo[a] = std::min( lo[a], s.vertices[3 * i + a] );
			hi[a] = std::max( hi[a], s.vertices[3 * i + a] );
		}
	}
	return std::sqrt( ( hi[0] - lo[0] ) * ( hi[0] - lo[0] ) + ( hi[1] - lo[1] ) * ( hi[1] - lo[1] ) +
					  ( hi[2] - lo[2] ) * ( hi[2] - lo[2] ) );
}

// Checks the closed-surface invariants and returns the Euler characteristic V - E + F.
int CheckClosed( const smpSoup& s, const std::string& what )
{
	SCOPED_TRACE( what );
	EXPECT_GT( s.vertexCount, 0 );
	EXPECT_GT( s.triangleCount, 0 );
	std::map<std::pair<uint32_t, uint32_t>, int> directed;
	std::set<std::array<uint32_t, 3>> seen;
	std::vector<int> used( (size_t)s.vertexCount, 0 );
	double diag = Diagonal( s );
	int degenerate = 0, duplicates = 0, outOfRange = 0;
	for ( int t = 0; t < s.triangleCount; ++t )
	{
		uint32_t v[3] = { s.indices[3 * t], s.indices[3 * t + 1], s.indices[3 * t + 2] };
		if ( v[0] >= (uint32_t)s.vertexCount || v[1] >= (uint32_t)s.vertexCount || v[2] >= (uint32_t)s.vertexCount )
		{
			++outOfRange;
			continue;
		}
		auto a = Vertex( s, v[0] ), b = Vertex( s, v[1] ), c = Vertex( s, v[2] );
		double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
		double e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
		double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
		double area = 0.5 * std::sqrt( n[0] * n[0] + n[1] * n[1] + n[2] * n[2] );
		if ( v[0] == v[1] || v[1] == v[2] || v[2] == v[0] || area <= 1e-12 * diag * diag )
		{
			++degenerate;
		}
		std::array<uint32_t, 3> key = { v[0], v[1], v[2] };
		std::sort( key.begin(), key.end() );
		if ( !seen.insert( key ).second )
		{
			++duplicates;
		}
		for ( int k = 0; k < 3; ++k )
		{
			used[v[k]] = 1;
			directed[{ v[k], v[( k + 1 ) % 3] }]++;
		}
	}
	EXPECT_EQ( outOfRange, 0 );
	EXPECT_EQ( degenerate, 0 );
	EXPECT_EQ( duplicates, 0 );
	int badEdges = 0;
	for ( const auto& e : directed )
	{
		auto opposite = directed.find( { e.first.second, e.first.first } );
		if ( e.second != 1 || opposite == directed.end() || opposite->second != 1 )
		{
			++badEdges;
		}
	}
	EXPECT_EQ( badEdges, 0 ) << "edges not shared by exactly two oppositely oriented triangles";
	int unused = 0;
	for ( int u : used )
		unused += u == 0;
	EXPECT_EQ( unused, 0 );
	// Welded: no two vertices at the same position.
	std::set<std::array<double, 3>> positions;
	for ( int i = 0; i < s.vertexCount; ++i )
	{
		positions.insert( Vertex( s, (uint32_t)i ) );
	}
	EXPECT_EQ( (int)positions.size(), s.vertexCount ) << "coincident vertices are not welded";
	EXPECT_GT( Volume( s ), 0.0 );
	int edges = (int)directed.size() / 2;
	return s.vertexCount - edges + s.triangleCount;
}

void CheckMesh( const smpSoup& s, bool convex, const std::string& what )
{
	SCOPED_TRACE( what );
	pdMeshReport report;
	pdMesh* mesh = smpSoupCreateMesh( &s, &report );
	ASSERT_NE( mesh, nullptr ) << report.message;
	EXPECT_EQ( report.removedTriangleCount, 0 );
	EXPECT_TRUE( pdMesh_GetInfo( mesh ).closed );
	EXPECT_EQ( pdMesh_GetInfo( mesh ).convex, convex );
	EXPECT_EQ( pdMesh_GetInfo( mesh ).triangleCount, s.triangleCount );
	pdDestroyMesh( mesh );
}

// Every hull input point lies on or below every face plane.
void CheckContains( const smpSoup& hull, const std::vector<double>& points, double tolerance )
{
	double worst = -1e300;
	for ( int t = 0; t < hull.triangleCount; ++t )
	{
		auto a = Vertex( hull, hull.indices[3 * t] ), b = Vertex( hull, hull.indices[3 * t + 1] ),
			 c = Vertex( hull, hull.indices[3 * t + 2] );
		double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
		double e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
		double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
		double len = std::sqrt( n[0] * n[0] + n[1] * n[1] + n[2] * n[2] );
		ASSERT_GT( len, 0.0 );
		for ( size_t i = 0; i < points.size() / 3; ++i )
		{
			double d = ( n[0] * ( points[3 * i] - a[0] ) + n[1] * ( points[3 * i + 1] - a[1] ) +
						 n[2] * ( points[3 * i + 2] - a[2] ) ) /
					   len;
			worst = std::max( worst, d );
		}
	}
	EXPECT_LE( worst, tolerance );
}

} // namespace

TEST( PdShapes, BoxIsClosedWithExactVolume )
{
	for ( int n : { 1, 2, 5 } )
	{
		SoupGuard g;
		ASSERT_TRUE( smpMakeBox( { 1.0, 0.5, 0.25 }, n, &g.soup ) );
		EXPECT_EQ( g.soup.triangleCount, 12 * n * n );
		EXPECT_EQ( g.soup.vertexCount, 6 * n * n + 2 );
		EXPECT_EQ( CheckClosed( g.soup, "box " + std::to_string( n ) ), 2 );
		EXPECT_NEAR( Volume( g.soup ), 1.0, 1e-12 );
		CheckMesh( g.soup, true, "box" );
	}
	SoupGuard bad;
	EXPECT_FALSE( smpMakeBox( { 1.0, 0.0, 1.0 }, 1, &bad.soup ) );
	EXPECT_FALSE( smpMakeBox( { 1.0, 1.0, 1.0 }, 0, &bad.soup ) );
	EXPECT_FALSE( smpMakeBox( { NAN, 1.0, 1.0 }, 1, &bad.soup ) );
	EXPECT_EQ( bad.soup.triangleCount, 0 );
}

TEST( PdShapes, IcosphereVolumeConvergesToTheBall )
{
	double previousError = 1.0;
	for ( int level : { 0, 2, 4 } )
	{
		SoupGuard g;
		ASSERT_TRUE( smpMakeIcosphere( 2.0, level, &g.soup ) );
		EXPECT_EQ( g.soup.triangleCount, 20 << ( 2 * level ) );
		EXPECT_EQ( CheckClosed( g.soup, "icosphere " + std::to_string( level ) ), 2 );
		for ( int i = 0; i < g.soup.vertexCount; ++i )
		{
			auto v = Vertex( g.soup, (uint32_t)i );
			EXPECT_NEAR( std::sqrt( v[0] * v[0] + v[1] * v[1] + v[2] * v[2] ), 2.0, 1e-12 );
		}
		double exact = 4.0 / 3.0 * kPi * 8.0;
		double error = ( exact - Volume( g.soup ) ) / exact;
		EXPECT_GT( error, 0.0 ); // inscribed polyhedron
		EXPECT_LT( error, previousError );
		previousError = error;
		CheckMesh( g.soup, true, "icosphere" );
	}
	EXPECT_LT( previousError, 0.01 );
}

TEST( PdShapes, TorusMatchesPappusVolume )
{
	const int sizes[][2] = { { 12, 6 }, { 48, 24 }, { 96, 40 } };
	for ( const auto& sz : sizes )
	{
		SoupGuard g;
		ASSERT_TRUE( smpMakeTorus( 2.0, 0.5, sz[0], sz[1], &g.soup ) );
		EXPECT_EQ( g.soup.triangleCount, 2 * sz[0] * sz[1] );
		EXPECT_EQ( CheckClosed( g.soup, "torus" ), 0 );
		double exact = 2.0 * kPi * kPi * 2.0 * 0.25;
		// Inscribed polygons lose about (2 pi / n)^2 / 6 of the area per direction.
		double loss = std::pow( 2.0 * kPi / sz[0], 2 ) / 6.0 + std::pow( 2.0 * kPi / sz[1], 2 ) / 6.0;
		double ratio = Volume( g.soup ) / exact;
		EXPECT_LT( ratio, 1.0 ) << sz[0] << "x" << sz[1];
		EXPECT_GT( ratio, 1.0 - 1.2 * loss ) << sz[0] << "x" << sz[1];
		CheckMesh( g.soup, false, "torus" );
	}
	SoupGuard bad;
	EXPECT_FALSE( smpMakeTorus( 1.0, 1.0, 12, 6, &bad.soup ) ); // self-intersecting
	EXPECT_FALSE( smpMakeTorus( 1.0, 0.5, 2, 6, &bad.soup ) );
}

TEST( PdShapes, DistortedTorusIsClosedGenusOne )
{
	double volumes[2];
	int k = 0;
	for ( int scale : { 4, 8 } )
	{
		SoupGuard g;
		ASSERT_TRUE( smpMakeDistortedTorus( 1.0, 0.4, 0.3, 12 * scale, 6 * scale, &g.soup ) );
		EXPECT_EQ( CheckClosed( g.soup, "distorted torus" ), 0 );
		volumes[k++] = Volume( g.soup );
		CheckMesh( g.soup, false, "distorted torus" );
	}
	// Finer tessellation of the same smooth surface: volumes agree within a few percent.
	EXPECT_NEAR( volumes[0] / volumes[1], 1.0, 0.03 );
	SoupGuard bad;
	EXPECT_FALSE( smpMakeDistortedTorus( 1.0, 0.4, 1.5, 12, 6, &bad.soup ) );
}

TEST( PdShapes, TorusKnotIsAClosedTubeOfTheRightVolume )
{
	const int sizes[][2] = { { 60, 8 }, { 100, 15 }, { 240, 24 } };
	for ( const auto& sz : sizes )
	{
		SoupGuard g;
		ASSERT_TRUE( smpMakeTorusKnot( 2, 3, 1.0, 0.4, sz[0], sz[1], &g.soup ) );
		EXPECT_EQ( g.soup.triangleCount, 2 * sz[0] * sz[1] );
		EXPECT_EQ( CheckClosed( g.soup, "knot" ), 0 );
		// Tube volume = pi r^2 * curve length (numerically integrated here).
		double length = 0.0;
		const int steps = 20000;
		for ( int i = 0; i < steps; ++i )
		{
			double t0 = 2.0 * kPi * i / steps, t1 = 2.0 * kPi * ( i + 1 ) / steps;
			auto c = []( double t ) {
				double r = 2.0 + std::cos( 3.0 * t );
				return std::array<double, 3>{ r * std::cos( 2.0 * t ), r * std::sin( 2.0 * t ), std::sin( 3.0 * t ) };
			};
			auto a = c( t0 ), b = c( t1 );
			length += std::sqrt( ( b[0] - a[0] ) * ( b[0] - a[0] ) + ( b[1] - a[1] ) * ( b[1] - a[1] ) +
								 ( b[2] - a[2] ) * ( b[2] - a[2] ) );
		}
		double exact = kPi * 0.16 * length;
		double loss = std::pow( 2.0 * kPi / sz[0], 2 ) / 6.0 + std::pow( 2.0 * kPi / sz[1], 2 ) / 6.0;
		EXPECT_NEAR( Volume( g.soup ) / exact, 1.0, 1.5 * loss + 0.01 ) << sz[0] << "x" << sz[1];
		CheckMesh( g.soup, false, "knot" );
	}
	SoupGuard bad;
	EXPECT_FALSE( smpMakeTorusKnot( 2, 4, 1.0, 0.4, 100, 15, &bad.soup ) ); // a link, not a knot
}

TEST( PdShapes, GrateHasOneHandlePerHole )
{
	for ( int holes : { 1, 3, 6 } )
	{
		SoupGuard g;
		ASSERT_TRUE( smpMakeGrate( 2.0, 0.2, holes, &g.soup ) );
		EXPECT_EQ( CheckClosed( g.soup, "grate " + std::to_string( holes ) ), 2 - 2 * holes * holes );
		double cell = 2.0 / ( 2 * holes + 1 );
		double exact = ( 4.0 - holes * holes * cell * cell ) * 0.2;
		EXPECT_NEAR( Volume( g.soup ), exact, 1e-12 );
		CheckMesh( g.soup, false, "grate" );
	}
}

TEST( PdShapes, CupIsAWatertightSolidOfPolygonalVolume )
{
	for ( int segments : { 8, 24, 64 } )
	{
		SoupGuard g;
		const double radius = 1.0, height = 1.5, wall = 0.1;
		ASSERT_TRUE( smpMakeCup( radius, height, wall, segments, &g.soup ) );
		EXPECT_EQ( CheckClosed( g.soup, "cup " + std::to_string( segments ) ), 2 );
		// Every profile segment is vertical or horizontal, so the solid is a stack of prisms over
		// regular polygons: exact volume.
		double polygon = 0.5 * segments * std::sin( 2.0 * kPi / segments );
		double inner = radius - wall;
		double exact = polygon * ( radius * radius * height - inner * inner * ( height - wall ) );
		EXPECT_NEAR( Volume( g.soup ), exact, 1e-9 );
		CheckMesh( g.soup, false, "cup" );
	}
}

TEST( PdShapes, SpoonIsClosedAndConcave )
{
	for ( int segments : { 8, 18, 40 } )
	{
		SoupGuard g;
		ASSERT_TRUE( smpMakeSpoon( 2.0, segments, &g.soup ) );
		EXPECT_EQ( CheckClosed( g.soup, "spoon " + std::to_string( segments ) ), 2 );
		// Elongated: length along x, much thinner across.
		double lo[3] = { 1e9, 1e9, 1e9 }, hi[3] = { -1e9, -1e9, -1e9 };
		for ( int i = 0; i < g.soup.vertexCount; ++i )
			for ( int a = 0; a < 3; ++a )
			{
				lo[a] = std::min( lo[a], g.soup.vertices[3 * i + a] );
				hi[a] = std::max( hi[a], g.soup.vertices[3 * i + a] );
			}
		EXPECT_NEAR( hi[0] - lo[0], 2.0, 1e-9 );
		EXPECT_LT( hi[1] - lo[1], 0.6 );
		CheckMesh( g.soup, false, "spoon" );
	}
}

TEST( PdShapes, ShapeByNameHitsTargetAndSize )
{
	const char* names[] = { "box", "icosphere", "torus", "knot", "grate", "cup", "spoon", "distorted-torus" };
	const int euler[] = { 2, 2, 0, 0, 0, 2, 2, 0 };
	for ( int i = 0; i < 8; ++i )
	{
		for ( int target : { 500, 3000 } )
		{
			SoupGuard g;
			std::string what = std::string( names[i] ) + " " + std::to_string( target );
			ASSERT_TRUE( smpMakeShapeByName( names[i], target, 3.0, &g.soup ) ) << what;
			EXPECT_GE( g.soup.triangleCount, target / 2 ) << what;
			EXPECT_LE( g.soup.triangleCount, target * 2 ) << what;
			EXPECT_NEAR( Diagonal( g.soup ), 3.0, 1e-9 ) << what;
			int chi = CheckClosed( g.soup, what );
			if ( euler[i] != 0 || std::string( names[i] ).find( "torus" ) != std::string::npos ||
				 std::string( names[i] ) == "knot" )
			{
				EXPECT_EQ( chi, euler[i] ) << what;
			}
			else
			{
				EXPECT_LT( chi, 0 ) << what; // grate: 2 - 2 * holes
			}
		}
	}
	SoupGuard knot;
	ASSERT_TRUE( smpMakeShapeByName( "knot", 3000, 1.0, &knot.soup ) );
	EXPECT_EQ( knot.soup.triangleCount, 3000 ); // the benchmark model
	SoupGuard bad;
	EXPECT_FALSE( smpMakeShapeByName( "teapot", 1000, 1.0, &bad.soup ) );
	EXPECT_FALSE( smpMakeShapeByName( "box", 0, 1.0, &bad.soup ) );
	EXPECT_FALSE( smpMakeShapeByName( "box", 100, -1.0, &bad.soup ) );
}

TEST( PdShapes, SubdivisionKeepsSurfaceAndWatertightness )
{
	SoupGuard torus;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 16, 8, &torus.soup ) );
	for ( int levels : { 1, 2 } )
	{
		SoupGuard g;
		ASSERT_TRUE( smpSubdivideSoup( &torus.soup, levels, &g.soup ) );
		EXPECT_EQ( g.soup.triangleCount, torus.soup.triangleCount << ( 2 * levels ) );
		EXPECT_EQ( CheckClosed( g.soup, "subdivided torus" ), 0 );
		EXPECT_NEAR( Volume( g.soup ), Volume( torus.soup ), 1e-12 );
	}
	SoupGuard grate;
	ASSERT_TRUE( smpMakeGrate( 1.0, 0.1, 2, &grate.soup ) );
	SoupGuard fine;
	ASSERT_TRUE( smpSubdivideSoup( &grate.soup, 1, &fine.soup ) );
	EXPECT_EQ( CheckClosed( fine.soup, "subdivided grate" ), 2 - 8 );
	EXPECT_NEAR( Volume( fine.soup ), Volume( grate.soup ), 1e-12 );
	SoupGuard bad;
	EXPECT_FALSE( smpSubdivideSoup( &grate.soup, -1, &bad.soup ) );
}

TEST( PdShapes, TransformMovesVerticesAndKeepsOrientation )
{
	SoupGuard g;
	ASSERT_TRUE( smpMakeBox( { 1.0, 2.0, 3.0 }, 1, &g.soup ) );
	const double rz[9] = { 0, -1, 0, 1, 0, 0, 0, 0, 1 }; // 90 degrees about z
	smpTransformSoup( &g.soup, rz, { 10.0, 0.0, 0.0 } );
	double minX = 1e9, maxX = -1e9;
	for ( int i = 0; i < g.soup.vertexCount; ++i )
	{
		minX = std::min( minX, g.soup.vertices[3 * i] );
		maxX = std::max( maxX, g.soup.vertices[3 * i] );
	}
	EXPECT_DOUBLE_EQ( minX, 8.0 );
	EXPECT_DOUBLE_EQ( maxX, 12.0 );
	EXPECT_NEAR( Volume( g.soup ), 48.0, 1e-9 );
	const double mirror[9] = { -1, 0, 0, 0, 1, 0, 0, 0, 1 };
	smpTransformSoup( &g.soup, mirror, { 0.0, 0.0, 0.0 } );
	EXPECT_NEAR( Volume( g.soup ), 48.0, 1e-9 ); // winding flipped with the reflection
	EXPECT_EQ( CheckClosed( g.soup, "mirrored box" ), 2 );
}

TEST( PdShapes, HullOfRandomPointsContainsThemAndIsConvex )
{
	for ( unsigned seed : { 1u, 7u, 12345u } )
	{
		SCOPED_TRACE( "seed " + std::to_string( seed ) );
		uint64_t state = seed;
		auto next = [&state]() {
			state = state * 6364136223846793005ull + 1442695040888963407ull;
			return (double)( state >> 11 ) / 9007199254740992.0;
		};
		std::vector<double> points;
		for ( int i = 0; i < 500; ++i )
		{
			// Points in a cube (many interior) plus a few on a sphere.
			points.push_back( 2.0 * next() - 1.0 );
			points.push_back( 2.0 * next() - 1.0 );
			points.push_back( 0.5 * ( 2.0 * next() - 1.0 ) );
		}
		SoupGuard g;
		ASSERT_TRUE( smpMakeConvexHull( points.data(), (int)points.size() / 3, &g.soup ) );
		EXPECT_EQ( CheckClosed( g.soup, "hull" ), 2 );
		CheckContains( g.soup, points, 1e-7 );
		CheckMesh( g.soup, true, "hull" );
		// Deterministic.
		SoupGuard again;
		ASSERT_TRUE( smpMakeConvexHull( points.data(), (int)points.size() / 3, &again.soup ) );
		ASSERT_EQ( again.soup.triangleCount, g.soup.triangleCount );
		EXPECT_TRUE( std::equal( g.soup.indices, g.soup.indices + 3 * g.soup.triangleCount, again.soup.indices ) );
	}
}

TEST( PdShapes, HullHandlesCoplanarAndDuplicatePoints )
{
	// A 5x5x5 lattice with every point twice: most points are coplanar with a face or interior.
	std::vector<double> points;
	for ( int copy = 0; copy < 2; ++copy )
		for ( int i = 0; i < 5; ++i )
			for ( int j = 0; j < 5; ++j )
				for ( int k = 0; k < 5; ++k )
				{
					points.push_back( -1.0 + 0.5 * i );
					points.push_back( -1.0 + 0.5 * j );
					points.push_back( -1.0 + 0.5 * k );
				}
	SoupGuard g;
	ASSERT_TRUE( smpMakeConvexHull( points.data(), (int)points.size() / 3, &g.soup ) );
	EXPECT_EQ( CheckClosed( g.soup, "lattice hull" ), 2 );
	EXPECT_NEAR( Volume( g.soup ), 8.0, 1e-12 );
	CheckContains( g.soup, points, 1e-9 );
	EXPECT_EQ( g.soup.vertexCount, 8 ); // only the corners
	CheckMesh( g.soup, true, "lattice hull" );

	SoupGuard none;
	std::vector<double> flat = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.5, 0 };
	EXPECT_FALSE( smpMakeConvexHull( flat.data(), 5, &none.soup ) );
	std::vector<double> line = { 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3 };
	EXPECT_FALSE( smpMakeConvexHull( line.data(), 4, &none.soup ) );
	std::vector<double> same( 30, 1.0 );
	EXPECT_FALSE( smpMakeConvexHull( same.data(), 10, &none.soup ) );
	EXPECT_FALSE( smpMakeConvexHull( flat.data(), 3, &none.soup ) );
	std::vector<double> nan = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NAN };
	EXPECT_FALSE( smpMakeConvexHull( nan.data(), 4, &none.soup ) );
	EXPECT_EQ( none.soup.triangleCount, 0 );
}

TEST( PdShapes, RandomConvexIsDeterministicAndConvex )
{
	for ( int count : { 4, 50, 1000 } )
	{
		SoupGuard a, b;
		ASSERT_TRUE( smpMakeRandomConvex( count, 42u, &a.soup ) );
		ASSERT_TRUE( smpMakeRandomConvex( count, 42u, &b.soup ) );
		EXPECT_EQ( CheckClosed( a.soup, "random convex " + std::to_string( count ) ), 2 );
		ASSERT_EQ( a.soup.vertexCount, b.soup.vertexCount );
		EXPECT_TRUE( std::equal( a.soup.vertices, a.soup.vertices + 3 * a.soup.vertexCount, b.soup.vertices ) );
		std::vector<double> pts( a.soup.vertices, a.soup.vertices + 3 * a.soup.vertexCount );
		CheckContains( a.soup, pts, 1e-9 );
		EXPECT_LE( Volume( a.soup ), 4.0 / 3.0 * kPi );
		CheckMesh( a.soup, true, "random convex" );
	}
	SoupGuard c, d;
	ASSERT_TRUE( smpMakeRandomConvex( 100, 1u, &c.soup ) );
	ASSERT_TRUE( smpMakeRandomConvex( 100, 2u, &d.soup ) );
	EXPECT_FALSE( c.soup.vertexCount == d.soup.vertexCount &&
				  std::equal( c.soup.vertices, c.soup.vertices + 3 * c.soup.vertexCount, d.soup.vertices ) );
}

TEST( PdShapes, WeldMergesExactlyCoincidentVertices )
{
	// Two triangles sharing an edge, given as separate vertices.
	double v[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
	uint32_t idx[] = { 0, 1, 2, 3, 4, 5 };
	smpSoup s;
	s.vertices = (double*)malloc( sizeof( v ) );
	s.indices = (uint32_t*)malloc( sizeof( idx ) );
	memcpy( s.vertices, v, sizeof( v ) );
	memcpy( s.indices, idx, sizeof( idx ) );
	s.vertexCount = 6;
	s.triangleCount = 2;
	ASSERT_TRUE( smpWeldSoup( &s ) );
	EXPECT_EQ( s.vertexCount, 4 );
	EXPECT_EQ( s.indices[3], s.indices[1] );
	EXPECT_EQ( s.indices[5], s.indices[2] );
	smpFreeSoup( &s );
}

namespace
{

/// Area of the regular n-gon with vertices on radius r.
double PolygonArea( int n, double r )
{
	return 0.5 * n * std::sin( 2.0 * kPi / n ) * r * r;
}

/// Volume of a frustum between similar regular n-gons of radii r0 and r1, h apart.
double Frustum( int n, double r0, double r1, double h )
{
	double a0 = PolygonArea( n, r0 ), a1 = PolygonArea( n, r1 );
	return h / 3.0 * ( a0 + a1 + std::sqrt( a0 * a1 ) );
}

/// Largest and smallest distance of a vertex from the z axis, over vertices with |z| <= zLimit
/// off the axis (the poles of a surface of revolution left out).
void RadialRange( const smpSoup& s, double zLimit, double* lo, double* hi )
{
	*lo = 1e300;
	*hi = 0.0;
	for ( int i = 0; i < s.vertexCount; ++i )
	{
		const double* v = s.vertices + 3 * i;
		if ( std::fabs( v[2] ) > zLimit + 1e-12 )
			continue;
		double r = std::hypot( v[0], v[1] );
		if ( r == 0.0 )
			continue;
		*lo = std::min( *lo, r );
		*hi = std::max( *hi, r );
	}
}

} // namespace

TEST( PdShapes, ChamferedCylinderIsAConvexPrismWithFrustumEnds )
{
	const double radius = 0.04 / 1.01, length = 0.25;
	for ( double chamfer : { 0.0, 0.002 } )
	{
		SoupGuard g;
		ASSERT_TRUE( smpMakeChamferedCylinder( radius, length, chamfer, 0.5 * chamfer, 48, &g.soup ) );
		std::string what = "chamfered cylinder " + std::to_string( chamfer );
		EXPECT_EQ( CheckClosed( g.soup, what ), 2 );
		double exact = PolygonArea( 48, radius ) * ( length - 1.5 * chamfer ) +
					   Frustum( 48, radius - chamfer, radius, chamfer ) +
					   Frustum( 48, radius - 0.5 * chamfer, radius, 0.5 * chamfer );
		EXPECT_NEAR( Volume( g.soup ), exact, 1e-12 );
		double lo = 0.0, hi = 0.0;
		RadialRange( g.soup, 0.5 * length - 0.5 * chamfer, &lo, &hi );
		EXPECT_NEAR( lo, radius, 1e-15 ); // the side's vertices are on the nominal radius
		EXPECT_NEAR( hi, radius, 1e-15 );
		CheckMesh( g.soup, true, what );
	}
	SoupGuard bad;
	EXPECT_FALSE( smpMakeChamferedCylinder( 0.04, 0.25, 0.04, 0.0, 48, &bad.soup ) );
	EXPECT_FALSE( smpMakeChamferedCylinder( 0.04, 0.25, 0.0, 0.0, 2, &bad.soup ) );
}

TEST( PdShapes, WasherIsAnAnnulusOfGenusOne )
{
	const double inner = 0.04 * 1.04, outer = 0.12, thickness = 0.02;
	SoupGuard g;
	ASSERT_TRUE( smpMakeWasher( inner, outer, thickness, 48, &g.soup ) );
	EXPECT_EQ( g.soup.triangleCount, 8 * 48 );
	EXPECT_EQ( CheckClosed( g.soup, "washer" ), 0 );
	EXPECT_NEAR( Volume( g.soup ), ( PolygonArea( 48, outer ) - PolygonArea( 48, inner ) ) * thickness, 1e-12 );
	double lo = 0.0, hi = 0.0;
	RadialRange( g.soup, 1.0, &lo, &hi );
	EXPECT_NEAR( lo, inner, 1e-15 );
	EXPECT_NEAR( hi, outer, 1e-15 );
	CheckMesh( g.soup, false, "washer" );
	SoupGuard bad;
	EXPECT_FALSE( smpMakeWasher( 0.12, 0.04, 0.02, 48, &bad.soup ) );
}

TEST( PdShapes, HoleBlockIsABoxWithAChamferedBore )
{
	const double sx = 0.3, sy = 0.3, sz = 0.2, hole = 0.04;
	for ( double chamfer : { 0.0, 0.003 } )
	{
		SoupGuard g;
		ASSERT_TRUE( smpMakeHoleBlock( sx, sy, sz, hole, chamfer, 48, &g.soup ) );
		std::string what = "hole block " + std::to_string( chamfer );
		EXPECT_EQ( CheckClosed( g.soup, what ), 0 );
		double bore = PolygonArea( 48, hole ) * ( sz - chamfer ) + Frustum( 48, hole, hole + chamfer, chamfer );
		EXPECT_NEAR( Volume( g.soup ), sx * sy * sz - bore, 1e-12 );
		// The bore's vertices are on the hole's radius, the outline's on the box.
		double lo = 0.0, hi = 0.0;
		RadialRange( g.soup, 0.5 * sz, &lo, &hi );
		EXPECT_NEAR( lo, hole, 1e-15 );
		for ( int i = 0; i < g.soup.vertexCount; ++i )
		{
			const double* v = g.soup.vertices + 3 * i;
			EXPECT_LE( std::fabs( v[0] ), 0.5 * sx + 1e-15 );
			EXPECT_LE( std::fabs( v[1] ), 0.5 * sy + 1e-15 );
		}
		CheckMesh( g.soup, false, what );
	}
	SoupGuard bad;
	EXPECT_FALSE( smpMakeHoleBlock( 0.3, 0.3, 0.2, 0.04, 0.0, 44, &bad.soup ) ); // not a multiple of 8
	EXPECT_FALSE( smpMakeHoleBlock( 0.3, 0.3, 0.2, 0.2, 0.0, 48, &bad.soup ) );  // hole wider than the block
}
