// SPDX-License-Identifier: MIT
// PdBulletMt: the shim in Bullet's multithreaded world (btDiscreteDynamicsWorldMt with
// btCollisionDispatcherMt), registered as into the plain dispatcher. Debian's Bullet 3.24 is
// built without BT_THREADSAFE: btCreateDefaultTaskScheduler() returns NULL and only the
// sequential scheduler exists, so its Mt world runs the pairs one after another; a Bullet built
// with BT_THREADSAFE gets its default scheduler on 2 and 4 threads here. The pairs do run on
// several threads at once through polydepth::bullet::ParallelCollisionDispatcher (in the Mt
// world and alone: the shim's per-pair state and its shape-to-mesh cache, a shape's first use
// included); scripts/tsan runs this suite under ThreadSanitizer.
#include "bullet_test_world.h"

#include "polydepth/bullet_parallel.h"

#include <BulletCollision/CollisionDispatch/btCollisionDispatcherMt.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorldMt.h>
#include <LinearMath/btThreads.h>
#include <btBulletDynamicsCommon.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>
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
	~MtWorld() { polydepth::test::tearDownOwnedWorld( world, bodies, &dispatcher ); }
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

namespace
{

using polydepth::bullet::ParallelCollisionDispatcher;

// Four columns on a mesh floor, each a torus resting on the floor, a torus above it and a ball
// above that, over the tube. The tori share one GImpact shape and start in touch with the
// floor, so the first step meets the torus and floor shapes in four pairs at once. With the
// PolyDepth algorithm registered (spheres left on GImpact by pdBulletDef.gimpactClasses),
// torus-floor and torus-torus are PolyDepth pairs and sphere-torus pairs are GImpact's; without
// it every torus pair is GImpact's. Spheres on the floor are Bullet's convex-concave pairs.
struct ColumnsRun
{
	std::vector<btTransform> poses;
	bool finite = true;
	double lowestCentre = 1e30;
	pdBulletStats stats{};
	long parallelPairs = 0, serialPairs = 0;
	int mostThreadsInAStep = 0;
};

ColumnsRun runColumns( int threads, bool polydepth, int steps )
{
	polydepth::test::TorusAndFloor shapes( 24, 8, 2.5, 10 );
	btSphereShape ball( 0.15f );
	btDefaultCollisionConfiguration config;
	std::unique_ptr<btCollisionDispatcher> dispatcher;
	if ( threads > 0 )
		dispatcher = std::make_unique<ParallelCollisionDispatcher>( &config, threads );
	else
		dispatcher = std::make_unique<btCollisionDispatcher>( &config );
	btGImpactCollisionAlgorithm::registerAlgorithm( dispatcher.get() );
	// The balls stay on GImpact, so both lanes of the parallel dispatcher have pairs.
	pdBulletDef def = pdDefaultBulletDef();
	def.gimpactClasses = PD_BULLET_SPHERE;
	if ( polydepth )
		EXPECT_EQ( polydepth::bullet::registerAlgorithm( dispatcher.get(), &def ), PD_STATUS_OK );
	btDbvtBroadphase broadphase;
	btConstraintSolverPoolMt solverPool( 2 );
	btDiscreteDynamicsWorldMt world( dispatcher.get(), &broadphase, &solverPool, nullptr, &config );
	world.setGravity( btVector3( 0, -9.81f, 0 ) );
	std::vector<std::unique_ptr<btRigidBody>> bodies;
	std::vector<std::unique_ptr<btDefaultMotionState>> states;
	auto add = [&]( btCollisionShape* shape, btScalar mass, const btVector3& p )
	{ return polydepth::test::addOwnedBody( &world, bodies, states, shape, mass, p ); };
	add( shapes.floor.get(), 0, btVector3( 0, 0, 0 ) );
	std::vector<btRigidBody*> dynamic;
	const float corner[4][2] = { { -1.2f, -1.2f }, { 1.2f, -1.2f }, { -1.2f, 1.2f }, { 1.2f, 1.2f } };
	for ( const auto& c : corner )
	{
		dynamic.push_back( add( shapes.torus.get(), 1, btVector3( c[0], 0.148f, c[1] ) ) );
		dynamic.push_back( add( shapes.torus.get(), 1, btVector3( c[0] + 0.05f, 0.55f, c[1] ) ) );
		dynamic.push_back( add( &ball, 1, btVector3( c[0] + 0.5f, 1.0f, c[1] ) ) );
	}
	for ( btRigidBody* b : dynamic )
		b->setActivationState( DISABLE_DEACTIVATION );

	btSetTaskScheduler( btGetSequentialTaskScheduler() );
	ColumnsRun out;
	auto* parallel = dynamic_cast<ParallelCollisionDispatcher*>( dispatcher.get() );
	for ( int s = 0; s < steps; ++s )
	{
		world.stepSimulation( 1.0f / 60.0f, 0, 1.0f / 60.0f );
		if ( parallel != nullptr )
		{
			polydepth::bullet::ParallelDispatchCounts counts = parallel->getLastDispatchCounts();
			out.parallelPairs += counts.parallelPairs;
			out.serialPairs += counts.serialPairs;
			out.mostThreadsInAStep = std::max( out.mostThreadsInAStep, counts.threadsUsed );
		}
	}
	for ( btRigidBody* b : dynamic )
	{
		const btTransform& t = b->getWorldTransform();
		out.poses.push_back( t );
		for ( int k = 0; k < 3; ++k )
			out.finite = out.finite && std::isfinite( t.getOrigin()[k] ) && std::isfinite( t.getRotation()[k] );
		out.lowestCentre = std::fmin( out.lowestCentre, (double)t.getOrigin().y() );
	}
	if ( polydepth )
		EXPECT_EQ( pdBullet_GetStats( dispatcher.get(), &out.stats ), PD_STATUS_OK );
	for ( auto& b : bodies )
		world.removeRigidBody( b.get() );
	if ( polydepth )
		polydepth::bullet::unregisterAlgorithm( dispatcher.get() );
	return out;
}

bool samePose( const btTransform& a, const btTransform& b )
{
	return std::memcmp( &a, &b, sizeof( btTransform ) ) == 0;
}

} // namespace

