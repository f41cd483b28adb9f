// SPDX-License-Identifier: MIT
// Applicability predicates (sfog_applicable.c) against independent oracles: the features that
// realise a convex PD (SAT) are never pruned, local half-space checks on non-convex meshes, and
// odd soups (open, non-manifold, inward, flat) on which nothing may be pruned.
#include <gtest/gtest.h>

#include "sfog_test_util.h"

using namespace PdSfogTest;

TEST( PdSfog, PruningKeepsThePdRealisingPair )
{
	for ( int seed = 0; seed < 16; ++seed )
	{
		SCOPED_TRACE( testing::Message() << "seed " << seed );
		Soup sa, sb;
		ASSERT_TRUE( smpMakeRandomConvex( 10 + seed, 300 + seed, &sa.soup ) );
		if ( seed % 2 == 0 )
		{
			ASSERT_TRUE( smpMakeRandomConvex( 14 + seed, 400 + seed, &sb.soup ) );
		}
		else
		{
			ASSERT_TRUE( smpMakeBox( pdiV3( 0.6, 0.8, 0.5 ), 1 + seed % 3, &sb.soup ) );
		}
		MeshPtr a = MakeMesh( sa.soup ), b = MakeMesh( sb.soup );
		Rng rng( 900 + seed );
		pdiFrame fa, fb;
		fa.r = RandomRotation( rng );
		fb.r = RandomRotation( rng );
		fa.p = pdiV3( rng.Range( -0.5, 0.5 ), rng.Range( -0.5, 0.5 ), rng.Range( -0.5, 0.5 ) );
		fb.p = pdiV3( 0, 0, 0 );
		pdVec3 u;
		double sat = SatDepth( a.get(), fa, b.get(), fb, &u );
		ASSERT_GT( sat, 0.0 );
		// The features realising it: supports of A along -u... A's minimum along u, B's maximum.
		std::vector<pdVec3> pa = Positions( a.get(), fa.r, fa.p ), pb = Positions( b.get(), fb.r, fb.p );
		std::vector<int> ua = UsedVertices( a.get() ), ub = UsedVertices( b.get() );
		double minA = INFINITY, maxB = -INFINITY;
		for ( int i : ua )
		{
			minA = std::min( minA, pdiDot( u, pa[i] ) );
		}
		for ( int i : ub )
		{
			maxB = std::max( maxB, pdiDot( u, pb[i] ) );
		}
		const double eps = 1e-9;
		std::vector<int> va, vb;
		for ( int i : ua )
		{
			if ( pdiDot( u, pa[i] ) < minA + eps )
			{
				va.push_back( i );
			}
		}
		for ( int i : ub )
		{
			if ( pdiDot( u, pb[i] ) > maxB - eps )
			{
				vb.push_back( i );
			}
		}
		int checked = 0;
		// Every face of B with normal u pairs with every support vertex of A (VF), and so on.
		for ( int t = 0; t < b->triangleCount; ++t )
		{
			if ( pdiDot( pdiMulMV( &fb.r, b->faceNormals[t] ), u ) > 1.0 - 1e-12 )
			{
				for ( int v : va )
				{
					EXPECT_TRUE( IsApplicableVF( a.get(), fa.r, b.get(), fb.r, v, t ) ) << "VF " << v << " " << t;
					++checked;
				}
			}
		}
		for ( int t = 0; t < a->triangleCount; ++t )
		{
			if ( pdiDot( pdiMulMV( &fa.r, a->faceNormals[t] ), u ) < -1.0 + 1e-12 )
			{
				for ( int w : vb )
				{
					EXPECT_TRUE( IsApplicableFV( a.get(), fa.r, b.get(), fb.r, t, w ) ) << "FV " << t << " " << w;
					++checked;
				}
			}
		}
		for ( int eA = 0; eA < a->edgeCount; ++eA )
		{
			const pdiMeshEdge& ea = a->edges[eA];
			if ( std::find( va.begin(), va.end(), ea.v0 ) == va.end() ||
				 std::find( va.begin(), va.end(), ea.v1 ) == va.end() )
			{
				continue;
			}
			for ( int eB = 0; eB < b->edgeCount; ++eB )
			{
				const pdiMeshEdge& eb = b->edges[eB];
				if ( std::find( vb.begin(), vb.end(), eb.v0 ) == vb.end() ||
					 std::find( vb.begin(), vb.end(), eb.v1 ) == vb.end() )
				{
					continue;
				}
				pdVec3 c = pdiCross( pdiSub( pa[ea.v1], pa[ea.v0] ), pdiSub( pb[eb.v1], pb[eb.v0] ) );
				if ( pdiLength( c ) < 1e-9 )
				{
					continue;
				}
				EXPECT_TRUE( IsApplicableEE( a.get(), fa.r, b.get(), fb.r, eA, eB ) ) << "EE " << eA << " " << eB;
				++checked;
			}
		}
		EXPECT_GT( checked, 0 );
	}
}

