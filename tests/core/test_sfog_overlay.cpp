// SPDX-License-Identifier: MIT
// The convex overlay and the exact convex PD (sfog_overlay.c) against independent oracles:
// brute-force support functions (a VF pair is a face of the Minkowski sum when the vertex is
// the unique support of A against B's face normal; an EE pair when both edges are supports
// along their cross product) and a SAT computation of the convex PD over all face normals and
// edge pairs.
#include <gtest/gtest.h>

#include "sfog_test_util.h"

using namespace PdSfogTest;

namespace
{

// Checks the convex overlay of a against b (world rotations ra, rb) against brute-force
// supports: every pair it reports is a face of the Minkowski sum up to ties, and every pair that
// is one by a clear margin is reported. Also every reported pair passes IsApplicable.
void CheckConvexOverlay( const pdMesh* a, const pdiMat33& ra, const pdMesh* b, const pdiMat33& rb, pdWorkspace* ws,
						 const char* what, int seed )
{
	SCOPED_TRACE( testing::Message() << what << " seed " << seed );
	ASSERT_NE( a->sfog, nullptr );
	ASSERT_NE( b->sfog, nullptr );
	ASSERT_TRUE( a->sfog->convex );
	ASSERT_TRUE( b->sfog->convex );
	int count = 0;
	const pdiSfogPair* pairs = nullptr;
	pdiSfogOverlayStats stats;
	ASSERT_EQ( pdiSfog_OverlayConvex( a, &ra, b, &rb, ws, &count, &pairs, &stats ), PD_STATUS_OK );
	std::set<PairKey> got = ToSet( pairs, count );
	EXPECT_EQ( (int)got.size(), count ) << "duplicate pairs";
	EXPECT_LE( (int64_t)count, stats.pairsBefore );

	std::vector<pdVec3> pa = Positions( a, ra, pdiV3( 0, 0, 0 ) );
	std::vector<pdVec3> pb = Positions( b, rb, pdiV3( 0, 0, 0 ) );
	std::vector<int> ua = UsedVertices( a ), ub = UsedVertices( b );
	std::vector<int> ta = NodeTriangles( a ), tb = NodeTriangles( b );
	const double margin = 1e-7;

	// VF: vertex v of A is the support of A in direction -n_f (B's face normal, world).
	for ( int f = 0; f < b->sfog->nodeCount; ++f )
	{
		pdVec3 d = pdiNeg( pdiMulMV( &rb, b->sfog->nodeNormals[f] ) );
		for ( int v : ua )
		{
			Support s = SupportGap( pa, ua, d, v );
			bool in = got.count( { PD_CONTACT_VF, v, f } ) > 0;
			if ( s.gapOfV == 0.0 && s.second > margin )
			{
				EXPECT_TRUE( in ) << "missing VF " << v << " " << f;
			}
			if ( s.gapOfV > margin )
			{
				EXPECT_FALSE( in ) << "wrong VF " << v << " " << f << " gap " << s.gapOfV;
			}
			if ( in )
			{
				EXPECT_TRUE( IsApplicableVF( a, ra, b, rb, v, tb[f] ) ) << "IsApplicable prunes VF " << v << " " << f;
			}
		}
	}
	// FV: vertex w of B is the support of B in direction -n_g.
	for ( int g = 0; g < a->sfog->nodeCount; ++g )
	{
		pdVec3 d = pdiNeg( pdiMulMV( &ra, a->sfog->nodeNormals[g] ) );
		for ( int w : ub )
		{
			Support s = SupportGap( pb, ub, d, w );
			bool in = got.count( { PD_CONTACT_FV, g, w } ) > 0;
			if ( s.gapOfV == 0.0 && s.second > margin )
			{
				EXPECT_TRUE( in ) << "missing FV " << g << " " << w;
			}
			if ( s.gapOfV > margin )
			{
				EXPECT_FALSE( in ) << "wrong FV " << g << " " << w;
			}
			if ( in )
			{
				EXPECT_TRUE( IsApplicableFV( a, ra, b, rb, ta[g], w ) ) << "IsApplicable prunes FV " << g << " " << w;
			}
		}
	}
	// EE: along c = dA x dB, with some sign, A's edge is A's support in -u... i.e. the edges
	// are supports of A along s c and of B along -s c.
	for ( int eA = 0; eA < a->edgeCount; ++eA )
	{
		const pdiMeshEdge& ea = a->edges[eA];
		pdVec3 da = pdiSub( pa[ea.v1], pa[ea.v0] );
		for ( int eB = 0; eB < b->edgeCount; ++eB )
		{
			const pdiMeshEdge& eb = b->edges[eB];
			bool in = got.count( { PD_CONTACT_EE, eA, eB } ) > 0;
			if ( EdgeIsFlat( a, eA ) || EdgeIsFlat( b, eB ) )
			{
				EXPECT_FALSE( in ) << "flat edge reported";
				continue;
			}
			pdVec3 db = pdiSub( pb[eb.v1], pb[eb.v0] );
			pdVec3 c = pdiCross( da, db );
			double len = pdiLength( c );
			if ( len < 1e-6 * pdiLength( da ) * pdiLength( db ) )
			{
				continue; // parallel: no face of its own
			}
			c = pdiScale( c, 1.0 / len );
			bool definite = false, definiteNot = true;
			for ( int sign = -1; sign <= 1; sign += 2 )
			{
				pdVec3 u = pdiScale( c, sign );
				Support sa0 = SupportGap( pa, ua, u, ea.v0 );
				Support sa1 = SupportGap( pa, ua, u, ea.v1 );
				Support sb0 = SupportGap( pb, ub, pdiNeg( u ), eb.v0 );
				Support sb1 = SupportGap( pb, ub, pdiNeg( u ), eb.v1 );
				double gap = std::max( std::max( sa0.gapOfV, sa1.gapOfV ), std::max( sb0.gapOfV, sb1.gapOfV ) );
				if ( gap < 1e-12 )
				{
					// Supports: clear when no third vertex is near the support level.
					int near = 0;
					for ( int i : ua )
					{
						near += ( sa0.best - pdiDot( u, pa[i] ) < margin ) ? 1 : 0;
					}
					for ( int i : ub )
					{
						near += ( sb0.best - pdiDot( pdiNeg( u ), pb[i] ) < margin ) ? 1 : 0;
					}
					definite = definite || near == 4;
				}
				if ( gap <= margin )
				{
					definiteNot = false;
				}
			}
			if ( definite )
			{
				EXPECT_TRUE( in ) << "missing EE " << eA << " " << eB;
			}
			if ( definiteNot )
			{
				EXPECT_FALSE( in ) << "wrong EE " << eA << " " << eB;
			}
			if ( in )
			{
				EXPECT_TRUE( IsApplicableEE( a, ra, b, rb, eA, eB ) ) << "IsApplicable prunes EE " << eA << " " << eB;
			}
		}
	}
}

// The exact convex PD of the posed pair against SAT: zero (and no translation) when they are
// apart, otherwise SAT's depth along SAT's axis. True when they penetrate; *outT is the answer's
// translation, *outSat SAT's depth.
bool ExpectConvexPdIsSat( const pdMesh* a, const pdiFrame& fa, const pdMesh* b, const pdiFrame& fb, pdWorkspace* ws,
						  pdVec3* outT, double* outSat, int* outCandidates )
{
	pdVec3 satAxis;
	double sat = SatDepth( a, fa, b, fb, &satAxis );
	*outSat = sat;
	double depth = -1.0;
	pdStatus status = pdiSfog_ConvexPenetration( a, &fa, b, &fb, ws, outT, &depth, outCandidates );
	EXPECT_EQ( status, PD_STATUS_OK );
	if ( status != PD_STATUS_OK )
	{
		return false;
	}
	if ( sat <= 0.0 )
	{
		EXPECT_EQ( depth, 0.0 );
		EXPECT_EQ( pdiLength( *outT ), 0.0 );
		return false;
	}
	EXPECT_NEAR( depth, sat, 1e-9 * sat );
	EXPECT_NEAR( pdiLength( *outT ), depth, 1e-12 * ( 1.0 + depth ) );
	EXPECT_GT( pdiDot( pdiNormalize( *outT ), satAxis ), 1.0 - 1e-6 ) << "different minimising axis (ties are unlikely)";
	return true;
}

} // namespace

