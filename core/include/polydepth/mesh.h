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
	int degenerateTriangles;  ///< degenerate triangles found (zero area, repeated index)
	int removedTriangles;     ///< degenerate triangles removed at creation
	char message[192];        ///< e.g. "triangle 17 references vertex 902 of 900"; "" on success
} pdMeshReport;

/// Default mesh def (no data yet: set vertices, indices and counts).
PD_API pdMeshDef pdDefaultMeshDef( void );

/// Checks a def without allocating. Applies exactly the predicates pdCreateMesh applies.
PD_API pdStatus pdValidateMeshDef( const pdMeshDef* def, pdMeshReport* outReport );

/// Creates a mesh (copies the data). Returns NULL on failure; outReport (may be NULL) says why.
PD_API pdMesh* pdCreateMesh( const pdMeshDef* def, pdMeshReport* outReport );

/// Destroys a mesh. NULL is allowed.
PD_API void pdDestroyMesh( pdMesh* mesh );

PD_API int pdMesh_GetVertexCount( const pdMesh* mesh );
/// Triangles kept after removing degenerate ones.
PD_API int pdMesh_GetTriangleCount( const pdMesh* mesh );
/// Input indices of the degenerate triangles that were removed (count in outCount). May be NULL.
PD_API const int* pdMesh_GetRemovedTriangles( const pdMesh* mesh, int* outCount );
/// Input index of kept triangle i (results of queries report kept indices).
PD_API int pdMesh_GetInputTriangleIndex( const pdMesh* mesh, int triangle );
/// Vertex i in the mesh's own frame.
PD_API pdVec3 pdMesh_GetVertex( const pdMesh* mesh, int vertex );
/// The three vertex indices of kept triangle i.
PD_API void pdMesh_GetTriangle( const pdMesh* mesh, int triangle, int outIndices[3] );
/// Axis-aligned bounds in the mesh's own frame.
PD_API void pdMesh_GetBounds( const pdMesh* mesh, pdVec3* outMin, pdVec3* outMax );
/// True when every edge is shared by exactly two consistently oriented faces.
PD_API bool pdMesh_IsClosed( const pdMesh* mesh );
/// True when the mesh is closed and every edge is convex (a convex polyhedron).
PD_API bool pdMesh_IsConvex( const pdMesh* mesh );
/// Total bytes the mesh owns (geometry, adjacency, BVH, orientation graph, clearance points).
PD_API size_t pdMesh_GetMemoryBytes( const pdMesh* mesh );
/// Bytes owned by the BVH alone.
PD_API size_t pdMesh_GetBvhBytes( const pdMesh* mesh );

PD_C_END
