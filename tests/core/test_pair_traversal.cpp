// SPDX-License-Identifier: MIT
// The depth-first BVH-pair traversal (core/src/pair_traversal.c) against brute force over all
// triangle pairs: a collector that records every pair it is offered must see every pair whose
// triangles come within the tolerance (static, or at some time of a step's first-order motion),
// each pair once, with A's triangle moved into B's frame. A collector that sets stop ends the
// traversal early, one that shrinks the reach still sees every pair within the shrunk reach,
// a collector's failure status ends the run with it, a degenerate tree that overflows the
// traversal stack gives PD_STATUS_TRAVERSAL_LIMIT, and bad input gives its status.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "query_fixture.h"

extern "C"
{
#include "mesh.h"
#include "pair_traversal.h"
#include "shapes.h"
#include "workspace.h"
}

using namespace polydepth::test;

namespace
{

// --- An independent triangle-triangle distance: vertex-triangle and edge-edge distances, and
// zero when an edge of one crosses the other.

pdVec3 Lerp( pdVec3 a, pdVec3 b, double t )
{
	return pdVec3{ a.x + t * ( b.x - a.x ), a.y + t * ( b.y - a.y ), a.z + t * ( b.z - a.z ) };
}

double PointSegment( pdVec3 p, pdVec3 a, pdVec3 b )
{
	pdVec3 ab = pdiSub( b, a );
	double len2 = pdiDot( ab, ab );
	double t = len2 > 0.0 ? std::clamp( pdiDot( pdiSub( p, a ), ab ) / len2, 0.0, 1.0 ) : 0.0;
	return pdiLength( pdiSub( p, Lerp( a, b, t ) ) );
}

// Barycentric inside test of the projection of p on the triangle's plane.
bool ProjectsInside( pdVec3 p, const pdVec3 t[3], pdVec3 n )
{
	for ( int k = 0; k < 3; ++k )
	{
		pdVec3 e = pdiSub( t[( k + 1 ) % 3], t[k] );
		if ( pdiDot( pdiCross( e, pdiSub( p, t[k] ) ), n ) < 0.0 )
		{
			return false;
		}
	}
	return true;
}

double PointTriangle( pdVec3 p, const pdVec3 t[3] )
{
	pdVec3 n = pdiCross( pdiSub( t[1], t[0] ), pdiSub( t[2], t[0] ) );
	double len = pdiLength( n );
	if ( len > 0.0 && ProjectsInside( p, t, n ) )
	{
		return std::fabs( pdiDot( pdiSub( p, t[0] ), n ) ) / len;
	}
	return std::min( { PointSegment( p, t[0], t[1] ), PointSegment( p, t[1], t[2] ), PointSegment( p, t[2], t[0] ) } );
}

// Segment-segment distance by the clamped closest-point parameters (Ericson, 5.1.9).
double SegmentSegment( pdVec3 p1, pdVec3 q1, pdVec3 p2, pdVec3 q2 )
{
	pdVec3 d1 = pdiSub( q1, p1 ), d2 = pdiSub( q2, p2 ), r = pdiSub( p1, p2 );
	double a = pdiDot( d1, d1 ), e = pdiDot( d2, d2 ), f = pdiDot( d2, r );
	double s = 0.0, t = 0.0;
	if ( a <= 0.0 && e <= 0.0 )
	{
		return pdiLength( r );
	}
	if ( a <= 0.0 )
	{
		t = std::clamp( f / e, 0.0, 1.0 );
	}
	else
	{
		double c = pdiDot( d1, r );
		if ( e <= 0.0 )
		{
			s = std::clamp( -c / a, 0.0, 1.0 );
		}
		else
		{
			double b = pdiDot( d1, d2 ), denom = a * e - b * b;
			s = denom > 0.0 ? std::clamp( ( b * f - c * e ) / denom, 0.0, 1.0 ) : 0.0;
			t = ( b * s + f ) / e;
			if ( t < 0.0 )
			{
				t = 0.0;
				s = std::clamp( -c / a, 0.0, 1.0 );
			}
			else if ( t > 1.0 )
			{
				t = 1.0;
				s = std::clamp( ( b - c ) / a, 0.0, 1.0 );
			}
		}
	}
	return pdiLength( pdiSub( Lerp( p1, q1, s ), Lerp( p2, q2, t ) ) );
}

bool SegmentCrossesTriangle( pdVec3 p, pdVec3 q, const pdVec3 t[3] )
{
	pdVec3 n = pdiCross( pdiSub( t[1], t[0] ), pdiSub( t[2], t[0] ) );
	double dp = pdiDot( pdiSub( p, t[0] ), n ), dq = pdiDot( pdiSub( q, t[0] ), n );
	if ( ( dp > 0.0 && dq > 0.0 ) || ( dp < 0.0 && dq < 0.0 ) || dp == dq )
	{
		return false;
	}
	return ProjectsInside( Lerp( p, q, dp / ( dp - dq ) ), t, n );
}

double TriangleDistance( const pdVec3 a[3], const pdVec3 b[3] )
{
	double d = INFINITY;
	for ( int i = 0; i < 3; ++i )
	{
		if ( SegmentCrossesTriangle( a[i], a[( i + 1 ) % 3], b ) ||
			 SegmentCrossesTriangle( b[i], b[( i + 1 ) % 3], a ) )
		{
			return 0.0;
		}
		d = std::min( { d, PointTriangle( a[i], b ), PointTriangle( b[i], a ) } );
		for ( int j = 0; j < 3; ++j )
		{
			d = std::min( d, SegmentSegment( a[i], a[( i + 1 ) % 3], b[j], b[( j + 1 ) % 3] ) );
		}
	}
	return d;
}

// --- Collectors

using PairSet = std::set<std::pair<int, int>>;

// Records every pair offered, in order; optionally stops after stopAfter pairs or sets the
// reach to shrinkTo at the first pair.
struct Recorder
{
	pdiPairCollector base;
	std::vector<std::pair<int, int>> order;
	std::vector<std::vector<pdVec3>> va, vb; // the offered corners (B's frame)
	std::vector<double> featureReach;
	int stopAfter = -1;
	double shrinkTo = -1.0;
	bool failAtFirst = false;
	int callsAfterStop = 0;

