// SPDX-License-Identifier: MIT
// Interactive window (GLFW): an OpenGL 2.1 context that the renderer draws into with the same
// code as off-screen (smpWindow_CreateRenderer), and mouse drags, wheel and key presses.
// Without GLFW or a display it says so.
#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool smpWindowAvailable( char* reason, size_t reasonSize )
{
#ifdef POLYDEPTH_HAVE_GLFW
	const char* x11 = getenv( "DISPLAY" );
	const char* wayland = getenv( "WAYLAND_DISPLAY" );
	if ( ( x11 == NULL || x11[0] == 0 ) && ( wayland == NULL || wayland[0] == 0 ) )
	{
		if ( reason != NULL && reasonSize > 0 )
			snprintf(
				reason, reasonSize,
				"no display (DISPLAY and WAYLAND_DISPLAY are unset); run headless with --frames/--sheet/--video" );
		return false;
	}
	return true;
#else
	if ( reason != NULL && reasonSize > 0 )
		snprintf( reason, reasonSize, "built without GLFW; run headless with --frames/--sheet/--video" );
	return false;
#endif
}

#ifdef POLYDEPTH_HAVE_GLFW

#include <GLFW/glfw3.h>

struct smpWindow
{
	GLFWwindow* window;
	double lastX, lastY;
	double scroll;
	int keys[16];
	int keyCount;
};

static void smpKeyCallback( GLFWwindow* window, int key, int scancode, int action, int mods )
{
	smpWindow* w = (smpWindow*)glfwGetWindowUserPointer( window );
	if ( w == NULL || ( action != GLFW_PRESS && action != GLFW_REPEAT ) || w->keyCount >= 16 )
		return;
	int code = key == GLFW_KEY_ESCAPE ? 27 : ( key >= 32 && key < 127 ? key : 0 );
	if ( code != 0 )
		w->keys[w->keyCount++] = code;
}

static void smpScrollCallback( GLFWwindow* window, double dx, double dy )
{
	smpWindow* w = (smpWindow*)glfwGetWindowUserPointer( window );
	if ( w != NULL )
		w->scroll += dy;
}

smpWindow* smpCreateWindow( int width, int height, const char* title, char* error, size_t errorSize )
{
	if ( !smpWindowAvailable( error, errorSize ) )
		return NULL;
	if ( !glfwInit() )
	{
		if ( error != NULL && errorSize > 0 )
			snprintf( error, errorSize, "cannot open a window: glfwInit failed (is the display reachable?)" );
		return NULL;
	}
	// The renderer is fixed-function OpenGL: a 2.1 context (a compatibility one where newer
	// versions exist), 4x multisampling in place of the off-screen supersampling.
	glfwWindowHint( GLFW_CLIENT_API, GLFW_OPENGL_API );
	glfwWindowHint( GLFW_CONTEXT_VERSION_MAJOR, 2 );
	glfwWindowHint( GLFW_CONTEXT_VERSION_MINOR, 1 );
	glfwWindowHint( GLFW_SAMPLES, 4 );
	smpWindow* w = (smpWindow*)calloc( 1, sizeof( smpWindow ) );
	if ( w != NULL )
		w->window = glfwCreateWindow( width, height, title, NULL, NULL );
	if ( w == NULL || w->window == NULL )
	{
		if ( error != NULL && errorSize > 0 )
			snprintf( error, errorSize, "cannot open a window: glfwCreateWindow failed" );
		free( w );
		glfwTerminate();
		return NULL;
	}
	glfwMakeContextCurrent( w->window );
	glfwSwapInterval( 1 );
	glfwSetWindowUserPointer( w->window, w );
	glfwSetKeyCallback( w->window, smpKeyCallback );
	glfwSetScrollCallback( w->window, smpScrollCallback );
	glfwGetCursorPos( w->window, &w->lastX, &w->lastY );
	return w;
}

void smpDestroyWindow( smpWindow* window )
{
	if ( window == NULL )
		return;
	if ( window->window != NULL )
		glfwDestroyWindow( window->window );
	free( window );
	glfwTerminate();
}

static void* smpWindowGetProc( void* user, const char* name )
{
	return (void*)glfwGetProcAddress( name );
}

smpRenderer* smpWindow_CreateRenderer( smpWindow* window, char* error, size_t errorSize )
{
	glfwMakeContextCurrent( window->window );
	int fw = 0, fh = 0;
	glfwGetFramebufferSize( window->window, &fw, &fh );
	return smpCreateContextRenderer( smpWindowGetProc, NULL, fw, fh, error, errorSize );
}

void smpWindow_SwapBuffers( smpWindow* window )
{
	glfwSwapBuffers( window->window );
}

void smpWindow_Poll( smpWindow* window, smpWindowInput* outInput )
{
	memset( outInput, 0, sizeof( *outInput ) );
	glfwPollEvents();
	double x = 0.0, y = 0.0;
	glfwGetCursorPos( window->window, &x, &y );
	if ( glfwGetMouseButton( window->window, GLFW_MOUSE_BUTTON_LEFT ) == GLFW_PRESS )
	{
		outInput->dragX = x - window->lastX;
		outInput->dragY = y - window->lastY;
	}
	window->lastX = x;
	window->lastY = y;
	outInput->scroll = window->scroll;
	window->scroll = 0.0;
	memcpy( outInput->keys, window->keys, sizeof( window->keys ) );
	outInput->keyCount = window->keyCount;
	window->keyCount = 0;
	glfwGetFramebufferSize( window->window, &outInput->width, &outInput->height );
	outInput->closed = glfwWindowShouldClose( window->window ) != 0;
}

void smpWindow_SetTitle( smpWindow* window, const char* title )
{
	glfwSetWindowTitle( window->window, title );
}

#else

smpWindow* smpCreateWindow( int width, int height, const char* title, char* error, size_t errorSize )
{
	smpWindowAvailable( error, errorSize );
	return NULL;
}

void smpDestroyWindow( smpWindow* window ) {}

smpRenderer* smpWindow_CreateRenderer( smpWindow* window, char* error, size_t errorSize )
{
	smpWindowAvailable( error, errorSize );
	return NULL;
}

void smpWindow_SwapBuffers( smpWindow* window ) {}

void smpWindow_Poll( smpWindow* window, smpWindowInput* outInput )
{
	memset( outInput, 0, sizeof( *outInput ) );
	outInput->closed = true;
}

void smpWindow_SetTitle( smpWindow* window, const char* title ) {}

#endif
