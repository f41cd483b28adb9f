// SPDX-License-Identifier: MIT
// pdComputeDistance (distance.c) against brute force (minimum of pdiTriangleDistance over all
// triangle pairs): the value to 1e-12 relative, closest points that realise it and lie on the
// reported features, the bounded variant, intersecting meshes, caps and invalid input.
#include "feature_calls.h"
#include "plugin_interface.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
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

double BruteDistance( const pdMesh* a, const pdTransform& pa, const pdMesh* b, const pdTransform& pb )
{
	std::vector<pdVec3> tb( 3 * b->triangleCount );
	for ( int j = 0; j < b->triangleCount; ++j )
	{
		WorldTriangle( b, pb, j, &tb[3 * j] );
	}
	double best = INFINITY;
	for ( int i = 0; i < a->triangleCount; ++i )
	{
		pdVec3 ta[3];
		WorldTriangle( a, pa, i, ta );
		for ( int j = 0; j < b->triangleCount; ++j )
		{
			best = std::min( best, pdiTriangleDistance( ta, &tb[3 * j], nullptr, nullptr, nullptr, nullptr ) );
		}
	}
	return best;
}

// Distance from a point to the feature (vertex, edge or face) of a world triangle.
double PointFeatureDistance( pdVec3 p, const pdVec3 tri[3], const pdFeature& f )
{
	pdVec3 point[3] = { p, p, p };
	if ( f.type == PD_FEATURE_VERTEX )
	{
		return pdiLength( pdiSub( p, tri[f.index] ) );
	}
	if ( f.type == PD_FEATURE_EDGE )
	{
		pdVec3 seg[3] = { tri[f.index], tri[( f.index + 1 ) % 3], tri[( f.index + 1 ) % 3] };
		return pdiTriangleDistance( point, seg, nullptr, nullptr, nullptr, nullptr );
	}
	return pdiTriangleDistance( point, tri, nullptr, nullptr, nullptr, nullptr );
}

void CheckDistance( const pdMesh* a, const pdTransform& pa, const pdMesh* b, const pdTransform& pb, pdWorkspace* ws,
					const std::string& what )
{
	double expected = BruteDistance( a, pa, b, pb );
	pdDistanceResult r;
	ASSERT_EQ( pdComputeDistance( a, &pa, b, &pb, nullptr, ws, &r ), PD_STATUS_OK ) << what;
	double scale = std::max( 1.0, expected );
	ASSERT_NEAR( r.distance, expected, 1e-12 * scale ) << what;
	EXPECT_FALSE( r.stoppedAbove );
	EXPECT_FALSE( r.stoppedBelow );
	// The closest points realise the distance and lie on the reported features.
	EXPECT_NEAR( pdiLength( pdiSub( r.pointA, r.pointB ) ), r.distance, 1e-10 * scale ) << what;
	ASSERT_GE( r.featureA.triangle, 0 );
	ASSERT_LT( r.featureA.triangle, a->triangleCount );
	ASSERT_GE( r.featureB.triangle, 0 );
	ASSERT_LT( r.featureB.triangle, b->triangleCount );
	pdVec3 ta[3], tb[3];
	WorldTriangle( a, pa, r.featureA.triangle, ta );
	WorldTriangle( b, pb, r.featureB.triangle, tb );
	EXPECT_LT( PointFeatureDistance( r.pointA, ta, r.featureA ), 1e-9 * scale ) << what;
	EXPECT_LT( PointFeatureDistance( r.pointB, tb, r.featureB ), 1e-9 * scale ) << what;
	EXPECT_NEAR( pdiTriangleDistance( ta, tb, nullptr, nullptr, nullptr, nullptr ), r.distance, 1e-12 * scale ) << what;
	// Vertex ids follow query.h.
	if ( r.featureA.type == PD_FEATURE_FACE )
	{
		EXPECT_EQ( r.featureA.vertex, -1 );
	}
	else
	{
		EXPECT_EQ( r.featureA.vertex, a->triangles[r.featureA.triangle][r.featureA.index] );
	}
}

} // namespace

