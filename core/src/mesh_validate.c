// SPDX-License-Identifier: MIT
// Reading and checking a pdMeshDef: every check both pdValidateMeshDef and pdCreateMesh make, in
// a fixed order, with a report that names the first bad vertex or triangle; the element readers
// (float or double vertices, 16- or 32-bit indices, any stride) and the one degeneracy predicate.
#include "mesh_validate.h"

#include "core.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// Counts above this are rejected, so that 3 * count and every index stay inside int.
#define PDI_MESH_MAX_COUNT ( 1 << 28 )
// Coordinates beyond this are rejected: squared areas and volumes of larger values overflow.
#define PDI_MESH_MAX_COORDINATE 1e60
// Areas at or below this are numerically zero whatever the tolerance (keeps normals unit).
#define PDI_MESH_TINY_AREA 1e-290

void pdiResetReport( pdMeshReport* report )
{
	memset( report, 0, sizeof( *report ) );
	report->status = PD_STATUS_OK;
	report->firstBadVertex = -1;
	report->firstBadTriangle = -1;
}

pdStatus pdiFailReport( pdMeshReport* report, pdStatus status, const char* format, ... )
{
	report->status = status;
	va_list args;
	va_start( args, format );
	vsnprintf( report->message, sizeof( report->message ), format, args );
	va_end( args );
	return status;
}

static size_t pdiVertexElementSize( const pdMeshDef* def )
{
	return def->vertexType == PD_SCALAR_FLOAT32 ? 3 * sizeof( float ) : 3 * sizeof( double );
}

static size_t pdiIndexElementSize( const pdMeshDef* def )
{
	return def->indexType == PD_INDEX_UINT16 ? 3 * sizeof( uint16_t ) : 3 * sizeof( uint32_t );
}

static size_t pdiVertexStride( const pdMeshDef* def )
{
	return def->vertexStride == 0 ? pdiVertexElementSize( def ) : (size_t)def->vertexStride;
}

static size_t pdiIndexStride( const pdMeshDef* def )
{
	return def->indexStride == 0 ? pdiIndexElementSize( def ) : (size_t)def->indexStride;
}

// The reason pdiReadVertex gives for a coordinate beyond PDI_MESH_MAX_COORDINATE.
static const char pdiTooLarge[] = "too large";

static const char* pdiNonFiniteName( bool isNan, bool negative )
{
	return isNan ? "nan" : ( negative ? "-inf" : "inf" );
}

// Reads the raw coordinates of vertex i; reports which coordinate is bad, if any. Classification
// is by bit pattern: comparing or converting a signalling NaN raises FE_INVALID.
static int pdiReadVertex( const pdMeshDef* def, int i, pdVec3* outVertex, const char** outWhat )
{
	const unsigned char* base = (const unsigned char*)def->vertices + (size_t)i * pdiVertexStride( def );
	double c[3] = { 0.0, 0.0, 0.0 };
	*outWhat = NULL;
	int bad = -1;
	if ( def->vertexType == PD_SCALAR_FLOAT32 )
	{
		float f[3];
		memcpy( f, base, sizeof( f ) );
		for ( int k = 0; k < 3; ++k )
		{
			uint32_t bits;
			memcpy( &bits, &f[k], sizeof( bits ) );
			if ( ( bits & 0x7f800000u ) == 0x7f800000u )
			{
				*outWhat = pdiNonFiniteName( ( bits & 0x007fffffu ) != 0, ( bits >> 31 ) != 0 );
				bad = k;
				break;
			}
			c[k] = (double)f[k];
		}
	}
	else
	{
		double d[3];
		memcpy( d, base, sizeof( d ) );
		for ( int k = 0; k < 3; ++k )
		{
			uint64_t bits;
			memcpy( &bits, &d[k], sizeof( bits ) );
			if ( ( bits & 0x7ff0000000000000ull ) == 0x7ff0000000000000ull )
			{
				*outWhat = pdiNonFiniteName( ( bits & 0x000fffffffffffffull ) != 0, ( bits >> 63 ) != 0 );
				bad = k;
				break;
			}
			if ( fabs( d[k] ) > PDI_MESH_MAX_COORDINATE )
			{
				*outWhat = pdiTooLarge;
				bad = k;
				break;
			}
			c[k] = d[k];
		}
	}
	// + 0.0 turns -0 into +0 so that welding by bit pattern matches welding by ==.
	*outVertex = pdiV3( c[0] + 0.0, c[1] + 0.0, c[2] + 0.0 );
	return bad;
}

void pdiReadTriangle( const pdMeshDef* def, int t, uint32_t out[3] )
{
	const unsigned char* base = (const unsigned char*)def->indices + (size_t)t * pdiIndexStride( def );
	if ( def->indexType == PD_INDEX_UINT16 )
	{
		uint16_t s[3];
		memcpy( s, base, sizeof( s ) );
		out[0] = s[0];
		out[1] = s[1];
		out[2] = s[2];
	}
	else
	{
		memcpy( out, base, 3 * sizeof( uint32_t ) );
	}
}

