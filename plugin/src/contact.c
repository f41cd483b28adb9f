// SPDX-License-Identifier: MIT
// Contact generation for one pair per step (pdContactPair_Generate), the driver: global PD -> one
// region per local PD, separated but close -> closest-feature regions, then stable slots and
// normals, reduction to 4 points per region, and the one-sided rule for open surfaces. The
// stages live in contact_regions.c, contact_reduce.c, contact_slots.c, contact_gap.c and
// contact_one_sided.c. Also the def defaults and the pair-state calls. Public core API only,
// plus the core's inline vector helpers.
#include "contact_internal.h"

#include <limits.h>
#include <string.h>

#define PDI_CONTACT_COOKIE 0x50444354

pdContactDef pdDefaultContactDef( void )
{
	pdContactDef def;
	memset( &def, 0, sizeof( def ) );
	def.contactDistance = 0.02;
	def.relativeTolerance = 1e-4;
	def.maxIterations = 30;
	def.timeBudgetMs = 0.0;
	def.oneSided = PD_ONE_SIDED_AUTO;
	def.regionCosine = 0.95;
	def.holdCosine = 0.99;
	def.maxFeatures = 256;
	def.internalValue = PDI_CONTACT_COOKIE;
	return def;
}

void pdContactPair_Reset( pdContactPair* pair )
{
	if ( pair == NULL )
	{
		return;
	}
	memset( pair, 0, sizeof( *pair ) );
	pdiPairStateOf( pair )->lastState = PD_STATE_SEPARATED;
}

void pdContactPair_SetMotion( pdContactPair* pair, pdVec3 relativeDisplacement )
{
	if ( pair == NULL )
	{
		return;
	}
	pdiPairState* s = pdiPairStateOf( pair );
	s->motion = pdiIsFiniteVec( relativeDisplacement ) ? relativeDisplacement : pdiV3( 0.0, 0.0, 0.0 );
	s->rotation = pdiV3( 0.0, 0.0, 0.0 );
	s->pivot = pdiV3( 0.0, 0.0, 0.0 );
}

void pdContactPair_SetRigidMotion( pdContactPair* pair, pdVec3 linearDisplacement, pdVec3 rotation, pdVec3 pivot )
{
	if ( pair == NULL )
	{
		return;
	}
	pdContactPair_SetMotion( pair, linearDisplacement );
	if ( pdiIsFiniteVec( rotation ) && pdiIsFiniteVec( pivot ) )
	{
		pdiPairStateOf( pair )->rotation = rotation;
		pdiPairStateOf( pair )->pivot = pivot;
	}
}

void pdContactPair_SetDriven( pdContactPair* pair, bool driven )
{
	if ( pair != NULL )
	{
		pdiPairStateOf( pair )->driven = driven;
	}
}

static pdStatus pdiCheckDef( const pdContactDef* def )
{
	if ( def->internalValue != PDI_CONTACT_COOKIE )
	{
		return PD_STATUS_DEF_NOT_INITIALIZED;
	}
	// isfinite first: an ordered comparison with NaN raises FE_INVALID (a trap where enabled).
	if ( !isfinite( def->contactDistance ) || def->contactDistance < 0.0 || !isfinite( def->speculativeDistance ) ||
		 def->speculativeDistance < 0.0 || !isfinite( def->relativeTolerance ) || !( def->relativeTolerance > 0.0 ) ||
		 def->maxIterations < 1 || !isfinite( def->timeBudgetMs ) || def->timeBudgetMs < 0.0 ||
		 !isfinite( def->regionCosine ) || !( def->regionCosine >= -1.0 && def->regionCosine <= 1.0 ) ||
		 !isfinite( def->holdCosine ) || !( def->holdCosine >= -1.0 && def->holdCosine <= 1.0 ) ||
		 def->maxFeatures < 1 || !isfinite( def->relativeSkin ) || def->relativeSkin < 0.0 ||
		 def->relativeSkin >= 0.1 ||
		 ( def->oneSided != PD_ONE_SIDED_AUTO && def->oneSided != PD_ONE_SIDED_ALWAYS &&
		   def->oneSided != PD_ONE_SIDED_NEVER ) )
	{
		return PD_STATUS_INVALID_DEF;
	}
	return PD_STATUS_OK;
}