	explicit Recorder( double reach )
	{
		std::memset( &base, 0, sizeof( base ) );
		base.addPair = Add;
		base.reach = reach;
	}
	static void Add( pdiPairCollector* self, const pdiTrianglePairHit* hit )
	{
		Recorder* r = reinterpret_cast<Recorder*>( self );
		if ( self->stop )
		{
			++r->callsAfterStop;
		}
		r->order.emplace_back( hit->triangleA, hit->triangleB );
		r->va.push_back( { hit->va[0], hit->va[1], hit->va[2] } );
		r->vb.push_back( { hit->vb[0], hit->vb[1], hit->vb[2] } );
		r->featureReach.push_back( hit->featureReach );
		if ( r->shrinkTo >= 0.0 )
		{
			self->reach = r->shrinkTo;
		}
		if ( r->failAtFirst )
		{
			self->status = PD_STATUS_OUT_OF_MEMORY;
			self->stop = true;
		}
		if ( r->stopAfter >= 0 && (int)r->order.size() >= r->stopAfter )
		{
			self->stop = true;
		}
	}
	PairSet Set() const { return PairSet( order.begin(), order.end() ); }
};

// A mesh's triangle t moved by pose and then by the first-order step motion for time s.
void MovedTriangle( const pdMesh* mesh, const pdTransform& pose, int t, const pdRigidMotion* motion, double s,
					pdVec3 out[3] )
{
	WorldTriangle( mesh, pose, t, out );
	if ( motion != nullptr )
	{
		for ( int k = 0; k < 3; ++k )
		{
			pdVec3 move = pdiAdd( motion->linear, pdiCross( motion->angular, pdiSub( out[k], motion->pivot ) ) );
			out[k] = pdiAdd( out[k], pdiScale( move, s ) );
		}
	}
}

// Every triangle pair within reach (at some of `times` sampled times of the step when moving),
// with a margin of a few ulps below reach.
PairSet BruteForcePairs( const pdMesh* a, const pdTransform& pa, const pdMesh* b, const pdTransform& pb,
						 const pdRigidMotion* motion, double reach )
{
	const int times = motion != nullptr ? 8 : 0;
	PairSet out;
	for ( int ta = 0; ta < a->triangleCount; ++ta )
	{
		std::vector<std::array<pdVec3, 3>> moved( times + 1 );
		for ( int s = 0; s <= times; ++s )
		{
			MovedTriangle( a, pa, ta, motion, times > 0 ? (double)s / times : 0.0, moved[s].data() );
		}
		for ( int tb = 0; tb < b->triangleCount; ++tb )
		{
			pdVec3 vb[3];
			WorldTriangle( b, pb, tb, vb );
			for ( int s = 0; s <= times; ++s )
			{
				if ( TriangleDistance( moved[s].data(), vb ) <= reach * ( 1.0 - 1e-9 ) )
				{
					out.emplace( ta, tb );
					break;
				}
			}
		}
	}
	return out;
}

struct Posed
{
	pdMesh* a = nullptr;
	pdMesh* b = nullptr;
	pdTransform pa, pb;
	std::string what;
	~Posed()
	{
		pdDestroyMesh( a );
		pdDestroyMesh( b );
	}
};

// Pair k of the random cases drawn from seed: shapes or soups, B near the origin and A placed
// within spread of B (per coordinate), so that the two overlap or nearly touch.
void MakeCase( unsigned seed, Posed* out, double spread = 1.2 )
{
	static const char* names[][2] = {
		{ "torus", "torus" }, { "knot", "icosphere" }, { "cup", "spoon" }, { "grate", "torus" } };
	std::mt19937 rng( seed );
	int kind = (int)( seed % 5 );
	if ( kind < 4 )
	{
		out->a = MakeShape( names[kind][0], 240, 2.0 );
		out->b = MakeShape( names[kind][1], 240, 2.0 );
		out->what = std::string( names[kind][0] ) + "/" + names[kind][1];
	}
	else
	{
		out->a = MakeRandomSoup( rng, 150, 1.0, 0.3 );
		out->b = MakeRandomSoup( rng, 150, 1.0, 0.3 );
		out->what = "soup/soup";
	}
	out->pb = RandomPose( rng, 0.3 );
	out->pa = Pose( RandomRotation( rng ), pdiAdd( out->pb.p, RandomVec( rng, spread ) ) );
	out->what += " seed " + std::to_string( seed );
}

struct Traversal
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	~Traversal() { pdDestroyWorkspace( ws ); }
	pdStatus Run( const Posed& c, double tolerance, const pdRigidMotion* motion, Recorder* r, int* visits )
	{
		pdiPairTraversal t;
		pdStatus s = pdiPairTraversal_Make( c.a, &c.pa, c.b, &c.pb, tolerance, motion, ws, &t );
		EXPECT_EQ( s, PD_STATUS_OK ) << c.what;
		if ( s != PD_STATUS_OK )
		{
			return s;
		}
		return pdiPairTraversal_Run( &t, ws, &r->base, visits );
	}
};

