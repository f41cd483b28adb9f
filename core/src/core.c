// SPDX-License-Identifier: MIT
// Global hooks (allocator, log), status strings, poses, timing.
#define _POSIX_C_SOURCE 200809L
#include "core.h"
#include "vec.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pdAllocFcn* s_allocFcn = NULL;
static pdFreeFcn* s_freeFcn = NULL;
static void* s_allocContext = NULL;
static pdLogFcn* s_logFcn = NULL;
static void* s_logContext = NULL;
static atomic_size_t s_byteCount;
static atomic_uint_fast64_t s_allocationCount;

void pdSetAllocator( pdAllocFcn* allocFcn, pdFreeFcn* freeFcn, void* context )
{
	if ( allocFcn == NULL || freeFcn == NULL )
	{
		allocFcn = NULL;
		freeFcn = NULL;
	}
	s_allocFcn = allocFcn;
	s_freeFcn = freeFcn;
	s_allocContext = context;
}

pdAllocatorStats pdGetAllocatorStats( void )
{
	pdAllocatorStats stats = { atomic_load_explicit( &s_byteCount, memory_order_relaxed ),
							   (uint64_t)atomic_load_explicit( &s_allocationCount, memory_order_relaxed ) };
	return stats;
}

void pdSetLogFcn( pdLogFcn* logFcn, void* context )
{
	s_logFcn = logFcn;
	s_logContext = context;
}

void* pdiAlloc( size_t size )
{
	if ( size == 0 )
	{
		size = 1;
	}
	void* memory;
	if ( s_allocFcn != NULL )
	{
		memory = s_allocFcn( size, 32, s_allocContext );
	}
	else
	{
		// aligned_alloc wants a size that is a multiple of the alignment.
		size_t rounded = ( size + 31 ) & ~(size_t)31;
		memory = aligned_alloc( 32, rounded );
	}
	if ( memory != NULL )
	{
		// Relaxed: the counters are statistics and order nothing, so ThreadSanitizer does not take
		// them for synchronisation between the threads that allocate (which would hide races).
		atomic_fetch_add_explicit( &s_byteCount, size, memory_order_relaxed );
		atomic_fetch_add_explicit( &s_allocationCount, 1, memory_order_relaxed );
	}
	return memory;
}

void* pdiAllocZeroed( size_t size )
{
	void* memory = pdiAlloc( size );
	if ( memory != NULL )
	{
		memset( memory, 0, size );
	}
	return memory;
}

void* pdiAllocArray( size_t count, size_t element, size_t* ioBytes )
{
	if ( count == 0 )
	{
		return NULL;
	}
	if ( count > SIZE_MAX / element )
	{
		return NULL;
	}
	void* p = pdiAlloc( count * element );
	if ( p != NULL )
	{
		*ioBytes += count * element;
	}
	return p;
}

void pdiFree( void* memory, size_t size )
{
	if ( memory == NULL )
	{
		return;
	}
	if ( size == 0 )
	{
		size = 1;
	}
	atomic_fetch_sub_explicit( &s_byteCount, size, memory_order_relaxed );
	if ( s_freeFcn != NULL )
	{
		s_freeFcn( memory, size, s_allocContext );
	}
	else
	{
		free( memory );
	}
}

void* pdiRealloc( void* memory, size_t oldSize, size_t newSize )
{
	void* fresh = pdiAlloc( newSize );
	if ( fresh == NULL )
	{
		return NULL;
	}
	if ( memory != NULL )
	{
		memcpy( fresh, memory, oldSize < newSize ? oldSize : newSize );
		pdiFree( memory, oldSize );
	}
	return fresh;
}

void pdiLog( const char* format, ... )
{
	if ( s_logFcn == NULL )
	{
		return;
	}
	char line[512];
	va_list args;
	va_start( args, format );
	vsnprintf( line, sizeof( line ), format, args );
	va_end( args );
	s_logFcn( line, s_logContext );
}

#if !( defined( NDEBUG ) && !defined( PDI_ENABLE_ASSERT ) )
void pdiAssertFailed( const char* condition, const char* file, int line )
{
	// Internal invariant broken: a bug in PolyDepth, never a reaction to user data.
	fprintf( stderr, "polydepth: assertion failed: %s (%s:%d)\n", condition, file, line );
	abort();
}
#endif

double pdiNowMs( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

const char* pdGetStatusString( pdStatus status )
{
	switch ( status )
	{
		case PD_STATUS_OK:
			return "ok";
		case PD_STATUS_ITERATION_LIMIT:
			return "iteration limit reached (result is the best bound found)";
		case PD_STATUS_TIME_LIMIT:
			return "time budget exhausted (result is the best bound found)";
		case PD_STATUS_TRAVERSAL_LIMIT:
			return "BVH traversal limit reached (result is conservative)";
		case PD_STATUS_FEATURE_LIMIT:
			return "feature limit reached (extra features dropped)";
		case PD_STATUS_INVALID_ARGUMENT:
			return "invalid argument";
		case PD_STATUS_DEF_NOT_INITIALIZED:
			return "def not initialised with its pdDefault...Def() function";
		case PD_STATUS_INVALID_VERTEX:
			return "vertex coordinate is NaN or infinite";
		case PD_STATUS_INVALID_INDEX:
			return "triangle index out of range";
		case PD_STATUS_EMPTY_MESH:
			return "mesh has no vertices or no triangles";
		case PD_STATUS_DEGENERATE_MESH:
			return "every triangle of the mesh is degenerate";
		case PD_STATUS_DEGENERATE_TRIANGLE:
			return "degenerate triangle (rejectDegenerate is set)";
		case PD_STATUS_OUT_OF_MEMORY:
			return "out of memory";
		case PD_STATUS_INVALID_POSE:
			return "pose is not finite or its quaternion is not unit length";
		case PD_STATUS_INVALID_MESH:
			return "invalid mesh handle";
		case PD_STATUS_FAILED:
			return "query failed";
		case PD_STATUS_INVALID_DEF:
			return "def field out of range";
	}
	return "unknown status";
}

pdStatus pdiMakeFrame( const pdTransform* pose, pdiFrame* outFrame )
{
	if ( outFrame == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	memset( outFrame, 0, sizeof( *outFrame ) );
	outFrame->r.cx.x = outFrame->r.cy.y = outFrame->r.cz.z = 1.0;
	if ( pose == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdQuat q = pose->q;
	if ( !isfinite( q.w ) || !isfinite( q.x ) || !isfinite( q.y ) || !isfinite( q.z ) || !pdiIsFiniteVec( pose->p ) )
	{
		return PD_STATUS_INVALID_POSE;
	}
	double n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
	if ( fabs( n2 - 1.0 ) > 2e-4 )
	{
		return PD_STATUS_INVALID_POSE;
	}
	double inv = 1.0 / sqrt( n2 );
	q.w *= inv;
	q.x *= inv;
	q.y *= inv;
	q.z *= inv;
	outFrame->r = pdiMat33FromQuat( q );
	outFrame->p = pose->p;
	return PD_STATUS_OK;
}
