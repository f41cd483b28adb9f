// SPDX-License-Identifier: MIT
// Mesh topology and shape (mesh_topology.c): adjacency against hand-built generators with known
// topology, closed and convex classification, winding, and analytic geometry.
#include <gtest/gtest.h>

#include "mesh_fixture.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

TEST( PdMesh, BoxIsClosedConvexWithEulerTwo )
{
	Soup box = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	pdMeshDef def = DefOf( box );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_TRUE( m->closed );
	EXPECT_TRUE( m->outwardWinding );
	EXPECT_TRUE( m->convex );
	EXPECT_EQ( m->edgeCount, 18 );
	EXPECT_EQ( EulerCharacteristic( m.m ), 2 );
	EXPECT_EQ( CountEdges( m.m, PDI_EDGE_CONVEX ), 12 );
	EXPECT_EQ( CountEdges( m.m, PDI_EDGE_FLAT ), 6 );
	// Edge invariants: v0 < v1, face0 traverses v0 -> v1, triangleEdges point back.
	for ( int e = 0; e < m->edgeCount; ++e )
	{
		const pdiMeshEdge& edge = m->edges[e];
		EXPECT_LT( edge.v0, edge.v1 );
		bool forward = false;
		for ( int k = 0; k < 3; ++k )
		{
			forward |= m->triangles[edge.face0][k] == edge.v0 && m->triangles[edge.face0][( k + 1 ) % 3] == edge.v1;
		}
		EXPECT_TRUE( forward ) << "edge " << e;
	}
	for ( int t = 0; t < m->triangleCount; ++t )
		for ( int k = 0; k < 3; ++k )
		{
			const pdiMeshEdge& edge = m->edges[m->triangleEdges[t][k]];
			int a = m->triangles[t][k], b = m->triangles[t][( k + 1 ) % 3];
			EXPECT_EQ( std::min( a, b ), edge.v0 );
			EXPECT_EQ( std::max( a, b ), edge.v1 );
			EXPECT_TRUE( edge.face0 == t || edge.face1 == t );
		}
	// Vertex -> faces CSR against brute force.
	for ( int v = 0; v < m->vertexCount; ++v )
	{
		std::set<int> expected, got;
		for ( int t = 0; t < m->triangleCount; ++t )
			for ( int k = 0; k < 3; ++k )
				if ( m->triangles[t][k] == v )
					expected.insert( t );
		for ( int i = m->vertexFaceStart[v]; i < m->vertexFaceStart[v + 1]; ++i )
			got.insert( m->vertexFaces[i] );
		EXPECT_EQ( got, expected ) << "vertex " << v;
	}
	EXPECT_EQ( m->vertexFaceStart[m->vertexCount], 3 * m->triangleCount );
}

TEST( PdMesh, IcosahedronIsClosedConvex )
{
	Soup s = MakeIcosahedron();
	ASSERT_EQ( s.TriangleCount(), 20 );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_TRUE( pdMesh_GetInfo( m.m ).closed );
	EXPECT_TRUE( pdMesh_GetInfo( m.m ).convex );
	EXPECT_EQ( m->edgeCount, 30 );
	EXPECT_EQ( CountEdges( m.m, PDI_EDGE_CONVEX ), 30 );
	EXPECT_EQ( EulerCharacteristic( m.m ), 2 );
	// Regular icosahedron of edge a = 2: V = 5/12 (3 + sqrt 5) a^3.
	EXPECT_NEAR( m->volume, 5.0 / 12.0 * ( 3.0 + std::sqrt( 5.0 ) ) * 8.0, 1e-12 );
	EXPECT_NEAR( m->centroid.x, 0.0, 1e-14 );
}

TEST( PdMesh, TorusIsClosedNotConvexWithEulerZero )
{
	Soup s = MakeTorus( 2.0, 0.5, 16, 8 );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_TRUE( pdMesh_GetInfo( m.m ).closed );
	EXPECT_TRUE( m->outwardWinding );
	EXPECT_FALSE( pdMesh_GetInfo( m.m ).convex );
	EXPECT_GT( CountEdges( m.m, PDI_EDGE_CONCAVE ), 0 );
	EXPECT_GT( CountEdges( m.m, PDI_EDGE_CONVEX ), 0 );
	EXPECT_EQ( m->edgeCount, 3 * 16 * 8 );
	EXPECT_EQ( EulerCharacteristic( m.m ), 0 );
	// Inscribed polyhedral torus: a bit below 2 pi^2 R r^2.
	double analytic = 2.0 * M_PI * M_PI * 2.0 * 0.25;
	EXPECT_LT( m->volume, analytic );
	EXPECT_GT( m->volume, 0.8 * analytic );
}

