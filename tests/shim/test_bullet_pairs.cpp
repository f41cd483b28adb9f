// SPDX-License-Identifier: MIT
// PdBulletPairs: a GImpact mesh against every shape class the shim claims (boxes, polyhedral
// hulls, cylinders, cones, planes, heightfields, compounds), in both body orders; the option
// that leaves classes on GImpact; shapes without volume left to GImpact; the stated margins;
// the cylinder's tessellation bound; terrain patches that cost only the body's footprint.
// Oracles: analytic depths at known poses (a flat face on a flat crest or floor, a mesh
// below a plane), the same contacts from both orders, GImpact's algorithm type where a pair is
// not ours, and resting heights in short simulations.
#include "bullet_test_world.h"

#include "polydepth/polydepth.h"

#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionShapes/btConvexPointCloudShape.h>
#include <BulletCollision/CollisionShapes/btConvexTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btTetrahedronShape.h>
#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
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
	explicit Dispatch( const pdBulletDef* def = nullptr, bool polydepth = true )
	{
		btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
		if ( polydepth )
		{
			EXPECT_EQ( polydepth::bullet::registerAlgorithm( &dispatcher, def ), PD_STATUS_OK );
		}
	}
	~Dispatch() { polydepth::bullet::unregisterAlgorithm( &dispatcher ); }
	pdBulletStats stats()
	{
		pdBulletStats s{};
		pdBullet_GetStats( &dispatcher, &s );
		return s;
	}
};

// One contact point, seen from a reference body: the normal pushes that body out.
struct Contact
{
	btVector3 normal;
	btScalar distance;
};

struct Outcome
{
	bool isGImpact = false;
	uint64_t processed = 0;
	std::vector<Contact> contacts;
	bool finite = true;
	btScalar deepest() const
	{
		btScalar d = BT_LARGE_FLOAT;
		for ( const Contact& c : contacts )
			d = btMin( d, c.distance );
		return d;
	}
};

// findAlgorithm and `calls` processCollision calls for o0, o1 in that order; contacts are those
// of the last call, with normals pushing `reference` out.
Outcome dispatchPair( btCollisionDispatcher& d, btCollisionObject& o0, btCollisionObject& o1,
					  const btCollisionObject* reference, ebtDispatcherQueryType table = BT_CONTACT_POINT_ALGORITHMS,
					  int calls = 1 )
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
	for ( int i = 0; i < calls; ++i )
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
		btScalar sign = manifold->getBody0() == reference ? 1 : -1;
		for ( int p = 0; p < manifold->getNumContacts(); ++p )
		{
			const btManifoldPoint& mp = manifold->getContactPoint( p );
			Contact c{ mp.m_normalWorldOnB * sign, mp.getDistance() };
			out.finite =
				out.finite && std::isfinite( (double)c.distance ) && std::isfinite( (double)c.normal.length() );
			out.contacts.push_back( c );
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

// The GImpact torus (R 0.5, r 0.15, flat, its tube's crest a ring of vertices at y = +-0.15) and
// a GImpact slab 4 x 0.4 x 4 whose top face is y = 0 at the origin.
struct Meshes
{
	polydepth::test::TorusAndFloor torusAndFloor;
	BtMesh slabData;
	std::unique_ptr<btGImpactMeshShape> slab;
	btGImpactMeshShape* torus() { return torusAndFloor.torus.get(); }
	Meshes()
	{
		makeBoxMesh( slabData, btVector3( 2, 0.2, 2 ) );
		slab = std::make_unique<btGImpactMeshShape>( slabData.array.get() );
		slab->updateBound();
	}
};

pdBulletDef exactDef()
{
	pdBulletDef def = pdDefaultBulletDef();
	def.relativeSkin = 0.0; // depths of the surfaces themselves
	return def;
}

// Depth of `shape` (at position / rotation) on the slab's top face (y = 0 at slabY = -0.2),
// from the contacts pushing the shape out, in both body orders. Expects them to agree and to
// push straight up.
btScalar depthOnSlab( Dispatch& d, Meshes& m, btCollisionShape* shape, const btVector3& position,
					  const btQuaternion& rotation = btQuaternion::getIdentity() )
{
	btCollisionObject body = makeObject( shape, position, rotation );
	btCollisionObject slab = makeObject( m.slab.get(), btVector3( 0, -0.2, 0 ), btQuaternion::getIdentity(), true );
	Outcome a = dispatchPair( d.dispatcher, body, slab, &body );
	Outcome b = dispatchPair( d.dispatcher, slab, body, &body );
	EXPECT_FALSE( a.isGImpact );
	EXPECT_FALSE( a.contacts.empty() );
	EXPECT_EQ( a.contacts.size(), b.contacts.size() );
	for ( size_t i = 0; i < a.contacts.size() && i < b.contacts.size(); ++i )
	{
		EXPECT_NEAR( a.contacts[i].distance, b.contacts[i].distance, 1e-6 ) << "both orders";
		EXPECT_NEAR( ( a.contacts[i].normal - b.contacts[i].normal ).length(), 0, 1e-6 ) << "both orders";
		EXPECT_GT( a.contacts[i].normal.y(), 0.999 ) << "pushed up";
	}
	return a.deepest();
}

} // namespace