static void pdiClearSet( pdContactManifoldSet* set, pdStatus status )
{
	memset( set, 0, sizeof( *set ) );
	set->status = status;
	set->state = PD_STATE_SEPARATED;
}

// The call's scales (tolerance, skin, reach), whether B is one-sided, and whether the pair's
// proven gap still holds.
static void pdiBeginCall( pdiCall* call )
{
	pdiPairState* pair = call->pair;
	const pdContactDef* def = call->def;
	pair->frame += 1;
	call->qB = pdiSafeUnitQuat( call->poseB->q );
	call->diagA = pdiMeshDiagonal( call->meshA );
	call->diagB = pdiMeshDiagonal( call->meshB );
	double minDiag = fmin( call->diagA, call->diagB );
	call->tolerance = def->relativeTolerance * minDiag;
	// A skin only works where separated pairs still get contacts: at most half the contact
	// distance (none without separated contacts), else a pair would hover where it has none.
	call->skin = fmin( def->relativeSkin * minDiag, 0.5 * def->contactDistance );
	if ( !( call->tolerance > 0.0 ) )
	{
		call->tolerance = 1e-9;
	}
	call->oneSided = def->oneSided == PD_ONE_SIDED_ALWAYS ||
					 ( def->oneSided == PD_ONE_SIDED_AUTO && !pdMesh_GetInfo( call->meshB ).closed );
	// Anything closer than this gets contacts (the distance a contact reaches, with margin).
	call->contactReach = fmax( def->contactDistance, def->speculativeDistance ) + 4.0 * call->tolerance;
	call->supportBand = fmax( 0.05 * def->contactDistance, 8.0 * call->tolerance );
	// The farthest any point of A moves: the linear part plus the rotation at A's size.
	call->sweep = pdiLength( pair->motion ) + pdiLength( pair->rotation ) * call->diagA;
	call->slow = call->sweep <= call->supportBand;
	call->impact = call->sweep > def->contactDistance;
	call->apart = pdiStillApart( call );
	pair->apartValid = call->apart;
}

// The PD query's options for contact generation: the fast preset (a step asks for contact;
// the pair's held contacts, contact_hold.c, are what spares a resting pair its queries, so the
// core's tracking across queries stays off), the pair's tolerance and the def's budget. Local
// PDs come from the contact pairs the plugin gathers anyway; no lower bound is certified.
static pdStatus pdiPenetrationOptionsFor( const pdContactDef* def, double tolerance, pdiPenetrationOptions* outOptions )
{
	pdPenetrationDef pdef = pdDefaultPenetrationDef();
	pdef.quality = PD_QUALITY_FAST;
	pdef.contactTolerance = tolerance;
	pdef.maxIterations = def->maxIterations;
	pdef.timeBudgetMs = def->timeBudgetMs;
	pdStatus status = pdiPlugin_ResolvePenetrationDef( &pdef, outOptions );
	outOptions->computeLocalPenetrations = false;
	outOptions->computeLowerBound = false; // contact generation reads the translation only
	return status;
}

// The global PD, unless the pair is proven apart or the apart confirmation holds (then the
// result stays zero and separated).
static pdStatus pdiQueryPenetration( pdiCall* call )
{
	pdiConfirmApart( call );
	memset( &call->pr, 0, sizeof( call->pr ) );
	call->pr.state = PD_STATE_SEPARATED;
	pdStatus status = call->apart || call->confirmedApart
						  ? PD_STATUS_OK
						  : pdiPlugin_ComputePenetration( call->meshA, call->poseA, call->meshB, call->poseB,
														  &call->pdef, &call->pair->penetration, call->ws, &call->pr );
	call->set->iterations = call->pr.iterations;
	return status;
}

