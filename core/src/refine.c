// SPDX-License-Identifier: MIT
// The PolyDepth iteration from one contact configuration (Je et al. 2012, Sec. 4): build the
// local contact space, in-project the query configuration onto it, classify the projection
// (in contact: the answer of the step; free: out-project toward o; colliding: out-project from
// just off the contact toward it), and repeat while each step shortens the bound.
#include "penetration_query.h"

#include "lcp.h"

// Samples along the ray of a colliding in-projection.
#define PDI_RAY_SAMPLES 6

// The in-projection of o onto the planes (direct LCP, projected Gauss-Seidel when that does
// not converge). False when the planes are infeasible or the answer is not finite.
static bool pdiQuery_InProject( pdiPdQuery* q, int planeCount, pdVec3* outX )
{
	pdiLcpResult lcp = pdiSolveInProjection( q->planes, planeCount, q->def->maxLcpIterations, q->lambda );
	if ( !lcp.converged && !lcp.infeasible )
	{
		for ( int i = 0; i < planeCount; ++i )
		{
			q->lambda[i] = 0.0;
		}
		pdiLcpResult pgs = pdiSolveInProjectionPgs( q->planes, planeCount, q->def->maxLcpIterations, q->lambda );
		if ( pgs.converged )
		{
			lcp = pgs;
		}
	}
	if ( lcp.infeasible || !pdiIsFiniteVec( lcp.x ) )
	{
		return false;
	}
	*outX = lcp.x;
	return true;
}

// The linearisation points at a shorter answer behind an obstacle: look for free space outward
// along the projected ray from target, then come back in along it. True with *outNext, a
// contact shorter than limit, when the first free sample's out-projection found one.
static bool pdiQuery_RaySearch( pdiPdQuery* q, pdVec3 target, double limit, pdVec3* outNext )
{
	double lenT = pdiLength( target );
	pdVec3 u = pdiScale( target, 1.0 / lenT );
	for ( int k = 1; k < PDI_RAY_SAMPLES; ++k )
	{
		double t = lenT + ( limit - lenT ) * k / PDI_RAY_SAMPLES;
		pdVec3 y = pdiScale( u, t );
		if ( pdiStart_Collides( &q->sc, y ) )
		{
			continue;
		}
		return pdiQuery_OutProjectEx( q, y, pdiV3( 0.0, 0.0, 0.0 ), true, limit, outNext ) &&
			   pdiLength( *outNext ) < limit;
	}
	return false;
}

// One step from the contact configuration *ioXc toward target (its in-projection, damped
// `damp` times), classified: in contact, target is the new contact configuration; free, the
// out-projection toward o from it; colliding, the out-projection from just off *ioXc toward
// it (then, undamped, the ray search). Accepted only when shorter than limit. True when *ioXc
// (and *ioGap, the gap measured there or -1) moved.
static bool pdiQuery_Step( pdiPdQuery* q, pdVec3 target, int currentPlanes, double limit, int damp, pdVec3* ioXc,
						  double* ioGap )
{
	pdVec3 next;
	double d;
	bool gathered = false;
	if ( pdiQuery_FreeGapGathering( q, target, &d, &gathered ) )
	{
		if ( d <= q->tol )
		{
			// In contact: the projected configuration itself is the step's contact configuration.
			if ( !gathered && !pdiQuery_GatherFeatures( q, target ) )
			{
				return false;
			}
			pdiQuery_Accept( q );
			*ioXc = target;
			*ioGap = d;
			return true;
		}
		if ( !pdiQuery_OutProjectEx( q, target, pdiV3( 0.0, 0.0, 0.0 ), true, limit, &next ) ||
			 !( pdiLength( next ) < limit ) )
		{
			return false;
		}
	}
	else
	{
		// Colliding: the first contact on the way from (just off) x_c to the target.
		pdVec3 back = pdiMulAdd( *ioXc, q->tol, pdiQuery_Escape( q, currentPlanes, *ioXc ) );
		bool found = pdiQuery_OutProjectEx( q, back, target, false, limit, &next ) && pdiLength( next ) < limit;
		if ( !found && ( damp != 0 || !pdiQuery_RaySearch( q, target, limit, &next ) ) )
		{
			return false;
		}
	}
	pdiQuery_Accept( q );
	*ioXc = next;
	*ioGap = -1.0;
	return true;
}

void pdiQuery_Refine( pdiPdQuery* q, pdVec3 xc )
{
	q->memoryCount = 0;
	double xcGap = -1.0; // measured gap at xc, when xc came from a free-gap check
	for ( int it = 0;; ++it )
	{
		if ( pdiQuery_OutOfTime( q ) || pdiQuery_Settled( q ) )
		{
			return;
		}
		if ( it >= q->def->maxIterations )
		{
			q->iterationLimit = true;
			return;
		}
		q->iterations += 1;

		int planeCount = pdiQuery_BuildPlanes( q, xc );
		int currentPlanes = q->currentPlanes;
		pdVec3 xp;
		if ( planeCount == 0 || !pdiQuery_InProject( q, planeCount, &xp ) )
		{
			return;
		}
		double lenC = pdiLength( xc );
		double limit = lenC - pdiQuery_Epsilon( q, lenC );
		if ( !( pdiLength( xp ) < limit ) )
		{
			return; // a local minimum of the linearised contact space
		}
		bool improved = false;
		double s = 1.0;
		for ( int damp = 0; damp < 3 && !improved; ++damp, s *= 0.5 )
		{
			improved = pdiQuery_Step( q, pdiLerp( xc, xp, s ), currentPlanes, limit, damp, &xc, &xcGap );
		}
		if ( !improved )
		{
			return;
		}
		pdiQuery_Offer( q, xc, planeCount, xcGap );
	}
}
