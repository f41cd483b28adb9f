// SPDX-License-Identifier: MIT
// Contact-feature gathering (core/src/contact_features.c) against brute force: every triangle
// pair through pdTriangleContactFeatures, repeats removed by feature identity. The gathering
// tests each shared vertex and edge only from the triangle that owns it, so it must return
// exactly the brute-force set, each pair once, with the same distances.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "pd_test_mesh.h"

extern "C" {
#include "mesh.h"
#include "tri_distance.h"
}

namespace
{

using FeatureKey = std::tuple<int, int, int, int, int>; // kind, A identity (2), B identity (2)

void Identity( const pdMesh* mesh, const pdFeature& f, int* k0, int* k1 )
{
	const int* tri = mesh->triangles[f.triangle];
	if ( f.type == PD_FEATURE_VERTEX )
	{
		*k0 = tri[f.index];
		*k1 = -1;
	}
	else if ( f.type == PD_FEATURE_EDGE )
	{
		int v0 = tri[f.index], v1 = tri[( f.index + 1 ) % 3];
		*k0 = std::min( v0, v1 );
		*k1 = std::max( v0, v1 );
	}
	else
	{
		*k0 = f.triangle;
		*k1 = -2;
	}
}

FeatureKey Key( const pdMesh* a, const pdMesh* b, const pdContactFeature& f )
{
	int a0, a1, b0, b1;
	Identity( a, f.featureA, &a0, &a1 );
	Identity( b, f.featureB, &b0, &b1 );
	return { (int)f.kind, a0, a1, b0, b1 };
}

pdVec3 Apply( const pdTransform& t, pdVec3 v )
{
	pdMat33 r = pdMat33FromQuat( t.q );
	return pdAdd( pdMulMV( &r, v ), t.p );
}

// Distance of every distinct feature pair closer than tolerance, over all triangle pairs.
std::map<FeatureKey, double> BruteForce( const pdMesh* a, const pdTransform& pa, const pdMesh* b,
										 const pdTransform& pb, double tolerance, pdVec3 approach )
{
	std::map<FeatureKey, double> out;
	for ( int ta = 0; ta < a->triangleCount; ++ta )
	{
		pdVec3 va[3];
		for ( int k = 0; k < 3; ++k )
			va[k] = Apply( pa, a->vertices[a->triangles[ta][k]] );
		for ( int tb = 0; tb < b->triangleCount; ++tb )
		{
			pdVec3 vb[3];
			for ( int k = 0; k < 3; ++k )
				vb[k] = Apply( pb, b->vertices[b->triangles[tb][k]] );
			pdContactFeature local[15];
			int n = pdTriangleContactFeatures( va, vb, tolerance, approach, local );
			for ( int i = 0; i < n; ++i )
			{
				local[i].featureA.triangle = ta;
				local[i].featureB.triangle = tb;
				out.emplace( Key( a, b, local[i] ), local[i].distance );
			}
		}
	}
	return out;
}

// A torus whose triangles do not share vertex indices (every corner its own vertex): the
// identities of its features are per triangle, and so is ownership.
bool MakeUnweldedTorus( PdOwnedSoup* out )
{
	PdOwnedSoup welded;
	if ( !pdMakeTorus( 0.5, 0.2, 12, 8, &welded.soup ) )
		return false;
	int t = welded.soup.triangleCount;
	out->soup.vertices = (double*)std::malloc( sizeof( double ) * 9 * (size_t)t );
	out->soup.indices = (uint32_t*)std::malloc( sizeof( uint32_t ) * 3 * (size_t)t );
	if ( out->soup.vertices == nullptr || out->soup.indices == nullptr )
		return false;
	for ( int i = 0; i < 3 * t; ++i )
	{
		std::memcpy( out->soup.vertices + 3 * i, welded.soup.vertices + 3 * welded.soup.indices[i], 3 * sizeof( double ) );
		out->soup.indices[i] = (uint32_t)i;
	}
	out->soup.vertexCount = 3 * t;
	out->soup.triangleCount = t;
	return true;
}

TEST( PdContactFeatures, EqualBruteForceWithEachPairOnce )
{
	PdOwnedSoup torus, knot, grate, unwelded;
	ASSERT_TRUE( pdMakeTorus( 0.5, 0.2, 16, 10, &torus.soup ) );
	ASSERT_TRUE( pdMakeTorusKnot( 2, 3, 0.35, 0.1, 48, 6, &knot.soup ) );
	ASSERT_TRUE( pdMakeGrate( 1.0, 0.15, 2, &grate.soup ) );
	ASSERT_TRUE( MakeUnweldedTorus( &unwelded ) );
	PdMeshPtr meshes[4] = { PdMakeTestMesh( torus.soup ), PdMakeTestMesh( knot.soup ), PdMakeTestMesh( grate.soup ),
							PdMakeTestMesh( unwelded.soup ) };
	for ( const PdMeshPtr& m : meshes )
		ASSERT_NE( m, nullptr );
	PdWorkspacePtr ws( pdCreateWorkspace() );
	PdTestRng rng( 11 );
	size_t total = 0;
	for ( int k = 0; k < 24; ++k )
	{
		const pdMesh* a = meshes[k % 4].get();
		const pdMesh* b = meshes[( k / 4 + 1 ) % 4].get();
		pdTransform pa, pb = pdIdentityTransform();
		pdQuat q = { rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) + 1.5 };
		double n = std::sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
		pa.q = { q.w / n, q.x / n, q.y / n, q.z / n };
		pa.p = pdV3( rng.Range( -0.4, 0.4 ), rng.Range( -0.4, 0.4 ), rng.Range( -0.4, 0.4 ) );
		double tolerance = rng.Range( 0.01, 0.08 );
		pdVec3 approach = pdV3( 0, 0, -1 );
		SCOPED_TRACE( k );

		int count = 0;
		const pdContactFeature* features = nullptr;
		ASSERT_EQ( pdComputeContactFeatures( a, &pa, b, &pb, tolerance, approach, 1 << 20, ws.get(), &count, &features ),
				   PD_STATUS_OK );
		std::map<FeatureKey, double> expected = BruteForce( a, pa, b, pb, tolerance, approach );
		std::map<FeatureKey, double> got;
		for ( int i = 0; i < count; ++i )
		{
			bool fresh = got.emplace( Key( a, b, features[i] ), features[i].distance ).second;
			EXPECT_TRUE( fresh ) << "feature " << i << " reported twice";
		}
		ASSERT_EQ( got.size(), expected.size() );
		for ( const auto& [key, distance] : expected )
		{
			auto it = got.find( key );
			ASSERT_NE( it, got.end() ) << "missing kind " << std::get<0>( key ) << " (" << std::get<1>( key ) << ","
									   << std::get<2>( key ) << ") (" << std::get<3>( key ) << "," << std::get<4>( key )
									   << ")";
			EXPECT_NEAR( it->second, distance, 1e-12 );
		}
		total += expected.size();
	}
	EXPECT_GT( total, 200u ); // the poses must produce features for the comparison to mean anything
}

