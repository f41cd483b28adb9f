// SPDX-License-Identifier: MIT
// Translational CCD and contact features (ccd.c, contact_features.c): analytic box drops, the
// time of contact never later than the first contact found by finely sampled collide queries
// along the path, no hit for separated paths, starts in collision, orientation culling giving
// the same answer, features within tolerance with normals from B toward A, caps, invalid
// input, and no allocation after warm-up for collide, distance and CCD together.
#include "feature_calls.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "query_fixture.h"

extern "C"
{
#include "mesh.h"
#include "shapes.h"
#include "tri_distance.h"
#include "workspace.h"
}

using namespace polydepth::test;

namespace
{

bool Colliding( const pdMesh* a, const pdTransform& pa, const pdMesh* b, const pdTransform& pb, pdWorkspace* ws )
{
	pdCollideResult r;
	pdCollide( a, &pa, b, &pb, nullptr, ws, &r );
	return r.colliding;
}

// A random sweep: B posed near the origin, A on a sphere of radius 3 around B, aimed through
// a random point near B. False (and the end left undrawn) when A starts in collision.
struct Sweep
{
	pdTransform poseA, poseB;
	pdVec3 end;
};

bool RandomFreeSweep( std::mt19937& rng, const pdMesh* a, const pdMesh* b, pdWorkspace* ws, Sweep* out )
{
	out->poseB = Pose( RandomRotation( rng ), RandomVec( rng, 0.3 ) );
	pdQuat qa = RandomRotation( rng );
	pdVec3 dir = pdiNormalize( RandomVec( rng, 1.0 ) );
	out->poseA = Pose( qa, pdiAdd( out->poseB.p, pdiScale( dir, 3.0 ) ) );
	if ( Colliding( a, out->poseA, b, out->poseB, ws ) )
	{
		return false;
	}
	out->end = pdiAdd( out->poseB.p, RandomVec( rng, 1.0 ) );
	return true;
}

double Distance( const pdMesh* a, const pdTransform& pa, const pdMesh* b, const pdTransform& pb, pdWorkspace* ws )
{
	pdDistanceResult r;
	pdComputeDistance( a, &pa, b, &pb, nullptr, ws, &r );
	return r.distance;
}

double DefaultTolerance( const pdMesh* a, const pdMesh* b )
{
	return 1e-4 * std::min( a->diagonal, b->diagonal );
}

void CheckFeatures( const pdCcdResult& r, double tol, const std::string& what )
{
	std::set<std::tuple<int, int, int, int, int, int, int>> keys;
	for ( int k = 0; k < r.featureCount; ++k )
	{
		const pdContactFeature& f = r.features[k];
		EXPECT_NEAR( pdiLength( f.normal ), 1.0, 1e-9 ) << what << " feature " << k;
		EXPECT_LE( std::fabs( f.distance ), tol * ( 1.0 + 1e-6 ) + 1e-12 ) << what << " feature " << k;
		EXPECT_LE( pdiLength( pdiSub( f.pointA, f.pointB ) ), tol * ( 1.0 + 1e-6 ) + 1e-12 ) << what << " feature " << k;
		EXPECT_TRUE( f.kind == PD_CONTACT_VF || f.kind == PD_CONTACT_FV || f.kind == PD_CONTACT_EE ) << what;
		keys.insert( std::make_tuple( (int)f.kind, (int)f.featureA.type, f.featureA.triangle, f.featureA.index,
									  (int)f.featureB.type, f.featureB.triangle, f.featureB.index ) );
	}
	EXPECT_EQ( (int)keys.size(), r.featureCount ) << what << ": repeated features";
}

} // namespace

