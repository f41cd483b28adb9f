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
bool BruteForce( const std::vector<pdContactPlane>& planes, pdVec3* out )
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
			if ( pdDot( p.normal, x ) < p.offset - 1e-9 * scale )
			{
				return;
			}
		}
		double len = pdLength( x );
		if ( len < best )
		{
			best = len;
			*out = x;
		}
	};
	consider( pdV3( 0, 0, 0 ) );
	// Minimum-norm solution of the k equalities: x = N^T g^-1 c (k <= 3, g = N N^T).
	auto solve = [&]( const int* idx, int k ) {
		double g[3][3], c[3], lam[3];
		for ( int i = 0; i < k; ++i )
		{
			for ( int j = 0; j < k; ++j )
			{
				g[i][j] = pdDot( planes[idx[i]].normal, planes[idx[j]].normal );
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
		pdVec3 x = pdV3( 0, 0, 0 );
		for ( int i = 0; i < k; ++i )
		{
			x = pdMulAdd( x, lam[i], planes[idx[i]].normal );
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
		pdVec3 v = pdV3( g( rng ), g( rng ), g( rng ) );
		if ( pdLength( v ) > 1e-3 )
		{
			return pdNormalize( v );
		}
	}
}

pdContactPlane Plane( pdVec3 n, double c )
{
	pdContactPlane p;
	p.normal = pdNormalize( n );
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
	pdContactPlane p = Plane( pdV3( 1, 2, 2 ), 3.0 );
	pdLcpResult r = pdSolveInProjection( &p, 1, 100, nullptr );
	EXPECT_TRUE( r.converged );
	EXPECT_EQ( r.activeCount, 1 );
	ExpectNear( r.x, pdScale( p.normal, 3.0 ), 1e-12 );
}

TEST( PdLcp, EmptyAndSatisfiedOriginGiveZero )
{
	pdLcpResult r = pdSolveInProjection( nullptr, 0, 100, nullptr );
	EXPECT_TRUE( r.converged );
	EXPECT_EQ( pdLength( r.x ), 0.0 );
	pdContactPlane planes[2] = { Plane( pdV3( 1, 0, 0 ), -1.0 ), Plane( pdV3( 0, 1, 0 ), 0.0 ) };
	r = pdSolveInProjection( planes, 2, 100, nullptr );
	EXPECT_TRUE( r.converged );
	EXPECT_EQ( pdLength( r.x ), 0.0 );
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
		pdVec3 xc = pdScale( RandomUnit( rng ), 0.5 + 2.0 * u( rng ) );
		std::vector<pdContactPlane> planes;
		for ( int i = 0; i < count; ++i )
		{
			pdVec3 n = RandomUnit( rng );
			if ( pdDot( n, xc ) < 0 && u( rng ) < 0.7 )
			{
				n = pdNeg( n );
			}
			planes.push_back( Plane( n, pdDot( n, xc ) - 0.1 * u( rng ) ) );
		}
		pdVec3 expected;
		ASSERT_TRUE( BruteForce( planes, &expected ) );
		std::vector<double> lambda( count, 0.0 );
		pdLcpResult r = pdSolveInProjection( planes.data(), count, 100, lambda.data() );
		EXPECT_TRUE( r.converged );
		EXPECT_FALSE( r.infeasible );
		EXPECT_LE( r.activeCount, 3 );
		ExpectNear( r.x, expected, 1e-9 );
		// KKT: x = sum lambda_i n_i with lambda >= 0.
		pdVec3 sum = pdV3( 0, 0, 0 );
		for ( int i = 0; i < count; ++i )
		{
			EXPECT_GE( lambda[i], 0.0 );
			sum = pdMulAdd( sum, lambda[i], planes[i].normal );
		}
		ExpectNear( sum, r.x, 1e-9 );

		std::vector<double> pgsLambda( count, 0.0 );
		pdLcpResult pgs = pdSolveInProjectionPgs( planes.data(), count, 20000, pgsLambda.data() );
		ExpectNear( pgs.x, expected, 1e-6 );
	}
}

TEST( PdLcp, RedundantAndParallelRows )
{
	// The same plane three times, a parallel weaker copy and a slack plane.
	std::vector<pdContactPlane> planes = {
		Plane( pdV3( 1, 0, 0 ), 1.0 ), Plane( pdV3( 1, 0, 0 ), 1.0 ), Plane( pdV3( 1, 0, 0 ), 1.0 ),
		Plane( pdV3( 1, 0, 0 ), 0.5 ), Plane( pdV3( 0, 1, 0 ), 2.0 ),  Plane( pdV3( 0, 0, 1 ), -3.0 ),
	};
	pdVec3 expected;
	ASSERT_TRUE( BruteForce( planes, &expected ) );
	ExpectNear( expected, pdV3( 1, 2, 0 ), 1e-12 );
	pdLcpResult r = pdSolveInProjection( planes.data(), (int)planes.size(), 100, nullptr );
	EXPECT_TRUE( r.converged );
	ExpectNear( r.x, expected, 1e-12 );
	std::vector<double> lambda( planes.size(), 0.0 );
	pdLcpResult pgs = pdSolveInProjectionPgs( planes.data(), (int)planes.size(), 1000, lambda.data() );
	EXPECT_TRUE( pgs.converged );
	ExpectNear( pgs.x, expected, 1e-9 );
}

TEST( PdLcp, DegenerateManyPlanesThroughOneLine )
{
	// Many planes containing the line through (0,0,1) along x: the answer is (0,0,1).
	std::vector<pdContactPlane> planes;
	for ( int i = 0; i < 10; ++i )
	{
		double a = -0.8 + 0.16 * i;
		pdVec3 n = pdNormalize( pdV3( 0, std::sin( a ), std::cos( a ) ) );
		planes.push_back( Plane( n, n.z ) );
	}
	pdVec3 expected;
	ASSERT_TRUE( BruteForce( planes, &expected ) );
	pdLcpResult r = pdSolveInProjection( planes.data(), (int)planes.size(), 100, nullptr );
	EXPECT_TRUE( r.converged );
	ExpectNear( r.x, expected, 1e-9 );
	ExpectNear( r.x, pdV3( 0, 0, 1 ), 1e-9 );
}

TEST( PdLcp, OppositePlanesAreInfeasible )
{
	pdContactPlane planes[2] = { Plane( pdV3( 1, 0, 0 ), 1.0 ), Plane( pdV3( -1, 0, 0 ), 1.0 ) };
	pdLcpResult r = pdSolveInProjection( planes, 2, 100, nullptr );
	EXPECT_TRUE( r.infeasible );
	EXPECT_FALSE( r.converged );
	EXPECT_TRUE( pdIsFiniteVec( r.x ) );
}

TEST( PdLcp, IterationCapIsHonoured )
{
	std::mt19937 rng( 7 );
	std::vector<pdContactPlane> planes;
	pdVec3 xc = pdV3( 1, 1, 1 );
	for ( int i = 0; i < 20; ++i )
	{
		pdVec3 n = RandomUnit( rng );
		planes.push_back( Plane( n, pdDot( n, xc ) ) );
	}
	pdLcpResult r = pdSolveInProjection( planes.data(), 20, 1, nullptr );
	EXPECT_LE( r.iterations, 1 );
	EXPECT_TRUE( pdIsFiniteVec( r.x ) );
	std::vector<double> lambda( 20, 0.0 );
	pdLcpResult pgs = pdSolveInProjectionPgs( planes.data(), 20, 1, lambda.data() );
	EXPECT_EQ( pgs.iterations, 1 );
	EXPECT_TRUE( pdIsFiniteVec( pgs.x ) );
	for ( double l : lambda )
	{
		// Every multiplier is clamped, including the last one of the sweep (bug B4).
		EXPECT_GE( l, 0.0 );
	}
}

TEST( PdLcp, UnitsDoNotMatter )
{
	std::mt19937 rng( 11 );
	std::vector<pdContactPlane> planes;
	pdVec3 xc = pdV3( 0.3, -0.2, 0.9 );
	for ( int i = 0; i < 8; ++i )
	{
		pdVec3 n = RandomUnit( rng );
		planes.push_back( Plane( n, pdDot( n, xc ) ) );
	}
	pdLcpResult r1 = pdSolveInProjection( planes.data(), 8, 100, nullptr );
	for ( auto& p : planes )
	{
		p.offset *= 1e-6;
	}
	pdLcpResult r2 = pdSolveInProjection( planes.data(), 8, 100, nullptr );
	EXPECT_TRUE( r2.converged );
	ExpectNear( pdScale( r2.x, 1e6 ), r1.x, 1e-9 );
}
