// SPDX-License-Identifier: MIT
// PolyDepth core: basic types, status codes, and the global hooks (allocator, log).
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined( POLYDEPTH_SHARED )
#if defined( _WIN32 )
#if defined( POLYDEPTH_BUILDING )
#define PD_API __declspec( dllexport )
#else
#define PD_API __declspec( dllimport )
#endif
#else
#define PD_API __attribute__( ( visibility( "default" ) ) )
#endif
#else
#define PD_API
#endif

#ifdef __cplusplus
#define PD_C_BEGIN extern "C" {
#define PD_C_END }
#else
#define PD_C_BEGIN
#define PD_C_END
#endif

PD_C_BEGIN

#define PD_VERSION_MAJOR 0
#define PD_VERSION_MINOR 1
#define PD_VERSION_PATCH 0

/// A point or vector in 3-D. The core always computes in double precision.
typedef struct pdVec3
{
	double x, y, z;
} pdVec3;

/// A rotation as a unit quaternion (w + xi + yj + zk).
typedef struct pdQuat
{
	double w, x, y, z;
} pdQuat;

/// A rigid pose: world = rotate(q, local) + p. Quaternions must be unit length to 1e-4
/// (they are renormalised); anything else is rejected with PD_STATUS_INVALID_POSE.
typedef struct pdTransform
{
	pdQuat q;
	pdVec3 p;
} pdTransform;

/// Status codes. Zero is success, positive values are non-fatal (a cap was reached and the
/// result is still valid, for example an upper bound), negative values are errors (the
/// result is zeroed but fully defined).
typedef enum pdStatus
{
	PD_STATUS_OK = 0,

	PD_STATUS_ITERATION_LIMIT = 1,  ///< an iteration cap from the def was reached; the result is the best so far
	PD_STATUS_TIME_LIMIT = 2,       ///< the time budget from the def ran out; the result is the best so far
	PD_STATUS_TRAVERSAL_LIMIT = 3,  ///< a BVH node-visit cap or stack cap was reached; the result is conservative
	PD_STATUS_FEATURE_LIMIT = 4,    ///< more contact features or pairs existed than the def allowed; extra ones dropped

	PD_STATUS_INVALID_ARGUMENT = -1,       ///< NULL pointer, negative count, bad stride or enum value
	PD_STATUS_DEF_NOT_INITIALIZED = -2,    ///< the def was not made by its pdDefault...Def() function
	PD_STATUS_INVALID_VERTEX = -3,         ///< a vertex coordinate is NaN or infinite
	PD_STATUS_INVALID_INDEX = -4,          ///< a triangle references a vertex that does not exist
	PD_STATUS_EMPTY_MESH = -5,             ///< no vertices or no triangles
	PD_STATUS_DEGENERATE_MESH = -6,        ///< every triangle is degenerate
	PD_STATUS_DEGENERATE_TRIANGLE = -7,    ///< a degenerate triangle while the def asks to reject them
	PD_STATUS_OUT_OF_MEMORY = -8,          ///< the allocator returned NULL
	PD_STATUS_INVALID_POSE = -9,           ///< a pose has NaN/Inf or a quaternion that is not unit length
	PD_STATUS_INVALID_MESH = -10,          ///< a mesh pointer that is NULL, destroyed or not a mesh
	PD_STATUS_FAILED = -11,                ///< the query could not produce an answer (documented per query)
	PD_STATUS_INVALID_DEF = -12,           ///< a def field is out of range (the message names it)
} pdStatus;

/// Bytes of every message the library writes (NUL-terminated, one line).
#define PD_MESSAGE_CAPACITY 256

/// Why a call failed: a status and a one-line message naming the file, index or field.
/// pdCreateXxx functions return NULL on failure and fill the pdError (or report) passed last;
/// NULL there is allowed.
typedef struct pdError
{
	pdStatus status;                    ///< PD_STATUS_OK on success
	char message[PD_MESSAGE_CAPACITY]; ///< "" on success
} pdError;

/// A short, static, human-readable description of a status code. Never NULL.
PD_API const char* pdGetStatusString( pdStatus status );

/// Allocation hook: returns memory of at least size bytes aligned to alignment (a power of two
/// <= 64), or NULL. Must be thread-safe.
typedef void* pdAllocFcn( size_t size, size_t alignment, void* context );
/// Free hook: receives the pointer and the size it was allocated with.
typedef void pdFreeFcn( void* memory, size_t size, void* context );
/// Log hook: receives one line of text without a trailing newline.
typedef void pdLogFcn( const char* message, void* context );

/// Replace the allocator (NULL, NULL restores the default aligned malloc). Set once at
/// startup, before any object is created.
PD_API void pdSetAllocator( pdAllocFcn* allocFcn, pdFreeFcn* freeFcn, void* context );
/// What the library has allocated through the hooks.
typedef struct pdAllocatorStats
{
	size_t bytes;         ///< bytes allocated now
	uint64_t allocations; ///< allocation calls made so far (tests use it to prove "no allocation per query")
} pdAllocatorStats;

PD_API pdAllocatorStats pdGetAllocatorStats( void );
/// Route the library's (rare) diagnostic messages. NULL silences them (the default).
PD_API void pdSetLogFcn( pdLogFcn* logFcn, void* context );

/// The identity pose.
static inline pdTransform pdIdentityTransform( void )
{
	pdTransform t = { { 1.0, 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 } };
	return t;
}

PD_C_END
