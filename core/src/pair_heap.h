// SPDX-License-Identifier: MIT
// Private: the min-heap of BVH node pairs that the best-first traversals share (distance.c
// keys a pair by a lower bound on its distance, ccd.c by the earliest time its boxes can
// touch). It lives in a workspace buffer, grows keeping its contents, and the workspace keeps
// the high-water mark. It holds the search frontier: each visit pops one entry and pushes at
// most two, so it never exceeds the visits made plus one, and the queries' maxNodeVisits bounds
// it (the frontier stays far smaller in practice: the pairs that cannot beat the best answer so
// far are never pushed).
#pragma once

#include "workspace.h"

#include <limits.h>

typedef struct pdiKeyedPair
{
	int a, b;   ///< node of A, node of B
	double key; ///< smaller keys come out first
} pdiKeyedPair;

// Entries a heap starts with: small, so the growth path runs in ordinary tests.
#define PDI_PAIR_HEAP_START 64

typedef struct pdiPairHeap
{
	pdiBuffer* buffer;
	int count, capacity;
} pdiPairHeap;

/// An empty heap over buffer with room for PDI_PAIR_HEAP_START entries. False on out of memory.
static inline bool pdiPairHeap_Init( pdiPairHeap* h, pdiBuffer* buffer )
{
	h->buffer = buffer;
	h->count = 0;
	h->capacity = 0;
	if ( buffer->capacity < PDI_PAIR_HEAP_START * sizeof( pdiKeyedPair ) &&
		 !pdiBuffer_Reserve( buffer, PDI_PAIR_HEAP_START * sizeof( pdiKeyedPair ), false ) )
	{
		return false;
	}
	size_t capacity = buffer->capacity / sizeof( pdiKeyedPair );
	h->capacity = capacity > INT_MAX / 4 ? INT_MAX / 4 : (int)capacity;
	return true;
}

/// Makes room for two more entries. False when the allocator refuses or the count would
/// overflow (callers report the traversal limit or out of memory).
static inline bool pdiPairHeap_Grow( pdiPairHeap* h )
{
	if ( h->count + 2 <= h->capacity )
	{
		return true;
	}
	if ( h->capacity > INT_MAX / 4 )
	{
		return false;
	}
	int capacity = 2 * h->capacity;
	if ( !pdiBuffer_Reserve( h->buffer, (size_t)capacity * sizeof( pdiKeyedPair ), true ) )
	{
		return false;
	}
	h->capacity = capacity;
	return true;
}

/// Adds e; the caller made room (pdiPairHeap_Grow, or a pop since).
static inline void pdiPairHeap_Push( pdiPairHeap* h, pdiKeyedPair e )
{
	pdiKeyedPair* d = h->buffer->data;
	int i = h->count++;
	// Sift up: at most log2(count) steps.
	while ( i > 0 )
	{
		int parent = ( i - 1 ) / 2;
		if ( d[parent].key <= e.key )
		{
			break;
		}
		d[i] = d[parent];
		i = parent;
	}
	d[i] = e;
}

/// The entry with the smallest key (count > 0).
static inline const pdiKeyedPair* pdiPairHeap_Top( const pdiPairHeap* h )
{
	return h->buffer->data;
}

/// Removes and returns the entry with the smallest key (count > 0).
static inline pdiKeyedPair pdiPairHeap_Pop( pdiPairHeap* h )
{
	pdiKeyedPair* d = h->buffer->data;
	pdiKeyedPair top = d[0];
	pdiKeyedPair last = d[--h->count];
	int n = h->count, i = 0;
	// Sift down: each step doubles i, so at most log2(count) steps.
	while ( n > 0 )
	{
		int child = 2 * i + 1;
		if ( child >= n )
		{
			break;
		}
		if ( child + 1 < n && d[child + 1].key < d[child].key )
		{
			++child;
		}
		if ( d[child].key >= last.key )
		{
			break;
		}
		d[i] = d[child];
		i = child;
	}
	if ( n > 0 )
	{
		d[i] = last;
	}
	return top;
}