TEST( PdDistance, EqualsBruteForceOnRandomSoups )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	for ( unsigned seed = 1000; seed < 1006; ++seed )
	{
		std::mt19937 rng( seed );
		pdMesh* a = MakeRandomSoup( rng, 80, 1.0, 0.3 );
		pdMesh* b = MakeRandomSoup( rng, 100, 1.0, 0.3 );
		ASSERT_TRUE( a && b );
		for ( int k = 0; k < 3; ++k )
		{
			pdTransform pa = RandomPose( rng, 3.0 );
			pdTransform pb = RandomPose( rng, 1.0 );
			CheckDistance( a, pa, b, pb, ws, "seed " + std::to_string( seed ) + " pose " + std::to_string( k ) );
		}
		pdDestroyMesh( a );
		pdDestroyMesh( b );
	}
	pdDestroyWorkspace( ws );
}

// A flat n x n grid of unit-square cells (two triangles each) in the plane z = 0.
pdMesh* MakeGrid( int n )
{
	std::vector<double> v;
	std::vector<uint32_t> idx;
	for ( int i = 0; i <= n; ++i )
	{
		for ( int j = 0; j <= n; ++j )
		{
			v.push_back( (double)i / n );
			v.push_back( (double)j / n );
			v.push_back( 0.0 );
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		for ( int j = 0; j < n; ++j )
		{
			uint32_t c = (uint32_t)( i * ( n + 1 ) + j );
			uint32_t quad[6] = { c,     c + (uint32_t)( n + 1 ), c + 1,
								 c + 1, c + (uint32_t)( n + 1 ), c + (uint32_t)( n + 2 ) };
			idx.insert( idx.end(), quad, quad + 6 );
		}
	}
	smpSoup soup = { v.data(), (int)v.size() / 3, idx.data(), (int)idx.size() / 3 };
	return MakeMesh( &soup );
}

// Two nearly parallel grids facing each other: many node pairs have bounds just below the
// answer and many triangle pairs nearly tie, the hardest case for the best-first pruning.
TEST( PdDistance, EqualsBruteForceOnParallelGrids )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeGrid( 14 );
	ASSERT_TRUE( a );
	std::mt19937 rng( 1100 );
	std::uniform_real_distribution<double> u( -0.02, 0.02 );
	for ( int k = 0; k < 3; ++k )
	{
		// A tiny tilt and shift: the gap varies by a few percent across the grids.
		double qx = u( rng ), qy = u( rng ), n = std::sqrt( 1.0 + qx * qx + qy * qy );
		pdTransform pa;
		pa.q = pdQuat{ 1.0 / n, qx / n, qy / n, 0.0 };
		pa.p = pdVec3{ u( rng ), u( rng ), 0.1 };
		pdTransform pb = pdIdentityTransform();
		CheckDistance( a, pa, a, pb, ws, "grid pose " + std::to_string( k ) );
	}
	pdDestroyMesh( a );
	pdDestroyWorkspace( ws );
}

TEST( PdDistance, EqualsBruteForceOnShapes )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	const char* names[][2] = { { "torus", "knot" }, { "knot", "knot" }, { "cup", "spoon" }, { "grate", "box" } };
	unsigned seed = 2000;
	for ( auto& pair : names )
	{
		pdMesh* a = MakeShape( pair[0], 200, 2.0 );
		pdMesh* b = MakeShape( pair[1], 200, 2.0 );
		ASSERT_TRUE( a && b );
		std::mt19937 rng( seed );
		for ( int k = 0; k < 4; ++k )
		{
			// From overlapping to clearly separated.
			pdTransform pa = RandomPose( rng, 0.5 + 1.0 * k );
			pdTransform pb = RandomPose( rng, 0.5 );
			CheckDistance( a, pa, b, pb, ws,
						   std::string( pair[0] ) + "/" + pair[1] + " seed " + std::to_string( seed ) + " pose " +
							   std::to_string( k ) );
		}
		++seed;
		pdDestroyMesh( a );
		pdDestroyMesh( b );
	}
	pdDestroyWorkspace( ws );
}

