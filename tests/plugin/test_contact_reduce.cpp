// SPDX-License-Identifier: MIT
// PdContact: manifold reduction (contact_reduce.c). Oracles: brute force over 4-subsets with an
// independent 2-D hull, and analytic positions for rings sunk into a floor or spinning onto it.
#include "contact_test_util.h"
#include "contact_internal.h" // pdiHullArea4 (private)

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

namespace
{

// Independent oracle: area of the 2-D convex hull (monotone chain) of points projected on
// the plane normal to n.
double hullArea( const pdVec3& n, const std::vector<pdVec3>& pts )
{
	pdVec3 a = std::fabs( n.x ) < 0.57 ? pdVec3{ 1, 0, 0 } : pdVec3{ 0, 1, 0 };
	pdVec3 u = { n.y * a.z - n.z * a.y, n.z * a.x - n.x * a.z, n.x * a.y - n.y * a.x };
	double ul = std::sqrt( u.x * u.x + u.y * u.y + u.z * u.z );
	u = { u.x / ul, u.y / ul, u.z / ul };
	pdVec3 v = { n.y * u.z - n.z * u.y, n.z * u.x - n.x * u.z, n.x * u.y - n.y * u.x };
	std::vector<std::pair<double, double>> p;
	for ( const pdVec3& q : pts )
	{
		p.push_back( { q.x * u.x + q.y * u.y + q.z * u.z, q.x * v.x + q.y * v.y + q.z * v.z } );
	}
	std::sort( p.begin(), p.end() );
	if ( p.size() < 3 )
	{
		return 0.0;
	}
	auto cross = []( std::pair<double, double> o, std::pair<double, double> a, std::pair<double, double> b )
	{ return ( a.first - o.first ) * ( b.second - o.second ) - ( a.second - o.second ) * ( b.first - o.first ); };
	std::vector<std::pair<double, double>> h( 2 * p.size() );
	size_t k = 0;
	for ( size_t i = 0; i < p.size(); ++i )
	{
		while ( k >= 2 && cross( h[k - 2], h[k - 1], p[i] ) <= 0 )
			--k;
		h[k++] = p[i];
	}
	for ( size_t i = p.size() - 1, t = k + 1; i > 0; --i )
	{
		while ( k >= t && cross( h[k - 2], h[k - 1], p[i - 1] ) <= 0 )
			--k;
		h[k++] = p[i - 1];
	}
	h.resize( k - 1 );
	double area = 0.0;
	for ( size_t i = 0; i < h.size(); ++i )
	{
		const auto& a0 = h[i];
		const auto& a1 = h[( i + 1 ) % h.size()];
		area += a0.first * a1.second - a1.first * a0.second;
	}
	return 0.5 * std::fabs( area );
}

} // namespace

TEST( PdContact, ReductionKeepsDeepestAndMaximisesArea )
{
	for ( unsigned seed = 1; seed <= 60; ++seed )
	{
		std::mt19937 rng( seed );
		std::uniform_real_distribution<double> uni( -1.0, 1.0 );
		int count = 5 + (int)( seed % 12 ); // 5..16: the exact range
		if ( seed > 50 )
		{
			count = 30 + (int)seed % 7; // pre-filtered range
		}
		pdVec3 n = { uni( rng ), uni( rng ), uni( rng ) };
		double nl = std::sqrt( n.x * n.x + n.y * n.y + n.z * n.z );
		n = { n.x / nl, n.y / nl, n.z / nl };
		std::vector<pdVec3> pts( count );
		std::vector<double> dist( count );
		for ( int i = 0; i < count; ++i )
		{
			// Points near a plane (small out-of-plane noise, which projection ignores).
			pdVec3 r = { uni( rng ), uni( rng ), uni( rng ) };
			double off = r.x * n.x + r.y * n.y + r.z * n.z;
			pts[i] = { r.x - n.x * off * 0.9, r.y - n.y * off * 0.9, r.z - n.z * off * 0.9 };
			dist[i] = -0.1 * ( 1.0 + uni( rng ) );
		}
		int deepest = (int)( std::min_element( dist.begin(), dist.end() ) - dist.begin() );
		int picked[PD_MAX_CONTACT_POINTS];
		int pc = pdReduceContactPoints( n, pts.data(), dist.data(), count, picked );
		ASSERT_EQ( pc, 4 ) << "seed " << seed;
		EXPECT_EQ( picked[0], deepest ) << "seed " << seed;
		std::vector<pdVec3> chosen;
		for ( int k = 0; k < pc; ++k )
		{
			chosen.push_back( pts[picked[k]] );
		}
		double area = hullArea( n, chosen );

		double best = 0.0;
		for ( int a = 0; a < count; ++a )
			for ( int b = a + 1; b < count; ++b )
				for ( int c = b + 1; c < count; ++c )
				{
					if ( a == deepest || b == deepest || c == deepest )
						continue;
					best = std::max( best, hullArea( n, { pts[deepest], pts[a], pts[b], pts[c] } ) );
				}
		if ( count <= 16 )
		{
			EXPECT_NEAR( area, best, 1e-9 * std::max( 1.0, best ) ) << "seed " << seed << " count " << count;
		}
		else
		{
			EXPECT_GE( area, 0.9 * best ) << "seed " << seed << " count " << count;
		}
		EXPECT_NEAR( pdiHullArea4( n, chosen.data(), 4 ), area, 1e-12 ) << "seed " << seed;
	}
}

