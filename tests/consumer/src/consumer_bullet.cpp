// SPDX-License-Identifier: MIT
// A tiny outside Bullet program: register PolyDepth on a dispatcher and check the dispatch.
#include <polydepth/bullet.h>

#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <btBulletCollisionCommon.h>

#include <cstdio>

int main()
{
	btDefaultCollisionConfiguration configuration;
	btCollisionDispatcher dispatcher( &configuration );
	btGImpactCollisionAlgorithm::registerAlgorithm( &dispatcher );
	pdStatus status = polydepth::bullet::registerAlgorithm( &dispatcher, nullptr );
	std::printf( "consumer_bullet: register %s\n", pdStatusString( status ) );
	if ( status != PD_STATUS_OK )
	{
		return 1;
	}
	return polydepth::bullet::unregisterAlgorithm( &dispatcher ) == PD_STATUS_OK ? 0 : 1;
}
