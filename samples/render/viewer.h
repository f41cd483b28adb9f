// SPDX-License-Identifier: MIT
// The interactive viewer's input handling as a pure state machine: it takes the events of one
// frame (a smpWindowInput, from GLFW or made up by a test) and updates the orbit camera, pause,
// overlays and the chosen algorithm, and says what the frame must do (step, restart, quit).
// No window, no OpenGL, no scene: polydepth-sample --view drives it, tests/samples/test_viewer.cpp
// feeds it synthetic events.
//
//   smpViewerState view;
//   smpViewer_Init( &view, eye, target, algorithm, 2, showContacts );
//   for ( ;; )
//   {
//       smpWindowInput input;                 // smpWindow_Poll( window, &input )
//       smpViewerActions act = smpViewer_Update( &view, &input, finished );
//       if ( act.quit ) break;
//       if ( act.restart ) ...               // rebuild the scene with view.algorithm
//       if ( act.step ) ...                  // advance one step
//       smpViewer_GetEye( &view, eye );       // draw from eye toward view.target
//   }
//
// Keys (ASCII, either case): space pause/resume, N or S one step (while paused), C contact
// overlay, A next algorithm and restart, R restart, Q or Escape (27) quit. Left drag orbits
// (yaw with x, pitch with y), the wheel zooms.
#pragma once

#include "render.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C"
{
#endif

// Camera gains and limits of the viewer.
#define SMP_VIEWER_ORBIT_RAD_PER_PIXEL 0.005 ///< yaw and pitch per dragged pixel (rad)
#define SMP_VIEWER_ZOOM_PER_NOTCH 0.9        ///< distance factor per wheel notch (away from you: closer)
#define SMP_VIEWER_MIN_PITCH ( -0.2 )        ///< rad; a little below the horizon
#define SMP_VIEWER_MAX_PITCH 1.5             ///< rad; almost straight down
#define SMP_VIEWER_MIN_DISTANCE 1.0          ///< m
#define SMP_VIEWER_MAX_DISTANCE 80.0         ///< m

	typedef struct smpViewerState
	{
		double target[3]; ///< orbit centre (m)
		double yaw;       ///< rad about +y; 0 looks from +z toward -z
		double pitch;     ///< rad above the horizon, in [SMP_VIEWER_MIN_PITCH, SMP_VIEWER_MAX_PITCH]
		double distance;  ///< eye to target (m), in [SMP_VIEWER_MIN_DISTANCE, SMP_VIEWER_MAX_DISTANCE]
		bool paused;
		bool showContacts;
		int algorithm;      ///< index of the algorithm in use, in [0, algorithmCount)
		int algorithmCount; ///< >= 1
		bool quit;          ///< set once and stays set
	} smpViewerState;

	/// What one frame must do, after its events.
	typedef struct smpViewerActions
	{
		bool quit;             ///< stop the loop (Q, Escape or the window closed)
		bool restart;          ///< rebuild the scene from the start, with state->algorithm
		bool algorithmChanged; ///< restart is for a new algorithm (revert state->algorithm if it fails)
		bool step;             ///< advance the simulation by one step this frame
	} smpViewerActions;

	/// Starts orbiting around target from eye. A degenerate or non-finite camera falls back to a
	/// view from 10 m; algorithm is clamped into [0, algorithmCount).
	void smpViewer_Init( smpViewerState* outState, const double eye[3], const double target[3], int algorithm,
						int algorithmCount, bool showContacts );
	/// Applies one frame's events (NULL: no events). finished: the scene has reached its last step
	/// (then nothing steps until a restart). Non-finite drags or scrolls are ignored.
	smpViewerActions smpViewer_Update( smpViewerState* ioState, const smpWindowInput* input, bool finished );
	/// The eye position for the current orbit (m).
	void smpViewer_GetEye( const smpViewerState* state, double outEye[3] );

#ifdef __cplusplus
}
#endif
