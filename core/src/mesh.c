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
	def.internalValue = PDI_SECRET_COOKIE;
	return def;
}

// Frees every array the mesh owns (the mesh may be partially built; NULL arrays are skipped).
static void pdiFreeMeshArrays( pdMesh* mesh )
{
	size_t v = (size_t)mesh->vertexCount;
	size_t t = (size_t)mesh->triangleCount;
	pdiFree( mesh->vertices, v * sizeof( pdVec3 ) );
	pdiFree( mesh->triangles, t * sizeof( int[3] ) );
	pdiFree( mesh->faceNormals, t * sizeof( pdVec3 ) );
	pdiFree( mesh->faceAreas, t * sizeof( double ) );
	pdiFree( mesh->inputTriangle, t * sizeof( int ) );
	pdiFree( mesh->removedTriangles, (size_t)mesh->removedCount * sizeof( int ) );
	pdiFree( mesh->edges, (size_t)mesh->edgeCount * sizeof( pdiMeshEdge ) );
	pdiFree( mesh->triangleEdges, t * sizeof( int[3] ) );
	pdiFree( mesh->vertexFaceStart, ( v + 1 ) * sizeof( int ) );
	pdiFree( mesh->vertexFaces, 3 * t * sizeof( int ) );
	pdiFree( mesh->canonicalVertex, v * sizeof( int ) );
	pdiFree( mesh->featureOwnership, t );
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

static pdMesh* pdiFailCreate( pdMesh* mesh, pdMeshReport* report, const char* what )
{
	if ( mesh != NULL )
	{
		mesh->magic = 0;
		pdiFreeMeshArrays( mesh );
		pdiFree( mesh, sizeof( pdMesh ) );
	}
	pdiResetReport( report );
	pdiFailReport( report, PD_STATUS_OUT_OF_MEMORY, "out of memory allocating %s", what );
	return NULL;
}

pdMesh* pdCreateMesh( const pdMeshDef* def, pdMeshReport* outReport )
{
	pdMeshReport local;
	pdMeshReport* report = outReport != NULL ? outReport : &local;
	double diagonalSq;
	if ( pdiCheckMeshDef( def, report, &diagonalSq ) != PD_STATUS_OK )
	{
		return NULL;
	}
	pdMeshReport checked = *report;

	pdMesh* mesh = (pdMesh*)pdiAllocZeroed( sizeof( pdMesh ) );
	if ( mesh == NULL )
	{
		return pdiFailCreate( NULL, report, "the mesh" );
	}
	size_t bytes = sizeof( pdMesh );
	int vertexCount = def->vertexCount;
	int keptCount = def->triangleCount - checked.removedTriangleCount;
	size_t v = (size_t)vertexCount;
	size_t t = (size_t)keptCount;

	// Counts first so that a partial mesh frees with the right sizes.
	mesh->vertexCount = vertexCount;
	mesh->triangleCount = keptCount;
	mesh->removedCount = checked.removedTriangleCount;
	mesh->vertices = (pdVec3*)pdiAllocArray( v, sizeof( pdVec3 ), &bytes );
	mesh->triangles = (int( * )[3])pdiAllocArray( t, sizeof( int[3] ), &bytes );
	mesh->faceNormals = (pdVec3*)pdiAllocArray( t, sizeof( pdVec3 ), &bytes );
	mesh->faceAreas = (double*)pdiAllocArray( t, sizeof( double ), &bytes );
	mesh->inputTriangle = (int*)pdiAllocArray( t, sizeof( int ), &bytes );
	mesh->removedTriangles = (int*)pdiAllocArray( (size_t)mesh->removedCount, sizeof( int ), &bytes );
	mesh->triangleEdges = (int( * )[3])pdiAllocArray( t, sizeof( int[3] ), &bytes );
	mesh->vertexFaceStart = (int*)pdiAllocArray( v + 1, sizeof( int ), &bytes );
	mesh->vertexFaces = (int*)pdiAllocArray( 3 * t, sizeof( int ), &bytes );
	mesh->canonicalVertex = (int*)pdiAllocArray( v, sizeof( int ), &bytes );
	if ( mesh->vertices == NULL || mesh->triangles == NULL || mesh->faceNormals == NULL || mesh->faceAreas == NULL ||
		 mesh->inputTriangle == NULL || ( mesh->removedCount > 0 && mesh->removedTriangles == NULL ) ||
		 mesh->triangleEdges == NULL || mesh->vertexFaceStart == NULL || mesh->vertexFaces == NULL ||
		 mesh->canonicalVertex == NULL )
	{
		return pdiFailCreate( mesh, report, "mesh arrays" );
	}

	for ( int i = 0; i < vertexCount; ++i )
	{
		mesh->vertices[i] = pdiReadVertexValue( def, i );
		mesh->boundsMin = i == 0 ? mesh->vertices[i] : pdiMin3( mesh->boundsMin, mesh->vertices[i] );
		mesh->boundsMax = i == 0 ? mesh->vertices[i] : pdiMax3( mesh->boundsMax, mesh->vertices[i] );
	}
	mesh->diagonal = pdiLength( pdiSub( mesh->boundsMax, mesh->boundsMin ) );

	int kept = 0, removed = 0;
	for ( int i = 0; i < def->triangleCount; ++i )
	{
		uint32_t tri[3];
		pdiReadTriangle( def, i, tri );
		if ( pdiClassifyTriangle( def, tri, diagonalSq, NULL ) != PDI_TRI_OK )
		{
			PDI_ASSERT( removed < mesh->removedCount );
			mesh->removedTriangles[removed++] = i;
			continue;
		}
		PDI_ASSERT( kept < keptCount );
		int* out = mesh->triangles[kept];
		out[0] = (int)tri[0];
		out[1] = (int)tri[1];
		out[2] = (int)tri[2];
		pdVec3 p[3];
		pdiMesh_TriangleVertices( mesh, kept, p );
		pdVec3 n = pdiCross( pdiSub( p[1], p[0] ), pdiSub( p[2], p[0] ) );
		mesh->faceAreas[kept] = 0.5 * pdiLength( n );
		mesh->faceNormals[kept] = pdiNormalize( n );
		mesh->inputTriangle[kept] = i;
		kept += 1;
	}
	PDI_ASSERT( kept == keptCount && removed == mesh->removedCount );

	if ( !pdiWeldVertices( mesh ) )
	{
		return pdiFailCreate( mesh, report, "the vertex weld table" );
	}
	if ( !pdiBuildAdjacency( mesh, &bytes ) )
	{
		return pdiFailCreate( mesh, report, "adjacency" );
	}
	if ( !pdiBuildFeatureOwnership( mesh, &bytes ) )
	{
		return pdiFailCreate( mesh, report, "feature ownership" );
	}
	pdiComputeTopologyAndShape( mesh );
	mesh->magic = PDI_MESH_MAGIC;

	if ( pdiBvh_Build( &mesh->bvh, mesh ) != PD_STATUS_OK )
	{
		pdiBvh_Destroy( &mesh->bvh );
		return pdiFailCreate( mesh, report, "the BVH" );
	}
	if ( def->buildOrientationGraph )
	{
		// NULL (out of memory) is acceptable: the mesh is then used without pruning.
		mesh->sfog = pdiSfog_Build( mesh );
	}
	if ( def->computeClearancePoints )
	{
		if ( pdiComputeClearancePoints( mesh, def->clearanceGridResolution ) == PD_STATUS_OUT_OF_MEMORY ||
			 pdiComputeInnerBalls( mesh ) == PD_STATUS_OUT_OF_MEMORY )
		{
			pdiFreeInnerBalls( mesh );
			pdiFreeClearancePoints( mesh );
			pdiSfog_Destroy( mesh->sfog );
			mesh->sfog = NULL;
			pdiBvh_Destroy( &mesh->bvh );
			mesh->magic = 0;
			return pdiFailCreate( mesh, report, "clearance points" );
		}
	}
	bytes += mesh->bvh.bytes;
	bytes += pdiSfog_Bytes( mesh->sfog );
	bytes += (size_t)mesh->clearanceCount * ( sizeof( pdVec3 ) + sizeof( double ) );
	bytes += (size_t)mesh->innerBallCount * sizeof( pdiBall );
	mesh->memoryBytes = bytes;

	*report = checked;
	return mesh;
}

void pdDestroyMesh( pdMesh* mesh )
{
	if ( !pdiIsValidMesh( mesh ) )
	{
		return;
	}
	pdiFreeInnerBalls( mesh );
	pdiFreeClearancePoints( mesh );
	pdiSfog_Destroy( mesh->sfog );
	mesh->sfog = NULL;
	pdiBvh_Destroy( &mesh->bvh );
	pdiFreeMeshArrays( mesh );
	mesh->magic = 0;
	pdiFree( mesh, sizeof( pdMesh ) );
}

pdMeshInfo pdMesh_GetInfo( const pdMesh* mesh )
{
	pdMeshInfo info;
	memset( &info, 0, sizeof( info ) );
	if ( !pdiIsValidMesh( mesh ) )
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
