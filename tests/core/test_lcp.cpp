// SPDX-License-Identifier: MIT
// In-projection LCP (lcp.c) against brute force over every active subset of at most 3 planes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

extern "C" {
#include "lcp.h"
}

namespace
{

// Oracle: the projection of the origin onto {n_i . x >= c_i} is the minimum-norm solution of
// n_i . x = c_i over some subset of independent planes; try every subset of size <= 3 and keep
// the shortest candidate that satisfies all planes.
bool BruteForce( const std::vector<pdiContactPlane>& planes, pdVec3* out )
{
	const int n = (int)planes.size();
	double best = INFINITY;
	double scale = 1e-300;
	for ( const auto& p : planes )
	{
		scale = std::fmax( scale, std::fabs( p.offset ) );
	}
	auto consider = [&]( pdVec3 x ) {
		for ( const auto& p : planes )
		{
			if ( pdiDot( p.normal, x ) < p.offset - 1e-9 * scale )
			{
				return;
			}
		}
		double len = pdiLength( x );
		if ( len < best )
		{
			best = len;
			*out = x;
		}
	};
	consider( pdiV3( 0, 0, 0 ) );
	// Minimum-norm solution of the k equalities: x = N^T g^-1 c (k <= 3, g = N N^T).
	auto solve = [&]( const int* idx, int k ) {
		double g[3][3], c[3], lam[3];
		for ( int i = 0; i < k; ++i )
		{
			for ( int j = 0; j < k; ++j )
			{
				g[i][j] = pdiDot( planes[idx[i]].normal, planes[idx[j]].normal );
			}
			c[i] = planes[idx[i]].offset;
		}
		double det = 0;
		if ( k == 1 )
		{
			lam[0] = c[0] / g[0][0];
		}
		else if ( k == 2 )
		{
			det = g[0][0] * g[1][1] - g[0][1] * g[1][0];
			if ( std::fabs( det ) < 1e-12 )
			{
				return;
			}
			lam[0] = ( c[0] * g[1][1] - g[0][1] * c[1] ) / det;
			lam[1] = ( g[0][0] * c[1] - g[1][0] * c[0] ) / det;
		}
		else
		{
			det = g[0][0] * ( g[1][1] * g[2][2] - g[1][2] * g[2][1] ) - g[0][1] * ( g[1][0] * g[2][2] - g[1][2] * g[2][0] ) +
				  g[0][2] * ( g[1][0] * g[2][1] - g[1][1] * g[2][0] );
			if ( std::fabs( det ) < 1e-12 )
			{
				return;
			}
			double inv[3][3];
			inv[0][0] = ( g[1][1] * g[2][2] - g[1][2] * g[2][1] ) / det;
			inv[0][1] = ( g[0][2] * g[2][1] - g[0][1] * g[2][2] ) / det;
			inv[0][2] = ( g[0][1] * g[1][2] - g[0][2] * g[1][1] ) / det;
			inv[1][0] = ( g[1][2] * g[2][0] - g[1][0] * g[2][2] ) / det;
			inv[1][1] = ( g[0][0] * g[2][2] - g[0][2] * g[2][0] ) / det;
			inv[1][2] = ( g[0][2] * g[1][0] - g[0][0] * g[1][2] ) / det;
			inv[2][0] = ( g[1][0] * g[2][1] - g[1][1] * g[2][0] ) / det;
			inv[2][1] = ( g[0][1] * g[2][0] - g[0][0] * g[2][1] ) / det;
			inv[2][2] = ( g[0][0] * g[1][1] - g[0][1] * g[1][0] ) / det;
			for ( int i = 0; i < 3; ++i )
			{
				lam[i] = inv[i][0] * c[0] + inv[i][1] * c[1] + inv[i][2] * c[2];
			}
		}
		pdVec3 x = pdiV3( 0, 0, 0 );
		for ( int i = 0; i < k; ++i )
		{
			x = pdiMulAdd( x, lam[i], planes[idx[i]].normal );
		}
		consider( x );
	};
	for ( int a = 0; a < n; ++a )
	{
		int idx1[1] = { a };
		solve( idx1, 1 );
		for ( int b = a + 1; b < n; ++b )
		{
			int idx2[2] = { a, b };
			solve( idx2, 2 );
			for ( int c = b + 1; c < n; ++c )
			{
				int idx3[3] = { a, b, c };
				solve( idx3, 3 );
			}
		}
	}
	return best < INFINITY;
}

pdVec3 RandomUnit( std::mt19937& rng )
{
	std::normal_distribution<double> g( 0.0, 1.0 );
	for ( ;; )
	{
		pdVec3 v = pdiV3( g( rng ), g( rng ), g( rng ) );
		if ( pdiLength( v ) > 1e-3 )
		{
			return pdiNormalize( v );
		}
	}
}

pdiContactPlane Plane( pdVec3 n, double c )
{
	pdiContactPlane p;
	p.normal = pdiNormalize( n );
	p.offset = c;
	p.source = -1;
	return p;
}

void ExpectNear( pdVec3 a, pdVec3 b, double tol )
{
	EXPECT_NEAR( a.x, b.x, tol );
	EXPECT_NEAR( a.y, b.y, tol );
	EXPECT_NEAR( a.z, b.z, tol );
}

} // namespace

