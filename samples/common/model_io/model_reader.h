// SPDX-License-Identifier: MIT
// Private to the model loaders (samples/common/model_io/*.c). Text formats are read whole into
// memory and tokenised with line numbers; every count is checked against caps and against the
// file size before anything is allocated, so truncated, garbage or hostile files produce
// one-line errors, not crashes.
#pragma once

#include "model_io.h"

#include <stddef.h>

// Caps: far above any benchmark model, far below what would exhaust memory by accident.
#define SMP_IO_MAX_TRIANGLES 50000000
#define SMP_IO_MAX_VERTICES 50000000
#define SMP_IO_MAX_FRAMES 10000000
#define SMP_IO_MAX_FILE_BYTES ( (size_t)1 << 31 )
#define SMP_IO_MAX_TOKEN 127

/// Whitespace-separated tokens of a NUL-terminated text, with the line number for messages.
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

/// model_reader.c
/// Writes "path: message" into error as exactly one line (error may be NULL).
void smpSetError( char* error, size_t errorSize, const char* path, const char* format, ... );
void smpClearSoupOut( smpSoup* soup );
/// Reads a whole file (chunked, so pipes and odd files work); NUL-terminated. NULL with a message.
char* smpReadFile( const char* path, size_t* outSize, char* error, size_t errorSize );
/// smpReadFile for a loader: NULL with a message also for an empty path and an empty or blank file.
char* smpReadNonEmptyFile( const char* path, size_t* outSize, char* error, size_t errorSize );
bool smpIsSpace( char c );
/// Next whitespace-separated token; false at end of data (token empty) or on an overlong token.
bool smpNextToken( smpTokenizer* t );
bool smpFailToken( smpTokenizer* t, const char* what );
bool smpReadInteger( smpTokenizer* t, long long* out, const char* what );
bool smpReadDouble( smpTokenizer* t, double* out, const char* what );
bool smpCheckCount( smpTokenizer* t, long long count, long long cap, const char* what );
bool smpExpectEnd( smpTokenizer* t, const char* after );
/// Case-insensitive test of the file name's ending.
bool smpHasExtension( const char* path, const char* ext );

/// tri.c
bool smpParseTri( smpTokenizer* t, smpSoup* out );
bool smpParseTris( smpTokenizer* t, smpSoup* out );

/// obj.c
bool smpParseObj( const char* data, size_t size, const char* path, smpSoup* out, char* error, size_t errorSize );

#if defined( POLYDEPTH_HAVE_ASSIMP )
/// assimp.c
bool smpPrecheckForAssimp( const char* path, const char* data, size_t size, char* error, size_t errorSize );
bool smpLoadAssimp( const char* path, smpSoup* out, char* error, size_t errorSize );
#endif