TEST( PdSfog, ConvexOverlayEqualsBruteForce )
{
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	std::vector<Soup> soups( 8 );
	ASSERT_TRUE( smpMakeBox( pdiV3( 1, 0.5, 0.7 ), 1, &soups[0].soup ) );
	ASSERT_TRUE( smpMakeBox( pdiV3( 0.4, 0.9, 0.6 ), 2, &soups[1].soup ) );
	ASSERT_TRUE( smpMakeIcosphere( 1.0, 0, &soups[2].soup ) );
	ASSERT_TRUE( smpMakeIcosphere( 0.8, 1, &soups[3].soup ) );
	ASSERT_TRUE( smpMakeIcosphere( 1.2, 2, &soups[4].soup ) );
	ASSERT_TRUE( smpMakeRandomConvex( 12, 7, &soups[5].soup ) );
	ASSERT_TRUE( smpMakeRandomConvex( 40, 11, &soups[6].soup ) );
	ASSERT_TRUE( smpMakeRandomConvex( 25, 3, &soups[7].soup ) );
	std::vector<MeshPtr> meshes;
	for ( Soup& s : soups )
	{
		meshes.push_back( MakeMesh( s.soup ) );
		ASSERT_NE( meshes.back(), nullptr );
	}
	const int pairs[][2] = { { 0, 1 }, { 0, 0 }, { 2, 3 }, { 4, 5 }, { 3, 3 }, { 5, 6 }, { 6, 7 }, { 1, 6 }, { 7, 2 } };
	int seed = 0;
	for ( auto& p : pairs )
	{
		for ( int rep = 0; rep < 2; ++rep, ++seed )
		{
			Rng rng( 100 + seed );
			pdiMat33 ra = RandomRotation( rng ), rb = RandomRotation( rng );
			CheckConvexOverlay( meshes[p[0]].get(), ra, meshes[p[1]].get(), rb, ws.get(), "pair", seed );
		}
	}
}