// Empty regions with what every region takes from the call (B's axis, the support band, the
// step's motion), and the bands and caps that depend on how fast A moves. Resting contacts
// (shallow, and A barely moving relative to B) get the stable treatment; impacts keep the
// deepest point and the largest area, which resolve them fastest.
static void pdiBeginRegions( pdiCall* call, pdiRegions* regions )
{
	const pdContactDef* def = call->def;
	const pdiPairState* pair = call->pair;
	double tolerance = call->tolerance;
	regions->count = 0;
	regions->axis = pdiRotate( call->qB, pdiV3( 1.0, 0.0, 0.0 ) );
	call->deepMargin = fmax( 0.25 * def->contactDistance, 4.0 * tolerance );
	regions->band = call->supportBand;
	call->restDepth = fmax( 0.05 * def->contactDistance, 4.0 * tolerance );
	call->motion.linear = pair->motion;
	call->motion.rotation = pair->rotation;
	call->motion.pivot = pair->pivot;
	regions->motion = &call->motion;
	regions->impact = call->impact;
	regions->arrival = call->slow        ? 0.0
					   : regions->impact ? fmax( def->contactDistance, call->supportBand )
										 : fmax( 0.25 * def->contactDistance, call->supportBand );
	// A body that can close more than the contact distance this step gathers over its whole
	// reach; the cap keeps the closest pairs, which can all lie on the side that is nearest now
	// while a spinning body lands on its other side first: a wider cap for those.
	bool reaching = def->speculativeDistance > def->contactDistance && !call->slow;
	// With the step's motion known, speculative reach gathers only what that motion can close.
	call->moving = pdiDot( pair->motion, pair->motion ) > 0.0 || pdiDot( pair->rotation, pair->rotation ) > 0.0;
	call->maxFeatures = reaching && def->maxFeatures <= INT_MAX / 4 ? 4 * def->maxFeatures : def->maxFeatures;
	call->translation = pdiV3( 0.0, 0.0, 0.0 );
}

// How far apart every feature pair a gathering within reach left out is: the reach, or when
// the cap kept only the closest, the farthest kept one's distance; 0 after a failure.
static double pdiGatheredGap( pdStatus status, const pdContactFeature* features, int count, double reach )
{
	if ( status == PD_STATUS_OK )
	{
		return reach;
	}
	if ( status != PD_STATUS_FEATURE_LIMIT )
	{
		return 0.0;
	}
	double farthest = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		farthest = fmax( farthest, features[i].distance );
	}
	return fmin( farthest, reach );
}

// Regions from the feature pairs at the contact configuration A + d (moved; len = |d| of the
// PD). The local PDs carry a few points each, on the side that touches there. Feature pairs
// there with a gap g are penetrating by g - (d . n) at the input poses, so gathering up to
// |d| + contact distance gives every region that still overlaps (both sides of a ring resting
// on a ring) and its full extent.
static void pdiGatherAtContact( pdiCall* call, const pdTransform* moved, double len, bool resolved,
								pdiRegions* regions )
{
	const pdContactDef* def = call->def;
	const pdiPairState* pair = call->pair;
	double tolerance = call->tolerance;
	int count = 0;
	const pdContactFeature* features = NULL;
	pdVec3 approach = pdiScale( pdiNormalize( call->translation ), -1.0 );
	// Speculative margin: enough for the other side of a resting contact, small enough to
	// keep the gathering cheap.
	double restingMargin = fmin( def->contactDistance, 4.0 * tolerance + 0.5 * len );
	// ... and wide enough for parts of A that can arrive within this step.
	double margin = fmax( restingMargin, def->speculativeDistance );
	// A body that can move further than that this step gathers only the pairs its motion can
	// bring within the arrival band: a pair it cannot close gets no impulse, and a fast
	// tumbling body has hundreds of those within its reach.
	bool swept = call->moving && def->speculativeDistance > restingMargin;
	pdRigidMotion stepMotion = { pair->motion, pair->rotation, pdiAdd( pair->pivot, call->translation ) };
	double gatherMargin = swept ? fmax( restingMargin, regions->arrival ) : margin;
	double reach = fmin( len + gatherMargin, 0.25 * fmin( call->diagA, call->diagB ) );
	reach = fmax( reach, 4.0 * tolerance );
	pdStatus st = pdiGatherFeatures( call, moved, reach, swept ? &stepMotion : NULL, approach, call->maxFeatures,
									 &count, &features );
	if ( st < 0 )
	{
		return;
	}
	// Pairs not gathered were more than reach - len apart at the input poses; of those gathered,
	// the grouping drops the ones farther than its margin there: the nearest of both is the
	// hold's gap.
	double groupingMargin = fmax( margin, 4.0 * tolerance );
	call->holdGap = swept ? 0.0 : pdiGatheredGap( st, features, count, reach ) - len;
	for ( int i = 0; i < count; ++i )
	{
		double atInput = features[i].distance - pdiDot( call->translation, features[i].normal );
		if ( atInput > groupingMargin )
		{
			call->holdGap = fmin( call->holdGap, atInput );
		}
	}
	// The local PDs come from the pairs just gathered at A + d: the query's own pass over the
	// same configuration (within a smaller reach) would find the same ones again.
	if ( !resolved &&
		 pdiPlugin_ComputeLocalPenetrations( call->meshA, call->meshB, &call->pdef, features, count, &call->pr ) >= 0 )
	{
		pdiRegionsFromLocal( &call->pr, def->regionCosine, regions );
	}
	pdiPosedPair at = { call->meshA, *moved, call->meshB, *call->poseB };
	pdiGrouping grouping = { def->regionCosine, &call->translation, groupingMargin, 4.0 * tolerance, false, false };
	pdiGroupFeatures( &at, features, count, &grouping, regions );
	pdiFillThePush( &at, features, count, &grouping, regions );
}