TEST( PdBulletMt, ParallelDispatcherRunsPairsOnSeveralThreadsWithTheSerialOutcome )
{
	// The columns with the narrow phase on 1, 2 and 4 threads, PolyDepth registered and GImpact
	// alone. Asserted for each: every number finite, no body through the floor, pairs on both
	// lanes (PolyDepth and convex pairs spread over the threads, GImpact's on one), more than one
	// thread at work in some step, the torus and floor meshes built once each although four
	// pairs met them first in the same step; and every body's final pose bit for bit that of the
	// 1-thread run (the manifolds are put in pair order, so the solver sees the same contacts in
	// the same order). Against a plain btCollisionDispatcher, whose manifold order differs and
	// so the solver's, each body ends in the same layer (height within 0.1 m; the layers are
	// 0.3 m apart; under GImpact alone the two differ by up to 6 cm).
	const int steps = 90;
	for ( bool polydepth : { true, false } )
	{
		SCOPED_TRACE( polydepth ? "PolyDepth registered" : "GImpact alone" );
		ColumnsRun plain = runColumns( 0, polydepth, steps );
		std::vector<ColumnsRun> runs;
		for ( int threads : { 1, 2, 4 } )
		{
			SCOPED_TRACE( std::to_string( threads ) + " threads" );
			runs.push_back( runColumns( threads, polydepth, steps ) );
			const ColumnsRun& r = runs.back();
			EXPECT_TRUE( r.finite );
			EXPECT_GT( r.lowestCentre, 0.1 ) << "no body fell through the floor";
			EXPECT_GT( r.serialPairs, 0 ) << "GImpact's pairs";
			EXPECT_GT( r.parallelPairs, 0 );
			if ( threads > 1 )
				EXPECT_GE( r.mostThreadsInAStep, 2 ) << "the pairs ran on more than one thread";
			if ( polydepth )
			{
				EXPECT_EQ( r.stats.meshBuilds, 2u ) << "the torus and the floor, each built once";
				EXPECT_GT( r.stats.pairsProcessed, (uint64_t)( 8 * steps ) )
					<< "4 torus-floor pairs every step, then torus-torus";
				EXPECT_GT( r.stats.contactsWritten, 0u );
			}
			for ( size_t b = 0; b < r.poses.size(); ++b )
			{
				EXPECT_TRUE( samePose( r.poses[b], runs[0].poses[b] ) ) << "body " << b << ": as on 1 thread";
				EXPECT_NEAR( r.poses[b].getOrigin().y(), plain.poses[b].getOrigin().y(), 0.1 )
					<< "body " << b << ": in the layer where the plain dispatcher puts it";
			}
		}
	}
}

namespace
{

// A thread-safe rendezvous: every caller of arrive() returns once all `count` have arrived.
class StartLine
{
  public:
	explicit StartLine( int count ) : m_waiting( count ) {}
	void arrive()
	{
		m_waiting.fetch_sub( 1 );
		while ( m_waiting.load() > 0 )
			std::this_thread::yield();
	}

  private:
	std::atomic<int> m_waiting;
};

} // namespace

