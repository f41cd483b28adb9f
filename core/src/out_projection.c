// SPDX-License-Identifier: MIT
// PolyDepth out-projection: from a free configuration, the translational CCD toward a target
// finds the first contact configuration on the way; its contact features (gathered only for a
// contact the caller refines) fill the query's candidate feature slot.
#include "penetration_query.h"

pdStatus pdiQuery_ContactFeatures( pdiPdQuery* q, const pdTransform* poseA, double reach, pdVec3 approach, int* outCount,
								  const pdContactFeature** outFeatures )
{
	pdTransform poseB = pdiQuery_PoseB( q );
	pdContactFeatureDef def = pdiContactFeatureDefaults();
	def.reach = reach;
	def.approachDirection = approach;
	def.maxFeatures = PDI_MAX_PD_FEATURES;
	pdiGapProof noProof = { false, false, false, NULL };
	pdContactFeatureResult r;
	pdStatus status =
		pdiComputeContactFeatures( q->sc.meshA, poseA, q->sc.meshB, &poseB, &def, noProof, q->sc.ws, &r );
	*outCount = r.featureCount;
	*outFeatures = r.features;
	return status;
}

void pdiQuery_StoreFeatures( pdiPdQuery* q, int slot, const pdContactFeature* features, int count )
{
	if ( count > PDI_MAX_PD_FEATURES )
	{
		count = PDI_MAX_PD_FEATURES;
	}
	if ( count < 0 || features == NULL )
	{
		count = 0;
	}
	if ( count > 0 )
	{
		memcpy( q->features[slot], features, (size_t)count * sizeof( pdContactFeature ) );
	}
	q->featureCount[slot] = count;
}

bool pdiQuery_OutProjectEx( pdiPdQuery* q, pdVec3 from, pdVec3 to, bool knownFree, double acceptBelow,
						   pdVec3* outContact )
{
	pdTransform poseA = pdiQuery_PoseA( q, from );
	pdTransform poseB = pdiQuery_PoseB( q );
	pdCcdDef def = pdiCcdDefaults();
	def.contactTolerance = q->tol;
	def.maxFeatures = PDI_MAX_PD_FEATURES;
	def.useOrientationCulling = q->def->useOrientationCulling;
	bool sameRule = q->sc.containment || ( !q->sc.meshA->closed && !q->sc.meshB->closed );
	pdCcdResult r;
	pdStatus status = pdiCcd_Sweep( q->sc.meshA, &poseA, pdiAdd( q->sc.frameA.p, to ), q->sc.meshB, &poseB, &def,
								   q->sc.ws, knownFree && sameRule, false, &r );
	q->nodeVisits += r.nodeVisits;
	if ( status < 0 || !r.hit || r.startColliding || !pdiIsFiniteVec( r.contactPosition ) )
	{
		return false;
	}
	*outContact = pdiSub( r.contactPosition, q->sc.frameA.p );
	double length = pdiLength( *outContact );
	if ( length < acceptBelow && length > q->tol )
	{
		// Exactly the sweep's own gathering: the contact pose and the motion as approach.
		pdTransform contactPose = poseA;
		contactPose.p = r.contactPosition;
		int count = 0;
		const pdContactFeature* features = NULL;
		pdStatus fs = pdiQuery_ContactFeatures( q, &contactPose, q->tol, pdiSub( to, from ), &count, &features );
		if ( fs < 0 )
		{
			q->featureCount[1 - q->current] = 0;
			return false;
		}
		pdiQuery_StoreFeatures( q, 1 - q->current, features, count );
	}
	else
	{
		q->featureCount[1 - q->current] = 0;
	}
	return true;
}

bool pdiQuery_OutProject( pdiPdQuery* q, pdVec3 from, pdVec3 to, pdVec3* outContact )
{
	return pdiQuery_OutProjectEx( q, from, to, false, INFINITY, outContact );
}

// Features of the configuration x (A at most touching) into the candidate slot.
bool pdiQuery_GatherFeatures( pdiPdQuery* q, pdVec3 x )
{
	pdTransform poseA = pdiQuery_PoseA( q, x );
	int count = 0;
	const pdContactFeature* features = NULL;
	pdStatus status = pdiQuery_ContactFeatures( q, &poseA, q->tol, pdiNeg( x ), &count, &features );
	if ( status < 0 )
	{
		q->featureCount[1 - q->current] = 0;
		return false;
	}
	pdiQuery_StoreFeatures( q, 1 - q->current, features, count );
	return true;
}
