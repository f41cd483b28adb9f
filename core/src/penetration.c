// SPDX-License-Identifier: MIT
// PolyDepth (Je et al. 2012): translational penetration depth by iterative contact-space
// projection, started from many free configurations and pruned by the best bound so far. The
// driver: the def's defaults and validation, the classification of the pair (apart, touching,
// penetrating), the exact convex path, the loop over start candidates (each out-projected and
// refined by refine.c), the searches around the best answer, and the verified final answer
// with its local PDs and the cache update.
#include "penetration_query.h"

#include "proximity.h"
#include "sfog.h"
#include "workspace.h"

pdPenetrationSettings pdiPenetrationSettingsOf( pdPenetrationQuality quality )
{
	pdPenetrationSettings settings;
	memset( &settings, 0, sizeof( settings ) );
	settings.startStrategies = PD_START_ALL;
	settings.maxStarts = 12;
	settings.maxContactPlanes = 20;
	settings.maxLcpIterations = 100;
	// 512, of which an even 32 are sampled for pockets; the pd-random and pd-frontier pages
	// measure what the directions buy against their time.
	settings.randomDirections = 512;
	settings.randomSeed = 1;
	// A 29-degree cap around the best answer: a shorter basin beside the local optimum.
	settings.coneDirections = 128;
	settings.lineRefinement = true;
	settings.useOrientationPruning = false;
	settings.useOrientationCulling = true;
	settings.useConvexExactPath = true;
	settings.maxTrackedQueries = 8;
	if ( quality == PD_QUALITY_FAST )
	{
		// A simulation step asks for contact, not for the shortest of several deep basins:
		// pruning on, the starts' 32 pocket directions without the probes at the bound, no cone
		// search, and no tracking (the plugin keeps its own per-pair state).
		settings.useOrientationPruning = true;
		settings.randomDirections = 32;
		settings.coneDirections = 0;
		settings.maxTrackedQueries = 0;
	}
	settings.internalValue = PDI_SECRET_COOKIE;
	return settings;
}

pdPenetrationSettings pdDefaultPenetrationSettings( pdPenetrationQuality quality )
{
	return pdiPenetrationSettingsOf( quality );
}

static pdPenetrationDef pdiPenetrationDefDefaults( void )
{
	pdPenetrationDef def;
	memset( &def, 0, sizeof( def ) );
	def.contactTolerance = 0.0;
	def.timeBudgetMs = 0.0;
	def.maxIterations = 30;
	def.quality = PD_QUALITY_ACCURATE;
	def.closedAsSolid = true;
	def.settings = NULL;
	def.internalValue = PDI_SECRET_COOKIE;
	return def;
}

pdPenetrationDef pdDefaultPenetrationDef( void )
{
	return pdiPenetrationDefDefaults();
}

double pdiPairTolerance( const pdiPenetrationOptions* options, const pdMesh* meshA, const pdMesh* meshB )
{
	return options->contactTolerance > 0.0 ? options->contactTolerance : pdiDefaultContactTolerance( meshA, meshB );
}

static pdStatus pdiValidatePenetrationSettings( const pdPenetrationSettings* s )
{
	if ( s->internalValue != PDI_SECRET_COOKIE )
	{
		return PD_STATUS_DEF_NOT_INITIALIZED;
	}
	if ( s->maxStarts < 1 || s->maxStarts > 1024 || s->maxContactPlanes < 1 ||
		 s->maxContactPlanes > PDI_MAX_PD_FEATURES || s->maxLcpIterations < 1 || s->maxLcpIterations > 100000 )
	{
		return PD_STATUS_INVALID_DEF;
	}
	if ( s->randomDirections < 0 || s->randomDirections > 4096 || s->coneDirections < 0 ||
		 s->coneDirections > 4096 || ( s->startStrategies & ~(unsigned)PD_START_ALL ) || s->maxTrackedQueries < 0 ||
		 s->maxTrackedQueries > 100000 )
	{
		return PD_STATUS_INVALID_DEF;
	}
	return PD_STATUS_OK;
}

