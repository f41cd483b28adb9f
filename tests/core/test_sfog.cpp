// SPDX-License-Identifier: MIT
// Orientation pruning (sfog.c, sfog_overlay.c, sfog_sweep.c) against independent oracles:
// brute-force support functions (a VF pair is a face of the Minkowski sum when the vertex is
// the unique support of A against B's face normal; an EE pair when both edges are supports
// along their cross product), a SAT computation of the convex PD over all face normals and edge
// pairs, local half-space checks for non-convex meshes, and the naive all-pairs overlay.
#include <gtest/gtest.h>

#include "test_util.h"

extern "C"
{
#include "mesh.h"
#include "sfog.h"
#include "shapes.h"
}

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

namespace
{

using MeshPtr = TestMeshPtr;
using WorkspacePtr = TestWorkspacePtr;
using Soup = TestOwnedSoup;

MeshPtr MakeMesh( const smpSoup& soup )
{
	return TestMakeMesh( soup );
}

// Builds a mesh from raw vertices and indices (for hand-made degenerate soups).
MeshPtr MakeRawMesh( const std::vector<double>& v, const std::vector<uint32_t>& idx )
{
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = v.data();
	def.vertexCount = (int)( v.size() / 3 );
	def.indices = idx.data();
	def.triangleCount = (int)( idx.size() / 3 );
	def.computeClearancePoints = false;
	pdMeshReport report;
	MeshPtr mesh( pdCreateMesh( &def, &report ) );
	EXPECT_NE( mesh.get(), nullptr ) << report.message;
	return mesh;
}

using Rng = TestRng;

pdMat33 RandomRotation( Rng& rng )
{
	return TestRandomRotation( rng );
}

pdMat33 Identity()
{
	return TestIdentityRotation();
}

int Canon( const pdMesh* m, int v )
{
	return m->canonicalVertex != nullptr ? m->canonicalVertex[v] : v;
}

// Distinct (canonical) vertices used by triangles.
std::vector<int> UsedVertices( const pdMesh* m )
{
	std::set<int> s;
	for ( int t = 0; t < m->triangleCount; ++t )
	{
		for ( int k = 0; k < 3; ++k )
		{
			s.insert( Canon( m, m->triangles[t][k] ) );
		}
	}
	return std::vector<int>( s.begin(), s.end() );
}

// A kept triangle and local index holding canonical vertex v.
bool FindVertexFeature( const pdMesh* m, int v, pdFeature* out )
{
	for ( int t = 0; t < m->triangleCount; ++t )
	{
		for ( int k = 0; k < 3; ++k )
		{
			if ( Canon( m, m->triangles[t][k] ) == v )
			{
				*out = { PD_FEATURE_VERTEX, t, k, m->triangles[t][k] };
				return true;
			}
		}
	}
	return false;
}

bool FindEdgeFeature( const pdMesh* m, int e, pdFeature* out )
{
	for ( int t = 0; t < m->triangleCount; ++t )
	{
		for ( int k = 0; k < 3; ++k )
		{
			if ( m->triangleEdges[t][k] == e )
			{
				*out = { PD_FEATURE_EDGE, t, k, m->triangles[t][k] };
				return true;
			}
		}
	}
	return false;
}

bool IsApplicableVF( const pdMesh* a, const pdMat33& ra, const pdMesh* b, const pdMat33& rb, int v, int triB )
{
	pdContactFeature f{};
	f.kind = PD_CONTACT_VF;
	EXPECT_TRUE( FindVertexFeature( a, v, &f.featureA ) );
	f.featureB = { PD_FEATURE_FACE, triB, 0, -1 };
	return pdSfog_IsApplicable( a, &ra, b, &rb, &f );
}

bool IsApplicableFV( const pdMesh* a, const pdMat33& ra, const pdMesh* b, const pdMat33& rb, int triA, int v )
{
	pdContactFeature f{};
	f.kind = PD_CONTACT_FV;
	f.featureA = { PD_FEATURE_FACE, triA, 0, -1 };
	EXPECT_TRUE( FindVertexFeature( b, v, &f.featureB ) );
	return pdSfog_IsApplicable( a, &ra, b, &rb, &f );
}

bool IsApplicableEE( const pdMesh* a, const pdMat33& ra, const pdMesh* b, const pdMat33& rb, int eA, int eB )
{
	pdContactFeature f{};
	f.kind = PD_CONTACT_EE;
	EXPECT_TRUE( FindEdgeFeature( a, eA, &f.featureA ) );
	EXPECT_TRUE( FindEdgeFeature( b, eB, &f.featureB ) );
	return pdSfog_IsApplicable( a, &ra, b, &rb, &f );
}

// First triangle of each face node.
std::vector<int> NodeTriangles( const pdMesh* m )
{
	std::vector<int> tri( m->sfog->nodeCount, -1 );
	for ( int t = 0; t < m->triangleCount; ++t )
	{
		if ( tri[m->sfog->triangleNode[t]] < 0 )
		{
			tri[m->sfog->triangleNode[t]] = t;
		}
	}
	return tri;
}

// Support gap of vertex v of mesh m (positions p) in direction d: max_x d.x - d.v, and the
// second best gap among the other vertices (how unique the support is).
struct Support
{
	double best;
	double gapOfV; ///< best - d.v
	double second; ///< best - second best (distinct positions)
};

Support SupportGap( const std::vector<pdVec3>& p, const std::vector<int>& used, pdVec3 d, int v )
{
	double best = -INFINITY, second = -INFINITY;
	for ( int i : used )
	{
		double x = pdDot( d, p[i] );
		if ( x > best )
		{
			second = best;
			best = x;
		}
		else if ( x > second )
		{
			second = x;
		}
	}
	return { best, best - pdDot( d, p[v] ), best - second };
}

std::vector<pdVec3> Positions( const pdMesh* m, const pdMat33& r, pdVec3 t )
{
	std::vector<pdVec3> p( m->vertexCount );
	for ( int i = 0; i < m->vertexCount; ++i )
	{
		p[i] = pdAdd( pdMulMV( &r, m->vertices[i] ), t );
	}
	return p;
}

using PairKey = std::tuple<int, int, int>;

std::set<PairKey> ToSet( const pdSfogPair* pairs, int count )
{
	std::set<PairKey> s;
	for ( int i = 0; i < count; ++i )
	{
		s.insert( { (int)pairs[i].kind, pairs[i].a, pairs[i].b } );
	}
	return s;
}

bool EdgeIsFlat( const pdMesh* m, int e )
{
	return ( m->edges[e].flags & PD_EDGE_FLAT ) != 0;
}

// Checks the convex overlay of a against b (world rotations ra, rb) against brute-force
// supports: every pair it reports is a face of the Minkowski sum up to ties, and every pair that
// is one by a clear margin is reported. Also every reported pair passes IsApplicable.
void CheckConvexOverlay( const pdMesh* a, const pdMat33& ra, const pdMesh* b, const pdMat33& rb, pdWorkspace* ws,
						 const char* what, int seed )
{
	SCOPED_TRACE( testing::Message() << what << " seed " << seed );
	ASSERT_NE( a->sfog, nullptr );
	ASSERT_NE( b->sfog, nullptr );
	ASSERT_TRUE( a->sfog->convex );
	ASSERT_TRUE( b->sfog->convex );
	int count = 0;
	const pdSfogPair* pairs = nullptr;
	pdSfogOverlayStats stats;
	ASSERT_EQ( pdSfog_OverlayConvex( a, &ra, b, &rb, ws, &count, &pairs, &stats ), PD_STATUS_OK );
	std::set<PairKey> got = ToSet( pairs, count );
	EXPECT_EQ( (int)got.size(), count ) << "duplicate pairs";
	EXPECT_LE( (int64_t)count, stats.pairsBefore );

	std::vector<pdVec3> pa = Positions( a, ra, pdV3( 0, 0, 0 ) );
	std::vector<pdVec3> pb = Positions( b, rb, pdV3( 0, 0, 0 ) );
	std::vector<int> ua = UsedVertices( a ), ub = UsedVertices( b );
	std::vector<int> ta = NodeTriangles( a ), tb = NodeTriangles( b );
	const double margin = 1e-7;

	// VF: vertex v of A is the support of A in direction -n_f (B's face normal, world).
	for ( int f = 0; f < b->sfog->nodeCount; ++f )
	{
		pdVec3 d = pdNeg( pdMulMV( &rb, b->sfog->nodeNormals[f] ) );
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
		pdVec3 d = pdNeg( pdMulMV( &ra, a->sfog->nodeNormals[g] ) );
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
		const pdMeshEdge& ea = a->edges[eA];
		pdVec3 da = pdSub( pa[ea.v1], pa[ea.v0] );
		for ( int eB = 0; eB < b->edgeCount; ++eB )
		{
			const pdMeshEdge& eb = b->edges[eB];
			bool in = got.count( { PD_CONTACT_EE, eA, eB } ) > 0;
			if ( EdgeIsFlat( a, eA ) || EdgeIsFlat( b, eB ) )
			{
				EXPECT_FALSE( in ) << "flat edge reported";
				continue;
			}
			pdVec3 db = pdSub( pb[eb.v1], pb[eb.v0] );
			pdVec3 c = pdCross( da, db );
			double len = pdLength( c );
			if ( len < 1e-6 * pdLength( da ) * pdLength( db ) )
			{
				continue; // parallel: no face of its own
			}
			c = pdScale( c, 1.0 / len );
			bool definite = false, definiteNot = true;
			for ( int sign = -1; sign <= 1; sign += 2 )
			{
				pdVec3 u = pdScale( c, sign );
				Support sa0 = SupportGap( pa, ua, u, ea.v0 );
				Support sa1 = SupportGap( pa, ua, u, ea.v1 );
				Support sb0 = SupportGap( pb, ub, pdNeg( u ), eb.v0 );
				Support sb1 = SupportGap( pb, ub, pdNeg( u ), eb.v1 );
				double gap = std::max( std::max( sa0.gapOfV, sa1.gapOfV ), std::max( sb0.gapOfV, sb1.gapOfV ) );
				if ( gap < 1e-12 )
				{
					// Supports: clear when no third vertex is near the support level.
					int near = 0;
					for ( int i : ua )
					{
						near += ( sa0.best - pdDot( u, pa[i] ) < margin ) ? 1 : 0;
					}
					for ( int i : ub )
					{
						near += ( sb0.best - pdDot( pdNeg( u ), pb[i] ) < margin ) ? 1 : 0;
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

// Exact convex PD by SAT: every face normal and every edge-pair cross product, both signs,
// overlap(u) = max_B u.x - min_A u.x; the PD is the smallest (A moves along u).
double SatDepth( const pdMesh* a, const pdFrame& fa, const pdMesh* b, const pdFrame& fb, pdVec3* outAxis )
{
	std::vector<pdVec3> pa = Positions( a, fa.r, fa.p ), pb = Positions( b, fb.r, fb.p );
	std::vector<int> ua = UsedVertices( a ), ub = UsedVertices( b );
	std::vector<pdVec3> axes;
	for ( int t = 0; t < a->triangleCount; ++t )
	{
		axes.push_back( pdMulMV( &fa.r, a->faceNormals[t] ) );
	}
	for ( int t = 0; t < b->triangleCount; ++t )
	{
		axes.push_back( pdMulMV( &fb.r, b->faceNormals[t] ) );
	}
	for ( int i = 0; i < a->edgeCount; ++i )
	{
		pdVec3 da = pdSub( pa[a->edges[i].v1], pa[a->edges[i].v0] );
		for ( int j = 0; j < b->edgeCount; ++j )
		{
			pdVec3 db = pdSub( pb[b->edges[j].v1], pb[b->edges[j].v0] );
			pdVec3 c = pdCross( da, db );
			double len = pdLength( c );
			if ( len > 1e-12 * pdLength( da ) * pdLength( db ) )
			{
				axes.push_back( pdScale( c, 1.0 / len ) );
			}
		}
	}
	double best = INFINITY;
	for ( pdVec3 axis : axes )
	{
		for ( int sign = -1; sign <= 1; sign += 2 )
		{
			pdVec3 u = pdScale( axis, sign );
			double maxB = -INFINITY, minA = INFINITY;
			for ( int i : ub )
			{
				maxB = std::max( maxB, pdDot( u, pb[i] ) );
			}
			for ( int i : ua )
			{
				minA = std::min( minA, pdDot( u, pa[i] ) );
			}
			if ( maxB - minA < best )
			{
				best = maxB - minA;
				*outAxis = u;
			}
		}
	}
	return best;
}

// Overlap of A moved by t with B along u.
double Overlap( const pdMesh* a, const pdFrame& fa, const pdMesh* b, const pdFrame& fb, pdVec3 u, pdVec3 t )
{
	double maxB = -INFINITY, minA = INFINITY;
	for ( int i : UsedVertices( b ) )
	{
		maxB = std::max( maxB, pdDot( u, pdFrameApply( &fb, b->vertices[i] ) ) );
	}
	for ( int i : UsedVertices( a ) )
	{
		minA = std::min( minA, pdDot( u, pdAdd( pdFrameApply( &fa, a->vertices[i] ), t ) ) );
	}
	return maxB - minA;
}

void CheckSweepMatchesNaive( const pdMesh* a, const pdMat33& ra, const pdMesh* b, const pdMat33& rb, pdWorkspace* ws,
							 const char* what, int seed )
{
	SCOPED_TRACE( testing::Message() << what << " seed " << seed );
	int naiveCount = 0;
	const pdSfogPair* pairs = nullptr;
	pdSfogOverlayStats naiveStats, stats;
	ASSERT_EQ( pdSfog_OverlayNaive( a, &ra, b, &rb, ws, &naiveCount, &pairs, &naiveStats ), PD_STATUS_OK );
	std::vector<pdSfogPair> naive( pairs, pairs + naiveCount );
	EXPECT_EQ( naiveStats.tests, naiveStats.pairsBefore );
	for ( int variant : { (int)PD_SFOG_SWEEP_PLAIN, (int)PD_SFOG_SWEEP_BANDED } )
	{
		int count = 0;
		ASSERT_EQ( pdSfog_OverlaySweep( a, &ra, b, &rb, variant, ws, &count, &pairs, &stats ), PD_STATUS_OK );
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

TEST( PdSfog, BuildMergesFlatFacesAndClassifiesVertices )
{
	Soup box;
	ASSERT_TRUE( smpMakeBox( pdV3( 1, 2, 3 ), 3, &box.soup ) );
	MeshPtr m = MakeMesh( box.soup );
	ASSERT_NE( m->sfog, nullptr );
	EXPECT_TRUE( m->sfog->decidable );
	EXPECT_TRUE( m->sfog->convex );
	EXPECT_EQ( m->sfog->nodeCount, 6 ); // coplanar triangles merged into one face node per side
	EXPECT_GT( pdSfog_Bytes( m->sfog ), 0u );
	int corners8 = 0;
	for ( int v : UsedVertices( m.get() ) )
	{
		EXPECT_EQ( m->sfog->vertexKind[v], PD_SFOG_VERTEX_CONVEX ) << v;
		int c = m->sfog->cornerStart[v + 1] - m->sfog->cornerStart[v];
		EXPECT_TRUE( c == 1 || c == 2 || c == 3 ) << v; // face interior, box edge, box corner
		corners8 += c == 3 ? 1 : 0;
	}
	EXPECT_EQ( corners8, 8 );
	for ( int e = 0; e < m->edgeCount; ++e )
	{
		EXPECT_EQ( m->sfog->arcKind[e] == PD_SFOG_ARC_POINT, EdgeIsFlat( m.get(), e ) ) << e;
	}

	Soup torus;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.35, 24, 12, &torus.soup ) );
	MeshPtr t = MakeMesh( torus.soup );
	ASSERT_NE( t->sfog, nullptr );
	EXPECT_TRUE( t->sfog->decidable );
	EXPECT_FALSE( t->sfog->convex );
	int kinds[3] = { 0, 0, 0 };
	for ( int v : UsedVertices( t.get() ) )
	{
		kinds[t->sfog->vertexKind[v]] += 1;
	}
	EXPECT_GT( kinds[PD_SFOG_VERTEX_CONVEX], 0 );                                     // outer ring
	EXPECT_GT( kinds[PD_SFOG_VERTEX_UNDECIDABLE] + kinds[PD_SFOG_VERTEX_PSEUDO], 0 ); // saddles of the inner ring
	int major = 0;
	for ( int e = 0; e < t->edgeCount; ++e )
	{
		major += t->sfog->arcKind[e] == PD_SFOG_ARC_MAJOR ? 1 : 0;
	}
	EXPECT_GT( major, 0 );
	pdSfog_Destroy( nullptr );
	EXPECT_EQ( pdSfog_Bytes( nullptr ), 0u );
}

TEST( PdSfog, ConvexOverlayEqualsBruteForce )
{
	WorkspacePtr ws( pdCreateWorkspace() );
	std::vector<Soup> soups( 8 );
	ASSERT_TRUE( smpMakeBox( pdV3( 1, 0.5, 0.7 ), 1, &soups[0].soup ) );
	ASSERT_TRUE( smpMakeBox( pdV3( 0.4, 0.9, 0.6 ), 2, &soups[1].soup ) );
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
			pdMat33 ra = RandomRotation( rng ), rb = RandomRotation( rng );
			CheckConvexOverlay( meshes[p[0]].get(), ra, meshes[p[1]].get(), rb, ws.get(), "pair", seed );
		}
	}
}

// The exact convex PD of the posed pair against SAT: zero (and no translation) when they are
// apart, otherwise SAT's depth along SAT's axis. True when they penetrate; *outT is the answer's
// translation, *outSat SAT's depth.
bool ExpectConvexPdIsSat( const pdMesh* a, const pdFrame& fa, const pdMesh* b, const pdFrame& fb, pdWorkspace* ws,
						  pdVec3* outT, double* outSat, int* outCandidates )
{
	pdVec3 satAxis;
	double sat = SatDepth( a, fa, b, fb, &satAxis );
	*outSat = sat;
	double depth = -1.0;
	pdStatus status = pdSfog_ConvexPenetration( a, &fa, b, &fb, ws, outT, &depth, outCandidates );
	EXPECT_EQ( status, PD_STATUS_OK );
	if ( status != PD_STATUS_OK )
	{
		return false;
	}
	if ( sat <= 0.0 )
	{
		EXPECT_EQ( depth, 0.0 );
		EXPECT_EQ( pdLength( *outT ), 0.0 );
		return false;
	}
	EXPECT_NEAR( depth, sat, 1e-9 * sat );
	EXPECT_NEAR( pdLength( *outT ), depth, 1e-12 * ( 1.0 + depth ) );
	EXPECT_GT( pdDot( pdNormalize( *outT ), satAxis ), 1.0 - 1e-6 ) << "different minimising axis (ties are unlikely)";
	return true;
}

TEST( PdSfog, ConvexPenetrationEqualsSat )
{
	WorkspacePtr ws( pdCreateWorkspace() );
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
		pdFrame fa, fb;
		fa.r = RandomRotation( rng );
		fb.r = RandomRotation( rng );
		fa.p = pdV3( rng.Range( -2, 2 ), rng.Range( -2, 2 ), rng.Range( -2, 2 ) );
		double reach = seed % 6 == 5 ? 2.5 : 1.4; // a few separated poses too
		fb.p =
			pdAdd( fa.p, pdV3( rng.Range( -reach, reach ), rng.Range( -reach, reach ), rng.Range( -reach, reach ) ) );
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
		EXPECT_NEAR( Overlap( a.get(), fa, b.get(), fb, pdNormalize( t ), t ), 0.0, 1e-9 * ( 1.0 + sat ) );
	}
	EXPECT_GE( penetrating, 15 );
}

// Larger hulls, where the walk skips most FV climbs against the best overlap so far: the answer
// must still be SAT's, from deep to barely touching to apart.
TEST( PdSfog, ConvexPenetrationPrunedWalkEqualsSatOnLargerHulls )
{
	WorkspacePtr ws( pdCreateWorkspace() );
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
		pdFrame fa, fb;
		fa.r = RandomRotation( rng );
		fb.r = RandomRotation( rng );
		fa.p = pdV3( 0.0, 0.0, 0.0 );
		// Offsets from nearly concentric to just past touching.
		double scale = 0.05 + 0.25 * ( seed % 10 );
		pdVec3 dir = pdNormalize( pdV3( rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) ) );
		fb.p = pdScale( dir, scale );
		pdVec3 t;
		double sat = 0.0;
		penetrating += ExpectConvexPdIsSat( a.get(), fa, b.get(), fb, ws.get(), &t, &sat, nullptr ) ? 1 : 0;
	}
	EXPECT_GE( penetrating, 18 );
}

TEST( PdSfog, ConvexPenetrationBoxesAnalytic )
{
	WorkspacePtr ws( pdCreateWorkspace() );
	Soup sa, sb;
	ASSERT_TRUE( smpMakeBox( pdV3( 1, 1, 1 ), 2, &sa.soup ) );
	ASSERT_TRUE( smpMakeBox( pdV3( 2, 0.5, 3 ), 1, &sb.soup ) );
	MeshPtr a = MakeMesh( sa.soup ), b = MakeMesh( sb.soup );
	pdFrame fa = { Identity(), pdV3( 0.3, 1.2, 0.1 ) }, fb = { Identity(), pdV3( 0, 0, 0 ) };
	pdVec3 t;
	double depth = 0.0;
	ASSERT_EQ( pdSfog_ConvexPenetration( a.get(), &fa, b.get(), &fb, ws.get(), &t, &depth, nullptr ), PD_STATUS_OK );
	// Overlap along +y: 0.5 - (1.2 - 1) = 0.3, the smallest of all axes.
	EXPECT_NEAR( depth, 0.3, 1e-12 );
	EXPECT_NEAR( t.y, 0.3, 1e-12 );
	EXPECT_NEAR( t.x, 0.0, 1e-12 );
	EXPECT_NEAR( t.z, 0.0, 1e-12 );

	// Non-convex meshes are refused.
	Soup st;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 16, 8, &st.soup ) );
	MeshPtr torus = MakeMesh( st.soup );
	EXPECT_EQ( pdSfog_ConvexPenetration( torus.get(), &fa, b.get(), &fb, ws.get(), &t, &depth, nullptr ),
			   PD_STATUS_FAILED );
	EXPECT_EQ( depth, 0.0 );
}

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
			ASSERT_TRUE( smpMakeBox( pdV3( 0.6, 0.8, 0.5 ), 1 + seed % 3, &sb.soup ) );
		}
		MeshPtr a = MakeMesh( sa.soup ), b = MakeMesh( sb.soup );
		Rng rng( 900 + seed );
		pdFrame fa, fb;
		fa.r = RandomRotation( rng );
		fb.r = RandomRotation( rng );
		fa.p = pdV3( rng.Range( -0.5, 0.5 ), rng.Range( -0.5, 0.5 ), rng.Range( -0.5, 0.5 ) );
		fb.p = pdV3( 0, 0, 0 );
		pdVec3 u;
		double sat = SatDepth( a.get(), fa, b.get(), fb, &u );
		ASSERT_GT( sat, 0.0 );
		// The features realising it: supports of A along -u... A's minimum along u, B's maximum.
		std::vector<pdVec3> pa = Positions( a.get(), fa.r, fa.p ), pb = Positions( b.get(), fb.r, fb.p );
		std::vector<int> ua = UsedVertices( a.get() ), ub = UsedVertices( b.get() );
		double minA = INFINITY, maxB = -INFINITY;
		for ( int i : ua )
		{
			minA = std::min( minA, pdDot( u, pa[i] ) );
		}
		for ( int i : ub )
		{
			maxB = std::max( maxB, pdDot( u, pb[i] ) );
		}
		const double eps = 1e-9;
		std::vector<int> va, vb;
		for ( int i : ua )
		{
			if ( pdDot( u, pa[i] ) < minA + eps )
			{
				va.push_back( i );
			}
		}
		for ( int i : ub )
		{
			if ( pdDot( u, pb[i] ) > maxB - eps )
			{
				vb.push_back( i );
			}
		}
		int checked = 0;
		// Every face of B with normal u pairs with every support vertex of A (VF), and so on.
		for ( int t = 0; t < b->triangleCount; ++t )
		{
			if ( pdDot( pdMulMV( &fb.r, b->faceNormals[t] ), u ) > 1.0 - 1e-12 )
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
			if ( pdDot( pdMulMV( &fa.r, a->faceNormals[t] ), u ) < -1.0 + 1e-12 )
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
			const pdMeshEdge& ea = a->edges[eA];
			if ( std::find( va.begin(), va.end(), ea.v0 ) == va.end() ||
				 std::find( va.begin(), va.end(), ea.v1 ) == va.end() )
			{
				continue;
			}
			for ( int eB = 0; eB < b->edgeCount; ++eB )
			{
				const pdMeshEdge& eb = b->edges[eB];
				if ( std::find( vb.begin(), vb.end(), eb.v0 ) == vb.end() ||
					 std::find( vb.begin(), vb.end(), eb.v1 ) == vb.end() )
				{
					continue;
				}
				pdVec3 c = pdCross( pdSub( pa[ea.v1], pa[ea.v0] ), pdSub( pb[eb.v1], pb[eb.v0] ) );
				if ( pdLength( c ) < 1e-9 )
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

TEST( PdSfog, SweepEqualsNaive )
{
	WorkspacePtr ws( pdCreateWorkspace() );
	std::vector<Soup> soups( 6 );
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.35, 16, 8, &soups[0].soup ) );
	ASSERT_TRUE( smpMakeCup( 0.8, 1.0, 0.15, 12, &soups[1].soup ) );
	ASSERT_TRUE( smpMakeIcosphere( 1.0, 1, &soups[2].soup ) );
	ASSERT_TRUE( smpMakeBox( pdV3( 1, 1, 1 ), 2, &soups[3].soup ) );
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
			pdMat33 ra = rep == 0 && seed < 4 ? Identity() : RandomRotation( rng );
			pdMat33 rb = RandomRotation( rng );
			CheckSweepMatchesNaive( meshes[p[0]].get(), ra, meshes[p[1]].get(), rb, ws.get(), "pair", seed );
		}
	}
	// Convex graphs: the sweep and the walk agree up to flat-edge pairs and near ties.
	{
		Rng rng( 77 );
		pdMat33 ra = RandomRotation( rng ), rb = RandomRotation( rng );
		int count = 0;
		const pdSfogPair* pairsOut = nullptr;
		ASSERT_EQ(
			pdSfog_OverlayConvex( meshes[2].get(), &ra, meshes[5].get(), &rb, ws.get(), &count, &pairsOut, nullptr ),
			PD_STATUS_OK );
		std::set<PairKey> walk = ToSet( pairsOut, count );
		ASSERT_EQ( pdSfog_OverlaySweep( meshes[2].get(), &ra, meshes[5].get(), &rb, PD_SFOG_SWEEP_PLAIN, ws.get(),
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
		pdMat33 ra = RandomRotation( rng ), rb = RandomRotation( rng );
		std::vector<pdVec3> pa = Positions( a.get(), ra, pdV3( 0, 0, 0 ) ),
							pb = Positions( b.get(), rb, pdV3( 0, 0, 0 ) );
		int pruned = 0, tested = 0;
		for ( int t = 0; t < b->triangleCount; t += 3 )
		{
			pdVec3 n = pdMulMV( &rb, b->faceNormals[t] );
			for ( int v : UsedVertices( a.get() ) )
			{
				bool valid = true;
				for ( int k = a->sfog->ringStart[v]; k < a->sfog->ringStart[v + 1]; ++k )
				{
					valid = valid && pdDot( n, pdSub( pa[a->sfog->ringVertex[k]], pa[v] ) ) >= 1e-9;
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
		auto opposite = []( const pdMesh* m, const std::vector<pdVec3>& p, int face, const pdMeshEdge& e )
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
			const pdMeshEdge& ea = a->edges[eA];
			for ( int eB = 0; eB < b->edgeCount; eB += 3 )
			{
				const pdMeshEdge& eb = b->edges[eB];
				pdVec3 c = pdCross( pdSub( pa[ea.v1], pa[ea.v0] ), pdSub( pb[eb.v1], pb[eb.v0] ) );
				if ( pdLength( c ) < 1e-6 )
				{
					continue;
				}
				c = pdNormalize( c );
				bool valid = false;
				for ( int sign = -1; sign <= 1 && !valid; sign += 2 )
				{
					pdVec3 u = pdScale( c, sign ); // A leaves along u: A's faces above, B's below
					bool ok = pdDot( u, pdSub( opposite( a.get(), pa, ea.face0, ea ), pa[ea.v0] ) ) >= 1e-9 &&
							  pdDot( u, pdSub( opposite( a.get(), pa, ea.face1, ea ), pa[ea.v0] ) ) >= 1e-9 &&
							  pdDot( u, pdSub( opposite( b.get(), pb, eb.face0, eb ), pb[eb.v0] ) ) <= -1e-9 &&
							  pdDot( u, pdSub( opposite( b.get(), pb, eb.face1, eb ), pb[eb.v0] ) ) <= -1e-9;
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
	WorkspacePtr ws( pdCreateWorkspace() );
	Soup sbox;
	ASSERT_TRUE( smpMakeBox( pdV3( 1, 1, 1 ), 1, &sbox.soup ) );
	std::vector<double> v( sbox.soup.vertices, sbox.soup.vertices + 3 * sbox.soup.vertexCount );
	std::vector<uint32_t> idx( sbox.soup.indices, sbox.soup.indices + 3 * sbox.soup.triangleCount );

	std::vector<MeshPtr> odd;
	// Open: one triangle removed.
	odd.push_back( MakeRawMesh( v, std::vector<uint32_t>( idx.begin(), idx.end() - 3 ) ) );
	// Inconsistent: one triangle flipped.
	{
		std::vector<uint32_t> f = idx;
		std::swap( f[1], f[2] );
		odd.push_back( MakeRawMesh( v, f ) );
	}
	// Non-manifold: an extra fin on an edge of the box.
	{
		std::vector<double> w = v;
		w.insert( w.end(), { 3.0, 3.0, 3.0 } );
		std::vector<uint32_t> f = idx;
		f.insert( f.end(), { idx[0], idx[1], (uint32_t)( w.size() / 3 - 1 ) } );
		odd.push_back( MakeRawMesh( w, f ) );
	}
	// Inward winding (closed, negative volume).
	{
		std::vector<uint32_t> f = idx;
		for ( size_t i = 0; i < f.size(); i += 3 )
		{
			std::swap( f[i + 1], f[i + 2] );
		}
		odd.push_back( MakeRawMesh( v, f ) );
	}
	// A single flat triangle and a doubled-up (zero volume) sheet: antipodal normals.
	odd.push_back( MakeRawMesh( { 0, 0, 0, 1, 0, 0, 0, 1, 0 }, { 0, 1, 2 } ) );
	odd.push_back( MakeRawMesh( { 0, 0, 0, 1, 0, 0, 0, 1, 0 }, { 0, 1, 2, 0, 2, 1 } ) );
	// Collinear edges: a box whose faces are split into slivers along one line.
	Soup fine;
	ASSERT_TRUE( smpMakeBox( pdV3( 1, 0.001, 1 ), 4, &fine.soup ) );
	MeshPtr thin = MakeMesh( fine.soup );

	Soup sref;
	ASSERT_TRUE( smpMakeIcosphere( 1.0, 1, &sref.soup ) );
	MeshPtr ref = MakeMesh( sref.soup );
	Rng rng( 31337 );
	pdMat33 ra = RandomRotation( rng ), rb = RandomRotation( rng );
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
					EXPECT_TRUE( pdSfog_IsApplicable( m, &ra, ref.get(), &rb, &f ) );
					f.kind = PD_CONTACT_FV;
					f.featureA = { PD_FEATURE_FACE, tr, 0, -1 };
					f.featureB = { PD_FEATURE_VERTEX, t, k, m->triangles[t][k] };
					EXPECT_TRUE( pdSfog_IsApplicable( ref.get(), &rb, m, &ra, &f ) );
					f.kind = PD_CONTACT_EE;
					f.featureA = { PD_FEATURE_EDGE, t, k, m->triangles[t][k] };
					f.featureB = { PD_FEATURE_EDGE, tr, 1, ref->triangles[tr][1] };
					EXPECT_TRUE( pdSfog_IsApplicable( m, &ra, ref.get(), &rb, &f ) );
				}
			}
		}
		// Overlays and the convex PD refuse or stay conservative without crashing.
		int count = 0;
		const pdSfogPair* pairs = nullptr;
		EXPECT_EQ( pdSfog_OverlayConvex( m, &ra, ref.get(), &rb, ws.get(), &count, &pairs, nullptr ),
				   PD_STATUS_FAILED );
		CheckSweepMatchesNaive( m, ra, ref.get(), rb, ws.get(), "odd", (int)i );
		pdFrame fa = { ra, pdV3( 0, 0, 0 ) }, fb = { rb, pdV3( 0.1, 0, 0 ) };
		pdVec3 t;
		double depth = 1.0;
		EXPECT_EQ( pdSfog_ConvexPenetration( m, &fa, ref.get(), &fb, ws.get(), &t, &depth, nullptr ),
				   PD_STATUS_FAILED );
		EXPECT_EQ( depth, 0.0 );
	}
	// Bad features are never pruned.
	pdContactFeature bad{};
	bad.kind = PD_CONTACT_VF;
	bad.featureA = { PD_FEATURE_EDGE, 0, 0, 0 };
	bad.featureB = { PD_FEATURE_FACE, -3, 0, -1 };
	EXPECT_TRUE( pdSfog_IsApplicable( ref.get(), &ra, ref.get(), &rb, &bad ) );
	bad.kind = (pdContactKind)17;
	EXPECT_TRUE( pdSfog_IsApplicable( ref.get(), &ra, ref.get(), &rb, &bad ) );
	EXPECT_TRUE( pdSfog_IsApplicable( nullptr, &ra, ref.get(), &rb, &bad ) );

	// The thin box is still convex and exact: PD against a sphere agrees with SAT.
	ASSERT_NE( thin, nullptr );
	if ( thin->sfog->convex )
	{
		pdFrame fa = { ra, pdV3( 0, 0, 0 ) }, fb = { rb, pdV3( 0.3, 0.2, 0.1 ) };
		pdVec3 t, axis;
		double depth = 0.0;
		ASSERT_EQ( pdSfog_ConvexPenetration( thin.get(), &fa, ref.get(), &fb, ws.get(), &t, &depth, nullptr ),
				   PD_STATUS_OK );
		double sat = SatDepth( thin.get(), fa, ref.get(), fb, &axis );
		EXPECT_NEAR( depth, sat, 1e-9 * sat );
	}
	else
	{
		ADD_FAILURE() << "thin box not convex";
	}
}

TEST( PdSfog, WarmWorkspaceDoesNotGrow )
{
	WorkspacePtr ws( pdCreateWorkspace() );
	Soup sa, sb;
	ASSERT_TRUE( smpMakeRandomConvex( 60, 1, &sa.soup ) );
	ASSERT_TRUE( smpMakeRandomConvex( 60, 2, &sb.soup ) );
	MeshPtr a = MakeMesh( sa.soup ), b = MakeMesh( sb.soup );
	Rng rng( 8 );
	pdFrame fa = { RandomRotation( rng ), pdV3( 0, 0, 0 ) }, fb = { RandomRotation( rng ), pdV3( 0.5, 0, 0 ) };
	pdVec3 t;
	double depth;
	ASSERT_EQ( pdSfog_ConvexPenetration( a.get(), &fa, b.get(), &fb, ws.get(), &t, &depth, nullptr ), PD_STATUS_OK );
	size_t bytes = pdWorkspace_GetBytes( ws.get() );
	for ( int i = 0; i < 20; ++i )
	{
		fb.r = RandomRotation( rng );
		ASSERT_EQ( pdSfog_ConvexPenetration( a.get(), &fa, b.get(), &fb, ws.get(), &t, &depth, nullptr ),
				   PD_STATUS_OK );
	}
	EXPECT_EQ( pdWorkspace_GetBytes( ws.get() ), bytes );
}
