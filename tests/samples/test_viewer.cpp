// SPDX-License-Identifier: MIT
// The interactive viewer without a window: its input state machine (samples/render/viewer.h)
// driven by synthetic events and checked against the camera geometry worked out by hand, and
// `polydepth-sample ... --view` run as a process without a display (exit code 2, one line).
#include <gtest/gtest.h>

#include "run_process.h"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>

#include <sys/wait.h>

#include "viewer.h"

namespace
{

smpWindowInput NoInput()
{
	smpWindowInput input = {};
	input.width = 960;
	input.height = 540;
	return input;
}

smpWindowInput Keys( std::initializer_list<int> keys )
{
	smpWindowInput input = NoInput();
	for ( int k : keys )
		input.keys[input.keyCount++] = k;
	return input;
}

smpWindowInput Drag( double dx, double dy )
{
	smpWindowInput input = NoInput();
	input.dragX = dx;
	input.dragY = dy;
	return input;
}

smpWindowInput Scroll( double notches )
{
	smpWindowInput input = NoInput();
	input.scroll = notches;
	return input;
}

double Distance( const double a[3], const double b[3] )
{
	return std::sqrt( ( a[0] - b[0] ) * ( a[0] - b[0] ) + ( a[1] - b[1] ) * ( a[1] - b[1] ) +
					  ( a[2] - b[2] ) * ( a[2] - b[2] ) );
}

// The ragdoll scene's camera: 3 m above and 10 m in front of its target, a little to the right.
const double kEye[3] = { 1.5, 5.5, 10.5 };
const double kTarget[3] = { -1.0, 0.8, 0.0 };

smpViewerState Start( int algorithm = 0 )
{
	smpViewerState view;
	smpViewer_Init( &view, kEye, kTarget, algorithm, 2, false );
	return view;
}

} // namespace

TEST( PdViewer, InitialOrbitReproducesTheSceneCamera )
{
	smpViewerState view = Start();
	double eye[3];
	smpViewer_GetEye( &view, eye );
	for ( int k = 0; k < 3; ++k )
	{
		EXPECT_NEAR( eye[k], kEye[k], 1e-9 ) << "axis " << k;
		EXPECT_EQ( view.target[k], kTarget[k] );
	}
	EXPECT_NEAR( view.distance, Distance( kEye, kTarget ), 1e-12 );
	EXPECT_FALSE( view.paused );
	EXPECT_FALSE( view.showContacts );
	EXPECT_FALSE( view.quit );
	EXPECT_EQ( view.algorithm, 0 );
}

TEST( PdViewer, RunningSceneStepsEveryFrameWithoutInput )
{
	smpViewerState view = Start();
	for ( int frame = 0; frame < 5; ++frame )
	{
		smpWindowInput input = NoInput();
		smpViewerActions act = smpViewer_Update( &view, &input, false );
		EXPECT_TRUE( act.step ) << "frame " << frame;
		EXPECT_FALSE( act.restart );
		EXPECT_FALSE( act.quit );
	}
	// NULL means no events.
	EXPECT_TRUE( smpViewer_Update( &view, nullptr, false ).step );
}

TEST( PdViewer, HorizontalDragOrbitsAboutTheVerticalThroughTheTarget )
{
	smpViewerState view = Start();
	double before[3], after[3];
	smpViewer_GetEye( &view, before );
	// 100 pixels to the right turn the camera by -0.5 rad about +y (the scene turns with the mouse).
	smpWindowInput input = Drag( 100.0, 0.0 );
	smpViewer_Update( &view, &input, false );
	smpViewer_GetEye( &view, after );
	double angle = -100.0 * SMP_VIEWER_ORBIT_RAD_PER_PIXEL;
	double x = before[0] - kTarget[0], z = before[2] - kTarget[2];
	// Rotation about +y by angle: x' = x cos + z sin, z' = -x sin + z cos.
	EXPECT_NEAR( after[0] - kTarget[0], x * std::cos( angle ) + z * std::sin( angle ), 1e-9 );
	EXPECT_NEAR( after[1], before[1], 1e-9 );
	EXPECT_NEAR( after[2] - kTarget[2], -x * std::sin( angle ) + z * std::cos( angle ), 1e-9 );
	EXPECT_NEAR( Distance( after, kTarget ), Distance( before, kTarget ), 1e-9 );
	// A full turn of drags brings the camera back.
	double turn = 2.0 * M_PI / SMP_VIEWER_ORBIT_RAD_PER_PIXEL;
	input = Drag( turn, 0.0 );
	smpViewer_Update( &view, &input, false );
	double again[3];
	smpViewer_GetEye( &view, again );
	for ( int k = 0; k < 3; ++k )
		EXPECT_NEAR( again[k], after[k], 1e-9 ) << "axis " << k;
}

