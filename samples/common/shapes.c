// SPDX-License-Identifier: MIT
// Procedural watertight shapes (see shapes.h). Every generator builds its triangles from a
// topologically closed grid (periodic grids, surfaces of revolution with poles, or welded
// face grids), so closedness and consistent winding hold by construction; the sign of the
// volume then decides one global flip so that normals point outward.
#include "shapes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SMP_PI 3.14159265358979323846
// Largest soup a generator builds (keeps index arithmetic in range; generators are for tests).
#define SMP_SHAPE_MAX_TRIANGLES ( 1 << 26 )

typedef struct smpSoupBuilder
{
	double* vertices;
	int vertexCount;
	int vertexCapacity;
	uint32_t* indices;
	int triangleCount;
	int triangleCapacity;
	bool failed;
} smpSoupBuilder;

static void smpClearSoup( smpSoup* soup )
{
	soup->vertices = NULL;
	soup->vertexCount = 0;
	soup->indices = NULL;
	soup->triangleCount = 0;
}

void smpFreeSoup( smpSoup* soup )
{
	if ( soup == NULL )
	{
		return;
	}
	free( soup->vertices );
	free( soup->indices );
	smpClearSoup( soup );
}

pdMeshDef smpSoupMeshDef( const smpSoup* soup )
{
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = soup->vertices;
	def.vertexCount = soup->vertexCount;
	def.vertexStride = 0;
	def.vertexType = PD_SCALAR_FLOAT64;
	def.indices = soup->indices;
	def.triangleCount = soup->triangleCount;
	def.indexStride = 0;
	def.indexType = PD_INDEX_UINT32;
	return def;
}

pdMesh* smpSoupCreateMesh( const smpSoup* soup, pdMeshReport* report )
{
	pdMeshDef def = smpSoupMeshDef( soup );
	return pdCreateMesh( &def, report );
}

static void smpBuilder_Reserve( smpSoupBuilder* b, int vertices, int triangles )
{
	if ( b->failed )
	{
		return;
	}
	if ( vertices > b->vertexCapacity )
	{
		double* v = (double*)realloc( b->vertices, (size_t)vertices * 3 * sizeof( double ) );
		if ( v == NULL )
		{
			b->failed = true;
			return;
		}
		b->vertices = v;
		b->vertexCapacity = vertices;
	}
	if ( triangles > b->triangleCapacity )
	{
		uint32_t* t = (uint32_t*)realloc( b->indices, (size_t)triangles * 3 * sizeof( uint32_t ) );
		if ( t == NULL )
		{
			b->failed = true;
			return;
		}
		b->indices = t;
		b->triangleCapacity = triangles;
	}
}

static int smpBuilder_AddVertex( smpSoupBuilder* b, double x, double y, double z )
{
	if ( b->failed )
	{
		return 0;
	}
	if ( b->vertexCount >= SMP_SHAPE_MAX_TRIANGLES )
	{
		b->failed = true;
		return 0;
	}
	if ( b->vertexCount == b->vertexCapacity )
	{
		smpBuilder_Reserve( b, b->vertexCapacity < 16 ? 16 : 2 * b->vertexCapacity, b->triangleCapacity );
		if ( b->failed )
		{
			return 0;
		}
	}
	double* v = b->vertices + 3 * b->vertexCount;
	v[0] = x;
	v[1] = y;
	v[2] = z;
	return b->vertexCount++;
}

static void smpBuilder_AddTriangle( smpSoupBuilder* b, int i0, int i1, int i2 )
{
	if ( b->failed )
	{
		return;
	}
	if ( b->triangleCount >= SMP_SHAPE_MAX_TRIANGLES )
	{
		b->failed = true;
		return;
	}
	if ( b->triangleCount == b->triangleCapacity )
	{
		smpBuilder_Reserve( b, b->vertexCapacity, b->triangleCapacity < 16 ? 16 : 2 * b->triangleCapacity );
		if ( b->failed )
		{
			return;
		}
	}
	uint32_t* t = b->indices + 3 * b->triangleCount;
	t[0] = (uint32_t)i0;
	t[1] = (uint32_t)i1;
	t[2] = (uint32_t)i2;
	b->triangleCount++;
}

static void smpBuilder_Discard( smpSoupBuilder* b )
{
	free( b->vertices );
	free( b->indices );
	memset( b, 0, sizeof( *b ) );
}

static double smpSoupSignedVolume6( const smpSoup* soup )
{
	double sum = 0.0;
	for ( int t = 0; t < soup->triangleCount; ++t )
	{
		const double* a = soup->vertices + 3 * soup->indices[3 * t + 0];
		const double* b = soup->vertices + 3 * soup->indices[3 * t + 1];
		const double* c = soup->vertices + 3 * soup->indices[3 * t + 2];
		sum += a[0] * ( b[1] * c[2] - b[2] * c[1] ) - a[1] * ( b[0] * c[2] - b[2] * c[0] ) +
			   a[2] * ( b[0] * c[1] - b[1] * c[0] );
	}
	return sum;
}

static void smpSoupFlip( smpSoup* soup )
{
	for ( int t = 0; t < soup->triangleCount; ++t )
	{
		uint32_t tmp = soup->indices[3 * t + 1];
		soup->indices[3 * t + 1] = soup->indices[3 * t + 2];
		soup->indices[3 * t + 2] = tmp;
	}
}

// Hands the builder's arrays to out; the winding is already consistent, so one global flip
// (if the volume is negative) makes it outward.
static bool smpBuilder_Finish( smpSoupBuilder* b, smpSoup* out )
{
	if ( b->failed || b->triangleCount == 0 )
	{
		smpBuilder_Discard( b );
		return false;
	}
	out->vertices = b->vertices;
	out->vertexCount = b->vertexCount;
	out->indices = b->indices;
	out->triangleCount = b->triangleCount;
	memset( b, 0, sizeof( *b ) );
	if ( smpSoupSignedVolume6( out ) < 0.0 )
	{
		smpSoupFlip( out );
	}
	return true;
}

static bool smpIsFinite3( double x, double y, double z )
{
	return isfinite( x ) && isfinite( y ) && isfinite( z );
}

// ---------------------------------------------------------------------------------------------
// Welding exactly coincident vertices (used by the box and by the .tris loader).

typedef struct smpWeldKey
{
	double x, y, z;
	int index;
} smpWeldKey;

static int smpCompareWeldKeys( const void* pa, const void* pb )
{
	const smpWeldKey* a = (const smpWeldKey*)pa;
	const smpWeldKey* b = (const smpWeldKey*)pb;
	if ( a->x != b->x )
	{
		return a->x < b->x ? -1 : 1;
	}
	if ( a->y != b->y )
	{
		return a->y < b->y ? -1 : 1;
	}
	if ( a->z != b->z )
	{
		return a->z < b->z ? -1 : 1;
	}
	return a->index < b->index ? -1 : ( a->index > b->index ? 1 : 0 );
}

