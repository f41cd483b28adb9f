// SPDX-License-Identifier: MIT
// The viewer's input state machine (see viewer.h): pure functions of the state and one frame's
// events, so that tests can drive it without a window.
#include "viewer.h"

#include <ctype.h>
#include <math.h>

static const double smpViewerTwoPi = 6.283185307179586;

static double smpViewerClamp( double v, double lo, double hi )
{
	return v < lo ? lo : ( v > hi ? hi : v );
}

void smpViewer_Init( smpViewerState* outState, const double eye[3], const double target[3], int algorithm,
					int algorithmCount, bool showContacts )
{
	smpViewerState s = { { 0.0, 0.0, 0.0 }, 0.0, 0.0, 10.0, false, showContacts, 0, 1, false };
	bool finite = true;
	for ( int k = 0; k < 3; ++k )
		finite = finite && isfinite( eye[k] ) && isfinite( target[k] );
	if ( finite )
	{
		for ( int k = 0; k < 3; ++k )
			s.target[k] = target[k];
		double dx = eye[0] - target[0], dy = eye[1] - target[1], dz = eye[2] - target[2];
		double d = sqrt( dx * dx + dy * dy + dz * dz );
		// An eye on the target has no direction: keep the default view from 10 m along +z.
		if ( d > 1e-9 && isfinite( d ) )
		{
			s.yaw = atan2( dx, dz );
			s.pitch = asin( smpViewerClamp( dy / d, -1.0, 1.0 ) );
			s.distance = d;
		}
	}
	s.pitch = smpViewerClamp( s.pitch, SMP_VIEWER_MIN_PITCH, SMP_VIEWER_MAX_PITCH );
	s.distance = smpViewerClamp( s.distance, SMP_VIEWER_MIN_DISTANCE, SMP_VIEWER_MAX_DISTANCE );
	s.algorithmCount = algorithmCount >= 1 ? algorithmCount : 1;
	s.algorithm = algorithm >= 0 && algorithm < s.algorithmCount ? algorithm : 0;
	*outState = s;
}

smpViewerActions smpViewer_Update( smpViewerState* ioState, const smpWindowInput* input, bool finished )
{
	smpViewerActions act = { false, false, false, false };
	smpViewerState* s = ioState;
	bool single = false;
	int startAlgorithm = s->algorithm;
	if ( input != NULL && !s->quit )
	{
		if ( input->closed )
			s->quit = true;
		int count = input->keyCount < 0 ? 0 : ( input->keyCount > 16 ? 16 : input->keyCount );
		// Keys in the order pressed: "A A" switches twice, "space N" pauses then steps once.
		for ( int k = 0; k < count && !s->quit; ++k )
		{
			int key = input->keys[k] >= 0 && input->keys[k] < 128 ? toupper( input->keys[k] ) : 0;
			switch ( key )
			{
				case 27:
				case 'Q':
					s->quit = true;
					break;
				case ' ':
					s->paused = !s->paused;
					break;
				case 'N':
				case 'S':
					single = true;
					break;
				case 'C':
					s->showContacts = !s->showContacts;
					break;
				case 'R':
					act.restart = true;
					break;
				case 'A':
					s->algorithm = ( s->algorithm + 1 ) % s->algorithmCount;
					act.restart = true;
					break;
				default:
					break;
			}
		}
		if ( isfinite( input->dragX ) && isfinite( input->dragY ) )
		{
			// The yaw wraps into (-pi, pi] so that long drags never lose precision.
			double yaw = s->yaw - SMP_VIEWER_ORBIT_RAD_PER_PIXEL * input->dragX;
			s->yaw = remainder( yaw, smpViewerTwoPi );
			s->pitch = smpViewerClamp( s->pitch + SMP_VIEWER_ORBIT_RAD_PER_PIXEL * input->dragY, SMP_VIEWER_MIN_PITCH,
									  SMP_VIEWER_MAX_PITCH );
		}
		if ( isfinite( input->scroll ) )
		{
			// Clamp the exponent too: a huge scroll must not overflow pow.
			double notches = smpViewerClamp( input->scroll, -100.0, 100.0 );
			s->distance = smpViewerClamp( s->distance * pow( SMP_VIEWER_ZOOM_PER_NOTCH, notches ), SMP_VIEWER_MIN_DISTANCE,
										 SMP_VIEWER_MAX_DISTANCE );
		}
	}
	act.algorithmChanged = s->algorithm != startAlgorithm;
	act.quit = s->quit;
	if ( act.quit )
	{
		act.restart = false;
		act.algorithmChanged = false;
		return act;
	}
	// A restarted scene is at its first step, so it may step in the same frame.
	act.step = ( !s->paused || single ) && ( !finished || act.restart );
	return act;
}

void smpViewer_GetEye( const smpViewerState* state, double outEye[3] )
{
	double c = cos( state->pitch );
	outEye[0] = state->target[0] + state->distance * c * sin( state->yaw );
	outEye[1] = state->target[1] + state->distance * sin( state->pitch );
	outEye[2] = state->target[2] + state->distance * c * cos( state->yaw );
}
