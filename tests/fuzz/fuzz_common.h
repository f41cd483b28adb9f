// SPDX-License-Identifier: MIT
// Shared helpers for the libFuzzer targets: a byte reader that never runs past the input
// (missing bytes read as zero) and a check macro that aborts with a message, so libFuzzer
// saves the input as a crash.
#pragma once

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct testFuzzReader
{
	const uint8_t* data;
	size_t size;
	size_t at;
} testFuzzReader;

static inline uint8_t testFuzz_Byte( testFuzzReader* r )
{
	return r->at < r->size ? r->data[r->at++] : 0;
}

static inline uint16_t testFuzz_U16( testFuzzReader* r )
{
	uint16_t lo = testFuzz_Byte( r );
	return (uint16_t)( lo | ( testFuzz_Byte( r ) << 8 ) );
}

static inline void testFuzz_Bytes( testFuzzReader* r, void* out, size_t n )
{
	uint8_t* p = (uint8_t*)out;
	for ( size_t i = 0; i < n; ++i )
	{
		p[i] = testFuzz_Byte( r );
	}
}

// A raw double (any bit pattern: NaN, Inf, denormals).
static inline double testFuzz_RawDouble( testFuzzReader* r )
{
	double d;
	testFuzz_Bytes( r, &d, sizeof( d ) );
	return d;
}

// A coordinate on a coarse grid in [-2, 2] (small soups that actually overlap).
static inline double testFuzz_GridCoord( testFuzzReader* r )
{
	return ( (double)testFuzz_Byte( r ) - 128.0 ) / 64.0;
}

#define TEST_FUZZ_CHECK( cond, ... )                                                                   \
	do                                                                                               \
	{                                                                                                \
		if ( !( cond ) )                                                                             \
		{                                                                                            \
			fprintf( stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond );               \
			fprintf( stderr, __VA_ARGS__ );                                                          \
			fprintf( stderr, "\n" );                                                                 \
			abort();                                                                                 \
		}                                                                                            \
	}                                                                                                \
	while ( 0 )

static inline int testFuzz_FiniteVec( double x, double y, double z )
{
	return isfinite( x ) && isfinite( y ) && isfinite( z );
}
