// SPDX-License-Identifier: MIT
// PdContact: contact generation on top of the PD and proximity queries (contact.c, the
// driver): sign conventions, the skin, argument checks, and which pairs get contacts within the
// contact distance and the speculative reach. Oracles: analytic depths and gaps for boxes.
#include "contact_test_util.h"
#include "contact_internal.h" // pdiHullArea4 (private)

#include <gtest/gtest.h>

#include <cstdio>

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
		ASSERT_GE( pdContactPair_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, nullptr, ws.ws, &set ), 0 );
		ASSERT_EQ( set.state, PD_STATE_PENETRATING ) << "sign " << sign;
		EXPECT_NEAR( set.translation.y, sign * 0.05, 2e-3 ) << "sign " << sign;
		EXPECT_NEAR( set.depth, 0.05, 2e-3 );
		ASSERT_GE( set.manifoldCount, 1 );
		const pdContactManifold& m = set.manifolds[0];
		EXPECT_NEAR( m.normal.y, (double)sign, 1e-6 ) << "normal on B toward A";
		ASSERT_GE( m.pointCount, 3 );
		EXPECT_LE( m.pointCount, PD_MAX_CONTACT_POINTS );
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
			EXPECT_GT( pdiHullArea4( m.normal, quad, 4 ), 0.5 * 0.16 );
		}
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
			pdContactDef def = pdDefaultContactDef();
			def.relativeSkin = withSkin ? 1e-3 : 0.0;
			pdContactPair pair;
			pdContactPair_Reset( &pair );
			ASSERT_GE( pdContactPair_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, withSkin ? &skinned : &exact ), 0 );
		}
		ASSERT_EQ( exact.state, skinned.state ) << "y " << y;
		ASSERT_GE( exact.manifoldCount, 1 );
		ASSERT_EQ( exact.manifoldCount, skinned.manifoldCount ) << "y " << y;
		for ( int i = 0; i < exact.manifoldCount; ++i )
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
			pdContactDef def = pdDefaultContactDef();
			def.contactDistance = contactDistance;
			def.relativeSkin = withSkin ? 0.05 : 0.0; // 3 cm on A
			pdContactPair pair;
			pdContactPair_Reset( &pair );
			pdContactManifoldSet out;
			ASSERT_GE( pdContactPair_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, &out ), 0 );
			ASSERT_GE( out.manifoldCount, 1 );
			deepest[withSkin] = out.manifolds[0].points[0].distance;
		}
		EXPECT_NEAR( deepest[1], deepest[0] - 0.5 * contactDistance, 1e-12 ) << contactDistance;
	}
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	for ( double bad : { -1e-4, 0.1, (double)NAN, (double)INFINITY } )
	{
		pdContactDef def = pdDefaultContactDef();
		def.relativeSkin = bad;
		EXPECT_EQ( pdContactPair_Generate( &pair, a.mesh, &poseB, b.mesh, &poseB, &def, ws.ws, &set ), PD_STATUS_INVALID_DEF )
			<< bad;
	}
}