double Scale( const pdMesh* a, const pdMesh* b )
{
	return std::min( a->diagonal, b->diagonal );
}

// A's corners of an offered pair are the mesh triangle moved into B's frame; B's are B's mesh
// triangle.
void CheckCorners( const Posed& c, const Recorder& r, const std::string& what )
{
	pdiFrame fb;
	pdiMakeFrame( &c.pb, &fb );
	double tol = 1e-12 * ( 1.0 + Scale( c.a, c.b ) + pdiLength( c.pa.p ) + pdiLength( c.pb.p ) );
	for ( size_t i = 0; i < r.order.size(); ++i )
	{
		pdVec3 wa[3], mb[3];
		WorldTriangle( c.a, c.pa, r.order[i].first, wa );
		pdiMesh_TriangleVertices( c.b, r.order[i].second, mb );
		for ( int k = 0; k < 3; ++k )
		{
			ASSERT_LE( pdiLength( pdiSub( r.va[i][k], pdiFrameApplyInverse( &fb, wa[k] ) ) ), 100.0 * tol ) << what;
			ASSERT_EQ( r.vb[i][k].x, mb[k].x ) << what;
			ASSERT_EQ( r.vb[i][k].y, mb[k].y ) << what;
			ASSERT_EQ( r.vb[i][k].z, mb[k].z ) << what;
		}
	}
}

