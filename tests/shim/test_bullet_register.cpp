// SPDX-License-Identifier: MIT
// PdBulletRegister: registration on btCollisionDispatcher, dispatch for every pair type in
// both body orders and both tables, restore on unregistration, and the shape-to-mesh cache.
// Oracle for "our algorithm ran": the registration's processCollision counter moves, and
// GImpact's own algorithm comes back after unregistration.
#include "bullet_test_world.h"

#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletDynamicsCommon.h>

#include <gtest/gtest.h>

#include <memory>
#include <typeinfo>
#include <vector>

namespace
{

struct Dispatch
{
	btDefaultCollisionConfiguration config;
	btCollisionDispatcher dispatcher{ &config };
};

// Runs findAlgorithm and one processCollision for the two objects in the given order; returns
// the algorithm's dynamic type and how many pairs the registration processed.
struct DispatchOutcome
{
	const std::type_info* type = nullptr;
	bool isGImpact = false;
	uint64_t processed = 0;
};

DispatchOutcome dispatchOnce( btCollisionDispatcher& d, btCollisionObject& o0, btCollisionObject& o1,
							  ebtDispatcherQueryType table )
{
	DispatchOutcome out;
	btCollisionObjectWrapper w0( nullptr, o0.getCollisionShape(), &o0, o0.getWorldTransform(), -1, -1 );
	btCollisionObjectWrapper w1( nullptr, o1.getCollisionShape(), &o1, o1.getWorldTransform(), -1, -1 );
	btCollisionAlgorithm* algo = d.findAlgorithm( &w0, &w1, nullptr, table );
	if ( algo == nullptr )
	{
		return out;
	}
	out.type = &typeid( *algo );
	out.isGImpact = dynamic_cast<btGImpactCollisionAlgorithm*>( algo ) != nullptr;
	pdBulletStats before{}, after{};
	pdBullet_GetStats( &d, &before );
	btManifoldResult result( &w0, &w1 );
	btDispatcherInfo info;
	algo->processCollision( &w0, &w1, info, &result );
	pdBullet_GetStats( &d, &after );
	out.processed = after.pairsProcessed - before.pairsProcessed;
	algo->~btCollisionAlgorithm();
	d.freeCollisionAlgorithm( algo );
	return out;
}

struct Shapes : polydepth::test::TorusAndFloor
{
	std::unique_ptr<btScaledBvhTriangleMeshShape> scaledFloor;
	btCollisionObject torusObj, torus2Obj, floorObj, scaledObj;

	Shapes()
	{
		scaledFloor = std::make_unique<btScaledBvhTriangleMeshShape>( floor.get(), btVector3( 2, 1, 2 ) );
		torusObj.setCollisionShape( torus.get() );
		torusObj.getWorldTransform().setOrigin( btVector3( 0, 0.14, 0 ) );
		torus2Obj.setCollisionShape( torus.get() );
		torus2Obj.getWorldTransform().setOrigin( btVector3( 0, 0.43, 0 ) );
		floorObj.setCollisionShape( floor.get() );
		floorObj.setCollisionFlags( btCollisionObject::CF_STATIC_OBJECT );
		scaledObj.setCollisionShape( scaledFloor.get() );
		scaledObj.setCollisionFlags( btCollisionObject::CF_STATIC_OBJECT );
	}
};

} // namespace

TEST( PdBulletRegister, DispatchesEveryPairTypeInBothOrders )
{
	Dispatch d;
	btGImpactCollisionAlgorithm::registerAlgorithm( &d.dispatcher );
	ASSERT_EQ( polydepth::bullet::registerAlgorithm( &d.dispatcher, nullptr ), PD_STATUS_OK );
	Shapes s;
	std::vector<std::pair<btCollisionObject*, btCollisionObject*>> pairs = {
		{ &s.torusObj, &s.torus2Obj }, { &s.torusObj, &s.floorObj },  { &s.floorObj, &s.torusObj },
		{ &s.torusObj, &s.scaledObj }, { &s.scaledObj, &s.torusObj },
	};
	for ( auto table : { BT_CONTACT_POINT_ALGORITHMS, BT_CLOSEST_POINT_ALGORITHMS } )
	{
		for ( size_t i = 0; i < pairs.size(); ++i )
		{
			DispatchOutcome out = dispatchOnce( d.dispatcher, *pairs[i].first, *pairs[i].second, table );
			EXPECT_FALSE( out.isGImpact ) << "pair " << i << " table " << table;
			EXPECT_EQ( out.processed, 1u ) << "pair " << i << " table " << table;
		}
	}
	EXPECT_EQ( polydepth::bullet::unregisterAlgorithm( &d.dispatcher ), PD_STATUS_OK );
}

