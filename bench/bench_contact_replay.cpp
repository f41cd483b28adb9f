// SPDX-License-Identifier: MIT
// polydepth-bench contact-replay FILE: runs recorded pdContactPair_Generate calls again, outside
// Bullet (a recording from pdBullet_StartRecording, e.g. `polydepth-sample tori --record-calls
// FILE --record-from 150 --record-steps 40`). Every call gets exactly its recorded inputs, so
// two builds replay the same calls: compare their times here, or their instruction counts
// under callgrind (`valgrind --tool=callgrind build/bench/polydepth-bench contact-replay FILE
// --repeats 1`), where the debris scene itself, being chaotic, gives each build other calls.
// The output hash covers every contact point and depth: equal hashes mean equal contacts. The
// same calls are then timed as distance queries at the recorded poses: the contact call's cost in
// distance queries (per_distance_query), the per-pair floor, overall and per call class (the
// state the call answers: separated, touching, penetrating). Then once more as one bare
// gathering of the feature pairs within the call's contact distance at the recorded poses
// (pdComputeContactFeatures): the least any contact generation that reads the neighbourhood
// does, whatever it builds from it, in distance queries' worth per class (gather_per_distance_query).
// Each class also says how many of its calls, and what share of its time, meet an open mesh
// (one-sided: a zero-thickness floor), which the local path does not take.
// A recording of an awake scene:
// `polydepth-bench awake --only torus-chain --record-calls FILE`.
#include "bench_util.h"

extern "C"
{
#include "polydepth/contact_record.h"
}

#include <cinttypes>
#include <climits>
#include <cstring>

