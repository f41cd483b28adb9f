// SPDX-License-Identifier: MIT
// The searches around the best answer once the starts are done: probes along directions near
// the best translation's, just inside the bound, each free one out-projected and refined. The
// cone search covers a cap evenly; the pattern search shrinks its angle around the best.
#include "penetration_query.h"

// Two unit vectors completing u (unit) to an orthonormal basis.
static void pdiQuery_Basis( pdVec3 u, pdVec3* e1, pdVec3* e2 )
{
	pdVec3 a = fabs( u.x ) < 0.9 ? pdiCross( u, pdiV3( 1.0, 0.0, 0.0 ) ) : pdiCross( u, pdiV3( 0.0, 1.0, 0.0 ) );
	*e1 = pdiNormalize( a );
	*e2 = pdiCross( u, *e1 );
}

// One start along the unit direction u, just inside the best bound: if A is free there, the
// out-projection toward o finds a contact shorter than the best and the iteration refines it.
// True when that happened.
static bool pdiQuery_ProbeDirection( pdiPdQuery* q, pdVec3 u )
{
	double bound = q->bestLength;
	double limit = bound - fmax( q->tol, 1e-3 * bound );
	if ( !( limit > 0.0 ) )
	{
		return false;
	}
	pdVec3 start = pdiScale( u, limit );
	if ( pdiStart_Collides( &q->sc, start ) )
	{
		return false;
	}
	pdVec3 contact;
	double accept = bound - pdiQuery_Epsilon( q, bound );
	if ( !pdiQuery_OutProjectEx( q, start, pdiV3( 0.0, 0.0, 0.0 ), true, accept, &contact ) ||
		 !( pdiLength( contact ) < accept ) )
	{
		return false;
	}
	pdiQuery_Accept( q );
	pdiQuery_Offer( q, contact, 0, -1.0 );
	pdiQuery_Refine( q, contact );
	return true;
}

// Half-angle of the cone searched around the best answer's direction (radians, about 29
// degrees): the near misses it recovers lay 12-24 degrees from the answer found before.
#define PDI_CONE_HALF_ANGLE 0.5

// Cone search: directions spread evenly over the cap of PDI_CONE_HALF_ANGLE around the best
// answer's direction (a Fibonacci cap, nearest first), each probed at the current bound. On a
// tessellated surface a shorter translation can lie in a basin of free space a few degrees wide
// beside the local optimum the iteration stopped in; the random directions (about 9 degrees
// apart at 512) step over it. What it buys: the pd-frontier page, docs/experiments.md.
int pdiQuery_ConeSearch( pdiPdQuery* q, int directions, int maxStarts )
{
	int starts = 0;
	if ( directions <= 0 || !q->haveBest || !( q->bestLength > 0.0 ) )
	{
		return 0;
	}
	pdVec3 axis = pdiScale( q->best, 1.0 / q->bestLength );
	pdVec3 e1, e2;
	pdiQuery_Basis( axis, &e1, &e2 );
	double zMin = cos( PDI_CONE_HALF_ANGLE );
	for ( int k = 0; k < directions && starts < maxStarts; ++k )
	{
		if ( pdiQuery_Settled( q ) || pdiQuery_OutOfTime( q ) )
		{
			break;
		}
		// Equal-area rings from the axis outward, turned by the golden angle.
		double z = 1.0 - ( 1.0 - zMin ) * ( k + 0.5 ) / directions;
		double r = sqrt( fmax( 0.0, 1.0 - z * z ) );
		double phi = k * 2.399963229728653;
		pdVec3 probe =
			pdiAdd( pdiScale( axis, z ), pdiAdd( pdiScale( e1, r * cos( phi ) ), pdiScale( e2, r * sin( phi ) ) ) );
		if ( pdiQuery_ProbeDirection( q, probe ) )
		{
			starts += 1;
		}
	}
	return starts;
}

// Probes directions around the best answer's at shrinking angles; every free probe point short
// of the bound is out-projected and refined. Returns the starts it refined.
int pdiQuery_DirectionSearch( pdiPdQuery* q, int maxStarts )
{
	int starts = 0;
	if ( !q->haveBest || !( q->bestLength > 0.0 ) || pdiQuery_Settled( q ) )
	{
		return 0;
	}
	for ( double angle = 0.3; angle > 0.004 && starts < maxStarts; angle *= 0.5 )
	{
		bool moved = true;
		for ( int round = 0; round < 4 && moved && starts < maxStarts; ++round )
		{
			moved = false;
			if ( pdiQuery_OutOfTime( q ) )
			{
				return starts;
			}
			pdVec3 u = pdiScale( q->best, 1.0 / q->bestLength );
			pdVec3 e1, e2;
			pdiQuery_Basis( u, &e1, &e2 );
			for ( int k = 0; k < 8 && !moved; ++k )
			{
				double phi = k * 0.78539816339744831;
				pdVec3 side = pdiAdd( pdiScale( e1, cos( phi ) ), pdiScale( e2, sin( phi ) ) );
				pdVec3 probe = pdiNormalize( pdiAdd( pdiScale( u, cos( angle ) ), pdiScale( side, sin( angle ) ) ) );
				if ( pdiQuery_ProbeDirection( q, probe ) )
				{
					starts += 1;
					moved = true;
				}
			}
		}
	}
	return starts;
}
