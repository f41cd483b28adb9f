// SPDX-License-Identifier: MIT
// Overlays of two orientation graphs of any topology: the sphere sweep (plain and banded,
// sfog_sweep.c), the red-blue blocks sweep (sfog_blocks.c) and the naive all-pairs reference.
// They are benchmark experiments: the library prunes pair by pair with pdSfog_IsApplicable and
// uses only the convex overlay (core/src/sfog_overlay.c); bench/results/sfog.md holds the
// measurements that compare them. Built only with the benchmarks (POLYDEPTH_BENCH).
#pragma once

#include "sfog.h"

typedef enum pdSfogSweepVariant
{
	PD_SFOG_SWEEP_PLAIN = 0,  ///< sweep meridian moving east; one active list per colour
	PD_SFOG_SWEEP_BANDED = 1, ///< the same sweep with the active lists split into latitude bands
	PD_SFOG_SWEEP_BLOCKS = 2, ///< red-blue blocks: kinetic monochromatic blocks along the meridian (sfog_blocks.c)
} pdSfogSweepVariant;

/// The fastest variant measured on the large models (bench/results/sfog.md).
#define PD_SFOG_SWEEP_DEFAULT PD_SFOG_SWEEP_BANDED

/// Every applicable pair of two graphs of any topology (necessary condition for non-convex
/// meshes; undecidable features pair with everything), by a sweep on the sphere. Pairs are
/// sorted (kind, a, b) and live in ws->sfogPairs until the next sfog call.
pdStatus pdSfog_OverlaySweep( const pdMesh* meshA, const pdMat33* rotationA, const pdMesh* meshB,
							  const pdMat33* rotationB, int variant, pdWorkspace* ws, int* outCount,
							  const pdSfogPair** outPairs, pdSfogOverlayStats* outStats );

/// The red-blue blocks sweep (PD_SFOG_SWEEP_BLOCKS; pdSfog_OverlaySweep dispatches here). Same
/// output as pdSfog_OverlayNaive. PD_STATUS_FAILED on bad input, and when the kinetic structure
/// hits its event cap (pdSfog_OverlaySweep then falls back to the banded sweep).
pdStatus pdSfog_OverlayBlocks( const pdMesh* meshA, const pdMat33* rotationA, const pdMesh* meshB,
							   const pdMat33* rotationB, pdWorkspace* ws, int* outCount, const pdSfogPair** outPairs,
							   pdSfogOverlayStats* outStats );

/// Reference: tests every pair with the applicability predicates of sfog.h. Same output order as the sweep.
pdStatus pdSfog_OverlayNaive( const pdMesh* meshA, const pdMat33* rotationA, const pdMesh* meshB,
							  const pdMat33* rotationB, pdWorkspace* ws, int* outCount, const pdSfogPair** outPairs,
							  pdSfogOverlayStats* outStats );

/// Sorts pairs by (kind, a, b) and removes duplicates; returns the new count.
int pdSfog_SortPairs( pdSfogPair* pairs, int count );

// ---------------------------------------------------------------------------------------------
// Sweep geometry shared by sfog_sweep.c and sfog_blocks.c (defined in sfog_sweep.c).

/// The sweep's pole axis e3 (in no special position) and the meridian frame e1, e2.
typedef struct pdSfogSweepFrame
{
	pdVec3 e1, e2, e3;
} pdSfogSweepFrame;

void pdSfog_SweepFrame( pdSfogSweepFrame* outFrame );
/// Longitude of direction d in (-pi, pi].
double pdSfog_SweepLon( const pdSfogSweepFrame* f, pdVec3 d );
/// Widens [*ioLo, *ioHi] by the z range of the minor arc p -> q.
void pdSfog_SweepArcZ( const pdSfogSweepFrame* f, pdVec3 p, pdVec3 q, double* ioLo, double* ioHi );
/// Longitude interval and z range of the chain of minor arcs through pts (closed: back to the
/// first), padded by pad radians. Returns false when the chain comes near a pole (the item then
/// spans every longitude).
bool pdSfog_SweepRange( const pdSfogSweepFrame* f, const pdVec3* pts, int n, bool closed, double pad, double* outLo,
						double* outHi, double* outZLo, double* outZHi );
/// The chain of minor arcs of edge e (A's frame; reflect = -R for B): 1 point for a point arc,
/// 2 for a minor arc, 3 for a major arc (through its midpoint); 0 when undecidable.
int pdSfog_SweepArcChain( const pdSfog* g, int e, const pdMat33* reflect, pdVec3 outPts[3] );
/// Padded range of a vertex region; false when it must span every longitude.
bool pdSfog_SweepRegionRange( const pdSfogSweepFrame* f, double pad, const pdSfog* g, int v, const pdMat33* reflect,
							  double* lo, double* hi, double* zlo, double* zhi );
/// The sweep pieces of an item's longitude interval [lo, hi] (hi - lo < 2 pi, any winding):
/// one or two intervals inside (-pi, pi], split and padded at the seam. range false: one piece
/// spanning every longitude and the whole z range [-1, 1]. Writes the pieces' longitude and z
/// bounds; returns the count (1 or 2).
int pdSfog_SweepPieces( bool range, double lo, double hi, double zlo, double zhi, double outLo[2], double outHi[2],
						double outZLo[2], double outZHi[2] );
/// Latitude bands of the banded active lists (both sweeps).
#define PD_SFOG_SWEEP_BANDS 16
/// The band of height z in [-1, 1].
int pdSfog_SweepBand( double z );

/// A sweep event at longitude lon: item is inserted (order 0), tested as a point (1) or removed
/// (2). Ties break by order, then item.
typedef struct pdSfogSweepEvent
{
	double lon;
	int order;
	int item;
} pdSfogSweepEvent;
/// qsort comparator of pdSfogSweepEvent.
int pdSfog_CompareSweepEvents( const void* x, const void* y );

bool pdSfog_HasRing( const pdSfog* g, int v );
bool pdSfog_Usable( const pdMesh* mesh );
/// Clears an overlay's outputs (outStats may be NULL) and checks its inputs: false when the
/// workspace, a mesh, its graph or a rotation is missing.
bool pdSfog_StartOverlay( const pdMesh* meshA, const pdMat33* rotationA, const pdMesh* meshB, const pdMat33* rotationB,
						  const pdWorkspace* ws, int* outCount, const pdSfogPair** outPairs,
						  pdSfogOverlayStats* outStats );
int64_t pdSfog_PairsBefore( const pdSfog* sA, const pdSfog* sB );
