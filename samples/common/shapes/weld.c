// SPDX-License-Identifier: MIT
// Welding exactly coincident vertices (used by the box and by the .tris loader).
#include "shape_builder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
