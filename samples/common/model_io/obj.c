// SPDX-License-Identifier: MIT
// Wavefront .obj: the reader (two passes) and the writer.
#include "model_reader.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// .obj (Wavefront): "v x y z [...]" and "f a b c ..." lines; corners may be "i", "i/t", "i//n"
// or "i/t/n", negative indices count back from the last vertex read, polygons become triangle
// fans. Every other statement (vt, vn, g, o, s, usemtl, l, ...) is ignored. Parsed here rather
// than by Assimp because Assimp's OBJ importer leaks memory on malformed input (found by
// fuzzing) and cannot name the offending line. Two passes: count, then fill.
typedef struct smpObjScan
{
	const char* data;
	size_t size;
	const char* path;
	char* error;
	size_t errorSize;
	smpSoup* out;            // NULL in the counting pass
	long long totalVertices; // from the counting pass, for positive indices
	long long vertices;
	long long triangles;
} smpObjScan;

static bool smpIsBlankInLine( char c )
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static const char* smpObjExcerpt( const char* begin, const char* lineEnd, char* buffer, size_t bufferSize )
{
	size_t n = 0;
	while ( begin + n < lineEnd && !smpIsBlankInLine( begin[n] ) && n + 1 < bufferSize && n < 24 )
	{
		unsigned char c = (unsigned char)begin[n];
		buffer[n] = c < 32 || c > 126 ? '?' : (char)c;
		++n;
	}
	buffer[n] = '\0';
	return buffer;
}

static bool smpObjVertex( smpObjScan* s, const char* p, const char* lineEnd, int line )
{
	double xyz[3];
	for ( int a = 0; a < 3; ++a )
	{
		while ( p < lineEnd && smpIsBlankInLine( *p ) )
		{
			++p;
		}
		char* end = NULL;
		xyz[a] = p < lineEnd ? strtod( p, &end ) : 0.0;
		if ( p >= lineEnd || end == p || end > lineEnd || ( end < lineEnd && !smpIsBlankInLine( *end ) ) )
		{
			char excerpt[32];
			smpSetError( s->error, s->errorSize, s->path, "line %d: expected a vertex coordinate, found '%s'", line,
						 smpObjExcerpt( p, lineEnd, excerpt, sizeof( excerpt ) ) );
			return false;
		}
		if ( !isfinite( xyz[a] ) )
		{
			smpSetError( s->error, s->errorSize, s->path, "line %d: vertex %lld has a non-finite coordinate", line,
						 s->vertices + 1 );
			return false;
		}
		p = end;
	}
	if ( s->vertices >= SMP_IO_MAX_VERTICES )
	{
		smpSetError( s->error, s->errorSize, s->path, "line %d: more than %d vertices", line, SMP_IO_MAX_VERTICES );
		return false;
	}
	if ( s->out != NULL )
	{
		memcpy( s->out->vertices + 3 * s->vertices, xyz, sizeof( xyz ) );
	}
	s->vertices++;
	return true; // further values (w, or a vertex colour) are ignored
}

static bool smpObjFace( smpObjScan* s, const char* p, const char* lineEnd, int line )
{
	long long corners = 0;
	uint32_t first = 0, previous = 0;
	for ( ;; )
	{
		while ( p < lineEnd && smpIsBlankInLine( *p ) )
		{
			++p;
		}
		if ( p >= lineEnd )
		{
			break;
		}
		char* end = NULL;
		errno = 0;
		long long index = strtoll( p, &end, 10 );
		if ( end == p || end > lineEnd || errno == ERANGE ||
			 ( end < lineEnd && *end != '/' && !smpIsBlankInLine( *end ) ) )
		{
			char excerpt[32];
			smpSetError( s->error, s->errorSize, s->path, "line %d: expected a vertex index, found '%s'", line,
						 smpObjExcerpt( p, lineEnd, excerpt, sizeof( excerpt ) ) );
			return false;
		}
		p = end;
		while ( p < lineEnd && !smpIsBlankInLine( *p ) )
		{
			++p; // texture and normal indices
		}
		// Negative indices are relative to the vertices read so far; positive ones may refer
		// forward, so they are range-checked against the total in the filling pass.
		long long resolved = index < 0 ? s->vertices + index : index - 1;
		if ( index == 0 || resolved < 0 || ( s->out != NULL && resolved >= s->totalVertices ) )
		{
			smpSetError( s->error, s->errorSize, s->path,
						 "line %d: face references vertex %lld of %lld (index out of range)", line, index,
						 index < 0 ? s->vertices : s->totalVertices );
			return false;
		}
		uint32_t corner = (uint32_t)resolved;
		if ( corners >= 2 )
		{
			if ( s->triangles >= SMP_IO_MAX_TRIANGLES )
			{
				smpSetError( s->error, s->errorSize, s->path, "line %d: more than %d triangles", line,
							 SMP_IO_MAX_TRIANGLES );
				return false;
			}
			if ( s->out != NULL )
			{
				uint32_t* t = s->out->indices + 3 * s->triangles;
				t[0] = first;
				t[1] = previous;
				t[2] = corner;
			}
			s->triangles++;
		}
		if ( corners == 0 )
		{
			first = corner;
		}
		previous = corner;
		++corners;
	}
	if ( corners < 3 )
	{
		smpSetError( s->error, s->errorSize, s->path, "line %d: face with %lld corners (at least 3 needed)", line,
					 corners );
		return false;
	}
	return true;
}

