// SPDX-License-Identifier: MIT
// Batch queries (batch.h): the same answers as one-by-one queries, bit for bit, whether run
// serially or through a task system of 1, 2 or 4 threads with any range size; bad arguments
// and task systems that break the contract get a status, not a crash. Part of the PdThreads
// suites that scripts/tsan runs under ThreadSanitizer (PdThreadsBatch).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

extern "C"
{
#include "polydepth/polydepth.h"
#include "polydepth/research.h"
#include "shapes.h"
}

#include "random_pose.h"

namespace
{

// A task system of `threads` std::threads pulling ranges of `chunk` items (at least minRange)
// from a shared counter; enqueue starts them and returns the handle, finish joins them.
struct ThreadTasks
{
	int threads = 1;
	int chunk = 1;
	bool badWorkerIndex = false; // hands out a worker index past the batch's workerCount
};

struct RunningTask
{
	std::vector<std::thread> threads;
	std::atomic<int> next{ 0 };
};

void* EnqueueOnThreads( pdTaskCallback* task, int itemCount, int minRange, void* taskContext, void* userContext )
{
	const ThreadTasks* tasks = static_cast<const ThreadTasks*>( userContext );
	RunningTask* running = new RunningTask;
	int chunk = std::max( minRange, tasks->chunk );
	for ( int w = 0; w < tasks->threads; ++w )
	{
		int worker = tasks->badWorkerIndex ? w + tasks->threads : w;
		running->threads.emplace_back(
			[=]()
			{
				for ( ;; )
				{
					int start = running->next.fetch_add( chunk );
					if ( start >= itemCount )
						break;
					task( start, std::min( start + chunk, itemCount ), worker, taskContext );
				}
			} );
	}
	return running;
}

void FinishOnThreads( void* userTask, void* )
{
	RunningTask* running = static_cast<RunningTask*>( userTask );
	for ( std::thread& t : running->threads )
		t.join();
	delete running;
}

class PdThreadsBatch : public ::testing::Test
{
  protected:
	void SetUp() override
	{
		const char* names[] = { "torus", "knot", "cup", "box" };
		for ( const char* name : names )
		{
			smpSoup s = {};
			ASSERT_TRUE( smpMakeShapeByName( name, 300, 2.0, &s ) ) << name;
			meshes.push_back( smpSoupCreateMesh( &s, nullptr ) );
			smpFreeSoup( &s );
			ASSERT_NE( meshes.back(), nullptr ) << name;
		}
		std::mt19937 rng( 7 );
		for ( int i = 0; i < 24; ++i )
		{
			pdBatchItem item;
			item.meshA = meshes[rng() % meshes.size()];
			item.meshB = meshes[rng() % meshes.size()];
			item.poseA = polydepth::test::RandomAxisAnglePose( rng, 0.8, 3.14159, 1e-9 );
			item.poseB = polydepth::test::RandomAxisAnglePose( rng, 0.3, 3.14159, 1e-9 );
			items.push_back( item );
		}
	}

	void TearDown() override
	{
		for ( pdMesh* m : meshes )
			pdDestroyMesh( m );
	}

	std::vector<pdMesh*> meshes;
	std::vector<pdBatchItem> items;
};

// Every field but the wall time.
void ExpectSamePenetration( const pdPenetrationResult& a, const pdPenetrationResult& b, int item )
{
	pdPenetrationResult x = a, y = b;
	x.elapsedMs = 0.0;
	y.elapsedMs = 0.0;
	EXPECT_EQ( 0, std::memcmp( &x, &y, sizeof( x ) ) ) << "item " << item;
}

std::vector<pdPenetrationResult> OneByOne( const std::vector<pdBatchItem>& items )
{
	std::vector<pdPenetrationResult> out( items.size() );
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	for ( size_t i = 0; i < items.size(); ++i )
	{
		std::memset( &out[i], 0, sizeof( out[i] ) );
		pdComputePenetration( items[i].meshA, &items[i].poseA, items[i].meshB, &items[i].poseB, nullptr, nullptr, ws,
							  &out[i] );
	}
	pdDestroyWorkspace( ws );
	return out;
}

} // namespace

TEST_F( PdThreadsBatch, PenetrationBatchEqualsOneByOneOnAnyThreadCount )
{
	std::vector<pdPenetrationResult> expected = OneByOne( items );
	int penetrating = 0;
	for ( const pdPenetrationResult& r : expected )
		penetrating += r.state == PD_STATE_PENETRATING ? 1 : 0;
	EXPECT_GT( penetrating, 3 ) << "the poses include penetrating pairs";

	std::vector<pdPenetrationResult> serial( items.size() );
	std::memset( serial.data(), 0xab, serial.size() * sizeof( serial[0] ) ); // proves every byte is written
	ASSERT_EQ( pdComputePenetrationBatch( items.data(), (int)items.size(), nullptr, serial.data() ), PD_STATUS_OK );
	for ( size_t i = 0; i < items.size(); ++i )
		ExpectSamePenetration( expected[i], serial[i], (int)i );

	for ( int threads : { 1, 2, 4 } )
		for ( int chunk : { 1, 5 } )
		{
			ThreadTasks tasks;
			tasks.threads = threads;
			tasks.chunk = chunk;
			pdBatchDef def = pdDefaultBatchDef();
			def.workerCount = threads;
			def.enqueueTask = EnqueueOnThreads;
			def.finishTask = FinishOnThreads;
			def.userTaskContext = &tasks;
			std::vector<pdPenetrationResult> parallel( items.size() );
			ASSERT_EQ( pdComputePenetrationBatch( items.data(), (int)items.size(), &def, parallel.data() ),
					   PD_STATUS_OK );
			for ( size_t i = 0; i < items.size(); ++i )
				ExpectSamePenetration( expected[i], parallel[i], (int)i );
		}
}

