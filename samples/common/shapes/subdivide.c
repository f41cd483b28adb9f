// SPDX-License-Identifier: MIT
// Subdivision: every triangle into 4 through shared edge midpoints (also refines the icosphere).
#include "shape_builder.h"

#include <stdlib.h>
#include <string.h>

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
void smpBuilder_SubdivideOnce( smpSoupBuilder* b )
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
