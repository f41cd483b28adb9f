// SPDX-License-Identifier: MIT
// PdBulletRounded: spheres, capsules (X, Y, Z) and multi-spheres against GImpact meshes, met as
// rounded shapes by the core's rounded query. Oracles: analytic depths at known poses in both
// body orders and both tables (radius = getRadius(): the shapes are their margin), the option
// that leaves the classes on GImpact, degenerate shapes (zero radius, a multi-sphere that is no
// capsule) left to GImpact and counted, a zero-height capsule met as a sphere, and behaviour in
// a world: a sphere rolling down a tilted tessellated mesh plane keeps the analytic rolling
// sphere's speed v = (5/7) g sin(a) t within 2% over 2 s, and a capsule dropped into a bowl comes
// to rest.
#include "bullet_test_world.h"

#include "polydepth/polydepth.h"

#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace
{

using polydepth::test::BtMesh;
using polydepth::test::makeBoxMesh;

struct Dispatch
{
	btDefaultCollisionConfiguration config;
	btCollisionDispatcher dispatcher{ &config };
	explicit Dispatch( const pdBulletDef* def = nullptr )
	{
		btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
		EXPECT_EQ( polydepth::bullet::registerAlgorithm( &dispatcher, def ), PD_STATUS_OK );
	}
	~Dispatch() { polydepth::bullet::unregisterAlgorithm( &dispatcher ); }
	pdBulletStats stats()
	{
		pdBulletStats s{};
		pdBullet_GetStats( &dispatcher, &s );
		return s;
	}
};

struct Contact
{
	btVector3 normal; ///< pushes the reference body out
	btVector3 pointOnReference;
	btScalar distance;
};

struct Outcome
{
	bool isGImpact = false;
	uint64_t processed = 0;
	std::vector<Contact> contacts;
	btScalar deepest() const
	{
		btScalar d = BT_LARGE_FLOAT;
		for ( const Contact& c : contacts )
			d = btMin( d, c.distance );
		return d;
	}
};

Outcome dispatchPair( btCollisionDispatcher& d, btCollisionObject& o0, btCollisionObject& o1,
					  const btCollisionObject* reference, ebtDispatcherQueryType table = BT_CONTACT_POINT_ALGORITHMS )
{
	Outcome out;
	btCollisionObjectWrapper w0( nullptr, o0.getCollisionShape(), &o0, o0.getWorldTransform(), -1, -1 );
	btCollisionObjectWrapper w1( nullptr, o1.getCollisionShape(), &o1, o1.getWorldTransform(), -1, -1 );
	btCollisionAlgorithm* algo = d.findAlgorithm( &w0, &w1, nullptr, table );
	if ( algo == nullptr )
		return out;
	out.isGImpact = dynamic_cast<btGImpactCollisionAlgorithm*>( algo ) != nullptr;
	pdBulletStats before{}, after{};
	pdBullet_GetStats( &d, &before );
	btManifoldResult result( &w0, &w1 );
	btDispatcherInfo info;
	algo->processCollision( &w0, &w1, info, &result );
	pdBullet_GetStats( &d, &after );
	out.processed = after.pairsProcessed - before.pairsProcessed;
	btManifoldArray manifolds;
	algo->getAllContactManifolds( manifolds );
	if ( result.getPersistentManifold() != nullptr &&
		 manifolds.findLinearSearch( result.getPersistentManifold() ) == manifolds.size() )
		manifolds.push_back( result.getPersistentManifold() );
	for ( int m = 0; m < manifolds.size(); ++m )
	{
		btPersistentManifold* manifold = manifolds[m];
		bool refIs0 = manifold->getBody0() == reference;
		for ( int p = 0; p < manifold->getNumContacts(); ++p )
		{
			const btManifoldPoint& mp = manifold->getContactPoint( p );
			out.contacts.push_back( { mp.m_normalWorldOnB * ( refIs0 ? 1 : -1 ),
									  refIs0 ? mp.getPositionWorldOnA() : mp.getPositionWorldOnB(),
									  mp.getDistance() } );
		}
	}
	algo->~btCollisionAlgorithm();
	d.freeCollisionAlgorithm( algo );
	return out;
}

btCollisionObject makeObject( btCollisionShape* shape, const btVector3& position,
							  const btQuaternion& rotation = btQuaternion::getIdentity(), bool isStatic = false )
{
	btCollisionObject o;
	o.setCollisionShape( shape );
	o.getWorldTransform().setOrigin( position );
	o.getWorldTransform().setRotation( rotation );
	if ( isStatic )
		o.setCollisionFlags( btCollisionObject::CF_STATIC_OBJECT );
	return o;
}

// A GImpact slab 4 x 0.4 x 4 whose top face is y = 0 when placed at (0, -0.2, 0).
struct Slab
{
	BtMesh data;
	std::unique_ptr<btGImpactMeshShape> shape;
	Slab()
	{
		makeBoxMesh( data, btVector3( 2, 0.2, 2 ) );
		shape = std::make_unique<btGImpactMeshShape>( data.array.get() );
		shape->updateBound();
	}
};

// The contacts of shape at position/rotation on the slab's top, from both body orders; expects
// them to agree and to push the shape straight up.
Outcome onSlab( Dispatch& d, Slab& slab, btCollisionShape* shape, const btVector3& position,
				const btQuaternion& rotation = btQuaternion::getIdentity(),
				ebtDispatcherQueryType table = BT_CONTACT_POINT_ALGORITHMS )
{
	btCollisionObject body = makeObject( shape, position, rotation );
	btCollisionObject floor = makeObject( slab.shape.get(), btVector3( 0, -0.2, 0 ), btQuaternion::getIdentity(), true );
	Outcome a = dispatchPair( d.dispatcher, body, floor, &body, table );
	Outcome b = dispatchPair( d.dispatcher, floor, body, &body, table );
	EXPECT_FALSE( a.isGImpact || b.isGImpact ) << shape->getName();
	EXPECT_EQ( a.processed, 1u );
	EXPECT_EQ( b.processed, 1u );
	EXPECT_EQ( a.contacts.size(), b.contacts.size() );
	for ( size_t i = 0; i < a.contacts.size() && i < b.contacts.size(); ++i )
	{
		EXPECT_NEAR( a.contacts[i].distance, b.contacts[i].distance, 1e-6 ) << "both orders";
		EXPECT_NEAR( ( a.contacts[i].pointOnReference - b.contacts[i].pointOnReference ).length(), 0, 1e-6 );
		EXPECT_GT( a.contacts[i].normal.y(), 0.9999 ) << "pushed up";
	}
	return a;
}

} // namespace