pdStatus pdiResolvePenetrationDef( const pdPenetrationDef* def, pdiPenetrationOptions* outOptions )
{
	memset( outOptions, 0, sizeof( *outOptions ) );
	pdPenetrationDef defaults = pdiPenetrationDefDefaults();
	if ( def == NULL )
	{
		def = &defaults;
	}
	if ( def->internalValue != PDI_SECRET_COOKIE )
	{
		return PD_STATUS_DEF_NOT_INITIALIZED;
	}
	if ( !isfinite( def->contactTolerance ) || !isfinite( def->timeBudgetMs ) || def->timeBudgetMs < 0.0 ||
		 def->maxIterations < 1 || def->maxIterations > 100000 ||
		 ( def->quality != PD_QUALITY_ACCURATE && def->quality != PD_QUALITY_FAST ) )
	{
		return PD_STATUS_INVALID_DEF;
	}
	pdPenetrationSettings preset = pdiPenetrationSettingsOf( def->quality );
	const pdPenetrationSettings* s = def->settings != NULL ? def->settings : &preset;
	pdStatus status = pdiValidatePenetrationSettings( s );
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	outOptions->contactTolerance = def->contactTolerance;
	outOptions->timeBudgetMs = def->timeBudgetMs;
	outOptions->maxIterations = def->maxIterations;
	outOptions->closedAsSolid = def->closedAsSolid;
	outOptions->startStrategies = s->startStrategies;
	outOptions->maxStarts = s->maxStarts;
	outOptions->maxContactPlanes = s->maxContactPlanes;
	outOptions->maxLcpIterations = s->maxLcpIterations;
	outOptions->randomDirections = s->randomDirections;
	outOptions->randomSeed = s->randomSeed;
	outOptions->coneDirections = s->coneDirections;
	outOptions->lineRefinement = s->lineRefinement;
	outOptions->useOrientationPruning = s->useOrientationPruning;
	outOptions->useOrientationCulling = s->useOrientationCulling;
	outOptions->useConvexExactPath = s->useConvexExactPath;
	outOptions->maxTrackedQueries = s->maxTrackedQueries;
	outOptions->computeLocalPenetrations = true;
	outOptions->computeLowerBound = true;
	return PD_STATUS_OK;
}

// The ring's count and position are in range (a caller's cache may hold anything).
static bool pdiCache_InRange( const pdPenetrationCache* cache )
{
	return cache->count >= 0 && cache->count <= 3 && cache->next >= 0 && cache->next <= 2;
}

static void pdiUpdateCache( pdiPdQuery* q, pdPenetrationCache* cache, pdVec3 x, bool tracked )
{
	if ( cache == NULL )
	{
		return;
	}
	bool sane = pdiCache_InRange( cache );
	for ( int i = 0; sane && i < cache->count; ++i )
	{
		sane = pdiIsFiniteVec( cache->configurations[i] );
	}
	if ( !sane )
	{
		memset( cache, 0, sizeof( *cache ) );
	}
	cache->trackedQueries = tracked ? cache->trackedQueries + 1 : 0;
	pdVec3 rel = pdiFrameApplyInverse( &q->sc.frameB, pdiAdd( q->sc.frameA.p, x ) );
	for ( int i = 0; i < cache->count; ++i )
	{
		if ( pdiDistanceSq( cache->configurations[i], rel ) <= 1e-18 * q->scale * q->scale )
		{
			return;
		}
	}
	cache->configurations[cache->next] = rel;
	cache->relativeRotation[cache->next] = pdiQuatMul( pdiQuatConj( q->sc.rotationB ), q->sc.rotationA );
	cache->next = ( cache->next + 1 ) % 3;
	if ( cache->count < 3 )
	{
		cache->count += 1;
	}
}

static pdQuat pdiUnitQuat( pdQuat q )
{
	double n = sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
	pdQuat r = { q.w / n, q.x / n, q.y / n, q.z / n };
	return r;
}

static pdStatus pdiFinish( pdPenetrationResult* out, pdStatus status, double startMs )
{
	out->status = status;
	out->elapsedMs = pdiNowMs() - startMs;
	return status;
}

static pdStatus pdiFail( pdPenetrationResult* out, pdStatus status, double startMs )
{
	memset( out, 0, sizeof( *out ) );
	return pdiFinish( out, status, startMs );
}

