// SPDX-License-Identifier: MIT
// A btCompoundShape against a concave mesh: each child whose bounds, grown by the step's motion,
// reach the other shape's gets its own algorithm from the dispatcher's table (PolyDepth's for
// the classes it claims). Bullet's btCompoundCollisionAlgorithm culls children by their bounds
// at this frame's poses and frees a child's algorithm, manifold and all, as soon as those stop
// overlapping: a child falling at 4 m/s (7 cm a step) got no speculative contact and landed
// 4 cm deep in a torus. Grown bounds let the child's algorithm see the approach a step ahead.
#include "shim_internal.h"

#include <BulletCollision/CollisionDispatch/btActivatingCollisionAlgorithm.h>
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <cmath>
#include <new>
#include <vector>

namespace polydepth::bullet
{
inline namespace PD_BULLET_ABI
{

namespace
{

// How far any point of obj's shape can move in dt: its speed plus its spin times the shape's
// bounding radius about the body's origin (the centre of mass).
btScalar motionReach( const btCollisionObjectWrapper* wrap, btScalar dt )
{
	const btRigidBody* body = btRigidBody::upcast( wrap->getCollisionObject() );
	if ( body == nullptr || !( dt > 0 ) )
	{
		return 0;
	}
	btVector3 centre;
	btScalar radius = 0;
	wrap->getCollisionShape()->getBoundingSphere( centre, radius );
	btScalar offset = ( wrap->getWorldTransform() * centre - body->getCenterOfMassPosition() ).length();
	btScalar reach =
		( body->getLinearVelocity().length() + body->getAngularVelocity().length() * ( radius + offset ) ) * dt;
	return std::isfinite( (double)reach ) ? reach : btScalar( 0 );
}

class CompoundAlgorithm : public btActivatingCollisionAlgorithm
{
  public:
	CompoundAlgorithm( const btCollisionAlgorithmConstructionInfo& ci, const btCollisionObjectWrapper* body0Wrap,
					   const btCollisionObjectWrapper* body1Wrap )
		: btActivatingCollisionAlgorithm( ci, body0Wrap, body1Wrap )
	{
	}
	~CompoundAlgorithm() override { freeChildren(); }

	void processCollision( const btCollisionObjectWrapper* body0Wrap, const btCollisionObjectWrapper* body1Wrap,
						   const btDispatcherInfo& dispatchInfo, btManifoldResult* resultOut ) override;

	btScalar calculateTimeOfImpact( btCollisionObject*, btCollisionObject*, const btDispatcherInfo&,
									btManifoldResult* ) override
	{
		return 1;
	}

	void getAllContactManifolds( btManifoldArray& manifoldArray ) override
	{
		for ( btCollisionAlgorithm* child : m_children )
		{
			if ( child != nullptr )
			{
				child->getAllContactManifolds( manifoldArray );
			}
		}
	}

  private:
	void freeChild( int index )
	{
		if ( m_children[(size_t)index] != nullptr )
		{
			m_children[(size_t)index]->~btCollisionAlgorithm();
			m_dispatcher->freeCollisionAlgorithm( m_children[(size_t)index] );
			m_children[(size_t)index] = nullptr;
		}
	}
	void freeChildren()
	{
		for ( int i = 0; i < (int)m_children.size(); ++i )
		{
			freeChild( i );
		}
	}
	void processChild( const btCollisionObjectWrapper* compoundWrap, const btCollisionObjectWrapper* otherWrap,
					   int index, const btDispatcherInfo& dispatchInfo, btManifoldResult* resultOut );

	std::vector<btCollisionAlgorithm*> m_children; ///< per child index; NULL while out of reach
	int m_revision = -1;                           ///< the compound's update revision they were made for
};

// Runs child index against the other shape in the child's world frame, with the result's
// wrapper on the compound's side swapped for the child's (as Bullet's compound algorithm does,
// so points land on the right body and carry the child's index).
void CompoundAlgorithm::processChild( const btCollisionObjectWrapper* compoundWrap,
									  const btCollisionObjectWrapper* otherWrap, int index,
									  const btDispatcherInfo& dispatchInfo, btManifoldResult* resultOut )
{
	const auto* compound = static_cast<const btCompoundShape*>( compoundWrap->getCollisionShape() );
	const btTransform& childTrans = compound->getChildTransform( index );
	btTransform childWorld = compoundWrap->getWorldTransform() * childTrans;
	btTransform preTransform = childTrans;
	if ( compoundWrap->m_preTransform != nullptr )
	{
		preTransform = preTransform * *compoundWrap->m_preTransform;
	}
	btCollisionObjectWrapper childWrap( compoundWrap, compound->getChildShape( index ),
										compoundWrap->getCollisionObject(), childWorld, preTransform, -1, index );
	bool closest = resultOut->m_closestPointDistanceThreshold > 0;
	btCollisionAlgorithm* algorithm =
		closest ? m_dispatcher->findAlgorithm( &childWrap, otherWrap, nullptr, BT_CLOSEST_POINT_ALGORITHMS )
				: m_children[(size_t)index];
	if ( algorithm == nullptr )
	{
		algorithm = m_dispatcher->findAlgorithm( &childWrap, otherWrap, nullptr, BT_CONTACT_POINT_ALGORITHMS );
		m_children[(size_t)index] = algorithm;
	}
	bool onBody0 = resultOut->getBody0Internal() == compoundWrap->getCollisionObject();
	const btCollisionObjectWrapper* saved = onBody0 ? resultOut->getBody0Wrap() : resultOut->getBody1Wrap();
	if ( onBody0 )
	{
		resultOut->setBody0Wrap( &childWrap );
		resultOut->setShapeIdentifiersA( -1, index );
	}
	else
	{
		resultOut->setBody1Wrap( &childWrap );
		resultOut->setShapeIdentifiersB( -1, index );
	}
	algorithm->processCollision( &childWrap, otherWrap, dispatchInfo, resultOut );
	if ( onBody0 )
	{
		resultOut->setBody0Wrap( saved );
	}
	else
	{
		resultOut->setBody1Wrap( saved );
	}
	if ( closest )
	{
		algorithm->~btCollisionAlgorithm();
		m_dispatcher->freeCollisionAlgorithm( algorithm );
	}
}

void CompoundAlgorithm::processCollision( const btCollisionObjectWrapper* body0Wrap,
										  const btCollisionObjectWrapper* body1Wrap,
										  const btDispatcherInfo& dispatchInfo, btManifoldResult* resultOut )
{
	bool swapped = !body0Wrap->getCollisionShape()->isCompound();
	const btCollisionObjectWrapper* compoundWrap = swapped ? body1Wrap : body0Wrap;
	const btCollisionObjectWrapper* otherWrap = swapped ? body0Wrap : body1Wrap;
	const auto* compound = static_cast<const btCompoundShape*>( compoundWrap->getCollisionShape() );
	if ( compound->getUpdateRevision() != m_revision || (int)m_children.size() != compound->getNumChildShapes() )
	{
		freeChildren();
		m_children.assign( (size_t)compound->getNumChildShapes(), nullptr );
		m_revision = compound->getUpdateRevision();
	}

	// A child within reach: its bounds grown by what both bodies can move this step (whole-body
	// bounds, so a child is never missed) and by the contact threshold reach the other's.
	btScalar dt = dispatchInfo.m_timeStep;
	btScalar grow = motionReach( compoundWrap, dt ) + motionReach( otherWrap, dt ) +
					btMax( resultOut->m_closestPointDistanceThreshold,
						   compound->getContactBreakingThreshold( gContactBreakingThreshold ) );
	btVector3 otherMin, otherMax;
	otherWrap->getCollisionShape()->getAabb( otherWrap->getWorldTransform(), otherMin, otherMax );
	btVector3 growth( grow, grow, grow );
	for ( int i = 0; i < compound->getNumChildShapes(); ++i )
	{
		btVector3 childMin, childMax;
		compound->getChildShape( i )->getAabb( compoundWrap->getWorldTransform() * compound->getChildTransform( i ),
											   childMin, childMax );
		if ( TestAabbAgainstAabb2( childMin - growth, childMax + growth, otherMin, otherMax ) )
		{
			processChild( compoundWrap, otherWrap, i, dispatchInfo, resultOut );
		}
		else
		{
			freeChild( i );
		}
	}
}

} // namespace

btCollisionAlgorithm* CompoundCreateFunc::CreateCollisionAlgorithm( btCollisionAlgorithmConstructionInfo& ci,
																	const btCollisionObjectWrapper* body0Wrap,
																	const btCollisionObjectWrapper* body1Wrap )
{
	void* memory = ci.m_dispatcher1->allocateCollisionAlgorithm( sizeof( CompoundAlgorithm ) );
	return new ( memory ) CompoundAlgorithm( ci, body0Wrap, body1Wrap );
}

} // namespace PD_BULLET_ABI
} // namespace polydepth::bullet