// Every expected pair is among the offered ones.
void ExpectAllOffered( const PairSet& offered, const PairSet& expected, const std::string& what )
{
	for ( const auto& p : expected )
	{
		EXPECT_TRUE( offered.count( p ) ) << what << ": missed triangles " << p.first << ", " << p.second;
	}
}

} // namespace

// Static: every triangle pair within the tolerance is offered, each once, with the corners in
// B's frame and the tolerance as the feature reach.
TEST( PdPairTraversal, OffersEveryPairWithinTheToleranceOnce )
{
	Traversal tr;
	int offeredWithin = 0;
	for ( unsigned seed = 7100; seed < 7110; ++seed )
	{
		Posed c;
		MakeCase( seed, &c );
		ASSERT_TRUE( c.a && c.b ) << c.what;
		for ( double rel : { 0.002, 0.03 } )
		{
			double tolerance = rel * Scale( c.a, c.b );
			std::string what = c.what + " tolerance " + std::to_string( tolerance );
			Recorder r( tolerance );
			int visits = -1;
			ASSERT_EQ( tr.Run( c, tolerance, nullptr, &r, &visits ), PD_STATUS_OK ) << what;
			EXPECT_GT( visits, 0 ) << what;
			PairSet offered = r.Set();
			EXPECT_EQ( offered.size(), r.order.size() ) << what << ": a pair offered twice";
			PairSet expected = BruteForcePairs( c.a, c.pa, c.b, c.pb, nullptr, tolerance );
			ExpectAllOffered( offered, expected, what );
			offeredWithin += (int)expected.size();
			for ( double f : r.featureReach )
			{
				ASSERT_EQ( f, tolerance ) << what;
			}
			CheckCorners( c, r, what );
		}
	}
	EXPECT_GT( offeredWithin, 200 ); // the cases do touch
}

// Moving: every pair that comes within the tolerance at some time of the step, each point of A
// moving to its first-order end position (linear + angular x (p - pivot)), is offered. The
// feature reach is the tolerance plus how far the step moves the triangle.
TEST( PdPairTraversal, OffersEveryPairTheStepBringsWithinTheTolerance )
{
	Traversal tr;
	int within = 0;
	for ( unsigned seed = 7200; seed < 7208; ++seed )
	{
		Posed c;
		MakeCase( seed, &c );
		ASSERT_TRUE( c.a && c.b ) << c.what;
		std::mt19937 rng( seed + 1000 );
		double scale = Scale( c.a, c.b );
		double tolerance = 0.002 * scale;
		pdRigidMotion motion;
		motion.linear = RandomVec( rng, 0.15 * scale );
		// Half the cases translate only; the others also turn by up to 0.1 rad.
		motion.angular = seed % 2 ? RandomVec( rng, 0.1 ) : pdVec3{ 0.0, 0.0, 0.0 };
		motion.pivot = pdiAdd( c.pa.p, RandomVec( rng, 0.2 * scale ) );
		std::string what = c.what + " (motion)";
		Recorder r( tolerance );
		int visits = -1;
		ASSERT_EQ( tr.Run( c, tolerance, &motion, &r, &visits ), PD_STATUS_OK ) << what;
		PairSet offered = r.Set();
		EXPECT_EQ( offered.size(), r.order.size() ) << what << ": a pair offered twice";
		PairSet expected = BruteForcePairs( c.a, c.pa, c.b, c.pb, &motion, tolerance );
		ExpectAllOffered( offered, expected, what );
		within += (int)expected.size();
		// Translation only: the feature reach is exactly the tolerance plus the travel.
		if ( seed % 2 == 0 )
		{
			for ( double f : r.featureReach )
			{
				ASSERT_EQ( f, tolerance + pdiLength( motion.linear ) ) << what;
			}
		}
		// The static pairs within the tolerance are among the moving traversal's.
		PairSet still = BruteForcePairs( c.a, c.pa, c.b, c.pb, nullptr, tolerance );
		ExpectAllOffered( offered, still, what );
		CheckCorners( c, r, what );
	}
	EXPECT_GT( within, 50 );
}

