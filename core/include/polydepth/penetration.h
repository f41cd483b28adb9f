// SPDX-License-Identifier: MIT
// PolyDepth core: translational penetration depth between two posed meshes (Je et al. 2012,
// iterative contact-space projection), and the local PDs projected from it.
#pragma once

#include "query.h"

PD_C_BEGIN

/// Presets of the search's research settings (polydepth/research.h), for callers that do not
/// tune them one by one.
typedef enum pdPenetrationQuality
{
	/// The full global search: many starts, direction probes and a cone search around the best
	/// answer, so deep configurations find the shortest basin. The default.
	PD_QUALITY_ACCURATE = 0,
	/// What the contact plugin runs every simulation step: orientation pruning on, fewer random
	/// directions, no cone search and no tracking across queries. Cheaper; a deep answer may be a
	/// longer basin than the accurate search finds.
	PD_QUALITY_FAST = 1,
} pdPenetrationQuality;

typedef struct pdPenetrationSettings pdPenetrationSettings;

/// Options for a penetration-depth query: the few a caller chooses. Initialise with
/// pdDefaultPenetrationDef(); NULL means the defaults. The search's research settings (starts,
/// directions, pruning switches) come from `quality`, or one by one from `settings`.
typedef struct pdPenetrationDef
{
	/// Contact tolerance (world units): the returned translation leaves A and B at most touching,
	/// with any overlap shallower than this. <= 0 means 1e-4 of the smaller bounding-box diagonal.
	double contactTolerance;
	/// Wall-clock budget (ms); 0 = none. Past it the best bound so far is returned with
	/// PD_STATUS_TIME_LIMIT. Default 0
	double timeBudgetMs;
	/// PolyDepth iterations (project, classify) per start; past it PD_STATUS_ITERATION_LIMIT.
	/// Default 30
	int maxIterations;
	pdPenetrationQuality quality; ///< preset of the research settings. Default PD_QUALITY_ACCURATE
	/// Closed meshes are solids: one inside the other is penetration. Default true
	bool closedAsSolid;
	/// The research settings one by one (polydepth/research.h), or NULL (the default) for the
	/// preset of `quality`. Read during the call only.
	const pdPenetrationSettings* settings;
	int internalValue; ///< set by pdDefaultPenetrationDef(); do not touch
} pdPenetrationDef;

/// Caller-owned per-pair memory for motion coherence: zero-initialise it for a new pair (and
/// zero it again to forget the pair). Holds the last 3 contact configurations in B's frame.
typedef struct pdPenetrationCache
{
	pdVec3 configurations[3];   ///< A's origin relative to B, in B's frame (private)
	pdQuat relativeRotation[3]; ///< A's rotation relative to B when stored (private)
	int count;                  ///< valid entries (private)
	int next;                   ///< ring position (private)
	unsigned trackedQueries;    ///< queries in a row answered by tracking the newest entry (private)
	/// The last query found the pair farther apart than the contact tolerance (private): the
	/// next one first tries to confirm that with one traversal that proves no two triangles
	/// within the tolerance.
	bool lastSeparated;
} pdPenetrationCache;

typedef enum pdPenetrationState
{
	PD_STATE_SEPARATED = 0,
	PD_STATE_TOUCHING = 1,
	PD_STATE_PENETRATING = 2,
} pdPenetrationState;

#define PD_MAX_LOCAL_REGIONS 16
#define PD_MAX_REGION_POINTS 8

/// One contact region after translating A by the global PD d: a connected patch of contact
/// with one normal (its contacts' normals within 15 degrees of each other's seed, connected
/// through shared mesh vertices of A or B or points within 5% of the smaller bounding-box
/// diagonal). A face resting on a face is one region however it is tessellated.
typedef struct pdLocalPenetration
{
	pdVec3 normal;      ///< unit, world, on B pointing toward A
	double depth;       ///< d . normal (>= 0), world units: how deep A was along this normal
	pdVec3 translation; ///< (d . n) n
	int pointCount;     ///< contact points in this region, 1..PD_MAX_REGION_POINTS
	/// On B's surface, world frame, at the contact configuration, no two equal. All of the
	/// region's points when they fit (the closest contact first); otherwise its extent: the
	/// extreme points along 8 directions in the region's plane, then those farthest from them.
	pdVec3 points[PD_MAX_REGION_POINTS];
} pdLocalPenetration;

typedef struct pdPenetrationResult
{
	pdStatus status; ///< OK, or a cap status (ITERATION/TIME limit) with a valid upper bound
	pdPenetrationState state;
	double depth;       ///< |translation|, world units; 0 unless penetrating
	pdVec3 translation; ///< translate A by this (world) to leave A and B at most touching
	/// A certified lower bound on the PD (world units, at most depth): no translation of A
	/// shorter than this leaves the solids apart. From the balls inside two closed meshes: the
	/// deepest overlap of one inside A with one inside B, or a ball's radius plus the depth of
	/// its centre inside the other solid, whichever is larger; 0 when not penetrating, and for
	/// open meshes, which have no inside to certify a bound from (0 is the only one known).
	double lowerBound;
	int iterations;     ///< PolyDepth iterations summed over starts
	int starts;         ///< free configurations refined
	/// Answered by motion coherence: the cached contact refined and searched around, without the
	/// full start search (pdPenetrationSettings.maxTrackedQueries)
	bool tracked;
	int contactPlaneCount; ///< contact planes in the final in-projection
	int nodeVisits;   ///< BVH node pairs visited in total
	double elapsedMs; ///< wall time of the query
	int localCount; ///< entries of local
	pdLocalPenetration local[PD_MAX_LOCAL_REGIONS];
} pdPenetrationResult;

PD_API pdPenetrationDef pdDefaultPenetrationDef( void );

/// Computes the translational PD of A against B, with one local PD per contact region at the
/// answer. def and ioCache may be NULL. On error the
/// result is zeroed (never NaN) and the status says why.
PD_API pdStatus pdComputePenetration( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									  const pdTransform* poseB, const pdPenetrationDef* def,
									  pdPenetrationCache* ioCache, pdWorkspace* ioWorkspace,
									  pdPenetrationResult* outResult );

/// Writes a reproduction of a query (both meshes, both poses and the def) as a text file that
/// `polydepth replay FILE` runs again. Returns PD_STATUS_OK or PD_STATUS_INVALID_ARGUMENT.
PD_API pdStatus pdWriteRepro( const char* path, const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							  const pdTransform* poseB, const pdPenetrationDef* def );

PD_C_END