TEST( PdLcp, SinglePlaneIsOffsetTimesNormal )
{
	pdiContactPlane p = Plane( pdiV3( 1, 2, 2 ), 3.0 );
	pdiLcpResult r = pdiSolveInProjection( &p, 1, 100, nullptr );
	EXPECT_TRUE( r.converged );
	EXPECT_EQ( r.activeCount, 1 );
	ExpectNear( r.x, pdiScale( p.normal, 3.0 ), 1e-12 );
}

TEST( PdLcp, EmptyAndSatisfiedOriginGiveZero )
{
	pdiLcpResult r = pdiSolveInProjection( nullptr, 0, 100, nullptr );
	EXPECT_TRUE( r.converged );
	EXPECT_EQ( pdiLength( r.x ), 0.0 );
	pdiContactPlane planes[2] = { Plane( pdiV3( 1, 0, 0 ), -1.0 ), Plane( pdiV3( 0, 1, 0 ), 0.0 ) };
	r = pdiSolveInProjection( planes, 2, 100, nullptr );
	EXPECT_TRUE( r.converged );
	EXPECT_EQ( pdiLength( r.x ), 0.0 );
}

TEST( PdLcp, RandomConesMatchBruteForce )
{
	for ( unsigned seed = 1; seed <= 300; ++seed )
	{
		SCOPED_TRACE( "seed " + std::to_string( seed ) );
		std::mt19937 rng( seed );
		std::uniform_int_distribution<int> countDist( 1, 12 );
		std::uniform_real_distribution<double> u( 0.0, 1.0 );
		int count = countDist( rng );
		// Planes through (or short of) a contact configuration xc, as PolyDepth builds them.
		pdVec3 xc = pdiScale( RandomUnit( rng ), 0.5 + 2.0 * u( rng ) );
		std::vector<pdiContactPlane> planes;
		for ( int i = 0; i < count; ++i )
		{
			pdVec3 n = RandomUnit( rng );
			if ( pdiDot( n, xc ) < 0 && u( rng ) < 0.7 )
			{
				n = pdiNeg( n );
			}
			planes.push_back( Plane( n, pdiDot( n, xc ) - 0.1 * u( rng ) ) );
		}
		pdVec3 expected;
		ASSERT_TRUE( BruteForce( planes, &expected ) );
		std::vector<double> lambda( count, 0.0 );
		pdiLcpResult r = pdiSolveInProjection( planes.data(), count, 100, lambda.data() );
		EXPECT_TRUE( r.converged );
		EXPECT_FALSE( r.infeasible );
		EXPECT_LE( r.activeCount, 3 );
		ExpectNear( r.x, expected, 1e-9 );
		// KKT: x = sum lambda_i n_i with lambda >= 0.
		pdVec3 sum = pdiV3( 0, 0, 0 );
		for ( int i = 0; i < count; ++i )
		{
			EXPECT_GE( lambda[i], 0.0 );
			sum = pdiMulAdd( sum, lambda[i], planes[i].normal );
		}
		ExpectNear( sum, r.x, 1e-9 );

		std::vector<double> pgsLambda( count, 0.0 );
		pdiLcpResult pgs = pdiSolveInProjectionPgs( planes.data(), count, 20000, pgsLambda.data() );
		ExpectNear( pgs.x, expected, 1e-6 );
	}
}