// A collector that sets stop ends the traversal: no pair after it, fewer node pairs visited,
// and the pairs before it are the first ones of the full traversal, in the same order.
TEST( PdPairTraversal, StopEndsTheTraversalEarly )
{
	Traversal tr;
	for ( unsigned seed = 7300; seed < 7305; ++seed )
	{
		Posed c;
		MakeCase( seed, &c, 0.3 );
		ASSERT_TRUE( c.a && c.b ) << c.what;
		double tolerance = 0.03 * Scale( c.a, c.b );
		Recorder full( tolerance );
		int fullVisits = 0;
		ASSERT_EQ( tr.Run( c, tolerance, nullptr, &full, &fullVisits ), PD_STATUS_OK ) << c.what;
		ASSERT_GT( full.order.size(), 10u ) << c.what;
		for ( int stopAfter : { 1, 5 } )
		{
			Recorder r( tolerance );
			r.stopAfter = stopAfter;
			int visits = 0;
			ASSERT_EQ( tr.Run( c, tolerance, nullptr, &r, &visits ), PD_STATUS_OK ) << c.what;
			EXPECT_EQ( (int)r.order.size(), stopAfter ) << c.what;
			EXPECT_EQ( r.callsAfterStop, 0 ) << c.what;
			EXPECT_LT( visits, fullVisits ) << c.what;
			EXPECT_GT( visits, 0 ) << c.what;
			for ( int i = 0; i < stopAfter; ++i )
			{
				EXPECT_EQ( r.order[i], full.order[i] ) << c.what << " pair " << i;
			}
		}
	}
}

// A collector that shrinks its reach at the first pair still gets every pair within the shrunk
// reach, and the traversal visits no more node pairs (and offers fewer pairs) than at the full
// reach.
TEST( PdPairTraversal, ShrunkReachStillOffersEveryPairWithinIt )
{
	Traversal tr;
	int within = 0;
	for ( unsigned seed = 7400; seed < 7408; ++seed )
	{
		Posed c;
		MakeCase( seed, &c );
		ASSERT_TRUE( c.a && c.b ) << c.what;
		double tolerance = 0.03 * Scale( c.a, c.b );
		double shrunk = 0.1 * tolerance;
		Recorder full( tolerance );
		int fullVisits = 0;
		ASSERT_EQ( tr.Run( c, tolerance, nullptr, &full, &fullVisits ), PD_STATUS_OK ) << c.what;
		Recorder r( tolerance );
		r.shrinkTo = shrunk;
		int visits = 0;
		ASSERT_EQ( tr.Run( c, tolerance, nullptr, &r, &visits ), PD_STATUS_OK ) << c.what;
		PairSet offered = r.Set();
		PairSet expected = BruteForcePairs( c.a, c.pa, c.b, c.pb, nullptr, shrunk );
		ExpectAllOffered( offered, expected, c.what );
		within += (int)expected.size();
		EXPECT_LE( visits, fullVisits ) << c.what;
		if ( full.order.size() > 20 )
		{
			EXPECT_LT( r.order.size(), full.order.size() ) << c.what;
		}
	}
	EXPECT_GT( within, 20 );
}