TEST( PdBulletRegister, UnregisterRestoresPreviousCreateFunctions )
{
	Dispatch d;
	btGImpactCollisionAlgorithm::registerAlgorithm( &d.dispatcher );
	Shapes s;
	std::vector<std::pair<btCollisionObject*, btCollisionObject*>> pairs = {
		{ &s.torusObj, &s.torus2Obj }, { &s.torusObj, &s.floorObj },  { &s.floorObj, &s.torusObj },
		{ &s.torusObj, &s.scaledObj }, { &s.scaledObj, &s.torusObj },
	};
	std::vector<const std::type_info*> before[2];
	int t = 0;
	for ( auto table : { BT_CONTACT_POINT_ALGORITHMS, BT_CLOSEST_POINT_ALGORITHMS } )
	{
		for ( auto& p : pairs )
		{
			before[t].push_back( dispatchOnce( d.dispatcher, *p.first, *p.second, table ).type );
		}
		++t;
	}
	// GImpact's own algorithm owned the contact cells before us.
	EXPECT_TRUE( *before[0][0] == typeid( btGImpactCollisionAlgorithm ) );

	// Twice: registering again replaces the options and must still restore the originals.
	ASSERT_EQ( polydepth::bullet::registerAlgorithm( &d.dispatcher, nullptr ), PD_STATUS_OK );
	ASSERT_EQ( polydepth::bullet::registerAlgorithm( &d.dispatcher, nullptr ), PD_STATUS_OK );
	EXPECT_EQ( dispatchOnce( d.dispatcher, s.torusObj, s.floorObj, BT_CONTACT_POINT_ALGORITHMS ).processed, 1u );
	ASSERT_EQ( polydepth::bullet::unregisterAlgorithm( &d.dispatcher ), PD_STATUS_OK );

	t = 0;
	for ( auto table : { BT_CONTACT_POINT_ALGORITHMS, BT_CLOSEST_POINT_ALGORITHMS } )
	{
		for ( size_t i = 0; i < pairs.size(); ++i )
		{
			DispatchOutcome out = dispatchOnce( d.dispatcher, *pairs[i].first, *pairs[i].second, table );
			EXPECT_TRUE( *out.type == *before[t][i] ) << "pair " << i << " table " << table;
			EXPECT_EQ( out.processed, 0u );
		}
		++t;
	}
	EXPECT_EQ( polydepth::bullet::unregisterAlgorithm( &d.dispatcher ), PD_STATUS_INVALID_ARGUMENT );
}

TEST( PdBulletRegister, OptionsSelectTheTables )
{
	Dispatch d;
	btGImpactCollisionAlgorithm::registerAlgorithm( &d.dispatcher );
	Shapes s;
	pdBulletDef def = pdDefaultBulletDef();
	def.registerClosestPoints = false;
	def.includeScaledTriangleMesh = false;
	ASSERT_EQ( pdBullet_Register( &d.dispatcher, &def ), PD_STATUS_OK );
	EXPECT_EQ( dispatchOnce( d.dispatcher, s.torusObj, s.floorObj, BT_CONTACT_POINT_ALGORITHMS ).processed, 1u );
	EXPECT_EQ( dispatchOnce( d.dispatcher, s.torusObj, s.floorObj, BT_CLOSEST_POINT_ALGORITHMS ).processed, 0u );
	EXPECT_EQ( dispatchOnce( d.dispatcher, s.torusObj, s.scaledObj, BT_CONTACT_POINT_ALGORITHMS ).processed, 0u );
	EXPECT_EQ( pdBullet_Unregister( &d.dispatcher ), PD_STATUS_OK );
}

