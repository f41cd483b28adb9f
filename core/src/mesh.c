// SPDX-License-Identifier: MIT
// Mesh creation: validation (shared by pdValidateMeshDef and pdCreateMesh), copying, degenerate
// removal, geometry (normals, areas, bounds, centroid, volume) and adjacency on canonical
// (position-welded) vertex ids.
//
// Orientation: a closed mesh whose signed volume is negative (inward winding) stays closed with
// outwardWinding = false; its edge convexity flags are then computed with the normals flipped,
// so PD_EDGE_CONVEX always means convex as seen from outside the solid.
#include "mesh.h"
#include "tri_distance.h"

#include "core.h"
#include "clearance.h"
#include "sfog.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Counts above this are rejected, so that 3 * count and every index stay inside int.
#define PD_MESH_MAX_COUNT ( 1 << 28 )
// Coordinates beyond this are rejected: squared areas and volumes of larger values overflow.
#define PD_MESH_MAX_COORDINATE 1e60
// Areas at or below this are numerically zero whatever the tolerance (keeps normals unit).
#define PD_MESH_TINY_AREA 1e-290
// Edge flatness tolerance, relative to the bounding-box diagonal.
#define PD_MESH_FLAT_TOLERANCE 1e-12

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

static void pdResetReport( pdMeshReport* report )
{
	memset( report, 0, sizeof( *report ) );
	report->status = PD_STATUS_OK;
	report->firstBadVertex = -1;
	report->firstBadTriangle = -1;
}

#if defined( __GNUC__ )
static pdStatus pdFailReport( pdMeshReport* report, pdStatus status, const char* format, ... )
	__attribute__( ( format( printf, 3, 4 ) ) );
#endif

static pdStatus pdFailReport( pdMeshReport* report, pdStatus status, const char* format, ... )
{
	report->status = status;
	va_list args;
	va_start( args, format );
	vsnprintf( report->message, sizeof( report->message ), format, args );
	va_end( args );
	return status;
}

static size_t pdVertexElementSize( const pdMeshDef* def )
{
	return def->vertexType == PD_SCALAR_FLOAT32 ? 3 * sizeof( float ) : 3 * sizeof( double );
}

static size_t pdIndexElementSize( const pdMeshDef* def )
{
	return def->indexType == PD_INDEX_UINT16 ? 3 * sizeof( uint16_t ) : 3 * sizeof( uint32_t );
}

static size_t pdVertexStride( const pdMeshDef* def )
{
	return def->vertexStride == 0 ? pdVertexElementSize( def ) : (size_t)def->vertexStride;
}

static size_t pdIndexStride( const pdMeshDef* def )
{
	return def->indexStride == 0 ? pdIndexElementSize( def ) : (size_t)def->indexStride;
}

static const char* pdNonFiniteName( bool isNan, bool negative )
{
	return isNan ? "nan" : ( negative ? "-inf" : "inf" );
}

// Reads the raw coordinates of vertex i; reports which coordinate is bad, if any. Classification
// is by bit pattern: comparing or converting a signalling NaN raises FE_INVALID.
static int pdReadVertex( const pdMeshDef* def, int i, pdVec3* outVertex, const char** outWhat )
{
	const unsigned char* base = (const unsigned char*)def->vertices + (size_t)i * pdVertexStride( def );
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
				*outWhat = pdNonFiniteName( ( bits & 0x007fffffu ) != 0, ( bits >> 31 ) != 0 );
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
				*outWhat = pdNonFiniteName( ( bits & 0x000fffffffffffffull ) != 0, ( bits >> 63 ) != 0 );
				bad = k;
				break;
			}
			if ( fabs( d[k] ) > PD_MESH_MAX_COORDINATE )
			{
				*outWhat = "too large";
				bad = k;
				break;
			}
			c[k] = d[k];
		}
	}
	// + 0.0 turns -0 into +0 so that welding by bit pattern matches welding by ==.
	*outVertex = pdV3( c[0] + 0.0, c[1] + 0.0, c[2] + 0.0 );
	return bad;
}

