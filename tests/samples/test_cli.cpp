// SPDX-License-Identifier: MIT
// The `polydepth` command-line tool, run as a process: bad input gives exit code 2 and exactly
// one stderr line naming the file or option; --json prints one object that a strict JSON parser
// (below, independent of the tool) accepts, with the documented keys.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>

extern "C" {
#include "model_io.h"
#include "polydepth/penetration.h"
#include "repro_io.h"
}

namespace
{

struct RunResult
{
	int exitCode = -1;
	std::string out;
	std::string err;
};

std::string Temp( const std::string& name )
{
	return ::testing::TempDir() + "pd_cli_" + name;
}

std::string ReadAll( const std::string& path )
{
	std::ifstream f( path, std::ios::binary );
	std::stringstream s;
	s << f.rdbuf();
	return s.str();
}

std::string Quote( const std::string& s )
{
	std::string q = "'";
	for ( char c : s )
		q += c == '\'' ? std::string( "'\\''" ) : std::string( 1, c );
	return q + "'";
}

#ifdef POLYDEPTH_CLI_PATH
RunResult RunCli( const std::vector<std::string>& args )
{
	std::string cmd = Quote( POLYDEPTH_CLI_PATH );
	for ( const auto& a : args )
		cmd += " " + Quote( a );
	// ctest runs tests of this file in parallel processes: the capture files must not be shared.
	std::string tag = std::to_string( (long)getpid() );
	std::string out = Temp( "stdout_" + tag + ".txt" ), err = Temp( "stderr_" + tag + ".txt" );
	cmd += " >" + Quote( out ) + " 2>" + Quote( err ) + " </dev/null";
	RunResult r;
	int status = std::system( cmd.c_str() );
	if ( status != -1 && WIFEXITED( status ) )
		r.exitCode = WEXITSTATUS( status );
	r.out = ReadAll( out );
	r.err = ReadAll( err );
	return r;
}
#endif

std::string WriteFile( const std::string& name, const std::string& text )
{
	std::string path = Temp( name );
	std::ofstream f( path, std::ios::binary );
	f << text;
	return path;
}

// A strict little JSON parser (objects, arrays, strings, numbers, literals).
struct Json
{
	enum Type
	{
		NUL,
		BOOL,
		NUMBER,
		STRING,
		ARRAY,
		OBJECT
	} type = NUL;
	double number = 0.0;
	std::string text;
	std::vector<Json> items;
	std::map<std::string, Json> fields;
};

struct JsonParser
{
	const std::string& s;
	size_t i = 0;
	bool ok = true;