TEST( PdContact, ReductionSmallAndDegenerateInputs )
{
	pdVec3 n = { 0, 1, 0 };
	pdVec3 pts[6] = { { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 }, { 4, 0, 0 }, { 5, 0, 0 } };
	double dist[6] = { -0.1, -0.3, -0.2, -0.1, -0.1, -0.1 };
	int picked[4];
	EXPECT_EQ( pdReduceContactPoints( n, pts, dist, 0, picked ), 0 );
	ASSERT_EQ( pdReduceContactPoints( n, pts, dist, 3, picked ), 3 );
	EXPECT_EQ( picked[0], 1 );
	// Collinear: the deepest plus the extremes of the segment.
	int pc = pdReduceContactPoints( n, pts, dist, 6, picked );
	ASSERT_GE( pc, 2 );
	EXPECT_EQ( picked[0], 1 );
	std::vector<int> rest( picked + 1, picked + pc );
	EXPECT_TRUE( std::find( rest.begin(), rest.end(), 5 ) != rest.end() );
	EXPECT_TRUE( std::find( rest.begin(), rest.end(), 0 ) != rest.end() );
}

TEST( PdContact, RockingRingSunkIntoAFloorKeepsPointsAlongItsWholeContact )
{
	// A ring sunk 17 mm into a floor on its +x side and 9 mm on its -x side, rocking so that the
	// +x side goes on down this step (2.5 mm) while the -x side rises. Every point of the bottom
	// ring penetrates and bears load: points only at the deep end (those within the arrival band
	// of the deepest) let the solver lift that end alone and rock the ring about the other, which
	// kept a ring of the 60-tori heap 17 mm deep in another until it slept (seed 8).
	MeshHolder torus{ makeTorus( 48, 16 ) };
	MeshHolder floor{ makeFloor( 2.0, 8 ) };
	ASSERT_TRUE( torus.mesh != nullptr && floor.mesh != nullptr );
	WorkspaceHolder ws;
	pdTransform poseA = at( 0.0, 0.0, 0.0 );
	poseA.q = quatMul( axisAngle( 2, -0.008 ), kFlat ); // +x side 8 mm lower than -x
	poseA.p.y = -0.017 - lowestRotatedY( torus.mesh, poseA.q );
	pdTransform poseB = at( 0.0, 0.0, 0.0 );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactPair_SetRigidMotion( &pair, { 0.0, 0.0, 0.0 }, { 0.0, 0.0, -0.005 }, poseA.p );
	pdContactManifoldSet set;
	ASSERT_GE( pdContactPair_Generate( &pair, torus.mesh, &poseA, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
	ASSERT_EQ( set.state, PD_STATE_PENETRATING );
	bool deepEnd = false, shallowEnd = false;
	for ( int i = 0; i < set.manifoldCount; ++i )
	{
		const pdContactManifold& m = set.manifolds[i];
		EXPECT_GT( m.normal.y, 0.99 );
		for ( int k = 0; k < m.pointCount; ++k )
		{
			const pdContactPoint& cp = m.points[k];
			EXPECT_LT( cp.distance, 0.0 ) << "every point of the bottom ring is in the floor";
			deepEnd = deepEnd || cp.pointB.x > 0.3;
			shallowEnd = shallowEnd || cp.pointB.x < -0.3;
		}
	}
	EXPECT_TRUE( deepEnd ) << "the side 17 mm deep";
	EXPECT_TRUE( shallowEnd ) << "the side 9 mm deep bears load too";
}

TEST( PdContact, SpinningBodyKeepsThePointThatArrivesFirst )
{
	// A ring tilted over a floor, its -x side 1 cm up and its +x side about 11 cm up, spinning
	// so that the +x side comes down 15 cm this step: that side lands first, and the manifold's
	// deepest point (points[0]) must be there. With the linear motion alone it is on -x.
	MeshHolder torus{ makeTorus( 48, 16 ) };
	MeshHolder floor{ makeFloor( 2.0, 8 ) };
	ASSERT_TRUE( torus.mesh != nullptr && floor.mesh != nullptr );
	WorkspaceHolder ws;
	pdTransform poseA = at( 0.0, 0.0, 0.0 );
	poseA.q = quatMul( axisAngle( 2, 0.1 ), kFlat );
	poseA.p.y = 0.01 - lowestRotatedY( torus.mesh, poseA.q );
	pdTransform poseB = at( 0.0, 0.0, 0.0 );
	pdContactDef def = pdDefaultContactDef();
	def.speculativeDistance = 0.25;
	const pdVec3 linear = { 0.0, -0.02, 0.0 };
	const pdVec3 spin = { 0.0, 0.0, -0.3 }; // +x side down by 0.15, -x side up by 0.15
	for ( int withSpin = 0; withSpin < 2; ++withSpin )
	{
		SCOPED_TRACE( withSpin );
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		if ( withSpin )
			pdContactPair_SetRigidMotion( &pair, linear, spin, poseA.p );
		else
			pdContactPair_SetMotion( &pair, linear );
		pdContactManifoldSet set;
		ASSERT_GE( pdContactPair_Generate( &pair, torus.mesh, &poseA, floor.mesh, &poseB, &def, ws.ws, &set ), 0 );
		ASSERT_GE( set.manifoldCount, 1 );
		const pdContactManifold& m = set.manifolds[0];
		EXPECT_GT( m.normal.y, 0.99 );
		ASSERT_GE( m.pointCount, 1 );
		if ( withSpin )
			EXPECT_GT( m.points[0].pointB.x, 0.3 ) << "the side that arrives first";
		else
			EXPECT_LT( m.points[0].pointB.x, -0.3 ) << "the side that is closest now";
		for ( int k = 0; k < m.pointCount; ++k )
			EXPECT_GT( m.points[k].distance, 0.0 ) << "distances are today's gaps";
	}
}
