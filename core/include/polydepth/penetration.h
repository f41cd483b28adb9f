// SPDX-License-Identifier: MIT
// PolyDepth core: translational penetration depth between two posed meshes (Je et al. 2012,
// iterative contact-space projection), and the local PDs projected from it.
#pragma once

#include "query.h"

PD_C_BEGIN

/// Free-configuration strategies (bit flags), tried in this order by the automatic mode.
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

/// Options for a penetration-depth query. Must be initialised with pdDefaultPenetrationDef();
/// NULL means the defaults.
typedef struct pdPenetrationDef
{
	/// Contact tolerance (world units): the returned translation leaves A and B at most touching,
	/// with any overlap shallower than this. <= 0 means 1e-4 of the smaller bounding-box diagonal.
	double contactTolerance;
	unsigned startStrategies; ///< pdStartStrategy bits. Default PD_START_ALL
	int maxStarts;            ///< free configurations refined at most. Default 12
	int maxIterations;        ///< PolyDepth iterations per start (project, classify). Default 30
	double timeBudgetMs;      ///< wall-clock budget; 0 = none. Default 0
	int maxContactPlanes;     ///< contact planes kept for the in-projection (10..30). Default 20
	int maxLcpIterations;     ///< projected Gauss-Seidel sweeps per in-projection. Default 100
	/// Directions tried by PD_START_RANDOM, a Fibonacci sphere in B's frame: about 32 of them, evenly
	/// spread, are also sampled for pockets nearer along the ray; the rest are probed once at the best
	/// bound. Default 512
	int randomDirections;
	unsigned randomSeed; ///< seed for PD_START_RANDOM (results are deterministic). Default 1
	/// Directions probed at the best bound around the best answer's direction once the starts are
	/// done, spread over a cone of 29 degrees half-angle: a shorter translation in a basin a few
	/// degrees wide beside the local optimum. 0 turns the cone search off. Default 128
	int coneDirections;
	bool lineRefinement; ///< line-sampling refinement of a free start toward the query. Default true
	/// Drop inapplicable feature pairs from the contact space (SFOG applicability). Default
	/// false: on the benchmark models it changed neither the query time (0.97-1.02x over 600
	/// queries per model) nor, but for 2 of 96 oracle cases, the answer (bench/results/sfog.md).
	bool useOrientationPruning;
	/// In the out-projection's CCD, skip triangles of a closed outward mesh that face away from
	/// the motion (they cannot make the first contact). Default true
	bool useOrientationCulling;
	bool useConvexExactPath; ///< exact PD from the SFOG overlay when both meshes are convex. Default true
	bool closedAsSolid;      ///< closed meshes are solids (containment is penetration). Default true
	/// Group the contacts at the answer into local PDs (result.local). Default true; a caller
	/// that gathers its own contacts at the answer anyway can turn it off and call
	/// pdComputeLocalPenetrations with them, so they are gathered once.
	bool computeLocalPenetrations;
	/// Motion coherence: with a cache whose newest contact configuration was found under nearly
	/// the same relative rotation (within 0.1 rad), up to this many queries in a row are answered
	/// by refining from that contact and searching around its answer (a quarter of
	/// coneDirections, then the pattern search), without the other starts and the random
	/// directions; the next one runs the full search, so a basin that has become shorter is
	/// found within this many queries. 0 = every query runs the full search. Default 8
	int maxTrackedQueries;
	int internalValue;
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
	int iterations;     ///< PolyDepth iterations summed over starts
	int starts;         ///< free configurations refined
	/// Answered by motion coherence: the cached contact refined and searched around, without the
	/// full start search (pdPenetrationDef.maxTrackedQueries)
	bool tracked;
	int contacts;     ///< contact planes in the final in-projection
	int nodeVisits;   ///< BVH node pairs visited in total
	double elapsedMs; ///< wall time of the query
	int localCount;
	pdLocalPenetration local[PD_MAX_LOCAL_REGIONS];
} pdPenetrationResult;

PD_API pdPenetrationDef pdDefaultPenetrationDef( void );

/// Computes the translational PD of A against B. def and ioCache may be NULL. On error the
/// result is zeroed (never NaN) and the status says why.
PD_API pdStatus pdComputePenetration( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									  const pdTransform* poseB, const pdPenetrationDef* def,
									  pdPenetrationCache* ioCache, pdWorkspace* ioWorkspace,
									  pdPenetrationResult* outResult );

/// The local PDs of a penetrating result, from contact features the caller gathered at A
/// translated by result.translation (pdComputeContactFeatures with a reach of at least 1.5 x the
/// contact tolerance and approach direction -translation): the same regions the query
/// gives with computeLocalPenetrations on, for a caller that gathers those features anyway
/// (with a wider reach) and so gathers them once. Features farther than 1.5 x the contact
/// tolerance from touching are ignored, as are all after the first 256 within it. def (NULL:
/// the defaults) supplies the contact tolerance, as in the query. Fills ioResult->local and
/// localCount; a result that is not penetrating gets none.
PD_API pdStatus pdComputeLocalPenetrations( const pdMesh* meshA, const pdMesh* meshB, const pdPenetrationDef* def,
											const pdContactFeature* features, int count,
											pdPenetrationResult* ioResult );

/// Writes a reproduction of a query (both meshes, both poses and the def) as a text file that
/// `polydepth replay FILE` runs again. Returns PD_STATUS_OK or PD_STATUS_INVALID_ARGUMENT.
PD_API pdStatus pdWriteRepro( const char* path, const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							  const pdTransform* poseB, const pdPenetrationDef* def );

PD_C_END
