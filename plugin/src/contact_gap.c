// SPDX-License-Identifier: MIT
// Proven gaps: calls that skip the queries because a pair cannot have come within reach (a
// gap proven earlier and not used up by the motion since), the one-traversal confirmation of a
// pair the last query found apart, and the gap proofs that decide how far a separated pair
// gathers.
#include "contact_internal.h"

// Farthest any point of the mesh lies from its frame's origin (its pose's rotation centre).
static double pdiOriginReach( const pdMesh* mesh )
{
	pdMeshInfo info = pdMesh_GetInfo( mesh );
	pdVec3 lo = info.boundsMin, hi = info.boundsMax;
	double x = fmax( fabs( lo.x ), fabs( hi.x ) ), y = fmax( fabs( lo.y ), fabs( hi.y ) ),
		   z = fmax( fabs( lo.z ), fabs( hi.z ) );
	return sqrt( x * x + y * y + z * z );
}

void pdiRelativePose( const pdTransform* poseA, const pdTransform* poseB, pdVec3* outPosition, pdQuat* outRotation )
{
	pdQuat qA = pdiSafeUnitQuat( poseA->q ), qB = pdiSafeUnitQuat( poseB->q );
	*outPosition = pdiRotateInv( qB, pdiSub( poseA->p, poseB->p ) );
	*outRotation = pdiQuatMul( pdiQuatConj( qB ), qA );
}

// The origin's displacement plus the rotation's chord at A's reach, |R p - R0 p| <= 2 sin(angle / 2) |p|.
double pdiMovedSince( pdVec3 position, pdQuat rotation, const pdMesh* meshA, const pdTransform* poseA,
					  const pdTransform* poseB )
{
	pdVec3 p;
	pdQuat q;
	pdiRelativePose( poseA, poseB, &p, &q );
	pdQuat dq = pdiQuatMul( q, pdiQuatConj( rotation ) );
	double s = sqrt( dq.x * dq.x + dq.y * dq.y + dq.z * dq.z ); // sin(angle / 2)
	double moved = pdiLength( pdiSub( p, position ) ) + 2.0 * fmin( s, 1.0 ) * pdiOriginReach( meshA );
	return isfinite( moved ) ? moved : INFINITY;
}

void pdiSetProofMeshes( pdiCall* call )
{
	pdiPairState* pair = call->pair;
	if ( pair->proofMeshA != call->meshA || pair->proofMeshB != call->meshB )
	{
		pair->apartValid = false;
		pair->holdValid = false;
		pair->proofMeshA = call->meshA;
		pair->proofMeshB = call->meshB;
	}
}

// True when the pair's proven gap, less how far A can have moved since, is still wider than
// any contact reaches: exactly what the queries would find.
bool pdiStillApart( const pdiCall* call )
{
	const pdiPairState* pair = call->pair;
	if ( !( pair->apartValid && pair->proofMeshA == call->meshA && pair->proofMeshB == call->meshB ) )
	{
		return false;
	}
	return pair->apartBound -
			   pdiMovedSince( pair->apartPosition, pair->apartRotation, call->meshA, call->poseA, call->poseB ) >
		   call->contactReach;
}

// A pair the last query found apart, gathering over the contact distance only (nothing
// speculative beyond it): one traversal gathers those contacts and confirms the pair still
// apart, the classification the PD query would make, without that query's own traversals
// over the same near box pairs. Anything else takes the query: asking it of every pair, or of
// those not penetrating last step, costs more than it saves, since most of them still touch
// (docs/experiments.md).
void pdiConfirmApart( pdiCall* call )
{
	const pdContactDef* def = call->def;
	const pdiPairState* pair = call->pair;
	call->confirmedApart = false;
	call->confirmedCount = 0;
	call->confirmedFeatures = NULL;
	if ( !call->apart && pair->penetration.lastSeparated && def->contactDistance >= call->tolerance &&
		 !( def->speculativeDistance > def->contactDistance ) )
	{
		// The PD query's own test for a separated pair (no two triangles within the contact
		// tolerance, neither closed solid inside the other), with the features within the
		// contact distance from the same traversal; the pair's cache already says apart.
		pdContactFeatureDef gather = pdDefaultContactFeatureDef();
		gather.reach = def->contactDistance;
		gather.approachDirection = call->separatedApproach;
		gather.maxFeatures = def->maxFeatures;
		gather.gap = call->tolerance;
		pdiGapProof proof = { .stopWithinGap = true, .checkContainment = call->pdef.closedAsSolid };
		pdContactFeatureResult r;
		if ( pdiPlugin_ComputeContactFeatures( call->meshA, call->poseA, call->meshB, call->poseB, &gather, proof,
											   call->ws, &r ) >= 0 &&
			 r.apart )
		{
			call->confirmedApart = true;
			call->confirmedCount = r.featureCount;
			call->confirmedFeatures = r.features;
		}
	}
}

