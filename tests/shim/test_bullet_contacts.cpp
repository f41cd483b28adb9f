// SPDX-License-Identifier: MIT
// PdBulletContacts: what the algorithm hands to Bullet. Oracles: analytic depths (a flat torus
// whose lowest vertex ring sits exactly at centre - r, placed a known distance into a floor or
// onto another torus), Bullet's own reconstruction pointOnA = pointOnB + normal * distance,
// and the manifold bodies (the normal must point toward body0 whichever order Bullet uses).
#include "bullet_test_world.h"
#include "polydepth/contact_record.h"

#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletDynamicsCommon.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace
{

using polydepth::test::addFloorAndTorus;
using polydepth::test::BtMesh;
using polydepth::test::makeBoxMesh;
using polydepth::test::World;
using Shapes = polydepth::test::TorusAndFloor;

int countPoints( btDispatcher& d )
{
	int n = 0;
	for ( int i = 0; i < d.getNumManifolds(); ++i )
	{
		n += d.getManifoldByIndexInternal( i )->getNumContacts();
	}
	return n;
}

struct CountingCallback : btCollisionWorld::ContactResultCallback
{
	int count = 0;
	btScalar minDistance = BT_LARGE_FLOAT;
	btScalar addSingleResult( btManifoldPoint& cp, const btCollisionObjectWrapper*, int, int,
							  const btCollisionObjectWrapper*, int, int ) override
	{
		++count;
		minDistance = btMin( minDistance, cp.getDistance() );
		return 0;
	}
};

int gAddedCalls = 0;
bool countAdded( btManifoldPoint&, const btCollisionObjectWrapper*, int, int, const btCollisionObjectWrapper*, int,
				 int )
{
	++gAddedCalls;
	return false;
}

} // namespace

TEST( PdBulletContacts, TorusOnFloorSignsInBothBodyOrders )
{
	for ( int floorFirst = 0; floorFirst < 2; ++floorFirst )
	{
		Shapes s;
		World w;
		btRigidBody* floor = nullptr;
		btRigidBody* torus = nullptr;
		const btScalar depth = 0.01f;
		if ( floorFirst )
		{
			floor = w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
		}
		torus = w.add( s.torus.get(), 1, btVector3( 0.1f, 0.15f - depth, 0 ) );
		if ( !floorFirst )
		{
			floor = w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
		}
		w.world->performDiscreteCollisionDetection();
		int points = 0;
		btScalar deepest = BT_LARGE_FLOAT;
		for ( int i = 0; i < w.dispatcher.getNumManifolds(); ++i )
		{
			btPersistentManifold* m = w.dispatcher.getManifoldByIndexInternal( i );
			EXPECT_LE( m->getNumContacts(), 4 );
			bool torusIs0 = m->getBody0() == torus;
			ASSERT_TRUE( torusIs0 || m->getBody1() == torus );
			ASSERT_TRUE( m->getBody0() == floor || m->getBody1() == floor );
			for ( int k = 0; k < m->getNumContacts(); ++k, ++points )
			{
				const btManifoldPoint& p = m->getContactPoint( k );
				// Normal on body1 toward body0.
				EXPECT_NEAR( p.m_normalWorldOnB.y(), torusIs0 ? 1.0 : -1.0, 1e-3 ) << "floorFirst " << floorFirst;
				// The lowest ring is 1 cm deep; points further round the tube are shallower
				// (or speculative, just above the floor).
				EXPECT_GE( p.getDistance(), -depth - 1e-3 );
				EXPECT_LE( p.getDistance(), m->getContactBreakingThreshold() );
				deepest = btMin( deepest, p.getDistance() );
				btVector3 onA = p.getPositionWorldOnB() + p.m_normalWorldOnB * p.getDistance();
				EXPECT_NEAR( ( onA - p.getPositionWorldOnA() ).length(), 0.0, 1e-5 );
				const btVector3& onFloor = torusIs0 ? p.getPositionWorldOnB() : p.getPositionWorldOnA();
				EXPECT_NEAR( onFloor.y(), 0.0, 1e-3 );
			}
		}
		EXPECT_GE( points, 3 ) << "floorFirst " << floorFirst;
		EXPECT_NEAR( deepest, -depth, 1e-3 ) << "negative = penetration";
	}
}

