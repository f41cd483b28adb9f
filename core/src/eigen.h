// SPDX-License-Identifier: MIT
// Private: eigenvectors of a symmetric 3x3 matrix by cyclic Jacobi (eigen.c), for the BVH's
// oriented boxes and the principal-axis start candidates.
#pragma once

/// When pdiSymmetricEigen treats entries as negligible. Its callers fit boxes and pick
/// directions from the vectors, so each keeps the thresholds its outputs were tuned with.
typedef struct pdiEigenDef
{
	/// Sweeps stop when the off-diagonal magnitude sum is at most 1e-15 times the diagonal
	/// magnitude sum, or at most stopFloor.
	double stopFloor;
	/// A rotation is skipped when |a_pq| is at most skipFloor, or below skipRelative times
	/// |a_qq - a_pp| (0: no relative test).
	double skipFloor;
	double skipRelative;
} pdiEigenDef;

/// Diagonalises the symmetric matrix ioA in place (at most 32 sweeps): the eigenvectors are the
/// columns of outV, unsorted, and outW (may be NULL) receives the matching eigenvalues (the
/// diagonal of ioA).
void pdiSymmetricEigen( double ioA[3][3], const pdiEigenDef* def, double outV[3][3], double outW[3] );
