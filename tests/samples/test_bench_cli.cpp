// SPDX-License-Identifier: MIT
// `polydepth-bench` run as a process: bad options (unknown, missing value, not a whole number,
// out of range) give exit code 2, one line on stderr naming the option, and nothing on stdout,
// before any benchmark starts; `awake --quick --json` on its two smallest scenes prints every key
// with finite values; a recorded scene's `contact-replay --json` gives every call class with its
// gathering floor and its calls against open meshes.
#include <gtest/gtest.h>

#include "run_process.h"

#include <cstdio>
#include <string>

#ifdef POLYDEPTH_BENCH_PATH
TEST( PdBenchCli, BadOptionsExitWithCode2AndOneLineNamingTheOption )
{
	struct Case
	{
		const char* args;
		const char* named;
	};
	const Case cases[] = { { "pd-random --repeats 0", "--repeats" },
						   { "pd-random --repeats 12x", "--repeats" },
						   { "pd-random --oracle -1", "--oracle" },
						   { "pd-random --seed 1e3", "--seed" },
						   { "pd-random --seed 99999999999", "--seed" },
						   { "pd-random --random-directions 5000", "--random-directions" },
						   { "pd-random --random-directions", "--random-directions" },
						   { "sfog --part d", "--part" },
						   { "sfog --part ''", "--part" },
						   { "pd-random --frobnicate", "--frobnicate" } };
	for ( const Case& c : cases )
	{
		TestProcessRun r = TestRunProcess( "", POLYDEPTH_BENCH_PATH, c.args );
		SCOPED_TRACE( std::string( "args '" ) + c.args + "': stderr '" + r.err + "'" );
		EXPECT_EQ( r.exitCode, 2 );
		int lines = 0;
		for ( char ch : r.err )
			lines += ch == '\n';
		EXPECT_EQ( lines, 1 );
		EXPECT_NE( r.err.find( c.named ), std::string::npos );
		EXPECT_EQ( r.out, "" );
	}
}