TEST( PdBulletPairs, ClaimsEveryClassInBothOrdersAndBothTables )
{
	Dispatch d;
	Meshes m;
	btBoxShape box( btVector3( 0.2, 0.2, 0.2 ) );
	const btScalar cube[] = { -0.2, -0.2, -0.2, 0.2, -0.2, -0.2, -0.2, 0.2, -0.2, 0.2, 0.2, -0.2,
							  -0.2, -0.2, 0.2,  0.2, -0.2, 0.2,  -0.2, 0.2, 0.2,  0.2, 0.2, 0.2 };
	btConvexHullShape hull( cube, 8, 3 * sizeof( btScalar ) );
	btVector3 cloudPoints[4] = { btVector3( 0, 0.3, 0 ), btVector3( -0.2, -0.1, -0.2 ), btVector3( 0.3, -0.1, 0 ),
								 btVector3( -0.2, -0.1, 0.2 ) };
	btConvexPointCloudShape cloud( cloudPoints, 4, btVector3( 1, 1, 1 ) );
	BtMesh tetra;
	tetra.vertices = { 0, 0.3f, 0, -0.2f, -0.1f, -0.2f, 0.3f, -0.1f, 0, -0.2f, -0.1f, 0.2f };
	tetra.indices = { 0, 1, 2, 0, 2, 3, 0, 3, 1, 1, 3, 2 };
	tetra.finish();
	btConvexTriangleMeshShape convexMesh( tetra.array.get() );
	btBU_Simplex1to4 simplex( cloudPoints[0], cloudPoints[1], cloudPoints[2], cloudPoints[3] );
	btCylinderShape cylinderY( btVector3( 0.2, 0.3, 0.2 ) );
	btCylinderShapeX cylinderX( btVector3( 0.3, 0.2, 0.2 ) );
	btCylinderShapeZ cylinderZ( btVector3( 0.2, 0.2, 0.3 ) );
	btConeShape cone( 0.2, 0.4 );
	btConeShapeX coneX( 0.2, 0.4 );
	btConeShapeZ coneZ( 0.2, 0.4 );
	btStaticPlaneShape plane( btVector3( 0, 1, 0 ), 0 );
	std::vector<float> heights( 16 * 16, 0.0f );
	btHeightfieldTerrainShape terrain( 16, 16, heights.data(), -1.0f, 1.0f, 1, false );
	btCompoundShape compound;
	compound.addChildShape( btTransform::getIdentity(), &box );
	struct Case
	{
		const char* name;
		btCollisionShape* shape;
		btVector3 position; // the torus lies at the origin; its crest at y = 0.15, x = 0.5
	};
	std::vector<Case> cases = {
		{ "box", &box, btVector3( 0.5, 0.3, 0 ) },
		{ "hull", &hull, btVector3( 0.5, 0.3, 0 ) },
		{ "point cloud", &cloud, btVector3( 0.5, 0.2, 0 ) },
		{ "convex triangle mesh", &convexMesh, btVector3( 0.5, 0.2, 0 ) },
		{ "simplex", &simplex, btVector3( 0.5, 0.2, 0 ) },
		{ "cylinder y", &cylinderY, btVector3( 0.5, 0.4, 0 ) },
		{ "cylinder x", &cylinderX, btVector3( 0.5, 0.3, 0 ) },
		{ "cylinder z", &cylinderZ, btVector3( 0.5, 0.3, 0 ) },
		{ "cone y", &cone, btVector3( 0.5, 0.3, 0 ) },
		{ "cone x", &coneX, btVector3( 0.7, 0.3, 0 ) }, // base at x = 0.5
		{ "cone z", &coneZ, btVector3( 0.5, 0.3, 0 ) },
		{ "plane", &plane, btVector3( 0, -0.1, 0 ) },
		{ "heightfield", &terrain, btVector3( 0, -0.1, 0 ) },
		{ "compound", &compound, btVector3( 0.5, 0.3, 0 ) },
	};
	for ( auto table : { BT_CONTACT_POINT_ALGORITHMS, BT_CLOSEST_POINT_ALGORITHMS } )
	{
		for ( const Case& c : cases )
		{
			SCOPED_TRACE( std::string( c.name ) + ( table == BT_CONTACT_POINT_ALGORITHMS ? " contact" : " closest" ) );
			bool ground = c.shape == &plane || c.shape == &terrain;
			btCollisionObject other = makeObject( c.shape, c.position, btQuaternion::getIdentity(), ground );
			btCollisionObject torus = makeObject( m.torus(), btVector3( 0, 0, 0 ) );
			Outcome a = dispatchPair( d.dispatcher, torus, other, &torus, table );
			Outcome b = dispatchPair( d.dispatcher, other, torus, &torus, table );
			EXPECT_FALSE( a.isGImpact );
			EXPECT_FALSE( b.isGImpact );
			EXPECT_GE( a.processed, 1u );
			EXPECT_EQ( a.processed, b.processed );
			EXPECT_TRUE( a.finite && b.finite );
			if ( table == BT_CONTACT_POINT_ALGORITHMS )
			{
				// Every case overlaps the torus by 0.05 (the ground ones its underside by 0.05).
				EXPECT_FALSE( a.contacts.empty() );
				EXPECT_NEAR( a.deepest(), b.deepest(), 1e-6 ) << "both orders";
				EXPECT_LT( a.deepest(), 0 );
			}
		}
	}
	EXPECT_EQ( d.stats().pairsLeft, 0u );
}

