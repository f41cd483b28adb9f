// SPDX-License-Identifier: MIT
// `polydepth-sample ... --view` on a real X display (Xvfb with Mesa's GLX driver): the window
// opens and draws frames with its own OpenGL context, a capture of its framebuffer shows the
// same picture as the headless renderer at the same step, and the documented keys, typed as
// real X key events (xdotool, through GLFW's key callback), do what the help says; Q and Escape
// end it with exit code 0. Skipped, with the reason, where Xvfb or xdotool is not installed
// (scripts/deps.sh installs both).
#include <gtest/gtest.h>

#include "run_process.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#if defined( POLYDEPTH_SAMPLE_PATH ) && defined( POLYDEPTH_HAVE_RENDER ) && defined( POLYDEPTH_HAVE_GLFW )

#include "render.h"

namespace
{

// Starts the sample (its stdout and stderr into the trace file, emptied first so that no earlier
// run's lines count), waits for 30 frames, gives the
// window the input focus, then types each key and waits until a frame has handled it and two
// more are drawn; then waits for the sample to end (60 s at most per wait) and exits with its
// exit code. Arguments: trace file, keys (xdotool names), the sample's command line.
const char* const kDriver = R"sh(#!/bin/sh
trace=$1; keys=$2; shift 2
: > "$trace"
"$@" >> "$trace" 2>&1 &
pid=$!
frames() { grep -c '^view frame=' "$trace" 2>/dev/null; }
keyed() { grep -c '^view frame=.* keys=[0-9]' "$trace" 2>/dev/null; }
wait_until() {
  i=0
  while [ $i -lt 600 ] && kill -0 $pid 2>/dev/null && ! eval "$1"; do sleep 0.1; i=$((i+1)); done
}
wait_until '[ "$(frames)" -ge 30 ]'
wid=$(timeout 30 xdotool search --sync --limit 1 --name '^polydepth-sample$')
[ -n "$wid" ] && timeout 30 xdotool windowfocus --sync "$wid"
for k in $keys; do
  n=$(keyed); f=$(frames)
  xdotool key "$k"
  wait_until '[ "$(keyed)" -gt '$n' ] && [ "$(frames)" -ge '$((f + 3))' ]'
done
wait_until false
kill $pid 2>/dev/null
wait $pid
)sh";

// Under AddressSanitizer the samples run without leak checks (errors are still caught): Mesa's
// GLX driver and OSMesa keep allocations until exit, reported from modules GLFW has unloaded,
// which no suppression can name. Nothing when the build has no sanitizer.
const char* const kNoLeakCheck = "ASAN_OPTIONS=\"$ASAN_OPTIONS:detect_leaks=0\"";

bool testHaveCommand( const char* name )
{
	return std::system( ( std::string( "command -v " ) + name + " >/dev/null 2>&1" ).c_str() ) == 0;
}

struct testViewFrame
{
	long frame = 0;
	int step = 0;
	std::string algo;
	int paused = 0, contacts = 0;
	std::string keys; ///< "-" or ASCII codes, comma separated
};

struct testViewRun
{
	int exitCode = -1;
	std::vector<testViewFrame> frames;
	std::string trace;
};

std::vector<testViewFrame> testParseTrace( const std::string& trace )
{
	std::vector<testViewFrame> frames;
	std::istringstream lines( trace );
	std::string line;
	while ( std::getline( lines, line ) )
	{
		testViewFrame f;
		char algo[32] = "", keys[64] = "";
		if ( std::sscanf( line.c_str(), "view frame=%ld step=%d algo=%31s paused=%d contacts=%d keys=%63s", &f.frame,
						  &f.step, algo, &f.paused, &f.contacts, keys ) == 6 )
		{
			f.algo = algo;
			f.keys = keys;
			frames.push_back( f );
		}
	}
	return frames;
}

