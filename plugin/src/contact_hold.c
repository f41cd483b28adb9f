// SPDX-License-Identifier: MIT
// Persistent contact: a resting pair's manifolds, fixed to A and to B, answer the calls that
// follow while a bound proves that nothing the full call left out can have come into contact.
//
// The full call knows a gap g: every feature pair it did not turn into a contact point was at
// least g apart at its poses (the gathering's reach, contact_hold's callers in contact.c). While
// A has moved relative to B by at most half of g (pdcMovedSince: the origin's displacement
// plus the rotation's chord at A's reach), those pairs are still at least g / 2 apart: no new
// contact can have begun. The held points move with the bodies (pointA with A, pointB with B)
// and their distances are measured anew along the held normal, as Bullet's own manifold
// refresh does, so the solver's warm start finds the same points step after step.
#include "contact_internal.h"

#include <string.h>

// Calls answered from one hold before a full call refreshes it: the held points do not slide
// with a creeping contact, and a full call re-picks them every ninth call (other periods:
// docs/experiments.md).
#define PD_HOLD_MAX_CALLS 8
// A held point whose halves slid apart along the surface by more than this many support bands
// ends the hold, as Bullet's manifold refresh drops such points.
#define PD_HOLD_MAX_DRIFT 0.5

static void pdcClearHeld( pdContactManifoldSet* set )
{
	set->state = PD_STATE_SEPARATED;
	set->speculative = false;
	set->resolvedOneSided = false;
	set->translation = pdV3( 0.0, 0.0, 0.0 );
	set->depth = 0.0;
	set->count = 0;
	memset( set->manifolds, 0, sizeof( set->manifolds ) );
}

// The held points at the call's poses: pointB with B, pointA with A, the distance along the
// held normal, pointA written back on the normal (pointB + normal * distance) as the API says.
// False when a point's two halves have slid apart along the surface by more than maxDrift (a
// rolling or sliding contact: the touching points are elsewhere by now).
static bool pdcWriteHeld( const pdcCall* call, double maxDrift )
{
	const pdContactPairInternal* pair = call->pair;
	pdContactManifoldSet* set = call->set;
	pdQuat qA = pdcUnitQuat( call->poseA->q );
	set->state = pair->holdState;
	set->speculative = pair->holdSpeculative;
	set->resolvedOneSided = pair->holdResolvedOneSided;
	set->translation = pdcRotate( call->qB, pair->holdTranslation );
	set->depth = pdLength( set->translation );
	set->count = pair->holdCount;
	for ( int m = 0; m < pair->holdCount; ++m )
	{
		pdContactManifold* out = set->manifolds + m;
		out->slot = pair->holdSlot[m];
		out->normal = pdcRotate( call->qB, pair->holdNormal[m] );
		out->pointCount = pair->holdPointCount[m];
		for ( int p = 0; p < out->pointCount; ++p )
		{
			pdVec3 a = pdAdd( call->poseA->p, pdcRotate( qA, pair->holdPointA[m][p] ) );
			pdVec3 b = pdAdd( call->poseB->p, pdcRotate( call->qB, pair->holdPointB[m][p] ) );
			double distance = pdDot( pdSub( a, b ), out->normal );
			pdVec3 drift = pdSub( pdSub( a, b ), pdScale( out->normal, distance ) );
			if ( pdDot( drift, drift ) > maxDrift * maxDrift )
			{
				return false;
			}
			out->points[p].pointB = b;
			out->points[p].distance = distance;
			out->points[p].pointA = pdAdd( b, pdScale( out->normal, distance ) );
		}
	}
	return true;
}

bool pdcAnswerFromHold( pdcCall* call )
{
	pdContactPairInternal* pair = call->pair;
	if ( !pair->holdValid )
	{
		return false;
	}
	// The motion since the hold was made and the step's own (the hint): within the bound, what
	// was left out stays apart through the step too.
	bool usable =
		pair->proofMeshA == call->meshA && pair->proofMeshB == call->meshB && !call->impact &&
		!( call->def->speculativeDistance > call->def->contactDistance ) && pair->holdCalls < PD_HOLD_MAX_CALLS &&
		pdcMovedSince( pair->holdPosition, pair->holdRotation, call->meshA, call->poseA, call->poseB ) + call->sweep <=
			pair->holdBound;
	if ( !usable || !pdcWriteHeld( call, PD_HOLD_MAX_DRIFT * call->supportBand ) )
	{
		pair->holdValid = false;
		pdcClearHeld( call->set );
		return false;
	}
	pair->holdCalls += 1;
	pair->apartValid = false;
	pair->motion = pdV3( 0.0, 0.0, 0.0 );
	pair->rotation = pdV3( 0.0, 0.0, 0.0 );
	return true;
}

// Holds the call's manifolds when they can be: an answer with points, none speculative, no
// impact this step, and a known gap to everything left out.
void pdcMakeHold( pdcCall* call )
{
	pdContactPairInternal* pair = call->pair;
	const pdContactManifoldSet* set = call->set;
	pair->holdValid = false;
	double bound = fmin( 0.5 * call->holdGap, 0.25 * call->def->contactDistance );
	if ( set->status < 0 || set->count <= 0 || set->speculative || call->impact || !( bound > 0.0 ) )
	{
		return;
	}
	pdQuat qA = pdcUnitQuat( call->poseA->q );
	for ( int m = 0; m < set->count; ++m )
	{
		const pdContactManifold* in = set->manifolds + m;
		pair->holdSlot[m] = in->slot;
		pair->holdNormal[m] = pdcRotateInv( call->qB, in->normal );
		pair->holdPointCount[m] = in->pointCount;
		for ( int p = 0; p < in->pointCount; ++p )
		{
			pair->holdPointA[m][p] = pdcRotateInv( qA, pdSub( in->points[p].pointA, call->poseA->p ) );
			pair->holdPointB[m][p] = pdcRotateInv( call->qB, pdSub( in->points[p].pointB, call->poseB->p ) );
		}
	}
	pair->holdCount = set->count;
	pair->holdState = set->state;
	pair->holdSpeculative = set->speculative;
	pair->holdResolvedOneSided = set->resolvedOneSided;
	pair->holdTranslation = pdcRotateInv( call->qB, set->translation );
	pair->holdBound = bound;
	pair->holdCalls = 0;
	pdcSetProofMeshes( call );
	pdcRelativePose( call->poseA, call->poseB, &pair->holdPosition, &pair->holdRotation );
	pair->holdValid = true;
}
