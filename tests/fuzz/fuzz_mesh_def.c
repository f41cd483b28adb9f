// SPDX-License-Identifier: MIT
// libFuzzer target: mesh creation from arbitrary bytes. The bytes choose counts, strides,
// scalar and index types, def options and the values (raw bit patterns or a coarse grid).
// Checks: pdValidateMeshDef and pdCreateMesh agree (status, first bad vertex and triangle),
// a created mesh's getters return finite, in-range values, and a self-query does not crash.
#include "fuzz_common.h"

#include "polydepth/polydepth.h"

static void testCheckMesh( const pdMesh* mesh, const pdMeshDef* def, const pdMeshReport* report )
{
	pdMeshInfo info = pdMesh_GetInfo( mesh );
	int vertexCount = info.vertexCount;
	int triangleCount = info.triangleCount;
	TEST_FUZZ_CHECK( vertexCount > 0 && vertexCount <= def->vertexCount, "vertex count %d of %d", vertexCount,
				   def->vertexCount );
	TEST_FUZZ_CHECK( triangleCount > 0 && triangleCount <= def->triangleCount, "triangle count %d of %d", triangleCount,
				   def->triangleCount );
	TEST_FUZZ_CHECK( triangleCount + report->removedTriangleCount == def->triangleCount, "kept %d + removed %d != %d",
				   triangleCount, report->removedTriangleCount, def->triangleCount );
	for ( int i = 0; i < vertexCount; ++i )
	{
		pdVec3 v = info.vertices[i];
		TEST_FUZZ_CHECK( testFuzz_FiniteVec( v.x, v.y, v.z ), "vertex %d not finite", i );
	}
	for ( int t = 0; t < triangleCount; ++t )
	{
		const int* idx = info.triangles[t];
		for ( int k = 0; k < 3; ++k )
		{
			TEST_FUZZ_CHECK( idx[k] >= 0 && idx[k] < vertexCount, "triangle %d index %d = %d of %d", t, k, idx[k],
						   vertexCount );
		}
		int input = info.inputTriangles[t];
		TEST_FUZZ_CHECK( input >= 0 && input < def->triangleCount, "input index %d", input );
	}
	int removedCount = info.removedTriangleCount;
	const int* removed = info.removedTriangles;
	TEST_FUZZ_CHECK( removedCount == report->removedTriangleCount, "removed %d vs report %d", removedCount,
				   report->removedTriangleCount );
	for ( int i = 0; i < removedCount; ++i )
	{
		TEST_FUZZ_CHECK( removed != NULL && removed[i] >= 0 && removed[i] < def->triangleCount, "removed[%d]", i );
	}
	pdVec3 lo = info.boundsMin, hi = info.boundsMax;
	TEST_FUZZ_CHECK( testFuzz_FiniteVec( lo.x, lo.y, lo.z ) && testFuzz_FiniteVec( hi.x, hi.y, hi.z ), "bounds" );
	TEST_FUZZ_CHECK( lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z, "bounds inverted" );
	TEST_FUZZ_CHECK( info.memoryBytes >= info.bvhBytes, "memory bytes" );
	TEST_FUZZ_CHECK( !info.convex || info.closed, "convex but not closed" );

	// A self-query exercises the BVH and the orientation graph built from these bytes.
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdTransform pose = pdIdentityTransform();
	pdTransform shifted = pdIdentityTransform();
	shifted.p.x = 0.25 * ( hi.x - lo.x );
	pdCollideResult c;
	pdStatus s = pdCollide( mesh, &pose, mesh, &shifted, NULL, ws, &c );
	TEST_FUZZ_CHECK( s >= PD_STATUS_INVALID_DEF && s <= PD_STATUS_FEATURE_LIMIT, "collide status %d", (int)s );
	pdDistanceResult d;
	s = pdComputeDistance( mesh, &pose, mesh, &shifted, NULL, ws, &d );
	TEST_FUZZ_CHECK( s >= 0, "distance status %d", (int)s );
	TEST_FUZZ_CHECK( isfinite( d.distance ) && d.distance >= 0.0, "distance %g", d.distance );
	pdDestroyWorkspace( ws );
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	testFuzzReader r = { data, size, 0 };
	uint8_t flags = testFuzz_Byte( &r );
	uint8_t counts = testFuzz_Byte( &r );
	uint8_t strides = testFuzz_Byte( &r );
	uint8_t options = testFuzz_Byte( &r );

	pdMeshDef def = pdDefaultMeshDef();
	def.vertexType = ( flags & 1 ) ? PD_SCALAR_FLOAT32 : PD_SCALAR_FLOAT64;
	def.indexType = ( flags & 2 ) ? PD_INDEX_UINT16 : PD_INDEX_UINT32;
	bool rawValues = ( flags & 4 ) != 0;
	bool rawIndices = ( flags & 8 ) != 0;
	def.rejectDegenerate = ( options & 1 ) != 0;
	def.buildOrientationGraph = ( options & 2 ) != 0;
	def.computeClearancePoints = ( options & 4 ) != 0;
	def.clearanceGridResolution = ( options >> 3 ) % 12 - 1; // -1 .. 10 (bad values included)
	if ( flags & 16 )
	{
		def.degenerateAreaTolerance = testFuzz_RawDouble( &r );
	}
	if ( flags & 32 )
	{
		def.vertexType = (pdScalarType)( (int8_t)testFuzz_Byte( &r ) );
		def.indexType = (pdIndexType)( (int8_t)testFuzz_Byte( &r ) );
	}

	int vertexCount = 1 + ( counts & 0x0f ) * 3;     // 1 .. 46
	int triangleCount = 1 + ( counts >> 4 ) * 3;     // 1 .. 46
	if ( flags & 64 )
	{
		vertexCount = (int8_t)testFuzz_Byte( &r ); // may be zero or negative
		triangleCount = (int8_t)testFuzz_Byte( &r );
	}
	size_t scalarSize = def.vertexType == PD_SCALAR_FLOAT32 ? 4 : 8;
	size_t indexSize = def.indexType == PD_INDEX_UINT16 ? 2 : 4;
	int vertexPad = strides & 0x07;
	int indexPad = ( strides >> 3 ) & 0x07;
	// 0 means tightly packed; otherwise padded (or, with bit 6, one byte too small).
	def.vertexStride = vertexPad == 0 ? 0 : (int)( 3 * scalarSize ) + vertexPad - ( ( strides & 64 ) ? vertexPad + 1 : 0 );
	def.indexStride = indexPad == 0 ? 0 : (int)( 3 * indexSize ) + indexPad - ( ( strides & 128 ) ? indexPad + 1 : 0 );

	int vc = vertexCount > 0 ? vertexCount : 0;
	int tc = triangleCount > 0 ? triangleCount : 0;
	size_t vStride = def.vertexStride > (int)( 3 * scalarSize ) ? (size_t)def.vertexStride : 3 * scalarSize;
	size_t iStride = def.indexStride > (int)( 3 * indexSize ) ? (size_t)def.indexStride : 3 * indexSize;
	uint8_t* vertices = (uint8_t*)calloc( (size_t)vc * vStride + 8, 1 );
	uint8_t* indices = (uint8_t*)calloc( (size_t)tc * iStride + 8, 1 );
	if ( vertices == NULL || indices == NULL )
	{
		free( vertices );
		free( indices );
		return 0;
	}
	for ( int i = 0; i < vc; ++i )
	{
		for ( int k = 0; k < 3; ++k )
		{
			uint8_t* at = vertices + (size_t)i * vStride + (size_t)k * scalarSize;
			if ( rawValues )
			{
				testFuzz_Bytes( &r, at, scalarSize );
			}
			else
			{
				double v = testFuzz_GridCoord( &r );
				if ( scalarSize == 4 )
				{
					float f = (float)v;
					memcpy( at, &f, 4 );
				}
				else
				{
					memcpy( at, &v, 8 );
				}
			}
		}
	}
	for ( int t = 0; t < tc; ++t )
	{
		for ( int k = 0; k < 3; ++k )
		{
			uint8_t* at = indices + (size_t)t * iStride + (size_t)k * indexSize;
			uint32_t v = rawIndices ? ( (uint32_t)testFuzz_U16( &r ) | ( (uint32_t)testFuzz_U16( &r ) << 16 ) )
									: (uint32_t)( testFuzz_Byte( &r ) % ( vc + 2 ) );
			if ( indexSize == 2 )
			{
				uint16_t s = (uint16_t)v;
				memcpy( at, &s, 2 );
			}
			else
			{
				memcpy( at, &v, 4 );
			}
		}
	}
	def.vertices = ( flags & 128 ) && vc == 1 ? NULL : vertices;
	def.vertexCount = vertexCount;
	def.indices = indices;
	def.triangleCount = triangleCount;

	pdMeshReport validated, created;
	memset( &validated, 0x5a, sizeof( validated ) );
	memset( &created, 0xa5, sizeof( created ) );
	pdStatus vs = pdValidateMeshDef( &def, &validated );
	pdMesh* mesh = pdCreateMesh( &def, &created );
	TEST_FUZZ_CHECK( vs == validated.status, "validate returned %d, report says %d", (int)vs, (int)validated.status );
	TEST_FUZZ_CHECK( vs >= PD_STATUS_INVALID_DEF && vs <= PD_STATUS_OK, "status %d out of range", (int)vs );
	TEST_FUZZ_CHECK( validated.status == created.status, "validate says %d (%s), create says %d (%s)",
				   (int)validated.status, validated.message, (int)created.status, created.message );
	TEST_FUZZ_CHECK( ( mesh != NULL ) == ( created.status == PD_STATUS_OK ), "mesh %p with status %d", (void*)mesh,
				   (int)created.status );
	TEST_FUZZ_CHECK( validated.firstBadVertex == created.firstBadVertex, "first bad vertex %d vs %d",
				   validated.firstBadVertex, created.firstBadVertex );
	TEST_FUZZ_CHECK( validated.firstBadTriangle == created.firstBadTriangle, "first bad triangle %d vs %d",
				   validated.firstBadTriangle, created.firstBadTriangle );
	TEST_FUZZ_CHECK( validated.degenerateTriangleCount == created.degenerateTriangleCount, "degenerate %d vs %d",
				   validated.degenerateTriangleCount, created.degenerateTriangleCount );
	TEST_FUZZ_CHECK( memchr( created.message, 0, sizeof( created.message ) ) != NULL, "message not terminated" );
	TEST_FUZZ_CHECK( memchr( validated.message, 0, sizeof( validated.message ) ) != NULL, "message not terminated" );
	TEST_FUZZ_CHECK( created.status == PD_STATUS_OK || created.message[0] != '\0', "error %d without a message",
				   (int)created.status );
	if ( mesh != NULL )
	{
		testCheckMesh( mesh, &def, &created );
	}
	pdDestroyMesh( mesh );
	free( vertices );
	free( indices );
	return 0;
}