pdStatus pdiQuery_Begin( pdiPdQuery* q, const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
						const pdTransform* poseB, const pdiPenetrationOptions* def, pdWorkspace* ws, double startMs )
{
	pdStatus status = pdiMakeFrame( poseA, &q->sc.frameA );
	if ( status == PD_STATUS_OK )
	{
		status = pdiMakeFrame( poseB, &q->sc.frameB );
	}
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	q->sc.meshA = meshA;
	q->sc.meshB = meshB;
	q->sc.rotationA = pdiUnitQuat( poseA->q );
	q->sc.rotationB = pdiUnitQuat( poseB->q );
	q->sc.containment = def->closedAsSolid && meshA->closed && meshB->closed;
	q->sc.ws = ws;
	q->def = def;
	q->scale = pdiPairScale( meshA, meshB );
	q->tol = pdiPairTolerance( def, meshA, meshB );
	q->sc.tolerance = q->tol;
	q->deadline = def->timeBudgetMs > 0.0 ? startMs + def->timeBudgetMs : INFINITY;

	if ( !pdiBuffer_Reserve( &ws->pdiFeatures, 2 * PDI_MAX_PD_FEATURES * sizeof( pdContactFeature ), false ) ||
		 !pdiBuffer_Reserve( &ws->pdiPlanes, 2 * PDI_MAX_PD_FEATURES * sizeof( pdiContactPlane ), false ) ||
		 !pdiBuffer_Reserve( &ws->pdiScratch, PDI_MAX_PD_FEATURES * sizeof( double ), false ) )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	q->features[0] = ws->pdiFeatures.data;
	q->features[1] = q->features[0] + PDI_MAX_PD_FEATURES;
	q->planes = ws->pdiPlanes.data;
	q->memory = q->planes + PDI_MAX_PD_FEATURES;
	q->lambda = ws->pdiScratch.data;
	return PD_STATUS_OK;
}

// Convex pairs: the exact answer from the orientation-graph overlay, offered as the bound when
// a padding of it is free. True when it was.
static bool pdiQuery_ConvexExact( pdiPdQuery* q )
{
	const pdMesh* meshA = q->sc.meshA;
	const pdMesh* meshB = q->sc.meshB;
	if ( !q->def->useConvexExactPath || !meshA->convex || !meshB->convex )
	{
		return false;
	}
	bool exact = false;
	pdVec3 t;
	double depth = 0.0;
	int candidates = 0;
	if ( pdiSfog_ConvexPenetration( meshA, &q->sc.frameA, meshB, &q->sc.frameB, q->sc.ws, &t, &depth, &candidates ) ==
			 PD_STATUS_OK &&
		 pdiIsFiniteVec( t ) && pdiLength( t ) > 0.0 )
	{
		// Exactly touching: keep a small gap so the answer is not colliding.
		pdVec3 u = pdiNormalize( t );
		for ( int k = 0; k < 4 && !exact; ++k )
		{
			pdVec3 padded = pdiMulAdd( t, ( 0.05 + 0.5 * k ) * q->tol, u );
			if ( !pdiStart_Collides( &q->sc, padded ) )
			{
				pdiQuery_Offer( q, padded, 0, -1.0 );
				exact = true;
			}
		}
	}
	return exact;
}

// A cached contact configuration (motion coherence) is usually still one, or within a fraction
// of a millimetre of one: one traversal says whether it is free and within the tolerance of
// touching, with its features (*outGathered: it is the start's contact, and the out-projection,
// a collision check, a sweep and a gathering, is not needed). Sunk a little since, the push's
// first step is classified the same way and, free, stands for the cached point (*ioCandidate
// then points at *outPushed). Returns the classification of the candidate's own point.
static pdiStartGap pdiQuery_TryCachedContact( pdiPdQuery* q, const pdiStartCandidate** ioCandidate,
											pdiStartCandidate* outPushed, double limit, pdVec3* outContact,
											double* outGap, bool* outGathered )
{
	const pdiStartCandidate* candidate = *ioCandidate;
	double cachedLength = pdiLength( candidate->translation );
	if ( candidate->strategy != PD_START_COHERENCE || candidate->direction || !( cachedLength < limit ) )
	{
		return PDI_START_GAP_UNKNOWN;
	}
	*outContact = candidate->translation;
	pdiStartGap atPoint = pdiQuery_ClassifyGathering( q, *outContact, outGap, outGathered );
	if ( atPoint == PDI_START_GAP_COLLIDING && cachedLength > 0.0 )
	{
		pdVec3 pushed =
			pdiMulAdd( candidate->translation, pdiStart_FirstPush( &q->sc ) / cachedLength, candidate->translation );
		if ( pdiLength( pushed ) < limit &&
			 pdiQuery_ClassifyGathering( q, pushed, outGap, outGathered ) == PDI_START_GAP_FREE )
		{
			*outPushed = *candidate;
			outPushed->translation = pushed;
			*ioCandidate = outPushed;
			atPoint = PDI_START_GAP_FREE;
			*outContact = pushed;
		}
	}
	return atPoint;
}