// A penetrating pair: the PD (or its one-sided resolution) and the regions at A + PD; with
// nothing usable (e.g. only vertex-vertex touches), one point at the closest pair.
static void pdiGatherPenetrating( pdiCall* call, pdiRegions* regions )
{
	call->translation = pdiIsFiniteVec( call->pr.translation ) ? call->pr.translation : pdiV3( 0.0, 0.0, 0.0 );
	double len = pdiLength( call->translation ); // the PD's, also after a one-sided resolution
	bool resolved = pdiResolveOneSided( call );
	pdTransform moved = *call->poseA;
	moved.p = pdiAdd( call->poseA->p, call->translation );
	pdiGatherAtContact( call, &moved, len, resolved, regions );
	pdiDropEmptyRegions( regions );
	if ( regions->count == 0 )
	{
		call->holdGap = 0.0;
		pdDistanceResult dr;
		if ( pdComputeDistance( call->meshA, &moved, call->meshB, call->poseB, NULL, call->ws, &dr ) >= 0 && len > 0.0 )
		{
			pdiRegion* r = pdiNewRegion( regions, pdiNormalize( call->translation ), true );
			r->normalSum = r->normal;
			r->normalCount = 1;
			pdiAddPoint( r, dr.pointB, pdiV3( 0.0, 0.0, 0.0 ), -pdiDot( call->translation, r->normal ) );
		}
	}
	call->set->translation = call->translation;
	call->set->depth = pdiLength( call->translation );
	call->pair->hasFreePosition = true;
	call->pair->freePosition =
		pdiRotateInv( call->qB, pdiSub( pdiAdd( call->poseA->p, call->translation ), call->poseB->p ) );
}

// Regions from the feature pairs within range at the input poses; beyond the contact distance
// only what the step's motion can close counts. Returns the gathering's status.
static pdStatus pdiGatherNear( pdiCall* call, double range, pdiRegions* regions )
{
	const pdContactDef* def = call->def;
	const pdiPairState* pair = call->pair;
	int count = 0;
	const pdContactFeature* features = NULL;
	double closeRange = call->pr.state == PD_STATE_TOUCHING ? fmax( def->contactDistance, 4.0 * call->tolerance )
															: def->contactDistance;
	bool swept = call->moving && range > closeRange;
	pdRigidMotion stepMotion = { pair->motion, pair->rotation, pair->pivot };
	pdStatus st = PD_STATUS_OK;
	if ( call->confirmedApart )
	{
		// Gathered by the confirmation, exactly this call's (range = contactDistance, static).
		count = call->confirmedCount;
		features = call->confirmedFeatures;
	}
	else
	{
		st = pdiGatherFeatures( call, call->poseA, swept ? closeRange : range, swept ? &stepMotion : NULL,
								call->separatedApproach, call->maxFeatures, &count, &features );
	}
	// Every pair within the range is gathered and grouped: the range is the hold's gap (none
	// when only the motion's pairs were gathered).
	call->holdGap = swept ? 0.0 : pdiGatheredGap( st, features, count, range );
	if ( st < 0 )
	{
		call->set->status = st;
	}
	else if ( features != NULL )
	{
		if ( st > 0 && call->set->status == PD_STATUS_OK )
		{
			call->set->status = st;
		}
		pdiPosedPair at = { call->meshA, *call->poseA, call->meshB, *call->poseB };
		pdiGrouping grouping = { def->regionCosine, NULL, range, 4.0 * call->tolerance, false, false };
		pdiGroupFeatures( &at, features, count, &grouping, regions );
	}
	return st;
}