TEST( PdSfog, NonConvexNeverPrunesLocallyValidContacts )
{
	// Independent local oracle: a vertex of A can rest on a face of B when every neighbour of the
	// vertex lies on the outer side of the face's plane; two edges can touch when, along their
	// cross product, both faces of each edge lie on their own side.
	Soup st, sc;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.35, 16, 8, &st.soup ) );
	ASSERT_TRUE( smpMakeCup( 0.8, 1.0, 0.15, 10, &sc.soup ) );
	MeshPtr a = MakeMesh( st.soup ), b = MakeMesh( sc.soup );
	for ( int seed = 0; seed < 4; ++seed )
	{
		SCOPED_TRACE( testing::Message() << "seed " << seed );
		Rng rng( 4242 + seed );
		pdiMat33 ra = RandomRotation( rng ), rb = RandomRotation( rng );
		std::vector<pdVec3> pa = Positions( a.get(), ra, pdiV3( 0, 0, 0 ) ),
							pb = Positions( b.get(), rb, pdiV3( 0, 0, 0 ) );
		int pruned = 0, tested = 0;
		for ( int t = 0; t < b->triangleCount; t += 3 )
		{
			pdVec3 n = pdiMulMV( &rb, b->faceNormals[t] );
			for ( int v : UsedVertices( a.get() ) )
			{
				bool valid = true;
				for ( int k = a->sfog->ringStart[v]; k < a->sfog->ringStart[v + 1]; ++k )
				{
					valid = valid && pdiDot( n, pdiSub( pa[a->sfog->ringVertex[k]], pa[v] ) ) >= 1e-9;
				}
				bool app = IsApplicableVF( a.get(), ra, b.get(), rb, v, t );
				if ( valid )
				{
					EXPECT_TRUE( app ) << "VF " << v << " " << t;
				}
				pruned += app ? 0 : 1;
				++tested;
			}
		}
		EXPECT_GT( pruned, tested / 4 ) << "pruning should remove a good share of VF pairs";
		auto opposite = []( const pdMesh* m, const std::vector<pdVec3>& p, int face, const pdiMeshEdge& e )
		{
			for ( int k = 0; k < 3; ++k )
			{
				int c = Canon( m, m->triangles[face][k] );
				if ( c != e.v0 && c != e.v1 )
				{
					return p[c];
				}
			}
			return p[e.v0];
		};
		for ( int eA = 0; eA < a->edgeCount; eA += 2 )
		{
			const pdiMeshEdge& ea = a->edges[eA];
			for ( int eB = 0; eB < b->edgeCount; eB += 3 )
			{
				const pdiMeshEdge& eb = b->edges[eB];
				pdVec3 c = pdiCross( pdiSub( pa[ea.v1], pa[ea.v0] ), pdiSub( pb[eb.v1], pb[eb.v0] ) );
				if ( pdiLength( c ) < 1e-6 )
				{
					continue;
				}
				c = pdiNormalize( c );
				bool valid = false;
				for ( int sign = -1; sign <= 1 && !valid; sign += 2 )
				{
					pdVec3 u = pdiScale( c, sign ); // A leaves along u: A's faces above, B's below
					bool ok = pdiDot( u, pdiSub( opposite( a.get(), pa, ea.face0, ea ), pa[ea.v0] ) ) >= 1e-9 &&
							  pdiDot( u, pdiSub( opposite( a.get(), pa, ea.face1, ea ), pa[ea.v0] ) ) >= 1e-9 &&
							  pdiDot( u, pdiSub( opposite( b.get(), pb, eb.face0, eb ), pb[eb.v0] ) ) <= -1e-9 &&
							  pdiDot( u, pdiSub( opposite( b.get(), pb, eb.face1, eb ), pb[eb.v0] ) ) <= -1e-9;
					valid = ok;
				}
				if ( valid )
				{
					EXPECT_TRUE( IsApplicableEE( a.get(), ra, b.get(), rb, eA, eB ) ) << "EE " << eA << " " << eB;
				}
			}
		}
	}
}