TEST( PdBulletRounded, SpheresCapsulesAndMultiSpheresOnAMeshInBothOrders )
{
	Dispatch d;
	Slab slab;
	for ( auto table : { BT_CONTACT_POINT_ALGORITHMS, BT_CLOSEST_POINT_ALGORITHMS } )
	{
		SCOPED_TRACE( table == BT_CONTACT_POINT_ALGORITHMS ? "contact table" : "closest-points table" );
		// A sphere is its margin: radius 0.2 at height 0.15 is 0.05 deep.
		btSphereShape sphere( 0.2 );
		Outcome o = onSlab( d, slab, &sphere, btVector3( 0.3, 0.15, -0.2 ), btQuaternion::getIdentity(), table );
		ASSERT_EQ( o.contacts.size(), 1u );
		EXPECT_NEAR( o.contacts[0].distance, -0.05, 1e-6 );
		EXPECT_NEAR( o.contacts[0].pointOnReference.y(), -0.05, 1e-6 ); // the sphere's lowest point

		// Capsules on every axis, lying (X, Z: a contact under each end) and standing (Y).
		for ( int axis = 0; axis < 3; ++axis )
		{
			SCOPED_TRACE( "capsule axis " + std::to_string( axis ) );
			std::unique_ptr<btCapsuleShape> capsule;
			if ( axis == 0 )
				capsule = std::make_unique<btCapsuleShapeX>( 0.1, 0.6 );
			else if ( axis == 1 )
				capsule = std::make_unique<btCapsuleShape>( 0.1, 0.6 );
			else
				capsule = std::make_unique<btCapsuleShapeZ>( 0.1, 0.6 );
			double bottom = axis == 1 ? 0.4 : 0.1; // centre height at which it touches
			o = onSlab( d, slab, capsule.get(), btVector3( 0.1, bottom - 0.02, 0.2 ), btQuaternion::getIdentity(),
						table );
			ASSERT_EQ( o.contacts.size(), axis == 1 ? 1u : 2u );
			for ( const Contact& c : o.contacts )
				EXPECT_NEAR( c.distance, -0.02, 1e-6 );
		}

		// A multi-sphere of two equal spheres is a capsule; one sphere is a sphere.
		btVector3 centres[3] = { btVector3( -0.3, 0, 0 ), btVector3( 0.3, 0, 0 ), btVector3( 0.1, 0, 0 ) };
		btScalar radii[3] = { 0.1, 0.1, 0.1 };
		btMultiSphereShape multi( centres, radii, 3 );
		o = onSlab( d, slab, &multi, btVector3( 0, 0.07, 0 ), btQuaternion::getIdentity(), table );
		ASSERT_EQ( o.contacts.size(), 2u );
		EXPECT_NEAR( o.deepest(), -0.03, 1e-6 );
		btMultiSphereShape single( centres, radii, 1 );
		o = onSlab( d, slab, &single, btVector3( 0, 0.07, 0 ), btQuaternion::getIdentity(), table );
		ASSERT_EQ( o.contacts.size(), 1u );
		EXPECT_NEAR( o.deepest(), -0.03, 1e-6 );
	}
	EXPECT_EQ( d.stats().pairsLeft, 0u );
}