// pdiComputeGapProof: apart exactly when the brute-force distance exceeds the gap, over shapes
// from overlapping to clearly separated and gaps around each pose's distance; a pair inside a
// closed solid without touching it counts as apart (surfaces only); bad input is refused.
TEST( PdDistance, GapProofAgreesWithBruteForce )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	const char* names[][2] = { { "torus", "knot" }, { "knot", "knot" }, { "cup", "spoon" }, { "grate", "box" } };
	unsigned seed = 2100;
	int apartCount = 0, withinCount = 0;
	for ( auto& pair : names )
	{
		pdMesh* a = MakeShape( pair[0], 200, 2.0 );
		pdMesh* b = MakeShape( pair[1], 200, 2.0 );
		ASSERT_TRUE( a && b );
		std::mt19937 rng( seed );
		for ( int k = 0; k < 6; ++k )
		{
			pdTransform pa = RandomPose( rng, 0.5 + 0.6 * k );
			pdTransform pb = RandomPose( rng, 0.5 );
			double d = BruteDistance( a, pa, b, pb );
			std::string what = std::string( pair[0] ) + "/" + pair[1] + " seed " + std::to_string( seed ) + " pose " +
							   std::to_string( k ) + " distance " + std::to_string( d );
			const double gaps[] = { 0.0, 0.5 * d, 0.999 * d, 1.001 * d, 2.0 * d + 0.01, 0.05 };
			for ( double gap : gaps )
			{
				bool apart = !( d > gap );
				ASSERT_EQ( testGapProof( a, &pa, b, &pb, gap, ws, &apart ), PD_STATUS_OK ) << what;
				EXPECT_EQ( apart, d > gap ) << what << " gap " << gap;
				apartCount += apart;
				withinCount += !apart;
			}
		}
		++seed;
		pdDestroyMesh( a );
		pdDestroyMesh( b );
	}
	EXPECT_GT( apartCount, 30 );
	EXPECT_GT( withinCount, 30 );

	// A small closed box inside a big one, about 0.46 from its walls.
	pdMesh* small = MakeShape( "box", 12, 0.4 );
	pdMesh* big = MakeShape( "box", 12, 2.0 );
	ASSERT_TRUE( small && big );
	pdTransform id = pdIdentityTransform();
	bool apart = false;
	ASSERT_EQ( testGapProof( small, &id, big, &id, 0.2, ws, &apart ), PD_STATUS_OK );
	EXPECT_TRUE( apart );
	ASSERT_EQ( testGapProof( small, &id, big, &id, 0.9, ws, &apart ), PD_STATUS_OK );
	EXPECT_FALSE( apart );

	// Bad input: a status, and never apart.
	pdContactFeatureDef proof = pdDefaultContactFeatureDef();
	proof.reach = 0.1;
	proof.maxFeatures = 0;
	proof.gap = 0.1;
	pdiGapProof gapProof = { true, false, false };
	pdContactFeatureResult r;
	proof.gap = 0.2; // wider than the reach
	EXPECT_EQ( pdiPlugin_ComputeContactFeatures( small, &id, big, &id, &proof, gapProof, ws, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_FALSE( r.apart );
	proof.gap = NAN;
	EXPECT_EQ( pdiPlugin_ComputeContactFeatures( small, &id, big, &id, &proof, gapProof, ws, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_FALSE( r.apart );
	proof.gap = 0.1;
	EXPECT_EQ( pdiPlugin_ComputeContactFeatures( small, nullptr, big, &id, &proof, gapProof, ws, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_FALSE( r.apart );
	EXPECT_EQ( pdiPlugin_ComputeContactFeatures( nullptr, &id, big, &id, &proof, gapProof, ws, &r ), PD_STATUS_INVALID_MESH );
	EXPECT_FALSE( r.apart );
	EXPECT_EQ( pdiPlugin_ComputeContactFeatures( small, &id, big, &id, &proof, gapProof, nullptr, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_FALSE( r.apart );
	EXPECT_EQ( pdiPlugin_ComputeContactFeatures( small, &id, big, &id, &proof, gapProof, ws, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	pdTransform bad = id;
	bad.q.w = 2.0;
	EXPECT_EQ( pdiPlugin_ComputeContactFeatures( small, &bad, big, &id, &proof, gapProof, ws, &r ), PD_STATUS_INVALID_POSE );
	EXPECT_FALSE( r.apart );
	pdDestroyMesh( small );
	pdDestroyMesh( big );
	pdDestroyWorkspace( ws );
}

TEST( PdDistance, IntersectingIsZero )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "torus", 400, 2.0 );
	ASSERT_NE( a, nullptr );
	pdTransform pa = pdIdentityTransform(), pb = pdIdentityTransform();
	pa.p.x = 0.25;
	pdDistanceResult r;
	ASSERT_EQ( pdComputeDistance( a, &pa, a, &pb, nullptr, ws, &r ), PD_STATUS_OK );
	EXPECT_EQ( r.distance, 0.0 );
	EXPECT_NEAR( pdiLength( pdiSub( r.pointA, r.pointB ) ), 0.0, 1e-12 );
	pdDestroyMesh( a );
	pdDestroyWorkspace( ws );
}

TEST( PdDistance, BoundedVariantIsProven )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "knot", 500, 2.0 );
	pdMesh* b = MakeShape( "torus", 500, 2.0 );
	ASSERT_TRUE( a && b );
	std::mt19937 rng( 3000 );
	int below = 0, above = 0;
	for ( int k = 0; k < 12; ++k )
	{
		pdTransform pa = RandomPose( rng, 3.0 );
		pdTransform pb = RandomPose( rng, 0.5 );
		pdDistanceResult exact;
		ASSERT_EQ( pdComputeDistance( a, &pa, b, &pb, nullptr, ws, &exact ), PD_STATUS_OK );
		double d = exact.distance;
		if ( d <= 0.0 )
		{
			continue;
		}
		std::string what = "seed 3000 pose " + std::to_string( k );
		pdDistanceDef def = pdDefaultDistanceDef();
		pdDistanceResult r;

		// Proven below: the reported value is an upper bound below lowerBound.
		def.lowerBound = 1.5 * d;
		ASSERT_EQ( pdComputeDistance( a, &pa, b, &pb, &def, ws, &r ), PD_STATUS_OK );
		EXPECT_TRUE( r.stoppedBelow ) << what;
		EXPECT_FALSE( r.stoppedAbove ) << what;
		EXPECT_LT( r.distance, def.lowerBound ) << what;
		EXPECT_GE( r.distance, d - 1e-12 ) << what;
		EXPECT_NEAR( pdiLength( pdiSub( r.pointA, r.pointB ) ), r.distance, 1e-10 ) << what;
		EXPECT_LE( r.nodeVisits, exact.nodeVisits ) << what;
		below += r.stoppedBelow;

		// Proven above: the reported value is a lower bound above upperBound.
		def = pdDefaultDistanceDef();
		def.upperBound = 0.6 * d;
		ASSERT_EQ( pdComputeDistance( a, &pa, b, &pb, &def, ws, &r ), PD_STATUS_OK );
		EXPECT_TRUE( r.stoppedAbove ) << what;
		EXPECT_FALSE( r.stoppedBelow ) << what;
		EXPECT_GT( r.distance, def.upperBound ) << what;
		EXPECT_LE( r.distance, d + 1e-12 ) << what;
		EXPECT_LE( r.nodeVisits, exact.nodeVisits ) << what;
		above += r.stoppedAbove;

		// Bounds on both sides of the answer: exact.
		def.lowerBound = 0.5 * d;
		def.upperBound = 2.0 * d;
		ASSERT_EQ( pdComputeDistance( a, &pa, b, &pb, &def, ws, &r ), PD_STATUS_OK );
		EXPECT_FALSE( r.stoppedAbove ) << what;
		EXPECT_FALSE( r.stoppedBelow ) << what;
		EXPECT_NEAR( r.distance, d, 1e-12 * std::max( 1.0, d ) ) << what;
	}
	EXPECT_GT( below, 4 );
	EXPECT_GT( above, 4 );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}

// knownSeparated only skips the first-hit collision check on overlapping roots: the same
// distance and the same proven bounds, intersecting or not (the flag is a hint, not a promise),
// and less work where the roots overlap but the surfaces do not.
TEST( PdDistance, KnownSeparatedGivesTheSameAnswer )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "torus", 600, 2.0 );
	pdMesh* b = MakeShape( "knot", 600, 2.0 );
	ASSERT_TRUE( a && b );
	std::mt19937 rng( 3100 );
	int intersecting = 0, nearlyTouching = 0, fewerVisits = 0;
	for ( int k = 0; k < 24; ++k )
	{
		pdTransform pa = RandomPose( rng, 0.5 + 0.1 * k );
		pdTransform pb = RandomPose( rng, 0.5 );
		std::string what = "seed 3100 pose " + std::to_string( k );
		for ( double upper : { (double)INFINITY, 0.05 } )
		{
			pdDistanceDef def = pdDefaultDistanceDef();
			def.upperBound = upper;
			pdDistanceResult plain, hinted;
			ASSERT_EQ( pdComputeDistance( a, &pa, b, &pb, &def, ws, &plain ), PD_STATUS_OK ) << what;
			ASSERT_EQ( pdiPlugin_ComputeDistance( a, &pa, b, &pb, &def, true, ws, &hinted ), PD_STATUS_OK ) << what;
			EXPECT_EQ( hinted.distance, plain.distance ) << what << " upper " << upper;
			EXPECT_EQ( hinted.stoppedAbove, plain.stoppedAbove ) << what << " upper " << upper;
			EXPECT_EQ( hinted.stoppedBelow, plain.stoppedBelow ) << what << " upper " << upper;
			if ( upper == INFINITY )
			{
				intersecting += plain.distance == 0.0;
				// Apart by less than a quarter of the size: the boxes near the root still overlap.
				bool near = plain.distance > 0.0 && plain.distance < 0.5;
				nearlyTouching += near;
				fewerVisits += near && hinted.nodeVisits < plain.nodeVisits;
			}
		}
	}
	// The poses span both cases, and the hint saves work on the near-free ones.
	EXPECT_GT( intersecting, 2 );
	EXPECT_GT( nearlyTouching, 2 );
	EXPECT_GT( fewerVisits, 0 );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}

TEST( PdDistance, NodeVisitCapGivesTraversalLimit )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "knot", 500, 2.0 );
	ASSERT_NE( a, nullptr );
	pdTransform pa = pdIdentityTransform(), pb = pdIdentityTransform();
	pa.p.z = 0.7;
	pdDistanceDef def = pdDefaultDistanceDef();
	def.maxNodeVisits = 4;
	pdDistanceResult r;
	EXPECT_EQ( pdComputeDistance( a, &pa, a, &pb, &def, ws, &r ), PD_STATUS_TRAVERSAL_LIMIT );
	EXPECT_EQ( r.status, PD_STATUS_TRAVERSAL_LIMIT );
	EXPECT_EQ( r.nodeVisits, 4 );
	EXPECT_TRUE( std::isfinite( r.distance ) );
	pdDestroyMesh( a );
	pdDestroyWorkspace( ws );
}

TEST( PdDistance, InvalidInputsGiveStatusAndZeroedResult )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "box", 12, 1.0 );
	ASSERT_NE( a, nullptr );
	pdTransform good = pdIdentityTransform();
	pdTransform nanPose = good;
	nanPose.q.x = std::nan( "" );
	pdTransform badQuat = good;
	badQuat.q.w = 0.5;
	pdDistanceDef uninit;
	std::memset( &uninit, 0, sizeof( uninit ) );
	pdDistanceResult r;
	auto zeroed = [&]( const pdDistanceResult& x )
	{
		return x.distance == 0.0 && x.pointA.x == 0.0 && x.pointB.z == 0.0 && !x.stoppedAbove && !x.stoppedBelow &&
			   x.nodeVisits == 0;
	};
	EXPECT_EQ( pdComputeDistance( a, &nanPose, a, &good, nullptr, ws, &r ), PD_STATUS_INVALID_POSE );
	EXPECT_EQ( r.status, PD_STATUS_INVALID_POSE );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdComputeDistance( a, &good, a, &badQuat, nullptr, ws, &r ), PD_STATUS_INVALID_POSE );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdComputeDistance( a, &good, nullptr, &good, nullptr, ws, &r ), PD_STATUS_INVALID_MESH );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdComputeDistance( a, &good, a, &good, nullptr, nullptr, &r ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdComputeDistance( a, &good, a, &good, &uninit, ws, &r ), PD_STATUS_DEF_NOT_INITIALIZED );
	EXPECT_TRUE( zeroed( r ) );
	EXPECT_EQ( pdComputeDistance( a, &good, a, &good, nullptr, ws, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	pdDestroyMesh( a );
	pdDestroyWorkspace( ws );
}

TEST( PdDistance, WarmWorkspaceDoesNotAllocate )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdMesh* a = MakeShape( "knot", 600, 2.0 );
	pdMesh* b = MakeShape( "torus", 600, 2.0 );
	ASSERT_TRUE( a && b );
	std::mt19937 rng( 3100 );
	std::vector<pdTransform> poses;
	for ( int k = 0; k < 20; ++k )
	{
		poses.push_back( RandomPose( rng, 2.5 ) );
	}
	pdTransform pb = pdIdentityTransform();
	pdDistanceResult r;
	for ( const pdTransform& p : poses )
	{
		pdComputeDistance( a, &p, b, &pb, nullptr, ws, &r );
	}
	uint64_t before = pdGetAllocatorStats().allocations;
	for ( int rep = 0; rep < 3; ++rep )
	{
		for ( const pdTransform& p : poses )
		{
			ASSERT_EQ( pdComputeDistance( a, &p, b, &pb, nullptr, ws, &r ), PD_STATUS_OK );
		}
	}
	EXPECT_EQ( pdGetAllocatorStats().allocations, before );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	pdDestroyWorkspace( ws );
}