	void Space()
	{
		while ( i < s.size() && ( s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ) )
			++i;
	}
	bool Eat( char c )
	{
		Space();
		if ( i < s.size() && s[i] == c )
		{
			++i;
			return true;
		}
		return false;
	}
	std::string String()
	{
		std::string out;
		if ( !Eat( '"' ) )
		{
			ok = false;
			return out;
		}
		while ( i < s.size() && s[i] != '"' )
		{
			if ( (unsigned char)s[i] < 32 )
			{
				ok = false;
				return out;
			}
			if ( s[i] == '\\' )
			{
				++i;
				if ( i >= s.size() || std::string( "\"\\/bfnrtu" ).find( s[i] ) == std::string::npos )
				{
					ok = false;
					return out;
				}
				if ( s[i] == 'u' )
					i += 4;
			}
			else
				out += s[i];
			++i;
		}
		if ( i >= s.size() )
			ok = false;
		++i;
		return out;
	}
	Json Value( int depth )
	{
		Json v;
		Space();
		if ( depth > 32 || i >= s.size() )
		{
			ok = false;
			return v;
		}
		char c = s[i];
		if ( c == '{' )
		{
			++i;
			v.type = Json::OBJECT;
			if ( Eat( '}' ) )
				return v;
			do
			{
				Space();
				std::string key = String();
				if ( !ok || !Eat( ':' ) )
				{
					ok = false;
					return v;
				}
				if ( v.fields.count( key ) )
					ok = false; // duplicate key
				v.fields[key] = Value( depth + 1 );
			} while ( ok && Eat( ',' ) );
			if ( !Eat( '}' ) )
				ok = false;
		}
		else if ( c == '[' )
		{
			++i;
			v.type = Json::ARRAY;
			if ( Eat( ']' ) )
				return v;
			do
				v.items.push_back( Value( depth + 1 ) );
			while ( ok && Eat( ',' ) );
			if ( !Eat( ']' ) )
				ok = false;
		}
		else if ( c == '"' )
		{
			v.type = Json::STRING;
			v.text = String();
		}
		else if ( s.compare( i, 4, "true" ) == 0 || s.compare( i, 4, "null" ) == 0 )
		{
			v.type = s[i] == 't' ? Json::BOOL : Json::NUL;
			i += 4;
		}
		else if ( s.compare( i, 5, "false" ) == 0 )
		{
			v.type = Json::BOOL;
			i += 5;
		}
		else
		{
			// JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
			size_t start = i;
			if ( i < s.size() && s[i] == '-' )
				++i;
			auto digits = [&]() {
				size_t d = i;
				while ( i < s.size() && s[i] >= '0' && s[i] <= '9' )
					++i;
				return i > d;
			};
			if ( !digits() )
			{
				ok = false;
				return v;
			}
			if ( i < s.size() && s[i] == '.' )
			{
				++i;
				if ( !digits() )
					ok = false;
			}
			if ( i < s.size() && ( s[i] == 'e' || s[i] == 'E' ) )
			{
				++i;
				if ( i < s.size() && ( s[i] == '+' || s[i] == '-' ) )
					++i;
				if ( !digits() )
					ok = false;
			}
			v.type = Json::NUMBER;
			v.number = std::strtod( s.substr( start, i - start ).c_str(), nullptr );
		}
		return v;
	}
};

bool ParseJson( const std::string& text, Json* out )
{
	JsonParser p{ text };
	*out = p.Value( 0 );
	p.Space();
	return p.ok && p.i == text.size();
}

bool IsVec3( const Json& v )
{
	return v.type == Json::ARRAY && v.items.size() == 3 && v.items[0].type == Json::NUMBER &&
		   v.items[1].type == Json::NUMBER && v.items[2].type == Json::NUMBER;
}

std::string BoxObj( const std::string& name )
{
	smpSoup box{};
	EXPECT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 2, &box ) );
	std::string path = Temp( name );
	EXPECT_TRUE( smpSaveObj( path.c_str(), &box ) );
	smpFreeSoup( &box );
	return path;
}

// The same box as .tri (readable in every build, with or without Assimp).
std::string BoxTri( const std::string& name )
{
	smpSoup box{};
	EXPECT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 2, &box ) );
	std::string text = "TRI\n" + std::to_string( box.vertexCount ) + "\n" + std::to_string( box.triangleCount ) + "\n";
	char line[128];
	for ( int i = 0; i < box.vertexCount; ++i )
	{
		snprintf( line, sizeof( line ), "%.17g %.17g %.17g\n", box.vertices[3 * i], box.vertices[3 * i + 1],
				  box.vertices[3 * i + 2] );
		text += line;
	}
	for ( int t = 0; t < box.triangleCount; ++t )
	{
		snprintf( line, sizeof( line ), "%u %u %u\n", box.indices[3 * t], box.indices[3 * t + 1], box.indices[3 * t + 2] );
		text += line;
	}
	smpFreeSoup( &box );
	return WriteFile( name, text );
}