static void pdReadTriangle( const pdMeshDef* def, int t, uint32_t out[3] )
{
	const unsigned char* base = (const unsigned char*)def->indices + (size_t)t * pdIndexStride( def );
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

static pdVec3 pdReadVertexValue( const pdMeshDef* def, int i )
{
	pdVec3 v;
	const char* what;
	pdReadVertex( def, i, &v, &what );
	return v;
}

// Degeneracy reasons.
enum
{
	PD_TRI_OK = 0,
	PD_TRI_REPEATED = 1,
	PD_TRI_SMALL = 2,
};

// The one degeneracy predicate (validation and creation both call it). outArea may be NULL.
static int pdClassifyTriangle( const pdMeshDef* def, const uint32_t tri[3], double diagonalSq, double* outArea )
{
	if ( outArea != NULL )
	{
		*outArea = 0.0;
	}
	if ( tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0] )
	{
		return PD_TRI_REPEATED;
	}
	pdVec3 a = pdReadVertexValue( def, (int)tri[0] );
	pdVec3 b = pdReadVertexValue( def, (int)tri[1] );
	pdVec3 c = pdReadVertexValue( def, (int)tri[2] );
	double area = 0.5 * pdLength( pdCross( pdSub( b, a ), pdSub( c, a ) ) );
	if ( outArea != NULL )
	{
		*outArea = area;
	}
	if ( area < def->degenerateAreaTolerance * diagonalSq || area <= PD_MESH_TINY_AREA )
	{
		return PD_TRI_SMALL;
	}
	return PD_TRI_OK;
}

static bool pdStrideRangeOk( int count, size_t stride, size_t element )
{
	// The last element must be addressable without size_t wrap-around.
	return (size_t)( count - 1 ) <= ( SIZE_MAX - element ) / stride;
}

