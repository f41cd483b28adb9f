// SPDX-License-Identifier: MIT
// Overlays of two orientation graphs of any topology: the sphere sweep (plain and banded,
// sfog_sweep.c), the red-blue blocks sweep (sfog_blocks.c) and the naive all-pairs reference.
// They are benchmark experiments: the library prunes pair by pair with pdiSfog_IsApplicable and
// uses only the convex overlay (core/src/sfog_overlay.c); bench/results/sfog.md holds the
// measurements that compare them. Built only with the benchmarks (POLYDEPTH_BENCH).
#pragma once

#include "sfog.h"

typedef enum pdiSfogSweepVariant
{
	PDI_SFOG_SWEEP_PLAIN = 0,  ///< sweep meridian moving east; one active list per colour
	PDI_SFOG_SWEEP_BANDED = 1, ///< the same sweep with the active lists split into latitude bands
	PDI_SFOG_SWEEP_BLOCKS = 2, ///< red-blue blocks: kinetic monochromatic blocks along the meridian (sfog_blocks.c)
} pdiSfogSweepVariant;

/// The fastest variant measured on the large models (bench/results/sfog.md).
#define PDI_SFOG_SWEEP_DEFAULT PDI_SFOG_SWEEP_BANDED

/// Every applicable pair of two graphs of any topology (necessary condition for non-convex
/// meshes; undecidable features pair with everything), by a sweep on the sphere. Pairs are
/// sorted (kind, a, b) and live in ws->sfogPairs until the next sfog call.
pdStatus pdiSfog_OverlaySweep( const pdMesh* meshA, const pdiMat33* rotationA, const pdMesh* meshB,
							  const pdiMat33* rotationB, int variant, pdWorkspace* ws, int* outCount,
							  const pdiSfogPair** outPairs, pdiSfogOverlayStats* outStats );

/// The red-blue blocks sweep (PDI_SFOG_SWEEP_BLOCKS; pdiSfog_OverlaySweep dispatches here). Same
/// output as pdiSfog_OverlayNaive. PD_STATUS_FAILED on bad input, and when the kinetic structure
/// hits its event cap (pdiSfog_OverlaySweep then falls back to the banded sweep).
pdStatus pdiSfog_OverlayBlocks( const pdMesh* meshA, const pdiMat33* rotationA, const pdMesh* meshB,
							   const pdiMat33* rotationB, pdWorkspace* ws, int* outCount, const pdiSfogPair** outPairs,
							   pdiSfogOverlayStats* outStats );

/// Reference: tests every pair with the applicability predicates of sfog.h. Same output order as the sweep.
pdStatus pdiSfog_OverlayNaive( const pdMesh* meshA, const pdiMat33* rotationA, const pdMesh* meshB,
							  const pdiMat33* rotationB, pdWorkspace* ws, int* outCount, const pdiSfogPair** outPairs,
							  pdiSfogOverlayStats* outStats );

/// Sorts pairs by (kind, a, b) and removes duplicates; returns the new count.
int pdiSfog_SortPairs( pdiSfogPair* pairs, int count );

// ---------------------------------------------------------------------------------------------
// Sweep geometry shared by sfog_sweep.c and sfog_blocks.c (defined in sfog_sweep.c).

/// The sweep's pole axis e3 (in no special position) and the meridian frame e1, e2.
typedef struct pdiSfogSweepFrame
{
	pdVec3 e1, e2, e3;
} pdiSfogSweepFrame;

void pdiSfog_SweepFrame( pdiSfogSweepFrame* outFrame );
/// Longitude of direction d in (-pi, pi].
double pdiSfog_SweepLon( const pdiSfogSweepFrame* f, pdVec3 d );
/// Widens [*ioLo, *ioHi] by the z range of the minor arc p -> q.
void pdiSfog_SweepArcZ( const pdiSfogSweepFrame* f, pdVec3 p, pdVec3 q, double* ioLo, double* ioHi );
/// Longitude interval and z range of the chain of minor arcs through pts (closed: back to the
/// first), padded by pad radians. Returns false when the chain comes near a pole (the item then
/// spans every longitude).
bool pdiSfog_SweepRange( const pdiSfogSweepFrame* f, const pdVec3* pts, int n, bool closed, double pad, double* outLo,
						double* outHi, double* outZLo, double* outZHi );
/// The chain of minor arcs of edge e (A's frame; reflect = -R for B): 1 point for a point arc,
/// 2 for a minor arc, 3 for a major arc (through its midpoint); 0 when undecidable.
int pdiSfog_SweepArcChain( const pdiSfog* g, int e, const pdiMat33* reflect, pdVec3 outPts[3] );
/// Padded range of a vertex region; false when it must span every longitude.
bool pdiSfog_SweepRegionRange( const pdiSfogSweepFrame* f, double pad, const pdiSfog* g, int v, const pdiMat33* reflect,
							  double* lo, double* hi, double* zlo, double* zhi );
/// The sweep pieces of an item's longitude interval [lo, hi] (hi - lo < 2 pi, any winding):
/// one or two intervals inside (-pi, pi], split and padded at the seam. range false: one piece
/// spanning every longitude and the whole z range [-1, 1]. Writes the pieces' longitude and z
/// bounds; returns the count (1 or 2).
int pdiSfog_SweepPieces( bool range, double lo, double hi, double zlo, double zhi, double outLo[2], double outHi[2],
						double outZLo[2], double outZHi[2] );
/// Latitude bands of the banded active lists (both sweeps).
#define PDI_SFOG_SWEEP_BANDS 16
/// The band of height z in [-1, 1].
int pdiSfog_SweepBand( double z );

/// A sweep event at longitude lon: item is inserted (order 0), tested as a point (1) or removed
/// (2). Ties break by order, then item.
typedef struct pdiSfogSweepEvent
{
	double lon;
	int order;
	int item;
} pdiSfogSweepEvent;
/// qsort comparator of pdiSfogSweepEvent.
int pdiSfog_CompareSweepEvents( const void* x, const void* y );

bool pdiSfog_HasRing( const pdiSfog* g, int v );
bool pdiSfog_Usable( const pdMesh* mesh );
/// Clears an overlay's outputs (outStats may be NULL) and checks its inputs: false when the
/// workspace, a mesh, its graph or a rotation is missing.
bool pdiSfog_StartOverlay( const pdMesh* meshA, const pdiMat33* rotationA, const pdMesh* meshB, const pdiMat33* rotationB,
						  const pdWorkspace* ws, int* outCount, const pdiSfogPair** outPairs,
						  pdiSfogOverlayStats* outStats );
int64_t pdiSfog_PairsBefore( const pdiSfog* sA, const pdiSfog* sB );
