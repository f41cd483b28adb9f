// SPDX-License-Identifier: MIT
// Mesh creation and destruction: the def's defaults, copying the checked def (mesh_validate.c)
// with degenerate triangles removed, geometry (normals, areas, bounds), then topology and shape
// (mesh_topology.c), the BVH, the orientation graph and the clearance data; the accessors.
#include "mesh.h"

#include "clearance.h"
#include "core.h"
#include "mesh_topology.h"
#include "mesh_validate.h"
#include "sfog.h"

#include <string.h>

pdMeshDef pdDefaultMeshDef( void )
{
	pdMeshDef def;
	memset( &def, 0, sizeof( def ) );
	def.vertexType = PD_SCALAR_FLOAT64;
	def.indexType = PD_INDEX_UINT32;
	def.degenerateAreaTolerance = 1e-14;
	def.rejectDegenerate = false;
	def.buildOrientationGraph = true;
	def.computeClearancePoints = true;
	def.clearanceGridResolution = 16;
	def.internalValue = PD_SECRET_COOKIE;
	return def;
}

// Frees every array the mesh owns (the mesh may be partially built; NULL arrays are skipped).
static void pdFreeMeshArrays( pdMesh* mesh )
{
	size_t v = (size_t)mesh->vertexCount;
	size_t t = (size_t)mesh->triangleCount;
	pdFree( mesh->vertices, v * sizeof( pdVec3 ) );
	pdFree( mesh->triangles, t * sizeof( int[3] ) );
	pdFree( mesh->faceNormals, t * sizeof( pdVec3 ) );
	pdFree( mesh->faceAreas, t * sizeof( double ) );
	pdFree( mesh->inputTriangle, t * sizeof( int ) );
	pdFree( mesh->removedTriangles, (size_t)mesh->removedCount * sizeof( int ) );
	pdFree( mesh->edges, (size_t)mesh->edgeCount * sizeof( pdMeshEdge ) );
	pdFree( mesh->triangleEdges, t * sizeof( int[3] ) );
	pdFree( mesh->vertexFaceStart, ( v + 1 ) * sizeof( int ) );
	pdFree( mesh->vertexFaces, 3 * t * sizeof( int ) );
	pdFree( mesh->canonicalVertex, v * sizeof( int ) );
	pdFree( mesh->featureOwnership, t );
	mesh->vertices = NULL;
	mesh->triangles = NULL;
	mesh->faceNormals = NULL;
	mesh->faceAreas = NULL;
	mesh->inputTriangle = NULL;
	mesh->removedTriangles = NULL;
	mesh->edges = NULL;
	mesh->triangleEdges = NULL;
	mesh->vertexFaceStart = NULL;
	mesh->vertexFaces = NULL;
	mesh->canonicalVertex = NULL;
	mesh->featureOwnership = NULL;
}

static pdMesh* pdFailCreate( pdMesh* mesh, pdMeshReport* report, const char* what )
{
	if ( mesh != NULL )
	{
		mesh->magic = 0;
		pdFreeMeshArrays( mesh );
		pdFree( mesh, sizeof( pdMesh ) );
	}
	pdResetReport( report );
	pdFailReport( report, PD_STATUS_OUT_OF_MEMORY, "out of memory allocating %s", what );
	return NULL;
}