// A collector's failure (a status below zero) ends the traversal with that status.
TEST( PdPairTraversal, CollectorFailureEndsTheRunWithItsStatus )
{
	Traversal tr;
	Posed c;
	MakeCase( 7500, &c, 0.3 );
	ASSERT_TRUE( c.a && c.b );
	double tolerance = 0.03 * Scale( c.a, c.b );
	Recorder r( tolerance );
	r.failAtFirst = true;
	int visits = -1;
	EXPECT_EQ( tr.Run( c, tolerance, nullptr, &r, &visits ), PD_STATUS_OUT_OF_MEMORY ) << c.what;
	EXPECT_EQ( r.order.size(), 1u ) << c.what;
}

// A tree deeper than the traversal stack allows (a chain: every internal node's first child
// internal, its second a leaf) ends with PD_STATUS_TRAVERSAL_LIMIT instead of overflowing, after
// the node pairs the stack could hold.
TEST( PdPairTraversal, StackOverflowGivesTraversalLimit )
{
	pdMesh* b = MakeBox( 0.5, 0.5, 0.5, 1 ); // 12 triangles
	pdMesh* real = MakeBox( 0.5, 0.5, 0.5, 1 );
	ASSERT_TRUE( b && real );
	ASSERT_GT( real->bvh.nodeCount, 0 );
	const int depth = 3 * PDI_BVH_PAIR_STACK;
	std::vector<pdiBvhNode> nodes( 2 * depth + 1 );
	for ( size_t i = 0; i < nodes.size(); ++i )
	{
		pdiBvhNode& n = nodes[i];
		n = real->bvh.nodes[0];
		n.halfExtent = pdVec3{ 10.0, 10.0, 10.0 };
		bool internal = (int)i < depth;
		n.count = internal ? 0 : 1;
		// Internal node i: first child i + 1 (the next in the chain; node depth is a leaf),
		// second child the leaf depth + 1 + i. Every leaf holds the first triangle.
		n.start = internal ? depth + 1 + (int)i : 0;
	}
	pdMesh chain;
	std::memcpy( &chain, real, sizeof( chain ) );
	chain.bvh.nodes = nodes.data();
	chain.bvh.nodeCount = (int)nodes.size();

	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdTransform pose = Pose( pdQuat{ 1, 0, 0, 0 }, pdVec3{ 0, 0, 0 } );
	pdiPairTraversal t;
	ASSERT_EQ( pdiPairTraversal_Make( &chain, &pose, b, &pose, 0.01, nullptr, ws, &t ), PD_STATUS_OK );
	Recorder r( 0.01 );
	int visits = -1;
	EXPECT_EQ( pdiPairTraversal_Run( &t, ws, &r.base, &visits ), PD_STATUS_TRAVERSAL_LIMIT );
	EXPECT_GT( visits, PDI_BVH_PAIR_STACK / 2 );
	EXPECT_LT( visits, 2 * depth );

	// A tree of no node cannot be traversed: PD_STATUS_OUT_OF_MEMORY (its allocation failed).
	chain.bvh.nodeCount = 0;
	ASSERT_EQ( pdiPairTraversal_Make( &chain, &pose, b, &pose, 0.01, nullptr, ws, &t ), PD_STATUS_OK );
	EXPECT_EQ( pdiPairTraversal_Run( &t, ws, &r.base, &visits ), PD_STATUS_OUT_OF_MEMORY );
	EXPECT_EQ( visits, 0 );
	pdDestroyWorkspace( ws );
	pdDestroyMesh( b );
	pdDestroyMesh( real );
}

