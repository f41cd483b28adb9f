// SPDX-License-Identifier: MIT
// Model loaders (see model_io.h). Text formats are read whole into memory and tokenised with
// line numbers; every count is checked against caps and against the file size before anything
// is allocated, so truncated, garbage or hostile files produce one-line errors, not crashes.
#include "model_io.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined( POLYDEPTH_HAVE_ASSIMP )
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#endif

// Caps: far above any benchmark model, far below what would exhaust memory by accident.
#define SMP_IO_MAX_TRIANGLES 50000000
#define SMP_IO_MAX_VERTICES 50000000
#define SMP_IO_MAX_FRAMES 10000000
#define SMP_IO_MAX_FILE_BYTES ( (size_t)1 << 31 )
#define SMP_IO_MAX_TOKEN 127

static void smpSetError( char* error, size_t errorSize, const char* path, const char* format, ... )
{
	if ( error == NULL || errorSize == 0 )
	{
		return;
	}
	int n = snprintf( error, errorSize, "%s: ", path != NULL ? path : "(null)" );
	if ( n >= 0 && (size_t)n < errorSize )
	{
		va_list args;
		va_start( args, format );
		vsnprintf( error + n, errorSize - (size_t)n, format, args );
		va_end( args );
	}
	// Exactly one line.
	for ( char* c = error; *c != '\0'; ++c )
	{
		if ( *c == '\n' || *c == '\r' )
		{
			*c = ' ';
		}
	}
}

static void smpClearSoupOut( smpSoup* soup )
{
	soup->vertices = NULL;
	soup->vertexCount = 0;
	soup->indices = NULL;
	soup->triangleCount = 0;
}

// Reads a whole file (chunked, so pipes and odd files work); NUL-terminated.
static char* smpReadFile( const char* path, size_t* outSize, char* error, size_t errorSize )
{
	FILE* file = fopen( path, "rb" );
	if ( file == NULL )
	{
		smpSetError( error, errorSize, path, "cannot open file (%s)", strerror( errno ) );
		return NULL;
	}
	size_t capacity = 1 << 16;
	size_t size = 0;
	char* data = (char*)malloc( capacity + 1 );
	if ( data == NULL )
	{
		fclose( file );
		smpSetError( error, errorSize, path, "out of memory" );
		return NULL;
	}
	for ( ;; )
	{
		if ( size == capacity )
		{
			if ( capacity >= SMP_IO_MAX_FILE_BYTES )
			{
				free( data );
				fclose( file );
				smpSetError( error, errorSize, path, "file too large (over %zu bytes)", (size_t)SMP_IO_MAX_FILE_BYTES );
				return NULL;
			}
			size_t grown = 2 * capacity;
			char* bigger = (char*)realloc( data, grown + 1 );
			if ( bigger == NULL )
			{
				free( data );
				fclose( file );
				smpSetError( error, errorSize, path, "out of memory reading the file" );
				return NULL;
			}
			data = bigger;
			capacity = grown;
		}
		size_t got = fread( data + size, 1, capacity - size, file );
		size += got;
		if ( got == 0 )
		{
			break;
		}
	}
	if ( ferror( file ) )
	{
		int code = errno;
		free( data );
		fclose( file );
		smpSetError( error, errorSize, path, "read error (%s)", code != 0 ? strerror( code ) : "unknown" );
		return NULL;
	}
	fclose( file );
	data[size] = '\0';
	*outSize = size;
	return data;
}

typedef struct smpTokenizer
{
	const char* data;
	size_t size;
	size_t pos;
	int line;
	char token[SMP_IO_MAX_TOKEN + 1];
	const char* path;
	char* error;
	size_t errorSize;
} smpTokenizer;

static bool smpIsSpace( char c )
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Next whitespace-separated token; false at end of data (token empty) or on an overlong token.
static bool smpNextToken( smpTokenizer* t )
{
	t->token[0] = '\0';
	while ( t->pos < t->size && smpIsSpace( t->data[t->pos] ) )
	{
		if ( t->data[t->pos] == '\n' )
		{
			t->line++;
		}
		t->pos++;
	}
	if ( t->pos >= t->size )
	{
		return false;
	}
	size_t n = 0;
	while ( t->pos < t->size && !smpIsSpace( t->data[t->pos] ) )
	{
		if ( n < SMP_IO_MAX_TOKEN )
		{
			t->token[n] = t->data[t->pos];
		}
		++n;
		t->pos++;
	}
	if ( n > SMP_IO_MAX_TOKEN )
	{
		t->token[SMP_IO_MAX_TOKEN] = '\0';
		return false;
	}
	t->token[n] = '\0';
	return true;
}