// One start: the candidate made free and out-projected toward o (or its cached contact taken
// as it is), then refined when its contact beats the best bound. True when it was refined.
static bool pdiQuery_RunStart( pdiPdQuery* q, const pdiStartCandidate* candidate )
{
	double bound = q->haveBest ? q->bestLength : INFINITY;
	double accept = q->haveBest ? q->bestLength - pdiQuery_Epsilon( q, q->bestLength ) : INFINITY;
	pdVec3 contact;
	double contactGap = -1.0;
	bool gathered = false;
	pdiStartCandidate pushedCandidate;
	double limit = pdiStart_Limit( &q->sc, bound );
	pdiStartGap atPoint =
		pdiQuery_TryCachedContact( q, &candidate, &pushedCandidate, limit, &contact, &contactGap, &gathered );
	if ( !gathered )
	{
		pdVec3 start;
		contactGap = -1.0;
		if ( !pdiStart_MakeFreeKnowing( &q->sc, candidate, bound, q->def->lineRefinement, atPoint, &start ) )
		{
			return false;
		}
		if ( !pdiQuery_OutProjectEx( q, start, pdiV3( 0.0, 0.0, 0.0 ), true, accept, &contact ) )
		{
			return false;
		}
	}
	if ( q->haveBest && !( pdiLength( contact ) < accept ) )
	{
		return false;
	}
	pdiQuery_Accept( q );
	pdiQuery_Offer( q, contact, 0, contactGap );
	pdiQuery_Refine( q, contact );
	return true;
}

// Nothing proposed or nothing worked: back off along the centroid difference past the enclosing
// spheres (free by construction), then out-project once. Returns the starts it made (0 or 1).
static int pdiQuery_FallbackStart( pdiPdQuery* q )
{
	pdVec3 cA = pdiFrameApply( &q->sc.frameA, q->sc.meshA->centroid );
	pdVec3 cB = pdiFrameApply( &q->sc.frameB, q->sc.meshB->centroid );
	pdVec3 u = pdiNormalize( pdiSub( cA, cB ) );
	if ( pdiLengthSq( u ) < 0.25 )
	{
		u = pdiV3( 1.0, 0.0, 0.0 );
	}
	pdVec3 far = pdiScale( u, pdiStart_SeparationDistance( &q->sc, u ) );
	pdVec3 contact;
	if ( pdiQuery_OutProject( q, far, pdiV3( 0.0, 0.0, 0.0 ), &contact ) )
	{
		pdiQuery_Accept( q );
		pdiQuery_Offer( q, contact, 0, -1.0 );
		return 1;
	}
	pdiQuery_Offer( q, far, 0, -1.0 );
	return 0;
}

// The starts proposed for the pair (seeded by the intersecting triangle pairs) and the PolyDepth
// iteration from each, pruned by the best bound; then the searches around the best answer.
// Returns the starts refined.
static int pdiQuery_RunStarts( pdiPdQuery* q, pdPenetrationCache* ioCache, const pdCollideResult* collide )
{
	const pdiPenetrationOptions* def = q->def;
	int starts = 0;
	const pdiStartCandidate* candidates = NULL;
	int candidateCount = pdiProposeStarts( &q->sc, def->startStrategies, ioCache, collide->pairs, collide->pairCount,
										  def->randomDirections, def->randomSeed, &candidates );
	for ( int i = 0; i < candidateCount && starts < def->maxStarts; ++i )
	{
		// At least one start always runs, so even a tiny budget returns a real contact.
		if ( pdiQuery_Settled( q ) || ( q->haveBest && pdiQuery_OutOfTime( q ) ) )
		{
			break;
		}
		if ( pdiQuery_RunStart( q, candidates + i ) )
		{
			starts += 1;
		}
	}

	// Basins beside the best answer, then a pattern search on its direction: the contact space iteration
	// stalls at vertex-vertex and parallel-edge contacts of tessellated curved surfaces.
	starts += pdiQuery_ConeSearch( q, def->coneDirections, def->maxStarts - starts );
	starts += pdiQuery_DirectionSearch( q, def->maxStarts - starts );

	if ( !q->haveBest )
	{
		starts += pdiQuery_FallbackStart( q );
	}
	return starts;
}