// A point at the surfaces' closest pair when it lies closer than `below`: the feature pairs
// (vertex-face, face-vertex, edge-edge) do not report vertex meeting vertex, as two icosphere
// poles facing each other do, and without it the pair reads the next patch's gap (no contact
// at all when nothing else is within range, or a speculative contact centimetres too far).
static void pdiAddCloserPair( pdiCall* call, double below, pdiRegions* regions )
{
	pdDistanceDef ddef = pdDefaultDistanceDef();
	ddef.upperBound = below;
	pdDistanceResult dr;
	if ( below > 0.0 &&
		 pdiPlugin_ComputeDistance( call->meshA, call->poseA, call->meshB, call->poseB, &ddef, true, call->ws, &dr ) >=
			 0 &&
		 !dr.stoppedAbove && dr.distance > 0.0 && dr.distance < below )
	{
		pdiAddClosestPair( regions, dr.pointA, dr.pointB, dr.distance, call->def->regionCosine );
	}
}

// The smallest gap a region point reads, or `range` when none is smaller.
static double pdiNearestPointGap( const pdiRegions* regions, double range )
{
	double nearest = range;
	for ( int i = 0; i < regions->count; ++i )
	{
		if ( regions->items[i].count > 0 )
		{
			nearest = fmin( nearest, regions->items[i].minDistance );
		}
	}
	return nearest;
}

// A separated or touching pair: regions from the pairs within its range; a separated pair
// with none proves a gap the next calls can skip on.
static void pdiGatherSeparated( pdiCall* call, pdiRegions* regions )
{
	double range = pdiSeparatedRange( call );
	if ( range > 0.0 && !call->apart )
	{
		pdStatus st = pdiGatherNear( call, range, regions );
		if ( regions->count == 0 && st >= 0 )
		{
			pdiAddCloserPair( call, range, regions );
		}
		else if ( st >= 0 && range > call->def->contactDistance && call->moving )
		{
			// Speculative contacts let the solver close exactly the gap they read: it must be
			// the surfaces' own (a bounded query: nothing is searched beyond the nearest point).
			pdiAddCloserPair( call, pdiNearestPointGap( regions, range ) - 4.0 * call->tolerance, regions );
		}
	}
	if ( !call->apart )
	{
		if ( call->pr.state == PD_STATE_SEPARATED && regions->count == 0 && call->set->status >= 0 )
		{
			pdiProveApart( call );
		}
		else
		{
			call->pair->apartValid = false;
		}
	}
	call->pair->hasFreePosition = true;
	call->pair->freePosition = pdiRotateInv( call->qB, pdiSub( call->poseA->p, call->poseB->p ) );
}

// The local path's translation (the deepest region's own push) and A's free position beyond it.
static void pdiEndLocal( pdiCall* call, const pdiRegions* regions )
{
	call->translation = pdiDeepestRegionPush( regions );
	call->set->translation = call->translation;
	call->set->depth = pdiLength( call->translation );
	call->pair->hasFreePosition = true;
	call->pair->freePosition =
		pdiRotateInv( call->qB, pdiSub( pdiAdd( call->poseA->p, call->translation ), call->poseB->p ) );
}

