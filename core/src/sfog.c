// SPDX-License-Identifier: MIT
// Building the spherical face orientation graph (Gauss map) of a mesh, the structure read by
// the applicability predicates (sfog_applicable.c) and the convex overlay (sfog_overlay.c).
// Faces map to points (merged across flat edges), edges to great-circle arcs (minor for convex,
// major for concave edges), vertices to the spherical polygons of their normal cones (convex
// vertices) or of a pseudo-vertex (the local convex hull of the vertex's edges, when its
// extreme edges are convex). Anything that cannot be decided is marked so and is never pruned.
#include "sfog.h"

#include "core.h"

#include <stdlib.h>
#include <string.h>

#define PD_SFOG_EDGE_BAD ( PD_EDGE_BOUNDARY | PD_EDGE_NONMANIFOLD | PD_EDGE_INCONSISTENT )

// Geometric thresholds of the build (unit vectors, so these are angles in radians).
#define PD_SFOG_SUPPORT_EPS 1e-10 // a face plane supports an edge direction
#define PD_SFOG_SAME_EPS 1e-9     // two corners are the same direction
#define PD_SFOG_KNIFE_EPS 1e-6    // |n0 + n1| below this: the arc's half circle is ill-defined

static int pdUnionFind_Root( int* parent, int i )
{
	int root = i;
	// Path length is bounded by the element count; the cap only guards corrupted input.
	for ( int guard = 0; parent[root] != root && guard < ( 1 << 30 ); ++guard )
	{
		root = parent[root];
	}
	while ( parent[i] != root )
	{
		int next = parent[i];
		parent[i] = root;
		i = next;
	}
	return root;
}

static size_t pdAlign8( size_t n )
{
	return ( n + 7u ) & ~(size_t)7u;
}

static bool pdSfog_EdgeIsSolid( int flags )
{
	return ( flags & PD_SFOG_EDGE_BAD ) == 0 && ( flags & ( PD_EDGE_CONVEX | PD_EDGE_CONCAVE | PD_EDGE_FLAT ) ) != 0;
}


// Local index (0..2) of canonical vertex v in triangle t.
static int pdSfog_LocalIndex( const pdMesh* mesh, int t, int v )
{
	const int* tri = mesh->triangles[t];
	return pdSfog_Canonical( mesh, tri[0] ) == v ? 0 : ( pdSfog_Canonical( mesh, tri[1] ) == v ? 1 : 2 );
}

static int pdSfog_Corner( const pdMesh* mesh, int t, int local )
{
	return pdSfog_Canonical( mesh, mesh->triangles[t][local % 3] );
}

// Orders the triangles around vertex v into one cycle (outward winding: the successor of
// (v, a, b) is the triangle (v, b, c)). Fills ring arrays; returns false when the faces do not
// form a single cycle (non-manifold vertex, open fan).
static bool pdSfog_OrderRing( const pdMesh* mesh, int v, int* tris, int* locals, int count )
{
	if ( count < 3 )
	{
		return false;
	}
	for ( int j = 0; j < count; ++j )
	{
		locals[j] = pdSfog_LocalIndex( mesh, tris[j], v );
	}
	for ( int j = 0; j + 1 < count; ++j )
	{
		int prev = pdSfog_Corner( mesh, tris[j], locals[j] + 2 );
		int found = -1;
		for ( int k = j + 1; k < count; ++k )
		{
			if ( pdSfog_Corner( mesh, tris[k], locals[k] + 1 ) == prev )
			{
				if ( found >= 0 )
				{
					return false;
				}
				found = k;
			}
		}
		if ( found < 0 )
		{
			return false;
		}
		int tt = tris[j + 1], tl = locals[j + 1];
		tris[j + 1] = tris[found];
		locals[j + 1] = locals[found];
		tris[found] = tt;
		locals[found] = tl;
	}
	// Close the cycle.
	return pdSfog_Corner( mesh, tris[0], locals[0] + 1 ) ==
		   pdSfog_Corner( mesh, tris[count - 1], locals[count - 1] + 2 );
}

