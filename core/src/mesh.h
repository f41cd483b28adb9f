// SPDX-License-Identifier: MIT
// Private: the mesh layout every stage reads. Owned by mesh.c (creation, validation,
// adjacency); bvh.c fills `bvh`, sfog.c fills `sfog`, initial_config.c fills the clearance points.
#pragma once

#include "bvh.h"
#include "polydepth/mesh.h"
#include "vec.h"

#define PD_MESH_MAGIC 0x4d504450u /* "PDPM" */

/// Edge flags.
enum
{
	PD_EDGE_BOUNDARY = 1 << 0,     ///< only one face uses the edge
	PD_EDGE_NONMANIFOLD = 1 << 1,  ///< three or more faces use the edge
	PD_EDGE_INCONSISTENT = 1 << 2, ///< two faces, but they traverse it in the same direction (flipped winding)
	PD_EDGE_CONVEX = 1 << 3,       ///< manifold, consistent, dihedral angle < 180 degrees (outside view)
	PD_EDGE_CONCAVE = 1 << 4,      ///< manifold, consistent, reflex dihedral
	PD_EDGE_FLAT = 1 << 5,         ///< manifold, consistent, coplanar faces (within 1e-12 of flat)
};

/// An undirected edge of the kept triangles. v0 < v1.
typedef struct pdMeshEdge
{
	int v0, v1;
	int face0, face1; ///< the first two faces using the edge (-1 if none); face0 traverses v0->v1 when consistent
	int flags;
} pdMeshEdge;

struct pdMesh
{
	uint32_t magic;
	int vertexCount;
	int triangleCount;        ///< kept triangles
	pdVec3* vertices;         ///< [vertexCount], mesh frame
	int ( *triangles )[3];    ///< [triangleCount] vertex indices
	pdVec3* faceNormals;      ///< [triangleCount] unit, from the winding (v1-v0)x(v2-v0)
	double* faceAreas;        ///< [triangleCount]
	int* inputTriangle;       ///< [triangleCount] input index of each kept triangle
	int removedCount;
	int* removedTriangles;    ///< [removedCount] input indices of removed degenerate triangles

	// Adjacency (always built; meaningful where the soup allows it).
	int edgeCount;
	pdMeshEdge* edges;        ///< [edgeCount]
	int ( *triangleEdges )[3]; ///< [triangleCount] edge id of local edge i (vertex i -> vertex i+1)
	int* vertexFaceStart;     ///< [vertexCount + 1] CSR offsets into vertexFaces
	int* vertexFaces;         ///< faces around each vertex (unordered)
	bool closed;              ///< every edge has exactly two consistently oriented faces
	bool convex;              ///< closed and no concave edge
	bool outwardWinding;      ///< closed and the signed volume is positive (normals point out)
	/// [vertexCount] canonical id of each vertex: the lowest index with exactly the same
	/// coordinates. Edges, the CSR above and all adjacency use canonical ids; the caller's
	/// numbering (vertices, triangles) is kept. vertexFaceStart is indexed by canonical id
	/// (non-canonical slots are empty): use vertexFaceStart[canonicalVertex[v]].
	int* canonicalVertex;
	/// [triangleCount] PD_OWN_* bits (tri_distance.h): the features this triangle reports in
	/// contact-feature gathering. Each vertex index is owned by the first triangle using it,
	/// each edge (unordered pair of vertex indices) by the first triangle containing it, so a
	/// shared vertex or edge is tested once per triangle of the other mesh, not once per face
	/// around it.
	unsigned char* featureOwnership;
	int canonicalVertexCount; ///< distinct vertex positions

	pdVec3 boundsMin, boundsMax; ///< mesh frame
	double diagonal;          ///< |boundsMax - boundsMin|
	pdVec3 centroid;          ///< volume centroid when closed, area-weighted surface centroid otherwise
	double radius;            ///< max distance from centroid to any vertex
	double volume;            ///< signed-volume magnitude when closed, 0 otherwise

