// SPDX-License-Identifier: MIT
// The btCollisionAlgorithm for concave mesh pairs: canonicalises the pair (A = the GImpact,
// dynamic body), runs the plugin's contact generation, and writes one persistent manifold per
// contact region, kept across frames so Bullet warm-starts through getCacheEntry (and a region
// whose points moved keeps its impulse: carryImpulse).
#include "shim_internal.h"

#include <BulletCollision/CollisionDispatch/btActivatingCollisionAlgorithm.h>
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <cmath>
#include <new>

namespace polydepth::bullet
{
inline namespace PD_BULLET_ABI
{

namespace
{
// Marks the points a manifold held before this frame's points are written; the ones left
// marked afterwards were not regenerated and are removed. A bit Bullet does not use.
constexpr int kStaleFlag = 1 << 20;
// An anchor is kept only while the contact normal stays within about 2 degrees of its own: a
// kept point keeps its normal, and one the surfaces turned away from would push askew.
constexpr btScalar kAnchorCosine = btScalar( 0.9994 );
// A region's old normal impulse passes to its new points only while its normal stays within
// about 25 degrees: a region that turned is another contact.
constexpr btScalar kCarryCosine = btScalar( 0.9 );

// Per-thread scratch memory of the core queries.
struct ThreadWorkspace
{
	pdWorkspace* workspace = nullptr;
	ThreadWorkspace() : workspace( pdCreateWorkspace( NULL ) ) {}
	~ThreadWorkspace() { pdDestroyWorkspace( workspace ); }
	ThreadWorkspace( const ThreadWorkspace& ) = delete;
	ThreadWorkspace& operator=( const ThreadWorkspace& ) = delete;
};

pdWorkspace* threadWorkspace()
{
	thread_local ThreadWorkspace tw;
	return tw.workspace;
}

pdTransform toPose( const btTransform& t )
{
	btQuaternion q = t.getRotation();
	double w = (double)q.w(), x = (double)q.x(), y = (double)q.y(), z = (double)q.z();
	double n = std::sqrt( w * w + x * x + y * y + z * z );
	pdTransform pose;
	if ( n > 0.0 && std::isfinite( n ) )
	{
		pose.q = { w / n, x / n, y / n, z / n };
	}
	else
	{
		pose.q = { 1.0, 0.0, 0.0, 0.0 };
	}
	const btVector3& o = t.getOrigin();
	pose.p = { (double)o.x(), (double)o.y(), (double)o.z() };
	return pose;
}

btVector3 toBt( const pdVec3& v )
{
	return btVector3( (btScalar)v.x, (btScalar)v.y, (btScalar)v.z );
}

pdVec3 toPd( const btVector3& v )
{
	return { (double)v.x(), (double)v.y(), (double)v.z() };
}

btVector3 linearVelocity( const btCollisionObject* obj )
{
	const btRigidBody* body = btRigidBody::upcast( obj );
	return body != nullptr ? body->getLinearVelocity() : btVector3( 0, 0, 0 );
}

btVector3 angularVelocity( const btCollisionObject* obj )
{
	const btRigidBody* body = btRigidBody::upcast( obj );
	return body != nullptr ? body->getAngularVelocity() : btVector3( 0, 0, 0 );
}

// How far any point of the shape can move in dt by the body's rotation: |w| times the
// farthest the shape reaches from the body's origin (its centre of mass).
double rotationalReach( const btCollisionObject* obj, const btCollisionShape* shape, double dt )
{
	const btRigidBody* body = btRigidBody::upcast( obj );
	if ( body == nullptr )
	{
		return 0.0;
	}
	double w = (double)body->getAngularVelocity().length();
	if ( !( w > 0.0 ) )
	{
		return 0.0;
	}
	btVector3 center;
	btScalar radius = 0;
	shape->getBoundingSphere( center, radius );
	return w * dt * ( (double)center.length() + (double)radius );
}

class PolyDepthAlgorithm : public btActivatingCollisionAlgorithm
{
  public:
	PolyDepthAlgorithm( const btCollisionAlgorithmConstructionInfo& ci, const btCollisionObjectWrapper* body0Wrap,
						const btCollisionObjectWrapper* body1Wrap, std::shared_ptr<Registration> registration,
						bool closestPoints )
		: btActivatingCollisionAlgorithm( ci, body0Wrap, body1Wrap ), m_registration( std::move( registration ) ),
		  m_closestPoints( closestPoints )
	{
		// A is the convex body against a GImpact mesh (so an open mesh B gets the plugin's
		// one-sided treatment), the GImpact body against a triangle mesh or the ground; of two
		// GImpact bodies, the dynamic one (body0 on a tie).
		const btCollisionShape* s0 = body0Wrap->getCollisionShape();
		const btCollisionShape* s1 = body1Wrap->getCollisionShape();
		int r0 = rank( s0 ), r1 = rank( s1 );
		bool aIsBody0 = r0 >= r1;
		if ( r0 == r1 && body0Wrap->getCollisionObject()->isStaticOrKinematicObject() &&
			 !body1Wrap->getCollisionObject()->isStaticOrKinematicObject() )
		{
			aIsBody0 = false;
		}
		m_objA = aIsBody0 ? body0Wrap->getCollisionObject() : body1Wrap->getCollisionObject();
		m_objB = aIsBody0 ? body1Wrap->getCollisionObject() : body0Wrap->getCollisionObject();
		pdContactPair_Reset( &m_pair );
	}

	~PolyDepthAlgorithm() override
	{
		dropFallback();
		for ( btPersistentManifold*& m : m_manifolds )
		{
			if ( m != nullptr )
			{
				m_dispatcher->releaseManifold( m );
				m = nullptr;
			}
		}
	}

	void processCollision( const btCollisionObjectWrapper* body0Wrap, const btCollisionObjectWrapper* body1Wrap,
						   const btDispatcherInfo& dispatchInfo, btManifoldResult* resultOut ) override;

	btScalar calculateTimeOfImpact( btCollisionObject*, btCollisionObject*, const btDispatcherInfo&,
									btManifoldResult* ) override
	{
		return btScalar( 1 );
	}

	void getAllContactManifolds( btManifoldArray& manifoldArray ) override
	{
		if ( m_fallback != nullptr )
		{
			m_fallback->getAllContactManifolds( manifoldArray );
		}
		for ( btPersistentManifold* m : m_manifolds )
		{
			if ( m != nullptr )
			{
				manifoldArray.push_back( m );
			}
		}
	}

  private:
	// Which side is A: convex and rounded shapes 3, GImpact meshes 2, triangle meshes 1, the
	// ground 0.
	static int rank( const btCollisionShape* shape )
	{
		if ( isConvexShape( shape ) || isRoundedShape( shape ) )
		{
			return 3;
		}
		if ( isGImpactMesh( shape ) )
		{
			return 2;
		}
		return isGroundShape( shape ) ? 0 : 1;
	}

	static bool hasNoPoints( const btCollisionShape* shape )
	{
		int type = shape->getShapeType();
		if ( type == CONVEX_HULL_SHAPE_PROXYTYPE || type == CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE )
		{
			return static_cast<const btPolyhedralConvexShape*>( shape )->getNumVertices() <= 0;
		}
		return false;
	}

	void clearManifolds()
	{
		for ( btPersistentManifold* m : m_manifolds )
		{
			if ( m != nullptr && m->getNumContacts() > 0 )
			{
				m->clearManifold();
			}
		}
	}

	void dropFallback()
	{
		if ( m_fallback != nullptr )
		{
			m_fallback->~btCollisionAlgorithm();
			m_dispatcher->freeCollisionAlgorithm( m_fallback );
			m_fallback = nullptr;
		}
	}

	// A shape the algorithm cannot build (a box of zero extent, a flat hull, a plane without a
	// normal) leaves the pair to the create function registered before (GImpact's) for as long
	// as it stays so. A hull without a single point gets no contacts at all: Bullet's convex
	// algorithms read its first point.
	void runFallback( const btCollisionObjectWrapper* body0Wrap, const btCollisionObjectWrapper* body1Wrap,
					  const btDispatcherInfo& dispatchInfo, btManifoldResult* resultOut )
	{
		clearManifolds();
		if ( hasNoPoints( body0Wrap->getCollisionShape() ) || hasNoPoints( body1Wrap->getCollisionShape() ) )
		{
			dropFallback();
			return;
		}
		if ( m_fallback == nullptr )
		{
			btCollisionAlgorithmCreateFunc* previous =
				m_registration->previous( body0Wrap->getCollisionShape()->getShapeType(),
										  body1Wrap->getCollisionShape()->getShapeType(), m_closestPoints );
			if ( previous == nullptr )
			{
				return;
			}
			btCollisionAlgorithmConstructionInfo ci( m_dispatcher, 0 );
			m_fallback = previous->CreateCollisionAlgorithm( ci, body0Wrap, body1Wrap );
			m_registration->pairsLeft.fetch_add( 1, std::memory_order_relaxed );
		}
		if ( m_fallback != nullptr )
		{
			m_fallback->processCollision( body0Wrap, body1Wrap, dispatchInfo, resultOut );
		}
	}

	bool refreshMesh( MeshRef& ref, const btCollisionShape* shape )
	{
		if ( ref == nullptr || ref->shape != shape || ref->scaleKey != shapeScaleKey( shape ) )
		{
			ref = m_registration->cache.acquire( shape );
		}
		return ref != nullptr && ref->mesh != nullptr;
	}

	// What Bullet's getNewManifold gives a manifold: points beyond it are dropped.
	double breakingThreshold( const btCollisionShape* shapeA, const btCollisionShape* shapeB ) const
	{
		btScalar breaking = gContactBreakingThreshold;
		auto* dispatcher = static_cast<btCollisionDispatcher*>( m_dispatcher );
		if ( dispatcher->getDispatcherFlags() & btCollisionDispatcher::CD_USE_RELATIVE_CONTACT_BREAKING_THRESHOLD )
		{
			breaking = btMin( shapeA->getContactBreakingThreshold( gContactBreakingThreshold ),
							  shapeB->getContactBreakingThreshold( gContactBreakingThreshold ) );
		}
		return (double)breaking;
	}

	double contactDistance( double breaking, const btManifoldResult* resultOut ) const
	{
		double distance = m_registration->def.contactDistance > 0.0 ? m_registration->def.contactDistance : breaking;
		if ( m_closestPoints )
		{
			distance = std::fmax( distance, (double)resultOut->m_closestPointDistanceThreshold );
		}
		return std::fmin( distance, 0.999 * (double)breaking );
	}

	// One point to write: on B, world frame, with its own normal (on B toward A).
	struct WritePoint
	{
		btVector3 pointA, pointB, normal;
		btScalar distance;
		bool anchor; ///< a resting face-on patch's point: a friction anchor (pdBulletDef.frictionAnchors)
	};
	void setMotion( const btCollisionObjectWrapper* wrapA, const btCollisionObjectWrapper* wrapB,
					const btDispatcherInfo& dispatchInfo, pdContactDef& def, btVector3* outRelative );
	uint64_t writeManifold( int slot, const WritePoint* points, int count, double breaking,
							btManifoldResult* resultOut );
	void writePoint( btPersistentManifold* manifold, const WritePoint& point, double breaking,
					 btManifoldResult* resultOut );
	void endManifolds( unsigned written );
	void processRounded( const btCollisionObjectWrapper* body0Wrap, const btCollisionObjectWrapper* body1Wrap,
						 const btCollisionObjectWrapper* wrapA, const btCollisionObjectWrapper* wrapB,
						 const btDispatcherInfo& dispatchInfo, btManifoldResult* resultOut );

	std::shared_ptr<Registration> m_registration;
	bool m_closestPoints;
	const btCollisionObject* m_objA = nullptr;
	const btCollisionObject* m_objB = nullptr;
	MeshRef m_meshA, m_meshB;
	GroundPatch m_ground; ///< B's solid when B is a plane or a terrain
	btCollisionAlgorithm* m_fallback = nullptr;
	pdContactPair m_pair;
	/// The rounded path's memory: the side of B (B's frame, unit, zero before any) that A's
	/// skeleton was last outside of, so a skeleton pushed past a thin wall's middle leaves the way
	/// it came (pdRoundedDef.preferredDirection).
	btVector3 m_roundedSide{ 0, 0, 0 };
	btPersistentManifold* m_manifolds[PD_MAX_CONTACT_MANIFOLDS] = {};
};

// A's motion relative to B over the step (a point p of A moves by v + w x (p - cA), with B's
// rotation folded in): tells a one-sided floor where A came from, and which contact points of a
// spinning body arrive first. Rigid-body origins are centres of mass. Sets the pair's motion
// and def's speculative distance; *outRelative gets the relative linear velocity.
void PolyDepthAlgorithm::setMotion( const btCollisionObjectWrapper* wrapA, const btCollisionObjectWrapper* wrapB,
									const btDispatcherInfo& dispatchInfo, pdContactDef& def, btVector3* outRelative )
{
	const btCollisionObject* objA = wrapA->getCollisionObject();
	const btCollisionObject* objB = wrapB->getCollisionObject();
	btVector3 centreA = wrapA->getWorldTransform().getOrigin();
	btVector3 centreB = wrapB->getWorldTransform().getOrigin();
	btVector3 relative =
		linearVelocity( objA ) - linearVelocity( objB ) + angularVelocity( objB ).cross( centreB - centreA );
	btVector3 spin = angularVelocity( objA ) - angularVelocity( objB );
	btScalar dt = dispatchInfo.m_timeStep;
	pdContactPair_SetRigidMotion( &m_pair, toPd( relative * dt ), toPd( spin * dt ), toPd( centreA ) );
	pdContactPair_SetDriven( &m_pair, objA->isKinematicObject() || objB->isKinematicObject() );
	if ( m_registration->def.speculativeContacts && !m_closestPoints )
	{
		double reach = (double)relative.length() * (double)dt +
					   rotationalReach( objA, wrapA->getCollisionShape(), (double)dt ) +
					   rotationalReach( objB, wrapB->getCollisionShape(), (double)dt );
		def.speculativeDistance = std::isfinite( reach ) ? reach : 0.0;
	}
	*outRelative = relative;
}

// Gives a region's new points the normal impulse its old points carried and no kept point
// holds (oldImpulse over the manifold's oldCount points before the write, oldNormal their
// impulse-weighted normal), shared evenly among the new touching points along that normal, none
// more than an old point's mean: a region that shrinks to one point must not load it with the
// whole patch's push. Bullet warm-starts a point from the cached point it matched; a region
// whose points move farther than the breaking threshold between frames (a wide flat contact
// whose deepest vertices change as it rocks slightly) would start every frame from zero, and a
// stack of such bodies, whose weight must carry over from frame to frame, sinks into itself
// under a few solver iterations.
void carryImpulse( btPersistentManifold* manifold, btScalar oldImpulse, int oldCount, const btVector3& oldNormal )
{
	auto receives = [&]( const btManifoldPoint& p )
	{
		bool fresh = p.getLifeTime() == 0 && p.m_appliedImpulse == 0;
		return fresh && !( p.getDistance() > 0 ) &&
			   p.m_normalWorldOnB.dot( oldNormal ) > kCarryCosine * oldNormal.length();
	};
	btScalar kept = 0;
	int receiving = 0;
	for ( int k = 0; k < manifold->getNumContacts(); ++k )
	{
		kept += manifold->getContactPoint( k ).m_appliedImpulse;
		receiving += receives( manifold->getContactPoint( k ) ) ? 1 : 0;
	}
	btScalar lost = oldImpulse - kept;
	if ( receiving == 0 || !( lost > 0 ) )
	{
		return;
	}
	btScalar share = btMin( lost / btScalar( receiving ), oldImpulse / btScalar( oldCount ) );
	for ( int k = 0; k < manifold->getNumContacts(); ++k )
	{
		btManifoldPoint& p = manifold->getContactPoint( k );
		if ( receives( p ) )
		{
			p.m_appliedImpulse = share;
		}
	}
}

// Writes points into the manifold of slot (created on first use); returns the points it holds.
uint64_t PolyDepthAlgorithm::writeManifold( int slot, const WritePoint* points, int count, double breaking,
											btManifoldResult* resultOut )
{
	btPersistentManifold*& manifold = m_manifolds[slot];
	if ( manifold == nullptr )
	{
		// Canonical body order: normals on B toward A, points on B (addContactPoint uses
		// the manifold's order and does not flip the normal for swapped wrappers).
		manifold = m_dispatcher->getNewManifold( m_objA, m_objB );
	}
	resultOut->setPersistentManifold( manifold );

	// Bullet matches a new point to a cached one within the breaking threshold (getCacheEntry),
	// so the points are written with the threshold getNewManifold set: a threshold raised to a
	// speculative point's distance would merge points a body's width apart into one.
	manifold->setContactBreakingThreshold( (btScalar)breaking );
	btScalar oldImpulse = 0;
	btVector3 oldNormal( 0, 0, 0 );
	int oldCount = manifold->getNumContacts();
	for ( int k = 0; k < oldCount; ++k )
	{
		const btManifoldPoint& old = manifold->getContactPoint( k );
		oldImpulse += old.m_appliedImpulse;
		oldNormal += old.m_normalWorldOnB * old.m_appliedImpulse;
	}
	// Old points no new point will match are dropped first, so a full manifold does not
	// evict a fresh point; matched ones are replaced and keep their impulses.
	for ( int k = manifold->getNumContacts() - 1; k >= 0; --k )
	{
		btManifoldPoint& old = manifold->getContactPoint( k );
		bool near = false;
		for ( int p = 0; p < count && !near; ++p )
		{
			near = ( old.getPositionWorldOnA() - points[p].pointA ).length2() < breaking * breaking;
		}
		if ( near )
		{
			old.m_contactPointFlags |= kStaleFlag;
		}
		else
		{
			manifold->removeContactPoint( k );
		}
	}
	double farthest = 0.0;
	for ( int p = 0; p < count; ++p )
	{
		writePoint( manifold, points[p], breaking, resultOut );
		farthest = std::fmax( farthest, (double)points[p].distance );
	}
	// Speculative points lie beyond that threshold, and refreshContactPoints drops those: the
	// manifold's threshold covers this frame's points until the next write.
	manifold->setContactBreakingThreshold( (btScalar)std::fmax( breaking, 1.01 * farthest ) );
	for ( int k = manifold->getNumContacts() - 1; k >= 0; --k )
	{
		if ( manifold->getContactPoint( k ).m_contactPointFlags & kStaleFlag )
		{
			manifold->removeContactPoint( k );
		}
	}
	carryImpulse( manifold, oldImpulse, oldCount, oldNormal );
	resultOut->refreshContactPoints();
	return (uint64_t)manifold->getNumContacts();
}

// True when Bullet keeps the anchor old in place of a new point (btPersistentManifold::
// replaceContactPoint): its friction impulse lies within the Coulomb cone, static friction holds.
bool keepsAnchor( const btManifoldPoint& old, const btVector3& normal )
{
	if ( ( old.m_contactPointFlags & BT_CONTACT_FLAG_FRICTION_ANCHOR ) == 0 ||
		 !( old.m_normalWorldOnB.dot( normal ) > kAnchorCosine ) )
	{
		return false;
	}
	btScalar lateral = old.m_appliedImpulseLateral1 * old.m_appliedImpulseLateral1 +
					   old.m_appliedImpulseLateral2 * old.m_appliedImpulseLateral2;
	btScalar cone = old.m_combinedFriction * old.m_appliedImpulse;
	return !( lateral > cone * cone );
}

// Adds one point through addContactPoint (Bullet's cache match: a matched point is replaced and
// keeps its impulses). A resting face-on patch's point becomes a friction anchor: while static friction
// holds, the anchor it matches stays where it was on both bodies and Bullet's solver pulls the
// surfaces back together along the tangent, where a friction direction re-derived from the
// velocities every step lets a stack creep sideways. A matched point that stays (our anchor, or
// Bullet's for a body with CF_HAS_FRICTION_ANCHOR) loses its stale mark. A speculative point
// beyond the breaking threshold, which addContactPoint refuses, goes in at a distance within it
// (its point on A where it is, matched by it) and then gets its point on B and its distance.
void PolyDepthAlgorithm::writePoint( btPersistentManifold* manifold, const WritePoint& point, double breaking,
									 btManifoldResult* resultOut )
{
	const btTransform& frameA = manifold->getBody0()->getWorldTransform();
	btVector3 onA = point.pointB + point.normal * point.distance;
	btVector3 localA = frameA.invXform( onA );
	btManifoldPoint probe( localA, btVector3( 0, 0, 0 ), point.normal, point.distance );
	int entry = manifold->getCacheEntry( probe );
	if ( point.anchor && entry >= 0 && keepsAnchor( manifold->getContactPoint( entry ), point.normal ) )
	{
		manifold->getContactPoint( entry ).m_contactPointFlags &= ~kStaleFlag;
		return;
	}
	btScalar written = btMin( point.distance, btScalar( 0.99 * breaking ) );
	btVector3 writtenB = written == point.distance ? point.pointB : onA - point.normal * written;
	resultOut->addContactPoint( point.normal, writtenB, written );
	// The point just written carries this frame's pointB and distance exactly.
	for ( int k = 0; k < manifold->getNumContacts(); ++k )
	{
		btManifoldPoint& added = manifold->getContactPoint( k );
		if ( added.getPositionWorldOnB() == writtenB && added.m_distance1 == written )
		{
			if ( written != point.distance )
			{
				added.m_positionWorldOnB = point.pointB;
				added.m_localPointB = manifold->getBody1()->getWorldTransform().invXform( point.pointB );
				added.m_distance1 = point.distance;
			}
			if ( point.anchor )
			{
				added.m_contactPointFlags |= BT_CONTACT_FLAG_FRICTION_ANCHOR;
			}
			return;
		}
	}
	if ( entry >= 0 )
	{
		manifold->getContactPoint( entry ).m_contactPointFlags &= ~kStaleFlag;
	}
}

// Clears the manifolds of regions that ended this frame (not in written).
void PolyDepthAlgorithm::endManifolds( unsigned written )
{
	for ( int s = 0; s < PD_MAX_CONTACT_MANIFOLDS; ++s )
	{
		if ( m_manifolds[s] != nullptr && ( written & ( 1u << s ) ) == 0 && m_manifolds[s]->getNumContacts() > 0 )
		{
			m_manifolds[s]->clearManifold();
		}
	}
}

// A sphere, capsule or multi-sphere (A) against a mesh (B): the core's rounded query, its
// contacts in up to three manifolds, each point with its own normal. No skin: the rounded surface is
// exact, and its query costs about one distance query whether the pair rests or not.
void PolyDepthAlgorithm::processRounded( const btCollisionObjectWrapper* body0Wrap,
										 const btCollisionObjectWrapper* body1Wrap,
										 const btCollisionObjectWrapper* wrapA, const btCollisionObjectWrapper* wrapB,
										 const btDispatcherInfo& dispatchInfo, btManifoldResult* resultOut )
{
	const btCollisionShape* shapeA = wrapA->getCollisionShape();
	const btCollisionShape* shapeB = wrapB->getCollisionShape();
	pdRoundedShape rounded;
	const char* problem = nullptr;
	if ( !roundedShapeSkeleton( shapeA, &rounded, &problem ) || !refreshMesh( m_meshB, shapeB ) )
	{
		runFallback( body0Wrap, body1Wrap, dispatchInfo, resultOut );
		return;
	}
	dropFallback();
	m_registration->pairsProcessed.fetch_add( 1, std::memory_order_relaxed );

	pdContactDef def = m_registration->contactDef;
	double breaking = breakingThreshold( shapeA, shapeB );
	def.contactDistance = contactDistance( breaking, resultOut );
	btVector3 relative;
	setMotion( wrapA, wrapB, dispatchInfo, def, &relative );

	pdRoundedDef rd = pdDefaultRoundedDef();
	rd.contactDistance = def.contactDistance + def.speculativeDistance;
	rd.approachDirection = toPd( relative );
	// The side A was last outside of; before any, the side it comes from.
	const btMatrix3x3& basisB = wrapB->getWorldTransform().getBasis();
	rd.preferredDirection = m_roundedSide.isZero() ? toPd( -relative ) : toPd( basisB * m_roundedSide );
	pdTransform poseA = toPose( wrapA->getWorldTransform() );
	pdTransform poseB = toPose( wrapB->getWorldTransform() );
	pdRoundedResult r;
	if ( pdComputeRoundedPenetration( &rounded, &poseA, m_meshB->mesh, &poseB, &rd, threadWorkspace(), &r ) < 0 ||
		 r.contactCount == 0 )
	{
		clearManifolds();
		return;
	}
	if ( r.separation > -rounded.radius )
	{
		// The skeleton is outside B: remember the side of its deepest touch.
		m_roundedSide = basisB.transpose() * toBt( r.contacts[0].normal );
	}
	// One manifold per end sphere and one for the deepest point between them, so that the
	// touches of one end never evict the other's from Bullet's four-point manifold.
	WritePoint points[3][PD_MAX_ROUNDED_CONTACTS];
	int counts[3] = { 0, 0, 0 };
	for ( int i = 0; i < r.contactCount; ++i )
	{
		const pdRoundedContact& c = r.contacts[i];
		int slot = c.skeletonParameter <= 0.0 ? 0 : ( c.skeletonParameter >= 1.0 ? 1 : 2 );
		points[slot][counts[slot]++] = { toBt( c.pointA ), toBt( c.pointB ), toBt( c.normal ), (btScalar)c.distance,
										 false };
	}
	uint64_t held = 0;
	unsigned written = 0;
	for ( int slot = 0; slot < 3; ++slot )
	{
		if ( counts[slot] > 0 )
		{
			held += writeManifold( slot, points[slot], counts[slot], breaking, resultOut );
			written |= 1u << slot;
		}
	}
	endManifolds( written );
	m_registration->contactsWritten.fetch_add( held, std::memory_order_relaxed );
}

void PolyDepthAlgorithm::processCollision( const btCollisionObjectWrapper* body0Wrap,
										   const btCollisionObjectWrapper* body1Wrap,
										   const btDispatcherInfo& dispatchInfo, btManifoldResult* resultOut )
{
	bool aIsBody0 = body0Wrap->getCollisionObject() == m_objA;
	const btCollisionObjectWrapper* wrapA = aIsBody0 ? body0Wrap : body1Wrap;
	const btCollisionObjectWrapper* wrapB = aIsBody0 ? body1Wrap : body0Wrap;
	const btCollisionShape* shapeA = wrapA->getCollisionShape();
	const btCollisionShape* shapeB = wrapB->getCollisionShape();
	if ( isRoundedShape( shapeA ) )
	{
		processRounded( body0Wrap, body1Wrap, wrapA, wrapB, dispatchInfo, resultOut );
		return;
	}
	bool groundB = isGroundShape( shapeB );
	if ( !refreshMesh( m_meshA, shapeA ) || ( !groundB && !refreshMesh( m_meshB, shapeB ) ) )
	{
		runFallback( body0Wrap, body1Wrap, dispatchInfo, resultOut );
		return;
	}

	pdTransform poseA = toPose( wrapA->getWorldTransform() );
	pdTransform poseB = toPose( wrapB->getWorldTransform() );

	pdContactDef def = m_registration->contactDef;
	double breaking = breakingThreshold( shapeA, shapeB );
	def.contactDistance = contactDistance( breaking, resultOut );
	if ( m_closestPoints )
	{
		def.relativeSkin = 0.0; // queries (contactTest) see the exact surfaces; the skin is for the solver
	}
	btVector3 relative;
	setMotion( wrapA, wrapB, dispatchInfo, def, &relative );

	const pdMesh* meshB = nullptr;
	if ( groundB )
	{
		uint64_t builds = m_ground.builds();
		meshB = m_ground.update( shapeB, wrapB->getWorldTransform(), shapeA, wrapA->getWorldTransform(),
								 def.contactDistance + def.speculativeDistance );
		if ( m_ground.failed() )
		{
			runFallback( body0Wrap, body1Wrap, dispatchInfo, resultOut );
			return;
		}
		if ( m_ground.builds() != builds )
		{
			m_registration->patchBuilds.fetch_add( 1, std::memory_order_relaxed );
			int triangles = m_ground.triangleCount();
			int largest = m_registration->largestPatch.load( std::memory_order_relaxed );
			while ( triangles > largest && !m_registration->largestPatch.compare_exchange_weak( largest, triangles ) )
			{
			}
		}
	}
	else
	{
		meshB = m_meshB->mesh;
	}
	dropFallback();
	m_registration->pairsProcessed.fetch_add( 1, std::memory_order_relaxed );
	if ( meshB == nullptr )
	{
		clearManifolds(); // no ground under A
		return;
	}

	pdContactManifoldSet set;
	if ( m_registration->recording.load( std::memory_order_relaxed ) )
	{
		m_registration->record( m_pair, m_meshA->mesh, poseA, meshB, poseB, def );
	}
	pdContactPair_Generate( &m_pair, m_meshA->mesh, &poseA, meshB, &poseB, &def, threadWorkspace(), &set );

	unsigned written = 0;
	uint64_t points = 0;
	for ( int i = 0; i < set.manifoldCount; ++i )
	{
		const pdContactManifold& region = set.manifolds[i];
		if ( region.slot < 0 || region.slot >= PD_MAX_CONTACT_MANIFOLDS || region.pointCount <= 0 )
		{
			continue;
		}
		WritePoint pts[PD_MAX_CONTACT_POINTS];
		int count = 0;
		btVector3 normal = toBt( region.normal );
		bool anchor = region.restingFlat && m_registration->def.frictionAnchors && !m_closestPoints;
		for ( int p = 0; p < region.pointCount && count < (int)( sizeof( pts ) / sizeof( pts[0] ) ); ++p )
		{
			const pdContactPoint& cp = region.points[p];
			pts[count++] = { toBt( cp.pointA ), toBt( cp.pointB ), normal, (btScalar)cp.distance, anchor };
		}
		written |= 1u << region.slot;
		points += writeManifold( region.slot, pts, count, breaking, resultOut );
	}
	endManifolds( written );
	m_registration->contactsWritten.fetch_add( points, std::memory_order_relaxed );
}

} // namespace

btCollisionAlgorithm* createPolyDepthAlgorithm( btCollisionAlgorithmConstructionInfo& ci,
												const btCollisionObjectWrapper* body0Wrap,
												const btCollisionObjectWrapper* body1Wrap,
												std::shared_ptr<Registration> registration, bool closestPoints )
{
	// Our object is larger than the dispatcher's pool element: take aligned heap memory, which
	// btCollisionDispatcher::freeCollisionAlgorithm releases with btAlignedFree.
	void* mem = btAlignedAlloc( sizeof( PolyDepthAlgorithm ), 16 );
	return new ( mem ) PolyDepthAlgorithm( ci, body0Wrap, body1Wrap, std::move( registration ), closestPoints );
}

} // namespace PD_BULLET_ABI
} // namespace polydepth::bullet
