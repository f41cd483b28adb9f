// SPDX-License-Identifier: MIT
// Private: the caller-owned per-thread scratch memory. Each stage owns named buffers; a
// buffer grows through the allocator hooks and keeps its high-water mark, so a warmed-up
// workspace serves every later query without allocating.
#pragma once

#include "polydepth/query.h"

typedef struct pdiBuffer
{
	void* data;
	size_t capacity; ///< bytes
} pdiBuffer;

/// A workspace with no buffers yet, or NULL when memory runs out.
pdWorkspace* pdiCreateWorkspace( void );

/// Frees a workspace made by pdiCreateWorkspace; anything else is ignored.
void pdiDestroyWorkspace( pdWorkspace* ws );

/// Makes room for at least bytes; keeps contents when keepContents. False on out of memory.
bool pdiBuffer_Reserve( pdiBuffer* buffer, size_t bytes, bool keepContents );

struct pdWorkspace
{
	// Proximity queries (bvh traversal, collide, distance, ccd).
	pdiBuffer stack;    ///< traversal stack
	pdiBuffer pairs;    ///< collide: intersecting pairs
	pdiBuffer features; ///< ccd / contact features: pdContactFeature results handed to the caller
	pdiBuffer scratch;  ///< per-query temporary arrays of the proximity stage
	// PolyDepth (penetration.c, contact_space.c, lcp.c, initial_config.c).
	pdiBuffer pdiFeatures; ///< copy of the features of the current contact configuration
	pdiBuffer pdiPlanes;   ///< contact planes
	pdiBuffer pdiStarts;   ///< candidate free configurations
	pdiBuffer pdiScratch;
	pdiBuffer ballGridStarts; ///< static checks: first pair of each cell of the inner-ball grid
	pdiBuffer ballGridItems;  ///< static checks: the inner-ball pairs filed by cell
	// Orientation pruning (sfog.c).
	pdiBuffer sfogPairs;
	pdiBuffer sfogScratch;
	uint32_t magic;
};

#define PDI_WORKSPACE_MAGIC 0x53575044u /* "PDWS" */

static inline bool pdiIsValidWorkspace( const pdWorkspace* ws )
{
	return ws != NULL && ws->magic == PDI_WORKSPACE_MAGIC;
}