TEST( PdBulletContacts, TorusOnTorusSignsInBothBodyOrders )
{
	for ( int lowerFirst = 0; lowerFirst < 2; ++lowerFirst )
	{
		Shapes s;
		World w;
		const btScalar depth = 0.01f;
		btRigidBody* lower = nullptr;
		btRigidBody* upper = nullptr;
		if ( lowerFirst )
		{
			lower = w.add( s.torus.get(), 1, btVector3( 0, 0, 0 ) );
		}
		upper = w.add( s.torus.get(), 1, btVector3( 0, 0.3f - depth, 0 ) );
		// Half a segment round the axis, so the two vertex rings do not meet vertex on vertex.
		btTransform t = upper->getWorldTransform();
		t.setRotation( btQuaternion( btVector3( 0, 1, 0 ), SIMD_PI / 24 ) );
		upper->setWorldTransform( t );
		if ( !lowerFirst )
		{
			lower = w.add( s.torus.get(), 1, btVector3( 0, 0, 0 ) );
		}
		w.world->performDiscreteCollisionDetection();
		int points = 0;
		for ( int i = 0; i < w.dispatcher.getNumManifolds(); ++i )
		{
			btPersistentManifold* m = w.dispatcher.getManifoldByIndexInternal( i );
			EXPECT_LE( m->getNumContacts(), 4 );
			bool upperIs0 = m->getBody0() == upper;
			ASSERT_TRUE( upperIs0 || m->getBody0() == lower );
			for ( int k = 0; k < m->getNumContacts(); ++k, ++points )
			{
				const btManifoldPoint& p = m->getContactPoint( k );
				EXPECT_NEAR( p.m_normalWorldOnB.y(), upperIs0 ? 1.0 : -1.0, 0.05 ) << "lowerFirst " << lowerFirst;
				EXPECT_NEAR( p.getDistance(), -depth, 2e-3 );
			}
		}
		EXPECT_GE( points, 3 ) << "lowerFirst " << lowerFirst;
	}
}

// Bounding-box diagonal of a mesh's vertices (what the skin is relative to).
double diagonalOf( const BtMesh& m )
{
	btVector3 lo( BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT ), hi = -lo;
	for ( size_t i = 0; i < m.vertices.size(); i += 3 )
	{
		btVector3 v( m.vertices[i], m.vertices[i + 1], m.vertices[i + 2] );
		lo.setMin( v );
		hi.setMax( v );
	}
	return (double)( hi - lo ).length();
}

// The smallest manifold distance of a torus 5 mm above the floor, every point checked positive
// against floorOfPoints and within the manifold's breaking threshold.
double closestAboveFloor( const pdBulletDef* def, double floorOfPoints )
{
	Shapes s;
	World w( def );
	addFloorAndTorus( w, s, btVector3( 0, 0.15f + 0.005f, 0 ) );
	w.world->performDiscreteCollisionDetection();
	int points = 0;
	btScalar closest = BT_LARGE_FLOAT;
	for ( int i = 0; i < w.dispatcher.getNumManifolds(); ++i )
	{
		btPersistentManifold* m = w.dispatcher.getManifoldByIndexInternal( i );
		for ( int k = 0; k < m->getNumContacts(); ++k, ++points )
		{
			btScalar d = m->getContactPoint( k ).getDistance();
			EXPECT_GT( d, floorOfPoints );
			EXPECT_LE( d, m->getContactBreakingThreshold() );
			closest = btMin( closest, d );
		}
	}
	EXPECT_GE( points, 1 );
	return (double)closest;
}

TEST( PdBulletContacts, SeparatedCloseGivesPositiveDistance )
{
	// The closest points sit at the 5 mm gap; others further round the tube are still within
	// the breaking threshold (speculative contacts), all with positive distance.
	pdBulletDef exact = pdDefaultBulletDef();
	exact.relativeSkin = 0.0;
	EXPECT_NEAR( closestAboveFloor( &exact, 0.004 ), 0.005, 1e-4 );
}

