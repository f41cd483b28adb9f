// SPDX-License-Identifier: MIT
// Batch queries: many poses over shared meshes in one call, without the GIL, through
// pdComputePenetrationBatch / pdComputeDistanceBatch and a task system of std::threads.
#include "bindings.h"

#include <type_traits>

#include <algorithm>
#include <atomic>
#include <new>
#include <sched.h>
#include <string>
#include <thread>

namespace polydepth::python
{

namespace
{

// The task system: a batch's task runs on `threads` workers pulling ranges from a shared
// counter. enqueue starts workers 1..threads-1 on new threads; finish runs worker 0 on the
// calling thread, then joins the others.
struct TaskRun
{
	pdTaskCallback* task;
	void* taskContext;
	int itemCount;
	int range;
	std::atomic<int> next{ 0 };
	std::vector<std::thread> workerThreads;

	void work( int worker )
	{
		for ( int start = next.fetch_add( range ); start < itemCount; start = next.fetch_add( range ) )
			task( start, std::min( start + range, itemCount ), worker, taskContext );
	}
};

void* enqueueTask( pdTaskCallback* task, int itemCount, int minRange, void* taskContext, void* userContext )
{
	int threads = *static_cast<const int*>( userContext );
	TaskRun* run = new ( std::nothrow ) TaskRun;
	if ( run == nullptr )
	{
		task( 0, itemCount, 0, taskContext ); // no memory for a task system: run it here, serially
		return nullptr;
	}
	run->task = task;
	run->taskContext = taskContext;
	run->itemCount = itemCount;
	run->range = std::max( minRange, 1 );
	try
	{
		for ( int w = 1; w < threads; ++w )
			run->workerThreads.emplace_back( [run, w]() { run->work( w ); } );
	}
	catch ( ... )
	{
		// Fewer threads than asked (the system refused one): the others and the caller cover every range.
	}
	return run;
}

void finishTask( void* userTask, void* )
{
	TaskRun* run = static_cast<TaskRun*>( userTask );
	run->work( 0 );
	for ( std::thread& t : run->workerThreads )
		t.join();
	delete run;
}

// Processors this process may run on.
int availableCpus()
{
	cpu_set_t set;
	if ( sched_getaffinity( 0, sizeof( set ), &set ) == 0 )
		return std::max( 1, CPU_COUNT( &set ) );
	return std::max( 1u, std::thread::hardware_concurrency() );
}

int toThreads( py::handle threads )
{
	if ( threads.is_none() )
		return availableCpus();
	if ( PyBool_Check( threads.ptr() ) || !PyIndex_Check( threads.ptr() ) )
		throw py::type_error( "threads: expected an int or None, got " + typeName( threads ) );
	long long n = py::reinterpret_steal<py::int_>( PyNumber_Index( threads.ptr() ) ).cast<long long>();
	if ( n < 1 )
		throw py::value_error( "threads: must be at least 1, got " + std::to_string( n ) );
	return (int)std::min( n, 1024LL ); // the batch's worker cap
}

// One mesh for every item, or a sequence of one per item (*count = its length). The Mesh objects
// of a sequence are appended to keepAlive: the caller's list may change while the batch runs.
std::vector<const pdMesh*> toMeshes( py::handle obj, const char* arg, long long* count,
									 std::vector<py::object>* keepAlive )
{
	std::vector<const pdMesh*> out;
	if ( py::isinstance<Mesh>( obj ) )
	{
		out.push_back( obj.cast<const Mesh&>().mesh );
		*count = -1;
		return out;
	}
	if ( !py::isinstance<py::sequence>( obj ) || py::isinstance<py::str>( obj ) )
		throw py::type_error( std::string( arg ) + ": expected a polydepth.Mesh or a sequence of them, got " +
							  typeName( obj ) );
	py::sequence s = py::reinterpret_borrow<py::sequence>( obj );
	for ( size_t i = 0; i < s.size(); ++i )
	{
		py::object item = s[i];
		out.push_back( toMesh( item, ArgName{ arg, (long long)i } ) );
		keepAlive->push_back( item );
	}
	*count = (long long)out.size();
	return out;
}

// The items of a batch from its four arguments: meshes and poses, each one for all or one per item
// (the meshes of sequences are held in keepAlive).
std::vector<pdBatchItem> toItems( py::handle a, py::handle posesA, py::handle b, py::handle posesB,
								  std::vector<py::object>* keepAlive )
{
	long long counts[4];
	std::vector<const pdMesh*> meshesA = toMeshes( a, "a", &counts[0], keepAlive );
	std::vector<pdTransform> pa = toTransforms( posesA, "poses_a", &counts[1] );
	std::vector<const pdMesh*> meshesB = toMeshes( b, "b", &counts[2], keepAlive );
	std::vector<pdTransform> pb = toTransforms( posesB, "poses_b", &counts[3] );
	static const char* names[4] = { "a", "poses_a", "b", "poses_b" };
	long long k = -1;
	int from = -1;
	for ( int i = 0; i < 4; ++i )
	{
		if ( counts[i] < 0 )
			continue;
		if ( k >= 0 && counts[i] != k )
			throw py::value_error( std::string( names[i] ) + ": " + std::to_string( counts[i] ) + " items, but " +
								   names[from] + " has " + std::to_string( k ) );
		k = counts[i];
		from = i;
	}
	if ( k < 0 )
		k = 1; // every argument is a single mesh or pose: one query
	std::vector<pdBatchItem> items( (size_t)k );
	for ( long long i = 0; i < k; ++i )
	{
		items[i].meshA = meshesA[counts[0] < 0 ? 0 : i];
		items[i].poseA = pa[counts[1] < 0 ? 0 : i];
		items[i].meshB = meshesB[counts[2] < 0 ? 0 : i];
		items[i].poseB = pb[counts[3] < 0 ? 0 : i];
	}
	return items;
}

// A batch def over `threads` workers (the task system only when there is more than one).
pdBatchDef batchDef( int* threads, size_t count )
{
	pdBatchDef def = pdDefaultBatchDef();
	*threads = (int)std::max<size_t>( 1, std::min<size_t>( (size_t)*threads, count ) );
	def.workerCount = *threads;
	if ( *threads > 1 )
	{
		def.enqueueTask = enqueueTask;
		def.finishTask = finishTask;
		def.userTaskContext = threads;
	}
	return def;
}

template <class Result> struct Batch
{
	std::vector<Result> results;
};
using PenetrationBatch = Batch<pdPenetrationResult>;
using DistanceBatch = Batch<pdDistanceResult>;

// The def a batch hands the library for a query kind's keyword options.
static const pdDistanceDef* queryDefOf( const pdDistanceDef& options, pdDistanceDef* )
{
	return &options;
}

static const pdPenetrationDef* queryDefOf( const PenetrationOptions& options, pdPenetrationDef* storage )
{
	*storage = options.resolved();
	return storage;
}

// A batch of one query kind without the GIL: its options from the keywords, written into the
// batch def's field for that kind; raises for a def the library rejects or for bad input.
template <class Result, class Options, class Def>
Batch<Result> runBatch( py::handle a, py::handle posesA, py::handle b, py::handle posesB, py::handle threadsArg,
						const py::kwargs& kwargs, const OptionTable& table, pdStatus ( *probe )( const void* ),
						const Def* pdBatchDef::*field,
						pdStatus ( *compute )( const pdBatchItem*, int, const pdBatchDef*, Result* ), const char* name )
{
	std::vector<py::object> keepAlive;
	std::vector<pdBatchItem> items = toItems( a, posesA, b, posesB, &keepAlive );
	Options queryOptions;
	std::vector<int> set;
	applyOptions( table, kwargs, &queryOptions, &set );
	if constexpr ( std::is_same_v<Options, PenetrationOptions> )
		finishPenetrationOptions( table, set, &queryOptions );
	int threads = toThreads( threadsArg );
	pdBatchDef def = batchDef( &threads, items.size() );
	Def queryDef;
	def.*field = queryDefOf( queryOptions, &queryDef );
	Batch<Result> out;
	out.results.resize( items.size() );
	pdStatus status;
	{
		py::gil_scoped_release release;
		status = compute( items.data(), (int)items.size(), &def, out.results.data() );
	}
	if ( status == PD_STATUS_INVALID_DEF )
		raiseInvalidOption( table, &queryOptions, set, probe );
	raiseForInputStatus( status, name );
	return out;
}

PenetrationBatch penetrationBatch( py::handle a, py::handle posesA, py::handle b, py::handle posesB, py::handle threads,
								   const py::kwargs& kwargs )
{
	return runBatch<pdPenetrationResult, PenetrationOptions, pdPenetrationDef>( a, posesA, b, posesB, threads, kwargs, kPenetrationOptions,
															probePenetration, &pdBatchDef::penetration,
															pdComputePenetrationBatch, "penetration_batch" );
}

DistanceBatch distanceBatch( py::handle a, py::handle posesA, py::handle b, py::handle posesB, py::handle threads,
							 const py::kwargs& kwargs )
{
	return runBatch<pdDistanceResult, pdDistanceDef, pdDistanceDef>( a, posesA, b, posesB, threads, kwargs, kDistanceOptions,
													  probeDistance, &pdBatchDef::distance, pdComputeDistanceBatch,
													  "distance_batch" );
}

// Python index (negative from the end) into a batch of n; IndexError outside.
size_t itemIndex( long long i, size_t n )
{
	long long k = i < 0 ? i + (long long)n : i;
	if ( k < 0 || k >= (long long)n )
		throw py::index_error( "batch index " + std::to_string( i ) + " out of range for " + std::to_string( n ) +
							   " results" );
	return (size_t)k;
}

// A column of a batch: one value (or 3-vector) per result.
template <class Result, class T, class Get> py::array_t<T> column( const Batch<Result>& batch, Get get )
{
	py::array_t<T> a( (py::ssize_t)batch.results.size() );
	T* d = a.mutable_data();
	for ( size_t i = 0; i < batch.results.size(); ++i )
		d[i] = (T)get( batch.results[i] );
	return a;
}

template <class Result, class Get> py::array_t<double> vectorColumn( const Batch<Result>& batch, Get get )
{
	std::vector<pdVec3> v;
	v.reserve( batch.results.size() );
	for ( const Result& r : batch.results )
		v.push_back( get( r ) );
	return vec3Rows( v.data(), (int)v.size() );
}

// The sequence protocol of a batch class; each item is the single query's result class.
template <class Result, class Item> void bindSequence( py::class_<Batch<Result>>& c )
{
	using B = Batch<Result>;
	c.def( "__len__", []( const B& b ) { return b.results.size(); } )
		.def( "__getitem__",
			  []( const B& b, long long i ) { return Item{ b.results[itemIndex( i, b.results.size() )] }; } )
		.def( "__iter__",
			  []( const B& b )
			  {
				  py::list items;
				  for ( const Result& r : b.results )
					  items.append( Item{ r } );
				  return py::iter( items );
			  } )
		.def_property_readonly(
			"status", []( const B& b ) { return column<Result, int>( b, []( const Result& r ) { return r.status; } ); },
			"(k,) int: each item's Status value" )
		.def( py::pickle( // the results' bytes, as addBytePickling does for one result
			[]( const B& b ) {
				return py::bytes( reinterpret_cast<const char*>( b.results.data() ),
								  b.results.size() * sizeof( Result ) );
			},
			[]( const py::bytes& state )
			{
				std::string data = state;
				if ( data.size() % sizeof( Result ) != 0 )
					throw py::value_error( "bad pickle state: " + std::to_string( data.size() ) +
										   " bytes is not a whole number of results (another build of polydepth?)" );
				B b;
				b.results.resize( data.size() / sizeof( Result ) );
				if ( !data.empty() )
					std::memcpy( b.results.data(), data.data(), data.size() );
				return b;
			} ) );
}

} // namespace

void bindBatch( py::module_& m )
{
	py::class_<PenetrationBatch> pb( m, "PenetrationBatch",
									 "The k answers of penetration_batch(): a sequence of PenetrationResult, and "
									 "the main fields as arrays over the items (picklable)."
									 "\n\nExample:\n"
									 "    >>> import numpy as np, polydepth\n"
									 "    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
									 "    >>> poses = np.tile(np.eye(4), (2, 1, 1)); poses[:, 2, 3] = (0.9, 2.0)\n"
									 "    >>> r = polydepth.penetration_batch(box, poses, box, np.eye(4))\n"
									 "    >>> len(r), np.round(r.depth, 3).tolist(), r[0].local[0].normal.tolist()\n"
									 "    (2, [0.1, 0.0], [0.0, 0.0, 1.0])\n" );
	bindSequence<pdPenetrationResult, PenetrationResult>( pb );
	pb.def_property_readonly(
		  "depth",
		  []( const PenetrationBatch& b )
		  { return column<pdPenetrationResult, double>( b, []( const pdPenetrationResult& r ) { return r.depth; } ); },
		  "(k,) float64: each item's PD (length units of the vertices)" )
		.def_property_readonly(
			"translation",
			[]( const PenetrationBatch& b )
			{ return vectorColumn( b, []( const pdPenetrationResult& r ) { return r.translation; } ); },
			"(k, 3) float64: each item's translation for A, world frame" )
		.def_property_readonly(
			"state",
			[]( const PenetrationBatch& b )
			{ return column<pdPenetrationResult, int>( b, []( const pdPenetrationResult& r ) { return r.state; } ); },
			"(k,) int: each item's State value" )
		.def_property_readonly(
			"elapsed_ms",
			[]( const PenetrationBatch& b ) {
				return column<pdPenetrationResult, double>( b, []( const pdPenetrationResult& r )
															{ return r.elapsedMs; } );
			},
			"(k,) float64: each item's time inside the library (ms)" );

	py::class_<DistanceBatch> db( m, "DistanceBatch",
								  "The k answers of distance_batch(): a sequence of DistanceResult, and the main "
								  "fields as arrays over the items (picklable)."
								  "\n\nExample:\n"
								  "    >>> import numpy as np, polydepth\n"
								  "    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
								  "    >>> poses = np.tile(np.eye(4), (2, 1, 1)); poses[:, 2, 3] = (1.5, 3.0)\n"
								  "    >>> d = polydepth.distance_batch(box, poses, box, np.eye(4))\n"
								  "    >>> np.round(d.distance, 6).tolist(), np.round(d.point_a[:, 2], 6).tolist()\n"
								  "    ([0.5, 2.0], [1.0, 2.5])\n" );
	bindSequence<pdDistanceResult, DistanceResult>( db );
	db.def_property_readonly(
		  "distance",
		  []( const DistanceBatch& b )
		  { return column<pdDistanceResult, double>( b, []( const pdDistanceResult& r ) { return r.distance; } ); },
		  "(k,) float64: each item's distance (length units of the vertices)" )
		.def_property_readonly(
			"point_a", []( const DistanceBatch& b )
			{ return vectorColumn( b, []( const pdDistanceResult& r ) { return r.pointA; } ); },
			"(k, 3) float64: the closest points on A, world frame" )
		.def_property_readonly(
			"point_b", []( const DistanceBatch& b )
			{ return vectorColumn( b, []( const pdDistanceResult& r ) { return r.pointB; } ); },
			"(k, 3) float64: the closest points on B, world frame" );

	std::string doc = "penetration_batch(a, poses_a, b, poses_b, threads=None, **options) -> PenetrationBatch\n\n"
					  "k penetration() queries in one call, run without the GIL on `threads` threads (None: one "
					  "per processor this process may use). Each answer is the one penetration() gives for that "
					  "item, bit for bit, whatever the thread count (the wall time aside). a, b: a Mesh for every "
					  "item or a sequence of k; poses_a, poses_b: a (k, 4, 4) array, one pose for every item (a "
					  "4x4 matrix, Pose or pair), or a sequence of k poses. Options: those of penetration(). "
					  "Conventions as in penetration(): each item's translation is for A, world frame, length "
					  "units of the vertices.\n\nExample:\n"
					  "    >>> import numpy as np, polydepth\n"
					  "    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
					  "    >>> poses = np.tile(np.eye(4), (3, 1, 1)); poses[:, 0, 3] = (0.5, 0.8, 1.5)\n"
					  "    >>> r = polydepth.penetration_batch(box, poses, box, np.eye(4), threads=2)\n"
					  "    >>> np.round(r.depth, 3).tolist(), [s.name for s in (r[0].state, r[2].state)]\n"
					  "    ([0.5, 0.2, 0.0], ['PENETRATING', 'SEPARATED'])\n";
	m.def( "penetration_batch", &penetrationBatch, py::arg( "a" ), py::arg( "poses_a" ), py::arg( "b" ),
		   py::arg( "poses_b" ), py::arg( "threads" ) = py::none(), doc.c_str() );
	doc = "distance_batch(a, poses_a, b, poses_b, threads=None, **options) -> DistanceBatch\n\n"
		  "k distance() queries in one call, the way penetration_batch() runs PD queries. Options: those of "
		  "distance(). Distances in the length units of the vertices.\n\nExample:\n"
		  "    >>> import numpy as np, polydepth\n"
		  "    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		  "    >>> poses = [polydepth.Pose(translation=(x, 0, 0)) for x in (2.0, 3.0)]\n"
		  "    >>> np.round(polydepth.distance_batch(box, poses, box, np.eye(4)).distance, 6).tolist()\n"
		  "    [1.0, 2.0]\n";
	m.def( "distance_batch", &distanceBatch, py::arg( "a" ), py::arg( "poses_a" ), py::arg( "b" ), py::arg( "poses_b" ),
		   py::arg( "threads" ) = py::none(), doc.c_str() );
	m.def( "available_cpus", &availableCpus, "available_cpus() -> int\n\nProcessors this process may run on (the default thread count of the batches)."
		   "\n\nExample:\n    >>> import polydepth\n    >>> polydepth.available_cpus() >= 1\n    True\n" );
}

} // namespace polydepth::python
