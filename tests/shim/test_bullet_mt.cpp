// SPDX-License-Identifier: MIT
// PdBulletMt: the shim in Bullet's multithreaded world (btDiscreteDynamicsWorldMt with
// btCollisionDispatcherMt), registered as into the plain dispatcher. Debian's Bullet 3.24 is
// built without BT_THREADSAFE: btCreateDefaultTaskScheduler() returns NULL and only the
// sequential scheduler exists, so its Mt world runs the pairs one after another; a Bullet built
// with BT_THREADSAFE gets its default scheduler on 2 and 4 threads here.
#include "bullet_test_world.h"

#include <BulletCollision/CollisionDispatch/btCollisionDispatcherMt.h>
#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorldMt.h>
#include <LinearMath/btThreads.h>
#include <btBulletDynamicsCommon.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

namespace
{

// Tori dropped in a column onto a static mesh floor and onto each other (PolyDepth pairs),
// and a plain box body among them (GImpact and Bullet's own pairs), stepped in an Mt world.
struct MtWorld
{
	btDefaultCollisionConfiguration config;
	btCollisionDispatcherMt dispatcher{ &config };
	btDbvtBroadphase broadphase;
	btConstraintSolverPoolMt solverPool{ 2 };
	std::unique_ptr<btDiscreteDynamicsWorldMt> world;
	std::vector<std::unique_ptr<btRigidBody>> bodies;
	std::vector<std::unique_ptr<btDefaultMotionState>> states;

	MtWorld()
	{
		btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
		EXPECT_EQ( polydepth::bullet::registerAlgorithm( &dispatcher, nullptr ), PD_STATUS_OK );
		world = std::make_unique<btDiscreteDynamicsWorldMt>( &dispatcher, &broadphase, &solverPool, nullptr, &config );
		world->setGravity( btVector3( 0, -9.81f, 0 ) );
	}
	~MtWorld()
	{
		for ( auto& b : bodies )
			world->removeRigidBody( b.get() );
		bodies.clear();
		world.reset();
		polydepth::bullet::unregisterAlgorithm( &dispatcher );
	}
	btRigidBody* add( btCollisionShape* shape, btScalar mass, const btVector3& position )
	{
		return polydepth::test::addOwnedBody( world.get(), bodies, states, shape, mass, position );
	}
};

struct Outcome
{
	std::vector<btVector3> positions;
	uint64_t pairsProcessed = 0;
	bool finite = true;
	double lowestCentre = 1e30;
};

Outcome runColumn( int tori, int steps )
{
	polydepth::test::TorusAndFloor shapes( 24, 8, 2.0, 8 );
	btBoxShape box( btVector3( 0.2f, 0.2f, 0.2f ) );
	MtWorld w;
	w.add( shapes.floor.get(), 0, btVector3( 0, 0, 0 ) );
	std::vector<btRigidBody*> dynamic;
	for ( int i = 0; i < tori; ++i )
		dynamic.push_back( w.add( shapes.torus.get(), 1, btVector3( 0.05f * ( i % 2 ), 0.4f + 0.45f * i, 0 ) ) );
	dynamic.push_back( w.add( &box, 1, btVector3( 1.2f, 0.5f, 0 ) ) );
	for ( btRigidBody* b : dynamic )
		b->setActivationState( DISABLE_DEACTIVATION );
	for ( int s = 0; s < steps; ++s )
		w.world->stepSimulation( 1.0f / 60.0f, 0, 1.0f / 60.0f );
	Outcome out;
	for ( btRigidBody* b : dynamic )
	{
		btVector3 p = b->getWorldTransform().getOrigin();
		out.positions.push_back( p );
		out.finite = out.finite && std::isfinite( p.x() ) && std::isfinite( p.y() ) && std::isfinite( p.z() );
		out.lowestCentre = std::fmin( out.lowestCentre, (double)p.y() );
	}
	pdBulletStats stats;
	EXPECT_EQ( pdBullet_GetStats( &w.dispatcher, &stats ), PD_STATUS_OK );
	out.pairsProcessed = stats.pairsProcessed;
	return out;
}

} // namespace

TEST( PdBulletMt, MultithreadedWorldStepsPolyDepthAndGImpactPairs )
{
	// The same column in the Mt world on every scheduler this Bullet has: the tori land and
	// stay above the floor, every number finite, the PolyDepth algorithm handled the pairs, and
	// the sequential runs repeat exactly.
	btITaskScheduler* threaded = btCreateDefaultTaskScheduler();
	std::printf( "Bullet's default task scheduler: %s (BT_THREADSAFE %s)\n",
				 threaded != nullptr ? threaded->getName() : "none", threaded != nullptr ? "on" : "off" );
	std::vector<std::pair<btITaskScheduler*, int>> schedulers = { { btGetSequentialTaskScheduler(), 1 } };
	if ( threaded != nullptr )
	{
		schedulers.push_back( { threaded, 2 } );
		schedulers.push_back( { threaded, 4 } );
	}
	std::vector<Outcome> outcomes;
	for ( auto& [scheduler, threads] : schedulers )
	{
		scheduler->setNumThreads( std::min( threads, scheduler->getMaxNumThreads() ) );
		btSetTaskScheduler( scheduler );
		outcomes.push_back( runColumn( 4, 180 ) );
		const Outcome& o = outcomes.back();
		SCOPED_TRACE( std::string( scheduler->getName() ) + " on " + std::to_string( threads ) + " threads" );
		EXPECT_TRUE( o.finite );
		EXPECT_GT( o.pairsProcessed, 100u );
		EXPECT_GT( o.lowestCentre, 0.0 ) << "no body fell through the floor";
	}
	btSetTaskScheduler( btGetSequentialTaskScheduler() );
	Outcome again = runColumn( 4, 180 );
	for ( size_t i = 0; i < again.positions.size(); ++i )
		EXPECT_EQ( again.positions[i], outcomes[0].positions[i] ) << "body " << i << ": the sequential run repeats";
	btSetTaskScheduler( nullptr );
	delete threaded;
}
