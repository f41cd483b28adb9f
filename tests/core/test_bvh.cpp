// SPDX-License-Identifier: MIT
// BVH construction and the single-mesh point queries (bvh.c, proximity.c): every node's box
// contains its children and its triangles, leaves partition the triangles, the tree is
// balanced; point distance equals brute force, containment equals the analytic solid.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

extern "C"
{
#include "mesh.h"
#include "proximity.h"
#include "shapes.h"
#include "tri_distance.h"
#include "workspace.h"
}

#include "query_fixture.h"

using namespace polydepth::test;

namespace
{

bool BoxContainsPoint( const pdiBvhNode& n, pdVec3 p, double tol )
{
	pdVec3 d = pdiSub( p, n.center );
	return std::fabs( pdiDot( d, n.axes.cx ) ) <= n.halfExtent.x + tol &&
		   std::fabs( pdiDot( d, n.axes.cy ) ) <= n.halfExtent.y + tol &&
		   std::fabs( pdiDot( d, n.axes.cz ) ) <= n.halfExtent.z + tol;
}

void BoxCorners( const pdiBvhNode& n, pdVec3 out[8] )
{
	for ( int k = 0; k < 8; ++k )
	{
		double sx = ( k & 1 ) ? 1.0 : -1.0, sy = ( k & 2 ) ? 1.0 : -1.0, sz = ( k & 4 ) ? 1.0 : -1.0;
		out[k] = pdiAdd( n.center, pdiAdd( pdiScale( n.axes.cx, sx * n.halfExtent.x ),
										 pdiAdd( pdiScale( n.axes.cy, sy * n.halfExtent.y ),
												pdiScale( n.axes.cz, sz * n.halfExtent.z ) ) ) );
	}
}

// Checks the whole tree; returns the number of triangles under node.
int CheckSubtree( const pdMesh* mesh, int index, int depth, std::vector<int>& seen, int* maxDepth )
{
	const pdiBvh& bvh = mesh->bvh;
	const pdiBvhNode& n = bvh.nodes[index];
	double tol = 1e-12 * ( mesh->diagonal + 1.0 );
	*maxDepth = std::max( *maxDepth, depth );
	// Axes orthonormal and right-handed.
	EXPECT_NEAR( pdiLength( n.axes.cx ), 1.0, 1e-12 );
	EXPECT_NEAR( pdiLength( n.axes.cy ), 1.0, 1e-12 );
	EXPECT_NEAR( pdiDot( n.axes.cx, n.axes.cy ), 0.0, 1e-12 );
	EXPECT_NEAR( pdiDot( pdiCross( n.axes.cx, n.axes.cy ), n.axes.cz ), 1.0, 1e-12 );
	if ( n.count > 0 )
	{
		EXPECT_LE( n.count, PDI_BVH_LEAF_SIZE );
		for ( int k = 0; k < n.count; ++k )
		{
			int t = bvh.triangleOrder[n.start + k];
			EXPECT_GE( t, 0 );
			EXPECT_LT( t, mesh->triangleCount );
			if ( t < 0 || t >= mesh->triangleCount )
			{
				continue;
			}
			seen[t] += 1;
			pdVec3 v[3];
			pdiMesh_TriangleVertices( mesh, t, v );
			for ( int m = 0; m < 3; ++m )
			{
				EXPECT_TRUE( BoxContainsPoint( n, v[m], 0.0 ) ) << "node " << index << " triangle " << t;
			}
		}
		return n.count;
	}
	int left = index + 1, right = n.start;
	EXPECT_GT( right, left );
	EXPECT_LT( right, bvh.nodeCount );
	if ( right <= left || right >= bvh.nodeCount )
	{
		return 0;
	}
	// Oriented boxes are fitted per node, so a child's box may poke out of its parent's where
	// no triangle is; what the queries rely on is that every triangle of the subtree is inside.
	int total = 0;
	for ( int child : { left, right } )
	{
		total += CheckSubtree( mesh, child, depth + 1, seen, maxDepth );
	}
	// Leaf triangles under this node lie in this node's box.
	std::vector<int> stack = { index };
	while ( !stack.empty() )
	{
		int k = stack.back();
		stack.pop_back();
		const pdiBvhNode& m = bvh.nodes[k];
		if ( m.count == 0 )
		{
			stack.push_back( k + 1 );
			stack.push_back( m.start );
			continue;
		}
		for ( int j = 0; j < m.count; ++j )
		{
			pdVec3 v[3];
			pdiMesh_TriangleVertices( mesh, bvh.triangleOrder[m.start + j], v );
			for ( int q = 0; q < 3; ++q )
			{
				EXPECT_TRUE( BoxContainsPoint( n, v[q], tol ) ) << "node " << index;
			}
		}
	}
	return total;
}

void CheckTree( const pdMesh* mesh )
{
	const pdiBvh& bvh = mesh->bvh;
	ASSERT_GT( bvh.nodeCount, 0 );
	std::vector<int> seen( mesh->triangleCount, 0 );
	int maxDepth = 0;
	int total = CheckSubtree( mesh, 0, 1, seen, &maxDepth );
	EXPECT_EQ( total, mesh->triangleCount );
	for ( int t = 0; t < mesh->triangleCount; ++t )
	{
		EXPECT_EQ( seen[t], 1 ) << "triangle " << t;
	}
	EXPECT_EQ( maxDepth, bvh.depth );
	double balanced = std::ceil( std::log2( (double)mesh->triangleCount ) ) + 2.0;
	EXPECT_LE( bvh.depth, (int)balanced );
	EXPECT_LE( bvh.nodeCount, 2 * mesh->triangleCount );
	ASSERT_NE( bvh.cones, nullptr );
	EXPECT_EQ( bvh.bytes, (size_t)bvh.nodeCount * ( sizeof( pdiBvhNode ) + sizeof( pdiBvhCone ) ) +
							  (size_t)mesh->triangleCount *
								  ( sizeof( int ) + 5 * sizeof( pdVec3 ) + sizeof( pdiTrianglePlane ) ) );
	// The leaf-ordered copies hold exactly each slot's triangle and its box.
	ASSERT_NE( bvh.leafVertices, nullptr );
	for ( int k = 0; k < mesh->triangleCount; ++k )
	{
		pdVec3 v[3], lo, hi;
		pdiMesh_TriangleVertices( mesh, bvh.triangleOrder[k], v );
		pdiTriangleBox( v, &lo, &hi );
		for ( int c = 0; c < 3; ++c )
		{
			EXPECT_TRUE( v[c].x == bvh.leafVertices[k][c].x && v[c].y == bvh.leafVertices[k][c].y &&
						 v[c].z == bvh.leafVertices[k][c].z )
				<< "slot " << k;
		}
		EXPECT_TRUE( lo.x == bvh.leafLo[k].x && lo.y == bvh.leafLo[k].y && lo.z == bvh.leafLo[k].z &&
					 hi.x == bvh.leafHi[k].x && hi.y == bvh.leafHi[k].y && hi.z == bvh.leafHi[k].z )
			<< "slot " << k;
		pdiTrianglePlane plane;
		pdiTrianglePlane_Make( v, &plane );
		EXPECT_TRUE( plane.n.x == bvh.leafPlanes[k].n.x && plane.n.y == bvh.leafPlanes[k].n.y &&
					 plane.n.z == bvh.leafPlanes[k].n.z && plane.length == bvh.leafPlanes[k].length )
			<< "slot " << k;
	}
	EXPECT_EQ( pdMesh_GetInfo( mesh ).bvhBytes, bvh.bytes );
	// Every node's normal cone holds the normal of every triangle below it.
	for ( int i = 0; i < bvh.nodeCount; ++i )
	{
		const pdiBvhCone& cone = bvh.cones[i];
		if ( cone.spread > 1.0 )
			continue;
		EXPECT_NEAR( pdiLength( cone.axis ), 1.0, 1e-12 );
		std::vector<int> stack = { i };
		while ( !stack.empty() )
		{
			const pdiBvhNode& n = bvh.nodes[stack.back()];
			int at = stack.back();
			stack.pop_back();
			if ( n.count == 0 )
			{
				stack.push_back( at + 1 );
				stack.push_back( n.start );
				continue;
			}
			for ( int k = 0; k < n.count; ++k )
			{
				pdVec3 normal = mesh->faceNormals[bvh.triangleOrder[n.start + k]];
				double angle = std::atan2( pdiLength( pdiCross( normal, cone.axis ) ), pdiDot( normal, cone.axis ) );
				EXPECT_LE( std::sin( std::min( angle, 0.5 * 3.14159265358979323846 ) ), cone.spread + 1e-12 )
					<< "node " << i;
			}
		}
	}
}

double BrutePointDistance( const pdMesh* mesh, pdVec3 p )
{
	pdVec3 point[3] = { p, p, p };
	double best = INFINITY;
	for ( int t = 0; t < mesh->triangleCount; ++t )
	{
		pdVec3 v[3];
		pdiMesh_TriangleVertices( mesh, t, v );
		best = std::min( best, pdiTriangleDistance( point, v, nullptr, nullptr, nullptr, nullptr ) );
	}
	return best;
}

} // namespace

