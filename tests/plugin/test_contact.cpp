// SPDX-License-Identifier: MIT
// PdContact: contact generation on top of the PD and proximity queries. Oracles: brute force
// over 4-subsets with an independent 2-D hull for the reduction, analytic depths and gaps for
// boxes, and the plain (two-sided) PD for the one-sided floor.
#include "polydepth/contact.h"
#include "shapes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace
{

pdTransform at( double x, double y, double z )
{
	pdTransform t = pdIdentityTransform();
	t.p = { x, y, z };
	return t;
}

struct MeshHolder
{
	pdMesh* mesh = nullptr;
	~MeshHolder() { pdDestroyMesh( mesh ); }
};

pdMesh* makeBox( double hx, double hy, double hz )
{
	smpSoup soup{};
	if ( !smpMakeBox( { hx, hy, hz }, 2, &soup ) )
	{
		return nullptr;
	}
	pdMesh* mesh = smpSoupCreateMesh( &soup, nullptr );
	smpFreeSoup( &soup );
	return mesh;
}

// A torus (axis z, R 0.5, r 0.15) as a mesh; nullptr on failure.
pdMesh* makeTorus( int majorSegments, int minorSegments )
{
	smpSoup soup{};
	if ( !smpMakeTorus( 0.5, 0.15, majorSegments, minorSegments, &soup ) )
	{
		return nullptr;
	}
	pdMesh* mesh = smpSoupCreateMesh( &soup, nullptr );
	smpFreeSoup( &soup );
	return mesh;
}

// An open, zero-thickness square floor in the plane y = 0, facing +y, cells x cells.
pdMesh* makeFloor( double half, int cells )
{
	std::vector<double> v;
	std::vector<uint32_t> idx;
	for ( int i = 0; i <= cells; ++i )
	{
		for ( int j = 0; j <= cells; ++j )
		{
			v.push_back( -half + 2.0 * half * i / cells );
			v.push_back( 0.0 );
			v.push_back( -half + 2.0 * half * j / cells );
		}
	}
	for ( int i = 0; i < cells; ++i )
	{
		for ( int j = 0; j < cells; ++j )
		{
			uint32_t a = (uint32_t)( i * ( cells + 1 ) + j ), b = a + 1, c = a + (uint32_t)( cells + 1 ), d = c + 1;
			// Counter-clockwise seen from +y.
			idx.insert( idx.end(), { a, b, d, a, d, c } );
		}
	}
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = v.data();
	def.vertexCount = (int)( v.size() / 3 );
	def.vertexType = PD_SCALAR_FLOAT64;
	def.indices = idx.data();
	def.triangleCount = (int)( idx.size() / 3 );
	def.indexType = PD_INDEX_UINT32;
	return pdCreateMesh( &def, nullptr );
}

// Hamilton product a * b: the rotation b, then a.
pdQuat quatMul( const pdQuat& a, const pdQuat& b )
{
	return { a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
			 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w };
}

// Rotation by angle about a coordinate axis (0 x, 1 y, 2 z).
pdQuat axisAngle( int axis, double angle )
{
	pdQuat q = { std::cos( 0.5 * angle ), 0.0, 0.0, 0.0 };
	double s = std::sin( 0.5 * angle );
	( axis == 0 ? q.x : axis == 1 ? q.y : q.z ) = s;
	return q;
}

// The torus lying flat: its axis z turned to +y.
const pdQuat kFlat = { 0.70710678118654752, -0.70710678118654752, 0.0, 0.0 };

// Lowest world y of the mesh's vertices rotated by q (translation left out).
double lowestRotatedY( const pdMesh* mesh, const pdQuat& q )
{
	double lowest = 1e30;
	for ( int v = 0; v < pdMesh_GetVertexCount( mesh ); ++v )
	{
		pdVec3 w = pdMesh_GetVertex( mesh, v );
		double ry = 2.0 * ( q.x * q.y + q.w * q.z ) * w.x + ( 1.0 - 2.0 * ( q.x * q.x + q.z * q.z ) ) * w.y +
					2.0 * ( q.y * q.z - q.w * q.x ) * w.z;
		lowest = std::min( lowest, ry );
	}
	return lowest;
}

struct WorkspaceHolder
{
	pdWorkspace* ws = pdCreateWorkspace();
	~WorkspaceHolder() { pdDestroyWorkspace( ws ); }
};

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
		int picked[PD_CONTACT_MAX_POINTS];
		int pc = pdContact_ReducePoints( n, pts.data(), dist.data(), count, picked );
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
		EXPECT_NEAR( pdContact_HullArea4( n, chosen.data(), 4 ), area, 1e-12 ) << "seed " << seed;
	}
}