TEST( PdBulletPairs, OptionLeavesClassesOnGImpactAndUnregisterRestoresThem )
{
	Meshes m;
	btBoxShape box( btVector3( 0.2, 0.2, 0.2 ) );
	btCylinderShape cylinder( btVector3( 0.2, 0.2, 0.2 ) );
	btStaticPlaneShape plane( btVector3( 0, 1, 0 ), 0 );
	btCompoundShape compound;
	compound.addChildShape( btTransform::getIdentity(), &cylinder );
	btCollisionObject torus = makeObject( m.torus(), btVector3( 0, 0, 0 ) );
	btCollisionObject boxObj = makeObject( &box, btVector3( 0.5, 0.3, 0 ) );
	btCollisionObject cylinderObj = makeObject( &cylinder, btVector3( 0.5, 0.3, 0 ) );
	btCollisionObject planeObj = makeObject( &plane, btVector3( 0, -0.1, 0 ), btQuaternion::getIdentity(), true );
	btCollisionObject compoundObj = makeObject( &compound, btVector3( 0.5, 0.3, 0 ) );

	pdBulletDef def = pdDefaultBulletDef();
	def.gimpactClasses = PD_BULLET_BOX | PD_BULLET_PLANE | PD_BULLET_COMPOUND;
	Dispatch d( &def );
	for ( bool swap : { false, true } )
	{
		auto run = [&]( btCollisionObject& o ) {
			return swap ? dispatchPair( d.dispatcher, o, torus, &torus )
						: dispatchPair( d.dispatcher, torus, o, &torus );
		};
		EXPECT_TRUE( run( boxObj ).isGImpact );
		EXPECT_TRUE( run( planeObj ).isGImpact );
		EXPECT_TRUE( run( compoundObj ).isGImpact ) << "GImpact's own compound path";
		Outcome c = run( cylinderObj );
		EXPECT_FALSE( c.isGImpact );
		EXPECT_EQ( c.processed, 1u );
	}
	// Without the option the compound goes through Bullet's compound algorithm, its cylinder
	// child to PolyDepth.
	{
		Dispatch all;
		Outcome c = dispatchPair( all.dispatcher, compoundObj, torus, &torus );
		EXPECT_FALSE( c.isGImpact );
		EXPECT_EQ( c.processed, 1u );
		ASSERT_EQ( polydepth::bullet::unregisterAlgorithm( &all.dispatcher ), PD_STATUS_OK );
		for ( btCollisionObject* o : { &boxObj, &planeObj, &compoundObj, &cylinderObj } )
		{
			EXPECT_TRUE( dispatchPair( all.dispatcher, *o, torus, &torus ).isGImpact ) << "restored";
			EXPECT_TRUE( dispatchPair( all.dispatcher, torus, *o, &torus ).isGImpact ) << "restored";
		}
	}
	pdBulletDef bad = pdDefaultBulletDef();
	bad.gimpactClasses = 1u << 20;
	btDefaultCollisionConfiguration config;
	btCollisionDispatcher other( &config );
	EXPECT_EQ( pdBullet_Register( &other, &bad ), PD_STATUS_INVALID_DEF );
	bad = pdDefaultBulletDef();
	bad.roundError = 0.0;
	EXPECT_EQ( pdBullet_Register( &other, &bad ), PD_STATUS_INVALID_DEF );
}

