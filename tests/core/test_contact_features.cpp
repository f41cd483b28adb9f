// SPDX-License-Identifier: MIT
// Contact-feature gathering (core/src/contact_features.c) against brute force: every triangle
// pair through pdiTriangleContactFeatures, repeats removed by feature identity. The gathering
// tests each shared vertex and edge only from the triangle that owns it, so it must return
// exactly the brute-force set, each pair once, with the same distances.
#include "feature_calls.h"
#include "plugin_interface.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "test_util.h"

extern "C" {
#include "mesh.h"
#include "proximity.h"
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

// Every distinct feature pair closer than tolerance over all triangle pairs, with its point
// and normal (world frame); the first triangle pair that reports a feature pair names it.
std::map<FeatureKey, pdContactFeature> BruteForcePairs( const pdMesh* a, const pdTransform& pa, const pdMesh* b,
														const pdTransform& pb, double tolerance, pdVec3 approach )
{
	std::map<FeatureKey, pdContactFeature> out;
	for ( int ta = 0; ta < a->triangleCount; ++ta )
	{
		pdVec3 va[3];
		for ( int k = 0; k < 3; ++k )
			va[k] = TestApplyPose( pa, a->vertices[a->triangles[ta][k]] );
		for ( int tb = 0; tb < b->triangleCount; ++tb )
		{
			pdVec3 vb[3];
			for ( int k = 0; k < 3; ++k )
				vb[k] = TestApplyPose( pb, b->vertices[b->triangles[tb][k]] );
			pdContactFeature local[15];
			int n = pdiTriangleContactFeatures( va, vb, tolerance, approach, local );
			for ( int i = 0; i < n; ++i )
			{
				local[i].featureA.triangle = ta;
				local[i].featureB.triangle = tb;
				out.emplace( Key( a, b, local[i] ), local[i] );
			}
		}
	}
	return out;
}

// Distance of every distinct feature pair closer than tolerance.
std::map<FeatureKey, double> BruteForce( const pdMesh* a, const pdTransform& pa, const pdMesh* b,
										 const pdTransform& pb, double tolerance, pdVec3 approach )
{
	std::map<FeatureKey, double> out;
	for ( const auto& [key, f] : BruteForcePairs( a, pa, b, pb, tolerance, approach ) )
		out.emplace( key, f.distance );
	return out;
}

// A torus whose triangles do not share vertex indices (every corner its own vertex): the
// identities of its features are per triangle, and so is ownership.
bool MakeUnweldedTorus( TestOwnedSoup* out )
{
	TestOwnedSoup welded;
	if ( !smpMakeTorus( 0.5, 0.2, 12, 8, &welded.soup ) )
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
	TestOwnedSoup torus, knot, grate, unwelded;
	ASSERT_TRUE( smpMakeTorus( 0.5, 0.2, 16, 10, &torus.soup ) );
	ASSERT_TRUE( smpMakeTorusKnot( 2, 3, 0.35, 0.1, 48, 6, &knot.soup ) );
	ASSERT_TRUE( smpMakeGrate( 1.0, 0.15, 2, &grate.soup ) );
	ASSERT_TRUE( MakeUnweldedTorus( &unwelded ) );
	TestMeshPtr meshes[4] = { TestMakeMesh( torus.soup ), TestMakeMesh( knot.soup ), TestMakeMesh( grate.soup ),
							TestMakeMesh( unwelded.soup ) };
	for ( const TestMeshPtr& m : meshes )
		ASSERT_NE( m, nullptr );
	TestWorkspacePtr ws( pdCreateWorkspace( NULL ) );
	TestRng rng( 11 );
	size_t total = 0;
	for ( int k = 0; k < 24; ++k )
	{
		const pdMesh* a = meshes[k % 4].get();
		const pdMesh* b = meshes[( k / 4 + 1 ) % 4].get();
		pdTransform pa, pb = pdIdentityTransform();
		pdQuat q = { rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) + 1.5 };
		double n = std::sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
		pa.q = { q.w / n, q.x / n, q.y / n, q.z / n };
		pa.p = pdiV3( rng.Range( -0.4, 0.4 ), rng.Range( -0.4, 0.4 ), rng.Range( -0.4, 0.4 ) );
		double tolerance = rng.Range( 0.01, 0.08 );
		pdVec3 approach = pdiV3( 0, 0, -1 );
		SCOPED_TRACE( k );

		int count = 0;
		const pdContactFeature* features = nullptr;
		ASSERT_EQ( testContactFeatures( a, &pa, b, &pb, tolerance, approach, 1 << 20, ws.get(), &count, &features ),
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
TEST( PdContactFeatures, CapKeepsTheClosestAndReportsTheLimit )
{
	TestOwnedSoup torus;
	ASSERT_TRUE( smpMakeTorus( 0.5, 0.2, 16, 10, &torus.soup ) );
	TestMeshPtr mesh = TestMakeMesh( torus.soup );
	ASSERT_NE( mesh, nullptr );
	TestWorkspacePtr ws( pdCreateWorkspace( NULL ) );
	pdTransform pa = pdIdentityTransform(), pb = pdIdentityTransform();
	pa.p = pdiV3( 0.1, 0.05, 0.3 );
	int count = 0;
	const pdContactFeature* features = nullptr;
	ASSERT_EQ( testContactFeatures( mesh.get(), &pa, mesh.get(), &pb, 0.05, pdiV3( 0, 0, -1 ), 1 << 20, ws.get(),
										 &count, &features ),
			   PD_STATUS_OK );
	ASSERT_GT( count, 20 );
	std::vector<pdContactFeature> all( features, features + count );
	std::vector<double> allDistances;
	for ( const pdContactFeature& f : all )
		allDistances.push_back( f.distance );
	std::sort( allDistances.begin(), allDistances.end() );
	for ( int cap : { 0, 1, 7, count / 2, count - 1 } )
	{
		SCOPED_TRACE( cap );
		int capped = -1;
		EXPECT_EQ( testContactFeatures( mesh.get(), &pa, mesh.get(), &pb, 0.05, pdiV3( 0, 0, -1 ), cap, ws.get(),
											 &capped, &features ),
				   PD_STATUS_FEATURE_LIMIT );
		ASSERT_EQ( capped, cap );
		// The kept pairs are pairs of the full set, and the closest ones: their distances are
		// the cap smallest (ties may pick either pair).
		std::vector<double> kept;
		for ( int i = 0; i < cap; ++i )
		{
			bool found = false;
			for ( const pdContactFeature& f : all )
				found = found || Key( mesh.get(), mesh.get(), f ) == Key( mesh.get(), mesh.get(), features[i] );
			EXPECT_TRUE( found ) << i;
			kept.push_back( features[i].distance );
		}
		std::sort( kept.begin(), kept.end() );
		for ( int i = 0; i < cap; ++i )
			EXPECT_EQ( kept[i], allDistances[i] ) << i;
	}
	int exact = -1;
	EXPECT_EQ( testContactFeatures( mesh.get(), &pa, mesh.get(), &pb, 0.05, pdiV3( 0, 0, -1 ), count, ws.get(),
										 &exact, &features ),
			   PD_STATUS_OK );
	EXPECT_EQ( exact, count );
}

// The swept criterion, written out: the gap now, or the first-order gap after the step.
double SweptGap( const pdContactFeature& f, const pdRigidMotion& m )
{
	pdVec3 move = pdiAdd( m.linear, pdiCross( m.angular, pdiSub( f.pointA, m.pivot ) ) );
	return std::min( f.distance, f.distance + pdiDot( move, f.normal ) );
}

// A rotated by the exact rotation of the step about the pivot, then moved by the linear part.
pdTransform EndPose( const pdTransform& pa, const pdRigidMotion& m )
{
	double angle = pdiLength( m.angular );
	pdTransform end = pa;
	end.p = pdiAdd( pa.p, m.linear );
	if ( angle > 0.0 )
	{
		pdVec3 axis = pdiScale( m.angular, 1.0 / angle );
		double s = std::sin( 0.5 * angle );
		pdQuat r = { std::cos( 0.5 * angle ), s * axis.x, s * axis.y, s * axis.z };
		pdiMat33 rm = pdiMat33FromQuat( r );
		end.p = pdiAdd( pdiAdd( m.pivot, pdiMulMV( &rm, pdiSub( pa.p, m.pivot ) ) ), m.linear );
		end.q = { r.w * pa.q.w - r.x * pa.q.x - r.y * pa.q.y - r.z * pa.q.z,
				  r.w * pa.q.x + r.x * pa.q.w + r.y * pa.q.z - r.z * pa.q.y,
				  r.w * pa.q.y - r.x * pa.q.z + r.y * pa.q.w + r.z * pa.q.x,
				  r.w * pa.q.z + r.x * pa.q.y - r.y * pa.q.x + r.z * pa.q.w };
	}
	return end;
}

} // namespace

// The swept gathering against brute force: every pair it reports meets the swept criterion
// with the brute-force distance, each once; it reports every pair within the tolerance now,
// and every feature pair of the current poses whose features really come within the tolerance
// at the end of a translating step (the node and triangle pairs it skips cannot hold one);
// and it skips pairs a static gathering over the whole reach would report.
TEST( PdContactFeatures, SweptGatheringKeepsWhatTheStepCanCloseAndNothingElse )
{
	TestOwnedSoup torus, knot;
	ASSERT_TRUE( smpMakeTorus( 0.5, 0.15, 24, 8, &torus.soup ) );
	ASSERT_TRUE( smpMakeTorusKnot( 2, 3, 0.35, 0.1, 48, 6, &knot.soup ) );
	TestMeshPtr meshes[2] = { TestMakeMesh( torus.soup ), TestMakeMesh( knot.soup ) };
	ASSERT_TRUE( meshes[0] && meshes[1] );
	TestWorkspacePtr ws( pdCreateWorkspace( NULL ) );
	TestRng rng( 5 );
	size_t reported = 0, skipped = 0, arriving = 0;
	for ( int k = 0; k < 16; ++k )
	{
		SCOPED_TRACE( k );
		const pdMesh* a = meshes[k % 2].get();
		const pdMesh* b = meshes[( k / 2 ) % 2].get();
		pdTransform pa, pb = pdIdentityTransform();
		pdQuat q = { rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) + 1.5 };
		double n = std::sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
		pa.q = { q.w / n, q.x / n, q.y / n, q.z / n };
		pa.p = pdiV3( rng.Range( -0.3, 0.3 ), rng.Range( -0.3, 0.3 ), rng.Range( -0.3, 0.3 ) );
		double tolerance = rng.Range( 0.005, 0.02 );
		pdRigidMotion motion;
		motion.linear = pdiScale( pdiV3( rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) ), 0.06 );
		// Half the cases translate only: then the end pose is exactly first order.
		double spin = k < 8 ? 0.0 : 0.08;
		motion.angular = pdiScale( pdiV3( rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) ), spin );
		motion.pivot = pa.p;
		pdVec3 approach = pdiV3( 0, 0, -1 );

		int count = 0;
		const pdContactFeature* features = nullptr;
		ASSERT_EQ( testSweptContactFeatures( a, &pa, b, &pb, tolerance, &motion, approach, 1 << 20, ws.get(),
												  &count, &features ),
				   PD_STATUS_OK );
		std::map<FeatureKey, pdContactFeature> got;
		for ( int i = 0; i < count; ++i )
			EXPECT_TRUE( got.emplace( Key( a, b, features[i] ), features[i] ).second ) << "reported twice: " << i;

		// Everything within reach of the step now: the distance bound of any pair that can close.
		double radius = 0.0;
		for ( int v = 0; v < a->vertexCount; ++v )
			radius = std::max( radius, pdiLength( pdiSub( TestApplyPose( pa, a->vertices[v] ), motion.pivot ) ) );
		double reach = tolerance + pdiLength( motion.linear ) + pdiLength( motion.angular ) * radius;
		std::map<FeatureKey, pdContactFeature> near = BruteForcePairs( a, pa, b, pb, reach, approach );
		for ( const auto& [key, f] : got )
		{
			auto it = near.find( key );
			ASSERT_NE( it, near.end() ) << "a pair beyond the step's reach";
			EXPECT_NEAR( f.distance, it->second.distance, 1e-12 );
			EXPECT_LE( SweptGap( f, motion ), tolerance + 1e-12 ) << "a pair the step cannot close";
		}
		for ( const auto& [key, f] : near )
		{
			if ( f.distance <= tolerance )
				EXPECT_TRUE( got.count( key ) ) << "a pair within the tolerance now is missing";
			else if ( got.count( key ) == 0 )
				skipped += 1;
		}
		if ( spin == 0.0 )
		{
			std::map<FeatureKey, pdContactFeature> end = BruteForcePairs( a, EndPose( pa, motion ), b, pb, tolerance,
																		  approach );
			for ( const auto& [key, f] : end )
			{
				// A pair of features that are a contact feature pair now (closest points inside
				// both features) and within the tolerance at the end of the step.
				if ( near.count( key ) == 0 )
					continue;
				EXPECT_TRUE( got.count( key ) ) << "a pair that the step brings within the tolerance is missing";
				arriving += near.at( key ).distance > tolerance;
			}
		}
		reported += got.size();

		// Zero motion: exactly the static gathering, in the same order.
		pdRigidMotion still = { pdiV3( 0, 0, 0 ), pdiV3( 0, 0, 0 ), motion.pivot };
		std::vector<pdContactFeature> fromStill;
		ASSERT_GE( testSweptContactFeatures( a, &pa, b, &pb, reach, &still, approach, 1 << 20, ws.get(), &count,
												  &features ),
				   0 );
		fromStill.assign( features, features + count );
		ASSERT_GE( testContactFeatures( a, &pa, b, &pb, reach, approach, 1 << 20, ws.get(), &count, &features ), 0 );
		ASSERT_EQ( (size_t)count, fromStill.size() );
		for ( int i = 0; i < count; ++i )
		{
			EXPECT_EQ( Key( a, b, features[i] ), Key( a, b, fromStill[i] ) ) << i;
			EXPECT_EQ( features[i].distance, fromStill[i].distance ) << i;
		}
	}
	// The poses must give pairs of every kind for the checks to mean anything.
	EXPECT_GT( reported, 100u );
	EXPECT_GT( skipped, 100u );
	EXPECT_GT( arriving, 20u );
}