TEST( PdBulletRounded, TiltedCapsuleAndScaledShapes )
{
	Dispatch d;
	Slab slab;
	// A capsule tilted 30 degrees about z: its lower end at 0.15 - 0.3 sin 30 = 0.0, so 0.1 deep.
	btCapsuleShapeX capsule( 0.1, 0.6 );
	Outcome o = onSlab( d, slab, &capsule, btVector3( 0, 0.15, 0 ), btQuaternion( btVector3( 0, 0, 1 ), SIMD_PI / 6 ) );
	ASSERT_GE( o.contacts.size(), 1u );
	EXPECT_NEAR( o.deepest(), -0.1, 1e-5 );
	// Scaling: a sphere scaled by 2 has radius 0.4.
	btSphereShape sphere( 0.2 );
	sphere.setLocalScaling( btVector3( 2, 2, 2 ) );
	o = onSlab( d, slab, &sphere, btVector3( 0, 0.35, 0 ) );
	ASSERT_EQ( o.contacts.size(), 1u );
	EXPECT_NEAR( o.deepest(), -0.05, 1e-6 );
}

TEST( PdBulletRounded, OptionLeavesRoundedClassesOnGImpact )
{
	Slab slab;
	pdBulletDef def = pdDefaultBulletDef();
	def.gimpactClasses = PD_BULLET_SPHERE | PD_BULLET_CAPSULE | PD_BULLET_MULTI_SPHERE;
	Dispatch d( &def );
	btSphereShape sphere( 0.2 );
	btCapsuleShape capsule( 0.1, 0.3 );
	btVector3 centres[2] = { btVector3( 0, 0, 0 ), btVector3( 0, 0.1, 0 ) };
	btScalar radii[2] = { 0.1, 0.1 };
	btMultiSphereShape multi( centres, radii, 2 );
	for ( btCollisionShape* shape : std::vector<btCollisionShape*>{ &sphere, &capsule, &multi } )
	{
		btCollisionObject body = makeObject( shape, btVector3( 0, 0.05, 0 ) );
		btCollisionObject floor = makeObject( slab.shape.get(), btVector3( 0, -0.2, 0 ), btQuaternion::getIdentity(), true );
		Outcome a = dispatchPair( d.dispatcher, body, floor, &body );
		Outcome b = dispatchPair( d.dispatcher, floor, body, &body );
		EXPECT_TRUE( a.isGImpact && b.isGImpact ) << shape->getName();
		EXPECT_EQ( a.processed + b.processed, 0u );
	}
	EXPECT_EQ( pdBullet_Register( &d.dispatcher, nullptr ), PD_STATUS_OK );
	pdBulletDef bad = pdDefaultBulletDef();
	bad.gimpactClasses = 1u << 10;
	EXPECT_EQ( pdBullet_Register( &d.dispatcher, &bad ), PD_STATUS_INVALID_DEF );
}

