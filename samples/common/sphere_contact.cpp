// SPDX-License-Identifier: MIT
// The exact-sphere peer's contacts (see sphere_contact.h).
#include "sphere_contact.h"

#include <BulletCollision/CollisionDispatch/btActivatingCollisionAlgorithm.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <cmath>
#include <new>

double smpExactSphereGap( const double a[3], double ra, const double b[3], double rb, double normal[3] )
{
	double d[3] = { a[0] - b[0], a[1] - b[1], a[2] - b[2] };
	double length = std::sqrt( d[0] * d[0] + d[1] * d[1] + d[2] * d[2] );
	for ( int k = 0; k < 3; ++k )
		normal[k] = length > 0.0 ? d[k] / length : ( k == 0 ? 1.0 : 0.0 );
	return length - ra - rb;
}

namespace
{

class ExactSphereAlgorithm : public btActivatingCollisionAlgorithm
{
  public:
	ExactSphereAlgorithm( const btCollisionAlgorithmConstructionInfo& info, const btCollisionObjectWrapper* a,
						  const btCollisionObjectWrapper* b, double reach )
		: btActivatingCollisionAlgorithm( info, a, b ), m_reach( reach )
	{
		m_manifold = m_dispatcher->getNewManifold( a->getCollisionObject(), b->getCollisionObject() );
		// The manifold drops points farther apart than its breaking threshold (a radius fraction
		// by default): speculative points up to the reach must stay.
		m_manifold->setContactBreakingThreshold( btScalar( reach ) );
	}
	~ExactSphereAlgorithm() override
	{
		if ( m_manifold != nullptr )
			m_dispatcher->releaseManifold( m_manifold );
	}
	void processCollision( const btCollisionObjectWrapper* a, const btCollisionObjectWrapper* b,
						   const btDispatcherInfo&, btManifoldResult* result ) override
	{
		// The manifold is not cleared: the new point replaces the cached one it matches and keeps
		// its impulse, so the solver warm-starts as with Bullet's own persistent contacts.
		result->setPersistentManifold( m_manifold );
		const btVector3 pa = a->getWorldTransform().getOrigin(), pb = b->getWorldTransform().getOrigin();
		const double ra = static_cast<const btSphereShape*>( a->getCollisionShape() )->getRadius();
		const double rb = static_cast<const btSphereShape*>( b->getCollisionShape() )->getRadius();
		const double ca[3] = { pa.x(), pa.y(), pa.z() }, cb[3] = { pb.x(), pb.y(), pb.z() };
		double n[3];
		const double gap = smpExactSphereGap( ca, ra, cb, rb, n );
		if ( gap <= m_reach )
		{
			const btVector3 normal = btVector3( btScalar( n[0] ), btScalar( n[1] ), btScalar( n[2] ) );
			result->addContactPoint( normal, pb + normal * btScalar( rb ), btScalar( gap ) );
		}
		result->refreshContactPoints();
	}
	btScalar calculateTimeOfImpact( btCollisionObject*, btCollisionObject*, const btDispatcherInfo&,
									btManifoldResult* ) override
	{
		return btScalar( 1 );
	}
	void getAllContactManifolds( btManifoldArray& manifolds ) override
	{
		if ( m_manifold != nullptr )
			manifolds.push_back( m_manifold );
	}

  private:
	btPersistentManifold* m_manifold = nullptr;
	double m_reach;
};

struct ExactSphereCreateFunc : public btCollisionAlgorithmCreateFunc
{
	double reach = 0.0;
	btCollisionAlgorithm* CreateCollisionAlgorithm( btCollisionAlgorithmConstructionInfo& info,
													const btCollisionObjectWrapper* a,
													const btCollisionObjectWrapper* b ) override
	{
		void* memory = info.m_dispatcher1->allocateCollisionAlgorithm( sizeof( ExactSphereAlgorithm ) );
		return new ( memory ) ExactSphereAlgorithm( info, a, b, reach );
	}
};

} // namespace

std::unique_ptr<btCollisionAlgorithmCreateFunc> smpRegisterExactSpheres( btCollisionDispatcher* dispatcher,
																		 double reach )
{
	std::unique_ptr<ExactSphereCreateFunc> function( new ExactSphereCreateFunc() );
	function->reach = reach;
	dispatcher->registerCollisionCreateFunc( SPHERE_SHAPE_PROXYTYPE, SPHERE_SHAPE_PROXYTYPE, function.get() );
	return function;
}