TEST( PdContactFeatures, SweptGatheringRejectsANonFiniteMotion )
{
	TestOwnedSoup torus;
	ASSERT_TRUE( smpMakeTorus( 0.5, 0.15, 12, 6, &torus.soup ) );
	TestMeshPtr mesh = TestMakeMesh( torus.soup );
	ASSERT_NE( mesh, nullptr );
	TestWorkspacePtr ws( pdCreateWorkspace( NULL ) );
	pdTransform pa = pdIdentityTransform(), pb = pdIdentityTransform();
	pa.p = pdiV3( 0.1, 0.0, 0.0 );
	pdRigidMotion motion = { pdiV3( 0, NAN, 0 ), pdiV3( 0, 0, 0 ), pdiV3( 0, 0, 0 ) };
	int count = 7;
	const pdContactFeature* features = nullptr;
	EXPECT_EQ( testSweptContactFeatures( mesh.get(), &pa, mesh.get(), &pb, 0.01, &motion, pdiV3( 0, 0, 0 ), 64,
											  ws.get(), &count, &features ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( count, 0 );
	EXPECT_EQ( features, nullptr );
	motion.linear = pdiV3( 0, 0, 0 );
	motion.pivot = pdiV3( INFINITY, 0, 0 );
	EXPECT_EQ( testSweptContactFeatures( mesh.get(), &pa, mesh.get(), &pb, 0.01, &motion, pdiV3( 0, 0, 0 ), 64,
											  ws.get(), &count, &features ),
			   PD_STATUS_INVALID_ARGUMENT );
}

// A ring sliding and turning over a floor's edge at a height above the tolerance: the
// first-order gap of a slanted pair (an edge of the ring beyond the floor's border edge,
// normal tilted outward) reads as closing when the motion runs along the floor, but the
// floor's plane keeps the ring above the tolerance all through the step, so no pair comes
// within it and none is reported. (The spin about the vertical keeps the boxes from culling
// them first.)
TEST( PdContactFeatures, SweptGatheringSkipsPairsTheStepKeepsApart )
{
	TestOwnedSoup torus;
	ASSERT_TRUE( smpMakeTorus( 0.5, 0.15, 24, 8, &torus.soup ) );
	TestMeshPtr ring = TestMakeMesh( torus.soup );
	TestMeshPtr floor = TestMakeFloor( 0.5, 1 );
	ASSERT_TRUE( ring && floor );
	TestWorkspacePtr ws( pdCreateWorkspace( NULL ) );
	const double tolerance = 0.01, height = 1.5 * tolerance;
	pdTransform pb = pdIdentityTransform();
	for ( int k = 0; k < 8; ++k )
	{
		SCOPED_TRACE( k );
		// Ring centres past the floor's border x = 0.5, moving back over the floor.
		pdTransform pa = pdIdentityTransform();
		double angle = 0.2 * k;
		pa.q = { std::cos( 0.5 * angle ), std::sin( 0.5 * angle ), 0.0, 0.0 };
		pa.p = pdiV3( 0.5 + 0.1 + 0.05 * k, 0.0, 0.1 );
		double lowest = INFINITY;
		for ( int v = 0; v < ring->vertexCount; ++v )
			lowest = std::min( lowest, TestApplyPose( pa, ring->vertices[v] ).y );
		pa.p.y += height - lowest;
		pdRigidMotion motion = { pdiV3( -0.3, 0.0, 0.0 ), pdiV3( 0.0, 0.3, 0.0 ), pa.p };

		// The first-order criterion alone would keep a pair: some pair within the step's reach
		// has a predicted gap within the tolerance.
		double reach = tolerance + pdiLength( motion.linear );
		std::map<FeatureKey, pdContactFeature> near =
			BruteForcePairs( ring.get(), pa, floor.get(), pb, reach, pdiV3( 0, -1, 0 ) );
		int firstOrderClosing = 0;
		for ( const auto& [key, f] : near )
			firstOrderClosing += SweptGap( f, motion ) <= tolerance;
		EXPECT_GT( firstOrderClosing, 0 ) << "the pose must hold a slanted pair for the check to mean anything";
		// The step keeps every pair apart: nothing within the tolerance at its end either.
		EXPECT_TRUE( BruteForcePairs( ring.get(), EndPose( pa, motion ), floor.get(), pb, tolerance,
									  pdiV3( 0, -1, 0 ) )
						 .empty() );

		int count = -1;
		const pdContactFeature* features = nullptr;
		ASSERT_EQ( testSweptContactFeatures( ring.get(), &pa, floor.get(), &pb, tolerance, &motion,
												  pdiV3( 0, -1, 0 ), 256, ws.get(), &count, &features ),
				   PD_STATUS_OK );
		EXPECT_EQ( count, 0 );
	}
}

// The gathering that also measures the distance within the tolerance (the PD iteration's
// classification of a projected configuration): the features are pdComputeContactFeatures',
// in the same order, and the distance is the distance query's to the last bit when within the
// tolerance, above the tolerance otherwise, and 0 for intersecting surfaces.
TEST( PdContactFeatures, MeasuringGapGivesTheDistanceQuerysValueAndTheSameFeatures )
{
	TestOwnedSoup torus, knot, grate;
	ASSERT_TRUE( smpMakeTorus( 0.5, 0.2, 16, 10, &torus.soup ) );
	ASSERT_TRUE( smpMakeTorusKnot( 2, 3, 0.35, 0.1, 48, 6, &knot.soup ) );
	ASSERT_TRUE( smpMakeGrate( 1.0, 0.15, 2, &grate.soup ) );
	TestMeshPtr meshes[3] = { TestMakeMesh( torus.soup ), TestMakeMesh( knot.soup ), TestMakeMesh( grate.soup ) };
	for ( const TestMeshPtr& m : meshes )
		ASSERT_NE( m, nullptr );
	TestWorkspacePtr ws( pdCreateWorkspace( NULL ) );
	TestRng rng( 23 );
	int within = 0, beyond = 0, intersecting = 0;
	for ( int k = 0; k < 18; ++k )
	{
		const pdMesh* a = meshes[k % 3].get();
		const pdMesh* b = meshes[( k / 3 ) % 3].get();
		pdTransform pa, pb = pdIdentityTransform();
		pdQuat q = { rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) + 1.5 };
		double n = std::sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
		pa.q = { q.w / n, q.x / n, q.y / n, q.z / n };
		pdVec3 u = pdiNormalize( pdiV3( rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) + 0.1 ) );
		// A along u, bisected to a few hundredths from B (or intersecting it for every third pose).
		double lo = 0.0, hi = 4.0;
		pdDistanceResult dr;
		for ( int it = 0; it < 40; ++it )
		{
			double mid = 0.5 * ( lo + hi );
			pa.p = pdiScale( u, mid );
			ASSERT_EQ( pdComputeDistance( a, &pa, b, &pb, nullptr, ws.get(), &dr ), PD_STATUS_OK );
			( dr.distance > 0.03 ? hi : lo ) = mid;
		}
		pa.p = pdiScale( u, k % 3 == 2 ? 0.8 * lo : hi );
		ASSERT_EQ( pdComputeDistance( a, &pa, b, &pb, nullptr, ws.get(), &dr ), PD_STATUS_OK );
		double distance = dr.distance;
		for ( double tolerance : { 0.5 * distance, 0.999 * distance, 1.001 * distance, 2.0 * distance, 0.02 } )
		{
			if ( !( tolerance > 0.0 ) )
				continue;
			SCOPED_TRACE( testing::Message() << "pose " << k << " distance " << distance << " tolerance " << tolerance );
			pdVec3 approach = pdiNeg( u );
			int count = 0, visits = -1;
			const pdContactFeature* features = nullptr;
			double measured = -1.0;
			int closest[2] = { -2, -2 };
			ASSERT_EQ( pdiContactFeatures_GatherMeasuringGap( a, &pa, b, &pb, tolerance, approach, 1 << 20, ws.get(),
															 &count, &features, &measured, closest, &visits ),
					   PD_STATUS_OK );
			if ( measured <= tolerance )
			{
				// The pair it names is at that distance.
				ASSERT_TRUE( closest[0] >= 0 && closest[0] < a->triangleCount && closest[1] >= 0 &&
							 closest[1] < b->triangleCount );
				pdVec3 va[3], vb[3], p, q;
				for ( int c = 0; c < 3; ++c )
				{
					va[c] = TestApplyPose( pa, a->vertices[a->triangles[closest[0]][c]] );
					vb[c] = b->vertices[b->triangles[closest[1]][c]];
				}
				EXPECT_NEAR( pdiTriangleDistance( va, vb, &p, &q, nullptr, nullptr ), measured, 1e-12 );
			}
			EXPECT_GT( visits, 0 );
			std::vector<pdContactFeature> got( features, features + count );
			if ( distance <= 0.0 )
			{
				EXPECT_EQ( measured, 0.0 );
				intersecting += 1;
				continue; // the traversal ended at the first intersecting pair
			}
			if ( distance <= tolerance )
			{
				EXPECT_EQ( measured, distance );
				within += 1;
			}
			else
			{
				EXPECT_GT( measured, tolerance );
				beyond += 1;
			}
			int expectedCount = 0;
			ASSERT_EQ( testContactFeatures( a, &pa, b, &pb, tolerance, approach, 1 << 20, ws.get(), &expectedCount,
												 &features ),
					   PD_STATUS_OK );
			ASSERT_EQ( count, expectedCount );
			for ( int i = 0; i < count; ++i )
			{
				EXPECT_EQ( Key( a, b, got[i] ), Key( a, b, features[i] ) ) << i;
				EXPECT_EQ( got[i].distance, features[i].distance ) << i;
			}
		}
	}
	// Every branch must be exercised for the comparison to mean anything.
	EXPECT_GT( within, 10 );
	EXPECT_GT( beyond, 10 );
	EXPECT_GT( intersecting, 3 );
}