TEST( PdSfog, ConvexPenetrationEqualsSat )
{
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	int penetrating = 0;
	for ( int seed = 0; seed < 24; ++seed )
	{
		SCOPED_TRACE( testing::Message() << "seed " << seed );
		Soup sa, sb;
		ASSERT_TRUE( smpMakeRandomConvex( 8 + ( seed * 7 ) % 50, 1000 + seed, &sa.soup ) );
		ASSERT_TRUE( smpMakeRandomConvex( 6 + ( seed * 13 ) % 60, 2000 + seed, &sb.soup ) );
		MeshPtr a = MakeMesh( sa.soup ), b = MakeMesh( sb.soup );
		ASSERT_TRUE( a && b );
		Rng rng( 5000 + seed );
		pdiFrame fa, fb;
		fa.r = RandomRotation( rng );
		fb.r = RandomRotation( rng );
		fa.p = pdiV3( rng.Range( -2, 2 ), rng.Range( -2, 2 ), rng.Range( -2, 2 ) );
		double reach = seed % 6 == 5 ? 2.5 : 1.4; // a few separated poses too
		fb.p =
			pdiAdd( fa.p, pdiV3( rng.Range( -reach, reach ), rng.Range( -reach, reach ), rng.Range( -reach, reach ) ) );
		pdVec3 t;
		double sat = 0.0;
		int candidates = 0;
		if ( !ExpectConvexPdIsSat( a.get(), fa, b.get(), fb, ws.get(), &t, &sat, &candidates ) )
		{
			continue;
		}
		EXPECT_GT( candidates, 0 );
		++penetrating;
		// Moving A by t leaves them exactly touching along t.
		EXPECT_NEAR( Overlap( a.get(), fa, b.get(), fb, pdiNormalize( t ), t ), 0.0, 1e-9 * ( 1.0 + sat ) );
	}
	EXPECT_GE( penetrating, 15 );
}

