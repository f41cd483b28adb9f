// SPDX-License-Identifier: MIT
// Mesh creation (mesh.c): defaults, accessors, input formats, copying, degenerate removal,
// memory accounting and allocation failure.
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

TEST( PdMesh, DefaultDefHasCookieAndDocumentedDefaults )
{
	pdMeshDef def = pdDefaultMeshDef();
	EXPECT_EQ( def.internalValue, PDI_SECRET_COOKIE );
	EXPECT_EQ( def.vertexType, PD_SCALAR_FLOAT64 );
	EXPECT_EQ( def.indexType, PD_INDEX_UINT32 );
	EXPECT_EQ( def.degenerateAreaTolerance, 1e-14 );
	EXPECT_FALSE( def.rejectDegenerate );
	EXPECT_TRUE( def.buildOrientationGraph );
	EXPECT_TRUE( def.computeClearancePoints );
	EXPECT_EQ( def.clearanceGridResolution, 16 );
	EXPECT_EQ( def.vertices, nullptr );
	EXPECT_EQ( def.vertexCount, 0 );
}

TEST( PdMesh, InfoOfNullAndInvalidMeshesIsEmpty )
{
	pdMesh fake;
	memset( &fake, 0, sizeof( fake ) );
	const pdMesh* bad[2] = { nullptr, &fake };
	for ( const pdMesh* m : bad )
	{
		pdMeshInfo info = pdMesh_GetInfo( m );
		EXPECT_EQ( info.vertexCount, 0 );
		EXPECT_EQ( info.triangleCount, 0 );
		EXPECT_EQ( info.vertices, nullptr );
		EXPECT_EQ( info.triangles, nullptr );
		EXPECT_EQ( info.inputTriangles, nullptr );
		EXPECT_EQ( info.removedTriangleCount, 0 );
		EXPECT_EQ( info.removedTriangles, nullptr );
		EXPECT_EQ( info.boundsMin.x, 0.0 );
		EXPECT_EQ( info.boundsMax.z, 0.0 );
		EXPECT_FALSE( info.closed );
		EXPECT_FALSE( info.convex );
		EXPECT_EQ( info.memoryBytes, 0u );
		EXPECT_EQ( info.bvhBytes, 0u );
	}
	pdDestroyMesh( nullptr );
	pdDestroyMesh( &fake );

	Soup box = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	pdMeshDef def = DefOf( box );
	MeshPtr mesh( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( mesh.m, nullptr );
	pdMeshInfo info = pdMesh_GetInfo( mesh.m );
	EXPECT_EQ( info.vertexCount, 8 );
	EXPECT_EQ( info.triangleCount, 12 );
	ASSERT_NE( info.vertices, nullptr );
	ASSERT_NE( info.triangles, nullptr );
	ASSERT_NE( info.inputTriangles, nullptr );
	EXPECT_EQ( info.removedTriangleCount, 0 );
	EXPECT_GT( info.memoryBytes, info.bvhBytes );
	EXPECT_GT( info.bvhBytes, 0u );
}

TEST( PdMesh, InputFormatsGiveIdenticalMeshes )
{
	Soup box = MakeBox( { 0.5, -0.25, 2.0 }, { 1.0, 2.0, 0.5 } ); // exact in float
	pdMeshDef ref = DefOf( box );
	MeshPtr a( pdCreateMesh( &ref, nullptr ) );
	ASSERT_NE( a.m, nullptr );

	// Floats with padding, doubles with padding, uint16 with padding, uint32 with padding.
	std::vector<float> floats( 4 * box.VertexCount() );
	std::vector<double> paddedDoubles( 5 * box.VertexCount() );
	for ( int i = 0; i < box.VertexCount(); ++i )
		for ( int k = 0; k < 3; ++k )
		{
			floats[4 * i + k] = (float)box.v[3 * i + k];
			paddedDoubles[5 * i + k] = box.v[3 * i + k];
		}
	std::vector<uint16_t> shorts( 4 * box.TriangleCount() );
	std::vector<uint32_t> paddedInts( 5 * box.TriangleCount() );
	for ( int t = 0; t < box.TriangleCount(); ++t )
		for ( int k = 0; k < 3; ++k )
		{
			shorts[4 * t + k] = (uint16_t)box.t[3 * t + k];
			paddedInts[5 * t + k] = box.t[3 * t + k];
		}

	for ( int variant = 0; variant < 3; ++variant )
	{
		SCOPED_TRACE( variant );
		pdMeshDef def = ref;
		if ( variant == 0 )
		{
			def.vertices = floats.data();
			def.vertexType = PD_SCALAR_FLOAT32;
			def.vertexStride = 4 * sizeof( float );
			def.indices = shorts.data();
			def.indexType = PD_INDEX_UINT16;
			def.indexStride = 4 * sizeof( uint16_t );
		}
		else if ( variant == 1 )
		{
			def.vertices = paddedDoubles.data();
			def.vertexStride = 5 * sizeof( double );
			def.indices = paddedInts.data();
			def.indexStride = 5 * sizeof( uint32_t );
		}
		else
		{
			def.vertexStride = 3 * sizeof( double ); // explicit tight stride
			def.indexStride = 3 * sizeof( uint32_t );
		}
		MeshPtr b( pdCreateMesh( &def, nullptr ) );
		ASSERT_NE( b.m, nullptr );
		ASSERT_EQ( b->vertexCount, a->vertexCount );
		ASSERT_EQ( b->triangleCount, a->triangleCount );
		ASSERT_EQ( b->edgeCount, a->edgeCount );
		EXPECT_EQ( 0, memcmp( b->vertices, a->vertices, sizeof( pdVec3 ) * a->vertexCount ) );
		EXPECT_EQ( 0, memcmp( b->triangles, a->triangles, sizeof( int[3] ) * a->triangleCount ) );
		EXPECT_EQ( 0, memcmp( b->faceNormals, a->faceNormals, sizeof( pdVec3 ) * a->triangleCount ) );
		EXPECT_EQ( 0, memcmp( b->edges, a->edges, sizeof( pdiMeshEdge ) * a->edgeCount ) );
		EXPECT_EQ( b->closed, a->closed );
		EXPECT_EQ( b->convex, a->convex );
		EXPECT_EQ( b->volume, a->volume );
		EXPECT_EQ( b->memoryBytes, a->memoryBytes );
	}
}

TEST( PdMesh, DataIsCopied )
{
	Soup box = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	pdMeshDef def = DefOf( box );
	MeshPtr mesh( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( mesh.m, nullptr );
	box.v.assign( box.v.size(), 99.0 );
	box.t.assign( box.t.size(), 0u );
	pdMeshInfo info = pdMesh_GetInfo( mesh.m );
	EXPECT_EQ( info.vertices[7].x, 1.0 );
	EXPECT_NE( info.triangles[11][0], info.triangles[11][1] );
}

TEST( PdMesh, DegenerateRemovalKeepsInputIndices )
{
	Soup box = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	Soup s;
	s.v = box.v;
	uint32_t mid = s.Add( 0.0, -1.0, -1.0 ); // midpoint of the edge 0-1
	int input = 0;
	std::vector<int> expectedKept;
	for ( int t = 0; t < box.TriangleCount(); ++t )
	{
		if ( t == 3 )
		{
			s.Tri( 2, 2, 5 ); // repeated index: input 3
			++input;
		}
		if ( t == 6 )
		{
			s.Tri( 0, 1, mid ); // zero area: input 7
			++input;
		}
		s.Tri( box.t[3 * t], box.t[3 * t + 1], box.t[3 * t + 2] );
		expectedKept.push_back( input++ );
	}
	pdMeshDef def = DefOf( s );
	pdMeshReport validated, created;
	EXPECT_EQ( pdValidateMeshDef( &def, &validated ), PD_STATUS_OK );
	MeshPtr mesh( pdCreateMesh( &def, &created ) );
	ASSERT_NE( mesh.m, nullptr );
	for ( const pdMeshReport* r : { &validated, &created } )
	{
		EXPECT_EQ( r->status, PD_STATUS_OK );
		EXPECT_EQ( r->degenerateTriangleCount, 2 );
		EXPECT_EQ( r->removedTriangleCount, 2 );
		EXPECT_EQ( r->firstBadTriangle, 3 );
		EXPECT_EQ( r->firstBadVertex, -1 );
		EXPECT_STREQ( r->message, "" );
	}
	pdMeshInfo info = pdMesh_GetInfo( mesh.m );
	ASSERT_EQ( info.removedTriangleCount, 2 );
	EXPECT_EQ( info.removedTriangles[0], 3 );
	EXPECT_EQ( info.removedTriangles[1], 7 );
	ASSERT_EQ( info.triangleCount, 12 );
	for ( int t = 0; t < 12; ++t )
	{
		EXPECT_EQ( info.inputTriangles[t], expectedKept[t] );
		EXPECT_EQ( (uint32_t)info.triangles[t][0], box.t[3 * t] );
	}
	EXPECT_TRUE( pdMesh_GetInfo( mesh.m ).closed );
	EXPECT_TRUE( pdMesh_GetInfo( mesh.m ).convex );
}

TEST( PdMesh, DestroyReturnsEveryByte )
{
	size_t before = pdGetAllocatorStats().bytes;
	Soup s = MakeTorus( 2.0, 0.5, 12, 6 );
	pdMeshDef def = DefOf( s );
	pdMesh* mesh = pdCreateMesh( &def, nullptr );
	ASSERT_NE( mesh, nullptr );
	EXPECT_EQ( pdGetAllocatorStats().bytes - before, pdMesh_GetInfo( mesh ).memoryBytes );
	EXPECT_GE( pdMesh_GetInfo( mesh ).memoryBytes, sizeof( pdMesh ) + pdMesh_GetInfo( mesh ).bvhBytes );
	EXPECT_EQ( pdMesh_GetInfo( mesh ).bvhBytes, mesh->bvh.bytes );
	pdDestroyMesh( mesh );
	EXPECT_EQ( pdGetAllocatorStats().bytes, before );

	// The full pipeline (orientation graph, clearance points) also frees everything.
	pdMeshDef full = def;
	full.buildOrientationGraph = true;
	full.computeClearancePoints = true;
	mesh = pdCreateMesh( &full, nullptr );
	ASSERT_NE( mesh, nullptr );
	EXPECT_GT( pdMesh_GetInfo( mesh ).memoryBytes, 0u );
	pdDestroyMesh( mesh );
	EXPECT_EQ( pdGetAllocatorStats().bytes, before );
}

namespace
{

struct FailingAllocator
{
	int remaining; // allocations allowed before every further one fails
	int calls;
};

void* FailingAlloc( size_t size, size_t alignment, void* context )
{
	FailingAllocator* a = (FailingAllocator*)context;
	a->calls += 1;
	if ( a->remaining <= 0 )
	{
		return nullptr;
	}
	a->remaining -= 1;
	size_t rounded = ( size + alignment - 1 ) & ~( alignment - 1 );
	return aligned_alloc( alignment, rounded );
}

void FailingFree( void* memory, size_t, void* )
{
	free( memory );
}

} // namespace

TEST( PdMesh, AllocationFailureFailsCleanly )
{
	Soup s = MakeTorus( 2.0, 0.5, 8, 5 );
	// A removed triangle too, so every array is allocated.
	s.Tri( 0, 0, 1 );
	bool succeeded = false;
	for ( int allowed = 0; allowed < 200 && !succeeded; ++allowed )
	{
		SCOPED_TRACE( allowed );
		for ( int full = 0; full < 2; ++full )
		{
			pdMeshDef def = DefOf( s );
			def.buildOrientationGraph = full != 0;
			def.computeClearancePoints = full != 0;
			size_t before = pdGetAllocatorStats().bytes;
			FailingAllocator state = { allowed, 0 };
			pdSetAllocator( FailingAlloc, FailingFree, &state );
			pdMeshReport report;
			pdMesh* mesh = pdCreateMesh( &def, &report );
			if ( mesh == nullptr )
			{
				EXPECT_EQ( report.status, PD_STATUS_OUT_OF_MEMORY );
				EXPECT_NE( std::string( report.message ).find( "out of memory" ), std::string::npos );
				EXPECT_EQ( pdMesh_GetInfo( mesh ).triangleCount, 0 );
			}
			else
			{
				EXPECT_EQ( report.status, PD_STATUS_OK );
				EXPECT_EQ( pdMesh_GetInfo( mesh ).triangleCount, s.TriangleCount() - 1 );
				EXPECT_TRUE( pdMesh_GetInfo( mesh ).closed );
				succeeded = succeeded || full == 1;
			}
			pdDestroyMesh( mesh );
			pdSetAllocator( nullptr, nullptr, nullptr );
			EXPECT_EQ( pdGetAllocatorStats().bytes, before );
		}
	}
	EXPECT_TRUE( succeeded );
}