TEST_F( PdThreadsBatch, DistanceBatchEqualsOneByOne )
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	std::vector<pdDistanceResult> expected( items.size() );
	for ( size_t i = 0; i < items.size(); ++i )
		pdComputeDistance( items[i].meshA, &items[i].poseA, items[i].meshB, &items[i].poseB, nullptr, ws,
						   &expected[i] );
	pdDestroyWorkspace( ws );
	ThreadTasks tasks;
	tasks.threads = 2;
	tasks.chunk = 3;
	pdBatchDef def = pdDefaultBatchDef();
	def.workerCount = 2;
	def.enqueueTask = EnqueueOnThreads;
	def.finishTask = FinishOnThreads;
	def.userTaskContext = &tasks;
	std::vector<pdDistanceResult> batch( items.size() );
	ASSERT_EQ( pdComputeDistanceBatch( items.data(), (int)items.size(), &def, batch.data() ), PD_STATUS_OK );
	for ( size_t i = 0; i < items.size(); ++i )
		EXPECT_EQ( 0, std::memcmp( &expected[i], &batch[i], sizeof( expected[i] ) ) ) << "item " << i;
}

TEST_F( PdThreadsBatch, BadArgumentsGetAStatus )
{
	pdPenetrationResult one;
	EXPECT_EQ( pdComputePenetrationBatch( nullptr, 1, nullptr, &one ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdComputePenetrationBatch( items.data(), -1, nullptr, &one ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdComputePenetrationBatch( items.data(), 1, nullptr, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdComputePenetrationBatch( nullptr, 0, nullptr, nullptr ), PD_STATUS_OK ) << "an empty batch";

	pdBatchDef def = pdDefaultBatchDef();
	def.internalValue = 0;
	EXPECT_EQ( pdComputePenetrationBatch( items.data(), 1, &def, &one ), PD_STATUS_DEF_NOT_INITIALIZED );
	def = pdDefaultBatchDef();
	def.workerCount = 0;
	EXPECT_EQ( pdComputePenetrationBatch( items.data(), 1, &def, &one ), PD_STATUS_INVALID_DEF );
	def = pdDefaultBatchDef();
	def.enqueueTask = EnqueueOnThreads; // without finishTask
	EXPECT_EQ( pdComputePenetrationBatch( items.data(), 1, &def, &one ), PD_STATUS_INVALID_DEF );

	// A bad penetration def fails every item with its status, and the batch with it.
	pdPenetrationDef bad = pdDefaultPenetrationDef();
	pdPenetrationSettings badSettings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
	bad.settings = &badSettings;
	badSettings.maxStarts = 0;
	def = pdDefaultBatchDef();
	def.penetration = &bad;
	std::vector<pdPenetrationResult> results( 3 );
	EXPECT_EQ( pdComputePenetrationBatch( items.data(), 3, &def, results.data() ), PD_STATUS_INVALID_DEF );
	for ( const pdPenetrationResult& r : results )
		EXPECT_EQ( r.status, PD_STATUS_INVALID_DEF );

	// One bad item (a destroyed mesh) fails alone; the others are answered.
	std::vector<pdBatchItem> mixed( items.begin(), items.begin() + 3 );
	pdMesh* gone = nullptr;
	mixed[1].meshA = gone;
	EXPECT_EQ( pdComputePenetrationBatch( mixed.data(), 3, nullptr, results.data() ), PD_STATUS_OK );
	EXPECT_EQ( results[1].status, PD_STATUS_INVALID_MESH );
	EXPECT_GE( results[0].status, 0 );
	EXPECT_GE( results[2].status, 0 );

	// A task system that hands out worker indices past workerCount: those items fail.
	ThreadTasks tasks;
	tasks.threads = 2;
	tasks.badWorkerIndex = true;
	def = pdDefaultBatchDef();
	def.workerCount = 2;
	def.enqueueTask = EnqueueOnThreads;
	def.finishTask = FinishOnThreads;
	def.userTaskContext = &tasks;
	EXPECT_EQ( pdComputePenetrationBatch( items.data(), 3, &def, results.data() ), PD_STATUS_INVALID_ARGUMENT );
	for ( const pdPenetrationResult& r : results )
		EXPECT_EQ( r.status, PD_STATUS_INVALID_ARGUMENT );
}