TEST( PdCcd, BoxDropMatchesAnalyticTime )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeBox( 0.5, 0.5, 0.5, 2 );
	pdMesh* b = MakeBox( 1.0, 1.0, 1.0, 2 );
	ASSERT_TRUE( a && b );
	double tol = DefaultTolerance( a, b );
	std::mt19937 rng( 4000 );
	for ( int k = 0; k < 8; ++k )
	{
		// A common rotation for both keeps the faces parallel; the drop is along B's z axis.
		pdQuat q = k == 0 ? pdQuat{ 1, 0, 0, 0 } : RandomRotation( rng );
		pdiFrame f;
		pdTransform poseB = Pose( q, RandomVec( rng, 5.0 ) );
		pdiMakeFrame( &poseB, &f );
		double gap = 0.3;
		pdTransform poseA = Pose( q, pdiFrameApply( &f, pdVec3{ 0.2, -0.1, 1.5 + gap } ) );
		pdVec3 end = pdiFrameApply( &f, pdVec3{ 0.2, -0.1, -0.3 } );
		double travel = 1.5 + gap + 0.3;
		for ( bool cull : { true, false } )
		{
			pdCcdDef def = pdDefaultCcdDef();
			def.useOrientationCulling = cull;
			pdCcdResult r;
			ASSERT_EQ( pdComputeTranslationalCcd( a, &poseA, end, b, &poseB, &def, ws, &r ), PD_STATUS_OK );
			std::string what = "seed 4000 pose " + std::to_string( k ) + ( cull ? " cull" : "" );
			EXPECT_TRUE( r.hit ) << what;
			EXPECT_FALSE( r.startColliding ) << what;
			double tContact = gap / travel;
			EXPECT_LE( r.toc, tContact ) << what;
			EXPECT_GE( r.toc, ( gap - tol ) / travel ) << what;
			// The contact configuration stops short of touching, by about half the tolerance.
			pdTransform at = Pose( q, r.contactPosition );
			double d = Distance( a, at, b, poseB, ws );
			EXPECT_GT( d, 0.0 ) << what;
			EXPECT_LE( d, tol ) << what;
			ASSERT_GT( r.featureCount, 3 ) << what;
			CheckFeatures( r, tol, what );
			for ( int j = 0; j < r.featureCount; ++j )
			{
				// B's top face normal, in the world: from B toward A.
				EXPECT_GT( pdiDot( r.features[j].normal, f.r.cz ), 1.0 - 1e-9 ) << what << " feature " << j;
			}
		}
	}
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}

TEST( PdCcd, NeverLaterThanSampledFirstContact )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	const char* names[][2] = {
		{ "knot", "torus" }, { "torus", "torus" }, { "cup", "spoon" }, { "icosphere", "grate" } };
	unsigned seed = 4100;
	int hits = 0, misses = 0;
	for ( auto& pair : names )
	{
		pdMesh* a = MakeShape( pair[0], 300, 2.0 );
		pdMesh* b = MakeShape( pair[1], 300, 2.0 );
		ASSERT_TRUE( a && b );
		double tol = DefaultTolerance( a, b );
		std::mt19937 rng( seed );
		for ( int k = 0; k < 6; ++k )
		{
			std::string what = std::string( pair[0] ) + "/" + pair[1] + " seed " + std::to_string( seed ) + " path " +
							   std::to_string( k );
			Sweep sweep;
			if ( !RandomFreeSweep( rng, a, b, ws, &sweep ) )
			{
				continue;
			}
			const pdTransform &poseA = sweep.poseA, &poseB = sweep.poseB;
			const pdQuat qa = poseA.q;
			const pdVec3 end = sweep.end;
			pdCcdDef def = pdDefaultCcdDef();
			def.useOrientationCulling = false;
			pdCcdResult r;
			ASSERT_EQ( pdComputeTranslationalCcd( a, &poseA, end, b, &poseB, &def, ws, &r ), PD_STATUS_OK ) << what;
			EXPECT_FALSE( r.startColliding ) << what;
			// First colliding sample along the path.
			const int samples = 120;
			int first = -1;
			for ( int s = 1; s <= samples && first < 0; ++s )
			{
				pdTransform p = Pose( qa, pdiLerp( poseA.p, end, (double)s / samples ) );
				if ( Colliding( a, p, b, poseB, ws ) )
				{
					first = s;
				}
			}
			if ( first >= 0 )
			{
				EXPECT_TRUE( r.hit ) << what;
				EXPECT_LE( r.toc, (double)first / samples ) << what;
			}
			if ( r.hit )
			{
				++hits;
				pdTransform at = Pose( qa, r.contactPosition );
				EXPECT_NEAR( pdiLength( pdiSub( r.contactPosition, pdiLerp( poseA.p, end, r.toc ) ) ), 0.0, 1e-12 )
					<< what;
				double d = Distance( a, at, b, poseB, ws );
				EXPECT_GT( d, 0.0 ) << what;
				EXPECT_LE( d, 0.5 * tol * ( 1.0 + 1e-6 ) + 1e-12 ) << what;
				// Samples before the contact keep at least the target distance.
				for ( int s = 0; s < 20; ++s )
				{
					double t = r.toc * s / 20.0;
					double ds = Distance( a, Pose( qa, pdiLerp( poseA.p, end, t ) ), b, poseB, ws );
					EXPECT_GE( ds, 0.5 * tol * ( 1.0 - 1e-6 ) - 1e-12 ) << what << " t " << t;
				}
				CheckFeatures( r, tol, what );
				EXPECT_GT( r.featureCount, 0 ) << what;
			}
			else
			{
				++misses;
				EXPECT_EQ( r.toc, 1.0 ) << what;
				EXPECT_EQ( r.featureCount, 0 ) << what;
				EXPECT_EQ( r.contactPosition.x, end.x ) << what;
			}

			// Orientation culling (closed outward meshes) finds the same first contact.
			if ( a->closed && a->outwardWinding && b->closed && b->outwardWinding )
			{
				pdCcdResult c;
				pdCcdDef cullDef = pdDefaultCcdDef();
				ASSERT_EQ( pdComputeTranslationalCcd( a, &poseA, end, b, &poseB, &cullDef, ws, &c ), PD_STATUS_OK )
					<< what;
				EXPECT_EQ( c.hit, r.hit ) << what;
				EXPECT_NEAR( c.toc, r.toc, 1e-9 ) << what;
			}
		}
		++seed;
		pdDestroyMesh( a );
		pdDestroyMesh( b );
	}
	EXPECT_GT( hits, 5 );
	EXPECT_GT( misses, 0 );
	pdDestroyWorkspace( ws );
}