TEST( PdBulletContacts, SkinShiftsEveryDistanceForTheSolverOnly )
{
	// The default skin: every manifold distance is the gap less skin x the torus's diagonal
	// (the smaller mesh), so the solver rests the torus that far above the floor.
	Shapes s;
	pdBulletDef def = pdDefaultBulletDef();
	ASSERT_GT( def.relativeSkin, 0.0 );
	double skin = def.relativeSkin * diagonalOf( s.torusData );
	EXPECT_NEAR( closestAboveFloor( &def, 0.004 - skin ), 0.005 - skin, 1e-4 );
	def.relativeSkin = 4.0 * def.relativeSkin;
	EXPECT_NEAR( closestAboveFloor( &def, 0.004 - 4.0 * skin ), 0.005 - 4.0 * skin, 1e-4 );

	// contactPairTest (the closest-points algorithm) reports the exact surfaces.
	World w;
	btRigidBody* floor = w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
	btRigidBody* torus = w.add( s.torus.get(), 1, btVector3( 0, 0.15f + 0.005f, 0 ) );
	w.world->updateAabbs();
	w.world->computeOverlappingPairs();
	CountingCallback pair;
	pair.m_closestDistanceThreshold = 0.02f;
	w.world->contactPairTest( floor, torus, pair );
	EXPECT_GT( pair.count, 0 );
	EXPECT_NEAR( pair.minDistance, 0.005, 1e-4 );

	// Out of range refused at registration.
	btDefaultCollisionConfiguration config;
	btCollisionDispatcher dispatcher( &config );
	for ( double bad : { -1e-4, 0.1, (double)NAN, (double)INFINITY } )
	{
		pdBulletDef range = pdDefaultBulletDef();
		range.relativeSkin = bad;
		EXPECT_EQ( pdBullet_Register( &dispatcher, &range ), PD_STATUS_INVALID_DEF ) << bad;
	}
}

TEST( PdBulletContacts, FastSmallBodyKeepsSpeculativePointsApart )
{
	// A 6 cm cube turned 60 degrees about z, its lowest edge (two corners 6 cm apart along z)
	// 1 cm above the floor, falling at 5 m/s: 8 cm per step, so speculative points reach its
	// corners 4 and 6 cm up too. Bullet matches a written point to a cached one within the
	// manifold's breaking threshold; raised to the farthest point's distance (6.3 cm) it would
	// take corners 4 to 6 cm apart for one point. The four points the plugin picks stay, each
	// at its own corner's gap, whichever body the dispatcher hands over first (the manifold's
	// own order is the algorithm's).
	for ( int cubeFirst = 0; cubeFirst < 2; ++cubeFirst )
	{
		SCOPED_TRACE( cubeFirst ? "cube added first" : "floor added first" );
		Shapes s;
		World w;
		polydepth::test::BtMesh cubeData;
		makeBoxMesh( cubeData, btVector3( 0.03f, 0.03f, 0.03f ) );
		btGImpactMeshShape cube( cubeData.array.get() );
		cube.updateBound();
		const btScalar turn = SIMD_PI / 3;
		// The lowest corner of the turned square section lies 0.03 (sin 60 + cos 60) below the centre.
		const btScalar below = 0.03f * ( btSin( turn ) + btCos( turn ) );
		if ( !cubeFirst )
		{
			w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
		}
		btRigidBody* body = w.add( &cube, 1, btVector3( 0, below + 0.01f, 0 ) );
		if ( cubeFirst )
		{
			w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
		}
		btTransform pose = body->getWorldTransform();
		pose.setRotation( btQuaternion( btVector3( 0, 0, 1 ), turn ) );
		body->setWorldTransform( pose );
		body->setLinearVelocity( btVector3( 0, -5, 0 ) );
		w.world->getDispatchInfo().m_timeStep = btScalar( 1.0 / 60.0 );
		w.world->updateAabbs();
		w.world->performDiscreteCollisionDetection();
		std::vector<btVector3> corners;
		double nearest = BT_LARGE_FLOAT;
		for ( int i = 0; i < w.dispatcher.getNumManifolds(); ++i )
		{
			btPersistentManifold* m = w.dispatcher.getManifoldByIndexInternal( i );
			bool cubeIs0 = m->getBody0() == body;
			for ( int k = 0; k < m->getNumContacts(); ++k )
			{
				const btManifoldPoint& p = m->getContactPoint( k );
				EXPECT_NEAR( p.m_normalWorldOnB.y(), cubeIs0 ? 1.0 : -1.0, 1e-3 );
				const btVector3& onFloor = cubeIs0 ? p.getPositionWorldOnB() : p.getPositionWorldOnA();
				const btVector3& onCube = cubeIs0 ? p.getPositionWorldOnA() : p.getPositionWorldOnB();
				EXPECT_NEAR( onFloor.y(), 0.0, 1e-4 );
				// The distance is the point's own gap, the same as its two points give.
				EXPECT_NEAR( p.getDistance(), onCube.y(), 1e-4 );
				EXPECT_LE( p.getDistance(), m->getContactBreakingThreshold() );
				corners.push_back( onCube );
				nearest = std::min( nearest, (double)p.getDistance() );
			}
		}
		EXPECT_EQ( corners.size(), 4u );
		EXPECT_NEAR( nearest, 0.01, 1e-4 );
		for ( size_t i = 0; i < corners.size(); ++i )
		{
			for ( size_t j = i + 1; j < corners.size(); ++j )
			{
				EXPECT_GT( ( corners[i] - corners[j] ).length(), 0.05 ) << "points " << i << " and " << j;
			}
		}
	}
}