// Larger hulls, where the walk skips most FV climbs against the best overlap so far: the answer
// must still be SAT's, from deep to barely touching to apart.
TEST( PdSfog, ConvexPenetrationPrunedWalkEqualsSatOnLargerHulls )
{
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	int penetrating = 0;
	for ( int seed = 0; seed < 30; ++seed )
	{
		SCOPED_TRACE( testing::Message() << "seed " << seed );
		Soup sa, sb;
		ASSERT_TRUE( smpMakeRandomConvex( 80 + 4 * ( seed % 10 ), 3000 + seed, &sa.soup ) );
		ASSERT_TRUE( smpMakeRandomConvex( 120 - 4 * ( seed % 10 ), 4000 + seed, &sb.soup ) );
		MeshPtr a = MakeMesh( sa.soup ), b = MakeMesh( sb.soup );
		ASSERT_TRUE( a && b );
		Rng rng( 7000 + seed );
		pdiFrame fa, fb;
		fa.r = RandomRotation( rng );
		fb.r = RandomRotation( rng );
		fa.p = pdiV3( 0.0, 0.0, 0.0 );
		// Offsets from nearly concentric to just past touching.
		double scale = 0.05 + 0.25 * ( seed % 10 );
		pdVec3 dir = pdiNormalize( pdiV3( rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) ) );
		fb.p = pdiScale( dir, scale );
		pdVec3 t;
		double sat = 0.0;
		penetrating += ExpectConvexPdIsSat( a.get(), fa, b.get(), fb, ws.get(), &t, &sat, nullptr ) ? 1 : 0;
	}
	EXPECT_GE( penetrating, 18 );
}

TEST( PdSfog, ConvexPenetrationBoxesAnalytic )
{
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	Soup sa, sb;
	ASSERT_TRUE( smpMakeBox( pdiV3( 1, 1, 1 ), 2, &sa.soup ) );
	ASSERT_TRUE( smpMakeBox( pdiV3( 2, 0.5, 3 ), 1, &sb.soup ) );
	MeshPtr a = MakeMesh( sa.soup ), b = MakeMesh( sb.soup );
	pdiFrame fa = { Identity(), pdiV3( 0.3, 1.2, 0.1 ) }, fb = { Identity(), pdiV3( 0, 0, 0 ) };
	pdVec3 t;
	double depth = 0.0;
	ASSERT_EQ( pdiSfog_ConvexPenetration( a.get(), &fa, b.get(), &fb, ws.get(), &t, &depth, nullptr ), PD_STATUS_OK );
	// Overlap along +y: 0.5 - (1.2 - 1) = 0.3, the smallest of all axes.
	EXPECT_NEAR( depth, 0.3, 1e-12 );
	EXPECT_NEAR( t.y, 0.3, 1e-12 );
	EXPECT_NEAR( t.x, 0.0, 1e-12 );
	EXPECT_NEAR( t.z, 0.0, 1e-12 );

	// Non-convex meshes are refused.
	Soup st;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 16, 8, &st.soup ) );
	MeshPtr torus = MakeMesh( st.soup );
	EXPECT_EQ( pdiSfog_ConvexPenetration( torus.get(), &fa, b.get(), &fb, ws.get(), &t, &depth, nullptr ),
			   PD_STATUS_FAILED );
	EXPECT_EQ( depth, 0.0 );
}

TEST( PdSfog, WarmWorkspaceDoesNotGrow )
{
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	Soup sa, sb;
	ASSERT_TRUE( smpMakeRandomConvex( 60, 1, &sa.soup ) );
	ASSERT_TRUE( smpMakeRandomConvex( 60, 2, &sb.soup ) );
	MeshPtr a = MakeMesh( sa.soup ), b = MakeMesh( sb.soup );
	Rng rng( 8 );
	pdiFrame fa = { RandomRotation( rng ), pdiV3( 0, 0, 0 ) }, fb = { RandomRotation( rng ), pdiV3( 0.5, 0, 0 ) };
	pdVec3 t;
	double depth;
	ASSERT_EQ( pdiSfog_ConvexPenetration( a.get(), &fa, b.get(), &fb, ws.get(), &t, &depth, nullptr ), PD_STATUS_OK );
	size_t bytes = pdWorkspace_GetBytes( ws.get() );
	for ( int i = 0; i < 20; ++i )
	{
		fb.r = RandomRotation( rng );
		ASSERT_EQ( pdiSfog_ConvexPenetration( a.get(), &fa, b.get(), &fb, ws.get(), &t, &depth, nullptr ),
				   PD_STATUS_OK );
	}
	EXPECT_EQ( pdWorkspace_GetBytes( ws.get() ), bytes );
}
