// SPDX-License-Identifier: MIT
// The PolyDepth iteration from a contact configuration (refine.c, pdiQuery_Refine). Oracles: the
// exact PD of two axis-aligned boxes (the smallest axis overlap, testOracleBoxBox), pdCollide
// and pdComputeDistance for the validity of every bound the iteration offers, and the
// iteration run again with every smaller cap for the sequence of bounds it offered.
#include "penetration_test.h"

#include <algorithm>

namespace
{

const pdVec3 kAxes[3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };

// What one refinement left in the query.
struct Refined
{
	pdVec3 best;
	double bestLength;
	int iterations;
	bool iterationLimit;
};

// The workspace comes from PdPenetration.
class PdRefine : public PdPenetration
{
protected:
	// A start at xc (StartAt) or from the free translation `from` (StartFrom), refined with the
	// iteration cap `cap`.
	Refined Refine( const Mesh& a, const pdTransform& pa, const Mesh& b, const pdTransform& pb, bool outProject,
					pdVec3 start, int cap, double* outStartLength = nullptr )
	{
		QueryState state;
		state.def.maxIterations = cap;
		Refined r = {};
		EXPECT_TRUE( state.Begin( a.mesh, pa, b.mesh, pb, ws ) );
		pdVec3 xc = start;
		if ( outProject )
		{
			EXPECT_TRUE( state.StartFrom( start, &xc ) );
		}
		else
		{
			EXPECT_TRUE( state.StartAt( xc ) );
		}
		if ( outStartLength != nullptr )
		{
			*outStartLength = state.q.bestLength;
		}
		pdiQuery_Refine( &state.q, xc );
		EXPECT_TRUE( state.q.haveBest );
		r.best = state.q.best;
		r.bestLength = state.q.bestLength;
		r.iterations = state.q.iterations;
		r.iterationLimit = state.q.iterationLimit;
		return r;
	}

	// A translated by x is at most touching B (pdCollide, containment counted) and in contact
	// (pdComputeDistance within the tolerance).
	void ExpectContactConfiguration( const Mesh& a, pdTransform pa, const Mesh& b, const pdTransform& pb, pdVec3 x,
									 const char* what )
	{
		pa.p = Add( pa.p, x );
		pdCollideDef collideDef = pdDefaultCollideDef();
		pdCollideResult c;
		ASSERT_GE( pdCollide( a.mesh, &pa, b.mesh, &pb, &collideDef, ws, &c ), 0 );
		EXPECT_FALSE( c.colliding ) << what << ": colliding at " << x.x << " " << x.y << " " << x.z;
		pdDistanceDef distanceDef = pdDefaultDistanceDef();
		pdDistanceResult d;
		ASSERT_GE( pdComputeDistance( a.mesh, &pa, b.mesh, &pb, &distanceDef, ws, &d ), 0 );
		EXPECT_LE( d.distance, Tolerance( a.mesh, b.mesh ) )
			<< what << ": not a contact at " << x.x << " " << x.y << " " << x.z;
	}

	// The refinement from a start with the default cap, then again with every cap below the
	// iterations it took: the bounds offered after each iteration never lengthen, each is a
	// valid contact configuration, the counts stay within the cap and a cap that stops the
	// iteration early says so. Returns the uncapped refinement.
	Refined RefineChecked( const Mesh& a, const pdTransform& pa, const Mesh& b, const pdTransform& pb, bool outProject,
						   pdVec3 start, const char* what )
	{
		int cap = pdDefaultPenetrationDef().maxIterations;
		double startLength = 0.0;
		Refined full = Refine( a, pa, b, pb, outProject, start, cap, &startLength );
		EXPECT_LE( full.bestLength, startLength ) << what;
		EXPECT_GE( full.iterations, 1 ) << what;
		EXPECT_LE( full.iterations, cap ) << what;
		ExpectContactConfiguration( a, pa, b, pb, full.best, what );
		double previous = startLength;
		for ( int k = 1; k <= full.iterations; ++k )
		{
			Refined capped = Refine( a, pa, b, pb, outProject, start, k );
			EXPECT_LE( capped.iterations, k ) << what << ", cap " << k;
			EXPECT_EQ( capped.iterationLimit, k < full.iterations ) << what << ", cap " << k;
			EXPECT_LE( capped.bestLength, previous ) << what << ", cap " << k;
			ExpectContactConfiguration( a, pa, b, pb, capped.best, what );
			previous = capped.bestLength;
		}
		EXPECT_EQ( previous, full.bestLength ) << what;
		return full;
	}

