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

#define PDI_SFOG_EDGE_BAD ( PDI_EDGE_BOUNDARY | PDI_EDGE_NONMANIFOLD | PDI_EDGE_INCONSISTENT )

// Geometric thresholds of the build (unit vectors, so these are angles in radians).
#define PDI_SFOG_SUPPORT_EPS 1e-10 // a face plane supports an edge direction
#define PDI_SFOG_SAME_EPS 1e-9     // two corners are the same direction
#define PDI_SFOG_KNIFE_EPS 1e-6    // |n0 + n1| below this: the arc's half circle is ill-defined

static int pdiUnionFind_Root( int* parent, int i )
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

static size_t pdiAlign8( size_t n )
{
	return ( n + 7u ) & ~(size_t)7u;
}

static bool pdiSfog_EdgeIsSolid( int flags )
{
	return ( flags & PDI_SFOG_EDGE_BAD ) == 0 && ( flags & ( PDI_EDGE_CONVEX | PDI_EDGE_CONCAVE | PDI_EDGE_FLAT ) ) != 0;
}

// Local index (0..2) of canonical vertex v in triangle t.
static int pdiSfog_LocalIndex( const pdMesh* mesh, int t, int v )
{
	const int* tri = mesh->triangles[t];
	return pdiSfog_Canonical( mesh, tri[0] ) == v ? 0 : ( pdiSfog_Canonical( mesh, tri[1] ) == v ? 1 : 2 );
}

static int pdiSfog_Corner( const pdMesh* mesh, int t, int local )
{
	return pdiSfog_Canonical( mesh, mesh->triangles[t][local % 3] );
}

