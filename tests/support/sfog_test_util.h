// SPDX-License-Identifier: MIT
// Shared code of the orientation-graph tests (tests/core/test_sfog*.cpp and the overlay
// experiments' tests): meshes from soups and raw arrays, brute-force supports, feature lookups
// for pdiSfog_IsApplicable, pair sets, the SAT depth of two convex meshes, and odd soups that are
// not closed outward manifolds.
#pragma once

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
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace PdSfogTest
{

using MeshPtr = TestMeshPtr;
using WorkspacePtr = TestWorkspacePtr;
using Soup = TestOwnedSoup;

inline MeshPtr MakeMesh( const smpSoup& soup )
{
	return TestMakeMesh( soup );
}

// Builds a mesh from raw vertices and indices (for hand-made degenerate soups).
inline MeshPtr MakeRawMesh( const std::vector<double>& v, const std::vector<uint32_t>& idx )
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

inline pdiMat33 RandomRotation( Rng& rng )
{
	return TestRandomRotation( rng );
}

inline pdiMat33 Identity()
{
	return TestIdentityRotation();
}

inline int Canon( const pdMesh* m, int v )
{
	return m->canonicalVertex != nullptr ? m->canonicalVertex[v] : v;
}

// Distinct (canonical) vertices used by triangles.
inline std::vector<int> UsedVertices( const pdMesh* m )
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
inline bool FindVertexFeature( const pdMesh* m, int v, pdFeature* out )
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

inline bool FindEdgeFeature( const pdMesh* m, int e, pdFeature* out )
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

inline bool IsApplicableVF( const pdMesh* a, const pdiMat33& ra, const pdMesh* b, const pdiMat33& rb, int v, int triB )
{
	pdContactFeature f{};
	f.kind = PD_CONTACT_VF;
	EXPECT_TRUE( FindVertexFeature( a, v, &f.featureA ) );
	f.featureB = { PD_FEATURE_FACE, triB, 0, -1 };
	return pdiSfog_IsApplicable( a, &ra, b, &rb, &f );
}

inline bool IsApplicableFV( const pdMesh* a, const pdiMat33& ra, const pdMesh* b, const pdiMat33& rb, int triA, int v )
{
	pdContactFeature f{};
	f.kind = PD_CONTACT_FV;
	f.featureA = { PD_FEATURE_FACE, triA, 0, -1 };
	EXPECT_TRUE( FindVertexFeature( b, v, &f.featureB ) );
	return pdiSfog_IsApplicable( a, &ra, b, &rb, &f );
}

inline bool IsApplicableEE( const pdMesh* a, const pdiMat33& ra, const pdMesh* b, const pdiMat33& rb, int eA, int eB )
{
	pdContactFeature f{};
	f.kind = PD_CONTACT_EE;
	EXPECT_TRUE( FindEdgeFeature( a, eA, &f.featureA ) );
	EXPECT_TRUE( FindEdgeFeature( b, eB, &f.featureB ) );
	return pdiSfog_IsApplicable( a, &ra, b, &rb, &f );
}

// First triangle of each face node.
inline std::vector<int> NodeTriangles( const pdMesh* m )
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

inline Support SupportGap( const std::vector<pdVec3>& p, const std::vector<int>& used, pdVec3 d, int v )
{
	double best = -INFINITY, second = -INFINITY;
	for ( int i : used )
	{
		double x = pdiDot( d, p[i] );
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
	return { best, best - pdiDot( d, p[v] ), best - second };
}

inline std::vector<pdVec3> Positions( const pdMesh* m, const pdiMat33& r, pdVec3 t )
{
	std::vector<pdVec3> p( m->vertexCount );
	for ( int i = 0; i < m->vertexCount; ++i )
	{
		p[i] = pdiAdd( pdiMulMV( &r, m->vertices[i] ), t );
	}
	return p;
}

using PairKey = std::tuple<int, int, int>;

inline std::set<PairKey> ToSet( const pdiSfogPair* pairs, int count )
{
	std::set<PairKey> s;
	for ( int i = 0; i < count; ++i )
	{
		s.insert( { (int)pairs[i].kind, pairs[i].a, pairs[i].b } );
	}
	return s;
}

inline bool EdgeIsFlat( const pdMesh* m, int e )
{
	return ( m->edges[e].flags & PDI_EDGE_FLAT ) != 0;
}

// Exact convex PD by SAT: every face normal and every edge-pair cross product, both signs,
// overlap(u) = max_B u.x - min_A u.x; the PD is the smallest (A moves along u).
inline double SatDepth( const pdMesh* a, const pdiFrame& fa, const pdMesh* b, const pdiFrame& fb, pdVec3* outAxis )
{
	std::vector<pdVec3> pa = Positions( a, fa.r, fa.p ), pb = Positions( b, fb.r, fb.p );
	std::vector<int> ua = UsedVertices( a ), ub = UsedVertices( b );
	std::vector<pdVec3> axes;
	for ( int t = 0; t < a->triangleCount; ++t )
	{
		axes.push_back( pdiMulMV( &fa.r, a->faceNormals[t] ) );
	}
	for ( int t = 0; t < b->triangleCount; ++t )
	{
		axes.push_back( pdiMulMV( &fb.r, b->faceNormals[t] ) );
	}
	for ( int i = 0; i < a->edgeCount; ++i )
	{
		pdVec3 da = pdiSub( pa[a->edges[i].v1], pa[a->edges[i].v0] );
		for ( int j = 0; j < b->edgeCount; ++j )
		{
			pdVec3 db = pdiSub( pb[b->edges[j].v1], pb[b->edges[j].v0] );
			pdVec3 c = pdiCross( da, db );
			double len = pdiLength( c );
			if ( len > 1e-12 * pdiLength( da ) * pdiLength( db ) )
			{
				axes.push_back( pdiScale( c, 1.0 / len ) );
			}
		}
	}
	double best = INFINITY;
	for ( pdVec3 axis : axes )
	{
		for ( int sign = -1; sign <= 1; sign += 2 )
		{
			pdVec3 u = pdiScale( axis, sign );
			double maxB = -INFINITY, minA = INFINITY;
			for ( int i : ub )
			{
				maxB = std::max( maxB, pdiDot( u, pb[i] ) );
			}
			for ( int i : ua )
			{
				minA = std::min( minA, pdiDot( u, pa[i] ) );
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
inline double Overlap( const pdMesh* a, const pdiFrame& fa, const pdMesh* b, const pdiFrame& fb, pdVec3 u, pdVec3 t )
{
	double maxB = -INFINITY, minA = INFINITY;
	for ( int i : UsedVertices( b ) )
	{
		maxB = std::max( maxB, pdiDot( u, pdiFrameApply( &fb, b->vertices[i] ) ) );
	}
	for ( int i : UsedVertices( a ) )
	{
		minA = std::min( minA, pdiDot( u, pdiAdd( pdiFrameApply( &fa, a->vertices[i] ), t ) ) );
	}
	return maxB - minA;
}

// Odd soups built from a box soup: open, inconsistently wound, non-manifold, inward, a single
// flat triangle and a doubled-up sheet. None of them is a closed outward manifold.
inline std::vector<MeshPtr> OddMeshes( const smpSoup& box )
{
	std::vector<double> v( box.vertices, box.vertices + 3 * box.vertexCount );
	std::vector<uint32_t> idx( box.indices, box.indices + 3 * box.triangleCount );
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
	return odd;
}

// The degenerate inputs of a unit box (OddMeshes), the level-1 icosphere they are checked
// against, and two fixed random rotations (rng 31337).
struct OddMeshSet
{
	std::vector<MeshPtr> odd;
	MeshPtr ref;
	pdiMat33 ra, rb;
};

inline OddMeshSet MakeOddMeshSet()
{
	OddMeshSet set;
	Soup sbox;
	EXPECT_TRUE( smpMakeBox( pdiV3( 1, 1, 1 ), 1, &sbox.soup ) );
	set.odd = OddMeshes( sbox.soup );
	Soup sref;
	EXPECT_TRUE( smpMakeIcosphere( 1.0, 1, &sref.soup ) );
	set.ref = MakeMesh( sref.soup );
	Rng rng( 31337 );
	set.ra = RandomRotation( rng );
	set.rb = RandomRotation( rng );
	return set;
}

} // namespace PdSfogTest