TEST( PdBvh, NodesContainTrianglesOnShapes )
{
	const char* names[] = { "box", "icosphere", "torus", "knot", "grate", "cup", "spoon", "distorted-torus" };
	for ( const char* name : names )
	{
		SCOPED_TRACE( name );
		pdMesh* mesh = MakeShape( name, 600, 2.0 );
		ASSERT_NE( mesh, nullptr );
		CheckTree( mesh );
		pdDestroyMesh( mesh );
	}
}

TEST( PdBvh, NodesContainTrianglesOnRandomSoups )
{
	for ( unsigned seed = 1; seed <= 6; ++seed )
	{
		SCOPED_TRACE( ::testing::Message() << "seed " << seed );
		// Includes a single triangle, odd counts and a soup far from the origin.
		int counts[] = { 1, 2, 3, 17, 250, 1001 };
		std::mt19937 rng( seed );
		pdMesh* mesh = MakeRandomSoup( rng, counts[seed - 1], 10.0, 0.8 );
		ASSERT_NE( mesh, nullptr );
		CheckTree( mesh );
		pdDestroyMesh( mesh );
	}
}

TEST( PdBvh, TightBoxesForThinLeaves )
{
	// Leaves over one or two nearly coplanar triangles of a tilted plate must be thin.
	smpSoup soup = {};
	ASSERT_TRUE( smpMakeBox( pdVec3{ 2.0, 2.0, 0.01 }, 8, &soup ) );
	double r[9] = { 0.8, -0.6, 0.0, 0.36, 0.48, -0.8, 0.48, 0.64, 0.6 };
	smpTransformSoup( &soup, r, pdVec3{ 1.0, 2.0, 3.0 } );
	pdMesh* mesh = MakeMesh( &soup );
	smpFreeSoup( &soup );
	ASSERT_NE( mesh, nullptr );
	const pdiBvh& bvh = mesh->bvh;
	int checked = 0;
	for ( int i = 0; i < bvh.nodeCount; ++i )
	{
		const pdiBvhNode& n = bvh.nodes[i];
		if ( n.count == 0 )
		{
			continue;
		}
		bool coplanar = true;
		pdVec3 n0 = mesh->faceNormals[bvh.triangleOrder[n.start]];
		for ( int k = 1; k < n.count; ++k )
		{
			pdVec3 nk = mesh->faceNormals[bvh.triangleOrder[n.start + k]];
			coplanar = coplanar && pdiDot( n0, nk ) > 1.0 - 1e-12;
		}
		if ( coplanar )
		{
			++checked;
			double thin = std::min( n.halfExtent.x, std::min( n.halfExtent.y, n.halfExtent.z ) );
			EXPECT_LT( thin, 1e-9 ) << "node " << i;
		}
	}
	EXPECT_GT( checked, 10 );
	pdDestroyMesh( mesh );
}

