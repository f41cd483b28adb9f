// SPDX-License-Identifier: MIT
// PdRoundedPoint (rounded_point.c): closest points on triangles against a brute-force sampling,
// signed distances to a box against its analytic distance field, pseudonormals at a box's edge
// and corner, the local minima a sphere touches (one over a tessellated floor wherever it
// stands, two in a fold, one at a convex corner) and the two-point bound's inequalities.
#include "mesh_fixture.h"
#include "test_util.h"

extern "C"
{
#include "rounded_point.h"
#include "workspace.h"
}

#include <algorithm>
#include <cmath>

namespace
{

// Signed distance to the box [-h, h]^3 (negative inside).
double BoxSdf( pdVec3 p, pdVec3 h )
{
	double qx = std::fabs( p.x ) - h.x, qy = std::fabs( p.y ) - h.y, qz = std::fabs( p.z ) - h.z;
	double ox = std::max( qx, 0.0 ), oy = std::max( qy, 0.0 ), oz = std::max( qz, 0.0 );
	return std::sqrt( ox * ox + oy * oy + oz * oz ) + std::min( std::max( qx, std::max( qy, qz ) ), 0.0 );
}

struct Fixture
{
	Soup soup;
	MeshPtr mesh;
	TestWorkspacePtr ws{ pdCreateWorkspace( nullptr ) };
	explicit Fixture( Soup s ) : soup( std::move( s ) ), mesh( nullptr )
	{
		pdMeshDef def = DefOf( soup );
		pdMeshReport report;
		mesh.m = pdCreateMesh( &def, &report );
		EXPECT_NE( mesh.m, nullptr ) << report.message;
	}
};

// A floor in z = 0 of cells x cells quads over [-1, 1]^2, facing +z.
Soup MakeGridFloor( int cells )
{
	Soup s;
	for ( int i = 0; i <= cells; ++i )
		for ( int j = 0; j <= cells; ++j )
			s.Add( -1.0 + 2.0 * i / cells, -1.0 + 2.0 * j / cells, 0.0 );
	for ( int i = 0; i < cells; ++i )
		for ( int j = 0; j < cells; ++j )
		{
			uint32_t a = (uint32_t)( i * ( cells + 1 ) + j ), b = a + 1, c = a + (uint32_t)( cells + 1 ), d = c + 1;
			TriFacing( s, a, c, d, { 0, 0, 1 } );
			TriFacing( s, a, d, b, { 0, 0, 1 } );
		}
	return s;
}

} // namespace

TEST( PdRoundedPoint, ClosestPointOnTriangleMatchesSampling )
{
	TestRng rng( 11 );
	for ( int trial = 0; trial < 200; ++trial )
	{
		SCOPED_TRACE( "seed 11 trial " + std::to_string( trial ) );
		pdVec3 v[3];
		for ( auto& x : v )
			x = { rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) };
		if ( trial % 10 == 0 )
			v[2] = v[1]; // degenerate
		pdVec3 p = { rng.Range( -2, 2 ), rng.Range( -2, 2 ), rng.Range( -2, 2 ) };
		pdVec3 q;
		pdiTriFeature f;
		double d = pdiClosestPointOnTriangle( p, v, &q, &f );
		EXPECT_NEAR( d, pdiLength( pdiSub( p, q ) ), 1e-12 );
		double best = INFINITY;
		const int n = 120;
		for ( int i = 0; i <= n; ++i )
			for ( int j = 0; i + j <= n; ++j )
			{
				double a = (double)i / n, b = (double)j / n;
				pdVec3 s = pdiAdd( pdiAdd( pdiScale( v[0], 1 - a - b ), pdiScale( v[1], a ) ), pdiScale( v[2], b ) );
				best = std::min( best, pdiLength( pdiSub( p, s ) ) );
			}
		EXPECT_LE( d, best + 1e-12 );
		EXPECT_GE( d, best - 0.05 ); // the sampling's spacing
		if ( f.type == PD_FEATURE_VERTEX )
			EXPECT_LT( pdiLength( pdiSub( q, v[f.index] ) ), 1e-12 );
	}
}

TEST( PdRoundedPoint, SignedDistanceToABoxIsItsDistanceField )
{
	pdVec3 h = { 0.5, 0.3, 0.2 };
	Fixture f( MakeBox( { 0, 0, 0 }, h ) );
	TestRng rng( 5 );
	for ( int trial = 0; trial < 300; ++trial )
	{
		pdVec3 p = { rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) };
		bool inside = false;
		double s = pdiMesh_SignedDistance( f.mesh.m, p, f.ws.get(), nullptr, &inside );
		EXPECT_NEAR( s, BoxSdf( p, h ), 1e-12 ) << "seed 5 trial " << trial;
		EXPECT_EQ( inside, BoxSdf( p, h ) < 0 );
	}
}

TEST( PdRoundedPoint, PseudonormalsAtEdgesAndCornersPointOut )
{
	Fixture f( MakeBox( { 0, 0, 0 }, { 1, 1, 1 } ) );
	pdiSurfacePoint sp;
	ASSERT_TRUE( pdiMesh_ClosestPoint( f.mesh.m, { 2, 2, 2 }, INFINITY, f.ws.get(), &sp ) );
	EXPECT_EQ( sp.feature.type, PD_FEATURE_VERTEX );
	pdVec3 n = pdiMesh_FeatureNormal( f.mesh.m, sp.triangle, sp.feature );
	double k = 1 / std::sqrt( 3.0 );
	EXPECT_NEAR( n.x, k, 1e-12 );
	EXPECT_NEAR( n.y, k, 1e-12 );
	EXPECT_NEAR( n.z, k, 1e-12 );
	ASSERT_TRUE( pdiMesh_ClosestPoint( f.mesh.m, { 2, 0.3, 2 }, INFINITY, f.ws.get(), &sp ) );
	EXPECT_EQ( sp.feature.type, PD_FEATURE_EDGE );
	n = pdiMesh_FeatureNormal( f.mesh.m, sp.triangle, sp.feature );
	EXPECT_NEAR( n.x, std::sqrt( 0.5 ), 1e-12 );
	EXPECT_NEAR( n.y, 0.0, 1e-12 );
	EXPECT_NEAR( n.z, std::sqrt( 0.5 ), 1e-12 );
}

