// SPDX-License-Identifier: MIT
// One-sided surfaces (open meshes: a zero-thickness floor, a wall, a sheet): the side of B that
// A is known to be free on, and the resolution toward that side that replaces a PD pushing A
// through the surface.
#include "contact_internal.h"

// A PD more than this far (cosine against the remembered free side) below the tangent plane
// counts as pushing A through a one-sided surface.
#define PDI_THROUGH_COSINE -0.25

// The side A is known to be free on, in world: history first, else where it came from. A
// separated pair gathers toward B from that side.
void pdiFindFreeSide( pdiCall* call )
{
	const pdiPairState* pair = call->pair;
	call->haveSide = false;
	call->side = pdiV3( 0.0, 0.0, 0.0 );
	if ( pair->hasFreeSide )
	{
		call->side = pdiNormalize( pdiRotate( call->qB, pair->freeSide ) );
		call->haveSide = pdiDot( call->side, call->side ) > 0.0;
	}
	if ( !call->haveSide && pdiLength( pair->motion ) > 0.0 )
	{
		call->side = pdiNormalize( pdiScale( pair->motion, -1.0 ) );
		call->haveSide = pdiDot( call->side, call->side ) > 0.0;
	}
	call->separatedApproach = call->haveSide ? pdiScale( call->side, -1.0 ) : pdiV3( 0.0, 0.0, 0.0 );
}

// Out-projects A from positions on its remembered side (its last free position, where it came
// from, and far along the free side) to its current position, and keeps the shortest
// resolution that leaves toward that side. Returns true and writes the translation.
static bool pdiOutProjectToSide( const pdiCall* call, pdVec3* outTranslation )
{
	const pdiPairState* pair = call->pair;
	pdVec3 p = call->poseA->p;
	pdVec3 starts[3];
	int startCount = 0;
	if ( pair->hasFreePosition )
	{
		starts[startCount++] = pdiAdd( pdiRotate( call->qB, pair->freePosition ), call->poseB->p );
	}
	if ( pdiLength( pair->motion ) > 0.0 )
	{
		starts[startCount++] = pdiSub( p, pair->motion );
	}
	double reach = call->diagA + 2.0 * call->tolerance;
	starts[startCount++] = pdiMulAdd( p, reach, call->side );

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
		pdVec3 d = pdiSub( cr.contactPosition, p );
		double len = pdiLength( d );
		if ( !pdiIsFiniteVec( d ) || pdiDot( d, call->side ) < 0.0 || len >= bestLength )
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
bool pdiResolveOneSided( pdiCall* call )
{
	double len = pdiLength( call->translation );
	if ( !( call->oneSided && call->haveSide && len > 0.0 &&
			pdiDot( call->translation, call->side ) < PDI_THROUGH_COSINE * len ) )
	{
		return false;
	}
	pdVec3 d;
	if ( !pdiOutProjectToSide( call, &d ) )
	{
		return false;
	}
	call->translation = d;
	call->set->resolvedOneSided = true;
	return true;
}

// Remembers the free side: where this call's contact normals point (sideSum, their weighted sum).
void pdiRememberFreeSide( pdiCall* call, pdVec3 sideSum )
{
	pdVec3 sideNew = pdiNormalize( sideSum );
	if ( pdiDot( sideNew, sideNew ) > 0.0 )
	{
		call->pair->freeSide = pdiRotateInv( call->qB, sideNew );
		call->pair->hasFreeSide = true;
	}
}