TEST( PdViewer, VerticalDragTiltsAndStopsAtThePitchLimits )
{
	smpViewerState view = Start();
	double before = view.pitch;
	smpWindowInput input = Drag( 0.0, 40.0 );
	smpViewer_Update( &view, &input, false );
	EXPECT_NEAR( view.pitch, before + 40.0 * SMP_VIEWER_ORBIT_RAD_PER_PIXEL, 1e-12 );
	input = Drag( 0.0, 1e6 );
	smpViewer_Update( &view, &input, false );
	EXPECT_DOUBLE_EQ( view.pitch, SMP_VIEWER_MAX_PITCH );
	double eye[3];
	smpViewer_GetEye( &view, eye );
	EXPECT_NEAR( eye[1] - kTarget[1], view.distance * std::sin( SMP_VIEWER_MAX_PITCH ), 1e-9 );
	input = Drag( 0.0, -1e6 );
	smpViewer_Update( &view, &input, false );
	EXPECT_DOUBLE_EQ( view.pitch, SMP_VIEWER_MIN_PITCH );
}

TEST( PdViewer, WheelZoomsGeometricallyWithinTheDistanceLimits )
{
	smpViewerState view = Start();
	double d0 = view.distance;
	smpWindowInput input = Scroll( 2.0 );
	smpViewer_Update( &view, &input, false );
	EXPECT_NEAR( view.distance, d0 * SMP_VIEWER_ZOOM_PER_NOTCH * SMP_VIEWER_ZOOM_PER_NOTCH, 1e-12 );
	input = Scroll( -2.0 );
	smpViewer_Update( &view, &input, false );
	EXPECT_NEAR( view.distance, d0, 1e-12 );
	input = Scroll( 1e9 ); // a runaway wheel must not overflow or reach the target
	smpViewer_Update( &view, &input, false );
	EXPECT_DOUBLE_EQ( view.distance, SMP_VIEWER_MIN_DISTANCE );
	input = Scroll( -1e9 );
	smpViewer_Update( &view, &input, false );
	EXPECT_DOUBLE_EQ( view.distance, SMP_VIEWER_MAX_DISTANCE );
	double eye[3];
	smpViewer_GetEye( &view, eye );
	EXPECT_NEAR( Distance( eye, kTarget ), SMP_VIEWER_MAX_DISTANCE, 1e-9 );
}

TEST( PdViewer, SpacePausesAndNStepsOnceWhilePaused )
{
	smpViewerState view = Start();
	smpWindowInput input = Keys( { ' ' } );
	smpViewerActions act = smpViewer_Update( &view, &input, false );
	EXPECT_TRUE( view.paused );
	EXPECT_FALSE( act.step );
	input = NoInput();
	EXPECT_FALSE( smpViewer_Update( &view, &input, false ).step );
	input = Keys( { 'N' } );
	EXPECT_TRUE( smpViewer_Update( &view, &input, false ).step );
	input = NoInput();
	EXPECT_FALSE( smpViewer_Update( &view, &input, false ).step ) << "a single step is one frame only";
	input = Keys( { 's' } ); // lower case and the S alias
	EXPECT_TRUE( smpViewer_Update( &view, &input, false ).step );
	EXPECT_TRUE( view.paused );
	input = Keys( { ' ' } );
	act = smpViewer_Update( &view, &input, false );
	EXPECT_FALSE( view.paused );
	EXPECT_TRUE( act.step );
	// Keys act in the order pressed: pause, then step once.
	input = Keys( { ' ', 'N' } );
	act = smpViewer_Update( &view, &input, false );
	EXPECT_TRUE( view.paused );
	EXPECT_TRUE( act.step );
}