namespace
{

bool SameVec( pdVec3 u, pdVec3 v )
{
	return u.x == v.x && u.y == v.y && u.z == v.z;
}

bool SameFeature( const pdFeature& f, const pdFeature& g )
{
	return f.type == g.type && f.triangle == g.triangle && f.index == g.index && f.vertex == g.vertex;
}

// The same list, bit for bit in every field, in the same order.
bool SameFeatures( const pdContactFeature* x, int nx, const pdContactFeature* y, int ny )
{
	if ( nx != ny )
	{
		return false;
	}
	for ( int i = 0; i < nx; ++i )
	{
		const pdContactFeature &f = x[i], &e = y[i];
		if ( f.kind != e.kind || !SameFeature( f.featureA, e.featureA ) || !SameFeature( f.featureB, e.featureB ) ||
			 !SameVec( f.pointA, e.pointA ) || !SameVec( f.pointB, e.pointB ) || !SameVec( f.normal, e.normal ) ||
			 !( f.distance == e.distance ) )
		{
			return false;
		}
	}
	return true;
}

} // namespace

// The one query against the distance query and against itself: its gap answer is the distance
// query's (apart below the distance, not apart above it); a gap proof in the same traversal
// leaves the features as they are without one; the proof alone visits fewer node pairs; and
// the apart confirmation (gap = the contact tolerance, containment checked) says separated
// exactly when pdComputePenetration does, with the features of the plain gathering.
TEST( PdContactFeatures, QueryGapAnswerAgreesWithTheDistanceQueryAndKeepsTheFeatures )
{
	TestOwnedSoup torus;
	ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &torus.soup ) );
	TestMeshPtr a = TestMakeMesh( torus.soup ), b = TestMakeMesh( torus.soup );
	ASSERT_TRUE( a && b );
	TestWorkspacePtr ws( pdCreateWorkspace( NULL ) );
	pdTransform pb = pdIdentityTransform();
	TestRng rng( 11 );
	const double tol = 1e-4 * 2.0 * std::sqrt( 1.3 * 1.3 * 2.0 + 0.3 * 0.3 );
	int apartSeen = 0, closeSeen = 0, separated = 0;
	for ( int trial = 0; trial < 24; ++trial )
	{
		pdTransform pa;
		double n = 0.0;
		do
		{
			pa.q = { rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) };
			n = std::sqrt( pa.q.w * pa.q.w + pa.q.x * pa.q.x + pa.q.y * pa.q.y + pa.q.z * pa.q.z );
		} while ( n < 0.1 || n > 1.0 );
		pa.q = { pa.q.w / n, pa.q.x / n, pa.q.y / n, pa.q.z / n };
		pa.p = pdiV3( rng.Range( 1.2, 2.9 ), rng.Range( -0.3, 0.3 ), rng.Range( -0.5, 0.5 ) );
		pdDistanceDef dd = pdDefaultDistanceDef();
		pdDistanceResult dr;
		ASSERT_EQ( pdComputeDistance( a.get(), &pa, b.get(), &pb, &dd, ws.get(), &dr ), PD_STATUS_OK );
		const double reach = 0.05;
		// Most poses: A moved along the closest points' line to a gap below the reach (the gap
		// can come out smaller where other parts close in, or 0).
		if ( trial % 4 != 0 && dr.distance > 0.0 )
		{
			pdVec3 u = pdiScale( pdiSub( dr.pointB, dr.pointA ), 1.0 / dr.distance );
			pa.p = pdiMulAdd( pa.p, dr.distance - rng.Range( 0.002, 0.03 ), u );
			ASSERT_EQ( pdComputeDistance( a.get(), &pa, b.get(), &pb, &dd, ws.get(), &dr ), PD_STATUS_OK );
		}

		pdContactFeatureDef plain = pdDefaultContactFeatureDef();
		plain.reach = reach;
		plain.approachDirection = pdiV3( -1, 0, 0 );
		pdContactFeatureResult base;
		ASSERT_GE( pdComputeContactFeatures( a.get(), &pa, b.get(), &pb, &plain, ws.get(), &base ), 0 );
		std::vector<pdContactFeature> baseFeatures( base.features, base.features + base.featureCount );
		EXPECT_FALSE( base.apart ); // no gap asked

		if ( dr.distance > 1e-9 )
		{
			for ( double gap : { 0.5 * dr.distance, 1.5 * dr.distance } )
			{
				if ( gap > reach )
				{
					continue;
				}
				pdContactFeatureDef proving = plain;
				proving.gap = gap;
				pdContactFeatureResult pr;
				ASSERT_GE( pdComputeContactFeatures( a.get(), &pa, b.get(), &pb, &proving, ws.get(), &pr ), 0 );
				if ( pr.status == PD_STATUS_OK )
				{
					EXPECT_EQ( pr.apart, gap < dr.distance ) << "trial " << trial << " gap " << gap;
				}
				EXPECT_TRUE( SameFeatures( pr.features, pr.featureCount, baseFeatures.data(), base.featureCount ) )
					<< "trial " << trial;
				EXPECT_EQ( pr.nodeVisits, base.nodeVisits );

				pdContactFeatureDef alone = pdDefaultContactFeatureDef();
				alone.reach = gap;
				alone.maxFeatures = 0;
				alone.gap = gap;
				pdiGapProof aloneProof = { true, false, false };
				pdContactFeatureResult ar;
				ASSERT_EQ( pdiPlugin_ComputeContactFeatures( a.get(), &pa, b.get(), &pb, &alone, aloneProof, ws.get(), &ar ), PD_STATUS_OK );
				EXPECT_EQ( ar.apart, gap < dr.distance ) << "trial " << trial;
				EXPECT_EQ( ar.featureCount, 0 );
				EXPECT_LE( ar.nodeVisits, base.nodeVisits );
				( ar.apart ? apartSeen : closeSeen ) += 1;
			}
		}

		pdContactFeatureDef confirm = plain;
		confirm.gap = tol;
		pdiGapProof confirmProof = { true, false, false };
		confirmProof.checkContainment = true;
		pdContactFeatureResult cr;
		ASSERT_GE( pdiPlugin_ComputeContactFeatures( a.get(), &pa, b.get(), &pb, &confirm, confirmProof, ws.get(), &cr ), 0 );
		pdPenetrationResult pen;
		ASSERT_GE( pdComputePenetration( a.get(), &pa, b.get(), &pb, nullptr, nullptr, ws.get(), &pen ), 0 );
		EXPECT_EQ( cr.apart, pen.state == PD_STATE_SEPARATED ) << "trial " << trial;
		if ( cr.apart )
		{
			separated += 1;
			EXPECT_TRUE( SameFeatures( cr.features, cr.featureCount, baseFeatures.data(), base.featureCount ) );
		}
	}
	std::printf( "gap proofs: %d apart, %d within; confirmations apart %d of 24\n", apartSeen, closeSeen, separated );
	EXPECT_GE( apartSeen, 5 );
	EXPECT_GE( closeSeen, 5 );
	EXPECT_GE( separated, 5 );
	EXPECT_LT( separated, 24 );
}

