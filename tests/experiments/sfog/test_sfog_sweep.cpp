// SPDX-License-Identifier: MIT
// The sphere sweeps (plain and banded, bench/experiments/sfog/sfog_sweep.c) against the naive
// all-pairs overlay, on random rotations of generated shapes and on odd soups, and against the
// convex overlay on convex graphs.
#include <gtest/gtest.h>

#include "sfog_test_util.h"

extern "C"
{
#include "sfog_experiments.h"
}

using namespace PdSfogTest;

namespace
{

void CheckSweepMatchesNaive( const pdMesh* a, const pdiMat33& ra, const pdMesh* b, const pdiMat33& rb, pdWorkspace* ws,
							 const char* what, int seed )
{
	SCOPED_TRACE( testing::Message() << what << " seed " << seed );
	int naiveCount = 0;
	const pdiSfogPair* pairs = nullptr;
	pdiSfogOverlayStats naiveStats, stats;
	ASSERT_EQ( pdiSfog_OverlayNaive( a, &ra, b, &rb, ws, &naiveCount, &pairs, &naiveStats ), PD_STATUS_OK );
	std::vector<pdiSfogPair> naive( pairs, pairs + naiveCount );
	EXPECT_EQ( naiveStats.tests, naiveStats.pairsBefore );
	for ( int variant : { (int)PDI_SFOG_SWEEP_PLAIN, (int)PDI_SFOG_SWEEP_BANDED } )
	{
		int count = 0;
		ASSERT_EQ( pdiSfog_OverlaySweep( a, &ra, b, &rb, variant, ws, &count, &pairs, &stats ), PD_STATUS_OK );
		EXPECT_EQ( count, naiveCount ) << "variant " << variant;
		EXPECT_EQ( stats.pairsBefore, naiveStats.pairsBefore );
		EXPECT_LE( stats.tests, naiveStats.tests );
		int mismatches = 0;
		for ( int i = 0; i < std::min( count, naiveCount ) && mismatches < 5; ++i )
		{
			if ( pairs[i].kind != naive[i].kind || pairs[i].a != naive[i].a || pairs[i].b != naive[i].b )
			{
				ADD_FAILURE() << "variant " << variant << " pair " << i << ": sweep (" << pairs[i].kind << ","
							  << pairs[i].a << "," << pairs[i].b << ") naive (" << naive[i].kind << "," << naive[i].a
							  << "," << naive[i].b << ")";
				++mismatches;
			}
		}
	}
}

} // namespace

TEST( PdSfog, SweepEqualsNaive )
{
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	std::vector<Soup> soups( 6 );
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.35, 16, 8, &soups[0].soup ) );
	ASSERT_TRUE( smpMakeCup( 0.8, 1.0, 0.15, 12, &soups[1].soup ) );
	ASSERT_TRUE( smpMakeIcosphere( 1.0, 1, &soups[2].soup ) );
	ASSERT_TRUE( smpMakeBox( pdiV3( 1, 1, 1 ), 2, &soups[3].soup ) );
	ASSERT_TRUE( smpMakeTorus( 0.8, 0.2, 12, 6, &soups[4].soup ) );
	ASSERT_TRUE( smpMakeRandomConvex( 20, 5, &soups[5].soup ) );
	std::vector<MeshPtr> meshes;
	for ( Soup& s : soups )
	{
		meshes.push_back( MakeMesh( s.soup ) );
		ASSERT_NE( meshes.back(), nullptr );
	}
	const int pairs[][2] = { { 0, 1 }, { 1, 1 }, { 0, 4 }, { 2, 0 }, { 3, 1 }, { 5, 3 }, { 3, 3 } };
	int seed = 0;
	for ( auto& p : pairs )
	{
		for ( int rep = 0; rep < 2; ++rep, ++seed )
		{
			Rng rng( 700 + seed );
			pdiMat33 ra = rep == 0 && seed < 4 ? Identity() : RandomRotation( rng );
			pdiMat33 rb = RandomRotation( rng );
			CheckSweepMatchesNaive( meshes[p[0]].get(), ra, meshes[p[1]].get(), rb, ws.get(), "pair", seed );
		}
	}
	// Convex graphs: the sweep and the walk agree up to flat-edge pairs and near ties.
	{
		Rng rng( 77 );
		pdiMat33 ra = RandomRotation( rng ), rb = RandomRotation( rng );
		int count = 0;
		const pdiSfogPair* pairsOut = nullptr;
		ASSERT_EQ(
			pdiSfog_OverlayConvex( meshes[2].get(), &ra, meshes[5].get(), &rb, ws.get(), &count, &pairsOut, nullptr ),
			PD_STATUS_OK );
		std::set<PairKey> walk = ToSet( pairsOut, count );
		ASSERT_EQ( pdiSfog_OverlaySweep( meshes[2].get(), &ra, meshes[5].get(), &rb, PDI_SFOG_SWEEP_PLAIN, ws.get(),
										&count, &pairsOut, nullptr ),
				   PD_STATUS_OK );
		std::set<PairKey> sweep = ToSet( pairsOut, count );
		for ( const PairKey& k : walk )
		{
			EXPECT_TRUE( sweep.count( k ) ) << std::get<0>( k ) << " " << std::get<1>( k ) << " " << std::get<2>( k );
		}
		EXPECT_LE( sweep.size(), walk.size() + 8 );
	}
}

TEST( PdSfog, DegenerateInputsSweepEqualsNaive )
{
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	OddMeshSet set = MakeOddMeshSet();
	const std::vector<MeshPtr>& odd = set.odd;
	const MeshPtr& ref = set.ref;
	const pdiMat33 ra = set.ra, rb = set.rb;
	for ( size_t i = 0; i < odd.size(); ++i )
	{
		SCOPED_TRACE( testing::Message() << "odd mesh " << i );
		const pdMesh* m = odd[i].get();
		ASSERT_NE( m, nullptr );
		CheckSweepMatchesNaive( m, ra, ref.get(), rb, ws.get(), "odd", (int)i );
	}
}
