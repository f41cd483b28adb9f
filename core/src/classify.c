// SPDX-License-Identifier: MIT
// PolyDepth classification of a configuration by a static proximity query: colliding, free in
// contact (within the tolerance, with its contact features from the same traversal) or free
// apart; and the apart classification of a pair (no two triangles within the tolerance, no
// solid inside the other), with the gathering that confirms it.
#include "penetration_query.h"

#include "proximity.h"

pdiStartGap pdiQuery_ClassifyGathering( pdiPdQuery* q, pdVec3 x, double* outGap, bool* outGathered )
{
	*outGathered = false;
	int count = 0;
	const pdContactFeature* features = NULL;
	pdiStartGap verdict =
		pdiStart_FreeGapGathering( &q->sc, x, pdiNeg( x ), PDI_MAX_PD_FEATURES, outGap, &count, &features );
	if ( verdict == PDI_START_GAP_FREE && *outGap <= q->tol )
	{
		pdiQuery_StoreFeatures( q, 1 - q->current, features, count );
		*outGathered = true;
	}
	return verdict;
}

bool pdiQuery_FreeGapGathering( pdiPdQuery* q, pdVec3 x, double* outGap, bool* outGathered )
{
	pdiStartGap verdict = pdiQuery_ClassifyGathering( q, x, outGap, outGathered );
	if ( verdict == PDI_START_GAP_UNKNOWN )
	{
		return pdiStart_FreeGap( &q->sc, x, q->tol, outGap );
	}
	return verdict == PDI_START_GAP_FREE;
}

pdStatus pdiQuery_ApartByTolerance( pdiPdQuery* q, const pdTransform* poseA, const pdTransform* poseB,
								   bool checkContainment, bool* outApart )
{
	pdContactFeatureDef def = pdiContactFeatureDefaults();
	def.reach = q->tol;
	def.maxFeatures = 0;
	def.gap = q->tol;
	pdiGapProof proof = { .stopWithinGap = true, .checkContainment = checkContainment };
	pdContactFeatureResult r;
	pdStatus status = pdiComputeContactFeatures( q->sc.meshA, poseA, q->sc.meshB, poseB, &def, proof, q->sc.ws, &r );
	*outApart = r.apart;
	q->nodeVisits += r.nodeVisits;
	return status;
}

pdStatus pdiQuery_Collide( pdiPdQuery* q, const pdTransform* poseA, const pdTransform* poseB, bool reportPairs,
						  pdCollideResult* outCollide )
{
	pdCollideDef collideDef = pdiCollideDefaults();
	collideDef.reportAllPairs = reportPairs;
	collideDef.maxPairs = 256;
	collideDef.checkContainment = q->sc.containment;
	pdStatus status = pdiCollide( q->sc.meshA, poseA, q->sc.meshB, poseB, &collideDef, q->sc.ws, outCollide );
	q->nodeVisits += outCollide->nodeVisits;
	return status;
}

pdStatus pdiQuery_ClassifyPair( pdiPdQuery* q, const pdTransform* poseA, const pdTransform* poseB,
							   pdPenetrationCache* ioCache, bool reportPairs, pdCollideResult* outCollide,
							   pdPenetrationResult* out, bool* outClassified )
{
	*outClassified = false;
	// A pair the last query found apart (a resting pair a skin apart, every step) is most likely
	// still apart: one traversal proves that no two triangles lie within the tolerance (the culls
	// of the feature gathering at the tolerance, then the exact triangle distance; it stops at
	// the first pair within), without the collision check below, which visits every overlapping
	// box pair when nothing intersects. The classification is the same as the tolerance-bounded
	// distance query's (containment is checked as pdCollide checks it); any other outcome takes
	// the full path.
	if ( ioCache != NULL && ioCache->lastSeparated )
	{
		bool apart = false;
		pdStatus status = pdiQuery_ApartByTolerance( q, poseA, poseB, q->sc.containment, &apart );
		if ( status < 0 )
		{
			return status;
		}
		if ( apart )
		{
			out->state = PD_STATE_SEPARATED;
			out->nodeVisits = q->nodeVisits;
			*outClassified = true;
			return PD_STATUS_OK;
		}
	}

	// Colliding at all?
	pdStatus status = pdiQuery_Collide( q, poseA, poseB, reportPairs, outCollide );
	if ( status < 0 || outCollide->colliding )
	{
		return status;
	}
	// Touching or apart: a pair within the tolerance is touching (the same proof as above,
	// which decides exactly what a distance query bounded by the tolerance would).
	bool apart = false;
	status = pdiQuery_ApartByTolerance( q, poseA, poseB, false, &apart );
	if ( status < 0 )
	{
		return status;
	}
	out->state = apart ? PD_STATE_SEPARATED : PD_STATE_TOUCHING;
	if ( ioCache != NULL )
	{
		ioCache->lastSeparated = out->state == PD_STATE_SEPARATED;
	}
	out->nodeVisits = q->nodeVisits;
	*outClassified = true;
	return PD_STATUS_OK;
}
