// SPDX-License-Identifier: MIT
// The PolyDepth iteration from one contact configuration (Je et al. 2012, Sec. 4): build the
// local contact space, in-project the query configuration onto it, classify the projection
// (in contact: the answer of the step; free: out-project toward o; colliding: out-project from
// just off the contact toward it), and repeat while each step shortens the bound.
#include "penetration_query.h"

#include "lcp.h"

// Samples along the ray of a colliding in-projection.
#define PD_RAY_SAMPLES 6

// The in-projection of o onto the planes (direct LCP, projected Gauss-Seidel when that does
// not converge). False when the planes are infeasible or the answer is not finite.
static bool pdQuery_InProject( pdPdQuery* q, int planeCount, pdVec3* outX )
{
	pdLcpResult lcp = pdSolveInProjection( q->planes, planeCount, q->def->maxLcpIterations, q->lambda );
	if ( !lcp.converged && !lcp.infeasible )
	{
		for ( int i = 0; i < planeCount; ++i )
		{
			q->lambda[i] = 0.0;
		}
		pdLcpResult pgs = pdSolveInProjectionPgs( q->planes, planeCount, q->def->maxLcpIterations, q->lambda );
		if ( pgs.converged )
		{
			lcp = pgs;
		}
	}
	if ( lcp.infeasible || !pdIsFiniteVec( lcp.x ) )
	{
		return false;
	}
	*outX = lcp.x;
	return true;
}

// The linearisation points at a shorter answer behind an obstacle: look for free space outward
// along the projected ray from target, then come back in along it. True with *outNext, a
// contact shorter than limit, when the first free sample's out-projection found one.
static bool pdQuery_RaySearch( pdPdQuery* q, pdVec3 target, double limit, pdVec3* outNext )
{
	double lenT = pdLength( target );
	pdVec3 u = pdScale( target, 1.0 / lenT );
	for ( int k = 1; k < PD_RAY_SAMPLES; ++k )
	{
		double t = lenT + ( limit - lenT ) * k / PD_RAY_SAMPLES;
		pdVec3 y = pdScale( u, t );
		if ( pdStart_Collides( &q->sc, y ) )
		{
			continue;
		}
		return pdQuery_OutProjectEx( q, y, pdV3( 0.0, 0.0, 0.0 ), true, limit, outNext ) &&
			   pdLength( *outNext ) < limit;
	}
	return false;
}

// One step from the contact configuration *ioXc toward target (its in-projection, damped
// `damp` times), classified: in contact, target is the new contact configuration; free, the
// out-projection toward o from it; colliding, the out-projection from just off *ioXc toward
// it (then, undamped, the ray search). Accepted only when shorter than limit. True when *ioXc
// (and *ioGap, the gap measured there or -1) moved.
static bool pdQuery_Step( pdPdQuery* q, pdVec3 target, int currentPlanes, double limit, int damp, pdVec3* ioXc,
						  double* ioGap )
{
	pdVec3 next;
	double d;
	bool gathered = false;
	if ( pdQuery_FreeGapGathering( q, target, &d, &gathered ) )
	{
		if ( d <= q->tol )
		{
			// In contact: the projected configuration itself is the step's contact configuration.
			if ( !gathered && !pdQuery_GatherFeatures( q, target ) )
			{
				return false;
			}
			pdQuery_Accept( q );
			*ioXc = target;
			*ioGap = d;
			return true;
		}
		if ( !pdQuery_OutProjectEx( q, target, pdV3( 0.0, 0.0, 0.0 ), true, limit, &next ) ||
			 !( pdLength( next ) < limit ) )
		{
			return false;
		}
	}
	else
	{
		// Colliding: the first contact on the way from (just off) x_c to the target.
		pdVec3 back = pdMulAdd( *ioXc, q->tol, pdQuery_Escape( q, currentPlanes, *ioXc ) );
		bool found = pdQuery_OutProjectEx( q, back, target, false, limit, &next ) && pdLength( next ) < limit;
		if ( !found && ( damp != 0 || !pdQuery_RaySearch( q, target, limit, &next ) ) )
		{
			return false;
		}
	}
	pdQuery_Accept( q );
	*ioXc = next;
	*ioGap = -1.0;
	return true;
}

void pdQuery_Refine( pdPdQuery* q, pdVec3 xc )
{
	q->memoryCount = 0;
	double xcGap = -1.0; // measured gap at xc, when xc came from a free-gap check
	for ( int it = 0;; ++it )
	{
		if ( pdQuery_OutOfTime( q ) || pdQuery_Settled( q ) )
		{
			return;
		}
		if ( it >= q->def->maxIterations )
		{
			q->iterationLimit = true;
			return;
		}
		q->iterations += 1;

		int planeCount = pdQuery_BuildPlanes( q, xc );
		int currentPlanes = q->currentPlanes;
		pdVec3 xp;
		if ( planeCount == 0 || !pdQuery_InProject( q, planeCount, &xp ) )
		{
			return;
		}
		double lenC = pdLength( xc );
		double limit = lenC - pdQuery_Epsilon( q, lenC );
		if ( !( pdLength( xp ) < limit ) )
		{
			return; // a local minimum of the linearised contact space
		}
		bool improved = false;
		double s = 1.0;
		for ( int damp = 0; damp < 3 && !improved; ++damp, s *= 0.5 )
		{
			improved = pdQuery_Step( q, pdLerp( xc, xp, s ), currentPlanes, limit, damp, &xc, &xcGap );
		}
		if ( !improved )
		{
			return;
		}
		pdQuery_Offer( q, xc, planeCount, xcGap );
	}
}