// Everything both entry points check, in a fixed order. No allocation. On success outDiagonalSq
// holds the squared diagonal of all vertices' bounds.
static pdStatus pdCheckMeshDef( const pdMeshDef* def, pdMeshReport* report, double* outDiagonalSq )
{
	pdResetReport( report );
	*outDiagonalSq = 0.0;
	if ( def == NULL )
	{
		return pdFailReport( report, PD_STATUS_INVALID_ARGUMENT, "def is NULL" );
	}
	if ( def->internalValue != PD_SECRET_COOKIE )
	{
		return pdFailReport( report, PD_STATUS_DEF_NOT_INITIALIZED, "def was not initialised with pdDefaultMeshDef()" );
	}
	if ( def->vertexType != PD_SCALAR_FLOAT32 && def->vertexType != PD_SCALAR_FLOAT64 )
	{
		return pdFailReport( report, PD_STATUS_INVALID_ARGUMENT, "vertexType %d is not a pdScalarType",
							 (int)def->vertexType );
	}
	if ( def->indexType != PD_INDEX_UINT16 && def->indexType != PD_INDEX_UINT32 )
	{
		return pdFailReport( report, PD_STATUS_INVALID_ARGUMENT, "indexType %d is not a pdIndexType",
							 (int)def->indexType );
	}
	if ( def->vertexCount < 0 )
	{
		return pdFailReport( report, PD_STATUS_INVALID_ARGUMENT, "vertexCount is negative (%d)", def->vertexCount );
	}
	if ( def->triangleCount < 0 )
	{
		return pdFailReport( report, PD_STATUS_INVALID_ARGUMENT, "triangleCount is negative (%d)", def->triangleCount );
	}
	if ( def->vertexCount > PD_MESH_MAX_COUNT )
	{
		return pdFailReport( report, PD_STATUS_INVALID_ARGUMENT, "vertexCount %d is above the limit of %d",
							 def->vertexCount, PD_MESH_MAX_COUNT );
	}
	if ( def->triangleCount > PD_MESH_MAX_COUNT )
	{
		return pdFailReport( report, PD_STATUS_INVALID_ARGUMENT, "triangleCount %d is above the limit of %d",
							 def->triangleCount, PD_MESH_MAX_COUNT );
	}
	size_t vertexElement = pdVertexElementSize( def );
	size_t indexElement = pdIndexElementSize( def );
	if ( def->vertexStride < 0 || ( def->vertexStride != 0 && (size_t)def->vertexStride < vertexElement ) )
	{
		return pdFailReport( report, PD_STATUS_INVALID_ARGUMENT, "vertexStride %d is smaller than a vertex (%d bytes)",
							 def->vertexStride, (int)vertexElement );
	}
	if ( def->indexStride < 0 || ( def->indexStride != 0 && (size_t)def->indexStride < indexElement ) )
	{
		return pdFailReport( report, PD_STATUS_INVALID_ARGUMENT, "indexStride %d is smaller than a triangle (%d bytes)",
							 def->indexStride, (int)indexElement );
	}
	if ( !( def->degenerateAreaTolerance >= 0.0 && def->degenerateAreaTolerance <= 1.0 ) )
	{
		return pdFailReport( report, PD_STATUS_INVALID_DEF, "degenerateAreaTolerance must be in [0, 1]" );
	}
	if ( def->computeClearancePoints && ( def->clearanceGridResolution < 1 || def->clearanceGridResolution > 1024 ) )
	{
		return pdFailReport( report, PD_STATUS_INVALID_DEF, "clearanceGridResolution %d is outside [1, 1024]",
							 def->clearanceGridResolution );
	}
	if ( def->vertexCount == 0 )
	{
		return pdFailReport( report, PD_STATUS_EMPTY_MESH, "mesh has no vertices (vertexCount = 0)" );
	}
	if ( def->triangleCount == 0 )
	{
		return pdFailReport( report, PD_STATUS_EMPTY_MESH, "mesh has no triangles (triangleCount = 0)" );
	}
	if ( def->vertices == NULL )
	{
		return pdFailReport( report, PD_STATUS_INVALID_ARGUMENT, "vertices is NULL (vertexCount = %d)",
							 def->vertexCount );
	}
	if ( def->indices == NULL )
	{
		return pdFailReport( report, PD_STATUS_INVALID_ARGUMENT, "indices is NULL (triangleCount = %d)",
							 def->triangleCount );
	}
	if ( !pdStrideRangeOk( def->vertexCount, pdVertexStride( def ), vertexElement ) ||
		 !pdStrideRangeOk( def->triangleCount, pdIndexStride( def ), indexElement ) )
	{
		return pdFailReport( report, PD_STATUS_INVALID_ARGUMENT,
							 "vertex or index array spans more than the address space" );
	}

	static const char axisName[3] = { 'x', 'y', 'z' };
	pdVec3 lo = pdV3( 0.0, 0.0, 0.0 ), hi = lo;
	for ( int i = 0; i < def->vertexCount; ++i )
	{
		pdVec3 v;
		const char* what;
		int bad = pdReadVertex( def, i, &v, &what );
		if ( bad >= 0 )
		{
			report->firstBadVertex = i;
			if ( strcmp( what, "too large" ) == 0 )
			{
				return pdFailReport( report, PD_STATUS_INVALID_VERTEX,
									 "vertex %d has a coordinate too large (|%c| > %g)", i, axisName[bad],
									 PD_MESH_MAX_COORDINATE );
			}
			return pdFailReport( report, PD_STATUS_INVALID_VERTEX, "vertex %d has a non-finite coordinate (%c = %s)", i,
								 axisName[bad], what );
		}
		lo = i == 0 ? v : pdMin3( lo, v );
		hi = i == 0 ? v : pdMax3( hi, v );
	}
	double diagonalSq = pdLengthSq( pdSub( hi, lo ) );
	*outDiagonalSq = diagonalSq;

	for ( int t = 0; t < def->triangleCount; ++t )
	{
		uint32_t tri[3];
		pdReadTriangle( def, t, tri );
		for ( int k = 0; k < 3; ++k )
		{
			if ( tri[k] >= (uint32_t)def->vertexCount )
			{
				report->firstBadTriangle = t;
				return pdFailReport( report, PD_STATUS_INVALID_INDEX, "triangle %d references vertex %u of %d", t,
									 (unsigned)tri[k], def->vertexCount );
			}
		}
	}

	int degenerate = 0;
	for ( int t = 0; t < def->triangleCount; ++t )
	{
		uint32_t tri[3];
		pdReadTriangle( def, t, tri );
		double area;
		int kind = pdClassifyTriangle( def, tri, diagonalSq, &area );
		if ( kind == PD_TRI_OK )
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
			report->degenerateTriangles = degenerate;
			if ( kind == PD_TRI_REPEATED )
			{
				return pdFailReport( report, PD_STATUS_DEGENERATE_TRIANGLE,
									 "triangle %d is degenerate (repeats vertex: %u %u %u)", t, (unsigned)tri[0],
									 (unsigned)tri[1], (unsigned)tri[2] );
			}
			return pdFailReport( report, PD_STATUS_DEGENERATE_TRIANGLE,
								 "triangle %d is degenerate (area %g below %g * diagonal^2)", t, area,
								 def->degenerateAreaTolerance );
		}
	}
	report->degenerateTriangles = degenerate;
	report->removedTriangles = degenerate;
	if ( degenerate == def->triangleCount )
	{
		return pdFailReport( report, PD_STATUS_DEGENERATE_MESH, "all %d triangles are degenerate (first: triangle %d)",
							 degenerate, report->firstBadTriangle );
	}
	return PD_STATUS_OK;
}