bool smpWeldSoup( smpSoup* soup )
{
	int n = soup->vertexCount;
	if ( n <= 0 )
	{
		return true;
	}
	for ( int i = 0; i < 3 * n; ++i )
	{
		if ( isfinite( soup->vertices[i] ) == 0 )
		{
			return false;
		}
	}
	smpWeldKey* keys = (smpWeldKey*)malloc( (size_t)n * sizeof( smpWeldKey ) );
	int* remap = (int*)malloc( (size_t)n * sizeof( int ) );
	double* merged = (double*)malloc( (size_t)n * 3 * sizeof( double ) );
	if ( keys == NULL || remap == NULL || merged == NULL )
	{
		free( keys );
		free( remap );
		free( merged );
		return false;
	}
	for ( int i = 0; i < n; ++i )
	{
		keys[i].x = soup->vertices[3 * i + 0];
		keys[i].y = soup->vertices[3 * i + 1];
		keys[i].z = soup->vertices[3 * i + 2];
		keys[i].index = i;
	}
	qsort( keys, (size_t)n, sizeof( smpWeldKey ), smpCompareWeldKeys );

	// Representative = the lowest original index in a group; new indices keep first-use order
	// of representatives so the result does not depend on qsort details.
	for ( int i = 0; i < n; )
	{
		int j = i + 1;
		while ( j < n && keys[j].x == keys[i].x && keys[j].y == keys[i].y && keys[j].z == keys[i].z )
		{
			++j;
		}
		for ( int k = i; k < j; ++k )
		{
			remap[keys[k].index] = keys[i].index;
		}
		i = j;
	}
	int* newIndex = (int*)keys; // reuse: n ints fit in n keys
	for ( int i = 0; i < n; ++i )
	{
		newIndex[i] = -1;
	}
	int count = 0;
	for ( int i = 0; i < n; ++i )
	{
		int r = remap[i];
		if ( newIndex[r] < 0 )
		{
			newIndex[r] = count;
			merged[3 * count + 0] = soup->vertices[3 * r + 0];
			merged[3 * count + 1] = soup->vertices[3 * r + 1];
			merged[3 * count + 2] = soup->vertices[3 * r + 2];
			++count;
		}
		remap[i] = newIndex[r];
	}
	for ( int t = 0; t < 3 * soup->triangleCount; ++t )
	{
		uint32_t v = soup->indices[t];
		if ( v < (uint32_t)n )
		{
			soup->indices[t] = (uint32_t)remap[v];
		}
	}
	free( keys );
	free( remap );
	free( soup->vertices );
	double* shrunk = (double*)realloc( merged, (size_t)( count > 0 ? count : 1 ) * 3 * sizeof( double ) );
	soup->vertices = shrunk != NULL ? shrunk : merged;
	soup->vertexCount = count;
	return true;
}

// ---------------------------------------------------------------------------------------------
// Grid builders shared by several shapes.

// A doubly periodic grid (torus topology): vertex (i, j) at index i * n + j.
static void smpBuilder_AddPeriodicGrid( smpSoupBuilder* b, int base, int m, int n )
{
	for ( int i = 0; i < m; ++i )
	{
		int i1 = ( i + 1 ) % m;
		for ( int j = 0; j < n; ++j )
		{
			int j1 = ( j + 1 ) % n;
			int v00 = base + i * n + j;
			int v10 = base + i1 * n + j;
			int v11 = base + i1 * n + j1;
			int v01 = base + i * n + j1;
			smpBuilder_AddTriangle( b, v00, v10, v11 );
			smpBuilder_AddTriangle( b, v00, v11, v01 );
		}
	}
}

// A surface of revolution about z: profile points (r, z), first and last on the axis (poles),
// all others at r > 0, revolved in `around` steps.
static void smpBuilder_AddRevolution( smpSoupBuilder* b, const double* r, const double* z, int profileCount, int around )
{
	int rings = profileCount - 2;
	smpBuilder_Reserve( b, b->vertexCount + rings * around + 2, b->triangleCount + 2 * around * ( rings > 0 ? rings : 1 ) );
	int pole0 = smpBuilder_AddVertex( b, 0.0, 0.0, z[0] );
	int first = b->vertexCount;
	for ( int k = 1; k <= rings; ++k )
	{
		for ( int j = 0; j < around; ++j )
		{
			double phi = 2.0 * SMP_PI * (double)j / (double)around;
			smpBuilder_AddVertex( b, r[k] * cos( phi ), r[k] * sin( phi ), z[k] );
		}
	}
	int pole1 = smpBuilder_AddVertex( b, 0.0, 0.0, z[profileCount - 1] );
	for ( int j = 0; j < around; ++j )
	{
		int j1 = ( j + 1 ) % around;
		smpBuilder_AddTriangle( b, pole0, first + j, first + j1 );
	}
	for ( int k = 0; k + 1 < rings; ++k )
	{
		int row0 = first + k * around;
		int row1 = row0 + around;
		for ( int j = 0; j < around; ++j )
		{
			int j1 = ( j + 1 ) % around;
			smpBuilder_AddTriangle( b, row0 + j, row1 + j, row1 + j1 );
			smpBuilder_AddTriangle( b, row0 + j, row1 + j1, row0 + j1 );
		}
	}
	int last = first + ( rings - 1 ) * around;
	for ( int j = 0; j < around; ++j )
	{
		int j1 = ( j + 1 ) % around;
		smpBuilder_AddTriangle( b, pole1, last + j1, last + j );
	}
}

// ---------------------------------------------------------------------------------------------
// Box

