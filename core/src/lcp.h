// SPDX-License-Identifier: MIT
// Private: the in-projection of PolyDepth (lcp.c). The closest point to the query configuration
// (the origin of configuration space) on the local contact space {x : n_i . x >= c_i}, the LCP
// of the paper's Eqs. 9-11. Two solvers: an exact dual active-set method (primary) and
// projected Gauss-Seidel iterated to convergence (fallback, and a second opinion in tests).
#pragma once

#include "vec.h"

/// One contact plane in configuration space: translations x of A with normal . x >= offset
/// keep the feature pair it came from separated. normal is unit.
typedef struct pdiContactPlane
{
	pdVec3 normal;
	double offset; ///< world units
	int source;    ///< index of the contact feature it came from (-1 if none)
} pdiContactPlane;

typedef struct pdiLcpResult
{
	pdVec3 x;         ///< the projected point (world units); 0 when count is 0
	int iterations;   ///< active-set changes (active set) or sweeps (PGS)
	int activeCount;  ///< planes with a positive multiplier
	bool converged;   ///< KKT conditions hold to a relative 1e-9 of the offsets
	bool infeasible;  ///< the planes have no common point (x is then the last iterate)
} pdiLcpResult;

/// Exact solve by the dual active-set method of Goldfarb and Idnani (identity Hessian): at most
/// 3 planes are active in 3-D, so it ends after a few steps. maxIterations caps the add/drop
/// steps (>= 1). outLambda (may be NULL) receives count multipliers (>= 0).
pdiLcpResult pdiSolveInProjection( const pdiContactPlane* planes, int count, int maxIterations, double* outLambda );

/// Projected Gauss-Seidel on the dual (w = N N^T lambda - c, lambda >= 0, w . lambda = 0), in
/// double, swept until the multipliers settle or maxIterations sweeps. lambda (count entries,
/// required) is both the start (pass zeros) and the answer.
pdiLcpResult pdiSolveInProjectionPgs( const pdiContactPlane* planes, int count, int maxIterations, double* lambda );