TEST( PdLcp, RedundantAndParallelRows )
{
	// The same plane three times, a parallel weaker copy and a slack plane.
	std::vector<pdiContactPlane> planes = {
		Plane( pdiV3( 1, 0, 0 ), 1.0 ), Plane( pdiV3( 1, 0, 0 ), 1.0 ), Plane( pdiV3( 1, 0, 0 ), 1.0 ),
		Plane( pdiV3( 1, 0, 0 ), 0.5 ), Plane( pdiV3( 0, 1, 0 ), 2.0 ),  Plane( pdiV3( 0, 0, 1 ), -3.0 ),
	};
	pdVec3 expected;
	ASSERT_TRUE( BruteForce( planes, &expected ) );
	ExpectNear( expected, pdiV3( 1, 2, 0 ), 1e-12 );
	pdiLcpResult r = pdiSolveInProjection( planes.data(), (int)planes.size(), 100, nullptr );
	EXPECT_TRUE( r.converged );
	ExpectNear( r.x, expected, 1e-12 );
	std::vector<double> lambda( planes.size(), 0.0 );
	pdiLcpResult pgs = pdiSolveInProjectionPgs( planes.data(), (int)planes.size(), 1000, lambda.data() );
	EXPECT_TRUE( pgs.converged );
	ExpectNear( pgs.x, expected, 1e-9 );
}

TEST( PdLcp, DegenerateManyPlanesThroughOneLine )
{
	// Many planes containing the line through (0,0,1) along x: the answer is (0,0,1).
	std::vector<pdiContactPlane> planes;
	for ( int i = 0; i < 10; ++i )
	{
		double a = -0.8 + 0.16 * i;
		pdVec3 n = pdiNormalize( pdiV3( 0, std::sin( a ), std::cos( a ) ) );
		planes.push_back( Plane( n, n.z ) );
	}
	pdVec3 expected;
	ASSERT_TRUE( BruteForce( planes, &expected ) );
	pdiLcpResult r = pdiSolveInProjection( planes.data(), (int)planes.size(), 100, nullptr );
	EXPECT_TRUE( r.converged );
	ExpectNear( r.x, expected, 1e-9 );
	ExpectNear( r.x, pdiV3( 0, 0, 1 ), 1e-9 );
}

TEST( PdLcp, OppositePlanesAreInfeasible )
{
	pdiContactPlane planes[2] = { Plane( pdiV3( 1, 0, 0 ), 1.0 ), Plane( pdiV3( -1, 0, 0 ), 1.0 ) };
	pdiLcpResult r = pdiSolveInProjection( planes, 2, 100, nullptr );
	EXPECT_TRUE( r.infeasible );
	EXPECT_FALSE( r.converged );
	EXPECT_TRUE( pdiIsFiniteVec( r.x ) );
}

TEST( PdLcp, IterationCapIsHonoured )
{
	std::mt19937 rng( 7 );
	std::vector<pdiContactPlane> planes;
	pdVec3 xc = pdiV3( 1, 1, 1 );
	for ( int i = 0; i < 20; ++i )
	{
		pdVec3 n = RandomUnit( rng );
		planes.push_back( Plane( n, pdiDot( n, xc ) ) );
	}
	pdiLcpResult r = pdiSolveInProjection( planes.data(), 20, 1, nullptr );
	EXPECT_LE( r.iterations, 1 );
	EXPECT_TRUE( pdiIsFiniteVec( r.x ) );
	std::vector<double> lambda( 20, 0.0 );
	pdiLcpResult pgs = pdiSolveInProjectionPgs( planes.data(), 20, 1, lambda.data() );
	EXPECT_EQ( pgs.iterations, 1 );
	EXPECT_TRUE( pdiIsFiniteVec( pgs.x ) );
	for ( double l : lambda )
	{
		// Every multiplier is clamped, including the last one of the sweep (bug B4).
		EXPECT_GE( l, 0.0 );
	}
}

TEST( PdLcp, UnitsDoNotMatter )
{
	std::mt19937 rng( 11 );
	std::vector<pdiContactPlane> planes;
	pdVec3 xc = pdiV3( 0.3, -0.2, 0.9 );
	for ( int i = 0; i < 8; ++i )
	{
		pdVec3 n = RandomUnit( rng );
		planes.push_back( Plane( n, pdiDot( n, xc ) ) );
	}
	pdiLcpResult r1 = pdiSolveInProjection( planes.data(), 8, 100, nullptr );
	for ( auto& p : planes )
	{
		p.offset *= 1e-6;
	}
	pdiLcpResult r2 = pdiSolveInProjection( planes.data(), 8, 100, nullptr );
	EXPECT_TRUE( r2.converged );
	ExpectNear( pdiScale( r2.x, 1e6 ), r1.x, 1e-9 );
}