pdVec3 pdiReadVertexValue( const pdMeshDef* def, int i )
{
	pdVec3 v;
	const char* what;
	pdiReadVertex( def, i, &v, &what );
	return v;
}

int pdiClassifyTriangle( const pdMeshDef* def, const uint32_t tri[3], double diagonalSq, double* outArea )
{
	if ( outArea != NULL )
	{
		*outArea = 0.0;
	}
	if ( tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0] )
	{
		return PDI_TRI_REPEATED;
	}
	pdVec3 a = pdiReadVertexValue( def, (int)tri[0] );
	pdVec3 b = pdiReadVertexValue( def, (int)tri[1] );
	pdVec3 c = pdiReadVertexValue( def, (int)tri[2] );
	double area = 0.5 * pdiLength( pdiCross( pdiSub( b, a ), pdiSub( c, a ) ) );
	if ( outArea != NULL )
	{
		*outArea = area;
	}
	if ( area < def->degenerateAreaTolerance * diagonalSq || area <= PDI_MESH_TINY_AREA )
	{
		return PDI_TRI_SMALL;
	}
	return PDI_TRI_OK;
}

static bool pdiStrideRangeOk( int count, size_t stride, size_t element )
{
	// The last element must be addressable without size_t wrap-around.
	return (size_t)( count - 1 ) <= ( SIZE_MAX - element ) / stride;
}

// The checks of the def's fields and array descriptions (before any element is read).
static pdStatus pdiCheckDefFields( const pdMeshDef* def, pdMeshReport* report )
{
	if ( def == NULL )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_ARGUMENT, "def is NULL" );
	}
	if ( def->internalValue != PDI_SECRET_COOKIE )
	{
		return pdiFailReport( report, PD_STATUS_DEF_NOT_INITIALIZED, "def was not initialised with pdDefaultMeshDef()" );
	}
	if ( def->vertexType != PD_SCALAR_FLOAT32 && def->vertexType != PD_SCALAR_FLOAT64 )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_ARGUMENT, "vertexType %d is not a pdScalarType",
							 (int)def->vertexType );
	}
	if ( def->indexType != PD_INDEX_UINT16 && def->indexType != PD_INDEX_UINT32 )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_ARGUMENT, "indexType %d is not a pdIndexType",
							 (int)def->indexType );
	}
	if ( def->vertexCount < 0 )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_ARGUMENT, "vertexCount is negative (%d)", def->vertexCount );
	}
	if ( def->triangleCount < 0 )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_ARGUMENT, "triangleCount is negative (%d)", def->triangleCount );
	}
	if ( def->vertexCount > PDI_MESH_MAX_COUNT )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_ARGUMENT, "vertexCount %d is above the limit of %d",
							 def->vertexCount, PDI_MESH_MAX_COUNT );
	}
	if ( def->triangleCount > PDI_MESH_MAX_COUNT )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_ARGUMENT, "triangleCount %d is above the limit of %d",
							 def->triangleCount, PDI_MESH_MAX_COUNT );
	}
	size_t vertexElement = pdiVertexElementSize( def );
	size_t indexElement = pdiIndexElementSize( def );
	if ( def->vertexStride < 0 || ( def->vertexStride != 0 && (size_t)def->vertexStride < vertexElement ) )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_ARGUMENT, "vertexStride %d is smaller than a vertex (%d bytes)",
							 def->vertexStride, (int)vertexElement );
	}
	if ( def->indexStride < 0 || ( def->indexStride != 0 && (size_t)def->indexStride < indexElement ) )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_ARGUMENT, "indexStride %d is smaller than a triangle (%d bytes)",
							 def->indexStride, (int)indexElement );
	}
	if ( !( def->degenerateAreaTolerance >= 0.0 && def->degenerateAreaTolerance <= 1.0 ) )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_DEF, "degenerateAreaTolerance must be in [0, 1]" );
	}
	if ( def->computeClearancePoints && ( def->clearanceGridResolution < 1 || def->clearanceGridResolution > 1024 ) )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_DEF, "clearanceGridResolution %d is outside [1, 1024]",
							 def->clearanceGridResolution );
	}
	if ( def->vertexCount == 0 )
	{
		return pdiFailReport( report, PD_STATUS_EMPTY_MESH, "mesh has no vertices (vertexCount = 0)" );
	}
	if ( def->triangleCount == 0 )
	{
		return pdiFailReport( report, PD_STATUS_EMPTY_MESH, "mesh has no triangles (triangleCount = 0)" );
	}
	if ( def->vertices == NULL )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_ARGUMENT, "vertices is NULL (vertexCount = %d)",
							 def->vertexCount );
	}
	if ( def->indices == NULL )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_ARGUMENT, "indices is NULL (triangleCount = %d)",
							 def->triangleCount );
	}
	if ( !pdiStrideRangeOk( def->vertexCount, pdiVertexStride( def ), vertexElement ) ||
		 !pdiStrideRangeOk( def->triangleCount, pdiIndexStride( def ), indexElement ) )
	{
		return pdiFailReport( report, PD_STATUS_INVALID_ARGUMENT,
							 "vertex or index array spans more than the address space" );
	}
	return PD_STATUS_OK;
}