TEST( PdCcd, SeparatedPathHasNoHit )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "knot", 400, 2.0 );
	pdMesh* b = MakeShape( "torus", 400, 2.0 );
	ASSERT_TRUE( a && b );
	pdTransform poseB = pdIdentityTransform();
	pdTransform poseA = Pose( pdQuat{ 1, 0, 0, 0 }, pdVec3{ 3.0, 0.0, 0.0 } );
	pdCcdResult r;
	// Moving away, and moving past.
	ASSERT_EQ( pdComputeTranslationalCcd( a, &poseA, pdVec3{ 8.0, 1.0, 0.0 }, b, &poseB, nullptr, ws, &r ),
			   PD_STATUS_OK );
	EXPECT_FALSE( r.hit );
	EXPECT_FALSE( r.startColliding );
	EXPECT_EQ( r.toc, 1.0 );
	EXPECT_EQ( r.featureCount, 0 );
	EXPECT_EQ( r.features, nullptr );
	EXPECT_EQ( r.contactPosition.x, 8.0 );
	ASSERT_EQ( pdComputeTranslationalCcd( a, &poseA, pdVec3{ 3.0, 0.0, 6.0 }, b, &poseB, nullptr, ws, &r ),
			   PD_STATUS_OK );
	EXPECT_FALSE( r.hit );
	// No motion at all.
	ASSERT_EQ( pdComputeTranslationalCcd( a, &poseA, poseA.p, b, &poseB, nullptr, ws, &r ), PD_STATUS_OK );
	EXPECT_FALSE( r.hit );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}

TEST( PdCcd, StartCollidingGivesZeroTime )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "torus", 400, 2.0 );
	pdMesh* small = MakeBox( 0.1, 0.1, 0.1, 1 );
	pdMesh* big = MakeBox( 2.0, 2.0, 2.0, 1 );
	ASSERT_TRUE( a && small && big );
	pdTransform pb = pdIdentityTransform();
	pdTransform pa = pdIdentityTransform();
	pa.p.x = 0.3;
	pdCcdResult r;
	ASSERT_EQ( pdComputeTranslationalCcd( a, &pa, pdVec3{ 5.0, 0.0, 0.0 }, a, &pb, nullptr, ws, &r ), PD_STATUS_OK );
	EXPECT_TRUE( r.hit );
	EXPECT_TRUE( r.startColliding );
	EXPECT_EQ( r.toc, 0.0 );
	EXPECT_EQ( r.contactPosition.x, 0.3 );
	// Contained at the start (no surface contact) also counts.
	pdTransform inside = pdIdentityTransform();
	ASSERT_EQ( pdComputeTranslationalCcd( small, &inside, pdVec3{ 0.5, 0.0, 0.0 }, big, &pb, nullptr, ws, &r ),
			   PD_STATUS_OK );
	EXPECT_TRUE( r.startColliding );
	EXPECT_EQ( r.toc, 0.0 );
	pdDestroyMesh( a );
	pdDestroyMesh( small );
	pdDestroyMesh( big );
	pdDestroyWorkspace( ws );
}