// A cached contact configuration is tracked only while the relative rotation stays within this
// angle (radians, about 6 degrees) of the one it was found under: turned farther, the contact
// space itself has moved, and the tracked basin is no longer the shortest (docs/experiments.md,
// motion coherence).
#define PDI_TRACK_MAX_TURN 0.1

// True when motion coherence answers the query by tracking the newest cached contact
// configuration (pdPenetrationSettings.maxTrackedQueries), with its ring slot in *outSlot.
static bool pdiQuery_CanTrack( const pdiPdQuery* q, const pdPenetrationCache* cache, int* outSlot )
{
	const pdiPenetrationOptions* def = q->def;
	if ( cache == NULL || !( def->startStrategies & PD_START_COHERENCE ) || !pdiCache_InRange( cache ) ||
		 cache->count < 1 || cache->trackedQueries >= (unsigned)def->maxTrackedQueries )
	{
		return false;
	}
	int slot = ( cache->next + 2 ) % 3;
	pdQuat now = pdiQuatMul( pdiQuatConj( q->sc.rotationB ), q->sc.rotationA );
	pdQuat then = cache->relativeRotation[slot];
	double dot = fabs( now.w * then.w + now.x * then.x + now.y * then.y + now.z * then.z );
	if ( !isfinite( dot ) || !pdiIsFiniteVec( cache->configurations[slot] ) )
	{
		return false;
	}
	*outSlot = slot;
	return 2.0 * acos( fmin( 1.0, dot ) ) <= PDI_TRACK_MAX_TURN;
}

// Motion coherence: the cached contact configuration in `slot`, carried to this query's frames,
// refined as the only start, then the searches around its answer. The cone search with a
// quarter of its directions is what keeps the answers as short as the full search's: the basin
// tracked drifts, and one beside it can become the shorter (the local refinement alone is
// measured in docs/experiments.md, motion coherence). Returns the starts refined; none when the
// cached contact gave no bound.
static int pdiQuery_Track( pdiPdQuery* q, const pdPenetrationCache* cache, int slot )
{
	pdiStartCandidate candidate;
	memset( &candidate, 0, sizeof( candidate ) );
	pdVec3 world = pdiFrameApply( &q->sc.frameB, cache->configurations[slot] );
	candidate.translation = pdiSub( world, q->sc.frameA.p );
	candidate.strategy = PD_START_COHERENCE;
	candidate.priority = true;
	if ( !pdiQuery_RunStart( q, &candidate ) )
	{
		return 0;
	}
	int starts = 1;
	starts += pdiQuery_ConeSearch( q, q->def->coneDirections / 4, q->def->maxStarts - starts );
	starts += pdiQuery_DirectionSearch( q, q->def->maxStarts - starts );
	return starts;
}

// The answer: the best bound verified free, then tightened toward o so that the gap left by
// the out-projection does not count against the depth.
static pdVec3 pdiQuery_FinalAnswer( pdiPdQuery* q )
{
	pdVec3 answer = q->best;
	pdVec3 u = pdiNormalize( answer );
	if ( pdiLengthSq( u ) < 0.25 )
	{
		u = pdiV3( 1.0, 0.0, 0.0 );
	}
	// An answer where an in-projection landed in contact was already proven free with its gap
	// measured exactly: the same check again would give the same distance.
	double gap = q->bestGap;
	bool valid = gap > 0.0;
	if ( !valid )
	{
		// Out-projected answers stop about tol/2 short of touching; a bound well above that
		// keeps the distance search short, and an answer farther out is tightened from it.
		valid = pdiStart_FreeGap( &q->sc, answer, 16.0 * q->tol, &gap );
	}
	for ( int k = 1; k <= 8 && !valid; ++k )
	{
		answer = pdiMulAdd( q->best, k * q->tol, u );
		valid = pdiStart_FreeGap( &q->sc, answer, 16.0 * q->tol, &gap );
	}
	if ( !valid )
	{
		return pdiScale( u, pdiStart_SeparationDistance( &q->sc, u ) );
	}
	double pull = gap - 0.05 * q->tol;
	if ( pull > 0.0 && pull < pdiLength( answer ) )
	{
		// Moving by less than the gap (a lower bound on the distance) cannot make the
		// surfaces meet, nor put one solid inside the other: free without another check.
		answer = pdiMulAdd( answer, -pull, u );
	}
	return answer;
}