bool smpMakeBox( pdVec3 halfExtents, int subdivisions, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	double h[3] = { halfExtents.x, halfExtents.y, halfExtents.z };
	if ( subdivisions < 1 || subdivisions > 2048 || !smpIsFinite3( h[0], h[1], h[2] ) || h[0] <= 0.0 || h[1] <= 0.0 ||
		 h[2] <= 0.0 )
	{
		return false;
	}
	int n = subdivisions;
	// One coordinate table per axis so that shared edges get bit-identical coordinates.
	double* table = (double*)malloc( (size_t)( n + 1 ) * 3 * sizeof( double ) );
	if ( table == NULL )
	{
		return false;
	}
	for ( int a = 0; a < 3; ++a )
	{
		for ( int i = 0; i <= n; ++i )
		{
			table[a * ( n + 1 ) + i] = -h[a] + 2.0 * h[a] * (double)i / (double)n;
		}
		table[a * ( n + 1 )] = -h[a];
		table[a * ( n + 1 ) + n] = h[a];
	}
	smpSoupBuilder b = { 0 };
	smpBuilder_Reserve( &b, 6 * ( n + 1 ) * ( n + 1 ), 12 * n * n );
	for ( int face = 0; face < 6; ++face )
	{
		int a = face / 2;
		double sign = ( face % 2 ) == 0 ? 1.0 : -1.0;
		int u = ( a + 1 ) % 3;
		int v = ( a + 2 ) % 3;
		int base = b.vertexCount;
		for ( int i = 0; i <= n; ++i )
		{
			for ( int j = 0; j <= n; ++j )
			{
				double p[3];
				p[a] = sign > 0.0 ? h[a] : -h[a];
				p[u] = table[u * ( n + 1 ) + i];
				p[v] = table[v * ( n + 1 ) + j];
				smpBuilder_AddVertex( &b, p[0], p[1], p[2] );
			}
		}
		for ( int i = 0; i < n; ++i )
		{
			for ( int j = 0; j < n; ++j )
			{
				int v00 = base + i * ( n + 1 ) + j;
				int v10 = v00 + ( n + 1 );
				int v11 = v10 + 1;
				int v01 = v00 + 1;
				// (u, v, a) is right-handed, so counter-clockwise in (u, v) faces +a.
				if ( sign > 0.0 )
				{
					smpBuilder_AddTriangle( &b, v00, v10, v11 );
					smpBuilder_AddTriangle( &b, v00, v11, v01 );
				}
				else
				{
					smpBuilder_AddTriangle( &b, v00, v11, v10 );
					smpBuilder_AddTriangle( &b, v00, v01, v11 );
				}
			}
		}
	}
	free( table );
	if ( !smpBuilder_Finish( &b, out ) )
	{
		return false;
	}
	if ( !smpWeldSoup( out ) )
	{
		smpFreeSoup( out );
		return false;
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// Subdivision (shared by the icosphere)

typedef struct smpEdgeMap
{
	uint64_t* keys;
	int* values;
	size_t capacity; // power of two
} smpEdgeMap;

static bool smpEdgeMap_Init( smpEdgeMap* map, size_t expected )
{
	size_t cap = 16;
	while ( cap < 2 * expected && cap < ( (size_t)1 << 40 ) )
	{
		cap *= 2;
	}
	map->keys = (uint64_t*)malloc( cap * sizeof( uint64_t ) );
	map->values = (int*)malloc( cap * sizeof( int ) );
	map->capacity = cap;
	if ( map->keys == NULL || map->values == NULL )
	{
		free( map->keys );
		free( map->values );
		return false;
	}
	for ( size_t i = 0; i < cap; ++i )
	{
		map->keys[i] = UINT64_MAX;
	}
	return true;
}

static void smpEdgeMap_Free( smpEdgeMap* map )
{
	free( map->keys );
	free( map->values );
}

// Returns the slot of edge (a, b) (undirected); *found says whether it was there.
static size_t smpEdgeMap_Find( const smpEdgeMap* map, uint32_t a, uint32_t b, bool* found )
{
	uint32_t lo = a < b ? a : b;
	uint32_t hi = a < b ? b : a;
	uint64_t key = ( (uint64_t)lo << 32 ) | hi;
	uint64_t hash = key * 0x9E3779B97F4A7C15ull;
	size_t mask = map->capacity - 1;
	size_t slot = (size_t)( hash >> 20 ) & mask;
	// The table is at most half full, so the probe ends within capacity steps.
	for ( size_t probe = 0; probe < map->capacity; ++probe )
	{
		if ( map->keys[slot] == key )
		{
			*found = true;
			return slot;
		}
		if ( map->keys[slot] == UINT64_MAX )
		{
			map->keys[slot] = key;
			*found = false;
			return slot;
		}
		slot = ( slot + 1 ) & mask;
	}
	*found = false;
	return SIZE_MAX;
}

static int smpMidpoint( smpSoupBuilder* b, smpEdgeMap* map, uint32_t i0, uint32_t i1 )
{
	bool found = false;
	size_t slot = smpEdgeMap_Find( map, i0, i1, &found );
	if ( slot == SIZE_MAX )
	{
		b->failed = true;
		return 0;
	}
	if ( found )
	{
		return map->values[slot];
	}
	const double* p = b->vertices + 3 * i0;
	const double* q = b->vertices + 3 * i1;
	int v = smpBuilder_AddVertex( b, 0.5 * ( p[0] + q[0] ), 0.5 * ( p[1] + q[1] ), 0.5 * ( p[2] + q[2] ) );
	map->values[slot] = v;
	return v;
}

// One level of 1-to-4 subdivision of the builder's triangles (vertices stay, midpoints appended).
static void smpBuilder_SubdivideOnce( smpSoupBuilder* b )
{
	if ( b->failed )
	{
		return;
	}
	int triangles = b->triangleCount;
	if ( triangles > SMP_SHAPE_MAX_TRIANGLES / 4 )
	{
		b->failed = true;
		return;
	}
	smpEdgeMap map;
	if ( !smpEdgeMap_Init( &map, (size_t)triangles * 3 ) )
	{
		b->failed = true;
		return;
	}
	uint32_t* old = (uint32_t*)malloc( (size_t)triangles * 3 * sizeof( uint32_t ) );
	if ( old == NULL )
	{
		smpEdgeMap_Free( &map );
		b->failed = true;
		return;
	}
	memcpy( old, b->indices, (size_t)triangles * 3 * sizeof( uint32_t ) );
	b->triangleCount = 0;
	smpBuilder_Reserve( b, b->vertexCount + 3 * triangles / 2 + 3, 4 * triangles );
	for ( int t = 0; t < triangles && !b->failed; ++t )
	{
		uint32_t a = old[3 * t + 0];
		uint32_t c1 = old[3 * t + 1];
		uint32_t c2 = old[3 * t + 2];
		int ab = smpMidpoint( b, &map, a, c1 );
		int bc = smpMidpoint( b, &map, c1, c2 );
		int ca = smpMidpoint( b, &map, c2, a );
		smpBuilder_AddTriangle( b, (int)a, ab, ca );
		smpBuilder_AddTriangle( b, ab, (int)c1, bc );
		smpBuilder_AddTriangle( b, ca, bc, (int)c2 );
		smpBuilder_AddTriangle( b, ab, bc, ca );
	}
	free( old );
	smpEdgeMap_Free( &map );
}

static bool smpBuilder_FromSoup( smpSoupBuilder* b, const smpSoup* in )
{
	memset( b, 0, sizeof( *b ) );
	smpBuilder_Reserve( b, in->vertexCount, in->triangleCount );
	if ( b->failed )
	{
		smpBuilder_Discard( b );
		return false;
	}
	memcpy( b->vertices, in->vertices, (size_t)in->vertexCount * 3 * sizeof( double ) );
	memcpy( b->indices, in->indices, (size_t)in->triangleCount * 3 * sizeof( uint32_t ) );
	b->vertexCount = in->vertexCount;
	b->triangleCount = in->triangleCount;
	return true;
}

bool smpSubdivideSoup( const smpSoup* in, int levels, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	if ( in == out )
	{
		return false;
	}
	smpClearSoup( out );
	if ( in == NULL || levels < 0 || levels > 12 || in->vertexCount <= 0 || in->triangleCount <= 0 ||
		 in->vertices == NULL || in->indices == NULL )
	{
		return false;
	}
	for ( int i = 0; i < 3 * in->triangleCount; ++i )
	{
		if ( in->indices[i] >= (uint32_t)in->vertexCount )
		{
			return false;
		}
	}
	smpSoupBuilder b;
	if ( !smpBuilder_FromSoup( &b, in ) )
	{
		return false;
	}
	for ( int level = 0; level < levels; ++level )
	{
		smpBuilder_SubdivideOnce( &b );
	}
	if ( b.failed )
	{
		smpBuilder_Discard( &b );
		return false;
	}
	// Keep the input winding (no global flip: the input may not be closed).
	out->vertices = b.vertices;
	out->vertexCount = b.vertexCount;
	out->indices = b.indices;
	out->triangleCount = b.triangleCount;
	return true;
}

// ---------------------------------------------------------------------------------------------
// Icosphere

bool smpMakeIcosphere( double radius, int levels, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( !isfinite( radius ) || radius <= 0.0 || levels < 0 || levels > 10 )
	{
		return false;
	}
	const double g = 1.6180339887498948482;
	static const int faces[20][3] = {
		{ 0, 11, 5 }, { 0, 5, 1 },	{ 0, 1, 7 },  { 0, 7, 10 }, { 0, 10, 11 }, { 1, 5, 9 }, { 5, 11, 4 },
		{ 11, 10, 2 }, { 10, 7, 6 }, { 7, 1, 8 },  { 3, 9, 4 },	 { 3, 4, 2 },	{ 3, 2, 6 }, { 3, 6, 8 },
		{ 3, 8, 9 },  { 4, 9, 5 },	{ 2, 4, 11 }, { 6, 2, 10 }, { 8, 6, 7 },   { 9, 8, 1 },
	};
	const double raw[12][3] = {
		{ -1, g, 0 }, { 1, g, 0 }, { -1, -g, 0 }, { 1, -g, 0 }, { 0, -1, g }, { 0, 1, g },
		{ 0, -1, -g }, { 0, 1, -g }, { g, 0, -1 }, { g, 0, 1 }, { -g, 0, -1 }, { -g, 0, 1 },
	};
	smpSoupBuilder b = { 0 };
	smpBuilder_Reserve( &b, 10 * ( 1 << ( 2 * levels ) ) + 2, 20 * ( 1 << ( 2 * levels ) ) );
	double norm = sqrt( 1.0 + g * g );
	for ( int i = 0; i < 12; ++i )
	{
		smpBuilder_AddVertex( &b, raw[i][0] / norm, raw[i][1] / norm, raw[i][2] / norm );
	}
	for ( int f = 0; f < 20; ++f )
	{
		// Orient each face outward on its own (the icosahedron is convex about the origin).
		const double* p = b.vertices + 3 * faces[f][0];
		const double* q = b.vertices + 3 * faces[f][1];
		const double* r = b.vertices + 3 * faces[f][2];
		double e1[3] = { q[0] - p[0], q[1] - p[1], q[2] - p[2] };
		double e2[3] = { r[0] - p[0], r[1] - p[1], r[2] - p[2] };
		double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
		double d = n[0] * ( p[0] + q[0] + r[0] ) + n[1] * ( p[1] + q[1] + r[1] ) + n[2] * ( p[2] + q[2] + r[2] );
		if ( d >= 0.0 )
		{
			smpBuilder_AddTriangle( &b, faces[f][0], faces[f][1], faces[f][2] );
		}
		else
		{
			smpBuilder_AddTriangle( &b, faces[f][0], faces[f][2], faces[f][1] );
		}
	}
	for ( int level = 0; level < levels && !b.failed; ++level )
	{
		smpBuilder_SubdivideOnce( &b );
		for ( int i = 0; i < b.vertexCount; ++i )
		{
			double* v = b.vertices + 3 * i;
			double len = sqrt( v[0] * v[0] + v[1] * v[1] + v[2] * v[2] );
			if ( len > 0.0 )
			{
				v[0] /= len;
				v[1] /= len;
				v[2] /= len;
			}
		}
	}
	for ( int i = 0; i < 3 * b.vertexCount && !b.failed; ++i )
	{
		b.vertices[i] *= radius;
	}
	return smpBuilder_Finish( &b, out );
}

// ---------------------------------------------------------------------------------------------
// Tori

static bool smpMakeTorusImpl( double majorRadius, double minorRadius, double amplitude, int majorSegments,
							 int minorSegments, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( !smpIsFinite3( majorRadius, minorRadius, amplitude ) || minorRadius <= 0.0 ||
		 minorRadius * ( 1.0 + fabs( amplitude ) ) >= majorRadius || fabs( amplitude ) >= 1.0 || majorSegments < 3 ||
		 minorSegments < 3 || majorSegments > 16384 || minorSegments > 16384 ||
		 (double)majorSegments * (double)minorSegments * 2.0 > (double)SMP_SHAPE_MAX_TRIANGLES )
	{
		return false;
	}
	smpSoupBuilder b = { 0 };
	smpBuilder_Reserve( &b, majorSegments * minorSegments, 2 * majorSegments * minorSegments );
	for ( int i = 0; i < majorSegments; ++i )
	{
		double u = 2.0 * SMP_PI * (double)i / (double)majorSegments;
		for ( int j = 0; j < minorSegments; ++j )
		{
			double v = 2.0 * SMP_PI * (double)j / (double)minorSegments;
			// |0.6 sin cos + 0.4 cos| <= 1, so the tube radius stays in r (1 +- amplitude) < R.
			double wobble = 0.6 * sin( 3.0 * u ) * cos( 2.0 * v ) + 0.4 * cos( 5.0 * u + v );
			double r = minorRadius * ( 1.0 + amplitude * wobble );
			double ring = majorRadius + r * cos( v );
			smpBuilder_AddVertex( &b, ring * cos( u ), ring * sin( u ), r * sin( v ) );
		}
	}
	smpBuilder_AddPeriodicGrid( &b, 0, majorSegments, minorSegments );
	return smpBuilder_Finish( &b, out );
}

bool smpMakeTorus( double majorRadius, double minorRadius, int majorSegments, int minorSegments, smpSoup* out )
{
	return smpMakeTorusImpl( majorRadius, minorRadius, 0.0, majorSegments, minorSegments, out );
}

bool smpMakeDistortedTorus( double majorRadius, double minorRadius, double amplitude, int majorSegments,
						   int minorSegments, smpSoup* out )
{
	return smpMakeTorusImpl( majorRadius, minorRadius, amplitude, majorSegments, minorSegments, out );
}

static int smpGcd( int a, int b )
{
	a = a < 0 ? -a : a;
	b = b < 0 ? -b : b;
	for ( int guard = 0; b != 0 && guard < 64; ++guard )
	{
		int t = a % b;
		a = b;
		b = t;
	}
	return a;
}

// The knot curve c(t) = scale * ((2 + cos qt) cos pt, (2 + cos qt) sin pt, sin qt), t in [0, 2 pi):
// it winds p times around the z axis and q times through the hole of a torus of radii 2 and 1
// (times scale). For the (2,3) knot strands come no closer than about 1.66 * scale, so
// tubeRadius up to about 0.6 * scale gives an embedded tube.
bool smpMakeTorusKnot( int p, int q, double scale, double tubeRadius, int segments, int sides, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( p < 1 || q < 1 || p > 64 || q > 64 || smpGcd( p, q ) != 1 || !isfinite( scale ) || !isfinite( tubeRadius ) ||
		 scale <= 0.0 || tubeRadius <= 0.0 || tubeRadius >= scale || segments < 3 || sides < 3 || segments > 1 << 20 ||
		 sides > 4096 || (double)segments * (double)sides * 2.0 > (double)SMP_SHAPE_MAX_TRIANGLES )
	{
		return false;
	}
	smpSoupBuilder b = { 0 };
	smpBuilder_Reserve( &b, segments * sides, 2 * segments * sides );
	for ( int i = 0; i < segments; ++i )
	{
		double t = 2.0 * SMP_PI * (double)i / (double)segments;
		double cp = cos( p * t ), sp = sin( p * t ), cq = cos( q * t ), sq = sin( q * t );
		double r = 2.0 + cq;
		double c[3] = { scale * r * cp, scale * r * sp, scale * sq };
		// Tangent: d/dt of the curve (the tangential part p * r never vanishes).
		double dr = -q * sq;
		double tan[3] = { dr * cp - r * p * sp, dr * sp + r * p * cp, q * cq };
		double tl = sqrt( tan[0] * tan[0] + tan[1] * tan[1] + tan[2] * tan[2] );
		tan[0] /= tl;
		tan[1] /= tl;
		tan[2] /= tl;
		// Frame from the radial direction, which is never parallel to the tangent; periodic in t.
		double rad[3] = { cp, sp, 0.0 };
		double dot = rad[0] * tan[0] + rad[1] * tan[1];
		double n1[3] = { rad[0] - dot * tan[0], rad[1] - dot * tan[1], -dot * tan[2] };
		double nl = sqrt( n1[0] * n1[0] + n1[1] * n1[1] + n1[2] * n1[2] );
		n1[0] /= nl;
		n1[1] /= nl;
		n1[2] /= nl;
		double n2[3] = { tan[1] * n1[2] - tan[2] * n1[1], tan[2] * n1[0] - tan[0] * n1[2], tan[0] * n1[1] - tan[1] * n1[0] };
		for ( int j = 0; j < sides; ++j )
		{
			double th = 2.0 * SMP_PI * (double)j / (double)sides;
			double ct = cos( th ) * tubeRadius, st = sin( th ) * tubeRadius;
			smpBuilder_AddVertex( &b, c[0] + ct * n1[0] + st * n2[0], c[1] + ct * n1[1] + st * n2[1],
								 c[2] + ct * n1[2] + st * n2[2] );
		}
	}
	smpBuilder_AddPeriodicGrid( &b, 0, segments, sides );
	return smpBuilder_Finish( &b, out );
}

// ---------------------------------------------------------------------------------------------
// Grate: a (2h+1) x (2h+1) grid of equal cells, the cells with both coordinates odd are holes.

bool smpMakeGrate( double size, double thickness, int holesPerSide, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( !isfinite( size ) || !isfinite( thickness ) || size <= 0.0 || thickness <= 0.0 || holesPerSide < 0 ||
		 holesPerSide > 1000 )
	{
		return false;
	}
	int cells = 2 * holesPerSide + 1;
	int g = cells + 1;
	double* coord = (double*)malloc( (size_t)g * sizeof( double ) );
	if ( coord == NULL )
	{
		return false;
	}
	for ( int k = 0; k < g; ++k )
	{
		coord[k] = -0.5 * size + size * (double)k / (double)cells;
	}
	coord[g - 1] = 0.5 * size;
	double zt = 0.5 * thickness;
	smpSoupBuilder b = { 0 };
	smpBuilder_Reserve( &b, 2 * g * g, 4 * cells * cells + 8 * cells * 4 );
	for ( int layer = 0; layer < 2; ++layer )
	{
		for ( int k = 0; k < g; ++k )
		{
			for ( int l = 0; l < g; ++l )
			{
				smpBuilder_AddVertex( &b, coord[k], coord[l], layer == 0 ? zt : -zt );
			}
		}
	}
	free( coord );
	int bottom = g * g;
#define SMP_GRATE_HOLE( i, j ) ( ( i ) < 0 || ( j ) < 0 || ( i ) >= cells || ( j ) >= cells || ( ( ( i ) & 1 ) && ( ( j ) & 1 ) ) )
	for ( int i = 0; i < cells; ++i )
	{
		for ( int j = 0; j < cells; ++j )
		{
			if ( SMP_GRATE_HOLE( i, j ) )
			{
				continue;
			}
			// Corners counter-clockwise seen from +z: (i,j) (i+1,j) (i+1,j+1) (i,j+1).
			int c[4] = { i * g + j, ( i + 1 ) * g + j, ( i + 1 ) * g + j + 1, i * g + j + 1 };
			smpBuilder_AddTriangle( &b, c[0], c[1], c[2] );
			smpBuilder_AddTriangle( &b, c[0], c[2], c[3] );
			smpBuilder_AddTriangle( &b, bottom + c[0], bottom + c[2], bottom + c[1] );
			smpBuilder_AddTriangle( &b, bottom + c[0], bottom + c[3], bottom + c[2] );
			// Side k runs from corner k to corner k+1; its neighbour cell is below, right, above, left.
			int ni[4] = { i, i + 1, i, i - 1 };
			int nj[4] = { j - 1, j, j + 1, j };
			for ( int k = 0; k < 4; ++k )
			{
				if ( !SMP_GRATE_HOLE( ni[k], nj[k] ) )
				{
					continue;
				}
				int pv = c[k];
				int qv = c[( k + 1 ) % 4];
				smpBuilder_AddTriangle( &b, qv, pv, bottom + pv );
				smpBuilder_AddTriangle( &b, qv, bottom + pv, bottom + qv );
			}
		}
	}
#undef SMP_GRATE_HOLE
	return smpBuilder_Finish( &b, out );
}

// ---------------------------------------------------------------------------------------------
// Cup and spoon: surfaces of revolution.

static int smpPieces( double length, double step )
{
	double n = ceil( length / step - 1e-9 );
	if ( !( n >= 1.0 ) )
	{
		return 1;
	}
	return n > 4096.0 ? 4096 : (int)n;
}

// Profile of the cup's cross-section from the outer bottom centre round to the inner bottom
// centre; returns the point count (writes r, z when not NULL).
static int smpCupProfile( double radius, double height, double wall, int segments, double* r, double* z )
{
	double step = 2.0 * SMP_PI * radius / (double)segments;
	double corners[6][2] = { { 0.0, 0.0 },	  { radius, 0.0 },		  { radius, height },
							 { radius - wall, height }, { radius - wall, wall }, { 0.0, wall } };
	int count = 0;
	for ( int s = 0; s < 5; ++s )
	{
		double dr = corners[s + 1][0] - corners[s][0];
		double dz = corners[s + 1][1] - corners[s][1];
		int pieces = smpPieces( sqrt( dr * dr + dz * dz ), step );
		for ( int k = 0; k < pieces; ++k )
		{
			if ( r != NULL )
			{
				double f = (double)k / (double)pieces;
				r[count] = corners[s][0] + f * dr;
				z[count] = corners[s][1] + f * dz - 0.5 * height;
			}
			++count;
		}
	}
	if ( r != NULL )
	{
		r[count] = 0.0;
		z[count] = wall - 0.5 * height;
	}
	return count + 1;
}

bool smpMakeCup( double radius, double height, double wall, int segments, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( !smpIsFinite3( radius, height, wall ) || radius <= 0.0 || height <= 0.0 || wall <= 0.0 ||
		 wall >= radius || wall >= height || segments < 3 || segments > 4096 )
	{
		return false;
	}
	int count = smpCupProfile( radius, height, wall, segments, NULL, NULL );
	if ( (double)count * (double)segments * 2.0 > (double)SMP_SHAPE_MAX_TRIANGLES )
	{
		return false;
	}
	double* r = (double*)malloc( (size_t)count * 2 * sizeof( double ) );
	if ( r == NULL )
	{
		return false;
	}
	double* z = r + count;
	smpCupProfile( radius, height, wall, segments, r, z );
	smpSoupBuilder b = { 0 };
	smpBuilder_AddRevolution( &b, r, z, count, segments );
	free( r );
	return smpBuilder_Finish( &b, out );
}

static double smpEllipseHalfWidth( double x, double centre, double halfLength, double halfWidth )
{
	double s = ( x - centre ) / halfLength;
	double f = 1.0 - s * s;
	return f > 0.0 ? halfWidth * sqrt( f ) : 0.0;
}

// Spoon along x: a surface of revolution (bowl and handle radii) flattened in z, then sheared by
// z += -depth * bump(x, y). Revolution, scaling and a shear along z are all one-to-one, so the
// result stays embedded while the bowl's top becomes a dent (concave).
bool smpMakeSpoon( double length, int segments, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( !isfinite( length ) || length <= 0.0 || segments < 4 || segments > 4096 )
	{
		return false;
	}
	int count = 2 * segments + 1;
	double* r = (double*)malloc( (size_t)count * 2 * sizeof( double ) );
	if ( r == NULL )
	{
		return false;
	}
	double* z = r + count;
	const double bowlCentre = 0.25, bowlHalfLength = 0.25, bowlHalfWidth = 0.12;
	const double handleCentre = -0.2, handleHalfLength = 0.3, handleHalfWidth = 0.035;
	for ( int k = 0; k < count; ++k )
	{
		// Cosine spacing: finer near the two tips where the radius changes fastest.
		double x = -0.5 * cos( SMP_PI * (double)k / (double)( count - 1 ) );
		double bowl = smpEllipseHalfWidth( x, bowlCentre, bowlHalfLength, bowlHalfWidth );
		double handle = smpEllipseHalfWidth( x, handleCentre, handleHalfLength, handleHalfWidth );
		r[k] = bowl > handle ? bowl : handle;
		z[k] = x;
	}
	r[0] = 0.0;
	r[count - 1] = 0.0;
	z[0] = -0.5;
	z[count - 1] = 0.5;
	smpSoupBuilder b = { 0 };
	smpBuilder_AddRevolution( &b, r, z, count, segments );
	free( r );
	const double flatten = 0.35, depth = 0.08;
	for ( int i = 0; i < b.vertexCount && !b.failed; ++i )
	{
		double* v = b.vertices + 3 * i;
		double x = v[2], y = v[0], zz = v[1] * flatten;
		double sx = ( x - bowlCentre ) / ( 0.8 * bowlHalfLength );
		double sy = y / ( 0.8 * bowlHalfWidth );
		double f = 1.0 - sx * sx - sy * sy;
		if ( f > 0.0 )
		{
			zz -= depth * f * f;
		}
		v[0] = x * length;
		v[1] = y * length;
		v[2] = zz * length;
	}
	return smpBuilder_Finish( &b, out );
}

// ---------------------------------------------------------------------------------------------
// By name

static void smpSoupBounds( const smpSoup* soup, double lo[3], double hi[3] )
{
	for ( int a = 0; a < 3; ++a )
	{
		lo[a] = soup->vertexCount > 0 ? soup->vertices[a] : 0.0;
		hi[a] = lo[a];
	}
	for ( int i = 1; i < soup->vertexCount; ++i )
	{
		for ( int a = 0; a < 3; ++a )
		{
			double c = soup->vertices[3 * i + a];
			lo[a] = c < lo[a] ? c : lo[a];
			hi[a] = c > hi[a] ? c : hi[a];
		}
	}
}

// Picks the integer n in [lo, hi] whose triangle count f(n) is closest to target (in ratio).
static int smpBestParameter( int lo, int hi, int target, double ( *count )( int, const double* ), const double* ctx )
{
	int best = lo;
	double bestErr = INFINITY;
	for ( int n = lo; n <= hi; ++n )
	{
		double c = count( n, ctx );
		double err = fabs( log( c / (double)target ) );
		if ( err < bestErr )
		{
			bestErr = err;
			best = n;
		}
		if ( c > 4.0 * (double)target )
		{
			break;
		}
	}
	return best;
}

static double smpBoxCount( int n, const double* ctx )
{
	return 12.0 * n * n;
}

static double smpIcoCount( int n, const double* ctx )
{
	return 20.0 * pow( 4.0, n );
}

// Tube-like grids: ctx[0] = segments per side ratio.
static double smpTubeCount( int n, const double* ctx )
{
	int major = (int)lround( ctx[0] * n );
	return 2.0 * ( major < 3 ? 3 : major ) * n;
}

static double smpGrateCount( int h, const double* ctx )
{
	return 20.0 * h * h + 32.0 * h + 12.0;
}

static double smpCupCount( int s, const double* ctx )
{
	return 2.0 * s * ( smpCupProfile( ctx[0], ctx[1], ctx[2], s, NULL, NULL ) - 2 );
}

static double smpSpoonCount( int s, const double* ctx )
{
	return 2.0 * s * ( 2 * s - 1 );
}

bool smpMakeShapeByName( const char* name, int targetTriangles, double size, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( name == NULL || targetTriangles < 1 || targetTriangles > SMP_SHAPE_MAX_TRIANGLES / 4 || !isfinite( size ) ||
		 size <= 0.0 )
	{
		return false;
	}
	int target = targetTriangles;
	bool ok = false;
	if ( strcmp( name, "box" ) == 0 )
	{
		int n = smpBestParameter( 1, 2048, target, smpBoxCount, NULL );
		ok = smpMakeBox( (pdVec3){ 1.0, 1.0, 1.0 }, n, out );
	}
	else if ( strcmp( name, "icosphere" ) == 0 || strcmp( name, "sphere" ) == 0 )
	{
		int n = smpBestParameter( 0, 10, target, smpIcoCount, NULL );
		ok = smpMakeIcosphere( 1.0, n, out );
	}
	else if ( strcmp( name, "torus" ) == 0 || strcmp( name, "distorted-torus" ) == 0 )
	{
		// R / r = 2.5: segments in proportion to the two circumferences.
		double ratio[1] = { 2.5 };
		int n = smpBestParameter( 3, 4096, target, smpTubeCount, ratio );
		int major = (int)lround( ratio[0] * n );
		double amplitude = strcmp( name, "torus" ) == 0 ? 0.0 : 0.3;
		ok = smpMakeDistortedTorus( 1.0, 0.4, amplitude, major < 3 ? 3 : major, n, out );
	}
	else if ( strcmp( name, "knot" ) == 0 || strcmp( name, "torusknot" ) == 0 )
	{
		// The (2,3) curve is about 6.7 times as long as the tube's circumference at tube 0.4.
		double ratio[1] = { 6.67 };
		int n = smpBestParameter( 3, 4096, target, smpTubeCount, ratio );
		int segments = (int)lround( ratio[0] * n );
		ok = smpMakeTorusKnot( 2, 3, 1.0, 0.4, segments < 3 ? 3 : segments, n, out );
	}
	else if ( strcmp( name, "grate" ) == 0 )
	{
		int h = smpBestParameter( 1, 1000, target, smpGrateCount, NULL );
		// Larger targets: more, smaller holes only up to 12 per side, then finer triangles.
		int levels = 0;
		if ( h > 12 )
		{
			h = 12;
			while ( levels < 8 && smpGrateCount( h, NULL ) * pow( 4.0, levels + 1 ) <= 2.0 * target )
			{
				++levels;
			}
		}
		smpSoup plate = { 0 };
		ok = smpMakeGrate( 1.0, 0.08, h, &plate );
		if ( ok && levels > 0 )
		{
			ok = smpSubdivideSoup( &plate, levels, out );
			smpFreeSoup( &plate );
		}
		else
		{
			*out = plate;
		}
	}
	else if ( strcmp( name, "cup" ) == 0 )
	{
		double ctx[3] = { 0.5, 1.0, 0.06 };
		int s = smpBestParameter( 3, 4096, target, smpCupCount, ctx );
		ok = smpMakeCup( ctx[0], ctx[1], ctx[2], s, out );
	}
	else if ( strcmp( name, "spoon" ) == 0 )
	{
		int s = smpBestParameter( 4, 4096, target, smpSpoonCount, NULL );
		ok = smpMakeSpoon( 1.0, s, out );
	}
	if ( !ok )
	{
		smpFreeSoup( out );
		return false;
	}
	// Centre the bounding box and scale its diagonal to size.
	double lo[3], hi[3];
	smpSoupBounds( out, lo, hi );
	double c[3] = { 0.5 * ( lo[0] + hi[0] ), 0.5 * ( lo[1] + hi[1] ), 0.5 * ( lo[2] + hi[2] ) };
	double d[3] = { hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2] };
	double diagonal = sqrt( d[0] * d[0] + d[1] * d[1] + d[2] * d[2] );
	double s = diagonal > 0.0 ? size / diagonal : 1.0;
	for ( int i = 0; i < out->vertexCount; ++i )
	{
		for ( int a = 0; a < 3; ++a )
		{
			out->vertices[3 * i + a] = ( out->vertices[3 * i + a] - c[a] ) * s;
		}
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// Convex hull: incremental, farthest points first. A point within eps of the current hull
// (eps relative to the bounding-box diagonal) counts as on it, which handles duplicate and
// coplanar points; the visible region is grown from the most visible face through visible
// neighbours only, so it is connected, and its horizon is checked to be one simple cycle.

typedef struct smpHullFace
{
	int v[3];
	int nb[3]; // face across edge k (v[k] -> v[k+1])
	double n[3];
	double d;
	int alive;
	int mark;
} smpHullFace;

typedef struct smpHull
{
	const double* p;
	smpHullFace* faces;
	int faceCount;
	int faceCapacity;
	int aliveCount;
	bool failed;
} smpHull;

static void smpHull_SetPlane( smpHull* h, smpHullFace* f )
{
	const double* a = h->p + 3 * f->v[0];
	const double* b = h->p + 3 * f->v[1];
	const double* c = h->p + 3 * f->v[2];
	double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
	double e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
	double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
	double len = sqrt( n[0] * n[0] + n[1] * n[1] + n[2] * n[2] );
	if ( len > 0.0 )
	{
		n[0] /= len;
		n[1] /= len;
		n[2] /= len;
	}
	else
	{
		n[0] = n[1] = n[2] = 0.0;
	}
	f->n[0] = n[0];
	f->n[1] = n[1];
	f->n[2] = n[2];
	f->d = n[0] * a[0] + n[1] * a[1] + n[2] * a[2];
}

static double smpHull_Distance( const smpHull* h, const smpHullFace* f, int point )
{
	const double* q = h->p + 3 * point;
	return f->n[0] * q[0] + f->n[1] * q[1] + f->n[2] * q[2] - f->d;
}

static int smpHull_AddFace( smpHull* h, int a, int b, int c )
{
	if ( h->faceCount == h->faceCapacity )
	{
		int cap = h->faceCapacity < 64 ? 64 : 2 * h->faceCapacity;
		smpHullFace* f = (smpHullFace*)realloc( h->faces, (size_t)cap * sizeof( smpHullFace ) );
		if ( f == NULL )
		{
			h->failed = true;
			return -1;
		}
		h->faces = f;
		h->faceCapacity = cap;
	}
	smpHullFace* f = h->faces + h->faceCount;
	f->v[0] = a;
	f->v[1] = b;
	f->v[2] = c;
	f->nb[0] = f->nb[1] = f->nb[2] = -1;
	f->alive = 1;
	f->mark = -1;
	smpHull_SetPlane( h, f );
	h->aliveCount++;
	return h->faceCount++;
}

// Drops dead faces and renumbers neighbour links.
static void smpHull_Compact( smpHull* h, int* remap )
{
	int count = 0;
	for ( int i = 0; i < h->faceCount; ++i )
	{
		remap[i] = h->faces[i].alive ? count++ : -1;
	}
	for ( int i = 0; i < h->faceCount; ++i )
	{
		if ( h->faces[i].alive )
		{
			smpHullFace f = h->faces[i];
			for ( int k = 0; k < 3; ++k )
			{
				f.nb[k] = remap[f.nb[k]];
			}
			h->faces[remap[i]] = f;
		}
	}
	h->faceCount = count;
}

typedef struct smpHullOrder
{
	double key;
	int index;
} smpHullOrder;

static int smpCompareHullOrder( const void* pa, const void* pb )
{
	const smpHullOrder* a = (const smpHullOrder*)pa;
	const smpHullOrder* b = (const smpHullOrder*)pb;
	if ( a->key != b->key )
	{
		return a->key > b->key ? -1 : 1;
	}
	return a->index < b->index ? -1 : ( a->index > b->index ? 1 : 0 );
}

static double smpDist2( const double* a, const double* b )
{
	double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
	return dx * dx + dy * dy + dz * dz;
}

bool smpMakeConvexHull( const double* points, int pointCount, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( points == NULL || pointCount < 4 || pointCount > ( 1 << 24 ) )
	{
		return false;
	}
	double lo[3], hi[3];
	for ( int a = 0; a < 3; ++a )
	{
		lo[a] = hi[a] = points[a];
	}
	for ( int i = 0; i < pointCount; ++i )
	{
		for ( int a = 0; a < 3; ++a )
		{
			double c = points[3 * i + a];
			if ( !isfinite( c ) || fabs( c ) > 1e150 )
			{
				return false;
			}
			lo[a] = c < lo[a] ? c : lo[a];
			hi[a] = c > hi[a] ? c : hi[a];
		}
	}
	double diagonal = sqrt( smpDist2( lo, hi ) );
	if ( !( diagonal > 0.0 ) )
	{
		return false;
	}
	const double eps = 1e-8 * diagonal;

	// Initial tetrahedron from extreme points.
	int i0 = 0;
	for ( int i = 1; i < pointCount; ++i )
	{
		const double* q = points + 3 * i;
		const double* r = points + 3 * i0;
		if ( q[0] < r[0] || ( q[0] == r[0] && ( q[1] < r[1] || ( q[1] == r[1] && q[2] < r[2] ) ) ) )
		{
			i0 = i;
		}
	}
	int i1 = -1;
	double best = 0.0;
	for ( int i = 0; i < pointCount; ++i )
	{
		double d = smpDist2( points + 3 * i, points + 3 * i0 );
		if ( d > best )
		{
			best = d;
			i1 = i;
		}
	}
	if ( i1 < 0 || sqrt( best ) <= eps )
	{
		return false;
	}
	const double* p0 = points + 3 * i0;
	const double* p1 = points + 3 * i1;
	double axis[3] = { p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2] };
	double axisLen = sqrt( axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2] );
	axis[0] /= axisLen;
	axis[1] /= axisLen;
	axis[2] /= axisLen;
	int i2 = -1;
	best = 0.0;
	for ( int i = 0; i < pointCount; ++i )
	{
		const double* q = points + 3 * i;
		double w[3] = { q[0] - p0[0], q[1] - p0[1], q[2] - p0[2] };
		double c[3] = { w[1] * axis[2] - w[2] * axis[1], w[2] * axis[0] - w[0] * axis[2], w[0] * axis[1] - w[1] * axis[0] };
		double d = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
		if ( d > best )
		{
			best = d;
			i2 = i;
		}
	}
	if ( i2 < 0 || sqrt( best ) <= eps )
	{
		return false;
	}
	smpHull h = { 0 };
	h.p = points;
	smpHullFace probe = { .v = { i0, i1, i2 } };
	smpHull_SetPlane( &h, &probe );
	int i3 = -1;
	best = 0.0;
	for ( int i = 0; i < pointCount; ++i )
	{
		double d = fabs( smpHull_Distance( &h, &probe, i ) );
		if ( d > best )
		{
			best = d;
			i3 = i;
		}
	}
	if ( i3 < 0 || best <= eps )
	{
		return false;
	}
	if ( smpHull_Distance( &h, &probe, i3 ) > 0.0 )
	{
		int t = i1;
		i1 = i2;
		i2 = t;
	}
	// Now i3 is below face (i0, i1, i2).
	smpHull_AddFace( &h, i0, i1, i2 );
	smpHull_AddFace( &h, i0, i3, i1 );
	smpHull_AddFace( &h, i1, i3, i2 );
	smpHull_AddFace( &h, i2, i3, i0 );
	if ( h.failed )
	{
		free( h.faces );
		return false;
	}
	for ( int f = 0; f < 4; ++f )
	{
		for ( int k = 0; k < 3; ++k )
		{
			int a = h.faces[f].v[k], b = h.faces[f].v[( k + 1 ) % 3];
			for ( int g = 0; g < 4; ++g )
			{
				for ( int m = 0; m < 3 && g != f; ++m )
				{
					if ( h.faces[g].v[m] == b && h.faces[g].v[( m + 1 ) % 3] == a )
					{
						h.faces[f].nb[k] = g;
					}
				}
			}
		}
	}

	smpHullOrder* order = (smpHullOrder*)malloc( (size_t)pointCount * sizeof( smpHullOrder ) );
	int* startOf = (int*)malloc( (size_t)pointCount * sizeof( int ) );
	int* stack = NULL;
	int* horizon = NULL; // triples: visible face, edge index, new face
	int* remap = NULL;
	int scratchCapacity = 0;
	if ( order == NULL || startOf == NULL )
	{
		h.failed = true;
	}
	// Farthest from the box centre first: extreme points come early, so points that end up
	// inside or on a face are rarely inserted and later buried.
	double centre[3] = { 0.5 * ( lo[0] + hi[0] ), 0.5 * ( lo[1] + hi[1] ), 0.5 * ( lo[2] + hi[2] ) };
	int orderCount = 0;
	for ( int i = 0; i < pointCount && !h.failed; ++i )
	{
		startOf[i] = -1;
		if ( i != i0 && i != i1 && i != i2 && i != i3 )
		{
			order[orderCount].key = smpDist2( points + 3 * i, centre );
			order[orderCount].index = i;
			++orderCount;
		}
	}
	if ( !h.failed )
	{
		qsort( order, (size_t)orderCount, sizeof( smpHullOrder ), smpCompareHullOrder );
	}

	for ( int step = 0; step < orderCount && !h.failed; ++step )
	{
		int point = order[step].index;
		int top = -1;
		double topDist = eps;
		for ( int f = 0; f < h.faceCount; ++f )
		{
			if ( h.faces[f].alive )
			{
				double d = smpHull_Distance( &h, h.faces + f, point );
				if ( d > topDist )
				{
					topDist = d;
					top = f;
				}
			}
		}
		if ( top < 0 )
		{
			continue; // inside or on the hull
		}
		if ( scratchCapacity < h.faceCount + 16 )
		{
			int cap = 2 * ( h.faceCount + 16 );
			int* s = (int*)realloc( stack, (size_t)cap * sizeof( int ) );
			if ( s != NULL )
			{
				stack = s;
			}
			int* hz = (int*)realloc( horizon, (size_t)cap * 9 * sizeof( int ) ); // up to 3 edges per face
			if ( hz != NULL )
			{
				horizon = hz;
			}
			int* rm = (int*)realloc( remap, (size_t)cap * sizeof( int ) );
			if ( rm != NULL )
			{
				remap = rm;
			}
			if ( s == NULL || hz == NULL || rm == NULL )
			{
				h.failed = true;
				break;
			}
			scratchCapacity = cap;
		}
		// Grow the visible region from the top face.
		int visibleCount = 0;
		int stackSize = 0;
		stack[stackSize++] = top;
		h.faces[top].mark = step;
		int* visible = remap; // reuse as the visible list
		while ( stackSize > 0 )
		{
			int f = stack[--stackSize];
			visible[visibleCount++] = f;
			for ( int k = 0; k < 3; ++k )
			{
				int g = h.faces[f].nb[k];
				if ( g >= 0 && h.faces[g].mark != step && smpHull_Distance( &h, h.faces + g, point ) > eps )
				{
					h.faces[g].mark = step;
					stack[stackSize++] = g;
				}
			}
		}
		// Horizon edges: visible face edges whose neighbour is not visible.
		int horizonCount = 0;
		bool simple = true;
		for ( int i = 0; i < visibleCount && simple; ++i )
		{
			int f = visible[i];
			for ( int k = 0; k < 3; ++k )
			{
				int g = h.faces[f].nb[k];
				if ( h.faces[g].mark != step )
				{
					int a = h.faces[f].v[k];
					if ( startOf[a] >= 0 )
					{
						simple = false;
						break;
					}
					startOf[a] = horizonCount;
					horizon[3 * horizonCount + 0] = f;
					horizon[3 * horizonCount + 1] = k;
					horizon[3 * horizonCount + 2] = -1;
					++horizonCount;
				}
			}
		}
		if ( simple && horizonCount >= 3 )
		{
			// One cycle through all horizon edges?
			int e = 0;
			int steps = 0;
			do
			{
				int f = horizon[3 * e];
				int k = horizon[3 * e + 1];
				int b = h.faces[f].v[( k + 1 ) % 3];
				e = startOf[b];
				++steps;
			} while ( e > 0 && steps <= horizonCount );
			simple = e == 0 && steps == horizonCount;
		}
		else
		{
			simple = false;
		}
		if ( !simple )
		{
			// Numerically inconsistent visibility (rare, near-degenerate input): leave the hull
			// as it is; the point is within a few eps of it.
			for ( int i = 0; i < horizonCount; ++i )
			{
				startOf[h.faces[horizon[3 * i]].v[horizon[3 * i + 1]]] = -1;
			}
			continue;
		}
		// Replace the visible faces by a cone from the point to the horizon.
		for ( int i = 0; i < horizonCount; ++i )
		{
			int f = horizon[3 * i];
			int k = horizon[3 * i + 1];
			int a = h.faces[f].v[k];
			int b = h.faces[f].v[( k + 1 ) % 3];
			int outside = h.faces[f].nb[k];
			int nf = smpHull_AddFace( &h, a, b, point );
			if ( nf < 0 )
			{
				break;
			}
			horizon[3 * i + 2] = nf;
			h.faces[nf].nb[0] = outside;
			for ( int m = 0; m < 3; ++m )
			{
				if ( h.faces[outside].nb[m] == f )
				{
					h.faces[outside].nb[m] = nf;
				}
			}
		}
		if ( h.failed )
		{
			break;
		}
		for ( int i = 0; i < horizonCount; ++i )
		{
			int f = horizon[3 * i];
			int k = horizon[3 * i + 1];
			int b = h.faces[f].v[( k + 1 ) % 3];
			int nf = horizon[3 * i + 2];
			int next = horizon[3 * startOf[b] + 2];
			h.faces[nf].nb[1] = next;
			h.faces[next].nb[2] = nf;
		}
		for ( int i = 0; i < horizonCount; ++i )
		{
			startOf[h.faces[horizon[3 * i]].v[horizon[3 * i + 1]]] = -1;
		}
		for ( int i = 0; i < visibleCount; ++i )
		{
			h.faces[visible[i]].alive = 0;
			h.aliveCount--;
		}
		if ( h.faceCount - h.aliveCount > h.aliveCount + 256 && h.faceCount <= scratchCapacity )
		{
			smpHull_Compact( &h, remap );
		}
	}
	free( order );
	free( stack );
	free( horizon );
	free( remap );

	// Emit alive faces with compact vertex numbering (first use order).
	smpSoupBuilder b = { 0 };
	if ( !h.failed && startOf != NULL )
	{
		smpBuilder_Reserve( &b, h.aliveCount / 2 + 2, h.aliveCount );
		for ( int f = 0; f < h.faceCount && !b.failed; ++f )
		{
			if ( !h.faces[f].alive )
			{
				continue;
			}
			int v[3];
			for ( int k = 0; k < 3; ++k )
			{
				int src = h.faces[f].v[k];
				if ( startOf[src] < 0 )
				{
					startOf[src] = smpBuilder_AddVertex( &b, points[3 * src], points[3 * src + 1], points[3 * src + 2] );
				}
				v[k] = startOf[src];
			}
			smpBuilder_AddTriangle( &b, v[0], v[1], v[2] );
		}
	}
	else
	{
		b.failed = true;
	}
	free( startOf );
	free( h.faces );
	return smpBuilder_Finish( &b, out );
}

static uint64_t smpNextRandom( uint64_t* state )
{
	// splitmix64: deterministic across platforms.
	uint64_t z = ( *state += 0x9E3779B97F4A7C15ull );
	z = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	z = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
	return z ^ ( z >> 31 );
}

static double smpRandomUnit( uint64_t* state )
{
	return (double)( smpNextRandom( state ) >> 11 ) * ( 1.0 / 9007199254740992.0 );
}

bool smpMakeRandomConvex( int pointCount, unsigned seed, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( pointCount < 4 || pointCount > ( 1 << 22 ) )
	{
		return false;
	}
	double* points = (double*)malloc( (size_t)pointCount * 3 * sizeof( double ) );
	if ( points == NULL )
	{
		return false;
	}
	uint64_t state = 0x5DEECE66Dull ^ (uint64_t)seed;
	for ( int i = 0; i < pointCount; ++i )
	{
		// Direction by rejection from the cube (capped), radius in [0.9, 1].
		double d[3] = { 1.0, 0.0, 0.0 };
		for ( int attempt = 0; attempt < 64; ++attempt )
		{
			double c[3] = { 2.0 * smpRandomUnit( &state ) - 1.0, 2.0 * smpRandomUnit( &state ) - 1.0,
							2.0 * smpRandomUnit( &state ) - 1.0 };
			double l2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
			if ( l2 > 1e-6 && l2 <= 1.0 )
			{
				double l = sqrt( l2 );
				d[0] = c[0] / l;
				d[1] = c[1] / l;
				d[2] = c[2] / l;
				break;
			}
		}
		double r = 0.9 + 0.1 * smpRandomUnit( &state );
		points[3 * i + 0] = r * d[0];
		points[3 * i + 1] = r * d[1];
		points[3 * i + 2] = r * d[2];
	}
	bool ok = smpMakeConvexHull( points, pointCount, out );
	free( points );
	return ok;
}

void smpTransformSoup( smpSoup* soup, const double rowMajorR[9], pdVec3 t )
{
	if ( soup == NULL || rowMajorR == NULL )
	{
		return;
	}
	const double* r = rowMajorR;
	for ( int i = 0; i < soup->vertexCount; ++i )
	{
		double* v = soup->vertices + 3 * i;
		double x = v[0], y = v[1], z = v[2];
		v[0] = r[0] * x + r[1] * y + r[2] * z + t.x;
		v[1] = r[3] * x + r[4] * y + r[5] * z + t.y;
		v[2] = r[6] * x + r[7] * y + r[8] * z + t.z;
	}
	// A reflection would turn the normals inward; keep them outward.
	double det = r[0] * ( r[4] * r[8] - r[5] * r[7] ) - r[1] * ( r[3] * r[8] - r[5] * r[6] ) +
				 r[2] * ( r[3] * r[7] - r[4] * r[6] );
	if ( det < 0.0 )
	{
		smpSoupFlip( soup );
	}
}
