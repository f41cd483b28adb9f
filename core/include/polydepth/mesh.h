// SPDX-License-Identifier: MIT
// PolyDepth core: triangle meshes (polygon soups). Created once from caller memory (copied),
// immutable afterwards, and safe to share between threads.
#pragma once

#include "base.h"

PD_C_BEGIN

typedef struct pdMesh pdMesh;

/// Vertex coordinate type of the caller's array.
typedef enum pdScalarType
{
	PD_SCALAR_FLOAT32 = 0,
	PD_SCALAR_FLOAT64 = 1,
} pdScalarType;

/// Index type of the caller's triangle array.
typedef enum pdIndexType
{
	PD_INDEX_UINT16 = 0,
	PD_INDEX_UINT32 = 1,
} pdIndexType;

/// Describes a mesh to create. Must be initialised with pdDefaultMeshDef().
typedef struct pdMeshDef
{
	const void* vertices;     ///< vertexCount points, 3 coordinates each, in the mesh's own frame
	int vertexCount;          ///< number of vertices (> 0)
	int vertexStride;         ///< bytes from one vertex to the next; 0 means tightly packed
	pdScalarType vertexType;  ///< float or double coordinates. Default PD_SCALAR_FLOAT64

	const void* indices;      ///< triangleCount triangles, 3 indices each
	int triangleCount;        ///< number of triangles (> 0)
	int indexStride;          ///< bytes from one triangle to the next; 0 means tightly packed
	pdIndexType indexType;    ///< 16- or 32-bit indices. Default PD_INDEX_UINT32

	/// A triangle is degenerate when its area is below this times the squared bounding-box
	/// diagonal, or when it repeats an index. Default 1e-14 (relative, unitless).
	double degenerateAreaTolerance;
	/// Reject the whole mesh on the first degenerate triangle instead of removing it. Default false.
	bool rejectDegenerate;
	/// Build the spherical face orientation graph used by orientation pruning. Default true.
	bool buildOrientationGraph;
	/// Precompute maximally clear configurations (a voxel distance field of the bounding box)
	/// and, for closed meshes, a few balls inside the solid that let PD queries prove deep
	/// configurations colliding without a traversal (same answers, less time). Default true.
	bool computeClearancePoints;
	/// Voxel cells along the longest bounding-box axis for the clearance field. Default 16.
	int clearanceGridResolution;

	int internalValue; ///< set by pdDefaultMeshDef(); do not touch
} pdMeshDef;

/// What mesh validation or creation found. Fully written by every call that takes one.
typedef struct pdMeshReport
{
	pdStatus status;          ///< first fatal problem, or PD_STATUS_OK
	int firstBadVertex;       ///< index of the first NaN/Inf vertex, -1 if none
	int firstBadTriangle;     ///< input index of the first offending (or first degenerate) triangle, -1 if none
	int degenerateTriangleCount;  ///< degenerate triangles found (zero area, repeated index)
	int removedTriangleCount; ///< degenerate triangles removed at creation
	char message[PD_MESSAGE_CAPACITY]; ///< e.g. "triangle 17 references vertex 902 of 900"; "" on success
} pdMeshReport;

/// Default mesh def (no data yet: set vertices, indices and counts).
PD_API pdMeshDef pdDefaultMeshDef( void );

/// Checks a def without allocating. Applies exactly the predicates pdCreateMesh applies.
PD_API pdStatus pdValidateMeshDef( const pdMeshDef* def, pdMeshReport* outReport );

/// Creates a mesh (copies the data). Returns NULL on failure; outReport (may be NULL) says why.
PD_API pdMesh* pdCreateMesh( const pdMeshDef* def, pdMeshReport* outReport );

/// Destroys a mesh. NULL is allowed.
PD_API void pdDestroyMesh( pdMesh* mesh );

/// What a mesh holds. The arrays belong to the mesh: valid until pdDestroyMesh, never to be
/// written. Queries report kept-triangle indices; inputTriangles maps them to the caller's.
typedef struct pdMeshInfo
{
	int vertexCount;
	int triangleCount;               ///< triangles kept after removing degenerate ones
	const pdVec3* vertices;          ///< [vertexCount] in the mesh's own frame
	const int ( *triangles )[3];     ///< [triangleCount] the three vertex indices of each kept triangle
	const int* inputTriangles;       ///< [triangleCount] the input index of each kept triangle
	int removedTriangleCount;        ///< degenerate input triangles removed at creation
	const int* removedTriangles;     ///< [removedTriangleCount] their input indices
	pdVec3 boundsMin, boundsMax;     ///< axis-aligned bounds in the mesh's own frame
	bool closed;                     ///< every edge is shared by exactly two consistently oriented faces
	bool convex;                     ///< closed, and every edge is convex (a convex polyhedron)
	size_t memoryBytes;              ///< everything the mesh owns (geometry, adjacency, BVH, orientation graph, clearance)
	size_t bvhBytes;                 ///< of which the BVH
} pdMeshInfo;

/// The mesh's counts, arrays, bounds, shape and memory. All zero (NULL arrays) for a NULL or
/// destroyed mesh.
PD_API pdMeshInfo pdMesh_GetInfo( const pdMesh* mesh );

PD_C_END