TEST( PdBulletPairs, ShapesWithoutVolumeAreLeftToGImpact )
{
	Dispatch d;
	Meshes m;
	btBoxShape flatBox( btVector3( 0.2, 0, 0.2 ) );
	btBoxShape pointBox( btVector3( 0, 0, 0 ) );
	const btScalar square[] = { -0.2, 0, -0.2, 0.2, 0, -0.2, 0.2, 0, 0.2, -0.2, 0, 0.2 };
	btConvexHullShape flatHull( square, 4, 3 * sizeof( btScalar ) );
	btConvexHullShape emptyHull;
	btCylinderShape thinCylinder( btVector3( 0, 0.2, 0 ) );
	btConeShape flatCone( 0.2, 0 );
	btStaticPlaneShape noNormal( btVector3( 0, 0, 0 ), 0 );
	std::vector<btCollisionShape*> shapes = { &flatBox, &pointBox, &flatHull, &thinCylinder, &flatCone, &noNormal };
	int n = 0;
	for ( btCollisionShape* shape : shapes )
	{
		SCOPED_TRACE( n++ );
		btCollisionObject other =
			makeObject( shape, btVector3( 0.5, 0.15, 0 ), btQuaternion::getIdentity(), shape == &noNormal );
		btCollisionObject torus = makeObject( m.torus(), btVector3( 0, 0, 0 ) );
		uint64_t left = d.stats().pairsLeft;
		Outcome a = dispatchPair( d.dispatcher, torus, other, &torus, BT_CONTACT_POINT_ALGORITHMS, 2 );
		Outcome b = dispatchPair( d.dispatcher, other, torus, &torus, BT_CONTACT_POINT_ALGORITHMS, 2 );
		EXPECT_EQ( a.processed + b.processed, 0u ) << "not answered by PolyDepth";
		EXPECT_EQ( d.stats().pairsLeft, left + 2 ) << "handed to the previous create function";
		EXPECT_TRUE( a.finite && b.finite );
	}
	// A hull without points: no contacts from anyone (Bullet's convex algorithms read its first
	// point, so it is not handed on).
	btCollisionObject empty = makeObject( &emptyHull, btVector3( 0.5, 0.15, 0 ) );
	btCollisionObject torus = makeObject( m.torus(), btVector3( 0, 0, 0 ) );
	uint64_t left = d.stats().pairsLeft;
	Outcome a = dispatchPair( d.dispatcher, torus, empty, &torus );
	Outcome b = dispatchPair( d.dispatcher, empty, torus, &torus );
	EXPECT_EQ( a.processed + b.processed, 0u );
	EXPECT_TRUE( a.contacts.empty() && b.contacts.empty() );
	EXPECT_EQ( d.stats().pairsLeft, left );
}

TEST( PdBulletPairs, MeshBelowAPlaneGetsTheAnalyticDepth )
{
	pdBulletDef def = exactDef();
	Dispatch d( &def );
	Meshes m;
	// The plane n . x = c, tilted 0.3 rad about z; the torus turned the same way, its underside
	// `depth` below the plane (the crest ring at distance 0.15 from its centre plane).
	const btScalar angle = 0.3;
	btQuaternion tilt( btVector3( 0, 0, 1 ), angle );
	btVector3 n = quatRotate( tilt, btVector3( 0, 1, 0 ) );
	btStaticPlaneShape plane( n, 0.25 );
	for ( btScalar depth : { btScalar( 0.01 ), btScalar( 0.08 ), btScalar( 0.6 ), btScalar( 3.0 ) } )
	{
		SCOPED_TRACE( depth );
		btVector3 centre =
			n * ( btScalar( 0.25 ) + btScalar( 0.15 ) - depth ) + quatRotate( tilt, btVector3( 1, 0, 0.5 ) );
		btCollisionObject torus = makeObject( m.torus(), centre, tilt );
		btCollisionObject planeObj = makeObject( &plane, btVector3( 0, 0, 0 ), btQuaternion::getIdentity(), true );
		Outcome a = dispatchPair( d.dispatcher, torus, planeObj, &torus );
		Outcome b = dispatchPair( d.dispatcher, planeObj, torus, &torus );
		ASSERT_FALSE( a.contacts.empty() );
		EXPECT_NEAR( a.deepest(), -depth, 2e-4 * ( 1 + depth ) );
		EXPECT_NEAR( b.deepest(), a.deepest(), 1e-6 ) << "both orders";
		for ( const Contact& c : a.contacts )
			EXPECT_GT( c.normal.dot( n ), 0.999 ) << "out along the plane's normal, never through it";
	}
	EXPECT_GT( d.stats().groundPatches, 0u );
	EXPECT_EQ( d.stats().largestGroundPatch, 12 ) << "a plane is a box";
}

