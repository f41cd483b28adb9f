// SPDX-License-Identifier: MIT
// Private: the state of one PolyDepth query (pdiPdQuery) that the driver (penetration.c) and its
// stages share: out-projection (out_projection.c), in-projection (in_projection.c),
// classification (classify.c), the iteration from a contact configuration (refine.c), the
// searches around the best answer (direction_search.c) and the local PDs (local_pd.c).
// Translations x are of A relative to the query configuration o = sc.frameA.p, world units.
#pragma once

#include "contact_space.h"
#include "core.h"
#include "initial_config.h"
#include "ccd.h"
#include "kernels.h"

#include <string.h>

// The query state

typedef struct pdiPdQuery
{
	pdiStartContext sc; ///< meshes, frames, tolerance, workspace, counters
	const pdiPenetrationOptions* def;
	double scale; ///< the smaller bounding-box diagonal
	double tol;
	double deadline; ///< pdiNowMs() value, INFINITY when there is no budget
	bool timeUp;
	bool iterationLimit;
	int iterations;
	int nodeVisits;

	bool haveBest;
	pdVec3 best;
	double bestLength;
	int bestPlanes;
	/// Distance between the surfaces at best when a free-gap check measured it exactly there
	/// (<= 0 when unknown): the final verification then has nothing left to check.
	double bestGap;

	// Two feature sets (the current contact configuration and a candidate), swapped on accept.
	pdContactFeature* features[2];
	int featureCount[2];
	int current;
	pdiContactPlane* planes;
	pdiContactPlane* memory; ///< the planes of the previous iterations of this start
	int memoryCount;
	int currentPlanes; ///< planes of the current contact configuration (first in planes)
	double* lambda;
} pdiPdQuery;

/// Sets up a query: meshes, frames, tolerance, budget (from startMs, pdiNowMs() time) and the
/// workspace scratch of two feature sets, the planes and the multipliers. q must be zeroed and
/// def validated.
pdStatus pdiQuery_Begin( pdiPdQuery* q, const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
						const pdTransform* poseB, const pdiPenetrationOptions* def, pdWorkspace* ws, double startMs );

/// The contact tolerance a def gives the pair: what every relative threshold of a query scales with.
double pdiPairTolerance( const pdiPenetrationOptions* def, const pdMesh* meshA, const pdMesh* meshB );

static inline pdTransform pdiQuery_PoseA( const pdiPdQuery* q, pdVec3 x )
{
	pdTransform pose;
	pose.q = q->sc.rotationA;
	pose.p = pdiAdd( q->sc.frameA.p, x );
	return pose;
}

static inline pdTransform pdiQuery_PoseB( const pdiPdQuery* q )
{
	pdTransform pose;
	pose.q = q->sc.rotationB;
	pose.p = q->sc.frameB.p;
	return pose;
}

static inline bool pdiQuery_OutOfTime( pdiPdQuery* q )
{
	if ( !q->timeUp && q->deadline < INFINITY && pdiNowMs() > q->deadline )
	{
		q->timeUp = true;
	}
	return q->timeUp;
}

// A bound within the contact tolerance cannot be improved by anything that matters: answers
// are only defined up to the tolerance. Resting contacts (depths far below it) stop here.
static inline bool pdiQuery_Settled( const pdiPdQuery* q )
{
	return q->haveBest && q->bestLength <= q->tol;
}

// gap: the distance measured at x by pdiStart_FreeGap, or < 0 when x was not measured.
static inline void pdiQuery_Offer( pdiPdQuery* q, pdVec3 x, int planes, double gap )
{
	double len = pdiLength( x );
	if ( pdiIsFiniteVec( x ) && ( !q->haveBest || len < q->bestLength ) )
	{
		q->haveBest = true;
		q->best = x;
		q->bestLength = len;
		q->bestPlanes = planes;
		q->bestGap = gap;
	}
}

static inline void pdiQuery_Accept( pdiPdQuery* q )
{
	q->current = 1 - q->current;
}

// Improvements smaller than this do not count: a start or an iteration must shorten the bound
// by 0.1%, ten times finer than the accuracy the query promises (1%), and the iteration stops
// instead of creeping along a curved contact space in ever smaller steps.
#define PDI_RELATIVE_IMPROVEMENT 1e-3
static inline double pdiQuery_Epsilon( const pdiPdQuery* q, double length )
{
	return fmax( 1e-12 * q->scale, PDI_RELATIVE_IMPROVEMENT * length );
}

// --- out_projection.c

/// The contact features of A at poseA (B at its pose) within reach, approach as in
/// pdContactFeatureDef, at most PDI_MAX_PD_FEATURES (pdComputeContactFeatures).
pdStatus pdiQuery_ContactFeatures( pdiPdQuery* q, const pdTransform* poseA, double reach, pdVec3 approach, int* outCount,
								  const pdContactFeature** outFeatures );

