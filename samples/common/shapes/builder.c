// SPDX-License-Identifier: MIT
// The growable soup builder every generator fills, and the grid builders several shapes share
// (doubly periodic grids, surfaces of revolution).
#include "shape_builder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void smpBuilder_Reserve( smpSoupBuilder* b, int vertices, int triangles )
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

int smpBuilder_AddVertex( smpSoupBuilder* b, double x, double y, double z )
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

void smpBuilder_AddTriangle( smpSoupBuilder* b, int i0, int i1, int i2 )
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

void smpBuilder_Discard( smpSoupBuilder* b )
{
	free( b->vertices );
	free( b->indices );
	memset( b, 0, sizeof( *b ) );
}

// Hands the builder's arrays to out; the winding is already consistent, so one global flip
// (if the volume is negative) makes it outward.
bool smpBuilder_Finish( smpSoupBuilder* b, smpSoup* out )
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

bool smpIsFinite3( double x, double y, double z )
{
	return isfinite( x ) && isfinite( y ) && isfinite( z );
}

// A doubly periodic grid (torus topology): vertex (i, j) at index i * n + j.
void smpBuilder_AddPeriodicGrid( smpSoupBuilder* b, int base, int m, int n )
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
void smpBuilder_AddRevolution( smpSoupBuilder* b, const double* r, const double* z, int profileCount, int around )
{
	int rings = profileCount - 2;
	smpBuilder_Reserve( b, b->vertexCount + rings * around + 2,
						b->triangleCount + 2 * around * ( rings > 0 ? rings : 1 ) );
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