// Orders the triangles around vertex v into one cycle (outward winding: the successor of
// (v, a, b) is the triangle (v, b, c)). Fills ring arrays; returns false when the faces do not
// form a single cycle (non-manifold vertex, open fan).
static bool pdiSfog_OrderRing( const pdMesh* mesh, int v, int* tris, int* locals, int count )
{
	if ( count < 3 )
	{
		return false;
	}
	for ( int j = 0; j < count; ++j )
	{
		locals[j] = pdiSfog_LocalIndex( mesh, tris[j], v );
	}
	for ( int j = 0; j + 1 < count; ++j )
	{
		int prev = pdiSfog_Corner( mesh, tris[j], locals[j] + 2 );
		int found = -1;
		for ( int k = j + 1; k < count; ++k )
		{
			if ( pdiSfog_Corner( mesh, tris[k], locals[k] + 1 ) == prev )
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
	return pdiSfog_Corner( mesh, tris[0], locals[0] + 1 ) ==
		   pdiSfog_Corner( mesh, tris[count - 1], locals[count - 1] + 2 );
}

// Removes consecutive (cyclic) duplicates; returns the new count.
static int pdiSfog_DedupeCorners( pdVec3* corners, int count )
{
	int m = 0;
	for ( int j = 0; j < count; ++j )
	{
		if ( m > 0 && pdiDistanceSq( corners[m - 1], corners[j] ) < PDI_SFOG_SAME_EPS * PDI_SFOG_SAME_EPS )
		{
			continue;
		}
		corners[m++] = corners[j];
	}
	while ( m > 1 && pdiDistanceSq( corners[m - 1], corners[0] ) < PDI_SFOG_SAME_EPS * PDI_SFOG_SAME_EPS )
	{
		--m;
	}
	return m;
}

// Region of a convex vertex: the node normals of its ordered faces, consecutive duplicates
// removed. Undecidable when two consecutive corners are antipodal (knife edge).
static pdiSfogVertexKind pdiSfog_ConvexRegion( const pdiSfog* s, const int* tris, int count, pdVec3* outCorners,
											 int* outCornerCount )
{
	for ( int j = 0; j < count; ++j )
	{
		outCorners[j] = s->nodeNormals[s->triangleNode[tris[j]]];
	}
	int m = pdiSfog_DedupeCorners( outCorners, count );
	for ( int j = 0; j < m && m > 1; ++j )
	{
		if ( pdiDot( outCorners[j], outCorners[( j + 1 ) % m] ) < -1.0 + PDI_SFOG_KNIFE_EPS )
		{
			return PDI_SFOG_VERTEX_UNDECIDABLE;
		}
	}
	*outCornerCount = m;
	return PDI_SFOG_VERTEX_CONVEX;
}

// Orders corners[count] around their mean so they bound the region in sequence. False when the
// mean is too short to define the order.
static bool pdiSfog_OrderCornersAroundMean( pdVec3* corners, int count )
{
	pdVec3 axis = pdiV3( 0.0, 0.0, 0.0 );
	for ( int q = 0; q < count; ++q )
	{
		axis = pdiAdd( axis, corners[q] );
	}
	if ( pdiLength( axis ) < 1e-6 )
	{
		return false;
	}
	axis = pdiNormalize( axis );
	pdVec3 ref = fabs( axis.x ) < 0.6 ? pdiV3( 1.0, 0.0, 0.0 ) : pdiV3( 0.0, 1.0, 0.0 );
	pdVec3 bu = pdiNormalize( pdiCross( axis, ref ) );
	pdVec3 bw = pdiCross( axis, bu );
	double angles[PDI_SFOG_MAX_VALENCE];
	for ( int q = 0; q < count; ++q )
	{
		angles[q] = atan2( pdiDot( corners[q], bw ), pdiDot( corners[q], bu ) );
	}
	for ( int q = 1; q < count; ++q )
	{
		double a = angles[q];
		pdVec3 c = corners[q];
		int r = q - 1;
		while ( r >= 0 && angles[r] > a )
		{
			angles[r + 1] = angles[r];
			corners[r + 1] = corners[r];
			--r;
		}
		angles[r + 1] = a;
		corners[r + 1] = c;
	}
	return true;
}

// Region of a pseudo-vertex: the normals of the supporting planes of the cone of edge
// directions (brute force over pairs, build time only), every edge on one of them convex.
// Undecidable for a saddle (no supporting plane) or when a concave edge bounds the hull.
static pdiSfogVertexKind pdiSfog_PseudoRegion( const pdMesh* mesh, int count, const int* ringEdge, const pdVec3* dirs,
											 pdVec3* outCorners, int* outCornerCount )
{
	int facetCount = 0;
	for ( int i = 0; i < count; ++i )
	{
		for ( int j = i + 1; j < count; ++j )
		{
			pdVec3 cr = pdiCross( dirs[i], dirs[j] );
			double len = pdiLength( cr );
			if ( len < 1e-9 )
			{
				continue;
			}
			cr = pdiScale( cr, 1.0 / len );
			for ( int sign = 0; sign < 2; ++sign )
			{
				pdVec3 f = sign == 0 ? cr : pdiNeg( cr );
				bool supports = true;
				for ( int k = 0; k < count; ++k )
				{
					if ( pdiDot( f, dirs[k] ) > PDI_SFOG_SUPPORT_EPS )
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
					if ( pdiDistanceSq( outCorners[q], f ) < PDI_SFOG_SAME_EPS * PDI_SFOG_SAME_EPS )
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
					return PDI_SFOG_VERTEX_UNDECIDABLE;
				}
				for ( int k = 0; k < count; ++k )
				{
					int flags = mesh->edges[ringEdge[k]].flags;
					if ( fabs( pdiDot( f, dirs[k] ) ) <= 1e-9 && ( flags & ( PDI_EDGE_CONVEX | PDI_EDGE_FLAT ) ) == 0 )
					{
						return PDI_SFOG_VERTEX_UNDECIDABLE; // a concave edge bounds the hull: no pseudo-vertex
					}
				}
				outCorners[facetCount++] = f;
			}
		}
	}
	if ( facetCount == 0 )
	{
		return PDI_SFOG_VERTEX_UNDECIDABLE; // saddle: the edges surround the vertex
	}
	if ( !pdiSfog_OrderCornersAroundMean( outCorners, facetCount ) )
	{
		return PDI_SFOG_VERTEX_UNDECIDABLE;
	}
	*outCornerCount = facetCount;
	return PDI_SFOG_VERTEX_PSEUDO;
}

// Classifies vertex v and writes its corners (at most valence of them). Returns the kind.
static pdiSfogVertexKind pdiSfog_ClassifyVertex( const pdMesh* mesh, const pdiSfog* s, const int* tris, int count,
											   const int* ringEdge, const pdVec3* dirs, pdVec3* outCorners,
											   int* outCornerCount )
{
	*outCornerCount = 0;
	bool allConvex = true;
	for ( int k = 0; k < count; ++k )
	{
		int flags = mesh->edges[ringEdge[k]].flags;
		if ( !pdiSfog_EdgeIsSolid( flags ) || pdiLengthSq( dirs[k] ) < 0.25 )
		{
			return PDI_SFOG_VERTEX_UNDECIDABLE;
		}
		if ( ( flags & ( PDI_EDGE_CONVEX | PDI_EDGE_FLAT ) ) == 0 )
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
				if ( pdiDot( n, dirs[k] ) > PDI_SFOG_SUPPORT_EPS )
				{
					allConvex = false;
					break;
				}
			}
		}
	}
	if ( allConvex )
	{
		return pdiSfog_ConvexRegion( s, tris, count, outCorners, outCornerCount );
	}
	return pdiSfog_PseudoRegion( mesh, count, ringEdge, dirs, outCorners, outCornerCount );
}