// What the next call starts from: the free side, the state and PD, and no motion hint.
static void pdiEndCall( pdiCall* call, pdVec3 sideSum )
{
	pdiPairState* pair = call->pair;
	pdiRememberFreeSide( call, sideSum );
	pair->lastState = call->pr.state;
	pair->lastTranslation = pdiRotateInv( call->qB, call->translation );
	pair->motion = pdiV3( 0.0, 0.0, 0.0 );
	pair->rotation = pdiV3( 0.0, 0.0, 0.0 );
}

pdStatus pdContactPair_Generate( pdContactPair* ioPair, const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							 const pdTransform* poseB, const pdContactDef* def, pdWorkspace* ioWorkspace,
							 pdContactManifoldSet* outSet )
{
	if ( outSet == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdiClearSet( outSet, PD_STATUS_OK );
	if ( ioPair == NULL || meshA == NULL || meshB == NULL || poseA == NULL || poseB == NULL || ioWorkspace == NULL )
	{
		outSet->status = PD_STATUS_INVALID_ARGUMENT;
		return outSet->status;
	}
	pdContactDef defaults = pdDefaultContactDef();
	if ( def == NULL )
	{
		def = &defaults;
	}
	pdStatus defStatus = pdiCheckDef( def );
	if ( defStatus != PD_STATUS_OK )
	{
		outSet->status = defStatus;
		return defStatus;
	}

	pdiCall call = { .pair = pdiPairStateOf( ioPair ),
					 .meshA = meshA,
					 .poseA = poseA,
					 .meshB = meshB,
					 .poseB = poseB,
					 .def = def,
					 .ws = ioWorkspace,
					 .set = outSet };
	pdiBeginCall( &call );
	if ( pdiAnswerFromHold( &call ) )
	{
		return outSet->status;
	}
	pdiRegions regions;
	pdiLocalOutcome local = PDI_LOCAL_ESCAPE;
	pdStatus status = pdiPenetrationOptionsFor( def, call.tolerance, &call.pdef );
	if ( status == PD_STATUS_OK )
	{
		pdiFindFreeSide( &call );
		pdiBeginRegions( &call, &regions );
		memset( &call.pr, 0, sizeof( call.pr ) );
		call.pr.state = PD_STATE_SEPARATED;
		call.localReach = call.apart ? 0.0 : pdiLocalReach( &call );
		if ( call.localReach > 0.0 )
		{
			local = pdiGatherLocal( &call, &regions );
			pdiPairStateOf( ioPair )->penetration.lastSeparated = local == PDI_LOCAL_APART;
		}
		if ( local == PDI_LOCAL_ESCAPE )
		{
			regions.count = 0;
			status = pdiQueryPenetration( &call );
			local = pdiLocalAfterArrival( &call, status, &regions );
		}
	}
	outSet->status = status;
	if ( status < 0 )
	{
		pdiPairStateOf( ioPair )->slotMask = 0;
		return status;
	}
	outSet->state = call.pr.state;
	outSet->local = local != PDI_LOCAL_ESCAPE;

	if ( local == PDI_LOCAL_ANSWERED )
	{
		// Regions built; the escape's and the separated path's gatherings are not needed.
	}
	else if ( call.pr.state == PD_STATE_PENETRATING )
	{
		pdiGatherPenetrating( &call, &regions );
	}
	else
	{
		pdiGatherSeparated( &call, &regions );
	}

	// Mean normals, stable slots (and held normals), then reduction to 4 points per region.
	pdiSettleNormals( &regions, local == PDI_LOCAL_ANSWERED ? PDI_LOCAL_REGION_COSINE : def->regionCosine,
					  call.translation );
	if ( local == PDI_LOCAL_ANSWERED )
	{
		pdiSettleLocalNormals( &regions );
	}
	int slotOfRegion[PDI_BUILD_REGIONS];
	pdiAssignSlots( call.pair, call.qB, def, &regions, slotOfRegion );
	pdVec3 sideSum = pdiWriteManifolds( &call, &regions, slotOfRegion );
	pdiSortManifolds( outSet );
	pdiDropCoveredPoints( &call );
	if ( local == PDI_LOCAL_ANSWERED )
	{
		pdiEndLocal( &call, &regions );
	}
	pdiMakeHold( &call );
	pdiEndCall( &call, sideSum );
	return outSet->status;
}