// Removes consecutive (cyclic) duplicates; returns the new count.
static int pdSfog_DedupeCorners( pdVec3* corners, int count )
{
	int m = 0;
	for ( int j = 0; j < count; ++j )
	{
		if ( m > 0 && pdDistanceSq( corners[m - 1], corners[j] ) < PD_SFOG_SAME_EPS * PD_SFOG_SAME_EPS )
		{
			continue;
		}
		corners[m++] = corners[j];
	}
	while ( m > 1 && pdDistanceSq( corners[m - 1], corners[0] ) < PD_SFOG_SAME_EPS * PD_SFOG_SAME_EPS )
	{
		--m;
	}
	return m;
}

// Classifies vertex v and writes its corners (at most valence of them). Returns the kind.
static pdSfogVertexKind pdSfog_ClassifyVertex( const pdMesh* mesh, const pdSfog* s, int v, const int* tris, int count,
											   const int* ringEdge, const pdVec3* dirs, pdVec3* outCorners,
											   int* outCornerCount )
{
	*outCornerCount = 0;
	bool allConvex = true;
	for ( int k = 0; k < count; ++k )
	{
		int flags = mesh->edges[ringEdge[k]].flags;
		if ( !pdSfog_EdgeIsSolid( flags ) || pdLengthSq( dirs[k] ) < 0.25 )
		{
			return PD_SFOG_VERTEX_UNDECIDABLE;
		}
		if ( ( flags & ( PD_EDGE_CONVEX | PD_EDGE_FLAT ) ) == 0 )
		{
			allConvex = false;
		}
	}
	if ( allConvex )
	{
		// Convex when every incident face plane has every neighbour behind it.
		for ( int j = 0; j < count && allConvex; ++j )
		{
			pdVec3 n = mesh->faceNormals[tris[j]];
			for ( int k = 0; k < count; ++k )
			{
				if ( pdDot( n, dirs[k] ) > PD_SFOG_SUPPORT_EPS )
				{
					allConvex = false;
					break;
				}
			}
		}
	}
	if ( allConvex )
	{
		for ( int j = 0; j < count; ++j )
		{
			outCorners[j] = s->nodeNormals[s->triangleNode[tris[j]]];
		}
		int m = pdSfog_DedupeCorners( outCorners, count );
		for ( int j = 0; j < m && m > 1; ++j )
		{
			if ( pdDot( outCorners[j], outCorners[( j + 1 ) % m] ) < -1.0 + PD_SFOG_KNIFE_EPS )
			{
				return PD_SFOG_VERTEX_UNDECIDABLE;
			}
		}
		*outCornerCount = m;
		return PD_SFOG_VERTEX_CONVEX;
	}

	// Pseudo-vertex: the supporting planes of the cone of edge directions (brute force over
	// pairs, build time only); every edge on one of them must be convex.
	int facetCount = 0;
	for ( int i = 0; i < count; ++i )
	{
		for ( int j = i + 1; j < count; ++j )
		{
			pdVec3 cr = pdCross( dirs[i], dirs[j] );
			double len = pdLength( cr );
			if ( len < 1e-9 )
			{
				continue;
			}
			cr = pdScale( cr, 1.0 / len );
			for ( int sign = 0; sign < 2; ++sign )
			{
				pdVec3 f = sign == 0 ? cr : pdNeg( cr );
				bool supports = true;
				for ( int k = 0; k < count; ++k )
				{
					if ( pdDot( f, dirs[k] ) > PD_SFOG_SUPPORT_EPS )
					{
						supports = false;
						break;
					}
				}
				if ( !supports )
				{
					continue;
				}
				bool duplicate = false;
				for ( int q = 0; q < facetCount; ++q )
				{
					if ( pdDistanceSq( outCorners[q], f ) < PD_SFOG_SAME_EPS * PD_SFOG_SAME_EPS )
					{
						duplicate = true;
						break;
					}
				}
				if ( duplicate )
				{
					continue;
				}
				if ( facetCount >= count )
				{
					return PD_SFOG_VERTEX_UNDECIDABLE;
				}
				for ( int k = 0; k < count; ++k )
				{
					int flags = mesh->edges[ringEdge[k]].flags;
					if ( fabs( pdDot( f, dirs[k] ) ) <= 1e-9 && ( flags & ( PD_EDGE_CONVEX | PD_EDGE_FLAT ) ) == 0 )
					{
						return PD_SFOG_VERTEX_UNDECIDABLE; // a concave edge bounds the hull: no pseudo-vertex
					}
				}
				outCorners[facetCount++] = f;
			}
		}
	}
	if ( facetCount == 0 )
	{
		return PD_SFOG_VERTEX_UNDECIDABLE; // saddle: the edges surround the vertex
	}
	// Order the facet normals around their mean so they bound the region in sequence.
	pdVec3 axis = pdV3( 0.0, 0.0, 0.0 );
	for ( int q = 0; q < facetCount; ++q )
	{
		axis = pdAdd( axis, outCorners[q] );
	}
	if ( pdLength( axis ) < 1e-6 )
	{
		return PD_SFOG_VERTEX_UNDECIDABLE;
	}
	axis = pdNormalize( axis );
	pdVec3 ref = fabs( axis.x ) < 0.6 ? pdV3( 1.0, 0.0, 0.0 ) : pdV3( 0.0, 1.0, 0.0 );
	pdVec3 bu = pdNormalize( pdCross( axis, ref ) );
	pdVec3 bw = pdCross( axis, bu );
	double angles[PD_SFOG_MAX_VALENCE];
	for ( int q = 0; q < facetCount; ++q )
	{
		angles[q] = atan2( pdDot( outCorners[q], bw ), pdDot( outCorners[q], bu ) );
	}
	for ( int q = 1; q < facetCount; ++q )
	{
		double a = angles[q];
		pdVec3 c = outCorners[q];
		int r = q - 1;
		while ( r >= 0 && angles[r] > a )
		{
			angles[r + 1] = angles[r];
			outCorners[r + 1] = outCorners[r];
			--r;
		}
		angles[r + 1] = a;
		outCorners[r + 1] = c;
	}
	*outCornerCount = facetCount;
	return PD_SFOG_VERTEX_PSEUDO;
}