static bool smpAtEnd( smpTokenizer* t )
{
	size_t pos = t->pos;
	while ( pos < t->size && smpIsSpace( t->data[pos] ) )
	{
		++pos;
	}
	return pos >= t->size;
}

// Printable excerpt of the current token for messages (binary garbage stays one line).
static const char* smpTokenForMessage( smpTokenizer* t )
{
	size_t n = strlen( t->token );
	if ( n > 24 )
	{
		t->token[24] = '\0';
		n = 24;
	}
	for ( size_t i = 0; i < n; ++i )
	{
		unsigned char c = (unsigned char)t->token[i];
		if ( c < 32 || c > 126 )
		{
			t->token[i] = '?';
		}
	}
	return t->token;
}

static bool smpFailToken( smpTokenizer* t, const char* what )
{
	if ( t->pos >= t->size && t->token[0] == '\0' )
	{
		smpSetError( t->error, t->errorSize, t->path, "line %d: truncated file: expected %s, found end of file", t->line,
					what );
	}
	else
	{
		smpSetError( t->error, t->errorSize, t->path, "line %d: expected %s, found '%s'", t->line, what,
					smpTokenForMessage( t ) );
	}
	return false;
}

static bool smpReadInteger( smpTokenizer* t, long long* out, const char* what )
{
	if ( !smpNextToken( t ) )
	{
		return smpFailToken( t, what );
	}
	errno = 0;
	char* end = NULL;
	long long v = strtoll( t->token, &end, 10 );
	if ( end == t->token || *end != '\0' || errno == ERANGE )
	{
		return smpFailToken( t, what );
	}
	*out = v;
	return true;
}

static bool smpReadDouble( smpTokenizer* t, double* out, const char* what )
{
	if ( !smpNextToken( t ) )
	{
		return smpFailToken( t, what );
	}
	char* end = NULL;
	double v = strtod( t->token, &end );
	if ( end == t->token || *end != '\0' )
	{
		return smpFailToken( t, what );
	}
	*out = v; // may be Inf/NaN: callers say which value was bad
	return true;
}

static bool smpCheckCount( smpTokenizer* t, long long count, long long cap, const char* what )
{
	if ( count < 0 )
	{
		smpSetError( t->error, t->errorSize, t->path, "line %d: negative %s count %lld", t->line, what, count );
		return false;
	}
	if ( count > cap )
	{
		smpSetError( t->error, t->errorSize, t->path, "line %d: %s count %lld exceeds the limit of %lld", t->line, what,
					count, cap );
		return false;
	}
	return true;
}

static bool smpExpectEnd( smpTokenizer* t, const char* after )
{
	if ( smpAtEnd( t ) )
	{
		return true;
	}
	smpNextToken( t );
	smpSetError( t->error, t->errorSize, t->path, "line %d: counts do not match the data: unexpected '%s' after %s",
				t->line, smpTokenForMessage( t ), after );
	return false;
}

// .tri: "TRI", vertex count, triangle count, x y z per vertex, i j k per triangle (0-based).
static bool smpParseTri( smpTokenizer* t, smpSoup* out )
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
		smpSetError( t->error, t->errorSize, t->path,
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
				smpSetError( t->error, t->errorSize, t->path, "line %d: vertex %lld has a non-finite coordinate", t->line,
							i );
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
							"line %d: triangle %lld references vertex %lld of %lld (index out of range)", t->line, i, v,
							vertexCount );
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
static bool smpParseTris( smpTokenizer* t, smpSoup* out )
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
	smpSoup* out;			// NULL in the counting pass
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
		if ( end == p || end > lineEnd || errno == ERANGE || ( end < lineEnd && *end != '/' && !smpIsBlankInLine( *end ) ) )
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
			smpSetError( s->error, s->errorSize, s->path, "line %d: face references vertex %lld of %lld (index out of range)",
						line, index, index < 0 ? s->vertices : s->totalVertices );
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

