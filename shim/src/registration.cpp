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
		 !std::isfinite( def.relativeSkin ) || def.relativeSkin < 0.0 || def.relativeSkin >= 0.1 )
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
		if ( DispatcherTables::contact( d, cell.type0, cell.type1 ) == &reg.contactFunc )
		{
			d->registerCollisionCreateFunc( cell.type0, cell.type1, cell.contact );
		}
		if ( cell.wroteClosest && DispatcherTables::closest( d, cell.type0, cell.type1 ) == &reg.closestFunc )
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

bool Registration::handlesPair( const btCollisionShape* shape0, const btCollisionShape* shape1 ) const
{
	if ( !isSupportedShape( shape0 ) || !isSupportedShape( shape1 ) ||
		 !( isGImpactMesh( shape0 ) || isGImpactMesh( shape1 ) ) )
	{
		return false;
	}
	return DispatcherTables::contact( dispatcher, shape0->getShapeType(), shape1->getShapeType() ) == &contactFunc;
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
	bool supported = isSupportedShape( s0 ) && isSupportedShape( s1 ) && ( isGImpactMesh( s0 ) || isGImpactMesh( s1 ) );
	if ( supported )
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

	std::vector<std::pair<int, int>> cells = {
		{ GIMPACT_SHAPE_PROXYTYPE, GIMPACT_SHAPE_PROXYTYPE },
		{ GIMPACT_SHAPE_PROXYTYPE, TRIANGLE_MESH_SHAPE_PROXYTYPE },
		{ TRIANGLE_MESH_SHAPE_PROXYTYPE, GIMPACT_SHAPE_PROXYTYPE },
	};
	if ( d.includeScaledTriangleMesh )
	{
		cells.push_back( { GIMPACT_SHAPE_PROXYTYPE, SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE } );
		cells.push_back( { SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE, GIMPACT_SHAPE_PROXYTYPE } );
	}
	for ( const auto& c : cells )
	{
		Registration::SavedCell cell;
		cell.type0 = c.first;
		cell.type1 = c.second;
		cell.contact = DispatcherTables::contact( dispatcher, c.first, c.second );
		cell.closest = DispatcherTables::closest( dispatcher, c.first, c.second );
		cell.wroteClosest = d.registerClosestPoints;
		reg->saved.push_back( cell );
		dispatcher->registerCollisionCreateFunc( c.first, c.second, &reg->contactFunc );
		if ( d.registerClosestPoints )
		{
			dispatcher->registerClosestPointsCreateFunc( c.first, c.second, &reg->closestFunc );
		}
	}
	r.entries[dispatcher] = reg;
	return PD_STATUS_OK;
}

namespace
{

// Runs fn on dispatcher's registration with the registry locked (so it cannot be unregistered
// meanwhile); PD_STATUS_INVALID_ARGUMENT when the dispatcher is NULL or not registered.
template <class Fn>
pdStatus withRegistration( btCollisionDispatcher* dispatcher, Fn fn )
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
	return withRegistration( dispatcher, [path]( Registration& reg ) {
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
	return withRegistration( dispatcher, [outCalls]( Registration& reg ) {
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
	return withRegistration( static_cast<btCollisionDispatcher*>( dispatcher ), [outStats]( Registration& reg ) {
		outStats->cachedMeshCount = reg.cache.size();
		outStats->meshBuilds = reg.cache.builds();
		outStats->pairsProcessed = reg.pairsProcessed.load();
		outStats->contactsWritten = reg.contactsWritten.load();
		return PD_STATUS_OK;
	} );
}
