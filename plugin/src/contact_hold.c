// SPDX-License-Identifier: MIT
// Persistent contact: a resting pair's manifolds, fixed to A and to B, answer the calls that
// follow while a bound proves that nothing the full call left out can have come into contact.
//
// The full call knows a gap g: every feature pair it did not turn into a contact point was at
// least g apart at its poses (the gathering's reach, contact_hold's callers in contact.c). While
// A has moved relative to B by at most half of g (pdiMovedSince: the origin's displacement
// plus the rotation's chord at A's reach), those pairs are still at least g / 2 apart: no new
// contact can have begun. The held points move with the bodies (pointA with A, pointB with B)
// and their distances are measured anew along the held normal, as Bullet's own manifold
// refresh does, so the solver's warm start finds the same points step after step.
#include "contact_internal.h"

#include <string.h>

// Calls answered from one hold before a full call refreshes it: the held points do not slide
// with a creeping contact, and a full call re-picks them every ninth call (other periods:
// docs/experiments.md).
#define PDI_HOLD_MAX_CALLS 8
// A held point whose halves slid apart along the surface by more than this many support bands
// ends the hold, as Bullet's manifold refresh drops such points.
#define PDI_HOLD_MAX_DRIFT 0.5

static void pdiClearHeld( pdContactManifoldSet* set )
{
	set->state = PD_STATE_SEPARATED;
	set->speculative = false;
	set->resolvedOneSided = false;
	set->translation = pdiV3( 0.0, 0.0, 0.0 );
	set->depth = 0.0;
	set->manifoldCount = 0;
	memset( set->manifolds, 0, sizeof( set->manifolds ) );
}

// The held points at the call's poses: pointB with B, pointA with A, the distance along the
// held normal, pointA written back on the normal (pointB + normal * distance) as the API says.
// False when a point's two halves have slid apart along the surface by more than maxDrift (a
// rolling or sliding contact: the touching points are elsewhere by now).
static bool pdiWriteHeld( const pdiCall* call, double maxDrift )
{
	const pdiPairState* pair = call->pair;
	pdContactManifoldSet* set = call->set;
	pdQuat qA = pdiSafeUnitQuat( call->poseA->q );
	set->state = pair->holdState;
	set->speculative = pair->holdSpeculative;
	set->resolvedOneSided = pair->holdResolvedOneSided;
	set->translation = pdiRotate( call->qB, pair->holdTranslation );
	set->depth = pdiLength( set->translation );
	set->manifoldCount = pair->holdCount;
	for ( int m = 0; m < pair->holdCount; ++m )
	{
		pdContactManifold* out = set->manifolds + m;
		out->slot = pair->holdSlot[m];
		out->normal = pdiRotate( call->qB, pair->holdNormal[m] );
		out->pointCount = pair->holdPointCount[m];
		out->restingFlat = ( pair->holdRestingFlat >> m ) & 1u;
		for ( int p = 0; p < out->pointCount; ++p )
		{
			pdVec3 a = pdiAdd( call->poseA->p, pdiRotate( qA, pair->holdPointA[m][p] ) );
			pdVec3 b = pdiAdd( call->poseB->p, pdiRotate( call->qB, pair->holdPointB[m][p] ) );
			double distance = pdiDot( pdiSub( a, b ), out->normal );
			pdVec3 drift = pdiSub( pdiSub( a, b ), pdiScale( out->normal, distance ) );
			if ( pdiDot( drift, drift ) > maxDrift * maxDrift )
			{
				return false;
			}
			out->points[p].pointB = b;
			out->points[p].distance = distance;
			out->points[p].pointA = pdiAdd( b, pdiScale( out->normal, distance ) );
		}
	}
	return true;
}

bool pdiAnswerFromHold( pdiCall* call )
{
	pdiPairState* pair = call->pair;
	if ( !pair->holdValid )
	{
		return false;
	}
	// The motion since the hold was made and the step's own (the hint): within the bound, what
	// was left out stays apart through the step too.
	bool usable =
		pair->proofMeshA == call->meshA && pair->proofMeshB == call->meshB && !call->impact &&
		!( call->def->speculativeDistance > call->def->contactDistance ) && pair->holdCalls < PDI_HOLD_MAX_CALLS &&
		pdiMovedSince( pair->holdPosition, pair->holdRotation, call->meshA, call->poseA, call->poseB ) + call->sweep <=
			pair->holdBound;
	if ( !usable || !pdiWriteHeld( call, PDI_HOLD_MAX_DRIFT * call->supportBand ) )
	{
		pair->holdValid = false;
		pdiClearHeld( call->set );
		return false;
	}
	pair->holdCalls += 1;
	pair->apartValid = false;
	pair->motion = pdiV3( 0.0, 0.0, 0.0 );
	pair->rotation = pdiV3( 0.0, 0.0, 0.0 );
	return true;
}

// Holds the call's manifolds when they can be: an answer with points, none speculative, no
// impact this step, and a known gap to everything left out.
void pdiMakeHold( pdiCall* call )
{
	pdiPairState* pair = call->pair;
	const pdContactManifoldSet* set = call->set;
	pair->holdValid = false;
	double bound = fmin( 0.5 * call->holdGap, 0.25 * call->def->contactDistance );
	if ( set->status < 0 || set->manifoldCount <= 0 || set->speculative || call->impact || !( bound > 0.0 ) )
	{
		return;
	}
	pdQuat qA = pdiSafeUnitQuat( call->poseA->q );
	for ( int m = 0; m < set->manifoldCount; ++m )
	{
		const pdContactManifold* in = set->manifolds + m;
		pair->holdSlot[m] = in->slot;
		pair->holdNormal[m] = pdiRotateInv( call->qB, in->normal );
		pair->holdPointCount[m] = in->pointCount;
		pair->holdRestingFlat =
			(uint8_t)( in->restingFlat ? pair->holdRestingFlat | ( 1u << m ) : pair->holdRestingFlat & ~( 1u << m ) );
		for ( int p = 0; p < in->pointCount; ++p )
		{
			pair->holdPointA[m][p] = pdiRotateInv( qA, pdiSub( in->points[p].pointA, call->poseA->p ) );
			pair->holdPointB[m][p] = pdiRotateInv( call->qB, pdiSub( in->points[p].pointB, call->poseB->p ) );
		}
	}
	pair->holdCount = set->manifoldCount;
	pair->holdState = set->state;
	pair->holdSpeculative = set->speculative;
	pair->holdResolvedOneSided = set->resolvedOneSided;
	pair->holdTranslation = pdiRotateInv( call->qB, set->translation );
	pair->holdBound = bound;
	pair->holdCalls = 0;
	pdiSetProofMeshes( call );
	pdiRelativePose( call->poseA, call->poseB, &pair->holdPosition, &pair->holdRotation );
	pair->holdValid = true;
}
