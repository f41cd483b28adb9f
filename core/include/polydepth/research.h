// SPDX-License-Identifier: MIT
// PolyDepth core: the research settings of the penetration-depth search. These are the knobs
// the benchmarks turn to measure what each part of the search costs and buys
// (`polydepth-bench pd-frontier`); an application normally picks a preset with
// pdPenetrationDef.quality instead. Settings may be added or retired between minor versions.
//
//   pdPenetrationSettings settings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
//   settings.coneDirections = 0;           // no cone search around the best answer
//   pdPenetrationDef def = pdDefaultPenetrationDef();
//   def.settings = &settings;
//   pdComputePenetration( meshA, &poseA, meshB, &poseB, &def, NULL, workspace, &result );
#pragma once

#include "penetration.h"

PD_C_BEGIN

/// Free-configuration strategies (bit flags), tried in this order.
typedef enum pdStartStrategy
{
	PD_START_COHERENCE = 1 << 0,       ///< the per-pair cache of recent contact configurations
	PD_START_CLEARANCE = 1 << 1,       ///< precomputed maximally clear configurations
	PD_START_CENTROID = 1 << 2,        ///< back off along the centroid difference by the enclosing radii
	PD_START_RANDOM = 1 << 3,          ///< random directions in free space
	PD_START_CONTACT_NORMALS = 1 << 4, ///< directions from the in-collision contact normals
	PD_START_PRINCIPAL_AXES = 1 << 5,  ///< +- principal axes of the overlap region
	PD_START_ALL = 0x3f,
} pdStartStrategy;

/// The search's research settings. Initialise with pdDefaultPenetrationSettings(); the values
/// quoted are PD_QUALITY_ACCURATE's.
struct pdPenetrationSettings
{
	unsigned startStrategies; ///< pdStartStrategy bits. Default PD_START_ALL
	int maxStarts;            ///< free configurations refined at most (1..1024). Default 12
	int maxContactPlanes;     ///< contact planes kept for the in-projection (1..256). Default 20
	int maxLcpIterations;     ///< projected Gauss-Seidel sweeps per in-projection. Default 100
	/// Directions tried by PD_START_RANDOM, a Fibonacci sphere in B's frame: about 32 of them,
	/// evenly spread, are also sampled for pockets nearer along the ray; the rest are probed
	/// once at the best bound (0..4096). Default 512 (PD_QUALITY_FAST: 32)
	int randomDirections;
	unsigned randomSeed; ///< seed for PD_START_RANDOM (results are deterministic). Default 1
	/// Directions probed at the best bound around the best answer's direction once the starts
	/// are done, over a cone of 29 degrees half-angle: a shorter translation in a basin a few
	/// degrees wide beside the local optimum. 0 turns the cone search off (0..4096). Default 128
	/// (PD_QUALITY_FAST: 0)
	int coneDirections;
	bool lineRefinement; ///< line-sampling refinement of a free start toward the query. Default true
	/// Drop inapplicable feature pairs from the contact space (SFOG applicability). Default
	/// false (PD_QUALITY_FAST: true); what it changes is measured on the `sfog` results page.
	bool useOrientationPruning;
	/// In the out-projection's CCD, skip triangles of a closed outward mesh that face away from
	/// the motion (they cannot make the first contact). Default true
	bool useOrientationCulling;
	bool useConvexExactPath; ///< exact PD from the SFOG overlay when both meshes are convex. Default true
	/// Motion coherence: with a cache whose newest contact configuration was found under nearly
	/// the same relative rotation (within 0.1 rad), up to this many queries in a row are answered
	/// by refining from that contact and searching around its answer (a quarter of
	/// coneDirections, then the pattern search), without the other starts and the random
	/// directions; the next one runs the full search, so a basin that has become shorter is
	/// found within this many queries. 0 = every query runs the full search. Default 8
	/// (PD_QUALITY_FAST: 0)
	int maxTrackedQueries;
	int internalValue; ///< set by pdDefaultPenetrationSettings(); do not touch
};

/// The settings of a preset; an unknown quality gives PD_QUALITY_ACCURATE's.
PD_API pdPenetrationSettings pdDefaultPenetrationSettings( pdPenetrationQuality quality );

PD_C_END
