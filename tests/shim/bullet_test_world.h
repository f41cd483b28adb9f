// SPDX-License-Identifier: MIT
// What the Bullet shim tests build on: triangle data that outlives the Bullet shapes made from
// it, the flat torus and the floor grid as Bullet meshes, the torus-and-floor shape pair, and a
// dynamics world with GImpact and the PolyDepth algorithm registered.
#pragma once

#include "polydepth/bullet.h"
#include "shapes.h"

#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletDynamicsCommon.h>

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace polydepth::test
{

// Triangle data that outlives the Bullet shapes built on it.
struct BtMesh
{
	std::vector<btScalar> vertices;
	std::vector<int> indices;
	std::unique_ptr<btTriangleIndexVertexArray> array;

	void finish()
	{
		array = std::make_unique<btTriangleIndexVertexArray>( (int)( indices.size() / 3 ), indices.data(),
															  3 * (int)sizeof( int ), (int)( vertices.size() / 3 ),
															  vertices.data(), 3 * (int)sizeof( btScalar ) );
	}
};

// Torus lying flat (axis +y), R 0.5, r 0.15; minor segments a multiple of 4 put a vertex ring
// exactly at the top and bottom of the tube.
inline void makeTorus( BtMesh& m, int major = 24, int minor = 8 )
{
	smpSoup soup{};
	ASSERT_TRUE( smpMakeTorus( 0.5, 0.15, major, minor, &soup ) );
	for ( int i = 0; i < soup.vertexCount; ++i )
	{
		const double* v = soup.vertices + 3 * i;
		m.vertices.insert( m.vertices.end(), { (btScalar)v[0], (btScalar)v[2], (btScalar)-v[1] } );
	}
	for ( int i = 0; i < 3 * soup.triangleCount; ++i )
	{
		m.indices.push_back( (int)soup.indices[i] );
	}
	smpFreeSoup( &soup );
	m.finish();
}

// A closed box mesh (12 triangles, wound outward) of half extents h.
inline void makeBoxMesh( BtMesh& m, btVector3 h )
{
	for ( int i = 0; i < 8; ++i )
		m.vertices.insert( m.vertices.end(),
						   { ( i & 1 ) ? h.x() : -h.x(), ( i & 2 ) ? h.y() : -h.y(), ( i & 4 ) ? h.z() : -h.z() } );
	m.indices = { 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
				  2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5 };
	m.finish();
}

// Square grid in the plane y = 0, half-size half, cells x cells quads of two triangles.
inline void makeFloor( BtMesh& m, double half, int cells )
{
	for ( int i = 0; i <= cells; ++i )
		for ( int j = 0; j <= cells; ++j )
			m.vertices.insert( m.vertices.end(), { (btScalar)( -half + 2 * half * i / cells ), 0,
												   (btScalar)( -half + 2 * half * j / cells ) } );
	for ( int i = 0; i < cells; ++i )
		for ( int j = 0; j < cells; ++j )
		{
			int a = i * ( cells + 1 ) + j, b = a + 1, c = a + cells + 1, d = c + 1;
			m.indices.insert( m.indices.end(), { a, b, d, a, d, c } );
		}
	m.finish();
}

// A GImpact body over a static mesh floor 10 m across (4 x 4 cells), with the triangle data
// they are built on: fill and finish bodyData, then build().
struct BodyOnFloor
{
	BtMesh bodyData, floorData;
	std::unique_ptr<btGImpactMeshShape> body;
	std::unique_ptr<btBvhTriangleMeshShape> floor;

	void build()
	{
		body = std::make_unique<btGImpactMeshShape>( bodyData.array.get() );
		body->updateBound();
		makeFloor( floorData, 5.0, 4 );
		floor = std::make_unique<btBvhTriangleMeshShape>( floorData.array.get(), true );
	}
};

// A GImpact torus and a static-mesh floor, with the triangle data they are built on.
struct TorusAndFloor
{
	BtMesh torusData, floorData;
	std::unique_ptr<btGImpactMeshShape> torus;
	std::unique_ptr<btBvhTriangleMeshShape> floor;

	explicit TorusAndFloor( int major = 24, int minor = 8, double floorHalf = 1.0, int floorCells = 4 )
	{
		makeTorus( torusData, major, minor );
		makeFloor( floorData, floorHalf, floorCells );
		torus = std::make_unique<btGImpactMeshShape>( torusData.array.get() );
		torus->updateBound();
		floor = std::make_unique<btBvhTriangleMeshShape>( floorData.array.get(), true );
	}
};

/// Adds two children, both child, to compound: at x = -offset and x = +offset in its frame.
inline void addSideBySide( btCompoundShape& compound, btCollisionShape* child, btScalar offset )
{
	for ( btScalar x : { -offset, offset } )
	{
		btTransform at = btTransform::getIdentity();
		at.setOrigin( btVector3( x, 0, 0 ) );
		compound.addChildShape( at, child );
	}
}

/// Adds a body of shape (static when mass is 0) at position to world; bodies and states own it.
inline btRigidBody* addOwnedBody( btDynamicsWorld* world, std::vector<std::unique_ptr<btRigidBody>>& bodies,
								  std::vector<std::unique_ptr<btDefaultMotionState>>& states, btCollisionShape* shape,
								  btScalar mass, const btVector3& position )
{
	btVector3 inertia( 0, 0, 0 );
	if ( mass > 0 )
	{
		shape->calculateLocalInertia( mass, inertia );
	}
	btTransform t = btTransform::getIdentity();
	t.setOrigin( position );
	states.push_back( std::make_unique<btDefaultMotionState>( t ) );
	btRigidBody::btRigidBodyConstructionInfo info( mass, states.back().get(), shape, inertia );
	bodies.push_back( std::make_unique<btRigidBody>( info ) );
	world->addRigidBody( bodies.back().get() );
	return bodies.back().get();
}

/// Takes the bodies added by addOwnedBody out of world, frees them, then the world, and takes
/// the PolyDepth algorithm off the dispatcher: the teardown of every test world.
template <class DynamicsWorld>
void tearDownOwnedWorld( std::unique_ptr<DynamicsWorld>& world, std::vector<std::unique_ptr<btRigidBody>>& bodies,
						 btCollisionDispatcher* dispatcher )
{
	for ( auto& b : bodies )
	{
		world->removeRigidBody( b.get() );
	}
	bodies.clear();
	world.reset();
	polydepth::bullet::unregisterAlgorithm( dispatcher );
}

// A dynamics world (gravity -9.81 in y) whose dispatcher has GImpact's algorithm and, over it,
// the PolyDepth algorithm with def (defaults when null); owns the bodies added to it.
struct World
{
	btDefaultCollisionConfiguration config;
	btCollisionDispatcher dispatcher{ &config };
	btDbvtBroadphase broadphase;
	btSequentialImpulseConstraintSolver solver;
	std::unique_ptr<btDiscreteDynamicsWorld> world;
	std::vector<std::unique_ptr<btRigidBody>> bodies;
	std::vector<std::unique_ptr<btDefaultMotionState>> states;

	explicit World( const pdBulletDef* def = nullptr )
	{
		btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
		EXPECT_EQ( polydepth::bullet::registerAlgorithm( &dispatcher, def ), PD_STATUS_OK );
		world = std::make_unique<btDiscreteDynamicsWorld>( &dispatcher, &broadphase, &solver, &config );
		world->setGravity( btVector3( 0, -9.81f, 0 ) );
	}
	~World() { tearDownOwnedWorld( world, bodies, &dispatcher ); }
	btRigidBody* add( btCollisionShape* shape, btScalar mass, const btVector3& position )
	{
		return addOwnedBody( world.get(), bodies, states, shape, mass, position );
	}
};

/// Adds s's floor (static, at the origin) and then its torus (mass 1) at torusPosition to w;
/// returns the torus's body.
inline btRigidBody* addFloorAndTorus( World& w, const TorusAndFloor& s, const btVector3& torusPosition )
{
	w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
	return w.add( s.torus.get(), 1, torusPosition );
}

} // namespace polydepth::test
