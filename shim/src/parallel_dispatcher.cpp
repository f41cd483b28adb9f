// SPDX-License-Identifier: MIT
// ParallelCollisionDispatcher: the overlapping pairs of a step spread over a small pool of
// threads (the caller and threadCount - 1 workers), Bullet's GImpact pairs kept on one thread,
// the dispatcher's pools under a mutex, and the manifolds put in pair order afterwards.
#include "polydepth/bullet_parallel.h"

#include "shim_internal.h"

#include <BulletCollision/CollisionShapes/btCompoundShape.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace polydepth::bullet
{
inline namespace PD_BULLET_ABI
{

namespace
{

/// True when Bullet's GImpact algorithm would touch a GImpact shape's lock for this shape: a
/// GImpact shape, or a compound with one among its children.
bool involvesGImpact( const btCollisionShape* shape )
{
	if ( shape == nullptr )
	{
		return false;
	}
	if ( shape->getShapeType() == GIMPACT_SHAPE_PROXYTYPE )
	{
		return true;
	}
	if ( shape->getShapeType() == COMPOUND_SHAPE_PROXYTYPE )
	{
		auto* compound = static_cast<const btCompoundShape*>( shape );
		for ( int i = 0; i < compound->getNumChildShapes(); ++i )
		{
			if ( involvesGImpact( compound->getChildShape( i ) ) )
			{
				return true;
			}
		}
	}
	return false;
}

const btCollisionShape* shapeOf( const btBroadphasePair& pair, int side )
{
	btBroadphaseProxy* proxy = side == 0 ? pair.m_pProxy0 : pair.m_pProxy1;
	return static_cast<const btCollisionObject*>( proxy->m_clientObject )->getCollisionShape();
}

} // namespace

struct ParallelCollisionDispatcher::Pool
{
	int threadCount = 1;
	/// Guards the dispatcher's manifold list and its two pool allocators.
	std::mutex bulletMutex;

	// The step being dispatched: task 0 runs every pair of `serial` (when there are any), the
	// other tasks one pair of `parallel` each.
	std::vector<btBroadphasePair*> serial;
	std::vector<btBroadphasePair*> parallel;
	btCollisionDispatcher* owner = nullptr;
	const btDispatcherInfo* info = nullptr;
	int taskCount = 0;
	std::atomic<int> nextTask{ 0 };
	std::atomic<int> threadsUsed{ 0 };

	// A dispatch opens a new generation; a worker that wakes while it is open joins it (active)
	// and drains tasks. The caller drains too, then closes the generation and waits only for the
	// workers that joined: a worker that wakes after the work is done never touches it, so a step
	// with little work does not wait for threads to wake up.
	std::mutex mutex;
	std::condition_variable wake;
	std::condition_variable done;
	uint64_t generation = 0;
	bool open = false;
	int active = 0;
	bool quit = false;
	std::vector<std::thread> workers;

	ParallelDispatchCounts counts;
	btManifoldArray manifolds;
	std::vector<btPersistentManifold*> ordered;

	void runTask( int task ) const
	{
		btNearCallback callback = owner->getNearCallback();
		if ( !serial.empty() && task == 0 )
		{
			for ( btBroadphasePair* pair : serial )
			{
				callback( *pair, *owner, *info );
			}
			return;
		}
		callback( *parallel[(size_t)( task - ( serial.empty() ? 0 : 1 ) )], *owner, *info );
	}

	/// Runs tasks until none is left; counts this thread if it ran one.
	void drain()
	{
		bool ran = false;
		for ( int task = nextTask.fetch_add( 1 ); task < taskCount; task = nextTask.fetch_add( 1 ) )
		{
			runTask( task );
			ran = true;
		}
		if ( ran )
		{
			threadsUsed.fetch_add( 1, std::memory_order_relaxed );
		}
	}

	void workerLoop()
	{
		uint64_t seen = 0;
		for ( ;; )
		{
			{
				std::unique_lock<std::mutex> lock( mutex );
				wake.wait( lock, [&] { return quit || ( open && generation != seen ); } );
				if ( quit )
				{
					return;
				}
				seen = generation;
				++active;
			}
			drain();
			std::lock_guard<std::mutex> lock( mutex );
			if ( --active == 0 )
			{
				done.notify_one();
			}
		}
	}

	/// Runs every task, on the workers and the calling thread, and returns when all are done.
	void runAll()
	{
		nextTask.store( 0 );
		threadsUsed.store( 0 );
		if ( workers.empty() || taskCount <= 1 )
		{
			drain();
			return;
		}
		{
			std::lock_guard<std::mutex> lock( mutex );
			++generation;
			open = true;
		}
		wake.notify_all();
		drain();
		std::unique_lock<std::mutex> lock( mutex );
		open = false;
		done.wait( lock, [&] { return active == 0; } );
	}
};

ParallelCollisionDispatcher::ParallelCollisionDispatcher( btCollisionConfiguration* configuration, int threadCount )
	: btCollisionDispatcher( configuration ), m_pool( new Pool )
{
	m_pool->threadCount = threadCount > 1 ? threadCount : 1;
	m_pool->owner = this;
	for ( int i = 1; i < m_pool->threadCount; ++i )
	{
		m_pool->workers.emplace_back( [pool = m_pool.get()] { pool->workerLoop(); } );
	}
}

ParallelCollisionDispatcher::~ParallelCollisionDispatcher()
{
	{
		std::lock_guard<std::mutex> lock( m_pool->mutex );
		m_pool->quit = true;
	}
	m_pool->wake.notify_all();
	for ( std::thread& t : m_pool->workers )
	{
		t.join();
	}
}

int ParallelCollisionDispatcher::getThreadCount() const
{
	return m_pool->threadCount;
}

ParallelDispatchCounts ParallelCollisionDispatcher::getLastDispatchCounts() const
{
	return m_pool->counts;
}

void ParallelCollisionDispatcher::dispatchAllCollisionPairs( btOverlappingPairCache* pairCache,
															 const btDispatcherInfo& dispatchInfo,
															 btDispatcher* dispatcher )
{
	Pool& p = *m_pool;
	p.counts = ParallelDispatchCounts{};
	if ( dispatchInfo.m_dispatchFunc != btDispatcherInfo::DISPATCH_DISCRETE )
	{
		btCollisionDispatcher::dispatchAllCollisionPairs( pairCache, dispatchInfo, dispatcher );
		return;
	}
	// Which pairs the PolyDepth algorithm takes; the rest with a GImpact shape go to GImpact.
	std::shared_ptr<Registration> registration = findRegistration( this );
	p.serial.clear();
	p.parallel.clear();
	btBroadphasePair* pairs = pairCache->getOverlappingPairArrayPtr();
	const int pairCount = pairCache->getNumOverlappingPairs();
	for ( int i = 0; i < pairCount; ++i )
	{
		const btCollisionShape* s0 = shapeOf( pairs[i], 0 );
		const btCollisionShape* s1 = shapeOf( pairs[i], 1 );
		bool gimpact = ( involvesGImpact( s0 ) || involvesGImpact( s1 ) ) &&
					   !( registration != nullptr && registration->handlesPair( s0, s1 ) );
		( gimpact ? p.serial : p.parallel ).push_back( &pairs[i] );
	}
	p.info = &dispatchInfo;
	p.taskCount = (int)p.parallel.size() + ( p.serial.empty() ? 0 : 1 );
	p.runAll();
	p.counts.parallelPairs = (int)p.parallel.size();
	p.counts.serialPairs = (int)p.serial.size();
	p.counts.threadsUsed = p.threadsUsed.load();

	// Manifolds in the order of the pairs (what each pair's algorithm holds), then the ones of no
	// pair in their previous order; m_index1a (the position releaseManifold relies on) is used
	// meanwhile to mark the placed ones (-1 - old position until placed).
	const int n = m_manifoldsPtr.size();
	for ( int i = 0; i < n; ++i )
	{
		m_manifoldsPtr[i]->m_index1a = -1 - i;
	}
	p.ordered.clear();
	auto place = [&]( btPersistentManifold* m )
	{
		int old = -1 - m->m_index1a;
		if ( m->m_index1a < 0 && old < n && m_manifoldsPtr[old] == m )
		{
			m->m_index1a = (int)p.ordered.size();
			p.ordered.push_back( m );
		}
	};
	for ( int i = 0; i < pairCount; ++i )
	{
		if ( pairs[i].m_algorithm == nullptr )
		{
			continue;
		}
		p.manifolds.resizeNoInitialize( 0 );
		pairs[i].m_algorithm->getAllContactManifolds( p.manifolds );
		for ( int k = 0; k < p.manifolds.size(); ++k )
		{
			if ( p.manifolds[k] != nullptr )
			{
				place( p.manifolds[k] );
			}
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		place( m_manifoldsPtr[i] );
	}
	for ( int i = 0; i < n; ++i )
	{
		m_manifoldsPtr[i] = p.ordered[(size_t)i];
	}
}

btPersistentManifold* ParallelCollisionDispatcher::getNewManifold( const btCollisionObject* body0,
																   const btCollisionObject* body1 )
{
	std::lock_guard<std::mutex> lock( m_pool->bulletMutex );
	return btCollisionDispatcher::getNewManifold( body0, body1 );
}

void ParallelCollisionDispatcher::releaseManifold( btPersistentManifold* manifold )
{
	std::lock_guard<std::mutex> lock( m_pool->bulletMutex );
	btCollisionDispatcher::releaseManifold( manifold );
}

void* ParallelCollisionDispatcher::allocateCollisionAlgorithm( int size )
{
	std::lock_guard<std::mutex> lock( m_pool->bulletMutex );
	return btCollisionDispatcher::allocateCollisionAlgorithm( size );
}

void ParallelCollisionDispatcher::freeCollisionAlgorithm( void* ptr )
{
	std::lock_guard<std::mutex> lock( m_pool->bulletMutex );
	btCollisionDispatcher::freeCollisionAlgorithm( ptr );
}

} // namespace PD_BULLET_ABI
} // namespace polydepth::bullet
