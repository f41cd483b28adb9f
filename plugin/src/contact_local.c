// SPDX-License-Identifier: MIT
// Local-first contact for two closed meshes: one traversal at the input poses gathers every
// feature pair within the pair's local reach, oriented out of B with signed distances
// (pdiPlugin_GatherOrientedFeatures), and each region is built from its own features with its
// own normal and depth. A wedged peg gets both sides of its hole, each with the depth that
// separates that side; no translation of the whole body is imposed on a region it does not
// separate. The global PD is searched only when the neighbourhood cannot explain the overlap:
// a vertex deeper than the reach allows (spawn overlaps, tunnelling), surfaces that
// overlap without a gathered pair inside (one solid in the other), or a gathering cut short.
#include "contact_internal.h"

#include <limits.h>

// Feature pairs a local gathering may keep, as a multiple of the def's maxFeatures: the
// gathering must see every pair within the reach (a capped list keeps the deepest pairs, which
// can be the far exits of a thin plate).
#define PDI_LOCAL_FEATURE_FACTOR 4

// Projected Gauss-Seidel sweeps of a region's push (at most 96 planes; converged well before).
#define PDI_PUSH_SWEEPS 64

// A vertex whose shallowest exit lies deeper than this fraction of the reach may have
// deeper neighbours the gathering did not see: the overlap is not local.
#define PDI_LOCAL_EXIT_FRACTION 0.75

// A gathering that saw a vertex near the edge of its reach, or more pairs than it could keep,
// looks once more over four times the reach (without a motion hint, at least a twentieth of the
// smaller mesh's bounding-box diagonal: nothing bounds a standalone query's depth), with room
// for PDI_LOCAL_WIDE_FACTOR x maxFeatures pairs, before the global search: a resting vertex
// just past a small reach's edge stays local, and so does a tight fit posed by hand (a peg
// wedged in its bore, its rim deeper in the peg than the contact distance).
#define PDI_LOCAL_WIDE_REACH 0.05
#define PDI_LOCAL_WIDE_FACTOR 16

double pdiLocalReach( const pdiCall* call )
{
	const pdContactDef* def = call->def;
	if ( call->oneSided || !pdMesh_GetInfo( call->meshA ).closed || !pdMesh_GetInfo( call->meshB ).closed ||
		 def->maxFeatures > INT_MAX / PDI_LOCAL_WIDE_FACTOR )
	{
		return 0.0;
	}
	const pdiPairState* pair = call->pair;
	double tolerance = call->tolerance;
	if ( pair->driven )
	{
		return 0.0;
	}
	if ( pair->lastState == PD_STATE_SEPARATED && pair->frame > 1 )
	{
		// Closing in: the separated path's own confirmation and gap proofs, and its speculative
		// contacts, are cheaper than a gathering over what the step can close (the PD query
		// answers a pair that arrives penetrating).
		return 0.0;
	}
	// In contact: the last depth twice (it may have grown as much again) and a margin for the
	// pairs about to touch, as the gathering at the global PD's contact configuration had. A
	// pair pushed in further than that this step has a vertex near the reach's edge and
	// escapes to the global PD; the step's motion bound (the rotation at A's whole size) would
	// triple the reach of a swinging chain link for the rare step that needs it.
	double lastDepth = pair->lastState == PD_STATE_PENETRATING ? pdiLength( pair->lastTranslation ) : 0.0;
	if ( call->moving && lastDepth > def->contactDistance )
	{
		// Deeper than contact reaches: a body driven in (squeezed between a kinematic body and
		// the floor) escapes by the global PD, one consistent direction, until it is shallow.
		return 0.0;
	}
	double margin = fmin( def->contactDistance, fmax( 0.1 * def->contactDistance, 8.0 * tolerance ) );
	double reach = 2.0 * lastDepth + margin + 4.0 * tolerance;
	if ( !call->moving )
	{
		// No motion hint (a standalone query, a fit posed by hand): nothing bounds the depth.
		reach = fmax( reach, PDI_LOCAL_WIDE_REACH * fmin( call->diagA, call->diagB ) );
	}
	reach = fmin( reach, 0.25 * fmin( call->diagA, call->diagB ) );
	return isfinite( reach ) && reach > 4.0 * call->tolerance ? reach : 0.0;
}

