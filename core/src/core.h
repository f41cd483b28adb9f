// SPDX-License-Identifier: MIT
// Private: allocation through the hooks, def cookies, logging, timing.
#pragma once

#include "polydepth/base.h"

#define PD_SECRET_COOKIE 1152023

void* pdAlloc( size_t size );
void* pdAllocZeroed( size_t size );
/// An array of count elements (NULL when count is 0, the size overflows or allocation fails);
/// adds its size in bytes to *ioBytes on success.
void* pdAllocArray( size_t count, size_t element, size_t* ioBytes );
/// Grows (or shrinks) a block from oldSize to newSize bytes, preserving min(old,new) bytes.
void* pdRealloc( void* memory, size_t oldSize, size_t newSize );
void pdFree( void* memory, size_t size );
void pdLog( const char* format, ... );
/// Monotonic wall-clock milliseconds.
double pdNowMs( void );

#if defined( NDEBUG ) && !defined( PD_ENABLE_ASSERT )
#define PD_ASSERT( c ) ( (void)0 )
#else
void pdAssertFailed( const char* condition, const char* file, int line );
#define PD_ASSERT( c ) ( ( c ) ? (void)0 : pdAssertFailed( #c, __FILE__, __LINE__ ) )
#endif