pdMesh* pdCreateMesh( const pdMeshDef* def, pdMeshReport* outReport )
{
	pdMeshReport local;
	pdMeshReport* report = outReport != NULL ? outReport : &local;
	double diagonalSq;
	if ( pdCheckMeshDef( def, report, &diagonalSq ) != PD_STATUS_OK )
	{
		return NULL;
	}
	pdMeshReport checked = *report;

	pdMesh* mesh = (pdMesh*)pdAllocZeroed( sizeof( pdMesh ) );
	if ( mesh == NULL )
	{
		return pdFailCreate( NULL, report, "the mesh" );
	}
	size_t bytes = sizeof( pdMesh );
	int vertexCount = def->vertexCount;
	int keptCount = def->triangleCount - checked.removedTriangles;
	size_t v = (size_t)vertexCount;
	size_t t = (size_t)keptCount;

	// Counts first so that a partial mesh frees with the right sizes.
	mesh->vertexCount = vertexCount;
	mesh->triangleCount = keptCount;
	mesh->removedCount = checked.removedTriangles;
	mesh->vertices = (pdVec3*)pdAllocArray( v, sizeof( pdVec3 ), &bytes );
	mesh->triangles = (int( * )[3])pdAllocArray( t, sizeof( int[3] ), &bytes );
	mesh->faceNormals = (pdVec3*)pdAllocArray( t, sizeof( pdVec3 ), &bytes );
	mesh->faceAreas = (double*)pdAllocArray( t, sizeof( double ), &bytes );
	mesh->inputTriangle = (int*)pdAllocArray( t, sizeof( int ), &bytes );
	mesh->removedTriangles = (int*)pdAllocArray( (size_t)mesh->removedCount, sizeof( int ), &bytes );
	mesh->triangleEdges = (int( * )[3])pdAllocArray( t, sizeof( int[3] ), &bytes );
	mesh->vertexFaceStart = (int*)pdAllocArray( v + 1, sizeof( int ), &bytes );
	mesh->vertexFaces = (int*)pdAllocArray( 3 * t, sizeof( int ), &bytes );
	mesh->canonicalVertex = (int*)pdAllocArray( v, sizeof( int ), &bytes );
	if ( mesh->vertices == NULL || mesh->triangles == NULL || mesh->faceNormals == NULL || mesh->faceAreas == NULL ||
		 mesh->inputTriangle == NULL || ( mesh->removedCount > 0 && mesh->removedTriangles == NULL ) ||
		 mesh->triangleEdges == NULL || mesh->vertexFaceStart == NULL || mesh->vertexFaces == NULL ||
		 mesh->canonicalVertex == NULL )
	{
		return pdFailCreate( mesh, report, "mesh arrays" );
	}

	for ( int i = 0; i < vertexCount; ++i )
	{
		mesh->vertices[i] = pdReadVertexValue( def, i );
		mesh->boundsMin = i == 0 ? mesh->vertices[i] : pdMin3( mesh->boundsMin, mesh->vertices[i] );
		mesh->boundsMax = i == 0 ? mesh->vertices[i] : pdMax3( mesh->boundsMax, mesh->vertices[i] );
	}
	mesh->diagonal = pdLength( pdSub( mesh->boundsMax, mesh->boundsMin ) );

	int kept = 0, removed = 0;
	for ( int i = 0; i < def->triangleCount; ++i )
	{
		uint32_t tri[3];
		pdReadTriangle( def, i, tri );
		if ( pdClassifyTriangle( def, tri, diagonalSq, NULL ) != PD_TRI_OK )
		{
			PD_ASSERT( removed < mesh->removedCount );
			mesh->removedTriangles[removed++] = i;
			continue;
		}
		PD_ASSERT( kept < keptCount );
		int* out = mesh->triangles[kept];
		out[0] = (int)tri[0];
		out[1] = (int)tri[1];
		out[2] = (int)tri[2];
		pdVec3 p[3];
		pdMesh_TriangleVertices( mesh, kept, p );
		pdVec3 n = pdCross( pdSub( p[1], p[0] ), pdSub( p[2], p[0] ) );
		mesh->faceAreas[kept] = 0.5 * pdLength( n );
		mesh->faceNormals[kept] = pdNormalize( n );
		mesh->inputTriangle[kept] = i;
		kept += 1;
	}
	PD_ASSERT( kept == keptCount && removed == mesh->removedCount );

	if ( !pdWeldVertices( mesh ) )
	{
		return pdFailCreate( mesh, report, "the vertex weld table" );
	}
	if ( !pdBuildAdjacency( mesh, &bytes ) )
	{
		return pdFailCreate( mesh, report, "adjacency" );
	}
	if ( !pdBuildFeatureOwnership( mesh, &bytes ) )
	{
		return pdFailCreate( mesh, report, "feature ownership" );
	}
	pdComputeTopologyAndShape( mesh );
	mesh->magic = PD_MESH_MAGIC;

	if ( pdBvh_Build( &mesh->bvh, mesh ) != PD_STATUS_OK )
	{
		pdBvh_Destroy( &mesh->bvh );
		return pdFailCreate( mesh, report, "the BVH" );
	}
	if ( def->buildOrientationGraph )
	{
		// NULL (out of memory) is acceptable: the mesh is then used without pruning.
		mesh->sfog = pdSfog_Build( mesh );
	}
	if ( def->computeClearancePoints )
	{
		if ( pdComputeClearancePoints( mesh, def->clearanceGridResolution ) == PD_STATUS_OUT_OF_MEMORY ||
			 pdComputeInnerBalls( mesh ) == PD_STATUS_OUT_OF_MEMORY )
		{
			pdFreeInnerBalls( mesh );
			pdFreeClearancePoints( mesh );
			pdSfog_Destroy( mesh->sfog );
			mesh->sfog = NULL;
			pdBvh_Destroy( &mesh->bvh );
			mesh->magic = 0;
			return pdFailCreate( mesh, report, "clearance points" );
		}
	}
	bytes += mesh->bvh.bytes;
	bytes += pdSfog_Bytes( mesh->sfog );
	bytes += (size_t)mesh->clearanceCount * ( sizeof( pdVec3 ) + sizeof( double ) );
	bytes += (size_t)mesh->innerBallCount * sizeof( pdBall );
	mesh->memoryBytes = bytes;

	*report = checked;
	return mesh;
}

void pdDestroyMesh( pdMesh* mesh )
{
	if ( !pdIsValidMesh( mesh ) )
	{
		return;
	}
	pdFreeInnerBalls( mesh );
	pdFreeClearancePoints( mesh );
	pdSfog_Destroy( mesh->sfog );
	mesh->sfog = NULL;
	pdBvh_Destroy( &mesh->bvh );
	pdFreeMeshArrays( mesh );
	mesh->magic = 0;
	pdFree( mesh, sizeof( pdMesh ) );
}

pdMeshInfo pdMesh_GetInfo( const pdMesh* mesh )
{
	pdMeshInfo info;
	memset( &info, 0, sizeof( info ) );
	if ( !pdIsValidMesh( mesh ) )
	{
		return info;
	}
	info.vertexCount = mesh->vertexCount;
	info.triangleCount = mesh->triangleCount;
	info.vertices = mesh->vertices;
	info.triangles = (const int( * )[3])mesh->triangles;
	info.inputTriangles = mesh->inputTriangle;
	info.removedTriangleCount = mesh->removedCount;
	info.removedTriangles = mesh->removedTriangles;
	info.boundsMin = mesh->boundsMin;
	info.boundsMax = mesh->boundsMax;
	info.closed = mesh->closed;
	info.convex = mesh->convex;
	info.memoryBytes = mesh->memoryBytes;
	info.bvhBytes = mesh->bvh.bytes;
	return info;
}
