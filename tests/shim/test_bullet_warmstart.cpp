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

using polydepth::test::BtMesh;
using polydepth::test::World;

// A 0.6 x 0.02 x 0.6 m plate (GImpact) over a 10 m static mesh floor.
struct PlateAndFloor
{
	BtMesh plateData, floorData;
	std::unique_ptr<btGImpactMeshShape> plate;
	std::unique_ptr<btBvhTriangleMeshShape> floor;

	PlateAndFloor()
	{
		polydepth::test::makeBoxMesh( plateData, btVector3( 0.3f, 0.01f, 0.3f ) );
		plate = std::make_unique<btGImpactMeshShape>( plateData.array.get() );
		plate->updateBound();
		polydepth::test::makeFloor( floorData, 5.0, 4 );
		floor = std::make_unique<btBvhTriangleMeshShape>( floorData.array.get(), true );
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

} // namespace

TEST( PdBulletWarmStart, RegionWhosePointsMoveKeepsItsImpulse )
{
	// The plate rocks from its -z edge to its +z edge (0.6 m apart, far beyond the breaking
	// threshold): the new points match none of the old, and carry the old points' impulse.
	PlateAndFloor s;
	World w;
	w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
	btRigidBody* plate = w.add( s.plate.get(), 1, btVector3( 0, 1, 0 ) );
	placeAndCollide( w, plate, 0.5, -0.0005 );
	ManifoldTotals before = totals( w );
	ASSERT_GE( before.points, 2 );
	setImpulses( w, 0.05f );
	before = totals( w );
	placeAndCollide( w, plate, -0.5, -0.0005 );
	ManifoldTotals after = totals( w );
	std::printf( "before: %d points at mean z %.3f, impulse %.4f; after: %d points at mean z %.3f, impulse %.4f\n",
				 before.points, before.meanZ, before.impulse, after.points, after.meanZ, after.impulse );
	ASSERT_GE( after.points, 2 );
	EXPECT_LT( before.meanZ * after.meanZ, 0.0 ) << "the points moved to the other edge";
	EXPECT_NEAR( after.impulse, before.impulse, 1e-4 * before.impulse );
}

TEST( PdBulletWarmStart, PointsOutOfContactStartFromZero )
{
	// The same rock, but the plate lifted 2 mm off the floor: speculative points push nothing,
	// and a carried impulse would.
	PlateAndFloor s;
	World w;
	w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
	btRigidBody* plate = w.add( s.plate.get(), 1, btVector3( 0, 1, 0 ) );
	placeAndCollide( w, plate, 0.5, -0.0005 );
	setImpulses( w, 0.05f );
	placeAndCollide( w, plate, -0.5, 0.002 );
	ManifoldTotals after = totals( w );
	EXPECT_EQ( after.impulse, 0.0 ) << after.points << " points";
}