TEST( PdCcd, FeatureNormalsPointFromBTowardA )
{
	// A sphere dropped onto a box from random directions above it: one contact region, so
	// moving A along any reported normal must increase the distance.
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	smpSoup soup = {};
	ASSERT_TRUE( smpMakeIcosphere( 0.5, 2, &soup ) );
	pdMesh* a = MakeMesh( &soup );
	smpFreeSoup( &soup );
	pdMesh* b = MakeShape( "knot", 500, 3.0 );
	ASSERT_TRUE( a && b );
	double tol = DefaultTolerance( a, b );
	std::mt19937 rng( 4200 );
	int checked = 0;
	for ( int k = 0; k < 10; ++k )
	{
		pdTransform pb = Pose( RandomRotation( rng ), pdVec3{ 0, 0, 0 } );
		pdQuat qa = RandomRotation( rng );
		pdVec3 dir = pdiNormalize( RandomVec( rng, 1.0 ) );
		pdTransform pa = Pose( qa, pdiScale( dir, 4.0 ) );
		pdVec3 end = pdiScale( dir, -4.0 );
		pdCcdResult r;
		ASSERT_GE( pdComputeTranslationalCcd( a, &pa, end, b, &pb, nullptr, ws, &r ), 0 );
		if ( !r.hit || r.startColliding )
		{
			continue;
		}
		std::string what = "seed 4200 path " + std::to_string( k );
		CheckFeatures( r, tol, what );
		std::vector<pdVec3> normals;
		for ( int j = 0; j < r.featureCount; ++j )
		{
			normals.push_back( r.features[j].normal );
		}
		pdTransform at = Pose( qa, r.contactPosition );
		double d0 = Distance( a, at, b, pb, ws );
		for ( size_t j = 0; j < normals.size(); ++j )
		{
			pdTransform moved = Pose( qa, pdiMulAdd( r.contactPosition, 10.0 * tol, normals[j] ) );
			EXPECT_GT( Distance( a, moved, b, pb, ws ), d0 ) << what << " feature " << j;
			// And A came from -approach: the normal faces against the motion.
			EXPECT_LT( pdiDot( normals[j], pdiSub( end, pa.p ) ), 0.0 ) << what << " feature " << j;
		}
		++checked;
	}
	EXPECT_GT( checked, 3 );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}