TEST( PdContact, ReductionSmallAndDegenerateInputs )
{
	pdVec3 n = { 0, 1, 0 };
	pdVec3 pts[6] = { { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 }, { 4, 0, 0 }, { 5, 0, 0 } };
	double dist[6] = { -0.1, -0.3, -0.2, -0.1, -0.1, -0.1 };
	int picked[4];
	EXPECT_EQ( pdContact_ReducePoints( n, pts, dist, 0, picked ), 0 );
	ASSERT_EQ( pdContact_ReducePoints( n, pts, dist, 3, picked ), 3 );
	EXPECT_EQ( picked[0], 1 );
	// Collinear: the deepest plus the extremes of the segment.
	int pc = pdContact_ReducePoints( n, pts, dist, 6, picked );
	ASSERT_GE( pc, 2 );
	EXPECT_EQ( picked[0], 1 );
	std::vector<int> rest( picked + 1, picked + pc );
	EXPECT_TRUE( std::find( rest.begin(), rest.end(), 5 ) != rest.end() );
	EXPECT_TRUE( std::find( rest.begin(), rest.end(), 0 ) != rest.end() );
}

TEST( PdContact, PenetrationSignConventions )
{
	MeshHolder a{ makeBox( 0.2, 0.1, 0.2 ) }, b{ makeBox( 0.5, 0.1, 0.5 ) };
	ASSERT_NE( a.mesh, nullptr );
	ASSERT_NE( b.mesh, nullptr );
	WorkspaceHolder ws;
	for ( int sign = -1; sign <= 1; sign += 2 )
	{
		// A overlaps B's top (sign +1) or bottom (sign -1) face by 0.05.
		pdTransform poseA = at( 0.05, sign * 0.15, -0.02 );
		pdTransform poseB = at( 0.0, 0.0, 0.0 );
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		ASSERT_GE( pdContact_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		ASSERT_EQ( set.state, PD_STATE_PENETRATING ) << "sign " << sign;
		EXPECT_NEAR( set.translation.y, sign * 0.05, 2e-3 ) << "sign " << sign;
		EXPECT_NEAR( set.depth, 0.05, 2e-3 );
		ASSERT_GE( set.count, 1 );
		const pdContactManifold& m = set.manifolds[0];
		EXPECT_NEAR( m.normal.y, (double)sign, 1e-6 ) << "normal on B toward A";
		ASSERT_GE( m.pointCount, 3 );
		EXPECT_LE( m.pointCount, PD_CONTACT_MAX_POINTS );
		for ( int k = 0; k < m.pointCount; ++k )
		{
			const pdContactPoint& p = m.points[k];
			EXPECT_NEAR( p.distance, -0.05, 2e-3 ) << "negative = penetration";
			EXPECT_NEAR( p.pointB.y, sign * 0.1, 1e-3 ) << "point on B's face";
			EXPECT_NEAR( p.pointA.y, p.pointB.y + m.normal.y * p.distance, 1e-12 );
			EXPECT_LE( std::fabs( p.pointB.x - 0.05 ), 0.2 + 1e-6 );
		}
		// The 4 points of a 0.4 x 0.4 face patch should span most of it.
		if ( m.pointCount == 4 )
		{
			pdVec3 quad[4] = { m.points[0].pointB, m.points[1].pointB, m.points[2].pointB, m.points[3].pointB };
			EXPECT_GT( pdContact_HullArea4( m.normal, quad, 4 ), 0.5 * 0.16 );
		}
	}
}

TEST( PdContact, SeparatedCloseContactsHavePositiveDistance )
{
	MeshHolder a{ makeBox( 0.2, 0.1, 0.2 ) }, b{ makeBox( 0.5, 0.1, 0.5 ) };
	WorkspaceHolder ws;
	pdContactDef def = pdContactDefaultDef();
	def.contactDistance = 0.02;
	pdTransform poseB = at( 0, 0, 0 );
	{
		pdTransform poseA = at( 0.0, 0.2 + 0.01, 0.0 ); // 1 cm gap
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		ASSERT_GE( pdContact_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, &set ), 0 );
		EXPECT_EQ( set.state, PD_STATE_SEPARATED );
		ASSERT_GE( set.count, 1 );
		for ( int i = 0; i < set.count; ++i )
		{
			const pdContactManifold& m = set.manifolds[i];
			EXPECT_GT( m.normal.y, 0.99 );
			EXPECT_LE( m.pointCount, PD_CONTACT_MAX_POINTS );
			for ( int k = 0; k < m.pointCount; ++k )
			{
				EXPECT_NEAR( m.points[k].distance, 0.01, 1e-6 );
				EXPECT_GT( m.points[k].distance, 0.0 );
			}
		}
	}
	{
		pdTransform poseA = at( 0.0, 0.2 + 0.05, 0.0 ); // beyond the contact distance
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		ASSERT_GE( pdContact_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, &set ), 0 );
		EXPECT_EQ( set.state, PD_STATE_SEPARATED );
		EXPECT_EQ( set.count, 0 );
	}
}

