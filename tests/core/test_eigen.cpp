// SPDX-License-Identifier: MIT
// Symmetric 3x3 eigen-solver (eigen.c) against matrices built from known eigenpairs, with both
// threshold sets its callers use.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

extern "C"
{
#include "eigen.h"
#include "vec.h"
}

namespace
{

// R diag(w) R^T for the rotation of unit quaternion q.
void Compose( pdQuat q, const double w[3], double out[3][3] )
{
	pdiMat33 r = pdiMat33FromQuat( q );
	const pdVec3 c[3] = { r.cx, r.cy, r.cz };
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = 0; j < 3; ++j )
		{
			double s = 0.0;
			for ( int k = 0; k < 3; ++k )
			{
				s += pdiComponent( c[k], i ) * w[k] * pdiComponent( c[k], j );
			}
			out[i][j] = s;
		}
	}
}

void ExpectEigenpairs( const double a[3][3], const double v[3][3], const double w[3], double tol )
{
	for ( int c = 0; c < 3; ++c )
	{
		pdVec3 x = pdiV3( v[0][c], v[1][c], v[2][c] );
		EXPECT_NEAR( pdiLength( x ), 1.0, tol ) << "column " << c;
		for ( int d = c + 1; d < 3; ++d )
		{
			EXPECT_NEAR( pdiDot( x, pdiV3( v[0][d], v[1][d], v[2][d] ) ), 0.0, tol ) << "columns " << c << " " << d;
		}
		for ( int i = 0; i < 3; ++i )
		{
			double ax = a[i][0] * x.x + a[i][1] * x.y + a[i][2] * x.z;
			EXPECT_NEAR( ax, w[c] * pdiComponent( x, i ), tol ) << "column " << c << " row " << i;
		}
	}
}

} // namespace

TEST( PdEigen, RecoversKnownEigenpairsWithEitherThresholdSet )
{
	const pdiEigenDef defs[2] = { { 0.0, 1e-300, 1e-14 },
								 { std::nextafter( 1e-300, 0.0 ), std::nextafter( 1e-300, 0.0 ), 0.0 } };
	const double eigenvalues[3][3] = { { 3.0, 1.0, 0.25 }, { 2.0, 2.0, 5.0 }, { 1e-6, 4.0, 4.0 + 1e-9 } };
	for ( const pdiEigenDef& def : defs )
	{
		for ( const auto& w0 : eigenvalues )
		{
			double n = std::sqrt( 0.81 + 0.09 + 0.04 + 0.01 );
			pdQuat q = { 0.9 / n, 0.3 / n, -0.2 / n, 0.1 / n };
			double a[3][3], work[3][3], v[3][3], w[3];
			Compose( q, w0, a );
			std::memcpy( work, a, sizeof( a ) );
			pdiSymmetricEigen( work, &def, v, w );
			ExpectEigenpairs( a, v, w, 1e-12 );
			// The eigenvalues come back as a permutation of the ones the matrix was built from.
			double sumIn = w0[0] + w0[1] + w0[2], sumOut = w[0] + w[1] + w[2];
			EXPECT_NEAR( sumOut, sumIn, 1e-12 );
		}
	}
}

TEST( PdEigen, DiagonalMatrixNeedsNoRotation )
{
	const pdiEigenDef def = { 0.0, 1e-300, 1e-14 };
	double a[3][3] = { { 2.0, 0.0, 0.0 }, { 0.0, -1.0, 0.0 }, { 0.0, 0.0, 7.0 } };
	double v[3][3], w[3];
	pdiSymmetricEigen( a, &def, v, w );
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = 0; j < 3; ++j )
		{
			EXPECT_EQ( v[i][j], i == j ? 1.0 : 0.0 );
		}
	}
	EXPECT_EQ( w[0], 2.0 );
	EXPECT_EQ( w[1], -1.0 );
	EXPECT_EQ( w[2], 7.0 );
}
