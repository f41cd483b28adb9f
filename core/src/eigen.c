// SPDX-License-Identifier: MIT
// Eigenvectors of a symmetric 3x3 matrix by cyclic Jacobi rotations, with a fixed sweep cap.
#include "eigen.h"

#include <math.h>
#include <stddef.h>

#define PDI_EIGEN_MAX_SWEEPS 32

// Rotates rows and columns p and q of a by (c, s), and columns p and q of v with them.
static void pdiJacobiRotate( double a[3][3], double v[3][3], int p, int q, double c, double s )
{
	for ( int k = 0; k < 3; ++k )
	{
		double akp = a[k][p], akq = a[k][q];
		a[k][p] = c * akp - s * akq;
		a[k][q] = s * akp + c * akq;
	}
	for ( int k = 0; k < 3; ++k )
	{
		double apk = a[p][k], aqk = a[q][k];
		a[p][k] = c * apk - s * aqk;
		a[q][k] = s * apk + c * aqk;
	}
	for ( int k = 0; k < 3; ++k )
	{
		double vkp = v[k][p], vkq = v[k][q];
		v[k][p] = c * vkp - s * vkq;
		v[k][q] = s * vkp + c * vkq;
	}
}

void pdiSymmetricEigen( double ioA[3][3], const pdiEigenDef* def, double outV[3][3], double outW[3] )
{
	double( *a )[3] = ioA;
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = 0; j < 3; ++j )
		{
			outV[i][j] = i == j ? 1.0 : 0.0;
		}
	}
	for ( int sweep = 0; sweep < PDI_EIGEN_MAX_SWEEPS; ++sweep )
	{
		double off = fabs( a[0][1] ) + fabs( a[0][2] ) + fabs( a[1][2] );
		double diag = fabs( a[0][0] ) + fabs( a[1][1] ) + fabs( a[2][2] );
		if ( off <= 1e-15 * diag || off <= def->stopFloor )
		{
			break;
		}
		for ( int p = 0; p < 2; ++p )
		{
			for ( int q = p + 1; q < 3; ++q )
			{
				double apq = a[p][q];
				// Skip negligible entries (also keeps theta and theta^2 finite).
				if ( fabs( apq ) <= def->skipFloor || fabs( apq ) < def->skipRelative * fabs( a[q][q] - a[p][p] ) )
				{
					continue;
				}
				double theta = ( a[q][q] - a[p][p] ) / ( 2.0 * apq );
				double t = ( theta >= 0.0 ? 1.0 : -1.0 ) / ( fabs( theta ) + sqrt( theta * theta + 1.0 ) );
				double c = 1.0 / sqrt( t * t + 1.0 );
				pdiJacobiRotate( a, outV, p, q, c, t * c );
			}
		}
	}
	if ( outW != NULL )
	{
		outW[0] = a[0][0];
		outW[1] = a[1][1];
		outW[2] = a[2][2];
	}
}
