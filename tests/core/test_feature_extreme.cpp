// SPDX-License-Identifier: MIT
// Whether a contact pair's vertex or edge is its mesh's extreme along a direction
// (core/src/feature_extreme.c), against brute force over the triangle list.
#include "feature_calls.h"
#include "plugin_interface.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "test_util.h"

extern "C" {
#include "mesh.h"
}

namespace
{

// Oracle for pdiContactFeature_IsLocallyClosest by brute force over the triangle list: the
// neighbours of a vertex are the vertices of every triangle with a corner at its position, an
// edge's are the third corners of the triangles holding both its end positions (exactly two,
// else it is not tested); no neighbour may lie further along dir than the feature.
bool FeatureExtremeBruteForce( const pdMesh* mesh, const pdTransform& pose, const pdFeature& f, pdVec3 dir )
{
	const int* tri = mesh->triangles[f.triangle];
	auto at = [&]( int v ) { return TestApplyPose( pose, mesh->vertices[v] ); };
	auto same = [&]( int v, pdVec3 p ) { return pdiDistanceSq( mesh->vertices[v], p ) == 0.0; };
	auto ahead = [&]( pdVec3 p, int w ) {
		pdVec3 d = pdiSub( at( w ), p );
		return pdiLength( d ) > 0.0 && pdiDot( d, dir ) > 1e-6 * pdiLength( d );
	};
	if ( f.type == PD_FEATURE_VERTEX )
	{
		pdVec3 local = mesh->vertices[tri[f.index]];
		for ( int t = 0; t < mesh->triangleCount; ++t )
		{
			const int* u = mesh->triangles[t];
			if ( !same( u[0], local ) && !same( u[1], local ) && !same( u[2], local ) )
				continue;
			for ( int k = 0; k < 3; ++k )
				if ( ahead( at( tri[f.index] ), u[k] ) )
					return false;
		}
		return true;
	}
	if ( f.type == PD_FEATURE_EDGE )
	{
		pdVec3 l0 = mesh->vertices[tri[f.index]], l1 = mesh->vertices[tri[( f.index + 1 ) % 3]];
		std::vector<int> thirds;
		for ( int t = 0; t < mesh->triangleCount; ++t )
		{
			const int* u = mesh->triangles[t];
			for ( int k = 0; k < 3; ++k )
			{
				bool a = same( u[k], l0 ) && same( u[( k + 1 ) % 3], l1 );
				bool b = same( u[k], l1 ) && same( u[( k + 1 ) % 3], l0 );
				if ( a || b )
					thirds.push_back( u[( k + 2 ) % 3] );
			}
		}
		if ( thirds.size() != 2 )
			return true;
		for ( int w : thirds )
			if ( ahead( at( tri[f.index] ), w ) )
				return false;
		return true;
	}
	return true;
}

} // namespace