TEST( PdCcd, ContactFeaturesOfStackedBoxes )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeBox( 0.5, 0.5, 0.5, 1 );
	pdMesh* b = MakeBox( 1.0, 1.0, 1.0, 1 );
	ASSERT_TRUE( a && b );
	double tol = 1e-3;
	pdTransform pb = pdIdentityTransform();
	pdTransform pa = Pose( pdQuat{ 1, 0, 0, 0 }, pdVec3{ 0.1, 0.2, 1.5 + 0.4 * tol } );
	int count = -1;
	const pdContactFeature* features = nullptr;
	ASSERT_EQ( testContactFeatures( a, &pa, b, &pb, tol, pdVec3{ 0, 0, -1 }, 256, ws, &count, &features ),
			   PD_STATUS_OK );
	int vf = 0;
	std::set<int> verticesOnB;
	for ( int k = 0; k < count; ++k )
	{
		const pdContactFeature& f = features[k];
		EXPECT_NEAR( f.normal.z, 1.0, 1e-12 ) << k;
		EXPECT_NEAR( f.distance, 0.4 * tol, 1e-12 ) << k;
		if ( f.kind == PD_CONTACT_VF )
		{
			++vf;
			EXPECT_EQ( f.featureA.type, PD_FEATURE_VERTEX );
			EXPECT_EQ( f.featureA.vertex, a->triangles[f.featureA.triangle][f.featureA.index] );
			EXPECT_EQ( f.featureB.type, PD_FEATURE_FACE );
			EXPECT_EQ( f.featureB.vertex, -1 );
			verticesOnB.insert( f.featureA.vertex );
		}
	}
	// The four bottom corners of A rest on B's top face.
	EXPECT_EQ( verticesOnB.size(), 4u );
	EXPECT_GE( vf, 4 );
	// Too far: nothing.
	pa.p.z = 1.5 + 2.0 * tol;
	ASSERT_EQ( testContactFeatures( a, &pa, b, &pb, tol, pdVec3{ 0, 0, -1 }, 256, ws, &count, &features ),
			   PD_STATUS_OK );
	EXPECT_EQ( count, 0 );
	// Cap.
	pa.p.z = 1.5 + 0.4 * tol;
	EXPECT_EQ( testContactFeatures( a, &pa, b, &pb, tol, pdVec3{ 0, 0, -1 }, 2, ws, &count, &features ),
			   PD_STATUS_FEATURE_LIMIT );
	EXPECT_EQ( count, 2 );
	EXPECT_EQ( testContactFeatures( a, &pa, b, &pb, NAN, pdVec3{ 0, 0, -1 }, 2, ws, &count, &features ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( count, 0 );
	EXPECT_EQ( features, nullptr );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}

TEST( PdCcd, NodeVisitCapGivesTraversalLimit )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "knot", 500, 2.0 );
	ASSERT_NE( a, nullptr );
	pdTransform pb = pdIdentityTransform();
	pdTransform pa = Pose( pdQuat{ 1, 0, 0, 0 }, pdVec3{ 0.0, 0.0, 1.2 } );
	pdCcdDef def = pdDefaultCcdDef();
	pdCcdResult full;
	ASSERT_GE( pdComputeTranslationalCcd( a, &pa, pdVec3{ 0, 0, -1.0 }, a, &pb, &def, ws, &full ), 0 );
	def.maxNodeVisits = 5;
	pdCcdResult r;
	EXPECT_EQ( pdComputeTranslationalCcd( a, &pa, pdVec3{ 0, 0, -1.0 }, a, &pb, &def, ws, &r ),
			   PD_STATUS_TRAVERSAL_LIMIT );
	EXPECT_EQ( r.status, PD_STATUS_TRAVERSAL_LIMIT );
	// Conservative: never later than the full answer.
	EXPECT_LE( r.toc, full.toc );
	pdDestroyMesh( a );
	pdDestroyWorkspace( ws );
}

TEST( PdCcd, InvalidInputsGiveStatusAndZeroedResult )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeBox( 1.0, 1.0, 1.0, 1 );
	ASSERT_NE( a, nullptr );
	pdTransform good = pdIdentityTransform();
	pdTransform badQuat = good;
	badQuat.q = pdQuat{ 0.9, 0.0, 0.0, 0.0 };
	pdTransform nanPose = good;
	nanPose.p.x = std::nan( "" );
	pdCcdDef uninit;
	std::memset( &uninit, 0, sizeof( uninit ) );
	pdVec3 end = { 3, 0, 0 };
	pdCcdResult r;
	auto zeroed = [&]( const pdCcdResult& x )
	{
		return !x.hit && !x.startColliding && x.toc == 0.0 && x.featureCount == 0 && x.features == nullptr &&
			   x.nodeVisits == 0 && x.contactPosition.x == 0.0;
	};
	EXPECT_EQ( pdComputeTranslationalCcd( a, &badQuat, end, a, &good, nullptr, ws, &r ), PD_STATUS_INVALID_POSE );
	EXPECT_EQ( r.status, PD_STATUS_INVALID_POSE );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdComputeTranslationalCcd( a, &good, end, a, &nanPose, nullptr, ws, &r ), PD_STATUS_INVALID_POSE );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdComputeTranslationalCcd( a, &good, pdVec3{ 0, std::nan( "" ), 0 }, a, &good, nullptr, ws, &r ),
			   PD_STATUS_INVALID_POSE );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdComputeTranslationalCcd( nullptr, &good, end, a, &good, nullptr, ws, &r ), PD_STATUS_INVALID_MESH );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdComputeTranslationalCcd( a, &good, end, a, &good, nullptr, nullptr, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdComputeTranslationalCcd( a, &good, end, a, &good, &uninit, ws, &r ), PD_STATUS_DEF_NOT_INITIALIZED );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdComputeTranslationalCcd( a, &good, end, a, &good, nullptr, ws, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	pdDestroyMesh( a );
	pdDestroyWorkspace( ws );
}