pdSfog* pdSfog_Build( const pdMesh* mesh )
{
	if ( mesh == NULL )
	{
		return NULL;
	}
	int T = mesh->triangleCount, E = mesh->edgeCount, V = mesh->vertexCount;
	bool haveAdjacency = mesh->edges != NULL && mesh->triangleEdges != NULL && mesh->vertexFaceStart != NULL &&
						 mesh->vertexFaces != NULL && mesh->faceNormals != NULL && T > 0 && V > 0;
	if ( !haveAdjacency )
	{
		T = 0;
		E = 0;
		V = 0;
	}
	int R = haveAdjacency ? mesh->vertexFaceStart[V] : 0;

	// Face nodes: union-find over flat edges.
	int* parent = NULL;
	int* nodeOf = NULL;
	if ( T > 0 )
	{
		parent = pdAlloc( sizeof( int ) * (size_t)T );
		nodeOf = pdAlloc( sizeof( int ) * (size_t)T );
		if ( parent == NULL || nodeOf == NULL )
		{
			pdFree( parent, sizeof( int ) * (size_t)T );
			pdFree( nodeOf, sizeof( int ) * (size_t)T );
			return NULL;
		}
	}
	for ( int t = 0; t < T; ++t )
	{
		parent[t] = t;
		nodeOf[t] = -1;
	}
	for ( int e = 0; e < E; ++e )
	{
		const pdMeshEdge* edge = mesh->edges + e;
		if ( ( edge->flags & PD_EDGE_FLAT ) && ( edge->flags & PD_SFOG_EDGE_BAD ) == 0 && edge->face0 >= 0 &&
			 edge->face1 >= 0 && edge->face0 < T && edge->face1 < T )
		{
			int r0 = pdUnionFind_Root( parent, edge->face0 );
			int r1 = pdUnionFind_Root( parent, edge->face1 );
			if ( r0 != r1 )
			{
				parent[r0 < r1 ? r1 : r0] = r0 < r1 ? r0 : r1;
			}
		}
	}
	int N = 0;
	for ( int t = 0; t < T; ++t )
	{
		int r = pdUnionFind_Root( parent, t );
		if ( nodeOf[r] < 0 )
		{
			nodeOf[r] = N++;
		}
		nodeOf[t] = nodeOf[r];
	}
	pdFree( parent, sizeof( int ) * (size_t)T );

	int arcEntries = 0;
	for ( int e = 0; e < E; ++e )
	{
		const pdMeshEdge* edge = mesh->edges + e;
		if ( edge->face0 >= 0 && edge->face1 >= 0 && edge->face0 < T && edge->face1 < T &&
			 nodeOf[edge->face0] != nodeOf[edge->face1] )
		{
			arcEntries += 2;
		}
	}

	size_t bytes = pdAlign8( sizeof( pdSfog ) );
	size_t offNodeNormals = bytes;
	bytes += pdAlign8( sizeof( pdVec3 ) * (size_t)N );
	size_t offArcAxis = bytes;
	bytes += pdAlign8( sizeof( pdVec3 ) * (size_t)E );
	size_t offRingDir = bytes;
	bytes += pdAlign8( sizeof( pdVec3 ) * (size_t)R );
	size_t offRingVec = bytes;
	bytes += pdAlign8( sizeof( pdVec3 ) * (size_t)R );
	size_t offCorners = bytes;
	bytes += pdAlign8( sizeof( pdVec3 ) * (size_t)R );
	size_t offCornerAxis = bytes;
	bytes += pdAlign8( sizeof( pdVec3 ) * (size_t)R );
	size_t offNodePoint = bytes;
	bytes += pdAlign8( sizeof( int ) * (size_t)N );
	size_t offNodeArcStart = bytes;
	bytes += pdAlign8( sizeof( int ) * (size_t)( N + 1 ) );
	size_t offNodeArcs = bytes;
	bytes += pdAlign8( sizeof( int ) * (size_t)arcEntries );
	size_t offTriangleNode = bytes;
	bytes += pdAlign8( sizeof( int ) * (size_t)T );
	size_t offArcNode = bytes;
	bytes += pdAlign8( sizeof( int ) * 2u * (size_t)E );
	size_t offRingStart = bytes;
	bytes += pdAlign8( sizeof( int ) * (size_t)( V + 1 ) );
	size_t offRingVertex = bytes;
	bytes += pdAlign8( sizeof( int ) * (size_t)R );
	size_t offRingEdge = bytes;
	bytes += pdAlign8( sizeof( int ) * (size_t)R );
	size_t offCornerStart = bytes;
	bytes += pdAlign8( sizeof( int ) * (size_t)( V + 1 ) );
	size_t offArcKind = bytes;
	bytes += pdAlign8( (size_t)E );
	size_t offVertexKind = bytes;
	bytes += pdAlign8( (size_t)V );

	char* block = pdAllocZeroed( bytes );
	if ( block == NULL )
	{
		pdFree( nodeOf, sizeof( int ) * (size_t)T );
		return NULL;
	}
	pdSfog* s = (pdSfog*)block;
	s->bytes = bytes;
	s->decidable = haveAdjacency && mesh->closed && mesh->outwardWinding;
	s->nodeCount = N;
	s->nodeNormals = (pdVec3*)( block + offNodeNormals );
	s->nodePoint = (int*)( block + offNodePoint );
	s->nodeArcStart = (int*)( block + offNodeArcStart );
	s->nodeArcs = (int*)( block + offNodeArcs );
	s->triangleCount = T;
	s->triangleNode = (int*)( block + offTriangleNode );
	s->edgeCount = E;
	s->arcKind = (uint8_t*)( block + offArcKind );
	s->arcNode = (int*)( block + offArcNode );
	s->arcAxis = (pdVec3*)( block + offArcAxis );
	s->vertexCount = V;
	s->vertexKind = (uint8_t*)( block + offVertexKind );
	s->ringStart = (int*)( block + offRingStart );
	s->ringVertex = (int*)( block + offRingVertex );
	s->ringEdge = (int*)( block + offRingEdge );
	s->ringDir = (pdVec3*)( block + offRingDir );
	s->ringVec = (pdVec3*)( block + offRingVec );
	s->cornerStart = (int*)( block + offCornerStart );
	s->corners = (pdVec3*)( block + offCorners );
	s->cornerAxis = (pdVec3*)( block + offCornerAxis );

	// Nodes: area-weighted normals (the triangles agree to 1e-12 anyway).
	for ( int i = 0; i < N; ++i )
	{
		s->nodePoint[i] = -1;
	}
	for ( int t = 0; t < T; ++t )
	{
		int n = nodeOf[t];
		s->triangleNode[t] = n;
		double area = mesh->faceAreas != NULL ? mesh->faceAreas[t] : 1.0;
		s->nodeNormals[n] = pdMulAdd( s->nodeNormals[n], area > 0.0 ? area : 1e-300, mesh->faceNormals[t] );
		if ( s->nodePoint[n] < 0 )
		{
			s->nodePoint[n] = mesh->triangles[t][0];
		}
	}
	pdFree( nodeOf, sizeof( int ) * (size_t)T );
	for ( int i = 0; i < N; ++i )
	{
		pdVec3 n = pdNormalize( s->nodeNormals[i] );
		if ( pdLengthSq( n ) < 0.25 )
		{
			s->decidable = false; // a node without a usable normal: prune nothing on this mesh
			n = pdV3( 0.0, 0.0, 1.0 );
		}
		s->nodeNormals[i] = n;
	}

	// Arcs.
	bool convex = s->decidable && mesh->convex;
	for ( int e = 0; e < E; ++e )
	{
		const pdMeshEdge* edge = mesh->edges + e;
		bool faces = edge->face0 >= 0 && edge->face1 >= 0 && edge->face0 < T && edge->face1 < T;
		int n0 = faces ? s->triangleNode[edge->face0] : -1;
		int n1 = faces ? s->triangleNode[edge->face1] : -1;
		s->arcNode[2 * e] = n0;
		s->arcNode[2 * e + 1] = n1;
		s->arcKind[e] = PD_SFOG_ARC_UNDECIDABLE;
		if ( !faces || !pdSfog_EdgeIsSolid( edge->flags ) )
		{
			convex = false;
			continue;
		}
		if ( n0 == n1 )
		{
			s->arcKind[e] = PD_SFOG_ARC_POINT;
			continue;
		}
		pdVec3 a0 = s->nodeNormals[n0], a1 = s->nodeNormals[n1];
		pdVec3 cr = pdCross( a0, a1 );
		double len = pdLength( cr );
		if ( pdLength( pdAdd( a0, a1 ) ) < PD_SFOG_KNIFE_EPS || len < 1e-12 )
		{
			if ( len < 1e-12 && pdDot( a0, a1 ) > 0.0 )
			{
				s->arcKind[e] = PD_SFOG_ARC_POINT;
				continue;
			}
			convex = false; // knife edge: the half circle is not determined by its endpoints
			continue;
		}
		s->arcAxis[e] = pdScale( cr, 1.0 / len );
		if ( edge->flags & PD_EDGE_CONCAVE )
		{
			s->arcKind[e] = PD_SFOG_ARC_MAJOR;
			convex = false;
		}
		else
		{
			s->arcKind[e] = PD_SFOG_ARC_MINOR;
		}
	}

	// Node adjacency (CSR).
	for ( int e = 0; e < E; ++e )
	{
		int n0 = s->arcNode[2 * e], n1 = s->arcNode[2 * e + 1];
		if ( n0 >= 0 && n1 >= 0 && n0 != n1 )
		{
			s->nodeArcStart[n0 + 1] += 1;
			s->nodeArcStart[n1 + 1] += 1;
		}
	}
	for ( int i = 0; i < N; ++i )
	{
		s->nodeArcStart[i + 1] += s->nodeArcStart[i];
	}
	{
		// Fill using nodePoint-independent cursors: reuse the start array shifted by one.
		for ( int e = 0; e < E; ++e )
		{
			int n0 = s->arcNode[2 * e], n1 = s->arcNode[2 * e + 1];
			if ( n0 >= 0 && n1 >= 0 && n0 != n1 )
			{
				s->nodeArcs[s->nodeArcStart[n0]++] = e;
				s->nodeArcs[s->nodeArcStart[n1]++] = e;
			}
		}
		for ( int i = N; i > 0; --i )
		{
			s->nodeArcStart[i] = s->nodeArcStart[i - 1];
		}
		if ( N > 0 )
		{
			s->nodeArcStart[0] = 0;
		}
	}

	// Vertex rings and regions.
	int tris[PD_SFOG_MAX_VALENCE];
	int locals[PD_SFOG_MAX_VALENCE];
	int cursor = 0, cornerCursor = 0;
	for ( int v = 0; v < V; ++v )
	{
		s->ringStart[v] = cursor;
		s->cornerStart[v] = cornerCursor;
		s->vertexKind[v] = PD_SFOG_VERTEX_UNDECIDABLE;
		int begin = mesh->vertexFaceStart[v], count = mesh->vertexFaceStart[v + 1] - begin;
		if ( count <= 0 )
		{
			continue;
		}
		bool ordered = false;
		if ( count <= PD_SFOG_MAX_VALENCE )
		{
			memcpy( tris, mesh->vertexFaces + begin, sizeof( int ) * (size_t)count );
			ordered = pdSfog_OrderRing( mesh, v, tris, locals, count );
		}
		// Ring entries: one per incident triangle, the vertex after v and the edge to it.
		for ( int j = 0; j < count; ++j )
		{
			int t = ordered ? tris[j] : mesh->vertexFaces[begin + j];
			int li = pdSfog_LocalIndex( mesh, t, v );
			int next = pdSfog_Corner( mesh, t, li + 1 );
			s->ringVertex[cursor + j] = next;
			s->ringEdge[cursor + j] = mesh->triangleEdges[t][li];
			s->ringVec[cursor + j] = pdSub( mesh->vertices[next], mesh->vertices[v] );
			s->ringDir[cursor + j] = pdNormalize( s->ringVec[cursor + j] );
		}
		if ( ordered && s->decidable )
		{
			int m = 0;
			pdSfogVertexKind kind = pdSfog_ClassifyVertex( mesh, s, v, tris, count, s->ringEdge + cursor,
														   s->ringDir + cursor, s->corners + cornerCursor, &m );
			if ( kind != PD_SFOG_VERTEX_UNDECIDABLE && m >= 1 )
			{
				s->vertexKind[v] = (uint8_t)kind;
				pdVec3* c = s->corners + cornerCursor;
				for ( int j = 0; j < m; ++j )
				{
					s->cornerAxis[cornerCursor + j] = pdNormalize( pdCross( c[j], c[( j + 1 ) % m] ) );
				}
				cornerCursor += m;
			}
		}
		if ( s->vertexKind[v] != PD_SFOG_VERTEX_CONVEX )
		{
			convex = false;
		}
		cursor += count;
	}
	s->ringStart[V] = cursor;
	s->cornerStart[V] = cornerCursor;
	s->convex = convex && N >= 2;
	return s;
}

void pdSfog_Destroy( pdSfog* sfog )
{
	if ( sfog != NULL )
	{
		pdFree( sfog, sfog->bytes );
	}
}

size_t pdSfog_Bytes( const pdSfog* sfog )
{
	return sfog != NULL ? sfog->bytes : 0;
}