TEST( PdBulletMt, FirstUseOfAShapeOnSeveralThreadsAtOnce )
{
	// Each round makes a new torus shape and a new floor shape the cache has never seen, gives
	// each of 4 threads its own pair of bodies with them (the same poses, the torus 2 mm
	// into the floor), and lets the threads call the registered algorithm's processCollision at
	// the same moment: each thread's first call is the shapes' first use. Asserted: each round
	// builds exactly two meshes (one per shape, whichever thread got there first), every thread
	// gets contacts, and all threads get the same contact points bit for bit.
	const int rounds = 12, threads = 4;
	btDefaultCollisionConfiguration config;
	ParallelCollisionDispatcher dispatcher( &config, 1 ); // its manifold pool is locked
	btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
	ASSERT_EQ( polydepth::bullet::registerAlgorithm( &dispatcher, nullptr ), PD_STATUS_OK );
	btDispatcherInfo info;
	info.m_timeStep = 1.0f / 60.0f;
	uint64_t builds = 0;
	for ( int round = 0; round < rounds; ++round )
	{
		SCOPED_TRACE( "round " + std::to_string( round ) );
		polydepth::test::TorusAndFloor shapes( 24 + 4 * round, 8, 1.0, 4 + round );
		std::vector<btCollisionObject> tori( threads ), floors( threads );
		std::vector<btCollisionAlgorithm*> algorithms( threads );
		for ( int t = 0; t < threads; ++t )
		{
			btTransform torusPose = btTransform::getIdentity();
			torusPose.setOrigin( btVector3( 0, 0.148f, 0 ) );
			btTransform floorPose = btTransform::getIdentity();
			tori[t].setCollisionShape( shapes.torus.get() );
			tori[t].setWorldTransform( torusPose );
			floors[t].setCollisionShape( shapes.floor.get() );
			floors[t].setWorldTransform( floorPose );
			btCollisionObjectWrapper w0( nullptr, shapes.torus.get(), &tori[t], torusPose, -1, -1 );
			btCollisionObjectWrapper w1( nullptr, shapes.floor.get(), &floors[t], floorPose, -1, -1 );
			algorithms[t] = dispatcher.findAlgorithm( &w0, &w1, nullptr, BT_CONTACT_POINT_ALGORITHMS );
			ASSERT_NE( algorithms[t], nullptr );
		}
		// Contact points on the floor, per thread (every thread's bodies are at the same poses).
		std::vector<std::vector<btVector3>> points( threads );
		StartLine start( threads );
		std::vector<std::thread> pool;
		for ( int t = 0; t < threads; ++t )
			pool.emplace_back(
				[&, t]
				{
					btCollisionObjectWrapper w0( nullptr, shapes.torus.get(), &tori[t], tori[t].getWorldTransform(), -1,
												 -1 );
					btCollisionObjectWrapper w1( nullptr, shapes.floor.get(), &floors[t], floors[t].getWorldTransform(),
												 -1, -1 );
					btManifoldResult result( &w0, &w1 );
					start.arrive();
					algorithms[t]->processCollision( &w0, &w1, info, &result );
					btManifoldArray manifolds;
					algorithms[t]->getAllContactManifolds( manifolds );
					for ( int m = 0; m < manifolds.size(); ++m )
						for ( int k = 0; k < manifolds[m]->getNumContacts(); ++k )
							points[t].push_back( manifolds[m]->getContactPoint( k ).getPositionWorldOnB() );
				} );
		for ( std::thread& th : pool )
			th.join();
		pdBulletStats stats;
		ASSERT_EQ( pdBullet_GetStats( &dispatcher, &stats ), PD_STATUS_OK );
		EXPECT_EQ( stats.meshBuilds - builds, 2u ) << "one build per new shape";
		builds = stats.meshBuilds;
		for ( int t = 0; t < threads; ++t )
		{
			EXPECT_FALSE( points[t].empty() ) << "thread " << t;
			ASSERT_EQ( points[t].size(), points[0].size() ) << "thread " << t;
			for ( size_t k = 0; k < points[t].size(); ++k )
				EXPECT_EQ( points[t][k], points[0][k] ) << "thread " << t << ", point " << k;
		}
		for ( btCollisionAlgorithm* a : algorithms )
		{
			a->~btCollisionAlgorithm();
			dispatcher.freeCollisionAlgorithm( a );
		}
	}
	polydepth::bullet::unregisterAlgorithm( &dispatcher );
}

