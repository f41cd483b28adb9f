// SPDX-License-Identifier: MIT
// Mesh topology and shape, on canonical (position-welded) vertex ids: welding, edges with their
// faces and flags, vertex -> face lists, which face owns each vertex and edge, closed and convex
// classification, centroid, volume and radius.
//
// Orientation: a closed mesh whose signed volume is negative (inward winding) stays closed with
// outwardWinding = false; its edge convexity flags are then computed with the normals flipped,
// so PDI_EDGE_CONVEX always means convex as seen from outside the solid.
#include "mesh_topology.h"

#include "core.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Edge flatness tolerance, relative to the bounding-box diagonal.
#define PDI_MESH_FLAT_TOLERANCE 1e-12

static uint64_t pdiHashVertex( pdVec3 v )
{
	uint64_t bits[3];
	memcpy( &bits[0], &v.x, 8 );
	memcpy( &bits[1], &v.y, 8 );
	memcpy( &bits[2], &v.z, 8 );
	uint64_t h = 1469598103934665603ull;
	for ( int k = 0; k < 3; ++k )
	{
		h ^= bits[k];
		h *= 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	return h;
}

bool pdiWeldVertices( pdMesh* mesh )
{
	int n = mesh->vertexCount;
	size_t capacity = 16;
	while ( capacity < 2 * (size_t)n )
	{
		capacity *= 2;
	}
	size_t scratch = 0;
	int* table = (int*)pdiAllocArray( capacity, sizeof( int ), &scratch );
	if ( table == NULL )
	{
		return false;
	}
	for ( size_t i = 0; i < capacity; ++i )
	{
		table[i] = -1;
	}
	int distinct = 0;
	for ( int i = 0; i < n; ++i )
	{
		pdVec3 v = mesh->vertices[i];
		size_t slot = (size_t)pdiHashVertex( v ) & ( capacity - 1 );
		// The table is at most half full, so a free slot exists within capacity probes.
		for ( size_t probe = 0; probe < capacity; ++probe )
		{
			int j = table[slot];
			if ( j < 0 )
			{
				table[slot] = i;
				mesh->canonicalVertex[i] = i;
				distinct += 1;
				break;
			}
			pdVec3 w = mesh->vertices[j];
			if ( w.x == v.x && w.y == v.y && w.z == v.z )
			{
				mesh->canonicalVertex[i] = j;
				break;
			}
			slot = ( slot + 1 ) & ( capacity - 1 );
		}
	}
	mesh->canonicalVertexCount = distinct;
	pdiFree( table, scratch );
	return true;
}

typedef struct pdiHalfEdge
{
	uint64_t key; // (min id << 32) | max id: canonical ids for adjacency, raw for ownership
	int face;
	int local; // local edge index: vertex local -> vertex local+1
} pdiHalfEdge;

static int pdiCompareHalfEdges( const void* a, const void* b )
{
	const pdiHalfEdge* x = (const pdiHalfEdge*)a;
	const pdiHalfEdge* y = (const pdiHalfEdge*)b;
	if ( x->key != y->key )
	{
		return x->key < y->key ? -1 : 1;
	}
	if ( x->face != y->face )
	{
		return x->face < y->face ? -1 : 1;
	}
	return x->local - y->local;
}

// Does face f traverse its local edge from canonical a to canonical b?
static bool pdiHalfEdgeForward( const pdMesh* mesh, int face, int local, int a )
{
	return mesh->canonicalVertex[mesh->triangles[face][local]] == a;
}

static void pdiSetHalfEdge( pdiHalfEdge* h, int a, int b, int face, int local )
{
	int lo = a < b ? a : b;
	int hi = a < b ? b : a;
	h->key = ( (uint64_t)(uint32_t)lo << 32 ) | (uint32_t)hi;
	h->face = face;
	h->local = local;
}

bool pdiBuildFeatureOwnership( pdMesh* mesh, size_t* ioBytes )
{
	int triangleCount = mesh->triangleCount;
	mesh->featureOwnership = (unsigned char*)pdiAllocArray( (size_t)triangleCount, 1, ioBytes );
	size_t seenBytes = 0, halfBytes = 0;
	unsigned char* vertexSeen = (unsigned char*)pdiAllocArray( (size_t)mesh->vertexCount, 1, &seenBytes );
	pdiHalfEdge* half = (pdiHalfEdge*)pdiAllocArray( 3 * (size_t)triangleCount, sizeof( pdiHalfEdge ), &halfBytes );
	bool ok = mesh->featureOwnership != NULL && vertexSeen != NULL && half != NULL;
	if ( ok )
	{
		memset( vertexSeen, 0, (size_t)mesh->vertexCount );
		for ( int f = 0; f < triangleCount; ++f )
		{
			unsigned char own = 0;
			for ( int k = 0; k < 3; ++k )
			{
				int a = mesh->triangles[f][k];
				int b = mesh->triangles[f][( k + 1 ) % 3];
				if ( !vertexSeen[a] )
				{
					vertexSeen[a] = 1;
					own |= (unsigned char)PDI_OWN_VERTEX( k );
				}
				pdiSetHalfEdge( half + 3 * (size_t)f + k, a, b, f, k );
			}
			mesh->featureOwnership[f] = own;
		}
		// The first face of each edge (the sort breaks key ties by face) owns it.
		size_t halfCount = 3 * (size_t)triangleCount;
		qsort( half, halfCount, sizeof( pdiHalfEdge ), pdiCompareHalfEdges );
		for ( size_t i = 0; i < halfCount; ++i )
		{
			if ( i == 0 || half[i].key != half[i - 1].key )
			{
				mesh->featureOwnership[half[i].face] |= (unsigned char)PDI_OWN_EDGE( half[i].local );
			}
		}
	}
	pdiFree( vertexSeen, seenBytes );
	pdiFree( half, halfBytes );
	return ok;
}

// Vertex -> faces CSR on canonical ids. Kept triangles have three distinct canonical vertices
// (equal coordinates give zero area), so there are exactly 3 entries per face.
static bool pdiBuildVertexFaces( pdMesh* mesh )
{
	int triangleCount = mesh->triangleCount;
	int vertexCount = mesh->vertexCount;
	int* start = mesh->vertexFaceStart;
	memset( start, 0, ( (size_t)vertexCount + 1 ) * sizeof( int ) );
	for ( int f = 0; f < triangleCount; ++f )
	{
		for ( int k = 0; k < 3; ++k )
		{
			start[mesh->canonicalVertex[mesh->triangles[f][k]] + 1] += 1;
		}
	}
	for ( int v = 0; v < vertexCount; ++v )
	{
		start[v + 1] += start[v];
	}
	size_t fillBytes = 0;
	int* fill = (int*)pdiAllocArray( (size_t)vertexCount, sizeof( int ), &fillBytes );
	if ( fill == NULL )
	{
		return false;
	}
	memcpy( fill, start, (size_t)vertexCount * sizeof( int ) );
	for ( int f = 0; f < triangleCount; ++f )
	{
		for ( int k = 0; k < 3; ++k )
		{
			int c = mesh->canonicalVertex[mesh->triangles[f][k]];
			mesh->vertexFaces[fill[c]++] = f;
		}
	}
	pdiFree( fill, fillBytes );
	return true;
}

bool pdiBuildAdjacency( pdMesh* mesh, size_t* ioBytes )
{
	int triangleCount = mesh->triangleCount;
	size_t halfCount = 3 * (size_t)triangleCount;
	size_t scratch = 0;
	pdiHalfEdge* half = (pdiHalfEdge*)pdiAllocArray( halfCount, sizeof( pdiHalfEdge ), &scratch );
	if ( half == NULL )
	{
		return false;
	}
	for ( int f = 0; f < triangleCount; ++f )
	{
		for ( int k = 0; k < 3; ++k )
		{
			int a = mesh->canonicalVertex[mesh->triangles[f][k]];
			int b = mesh->canonicalVertex[mesh->triangles[f][( k + 1 ) % 3]];
			pdiSetHalfEdge( half + 3 * (size_t)f + k, a, b, f, k );
		}
	}
	qsort( half, halfCount, sizeof( pdiHalfEdge ), pdiCompareHalfEdges );

	int edgeCount = 0;
	for ( size_t i = 0; i < halfCount; ++i )
	{
		if ( i == 0 || half[i].key != half[i - 1].key )
		{
			edgeCount += 1;
		}
	}
	mesh->edgeCount = edgeCount;
	mesh->edges = (pdiMeshEdge*)pdiAllocArray( (size_t)edgeCount, sizeof( pdiMeshEdge ), ioBytes );
	if ( mesh->edges == NULL )
	{
		pdiFree( half, scratch );
		return false;
	}

	int e = -1;
	size_t groupStart = 0;
	for ( size_t i = 0; i <= halfCount; ++i )
	{
		if ( i < halfCount && i > 0 && half[i].key == half[i - 1].key )
		{
			continue;
		}
		if ( i > 0 )
		{
			// Close the group [groupStart, i).
			pdiMeshEdge* edge = mesh->edges + e;
			size_t n = i - groupStart;
			const pdiHalfEdge* h0 = half + groupStart;
			edge->v0 = (int)( h0->key >> 32 );
			edge->v1 = (int)( h0->key & 0xffffffffu );
			edge->face0 = h0->face;
			edge->face1 = -1;
			edge->flags = 0;
			for ( size_t j = groupStart; j < i; ++j )
			{
				mesh->triangleEdges[half[j].face][half[j].local] = e;
			}
			if ( n == 1 )
			{
				edge->flags = PDI_EDGE_BOUNDARY;
			}
			else
			{
				const pdiHalfEdge* h1 = h0 + 1;
				bool forward0 = pdiHalfEdgeForward( mesh, h0->face, h0->local, edge->v0 );
				bool forward1 = pdiHalfEdgeForward( mesh, h1->face, h1->local, edge->v0 );
				edge->face0 = forward0 || !forward1 ? h0->face : h1->face;
				edge->face1 = forward0 || !forward1 ? h1->face : h0->face;
				if ( n > 2 )
				{
					edge->flags = PDI_EDGE_NONMANIFOLD;
				}
				else if ( forward0 == forward1 )
				{
					edge->flags = PDI_EDGE_INCONSISTENT;
				}
			}
		}
		if ( i < halfCount )
		{
			e += 1;
			groupStart = i;
		}
	}
	pdiFree( half, scratch );
	return pdiBuildVertexFaces( mesh );
}

// Vertex of face f that is not on its local edge `local`.
static pdVec3 pdiOppositeVertex( const pdMesh* mesh, int face, int edgeId )
{
	for ( int k = 0; k < 3; ++k )
	{
		if ( mesh->triangleEdges[face][k] == edgeId )
		{
			return mesh->vertices[mesh->triangles[face][( k + 2 ) % 3]];
		}
	}
	return mesh->vertices[mesh->triangles[face][0]];
}

void pdiComputeTopologyAndShape( pdMesh* mesh )
{
	bool closed = mesh->edgeCount > 0;
	for ( int e = 0; e < mesh->edgeCount; ++e )
	{
		if ( mesh->edges[e].flags & ( PDI_EDGE_BOUNDARY | PDI_EDGE_NONMANIFOLD | PDI_EDGE_INCONSISTENT ) )
		{
			closed = false;
		}
	}
	mesh->closed = closed;

	// Signed volume and centroids relative to the bounds centre (smaller rounding).
	pdVec3 ref = pdiScale( pdiAdd( mesh->boundsMin, mesh->boundsMax ), 0.5 );
	double signedVolume6 = 0.0;
	pdVec3 volumeMoment = pdiV3( 0.0, 0.0, 0.0 );
	double totalArea = 0.0;
	pdVec3 areaMoment = pdiV3( 0.0, 0.0, 0.0 );
	for ( int f = 0; f < mesh->triangleCount; ++f )
	{
		pdVec3 p[3];
		pdiMesh_TriangleVertices( mesh, f, p );
		pdVec3 a = pdiSub( p[0], ref ), b = pdiSub( p[1], ref ), c = pdiSub( p[2], ref );
		double v6 = pdiDot( a, pdiCross( b, c ) );
		pdVec3 sum = pdiAdd( pdiAdd( a, b ), c );
		signedVolume6 += v6;
		volumeMoment = pdiMulAdd( volumeMoment, v6 * 0.25, sum );
		totalArea += mesh->faceAreas[f];
		areaMoment = pdiMulAdd( areaMoment, mesh->faceAreas[f] / 3.0, sum );
	}
	double signedVolume = signedVolume6 / 6.0;
	double d = mesh->diagonal;
	bool hasVolume = closed && fabs( signedVolume ) > 1e-15 * d * d * d;
	if ( hasVolume )
	{
		// Each tetrahedron's moment is v6/6 * (a+b+c)/4 (the reference point is the origin).
		mesh->centroid = pdiAdd( ref, pdiScale( volumeMoment, 1.0 / signedVolume6 ) );
		mesh->volume = fabs( signedVolume );
	}
	else
	{
		// totalArea > 0: every kept triangle has a positive area.
		mesh->centroid = pdiAdd( ref, pdiScale( areaMoment, 1.0 / totalArea ) );
		mesh->volume = closed ? fabs( signedVolume ) : 0.0;
	}
	mesh->outwardWinding = closed && signedVolume > 0.0;

	double radiusSq = 0.0;
	for ( int v = 0; v < mesh->vertexCount; ++v )
	{
		radiusSq = fmax( radiusSq, pdiDistanceSq( mesh->vertices[v], mesh->centroid ) );
	}
	mesh->radius = sqrt( radiusSq );

	// Edge convexity: face0 traverses v0->v1; the edge is convex when face1's opposite vertex
	// lies below face0's plane. An inward-wound closed mesh flips the test.
	double orientation = ( closed && signedVolume < 0.0 ) ? -1.0 : 1.0;
	double flatTolerance = PDI_MESH_FLAT_TOLERANCE * d;
	bool convex = closed;
	for ( int e = 0; e < mesh->edgeCount; ++e )
	{
		pdiMeshEdge* edge = mesh->edges + e;
		if ( edge->flags != 0 )
		{
			continue;
		}
		pdVec3 n0 = mesh->faceNormals[edge->face0];
		pdVec3 base = mesh->vertices[mesh->triangles[edge->face0][0]];
		pdVec3 opposite = pdiOppositeVertex( mesh, edge->face1, e );
		double height = orientation * pdiDot( n0, pdiSub( opposite, base ) );
		if ( height < -flatTolerance )
		{
			edge->flags = PDI_EDGE_CONVEX;
		}
		else if ( height > flatTolerance )
		{
			edge->flags = PDI_EDGE_CONCAVE;
			convex = false;
		}
		else
		{
			edge->flags = PDI_EDGE_FLAT;
		}
	}
	mesh->convex = convex;
}
