// SPDX-License-Identifier: MIT
// A tiny outside Bullet program: register PolyDepth on a dispatcher and check the dispatch.
// With an argument (float or double) it also checks the Bullet precision it was compiled for.
#include <polydepth/bullet.h>

#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <btBulletCollisionCommon.h>

#include <cstdio>
#include <cstring>

int main( int argc, char** argv )
{
	const char* precision = sizeof( btScalar ) == sizeof( double ) ? "double" : "float";
	if ( argc > 1 && std::strcmp( argv[1], precision ) != 0 )
	{
		std::printf( "consumer_bullet: compiled for %s Bullet, expected %s\n", precision, argv[1] );
		return 1;
	}
	btDefaultCollisionConfiguration configuration;
	btCollisionDispatcher dispatcher( &configuration );
	btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
	pdStatus status = polydepth::bullet::registerAlgorithm( &dispatcher, nullptr );
	std::printf( "consumer_bullet (%s): register %s\n", precision, pdGetStatusString( status ) );
	if ( status != PD_STATUS_OK )
	{
		return 1;
	}
	return polydepth::bullet::unregisterAlgorithm( &dispatcher ) == PD_STATUS_OK ? 0 : 1;
}
