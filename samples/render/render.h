// SPDX-License-Identifier: MIT
// Headless renderer for the samples: legacy fixed-function OpenGL through Mesa's off-screen
// context (OSMesa), shaded meshes on a ground grid with planar projected shadows, overlays
// for contact points and normals, PNG files (libpng), contact sheets, and an optional GLFW
// window that shows the same pictures.
//
//   pdRenderer* r = pdCreateRenderer( 960, 540, 2, error, sizeof( error ) );
//   pdRenderMesh* m = pdCreateRenderMesh( vertices, vertexCount, indices, triangleCount, 35.0 );
//   pdRenderFrameDef frame = pdDefaultRenderFrameDef();   // set frame.eye, frame.target
//   pdRenderer_Begin( r, &frame );
//   pdRenderer_DrawMesh( r, m, &pose, rgb, PD_RENDER_CAST_SHADOW );
//   pdRenderer_End( r );
//   pdWritePng( "frame.png", pdRenderer_GetPixels( r ), 960, 540, error, sizeof( error ) );
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

	typedef struct pdRenderer pdRenderer;
	typedef struct pdRenderMesh pdRenderMesh;

	/// A rigid pose: world = rotate(q, local) + p, q = (w, x, y, z) unit.
	typedef struct pdRenderPose
	{
		double q[4];
		double p[3];
	} pdRenderPose;

	typedef struct pdRenderFrameDef
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
		bool shadows;          ///< planar shadows of PD_RENDER_CAST_SHADOW meshes on the ground. Default true
	} pdRenderFrameDef;

	enum
	{
		PD_RENDER_CAST_SHADOW = 1 << 0, ///< projected onto the ground plane
		PD_RENDER_TWO_SIDED = 1 << 1,   ///< no back-face culling (open or inconsistently wound meshes)
	};

	pdRenderFrameDef pdDefaultRenderFrameDef( void );

	/// Creates an off-screen context of width x height pixels, rendered at supersample times the
	/// size and box-filtered down (anti-aliasing; 1..4). NULL with a message on failure.
	pdRenderer* pdCreateRenderer( int width, int height, int supersample, char* error, size_t errorSize );
	void pdDestroyRenderer( pdRenderer* renderer );
	/// Changes the output size (the window follows its framebuffer). False on failure.
	bool pdRenderer_Resize( pdRenderer* renderer, int width, int height );
	int pdRenderer_GetWidth( const pdRenderer* renderer );
	int pdRenderer_GetHeight( const pdRenderer* renderer );

	/// Prepares a mesh for drawing: per-corner normals averaged over faces within creaseDegrees of
	/// each other (smooth curved surfaces, sharp box edges). Copies the data. NULL on bad input.
	pdRenderMesh* pdCreateRenderMesh( const double* vertices, int vertexCount, const uint32_t* indices,
									  int triangleCount, double creaseDegrees );
	void pdDestroyRenderMesh( pdRenderMesh* mesh );

	/// Clears the frame, draws the sky gradient, the ground and its grid.
	void pdRenderer_Begin( pdRenderer* renderer, const pdRenderFrameDef* def );
	/// Draws a lit mesh now; with PD_RENDER_CAST_SHADOW its shadow is drawn at pdRenderer_End.
	void pdRenderer_DrawMesh( pdRenderer* renderer, const pdRenderMesh* mesh, const pdRenderPose* pose,
							  const float rgb[3], unsigned flags );
	/// Overlays, drawn on top of everything at pdRenderer_End (size in output pixels).
	void pdRenderer_DrawPoint( pdRenderer* renderer, const double p[3], const float rgb[3], float size );
	void pdRenderer_DrawLine( pdRenderer* renderer, const double a[3], const double b[3], const float rgb[3] );
	/// Shadows, overlays, then reads the frame back (RGBA, top row first).
	void pdRenderer_End( pdRenderer* renderer );
	const uint8_t* pdRenderer_GetPixels( const pdRenderer* renderer );

	/// Writes a small label into an RGBA image (built-in 5 x 7 font, upper-cased; scale >= 1).
	void pdDrawLabel( uint8_t* rgba, int width, int height, int x, int y, const char* text, int scale,
					  const uint8_t rgb[3] );

	/// PNG I/O (RGBA, top row first). pdReadPng allocates *outRgba with malloc (free it with free).
	bool pdWritePng( const char* path, const uint8_t* rgba, int width, int height, char* error, size_t errorSize );
	bool pdReadPng( const char* path, uint8_t** outRgba, int* outWidth, int* outHeight, char* error, size_t errorSize );

	/// A grid of equally sized RGBA tiles, columns wide, with a gap of pad pixels (white).
	/// Writes into outRgba of (columns * (w + pad) + pad) x (rows * (h + pad) + pad) pixels.
	void pdComposeSheet( const uint8_t* const* tiles, int tileCount, int tileWidth, int tileHeight, int columns,
						 int pad, uint8_t* outRgba, int* outWidth, int* outHeight );

	/// Interactive window (GLFW), showing RGBA frames made by the off-screen renderer.
	typedef struct pdWindow pdWindow;

	typedef struct pdWindowInput
	{
		double dragX, dragY; ///< left-button drag since the last poll (pixels)
		double scroll;       ///< wheel since the last poll
		int keys[16];        ///< keys pressed since the last poll (ASCII upper case; 27 = Escape, 32 = space)
		int keyCount;
		int width, height; ///< framebuffer size
		bool closed;       ///< the window was closed
	} pdWindowInput;

	/// True when a window system is reachable (DISPLAY or WAYLAND_DISPLAY set) and GLFW is built in.
	bool pdWindowAvailable( char* reason, size_t reasonSize );
	/// NULL with a message when there is no display or GLFW fails.
	pdWindow* pdCreateWindow( int width, int height, const char* title, char* error, size_t errorSize );
	void pdDestroyWindow( pdWindow* window );
	void pdWindow_Present( pdWindow* window, const uint8_t* rgba, int width, int height );
	void pdWindow_Poll( pdWindow* window, pdWindowInput* outInput );
	void pdWindow_SetTitle( pdWindow* window, const char* title );

#ifdef __cplusplus
}
#endif