#ifdef POLYDEPTH_CLI_PATH
// Bad input: code 2, nothing on stdout, exactly one stderr line that contains `names`.
void ExpectBadInput( const std::vector<std::string>& args, const std::string& names )
{
	RunResult r = RunCli( args );
	std::string all;
	for ( const auto& a : args )
		all += a + " ";
	SCOPED_TRACE( all );
	EXPECT_EQ( r.exitCode, 2 ) << r.err;
	ASSERT_FALSE( r.err.empty() );
	EXPECT_EQ( r.err.find( '\n' ), r.err.size() - 1 ) << "not exactly one line: " << r.err;
	EXPECT_NE( r.err.find( names ), std::string::npos ) << r.err;
	EXPECT_TRUE( r.out.empty() ) << r.out;
}
#endif

} // namespace

#ifndef POLYDEPTH_CLI_PATH
TEST( PdCli, Skipped )
{
	GTEST_SKIP() << "the polydepth executable is not built";
}
#else

TEST( PdCli, HelpDocumentsEveryOption )
{
	RunResult r = RunCli( { "--help" } );
	EXPECT_EQ( r.exitCode, 0 );
	EXPECT_NE( r.out.find( "query" ), std::string::npos );
	EXPECT_NE( r.out.find( "replay" ), std::string::npos );
	RunResult q = RunCli( { "query", "--help" } );
	EXPECT_EQ( q.exitCode, 0 );
	for ( const char* option : { "--pose-a", "--pose-b", "--json", "--tolerance", "--starts", "--iterations",
								 "--time-budget", "--strategies", "--no-pruning", "--contact-pruning", "--no-solid",
								 "--seed" } )
	{
		EXPECT_NE( q.out.find( option ), std::string::npos ) << option;
	}
	EXPECT_EQ( RunCli( { "replay", "--help" } ).exitCode, 0 );
}

TEST( PdCli, MissingFileIsBadInput )
{
	std::string box = BoxTri( "box_missing.tri" );
	ExpectBadInput( { "query", Temp( "nope_a.obj" ), box }, "nope_a.obj" );
	ExpectBadInput( { "query", box, Temp( "nope_b.tri" ) }, "nope_b.tri" );
	ExpectBadInput( { "replay", Temp( "nope.repro" ) }, "nope.repro" );
}

TEST( PdCli, EmptyTruncatedAndGarbageFilesAreBadInput )
{
	std::string box = BoxTri( "box_files.tri" );
	ExpectBadInput( { "query", WriteFile( "empty.obj", "" ), box }, "empty.obj" );
	ExpectBadInput( { "query", box, WriteFile( "empty.tri", "" ), "--json" }, "empty.tri" );
	ExpectBadInput( { "query", WriteFile( "cut.tri", "TRI\n4\n2\n0 0 0\n1 0 0\n0 1" ), box }, "cut.tri" );
	std::string garbage;
	for ( int i = 0; i < 2048; ++i )
		garbage += (char)( ( i * 7919 ) >> 3 );
	ExpectBadInput( { "query", WriteFile( "garbage.obj", garbage ), box }, "garbage.obj" );
	ExpectBadInput( { "query", WriteFile( "garbage.tri", garbage ), box }, "garbage.tri" );
	ExpectBadInput( { "query", WriteFile( "nan.tri", "TRI\n3\n1\n0 0 0\n1 nan 0\n0 1 0\n0 1 2\n" ), box }, "nan.tri" );
	ExpectBadInput( { "query", WriteFile( "range.tri", "TRI\n3\n1\n0 0 0\n1 0 0\n0 1 0\n0 1 5\n" ), box }, "range.tri" );
	// Loads, but every triangle is degenerate: the mesh creation error names the file.
	ExpectBadInput( { "query", WriteFile( "flat.tri", "TRI\n3\n1\n0 0 0\n1 0 0\n2 0 0\n0 1 2\n" ), box }, "flat.tri" );
	ExpectBadInput( { "replay", WriteFile( "garbage.repro", "hello\n" ) }, "garbage.repro" );
}