TEST( PdBulletContacts, ContactTestAndContactPairTestReturnContacts )
{
	Shapes s;
	World w;
	btRigidBody* floor = w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
	btRigidBody* torus = w.add( s.torus.get(), 1, btVector3( 0, 0.14f, 0 ) );
	w.world->updateAabbs();
	w.world->computeOverlappingPairs();
	CountingCallback single;
	w.world->contactTest( torus, single );
	EXPECT_GT( single.count, 0 );
	EXPECT_LT( single.minDistance, 0 );
	CountingCallback pair;
	w.world->contactPairTest( floor, torus, pair );
	EXPECT_GT( pair.count, 0 );
	EXPECT_NEAR( pair.minDistance, -0.01, 1e-3 );
}

TEST( PdBulletContacts, ContactAddedCallbackFires )
{
	Shapes s;
	World w;
	btRigidBody* torus = addFloorAndTorus( w, s, btVector3( 0, 0.145f, 0 ) );
	torus->setCollisionFlags( torus->getCollisionFlags() | btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK );
	ContactAddedCallback saved = gContactAddedCallback;
	gContactAddedCallback = countAdded;
	gAddedCalls = 0;
	w.world->stepSimulation( 1.0f / 60.0f, 1, 1.0f / 60.0f );
	gContactAddedCallback = saved;
	EXPECT_GT( gAddedCalls, 0 );
}

TEST( PdBulletContacts, GetAllContactManifoldsReturnsEveryRegion )
{
	Shapes s;
	World w;
	addFloorAndTorus( w, s, btVector3( 0, 0.14f, 0 ) );
	w.world->performDiscreteCollisionDetection();
	btBroadphasePairArray& pairs = w.world->getPairCache()->getOverlappingPairArray();
	ASSERT_EQ( pairs.size(), 1 );
	ASSERT_NE( pairs[0].m_algorithm, nullptr );
	btManifoldArray manifolds;
	pairs[0].m_algorithm->getAllContactManifolds( manifolds );
	int fromAlgorithm = 0;
	for ( int i = 0; i < manifolds.size(); ++i )
	{
		fromAlgorithm += manifolds[i]->getNumContacts();
	}
	EXPECT_GT( fromAlgorithm, 0 );
	EXPECT_EQ( fromAlgorithm, countPoints( w.dispatcher ) );
	EXPECT_EQ( manifolds.size(), w.dispatcher.getNumManifolds() );
}