TEST( PdContact, SkinLowersEveryDistanceAndNothingElse )
{
	// Boxes A (0.4 x 0.2 x 0.4, diagonal 0.6) and B: the skin is relative to the smaller one.
	MeshHolder a{ makeBox( 0.2, 0.1, 0.2 ) }, b{ makeBox( 0.5, 0.1, 0.5 ) };
	WorkspaceHolder ws;
	const double diagonalA = 0.6;
	pdTransform poseB = at( 0, 0, 0 );
	// Penetrating by 5 cm, and 1 cm apart.
	for ( double y : { 0.15, 0.21 } )
	{
		pdTransform poseA = at( 0.05, y, -0.02 );
		pdContactManifoldSet exact, skinned;
		for ( int withSkin = 0; withSkin < 2; ++withSkin )
		{
			pdContactDef def = pdContactDefaultDef();
			def.relativeSkin = withSkin ? 1e-3 : 0.0;
			pdContactPair pair;
			pdContactPair_Reset( &pair );
			ASSERT_GE( pdContact_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, withSkin ? &skinned : &exact ), 0 );
		}
		ASSERT_EQ( exact.state, skinned.state ) << "y " << y;
		ASSERT_GE( exact.count, 1 );
		ASSERT_EQ( exact.count, skinned.count ) << "y " << y;
		for ( int i = 0; i < exact.count; ++i )
		{
			const pdContactManifold& e = exact.manifolds[i];
			const pdContactManifold& s = skinned.manifolds[i];
			EXPECT_EQ( e.normal.y, s.normal.y );
			ASSERT_EQ( e.pointCount, s.pointCount );
			for ( int k = 0; k < e.pointCount; ++k )
			{
				EXPECT_NEAR( s.points[k].distance, e.points[k].distance - 1e-3 * diagonalA, 1e-12 ) << "y " << y;
				EXPECT_EQ( s.points[k].pointB.x, e.points[k].pointB.x );
				EXPECT_EQ( s.points[k].pointB.y, e.points[k].pointB.y );
				EXPECT_NEAR( s.points[k].pointA.y, s.points[k].pointB.y + s.normal.y * s.points[k].distance, 1e-12 );
			}
		}
	}
	// At most half the contact distance is applied, none without separated contacts.
	for ( double contactDistance : { 0.0, 0.004 } )
	{
		pdTransform poseA = at( 0.05, 0.15, -0.02 );
		double deepest[2] = { 0.0, 0.0 };
		for ( int withSkin = 0; withSkin < 2; ++withSkin )
		{
			pdContactDef def = pdContactDefaultDef();
			def.contactDistance = contactDistance;
			def.relativeSkin = withSkin ? 0.05 : 0.0; // 3 cm on A
			pdContactPair pair;
			pdContactPair_Reset( &pair );
			pdContactManifoldSet out;
			ASSERT_GE( pdContact_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, &out ), 0 );
			ASSERT_GE( out.count, 1 );
			deepest[withSkin] = out.manifolds[0].points[0].distance;
		}
		EXPECT_NEAR( deepest[1], deepest[0] - 0.5 * contactDistance, 1e-12 ) << contactDistance;
	}
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	for ( double bad : { -1e-4, 0.1, (double)NAN, (double)INFINITY } )
	{
		pdContactDef def = pdContactDefaultDef();
		def.relativeSkin = bad;
		EXPECT_EQ( pdContact_Generate( &pair, a.mesh, &poseB, b.mesh, &poseB, &def, ws.ws, &set ), PD_STATUS_INVALID_DEF )
			<< bad;
	}
}