TEST( PdMesh, SingleTriangleIsOpenWithThreeBoundaryEdges )
{
	Soup s;
	s.Add( 1, 0, 0 );
	s.Add( 4, 0, 0 );
	s.Add( 1, 3, 0 );
	s.Tri( 0, 1, 2 );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_FALSE( pdMesh_GetInfo( m.m ).closed );
	EXPECT_FALSE( pdMesh_GetInfo( m.m ).convex );
	EXPECT_FALSE( m->outwardWinding );
	EXPECT_EQ( m->edgeCount, 3 );
	EXPECT_EQ( CountEdges( m.m, PDI_EDGE_BOUNDARY ), 3 );
	for ( int e = 0; e < 3; ++e )
	{
		EXPECT_EQ( m->edges[e].face0, 0 );
		EXPECT_EQ( m->edges[e].face1, -1 );
	}
	EXPECT_EQ( m->volume, 0.0 );
	EXPECT_DOUBLE_EQ( m->faceAreas[0], 4.5 );
	EXPECT_DOUBLE_EQ( m->faceNormals[0].z, 1.0 );
	// Open mesh: area-weighted centroid = the triangle's centroid.
	EXPECT_DOUBLE_EQ( m->centroid.x, 2.0 );
	EXPECT_DOUBLE_EQ( m->centroid.y, 1.0 );
	EXPECT_DOUBLE_EQ( m->radius, std::sqrt( 5.0 ) );
}

TEST( PdMesh, FlippedTriangleIsInconsistentAndOpen )
{
	Soup s = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	std::swap( s.t[3 * 5 + 1], s.t[3 * 5 + 2] );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_FALSE( pdMesh_GetInfo( m.m ).closed );
	EXPECT_FALSE( pdMesh_GetInfo( m.m ).convex );
	EXPECT_EQ( CountEdges( m.m, PDI_EDGE_INCONSISTENT ), 3 );
	EXPECT_EQ( CountEdges( m.m, PDI_EDGE_BOUNDARY ), 0 );
	for ( int k = 0; k < 3; ++k )
	{
		EXPECT_TRUE( m->edges[m->triangleEdges[5][k]].flags & PDI_EDGE_INCONSISTENT );
	}
}

TEST( PdMesh, NonManifoldEdgeIsFlagged )
{
	Soup s;
	s.Add( 0, 0, 0 );
	s.Add( 1, 0, 0 );
	s.Add( 0, 1, 0 );
	s.Add( 0, -1, 0 );
	s.Add( 0, 0, 1 );
	s.Tri( 0, 1, 2 );
	s.Tri( 1, 0, 3 );
	s.Tri( 0, 1, 4 );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_EQ( CountEdges( m.m, PDI_EDGE_NONMANIFOLD ), 1 );
	EXPECT_EQ( CountEdges( m.m, PDI_EDGE_BOUNDARY ), 6 );
	EXPECT_FALSE( m->closed );
}

TEST( PdMesh, UnweldedBoxIsStillClosed )
{
	Soup s = MakeBox( { 0, 0, 0 }, { 1, 1, 1 }, false );
	ASSERT_EQ( s.VertexCount(), 36 );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_EQ( pdMesh_GetInfo( m.m ).vertexCount, 36 ); // caller's numbering kept
	EXPECT_EQ( m->canonicalVertexCount, 8 );
	EXPECT_TRUE( pdMesh_GetInfo( m.m ).closed );
	EXPECT_TRUE( pdMesh_GetInfo( m.m ).convex );
	EXPECT_EQ( m->edgeCount, 18 );
	EXPECT_EQ( EulerCharacteristic( m.m ), 2 );
	EXPECT_DOUBLE_EQ( m->volume, 8.0 );
	for ( int t = 0; t < m->triangleCount; ++t )
		for ( int k = 0; k < 3; ++k )
			EXPECT_EQ( m->triangles[t][k], 3 * t + k );
	// Each canonical corner lists its 4-6 faces; non-canonical slots are empty.
	for ( int v = 0; v < 36; ++v )
	{
		int c = m->canonicalVertex[v];
		int n = m->vertexFaceStart[c + 1] - m->vertexFaceStart[c];
		EXPECT_GE( n, 3 );
		EXPECT_LE( n, 6 );
		pdVec3 a = m->vertices[v], b = m->vertices[c];
		EXPECT_TRUE( a.x == b.x && a.y == b.y && a.z == b.z );
	}
}