TEST( PdRoundedPoint, OneMinimumOverATessellatedFloorWhereverTheSphereStands )
{
	Fixture f( MakeGridFloor( 8 ) );
	// Over a face, over a diagonal, over an edge between quads, over a vertex; a radius much
	// wider than a cell, so many triangles are within reach.
	const pdVec3 spots[] = { { 0.06, 0.02, 0 }, { 0.1, 0.1, 0 }, { 0.25, 0.1, 0 }, { 0.25, 0.25, 0 }, { 0, 0, 0 } };
	for ( pdVec3 s : spots )
	{
		pdVec3 c = { s.x, s.y, 0.4 };
		pdiSurfacePoint out[8];
		bool dropped = true;
		int n = pdiMesh_PointLocalMinima( f.mesh.m, c, 0.5, f.ws.get(), out, 8, &dropped );
		ASSERT_EQ( n, 1 ) << s.x << " " << s.y;
		EXPECT_FALSE( dropped );
		EXPECT_NEAR( out[0].distance, 0.4, 1e-12 );
		EXPECT_NEAR( out[0].point.x, s.x, 1e-12 );
		EXPECT_NEAR( out[0].point.y, s.y, 1e-12 );
	}
	// Out of reach: none.
	pdiSurfacePoint out[8];
	EXPECT_EQ( pdiMesh_PointLocalMinima( f.mesh.m, { 0, 0, 0.6 }, 0.5, f.ws.get(), out, 8, nullptr ), 0 );
}

TEST( PdRoundedPoint, TwoMinimaInAFoldOneAtAConvexCorner )
{
	// A V fold: two planes z = |x| (as an open sheet), a point above the crease touches both.
	Soup v;
	uint32_t a = v.Add( -1, -1, 1 ), b = v.Add( -1, 1, 1 ), c = v.Add( 0, -1, 0 ), d = v.Add( 0, 1, 0 ),
			 e = v.Add( 1, -1, 1 ), g = v.Add( 1, 1, 1 );
	TriFacing( v, a, c, d, { 1, 0, 1 } );
	TriFacing( v, a, d, b, { 1, 0, 1 } );
	TriFacing( v, c, e, g, { -1, 0, 1 } );
	TriFacing( v, c, g, d, { -1, 0, 1 } );
	Fixture fold( v );
	pdiSurfacePoint out[8];
	int n = pdiMesh_PointLocalMinima( fold.mesh.m, { 0, 0.2, 0.5 }, 1.0, fold.ws.get(), out, 8, nullptr );
	ASSERT_EQ( n, 2 );
	EXPECT_NEAR( out[0].distance, 0.5 / std::sqrt( 2.0 ), 1e-12 );
	EXPECT_NEAR( out[1].distance, 0.5 / std::sqrt( 2.0 ), 1e-12 );
	EXPECT_NEAR( out[0].point.x, -out[1].point.x, 1e-12 );

	Fixture box( MakeBox( { 0, 0, 0 }, { 1, 1, 1 } ) );
	n = pdiMesh_PointLocalMinima( box.mesh.m, { 1.2, 1.3, 1.1 }, 1.0, box.ws.get(), out, 8, nullptr );
	ASSERT_EQ( n, 1 );
	EXPECT_NEAR( out[0].point.x, 1, 1e-12 );
	EXPECT_NEAR( out[0].point.y, 1, 1e-12 );
	EXPECT_NEAR( out[0].point.z, 1, 1e-12 );
	// Capacity: the closest are kept and the rest said to be dropped.
	bool dropped = false;
	n = pdiMesh_PointLocalMinima( fold.mesh.m, { 0, 0.2, 0.5 }, 1.0, fold.ws.get(), out, 1, &dropped );
	EXPECT_EQ( n, 1 );
	EXPECT_TRUE( dropped );
}

TEST( PdRoundedPoint, TwoPointBoundBoundsEveryPointOfTheSegment )
{
	Fixture f( MakeBox( { 0, 0, 0 }, { 0.5, 0.4, 0.3 } ) );
	TestRng rng( 3 );
	for ( int trial = 0; trial < 100; ++trial )
	{
		pdVec3 p0 = { rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) };
		pdVec3 p1 = { rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) };
		double bound = pdiMesh_TwoPointBound( f.mesh.m, p0, p1, INFINITY, f.ws.get() );
		for ( int k = 0; k <= 20; ++k )
		{
			pdiSurfacePoint sp;
			pdiMesh_ClosestPoint( f.mesh.m, pdiLerp( p0, p1, k / 20.0 ), INFINITY, f.ws.get(), &sp );
			EXPECT_LE( sp.distance, bound + 1e-12 ) << "seed 3 trial " << trial;
		}
		pdiSurfacePoint sp;
		pdiMesh_ClosestPoint( f.mesh.m, p0, INFINITY, f.ws.get(), &sp );
		EXPECT_NEAR( pdiMesh_TwoPointBound( f.mesh.m, p0, p0, INFINITY, f.ws.get() ), sp.distance, 1e-12 );
	}
}