TEST( PdSfog, DegenerateInputsNeverPruneWrongly )
{
	WorkspacePtr ws( pdCreateWorkspace( NULL ) );
	OddMeshSet set = MakeOddMeshSet();
	const std::vector<MeshPtr>& odd = set.odd;
	const MeshPtr& ref = set.ref;
	const pdiMat33 ra = set.ra, rb = set.rb;
	// Collinear edges: a box whose faces are split into slivers along one line.
	Soup fine;
	ASSERT_TRUE( smpMakeBox( pdiV3( 1, 0.001, 1 ), 4, &fine.soup ) );
	MeshPtr thin = MakeMesh( fine.soup );
	for ( size_t i = 0; i < odd.size(); ++i )
	{
		SCOPED_TRACE( testing::Message() << "odd mesh " << i );
		const pdMesh* m = odd[i].get();
		ASSERT_NE( m, nullptr );
		ASSERT_NE( m->sfog, nullptr );
		// Every VF/FV/EE feature pair against the sphere, in both roles, is kept.
		for ( int t = 0; t < m->triangleCount; ++t )
		{
			for ( int k = 0; k < 3; ++k )
			{
				for ( int tr = 0; tr < ref->triangleCount; tr += 7 )
				{
					pdContactFeature f{};
					f.kind = PD_CONTACT_VF;
					f.featureA = { PD_FEATURE_VERTEX, t, k, m->triangles[t][k] };
					f.featureB = { PD_FEATURE_FACE, tr, 0, -1 };
					EXPECT_TRUE( pdiSfog_IsApplicable( m, &ra, ref.get(), &rb, &f ) );
					f.kind = PD_CONTACT_FV;
					f.featureA = { PD_FEATURE_FACE, tr, 0, -1 };
					f.featureB = { PD_FEATURE_VERTEX, t, k, m->triangles[t][k] };
					EXPECT_TRUE( pdiSfog_IsApplicable( ref.get(), &rb, m, &ra, &f ) );
					f.kind = PD_CONTACT_EE;
					f.featureA = { PD_FEATURE_EDGE, t, k, m->triangles[t][k] };
					f.featureB = { PD_FEATURE_EDGE, tr, 1, ref->triangles[tr][1] };
					EXPECT_TRUE( pdiSfog_IsApplicable( m, &ra, ref.get(), &rb, &f ) );
				}
			}
		}
		// Overlays and the convex PD refuse or stay conservative without crashing.
		int count = 0;
		const pdiSfogPair* pairs = nullptr;
		EXPECT_EQ( pdiSfog_OverlayConvex( m, &ra, ref.get(), &rb, ws.get(), &count, &pairs, nullptr ),
				   PD_STATUS_FAILED );
		pdiFrame fa = { ra, pdiV3( 0, 0, 0 ) }, fb = { rb, pdiV3( 0.1, 0, 0 ) };
		pdVec3 t;
		double depth = 1.0;
		EXPECT_EQ( pdiSfog_ConvexPenetration( m, &fa, ref.get(), &fb, ws.get(), &t, &depth, nullptr ),
				   PD_STATUS_FAILED );
		EXPECT_EQ( depth, 0.0 );
	}
	// Bad features are never pruned.
	pdContactFeature bad{};
	bad.kind = PD_CONTACT_VF;
	bad.featureA = { PD_FEATURE_EDGE, 0, 0, 0 };
	bad.featureB = { PD_FEATURE_FACE, -3, 0, -1 };
	EXPECT_TRUE( pdiSfog_IsApplicable( ref.get(), &ra, ref.get(), &rb, &bad ) );
	bad.kind = (pdContactKind)17;
	EXPECT_TRUE( pdiSfog_IsApplicable( ref.get(), &ra, ref.get(), &rb, &bad ) );
	EXPECT_TRUE( pdiSfog_IsApplicable( nullptr, &ra, ref.get(), &rb, &bad ) );

	// The thin box is still convex and exact: PD against a sphere agrees with SAT.
	ASSERT_NE( thin, nullptr );
	if ( thin->sfog->convex )
	{
		pdiFrame fa = { ra, pdiV3( 0, 0, 0 ) }, fb = { rb, pdiV3( 0.3, 0.2, 0.1 ) };
		pdVec3 t, axis;
		double depth = 0.0;
		ASSERT_EQ( pdiSfog_ConvexPenetration( thin.get(), &fa, ref.get(), &fb, ws.get(), &t, &depth, nullptr ),
				   PD_STATUS_OK );
		double sat = SatDepth( thin.get(), fa, ref.get(), fb, &axis );
		EXPECT_NEAR( depth, sat, 1e-9 * sat );
	}
	else
	{
		ADD_FAILURE() << "thin box not convex";
	}
}