TEST( PdMesh, InwardBoxIsClosedWithConvexityFromOutside )
{
	Soup s = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	for ( size_t i = 0; i < s.t.size(); i += 3 )
	{
		std::swap( s.t[i + 1], s.t[i + 2] );
	}
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_TRUE( m->closed );
	EXPECT_FALSE( m->outwardWinding );
	EXPECT_TRUE( m->convex );
	EXPECT_EQ( CountEdges( m.m, PDI_EDGE_CONVEX ), 12 );
	EXPECT_DOUBLE_EQ( m->volume, 8.0 );
}

TEST( PdMesh, BoxGeometryIsAnalytic )
{
	pdVec3 c = { 5.0, -1.0, 2.0 }, h = { 1.0, 2.0, 3.0 };
	Soup s = MakeBox( c, h );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_NEAR( m->volume, 48.0, 1e-12 );
	EXPECT_NEAR( m->centroid.x, 5.0, 1e-13 );
	EXPECT_NEAR( m->centroid.y, -1.0, 1e-13 );
	EXPECT_NEAR( m->centroid.z, 2.0, 1e-13 );
	EXPECT_NEAR( m->radius, std::sqrt( 14.0 ), 1e-13 );
	EXPECT_NEAR( m->diagonal, 2.0 * std::sqrt( 14.0 ), 1e-13 );
	pdVec3 lo = pdMesh_GetInfo( m.m ).boundsMin, hi = pdMesh_GetInfo( m.m ).boundsMax;
	EXPECT_EQ( lo.x, 4.0 );
	EXPECT_EQ( lo.y, -3.0 );
	EXPECT_EQ( lo.z, -1.0 );
	EXPECT_EQ( hi.x, 6.0 );
	EXPECT_EQ( hi.y, 1.0 );
	EXPECT_EQ( hi.z, 5.0 );
	double area = 0.0;
	for ( int t = 0; t < m->triangleCount; ++t )
	{
		area += m->faceAreas[t];
		pdVec3 n = m->faceNormals[t];
		EXPECT_NEAR( Dot( n, n ), 1.0, 1e-15 );
		// Outward: the normal points away from the centre.
		pdVec3 p = m->vertices[m->triangles[t][0]];
		EXPECT_GT( Dot( n, Sub( p, c ) ), 0.0 );
	}
	EXPECT_NEAR( area, 2.0 * ( 2 * 4 + 2 * 6 + 4 * 6 ), 1e-12 );
}

TEST( PdMesh, OffCentreVolumeCentroidDiffersFromSurfaceCentroid )
{
	// Box with one face subdivided finely: the area-weighted centroid moves, the volume one
	// does not. Here a box with a big cap pyramid: centroid of union checked analytically.
	Soup s = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	// Replace the +z face (two triangles) by a pyramid with apex (0,0,2).
	Soup p;
	p.v = s.v;
	uint32_t apex = p.Add( 0.0, 0.0, 2.0 );
	for ( int t = 0; t < s.TriangleCount(); ++t )
	{
		pdVec3 a = s.P( s.t[3 * t] ), b = s.P( s.t[3 * t + 1] ), cc = s.P( s.t[3 * t + 2] );
		if ( a.z == 1.0 && b.z == 1.0 && cc.z == 1.0 )
			continue;
		p.Tri( s.t[3 * t], s.t[3 * t + 1], s.t[3 * t + 2] );
	}
	uint32_t top[4] = { 4, 5, 7, 6 };
	for ( int k = 0; k < 4; ++k )
	{
		pdVec3 a = p.P( top[k] ), b = p.P( top[( k + 1 ) % 4] );
		TriFacing( p, top[k], top[( k + 1 ) % 4], apex, { a.x + b.x, a.y + b.y, 1.0 } );
	}
	pdMeshDef def = DefOf( p );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	ASSERT_TRUE( m->closed );
	EXPECT_TRUE( m->convex );
	// Cube volume 8 centroid z 0; pyramid base 4 height 1 volume 4/3 centroid z = 1 + 1/4.
	double volume = 8.0 + 4.0 / 3.0;
	EXPECT_NEAR( m->volume, volume, 1e-12 );
	EXPECT_NEAR( m->centroid.z, ( 4.0 / 3.0 * 1.25 ) / volume, 1e-13 );
	EXPECT_NEAR( m->centroid.x, 0.0, 1e-14 );
}