TEST( PdBulletRounded, DegenerateRoundedShapes )
{
	Dispatch d;
	Slab slab;
	btCollisionObject floor = makeObject( slab.shape.get(), btVector3( 0, -0.2, 0 ), btQuaternion::getIdentity(), true );
	// Zero radius: left to GImpact, counted, never a crash.
	btSphereShape point( 0.0 );
	btCapsuleShape needle( 0.0, 0.5 );
	btVector3 centres[2] = { btVector3( 0, 0, 0 ), btVector3( 0.3, 0, 0 ) };
	btScalar radii[2] = { 0.1, 0.2 };
	btMultiSphereShape lumpy( centres, radii, 2 ); // radii differ: not a capsule
	uint64_t left = 0;
	for ( btCollisionShape* shape : std::vector<btCollisionShape*>{ &point, &needle, &lumpy } )
	{
		btCollisionObject body = makeObject( shape, btVector3( 0, 0.05, 0 ) );
		Outcome a = dispatchPair( d.dispatcher, body, floor, &body );
		Outcome b = dispatchPair( d.dispatcher, floor, body, &body );
		EXPECT_EQ( a.processed + b.processed, 0u ) << shape->getName();
		for ( const Contact& c : a.contacts )
			EXPECT_TRUE( std::isfinite( (double)c.distance ) );
		left += 2;
		EXPECT_EQ( d.stats().pairsLeft, left ) << shape->getName();
	}
	// A zero-height capsule is a sphere.
	btCapsuleShape ball( 0.2, 0.0 );
	Outcome o = onSlab( d, slab, &ball, btVector3( 0, 0.15, 0 ) );
	ASSERT_EQ( o.contacts.size(), 1u );
	EXPECT_NEAR( o.deepest(), -0.05, 1e-6 );
}

namespace
{

// A square grid of cells x cells quads of half-size half in y = 0 (a sheet facing +y).
void makeGrid( BtMesh& m, double half, int cells )
{
	polydepth::test::makeFloor( m, half, cells );
}

// An open hemisphere (the lower half, facing in) of radius r centred at the origin.
void makeBowl( BtMesh& m, double r, int around, int down )
{
	m.vertices.insert( m.vertices.end(), { 0, (btScalar)-r, 0 } );
	for ( int i = 1; i <= down; ++i )
	{
		double phi = SIMD_HALF_PI * ( 1.0 - (double)i / down ); // from the bottom up to the rim
		for ( int j = 0; j < around; ++j )
		{
			double th = 2 * SIMD_PI * j / around;
			m.vertices.insert( m.vertices.end(), { (btScalar)( r * std::cos( phi ) * std::cos( th ) ),
												   (btScalar)( -r * std::sin( phi ) ),
												   (btScalar)( r * std::cos( phi ) * std::sin( th ) ) } );
		}
	}
	for ( int j = 0; j < around; ++j )
		m.indices.insert( m.indices.end(), { 0, 1 + j, 1 + ( j + 1 ) % around } );
	for ( int i = 1; i < down; ++i )
		for ( int j = 0; j < around; ++j )
		{
			int a = 1 + ( i - 1 ) * around + j, b = 1 + ( i - 1 ) * around + ( j + 1 ) % around;
			int c = a + around, e = b + around;
			m.indices.insert( m.indices.end(), { a, c, e, a, e, b } );
		}
	m.finish();
}

} // namespace

TEST( PdBulletRounded, SphereRollsDownATiltedMeshPlaneAtTheAnalyticSpeed )
{
	const double angle = 15.0 * SIMD_PI / 180.0, g = 9.81, r = 0.25;
	BtMesh gridData;
	makeGrid( gridData, 6.0, 48 ); // 0.25 m cells: the ball crosses an edge every few steps
	btGImpactMeshShape grid( gridData.array.get() );
	grid.updateBound();
	btSphereShape ball( (btScalar)r );

	polydepth::test::World w;
	w.world->setGravity( btVector3( 0, (btScalar)-g, 0 ) );
	btQuaternion tilt( btVector3( 0, 0, 1 ), (btScalar)angle ); // downhill toward -x
	btRigidBody* plane = w.add( &grid, 0, btVector3( 0, 0, 0 ) );
	btTransform pt = plane->getWorldTransform();
	pt.setRotation( tilt );
	plane->setWorldTransform( pt );
	plane->setFriction( 1 );
	btVector3 up = quatRotate( tilt, btVector3( 0, 1, 0 ) );
	btVector3 downhill = quatRotate( tilt, btVector3( -1, 0, 0 ) );
	btVector3 start = quatRotate( tilt, btVector3( 4.5, 0, 0.3 ) ) + up * (btScalar)r;
	btRigidBody* body = w.add( &ball, 1, start );
	body->setFriction( 1 );
	body->setActivationState( DISABLE_DEACTIVATION );

	const int perSecond = 60;
	double worst = 0;
	for ( int step = 1; step <= 2 * perSecond; ++step )
	{
		w.world->stepSimulation( 1.0f / perSecond, 0, 1.0f / perSecond );
		double t = (double)step / perSecond;
		double expected = 5.0 / 7.0 * g * std::sin( angle ) * t;
		btVector3 v = body->getLinearVelocity();
		if ( t >= 0.25 )
			worst = std::max( worst, std::fabs( (double)v.dot( downhill ) - expected ) / expected );
		// On the plane all the way: no bump lifts it, no edge catches it.
		double height = (double)( body->getWorldTransform().getOrigin() ).dot( up );
		EXPECT_NEAR( height, r, 0.005 * r ) << "t " << t;
	}
	EXPECT_LT( worst, 0.02 ) << "largest relative speed error over 0.25-2 s";
	// Rolling, not sliding: w r = v.
	btVector3 v = body->getLinearVelocity();
	EXPECT_NEAR( (double)body->getAngularVelocity().length() * r, (double)v.length(), 0.02 * (double)v.length() );
	pdBulletStats stats{};
	pdBullet_GetStats( &w.dispatcher, &stats );
	EXPECT_GT( stats.pairsProcessed, 100u );
}