// A cap keeps the first maxFeatures pairs of the uncapped list, in order, and says so.
TEST( PdContactFeatures, CapKeepsThePrefixAndReportsTheLimit )
{
	PdOwnedSoup torus;
	ASSERT_TRUE( pdMakeTorus( 0.5, 0.2, 16, 10, &torus.soup ) );
	PdMeshPtr mesh = PdMakeTestMesh( torus.soup );
	ASSERT_NE( mesh, nullptr );
	PdWorkspacePtr ws( pdCreateWorkspace() );
	pdTransform pa = pdIdentityTransform(), pb = pdIdentityTransform();
	pa.p = pdV3( 0.1, 0.05, 0.3 );
	int count = 0;
	const pdContactFeature* features = nullptr;
	ASSERT_EQ( pdComputeContactFeatures( mesh.get(), &pa, mesh.get(), &pb, 0.05, pdV3( 0, 0, -1 ), 1 << 20, ws.get(),
										 &count, &features ),
			   PD_STATUS_OK );
	ASSERT_GT( count, 20 );
	std::vector<pdContactFeature> all( features, features + count );
	for ( int cap : { 0, 1, 7, count - 1 } )
	{
		SCOPED_TRACE( cap );
		int capped = -1;
		EXPECT_EQ( pdComputeContactFeatures( mesh.get(), &pa, mesh.get(), &pb, 0.05, pdV3( 0, 0, -1 ), cap, ws.get(),
											 &capped, &features ),
				   PD_STATUS_FEATURE_LIMIT );
		ASSERT_EQ( capped, cap );
		for ( int i = 0; i < cap; ++i )
			EXPECT_TRUE( Key( mesh.get(), mesh.get(), features[i] ) == Key( mesh.get(), mesh.get(), all[i] ) ) << i;
	}
	int exact = -1;
	EXPECT_EQ( pdComputeContactFeatures( mesh.get(), &pa, mesh.get(), &pb, 0.05, pdV3( 0, 0, -1 ), count, ws.get(),
										 &exact, &features ),
			   PD_STATUS_OK );
	EXPECT_EQ( exact, count );
}

} // namespace