TEST( PdBvh, PointDistanceEqualsBruteForce )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	const char* names[] = { "torus", "knot", "cup" };
	unsigned seed = 11;
	for ( const char* name : names )
	{
		pdMesh* mesh = MakeShape( name, 500, 2.0 );
		ASSERT_NE( mesh, nullptr );
		std::mt19937 rng( seed++ );
		std::uniform_real_distribution<double> u( -2.0, 2.0 );
		for ( int k = 0; k < 60; ++k )
		{
			pdVec3 p = { u( rng ), u( rng ), u( rng ) };
			double expected = BrutePointDistance( mesh, p );
			double got = pdiMesh_PointDistance( mesh, p, INFINITY, ws );
			ASSERT_NEAR( got, expected, 1e-12 * ( 1.0 + expected ) ) << name << " seed " << seed - 1 << " point " << k;
			// Bounded: returns maxDistance when nothing is closer.
			double capped = pdiMesh_PointDistance( mesh, p, 0.5 * expected, ws );
			EXPECT_EQ( capped, 0.5 * expected );
			double loose = pdiMesh_PointDistance( mesh, p, 2.0 * expected + 1e-9, ws );
			EXPECT_NEAR( loose, expected, 1e-12 * ( 1.0 + expected ) );
		}
		pdDestroyMesh( mesh );
	}
	pdDestroyWorkspace( ws );
}