// Face nodes: union-find over flat edges. Writes each triangle's node (numbered in order of
// first appearance) to nodeOf[T] and returns the node count.
static int pdiSfog_MergeFaceNodes( const pdMesh* mesh, int T, int E, int* parent, int* nodeOf )
{
	for ( int t = 0; t < T; ++t )
	{
		parent[t] = t;
		nodeOf[t] = -1;
	}
	for ( int e = 0; e < E; ++e )
	{
		const pdiMeshEdge* edge = mesh->edges + e;
		if ( ( edge->flags & PDI_EDGE_FLAT ) && ( edge->flags & PDI_SFOG_EDGE_BAD ) == 0 && edge->face0 >= 0 &&
			 edge->face1 >= 0 && edge->face0 < T && edge->face1 < T )
		{
			int r0 = pdiUnionFind_Root( parent, edge->face0 );
			int r1 = pdiUnionFind_Root( parent, edge->face1 );
			if ( r0 != r1 )
			{
				parent[r0 < r1 ? r1 : r0] = r0 < r1 ? r0 : r1;
			}
		}
	}
	int N = 0;
	for ( int t = 0; t < T; ++t )
	{
		int r = pdiUnionFind_Root( parent, t );
		if ( nodeOf[r] < 0 )
		{
			nodeOf[r] = N++;
		}
		nodeOf[t] = nodeOf[r];
	}
	return N;
}

// Element counts of a graph, which fix the layout of its single allocation.
typedef struct pdiSfogCounts
{
	int T, E, V, R, N;
	int arcEntries; ///< 2 per edge joining two different nodes
} pdiSfogCounts;

