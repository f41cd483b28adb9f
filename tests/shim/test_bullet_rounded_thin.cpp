// SPDX-License-Identifier: MIT
// PdBulletRoundedThin: spheres and capsules on thin walls held as dynamic GImpact bodies (a
// 2 cm slab 1.2 m across lying on a static plane, as a bowl's floor lies in its trough). The
// rounded query must answer from the near face only: the far face of the wall, seen through the
// solid, is no contact, and as one it held a sphere a whole thickness deep. Oracles: the
// analytic rest height (centre one radius over the top face) and the top face itself (no centre
// ever below it). Speeds of 3 to 6 m/s are a step's travel of 5 to 10 cm, past the slab's
// thickness.
#include "bullet_test_world.h"

#include "polydepth/polydepth.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

namespace
{

using polydepth::test::BtMesh;
using polydepth::test::makeBoxMesh;

constexpr double kThickness = 0.02;
constexpr double kHalfWidth = 0.6;

// The height of the body's centre over the slab's top face, lowest over the run and at the end.
struct ThinRun
{
	double lowest = 1e9;
	double final = 0;
	double slabMoved = 0;
};

// A rounded shape dropped with downward speed onto a dynamic slab (mass 3) lying on a static
// plane at y = 0, stepped for seconds at 60 Hz.
ThinRun dropOnSlab( btCollisionShape* shape, double startHeight, double speed, double seconds = 1.5 )
{
	BtMesh slabData;
	makeBoxMesh( slabData, btVector3( (btScalar)kHalfWidth, (btScalar)( 0.5 * kThickness ), (btScalar)kHalfWidth ) );
	btGImpactMeshShape slab( slabData.array.get() );
	slab.updateBound();
	btStaticPlaneShape ground( btVector3( 0, 1, 0 ), 0 );

	polydepth::test::World w;
	w.add( &ground, 0, btVector3( 0, 0, 0 ) );
	btRigidBody* plate = w.add( &slab, 3, btVector3( 0, (btScalar)( 0.5 * kThickness ), 0 ) );
	btRigidBody* body = w.add( shape, 1, btVector3( 0.1f, (btScalar)( kThickness + startHeight ), -0.05f ) );
	body->setLinearVelocity( btVector3( 0, (btScalar)-speed, 0 ) );
	body->setActivationState( DISABLE_DEACTIVATION );
	plate->setActivationState( DISABLE_DEACTIVATION );
	ThinRun out;
	int steps = (int)std::lround( seconds * 60 );
	for ( int step = 0; step < steps; ++step )
	{
		w.world->stepSimulation( 1.0f / 60.0f, 0, 1.0f / 60.0f );
		const btTransform& slabPose = plate->getWorldTransform();
		btVector3 up = quatRotate( slabPose.getRotation(), btVector3( 0, 1, 0 ) );
		btVector3 top = slabPose.getOrigin() + up * (btScalar)( 0.5 * kThickness );
		double height = (double)( body->getWorldTransform().getOrigin() - top ).dot( up );
		out.lowest = std::min( out.lowest, height );
		out.final = height;
		out.slabMoved = std::max( out.slabMoved, (double)( slabPose.getOrigin().y() - 0.5 * kThickness ) );
	}
	return out;
}

} // namespace

TEST( PdBulletRoundedThin, SphereLetGoOverAThinDynamicSlabRestsOnTop )
{
	// Let go 4 mm and 12 cm over the top: the second lands at 1.5 m/s, a step's travel more
	// than the slab is thick, so its contacts reach the far face.
	const double r = 0.1;
	btSphereShape ball( (btScalar)r );
	for ( double gap : { 0.004, 0.12 } )
	{
		ThinRun run = dropOnSlab( &ball, r + gap, 0.0, 2.0 );
		EXPECT_GT( run.lowest, r - 0.003 ) << "gap " << gap << ": sank into the slab";
		EXPECT_NEAR( run.final, r, 0.002 ) << "gap " << gap << ": resting on the top face";
		EXPECT_LT( run.slabMoved, 0.002 ) << "the slab stays on the plane";
	}
}

TEST( PdBulletRoundedThin, SphereLandingAtSpeedOnAThinSlabDoesNotPassThrough )
{
	const double r = 0.1;
	btSphereShape ball( (btScalar)r );
	for ( double speed : { 3.0, 4.0, 5.0, 6.0 } )
	{
		// From just above, so that the first contact comes within the step of landing.
		ThinRun run = dropOnSlab( &ball, r + 0.03, speed );
		EXPECT_GT( run.lowest, 0.0 ) << "speed " << speed << ": the centre went under the top face";
		EXPECT_GT( run.lowest, r - 0.5 * kThickness ) << "speed " << speed;
		EXPECT_NEAR( run.final, r, 0.002 ) << "speed " << speed << ": resting on the top face";
	}
}

TEST( PdBulletRoundedThin, CapsuleLandingFlatOnAThinSlabRestsOnTop )
{
	const double r = 0.07;
	btCapsuleShapeX capsule( (btScalar)r, 0.3f );
	for ( double speed : { 0.0, 3.0, 6.0 } )
	{
		ThinRun run = dropOnSlab( &capsule, r + 0.03, speed );
		EXPECT_GT( run.lowest, r - 0.5 * kThickness ) << "speed " << speed;
		EXPECT_NEAR( run.final, r, 0.002 ) << "speed " << speed << ": lying on the top face";
	}
}