TEST( PdContactFeatures, LocallyClosestEqualsBruteForceAndDropsTiltedFloorEdges )
{
	TestMeshPtr floor = TestMakeFloor( 1.0, 8 );
	TestOwnedSoup box;
	ASSERT_TRUE( smpMakeBox( pdiV3( 0.2, 0.1, 0.3 ), 2, &box.soup ) );
	TestMeshPtr boxMesh = TestMakeMesh( box.soup );
	TestOwnedSoup torus;
	ASSERT_TRUE( smpMakeTorus( 0.5, 0.15, 24, 8, &torus.soup ) );
	TestMeshPtr torusMesh = TestMakeMesh( torus.soup );
	ASSERT_TRUE( floor && boxMesh && torusMesh );
	TestWorkspacePtr ws( pdCreateWorkspace( NULL ) );
	pdTransform pb = pdIdentityTransform();
	int accepted = 0, rejected = 0, tiltedFloorEdges = 0, extremeAlong = 0, notExtremeAlong = 0;
	TestRng rng( 7 );
	for ( int trial = 0; trial < 12; ++trial )
	{
		const pdMesh* a = trial % 2 == 0 ? boxMesh.get() : torusMesh.get();
		pdTransform pa;
		double n = 0.0;
		do
		{
			pa.q = { rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) };
			n = std::sqrt( pa.q.w * pa.q.w + pa.q.x * pa.q.x + pa.q.y * pa.q.y + pa.q.z * pa.q.z );
		} while ( n < 0.1 || n > 1.0 );
		pa.q = { pa.q.w / n, pa.q.x / n, pa.q.y / n, pa.q.z / n };
		pa.p = pdiV3( 0.05 * trial - 0.3, 0.0, 0.02 * trial );
		// Lift A until its lowest vertex is 1 cm above the floor.
		double lowest = 1e30;
		for ( int v = 0; v < a->vertexCount; ++v )
			lowest = std::min( lowest, TestApplyPose( pa, a->vertices[v] ).y );
		pa.p.y += 0.01 - lowest;
		int count = 0;
		const pdContactFeature* features = nullptr;
		ASSERT_GE( testContactFeatures( a, &pa, floor.get(), &pb, 0.15, pdiV3( 0, -1, 0 ), 1 << 16, ws.get(), &count,
											 &features ),
				   0 );
		std::vector<pdContactFeature> list( features, features + count );
		ASSERT_FALSE( list.empty() );
		// The closest pair of all is the closest part of both meshes: always kept.
		const pdContactFeature& closest = *std::min_element(
			list.begin(), list.end(),
			[]( const pdContactFeature& x, const pdContactFeature& y ) { return x.distance < y.distance; } );
		EXPECT_TRUE( pdiPlugin_IsFeatureExtremeAlong( a, &pa, floor.get(), &pb, &closest , pdiSub( closest.pointA, closest.pointB ) ) ) << "trial " << trial;
		for ( const pdContactFeature& f : list )
		{
			pdVec3 d = pdiSub( f.pointA, f.pointB );
			bool expected = true;
			if ( pdiLength( d ) > 0.0 )
			{
				d = pdiScale( d, 1.0 / pdiLength( d ) );
				expected = FeatureExtremeBruteForce( a, pa, f.featureA, pdiNeg( d ) ) &&
						   FeatureExtremeBruteForce( floor.get(), pb, f.featureB, d );
			}
			bool got = pdiPlugin_IsFeatureExtremeAlong( a, &pa, floor.get(), &pb, &f , pdiSub( f.pointA, f.pointB ) );
			EXPECT_EQ( got, expected ) << "trial " << trial << " kind " << f.kind;
			// The same test along given directions: the pair's normal (what a touching pair is
			// judged by), and for vertex-face pairs the floor's and two tilted ones (not
			// normalised: any length). An edge is only judged across itself.
			std::vector<pdVec3> dirs = { f.normal };
			if ( f.kind != PD_CONTACT_EE )
			{
				dirs.insert( dirs.end(), { pdiV3( 0, 1, 0 ), pdiV3( 1, 2, 0 ), pdiV3( -0.3, 1, 0.8 ) } );
			}
			for ( pdVec3 dir : dirs )
			{
				pdVec3 n = pdiNormalize( dir );
				bool along = FeatureExtremeBruteForce( a, pa, f.featureA, pdiNeg( n ) ) &&
							 FeatureExtremeBruteForce( floor.get(), pb, f.featureB, n );
				EXPECT_EQ( pdiPlugin_IsFeatureExtremeAlong( a, &pa, floor.get(), &pb, &f, dir ), along )
					<< "trial " << trial << " kind " << f.kind;
				( along ? extremeAlong : notExtremeAlong ) += 1;
			}
			( got ? accepted : rejected ) += 1;
			// A floor edge inside the floor (two coplanar faces) is never the closest part of
			// the floor along a direction that is not the floor's normal.
			if ( f.kind == PD_CONTACT_EE && pdiLength( d ) > 0.0 && std::fabs( d.y ) < 0.99 )
			{
				const int* t = floor->triangles[f.featureB.triangle];
				pdVec3 e0 = floor->vertices[t[f.featureB.index]], e1 = floor->vertices[t[( f.featureB.index + 1 ) % 3]];
				bool interior = std::fabs( e0.x ) < 1.0 && std::fabs( e1.x ) < 1.0 && std::fabs( e0.z ) < 1.0 &&
								std::fabs( e1.z ) < 1.0;
				if ( interior )
				{
					tiltedFloorEdges += 1;
					EXPECT_FALSE( got );
				}
			}
		}
	}
	std::printf( "accepted %d, rejected %d, tilted interior floor edges %d; along given directions %d extreme, %d not\n",
				 accepted, rejected, tiltedFloorEdges, extremeAlong, notExtremeAlong );
	EXPECT_GE( accepted, 12 );
	EXPECT_GT( extremeAlong, 12 );
	EXPECT_GT( notExtremeAlong, 100 );
	EXPECT_GT( rejected, 100 );
	EXPECT_GT( tiltedFloorEdges, 5 );
}