TEST( PdContact, OneSidedFloorResolvesTowardTheSideItCameFrom )
{
	MeshHolder box{ makeBox( 0.15, 0.15, 0.15 ) }, floor{ makeFloor( 1.0, 4 ) };
	ASSERT_NE( floor.mesh, nullptr );
	ASSERT_FALSE( pdMesh_IsClosed( floor.mesh ) );
	WorkspaceHolder ws;
	pdTransform poseB = at( 0, 0, 0 );
	// Bottom at -0.18, top at 0.12: the plain PD pushes it down through the floor (0.12 < 0.18).
	pdTransform through = at( 0.0, -0.03, 0.0 );

	{
		pdContactDef def = pdContactDefaultDef();
		def.oneSided = PD_ONE_SIDED_NEVER;
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		ASSERT_GE( pdContact_Generate( &pair, box.mesh, &through, floor.mesh, &poseB, &def, ws.ws, &set ), 0 );
		ASSERT_EQ( set.state, PD_STATE_PENETRATING );
		EXPECT_LT( set.translation.y, 0.0 ) << "oracle: the two-sided PD goes down";
	}
	{
		// The pair saw the box free above the floor last frame.
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		pdTransform above = at( 0.0, 0.16, 0.0 );
		ASSERT_GE( pdContact_Generate( &pair, box.mesh, &above, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		EXPECT_EQ( set.state, PD_STATE_SEPARATED );
		ASSERT_TRUE( pair.hasFreeSide );
		EXPECT_GT( pair.freeSide.y, 0.9 );
		ASSERT_GE( pdContact_Generate( &pair, box.mesh, &through, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		ASSERT_EQ( set.state, PD_STATE_PENETRATING );
		EXPECT_TRUE( set.resolvedOneSided );
		EXPECT_NEAR( set.translation.y, 0.18, 2e-3 ) << "pushed back up";
		ASSERT_GE( set.count, 1 );
		EXPECT_GT( set.manifolds[0].normal.y, 0.99 );
		EXPECT_NEAR( set.manifolds[0].points[0].distance, -0.18, 2e-3 );
	}
	{
		// No history, but the motion hint says it came from above.
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactPair_SetMotion( &pair, { 0.0, -0.2, 0.0 } );
		pdContactManifoldSet set;
		ASSERT_GE( pdContact_Generate( &pair, box.mesh, &through, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		EXPECT_GT( set.translation.y, 0.1 );
		ASSERT_GE( set.count, 1 );
		EXPECT_GT( set.manifolds[0].normal.y, 0.99 );
	}
	{
		// Came from below: stays below (the rule is "the side it came from", not "up").
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		pdTransform below = at( 0.0, -0.16, 0.0 );
		pdTransform nearTop = at( 0.0, 0.03, 0.0 ); // plain PD would go up
		ASSERT_GE( pdContact_Generate( &pair, box.mesh, &below, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		ASSERT_GE( pdContact_Generate( &pair, box.mesh, &nearTop, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		EXPECT_LT( set.translation.y, -0.1 );
	}
}

TEST( PdContact, PairStateIsReusedAcrossFrames )
{
	MeshHolder a{ makeBox( 0.2, 0.1, 0.2 ) }, b{ makeBox( 0.5, 0.1, 0.5 ) };
	WorkspaceHolder ws;
	pdTransform poseB = at( 0, 0, 0 );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet first, second;
	pdTransform poseA = at( 0.0, 0.19, 0.0 );
	ASSERT_GE( pdContact_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, nullptr, ws.ws, &first ), 0 );
	ASSERT_GE( first.count, 1 );
	EXPECT_EQ( pair.frame, 1 );
	EXPECT_NE( pair.slotMask, 0u );
	// A tiny tilt of B: the region keeps its slot and its normal (held), depth follows.
	pdTransform tilted = poseB;
	double angle = 0.0005; // rad, under the hold angle
	tilted.q = { std::cos( angle / 2 ), std::sin( angle / 2 ), 0.0, 0.0 };
	pdTransform poseA2 = at( 0.001, 0.188, 0.0 );
	ASSERT_GE( pdContact_Generate( &pair, a.mesh, &poseA2, b.mesh, &tilted, nullptr, ws.ws, &second ), 0 );
	ASSERT_GE( second.count, 1 );
	EXPECT_EQ( pair.frame, 2 );
	EXPECT_EQ( second.manifolds[0].slot, first.manifolds[0].slot );
	// Held in B's frame: the world normal turned with B exactly.
	pdVec3 n = second.manifolds[0].normal;
	EXPECT_NEAR( n.y, std::cos( angle ), 1e-9 );
	EXPECT_NEAR( n.z, std::sin( angle ), 1e-9 );
	EXPECT_LT( second.manifolds[0].points[0].distance, first.manifolds[0].points[0].distance );
	EXPECT_GT( pair.penetration.count, 0 ) << "PD coherence cache filled";

	// Reset forgets.
	pdContactPair_Reset( &pair );
	EXPECT_EQ( pair.frame, 0 );
	EXPECT_EQ( pair.slotMask, 0u );
	EXPECT_FALSE( pair.hasFreeSide );
}

TEST( PdContact, RejectsBadArguments )
{
	MeshHolder a{ makeBox( 0.2, 0.1, 0.2 ) };
	WorkspaceHolder ws;
	pdTransform pose = at( 0, 0, 0 );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	EXPECT_EQ( pdContact_Generate( nullptr, a.mesh, &pose, a.mesh, &pose, nullptr, ws.ws, &set ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( set.count, 0 );
	pdContactDef def = {};
	EXPECT_EQ( pdContact_Generate( &pair, a.mesh, &pose, a.mesh, &pose, &def, ws.ws, &set ),
			   PD_STATUS_DEF_NOT_INITIALIZED );
	def = pdContactDefaultDef();
	def.contactDistance = -1.0;
	EXPECT_EQ( pdContact_Generate( &pair, a.mesh, &pose, a.mesh, &pose, &def, ws.ws, &set ), PD_STATUS_INVALID_DEF );
	EXPECT_EQ( pdContact_Generate( &pair, a.mesh, &pose, a.mesh, &pose, nullptr, ws.ws, nullptr ),
			   PD_STATUS_INVALID_ARGUMENT );
}

TEST( PdContact, RestingRingOnRingKeepsItsPointsAndAVerticalNormal )
{
	// Two identical tori (axis z) stacked concentrically, the upper (A) turned half a segment
	// and sunk 0.5 mm: the exact contact is the whole crest circle with normal +z.
	MeshHolder torus{ makeTorus( 48, 16 ) };
	ASSERT_NE( torus.mesh, nullptr );
	WorkspaceHolder ws;
	const double sink = 5e-4;
	const double half = 3.14159265358979323846 / 48.0 / 2.0;
	pdTransform poseB = at( 0.0, 0.0, 0.0 );
	pdTransform poseA = at( 0.0, 0.0, 0.3 - sink );
	poseA.q = { std::cos( half ), 0.0, 0.0, std::sin( half ) };
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet frames[3];
	for ( int f = 0; f < 3; ++f )
	{
		// A settles by a fraction of a millimetre between calls, as a resting body does.
		pdTransform pose = poseA;
		pose.p.x += 1e-4 * f;
		pose.p.z += 5e-5 * f;
		ASSERT_GE( pdContact_Generate( &pair, torus.mesh, &pose, torus.mesh, &poseB, nullptr, ws.ws, frames + f ), 0 );
		ASSERT_EQ( frames[f].state, PD_STATE_PENETRATING ) << "frame " << f;
		ASSERT_EQ( frames[f].count, 1 ) << "one crest region, frame " << f;
		const pdContactManifold& m = frames[f].manifolds[0];
		EXPECT_GT( m.normal.z, std::cos( 0.5 * 3.14159265358979323846 / 180.0 ) ) << "within 0.5 deg of +z, frame " << f;
		ASSERT_EQ( m.pointCount, 4 ) << "frame " << f;
		pdVec3 quad[4];
		for ( int k = 0; k < 4; ++k )
		{
			quad[k] = m.points[k].pointB;
			EXPECT_GE( m.points[k].distance, -sink - 2e-3 ) << "frame " << f;
			EXPECT_LE( m.points[k].distance, 1e-3 ) << "frame " << f;
		}
		// Spread over the ring (an inscribed square of the 0.5 m circle has area 0.5).
		EXPECT_GT( pdContact_HullArea4( m.normal, quad, 4 ), 0.25 ) << "frame " << f;
	}
	// The points persist: every point of a later frame is where one of the first frame was.
	for ( int f = 1; f < 3; ++f )
	{
		for ( int k = 0; k < 4; ++k )
		{
			double nearest = 1e30;
			for ( int q = 0; q < 4; ++q )
			{
				pdVec3 a = frames[f].manifolds[0].points[k].pointB, b = frames[0].manifolds[0].points[q].pointB;
				nearest = std::min( nearest, std::sqrt( ( a.x - b.x ) * ( a.x - b.x ) + ( a.y - b.y ) * ( a.y - b.y ) +
														( a.z - b.z ) * ( a.z - b.z ) ) );
			}
			EXPECT_LT( nearest, 1e-3 ) << "frame " << f << " point " << k;
		}
	}
}

TEST( PdContact, SpeculativeContactsCoverWhatTheStepCanClose )
{
	MeshHolder a{ makeBox( 0.2, 0.1, 0.2 ) }, b{ makeBox( 0.5, 0.1, 0.5 ) };
	WorkspaceHolder ws;
	pdTransform poseB = at( 0, 0, 0 );
	pdTransform poseA = at( 0.0, 0.2 + 0.05, 0.0 ); // 5 cm gap, beyond the contact distance
	pdContactDef def = pdContactDefaultDef();
	def.contactDistance = 0.02;
	struct Case
	{
		double reach;
		bool contacts;
	} cases[] = { { 0.0, false }, { 0.04, false }, { 0.08, true } };
	for ( const Case& c : cases )
	{
		SCOPED_TRACE( c.reach );
		def.speculativeDistance = c.reach;
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		ASSERT_GE( pdContact_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, &set ), 0 );
		EXPECT_EQ( set.state, PD_STATE_SEPARATED );
		EXPECT_EQ( set.speculative, c.contacts );
		if ( !c.contacts )
		{
			EXPECT_EQ( set.count, 0 );
			continue;
		}
		ASSERT_GE( set.count, 1 );
		for ( int i = 0; i < set.count; ++i )
		{
			EXPECT_GT( set.manifolds[i].normal.y, 0.99 );
			for ( int k = 0; k < set.manifolds[i].pointCount; ++k )
				EXPECT_NEAR( set.manifolds[i].points[k].distance, 0.05, 1e-6 ) << "the real gap, not the reach";
		}
	}
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	for ( double bad : { -1.0, std::nan( "" ), (double)INFINITY } )
	{
		def.speculativeDistance = bad;
		EXPECT_EQ( pdContact_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, &set ),
				   PD_STATUS_INVALID_DEF );
	}
}

TEST( PdContact, SpeculativeContactsWithAMotionOnlyWhereItCanClose )
{
	// The same 5 cm gap and 8 cm reach, now with the step's motion given: a step that closes
	// the gap to within the contact distance gets the face patch (4 points, the real gap); a
	// sideways or too short one gets no feature pair (a solver would give those no impulse),
	// only the one point at the closest pair that any pair within the reach gets.
	MeshHolder a{ makeBox( 0.2, 0.1, 0.2 ) }, b{ makeBox( 0.5, 0.1, 0.5 ) };
	WorkspaceHolder ws;
	pdTransform poseB = at( 0, 0, 0 );
	pdTransform poseA = at( 0.0, 0.2 + 0.05, 0.0 );
	pdContactDef def = pdContactDefaultDef();
	def.contactDistance = 0.02;
	def.speculativeDistance = 0.08;
	struct Case
	{
		const char* name;
		pdVec3 linear, rotation;
		bool contacts;
	} cases[] = {
		{ "down 8 cm", pdVec3{ 0.0, -0.08, 0.0 }, pdVec3{ 0, 0, 0 }, true },
		{ "down 4 cm", pdVec3{ 0.0, -0.04, 0.0 }, pdVec3{ 0, 0, 0 }, true },   // 1 cm left: within 2 cm
		{ "down 2 cm", pdVec3{ 0.0, -0.02, 0.0 }, pdVec3{ 0, 0, 0 }, false },  // 3 cm left
		{ "sideways", pdVec3{ 0.08, 0.0, 0.0 }, pdVec3{ 0, 0, 0 }, false },
		{ "up", pdVec3{ 0.0, 0.08, 0.0 }, pdVec3{ 0, 0, 0 }, false },
		// Tipping about z by 0.4 rad: the -x edge (20 cm out) comes down about 8 cm.
		{ "tipping", pdVec3{ 0, 0, 0 }, pdVec3{ 0.0, 0.0, 0.4 }, true },
	};
	for ( const Case& c : cases )
	{
		SCOPED_TRACE( c.name );
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactPair_SetRigidMotion( &pair, c.linear, c.rotation, poseA.p );
		pdContactManifoldSet set;
		ASSERT_GE( pdContact_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, &set ), 0 );
		EXPECT_EQ( set.state, PD_STATE_SEPARATED );
		int points = 0;
		for ( int i = 0; i < set.count; ++i )
			points += set.manifolds[i].pointCount;
		if ( !c.contacts )
		{
			EXPECT_LE( points, 1 );
			continue;
		}
		ASSERT_GE( set.count, 1 );
		if ( c.rotation.z > 0.0 )
			EXPECT_GE( points, 2 ) << "the edge the step brings down";
		else
			EXPECT_EQ( points, 4 ) << "the face patch the step closes";
		for ( int i = 0; i < set.count; ++i )
		{
			EXPECT_GT( set.manifolds[i].normal.y, 0.99 );
			for ( int k = 0; k < set.manifolds[i].pointCount; ++k )
			{
				EXPECT_NEAR( set.manifolds[i].points[k].distance, 0.05, 1e-6 );
				if ( c.rotation.z > 0.0 )
					EXPECT_LT( set.manifolds[i].points[k].pointB.x, 0.0 ) << "only the side that tips down";
			}
		}
	}
}

TEST( PdContact, SlightlyTiltedRingOnAFloorIsNotReportedLevel )
{
	// A ring lying on a floor, tilted 0.2 mrad about z: its +x side 0.1 mm into the floor, its
	// -x side 0.1 mm above it. At the PD contact configuration (lifted 0.1 mm) the -x side is
	// 0.2 mm up, within the reach of the core's local PDs (1.5 x its tolerance, about 0.28 mm
	// here): the core counts it as touching. Reported at the full depth it made the ring look
	// level and sunk, so a resting ring stayed tilted until the pair turned to touching and it
	// dropped (the plugin now takes every point's gap from its own gathering).
	MeshHolder torus{ makeTorus( 16, 8 ) }; // coarse: the core's few local-PD points cover the ring
	MeshHolder floor{ makeFloor( 2.0, 8 ) };
	ASSERT_TRUE( torus.mesh != nullptr && floor.mesh != nullptr );
	WorkspaceHolder ws;
	pdTransform poseA = at( 0.0, 0.0, 0.0 );
	poseA.q = quatMul( axisAngle( 2, -2e-4 ), kFlat ); // +x side down
	poseA.p.y = -1e-4 - lowestRotatedY( torus.mesh, poseA.q );
	pdTransform poseB = at( 0.0, 0.0, 0.0 );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	ASSERT_GE( pdContact_Generate( &pair, torus.mesh, &poseA, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
	ASSERT_EQ( set.state, PD_STATE_PENETRATING );
	ASSERT_EQ( set.count, 1 );
	const pdContactManifold& m = set.manifolds[0];
	EXPECT_GT( m.normal.y, 0.9999 );
	bool deepSide = false, highSide = false;
	for ( int k = 0; k < m.pointCount; ++k )
	{
		const pdContactPoint& cp = m.points[k];
		SCOPED_TRACE( k );
		if ( cp.pointB.x > 0.4 )
		{
			deepSide = true;
			EXPECT_NEAR( cp.distance, -1e-4, 2e-5 ) << "the +x side is 0.1 mm in";
		}
		if ( cp.pointB.x < -0.4 )
		{
			highSide = true;
			EXPECT_GE( cp.distance, -1e-5 ) << "the -x side is above the floor, not 0.1 mm in";
		}
	}
	EXPECT_TRUE( deepSide && highSide ) << "the points span the ring";
}

TEST( PdContact, RingOnAFloorGridGetsOnlyTheFloorNormal )
{
	// A ring flat on a floor whose grid vertices lie under its bottom ring: there, floor edges
	// (the grid's diagonals among them) cross the ring's edges. Such a touching edge-edge pair
	// has the edges' cross product for a normal, up to 90 degrees from the floor's, though the
	// floor edge is not the floor's extreme along it (its faces are flat). Every region must
	// have the floor's normal: level and sunk or raised 0.01 mm, and tilted 0.2 mrad, turned
	// and shifted (the pose where, without the applicability test, a region came out with a
	// nearly horizontal normal; such regions pushed a resting torus sideways).
	MeshHolder torus{ makeTorus( 48, 16 ) };
	MeshHolder floor{ makeFloor( 2.0, 8 ) };
	ASSERT_TRUE( torus.mesh != nullptr && floor.mesh != nullptr );
	WorkspaceHolder ws;
	struct Pose
	{
		double dx, tilt, yaw, height;
	} poses[] = { { 0.0, 0.0, 0.0, -1e-5 }, { 0.0, 0.0, 0.0, 1e-5 }, { 3e-4, 2e-4, 0.13, 1e-4 } };
	pdTransform poseB = at( 0.0, 0.0, 0.0 );
	for ( const Pose& p : poses )
	{
		SCOPED_TRACE( p.height );
		SCOPED_TRACE( p.tilt );
		// Flat, then the tilt about z, then the yaw about y.
		pdTransform poseA = at( p.dx, 0.15 + p.height, 0.0 );
		poseA.q = quatMul( axisAngle( 1, p.yaw ), quatMul( axisAngle( 2, p.tilt ), kFlat ) );
		pdContactPair pair;
		pdContactPair_Reset( &pair );
		pdContactManifoldSet set;
		ASSERT_GE( pdContact_Generate( &pair, torus.mesh, &poseA, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		ASSERT_GE( set.count, 1 );
		for ( int i = 0; i < set.count; ++i )
		{
			EXPECT_GT( set.manifolds[i].normal.y, std::cos( 1.0 * 3.14159265358979323846 / 180.0 ) )
				<< "region " << i << " of " << set.count;
		}
	}
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
	ASSERT_GE( pdContact_Generate( &pair, torus.mesh, &poseA, floor.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
	ASSERT_EQ( set.state, PD_STATE_PENETRATING );
	bool deepEnd = false, shallowEnd = false;
	for ( int i = 0; i < set.count; ++i )
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
	pdContactDef def = pdContactDefaultDef();
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
		ASSERT_GE( pdContact_Generate( &pair, torus.mesh, &poseA, floor.mesh, &poseB, &def, ws.ws, &set ), 0 );
		ASSERT_GE( set.count, 1 );
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

TEST( PdContact, ApartPairsSkipTheQueriesAndGiveTheSameContacts )
{
	// A ring approaching a box from half a metre while turning: one pair that may skip the
	// queries once it has proven a gap, one forced to run them every call. Same contacts.
	MeshHolder torus{ makeTorus( 24, 8 ) };
	MeshHolder box{ makeBox( 1.0, 0.1, 1.0 ) };
	ASSERT_TRUE( torus.mesh != nullptr && box.mesh != nullptr );
	WorkspaceHolder ws;
	pdContactDef def = pdContactDefaultDef();
	pdContactPair skipping, forced;
	pdContactPair_Reset( &skipping );
	pdContactPair_Reset( &forced );
	pdTransform poseB = at( 0.0, 0.0, 0.0 );
	int skipped = 0, withContacts = 0;
	const int steps = 120;
	for ( int i = 0; i <= steps; ++i )
	{
		double s = (double)i / steps;
		double angle = 0.3 * s;
		pdTransform poseA = at( 0.1 * s, 0.1 + 0.6 + 0.6 * ( 1.0 - s ), 0.0 );
		poseA.q = { std::cos( 0.5 * angle ), std::sin( 0.5 * angle ), 0.0, 0.0 };
		forced.apartValid = false;
		bool willSkip = skipping.apartValid;
		pdContactManifoldSet a, b;
		ASSERT_GE( pdContact_Generate( &skipping, torus.mesh, &poseA, box.mesh, &poseB, &def, ws.ws, &a ), 0 );
		ASSERT_GE( pdContact_Generate( &forced, torus.mesh, &poseA, box.mesh, &poseB, &def, ws.ws, &b ), 0 );
		skipped += willSkip && skipping.apartValid ? 1 : 0;
		ASSERT_EQ( a.state, b.state ) << "step " << i;
		ASSERT_EQ( a.count, b.count ) << "step " << i;
		withContacts += a.count > 0 ? 1 : 0;
		for ( int m = 0; m < a.count; ++m )
		{
			ASSERT_EQ( a.manifolds[m].pointCount, b.manifolds[m].pointCount ) << "step " << i;
			for ( int k = 0; k < a.manifolds[m].pointCount; ++k )
			{
				EXPECT_EQ( a.manifolds[m].points[k].distance, b.manifolds[m].points[k].distance ) << "step " << i;
				EXPECT_EQ( a.manifolds[m].points[k].pointB.x, b.manifolds[m].points[k].pointB.x ) << "step " << i;
			}
		}
	}
	std::printf( "apart pairs: %d of %d calls skipped the queries, %d had contacts\n", skipped, steps + 1, withContacts );
	EXPECT_GT( skipped, 20 ) << "far poses skip";
	EXPECT_GT( withContacts, 3 ) << "and the ring does reach the box";
	EXPECT_FALSE( skipping.apartValid ) << "no proven gap once in contact";
}
