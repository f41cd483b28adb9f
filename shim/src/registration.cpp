// SPDX-License-Identifier: MIT
// Registration on a btCollisionDispatcher: saves the create functions of the cells we take
// (both tables), writes ours, and puts the saved ones back on unregistration.
#include "shim_internal.h"

#include <BulletCollision/CollisionDispatch/btEmptyCollisionAlgorithm.h>

#include <cmath>
#include <map>
#include <new>

namespace polydepth::bullet
{
inline namespace PD_BULLET_ABI
{

namespace
{
constexpr int kBulletDefCookie = 0x50444254;

// btCollisionDispatcher has no getter for its tables in 3.24, but they are protected, so a
// derived class can name them; the member pointer then reads any dispatcher's table.
struct DispatcherTables : btCollisionDispatcher
{
	static btCollisionAlgorithmCreateFunc* contact( btCollisionDispatcher* d, int t0, int t1 )
	{
		return ( d->*( &DispatcherTables::m_doubleDispatchContactPoints ) )[t0][t1];
	}
	static btCollisionAlgorithmCreateFunc* closest( btCollisionDispatcher* d, int t0, int t1 )
	{
		return ( d->*( &DispatcherTables::m_doubleDispatchClosestPoints ) )[t0][t1];
	}
};

// The one piece of process-wide state: which dispatchers carry a registration (the C entry
// points only get a dispatcher pointer). Guarded by its mutex.
struct Registry
{
	std::mutex mutex;
	std::map<btCollisionDispatcher*, std::shared_ptr<Registration>> entries;
};

Registry& registry()
{
	static Registry instance;
	return instance;
}

pdStatus checkDef( const pdBulletDef& def )
{
	if ( def.internalValue != kBulletDefCookie )
	{
		return PD_STATUS_DEF_NOT_INITIALIZED;
	}
	if ( !std::isfinite( def.contactDistance ) || !( def.relativeTolerance > 0.0 ) ||
		 !std::isfinite( def.relativeTolerance ) || def.maxIterations < 1 || !( def.timeBudgetMs >= 0.0 ) ||
		 !std::isfinite( def.relativeSkin ) || def.relativeSkin < 0.0 || def.relativeSkin >= 0.1 ||
		 ( def.gimpactClasses & ~(unsigned)PD_BULLET_ALL_CLASSES ) != 0 || !( def.roundError > 0.0 ) ||
		 !( def.roundError <= 0.1 ) )
	{
		return PD_STATUS_INVALID_DEF;
	}
	return PD_STATUS_OK;
}

void restore( Registration& reg )
{
	btCollisionDispatcher* d = reg.dispatcher;
	for ( const Registration::SavedCell& cell : reg.saved )
	{
		// Only cells that still hold our function: a later registration by someone else wins.
		btCollisionAlgorithmCreateFunc* contact = DispatcherTables::contact( d, cell.type0, cell.type1 );
		btCollisionAlgorithmCreateFunc* closest = DispatcherTables::closest( d, cell.type0, cell.type1 );
		if ( contact == &reg.contactFunc || contact == &reg.compoundFunc )
		{
			d->registerCollisionCreateFunc( cell.type0, cell.type1, cell.contact );
		}
		if ( cell.wroteClosest && ( closest == &reg.closestFunc || closest == &reg.compoundFunc ) )
		{
			d->registerClosestPointsCreateFunc( cell.type0, cell.type1, cell.closest );
		}
	}
}

} // namespace

btCollisionAlgorithmCreateFunc* Registration::previous( int type0, int type1, bool closestPoints ) const
{
	for ( const SavedCell& cell : saved )
	{
		if ( cell.type0 == type0 && cell.type1 == type1 )
		{
			return closestPoints ? cell.closest : cell.contact;
		}
	}
	return nullptr;
}

bool Registration::handlesPair( const btCollisionShape* shape0, const btCollisionShape* shape1 )
{
	// A compound through our compound algorithm: each child meets the other shape through the
	// table again (child first), so the pair is ours when every child's pair is.
	if ( shape0->isCompound() != shape1->isCompound() &&
		 DispatcherTables::contact( dispatcher, shape0->getShapeType(), shape1->getShapeType() ) == &compoundFunc )
	{
		const auto* compound = static_cast<const btCompoundShape*>( shape0->isCompound() ? shape0 : shape1 );
		const btCollisionShape* other = shape0->isCompound() ? shape1 : shape0;
		for ( int i = 0; i < compound->getNumChildShapes(); ++i )
		{
			if ( !handlesPair( compound->getChildShape( i ), other ) )
			{
				return false;
			}
		}
		return true;
	}
	if ( !isSupportedPair( shape0, shape1 ) ||
		 DispatcherTables::contact( dispatcher, shape0->getShapeType(), shape1->getShapeType() ) != &contactFunc )
	{
		return false;
	}
	// A shape the algorithm cannot build sends the pair to the previous create function.
	for ( const btCollisionShape* shape : { shape0, shape1 } )
	{
		if ( isConvexShape( shape ) )
		{
			MeshRef ref = cache.acquire( shape );
			if ( ref == nullptr || ref->mesh == nullptr )
			{
				return false;
			}
		}
		pdRoundedShape rounded;
		const char* problem = nullptr;
		if ( isRoundedShape( shape ) && !roundedShapeSkeleton( shape, &rounded, &problem ) )
		{
			return false;
		}
		if ( shape->getShapeType() == STATIC_PLANE_PROXYTYPE )
		{
			btVector3 n = static_cast<const btStaticPlaneShape*>( shape )->getPlaneNormal();
			if ( !( n.length2() > 0 ) || !std::isfinite( (double)n.length2() ) )
			{
				return false;
			}
		}
	}
	return true;
}

void Registration::record( const pdContactPair& pair, const pdMesh* meshA, const pdTransform& poseA,
						   const pdMesh* meshB, const pdTransform& poseB, const pdContactDef& def )
{
	std::lock_guard<std::mutex> lock( recordMutex );
	if ( recorder != nullptr )
	{
		pdContactRecorder_Write( recorder, &pair, meshA, &poseA, meshB, &poseB, &def );
	}
}

pdStatus Registration::endRecordingLocked( long* outCalls )
{
	recording.store( false );
	if ( recorder == nullptr )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	if ( outCalls != nullptr )
	{
		*outCalls = pdContactRecorder_GetCallCount( recorder );
	}
	pdStatus status = pdContactRecorder_Finish( recorder );
	pdDestroyContactRecorder( recorder );
	recorder = nullptr;
	return status;
}

Registration::~Registration()
{
	if ( recorder != nullptr )
	{
		pdDestroyContactRecorder( recorder );
	}
}

btCollisionAlgorithm* CreateFunc::CreateCollisionAlgorithm( btCollisionAlgorithmConstructionInfo& ci,
															const btCollisionObjectWrapper* body0Wrap,
															const btCollisionObjectWrapper* body1Wrap )
{
	const btCollisionShape* s0 = body0Wrap->getCollisionShape();
	const btCollisionShape* s1 = body1Wrap->getCollisionShape();
	if ( isSupportedPair( s0, s1 ) )
	{
		return createPolyDepthAlgorithm( ci, body0Wrap, body1Wrap, m_owner->shared_from_this(), m_closestPoints );
	}
	// GImpact compounds and parts: hand them to whatever was registered before us.
	btCollisionAlgorithmCreateFunc* prev = m_owner->previous( s0->getShapeType(), s1->getShapeType(), m_closestPoints );
	if ( prev != nullptr && prev != this )
	{
		return prev->CreateCollisionAlgorithm( ci, body0Wrap, body1Wrap );
	}
	void* mem = ci.m_dispatcher1->allocateCollisionAlgorithm( sizeof( btEmptyAlgorithm ) );
	return new ( mem ) btEmptyAlgorithm( ci );
}

pdStatus registerAlgorithm( btCollisionDispatcher* dispatcher, const pdBulletDef* def )
{
	if ( dispatcher == nullptr )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdBulletDef d = def != nullptr ? *def : pdDefaultBulletDef();
	pdStatus status = checkDef( d );
	if ( status != PD_STATUS_OK )
	{
		return status;
	}

	Registry& r = registry();
	std::lock_guard<std::mutex> lock( r.mutex );
	auto old = r.entries.find( dispatcher );
	if ( old != r.entries.end() )
	{
		// Registering again replaces the options: undo the first registration, then redo.
		restore( *old->second );
		r.entries.erase( old );
	}

	auto reg = std::make_shared<Registration>();
	reg->dispatcher = dispatcher;
	reg->def = d;
	reg->contactDef = pdDefaultContactDef();
	reg->contactDef.contactDistance = d.contactDistance > 0.0 ? d.contactDistance : 0.0;
	reg->contactDef.relativeTolerance = d.relativeTolerance;
	reg->contactDef.maxIterations = d.maxIterations;
	reg->contactDef.timeBudgetMs = d.timeBudgetMs;
	reg->contactDef.relativeSkin = d.relativeSkin;
	reg->cache.roundSegments = roundSegments( d.roundError );

	// The other shape of each pair with a GImpact mesh, by class.
	std::vector<int> others = { GIMPACT_SHAPE_PROXYTYPE, TRIANGLE_MESH_SHAPE_PROXYTYPE };
	if ( d.includeScaledTriangleMesh )
	{
		others.push_back( SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE );
	}
	const struct
	{
		unsigned shapeClass;
		int types[5];
	} classes[] = {
		{ PD_BULLET_BOX, { BOX_SHAPE_PROXYTYPE, -1 } },
		{ PD_BULLET_CONVEX_HULL,
		  { CONVEX_HULL_SHAPE_PROXYTYPE, CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE, CONVEX_TRIANGLEMESH_SHAPE_PROXYTYPE,
			TETRAHEDRAL_SHAPE_PROXYTYPE, -1 } },
		{ PD_BULLET_CYLINDER, { CYLINDER_SHAPE_PROXYTYPE, -1 } },
		{ PD_BULLET_CONE, { CONE_SHAPE_PROXYTYPE, -1 } },
		{ PD_BULLET_PLANE, { STATIC_PLANE_PROXYTYPE, -1 } },
		{ PD_BULLET_HEIGHTFIELD, { TERRAIN_SHAPE_PROXYTYPE, -1 } },
		{ PD_BULLET_SPHERE, { SPHERE_SHAPE_PROXYTYPE, -1 } },
		{ PD_BULLET_CAPSULE, { CAPSULE_SHAPE_PROXYTYPE, -1 } },
		{ PD_BULLET_MULTI_SPHERE, { MULTI_SPHERE_SHAPE_PROXYTYPE, -1 } },
	};
	for ( const auto& c : classes )
	{
		for ( int k = 0; ( d.gimpactClasses & c.shapeClass ) == 0 && c.types[k] >= 0; ++k )
		{
			others.push_back( c.types[k] );
		}
	}
	auto take = [&]( int t0, int t1, btCollisionAlgorithmCreateFunc* contact, btCollisionAlgorithmCreateFunc* closest )
	{
		Registration::SavedCell cell;
		cell.type0 = t0;
		cell.type1 = t1;
		cell.contact = DispatcherTables::contact( dispatcher, t0, t1 );
		cell.closest = DispatcherTables::closest( dispatcher, t0, t1 );
		cell.wroteClosest = d.registerClosestPoints;
		reg->saved.push_back( cell );
		dispatcher->registerCollisionCreateFunc( t0, t1, contact );
		if ( d.registerClosestPoints )
		{
			dispatcher->registerClosestPointsCreateFunc( t0, t1, closest );
		}
	};
	for ( int other : others )
	{
		take( GIMPACT_SHAPE_PROXYTYPE, other, &reg->contactFunc, &reg->closestFunc );
		if ( other != GIMPACT_SHAPE_PROXYTYPE )
		{
			take( other, GIMPACT_SHAPE_PROXYTYPE, &reg->contactFunc, &reg->closestFunc );
		}
	}
	if ( ( d.gimpactClasses & PD_BULLET_COMPOUND ) == 0 )
	{
		// Each child within reach of the step's motion is dispatched through the table again.
		take( COMPOUND_SHAPE_PROXYTYPE, GIMPACT_SHAPE_PROXYTYPE, &reg->compoundFunc, &reg->compoundFunc );
		take( GIMPACT_SHAPE_PROXYTYPE, COMPOUND_SHAPE_PROXYTYPE, &reg->compoundFunc, &reg->compoundFunc );
	}
	r.entries[dispatcher] = reg;
	return PD_STATUS_OK;
}

namespace
{

// Runs fn on dispatcher's registration with the registry locked (so it cannot be unregistered
// meanwhile); PD_STATUS_INVALID_ARGUMENT when the dispatcher is NULL or not registered.
template <class Fn> pdStatus withRegistration( btCollisionDispatcher* dispatcher, Fn fn )
{
	if ( dispatcher == nullptr )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	Registry& r = registry();
	std::lock_guard<std::mutex> lock( r.mutex );
	auto it = r.entries.find( dispatcher );
	return it == r.entries.end() ? PD_STATUS_INVALID_ARGUMENT : fn( *it->second );
}

} // namespace

std::shared_ptr<Registration> findRegistration( btCollisionDispatcher* dispatcher )
{
	Registry& r = registry();
	std::lock_guard<std::mutex> lock( r.mutex );
	auto it = r.entries.find( dispatcher );
	return it == r.entries.end() ? nullptr : it->second;
}

pdStatus startRecording( btCollisionDispatcher* dispatcher, const char* path )
{
	if ( path == nullptr )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	return withRegistration( dispatcher,
							 [path]( Registration& reg )
							 {
								 std::lock_guard<std::mutex> recordLock( reg.recordMutex );
								 pdError error;
								 pdContactRecorder* recorder = pdCreateContactRecorder( path, &error );
								 if ( recorder == nullptr )
								 {
									 return error.status;
								 }
								 if ( reg.recorder != nullptr )
								 {
									 pdDestroyContactRecorder( reg.recorder );
								 }
								 reg.recorder = recorder;
								 reg.recording.store( true );
								 return PD_STATUS_OK;
							 } );
}

pdStatus stopRecording( btCollisionDispatcher* dispatcher, long* outCalls )
{
	if ( outCalls != nullptr )
	{
		*outCalls = 0;
	}
	return withRegistration( dispatcher,
							 [outCalls]( Registration& reg )
							 {
								 std::lock_guard<std::mutex> recordLock( reg.recordMutex );
								 return reg.endRecordingLocked( outCalls );
							 } );
}

pdStatus unregisterAlgorithm( btCollisionDispatcher* dispatcher )
{
	if ( dispatcher == nullptr )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	Registry& r = registry();
	std::lock_guard<std::mutex> lock( r.mutex );
	auto it = r.entries.find( dispatcher );
	if ( it == r.entries.end() )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	restore( *it->second );
	{
		// A recording ends here: the file is complete when unregisterAlgorithm returns.
		Registration& reg = *it->second;
		std::lock_guard<std::mutex> recordLock( reg.recordMutex );
		reg.endRecordingLocked( nullptr );
	}
	// Live algorithms keep the registration (and its mesh cache) alive until they go.
	r.entries.erase( it );
	return PD_STATUS_OK;
}

} // namespace PD_BULLET_ABI
} // namespace polydepth::bullet

