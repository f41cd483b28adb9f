// SPDX-License-Identifier: MIT
// Interactive window (GLFW): shows frames rendered off-screen by the same renderer, and
// reports mouse drags, wheel and key presses. Without GLFW or a display it says so.
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

typedef void ( *smpGlViewportFcn )( GLint, GLint, GLsizei, GLsizei );
typedef void ( *smpGlClearFcn )( GLbitfield );
typedef void ( *smpGlWindowPosFcn )( GLint, GLint );
typedef void ( *smpGlPixelZoomFcn )( GLfloat, GLfloat );
typedef void ( *smpGlDrawPixelsFcn )( GLsizei, GLsizei, GLenum, GLenum, const void* );

struct smpWindow
{
	GLFWwindow* window;
	smpGlViewportFcn viewport;
	smpGlClearFcn clear;
	smpGlWindowPosFcn windowPos;
	smpGlPixelZoomFcn pixelZoom;
	smpGlDrawPixelsFcn drawPixels;
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
	glfwWindowHint( GLFW_CONTEXT_VERSION_MAJOR, 2 );
	glfwWindowHint( GLFW_CONTEXT_VERSION_MINOR, 1 );
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
	w->viewport = (smpGlViewportFcn)glfwGetProcAddress( "glViewport" );
	w->clear = (smpGlClearFcn)glfwGetProcAddress( "glClear" );
	w->windowPos = (smpGlWindowPosFcn)glfwGetProcAddress( "glWindowPos2i" );
	w->pixelZoom = (smpGlPixelZoomFcn)glfwGetProcAddress( "glPixelZoom" );
	w->drawPixels = (smpGlDrawPixelsFcn)glfwGetProcAddress( "glDrawPixels" );
	if ( w->viewport == NULL || w->clear == NULL || w->windowPos == NULL || w->pixelZoom == NULL ||
		 w->drawPixels == NULL )
	{
		if ( error != NULL && errorSize > 0 )
			snprintf( error, errorSize, "cannot open a window: the window's OpenGL lacks glDrawPixels/glWindowPos2i" );
		smpDestroyWindow( w );
		return NULL;
	}
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

void smpWindow_Present( smpWindow* window, const uint8_t* rgba, int width, int height )
{
	glfwMakeContextCurrent( window->window );
	int fw = 0, fh = 0;
	glfwGetFramebufferSize( window->window, &fw, &fh );
	window->viewport( 0, 0, fw, fh );
	window->clear( GL_COLOR_BUFFER_BIT );
	// Our rows run top to bottom: start at the top-left corner and draw downwards.
	window->windowPos( 0, height < fh ? height : fh );
	window->pixelZoom( 1.0f, -1.0f );
	window->drawPixels( width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba );
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

void smpWindow_Present( smpWindow* window, const uint8_t* rgba, int width, int height ) {}

void smpWindow_Poll( smpWindow* window, smpWindowInput* outInput )
{
	memset( outInput, 0, sizeof( *outInput ) );
	outInput->closed = true;
}

void smpWindow_SetTitle( smpWindow* window, const char* title ) {}

#endif