TEST( PdViewer, CTogglesTheContactOverlay )
{
	smpViewerState view = Start();
	smpWindowInput input = Keys( { 'C' } );
	smpViewer_Update( &view, &input, false );
	EXPECT_TRUE( view.showContacts );
	input = Keys( { 'c' } );
	smpViewer_Update( &view, &input, false );
	EXPECT_FALSE( view.showContacts );
	input = Keys( { 'C', 'C' } );
	smpViewer_Update( &view, &input, false );
	EXPECT_FALSE( view.showContacts );
	smpViewerState shown;
	smpViewer_Init( &shown, kEye, kTarget, 0, 2, true );
	EXPECT_TRUE( shown.showContacts ); // --show-contacts starts with the overlay on
}

TEST( PdViewer, ASwitchesTheAlgorithmAndRestarts )
{
	smpViewerState view = Start( 1 );
	smpWindowInput input = Keys( { 'A' } );
	smpViewerActions act = smpViewer_Update( &view, &input, false );
	EXPECT_EQ( view.algorithm, 0 );
	EXPECT_TRUE( act.restart );
	EXPECT_TRUE( act.algorithmChanged );
	EXPECT_TRUE( act.step );
	input = Keys( { 'a' } );
	act = smpViewer_Update( &view, &input, false );
	EXPECT_EQ( view.algorithm, 1 );
	EXPECT_TRUE( act.algorithmChanged );
	// Twice in one frame: back where it was, still a restart.
	input = Keys( { 'A', 'A' } );
	act = smpViewer_Update( &view, &input, false );
	EXPECT_EQ( view.algorithm, 1 );
	EXPECT_TRUE( act.restart );
	EXPECT_FALSE( act.algorithmChanged );
	// The next frame does not restart again.
	input = NoInput();
	EXPECT_FALSE( smpViewer_Update( &view, &input, false ).restart );
}

TEST( PdViewer, RRestartsWithTheSameAlgorithmAndKeepsTheCamera )
{
	smpViewerState view = Start( 1 );
	smpWindowInput input = Drag( 30.0, 10.0 );
	smpViewer_Update( &view, &input, false );
	smpViewerState before = view;
	input = Keys( { 'R' } );
	smpViewerActions act = smpViewer_Update( &view, &input, true );
	EXPECT_TRUE( act.restart );
	EXPECT_FALSE( act.algorithmChanged );
	EXPECT_EQ( view.algorithm, 1 );
	EXPECT_TRUE( act.step ) << "the restarted scene is not finished";
	EXPECT_EQ( view.yaw, before.yaw );
	EXPECT_EQ( view.pitch, before.pitch );
	EXPECT_EQ( view.distance, before.distance );
}

TEST( PdViewer, FinishedSceneStopsSteppingUntilRestarted )
{
	smpViewerState view = Start();
	smpWindowInput input = NoInput();
	EXPECT_FALSE( smpViewer_Update( &view, &input, true ).step );
	input = Keys( { 'N' } );
	EXPECT_FALSE( smpViewer_Update( &view, &input, true ).step );
	input = Keys( { 'R' } );
	EXPECT_TRUE( smpViewer_Update( &view, &input, true ).step );
}

