// SPDX-License-Identifier: MIT
// Private: the mesh layout every stage reads. Owned by mesh.c (creation), mesh_validate.c
// (validation) and mesh_topology.c (adjacency, shape); bvh.c fills `bvh`, sfog.c fills `sfog`,
// clearance.c fills the clearance points and inner balls.
#pragma once

#include "bvh.h"
#include "polydepth/mesh.h"
#include "vec.h"

#define PDI_MESH_MAGIC 0x4d504450u /* "PDPM" */

/// Edge flags.
enum
{
	PDI_EDGE_BOUNDARY = 1 << 0,     ///< only one face uses the edge
	PDI_EDGE_NONMANIFOLD = 1 << 1,  ///< three or more faces use the edge
	PDI_EDGE_INCONSISTENT = 1 << 2, ///< two faces, but they traverse it in the same direction (flipped winding)
	PDI_EDGE_CONVEX = 1 << 3,       ///< manifold, consistent, dihedral angle < 180 degrees (outside view)
	PDI_EDGE_CONCAVE = 1 << 4,      ///< manifold, consistent, reflex dihedral
	PDI_EDGE_FLAT = 1 << 5,         ///< manifold, consistent, coplanar faces (within 1e-12 of flat)
};

/// An undirected edge of the kept triangles. v0 < v1.
typedef struct pdiMeshEdge
{
	int v0, v1;
	int face0, face1; ///< the first two faces using the edge (-1 if none); face0 traverses v0->v1 when consistent
	int flags;
} pdiMeshEdge;

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
	pdiMeshEdge* edges;        ///< [edgeCount]
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
	/// [triangleCount] PDI_OWN_* bits (tri_distance.h): the features this triangle reports in
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

	pdiBvh bvh;

	struct pdiSfog* sfog;      ///< orientation graph, NULL when not built

	int clearanceCount;
	pdVec3* clearancePoints;  ///< maximally clear configurations, mesh frame (clearance.c)
	double* clearanceRadii;   ///< clearance (distance to the surface) of each point

	/// Balls inside a closed mesh's solid, largest first (clearance.c): two meshes whose
	/// balls overlap collide, which settles most static checks of deep configurations.
	int innerBallCount;
	struct pdiBall* innerBalls;

	size_t memoryBytes;
};

/// Validates a handle coming from the public API.
static inline bool pdiIsValidMesh( const pdMesh* mesh )
{
	return mesh != NULL && mesh->magic == PDI_MESH_MAGIC;
}

/// The three vertices of kept triangle t in the mesh frame.
static inline void pdiMesh_TriangleVertices( const pdMesh* mesh, int t, pdVec3 out[3] )
{
	const int* tri = mesh->triangles[t];
	out[0] = mesh->vertices[tri[0]];
	out[1] = mesh->vertices[tri[1]];
	out[2] = mesh->vertices[tri[2]];
}

/// Up to PDI_BVH_LEAF_SIZE triangles of one BVH leaf in the mesh frame, with their boxes and the
/// box of them all: views into the BVH's leaf-ordered arrays, so a leaf-pair loop reads B's side
/// without gathering or boxing anything.
typedef struct pdiLeafChunk
{
	int count;
	const int* index;          ///< triangle ids
	const pdVec3 ( *v )[3];    ///< vertices
	const pdVec3 *lo, *hi;     ///< triangle boxes
	const pdiTrianglePlane* plane; ///< triangle planes
	pdVec3 allLo, allHi;
} pdiLeafChunk;

/// The triangles [first, first + PDI_BVH_LEAF_SIZE) of leaf `node` (clipped to the leaf);
/// first < node->count, so the chunk is never empty.
static inline void pdiLeafChunk_Load( const pdMesh* mesh, const pdiBvhNode* node, int first, pdiLeafChunk* out )
{
	int n = node->count - first;
	int base = node->start + first;
	out->count = n < PDI_BVH_LEAF_SIZE ? n : PDI_BVH_LEAF_SIZE;
	out->index = mesh->bvh.triangleOrder + base;
	out->v = (const pdVec3( * )[3])( mesh->bvh.leafVertices + base );
	out->lo = mesh->bvh.leafLo + base;
	out->hi = mesh->bvh.leafHi + base;
	out->plane = mesh->bvh.leafPlanes + base;
	pdVec3 lo = out->lo[0], hi = out->hi[0];
	for ( int j = 1; j < out->count; ++j )
	{
		lo = pdiV3( pdiMinD( lo.x, out->lo[j].x ), pdiMinD( lo.y, out->lo[j].y ), pdiMinD( lo.z, out->lo[j].z ) );
		hi = pdiV3( pdiMaxD( hi.x, out->hi[j].x ), pdiMaxD( hi.y, out->hi[j].y ), pdiMaxD( hi.z, out->hi[j].z ) );
	}
	out->allLo = lo;
	out->allHi = hi;
}

/// The triangle in leaf-order slot k (triangle bvh.triangleOrder[k]) carried into another frame
/// by rel, with its box there: the A side of the leaf-pair loops.
static inline void pdiMesh_MovedLeafTriangle( const pdMesh* mesh, int slot, const pdiFrame* rel, pdVec3 out[3],
											 pdVec3* lo, pdVec3* hi )
{
	const pdVec3* v = mesh->bvh.leafVertices[slot];
	out[0] = pdiFrameApply( rel, v[0] );
	out[1] = pdiFrameApply( rel, v[1] );
	out[2] = pdiFrameApply( rel, v[2] );
	pdiTriangleBox( out, lo, hi );
}

/// True when the boxes [loA, hiA] and [loB, hiB] come within `reach` of each other.
static inline bool pdiBoxesWithin( pdVec3 loA, pdVec3 hiA, pdVec3 loB, pdVec3 hiB, double reach )
{
	return loA.x <= hiB.x + reach && loB.x <= hiA.x + reach && loA.y <= hiB.y + reach && loB.y <= hiA.y + reach &&
		   loA.z <= hiB.z + reach && loB.z <= hiA.z + reach;
}

/// The size of a pair: the smaller bounding-box diagonal, 1 for degenerate meshes.
static inline double pdiPairScale( const pdMesh* meshA, const pdMesh* meshB )
{
	double scale = fmin( meshA->diagonal, meshB->diagonal );
	return scale > 0.0 ? scale : 1.0;
}

/// The default contact tolerance of a pair: 1e-4 of the smaller bounding-box diagonal.
static inline double pdiDefaultContactTolerance( const pdMesh* meshA, const pdMesh* meshB )
{
	return 1e-4 * pdiPairScale( meshA, meshB );
}