	pdBvh bvh;

	struct pdSfog* sfog;      ///< orientation graph, NULL when not built

	int clearanceCount;
	pdVec3* clearancePoints;  ///< maximally clear configurations, mesh frame (initial_config.c)
	double* clearanceRadii;   ///< clearance (distance to the surface) of each point

	size_t memoryBytes;
};

/// Validates a handle coming from the public API.
static inline bool pdIsValidMesh( const pdMesh* mesh )
{
	return mesh != NULL && mesh->magic == PD_MESH_MAGIC;
}

/// The three vertices of kept triangle t in the mesh frame.
static inline void pdMesh_TriangleVertices( const pdMesh* mesh, int t, pdVec3 out[3] )
{
	const int* tri = mesh->triangles[t];
	out[0] = mesh->vertices[tri[0]];
	out[1] = mesh->vertices[tri[1]];
	out[2] = mesh->vertices[tri[2]];
}

/// Up to PD_BVH_LEAF_SIZE triangles of one BVH leaf in the mesh frame, with their boxes and the
/// box of them all: leaf-pair loops load B's side once instead of once per triangle of A.
typedef struct pdLeafChunk
{
	int count;
	int index[PD_BVH_LEAF_SIZE];
	pdVec3 v[PD_BVH_LEAF_SIZE][3];
	pdVec3 lo[PD_BVH_LEAF_SIZE], hi[PD_BVH_LEAF_SIZE];
	pdVec3 allLo, allHi;
} pdLeafChunk;

/// Loads the triangles [first, first + PD_BVH_LEAF_SIZE) of leaf `node` (clipped to the leaf).
static inline void pdLeafChunk_Load( const pdMesh* mesh, const pdBvhNode* node, int first, pdLeafChunk* out )
{
	int n = node->count - first;
	out->count = n < PD_BVH_LEAF_SIZE ? n : PD_BVH_LEAF_SIZE;
	out->allLo = pdV3( INFINITY, INFINITY, INFINITY );
	out->allHi = pdV3( -INFINITY, -INFINITY, -INFINITY );
	for ( int j = 0; j < out->count; ++j )
	{
		int t = mesh->bvh.triangleOrder[node->start + first + j];
		out->index[j] = t;
		pdMesh_TriangleVertices( mesh, t, out->v[j] );
		pdTriangleBox( out->v[j], out->lo + j, out->hi + j );
		out->allLo = pdV3( pdMinD( out->allLo.x, out->lo[j].x ), pdMinD( out->allLo.y, out->lo[j].y ),
						   pdMinD( out->allLo.z, out->lo[j].z ) );
		out->allHi = pdV3( pdMaxD( out->allHi.x, out->hi[j].x ), pdMaxD( out->allHi.y, out->hi[j].y ),
						   pdMaxD( out->allHi.z, out->hi[j].z ) );
	}
}

/// Triangle t of mesh carried into another frame by rel, with its box there: the A side of the
/// leaf-pair loops.
static inline void pdMesh_MovedTriangle( const pdMesh* mesh, int t, const pdFrame* rel, pdVec3 out[3], pdVec3* lo,
										 pdVec3* hi )
{
	pdMesh_TriangleVertices( mesh, t, out );
	out[0] = pdFrameApply( rel, out[0] );
	out[1] = pdFrameApply( rel, out[1] );
	out[2] = pdFrameApply( rel, out[2] );
	pdTriangleBox( out, lo, hi );
}

/// True when the boxes [loA, hiA] and [loB, hiB] come within `reach` of each other.
static inline bool pdBoxesWithin( pdVec3 loA, pdVec3 hiA, pdVec3 loB, pdVec3 hiB, double reach )
{
	return loA.x <= hiB.x + reach && loB.x <= hiA.x + reach && loA.y <= hiB.y + reach && loB.y <= hiA.y + reach &&
		   loA.z <= hiB.z + reach && loB.z <= hiA.z + reach;
}