using namespace polydepth::bullet;

extern "C" pdBulletDef pdDefaultBulletDef( void )
{
	pdBulletDef def{};
	def.contactDistance = 0.0;
	def.relativeTolerance = 1e-4;
	def.maxIterations = 30;
	def.timeBudgetMs = 0.0;
	def.speculativeContacts = true;
	def.registerClosestPoints = true;
	def.includeScaledTriangleMesh = true;
	def.relativeSkin = 2.5e-4;
	def.frictionAnchors = true;
	def.gimpactClasses = 0;
	def.roundError = 1e-3;
	def.internalValue = kBulletDefCookie;
	return def;
}

extern "C" pdStatus pdBullet_Register( void* dispatcher, const pdBulletDef* def )
{
	return registerAlgorithm( static_cast<btCollisionDispatcher*>( dispatcher ), def );
}

extern "C" pdStatus pdBullet_Unregister( void* dispatcher )
{
	return unregisterAlgorithm( static_cast<btCollisionDispatcher*>( dispatcher ) );
}

extern "C" pdStatus pdBullet_StartRecording( void* dispatcher, const char* path )
{
	return startRecording( static_cast<btCollisionDispatcher*>( dispatcher ), path );
}

extern "C" pdStatus pdBullet_StopRecording( void* dispatcher, long* outCalls )
{
	return stopRecording( static_cast<btCollisionDispatcher*>( dispatcher ), outCalls );
}

extern "C" pdStatus pdBullet_GetStats( void* dispatcher, pdBulletStats* outStats )
{
	if ( outStats == nullptr )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	*outStats = pdBulletStats{};
	return withRegistration( static_cast<btCollisionDispatcher*>( dispatcher ),
							 [outStats]( Registration& reg )
							 {
								 outStats->cachedMeshCount = reg.cache.size();
								 outStats->meshBuilds = reg.cache.builds();
								 outStats->pairsProcessed = reg.pairsProcessed.load();
								 outStats->contactsWritten = reg.contactsWritten.load();
								 outStats->groundPatches = reg.patchBuilds.load();
								 outStats->largestGroundPatch = reg.largestPatch.load();
								 outStats->pairsLeft = reg.pairsLeft.load();
								 return PD_STATUS_OK;
							 } );
}