TEST( PdBulletMt, FirstUseOfAHullAndATerrainOnSeveralThreadsAtOnce )
{
	// As above for the shapes met through the convex builder and the ground patch: each round a
	// new hull (a box's corners, its size set by the round) pressed 2 mm into the torus's crest,
	// and the torus 2 mm into a new terrain, on 4 threads at the same moment. Asserted: one hull
	// build per round (the torus built once for the whole test), every thread's contacts the
	// same bit for bit, and the terrain pairs' patches each their own (no shared state).
	const int rounds = 6, threads = 4;
	btDefaultCollisionConfiguration config;
	ParallelCollisionDispatcher dispatcher( &config, 1 );
	btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
	ASSERT_EQ( polydepth::bullet::registerAlgorithm( &dispatcher, nullptr ), PD_STATUS_OK );
	btDispatcherInfo info;
	info.m_timeStep = 1.0f / 60.0f;
	polydepth::test::TorusAndFloor shapes( 24, 8, 1.0, 4 );
	uint64_t builds = 0;
	for ( int round = 0; round < rounds; ++round )
	{
		SCOPED_TRACE( "round " + std::to_string( round ) );
		btScalar h = 0.1f + 0.01f * round;
		std::vector<btScalar> corners;
		for ( int i = 0; i < 8; ++i )
			corners.insert( corners.end(), { ( i & 1 ) ? h : -h, ( i & 2 ) ? h : -h, ( i & 4 ) ? h : -h } );
		btConvexHullShape hull( corners.data(), 8, 3 * sizeof( btScalar ) );
		std::vector<float> heights( 32 * 32, 0.01f * round );
		btHeightfieldTerrainShape terrain( 32, 32, heights.data(), -1.0f, 1.0f, 1, false );
		terrain.setLocalScaling( btVector3( 0.1f, 1, 0.1f ) );
		std::vector<btCollisionObject> hulls( threads ), tori( threads ), grounds( threads );
		std::vector<btCollisionAlgorithm*> onHull( threads ), onGround( threads );
		for ( int t = 0; t < threads; ++t )
		{
			hulls[t].setCollisionShape( &hull );
			hulls[t].getWorldTransform().setOrigin( btVector3( 0.5f, 0.15f + h - 0.002f, 0 ) );
			tori[t].setCollisionShape( shapes.torus.get() );
			tori[t].getWorldTransform().setOrigin( btVector3( 0, 0.148f + 0.01f * round, 0 ) );
			grounds[t].setCollisionShape( &terrain );
			grounds[t].setCollisionFlags( btCollisionObject::CF_STATIC_OBJECT );
			btCollisionObjectWrapper wh( nullptr, &hull, &hulls[t], hulls[t].getWorldTransform(), -1, -1 );
			btCollisionObjectWrapper wt( nullptr, shapes.torus.get(), &tori[t], tori[t].getWorldTransform(), -1, -1 );
			btCollisionObjectWrapper wg( nullptr, &terrain, &grounds[t], grounds[t].getWorldTransform(), -1, -1 );
			onHull[t] = dispatcher.findAlgorithm( &wh, &wt, nullptr, BT_CONTACT_POINT_ALGORITHMS );
			onGround[t] = dispatcher.findAlgorithm( &wg, &wt, nullptr, BT_CONTACT_POINT_ALGORITHMS );
		}
		std::vector<std::vector<btScalar>> depths( threads );
		StartLine start( threads );
		std::vector<std::thread> pool;
		for ( int t = 0; t < threads; ++t )
			pool.emplace_back(
				[&, t]
				{
					btCollisionObjectWrapper wh( nullptr, &hull, &hulls[t], hulls[t].getWorldTransform(), -1, -1 );
					btCollisionObjectWrapper wt( nullptr, shapes.torus.get(), &tori[t], tori[t].getWorldTransform(), -1,
												 -1 );
					btCollisionObjectWrapper wg( nullptr, &terrain, &grounds[t], grounds[t].getWorldTransform(), -1,
												 -1 );
					btManifoldResult r1( &wh, &wt ), r2( &wg, &wt );
					start.arrive();
					onHull[t]->processCollision( &wh, &wt, info, &r1 );
					onGround[t]->processCollision( &wg, &wt, info, &r2 );
					for ( btCollisionAlgorithm* a : { onHull[t], onGround[t] } )
					{
						btManifoldArray manifolds;
						a->getAllContactManifolds( manifolds );
						for ( int m = 0; m < manifolds.size(); ++m )
							for ( int k = 0; k < manifolds[m]->getNumContacts(); ++k )
								depths[t].push_back( manifolds[m]->getContactPoint( k ).getDistance() );
					}
				} );
		for ( std::thread& th : pool )
			th.join();
		pdBulletStats stats;
		ASSERT_EQ( pdBullet_GetStats( &dispatcher, &stats ), PD_STATUS_OK );
		EXPECT_EQ( stats.meshBuilds - builds, round == 0 ? 2u : 1u ) << "one build per new hull";
		builds = stats.meshBuilds;
		for ( int t = 0; t < threads; ++t )
		{
			EXPECT_FALSE( depths[t].empty() ) << "thread " << t;
			EXPECT_EQ( depths[t], depths[0] ) << "thread " << t;
		}
		for ( int t = 0; t < threads; ++t )
			for ( btCollisionAlgorithm* a : { onHull[t], onGround[t] } )
			{
				a->~btCollisionAlgorithm();
				dispatcher.freeCollisionAlgorithm( a );
			}
	}
	polydepth::bullet::unregisterAlgorithm( &dispatcher );
}

