// SPDX-License-Identifier: MIT
// Private: allocation through the hooks, def cookies, logging, timing.
#pragma once

#include "polydepth/base.h"

#include <stdio.h>

#define PDI_SECRET_COOKIE 1152023

void* pdiAlloc( size_t size );
void* pdiAllocZeroed( size_t size );
/// An array of count elements (NULL when count is 0, the size overflows or allocation fails);
/// adds its size in bytes to *ioBytes on success.
void* pdiAllocArray( size_t count, size_t element, size_t* ioBytes );
/// Grows (or shrinks) a block from oldSize to newSize bytes, preserving min(old,new) bytes.
void* pdiRealloc( void* memory, size_t oldSize, size_t newSize );
void pdiFree( void* memory, size_t size );
void pdiLog( const char* format, ... );
/// Fills an optional error out-parameter: the status and the message (truncated to fit).
static inline void pdiSetError( pdError* outError, pdStatus status, const char* message )
{
	if ( outError != NULL )
	{
		outError->status = status;
		snprintf( outError->message, sizeof( outError->message ), "%s", message != NULL ? message : "" );
	}
}

/// Monotonic wall-clock milliseconds.
double pdiNowMs( void );

#if defined( NDEBUG ) && !defined( PDI_ENABLE_ASSERT )
#define PDI_ASSERT( c ) ( (void)0 )
#else
void pdiAssertFailed( const char* condition, const char* file, int line );
#define PDI_ASSERT( c ) ( ( c ) ? (void)0 : pdiAssertFailed( #c, __FILE__, __LINE__ ) )
#endif