static bool smpParseObj( const char* data, size_t size, const char* path, smpSoup* out, char* error, size_t errorSize )
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

static bool smpHasExtension( const char* path, const char* ext )
{
	size_t n = strlen( path ), m = strlen( ext );
	if ( n < m )
	{
		return false;
	}
	const char* tail = path + n - m;
	for ( size_t i = 0; i < m; ++i )
	{
		if ( tolower( (unsigned char)tail[i] ) != tolower( (unsigned char)ext[i] ) )
		{
			return false;
		}
	}
	return true;
}

static bool smpIsBlank( const char* data, size_t size )
{
	for ( size_t i = 0; i < size; ++i )
	{
		if ( !smpIsSpace( data[i] ) )
		{
			return false;
		}
	}
	return true;
}

#if defined( POLYDEPTH_HAVE_ASSIMP )

typedef struct smpAssimpTotals
{
	long long vertices;
	long long triangles;
	int depth;
	bool tooDeep;
} smpAssimpTotals;

static void smpCountNode( const struct aiScene* scene, const struct aiNode* node, int depth, smpAssimpTotals* totals )
{
	if ( depth > 64 )
	{
		totals->tooDeep = true;
		return;
	}
	for ( unsigned m = 0; m < node->mNumMeshes; ++m )
	{
		if ( node->mMeshes[m] >= scene->mNumMeshes )
		{
			continue;
		}
		const struct aiMesh* mesh = scene->mMeshes[node->mMeshes[m]];
		totals->vertices += mesh->mNumVertices;
		for ( unsigned f = 0; f < mesh->mNumFaces; ++f )
		{
			totals->triangles += mesh->mFaces[f].mNumIndices == 3;
		}
	}
	for ( unsigned c = 0; c < node->mNumChildren; ++c )
	{
		smpCountNode( scene, node->mChildren[c], depth + 1, totals );
	}
}

static void smpMultiply( const struct aiMatrix4x4* a, const struct aiMatrix4x4* b, struct aiMatrix4x4* out )
{
	const float* x = &a->a1;
	const float* y = &b->a1;
	float r[16];
	for ( int i = 0; i < 4; ++i )
	{
		for ( int j = 0; j < 4; ++j )
		{
			r[4 * i + j] = x[4 * i] * y[j] + x[4 * i + 1] * y[4 + j] + x[4 * i + 2] * y[8 + j] + x[4 * i + 3] * y[12 + j];
		}
	}
	memcpy( &out->a1, r, sizeof( r ) );
}

// Appends the node's meshes (transformed to the scene root) to out; returns false on a bad index
// or coordinate (message written).
static bool smpAppendNode( const struct aiScene* scene, const struct aiNode* node, const struct aiMatrix4x4* parent,
						  int depth, smpSoup* out, const char* path, char* error, size_t errorSize )
{
	struct aiMatrix4x4 world;
	smpMultiply( parent, &node->mTransformation, &world );
	const float* w = &world.a1;
	for ( unsigned m = 0; m < node->mNumMeshes; ++m )
	{
		if ( node->mMeshes[m] >= scene->mNumMeshes )
		{
			continue;
		}
		const struct aiMesh* mesh = scene->mMeshes[node->mMeshes[m]];
		int base = out->vertexCount;
		for ( unsigned v = 0; v < mesh->mNumVertices; ++v )
		{
			double x = mesh->mVertices[v].x, y = mesh->mVertices[v].y, z = mesh->mVertices[v].z;
			double p[3] = { w[0] * x + w[1] * y + w[2] * z + w[3], w[4] * x + w[5] * y + w[6] * z + w[7],
							w[8] * x + w[9] * y + w[10] * z + w[11] };
			if ( !isfinite( p[0] ) || !isfinite( p[1] ) || !isfinite( p[2] ) )
			{
				smpSetError( error, errorSize, path, "vertex %u of mesh %u has a non-finite coordinate", v,
							node->mMeshes[m] );
				return false;
			}
			memcpy( out->vertices + 3 * out->vertexCount, p, sizeof( p ) );
			out->vertexCount++;
		}
		for ( unsigned f = 0; f < mesh->mNumFaces; ++f )
		{
			const struct aiFace* face = mesh->mFaces + f;
			if ( face->mNumIndices != 3 )
			{
				continue; // points and lines
			}
			for ( int k = 0; k < 3; ++k )
			{
				if ( face->mIndices[k] >= mesh->mNumVertices )
				{
					smpSetError( error, errorSize, path, "face %u of mesh %u references vertex %u of %u", f,
								node->mMeshes[m], face->mIndices[k], mesh->mNumVertices );
					return false;
				}
				out->indices[3 * out->triangleCount + k] = (uint32_t)base + face->mIndices[k];
			}
			out->triangleCount++;
		}
	}
	for ( unsigned c = 0; c < node->mNumChildren; ++c )
	{
		if ( !smpAppendNode( scene, node->mChildren[c], &world, depth + 1, out, path, error, errorSize ) )
		{
			return false;
		}
	}
	return true;
}