TEST( PdBulletPairs, FlatFacesOnTheSlabGetTheAnalyticDepthWithTheStatedMargins )
{
	pdBulletDef def = exactDef();
	Dispatch d( &def );
	Meshes m;
	const btScalar depth = 0.01;
	// Box and cylinder: getHalfExtentsWithMargin (the margin lies inside the given size).
	btBoxShape box( btVector3( 0.1, 0.1, 0.1 ) );
	EXPECT_NEAR( depthOnSlab( d, m, &box, btVector3( 0, 0.1 - depth, 0 ) ), -depth, 1e-4 );
	btBoxShape thinMargin( btVector3( 0.1, 0.1, 0.1 ) );
	thinMargin.setMargin( 0.001 );
	EXPECT_NEAR( depthOnSlab( d, m, &thinMargin, btVector3( 0, 0.1 - depth, 0 ) ), -depth, 1e-4 );
	btCylinderShape cylinder( btVector3( 0.1, 0.2, 0.1 ) );
	EXPECT_NEAR( depthOnSlab( d, m, &cylinder, btVector3( 0, 0.2 - depth, 0 ) ), -depth, 1e-4 );
	// Hull: its points, the margin not added.
	const btScalar cube[] = { -0.1, -0.1, -0.1, 0.1, -0.1, -0.1, -0.1, 0.1, -0.1, 0.1, 0.1, -0.1,
							  -0.1, -0.1, 0.1,  0.1, -0.1, 0.1,  -0.1, 0.1, 0.1,  0.1, 0.1, 0.1 };
	btConvexHullShape hull( cube, 8, 3 * sizeof( btScalar ) );
	hull.setMargin( 0.04 );
	EXPECT_NEAR( depthOnSlab( d, m, &hull, btVector3( 0, 0.1 - depth, 0 ) ), -depth, 1e-4 );
	// Scaled hull: the points as Bullet scales them.
	hull.setLocalScaling( btVector3( 2, 3, 2 ) );
	EXPECT_NEAR( depthOnSlab( d, m, &hull, btVector3( 0, 0.3 - depth, 0 ) ), -depth, 1e-4 );
	// Cone: its radius and height (base at -height / 2), the margin not added.
	btConeShape cone( 0.1, 0.3 );
	EXPECT_NEAR( depthOnSlab( d, m, &cone, btVector3( 0, 0.15 - depth, 0 ) ), -depth, 1e-4 );
	// The cone's apex down: a point into the floor.
	btQuaternion flip( btVector3( 1, 0, 0 ), SIMD_PI );
	EXPECT_NEAR( depthOnSlab( d, m, &cone, btVector3( 0, 0.15 - depth, 0 ), flip ), -depth, 1e-4 );
}

TEST( PdBulletPairs, CylinderRimStaysWithinTheRoundErrorAtEveryRoll )
{
	Meshes m;
	const btScalar r = 0.3, depth = 0.02;
	for ( double roundError : { 1e-3, 2e-2 } )
	{
		SCOPED_TRACE( roundError );
		pdBulletDef def = exactDef();
		def.roundError = roundError;
		Dispatch d( &def );
		btCylinderShapeZ cylinder( btVector3( r, r, 0.2 ) );
		int segments = (int)std::ceil( M_PI / ( 2.0 * std::atan( std::sqrt( roundError ) ) ) - 1e-9 );
		double worst = 0.0;
		for ( int k = 0; k <= 8; ++k )
		{
			// Rolls through one segment: corner down, edge middle down and between.
			btQuaternion roll( btVector3( 0, 0, 1 ), btScalar( 2.0 * M_PI / segments * k / 8.0 ) );
			btScalar got = depthOnSlab( d, m, &cylinder, btVector3( 0, r - depth, 0 ), roll );
			worst = std::fmax( worst, std::fabs( (double)got + depth ) );
		}
		EXPECT_LE( worst, roundError * r + 1e-4 ) << "the documented bound";
		EXPECT_GE( worst, 0.5 * roundError * r ) << "and the bound is the tessellation's, not slack";
	}
}

TEST( PdBulletPairs, CompoundChildrenGoThroughTheCompoundDispatch )
{
	pdBulletDef def = exactDef();
	Dispatch d( &def );
	Meshes m;
	btBoxShape box( btVector3( 0.1, 0.1, 0.1 ) );
	btSphereShape sphere( 0.1 );
	btCompoundShape compound;
	btTransform left = btTransform::getIdentity(), right = btTransform::getIdentity(), up = btTransform::getIdentity();
	left.setOrigin( btVector3( -0.3, 0, 0 ) );
	right.setOrigin( btVector3( 0.3, 0, 0 ) );
	up.setOrigin( btVector3( 0, 0.5, 0 ) );
	compound.addChildShape( left, &box );
	compound.addChildShape( right, &box );
	compound.addChildShape( up, &sphere ); // above the slab: no child pair
	for ( bool swap : { false, true } )
	{
		btCollisionObject body = makeObject( &compound, btVector3( 0, 0.09, 0 ) );
		btCollisionObject slab = makeObject( m.slab.get(), btVector3( 0, -0.2, 0 ), btQuaternion::getIdentity(), true );
		Outcome o =
			swap ? dispatchPair( d.dispatcher, slab, body, &body ) : dispatchPair( d.dispatcher, body, slab, &body );
		EXPECT_FALSE( o.isGImpact );
		EXPECT_EQ( o.processed, 2u ) << "the two box children";
		ASSERT_FALSE( o.contacts.empty() );
		EXPECT_NEAR( o.deepest(), -0.01, 1e-4 );
		for ( const Contact& c : o.contacts )
			EXPECT_GT( c.normal.y(), 0.999 );
	}
}

