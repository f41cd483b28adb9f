// SPDX-License-Identifier: MIT
// Triangle-pair primitives (tri_distance.c) against independent oracles: a long-double
// vertex-face / edge-edge reference, barycentric grid sampling, an exact integer
// convex-hull containment test, and fine sampling plus bisection for the time of impact.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>

extern "C"
{
#include "tri_distance.h"
}

#include "tri_fixture.h"

namespace
{

// Checks distance, verdict and closest points of one pair against the reference.
void CheckPair( const Tri& a, const Tri& b, double relTol, const char* what, uint64_t seed, int index )
{
	pdVec3 pa, pb;
	double d = Dist( a, b, &pa, &pb );
	bool hit = pdiTrianglesIntersect( a.v, b.v );
	double ref = (double)RefDistance( a, b );
	double size = Size( a, b );
	double tol = relTol * size + 1e-12 * std::fabs( ref );
	EXPECT_NEAR( d, ref, tol ) << what << " seed " << seed << " pair " << index;
	EXPECT_EQ( hit, d == 0.0 ) << what << " seed " << seed << " pair " << index;
	EXPECT_NEAR( Gap( pa, pb ), d, 1e-12 * size + 1e-12 * d ) << what << " seed " << seed << " pair " << index;
	EXPECT_LE( (double)RefPointTriangle( pa, a ), 1e-11 * size ) << what << " seed " << seed << " pair " << index;
	EXPECT_LE( (double)RefPointTriangle( pb, b ), 1e-11 * size ) << what << " seed " << seed << " pair " << index;
}

// --- Distance ---------------------------------------------------------------------------

TEST( PdTriDistance, RandomPairsMatchReference )
{
	const uint64_t seed = 1234;
	Rng rng( seed );
	int hits = 0;
	for ( int i = 0; i < 4000; ++i )
	{
		// Mix of far, near and overlapping pairs.
		double spread = i % 3 == 0 ? 0.3 : ( i % 3 == 1 ? 1.0 : 3.0 );
		Tri a = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		Tri b = RandomTri( rng, rng.Point( spread ), 1.0 );
		CheckPair( a, b, 1e-12, "random", seed, i );
		hits += pdiTrianglesIntersect( a.v, b.v );
		if ( HasFailure() )
		{
			return;
		}
	}
	EXPECT_GT( hits, 200 );
	EXPECT_LT( hits, 3800 );
}

// The plane cull the feature gathering runs on every leaf pair: a plane that separates by d
// leaves the triangles more than d apart (a cull, never a wrong drop), the plane prepared once
// per triangle gives the verdict of the unprepared test, and a needle separates nothing.
TEST( PdTriDistance, PlaneCullIsConservativeAndPreparedAgrees )
{
	const uint64_t seed = 4321;
	Rng rng( seed );
	int separated = 0;
	for ( int i = 0; i < 4000; ++i )
	{
		Tri a = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		Tri b = RandomTri( rng, rng.Point( i % 2 == 0 ? 1.0 : 3.0 ), 1.0 );
		double reach = 0.05 * ( i % 7 );
		pdiTrianglePlane plane;
		pdiTrianglePlane_Make( a.v, &plane );
		bool prepared = pdiTrianglePlane_Separates( &plane, a.v[0], b.v, reach );
		ASSERT_EQ( prepared, pdiPlaneSeparatesBy( a.v, b.v, reach ) ) << "seed " << seed << " pair " << i;
		if ( prepared )
		{
			separated += 1;
			ASSERT_GT( Dist( a, b ), reach ) << "seed " << seed << " pair " << i;
		}
	}
	EXPECT_GT( separated, 400 );
	EXPECT_LT( separated, 3600 );

	// A needle (collinear corners) and a point have no plane to trust.
	Tri needle = { { V( 0, 0, 0 ), V( 1, 0, 0 ), V( 2, 1e-12, 0 ) } };
	Tri point = { { V( 0, 0, 0 ), V( 0, 0, 0 ), V( 0, 0, 0 ) } };
	Tri far = { { V( 0, 0, 5 ), V( 1, 0, 5 ), V( 0, 1, 5 ) } };
	pdiTrianglePlane plane;
	pdiTrianglePlane_Make( needle.v, &plane );
	EXPECT_EQ( plane.length, 0.0 );
	EXPECT_FALSE( pdiTrianglePlane_Separates( &plane, needle.v[0], far.v, 0.0 ) );
	pdiTrianglePlane_Make( point.v, &plane );
	EXPECT_EQ( plane.length, 0.0 );
	EXPECT_FALSE( pdiPlaneSeparatesBy( point.v, far.v, 0.0 ) );
	// The far triangle's own plane does separate the needle.
	EXPECT_TRUE( pdiPlaneSeparatesBy( far.v, needle.v, 1.0 ) );
}

TEST( PdTriDistance, NeverAboveSampledUpperBound )
{
	const uint64_t seed = 99;
	Rng rng( seed );
	for ( int i = 0; i < 120; ++i )
	{
		Tri a = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		Tri b = RandomTri( rng, rng.Point( 2.0 ), 1.0 );
		double d = Dist( a, b );
		double sampled = SampledDistance( a, b, 14 );
		EXPECT_LE( d, sampled + 1e-12 ) << "seed " << seed << " pair " << i;
		// The grid has spacing <= 2/14 of an edge, so it cannot be far above the truth either.
		EXPECT_GE( d, sampled - 0.5 * Size( a, b ) ) << "seed " << seed << " pair " << i;
	}
}

TEST( PdTriDistance, IntegerGridIntersectionIsExact )
{
	const uint64_t seed = 7;
	Rng rng( seed );
	int hits = 0, degenerate = 0;
	for ( int i = 0; i < 3000; ++i )
	{
		IVec ia[3], ib[3];
		Tri a, b;
		int range = i % 2 == 0 ? 2 : 4;
		for ( int k = 0; k < 3; ++k )
		{
			ia[k] = { rng.Int( -range, range ), rng.Int( -range, range ), rng.Int( -range, range ) };
			ib[k] = { rng.Int( -range, range ), rng.Int( -range, range ), rng.Int( -range, range ) };
			if ( i % 5 == 0 )
			{
				ib[k].z = ia[0].z; // coplanar-heavy
				ia[k].z = ia[0].z;
			}
			a.v[k] = V( (double)ia[k].x, (double)ia[k].y, (double)ia[k].z );
			b.v[k] = V( (double)ib[k].x, (double)ib[k].y, (double)ib[k].z );
		}
		degenerate += IZero( ICross( ISub( ia[1], ia[0] ), ISub( ia[2], ia[0] ) ) );
		bool exact = ExactIntersect( ia, ib );
		bool hit = pdiTrianglesIntersect( a.v, b.v );
		hits += exact;
		ASSERT_EQ( hit, exact ) << "seed " << seed << " pair " << i << " a=(" << ia[0].x << "," << ia[0].y << ","
								<< ia[0].z << ")(" << ia[1].x << "," << ia[1].y << "," << ia[1].z << ")(" << ia[2].x << ","
								<< ia[2].y << "," << ia[2].z << ") b=(" << ib[0].x << "," << ib[0].y << "," << ib[0].z
								<< ")(" << ib[1].x << "," << ib[1].y << "," << ib[1].z << ")(" << ib[2].x << ","
								<< ib[2].y << "," << ib[2].z << ")";
		ASSERT_EQ( Dist( a, b ) == 0.0, exact ) << "seed " << seed << " pair " << i;
	}
	EXPECT_GT( hits, 300 );
	EXPECT_GT( degenerate, 20 );
}

// The same exact verdicts survive a random rotation: touching pairs become off by rounding only
// (far below the touching tolerance), apart ones stay >= ~1e-2 apart. (No large offset here:
// rounding the rotated points at 1e6 moves them by ~1e-10, which is a real change of input.)
TEST( PdTriDistance, RotatedIntegerGridKeepsExactVerdict )
{
	const uint64_t seed = 8;
	Rng rng( seed );
	for ( int i = 0; i < 2000; ++i )
	{
		IVec ia[3], ib[3];
		for ( int k = 0; k < 3; ++k )
		{
			ia[k] = { rng.Int( -3, 3 ), rng.Int( -3, 3 ), i % 2 == 0 ? 0 : rng.Int( -3, 3 ) };
			ib[k] = { rng.Int( -3, 3 ), rng.Int( -3, 3 ), i % 2 == 0 ? 0 : rng.Int( -3, 3 ) };
		}
		bool exact = ExactIntersect( ia, ib );
		// Random rotation from a unit quaternion.
		double qw = rng.Uniform( -1, 1 ), qx = rng.Uniform( -1, 1 ), qy = rng.Uniform( -1, 1 ), qz = rng.Uniform( -1, 1 );
		double qn = std::sqrt( qw * qw + qx * qx + qy * qy + qz * qz );
		pdQuat q = { qw / qn, qx / qn, qy / qn, qz / qn };
		pdiMat33 m = pdiMat33FromQuat( q );
		pdVec3 off = V( 0.5 * ( i % 3 ), -0.25 * ( i % 5 ), 2.0 ); // exact small shifts
		Tri a, b;
		for ( int k = 0; k < 3; ++k )
		{
			a.v[k] = pdiAdd( pdiMulMV( &m, V( (double)ia[k].x, (double)ia[k].y, (double)ia[k].z ) ), off );
			b.v[k] = pdiAdd( pdiMulMV( &m, V( (double)ib[k].x, (double)ib[k].y, (double)ib[k].z ) ), off );
		}
		ASSERT_EQ( pdiTrianglesIntersect( a.v, b.v ), exact ) << "seed " << seed << " pair " << i;
		ASSERT_EQ( Dist( a, b ) == 0.0, exact ) << "seed " << seed << " pair " << i;
	}
}

// --- Permutation invariance -------------------------------------------------------------

void CheckPermutations( const Tri& a, const Tri& b, const char* what, uint64_t seed, int index )
{
	pdVec3 pa0, pb0;
	double d0 = Dist( a, b, &pa0, &pb0 );
	bool hit0 = pdiTrianglesIntersect( a.v, b.v );
	double size = Size( a, b );
	for ( int swap = 0; swap < 2; ++swap )
	{
		for ( int ka = 0; ka < 6; ++ka )
		{
			for ( int kb = 0; kb < 6; ++kb )
			{
				Tri va = Variant( a, ka ), vb = Variant( b, kb );
				pdVec3 pa, pb;
				double d = swap ? Dist( vb, va, &pb, &pa ) : Dist( va, vb, &pa, &pb );
				bool hit = swap ? pdiTrianglesIntersect( vb.v, va.v ) : pdiTrianglesIntersect( va.v, vb.v );
				ASSERT_NEAR( d, d0, 1e-12 * d0 + 1e-300 ) << what << " seed " << seed << " pair " << index << " variant "
														   << swap << ka << kb;
				ASSERT_EQ( hit, hit0 ) << what << " seed " << seed << " pair " << index << " variant " << swap << ka << kb;
				ASSERT_LE( Gap( pa, pa0 ), 1e-12 * size ) << what << " seed " << seed << " pair " << index;
				ASSERT_LE( Gap( pb, pb0 ), 1e-12 * size ) << what << " seed " << seed << " pair " << index;
			}
		}
	}
}

TEST( PdTriDistance, SeventyTwoVariantsAgree )
{
	const uint64_t seed = 4242;
	Rng rng( seed );
	for ( int i = 0; i < 150; ++i )
	{
		Tri a = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		Tri b = RandomTri( rng, rng.Point( i % 2 ? 0.5 : 2.0 ), 1.0 );
		if ( i % 10 == 0 )
		{
			a = Translate( a, V( 1e6, -1e6, 1e6 ) );
			b = Translate( b, V( 1e6, -1e6, 1e6 ) );
		}
		CheckPermutations( a, b, "random", seed, i );
	}
	// Special configurations: shared edge, shared vertex, coplanar, degenerate.
	Tri base = { { V( 0, 0, 0 ), V( 1, 0, 0 ), V( 0, 1, 0 ) } };
	Tri hinge = { { V( 0, 0, 0 ), V( 1, 0, 0 ), V( 0.3, -0.5, 0.7 ) } };
	Tri fan = { { V( 0, 0, 0 ), V( -1, -0.2, 0.1 ), V( -0.3, -1, -0.4 ) } };
	Tri coplanar = { { V( 0.2, 0.2, 0 ), V( 1.2, 0.3, 0 ), V( 0.1, 0.9, 0 ) } };
	Tri farCoplanar = { { V( 2, 2, 0 ), V( 3, 2, 0 ), V( 2, 3, 0 ) } };
	Tri segment = { { V( 0.2, 0.2, -1 ), V( 0.2, 0.2, 1 ), V( 0.2, 0.2, 0.5 ) } };
	Tri point = { { V( 0.3, 0.3, 0.4 ), V( 0.3, 0.3, 0.4 ), V( 0.3, 0.3, 0.4 ) } };
	CheckPermutations( base, hinge, "shared edge", 0, 0 );
	CheckPermutations( base, fan, "shared vertex", 0, 1 );
	CheckPermutations( base, coplanar, "coplanar", 0, 2 );
	CheckPermutations( base, farCoplanar, "coplanar disjoint", 0, 3 );
	CheckPermutations( base, segment, "segment", 0, 4 );
	CheckPermutations( base, point, "point", 0, 5 );
	CheckPermutations( segment, point, "degenerate pair", 0, 6 );
}

TEST( PdTriDistance, FeaturesPermuteWithVertices )
{
	const uint64_t seed = 515;
	Rng rng( seed );
	for ( int i = 0; i < 300; ++i )
	{
		Tri a = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		Tri b = RandomTri( rng, rng.Point( 2.5 ), 1.0 );
		pdiTriFeature fa0, fb0;
		pdiTriangleDistance( a.v, b.v, nullptr, nullptr, &fa0, &fb0 );
		// Reversing a's winding maps vertex i to (3 - i) % 3 and edge i to (2 - i + 3) % 3.
		Tri ra = Variant( a, 3 );
		pdiTriFeature fa, fb;
		pdiTriangleDistance( ra.v, b.v, nullptr, nullptr, &fa, &fb );
		ASSERT_EQ( fa.type, fa0.type ) << "seed " << seed << " pair " << i;
		ASSERT_EQ( fb.type, fb0.type ) << "seed " << seed << " pair " << i;
		ASSERT_EQ( fb.index, fb0.index ) << "seed " << seed << " pair " << i;
		if ( fa0.type == PD_FEATURE_VERTEX )
		{
			ASSERT_EQ( fa.index, ( 3 - fa0.index ) % 3 ) << "seed " << seed << " pair " << i;
		}
		else if ( fa0.type == PD_FEATURE_EDGE )
		{
			ASSERT_EQ( fa.index, ( 5 - fa0.index ) % 3 ) << "seed " << seed << " pair " << i;
		}
		// A/B swap swaps the features.
		pdiTriFeature ga, gb;
		pdiTriangleDistance( b.v, a.v, nullptr, nullptr, &gb, &ga );
		ASSERT_EQ( ga.type, fa0.type ) << "seed " << seed << " pair " << i;
		ASSERT_EQ( ga.index, fa0.index ) << "seed " << seed << " pair " << i;
		ASSERT_EQ( gb.type, fb0.type ) << "seed " << seed << " pair " << i;
		ASSERT_EQ( gb.index, fb0.index ) << "seed " << seed << " pair " << i;
	}
}

// --- Special configurations ---------------------------------------------------------------

TEST( PdTriDistance, Coplanar )
{
	Tri inside = { { V( 0.1, 0.1, 0 ), V( 0.3, 0.1, 0 ), V( 0.1, 0.3, 0 ) } };
	Tri star = { { V( 0.4, -0.2, 0 ), V( 0.4, 0.8, 0 ), V( -0.3, 0.3, 0 ) } };
	Tri apart = { { V( 0.6, 0.6, 0 ), V( 1.6, 0.6, 0 ), V( 0.6, 1.6, 0 ) } }; // gap 0.1*sqrt(2)
	Tri touchingEdge = { { V( 0.5, 0.5, 0 ), V( 1.5, 0.5, 0 ), V( 0.5, 1.5, 0 ) } };
	for ( pdVec3 offset : { V( 0, 0, 0 ), V( 1e6, 1e6, -1e6 ) } )
	{
		EXPECT_EQ( Dist( Translate( kBase, offset ), Translate( inside, offset ) ), 0.0 );
		EXPECT_TRUE( pdiTrianglesIntersect( Translate( kBase, offset ).v, Translate( inside, offset ).v ) );
		EXPECT_EQ( Dist( Translate( kBase, offset ), Translate( star, offset ) ), 0.0 );
		EXPECT_EQ( Dist( Translate( kBase, offset ), Translate( touchingEdge, offset ) ), 0.0 );
		EXPECT_NEAR( Dist( Translate( kBase, offset ), Translate( apart, offset ) ), 0.1 * std::sqrt( 2.0 ), 1e-9 );
		EXPECT_FALSE( pdiTrianglesIntersect( Translate( kBase, offset ).v, Translate( apart, offset ).v ) );
	}
	// Small in-plane gap far from the origin.
	Tri near = { { V( 1 + 1e-6, 0, 0 ), V( 2, 0, 0 ), V( 2, 1, 0 ) } };
	pdVec3 off = V( 1e6, -1e6, 1e6 );
	// Expected gap from the rounded inputs (exact difference of nearby doubles).
	EXPECT_NEAR( Dist( Translate( kBase, off ), Translate( near, off ) ), ( 1 + 1e-6 + off.x ) - ( 1 + off.x ), 1e-15 );
}

TEST( PdTriDistance, SharedEdgeAndVertex )
{
	const uint64_t seed = 31;
	Rng rng( seed );
	for ( int i = 0; i < 200; ++i )
	{
		Tri a = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		Tri b = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		b.v[0] = a.v[1];
		EXPECT_TRUE( pdiTrianglesIntersect( a.v, b.v ) ) << "shared vertex seed " << seed << " pair " << i;
		EXPECT_EQ( Dist( a, b ), 0.0 ) << "shared vertex seed " << seed << " pair " << i;
		b.v[2] = a.v[0];
		EXPECT_TRUE( pdiTrianglesIntersect( a.v, b.v ) ) << "shared edge seed " << seed << " pair " << i;
		EXPECT_EQ( Dist( a, b ), 0.0 ) << "shared edge seed " << seed << " pair " << i;
	}
	// Shared vertex with a fan pointing away: touching at exactly one point.
	Tri fan = { { V( 0, 0, 0 ), V( -1, -0.2, 0.1 ), V( -0.3, -1, -0.4 ) } };
	pdVec3 pa, pb;
	EXPECT_EQ( Dist( kBase, fan, &pa, &pb ), 0.0 );
	EXPECT_LE( pdiLength( pa ), 1e-15 );
	// Moving the fan away gives the vertex-vertex distance.
	EXPECT_NEAR( Dist( kBase, Translate( fan, V( -1e-7, 0, 0 ) ) ), 1e-7, 1e-15 );
}

TEST( PdTriDistance, NearlyCoplanar )
{
	// b tilted by 1e-7 about the x axis, lowest point at height h over a's interior.
	for ( double h : { 1e-9, 1e-6, -1e-9 } )
	{
		for ( pdVec3 offset : { V( 0, 0, 0 ), V( 1e6, 1e6, 1e6 ) } )
		{
			const double tilt = 1e-7;
			Tri b = { { V( 0.1, 0.1, h ), V( 0.6, 0.1, h ), V( 0.1, 0.6, h + 0.5 * tilt ) } };
			Tri a = Translate( kBase, offset );
			b = Translate( b, offset );
			double d = Dist( a, b );
			if ( h > 0 )
			{
				EXPECT_NEAR( d, h, 1e-10 * h + 2e-10 * ( offset.x != 0 ) ) << "h " << h;
				EXPECT_FALSE( pdiTrianglesIntersect( a.v, b.v ) );
			}
			else
			{
				EXPECT_EQ( d, 0.0 );
				EXPECT_TRUE( pdiTrianglesIntersect( a.v, b.v ) );
			}
		}
	}
}

TEST( PdTriDistance, DegenerateTriangles )
{
	Tri stick = { { V( 0.2, 0.2, -1 ), V( 0.2, 0.2, 1 ), V( 0.2, 0.2, 0.25 ) } };
	EXPECT_TRUE( pdiTrianglesIntersect( kBase.v, stick.v ) );
	EXPECT_EQ( Dist( kBase, stick ), 0.0 );
	Tri above = Translate( stick, V( 0, 0, 1.5 ) );
	EXPECT_NEAR( Dist( kBase, above ), 0.5, 1e-15 );
	Tri repeated = { { V( 0.2, 0.2, 0.3 ), V( 0.2, 0.2, 0.3 ), V( 0.2, 0.2, 0.3 ) } };
	EXPECT_NEAR( Dist( kBase, repeated ), 0.3, 1e-15 );
	EXPECT_FALSE( pdiTrianglesIntersect( kBase.v, repeated.v ) );
	Tri onFace = { { V( 0.2, 0.2, 0 ), V( 0.2, 0.2, 0 ), V( 0.2, 0.2, 0 ) } };
	EXPECT_TRUE( pdiTrianglesIntersect( kBase.v, onFace.v ) );
	Tri p2 = { { V( 1.2, 0.2, 0.3 ), V( 1.2, 0.2, 0.3 ), V( 1.2, 0.2, 0.3 ) } };
	EXPECT_NEAR( Dist( repeated, p2 ), 1.0, 1e-15 );
	// Two collinear-point triangles crossing, and parallel ones apart.
	Tri sx = { { V( -1, 0, 0 ), V( 1, 0, 0 ), V( 0.5, 0, 0 ) } };
	Tri sy = { { V( 0, -1, 0 ), V( 0, 1, 0 ), V( 0, 0.5, 0 ) } };
	EXPECT_TRUE( pdiTrianglesIntersect( sx.v, sy.v ) );
	EXPECT_NEAR( Dist( sx, Translate( sy, V( 0, 0, 0.25 ) ) ), 0.25, 1e-15 );
	EXPECT_NEAR( Dist( sx, Translate( sx, V( 0, 0.5, 0 ) ) ), 0.5, 1e-15 );
	EXPECT_NEAR( Dist( sx, Translate( sx, V( 3, 0, 0 ) ) ), 1.0, 1e-15 );
	// Needle and sliver triangles against the random reference.
	const uint64_t seed = 77;
	Rng rng( seed );
	for ( int i = 0; i < 500; ++i )
	{
		Tri a = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		Tri b = RandomTri( rng, rng.Point( 1.0 ), 1.0 );
		double w = std::pow( 10.0, -rng.Uniform( 3, 12 ) );
		// Needle: third vertex close to the first edge's midpoint.
		b.v[2] = V( 0.5 * ( b.v[0].x + b.v[1].x ) + w, 0.5 * ( b.v[0].y + b.v[1].y ) - w, 0.5 * ( b.v[0].z + b.v[1].z ) );
		if ( i % 2 )
		{
			b.v[2] = V( b.v[0].x + w, b.v[0].y, b.v[0].z - w ); // short edge: sliver at a vertex
		}
		// Needles may be treated as their edges: the error is bounded by their width.
		pdVec3 pa, pb;
		double d = Dist( a, b, &pa, &pb );
		double ref = (double)RefDistance( a, b );
		EXPECT_NEAR( d, ref, 1e-12 * Size( a, b ) + 2.0 * w ) << "seed " << seed << " pair " << i;
		EXPECT_EQ( pdiTrianglesIntersect( a.v, b.v ), d == 0.0 ) << "seed " << seed << " pair " << i;
		EXPECT_NEAR( Gap( pa, pb ), d, 1e-12 ) << "seed " << seed << " pair " << i;
	}
}

TEST( PdTriDistance, HugeOffsetSmallSeparation )
{
	const uint64_t seed = 2024;
	Rng rng( seed );
	for ( int i = 0; i < 300; ++i )
	{
		Tri a = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		Tri b = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		pdVec3 pa, pb;
		double d = Dist( a, b, &pa, &pb );
		if ( d == 0.0 )
		{
			continue;
		}
		// Move b so the gap is 1e-6, then move both far away.
		pdVec3 dir = pdiScale( pdiSub( pa, pb ), 1.0 / d );
		Tri bb = Translate( b, pdiScale( dir, d - 1e-6 ) );
		pdVec3 off = V( 1e6 + 0.25, -1e6, 3e6 );
		Tri fa = Translate( a, off ), fb = Translate( bb, off );
		double dn = Dist( a, bb );
		double df = Dist( fa, fb );
		EXPECT_NEAR( dn, 1e-6, 1e-12 ) << "seed " << seed << " pair " << i;
		// The inputs themselves are rounded to ~5e-10 at 3e6.
		EXPECT_NEAR( df, dn, 2e-9 ) << "seed " << seed << " pair " << i;
		EXPECT_FALSE( pdiTrianglesIntersect( fa.v, fb.v ) ) << "seed " << seed << " pair " << i;
	}
}

// Random pairs pushed to tiny gaps, and random nearly coplanar pairs (1e-7 tilt), against the
// reference; scale 1e-3 and 1e3 check that the tolerances follow the triangles' size.
TEST( PdTriDistance, TinyGapsAndNearlyCoplanarRandom )
{
	const uint64_t seed = 4711;
	Rng rng( seed );
	for ( int i = 0; i < 600; ++i )
	{
		double scale = i % 3 == 0 ? 1e-3 : ( i % 3 == 1 ? 1.0 : 1e3 );
		Tri a = RandomTri( rng, V( 0, 0, 0 ), scale );
		Tri b = RandomTri( rng, V( 0, 0, 0 ), scale );
		if ( i % 2 == 1 )
		{
			// b in a's plane, then tilted by 1e-7 about a random in-plane axis through a.v[0].
			pdVec3 n = pdiNormalize( pdiCross( pdiSub( a.v[1], a.v[0] ), pdiSub( a.v[2], a.v[0] ) ) );
			for ( int k = 0; k < 3; ++k )
			{
				pdVec3 r = pdiSub( b.v[k], a.v[0] );
				b.v[k] = pdiSub( b.v[k], pdiScale( n, pdiDot( r, n ) ) );
			}
			pdVec3 axis = pdiNormalize( pdiSub( b.v[1], b.v[0] ) );
			pdVec3 side = pdiCross( n, axis );
			for ( int k = 0; k < 3; ++k )
			{
				double along = pdiDot( pdiSub( b.v[k], b.v[0] ), side );
				b.v[k] = pdiMulAdd( b.v[k], 1e-7 * along, n );
			}
			b = Translate( b, pdiScale( n, scale * rng.Uniform( -1e-7, 1e-7 ) ) );
			CheckPair( a, b, 1e-12, "nearly coplanar", seed, i );
		}
		else
		{
			pdVec3 pa, pb;
			double d = Dist( a, b, &pa, &pb );
			if ( d == 0.0 )
			{
				continue;
			}
			double gap = scale * std::pow( 10.0, -rng.Uniform( 3, 11 ) );
			pdVec3 dir = pdiScale( pdiSub( pa, pb ), 1.0 / d );
			Tri bb = Translate( b, pdiScale( dir, d - gap ) );
			EXPECT_NEAR( Dist( a, bb ), gap, 1e-13 * scale + 1e-9 * gap ) << "seed " << seed << " pair " << i;
			CheckPair( a, bb, 1e-12, "tiny gap", seed, i );
		}
		if ( HasFailure() )
		{
			return;
		}
	}
}

TEST( PdTriDistance, KissingSweep )
{
	const uint64_t seed = 808;
	Rng rng( seed );
	int tested = 0;
	for ( int i = 0; i < 60; ++i )
	{
		Tri a = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		Tri b = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		pdVec3 pa, pb;
		pdiTriFeature fa, fb;
		double d = pdiTriangleDistance( a.v, b.v, &pa, &pb, &fa, &fb );
		// Vertex-face and edge-edge closest pairs sit on a face of the Minkowski difference, so
		// moving along the separation direction is sure to pass through; vertex-edge and
		// vertex-vertex ones may only graze.
		bool throughFace = fa.type == PD_FEATURE_FACE || fb.type == PD_FEATURE_FACE ||
						   ( fa.type == PD_FEATURE_EDGE && fb.type == PD_FEATURE_EDGE );
		if ( d == 0.0 || !throughFace )
		{
			continue;
		}
		++tested;
		pdVec3 n = pdiScale( pdiSub( pa, pb ), 1.0 / d );
		pdVec3 off = i % 2 ? V( 1e6, 1e6, -1e6 ) : V( 0, 0, 0 );
		const double eps = 1e-6;
		const int steps = 200;
		double prev = INFINITY;
		bool prevHit = false;
		int flips = 0;
		for ( int k = 0; k <= steps; ++k )
		{
			// Gap runs from +eps to -eps along -n.
			double gap = eps - 2.0 * eps * k / steps;
			Tri m = Translate( a, pdiScale( n, gap - d ) );
			m = Translate( m, off );
			Tri fb = Translate( b, off );
			double dk = Dist( m, fb );
			bool hit = pdiTrianglesIntersect( m.v, fb.v );
			ASSERT_EQ( hit, dk == 0.0 ) << "seed " << seed << " pair " << i << " step " << k;
			ASSERT_LE( dk, prev + 1e-9 ) << "seed " << seed << " pair " << i << " step " << k;
			if ( k > 0 )
			{
				ASSERT_LE( std::fabs( dk - prev ), 2.0 * eps / steps + 1e-9 ) << "seed " << seed << " pair " << i;
			}
			if ( off.x == 0 )
			{
				ASSERT_NEAR( dk, std::max( gap, 0.0 ), 1e-12 ) << "seed " << seed << " pair " << i << " step " << k;
			}
			flips += k > 0 && hit != prevHit;
			prev = dk;
			prevHit = hit;
		}
		EXPECT_EQ( flips, 1 ) << "seed " << seed << " pair " << i;
		EXPECT_TRUE( prevHit ) << "seed " << seed << " pair " << i;
	}
	EXPECT_GT( tested, 10 );
}

// --- Time of impact -----------------------------------------------------------------------

Ld RefDistanceMoved( const Tri& a, pdVec3 v, double t, const Tri& b )
{
	Tri m = Translate( a, pdiScale( v, t ) );
	return RefDistance( m, b );
}

TEST( PdTriDistance, ToiIsConservativeAndAccurate )
{
	const uint64_t seed = 31337;
	Rng rng( seed );
	int hitsSeen = 0, missesSeen = 0;
	for ( int i = 0; i < 120; ++i )
	{
		Tri a = RandomTri( rng, V( -2.5, 0, 0 ), 1.0 );
		Tri b = RandomTri( rng, V( 0, 0, 0 ), 1.0 );
		pdVec3 v = V( 5.0, rng.Uniform( -2, 2 ), rng.Uniform( -2, 2 ) );
		double target = i % 3 == 0 ? 0.0 : rng.Uniform( 0.0, 0.3 );
		const double tMax = 1.0;
		double t = -1.0;
		bool hit = pdiTriangleTranslationToi( a.v, b.v, v, tMax, target, &t );

		// Oracle: first sample within target, then bisection.
		const int samples = 1000;
		double tTrue = -1.0;
		if ( RefDistanceMoved( a, v, 0.0, b ) <= target )
		{
			tTrue = 0.0;
		}
		for ( int k = 1; k <= samples && tTrue < 0.0; ++k )
		{
			double tk = tMax * k / samples;
			if ( RefDistanceMoved( a, v, tk, b ) <= target )
			{
				double lo = tMax * ( k - 1 ) / samples, hi = tk;
				for ( int it = 0; it < 60; ++it )
				{
					double mid = 0.5 * ( lo + hi );
					( RefDistanceMoved( a, v, mid, b ) <= target ? hi : lo ) = mid;
				}
				tTrue = hi;
			}
		}
		if ( tTrue >= 0.0 )
		{
			++hitsSeen;
			ASSERT_TRUE( hit ) << "seed " << seed << " pair " << i;
			EXPECT_LE( t, tTrue + 1e-12 ) << "seed " << seed << " pair " << i;
			EXPECT_GE( t, tTrue - 1e-9 ) << "seed " << seed << " pair " << i;
		}
		else if ( hit )
		{
			// Only a graze between samples may hit without the oracle seeing it.
			EXPECT_LE( (double)RefDistanceMoved( a, v, t, b ), target + 1e-6 ) << "seed " << seed << " pair " << i;
		}
		else
		{
			++missesSeen;
		}
		if ( hit )
		{
			// Never past the contact: the distance at t is not below the target.
			EXPECT_GE( (double)RefDistanceMoved( a, v, t, b ), target - 1e-12 ) << "seed " << seed << " pair " << i;
		}
		if ( HasFailure() )
		{
			return;
		}
	}
	EXPECT_GT( hitsSeen, 30 );
	EXPECT_GT( missesSeen, 10 );
}

TEST( PdTriDistance, ToiSpecialCases )
{
	Tri b = kBase;
	Tri a = Translate( kBase, V( 0.1, 0.1, 1.0 ) );
	double t = -1;
	// Moving away or sideways never comes closer.
	EXPECT_FALSE( pdiTriangleTranslationToi( a.v, b.v, V( 0, 0, 1 ), 1.0, 0.0, &t ) );
	EXPECT_FALSE( pdiTriangleTranslationToi( a.v, b.v, V( 1, 0, 0 ), 1.0, 0.5, &t ) );
	EXPECT_FALSE( pdiTriangleTranslationToi( a.v, b.v, V( 0, 0, 0 ), 1.0, 0.5, &t ) );
	// Too short a motion.
	EXPECT_FALSE( pdiTriangleTranslationToi( a.v, b.v, V( 0, 0, -0.5 ), 1.0, 0.0, &t ) );
	// Straight down: contact at t = 0.5 for speed 2, at 0.25 with target 0.5.
	ASSERT_TRUE( pdiTriangleTranslationToi( a.v, b.v, V( 0, 0, -2 ), 1.0, 0.0, &t ) );
	EXPECT_LE( t, 0.5 );
	EXPECT_NEAR( t, 0.5, 1e-9 );
	ASSERT_TRUE( pdiTriangleTranslationToi( a.v, b.v, V( 0, 0, -2 ), 1.0, 0.5, &t ) );
	EXPECT_LE( t, 0.25 );
	EXPECT_NEAR( t, 0.25, 1e-9 );
	// Already within the target: t = 0.
	t = -1;
	EXPECT_TRUE( pdiTriangleTranslationToi( a.v, b.v, V( 0, 0, 1 ), 1.0, 1.5, &t ) );
	EXPECT_EQ( t, 0.0 );
	EXPECT_TRUE( pdiTriangleTranslationToi( kBase.v, b.v, V( 1, 2, 3 ), 1.0, 0.0, &t ) );
	EXPECT_EQ( t, 0.0 );
	// Grazing: an edge slides over another at height 1e-3 and never reaches 0.
	Tri ex = { { V( -1, 0.5, 1e-3 ), V( -0.5, 0.5, 1e-3 ), V( -0.75, 0.5, 1.0 ) } };
	EXPECT_FALSE( pdiTriangleTranslationToi( ex.v, b.v, V( 3, 0, 0 ), 1.0, 0.0, &t ) );
	ASSERT_TRUE( pdiTriangleTranslationToi( ex.v, b.v, V( 3, 0, 0 ), 1.0, 2e-3, &t ) );
	EXPECT_LE( t, 0.5 / 3.0 );
	// Far from the origin.
	pdVec3 off = V( 1e6, -1e6, 1e6 );
	Tri fa = Translate( a, off ), fb = Translate( b, off );
	ASSERT_TRUE( pdiTriangleTranslationToi( fa.v, fb.v, V( 0, 0, -2 ), 1.0, 1e-6, &t ) );
	EXPECT_LE( t, 0.5 - 0.5e-6 + 1e-12 );
	EXPECT_NEAR( t, 0.5 - 0.5e-6, 1e-9 );
}

} // namespace