// Make validates meshes, workspace and poses.
TEST( PdPairTraversal, BadInputGivesItsStatus )
{
	pdMesh* a = MakeBox( 0.5, 0.5, 0.5, 1 );
	ASSERT_NE( a, nullptr );
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdTransform pose = Pose( pdQuat{ 1, 0, 0, 0 }, pdVec3{ 0, 0, 0 } );
	pdiPairTraversal t;
	EXPECT_EQ( pdiPairTraversal_Make( nullptr, &pose, a, &pose, 0.01, nullptr, ws, &t ), PD_STATUS_INVALID_MESH );
	EXPECT_EQ( pdiPairTraversal_Make( a, &pose, nullptr, &pose, 0.01, nullptr, ws, &t ), PD_STATUS_INVALID_MESH );
	pdMesh forged;
	std::memcpy( &forged, a, sizeof( forged ) );
	forged.magic = 0;
	EXPECT_EQ( pdiPairTraversal_Make( &forged, &pose, a, &pose, 0.01, nullptr, ws, &t ), PD_STATUS_INVALID_MESH );
	EXPECT_EQ( pdiPairTraversal_Make( a, &pose, a, &pose, 0.01, nullptr, nullptr, &t ), PD_STATUS_INVALID_ARGUMENT );
	pdTransform nan = pose;
	nan.p.y = NAN;
	EXPECT_EQ( pdiPairTraversal_Make( a, &nan, a, &pose, 0.01, nullptr, ws, &t ), PD_STATUS_INVALID_POSE );
	EXPECT_EQ( pdiPairTraversal_Make( a, &pose, a, &nan, 0.01, nullptr, ws, &t ), PD_STATUS_INVALID_POSE );
	pdTransform notUnit = pose;
	notUnit.q = pdQuat{ 2, 0, 0, 0 };
	EXPECT_EQ( pdiPairTraversal_Make( a, &notUnit, a, &pose, 0.01, nullptr, ws, &t ), PD_STATUS_INVALID_POSE );
	pdTransform far = pose;
	far.p.x = 1e101;
	EXPECT_EQ( pdiPairTraversal_Make( a, &far, a, &pose, 0.01, nullptr, ws, &t ), PD_STATUS_INVALID_POSE );
	EXPECT_EQ( pdiPairTraversal_Make( a, &pose, a, &far, 0.01, nullptr, ws, &t ), PD_STATUS_INVALID_POSE );
	EXPECT_EQ( pdiPairTraversal_Make( a, nullptr, a, &pose, 0.01, nullptr, ws, &t ), PD_STATUS_INVALID_ARGUMENT );
	// Valid input: the relative frame and the motion in B's frame.
	pdRigidMotion motion = { { 0.1, 0.0, 0.0 }, { 0.0, 0.0, 0.2 }, { 1.0, 0.0, 0.0 } };
	pdTransform turned = Pose( pdQuat{ std::sqrt( 0.5 ), 0, 0, std::sqrt( 0.5 ) }, pdVec3{ 2, 0, 0 } );
	ASSERT_EQ( pdiPairTraversal_Make( a, &pose, a, &turned, 0.01, &motion, ws, &t ), PD_STATUS_OK );
	EXPECT_TRUE( t.moving );
	EXPECT_NEAR( t.linearB.y, -0.1, 1e-15 ); // B turned by +90 degrees about z: world x is B's -y
	EXPECT_NEAR( t.linearB.x, 0.0, 1e-15 );
	EXPECT_NEAR( t.pivotB.y, 1.0, 1e-15 );
	EXPECT_NEAR( t.angularB.z, 0.2, 1e-15 );
	EXPECT_EQ( t.travel, 0.1 );
	EXPECT_EQ( t.spin, 0.2 );
	EXPECT_NEAR( t.rel.p.y, 2.0, 1e-15 );
	EXPECT_EQ( t.tolerance, 0.01 );
	pdDestroyWorkspace( ws );
	pdDestroyMesh( a );
}