// Allocates the graph and its arrays in one zeroed block and sets the counts and pointers.
static pdiSfog* pdiSfog_Allocate( const pdiSfogCounts* c )
{
	size_t bytes = pdiAlign8( sizeof( pdiSfog ) );
	size_t offNodeNormals = bytes;
	bytes += pdiAlign8( sizeof( pdVec3 ) * (size_t)c->N );
	size_t offArcAxis = bytes;
	bytes += pdiAlign8( sizeof( pdVec3 ) * (size_t)c->E );
	size_t offRingDir = bytes;
	bytes += pdiAlign8( sizeof( pdVec3 ) * (size_t)c->R );
	size_t offRingVec = bytes;
	bytes += pdiAlign8( sizeof( pdVec3 ) * (size_t)c->R );
	size_t offCorners = bytes;
	bytes += pdiAlign8( sizeof( pdVec3 ) * (size_t)c->R );
	size_t offCornerAxis = bytes;
	bytes += pdiAlign8( sizeof( pdVec3 ) * (size_t)c->R );
	size_t offNodePoint = bytes;
	bytes += pdiAlign8( sizeof( int ) * (size_t)c->N );
	size_t offNodeArcStart = bytes;
	bytes += pdiAlign8( sizeof( int ) * (size_t)( c->N + 1 ) );
	size_t offNodeArcs = bytes;
	bytes += pdiAlign8( sizeof( int ) * (size_t)c->arcEntries );
	size_t offTriangleNode = bytes;
	bytes += pdiAlign8( sizeof( int ) * (size_t)c->T );
	size_t offArcNode = bytes;
	bytes += pdiAlign8( sizeof( int ) * 2u * (size_t)c->E );
	size_t offRingStart = bytes;
	bytes += pdiAlign8( sizeof( int ) * (size_t)( c->V + 1 ) );
	size_t offRingVertex = bytes;
	bytes += pdiAlign8( sizeof( int ) * (size_t)c->R );
	size_t offRingEdge = bytes;
	bytes += pdiAlign8( sizeof( int ) * (size_t)c->R );
	size_t offCornerStart = bytes;
	bytes += pdiAlign8( sizeof( int ) * (size_t)( c->V + 1 ) );
	size_t offArcKind = bytes;
	bytes += pdiAlign8( (size_t)c->E );
	size_t offVertexKind = bytes;
	bytes += pdiAlign8( (size_t)c->V );

	char* block = pdiAllocZeroed( bytes );
	if ( block == NULL )
	{
		return NULL;
	}
	pdiSfog* s = (pdiSfog*)block;
	s->bytes = bytes;
	s->nodeCount = c->N;
	s->nodeNormals = (pdVec3*)( block + offNodeNormals );
	s->nodePoint = (int*)( block + offNodePoint );
	s->nodeArcStart = (int*)( block + offNodeArcStart );
	s->nodeArcs = (int*)( block + offNodeArcs );
	s->triangleCount = c->T;
	s->triangleNode = (int*)( block + offTriangleNode );
	s->edgeCount = c->E;
	s->arcKind = (uint8_t*)( block + offArcKind );
	s->arcNode = (int*)( block + offArcNode );
	s->arcAxis = (pdVec3*)( block + offArcAxis );
	s->vertexCount = c->V;
	s->vertexKind = (uint8_t*)( block + offVertexKind );
	s->ringStart = (int*)( block + offRingStart );
	s->ringVertex = (int*)( block + offRingVertex );
	s->ringEdge = (int*)( block + offRingEdge );
	s->ringDir = (pdVec3*)( block + offRingDir );
	s->ringVec = (pdVec3*)( block + offRingVec );
	s->cornerStart = (int*)( block + offCornerStart );
	s->corners = (pdVec3*)( block + offCorners );
	s->cornerAxis = (pdVec3*)( block + offCornerAxis );
	return s;
}

// Node normals (area-weighted; the triangles agree to 1e-12 anyway) and a point of each node.
// A node without a usable normal makes the graph undecidable.
static void pdiSfog_FillNodes( const pdMesh* mesh, pdiSfog* s, const int* nodeOf )
{
	int N = s->nodeCount, T = s->triangleCount;
	for ( int i = 0; i < N; ++i )
	{
		s->nodePoint[i] = -1;
	}
	for ( int t = 0; t < T; ++t )
	{
		int n = nodeOf[t];
		s->triangleNode[t] = n;
		double area = mesh->faceAreas != NULL ? mesh->faceAreas[t] : 1.0;
		s->nodeNormals[n] = pdiMulAdd( s->nodeNormals[n], area > 0.0 ? area : 1e-300, mesh->faceNormals[t] );
		if ( s->nodePoint[n] < 0 )
		{
			s->nodePoint[n] = mesh->triangles[t][0];
		}
	}
}

static void pdiSfog_NormalizeNodes( pdiSfog* s )
{
	for ( int i = 0; i < s->nodeCount; ++i )
	{
		pdVec3 n = pdiNormalize( s->nodeNormals[i] );
		if ( pdiLengthSq( n ) < 0.25 )
		{
			s->decidable = false; // a node without a usable normal: prune nothing on this mesh
			n = pdiV3( 0.0, 0.0, 1.0 );
		}
		s->nodeNormals[i] = n;
	}
}

