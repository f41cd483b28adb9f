// SPDX-License-Identifier: MIT
// PdBulletWarmStart: a contact region keeps its normal impulse from one frame to the next when
// its points move. Bullet warm-starts a point from the cached point it matches within the
// breaking threshold; the points of a wide contact (a plate rocking on a floor, a washer on a
// washer) jump between far vertices as it rocks, and a region restarted from zero every frame
// lets a stack sink into itself under the solver's few iterations.
// Oracles: the impulses written into Bullet's manifolds, and the poses of a resting stack.
#include "bullet_test_world.h"

#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletDynamicsCommon.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>

namespace
{

using polydepth::test::World;

// A 0.6 x 0.02 x 0.6 m plate (GImpact, 12 triangles) over a 10 m static mesh floor.
struct PlateAndFloor : polydepth::test::BodyOnFloor
{
	PlateAndFloor()
	{
		polydepth::test::makeBoxMesh( bodyData, btVector3( 0.3f, 0.01f, 0.3f ) );
		build();
	}
};

// Puts the plate tilted by deg about x with its lowest edge `lowest` above the floor (negative:
// into it) and runs the collision pass alone.
void placeAndCollide( World& w, btRigidBody* plate, double deg, double lowest )
{
	double angle = deg * M_PI / 180.0;
	double halfDrop = 0.3 * std::fabs( std::sin( angle ) ) + 0.01 * std::cos( angle );
	btTransform t( btQuaternion( btVector3( 1, 0, 0 ), (btScalar)angle ),
				   btVector3( 0, (btScalar)( halfDrop + lowest ), 0 ) );
	plate->setWorldTransform( t );
	w.world->updateAabbs();
	w.world->performDiscreteCollisionDetection();
}

struct ManifoldTotals
{
	double impulse = 0.0;
	int points = 0;
	double meanZ = 0.0; // where the points are along the tilt
};

ManifoldTotals totals( World& w )
{
	ManifoldTotals r;
	for ( int m = 0; m < w.dispatcher.getNumManifolds(); ++m )
	{
		btPersistentManifold* manifold = w.dispatcher.getManifoldByIndexInternal( m );
		for ( int k = 0; k < manifold->getNumContacts(); ++k )
		{
			const btManifoldPoint& p = manifold->getContactPoint( k );
			r.impulse += p.m_appliedImpulse;
			r.meanZ += p.getPositionWorldOnB().z();
			r.points += 1;
		}
	}
	r.meanZ /= std::max( r.points, 1 );
	return r;
}

// Gives every point the impulse a solve would have left there.
void setImpulses( World& w, btScalar each )
{
	for ( int m = 0; m < w.dispatcher.getNumManifolds(); ++m )
	{
		btPersistentManifold* manifold = w.dispatcher.getManifoldByIndexInternal( m );
		for ( int k = 0; k < manifold->getNumContacts(); ++k )
			manifold->getContactPoint( k ).m_appliedImpulse = each;
	}
}

// The plate resting 0.5 mm into the floor on its +z edge, every point given 0.05 N s as a solve
// would leave there, then rocked onto its -z edge (0.6 m away, far beyond the breaking
// threshold) with that edge `lowestAfter` above the floor: the manifolds before and after.
struct Rock
{
	ManifoldTotals before, after;
};

Rock rockPlate( double lowestAfter )
{
	PlateAndFloor s;
	World w;
	w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
	btRigidBody* plate = w.add( s.body.get(), 1, btVector3( 0, 1, 0 ) );
	placeAndCollide( w, plate, 0.5, -0.0005 );
	setImpulses( w, 0.05f );
	Rock r;
	r.before = totals( w );
	placeAndCollide( w, plate, -0.5, lowestAfter );
	r.after = totals( w );
	return r;
}

} // namespace

TEST( PdBulletWarmStart, RegionWhosePointsMoveKeepsItsImpulse )
{
	// The new points match none of the old, and carry the old points' impulse.
	Rock r = rockPlate( -0.0005 );
	std::printf( "before: %d points at mean z %.3f, impulse %.4f; after: %d points at mean z %.3f, impulse %.4f\n",
				 r.before.points, r.before.meanZ, r.before.impulse, r.after.points, r.after.meanZ, r.after.impulse );
	ASSERT_GE( r.before.points, 2 );
	ASSERT_GE( r.after.points, 2 );
	EXPECT_LT( r.before.meanZ * r.after.meanZ, 0.0 ) << "the points moved to the other edge";
	EXPECT_NEAR( r.after.impulse, r.before.impulse, 1e-4 * r.before.impulse );
}

TEST( PdBulletWarmStart, PointsOutOfContactStartFromZero )
{
	// The same rock, but the plate lifted 2 mm off the floor: speculative points push nothing,
	// and a carried impulse would.
	Rock r = rockPlate( 0.002 );
	EXPECT_GT( r.before.impulse, 0.0 );
	EXPECT_EQ( r.after.impulse, 0.0 ) << r.after.points << " points";
}