TEST( PdContactFeatures, QueryDefaultsAndRejectsBadDefs )
{
	TestOwnedSoup box;
	ASSERT_TRUE( smpMakeBox( pdiV3( 0.5, 0.5, 0.5 ), 2, &box.soup ) );
	TestMeshPtr mesh = TestMakeMesh( box.soup );
	ASSERT_TRUE( mesh );
	TestWorkspacePtr ws( pdCreateWorkspace( NULL ) );
	pdTransform pb = pdIdentityTransform(), pa = pdIdentityTransform();
	double diagonal = std::sqrt( 3.0 );
	// NULL def: the default reach, the pair's contact tolerance. A face-to-face touch within it
	// gives features; the same pair moved apart by twice it gives none.
	pa.p = pdiV3( 1.0 + 0.5e-4 * diagonal, 0.0, 0.0 );
	pdContactFeatureResult r;
	ASSERT_EQ( pdComputeContactFeatures( mesh.get(), &pa, mesh.get(), &pb, nullptr, ws.get(), &r ), PD_STATUS_OK );
	EXPECT_GT( r.featureCount, 0 );
	EXPECT_GT( r.nodeVisits, 0 );
	pa.p = pdiV3( 1.0 + 2e-4 * diagonal, 0.0, 0.0 );
	ASSERT_EQ( pdComputeContactFeatures( mesh.get(), &pa, mesh.get(), &pb, nullptr, ws.get(), &r ), PD_STATUS_OK );
	EXPECT_EQ( r.featureCount, 0 );

	pdContactFeatureDef def = pdDefaultContactFeatureDef();
	def.reach = 0.1;
	def.gap = 0.2; // beyond the reach
	EXPECT_EQ( pdComputeContactFeatures( mesh.get(), &pa, mesh.get(), &pb, &def, ws.get(), &r ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_FALSE( r.apart );
	pdRigidMotion motion = { pdiV3( -0.1, 0, 0 ), pdiV3( 0, 0, 0 ), pdiV3( 0, 0, 0 ) };
	def.gap = 0.05;
	def.motion = &motion; // a proof only at rest
	EXPECT_EQ( pdComputeContactFeatures( mesh.get(), &pa, mesh.get(), &pb, &def, ws.get(), &r ),
			   PD_STATUS_INVALID_ARGUMENT );
	def.motion = nullptr;
	def.reach = NAN;
	EXPECT_EQ( pdComputeContactFeatures( mesh.get(), &pa, mesh.get(), &pb, &def, ws.get(), &r ),
			   PD_STATUS_INVALID_ARGUMENT );
	pdContactFeatureDef zero;
	std::memset( &zero, 0, sizeof( zero ) );
	EXPECT_EQ( pdComputeContactFeatures( mesh.get(), &pa, mesh.get(), &pb, &zero, ws.get(), &r ),
			   PD_STATUS_DEF_NOT_INITIALIZED );
	EXPECT_EQ( pdComputeContactFeatures( mesh.get(), &pa, mesh.get(), &pb, nullptr, ws.get(), nullptr ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdComputeContactFeatures( nullptr, &pa, mesh.get(), &pb, nullptr, ws.get(), &r ), PD_STATUS_INVALID_MESH );
	EXPECT_EQ( r.status, PD_STATUS_INVALID_MESH );
}