namespace
{


// The capsule dropped into the bowl, stepped 15 s at 60 Hz; the largest speed of any point of it
// over the last second, its lowest centre height and its final pose.
struct BowlRun
{
	double restSpeed = 0, lowest = 1e9;
	btTransform pose;
};

BowlRun dropInBowl( const btVector3& start, btScalar rollingFriction )
{
	BtMesh bowlData;
	makeBowl( bowlData, 1.0, 48, 16 );
	btGImpactMeshShape bowl( bowlData.array.get() );
	bowl.updateBound();
	btCapsuleShapeX capsule( 0.1, 0.6 );
	polydepth::test::World w;
	btRigidBody* dish = w.add( &bowl, 0, btVector3( 0, 1, 0 ) ); // bottom at y = 0
	btRigidBody* body = w.add( &capsule, 1, start );
	body->setActivationState( DISABLE_DEACTIVATION );
	dish->setRollingFriction( rollingFriction );
	body->setRollingFriction( rollingFriction );
	BowlRun out;
	for ( int step = 0; step < 900; ++step )
	{
		w.world->stepSimulation( 1.0f / 60.0f, 0, 1.0f / 60.0f );
		out.lowest = std::min( out.lowest, (double)body->getWorldTransform().getOrigin().y() );
		if ( step >= 840 )
		{
			// Fastest point: spin about the axis moves the surface by w r, any other turn moves an
			// end's rim by w (half length + r).
			btVector3 ax = quatRotate( body->getWorldTransform().getRotation(), btVector3( 1, 0, 0 ) );
			btVector3 wv = body->getAngularVelocity();
			btVector3 along = ax * wv.dot( ax );
			double speed = body->getLinearVelocity().length() + along.length() * 0.1 + ( wv - along ).length() * 0.4;
			out.restSpeed = std::max( out.restSpeed, speed );
		}
	}
	out.pose = body->getWorldTransform();
	return out;
}

} // namespace

TEST( PdBulletRounded, CapsuleLyingInABowlComesToRest )
{
	// A capsule in a bowl rocks about its axis as an ideal rigid body does, with nothing to damp
	// it but sliding friction; Bullet's rolling friction, as a user sets it for round bodies,
	// damps it. Dropped level over the bottom, and off-centre so that it rolls.
	BowlRun centred = dropInBowl( btVector3( 0.0, 0.3, 0.0 ), 0.05f );
	EXPECT_LT( centred.restSpeed, 0.01 );
	BowlRun rolling = dropInBowl( btVector3( 0.2, 0.5, 0.1 ), 0.05f );
	EXPECT_LT( rolling.restSpeed, 0.01 );
	for ( const BowlRun* run : { &centred, &rolling } )
	{
		// Lying at the bottom: the end spheres touch the bowl (their centres 1 - r from the
		// bowl's centre), never through it.
		btVector3 p = run->pose.getOrigin();
		btVector3 axis = quatRotate( run->pose.getRotation(), btVector3( 1, 0, 0 ) );
		for ( int s : { -1, 1 } )
		{
			btVector3 end = p + axis * ( 0.3f * s ) - btVector3( 0, 1, 0 );
			EXPECT_NEAR( end.length(), 0.9, 0.005 );
		}
		EXPECT_GT( run->lowest, 0.1 );
	}
}