TEST( PdBulletPairs, CompoundThatChangesKeepsItsPairWorking )
{
	// One algorithm across frames while the compound loses a child and gets it back: the
	// children's algorithms are rebuilt for the new layout (the revision changed), none is left
	// pointing at a removed child.
	pdBulletDef def = exactDef();
	Dispatch d( &def );
	Meshes m;
	btBoxShape box( btVector3( 0.1, 0.1, 0.1 ) );
	btCompoundShape compound;
	btTransform left = btTransform::getIdentity(), right = btTransform::getIdentity();
	left.setOrigin( btVector3( -0.3, 0, 0 ) );
	right.setOrigin( btVector3( 0.3, 0, 0 ) );
	compound.addChildShape( left, &box );
	compound.addChildShape( right, &box );
	btCollisionObject body = makeObject( &compound, btVector3( 0, 0.09, 0 ) );
	btCollisionObject slab = makeObject( m.slab.get(), btVector3( 0, -0.2, 0 ), btQuaternion::getIdentity(), true );
	btCollisionObjectWrapper w0( nullptr, &compound, &body, body.getWorldTransform(), -1, -1 );
	btCollisionObjectWrapper w1( nullptr, slab.getCollisionShape(), &slab, slab.getWorldTransform(), -1, -1 );
	btCollisionAlgorithm* algo = d.dispatcher.findAlgorithm( &w0, &w1, nullptr, BT_CONTACT_POINT_ALGORITHMS );
	ASSERT_NE( algo, nullptr );
	auto step = [&]( uint64_t* processed, int* points )
	{
		pdBulletStats before{}, after{};
		pdBullet_GetStats( &d.dispatcher, &before );
		btManifoldResult result( &w0, &w1 );
		btDispatcherInfo info;
		algo->processCollision( &w0, &w1, info, &result );
		pdBullet_GetStats( &d.dispatcher, &after );
		*processed = after.pairsProcessed - before.pairsProcessed;
		btManifoldArray manifolds;
		algo->getAllContactManifolds( manifolds );
		*points = 0;
		for ( int k = 0; k < manifolds.size(); ++k )
			*points += manifolds[k]->getNumContacts();
	};
	uint64_t processed = 0;
	int both = 0, one = 0, again = 0;
	step( &processed, &both );
	EXPECT_EQ( processed, 2u );
	compound.removeChildShapeByIndex( 1 );
	step( &processed, &one );
	EXPECT_EQ( processed, 1u );
	EXPECT_GT( one, 0 );
	EXPECT_LT( one, both ) << "the removed child's points went with it";
	compound.addChildShape( right, &box );
	step( &processed, &again );
	EXPECT_EQ( processed, 2u );
	EXPECT_EQ( again, both );
	algo->~btCollisionAlgorithm();
	d.dispatcher.freeCollisionAlgorithm( algo );
}

TEST( PdBulletPairs, ResizedConvexShapeIsRebuilt )
{
	pdBulletDef def = exactDef();
	Dispatch d( &def );
	Meshes m;
	btBoxShape box( btVector3( 0.1, 0.1, 0.1 ) );
	EXPECT_NEAR( depthOnSlab( d, m, &box, btVector3( 0, 0.09, 0 ) ), -0.01, 1e-4 );
	uint64_t builds = d.stats().meshBuilds;
	box.setLocalScaling( btVector3( 1, 1.5, 1 ) );
	EXPECT_NEAR( depthOnSlab( d, m, &box, btVector3( 0, 0.09, 0 ) ), -0.06, 1e-4 );
	EXPECT_EQ( d.stats().meshBuilds, builds + 1 );
}

namespace
{

// A dynamics world whose static body is added first or last (the dispatcher's body order).
struct Drop
{
	polydepth::test::World world;
	explicit Drop( const pdBulletDef* def = nullptr ) : world( def ) {}
	btRigidBody* run( btCollisionShape* ground, const btVector3& groundAt, btCollisionShape* shape,
					  const btVector3& from, bool groundFirst, int steps,
					  const std::function<void( btRigidBody* )>& eachStep = nullptr )
	{
		btRigidBody* body = nullptr;
		if ( groundFirst )
			world.add( ground, 0, groundAt );
		body = world.add( shape, 1, from );
		if ( !groundFirst )
			world.add( ground, 0, groundAt );
		body->setActivationState( DISABLE_DEACTIVATION );
		for ( int s = 0; s < steps; ++s )
		{
			world.world->stepSimulation( 1.0f / 60.0f, 0, 1.0f / 60.0f );
			if ( eachStep )
				eachStep( body );
		}
		return body;
	}
};

} // namespace