// The gathering saw a vertex near the edge of its reach, or a crossing whose vertices lie
// beyond it, or a vertex whose surface runs on deeper than its exits, or more pairs than it
// could keep: deeper pairs may lie unseen.
static bool pdiLocalCutShort( const pdiOrientedFeatures* of, double reach )
{
	return of->status == PD_STATUS_FEATURE_LIMIT || of->deepestExit > PDI_LOCAL_EXIT_FRACTION * reach ||
		   of->buriedDepth > 0.0 || of->unledVertex;
}

// Why the neighbourhood cannot give the answer, or PDI_LOCAL_ANSWERED.
static pdiLocalOutcome pdiLocalVerdict( const pdiCall* call, double reach, pdStatus status,
										const pdiOrientedFeatures* of )
{
	if ( status != PD_STATUS_OK )
	{
		return PDI_LOCAL_ESCAPE; // an error or a capped list: not every pair within reach was seen
	}
	if ( of->apart )
	{
		return PDI_LOCAL_APART;
	}
	if ( pdiLocalCutShort( of, reach ) )
	{
		return PDI_LOCAL_ESCAPE;
	}
	double touch = 4.0 * call->tolerance;
	for ( int i = 0; i < of->featureCount; ++i )
	{
		if ( of->features[i].distance <= touch )
		{
			return PDI_LOCAL_ANSWERED;
		}
	}
	// The surfaces meet or one solid holds the other, and no gathered pair says where.
	return PDI_LOCAL_ESCAPE;
}

// Two regions that push A in opposite directions either hold A between two walls of B (a peg
// in its bore: B's second wall lies beyond the first along the first's normal) or hold A around
// B (a washer on its shaft: B's second wall lies behind the first), in both cases a wall apart.
// Opposed regions on the same wall (a plate sunk past half its thickness into another: B's top
// corners leave A through A's top face, A's bottom corners leave B through B's top) exit
// through B itself: the overlap is not local, the global PD decides.
static bool pdiOpposedRegionsAgree( const pdiRegions* regions )
{
	for ( int i = 0; i < regions->count; ++i )
	{
		const pdiRegion* a = regions->items + i;
		for ( int j = i + 1; j < regions->count; ++j )
		{
			const pdiRegion* b = regions->items + j;
			if ( pdiDot( a->normal, b->normal ) > -0.5 || !( a->minDistance < 0.0 && b->minDistance < 0.0 ) )
			{
				continue;
			}
			// How far b's wall lies from a's along a's normal: beyond it (a wedge) or behind it
			// (A around B), the nearest of b's points.
			double room = DBL_MAX;
			for ( int p = 0; p < a->count; ++p )
			{
				for ( int q = 0; q < b->count; ++q )
				{
					room = fmin( room, fabs( pdiDot( pdiSub( b->pointB[q], a->pointB[p] ), a->normal ) ) );
				}
			}
			if ( room < -( a->minDistance + b->minDistance ) )
			{
				return false;
			}
		}
	}
	return true;
}

// One oriented gathering at the input poses within reach (with a motion: of the pairs that come
// within reach during the step), keeping up to cap feature pairs.
static pdiLocalOutcome pdiGatherOriented( const pdiCall* call, double reach, const pdRigidMotion* motion, int cap,
										  pdiOrientedFeatures* of )
{
	pdContactFeatureDef gather = pdDefaultContactFeatureDef();
	gather.reach = reach;
	gather.motion = motion;
	gather.approachDirection = call->separatedApproach;
	gather.maxFeatures = cap;
	// The gap proof runs at rest only: a swept gathering does not tell a separated pair (then
	// no pair within touch and the verdict escapes to the PD query, which does).
	gather.gap = motion == NULL ? call->tolerance : -1.0;
	// The side A leaves toward when its vertices could leave either way (a plate sunk past half
	// its thickness): the last push, else against the step's motion.
	const pdiPairState* pair = call->pair;
	pdiExitChoice choice = { call->supportBand, pdiScale( pair->motion, -1.0 ) };
	if ( pair->lastState == PD_STATE_PENETRATING )
	{
		choice.preferred = pdiRotate( call->qB, pair->lastTranslation );
	}
	pdStatus status = pdiPlugin_GatherOrientedFeatures( call->meshA, call->poseA, call->meshB, call->poseB, &gather,
														&choice, call->ws, of );
	return pdiLocalVerdict( call, reach, status, of );
}