// How far a separated or touching pair gathers: the contact distance (at least the tolerance
// band when touching). A pair that can close more than the contact distance this step gets a
// gap proof at the speculative reach (yes or no, cheaper than a distance query bounded by it):
// nothing within reach gives 0 (no contacts; a failed proof gives none either), else the reach,
// and a second proof at the contact distance says whether those contacts are speculative.
double pdiSeparatedRange( pdiCall* call )
{
	const pdContactDef* def = call->def;
	bool touchingState = call->pr.state == PD_STATE_TOUCHING;
	double range = def->contactDistance;
	if ( touchingState )
	{
		range = fmax( range, 4.0 * call->tolerance );
	}
	else if ( def->speculativeDistance > range && !call->apart )
	{
		bool beyondReach = false, beyondContact = false;
		pdStatus ds = pdiProveGap( call, def->speculativeDistance, &beyondReach );
		if ( ds < 0 || beyondReach )
		{
			range = 0.0;
		}
		else
		{
			call->set->speculative = pdiProveGap( call, range, &beyondContact ) >= 0 && beyondContact;
			range = def->speculativeDistance;
		}
	}
	if ( touchingState )
	{
		range = fmax( range, def->speculativeDistance );
	}
	return range;
}

// Nothing within reach: proves a gap half a reach wider once, and the next calls skip every
// query until A has moved relative to B by the margin it leaves. A gap proof is a yes or no,
// cheaper than a bounded distance query (docs/experiments.md).
void pdiProveApart( pdiCall* call )
{
	pdiPairState* pair = call->pair;
	bool beyondProof = false;
	double proof = 1.5 * call->contactReach;
	if ( pdiProveGap( call, proof, &beyondProof ) >= 0 && beyondProof )
	{
		pdiSetProofMeshes( call );
		pair->apartValid = true;
		pair->apartBound = proof;
		pdiRelativePose( call->poseA, call->poseB, &pair->apartPosition, &pair->apartRotation );
	}
}

pdStatus pdiGatherFeatures( const pdiCall* call, const pdTransform* poseA, double reach, const pdRigidMotion* motion,
							pdVec3 approach, int maxFeatures, int* outCount, const pdContactFeature** outFeatures )
{
	pdContactFeatureDef gather = pdDefaultContactFeatureDef();
	gather.reach = reach;
	gather.approachDirection = approach;
	gather.maxFeatures = maxFeatures;
	gather.motion = motion;
	pdContactFeatureResult r;
	pdStatus status = pdComputeContactFeatures( call->meshA, poseA, call->meshB, call->poseB, &gather, call->ws, &r );
	*outCount = r.featureCount;
	*outFeatures = r.features;
	return status;
}

pdStatus pdiProveGap( const pdiCall* call, double gap, bool* outApart )
{
	pdContactFeatureDef proof = pdDefaultContactFeatureDef();
	proof.reach = gap;
	proof.maxFeatures = 0;
	proof.gap = gap;
	pdiGapProof stopWithin = { .stopWithinGap = true, .checkContainment = false };
	pdContactFeatureResult r;
	pdStatus status = pdiPlugin_ComputeContactFeatures( call->meshA, call->poseA, call->meshB, call->poseB, &proof,
														stopWithin, call->ws, &r );
	*outApart = r.apart;
	return status;
}