// Classifies every edge's arc and its great-circle axis. Returns convex cleared when an arc
// rules out the convex overlay (bad edge, knife edge, concave edge).
static bool pdiSfog_BuildArcs( const pdMesh* mesh, pdiSfog* s, bool convex )
{
	int T = s->triangleCount, E = s->edgeCount;
	for ( int e = 0; e < E; ++e )
	{
		const pdiMeshEdge* edge = mesh->edges + e;
		bool faces = edge->face0 >= 0 && edge->face1 >= 0 && edge->face0 < T && edge->face1 < T;
		int n0 = faces ? s->triangleNode[edge->face0] : -1;
		int n1 = faces ? s->triangleNode[edge->face1] : -1;
		s->arcNode[2 * e] = n0;
		s->arcNode[2 * e + 1] = n1;
		s->arcKind[e] = PDI_SFOG_ARC_UNDECIDABLE;
		if ( !faces || !pdiSfog_EdgeIsSolid( edge->flags ) )
		{
			convex = false;
			continue;
		}
		if ( n0 == n1 )
		{
			s->arcKind[e] = PDI_SFOG_ARC_POINT;
			continue;
		}
		pdVec3 a0 = s->nodeNormals[n0], a1 = s->nodeNormals[n1];
		pdVec3 cr = pdiCross( a0, a1 );
		double len = pdiLength( cr );
		if ( pdiLength( pdiAdd( a0, a1 ) ) < PDI_SFOG_KNIFE_EPS || len < 1e-12 )
		{
			if ( len < 1e-12 && pdiDot( a0, a1 ) > 0.0 )
			{
				s->arcKind[e] = PDI_SFOG_ARC_POINT;
				continue;
			}
			convex = false; // knife edge: the half circle is not determined by its endpoints
			continue;
		}
		s->arcAxis[e] = pdiScale( cr, 1.0 / len );
		if ( edge->flags & PDI_EDGE_CONCAVE )
		{
			s->arcKind[e] = PDI_SFOG_ARC_MAJOR;
			convex = false;
		}
		else
		{
			s->arcKind[e] = PDI_SFOG_ARC_MINOR;
		}
	}
	return convex;
}

