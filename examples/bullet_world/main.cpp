// SPDX-License-Identifier: MIT
// The smallest complete Bullet world with PolyDepth as the narrow phase: three dynamic
// triangle-mesh boxes (btGImpactMeshShape) dropped onto a static triangle-mesh floor
// (btBvhTriangleMeshShape). Runs 2 s at 60 Hz, prints where each box came to rest and exits
// non-zero when one fell through the floor. The third box lands on the first (a mesh-mesh pair).
#include <polydepth/bullet.h>

#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletDynamicsCommon.h>

#include <cstdio>
#include <memory>
#include <vector>

namespace
{

// A box with half-extent 0.25 m, y up; triangles wound counter-clockwise seen from outside.
const btScalar kBoxVertices[] = { -0.25f, -0.25f, -0.25f, 0.25f, -0.25f, -0.25f, 0.25f, 0.25f, -0.25f,
								  -0.25f, 0.25f,  -0.25f, -0.25f, -0.25f, 0.25f,  0.25f, -0.25f, 0.25f,
								  0.25f,  0.25f,  0.25f,  -0.25f, 0.25f,  0.25f };
int kBoxIndices[] = { 0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
					  1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7 };

// A 10 m square floor at y = 0, two triangles facing up.
const btScalar kFloorVertices[] = { -5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, 5 };
int kFloorIndices[] = { 0, 2, 1, 0, 3, 2 };

} // namespace

int main()
{
	btDefaultCollisionConfiguration configuration;
	btCollisionDispatcher dispatcher( &configuration );
	// GImpact first (it handles every other pair that involves a GImpact shape), then PolyDepth
	// for the concave mesh pairs: the last registration wins. Both before any body is added.
	btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
	pdStatus status = polydepth::bullet::registerAlgorithm( &dispatcher, nullptr );
	if ( status != PD_STATUS_OK )
	{
		std::fprintf( stderr, "registerAlgorithm: %s\n", pdGetStatusString( status ) );
		return 1;
	}

	btDbvtBroadphase broadphase;
	btSequentialImpulseConstraintSolver solver;
	btDiscreteDynamicsWorld world( &dispatcher, &broadphase, &solver, &configuration );
	world.setGravity( btVector3( 0, -9.81f, 0 ) );

	// Bullet reads the triangles from these arrays for the shapes' lifetime (it does not copy them).
	btTriangleIndexVertexArray floorArray( 2, kFloorIndices, 3 * sizeof( int ), 4, const_cast<btScalar*>( kFloorVertices ),
										   3 * sizeof( btScalar ) );
	btBvhTriangleMeshShape floorShape( &floorArray, true );
	btTriangleIndexVertexArray boxArray( 12, kBoxIndices, 3 * sizeof( int ), 8, const_cast<btScalar*>( kBoxVertices ),
										 3 * sizeof( btScalar ) );
	btGImpactMeshShape boxShape( &boxArray );
	boxShape.updateBound();

	std::vector<std::unique_ptr<btDefaultMotionState>> states;
	std::vector<std::unique_ptr<btRigidBody>> bodies;
	auto add = [&]( btCollisionShape* shape, btScalar mass, const btVector3& position ) {
		btVector3 inertia( 0, 0, 0 );
		if ( mass > 0 )
			shape->calculateLocalInertia( mass, inertia );
		states.push_back( std::make_unique<btDefaultMotionState>( btTransform( btQuaternion::getIdentity(), position ) ) );
		bodies.push_back( std::make_unique<btRigidBody>(
			btRigidBody::btRigidBodyConstructionInfo( mass, states.back().get(), shape, inertia ) ) );
		world.addRigidBody( bodies.back().get() );
	};
	add( &floorShape, 0, btVector3( 0, 0, 0 ) );
	add( &boxShape, 1, btVector3( -0.6f, 0.5f, 0 ) );
	add( &boxShape, 1, btVector3( 0.6f, 1.0f, 0 ) );
	add( &boxShape, 1, btVector3( -0.6f, 1.5f, 0.05f ) ); // lands on the first box

	for ( int step = 0; step < 120; ++step )
		world.stepSimulation( 1.0f / 60.0f, 1, 1.0f / 60.0f );

	int fellThrough = 0;
	for ( size_t i = 1; i < bodies.size(); ++i )
	{
		btVector3 p = bodies[i]->getWorldTransform().getOrigin();
		std::printf( "box %zu rests at height %.3f m (half-extent 0.25 m)\n", i, (double)p.y() );
		if ( p.y() < 0.2f ) // the centre below the floor's surface minus most of a half-extent
			++fellThrough;
	}

	for ( auto& body : bodies )
		world.removeRigidBody( body.get() );
	polydepth::bullet::unregisterAlgorithm( &dispatcher );
	return fellThrough == 0 ? 0 : 1;
}