pdStatus pdValidateMeshDef( const pdMeshDef* def, pdMeshReport* outReport )
{
	pdMeshReport local;
	pdMeshReport* report = outReport != NULL ? outReport : &local;
	double diagonalSq;
	return pdCheckMeshDef( def, report, &diagonalSq );
}

// Array allocation with overflow check; adds the size to *ioBytes on success.
static void* pdAllocArray( size_t count, size_t element, size_t* ioBytes )
{
	if ( count == 0 )
	{
		return NULL;
	}
	if ( count > SIZE_MAX / element )
	{
		return NULL;
	}
	void* p = pdAlloc( count * element );
	if ( p != NULL )
	{
		*ioBytes += count * element;
	}
	return p;
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

static uint64_t pdHashVertex( pdVec3 v )
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

// canonicalVertex[i] = lowest index with exactly equal coordinates (open-addressing hash).
static bool pdWeldVertices( pdMesh* mesh )
{
	int n = mesh->vertexCount;
	size_t capacity = 16;
	while ( capacity < 2 * (size_t)n )
	{
		capacity *= 2;
	}
	size_t scratch = 0;
	int* table = (int*)pdAllocArray( capacity, sizeof( int ), &scratch );
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
		size_t slot = (size_t)pdHashVertex( v ) & ( capacity - 1 );
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
	pdFree( table, scratch );
	return true;
}

typedef struct pdHalfEdge
{
	uint64_t key; // (min id << 32) | max id: canonical ids for adjacency, raw for ownership
	int face;
	int local; // local edge index: vertex local -> vertex local+1
} pdHalfEdge;

static int pdCompareHalfEdges( const void* a, const void* b )
{
	const pdHalfEdge* x = (const pdHalfEdge*)a;
	const pdHalfEdge* y = (const pdHalfEdge*)b;
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
static bool pdHalfEdgeForward( const pdMesh* mesh, int face, int local, int a )
{
	return mesh->canonicalVertex[mesh->triangles[face][local]] == a;
}

static void pdSetHalfEdge( pdHalfEdge* h, int a, int b, int face, int local )
{
	int lo = a < b ? a : b;
	int hi = a < b ? b : a;
	h->key = ( (uint64_t)(uint32_t)lo << 32 ) | (uint32_t)hi;
	h->face = face;
	h->local = local;
}

// mesh->featureOwnership, on the caller's vertex indices (the identity contact-feature
// gathering deduplicates by), not on canonical ids.
static bool pdBuildFeatureOwnership( pdMesh* mesh, size_t* ioBytes )
{
	int triangleCount = mesh->triangleCount;
	mesh->featureOwnership = (unsigned char*)pdAllocArray( (size_t)triangleCount, 1, ioBytes );
	size_t seenBytes = 0, halfBytes = 0;
	unsigned char* vertexSeen = (unsigned char*)pdAllocArray( (size_t)mesh->vertexCount, 1, &seenBytes );
	pdHalfEdge* half = (pdHalfEdge*)pdAllocArray( 3 * (size_t)triangleCount, sizeof( pdHalfEdge ), &halfBytes );
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
					own |= (unsigned char)PD_OWN_VERTEX( k );
				}
				pdSetHalfEdge( half + 3 * (size_t)f + k, a, b, f, k );
			}
			mesh->featureOwnership[f] = own;
		}
		// The first face of each edge (the sort breaks key ties by face) owns it.
		size_t halfCount = 3 * (size_t)triangleCount;
		qsort( half, halfCount, sizeof( pdHalfEdge ), pdCompareHalfEdges );
		for ( size_t i = 0; i < halfCount; ++i )
		{
			if ( i == 0 || half[i].key != half[i - 1].key )
			{
				mesh->featureOwnership[half[i].face] |= (unsigned char)PD_OWN_EDGE( half[i].local );
			}
		}
	}
	pdFree( vertexSeen, seenBytes );
	pdFree( half, halfBytes );
	return ok;
}