TEST( PdCcd, WarmWorkspaceDoesNotAllocateForAnyQuery )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "knot", 600, 2.0 );
	pdMesh* b = MakeShape( "torus", 600, 2.0 );
	ASSERT_TRUE( a && b );
	std::mt19937 rng( 4300 );
	struct Query
	{
		pdTransform pa;
		pdVec3 end;
	};
	std::vector<Query> queries;
	for ( int k = 0; k < 16; ++k )
	{
		pdVec3 dir = pdiNormalize( RandomVec( rng, 1.0 ) );
		queries.push_back( { Pose( RandomRotation( rng ), pdiScale( dir, 2.0 + 0.1 * k ) ), RandomVec( rng, 0.6 ) } );
	}
	pdTransform pb = pdIdentityTransform();
	pdCollideDef all = pdDefaultCollideDef();
	all.reportAllPairs = true;
	auto run = [&]()
	{
		for ( const Query& q : queries )
		{
			pdCollideResult c;
			pdDistanceResult d;
			pdCcdResult r;
			pdCollide( a, &q.pa, b, &pb, &all, ws, &c );
			pdComputeDistance( a, &q.pa, b, &pb, nullptr, ws, &d );
			pdComputeTranslationalCcd( a, &q.pa, q.end, b, &pb, nullptr, ws, &r );
			pdTransform mid = Pose( q.pa.q, q.end );
			pdCollide( a, &mid, b, &pb, &all, ws, &c );
			pdComputeDistance( a, &mid, b, &pb, nullptr, ws, &d );
		}
	};
	run();
	uint64_t before = pdGetAllocatorStats().allocations;
	run();
	run();
	EXPECT_EQ( pdGetAllocatorStats().allocations, before );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}

TEST( PdCcd, NodeNormalConesCullWithoutChangingTheContact )
{
	// The same sweeps with the BVH's normal cones and without them (per-triangle culling only):
	// identical first contacts, and fewer node pairs visited with the cones.
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "torus", 2000, 2.0 );
	pdMesh* b = MakeShape( "knot", 3000, 2.0 );
	ASSERT_TRUE( a && b && a->bvh.cones && b->bvh.cones );
	ASSERT_TRUE( a->closed && a->outwardWinding && b->closed && b->outwardWinding );
	std::mt19937 rng( 77 );
	long long visitsWith = 0, visitsWithout = 0;
	int hits = 0;
	for ( int k = 0; k < 40; ++k )
	{
		Sweep sweep;
		if ( !RandomFreeSweep( rng, a, b, ws, &sweep ) )
			continue;
		const pdTransform &poseA = sweep.poseA, &poseB = sweep.poseB;
		const pdVec3 end = sweep.end;
		pdCcdDef def = pdDefaultCcdDef();
		pdCcdResult with, without;
		ASSERT_EQ( pdComputeTranslationalCcd( a, &poseA, end, b, &poseB, &def, ws, &with ), PD_STATUS_OK );
		pdiBvhCone* conesA = a->bvh.cones;
		pdiBvhCone* conesB = b->bvh.cones;
		a->bvh.cones = nullptr;
		b->bvh.cones = nullptr;
		pdStatus s = pdComputeTranslationalCcd( a, &poseA, end, b, &poseB, &def, ws, &without );
		a->bvh.cones = conesA;
		b->bvh.cones = conesB;
		ASSERT_EQ( s, PD_STATUS_OK );
		EXPECT_EQ( with.hit, without.hit ) << k;
		EXPECT_EQ( with.toc, without.toc ) << k;
		hits += with.hit ? 1 : 0;
		visitsWith += with.nodeVisits;
		visitsWithout += without.nodeVisits;
	}
	std::printf( "node visits: %lld with normal cones, %lld without (%d hits)\n", visitsWith, visitsWithout, hits );
	EXPECT_GT( hits, 10 );
	EXPECT_LT( visitsWith, visitsWithout );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}
