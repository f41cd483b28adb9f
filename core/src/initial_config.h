// SPDX-License-Identifier: MIT
// Private: free (collision-free) configurations for PolyDepth: start candidates
// (initial_config.c) and the static checks they are verified with (start_checks.c, with the
// inner-ball certificate in ball_overlap.c).
#pragma once

#include "clearance.h"
#include "mesh.h"
#include "polydepth/research.h"
#include "workspace.h"

/// The inner-ball pairs of a query in a uniform grid over their translation-space balls
/// (ball_overlap.c). The cells' pair lists live in the workspace, so a workspace serves one
/// start context at a time (a query has one).
typedef struct pdiBallGrid
{
	bool ready;    ///< built (false: every pair is tested); a query builds it at its 64th ball test
	pdVec3 lo, hi; ///< the box of every pair's ball, B's frame
	double cell;   ///< cell side
	int size[3];   ///< cells along x, y, z
} pdiBallGrid;

/// The query both start stages work on. Translations x are of A relative to the query
/// configuration o = frameA.p, in world units.
typedef struct pdiStartContext
{
	const pdMesh* meshA;
	const pdMesh* meshB;
	pdiFrame frameA; ///< A at the query configuration
	pdiFrame frameB;
	pdQuat rotationA, rotationB; ///< unit quaternions of the two poses
	bool containment;  ///< closed meshes are solids (containment counts as collision)
	double tolerance;  ///< contact tolerance, world units
	pdWorkspace* ws;
	int collideCount;  ///< static collision checks made (incremented)
	int nodeVisits;    ///< BVH node pairs visited (incremented)
	// Lazily filled by pdiStart_Collides (a zeroed context is valid): boxes of vertex samples of
	// each mesh in the other's frame, without the translation. A solid can only contain the
	// other when the other's vertices all lie in its bounds, so these skip most ray tests.
	bool sampleBoxesReady;
	// The triangle pairs that most recently intersected (ring buffer, triangle ids): nearby
	// checks usually collide on one of them, which the exact pair test finds without a traversal.
	int hitPairCount;
	int hitPairNext;
	int hitPairs[8][2];
	int hitPairLast; ///< the slot that proved the last cached hit: tried first (a zeroed context is valid)
	pdVec3 sampleLoA, sampleHiA; ///< A's sample, B's frame, rotation only
	pdVec3 sampleLoB, sampleHiB; ///< B's sample, A's frame, rotation only
	// Lazily filled: A's inner ball centres turned into B's frame (rotation only), and how
	// often the ball test has settled a check (a query stops asking when it rarely does).
	bool ballsReady;
	int ballTests, ballHits;
	pdVec3 ballCentersA[PDI_MAX_INNER_BALLS];
	pdiBallGrid ballGrid; ///< filled with ballCentersA
} pdiStartContext;

/// A proposed start.
typedef struct pdiStartCandidate
{
	pdVec3 translation; ///< world; for a direction candidate only its direction matters
	unsigned strategy;  ///< the pdStartStrategy bit that proposed it
	bool direction;     ///< probe along the direction instead of using the point
	bool priority;      ///< worth sampling for a free pocket when the probe point collides
	bool probeOnly;     ///< one probe at the bound, pocket samples only if pdiStart_BallsSettleChecks (the dense random set)
} pdiStartCandidate;

/// With solids (the containment rule): true when a ball inside A (translated as rel says)
/// overlaps a ball inside B, so the solids overlap, which is a collision whether or not the
/// surfaces cross. Counts the test (ballTests, ballHits); stops testing for a query whose
/// tests rarely settle a check. Deep configurations, most of what the start search checks, are
/// settled here without a traversal.
bool pdiStart_BallsOverlap( pdiStartContext* ctx, const pdiFrame* rel );

/// True when the inner balls have settled at least three quarters of this query's static
/// checks (after 16 tests): colliding checks are then cheap, and the start search samples
/// pockets densely. (At a half, grates qualify too and their queries took twice as long.)
bool pdiStart_BallsSettleChecks( const pdiStartContext* ctx );

/// True when A translated by x collides with B (static check, containment as configured).
/// A failed query counts as colliding (conservative).
bool pdiStart_Collides( pdiStartContext* ctx, pdVec3 x );

/// False when A translated by x collides with B, exactly as pdiStart_Collides; otherwise true
/// with *outGap = the distance between the surfaces, or a lower bound on it above `above`
/// (one bounded distance query instead of a collision check followed by a distance query).
bool pdiStart_FreeGap( pdiStartContext* ctx, pdVec3 x, double above, double* outGap );

typedef enum pdiStartGap
{
	PDI_START_GAP_COLLIDING = 0, ///< A translated by x collides with B (as pdiStart_Collides says)
	PDI_START_GAP_FREE = 1,      ///< free; the gap and the features are set
	PDI_START_GAP_UNKNOWN = 2,   ///< the traversal was capped: ask pdiStart_FreeGap instead
} pdiStartGap;

/// pdiStart_FreeGap with `above` = the tolerance, and the contact features within the tolerance
/// (approach and maxFeatures as pdComputeContactFeatures) from the same traversal: FREE with
/// *outGap the distance when it is at most the tolerance (exactly pdiStart_FreeGap's value), a
/// larger value otherwise, and the features in the workspace's feature buffer. The features
/// are those pdComputeContactFeatures gives at x.
pdiStartGap pdiStart_FreeGapGathering( pdiStartContext* ctx, pdVec3 x, pdVec3 approach, int maxFeatures, double* outGap,
									 int* outCount, const pdContactFeature** outFeatures );

/// Smallest t >= 0 such that A at o + t*u is outside B's enclosing sphere with a margin of
/// the tolerance (free by construction). u must be unit.
double pdiStart_SeparationDistance( const pdiStartContext* ctx, pdVec3 u );

/// Proposes the candidates of the strategies in `strategies`, in priority order: coherence,
/// contact normals, principal axes, centroid, clearance, random. pairs (may be NULL) are the
/// triangle pairs intersecting at o. The list lives in ws->pdiStarts. Returns the count.
int pdiProposeStarts( pdiStartContext* ctx, unsigned strategies, const pdPenetrationCache* cache,
					 const pdTrianglePair* pairs, int pairCount, int randomDirections, unsigned seed,
					 const pdiStartCandidate** outCandidates );

/// Turns a candidate into a collision-free translation shorter than bound (INFINITY: none):
/// the point itself, the probe min(bound, separation) * u, a short march (coherence) or a
/// free pocket sample (priority candidates); then, when lineRefinement, the free sample of
/// the segment toward o closest to o. False when nothing free was found that could beat bound.
bool pdiStart_MakeFree( pdiStartContext* ctx, const pdiStartCandidate* candidate, double bound, bool lineRefinement,
					   pdVec3* outStart );

/// pdiStart_MakeFree for a point candidate whose own translation the caller has already
/// classified (atPoint FREE or COLLIDING, as pdiStart_Collides would; UNKNOWN checks it).
bool pdiStart_MakeFreeKnowing( pdiStartContext* ctx, const pdiStartCandidate* candidate, double bound,
							  bool lineRefinement, pdiStartGap atPoint, pdVec3* outStart );

/// How far the first step of a coherence start's push goes (2 tolerances): a resting pair's
/// cached contact that collides now usually does so by a fraction of one.
double pdiStart_FirstPush( const pdiStartContext* ctx );

/// The length a start must stay under to lead to a contact shorter than bound (by a margin:
/// the tolerance, or a thousandth of the bound); bound itself when it is INFINITY.
double pdiStart_Limit( const pdiStartContext* ctx, double bound );