	void ExpectExactPdFrom( int faces, pdVec3 slide, int iterations, const char* what );
};

// A unit cube A centred at cA inside the cube B of side 2 at the origin. The contact space is
// the box of half extent 1.5 around -cA; along each axis the cheaper side is sign(cA_i), at the
// depth 1.5 - |cA_i|. The three cases put the exact PD on x, y and z in turn.
struct BoxCase
{
	pdVec3 centerA;
	int axis; // of the exact PD
};
const BoxCase kBoxCases[] = { { { 0.9, 0.3, 0.2 }, 0 }, { { 0.2, -1.05, 0.3 }, 1 }, { { -0.3, 0.25, 0.75 }, 2 } };

struct BoxPair
{
	Mesh a, b;
	pdTransform pa, pb;
	double tol = 0.0;
	double gap = 0.0;
	pdVec3 side[3];  // the cheaper side along each axis (unit)
	double depth[3]; // the depth along it
	int order[3];    // axes by depth, smallest first
	TestOracleResult exact;

	bool Make( const BoxCase& c )
	{
		if ( !smpMakeBox( { 0.5, 0.5, 0.5 }, 1, &a.soup ) || !a.Make() || !smpMakeBox( { 1, 1, 1 }, 1, &b.soup ) ||
			 !b.Make() )
		{
			return false;
		}
		pa = Pose( c.centerA );
		pb = Pose( { 0, 0, 0 } );
		tol = Tolerance( a.mesh, b.mesh );
		gap = 0.3 * tol;
		const double ca[3] = { c.centerA.x, c.centerA.y, c.centerA.z };
		for ( int i = 0; i < 3; ++i )
		{
			side[i] = Scale( kAxes[i], ca[i] < 0.0 ? -1.0 : 1.0 );
			depth[i] = 1.5 - std::fabs( ca[i] );
			order[i] = i;
		}
		std::sort( order, order + 3, [&]( int i, int j ) { return depth[i] < depth[j]; } );
		exact = testOracleBoxBox( c.centerA, { 0.5, 0.5, 0.5 }, { 0, 0, 0 }, { 1, 1, 1 } );
		return exact.ok && order[0] == c.axis;
	}

	// The contact configuration touching (at the gap) the faces of the first `faces` axes of
	// `order`, elsewhere at the offsets `slide` (inside the faces).
	pdVec3 Contact( int faces, pdVec3 slide ) const
	{
		pdVec3 x = slide;
		double* xs[3] = { &x.x, &x.y, &x.z };
		for ( int k = 0; k < faces; ++k )
		{
			int i = order[k];
			*xs[i] = Dot( side[i], kAxes[i] ) * ( depth[i] + gap );
		}
		return x;
	}
};

void ExpectExactPd( const BoxPair& p, const Refined& r, const char* what )
{
	EXPECT_GE( r.bestLength, p.exact.depth ) << what;
	EXPECT_LE( r.bestLength, p.exact.depth + p.tol ) << what;
	EXPECT_LE( Length( Sub( r.best, p.exact.translation ) ), p.tol ) << what;
}

} // namespace

// The oracle's PD is the analytic one: the smallest depth along its side.
TEST_F( PdRefine, BoxCasesHaveTheAnalyticExactPd )
{
	for ( const BoxCase& c : kBoxCases )
	{
		BoxPair p;
		ASSERT_TRUE( p.Make( c ) );
		int i = p.order[0];
		EXPECT_NEAR( p.exact.depth, p.depth[i], 1e-15 );
		EXPECT_NEAR( Length( Sub( p.exact.translation, Scale( p.side[i], p.depth[i] ) ) ), 0.0, 1e-15 );
	}
}

// For each box case, the start touching the faces of the `faces` smallest depths (at the
// offsets `slide` elsewhere) refined: the exact PD after `iterations` iterations, checked as
// RefineChecked does. One iteration means the first in-projection was no shorter: the start
// itself stays the bound.
void PdRefine::ExpectExactPdFrom( int faces, pdVec3 slide, int iterations, const char* what )
{
	for ( const BoxCase& c : kBoxCases )
	{
		BoxPair p;
		ASSERT_TRUE( p.Make( c ) );
		pdVec3 xc = p.Contact( faces, slide );
		Refined r = RefineChecked( p.a, p.pa, p.b, p.pb, false, xc, what );
		ExpectExactPd( p, r, what );
		EXPECT_EQ( r.iterations, iterations ) << what;
		EXPECT_FALSE( r.iterationLimit ) << what;
		if ( iterations == 1 )
		{
			EXPECT_EQ( r.best.x, xc.x ) << what;
			EXPECT_EQ( r.best.y, xc.y ) << what;
			EXPECT_EQ( r.best.z, xc.z ) << what;
		}
	}
}

// On the optimal face away from its foot: one in-projection lands at the foot, in contact, and
// the next finds nothing shorter.
TEST_F( PdRefine, FromTheOptimalFaceReachesTheExactPd )
{
	ExpectExactPdFrom( 1, { 0.3, -0.2, 0.25 }, 2, "optimal face" );
}