TEST( PdBenchCli, AwakeQuickJsonHasEveryKeyWithFiniteValues )
{
	// One tori scene (all three algorithms) and the box stack (no convex peer), a few seconds each.
	for ( const char* scene : { "torus-drop", "box-stack" } )
	{
		std::string args = std::string( "awake --quick --json --only " ) + scene;
		TestProcessRun r = TestRunProcess( "", POLYDEPTH_BENCH_PATH, args.c_str() );
		SCOPED_TRACE( args + ": stderr '" + r.err + "'" );
		if ( r.exitCode == 2 && r.err.find( "without Bullet" ) != std::string::npos )
			GTEST_SKIP() << "polydepth-bench is built without Bullet";
		ASSERT_EQ( r.exitCode, 0 );
		for ( const char* key :
			  { "\"scenes\"", "\"name\"", "\"bodies\"", "\"steps\"", "\"body_size\"", "\"gimpact\"", "\"polydepth\"",
				"\"median_ms\"", "\"p95_ms\"", "\"mean_ms\"", "\"lost\"", "\"max_penetration\"",
				"\"settled_penetration\"", "\"rest_speed\"", "\"rest_speed_p90\"", "\"top_drift\"", "\"top_end_speed\"",
				"\"max_median_ratio\"", "\"max_p95_ratio\"" } )
			EXPECT_NE( r.out.find( key ), std::string::npos ) << key;
		bool tori = std::string( scene ) == "torus-drop";
		EXPECT_EQ( r.out.find( "\"convex\"" ) != std::string::npos, tori );
		// The JSON writer turns a non-finite number into null.
		EXPECT_EQ( r.out.find( "null" ), std::string::npos );
		EXPECT_EQ( r.out.find( "nan" ), std::string::npos );
		EXPECT_EQ( r.out.find( "inf" ), std::string::npos );
	}
}
// The seeded scenes give every figure's median and 90th percentile over the seeds; the assembly
// scenes their own figures and the thickness.
TEST( PdBenchCli, AwakeSeededAndAssemblyScenesHaveTheirFigures )
{
	TestProcessRun r = TestRunProcess( "", POLYDEPTH_BENCH_PATH, "awake --quick --json --seeds 2 --only tall-stack" );
	SCOPED_TRACE( "stderr '" + r.err + "'" );
	if ( r.exitCode == 2 && r.err.find( "without Bullet" ) != std::string::npos )
		GTEST_SKIP() << "polydepth-bench is built without Bullet";
	ASSERT_EQ( r.exitCode, 0 );
	for ( const char* key : { "\"seeds\": 2", "\"top_drift_final\"", "\"top_drift_final_median\"",
							  "\"top_drift_final_p90\"", "\"top_drift_max_p90\"", "\"convex\"" } )
		EXPECT_NE( r.out.find( key ), std::string::npos ) << key;
	EXPECT_EQ( r.out.find( "null" ), std::string::npos );
	r = TestRunProcess( "", POLYDEPTH_BENCH_PATH, "awake --quick --json --only assembly-plates" );
	ASSERT_EQ( r.exitCode, 0 );
	for ( const char* key : { "\"thickness\"", "\"plates\"", "\"max_pair_penetration\"", "\"deep_pair_steps\"",
							  "\"settled_over_thickness\"" } )
		EXPECT_NE( r.out.find( key ), std::string::npos ) << key;
	EXPECT_NE( r.out.find( "\"convex\"" ), std::string::npos ) << "the plates' convex peer: one hull each";
	EXPECT_EQ( r.out.find( "null" ), std::string::npos );
	r = TestRunProcess( "", POLYDEPTH_BENCH_PATH, "awake --quick --json --only assembly-washers" );
	ASSERT_EQ( r.exitCode, 0 );
	EXPECT_EQ( r.out.find( "\"convex\"" ), std::string::npos ) << "no convex pieces for an annulus";
}
// The peg probe reports, per angle, the geometry's interference, the library's PD and every
// manifold of both algorithms.
TEST( PdBenchCli, PegProbeJsonHasEveryAngleAndManifold )
{
	TestProcessRun r = TestRunProcess( "", POLYDEPTH_BENCH_PATH, "peg-probe --json" );
	SCOPED_TRACE( "stderr '" + r.err + "'" );
	if ( r.exitCode == 2 && r.err.find( "without Bullet" ) != std::string::npos )
		GTEST_SKIP() << "polydepth-bench is built without Bullet";
	ASSERT_EQ( r.exitCode, 0 );
	for ( const char* key :
		  { "\"bore_sagitta\"", "\"peg_sagitta\"", "\"angle_deg\": 3", "\"angle_deg\": 6", "\"angle_deg\": 10",
			"\"angle_deg\": 20", "\"rim_interference\"", "\"lower_interference\"", "\"pd_direction\"", "\"polydepth\"",
			"\"gimpact\"", "\"manifolds\"", "\"normal\"", "\"depths\"", "\"radial_both_sides\"", "\"axial\"" } )
		EXPECT_NE( r.out.find( key ), std::string::npos ) << key;
	EXPECT_EQ( r.out.find( "null" ), std::string::npos );
}
// A recorded awake scene replayed: per call class its cost, one bare gathering's cost and the
// calls against an open mesh (the torus drop's floor), as finite numbers that add up.
TEST( PdBenchCli, ContactReplayJsonGivesEveryClassWithItsGatheringAndOpenShare )
{
	std::string path = ::testing::TempDir() + "pd_bench_cli_torus_drop.pdcr";
	std::string record = "awake --quick --json --only torus-drop --record-calls " + path;
	TestProcessRun recorded = TestRunProcess( "", POLYDEPTH_BENCH_PATH, record.c_str() );
	SCOPED_TRACE( "record stderr '" + recorded.err + "'" );
	if ( recorded.exitCode == 2 && recorded.err.find( "without Bullet" ) != std::string::npos )
		GTEST_SKIP() << "polydepth-bench is built without Bullet";
	ASSERT_EQ( recorded.exitCode, 0 );
	std::string replay = "contact-replay " + path + " --repeats 1 --json";
	TestProcessRun r = TestRunProcess( "", POLYDEPTH_BENCH_PATH, replay.c_str() );
	SCOPED_TRACE( "replay stderr '" + r.err + "': " + r.out );
	ASSERT_EQ( r.exitCode, 0 );
	// The number after "key": in the one-line JSON object.
	auto number = [&]( const std::string& key ) -> double
	{
		size_t at = r.out.find( "\"" + key + "\":" );
		EXPECT_NE( at, std::string::npos ) << key;
		return at == std::string::npos ? -1.0 : std::stod( r.out.substr( at + key.size() + 3 ) );
	};
	double calls = number( "calls" );
	double classCalls = 0.0, openCalls = 0.0;
	for ( const char* c : { "separated", "touching", "penetrating" } )
	{
		std::string name = c;
		double count = number( name );
		double open = number( name + "_open_calls" );
		double share = number( name + "_open_time_share" );
		EXPECT_GE( open, 0.0 ) << name;
		EXPECT_LE( open, count ) << name;
		EXPECT_GE( share, 0.0 ) << name;
		EXPECT_LE( share, 1.0 ) << name;
		EXPECT_GE( number( name + "_us_per_call" ), 0.0 ) << name;
		EXPECT_GE( number( name + "_per_distance_query" ), 0.0 ) << name;
		// Every class that has calls has pairs within its contact distance to gather (the
		// separated calls of a drop include the approach): a gathering costs something.
		if ( count > 0.0 )
			EXPECT_GT( number( name + "_gather_per_distance_query" ), 0.0 ) << name;
		classCalls += count;
		openCalls += open;
	}
	EXPECT_EQ( classCalls, calls );
	// The tori land on a zero-thickness floor: some calls meet the open mesh, not all.
	EXPECT_GT( openCalls, 0.0 );
	EXPECT_LT( openCalls, calls );
	EXPECT_EQ( r.out.find( "nan" ), std::string::npos );
	EXPECT_EQ( r.out.find( "inf" ), std::string::npos );
	std::remove( path.c_str() );
}
TEST( PdBenchCli, PdBatchQuickJsonGivesIdenticalAnswersAtBothThreadCounts )
{
	TestProcessRun r = TestRunProcess( "", POLYDEPTH_BENCH_PATH, "pd-batch --quick --json --repeats 4 --only knot-3k" );
	SCOPED_TRACE( "stderr '" + r.err + "'" );
	ASSERT_EQ( r.exitCode, 0 );
	for ( const char* key :
		  { "\"models\"", "\"name\"", "\"tris\"", "\"queries\"", "\"qps_1\"", "\"qps_2\"", "\"speedup\"" } )
		EXPECT_NE( r.out.find( key ), std::string::npos ) << key;
	EXPECT_NE( r.out.find( "\"identical\": true" ), std::string::npos ) << r.out;
	EXPECT_EQ( r.out.find( "null" ), std::string::npos );
}
TEST( PdBenchCli, PdFrontierQuickJsonHasEverySettingWithValidAnswers )
{
	TestProcessRun r =
		TestRunProcess( "", POLYDEPTH_BENCH_PATH, "pd-frontier --quick --json --repeats 2 --oracle 1 --only knot-3k" );
	SCOPED_TRACE( "stderr '" + r.err + "'" );
	ASSERT_EQ( r.exitCode, 0 );
	for ( const char* key : { "\"settings\"", "\"random_directions\"", "\"cone_directions\"", "\"max_starts\"",
							  "\"pd_over_distance_min\"", "\"pd_over_distance_max\"", "\"oracle_cases\"",
							  "\"within_1pct\"", "\"models\"", "\"pd_over_distance\"" } )
		EXPECT_NE( r.out.find( key ), std::string::npos ) << key;
	for ( const char* setting : { "\"defaults\"", "\"starts only\"", "\"single start\"" } )
		EXPECT_NE( r.out.find( setting ), std::string::npos ) << setting;
	// Seven settings, each with the knot's two queries valid and its one oracle case.
	size_t count = 0;
	for ( size_t at = r.out.find( "\"valid\": 2, \"queries\": 2, \"oracle_cases\": 1" ); at != std::string::npos;
		  at = r.out.find( "\"valid\": 2, \"queries\": 2, \"oracle_cases\": 1", at + 1 ) )
		++count;
	EXPECT_EQ( count, 7u ) << r.out;
	EXPECT_EQ( r.out.find( "null" ), std::string::npos );

	TestProcessRun none = TestRunProcess( "", POLYDEPTH_BENCH_PATH, "pd-frontier --quick --only no-such-model" );
	EXPECT_EQ( none.exitCode, 2 );
	EXPECT_NE( none.err.find( "no-such-model" ), std::string::npos ) << none.err;
}
#else
TEST( PdBenchCli, NeedsTheBenchBinary )
{
	GTEST_SKIP() << "polydepth-bench is not built (POLYDEPTH_BENCH=OFF); POLYDEPTH_BENCH_PATH is not defined";
}
#endif