static bool smpObjPass( smpObjScan* s )
{
	s->vertices = 0;
	s->triangles = 0;
	int line = 1;
	for ( size_t pos = 0; pos < s->size; ++line )
	{
		const char* begin = s->data + pos;
		const char* newline = (const char*)memchr( begin, '\n', s->size - pos );
		const char* lineEnd = newline != NULL ? newline : s->data + s->size;
		pos = (size_t)( lineEnd - s->data ) + 1;
		const char* comment = (const char*)memchr( begin, '#', (size_t)( lineEnd - begin ) );
		if ( comment != NULL )
		{
			lineEnd = comment;
		}
		const char* p = begin;
		while ( p < lineEnd && smpIsBlankInLine( *p ) )
		{
			++p;
		}
		const char* keyword = p;
		while ( p < lineEnd && !smpIsBlankInLine( *p ) )
		{
			++p;
		}
		size_t length = (size_t)( p - keyword );
		if ( length == 1 && keyword[0] == 'v' )
		{
			if ( !smpObjVertex( s, p, lineEnd, line ) )
			{
				return false;
			}
		}
		else if ( length == 1 && keyword[0] == 'f' )
		{
			if ( !smpObjFace( s, p, lineEnd, line ) )
			{
				return false;
			}
		}
	}
	return true;
}

bool smpParseObj( const char* data, size_t size, const char* path, smpSoup* out, char* error, size_t errorSize )
{
	smpObjScan scan = { .data = data, .size = size, .path = path, .error = error, .errorSize = errorSize };
	if ( !smpObjPass( &scan ) )
	{
		return false;
	}
	if ( scan.triangles == 0 )
	{
		smpSetError( error, errorSize, path, "empty mesh (%lld vertices, no faces)", scan.vertices );
		return false;
	}
	out->vertices = (double*)malloc( (size_t)scan.vertices * 3 * sizeof( double ) + 1 );
	out->indices = (uint32_t*)malloc( (size_t)scan.triangles * 3 * sizeof( uint32_t ) );
	if ( out->vertices == NULL || out->indices == NULL )
	{
		smpSetError( error, errorSize, path, "out of memory for %lld vertices and %lld triangles", scan.vertices,
					 scan.triangles );
		return false;
	}
	scan.out = out;
	scan.totalVertices = scan.vertices;
	if ( !smpObjPass( &scan ) )
	{
		return false;
	}
	out->vertexCount = (int)scan.vertices;
	out->triangleCount = (int)scan.triangles;
	if ( !smpWeldSoup( out ) )
	{
		smpSetError( error, errorSize, path, "out of memory welding vertices" );
		return false;
	}
	return true;
}

bool smpSaveObj( const char* path, const smpSoup* soup )
{
	if ( path == NULL || soup == NULL || soup->vertexCount < 0 || soup->triangleCount < 0 ||
		 ( soup->vertexCount > 0 && soup->vertices == NULL ) || ( soup->triangleCount > 0 && soup->indices == NULL ) )
	{
		return false;
	}
	FILE* file = fopen( path, "wb" );
	if ( file == NULL )
	{
		return false;
	}
	fprintf( file, "# polydepth soup: %d vertices, %d triangles\n", soup->vertexCount, soup->triangleCount );
	for ( int i = 0; i < soup->vertexCount; ++i )
	{
		const double* v = soup->vertices + 3 * i;
		fprintf( file, "v %.17g %.17g %.17g\n", v[0], v[1], v[2] );
	}
	for ( int t = 0; t < soup->triangleCount; ++t )
	{
		const uint32_t* f = soup->indices + 3 * t;
		fprintf( file, "f %u %u %u\n", f[0] + 1, f[1] + 1, f[2] + 1 );
	}
	bool ok = ferror( file ) == 0;
	ok = fclose( file ) == 0 && ok;
	return ok;
}