// Every vertex finite and not too large; *outDiagonalSq = the squared diagonal of their bounds.
static pdStatus pdiCheckVertices( const pdMeshDef* def, pdMeshReport* report, double* outDiagonalSq )
{
	static const char axisName[3] = { 'x', 'y', 'z' };
	pdVec3 lo = pdiV3( 0.0, 0.0, 0.0 ), hi = lo;
	for ( int i = 0; i < def->vertexCount; ++i )
	{
		pdVec3 v;
		const char* what;
		int bad = pdiReadVertex( def, i, &v, &what );
		if ( bad >= 0 )
		{
			report->firstBadVertex = i;
			if ( what == pdiTooLarge )
			{
				return pdiFailReport( report, PD_STATUS_INVALID_VERTEX,
									 "vertex %d has a coordinate too large (|%c| > %g)", i, axisName[bad],
									 PDI_MESH_MAX_COORDINATE );
			}
			return pdiFailReport( report, PD_STATUS_INVALID_VERTEX, "vertex %d has a non-finite coordinate (%c = %s)", i,
								 axisName[bad], what );
		}
		lo = i == 0 ? v : pdiMin3( lo, v );
		hi = i == 0 ? v : pdiMax3( hi, v );
	}
	*outDiagonalSq = pdiLengthSq( pdiSub( hi, lo ) );
	return PD_STATUS_OK;
}

// Every index in range, then the degenerate triangles counted (or rejected when the def asks).
static pdStatus pdiCheckTriangles( const pdMeshDef* def, pdMeshReport* report, double diagonalSq )
{
	for ( int t = 0; t < def->triangleCount; ++t )
	{
		uint32_t tri[3];
		pdiReadTriangle( def, t, tri );
		for ( int k = 0; k < 3; ++k )
		{
			if ( tri[k] >= (uint32_t)def->vertexCount )
			{
				report->firstBadTriangle = t;
				return pdiFailReport( report, PD_STATUS_INVALID_INDEX, "triangle %d references vertex %u of %d", t,
									 (unsigned)tri[k], def->vertexCount );
			}
		}
	}

	int degenerate = 0;
	for ( int t = 0; t < def->triangleCount; ++t )
	{
		uint32_t tri[3];
		pdiReadTriangle( def, t, tri );
		double area;
		int kind = pdiClassifyTriangle( def, tri, diagonalSq, &area );
		if ( kind == PDI_TRI_OK )
		{
			continue;
		}
		if ( degenerate == 0 )
		{
			report->firstBadTriangle = t;
		}
		degenerate += 1;
		if ( def->rejectDegenerate )
		{
			report->degenerateTriangleCount = degenerate;
			if ( kind == PDI_TRI_REPEATED )
			{
				return pdiFailReport( report, PD_STATUS_DEGENERATE_TRIANGLE,
									 "triangle %d is degenerate (repeats vertex: %u %u %u)", t, (unsigned)tri[0],
									 (unsigned)tri[1], (unsigned)tri[2] );
			}
			return pdiFailReport( report, PD_STATUS_DEGENERATE_TRIANGLE,
								 "triangle %d is degenerate (area %g below %g * diagonal^2)", t, area,
								 def->degenerateAreaTolerance );
		}
	}
	report->degenerateTriangleCount = degenerate;
	report->removedTriangleCount = degenerate;
	if ( degenerate == def->triangleCount )
	{
		return pdiFailReport( report, PD_STATUS_DEGENERATE_MESH, "all %d triangles are degenerate (first: triangle %d)",
							 degenerate, report->firstBadTriangle );
	}
	return PD_STATUS_OK;
}

pdStatus pdiCheckMeshDef( const pdMeshDef* def, pdMeshReport* report, double* outDiagonalSq )
{
	pdiResetReport( report );
	*outDiagonalSq = 0.0;
	pdStatus status = pdiCheckDefFields( def, report );
	if ( status == PD_STATUS_OK )
	{
		status = pdiCheckVertices( def, report, outDiagonalSq );
	}
	if ( status == PD_STATUS_OK )
	{
		status = pdiCheckTriangles( def, report, *outDiagonalSq );
	}
	return status;
}

pdStatus pdValidateMeshDef( const pdMeshDef* def, pdMeshReport* outReport )
{
	pdMeshReport local;
	pdMeshReport* report = outReport != NULL ? outReport : &local;
	double diagonalSq;
	return pdiCheckMeshDef( def, report, &diagonalSq );
}