/// Copies count features (at most PDI_MAX_PD_FEATURES) into feature slot `slot`.
void pdiQuery_StoreFeatures( pdiPdQuery* q, int slot, const pdContactFeature* features, int count );

// Out-projection: A moves from o + from toward o + to; the first contact configuration on the
// way (relative to o) with its features in the candidate slot. knownFree: the caller has just
// checked `from` with pdiStart_Collides, so the sweep's own start check is skipped where it
// applies the same containment rule. Features are gathered only for a contact the caller will
// refine: one shorter than acceptBelow and not already within the tolerance of o (which
// settles the query, see pdiQuery_Settled).
bool pdiQuery_OutProjectEx( pdiPdQuery* q, pdVec3 from, pdVec3 to, bool knownFree, double acceptBelow,
						   pdVec3* outContact );

/// pdiQuery_OutProjectEx with a start not known free and every contact accepted.
bool pdiQuery_OutProject( pdiPdQuery* q, pdVec3 from, pdVec3 to, pdVec3* outContact );

/// Features of the configuration x (A at most touching) into the candidate slot.
bool pdiQuery_GatherFeatures( pdiPdQuery* q, pdVec3 x );

// --- in_projection.c

/// The planes of the current contact configuration xc after orientation pruning, with the
/// planes met earlier in this start that are still nearly active; returns their count.
int pdiQuery_BuildPlanes( pdiPdQuery* q, pdVec3 xc );

/// A direction along which every active pair separates (the in-projection of n_i . y >= 1),
/// for backing off a contact configuration before the next out-projection.
pdVec3 pdiQuery_Escape( pdiPdQuery* q, int planeCount, pdVec3 xc );

// --- classify.c

// pdiStart_FreeGapGathering at x, the features into the candidate slot when the gap is within
// the tolerance (*outGathered: x is a contact configuration). UNKNOWN when a cap kept the
// traversal from measuring.
pdiStartGap pdiQuery_ClassifyGathering( pdiPdQuery* q, pdVec3 x, double* outGap, bool* outGathered );

// Classifies x as pdiStart_FreeGap does with `above` = the tolerance (true: free, with *outGap)
// and, for a gap within the tolerance (x is a contact configuration), puts x's contact features
// into the candidate slot as pdiQuery_GatherFeatures does (*outGathered), from the same
// traversal. Falls back to pdiStart_FreeGap when the traversal was capped, leaving the features
// to the caller.
bool pdiQuery_FreeGapGathering( pdiPdQuery* q, pdVec3 x, double* outGap, bool* outGathered );

/// No two triangles within the tolerance (the gap proof: the gathering's culls, then the exact
/// triangle distance, ending at the first pair within) and, with checkContainment, neither
/// closed solid inside the other: exactly what a distance query bounded by the tolerance (and
/// pdCollide's containment test) decides, for less. False also when a cap kept the proof from
/// seeing every pair.
pdStatus pdiQuery_ApartByTolerance( pdiPdQuery* q, const pdTransform* poseA, const pdTransform* poseB,
								   bool checkContainment, bool* outApart );

/// Whether A at poseA collides with B at poseB (containment by the query's rule); with
/// reportPairs, every intersecting triangle pair (up to 256, the seeds of the start directions)
/// rather than the first.
pdStatus pdiQuery_Collide( pdiPdQuery* q, const pdTransform* poseA, const pdTransform* poseB, bool reportPairs,
						  pdCollideResult* outCollide );

/// The pair's state unless it penetrates: with a cache that remembers it apart, one proof
/// traversal at the tolerance first; otherwise (or when that fails) a collision check, and for
/// a pair not colliding the proof that tells separated from touching. *outClassified true:
/// out->state (SEPARATED or TOUCHING) and out->nodeVisits are set and ioCache records the
/// state. false: the pair collides and outCollide holds the intersecting triangle pairs (all of
/// them with reportPairs, else the first).
pdStatus pdiQuery_ClassifyPair( pdiPdQuery* q, const pdTransform* poseA, const pdTransform* poseB,
							   pdPenetrationCache* ioCache, bool reportPairs, pdCollideResult* outCollide,
							   pdPenetrationResult* out, bool* outClassified );

// --- refine.c

/// The PolyDepth iteration from the contact configuration xc (features in the current slot):
/// in-project, classify the projection, out-project, until no step shortens the bound.
void pdiQuery_Refine( pdiPdQuery* q, pdVec3 xc );

// --- direction_search.c

/// Cone search around the best answer's direction: up to `directions` probes at the bound,
/// at most maxStarts of them refined. Returns the starts it refined.
int pdiQuery_ConeSearch( pdiPdQuery* q, int directions, int maxStarts );

/// Pattern search on the best answer's direction at shrinking angles. Returns the starts it refined.
int pdiQuery_DirectionSearch( pdiPdQuery* q, int maxStarts );

// --- local_pd.c

/// The local PDs of the answer d into out->local, from the features gathered at A + d.
void pdiQuery_LocalPenetrations( pdiPdQuery* q, pdVec3 d, pdPenetrationResult* out );