pdiLocalOutcome pdiGatherLocal( pdiCall* call, pdiRegions* regions )
{
	const pdContactDef* def = call->def;
	// A ball inside A overlapping a ball inside B by more than the reach: the solids share a
	// lens thicker than the reach, which the gathering need not see (two icospheres sunk 2 cm
	// into each other: the lens's inner vertices lie beyond a 4 mm reach and cross nothing, and
	// the pairs at its rim read 0.4 mm). A certified lower bound, a few hundred ball tests.
	if ( pdiPlugin_InnerBallOverlap( call->meshA, call->poseA, call->meshB, call->poseB ) > call->localReach )
	{
		return PDI_LOCAL_ESCAPE;
	}
	pdiOrientedFeatures of;
	// A pair in contact that can close more than the contact distance this step (a sphere
	// landing on a pile it touches) gathers the pairs its motion brings within reach too: the
	// parts arriving this step get speculative contacts, as on the separated path.
	const pdiPairState* pair = call->pair;
	bool swept =
		call->impact && def->speculativeDistance > def->contactDistance && pair->lastState != PD_STATE_SEPARATED;
	pdRigidMotion stepMotion = { pair->motion, pair->rotation, pair->pivot };
	pdiLocalOutcome outcome = pdiGatherOriented( call, call->localReach, swept ? &stepMotion : NULL,
												 PDI_LOCAL_FEATURE_FACTOR * def->maxFeatures, &of );
	bool cutShort = pdiLocalCutShort( &of, call->localReach );
	double minDiag = fmin( call->diagA, call->diagB );
	double wide =
		fmin( fmax( 4.0 * call->localReach, call->moving ? 0.0 : PDI_LOCAL_WIDE_REACH * minDiag ), 0.25 * minDiag );
	if ( outcome == PDI_LOCAL_ESCAPE && cutShort && wide > call->localReach )
	{
		call->localReach = wide;
		outcome =
			pdiGatherOriented( call, wide, swept ? &stepMotion : NULL, PDI_LOCAL_WIDE_FACTOR * def->maxFeatures, &of );
	}
	if ( outcome == PDI_LOCAL_APART && !( def->speculativeDistance > def->contactDistance ) )
	{
		// Separated with every pair within the contact distance gathered: the separated path
		// groups these instead of gathering again.
		call->confirmedApart = true;
		call->confirmedCount = of.featureCount;
		call->confirmedFeatures = of.features;
	}
	if ( outcome != PDI_LOCAL_ANSWERED )
	{
		return outcome;
	}
	double touch = 4.0 * call->tolerance;
	double deepest = DBL_MAX;
	for ( int i = 0; i < of.featureCount; ++i )
	{
		deepest = fmin( deepest, of.features[i].distance );
	}
	call->pr.state = deepest < -call->tolerance ? PD_STATE_PENETRATING : PD_STATE_TOUCHING;
	pdiPosedPair at = { call->meshA, *call->poseA, call->meshB, *call->poseB };
	double margin =
		fmax( swept ? fmax( def->contactDistance, def->speculativeDistance ) : def->contactDistance, touch );
	pdiGrouping grouping = { PDI_LOCAL_REGION_COSINE, NULL, margin, touch, true, false };
	pdiGroupFeatures( &at, of.features, of.featureCount, &grouping, regions );
	// Not gathered: farther apart than the reach; gathered and not grouped for being farther
	// than the margin: their own distance.
	call->holdGap = swept ? 0.0 : call->localReach;
	for ( int i = 0; i < of.featureCount; ++i )
	{
		if ( of.features[i].distance > margin )
		{
			call->holdGap = fmin( call->holdGap, of.features[i].distance );
		}
	}
	return regions->count > 0 && pdiOpposedRegionsAgree( regions ) ? PDI_LOCAL_ANSWERED : PDI_LOCAL_ESCAPE;
}

