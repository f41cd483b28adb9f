// SPDX-License-Identifier: MIT
// What every loader shares: one-line errors naming the file, reading a whole file, the
// whitespace tokenizer with line numbers and count checks, and file-name tests.
#include "model_reader.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void smpSetError( char* error, size_t errorSize, const char* path, const char* format, ... )
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

void smpClearSoupOut( smpSoup* soup )
{
	soup->vertices = NULL;
	soup->vertexCount = 0;
	soup->indices = NULL;
	soup->triangleCount = 0;
}

// Reads a whole file (chunked, so pipes and odd files work); NUL-terminated.
char* smpReadFile( const char* path, size_t* outSize, char* error, size_t errorSize )
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

bool smpIsSpace( char c )
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Next whitespace-separated token; false at end of data (token empty) or on an overlong token.
bool smpNextToken( smpTokenizer* t )
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

bool smpFailToken( smpTokenizer* t, const char* what )
{
	if ( t->pos >= t->size && t->token[0] == '\0' )
	{
		smpSetError( t->error, t->errorSize, t->path, "line %d: truncated file: expected %s, found end of file",
					 t->line, what );
	}
	else
	{
		smpSetError( t->error, t->errorSize, t->path, "line %d: expected %s, found '%s'", t->line, what,
					 smpTokenForMessage( t ) );
	}
	return false;
}

bool smpReadInteger( smpTokenizer* t, long long* out, const char* what )
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

bool smpReadDouble( smpTokenizer* t, double* out, const char* what )
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

bool smpCheckCount( smpTokenizer* t, long long count, long long cap, const char* what )
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

bool smpExpectEnd( smpTokenizer* t, const char* after )
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

bool smpHasExtension( const char* path, const char* ext )
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

char* smpReadNonEmptyFile( const char* path, size_t* outSize, char* error, size_t errorSize )
{
	if ( path == NULL || path[0] == '\0' )
	{
		smpSetError( error, errorSize, "(no file name)", "empty path" );
		return NULL;
	}
	size_t size = 0;
	char* data = smpReadFile( path, &size, error, errorSize );
	if ( data == NULL )
	{
		return NULL;
	}
	if ( size == 0 || smpIsBlank( data, size ) )
	{
		free( data );
		smpSetError( error, errorSize, path, "empty file" );
		return NULL;
	}
	*outSize = size;
	return data;
}