TEST( PdContact, RejectsBadArguments )
{
	MeshHolder a{ makeBox( 0.2, 0.1, 0.2 ) };
	WorkspaceHolder ws;
	pdTransform pose = at( 0, 0, 0 );
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	EXPECT_EQ( pdContactPair_Generate( nullptr, a.mesh, &pose, a.mesh, &pose, nullptr, ws.ws, &set ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( set.manifoldCount, 0 );
	pdContactDef def = {};
	EXPECT_EQ( pdContactPair_Generate( &pair, a.mesh, &pose, a.mesh, &pose, &def, ws.ws, &set ),
			   PD_STATUS_DEF_NOT_INITIALIZED );
	def = pdDefaultContactDef();
	def.contactDistance = -1.0;
	EXPECT_EQ( pdContactPair_Generate( &pair, a.mesh, &pose, a.mesh, &pose, &def, ws.ws, &set ), PD_STATUS_INVALID_DEF );
	EXPECT_EQ( pdContactPair_Generate( &pair, a.mesh, &pose, a.mesh, &pose, nullptr, ws.ws, nullptr ),
			   PD_STATUS_INVALID_ARGUMENT );
}

TEST( PdContact, SpeculativeContactsCoverWhatTheStepCanClose )
{
	MeshHolder a{ makeBox( 0.2, 0.1, 0.2 ) }, b{ makeBox( 0.5, 0.1, 0.5 ) };
	WorkspaceHolder ws;
	pdTransform poseB = at( 0, 0, 0 );
	pdTransform poseA = at( 0.0, 0.2 + 0.05, 0.0 ); // 5 cm gap, beyond the contact distance
	pdContactDef def = pdDefaultContactDef();
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
		ASSERT_GE( pdContactPair_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, &set ), 0 );
		EXPECT_EQ( set.state, PD_STATE_SEPARATED );
		EXPECT_EQ( set.speculative, c.contacts );
		if ( !c.contacts )
		{
			EXPECT_EQ( set.manifoldCount, 0 );
			continue;
		}
		ASSERT_GE( set.manifoldCount, 1 );
		for ( int i = 0; i < set.manifoldCount; ++i )
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
		EXPECT_EQ( pdContactPair_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, &set ),
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
	pdContactDef def = pdDefaultContactDef();
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
		ASSERT_GE( pdContactPair_Generate( &pair, a.mesh, &poseA, b.mesh, &poseB, &def, ws.ws, &set ), 0 );
		EXPECT_EQ( set.state, PD_STATE_SEPARATED );
		int points = 0;
		for ( int i = 0; i < set.manifoldCount; ++i )
			points += set.manifolds[i].pointCount;
		if ( !c.contacts )
		{
			EXPECT_LE( points, 1 );
			continue;
		}
		ASSERT_GE( set.manifoldCount, 1 );
		if ( c.rotation.z > 0.0 )
			EXPECT_GE( points, 2 ) << "the edge the step brings down";
		else
			EXPECT_EQ( points, 4 ) << "the face patch the step closes";
		for ( int i = 0; i < set.manifoldCount; ++i )
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

TEST( PdContact, SpeculativeContactReadsTheGapWhereVertexMeetsVertex )
{
	// Two icospheres (r 0.2, 320 triangles) pole to pole, 7 mm apart, the lower one (turned by
	// 1 degree) rising 4.4 cm and spinning a little this step relative to the upper, as in a
	// pour: the poles meet vertex to vertex, which no vertex-face pair reports, the edge-edge
	// pairs around them are not their meshes' extremes along their separations, and the nearest
	// other pairs lie 2.6 cm apart. The speculative contact must read the surfaces' own gap (the
	// distance query's), or the solver lets the spheres close 2.6 cm and overlap by 1.9.
	MeshHolder sphere{ makePourSphere() };
	ASSERT_NE( sphere.mesh, nullptr );
	WorkspaceHolder ws;
	pdTransform poseA = at( 0.0, 0.0, 0.0 ), poseB = at( -0.00097947, 0.40648019, -0.00077237 );
	poseA.q = pdQuat{ 0.999958179, -0.002404180, -0.000230979, 0.008820835 };
	pdDistanceResult exact;
	ASSERT_GE( pdComputeDistance( sphere.mesh, &poseA, sphere.mesh, &poseB, nullptr, ws.ws, &exact ), 0 );
	ASSERT_GT( exact.distance, 0.006 );
	ASSERT_LT( exact.distance, 0.008 );
	pdContactDef def = pdDefaultContactDef();
	def.contactDistance = 0.0073;
	def.speculativeDistance = 0.05;
	pdContactPair pair;
	pdContactPair_Reset( &pair );
	pdContactManifoldSet set;
	pdTransform before = poseB; // the step before: 4.4 cm further apart, a pair closing in
	before.p.y += 0.044;
	ASSERT_GE( pdContactPair_Generate( &pair, sphere.mesh, &poseA, sphere.mesh, &before, &def, ws.ws, &set ), 0 );
	pdContactPair_SetRigidMotion( &pair, pdVec3{ 0.0023213, 0.0435195, 0.000647079 },
								  pdVec3{ -0.00480843, -0.000461965, 0.0176419 }, poseA.p );
	ASSERT_GE( pdContactPair_Generate( &pair, sphere.mesh, &poseA, sphere.mesh, &poseB, &def, ws.ws, &set ), 0 );
	EXPECT_EQ( set.state, PD_STATE_SEPARATED );
	double nearest = 1e30;
	for ( int i = 0; i < set.manifoldCount; ++i )
		for ( int k = 0; k < set.manifolds[i].pointCount; ++k )
			nearest = std::min( nearest, set.manifolds[i].points[k].distance );
	std::printf( "poles 7 mm apart: exact gap %.2f mm, nearest contact point %.2f mm\n", 1e3 * exact.distance,
				 1e3 * nearest );
	ASSERT_LT( nearest, 1e29 ) << "a closing pair within the reach has a contact";
	EXPECT_LE( nearest, exact.distance + 1e-5 ) << "no point reads more gap than the surfaces have";
	EXPECT_GE( nearest, exact.distance - 1e-3 ) << "nor much less";
}