TEST( PdViewer, QEscapeOrClosingQuitsForGood )
{
	for ( int how = 0; how < 4; ++how )
	{
		smpViewerState view = Start();
		smpWindowInput input = how == 0   ? Keys( { 'Q' } )
							  : how == 1 ? Keys( { 'q' } )
							  : how == 2 ? Keys( { 27 } )
										 : NoInput();
		if ( how == 3 )
			input.closed = true;
		smpViewerActions act = smpViewer_Update( &view, &input, false );
		EXPECT_TRUE( act.quit ) << "how " << how;
		EXPECT_FALSE( act.step ) << "how " << how;
		// Keys after a quit do nothing, and the quit stays.
		input = Keys( { 'R', 'A', ' ' } );
		act = smpViewer_Update( &view, &input, false );
		EXPECT_TRUE( act.quit );
		EXPECT_FALSE( act.restart );
		EXPECT_FALSE( act.step );
		EXPECT_EQ( view.algorithm, 0 );
		EXPECT_FALSE( view.paused );
	}
	// Keys after Q in the same frame are ignored too.
	smpViewerState view = Start();
	smpWindowInput input = Keys( { 'Q', 'A' } );
	smpViewerActions act = smpViewer_Update( &view, &input, false );
	EXPECT_TRUE( act.quit );
	EXPECT_FALSE( act.restart );
	EXPECT_EQ( view.algorithm, 0 );
}

TEST( PdViewer, BadEventsAndCamerasLeaveAFiniteView )
{
	const double nan = std::numeric_limits<double>::quiet_NaN();
	const double inf = std::numeric_limits<double>::infinity();
	smpViewerState view = Start();
	smpViewerState before = view;
	smpWindowInput input = Drag( nan, 3.0 );
	input.scroll = inf;
	input.keyCount = 1000; // more than the 16 slots: only those are read
	for ( int k = 0; k < 16; ++k )
		input.keys[k] = k == 3 ? -5 : 9999; // not keys
	smpViewerActions act = smpViewer_Update( &view, &input, false );
	EXPECT_TRUE( act.step );
	EXPECT_EQ( view.yaw, before.yaw );
	EXPECT_EQ( view.pitch, before.pitch );
	EXPECT_EQ( view.distance, before.distance );
	EXPECT_FALSE( view.paused );

	// An eye on its target, or a non-finite one, falls back to a view from 10 m.
	const double badEyes[2][3] = { { -1.0, 0.8, 0.0 }, { nan, 1.0, 1.0 } };
	for ( const auto& eye : badEyes )
	{
		smpViewerState v;
		smpViewer_Init( &v, eye, kTarget, 7, 2, false );
		double out[3];
		smpViewer_GetEye( &v, out );
		for ( int k = 0; k < 3; ++k )
			EXPECT_TRUE( std::isfinite( out[k] ) );
		EXPECT_DOUBLE_EQ( v.distance, 10.0 );
		EXPECT_EQ( v.algorithm, 0 ) << "an algorithm out of range is clamped";
	}
}

// --- polydepth-sample --view without a display: exit code 2 and one line on stderr.

#ifdef POLYDEPTH_SAMPLE_PATH
namespace
{

using testRun = TestProcessRun;

testRun RunSample( const std::string& environment, const std::string& args )
{
	return TestRunProcess( environment, POLYDEPTH_SAMPLE_PATH, args );
}

int Lines( const std::string& s )
{
	int n = 0;
	for ( char c : s )
		n += c == '\n';
	return n;
}

} // namespace

TEST( PdViewer, ViewWithoutADisplayExitsWithCode2AndOneLine )
{
	// No display variable at all, and a display that names no server (the window system is
	// asked and fails): both are refused before any simulation runs.
	const char* const environments[] = { "env -u DISPLAY -u WAYLAND_DISPLAY",
										 "env -u WAYLAND_DISPLAY DISPLAY=/nonexistent/polydepth-no-display:0" };
	for ( const char* environment : environments )
	{
		for ( const char* scene : { "debris", "ragdoll" } )
		{
			testRun r = RunSample( environment, std::string( scene ) + " --view --steps 5" );
			SCOPED_TRACE( std::string( environment ) + " " + scene + ": stderr '" + r.err + "'" );
			EXPECT_EQ( r.exitCode, 2 );
			EXPECT_EQ( Lines( r.err ), 1 );
			EXPECT_NE( r.err.find( "polydepth-sample:" ), std::string::npos );
			EXPECT_TRUE( r.err.find( "display" ) != std::string::npos || r.err.find( "window" ) != std::string::npos ||
						 r.err.find( "renderer" ) != std::string::npos );
			EXPECT_EQ( r.out, "" ) << "no table: nothing ran";
		}
	}
}
#endif