pdStatus pdiComputePenetration( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
								const pdTransform* poseB, const pdiPenetrationOptions* def, pdPenetrationCache* ioCache,
								pdWorkspace* ioWorkspace, pdPenetrationResult* outResult )
{
	double startMs = pdiNowMs();
	memset( outResult, 0, sizeof( *outResult ) );
	if ( !pdiIsValidMesh( meshA ) || !pdiIsValidMesh( meshB ) )
	{
		return pdiFail( outResult, PD_STATUS_INVALID_MESH, startMs );
	}
	if ( !pdiIsValidWorkspace( ioWorkspace ) || poseA == NULL || poseB == NULL )
	{
		return pdiFail( outResult, PD_STATUS_INVALID_ARGUMENT, startMs );
	}
	pdStatus status;
	pdiPdQuery q;
	memset( &q, 0, sizeof( q ) );
	status = pdiQuery_Begin( &q, meshA, poseA, meshB, poseB, def, ioWorkspace, startMs );
	if ( status != PD_STATUS_OK )
	{
		return pdiFail( outResult, status, startMs );
	}

	// 1. Apart, touching or colliding (classify.c); the intersecting pairs seed the starts.
	// A tracked query needs no start seeds: the collision check stops at the first intersection.
	pdCollideResult collide;
	bool classified = false;
	int trackSlot = -1;
	bool track = pdiQuery_CanTrack( &q, ioCache, &trackSlot );
	status = pdiQuery_ClassifyPair( &q, poseA, poseB, ioCache, !track, &collide, outResult, &classified );
	if ( status < 0 )
	{
		return pdiFail( outResult, status, startMs );
	}
	if ( classified )
	{
		return pdiFinish( outResult, PD_STATUS_OK, startMs );
	}

	// 2. Convex pairs: the exact answer. 3-4. Otherwise the cached contact tracked, or the starts
	// and the iteration from each.
	int starts = 0;
	bool tracked = false;
	if ( !pdiQuery_ConvexExact( &q ) )
	{
		if ( track )
		{
			starts = pdiQuery_Track( &q, ioCache, trackSlot );
			tracked = q.haveBest;
		}
		if ( !tracked )
		{
			if ( track )
			{
				// The classification stopped at the first intersection: the starts want the pairs.
				status = pdiQuery_Collide( &q, poseA, poseB, true, &collide );
				if ( status < 0 )
				{
					return pdiFail( outResult, status, startMs );
				}
			}
			starts += pdiQuery_RunStarts( &q, ioCache, &collide );
		}
	}

	// 5. The answer, verified free and tightened toward o.
	pdVec3 answer = pdiQuery_FinalAnswer( &q );
	outResult->state = PD_STATE_PENETRATING;
	outResult->translation = answer;
	outResult->depth = pdiLength( answer );
	outResult->lowerBound =
		def->computeLowerBound
			? fmin( pdiPenetrationLowerBound( meshA, &q.sc.frameA, meshB, &q.sc.frameB, ioWorkspace ),
					outResult->depth )
			: 0.0;
	outResult->iterations = q.iterations;
	outResult->starts = starts;
	outResult->tracked = tracked;
	outResult->contactPlaneCount = q.bestPlanes;

	// 6. Local PDs.
	if ( def->computeLocalPenetrations )
	{
		pdiQuery_LocalPenetrations( &q, answer, outResult );
	}

	// 7. Motion coherence.
	pdiUpdateCache( &q, ioCache, answer, tracked );
	if ( ioCache != NULL )
	{
		ioCache->lastSeparated = false;
	}

	outResult->nodeVisits = q.nodeVisits + q.sc.nodeVisits;
	pdStatus final = PD_STATUS_OK;
	if ( q.timeUp )
	{
		final = PD_STATUS_TIME_LIMIT;
	}
	else if ( q.iterationLimit )
	{
		final = PD_STATUS_ITERATION_LIMIT;
	}
	return pdiFinish( outResult, final, startMs );
}

pdStatus pdComputePenetration( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							   const pdTransform* poseB, const pdPenetrationDef* def, pdPenetrationCache* ioCache,
							   pdWorkspace* ioWorkspace, pdPenetrationResult* outResult )
{
	if ( outResult == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	double startMs = pdiNowMs();
	pdiPenetrationOptions options;
	pdStatus status = pdiResolvePenetrationDef( def, &options );
	if ( status != PD_STATUS_OK )
	{
		return pdiFail( outResult, status, startMs );
	}
	return pdiComputePenetration( meshA, poseA, meshB, poseB, &options, ioCache, ioWorkspace, outResult );
}