TEST( PdBulletPairs, BoxAndHullRestOnAMeshFloorInBothOrders )
{
	Meshes m;
	btBoxShape box( btVector3( 0.15, 0.1, 0.2 ) );
	const btScalar prism[] = { -0.2, -0.1, -0.2, 0.2, -0.1, -0.2, 0, -0.1, 0.25, -0.1, 0.15, 0, 0.1, 0.15, 0.05 };
	btConvexHullShape hull( prism, 5, 3 * sizeof( btScalar ) );
	struct Case
	{
		btCollisionShape* shape;
		btScalar bottom; // the body's lowest point below its origin
	};
	for ( const Case& c : { Case{ &box, 0.1 }, Case{ &hull, 0.1 } } )
	{
		for ( bool groundFirst : { true, false } )
		{
			SCOPED_TRACE( std::string( c.shape->getName() ) + ( groundFirst ? ", floor first" : ", floor last" ) );
			Drop drop;
			btRigidBody* body =
				drop.run( m.slab.get(), btVector3( 0, -0.2, 0 ), c.shape, btVector3( 0, 0.4, 0 ), groundFirst, 120 );
			btScalar rest = body->getWorldTransform().getOrigin().y() - c.bottom;
			EXPECT_NEAR( rest, 0.0, 2e-3 ) << "on the floor, neither in it nor above it";
			EXPECT_LT( body->getLinearVelocity().length(), 0.01 );
			EXPECT_LT( body->getWorldTransform().getBasis().getColumn( 1 ).y(), 1.0001 );
			EXPECT_GT( body->getWorldTransform().getBasis().getColumn( 1 ).y(), 0.999 ) << "upright";
		}
	}
}

TEST( PdBulletPairs, TorusRestsOnAPlaneAndABoxRestsOnTheTorus )
{
	Meshes m;
	btStaticPlaneShape plane( btVector3( 0, 1, 0 ), 0 );
	btBoxShape lid( btVector3( 0.7, 0.05, 0.7 ) ); // lies across the whole crest ring
	for ( bool planeFirst : { true, false } )
	{
		SCOPED_TRACE( planeFirst ? "plane first" : "plane last" );
		polydepth::test::World w;
		btRigidBody* torus = nullptr;
		if ( planeFirst )
			w.add( &plane, 0, btVector3( 0, 0, 0 ) );
		torus = w.add( m.torus(), 1, btVector3( 0, 0.2, 0 ) );
		btRigidBody* top = w.add( &lid, 0.5, btVector3( 0, 0.5, 0 ) );
		if ( !planeFirst )
			w.add( &plane, 0, btVector3( 0, 0, 0 ) );
		torus->setActivationState( DISABLE_DEACTIVATION );
		top->setActivationState( DISABLE_DEACTIVATION );
		for ( int s = 0; s < 180; ++s )
			w.world->stepSimulation( 1.0f / 60.0f, 0, 1.0f / 60.0f );
		EXPECT_NEAR( torus->getWorldTransform().getOrigin().y(), 0.15, 3e-3 );
		EXPECT_NEAR( top->getWorldTransform().getOrigin().y(), 0.15 + 0.15 + 0.05, 5e-3 ) << "on the crest";
		EXPECT_LT( torus->getLinearVelocity().length(), 0.01 );
		EXPECT_LT( top->getLinearVelocity().length(), 0.01 ) << "still";
	}
}

namespace
{

// A heightfield of n x n grid points `cell` apart, heights from f(x, z) (world), placed so that
// its heights are world y.
struct Terrain
{
	std::vector<float> heights;
	std::unique_ptr<btHeightfieldTerrainShape> shape;
	btVector3 origin;
	Terrain( int n, double cell, const std::function<double( double, double )>& f, double minH, double maxH )
	{
		heights.resize( (size_t)n * (size_t)n );
		double half = 0.5 * cell * ( n - 1 );
		for ( int j = 0; j < n; ++j )
			for ( int i = 0; i < n; ++i )
				heights[(size_t)j * n + i] = (float)f( -half + cell * i, -half + cell * j );
		shape = std::make_unique<btHeightfieldTerrainShape>( n, n, heights.data(), (btScalar)minH, (btScalar)maxH, 1,
															 false );
		shape->setLocalScaling( btVector3( (btScalar)cell, 1, (btScalar)cell ) );
		origin = btVector3( 0, (btScalar)( 0.5 * ( minH + maxH ) ), 0 );
	}
};

} // namespace