TEST( PdCli, BadPosesAndOptionsAreBadInput )
{
	std::string box = BoxTri( "box_opts.tri" );
	ExpectBadInput( { "query", box, box, "--pose-a", "1", "0", "0", "0", "0", "0" }, "--pose-a" );
	ExpectBadInput( { "query", box, box, "--pose-b", "1", "0", "0", "0", "x", "0", "0" }, "--pose-b" );
	ExpectBadInput( { "query", box, box, "--pose-a", "2", "0", "0", "0", "0", "0", "0" }, "--pose-a" );
	ExpectBadInput( { "query", box, box, "--pose-a", "nan", "0", "0", "0", "0", "0", "0" }, "--pose-a" );
	ExpectBadInput( { "query", box, box, "--pose-b", "1", "0", "0", "0", "inf", "0", "0" }, "--pose-b" );
	ExpectBadInput( { "query", box, box, "--tolerance", "-1" }, "--tolerance" );
	ExpectBadInput( { "query", box, box, "--starts", "0" }, "--starts" );
	ExpectBadInput( { "query", box, box, "--iterations" }, "--iterations" );
	ExpectBadInput( { "query", box, box, "--time-budget", "soon" }, "--time-budget" );
	ExpectBadInput( { "query", box, box, "--strategies", "random,magic" }, "--strategies" );
	ExpectBadInput( { "query", box, box, "--seed", "-4" }, "--seed" );
	ExpectBadInput( { "query", box, box, "--random-directions", "4097" }, "--random-directions" );
	ExpectBadInput( { "query", box, box, "--random-directions", "-1" }, "--random-directions" );
	ExpectBadInput( { "query", box, box, "--random-directions" }, "--random-directions" );
	ExpectBadInput( { "query", box, box, "--frobnicate" }, "--frobnicate" );
	ExpectBadInput( { "query", box }, "query" );
	ExpectBadInput( { "query", box, box, box }, box );
	ExpectBadInput( { "dance" }, "dance" );
	ExpectBadInput( {}, "polydepth" );
}