// On the edge of the contact space between the optimal face and the next (parallel edges of
// A and B, no feature pair): the closest pair's plane projects o out into free space, the
// out-projection toward o lands on the optimal face, and its plane gives the foot.
TEST_F( PdRefine, FromAnEdgeOfTheContactSpaceReachesTheExactPd )
{
	ExpectExactPdFrom( 2, { 0.1, 0.1, 0.1 }, 3, "edge" );
}

// At a vertex of the contact space (corner of A against corner of B): as from an edge, through
// the closest pair's plane along the diagonal.
TEST_F( PdRefine, FromAVertexOfTheContactSpaceReachesTheExactPd )
{
	ExpectExactPdFrom( 3, { 0, 0, 0 }, 3, "vertex" );
}

// At the foot of the optimal face already: the projection is no shorter, the bound stays.
TEST_F( PdRefine, AtTheExactPdTheBoundStays )
{
	ExpectExactPdFrom( 1, { 0, 0, 0 }, 1, "foot" );
}

// A cap of one iteration stops the refinement from an edge after its first step: the bound is
// shorter than the start but not yet the exact PD, and the query says the cap ended it.
TEST_F( PdRefine, IterationCapStopsEarlyAndSaysSo )
{
	BoxPair p;
	ASSERT_TRUE( p.Make( kBoxCases[0] ) );
	pdVec3 xc = p.Contact( 2, { 0.1, 0.1, 0.1 } );
	double startLength = 0.0;
	Refined r = Refine( p.a, p.pa, p.b, p.pb, false, xc, 1, &startLength );
	EXPECT_EQ( r.iterations, 1 );
	EXPECT_TRUE( r.iterationLimit );
	EXPECT_LT( r.bestLength, startLength );
	EXPECT_GT( r.bestLength, p.exact.depth + p.tol );
}

// Starts out-projected from 26 directions (axes, face and body diagonals): whatever face,
// edge or vertex of the contact space they land on, the refinement only shortens the bound
// through valid contact configurations, never below the exact PD.
TEST_F( PdRefine, OutProjectedStartsOnBoxesOnlyShortenTheBound )
{
	for ( const BoxCase& c : kBoxCases )
	{
		BoxPair p;
		ASSERT_TRUE( p.Make( c ) );
		int reachedExact = 0;
		for ( int dx = -1; dx <= 1; ++dx )
		{
			for ( int dy = -1; dy <= 1; ++dy )
			{
				for ( int dz = -1; dz <= 1; ++dz )
				{
					if ( dx == 0 && dy == 0 && dz == 0 )
					{
						continue;
					}
					pdVec3 from = Scale( { (double)dx, (double)dy, (double)dz }, 4.0 );
					Refined r = RefineChecked( p.a, p.pa, p.b, p.pb, true, from, "out-projected start" );
					EXPECT_GE( r.bestLength, p.exact.depth );
					reachedExact += r.bestLength <= p.exact.depth + p.tol ? 1 : 0;
				}
			}
		}
		// At least the start along the optimal side itself.
		EXPECT_GE( reachedExact, 1 );
	}
}

// A non-convex pair (two interlocked tori): from out-projected starts in 14 directions the
// bounds the refinement offers never lengthen and are valid contact configurations.
TEST_F( PdRefine, OutProjectedStartsOnToriOnlyShortenTheBound )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeTorus( 0.5, 0.15, 24, 12, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeTorus( 0.5, 0.15, 24, 12, &b.soup ) && b.Make() );
	// A stood on edge through B's hole, the tubes sunk into each other on both sides.
	pdTransform pa = Pose( { 0.25, 0.05, 0.08 }, { std::sqrt( 0.5 ), std::sqrt( 0.5 ), 0.0, 0.0 } );
	pdTransform pb = Pose( { 0, 0, 0 } );
	pdCollideDef collideDef = pdDefaultCollideDef();
	pdCollideResult c;
	ASSERT_GE( pdCollide( a.mesh, &pa, b.mesh, &pb, &collideDef, ws, &c ), 0 );
	ASSERT_TRUE( c.colliding );
	const pdVec3 directions[] = { { 1, 0, 0 },  { -1, 0, 0 },  { 0, 1, 0 },   { 0, -1, 0 },  { 0, 0, 1 },
								  { 0, 0, -1 }, { 1, 1, 1 },   { 1, 1, -1 },  { 1, -1, 1 },  { 1, -1, -1 },
								  { -1, 1, 1 }, { -1, 1, -1 }, { -1, -1, 1 }, { -1, -1, -1 } };
	int refined = 0;
	for ( pdVec3 u : directions )
	{
		pdVec3 from = Scale( u, 3.0 / Length( u ) );
		Refined r = RefineChecked( a, pa, b, pb, true, from, "torus start" );
		refined += r.iterations > 1 ? 1 : 0;
	}
	EXPECT_GE( refined, 1 ); // the case exercises more than one step somewhere
}