static bool pdBuildAdjacency( pdMesh* mesh, size_t* ioBytes )
{
	int triangleCount = mesh->triangleCount;
	size_t halfCount = 3 * (size_t)triangleCount;
	size_t scratch = 0;
	pdHalfEdge* half = (pdHalfEdge*)pdAllocArray( halfCount, sizeof( pdHalfEdge ), &scratch );
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
			pdSetHalfEdge( half + 3 * (size_t)f + k, a, b, f, k );
		}
	}
	qsort( half, halfCount, sizeof( pdHalfEdge ), pdCompareHalfEdges );

	int edgeCount = 0;
	for ( size_t i = 0; i < halfCount; ++i )
	{
		if ( i == 0 || half[i].key != half[i - 1].key )
		{
			edgeCount += 1;
		}
	}
	mesh->edgeCount = edgeCount;
	mesh->edges = (pdMeshEdge*)pdAllocArray( (size_t)edgeCount, sizeof( pdMeshEdge ), ioBytes );
	if ( mesh->edges == NULL )
	{
		pdFree( half, scratch );
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
			pdMeshEdge* edge = mesh->edges + e;
			size_t n = i - groupStart;
			const pdHalfEdge* h0 = half + groupStart;
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
				edge->flags = PD_EDGE_BOUNDARY;
			}
			else
			{
				const pdHalfEdge* h1 = h0 + 1;
				bool forward0 = pdHalfEdgeForward( mesh, h0->face, h0->local, edge->v0 );
				bool forward1 = pdHalfEdgeForward( mesh, h1->face, h1->local, edge->v0 );
				edge->face0 = forward0 || !forward1 ? h0->face : h1->face;
				edge->face1 = forward0 || !forward1 ? h1->face : h0->face;
				if ( n > 2 )
				{
					edge->flags = PD_EDGE_NONMANIFOLD;
				}
				else if ( forward0 == forward1 )
				{
					edge->flags = PD_EDGE_INCONSISTENT;
				}
			}
		}
		if ( i < halfCount )
		{
			e += 1;
			groupStart = i;
		}
	}
	pdFree( half, scratch );

	// Vertex -> faces CSR on canonical ids. Kept triangles have three distinct canonical
	// vertices (equal coordinates give zero area), so there are exactly 3 entries per face.
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
	int* fill = (int*)pdAllocArray( (size_t)vertexCount, sizeof( int ), &fillBytes );
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
	pdFree( fill, fillBytes );
	return true;
}

// Vertex of face f that is not on its local edge `local`.
static pdVec3 pdOppositeVertex( const pdMesh* mesh, int face, int edgeId )
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