TEST( PdCli, JsonForOverlappingBoxesParses )
{
	std::string box = BoxObj( "box_json.obj" );
	// Unit cubes, B shifted by 0.8 along x: the exact PD is 0.2 along -x (A moves away from B).
	RunResult r = RunCli( { "query", box, box, "--pose-b", "1", "0", "0", "0", "0.8", "0.05", "0", "--json" } );
	if ( r.err.find( "built without Assimp" ) != std::string::npos )
	{
		GTEST_SKIP() << r.err;
	}
	ASSERT_EQ( r.exitCode, 0 ) << r.err;
	EXPECT_TRUE( r.err.empty() ) << r.err;
	EXPECT_EQ( r.out.find( '\n' ), r.out.size() - 1 ) << "not one object on one line";
	Json j;
	ASSERT_TRUE( ParseJson( r.out, &j ) ) << r.out;
	ASSERT_EQ( j.type, Json::OBJECT );
	for ( const char* key : { "status", "pd", "t", "lowerBound", "iterations", "contacts", "ms", "local" } )
		EXPECT_EQ( j.fields.count( key ), 1u ) << key;
	EXPECT_EQ( j.fields["status"].type, Json::STRING );
	EXPECT_EQ( j.fields["status"].text, "penetrating" );
	ASSERT_EQ( j.fields["pd"].type, Json::NUMBER );
	EXPECT_TRUE( IsVec3( j.fields["t"] ) );
	EXPECT_EQ( j.fields["iterations"].type, Json::NUMBER );
	EXPECT_EQ( j.fields["contacts"].type, Json::NUMBER );
	EXPECT_EQ( j.fields["ms"].type, Json::NUMBER );
	ASSERT_EQ( j.fields["local"].type, Json::ARRAY );
	for ( const Json& region : j.fields["local"].items )
	{
		ASSERT_EQ( region.type, Json::OBJECT );
		EXPECT_TRUE( IsVec3( region.fields.at( "point" ) ) );
		EXPECT_TRUE( IsVec3( region.fields.at( "normal" ) ) );
		EXPECT_EQ( region.fields.at( "depth" ).type, Json::NUMBER );
	}
	double pd = j.fields["pd"].number;
	EXPECT_GE( pd, 0.2 - 1e-6 );
	EXPECT_LE( pd, 0.2 * 1.01 + 1e-3 );
	// The cubes' central inner balls (radius 0.5, centres 0.8 apart along x and 0.05 across)
	// overlap by 1 - 0.8016: a certified bound at most the exact 0.2.
	ASSERT_EQ( j.fields["lowerBound"].type, Json::NUMBER );
	EXPECT_GT( j.fields["lowerBound"].number, 0.19 );
	EXPECT_LE( j.fields["lowerBound"].number, 0.2 );
	const Json& t = j.fields["t"];
	EXPECT_NEAR( std::sqrt( t.items[0].number * t.items[0].number + t.items[1].number * t.items[1].number +
							t.items[2].number * t.items[2].number ),
				 pd, 1e-9 );
	EXPECT_LT( t.items[0].number, 0.0 );

	// Far apart: separated, pd 0, still valid JSON.
	RunResult far = RunCli( { "query", box, box, "--pose-b", "1", "0", "0", "0", "5", "0", "0", "--json" } );
	ASSERT_EQ( far.exitCode, 0 ) << far.err;
	Json k;
	ASSERT_TRUE( ParseJson( far.out, &k ) ) << far.out;
	EXPECT_EQ( k.fields["status"].text, "separated" );
	EXPECT_EQ( k.fields["pd"].number, 0.0 );
	EXPECT_EQ( k.fields["lowerBound"].number, 0.0 );

	// The human-readable summary mentions the state and the depth.
	RunResult human = RunCli( { "query", box, box, "--pose-b", "1", "0", "0", "0", "0.8", "0", "0" } );
	ASSERT_EQ( human.exitCode, 0 ) << human.err;
	EXPECT_NE( human.out.find( "penetrating" ), std::string::npos ) << human.out;
	EXPECT_NE( human.out.find( "depth" ), std::string::npos ) << human.out;
}

TEST( PdCli, OptionsAreAccepted )
{
	std::string box = BoxTri( "box_accept.tri" );
	RunResult r = RunCli( { "query", box, box, "--pose-a", "1", "0", "0", "0", "0.1", "0", "0", "--tolerance", "1e-5",
						 "--starts", "3", "--iterations", "10", "--time-budget", "1000", "--strategies",
						 "centroid,random", "--no-pruning", "--no-solid", "--seed", "7", "--json" } );
	ASSERT_EQ( r.exitCode, 0 ) << r.err;
	Json j;
	EXPECT_TRUE( ParseJson( r.out, &j ) ) << r.out;
}

// Runs `query box box` with the options given and returns the def the query ran, read back
// from the reproduction it wrote.
// reproName: a file of the calling test's own; ctest runs tests in parallel processes, and two
// tests writing and reading back one shared path raced (PruningOptionsReachTheQuery read the
// reproduction RandomDirectionsReachTheQuery was writing).
static pdPenetrationSettings QueryDefFromRepro( const std::string& box, const std::vector<std::string>& options,
										   const std::string& reproName )
{
	std::string repro = Temp( reproName );
	std::vector<std::string> args = { "query", box, box, "--pose-a", "1", "0", "0", "0", "0.1", "0", "0",
									  "--write-repro", repro };
	args.insert( args.end(), options.begin(), options.end() );
	RunResult r = RunCli( args );
	EXPECT_EQ( r.exitCode, 0 ) << r.err;
	smpSoup a{}, b{};
	pdTransform pa, pb;
	smpReproDef def;
	memset( &def, 0, sizeof( def ) );
	char error[256] = "";
	EXPECT_TRUE( smpReadRepro( repro.c_str(), &a, &b, &pa, &pb, &def, error, sizeof( error ) ) ) << error;
	smpFreeSoup( &a );
	smpFreeSoup( &b );
	return def.settings;
}