/// Runs `polydepth-sample <args> --view --view-trace --view-capture <capture>` on a new Xvfb
/// display and types keys into its window. The display number is searched from one that
/// depends on the process id: ctest runs the window tests at once, and `xvfb-run -a` started
/// twice at the same moment can pick the same free number.
testViewRun testRunView( const std::string& args, const std::string& keys, const std::string& capture )
{
	std::string tag = ::testing::TempDir() + "pd_view_" + std::to_string( (long)getpid() );
	std::string driver = tag + "_drive.sh", trace = tag + "_trace.txt";
	std::ofstream( driver ) << kDriver;
	std::remove( capture.c_str() );
	std::string cmd = std::string( kNoLeakCheck ) + " xvfb-run -a -n " + std::to_string( 100 + getpid() % 5000 ) +
					  " -s '-screen 0 1280x800x24' sh '" + driver + "' '" + trace + "' '" + keys + "' '" +
					  POLYDEPTH_SAMPLE_PATH + "' " + args + " --view --view-trace --view-capture '" + capture +
					  "' </dev/null >/dev/null 2>&1";
	testViewRun run;
	int status = std::system( cmd.c_str() );
	if ( status != -1 && WIFEXITED( status ) )
		run.exitCode = WEXITSTATUS( status );
	run.trace = TestReadWholeFile( trace );
	run.frames = testParseTrace( run.trace );
	return run;
}

struct testImage
{
	std::vector<uint8_t> rgba;
	int width = 0, height = 0;
};

bool testLoad( const std::string& path, testImage* out )
{
	uint8_t* data = nullptr;
	char error[256] = "";
	if ( !smpReadPng( path.c_str(), &data, &out->width, &out->height, error, sizeof( error ) ) )
	{
		ADD_FAILURE() << path << ": " << error;
		return false;
	}
	out->rgba.assign( data, data + 4 * (size_t)out->width * out->height );
	std::free( data );
	return true;
}

/// Mean absolute difference per colour channel (0..255).
double testMeanDelta( const testImage& a, const testImage& b )
{
	double sum = 0.0;
	for ( size_t i = 0; i < a.rgba.size(); i += 4 )
		for ( int c = 0; c < 3; ++c )
			sum += std::abs( (int)a.rgba[i + c] - (int)b.rgba[i + c] );
	return sum / ( 3.0 * (double)( a.rgba.size() / 4 ) );
}

/// The same image filled with its mean colour: what a blank (cleared) window would compare as.
testImage testFlat( const testImage& a )
{
	double mean[3] = { 0.0, 0.0, 0.0 };
	size_t n = a.rgba.size() / 4;
	for ( size_t i = 0; i < a.rgba.size(); i += 4 )
		for ( int c = 0; c < 3; ++c )
			mean[c] += a.rgba[i + c];
	testImage flat = a;
	for ( size_t i = 0; i < flat.rgba.size(); i += 4 )
		for ( int c = 0; c < 3; ++c )
			flat.rgba[i + c] = (uint8_t)std::lround( mean[c] / (double)n );
	return flat;
}

/// The window's capture at step 30 against the headless frame of the same step (960 x 540).
void testExpectCaptureMatchesHeadless( const std::string& sceneArgs, const std::string& capture )
{
	std::string dir = ::testing::TempDir() + "pd_view_headless_" + std::to_string( (long)getpid() );
	TestProcessRun headless = TestRunProcess( kNoLeakCheck, POLYDEPTH_SAMPLE_PATH,
											  sceneArgs + " --steps 30 --every 30 --frames '" + dir + "'" );
	ASSERT_EQ( headless.exitCode, 0 ) << headless.err;
	testImage window, reference;
	ASSERT_TRUE( testLoad( capture, &window ) );
	ASSERT_TRUE( testLoad( dir + "/frame_00001.png", &reference ) );
	ASSERT_EQ( window.width, reference.width );
	ASSERT_EQ( window.height, reference.height );
	double toHeadless = testMeanDelta( window, reference );
	double toBlank = testMeanDelta( window, testFlat( window ) );
	std::printf( "[ view ] %s: window capture vs headless frame at step 30: mean delta %.2f; vs a blank frame %.2f\n",
				 sceneArgs.c_str(), toHeadless, toBlank );
	// The window draws with 4x multisampling, headless with 2x2 supersampling: edges differ a
	// little, the scene does not.
	EXPECT_LT( toHeadless, 4.0 );
	EXPECT_GT( toBlank, 10.0 * toHeadless + 5.0 );
}

bool testSkipWithoutDisplayTools()
{
	return !testHaveCommand( "xvfb-run" ) || !testHaveCommand( "xdotool" );
}

const char* const kSkipMessage =
	"needs Xvfb (xvfb-run; Debian packages xvfb, xauth) and xdotool, as scripts/deps.sh installs";

} // namespace