// Node adjacency (CSR): the arcs leaving each node.
static void pdiSfog_BuildNodeAdjacency( pdiSfog* s )
{
	int N = s->nodeCount, E = s->edgeCount;
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
	// Fill with the start array as cursors, then shift it back by one.
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

// The ring of vertex v (one entry per incident triangle: the vertex after v and the edge to it)
// and, when the ring closes and the graph is decidable, its region. Returns the corner count
// written at s->corners + cornerCursor.
static int pdiSfog_BuildVertex( const pdMesh* mesh, pdiSfog* s, int v, int cursor, int cornerCursor )
{
	int tris[PDI_SFOG_MAX_VALENCE];
	int locals[PDI_SFOG_MAX_VALENCE];
	int begin = mesh->vertexFaceStart[v], count = mesh->vertexFaceStart[v + 1] - begin;
	bool ordered = false;
	if ( count <= PDI_SFOG_MAX_VALENCE )
	{
		memcpy( tris, mesh->vertexFaces + begin, sizeof( int ) * (size_t)count );
		ordered = pdiSfog_OrderRing( mesh, v, tris, locals, count );
	}
	for ( int j = 0; j < count; ++j )
	{
		int t = ordered ? tris[j] : mesh->vertexFaces[begin + j];
		int li = pdiSfog_LocalIndex( mesh, t, v );
		int next = pdiSfog_Corner( mesh, t, li + 1 );
		s->ringVertex[cursor + j] = next;
		s->ringEdge[cursor + j] = mesh->triangleEdges[t][li];
		s->ringVec[cursor + j] = pdiSub( mesh->vertices[next], mesh->vertices[v] );
		s->ringDir[cursor + j] = pdiNormalize( s->ringVec[cursor + j] );
	}
	if ( !ordered || !s->decidable )
	{
		return 0;
	}
	int m = 0;
	pdiSfogVertexKind kind = pdiSfog_ClassifyVertex( mesh, s, tris, count, s->ringEdge + cursor, s->ringDir + cursor,
												   s->corners + cornerCursor, &m );
	if ( kind == PDI_SFOG_VERTEX_UNDECIDABLE || m < 1 )
	{
		return 0;
	}
	s->vertexKind[v] = (uint8_t)kind;
	pdVec3* c = s->corners + cornerCursor;
	for ( int j = 0; j < m; ++j )
	{
		s->cornerAxis[cornerCursor + j] = pdiNormalize( pdiCross( c[j], c[( j + 1 ) % m] ) );
	}
	return m;
}

// Vertex rings and regions (CSR). Returns convex cleared when a vertex is not convex.
static bool pdiSfog_BuildVertices( const pdMesh* mesh, pdiSfog* s, bool convex )
{
	int V = s->vertexCount;
	int cursor = 0, cornerCursor = 0;
	for ( int v = 0; v < V; ++v )
	{
		s->ringStart[v] = cursor;
		s->cornerStart[v] = cornerCursor;
		s->vertexKind[v] = PDI_SFOG_VERTEX_UNDECIDABLE;
		int count = mesh->vertexFaceStart[v + 1] - mesh->vertexFaceStart[v];
		if ( count <= 0 )
		{
			continue;
		}
		cornerCursor += pdiSfog_BuildVertex( mesh, s, v, cursor, cornerCursor );
		if ( s->vertexKind[v] != PDI_SFOG_VERTEX_CONVEX )
		{
			convex = false;
		}
		cursor += count;
	}
	s->ringStart[V] = cursor;
	s->cornerStart[V] = cornerCursor;
	return convex;
}

pdiSfog* pdiSfog_Build( const pdMesh* mesh )
{
	if ( mesh == NULL )
	{
		return NULL;
	}
	pdiSfogCounts c = { 0 };
	bool haveAdjacency = mesh->edges != NULL && mesh->triangleEdges != NULL && mesh->vertexFaceStart != NULL &&
						 mesh->vertexFaces != NULL && mesh->faceNormals != NULL && mesh->triangleCount > 0 &&
						 mesh->vertexCount > 0;
	if ( haveAdjacency )
	{
		c.T = mesh->triangleCount;
		c.E = mesh->edgeCount;
		c.V = mesh->vertexCount;
		c.R = mesh->vertexFaceStart[c.V];
	}
	int T = c.T;

	int* parent = NULL;
	int* nodeOf = NULL;
	if ( T > 0 )
	{
		parent = pdiAlloc( sizeof( int ) * (size_t)T );
		nodeOf = pdiAlloc( sizeof( int ) * (size_t)T );
		if ( parent == NULL || nodeOf == NULL )
		{
			pdiFree( parent, sizeof( int ) * (size_t)T );
			pdiFree( nodeOf, sizeof( int ) * (size_t)T );
			return NULL;
		}
	}
	c.N = pdiSfog_MergeFaceNodes( mesh, T, c.E, parent, nodeOf );
	pdiFree( parent, sizeof( int ) * (size_t)T );
	for ( int e = 0; e < c.E; ++e )
	{
		const pdiMeshEdge* edge = mesh->edges + e;
		if ( edge->face0 >= 0 && edge->face1 >= 0 && edge->face0 < T && edge->face1 < T &&
			 nodeOf[edge->face0] != nodeOf[edge->face1] )
		{
			c.arcEntries += 2;
		}
	}

	pdiSfog* s = pdiSfog_Allocate( &c );
	if ( s == NULL )
	{
		pdiFree( nodeOf, sizeof( int ) * (size_t)T );
		return NULL;
	}
	s->decidable = haveAdjacency && mesh->closed && mesh->outwardWinding;
	pdiSfog_FillNodes( mesh, s, nodeOf );
	pdiFree( nodeOf, sizeof( int ) * (size_t)T );
	pdiSfog_NormalizeNodes( s );

	bool convex = s->decidable && mesh->convex;
	convex = pdiSfog_BuildArcs( mesh, s, convex );
	pdiSfog_BuildNodeAdjacency( s );
	convex = pdiSfog_BuildVertices( mesh, s, convex );
	s->convex = convex && c.N >= 2;
	return s;
}

void pdiSfog_Destroy( pdiSfog* sfog )
{
	if ( sfog != NULL )
	{
		pdiFree( sfog, sfog->bytes );
	}
}

size_t pdiSfog_Bytes( const pdiSfog* sfog )
{
	return sfog != NULL ? sfog->bytes : 0;
}