TEST( PdBvh, ContainsPointMatchesAnalyticSolids )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	std::mt19937 rng( 7 );
	std::uniform_real_distribution<double> u( -1.6, 1.6 );

	smpSoup soup = {};
	ASSERT_TRUE( smpMakeBox( pdVec3{ 1.0, 0.5, 0.75 }, 3, &soup ) );
	pdMesh* box = MakeMesh( &soup );
	smpFreeSoup( &soup );
	ASSERT_NE( box, nullptr );
	ASSERT_TRUE( box->closed );
	int insideCount = 0;
	for ( int k = 0; k < 400; ++k )
	{
		pdVec3 p = { u( rng ), u( rng ), u( rng ) };
		double gap = std::min( { std::fabs( std::fabs( p.x ) - 1.0 ), std::fabs( std::fabs( p.y ) - 0.5 ),
								 std::fabs( std::fabs( p.z ) - 0.75 ) } );
		if ( gap < 1e-6 )
		{
			continue;
		}
		bool inside = std::fabs( p.x ) < 1.0 && std::fabs( p.y ) < 0.5 && std::fabs( p.z ) < 0.75;
		insideCount += inside;
		EXPECT_EQ( pdiMesh_ContainsPoint( box, p, ws ), inside ) << "seed 7 point " << k;
	}
	EXPECT_GT( insideCount, 10 );
	// Points on the surface, on an edge, at a vertex and at the centre.
	EXPECT_FALSE( pdiMesh_ContainsPoint( box, pdVec3{ 1.0, 0.0, 0.0 }, ws ) );
	EXPECT_FALSE( pdiMesh_ContainsPoint( box, pdVec3{ 1.0, 0.5, 0.0 }, ws ) );
	EXPECT_FALSE( pdiMesh_ContainsPoint( box, pdVec3{ 1.0, 0.5, 0.75 }, ws ) );
	EXPECT_TRUE( pdiMesh_ContainsPoint( box, pdVec3{ 0.0, 0.0, 0.0 }, ws ) );
	// Rays from grid points of the subdivided box cross vertices and edges often.
	for ( int i = -2; i <= 2; ++i )
	{
		for ( int j = -2; j <= 2; ++j )
		{
			EXPECT_TRUE( pdiMesh_ContainsPoint( box, pdVec3{ 0.4 * i, 0.2 * j, 0.0 }, ws ) ) << i << " " << j;
		}
	}
	pdDestroyMesh( box );

	// Torus: inside when the distance to the core circle is below the (tessellated) tube radius.
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.4, 48, 24, &soup ) );
	pdMesh* torus = MakeMesh( &soup );
	smpFreeSoup( &soup );
	ASSERT_NE( torus, nullptr );
	ASSERT_TRUE( torus->closed );
	for ( int k = 0; k < 400; ++k )
	{
		pdVec3 p = { u( rng ), u( rng ), 0.5 * u( rng ) };
		double ring = std::hypot( std::hypot( p.x, p.y ) - 1.0, p.z );
		if ( std::fabs( ring - 0.4 ) < 0.02 )
		{
			continue; // within the tessellation error of the surface
		}
		EXPECT_EQ( pdiMesh_ContainsPoint( torus, p, ws ), ring < 0.4 ) << "point " << k;
	}
	pdDestroyMesh( torus );
	pdDestroyWorkspace( ws );
}

TEST( PdBvh, OpenMeshContainsNothing )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	smpSoup soup = {};
	ASSERT_TRUE( smpMakeBox( pdVec3{ 1.0, 1.0, 1.0 }, 1, &soup ) );
	soup.triangleCount -= 1; // drop one face triangle: the box is open
	pdMesh* mesh = MakeMesh( &soup );
	smpFreeSoup( &soup );
	ASSERT_NE( mesh, nullptr );
	EXPECT_FALSE( mesh->closed );
	EXPECT_FALSE( pdiMesh_ContainsPoint( mesh, pdVec3{ 0.0, 0.0, 0.0 }, ws ) );
	EXPECT_FALSE( pdiMesh_ContainsPoint( mesh, pdVec3{ 0.3, -0.2, 0.1 }, ws ) );
	pdDestroyMesh( mesh );
	pdDestroyWorkspace( ws );
}