// Assimp allocates what a header declares before reading the data (an OFF header claiming 5e11
// faces is a 28 GB allocation), and handles other oddities with assertions. So only the formats
// we test are passed on, and their declared counts are checked against the file size first.
static bool smpPrecheckForAssimp( const char* path, const char* data, size_t size, char* error, size_t errorSize )
{
	if ( smpHasExtension( path, ".stl" ) )
	{
		return true; // Assimp checks a binary STL's facet count against the file size
	}
	if ( smpHasExtension( path, ".off" ) )
	{
		// Header: [ST][C][N][4][n]OFF, then vertex, face and edge counts; '#' starts a comment.
		long long counts[3] = { 0, 0, 0 };
		int found = -1; // -1: header not yet seen
		size_t pos = 0;
		while ( pos < size && found < 3 )
		{
			char c = data[pos];
			if ( smpIsSpace( c ) )
			{
				++pos;
				continue;
			}
			if ( c == '#' )
			{
				while ( pos < size && data[pos] != '\n' )
				{
					++pos;
				}
				continue;
			}
			size_t start = pos;
			while ( pos < size && !smpIsSpace( data[pos] ) && data[pos] != '#' )
			{
				++pos;
			}
			size_t n = pos - start;
			char token[32];
			if ( n >= sizeof( token ) )
			{
				smpSetError( error, errorSize, path, "not an OFF file (bad header)" );
				return false;
			}
			memcpy( token, data + start, n );
			token[n] = '\0';
			if ( found < 0 )
			{
				if ( n < 3 || strcmp( token + n - 3, "OFF" ) != 0 )
				{
					smpSetError( error, errorSize, path, "not an OFF file (expected an OFF header)" );
					return false;
				}
				found = 0;
				continue;
			}
			char* end = NULL;
			errno = 0;
			long long v = strtoll( token, &end, 10 );
			if ( end == token || *end != '\0' || errno == ERANGE || v < 0 || v > SMP_IO_MAX_TRIANGLES )
			{
				smpSetError( error, errorSize, path, "OFF header: bad or absurd count '%s' (limit %d)", token,
							SMP_IO_MAX_TRIANGLES );
				return false;
			}
			counts[found++] = v;
		}
		if ( found < 3 )
		{
			smpSetError( error, errorSize, path, "truncated file: OFF header without vertex, face and edge counts" );
			return false;
		}
		// Each vertex needs at least 6 bytes ("0 0 0 "), each face at least 8 ("3 0 1 2 ").
		if ( 6 * counts[0] + 8 * counts[1] > (long long)size )
		{
			smpSetError( error, errorSize, path, "truncated file: %lld vertices and %lld faces cannot fit in %zu bytes",
						counts[0], counts[1], size );
			return false;
		}
		return true;
	}
	if ( smpHasExtension( path, ".ply" ) )
	{
		if ( size < 4 || strncmp( data, "ply", 3 ) != 0 )
		{
			smpSetError( error, errorSize, path, "not a PLY file (expected 'ply' on the first line)" );
			return false;
		}
		// Every declared element needs at least one byte of body in any encoding.
		long long total = 0;
		size_t pos = 0;
		bool ended = false;
		int lineNumber = 0;
		while ( pos < size && !ended )
		{
			size_t start = pos;
			while ( pos < size && data[pos] != '\n' )
			{
				++pos;
			}
			size_t n = pos - start;
			++pos;
			char line[256];
			if ( n >= sizeof( line ) )
			{
				n = sizeof( line ) - 1;
			}
			memcpy( line, data + start, n );
			line[n] = '\0';
			// Trim trailing spaces and CR: header lines must be exactly what the PLY grammar allows,
			// since Assimp's parser can loop on a malformed header (e.g. data glued to end_header).
			while ( n > 0 && ( line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t' ) )
			{
				line[--n] = '\0';
			}
			++lineNumber;
			if ( strcmp( line, "end_header" ) == 0 )
			{
				ended = true;
			}
			else if ( lineNumber == 1 ? strcmp( line, "ply" ) != 0
									  : ( strncmp( line, "format ", 7 ) != 0 && strncmp( line, "comment", 7 ) != 0 &&
										  strncmp( line, "obj_info", 8 ) != 0 && strncmp( line, "element ", 8 ) != 0 &&
										  strncmp( line, "property ", 9 ) != 0 ) )
			{
				smpSetError( error, errorSize, path, "PLY header line %d is malformed: '%.48s'", lineNumber, line );
				return false;
			}
			else if ( strncmp( line, "element ", 8 ) == 0 )
			{
				const char* countText = strrchr( line, ' ' );
				char* end = NULL;
				errno = 0;
				long long v = countText != NULL ? strtoll( countText + 1, &end, 10 ) : -1;
				if ( end == NULL || end == countText + 1 || *end != '\0' || errno == ERANGE || v < 0 ||
					 v > SMP_IO_MAX_TRIANGLES )
				{
					smpSetError( error, errorSize, path, "PLY header: bad or absurd element count in '%.64s'", line );
					return false;
				}
				total += v;
			}
		}
		if ( !ended )
		{
			smpSetError( error, errorSize, path, "truncated file: PLY header without end_header" );
			return false;
		}
		if ( total > (long long)( size - ( pos < size ? pos : size ) ) )
		{
			smpSetError( error, errorSize, path, "truncated file: the PLY header declares %lld elements, the body has %zu bytes",
						total, size - ( pos < size ? pos : size ) );
			return false;
		}
		return true;
	}
	smpSetError( error, errorSize, path, "unsupported format (use .tri, .tris, .obj, .stl, .ply or .off)" );
	return false;
}

static bool smpLoadAssimp( const char* path, smpSoup* out, char* error, size_t errorSize )
{
	// Malformed importer output (faces without indices from a truncated OFF or PLY) trips an
	// assertion (abort) inside Assimp's triangulation step. So import with validation only, check
	// the faces here, and only then triangulate and join vertices.
	const struct aiScene* scene = aiImportFile( path, aiProcess_ValidateDataStructure );
	if ( scene == NULL )
	{
		const char* why = aiGetErrorString();
		smpSetError( error, errorSize, path, "cannot import (%s)", why != NULL && why[0] != '\0' ? why : "unknown format" );
		return false;
	}
	for ( unsigned m = 0; m < scene->mNumMeshes; ++m )
	{
		const struct aiMesh* mesh = scene->mMeshes[m];
		bool bad = mesh == NULL || ( mesh->mNumFaces > 0 && mesh->mFaces == NULL ) ||
				   ( mesh->mNumVertices > 0 && mesh->mVertices == NULL );
		for ( unsigned f = 0; !bad && f < mesh->mNumFaces; ++f )
		{
			const struct aiFace* face = mesh->mFaces + f;
			bad = face->mNumIndices == 0 || face->mIndices == NULL;
			for ( unsigned k = 0; !bad && k < face->mNumIndices; ++k )
			{
				bad = face->mIndices[k] >= mesh->mNumVertices;
			}
		}
		if ( bad )
		{
			smpSetError( error, errorSize, path, "malformed mesh %u (a face without valid indices; truncated file?)", m );
			aiReleaseImport( scene );
			return false;
		}
	}
	scene = aiApplyPostProcessing( scene, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices );
	if ( scene == NULL )
	{
		const char* why = aiGetErrorString();
		smpSetError( error, errorSize, path, "cannot triangulate (%s)", why != NULL && why[0] != '\0' ? why : "unknown" );
		return false;
	}
	bool ok = false;
	smpAssimpTotals totals = { 0 };
	if ( scene->mRootNode != NULL )
	{
		smpCountNode( scene, scene->mRootNode, 0, &totals );
	}
	if ( totals.tooDeep )
	{
		smpSetError( error, errorSize, path, "scene graph deeper than 64 levels" );
	}
	else if ( totals.triangles == 0 )
	{
		smpSetError( error, errorSize, path, "empty mesh (no triangles)" );
	}
	else if ( totals.triangles > SMP_IO_MAX_TRIANGLES || totals.vertices > SMP_IO_MAX_VERTICES )
	{
		smpSetError( error, errorSize, path, "%lld triangles and %lld vertices exceed the limit of %d", totals.triangles,
					totals.vertices, SMP_IO_MAX_TRIANGLES );
	}
	else
	{
		out->vertices = (double*)malloc( (size_t)totals.vertices * 3 * sizeof( double ) + 1 );
		out->indices = (uint32_t*)malloc( (size_t)totals.triangles * 3 * sizeof( uint32_t ) );
		if ( out->vertices == NULL || out->indices == NULL )
		{
			smpSetError( error, errorSize, path, "out of memory" );
		}
		else
		{
			struct aiMatrix4x4 identity = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
			ok = smpAppendNode( scene, scene->mRootNode, &identity, 0, out, path, error, errorSize );
			if ( ok && !smpWeldSoup( out ) )
			{
				smpSetError( error, errorSize, path, "out of memory welding vertices" );
				ok = false;
			}
		}
	}
	aiReleaseImport( scene );
	return ok;
}

#endif

bool smpLoadSoup( const char* path, smpSoup* out, char* error, size_t errorSize )
{
	if ( error != NULL && errorSize > 0 )
	{
		error[0] = '\0';
	}
	if ( out == NULL )
	{
		smpSetError( error, errorSize, path, "no output soup given" );
		return false;
	}
	smpClearSoupOut( out );
	if ( path == NULL || path[0] == '\0' )
	{
		smpSetError( error, errorSize, "(no file name)", "empty path" );
		return false;
	}
	size_t size = 0;
	char* data = smpReadFile( path, &size, error, errorSize );
	if ( data == NULL )
	{
		return false;
	}
	if ( size == 0 || smpIsBlank( data, size ) )
	{
		free( data );
		smpSetError( error, errorSize, path, "empty file" );
		return false;
	}
	bool ok = false;
	if ( smpHasExtension( path, ".tri" ) || smpHasExtension( path, ".tris" ) || smpHasExtension( path, ".obj" ) )
	{
		smpTokenizer t = { .data = data, .size = size, .line = 1, .path = path, .error = error, .errorSize = errorSize };
		if ( memchr( data, '\0', size ) != NULL )
		{
			smpSetError( error, errorSize, path, "binary data in a text mesh file" );
		}
		else if ( smpHasExtension( path, ".obj" ) )
		{
			ok = smpParseObj( data, size, path, out, error, errorSize );
		}
		else
		{
			ok = smpHasExtension( path, ".tri" ) ? smpParseTri( &t, out ) : smpParseTris( &t, out );
		}
		free( data );
	}
	else
	{
#if defined( POLYDEPTH_HAVE_ASSIMP )
		bool plausible = smpPrecheckForAssimp( path, data, size, error, errorSize );
		free( data );
		ok = plausible && smpLoadAssimp( path, out, error, errorSize );
#else
		free( data );
		smpSetError( error, errorSize, path, "cannot read this format: built without Assimp (only .tri, .tris and .obj)" );
#endif
	}
	if ( !ok )
	{
		smpFreeSoup( out );
	}
	return ok;
}

// Frame labels look like "12f".
static bool smpReadFrameLabel( smpTokenizer* t, long long* out, const char* what )
{
	if ( !smpNextToken( t ) )
	{
		return smpFailToken( t, what );
	}
	size_t n = strlen( t->token );
	if ( n < 2 || ( t->token[n - 1] != 'f' && t->token[n - 1] != 'F' ) )
	{
		return smpFailToken( t, what );
	}
	t->token[n - 1] = '\0';
	errno = 0;
	char* end = NULL;
	long long v = strtoll( t->token, &end, 10 );
	bool ok = end != t->token && *end == '\0' && errno != ERANGE;
	t->token[n - 1] = 'f';
	if ( !ok )
	{
		return smpFailToken( t, what );
	}
	*out = v;
	return true;
}

bool smpLoadPath( const char* path, smpPath* out, char* error, size_t errorSize )
{
	if ( error != NULL && errorSize > 0 )
	{
		error[0] = '\0';
	}
	if ( out == NULL )
	{
		smpSetError( error, errorSize, path, "no output path given" );
		return false;
	}
	memset( out, 0, sizeof( *out ) );
	if ( path == NULL || path[0] == '\0' )
	{
		smpSetError( error, errorSize, "(no file name)", "empty path" );
		return false;
	}
	size_t size = 0;
	char* data = smpReadFile( path, &size, error, errorSize );
	if ( data == NULL )
	{
		return false;
	}
	if ( size == 0 || smpIsBlank( data, size ) )
	{
		free( data );
		smpSetError( error, errorSize, path, "empty file" );
		return false;
	}
	if ( memchr( data, '\0', size ) != NULL )
	{
		free( data );
		smpSetError( error, errorSize, path, "binary data in a text path file" );
		return false;
	}
	smpTokenizer t = { .data = data, .size = size, .line = 1, .path = path, .error = error, .errorSize = errorSize };
	bool ok = false;
	long long frames = 0;
	if ( smpReadFrameLabel( &t, &frames, "the frame count (like '101f')" ) &&
		 smpCheckCount( &t, frames, SMP_IO_MAX_FRAMES, "frame" ) )
	{
		long long remaining = (long long)( size - t.pos );
		if ( frames == 0 )
		{
			smpSetError( error, errorSize, path, "empty path (0 frames)" );
		}
		else if ( 26 * frames > remaining + 1 )
		{
			smpSetError( error, errorSize, path, "truncated file: %lld frames need at least %lld more bytes, the file has %lld",
						frames, 26 * frames, remaining );
		}
		else
		{
			out->rotations = (double*)malloc( (size_t)frames * 9 * sizeof( double ) );
			out->translations = (double*)malloc( (size_t)frames * 3 * sizeof( double ) );
			ok = out->rotations != NULL && out->translations != NULL;
			if ( !ok )
			{
				smpSetError( error, errorSize, path, "out of memory for %lld frames", frames );
			}
			long long firstLabel = 0;
			for ( long long f = 0; f < frames && ok; ++f )
			{
				long long label = 0;
				ok = smpReadFrameLabel( &t, &label, "a frame label (like '0f')" );
				if ( ok && f == 0 )
				{
					firstLabel = label;
					if ( label != 0 && label != 1 )
					{
						smpSetError( error, errorSize, path, "line %d: the first frame is labelled %lld, expected 0f or 1f",
									t.line, label );
						ok = false;
					}
				}
				else if ( ok && label != firstLabel + f )
				{
					smpSetError( error, errorSize, path, "line %d: frame %lld is labelled %lldf (frames out of order)", t.line,
								f, label );
					ok = false;
				}
				double c[12];
				for ( int k = 0; k < 12 && ok; ++k )
				{
					ok = smpReadDouble( &t, c + k, k < 9 ? "a rotation entry" : "a translation entry" );
					if ( ok && !isfinite( c[k] ) )
					{
						smpSetError( error, errorSize, path, "line %d: frame %lld has a non-finite number", t.line, f );
						ok = false;
					}
				}
				if ( ok )
				{
					// The file is column-major (R00 R10 R20 R01 ...); store row-major.
					for ( int row = 0; row < 3; ++row )
					{
						for ( int col = 0; col < 3; ++col )
						{
							out->rotations[9 * f + 3 * row + col] = c[3 * col + row];
						}
					}
					out->translations[3 * f + 0] = c[9];
					out->translations[3 * f + 1] = c[10];
					out->translations[3 * f + 2] = c[11];
				}
			}
			if ( ok )
			{
				out->frameCount = (int)frames;
				ok = smpExpectEnd( &t, "the last frame" );
			}
		}
	}
	free( data );
	if ( !ok )
	{
		smpFreePath( out );
	}
	return ok;
}

void smpFreePath( smpPath* path )
{
	if ( path == NULL )
	{
		return;
	}
	free( path->rotations );
	free( path->translations );
	memset( path, 0, sizeof( *path ) );
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
