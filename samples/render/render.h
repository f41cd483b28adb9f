// SPDX-License-Identifier: MIT
// Renderer for the samples: legacy fixed-function OpenGL, shaded meshes on a ground grid with
// planar projected shadows, overlays for contact points and normals, PNG files (libpng), contact
// sheets, and an optional GLFW window. Headless it draws into Mesa's off-screen context (OSMesa,
// loaded at run time); in a window it draws the same pictures with the window's own context, and
// OSMesa is never loaded (two Mesa builds in one process share one current-context slot).
//
//   smpRenderer* r = smpCreateRenderer( 960, 540, 2, error, sizeof( error ) );
//   smpRenderMesh* m = smpCreateRenderMesh( vertices, vertexCount, indices, triangleCount, 35.0 );
//   smpRenderFrameDef frame = smpDefaultRenderFrameDef();   // set frame.eye, frame.target
//   smpRenderer_Begin( r, &frame );
//   smpRenderer_DrawMesh( r, m, &pose, rgb, SMP_RENDER_CAST_SHADOW );
//   smpRenderer_End( r );
//   smpWritePng( "frame.png", smpRenderer_GetPixels( r ), 960, 540, error, sizeof( error ) );
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

	typedef struct smpRenderer smpRenderer;
	typedef struct smpRenderMesh smpRenderMesh;

	/// A rigid pose: world = rotate(q, local) + p, q = (w, x, y, z) unit.
	typedef struct smpRenderPose
	{
		double q[4];
		double p[3];
	} smpRenderPose;

	typedef struct smpRenderFrameDef
	{
		double eye[3];         ///< camera position (m)
		double target[3];      ///< looked-at point (m)
		double up[3];          ///< default +y
		double fovY;           ///< vertical field of view, degrees. Default 40
		double lightDir[3];    ///< direction the light travels (towards the ground). Default (0.25, -1, -0.6)
		double groundY;        ///< height of the ground plane. Default 0
		double groundHalfSize; ///< the ground plane spans [-s, s] in x and z. Default 12
		double gridSpacing;    ///< metres between grid lines; <= 0: no grid. Default 1
		float background[3];   ///< sky colour at the top of the frame
		bool shadows;          ///< planar shadows of SMP_RENDER_CAST_SHADOW meshes on the ground. Default true
	} smpRenderFrameDef;

	enum
	{
		SMP_RENDER_CAST_SHADOW = 1 << 0, ///< projected onto the ground plane
		SMP_RENDER_TWO_SIDED = 1 << 1,   ///< no back-face culling (open or inconsistently wound meshes)
	};

	smpRenderFrameDef smpDefaultRenderFrameDef( void );

	/// Creates an off-screen context of width x height pixels, rendered at supersample times the
	/// size and box-filtered down (anti-aliasing; 1..4). NULL with a message on failure.
	smpRenderer* smpCreateRenderer( int width, int height, int supersample, char* error, size_t errorSize );
	void smpDestroyRenderer( smpRenderer* renderer );
	/// Looks up one OpenGL entry point by its full name ("glViewport"); NULL when absent.
	typedef void* ( *smpRenderGetProc )( void* user, const char* name );
	/// A renderer that draws into whatever OpenGL context is current when it is used (a window's),
	/// into its default framebuffer of width x height, with entry points from getProc. The context
	/// must offer the fixed-function pipeline (compatibility profile). NULL with a message.
	smpRenderer* smpCreateContextRenderer( smpRenderGetProc getProc, void* user, int width, int height, char* error,
										   size_t errorSize );
	/// Changes the output size (the window follows its framebuffer). False on failure.
	bool smpRenderer_Resize( smpRenderer* renderer, int width, int height );
	int smpRenderer_GetWidth( const smpRenderer* renderer );
	int smpRenderer_GetHeight( const smpRenderer* renderer );

	/// Prepares a mesh for drawing: per-corner normals averaged over faces within creaseDegrees of
	/// each other (smooth curved surfaces, sharp box edges). Copies the data. NULL on bad input.
	smpRenderMesh* smpCreateRenderMesh( const double* vertices, int vertexCount, const uint32_t* indices,
										int triangleCount, double creaseDegrees );
	void smpDestroyRenderMesh( smpRenderMesh* mesh );

	/// Clears the frame, draws the sky gradient, the ground and its grid.
	void smpRenderer_Begin( smpRenderer* renderer, const smpRenderFrameDef* def );
	/// Draws a lit mesh now; with SMP_RENDER_CAST_SHADOW its shadow is drawn at smpRenderer_End.
	void smpRenderer_DrawMesh( smpRenderer* renderer, const smpRenderMesh* mesh, const smpRenderPose* pose,
							   const float rgb[3], unsigned flags );
	/// Overlays, drawn on top of everything at smpRenderer_End (size in output pixels).
	void smpRenderer_DrawPoint( smpRenderer* renderer, const double p[3], const float rgb[3], float size );
	void smpRenderer_DrawLine( smpRenderer* renderer, const double a[3], const double b[3], const float rgb[3] );
	/// Shadows, overlays; off-screen it then reads the frame back (RGBA, top row first).
	void smpRenderer_End( smpRenderer* renderer );
	/// The off-screen frame read back by smpRenderer_End (RGBA, top row first).
	const uint8_t* smpRenderer_GetPixels( const smpRenderer* renderer );
	/// The frame as drawn, RGBA top row first: off-screen the same as smpRenderer_GetPixels; into a
	/// context, read now from its back buffer (call after smpRenderer_End, before the swap).
	const uint8_t* smpRenderer_ReadPixels( smpRenderer* renderer );
	/// Writes a label (smpDrawLabel) over the finished frame, after smpRenderer_End.
	void smpRenderer_DrawLabel( smpRenderer* renderer, int x, int y, const char* text, int scale,
								const uint8_t rgb[3] );

	/// Writes a small label into an RGBA image (built-in 5 x 7 font, upper-cased; scale >= 1).
	void smpDrawLabel( uint8_t* rgba, int width, int height, int x, int y, const char* text, int scale,
					   const uint8_t rgb[3] );

	/// PNG I/O (RGBA, top row first). smpReadPng allocates *outRgba with malloc (free it with free).
	bool smpWritePng( const char* path, const uint8_t* rgba, int width, int height, char* error, size_t errorSize );
	bool smpReadPng( const char* path, uint8_t** outRgba, int* outWidth, int* outHeight, char* error,
					 size_t errorSize );

	/// A grid of equally sized RGBA tiles, columns wide, with a gap of pad pixels (white).
	/// Writes into outRgba of (columns * (w + pad) + pad) x (rows * (h + pad) + pad) pixels.
	void smpComposeSheet( const uint8_t* const* tiles, int tileCount, int tileWidth, int tileHeight, int columns,
						  int pad, uint8_t* outRgba, int* outWidth, int* outHeight );

	/// Interactive window (GLFW) with an OpenGL 2.1 context; smpWindow_CreateRenderer draws into it.
	typedef struct smpWindow smpWindow;

	typedef struct smpWindowInput
	{
		double dragX, dragY; ///< left-button drag since the last poll (pixels)
		double scroll;       ///< wheel since the last poll
		int keys[16];        ///< keys pressed since the last poll (ASCII upper case; 27 = Escape, 32 = space)
		int keyCount;
		int width, height; ///< framebuffer size
		bool closed;       ///< the window was closed
	} smpWindowInput;

	/// True when a window system is reachable (DISPLAY or WAYLAND_DISPLAY set) and GLFW is built in.
	bool smpWindowAvailable( char* reason, size_t reasonSize );
	/// NULL with a message when there is no display or GLFW fails.
	smpWindow* smpCreateWindow( int width, int height, const char* title, char* error, size_t errorSize );
	void smpDestroyWindow( smpWindow* window );
	/// A renderer drawing into the window's context at its framebuffer size (smpCreateContextRenderer).
	/// Destroy it before the window.
	smpRenderer* smpWindow_CreateRenderer( smpWindow* window, char* error, size_t errorSize );
	/// Shows the frame drawn since the last swap.
	void smpWindow_SwapBuffers( smpWindow* window );
	void smpWindow_Poll( smpWindow* window, smpWindowInput* outInput );
	void smpWindow_SetTitle( smpWindow* window, const char* title );

#ifdef __cplusplus
}
#endif
