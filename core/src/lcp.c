// SPDX-License-Identifier: MIT
// The in-projection LCP: closest point to the origin on an intersection of half-spaces.
#include "lcp.h"

#include <float.h>
#include <string.h>

// Solves the k x k system g r = b (k <= 3) by Gaussian elimination with partial pivoting.
// False when the matrix is (numerically) singular.
static bool pdiSolveSmall( double g[3][3], double b[3], int k, double r[3] )
{
	double m[3][4];
	for ( int i = 0; i < k; ++i )
	{
		for ( int j = 0; j < k; ++j )
		{
			m[i][j] = g[i][j];
		}
		m[i][k] = b[i];
	}
	for ( int col = 0; col < k; ++col )
	{
		int pivot = col;
		for ( int i = col + 1; i < k; ++i )
		{
			if ( fabs( m[i][col] ) > fabs( m[pivot][col] ) )
			{
				pivot = i;
			}
		}
		if ( fabs( m[pivot][col] ) < 1e-14 )
		{
			return false;
		}
		if ( pivot != col )
		{
			for ( int j = 0; j <= k; ++j )
			{
				double t = m[col][j];
				m[col][j] = m[pivot][j];
				m[pivot][j] = t;
			}
		}
		for ( int i = col + 1; i < k; ++i )
		{
			double f = m[i][col] / m[col][col];
			for ( int j = col; j <= k; ++j )
			{
				m[i][j] -= f * m[col][j];
			}
		}
	}
	for ( int i = k - 1; i >= 0; --i )
	{
		double s = m[i][k];
		for ( int j = i + 1; j < k; ++j )
		{
			s -= m[i][j] * r[j];
		}
		r[i] = s / m[i][i];
	}
	return true;
}

static double pdiOffsetScale( const pdiContactPlane* planes, int count )
{
	double scale = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		scale = fmax( scale, fabs( planes[i].offset ) );
	}
	return scale;
}

// The dual active-set method's state: the current point and the active planes (at most 3 in
// 3-D) with their multipliers.
typedef struct pdiActiveSet
{
	pdVec3 x;
	int active[3];
	double lambda[3];
	int count;
} pdiActiveSet;

typedef enum pdiActiveStep
{
	PDI_ACTIVE_STEP_DROPPED,    ///< an active multiplier reached zero first: its plane left the set
	PDI_ACTIVE_STEP_ADDED,      ///< the new plane became satisfied and joined the set
	PDI_ACTIVE_STEP_SINGULAR,   ///< the active normals were dependent (cannot happen for a valid set)
	PDI_ACTIVE_STEP_INFEASIBLE, ///< the new plane conflicts with the active ones
} pdiActiveStep;

// The most violated plane (by more than tol) not yet active, or -1 when none is.
static int pdiMostViolated( const pdiContactPlane* planes, int count, const pdiActiveSet* set, double tol )
{
	int p = -1;
	double worst = tol;
	for ( int i = 0; i < count; ++i )
	{
		bool isActive = false;
		for ( int a = 0; a < set->count; ++a )
		{
			isActive = isActive || set->active[a] == i;
		}
		double violation = planes[i].offset - pdiDot( planes[i].normal, set->x );
		if ( !isActive && violation > worst )
		{
			worst = violation;
			p = i;
		}
	}
	return p;
}

// Coefficients r of np in the active normals (least squares by the normal equations). False
// when the active normals are dependent.
static bool pdiActiveCoefficients( const pdiActiveSet* set, const pdiContactPlane* planes, pdVec3 np, double r[3] )
{
	double g[3][3], b[3];
	for ( int i = 0; i < set->count; ++i )
	{
		pdVec3 ni = planes[set->active[i]].normal;
		for ( int j = 0; j < set->count; ++j )
		{
			g[i][j] = pdiDot( ni, planes[set->active[j]].normal );
		}
		b[i] = pdiDot( ni, np );
	}
	return pdiSolveSmall( g, b, set->count, r );
}

// One step toward satisfying plane p, whose multiplier so far is *ioLambdaP: x moves along z,
// the part of p's normal the active normals do not span, until p is satisfied (t1) or an active
// multiplier reaches zero (t2), whichever comes first; that plane is dropped, or p is added.
static pdiActiveStep pdiActiveSet_Step( pdiActiveSet* set, const pdiContactPlane* planes, int p, double* ioLambdaP )
{
	pdVec3 np = planes[p].normal;
	double r[3] = { 0.0, 0.0, 0.0 };
	if ( set->count > 0 && !pdiActiveCoefficients( set, planes, np, r ) )
	{
		return PDI_ACTIVE_STEP_SINGULAR;
	}
	pdVec3 z = np;
	for ( int i = 0; i < set->count; ++i )
	{
		z = pdiMulAdd( z, -r[i], planes[set->active[i]].normal );
	}
	double zz = pdiDot( z, z );

	double t1 = INFINITY;
	if ( zz > 1e-18 )
	{
		t1 = ( planes[p].offset - pdiDot( np, set->x ) ) / zz;
	}
	double t2 = INFINITY;
	int drop = -1;
	for ( int i = 0; i < set->count; ++i )
	{
		if ( r[i] > 1e-15 )
		{
			double t = set->lambda[i] / r[i];
			if ( t < t2 )
			{
				t2 = t;
				drop = i;
			}
		}
	}
	if ( t1 == INFINITY && t2 == INFINITY )
	{
		// np is spanned by the active normals with non-positive weights: no point satisfies
		// them all.
		return PDI_ACTIVE_STEP_INFEASIBLE;
	}

	double t = t1 < t2 ? t1 : t2;
	if ( t1 != INFINITY )
	{
		set->x = pdiMulAdd( set->x, t, z );
	}
	for ( int i = 0; i < set->count; ++i )
	{
		set->lambda[i] -= t * r[i];
	}
	*ioLambdaP += t;

	if ( t2 <= t1 )
	{
		// Partial step: a multiplier reached zero; drop its plane (the caller retries with p).
		for ( int i = drop; i + 1 < set->count; ++i )
		{
			set->active[i] = set->active[i + 1];
			set->lambda[i] = set->lambda[i + 1];
		}
		set->count -= 1;
		return PDI_ACTIVE_STEP_DROPPED;
	}
	if ( set->count < 3 )
	{
		set->active[set->count] = p;
		set->lambda[set->count] = *ioLambdaP;
		set->count += 1;
	}
	return PDI_ACTIVE_STEP_ADDED;
}