// A direction-count option as the query ran it (the default, a value, 0), and out-of-range
// values refused with exit code 2 and a message naming the option. Each option writes its own
// files: ctest runs these tests in parallel processes.
static void ExpectDirectionOption( const std::string& option, int pdPenetrationSettings::*field, int defaultValue,
								   const std::string& fileStem )
{
	std::string box = BoxTri( fileStem + ".tri" );
	const std::pair<std::vector<std::string>, int> cases[] = {
		{ {}, defaultValue }, { { option, "7" }, 7 }, { { option, "0" }, 0 } };
	for ( const auto& c : cases )
	{
		SCOPED_TRACE( c.first.empty() ? std::string( "defaults" ) : c.first[1] );
		EXPECT_EQ( QueryDefFromRepro( box, c.first, fileStem + ".repro" ).*field, c.second );
	}
	for ( const char* bad : { "-1", "4097", "many" } )
	{
		RunResult r = RunCli( { "query", box, box, option, bad } );
		EXPECT_EQ( r.exitCode, 2 ) << bad;
		EXPECT_NE( r.err.find( option ), std::string::npos ) << r.err;
	}
}

TEST( PdCli, RandomDirectionsReachTheQuery )
{
	ExpectDirectionOption( "--random-directions", &pdPenetrationSettings::randomDirections, 512, "box_directions" );
}

TEST( PdCli, ConeDirectionsReachTheQuery )
{
	ExpectDirectionOption( "--cone-directions", &pdPenetrationSettings::coneDirections, 128, "box_cone" );
}

// The pruning options as the query ran them: contact-space pruning off unless asked for, CCD
// culling on unless --no-pruning, which wins in any order.
TEST( PdCli, PruningOptionsReachTheQuery )
{
	std::string box = BoxTri( "box_pruning.tri" );
	struct Case
	{
		std::vector<std::string> options;
		bool pruning, culling;
	};
	const Case cases[] = { { {}, false, true },
						   { { "--contact-pruning" }, true, true },
						   { { "--no-pruning" }, false, false },
						   { { "--no-pruning", "--contact-pruning" }, false, false } };
	for ( const Case& c : cases )
	{
		SCOPED_TRACE( c.options.empty() ? std::string( "defaults" ) : c.options[0] );
		pdPenetrationSettings def = QueryDefFromRepro( box, c.options, "pruning.repro" );
		EXPECT_EQ( def.useOrientationPruning, c.pruning );
		EXPECT_EQ( def.useOrientationCulling, c.culling );
	}
}

TEST( PdCli, ReplayRunsAWrittenReproduction )
{
	std::string box = BoxTri( "box_repro.tri" );
	std::string repro = Temp( "case.repro" );
	RunResult first = RunCli( { "query", box, box, "--pose-b", "1", "0", "0", "0", "0", "0.7", "0", "--json",
							 "--write-repro", repro } );
	ASSERT_EQ( first.exitCode, 0 ) << first.err;
	RunResult again = RunCli( { "replay", repro, "--json" } );
	ASSERT_EQ( again.exitCode, 0 ) << again.err;
	Json a, b;
	ASSERT_TRUE( ParseJson( first.out, &a ) ) << first.out;
	ASSERT_TRUE( ParseJson( again.out, &b ) ) << again.out;
	EXPECT_EQ( b.fields["status"].text, "penetrating" );
	// The same query: the same answer (queries are deterministic).
	EXPECT_EQ( a.fields["pd"].number, b.fields["pd"].number );
	ExpectBadInput( { "replay" }, "replay" );
}

#endif