namespace bench
{

namespace
{

uint64_t mix( uint64_t h, double value )
{
	uint64_t bits;
	std::memcpy( &bits, &value, sizeof( bits ) );
	return ( h ^ bits ) * 1099511628211ull;
}

// The calls against an open mesh: their share of the class's time (median over the repeats).
double openShare( const std::vector<double>& openMs, const std::vector<double>& classMs )
{
	double all = median( classMs );
	return all > 0.0 ? median( openMs ) / all : 0.0;
}

} // namespace

int runContactReplay( const Options& o )
{
	if ( o.inputPath.empty() )
	{
		std::fprintf( stderr, "polydepth-bench: contact-replay needs a recording: contact-replay FILE\n" );
		return 2;
	}
	pdError error = {};
	pdContactReplay* replay = pdCreateContactReplay( o.inputPath.c_str(), &error );
	if ( replay == nullptr )
	{
		std::fprintf( stderr, "polydepth-bench: %s\n", error.message );
		return 2;
	}
	std::vector<pdContactCall> calls;
	for ( ;; )
	{
		pdContactCall call;
		bool done = false;
		error.status = pdContactReplay_ReadNext( replay, &call, &done, &error );
		if ( error.status != PD_STATUS_OK )
		{
			std::fprintf( stderr, "polydepth-bench: %s (%s)\n", error.message, pdGetStatusString( error.status ) );
			pdDestroyContactReplay( replay );
			return 2;
		}
		if ( done )
			break;
		calls.push_back( call );
	}
	int repeats = o.repeats > 0 ? o.repeats : 3;
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	// Per call class (the state each call answers: separated, touching, penetrating): the
	// calls' time and the same calls' time as distance queries, per repeat.
	std::vector<double> ms, distanceMs, classMs[3], classDistanceMs[3], classGatherMs[3];
	std::vector<int> classOf( calls.size(), 0 );
	std::vector<double> openMs[3];
	long openCalls[3] = { 0, 0, 0 };
	uint64_t hash = 1469598103934665603ull;
	long states[3] = { 0, 0, 0 }, local = 0;
	long points = 0;
	for ( int r = 0; r < repeats; ++r )
	{
		uint64_t h = 1469598103934665603ull;
		long s[3] = { 0, 0, 0 }, l = 0;
		long n = 0, open[3] = { 0, 0, 0 };
		double sum[3] = { 0.0, 0.0, 0.0 }, openSum[3] = { 0.0, 0.0, 0.0 };
		for ( size_t i = 0; i < calls.size(); ++i )
		{
			const pdContactCall& call = calls[i];
			bool openMesh = !pdMesh_GetInfo( call.meshA ).closed || !pdMesh_GetInfo( call.meshB ).closed;
			pdContactPair pair = call.pair;
			pdContactManifoldSet set;
			double start = nowUs();
			pdContactPair_Generate( &pair, call.meshA, &call.poseA, call.meshB, &call.poseB, &call.def, ws, &set );
			double us = nowUs() - start;
			classOf[i] = set.state >= 0 && set.state <= 2 ? set.state : 0;
			sum[classOf[i]] += us;
			s[classOf[i]] += 1;
			openSum[classOf[i]] += openMesh ? us : 0.0;
			open[classOf[i]] += openMesh ? 1 : 0;
			l += set.local ? 1 : 0;
			for ( int m = 0; m < set.manifoldCount; ++m )
			{
				const pdContactManifold& region = set.manifolds[m];
				for ( int p = 0; p < region.pointCount; ++p )
				{
					h = mix( mix( mix( mix( h, region.points[p].pointB.x ), region.points[p].pointB.y ),
								  region.points[p].pointB.z ),
							 region.points[p].distance );
					n += 1;
				}
			}
			h = mix( h, set.depth );
		}
		ms.push_back( 1e-3 * ( sum[0] + sum[1] + sum[2] ) );
		for ( int c = 0; c < 3; ++c )
		{
			classMs[c].push_back( 1e-3 * sum[c] );
			openMs[c].push_back( 1e-3 * openSum[c] );
		}
		std::memcpy( openCalls, open, sizeof( open ) );
		hash = h;
		std::memcpy( states, s, sizeof( s ) );
		local = l;
		points = n;
	}
	// The same calls as distance queries at the recorded poses (the core's defaults), the
	// per-pair floor a contact call is compared against.
	for ( int r = 0; r < repeats; ++r )
	{
		double sum[3] = { 0.0, 0.0, 0.0 };
		for ( size_t i = 0; i < calls.size(); ++i )
		{
			const pdContactCall& call = calls[i];
			pdDistanceResult dr;
			double start = nowUs();
			pdComputeDistance( call.meshA, &call.poseA, call.meshB, &call.poseB, nullptr, ws, &dr );
			sum[classOf[i]] += nowUs() - start;
		}
		distanceMs.push_back( 1e-3 * ( sum[0] + sum[1] + sum[2] ) );
		for ( int c = 0; c < 3; ++c )
			classDistanceMs[c].push_back( 1e-3 * sum[c] );
	}
	// One bare gathering per call within its contact distance, at rest, with the room a local
	// gathering has (4 x maxFeatures): the neighbourhood's floor.
	for ( int r = 0; r < repeats; ++r )
	{
		double sum[3] = { 0.0, 0.0, 0.0 };
		for ( size_t i = 0; i < calls.size(); ++i )
		{
			const pdContactCall& call = calls[i];
			pdContactFeatureDef gather = pdDefaultContactFeatureDef();
			gather.reach = call.def.contactDistance;
			gather.maxFeatures = call.def.maxFeatures <= INT_MAX / 4 ? 4 * call.def.maxFeatures : call.def.maxFeatures;
			pdContactFeatureResult fr;
			double start = nowUs();
			pdComputeContactFeatures( call.meshA, &call.poseA, call.meshB, &call.poseB, &gather, ws, &fr );
			sum[classOf[i]] += nowUs() - start;
		}
		for ( int c = 0; c < 3; ++c )
			classGatherMs[c].push_back( 1e-3 * sum[c] );
	}
	pdDestroyWorkspace( ws );
	pdDestroyContactReplay( replay );
	double med = median( ms );
	double distanceMed = median( distanceMs );
	double ratio = distanceMed > 0.0 ? med / distanceMed : 0.0;
	double classRatio[3], gatherRatio[3];
	for ( int c = 0; c < 3; ++c )
	{
		double d = median( classDistanceMs[c] );
		classRatio[c] = d > 0.0 ? median( classMs[c] ) / d : 0.0;
		gatherRatio[c] = d > 0.0 ? median( classGatherMs[c] ) / d : 0.0;
	}
	const char* className[3] = { "separated", "touching", "penetrating" };
	if ( o.json )
	{
		std::printf( "{\"calls\":%zu,\"separated\":%ld,\"touching\":%ld,\"penetrating\":%ld,\"local\":%ld,"
					 "\"points\":%ld,\"hash\":\"%016" PRIx64 "\",\"repeats\":%d,\"median_ms\":%.3f,"
					 "\"us_per_call\":%.3f,\"distance_median_ms\":%.3f,\"per_distance_query\":%.3f",
					 calls.size(), states[0], states[1], states[2], local, points, hash, repeats, med,
					 calls.empty() ? 0.0 : 1e3 * med / (double)calls.size(), distanceMed, ratio );
		for ( int c = 0; c < 3; ++c )
			std::printf( ",\"%s_us_per_call\":%.3f,\"%s_per_distance_query\":%.3f,"
						 "\"%s_gather_per_distance_query\":%.3f,\"%s_open_calls\":%ld,\"%s_open_time_share\":%.3f",
						 className[c], states[c] > 0 ? 1e3 * median( classMs[c] ) / (double)states[c] : 0.0,
						 className[c], classRatio[c], className[c], gatherRatio[c], className[c], openCalls[c],
						 className[c], openShare( openMs[c], classMs[c] ) );
		std::printf( "}\n" );
		return 0;
	}
	describeMachine( stdout );
	std::printf( "contact-replay %s: %zu calls (separated %ld, touching %ld, penetrating %ld; %ld answered locally), "
				 "%ld contact points\n",
				 o.inputPath.c_str(), calls.size(), states[0], states[1], states[2], local, points );
	std::printf( "output hash %016" PRIx64 "; %d repeats: median %.1f ms (%.1f us per call)\n", hash, repeats, med,
				 calls.empty() ? 0.0 : 1e3 * med / (double)calls.size() );
	std::printf( "the same calls as distance queries: median %.1f ms (%.1f us per call); contact call = %.2f distance "
				 "queries\n",
				 distanceMed, calls.empty() ? 0.0 : 1e3 * distanceMed / (double)calls.size(), ratio );
	for ( int c = 0; c < 3; ++c )
		std::printf( "  %-11s %6ld calls: %.1f us per call, %.2f distance queries' worth per call (%.1f us); one "
					 "gathering within the contact distance %.2f; against an open mesh %ld calls, %.0f%% of the time\n",
					 className[c], states[c], states[c] > 0 ? 1e3 * median( classMs[c] ) / (double)states[c] : 0.0,
					 classRatio[c], states[c] > 0 ? 1e3 * median( classDistanceMs[c] ) / (double)states[c] : 0.0,
					 gatherRatio[c], openCalls[c], 100.0 * openShare( openMs[c], classMs[c] ) );
	return 0;
}

} // namespace bench
