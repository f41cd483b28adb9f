// SPDX-License-Identifier: MIT
// `polydepth-bench` run as a process: bad options (unknown, missing value, not a whole number,
// out of range) give exit code 2, one line on stderr naming the option, and nothing on stdout,
// before any benchmark starts.
#include <gtest/gtest.h>

#include "run_process.h"

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
#else
TEST( PdBenchCli, NeedsTheBenchBinary )
{
	GTEST_SKIP() << "polydepth-bench is not built (POLYDEPTH_BENCH=OFF); POLYDEPTH_BENCH_PATH is not defined";
}
#endif