static void pdComputeTopologyAndShape( pdMesh* mesh )
{
	bool closed = mesh->edgeCount > 0;
	for ( int e = 0; e < mesh->edgeCount; ++e )
	{
		if ( mesh->edges[e].flags & ( PD_EDGE_BOUNDARY | PD_EDGE_NONMANIFOLD | PD_EDGE_INCONSISTENT ) )
		{
			closed = false;
		}
	}
	mesh->closed = closed;

	// Signed volume and centroids relative to the bounds centre (smaller rounding).
	pdVec3 ref = pdScale( pdAdd( mesh->boundsMin, mesh->boundsMax ), 0.5 );
	double signedVolume6 = 0.0;
	pdVec3 volumeMoment = pdV3( 0.0, 0.0, 0.0 );
	double totalArea = 0.0;
	pdVec3 areaMoment = pdV3( 0.0, 0.0, 0.0 );
	for ( int f = 0; f < mesh->triangleCount; ++f )
	{
		pdVec3 p[3];
		pdMesh_TriangleVertices( mesh, f, p );
		pdVec3 a = pdSub( p[0], ref ), b = pdSub( p[1], ref ), c = pdSub( p[2], ref );
		double v6 = pdDot( a, pdCross( b, c ) );
		pdVec3 sum = pdAdd( pdAdd( a, b ), c );
		signedVolume6 += v6;
		volumeMoment = pdMulAdd( volumeMoment, v6 * 0.25, sum );
		totalArea += mesh->faceAreas[f];
		areaMoment = pdMulAdd( areaMoment, mesh->faceAreas[f] / 3.0, sum );
	}
	double signedVolume = signedVolume6 / 6.0;
	double d = mesh->diagonal;
	bool hasVolume = closed && fabs( signedVolume ) > 1e-15 * d * d * d;
	if ( hasVolume )
	{
		// Each tetrahedron's moment is v6/6 * (a+b+c)/4 (the reference point is the origin).
		mesh->centroid = pdAdd( ref, pdScale( volumeMoment, 1.0 / signedVolume6 ) );
		mesh->volume = fabs( signedVolume );
	}
	else
	{
		// totalArea > 0: every kept triangle has a positive area.
		mesh->centroid = pdAdd( ref, pdScale( areaMoment, 1.0 / totalArea ) );
		mesh->volume = closed ? fabs( signedVolume ) : 0.0;
	}
	mesh->outwardWinding = closed && signedVolume > 0.0;

	double radiusSq = 0.0;
	for ( int v = 0; v < mesh->vertexCount; ++v )
	{
		radiusSq = fmax( radiusSq, pdDistanceSq( mesh->vertices[v], mesh->centroid ) );
	}
	mesh->radius = sqrt( radiusSq );

	// Edge convexity: face0 traverses v0->v1; the edge is convex when face1's opposite vertex
	// lies below face0's plane. An inward-wound closed mesh flips the test.
	double orientation = ( closed && signedVolume < 0.0 ) ? -1.0 : 1.0;
	double flatTolerance = PD_MESH_FLAT_TOLERANCE * d;
	bool convex = closed;
	for ( int e = 0; e < mesh->edgeCount; ++e )
	{
		pdMeshEdge* edge = mesh->edges + e;
		if ( edge->flags != 0 )
		{
			continue;
		}
		pdVec3 n0 = mesh->faceNormals[edge->face0];
		pdVec3 base = mesh->vertices[mesh->triangles[edge->face0][0]];
		pdVec3 opposite = pdOppositeVertex( mesh, edge->face1, e );
		double height = orientation * pdDot( n0, pdSub( opposite, base ) );
		if ( height < -flatTolerance )
		{
			edge->flags = PD_EDGE_CONVEX;
		}
		else if ( height > flatTolerance )
		{
			edge->flags = PD_EDGE_CONCAVE;
			convex = false;
		}
		else
		{
			edge->flags = PD_EDGE_FLAT;
		}
	}
	mesh->convex = convex;
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

int pdMesh_GetVertexCount( const pdMesh* mesh )
{
	return pdIsValidMesh( mesh ) ? mesh->vertexCount : 0;
}

int pdMesh_GetTriangleCount( const pdMesh* mesh )
{
	return pdIsValidMesh( mesh ) ? mesh->triangleCount : 0;
}

const int* pdMesh_GetRemovedTriangles( const pdMesh* mesh, int* outCount )
{
	bool valid = pdIsValidMesh( mesh );
	if ( outCount != NULL )
	{
		*outCount = valid ? mesh->removedCount : 0;
	}
	return valid ? mesh->removedTriangles : NULL;
}

int pdMesh_GetInputTriangleIndex( const pdMesh* mesh, int triangle )
{
	if ( !pdIsValidMesh( mesh ) || triangle < 0 || triangle >= mesh->triangleCount )
	{
		return -1;
	}
	return mesh->inputTriangle[triangle];
}

pdVec3 pdMesh_GetVertex( const pdMesh* mesh, int vertex )
{
	if ( !pdIsValidMesh( mesh ) || vertex < 0 || vertex >= mesh->vertexCount )
	{
		return pdV3( 0.0, 0.0, 0.0 );
	}
	return mesh->vertices[vertex];
}

void pdMesh_GetTriangle( const pdMesh* mesh, int triangle, int outIndices[3] )
{
	if ( outIndices == NULL )
	{
		return;
	}
	if ( !pdIsValidMesh( mesh ) || triangle < 0 || triangle >= mesh->triangleCount )
	{
		outIndices[0] = outIndices[1] = outIndices[2] = -1;
		return;
	}
	outIndices[0] = mesh->triangles[triangle][0];
	outIndices[1] = mesh->triangles[triangle][1];
	outIndices[2] = mesh->triangles[triangle][2];
}

void pdMesh_GetBounds( const pdMesh* mesh, pdVec3* outMin, pdVec3* outMax )
{
	bool valid = pdIsValidMesh( mesh );
	if ( outMin != NULL )
	{
		*outMin = valid ? mesh->boundsMin : pdV3( 0.0, 0.0, 0.0 );
	}
	if ( outMax != NULL )
	{
		*outMax = valid ? mesh->boundsMax : pdV3( 0.0, 0.0, 0.0 );
	}
}

bool pdMesh_IsClosed( const pdMesh* mesh )
{
	return pdIsValidMesh( mesh ) && mesh->closed;
}

bool pdMesh_IsConvex( const pdMesh* mesh )
{
	return pdIsValidMesh( mesh ) && mesh->convex;
}

size_t pdMesh_GetMemoryBytes( const pdMesh* mesh )
{
	return pdIsValidMesh( mesh ) ? mesh->memoryBytes : 0;
}

size_t pdMesh_GetBvhBytes( const pdMesh* mesh )
{
	return pdIsValidMesh( mesh ) ? mesh->bvh.bytes : 0;
}