TEST( PdWindow, ViewDrawsTheSceneAndTheDocumentedKeysWorkOnARealDisplay )
{
	if ( testSkipWithoutDisplayTools() )
		GTEST_SKIP() << kSkipMessage;
	const std::string scene = "debris --algo polydepth --bodies 4 --seed 1";
	const std::string capture = ::testing::TempDir() + "pd_view_debris.png";
	testViewRun run = testRunView( scene + " --steps 600", "space n c a n n r q", capture );
	SCOPED_TRACE( run.trace.substr( 0, 4000 ) );
	EXPECT_EQ( run.exitCode, 0 ) << "Q quits with exit code 0";
	ASSERT_GE( run.frames.size(), 30u );
	EXPECT_NE( run.trace.find( "view capture step=30" ), std::string::npos );

	// Key frames in the order typed; Q quits before its frame is drawn.
	std::vector<size_t> keyed;
	for ( size_t i = 0; i < run.frames.size(); ++i )
		if ( run.frames[i].keys != "-" )
			keyed.push_back( i );
	std::vector<std::string> keys;
	for ( size_t i : keyed )
		keys.push_back( run.frames[i].keys );
	ASSERT_EQ( keys, ( std::vector<std::string>{ "32", "78", "67", "65", "78", "78", "82" } ) );
	ASSERT_GE( keyed[0], 30u ) << "keys are typed after 30 frames";
	const std::vector<testViewFrame>& f = run.frames;

	// Running: one step per frame.
	for ( size_t i = 1; i < keyed[0]; ++i )
		EXPECT_EQ( f[i].step, f[i - 1].step + 1 ) << "frame " << f[i].frame;
	// Space pauses: no step in that frame or after it until N.
	EXPECT_EQ( f[keyed[0]].paused, 1 );
	EXPECT_EQ( f[keyed[0] - 1].paused, 0 );
	for ( size_t i = keyed[0]; i < keyed[1]; ++i )
		EXPECT_EQ( f[i].step, f[keyed[0] - 1].step ) << "paused, frame " << f[i].frame;
	// N steps exactly once while paused.
	EXPECT_EQ( f[keyed[1]].step, f[keyed[1] - 1].step + 1 );
	EXPECT_EQ( f[keyed[1] + 1].step, f[keyed[1]].step );
	EXPECT_EQ( f[keyed[1]].paused, 1 );
	// C toggles the contact overlay.
	EXPECT_EQ( f[keyed[2]].contacts, 1 - f[keyed[2] - 1].contacts );
	// A switches the algorithm and restarts (still paused: step 0).
	EXPECT_EQ( f[keyed[3] - 1].algo, "polydepth" );
	EXPECT_EQ( f[keyed[3]].algo, "gimpact" );
	EXPECT_EQ( f[keyed[3]].step, 0 );
	// N, N then R restarts with the same algorithm.
	EXPECT_EQ( f[keyed[4]].step, 1 );
	EXPECT_EQ( f[keyed[5]].step, 2 );
	EXPECT_EQ( f[keyed[6]].step, 0 );
	EXPECT_EQ( f[keyed[6]].algo, "gimpact" );
	EXPECT_EQ( f[keyed[6]].paused, 1 );
	EXPECT_EQ( f.back().keys, "-" );
	EXPECT_NE( run.trace.find( "view quit=" ), std::string::npos );
	EXPECT_NE( run.trace.find( "keys=81 closed=0" ), std::string::npos ) << "Q ends the loop";
	EXPECT_NE( run.trace.find( "state hash" ), std::string::npos ) << "the summary follows the window";

	testExpectCaptureMatchesHeadless( scene, capture );
}

TEST( PdWindow, EveryScenesWindowDrawsItAndEscapeQuits )
{
	if ( testSkipWithoutDisplayTools() )
		GTEST_SKIP() << kSkipMessage;
	const char* const scenes[] = { "tori --algo gimpact --bodies 6", "ragdoll --bodies 1",
								   "debris --algo gimpact --bodies 4" };
	for ( const char* scene : scenes )
	{
		SCOPED_TRACE( scene );
		const std::string capture = ::testing::TempDir() + "pd_view_scene.png";
		testViewRun run = testRunView( std::string( scene ) + " --steps 600", "Escape", capture );
		EXPECT_EQ( run.exitCode, 0 ) << run.trace.substr( 0, 4000 );
		EXPECT_GE( run.frames.size(), 30u );
		EXPECT_NE( run.trace.find( "keys=27 closed=0" ), std::string::npos ) << "Escape ends the loop";
		EXPECT_NE( run.trace.find( "view capture step=30" ), std::string::npos ) << run.trace.substr( 0, 4000 );
		testExpectCaptureMatchesHeadless( scene, capture );
	}
}

#endif
