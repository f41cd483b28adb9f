// SPDX-License-Identifier: MIT
// Runs one of the project's executables in a child process with captured stdout and stderr,
// for the tests that check exit codes and messages through the binary.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

struct TestProcessRun
{
	int exitCode = -1;
	std::string out, err;
};

inline std::string TestReadWholeFile( const std::string& path )
{
	std::ifstream f( path, std::ios::binary );
	std::stringstream s;
	s << f.rdbuf();
	return s.str();
}

/// `environment program args` with stdin from /dev/null. ctest runs the tests of one file in
/// parallel processes, so the capture files carry the process id.
inline TestProcessRun TestRunProcess( const std::string& environment, const std::string& program,
								  const std::string& args )
{
	std::string tag = ::testing::TempDir() + "pd_run_" + std::to_string( (long)getpid() );
	std::string cmd =
		environment + " '" + program + "' " + args + " >'" + tag + ".out' 2>'" + tag + ".err' </dev/null";
	TestProcessRun r;
	int status = std::system( cmd.c_str() );
	if ( status != -1 && WIFEXITED( status ) )
		r.exitCode = WEXITSTATUS( status );
	r.out = TestReadWholeFile( tag + ".out" );
	r.err = TestReadWholeFile( tag + ".err" );
	return r;
}
