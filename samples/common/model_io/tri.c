// SPDX-License-Identifier: MIT
// The .tri and .tris formats (those of the paper's benchmark models).
#include "model_reader.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// .tri: "TRI", vertex count, triangle count, x y z per vertex, i j k per triangle (0-based).
bool smpParseTri( smpTokenizer* t, smpSoup* out )
{
	if ( !smpNextToken( t ) || strcmp( t->token, "TRI" ) != 0 )
	{
		return smpFailToken( t, "the header 'TRI'" );
	}
	long long vertexCount = 0, triangleCount = 0;
	if ( !smpReadInteger( t, &vertexCount, "the vertex count" ) ||
		 !smpCheckCount( t, vertexCount, SMP_IO_MAX_VERTICES, "vertex" ) ||
		 !smpReadInteger( t, &triangleCount, "the triangle count" ) ||
		 !smpCheckCount( t, triangleCount, SMP_IO_MAX_TRIANGLES, "triangle" ) )
	{
		return false;
	}
	if ( vertexCount == 0 || triangleCount == 0 )
	{
		smpSetError( t->error, t->errorSize, t->path, "empty mesh (%lld vertices, %lld triangles)", vertexCount,
					 triangleCount );
		return false;
	}
	// Every number takes at least 2 bytes (a digit and a separator): reject before allocating.
	long long needed = 6 * vertexCount + 6 * triangleCount;
	long long remaining = (long long)( t->size - t->pos );
	if ( needed > remaining + 1 )
	{
		smpSetError(
			t->error, t->errorSize, t->path,
			"truncated file: %lld vertices and %lld triangles need at least %lld more bytes, the file has %lld",
			vertexCount, triangleCount, needed, remaining );
		return false;
	}
	out->vertices = (double*)malloc( (size_t)vertexCount * 3 * sizeof( double ) );
	out->indices = (uint32_t*)malloc( (size_t)triangleCount * 3 * sizeof( uint32_t ) );
	if ( out->vertices == NULL || out->indices == NULL )
	{
		smpSetError( t->error, t->errorSize, t->path, "out of memory for %lld vertices and %lld triangles", vertexCount,
					 triangleCount );
		return false;
	}
	for ( long long i = 0; i < vertexCount; ++i )
	{
		for ( int a = 0; a < 3; ++a )
		{
			double v = 0.0;
			if ( !smpReadDouble( t, &v, "a vertex coordinate" ) )
			{
				return false;
			}
			if ( !isfinite( v ) )
			{
				smpSetError( t->error, t->errorSize, t->path, "line %d: vertex %lld has a non-finite coordinate",
							 t->line, i );
				return false;
			}
			out->vertices[3 * i + a] = v;
		}
	}
	for ( long long i = 0; i < triangleCount; ++i )
	{
		for ( int a = 0; a < 3; ++a )
		{
			long long v = 0;
			if ( !smpReadInteger( t, &v, "a vertex index" ) )
			{
				return false;
			}
			if ( v < 0 || v >= vertexCount )
			{
				smpSetError( t->error, t->errorSize, t->path,
							 "line %d: triangle %lld references vertex %lld of %lld (index out of range)", t->line, i,
							 v, vertexCount );
				return false;
			}
			out->indices[3 * i + a] = (uint32_t)v;
		}
	}
	out->vertexCount = (int)vertexCount;
	out->triangleCount = (int)triangleCount;
	return smpExpectEnd( t, "the last triangle" );
}

// .tris: triangle count, then 9 coordinates per triangle; coincident corners are welded.
bool smpParseTris( smpTokenizer* t, smpSoup* out )
{
	long long triangleCount = 0;
	if ( !smpReadInteger( t, &triangleCount, "the triangle count" ) ||
		 !smpCheckCount( t, triangleCount, SMP_IO_MAX_TRIANGLES, "triangle" ) )
	{
		return false;
	}
	if ( triangleCount == 0 )
	{
		smpSetError( t->error, t->errorSize, t->path, "empty mesh (0 triangles)" );
		return false;
	}
	long long needed = 18 * triangleCount;
	long long remaining = (long long)( t->size - t->pos );
	if ( needed > remaining + 1 )
	{
		smpSetError( t->error, t->errorSize, t->path,
					 "truncated file: %lld triangles need at least %lld more bytes, the file has %lld", triangleCount,
					 needed, remaining );
		return false;
	}
	out->vertices = (double*)malloc( (size_t)triangleCount * 9 * sizeof( double ) );
	out->indices = (uint32_t*)malloc( (size_t)triangleCount * 3 * sizeof( uint32_t ) );
	if ( out->vertices == NULL || out->indices == NULL )
	{
		smpSetError( t->error, t->errorSize, t->path, "out of memory for %lld triangles", triangleCount );
		return false;
	}
	for ( long long i = 0; i < 9 * triangleCount; ++i )
	{
		double v = 0.0;
		if ( !smpReadDouble( t, &v, "a vertex coordinate" ) )
		{
			return false;
		}
		if ( !isfinite( v ) )
		{
			smpSetError( t->error, t->errorSize, t->path, "line %d: triangle %lld has a non-finite coordinate", t->line,
						 i / 9 );
			return false;
		}
		out->vertices[i] = v;
	}
	for ( long long i = 0; i < 3 * triangleCount; ++i )
	{
		out->indices[i] = (uint32_t)i;
	}
	out->vertexCount = (int)( 3 * triangleCount );
	out->triangleCount = (int)triangleCount;
	if ( !smpExpectEnd( t, "the last triangle" ) )
	{
		return false;
	}
	if ( !smpWeldSoup( out ) )
	{
		smpSetError( t->error, t->errorSize, t->path, "out of memory welding vertices" );
		return false;
	}
	return true;
}