TEST( PdBulletContacts, ScaledShapesUseTheirScaling )
{
	Shapes s;
	World w;
	// Floor half-size 1 scaled by 3 in x and z; torus scaled by 0.5 (R 0.25, r 0.075) at x = 2,
	// where only the scaled floor reaches.
	btScaledBvhTriangleMeshShape scaledFloor( s.floor.get(), btVector3( 3, 1, 3 ) );
	s.torus->setLocalScaling( btVector3( 0.5f, 0.5f, 0.5f ) );
	s.torus->updateBound();
	const btScalar depth = 0.004f;
	w.add( &scaledFloor, 0, btVector3( 0, 0, 0 ) );
	w.add( s.torus.get(), 1, btVector3( 2.0f, 0.075f - depth, 0 ) );
	w.world->performDiscreteCollisionDetection();
	int points = 0;
	for ( int i = 0; i < w.dispatcher.getNumManifolds(); ++i )
	{
		btPersistentManifold* m = w.dispatcher.getManifoldByIndexInternal( i );
		EXPECT_LE( m->getNumContacts(), 4 );
		for ( int k = 0; k < m->getNumContacts(); ++k, ++points )
		{
			const btManifoldPoint& p = m->getContactPoint( k );
			EXPECT_NEAR( p.getDistance(), -depth, 5e-4 );
			EXPECT_NEAR( p.getPositionWorldOnB().x(), 2.0, 0.25 + 1e-3 );
		}
	}
	EXPECT_GE( points, 3 );
}

// pdBullet_StartRecording / pdBullet_StopRecording: the calls of a few steps of a torus
// falling onto a floor are written, read back by the replay, and give the contacts Bullet got.
TEST( PdBulletContacts, RecordedCallsReplayOutsideBullet )
{
	Shapes s;
	World w;
	addFloorAndTorus( w, s, btVector3( 0, 0.3f, 0 ) );
	std::string path = ::testing::TempDir() + "bullet_recording.pdcr";
	long calls = -1;
	EXPECT_EQ( pdBullet_StopRecording( &w.dispatcher, &calls ), PD_STATUS_INVALID_ARGUMENT ); // nothing recording
	EXPECT_EQ( calls, 0 );
	EXPECT_EQ( pdBullet_StartRecording( nullptr, path.c_str() ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdBullet_StartRecording( &w.dispatcher, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdBullet_StartRecording( &w.dispatcher, "/nonexistent-directory/x.pdcr" ), PD_STATUS_INVALID_ARGUMENT );
	btDefaultCollisionConfiguration otherConfig;
	btCollisionDispatcher unregistered( &otherConfig );
	EXPECT_EQ( pdBullet_StartRecording( &unregistered, path.c_str() ), PD_STATUS_INVALID_ARGUMENT );

	ASSERT_EQ( pdBullet_StartRecording( &w.dispatcher, path.c_str() ), PD_STATUS_OK );
	for ( int i = 0; i < 30; ++i )
	{
		w.world->stepSimulation( 1.0f / 60.0f, 1, 1.0f / 60.0f );
	}
	ASSERT_EQ( pdBullet_StopRecording( &w.dispatcher, &calls ), PD_STATUS_OK );
	EXPECT_GE( calls, 20 ); // one pair, called every step once the boxes overlap
	pdBulletStats stats;
	ASSERT_EQ( pdBullet_GetStats( &w.dispatcher, &stats ), PD_STATUS_OK );
	EXPECT_EQ( (uint64_t)calls, stats.pairsProcessed );
	w.world->stepSimulation( 1.0f / 60.0f, 1, 1.0f / 60.0f ); // not recorded any more
	pdError error = {};
	pdContactReplay* replay = pdCreateContactReplay( path.c_str(), &error );
	ASSERT_NE( replay, nullptr ) << error.message;
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	long read = 0, withContacts = 0;
	for ( ;; )
	{
		pdContactCall call;
		bool done = false;
		ASSERT_EQ( pdContactReplay_ReadNext( replay, &call, &done, &error ), PD_STATUS_OK ) << error.message;
		if ( done )
			break;
		pdContactManifoldSet set;
		EXPECT_GE( pdContactPair_Generate( &call.pair, call.meshA, &call.poseA, call.meshB, &call.poseB, &call.def, ws, &set ),
				   0 );
		withContacts += set.manifoldCount > 0;
		read += 1;
	}
	EXPECT_EQ( read, calls );
	EXPECT_GT( withContacts, 10 ); // the torus lands within the recorded steps
	pdDestroyContactReplay( replay );
	pdDestroyWorkspace( ws );
	std::remove( path.c_str() );
}