TEST( PdBulletMt, CompoundPairsWhoseChildrenAreClaimedRunInParallel )
{
	// Compounds of two cubes dropped onto a static GImpact slab, on a 2-thread dispatcher. With
	// boxes claimed, every compound-slab pair is PolyDepth's child by child and runs on the
	// worker threads, ending bit for bit as on 1 thread; with boxes left on GImpact the same
	// pairs reach GImpact's algorithm and stay on the serial lane.
	polydepth::test::BtMesh slabData;
	polydepth::test::makeBoxMesh( slabData, btVector3( 2, 0.2f, 2 ) );
	btGImpactMeshShape slab( slabData.array.get() );
	slab.updateBound();
	const btScalar half = 0.06f;
	btBoxShape cube( btVector3( half, half, half ) );
	btCompoundShape pair;
	polydepth::test::addSideBySide( pair, &cube, 0.15f );
	for ( unsigned gimpactClasses : { 0u, (unsigned)PD_BULLET_BOX } )
	{
		SCOPED_TRACE( gimpactClasses == 0 ? "boxes claimed" : "boxes left on GImpact" );
		std::vector<btTransform> endPoses[2];
		for ( int threads : { 1, 2 } )
		{
			btDefaultCollisionConfiguration config;
			ParallelCollisionDispatcher dispatcher( &config, threads );
			btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
			pdBulletDef def = pdDefaultBulletDef();
			def.gimpactClasses = gimpactClasses;
			EXPECT_EQ( polydepth::bullet::registerAlgorithm( &dispatcher, &def ), PD_STATUS_OK );
			btDbvtBroadphase broadphase;
			btSequentialImpulseConstraintSolver solver;
			btDiscreteDynamicsWorld world( &dispatcher, &broadphase, &solver, &config );
			world.setGravity( btVector3( 0, -9.81f, 0 ) );
			std::vector<std::unique_ptr<btRigidBody>> bodies;
			std::vector<std::unique_ptr<btDefaultMotionState>> states;
			polydepth::test::addOwnedBody( &world, bodies, states, &slab, 0, btVector3( 0, -0.2f, 0 ) );
			std::vector<btRigidBody*> dropped;
			for ( int k = 0; k < 4; ++k )
			{
				btVector3 at( btScalar( -0.9 + 0.6 * k ), btScalar( 0.1 + 0.05 * k ), 0 );
				dropped.push_back( polydepth::test::addOwnedBody( &world, bodies, states, &pair, 1, at ) );
				dropped.back()->setActivationState( DISABLE_DEACTIVATION );
			}
			long parallelPairs = 0, serialPairs = 0;
			for ( int s = 0; s < 60; ++s )
			{
				world.stepSimulation( 1.0f / 60.0f, 0, 1.0f / 60.0f );
				parallelPairs += dispatcher.getLastDispatchCounts().parallelPairs;
				serialPairs += dispatcher.getLastDispatchCounts().serialPairs;
			}
			if ( gimpactClasses == 0 )
			{
				EXPECT_GT( parallelPairs, 0 );
				EXPECT_EQ( serialPairs, 0 ) << "no pair for GImpact";
			}
			else
			{
				EXPECT_GT( serialPairs, 0 );
			}
			for ( btRigidBody* b : dropped )
			{
				endPoses[threads - 1].push_back( b->getWorldTransform() );
				EXPECT_NEAR( b->getWorldTransform().getOrigin().y(), half, 0.01 ) << "resting on the slab";
			}
			for ( auto& b : bodies )
				world.removeRigidBody( b.get() );
			polydepth::bullet::unregisterAlgorithm( &dispatcher );
		}
		for ( size_t b = 0; b < endPoses[0].size(); ++b )
			EXPECT_TRUE( samePose( endPoses[0][b], endPoses[1][b] ) ) << "body " << b << ": as on 1 thread";
	}
}
