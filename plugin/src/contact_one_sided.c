// SPDX-License-Identifier: MIT
// One-sided surfaces (open meshes: a zero-thickness floor, a wall, a sheet): the side of B that
// A is known to be free on, and the resolution toward that side that replaces a PD pushing A
// through the surface.
#include "contact_internal.h"

// A PD more than this far (cosine against the remembered free side) below the tangent plane
// counts as pushing A through a one-sided surface.
#define PD_THROUGH_COSINE -0.25

// The side A is known to be free on, in world: history first, else where it came from. A
// separated pair gathers toward B from that side.
void pdcFindFreeSide( pdcCall* call )
{
	const pdContactPairInternal* pair = call->pair;
	call->haveSide = false;
	call->side = pdV3( 0.0, 0.0, 0.0 );
	if ( pair->hasFreeSide )
	{
		call->side = pdNormalize( pdcRotate( call->qB, pair->freeSide ) );
		call->haveSide = pdDot( call->side, call->side ) > 0.0;
	}
	if ( !call->haveSide && pdLength( pair->motion ) > 0.0 )
	{
		call->side = pdNormalize( pdScale( pair->motion, -1.0 ) );
		call->haveSide = pdDot( call->side, call->side ) > 0.0;
	}
	call->separatedApproach = call->haveSide ? pdScale( call->side, -1.0 ) : pdV3( 0.0, 0.0, 0.0 );
}

// Out-projects A from positions on its remembered side (its last free position, where it came
// from, and far along the free side) to its current position, and keeps the shortest
// resolution that leaves toward that side. Returns true and writes the translation.
static bool pdcOutProjectToSide( const pdcCall* call, pdVec3* outTranslation )
{
	const pdContactPairInternal* pair = call->pair;
	pdVec3 p = call->poseA->p;
	pdVec3 starts[3];
	int startCount = 0;
	if ( pair->hasFreePosition )
	{
		starts[startCount++] = pdAdd( pdcRotate( call->qB, pair->freePosition ), call->poseB->p );
	}
	if ( pdLength( pair->motion ) > 0.0 )
	{
		starts[startCount++] = pdSub( p, pair->motion );
	}
	double reach = call->diagA + 2.0 * call->tolerance;
	starts[startCount++] = pdMulAdd( p, reach, call->side );

	pdCcdDef ccd = pdDefaultCcdDef();
	ccd.contactTolerance = call->tolerance;
	ccd.maxFeatures = 1;

	bool found = false;
	double bestLength = DBL_MAX;
	for ( int s = 0; s < startCount; ++s )
	{
		pdTransform start = *call->poseA;
		start.p = starts[s];
		pdCcdResult cr;
		pdStatus st =
			pdComputeTranslationalCcd( call->meshA, &start, p, call->meshB, call->poseB, &ccd, call->ws, &cr );
		if ( st < 0 || cr.startColliding || !cr.hit )
		{
			continue;
		}
		pdVec3 d = pdSub( cr.contactPosition, p );
		double len = pdLength( d );
		if ( !pdIsFiniteVec( d ) || pdDot( d, call->side ) < 0.0 || len >= bestLength )
		{
			continue;
		}
		bestLength = len;
		*outTranslation = d;
		found = true;
	}
	return found;
}

// A PD that pushes A through a one-sided B (against the side A is known to be free on) is
// replaced by the shortest resolution toward that side. Returns true when it replaced
// call->translation.
bool pdcResolveOneSided( pdcCall* call )
{
	double len = pdLength( call->translation );
	if ( !( call->oneSided && call->haveSide && len > 0.0 &&
			pdDot( call->translation, call->side ) < PD_THROUGH_COSINE * len ) )
	{
		return false;
	}
	pdVec3 d;
	if ( !pdcOutProjectToSide( call, &d ) )
	{
		return false;
	}
	call->translation = d;
	call->set->resolvedOneSided = true;
	return true;
}

// Remembers the free side: where this call's contact normals point (sideSum, their weighted sum).
void pdcRememberFreeSide( pdcCall* call, pdVec3 sideSum )
{
	pdVec3 sideNew = pdNormalize( sideSum );
	if ( pdDot( sideNew, sideNew ) > 0.0 )
	{
		call->pair->freeSide = pdcRotateInv( call->qB, sideNew );
		call->pair->hasFreeSide = true;
	}
}