TEST( PdBulletPairs, TorusSlidesAcrossTerrainCellsWithoutFallingThrough )
{
	// A flat terrain with 0.2 m cells: a torus dropped with a sideways speed slides over several
	// metres of cell edges; a bumpy one: it settles on the bumps. Its underside never goes more
	// than a few millimetres below the surface.
	Meshes m;
	for ( bool bumpy : { false, true } )
	{
		SCOPED_TRACE( bumpy ? "bumps" : "flat" );
		auto f = [bumpy]( double x, double z )
		{ return bumpy ? 0.1 * std::sin( 1.3 * x ) * std::cos( 1.1 * z ) : 0.0; };
		Terrain t( 101, 0.2, f, -1.0, 1.0 );
		Drop drop;
		double worst = 0.0;
		bool started = false;
		btRigidBody* torus = drop.run( t.shape.get(), t.origin, m.torus(), btVector3( -3, 0.4, 0.1 ), true, 240,
									   [&]( btRigidBody* b )
									   {
										   if ( !started && !bumpy )
										   {
											   b->setFriction( 0.05f );
											   b->setLinearVelocity( btVector3( 2.5, 0, 0 ) );
										   }
										   started = true;
										   // The torus's lowest crest point against the surface under it.
										   btVector3 c = b->getWorldTransform().getOrigin();
										   btVector3 down = b->getWorldTransform().getBasis().getColumn( 1 );
										   for ( int k = 0; k < 24; ++k )
										   {
											   double a = 2 * M_PI * k / 24;
											   btVector3 p =
												   c +
												   b->getWorldTransform().getBasis() *
													   btVector3( 0.5 * std::cos( a ), 0, 0.5 * std::sin( a ) ) -
												   down * 0.15;
											   worst = std::fmax( worst, f( p.x(), p.z() ) - p.y() );
										   }
									   } );
		EXPECT_LT( worst, 0.015 ) << "deepest below the surface";
		EXPECT_GT( torus->getWorldTransform().getOrigin().y(), 0.0 );
		pdBulletStats stats{};
		pdBullet_GetStats( &drop.world.dispatcher, &stats );
		if ( !bumpy )
		{
			EXPECT_GT( torus->getWorldTransform().getOrigin().x(), 0.0 ) << "it slid over many cells";
			EXPECT_GT( stats.groundPatches, 1u ) << "the patch follows the torus";
		}
		EXPECT_LT( stats.largestGroundPatch, 1500 ) << "the cells under the torus, not the terrain";
	}
}

TEST( PdBulletPairs, LargeTerrainCostsOnlyTheFootprintAndChangesAreSeen )
{
	// 1024 x 1024 points (2 million triangles): a pair's patch holds the cells under the torus.
	pdBulletDef def = exactDef();
	Dispatch d( &def );
	Meshes m;
	Terrain t(
		1024, 0.1, []( double, double ) { return 0.0; }, -1.0, 1.0 );
	btCollisionObject ground = makeObject( t.shape.get(), t.origin, btQuaternion::getIdentity(), true );
	btCollisionObject torus = makeObject( m.torus(), btVector3( 3.05, 0.14, -7.0 ) );
	size_t bytes = pdGetAllocatorStats().bytes;
	Outcome a = dispatchPair( d.dispatcher, torus, ground, &torus );
	EXPECT_NEAR( a.deepest(), -0.01, 1e-4 );
	for ( const Contact& c : a.contacts )
		EXPECT_GT( c.normal.y(), 0.999 );
	EXPECT_LT( d.stats().largestGroundPatch, 4000 ) << "of the terrain's 2 million";
	EXPECT_LT( pdGetAllocatorStats().bytes, bytes + 4 * 1024 * 1024 ) << "no copy of the terrain";

	// The terrain raised by 0.03 under the torus, in place: the next call sees it.
	for ( float& h : t.heights )
		h = 0.03f;
	btCollisionObjectWrapper w0( nullptr, torus.getCollisionShape(), &torus, torus.getWorldTransform(), -1, -1 );
	btCollisionObjectWrapper w1( nullptr, ground.getCollisionShape(), &ground, ground.getWorldTransform(), -1, -1 );
	btCollisionAlgorithm* algo = d.dispatcher.findAlgorithm( &w0, &w1, nullptr, BT_CONTACT_POINT_ALGORITHMS );
	btManifoldResult result( &w0, &w1 );
	btDispatcherInfo info;
	algo->processCollision( &w0, &w1, info, &result );
	for ( float& h : t.heights )
		h = 0.05f;
	algo->processCollision( &w0, &w1, info, &result );
	btManifoldArray manifolds;
	algo->getAllContactManifolds( manifolds );
	btScalar deepest = 0;
	for ( int i = 0; i < manifolds.size(); ++i )
		for ( int p = 0; p < manifolds[i]->getNumContacts(); ++p )
			deepest = btMin( deepest, manifolds[i]->getContactPoint( p ).getDistance() );
	EXPECT_NEAR( deepest, -0.06, 1e-4 ) << "the heights as they are now";
	algo->~btCollisionAlgorithm();
	d.dispatcher.freeCollisionAlgorithm( algo );
}