TEST( PdContactFeatures, FaceTurnedAwayIsTheFaceSeenFromInsideItsSolid )
{
	// A box 5 mm above a 2 cm plate, features within 3 cm: its bottom vertices face the plate's
	// top and lie behind its underside (25 mm down), the plate's top vertices face the box's
	// bottom. Brute force: the face's outward normal from its corners' winding (the box and the
	// plate are wound outward) against the pair's normal out of B. The open floor has no
	// inside: never.
	TestOwnedSoup box, plate;
	ASSERT_TRUE( smpMakeBox( pdiV3( 0.1, 0.1, 0.1 ), 1, &box.soup ) );
	ASSERT_TRUE( smpMakeBox( pdiV3( 0.5, 0.01, 0.5 ), 1, &plate.soup ) );
	TestMeshPtr boxMesh = TestMakeMesh( box.soup ), plateMesh = TestMakeMesh( plate.soup );
	TestMeshPtr floor = TestMakeFloor( 1.0, 4 );
	ASSERT_TRUE( boxMesh && plateMesh && floor );
	TestWorkspacePtr ws( pdCreateWorkspace( NULL ) );
	pdTransform pa = pdIdentityTransform(), pb = pdIdentityTransform();
	pa.p = pdiV3( 0.05, 0.01 + 0.1 + 0.005, 0.02 );
	pdContactFeatureDef def = pdDefaultContactFeatureDef();
	def.reach = 0.03;
	def.maxFeatures = 4096;
	pdContactFeatureResult r;
	ASSERT_EQ( pdComputeContactFeatures( boxMesh.get(), &pa, plateMesh.get(), &pb, &def, ws.get(), &r ), PD_STATUS_OK );
	int turnedAway = 0, facing = 0;
	for ( int i = 0; i < r.featureCount; ++i )
	{
		const pdContactFeature& f = r.features[i];
		if ( f.kind == PD_CONTACT_EE )
		{
			EXPECT_FALSE( pdiPlugin_IsFaceTurnedAway( boxMesh.get(), &pa, plateMesh.get(), &pb, &f, f.normal ) );
			continue;
		}
		bool faceOfB = f.kind == PD_CONTACT_VF;
		const pdMesh* mesh = faceOfB ? plateMesh.get() : boxMesh.get();
		const pdTransform& pose = faceOfB ? pb : pa;
		const int* tri = mesh->triangles[faceOfB ? f.featureB.triangle : f.featureA.triangle];
		pdVec3 c0 = TestApplyPose( pose, mesh->vertices[tri[0]] ), c1 = TestApplyPose( pose, mesh->vertices[tri[1]] ),
			   c2 = TestApplyPose( pose, mesh->vertices[tri[2]] );
		double along = pdiDot( pdiCross( pdiSub( c1, c0 ), pdiSub( c2, c0 ) ), f.normal );
		bool expected = faceOfB ? along < 0.0 : along > 0.0;
		EXPECT_EQ( pdiPlugin_IsFaceTurnedAway( boxMesh.get(), &pa, plateMesh.get(), &pb, &f, f.normal ), expected )
			<< "feature " << i;
		( expected ? turnedAway : facing ) += 1;
	}
	EXPECT_GT( turnedAway, 0 ) << "the box's bottom vertices under the plate's underside";
	EXPECT_GT( facing, 0 );
	ASSERT_EQ( pdComputeContactFeatures( boxMesh.get(), &pa, floor.get(), &pb, &def, ws.get(), &r ), PD_STATUS_OK );
	ASSERT_GT( r.featureCount, 0 );
	for ( int i = 0; i < r.featureCount; ++i )
	{
		if ( r.features[i].kind == PD_CONTACT_VF )
		{
			EXPECT_FALSE( pdiPlugin_IsFaceTurnedAway( boxMesh.get(), &pa, floor.get(), &pb, &r.features[i],
													  r.features[i].normal ) );
		}
	}
}