TEST( PdBulletRegister, CEntryPointsValidate )
{
	Dispatch d;
	EXPECT_EQ( pdBullet_Register( nullptr, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	pdBulletDef bad{};
	EXPECT_EQ( pdBullet_Register( &d.dispatcher, &bad ), PD_STATUS_DEF_NOT_INITIALIZED );
	pdBulletDef range = pdDefaultBulletDef();
	range.relativeTolerance = -1.0;
	EXPECT_EQ( pdBullet_Register( &d.dispatcher, &range ), PD_STATUS_INVALID_DEF );
	EXPECT_EQ( pdBullet_Unregister( nullptr ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdBullet_Unregister( &d.dispatcher ), PD_STATUS_INVALID_ARGUMENT );
	pdBulletStats stats;
	EXPECT_EQ( pdBullet_GetStats( &d.dispatcher, &stats ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( stats.meshBuilds, 0u );
}

TEST( PdBulletRegister, MeshCacheBuildsOncePerShapeAndScaling )
{
	auto run = []( bool check )
	{
		Dispatch d;
		btGImpactCollisionAlgorithm::registerAlgorithm( &d.dispatcher );
		ASSERT_EQ( polydepth::bullet::registerAlgorithm( &d.dispatcher, nullptr ), PD_STATUS_OK );
		Shapes s;
		pdBulletStats stats;
		for ( int i = 0; i < 3; ++i )
		{
			dispatchOnce( d.dispatcher, s.torusObj, s.floorObj, BT_CONTACT_POINT_ALGORITHMS );
			dispatchOnce( d.dispatcher, s.floorObj, s.torusObj, BT_CLOSEST_POINT_ALGORITHMS );
			dispatchOnce( d.dispatcher, s.torusObj, s.torus2Obj, BT_CONTACT_POINT_ALGORITHMS );
		}
		ASSERT_EQ( pdBullet_GetStats( &d.dispatcher, &stats ), PD_STATUS_OK );
		if ( check )
		{
			EXPECT_EQ( stats.meshBuilds, 2u ) << "one torus shape, one floor shape";
			EXPECT_EQ( stats.cachedMeshCount, 2 );
		}

		// New scaling: rebuilt once, then cached again.
		s.torus->setLocalScaling( btVector3( 0.5, 0.5, 0.5 ) );
		s.torus->updateBound();
		dispatchOnce( d.dispatcher, s.torusObj, s.floorObj, BT_CONTACT_POINT_ALGORITHMS );
		dispatchOnce( d.dispatcher, s.torusObj, s.floorObj, BT_CONTACT_POINT_ALGORITHMS );
		ASSERT_EQ( pdBullet_GetStats( &d.dispatcher, &stats ), PD_STATUS_OK );
		if ( check )
		{
			EXPECT_EQ( stats.meshBuilds, 3u );
		}

		// Scaled floor: its own entry (the child's data times the shape's scaling).
		dispatchOnce( d.dispatcher, s.torusObj, s.scaledObj, BT_CONTACT_POINT_ALGORITHMS );
		ASSERT_EQ( pdBullet_GetStats( &d.dispatcher, &stats ), PD_STATUS_OK );
		if ( check )
		{
			EXPECT_EQ( stats.meshBuilds, 4u );
		}
		ASSERT_EQ( polydepth::bullet::unregisterAlgorithm( &d.dispatcher ), PD_STATUS_OK );
	};
	// The first run also grows this thread's workspace to its high-water mark; the second run
	// repeats the same queries, so any byte left over would be a mesh the cache kept.
	run( false );
	size_t bytesBefore = pdGetAllocatorStats().bytes;
	run( true );
	EXPECT_EQ( pdGetAllocatorStats().bytes, bytesBefore ) << "meshes released at unregistration";
}

TEST( PdBulletRegister, UnsupportedGImpactShapesFallBackToGImpact )
{
	Dispatch d;
	btGImpactCollisionAlgorithm::registerAlgorithm( &d.dispatcher );
	ASSERT_EQ( polydepth::bullet::registerAlgorithm( &d.dispatcher, nullptr ), PD_STATUS_OK );
	Shapes s;
	btGImpactCompoundShape compound;
	btBoxShape box( btVector3( 0.1, 0.1, 0.1 ) );
	compound.addChildShape( btTransform::getIdentity(), &box );
	compound.updateBound();
	btCollisionObject obj;
	obj.setCollisionShape( &compound );
	DispatchOutcome out = dispatchOnce( d.dispatcher, obj, s.floorObj, BT_CONTACT_POINT_ALGORITHMS );
	EXPECT_TRUE( out.isGImpact );
	EXPECT_EQ( out.processed, 0u );
	polydepth::bullet::unregisterAlgorithm( &d.dispatcher );
}