// The region's own push: the shortest translation of A that takes every candidate point to
// its face's plane or beyond, min |d| subject to n_k . d >= -s_k (n_k the point's own normal,
// s_k its signed gap, from its offset n_k s_k), by projected Gauss-Seidel on the multipliers.
// Zero when nothing in the region penetrates.
static pdVec3 pdiRegionPush( const pdiRegion* r )
{
	double lambda[PDI_REGION_CANDIDATES] = { 0.0 };
	pdVec3 normal[PDI_REGION_CANDIDATES];
	double gap[PDI_REGION_CANDIDATES];
	for ( int k = 0; k < r->count; ++k )
	{
		double length = pdiLength( r->offset[k] );
		// offset = n s: a penetrating point's offset points into B (s < 0).
		double sign = pdiDot( r->offset[k], r->normal ) < 0.0 ? -1.0 : 1.0;
		normal[k] = length > 0.0 ? pdiScale( r->offset[k], sign / length ) : pdiV3( 0.0, 0.0, 0.0 );
		gap[k] = sign * length;
	}
	pdVec3 d = pdiV3( 0.0, 0.0, 0.0 );
	for ( int sweep = 0; sweep < PDI_PUSH_SWEEPS; ++sweep )
	{
		for ( int k = 0; k < r->count; ++k )
		{
			double violation = -gap[k] - pdiDot( normal[k], d ); // > 0: still short of the plane
			double next = fmax( 0.0, lambda[k] + violation );
			d = pdiMulAdd( d, next - lambda[k], normal[k] );
			lambda[k] = next;
		}
	}
	return pdiIsFiniteVec( d ) ? d : pdiV3( 0.0, 0.0, 0.0 );
}

void pdiSettleLocalNormals( pdiRegions* regions )
{
	// Resting regions too (their points a skin apart): a blend of both bodies' faces leans.
	for ( int i = 0; i < regions->count; ++i )
	{
		pdiRegion* r = regions->items + i;
		// B's faces set the normal where they take part (the mean of the faces A's vertices
		// press on: a box resting on a box tilted by a degree is pushed along the lower box's
		// face, not along a blend with its own, which leans and walks a stack sideways); else
		// the region's own push (a rim pressed into a peg's facets).
		pdVec3 faceB = pdiNormalize( r->faceBNormalSum );
		pdVec3 push = pdiDot( faceB, faceB ) > 0.0 ? faceB : pdiRegionPush( r );
		double length = pdiLength( push );
		if ( length > 0.0 )
		{
			r->normal = pdiScale( push, 1.0 / length );
			r->ownGaps = true;
			pdiFinishRegion( r, pdiV3( 0.0, 0.0, 0.0 ), false );
		}
	}
}

pdiLocalOutcome pdiLocalAfterArrival( pdiCall* call, pdStatus status, pdiRegions* regions )
{
	const pdContactDef* def = call->def;
	bool arrived = status >= 0 && call->localReach == 0.0 && !call->apart &&
				   call->pair->lastState == PD_STATE_SEPARATED && call->pr.state != PD_STATE_SEPARATED;
	if ( !arrived || call->pair->driven || call->oneSided || !pdMesh_GetInfo( call->meshA ).closed ||
		 !pdMesh_GetInfo( call->meshB ).closed )
	{
		return PDI_LOCAL_ESCAPE;
	}
	// A pair apart last call is at most what the step moved it deep. A PD within that is the
	// arrival's own depth (an impact: the PD's direction is the way A came in); a deeper one is
	// another basin (a peg that slid down its bore and touched the wall: lift it out), and the
	// neighbourhood within the step's reach has the contact.
	double margin = fmin( def->contactDistance, fmax( 0.1 * def->contactDistance, 8.0 * call->tolerance ) );
	double reach = call->sweep + margin + 4.0 * call->tolerance;
	if ( !( pdiLength( call->pr.translation ) > reach ) || reach > 0.25 * fmin( call->diagA, call->diagB ) )
	{
		return PDI_LOCAL_ESCAPE;
	}
	call->localReach = reach;
	pdiLocalOutcome outcome = pdiGatherLocal( call, regions );
	if ( outcome != PDI_LOCAL_ANSWERED )
	{
		regions->count = 0;
		call->confirmedApart = false;
		return PDI_LOCAL_ESCAPE;
	}
	return outcome;
}

// The deepest region's own push: what the set reports as the pair's translation on the local
// path (zero when nothing penetrates).
pdVec3 pdiDeepestRegionPush( const pdiRegions* regions )
{
	pdVec3 push = pdiV3( 0.0, 0.0, 0.0 );
	double deepest = 0.0;
	for ( int i = 0; i < regions->count; ++i )
	{
		const pdiRegion* r = regions->items + i;
		if ( r->minDistance < deepest )
		{
			deepest = r->minDistance;
			push = pdiScale( r->normal, -r->minDistance );
		}
	}
	return push;
}
