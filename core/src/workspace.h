// SPDX-License-Identifier: MIT
// Private: the caller-owned per-thread scratch memory. Each stage owns named buffers; a
// buffer grows through the allocator hooks and keeps its high-water mark, so a warmed-up
// workspace serves every later query without allocating.
#pragma once

#include "polydepth/query.h"

typedef struct pdBuffer
{
	void* data;
	size_t capacity; ///< bytes
} pdBuffer;

/// Makes room for at least bytes; keeps contents when keepContents. False on out of memory.
bool pdBuffer_Reserve( pdBuffer* buffer, size_t bytes, bool keepContents );

struct pdWorkspace
{
	// Proximity queries (bvh traversal, collide, distance, ccd).
	pdBuffer stack;    ///< traversal stack
	pdBuffer pairs;    ///< collide: intersecting pairs
	pdBuffer features; ///< ccd / contact features: pdContactFeature results handed to the caller
	pdBuffer scratch;  ///< per-query temporary arrays of the proximity stage
	// PolyDepth (penetration.c, contact_space.c, lcp.c, initial_config.c).
	pdBuffer pdFeatures; ///< copy of the features of the current contact configuration
	pdBuffer pdPlanes;   ///< contact planes
	pdBuffer pdStarts;   ///< candidate free configurations
	pdBuffer pdScratch;
	pdBuffer ballGridStarts; ///< static checks: first pair of each cell of the inner-ball grid
	pdBuffer ballGridItems;  ///< static checks: the inner-ball pairs filed by cell
	// Orientation pruning (sfog.c).
	pdBuffer sfogPairs;
	pdBuffer sfogScratch;
	uint32_t magic;
};

#define PD_WORKSPACE_MAGIC 0x53575044u /* "PDWS" */

static inline bool pdIsValidWorkspace( const pdWorkspace* ws )
{
	return ws != NULL && ws->magic == PD_WORKSPACE_MAGIC;
}