pdiLcpResult pdiSolveInProjection( const pdiContactPlane* planes, int count, int maxIterations, double* outLambda )
{
	pdiLcpResult result;
	memset( &result, 0, sizeof( result ) );
	if ( outLambda != NULL )
	{
		for ( int i = 0; i < count; ++i )
		{
			outLambda[i] = 0.0;
		}
	}
	if ( planes == NULL || count <= 0 )
	{
		result.converged = true;
		return result;
	}
	if ( maxIterations < 1 )
	{
		maxIterations = 1;
	}

	// Violations below this count as satisfied: relative to the offsets, so the answer does not
	// depend on the model's units.
	double tol = 1e-12 * pdiOffsetScale( planes, count );

	pdiActiveSet set;
	set.x = pdiV3( 0.0, 0.0, 0.0 );
	set.count = 0;
	bool done = false;
	while ( result.iterations < maxIterations )
	{
		int p = pdiMostViolated( planes, count, &set, tol );
		if ( p < 0 )
		{
			done = true;
			break;
		}
		double lambdaP = 0.0;
		bool added = false;
		while ( !added && result.iterations < maxIterations )
		{
			result.iterations += 1;
			pdiActiveStep step = pdiActiveSet_Step( &set, planes, p, &lambdaP );
			if ( step == PDI_ACTIVE_STEP_SINGULAR || step == PDI_ACTIVE_STEP_INFEASIBLE )
			{
				// Singular: treated as converged-as-is (not converged, not infeasible).
				result.infeasible = step == PDI_ACTIVE_STEP_INFEASIBLE;
				result.x = set.x;
				result.activeCount = set.count;
				return result;
			}
			added = step == PDI_ACTIVE_STEP_ADDED;
		}
	}

	result.x = set.x;
	result.activeCount = set.count;
	if ( !done )
	{
		// Out of steps: it converged only if nothing is violated any more.
		double worst = 0.0;
		for ( int i = 0; i < count; ++i )
		{
			worst = fmax( worst, planes[i].offset - pdiDot( planes[i].normal, set.x ) );
		}
		done = worst <= 1e-9 * fmax( pdiOffsetScale( planes, count ), DBL_MIN );
	}
	result.converged = done;
	if ( outLambda != NULL )
	{
		for ( int i = 0; i < set.count; ++i )
		{
			outLambda[set.active[i]] = set.lambda[i] > 0.0 ? set.lambda[i] : 0.0;
		}
	}
	return result;
}

pdiLcpResult pdiSolveInProjectionPgs( const pdiContactPlane* planes, int count, int maxIterations, double* lambda )
{
	pdiLcpResult result;
	memset( &result, 0, sizeof( result ) );
	if ( planes == NULL || lambda == NULL || count <= 0 )
	{
		result.converged = true;
		return result;
	}
	if ( maxIterations < 1 )
	{
		maxIterations = 1;
	}
	double scale = pdiOffsetScale( planes, count );
	double tol = 1e-12 * fmax( scale, DBL_MIN );

	// x = sum lambda_i n_i is kept up to date, so a sweep costs O(count), not O(count^2).
	pdVec3 x = pdiV3( 0.0, 0.0, 0.0 );
	for ( int i = 0; i < count; ++i )
	{
		if ( !( lambda[i] > 0.0 ) )
		{
			lambda[i] = 0.0;
		}
		x = pdiMulAdd( x, lambda[i], planes[i].normal );
	}

	bool settled = false;
	while ( result.iterations < maxIterations && !settled )
	{
		result.iterations += 1;
		double maxChange = 0.0;
		for ( int i = 0; i < count; ++i )
		{
			pdVec3 n = planes[i].normal;
			double nn = pdiDot( n, n );
			if ( nn < 1e-30 )
			{
				continue;
			}
			double next = lambda[i] + ( planes[i].offset - pdiDot( n, x ) ) / nn;
			if ( next < 0.0 )
			{
				next = 0.0;
			}
			double delta = next - lambda[i];
			if ( delta != 0.0 )
			{
				x = pdiMulAdd( x, delta, n );
				lambda[i] = next;
				maxChange = fmax( maxChange, fabs( delta ) );
			}
		}
		settled = maxChange <= tol;
	}

	// Converged means KKT to a relative tolerance: primal feasible and complementary.
	double worst = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		double slack = pdiDot( planes[i].normal, x ) - planes[i].offset;
		worst = fmax( worst, -slack );
		if ( lambda[i] > 0.0 )
		{
			result.activeCount += 1;
			worst = fmax( worst, fabs( slack ) * fmin( 1.0, lambda[i] / fmax( scale, DBL_MIN ) ) );
		}
	}
	result.converged = worst <= 1e-9 * fmax( scale, DBL_MIN );
	result.x = x;
	// Multipliers that keep growing while x stays put mean the planes have no common point.
	result.infeasible = !result.converged && result.iterations >= maxIterations && pdiLength( x ) > 1e6 * fmax( scale, DBL_MIN );
	return result;
}
