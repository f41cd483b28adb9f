// SPDX-License-Identifier: MIT
// PdBulletAnchors: friction anchors at resting contacts (pdBulletDef.frictionAnchors). Bullet's
// solver takes one friction direction per point from the relative velocity, so a stack resting
// on slightly tilted contact normals creeps sideways; an anchored point stays where it was on
// both bodies while static friction holds, and the solver pulls the surfaces back together.
// Oracles: the bodies' own poses and the flags Bullet's manifolds carry.
#include "bullet_test_world.h"

#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletDynamicsCommon.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

namespace
{

using polydepth::test::World;

// A 0.5 m cube (48 triangles) as a GImpact mesh and a 10 m static mesh floor.
struct CubeAndFloor : polydepth::test::BodyOnFloor
{
	CubeAndFloor()
	{
		smpSoup soup{};
		EXPECT_TRUE( smpMakeBox( pdVec3{ 0.25, 0.25, 0.25 }, 2, &soup ) );
		for ( int i = 0; i < 3 * soup.vertexCount; ++i )
			bodyData.vertices.push_back( (btScalar)soup.vertices[i] );
		for ( int i = 0; i < 3 * soup.triangleCount; ++i )
			bodyData.indices.push_back( (int)soup.indices[i] );
		smpFreeSoup( &soup );
		bodyData.finish();
		build();
	}
};

// Four cubes stacked 1 mm apart, each turned about y and moved sideways a little (fixed
// offsets, the kind of jitter a user's stack has); returns the top cube.
btRigidBody* buildStack( World& w, const CubeAndFloor& s )
{
	const double yawDeg[4] = { 1.3, -1.7, 0.6, -1.1 };
	const double dx[4] = { 0.0012, -0.0015, 0.0008, 0.0017 }, dz[4] = { -0.0009, 0.0013, -0.0016, 0.0004 };
	w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
	btRigidBody* top = nullptr;
	for ( int i = 0; i < 4; ++i )
	{
		top = w.add( s.body.get(), 1, btVector3( (btScalar)dx[i], (btScalar)( 0.251 + 0.501 * i ), (btScalar)dz[i] ) );
		btTransform t = top->getWorldTransform();
		t.setRotation( btQuaternion( btVector3( 0, 1, 0 ), (btScalar)( yawDeg[i] * M_PI / 180.0 ) ) );
		top->setWorldTransform( t );
		top->getMotionState()->setWorldTransform( t );
		top->setActivationState( DISABLE_DEACTIVATION );
	}
	return top;
}

// The top cube's horizontal drift over steps, and how many manifold points carried the anchor
// flag at the end.
struct StackRun
{
	double drift = 0.0;
	int anchoredPoints = 0;
	int points = 0;
};

StackRun runStack( const pdBulletDef* def, int steps )
{
	CubeAndFloor s;
	World w( def );
	btRigidBody* top = buildStack( w, s );
	btVector3 start = top->getWorldTransform().getOrigin();
	for ( int i = 0; i < steps; ++i )
	{
		w.world->stepSimulation( 1.0f / 60.0f, 1, 1.0f / 60.0f );
	}
	btVector3 d = top->getWorldTransform().getOrigin() - start;
	StackRun r;
	r.drift = std::hypot( (double)d.x(), (double)d.z() );
	for ( int m = 0; m < w.dispatcher.getNumManifolds(); ++m )
	{
		btPersistentManifold* manifold = w.dispatcher.getManifoldByIndexInternal( m );
		for ( int k = 0; k < manifold->getNumContacts(); ++k )
		{
			r.points += 1;
			r.anchoredPoints +=
				( manifold->getContactPoint( k ).m_contactPointFlags & BT_CONTACT_FLAG_FRICTION_ANCHOR ) ? 1 : 0;
		}
	}
	return r;
}

} // namespace

TEST( PdBulletAnchors, DefaultsAnchorTheRestingPoints )
{
	EXPECT_TRUE( pdDefaultBulletDef().frictionAnchors );
	StackRun anchored = runStack( nullptr, 240 );
	pdBulletDef off = pdDefaultBulletDef();
	off.frictionAnchors = false;
	StackRun plain = runStack( &off, 240 );
	std::printf( "stack after 4 s: top drift %.2f mm anchored (%d of %d points), %.2f mm without anchors\n",
				 1e3 * anchored.drift, anchored.anchoredPoints, anchored.points, 1e3 * plain.drift );
	EXPECT_GE( anchored.anchoredPoints, 12 ) << "three resting cube pairs and the floor keep anchored points";
	EXPECT_EQ( plain.anchoredPoints, 0 ) << "frictionAnchors = false writes no anchor";
}

TEST( PdBulletAnchors, AnchoredStackStaysWhereItWasBuilt )
{
	// 15 s at rest: the top of the stack moves less than 1% of a cube's size.
	StackRun anchored = runStack( nullptr, 900 );
	std::printf( "stack after 15 s: top drift %.2f mm\n", 1e3 * anchored.drift );
	EXPECT_LT( anchored.drift, 0.005 );
}

TEST( PdBulletAnchors, BodiesWithBulletsAnchorFlagKeepTheirAnchors )
{
	// A user's CF_HAS_FRICTION_ANCHOR makes Bullet keep a matched anchor in place of the new
	// point; the shim must not then drop it as stale. A cube resting on the floor keeps its
	// points from step to step (their lifetimes grow) with the plugin's anchors off.
	CubeAndFloor s;
	pdBulletDef def = pdDefaultBulletDef();
	def.frictionAnchors = false;
	World w( &def );
	w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
	btRigidBody* cube = w.add( s.body.get(), 1, btVector3( 0, 0.251f, 0 ) );
	cube->setCollisionFlags( cube->getCollisionFlags() | btCollisionObject::CF_HAS_FRICTION_ANCHOR );
	cube->setActivationState( DISABLE_DEACTIVATION );
	for ( int i = 0; i < 120; ++i )
	{
		w.world->stepSimulation( 1.0f / 60.0f, 1, 1.0f / 60.0f );
	}
	int points = 0, oldest = 0;
	for ( int m = 0; m < w.dispatcher.getNumManifolds(); ++m )
	{
		btPersistentManifold* manifold = w.dispatcher.getManifoldByIndexInternal( m );
		for ( int k = 0; k < manifold->getNumContacts(); ++k )
		{
			points += 1;
			oldest = std::max( oldest, manifold->getContactPoint( k ).getLifeTime() );
		}
	}
	EXPECT_GE( points, 3 ) << "the resting cube keeps a supporting manifold";
	EXPECT_GT( oldest, 30 ) << "anchored points persist instead of being replaced every step";
	EXPECT_LT( std::fabs( (double)cube->getWorldTransform().getOrigin().x() ), 1e-3 );
}
