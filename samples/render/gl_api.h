// SPDX-License-Identifier: MIT
// The OpenGL entry points the renderer uses, as a table of function pointers filled from the
// context the renderer draws into: Mesa's off-screen library (OSMesa, opened with dlopen when a
// headless renderer is first made) or a window's own context (GLFW). The samples link no OpenGL
// library, so a process that opens a window never loads OSMesa: two Mesa builds in one process
// share libglapi's current-context slot, and the GLX driver then runs on OSMesa's context.
#pragma once

#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/osmesa.h>

#include "render.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C"
{
#endif

// Every gl* function the renderer calls, without the gl prefix.
#define SMP_GL_FUNCTIONS( X )                                                                                          \
	X( Begin )                                                                                                         \
	X( BlendFunc )                                                                                                     \
	X( Clear )                                                                                                         \
	X( ClearColor )                                                                                                    \
	X( ClearDepth )                                                                                                    \
	X( ClearStencil )                                                                                                  \
	X( Color3f )                                                                                                       \
	X( Color4f )                                                                                                       \
	X( ColorMaterial )                                                                                                 \
	X( CullFace )                                                                                                      \
	X( DepthFunc )                                                                                                     \
	X( DepthMask )                                                                                                     \
	X( Disable )                                                                                                       \
	X( DisableClientState )                                                                                            \
	X( DrawArrays )                                                                                                    \
	X( DrawPixels )                                                                                                    \
	X( Enable )                                                                                                        \
	X( EnableClientState )                                                                                             \
	X( End )                                                                                                           \
	X( Finish )                                                                                                        \
	X( Frustum )                                                                                                       \
	X( LightModelfv )                                                                                                  \
	X( LightModeli )                                                                                                   \
	X( Lightfv )                                                                                                       \
	X( LineWidth )                                                                                                     \
	X( LoadIdentity )                                                                                                  \
	X( LoadMatrixd )                                                                                                   \
	X( Materialf )                                                                                                     \
	X( Materialfv )                                                                                                    \
	X( MatrixMode )                                                                                                    \
	X( MultMatrixd )                                                                                                   \
	X( Normal3f )                                                                                                      \
	X( NormalPointer )                                                                                                 \
	X( PixelStorei )                                                                                                   \
	X( PointSize )                                                                                                     \
	X( PopMatrix )                                                                                                     \
	X( PushMatrix )                                                                                                    \
	X( ReadBuffer )                                                                                                    \
	X( ReadPixels )                                                                                                    \
	X( ShadeModel )                                                                                                    \
	X( StencilFunc )                                                                                                   \
	X( StencilOp )                                                                                                     \
	X( Vertex2f )                                                                                                      \
	X( Vertex3d )                                                                                                      \
	X( Vertex3dv )                                                                                                     \
	X( VertexPointer )                                                                                                 \
	X( Viewport )                                                                                                      \
	X( WindowPos2i )

	typedef struct smpGl
	{
#define SMP_GL_MEMBER( name ) __typeof__( &gl##name ) name;
		SMP_GL_FUNCTIONS( SMP_GL_MEMBER )
#undef SMP_GL_MEMBER
	} smpGl;

	/// Fills every entry of outGl through getProc. False with the first missing name in error.
	bool smpLoadGl( smpGl* outGl, smpRenderGetProc getProc, void* user, char* error, size_t errorSize );

	/// OSMesa's context functions, from libOSMesa opened once per process (never closed).
	typedef struct smpOsMesa
	{
		__typeof__( &OSMesaCreateContextExt ) CreateContextExt;
		__typeof__( &OSMesaMakeCurrent ) MakeCurrent;
		__typeof__( &OSMesaGetCurrentContext ) GetCurrentContext;
		__typeof__( &OSMesaDestroyContext ) DestroyContext;
		smpGl gl;
	} smpOsMesa;

	/// NULL with a message when libOSMesa cannot be opened or lacks an entry point.
	const smpOsMesa* smpOpenOsMesa( char* error, size_t errorSize );

#ifdef __cplusplus
}
#endif
