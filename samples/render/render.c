// SPDX-License-Identifier: MIT
// OpenGL renderer: fixed-function lighting, ground grid, planar shadows with a stencil so that
// overlapping shadows darken once, overlays. It draws through a table of entry points
// (gl_api.h) into the context it is given: its own off-screen OSMesa context (supersampled and
// read back after each frame) or a window's current context (the default framebuffer).
#include "render.h"
#include "gl_api.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SMP_RENDER_PI 3.14159265358979323846

typedef struct smpShadowCaster
{
	const smpRenderMesh* mesh;
	double model[16];
} smpShadowCaster;

typedef struct smpOverlay
{
	double a[3];
	double b[3];
	float rgb[3];
	float size; // > 0: a point of this size, 0: a line a-b
} smpOverlay;

struct smpRenderMesh
{
	float* positions; // 9 per triangle
	float* normals;   // 9 per triangle
	int triangleCount;
};

struct smpRenderer
{
	smpGl gl;
	const smpOsMesa* osmesa; // NULL: draws into the context current when it is used
	OSMesaContext context;
	int width, height, supersample;
	uint8_t* buffer; // off-screen: (width * ss) x (height * ss) RGBA, bottom row first (OSMesa)
	uint8_t* pixels; // width x height RGBA, top row first
	smpRenderFrameDef frame;
	smpShadowCaster* casters;
	int casterCount, casterCapacity;
	smpOverlay* overlays;
	int overlayCount, overlayCapacity;
};

static void smpSetError( char* error, size_t errorSize, const char* message )
{
	if ( error != NULL && errorSize > 0 )
		snprintf( error, errorSize, "%s", message );
}

smpRenderFrameDef smpDefaultRenderFrameDef( void )
{
	smpRenderFrameDef d;
	memset( &d, 0, sizeof( d ) );
	d.eye[0] = 8.0;
	d.eye[1] = 7.0;
	d.eye[2] = 10.0;
	d.target[1] = 1.0;
	d.up[1] = 1.0;
	d.fovY = 40.0;
	d.lightDir[0] = 0.25;
	d.lightDir[1] = -1.0;
	d.lightDir[2] = -0.60;
	d.groundY = 0.0;
	d.groundHalfSize = 12.0;
	d.gridSpacing = 1.0;
	d.background[0] = 0.58f;
	d.background[1] = 0.70f;
	d.background[2] = 0.86f;
	d.shadows = true;
	return d;
}

static bool smpAllocateBuffers( smpRenderer* r, int width, int height )
{
	size_t big = (size_t)width * r->supersample * (size_t)height * r->supersample * 4;
	uint8_t* buffer = r->osmesa != NULL ? (uint8_t*)malloc( big ) : NULL;
	uint8_t* pixels = (uint8_t*)calloc( (size_t)width * (size_t)height, 4 );
	if ( ( r->osmesa != NULL && buffer == NULL ) || pixels == NULL )
	{
		free( buffer );
		free( pixels );
		return false;
	}
	free( r->buffer );
	free( r->pixels );
	r->buffer = buffer;
	r->pixels = pixels;
	r->width = width;
	r->height = height;
	return true;
}

static bool smpValidSize( int width, int height, char* error, size_t errorSize )
{
	if ( width < 1 || height < 1 || width > 8192 || height > 8192 )
	{
		smpSetError( error, errorSize, "image size must be 1..8192 pixels per side" );
		return false;
	}
	return true;
}

smpRenderer* smpCreateRenderer( int width, int height, int supersample, char* error, size_t errorSize )
{
	if ( !smpValidSize( width, height, error, errorSize ) )
		return NULL;
	const smpOsMesa* osmesa = smpOpenOsMesa( error, errorSize );
	if ( osmesa == NULL )
		return NULL;
	if ( supersample < 1 )
		supersample = 1;
	if ( supersample > 4 )
		supersample = 4;
	smpRenderer* r = (smpRenderer*)calloc( 1, sizeof( smpRenderer ) );
	if ( r == NULL )
	{
		smpSetError( error, errorSize, "out of memory" );
		return NULL;
	}
	r->osmesa = osmesa;
	r->gl = osmesa->gl;
	r->supersample = supersample;
	r->context = osmesa->CreateContextExt( OSMESA_RGBA, 24, 8, 0, NULL );
	if ( r->context == NULL )
	{
		smpSetError( error, errorSize, "OSMesaCreateContextExt failed (no off-screen OpenGL)" );
		free( r );
		return NULL;
	}
	if ( !smpAllocateBuffers( r, width, height ) ||
		 !osmesa->MakeCurrent( r->context, r->buffer, GL_UNSIGNED_BYTE, width * supersample, height * supersample ) )
	{
		smpSetError( error, errorSize, "cannot make the off-screen context current" );
		smpDestroyRenderer( r );
		return NULL;
	}
	r->frame = smpDefaultRenderFrameDef();
	return r;
}

smpRenderer* smpCreateContextRenderer( smpRenderGetProc getProc, void* user, int width, int height, char* error,
									   size_t errorSize )
{
	if ( !smpValidSize( width, height, error, errorSize ) )
		return NULL;
	smpRenderer* r = (smpRenderer*)calloc( 1, sizeof( smpRenderer ) );
	if ( r == NULL )
	{
		smpSetError( error, errorSize, "out of memory" );
		return NULL;
	}
	r->supersample = 1;
	if ( !smpLoadGl( &r->gl, getProc, user, error, errorSize ) )
	{
		free( r );
		return NULL;
	}
	if ( !smpAllocateBuffers( r, width, height ) )
	{
		smpSetError( error, errorSize, "out of memory" );
		free( r );
		return NULL;
	}
	r->frame = smpDefaultRenderFrameDef();
	return r;
}

void smpDestroyRenderer( smpRenderer* renderer )
{
	if ( renderer == NULL )
		return;
	const smpOsMesa* osmesa = renderer->osmesa;
	if ( renderer->context != NULL )
	{
		// Release the context first: Mesa keeps the framebuffer of a current context alive.
		if ( osmesa->GetCurrentContext() == renderer->context )
			osmesa->MakeCurrent( NULL, NULL, GL_UNSIGNED_BYTE, 0, 0 );
		osmesa->DestroyContext( renderer->context );
	}
	free( renderer->buffer );
	free( renderer->pixels );
	free( renderer->casters );
	free( renderer->overlays );
	free( renderer );
}

bool smpRenderer_Resize( smpRenderer* renderer, int width, int height )
{
	if ( width < 1 || height < 1 || width > 8192 || height > 8192 )
		return false;
	if ( width == renderer->width && height == renderer->height )
		return true;
	if ( !smpAllocateBuffers( renderer, width, height ) )
		return false;
	if ( renderer->osmesa == NULL )
		return true;
	int ss = renderer->supersample;
	return renderer->osmesa->MakeCurrent( renderer->context, renderer->buffer, GL_UNSIGNED_BYTE, width * ss,
										  height * ss ) != 0;
}

int smpRenderer_GetWidth( const smpRenderer* renderer )
{
	return renderer->width;
}

int smpRenderer_GetHeight( const smpRenderer* renderer )
{
	return renderer->height;
}

const uint8_t* smpRenderer_GetPixels( const smpRenderer* renderer )
{
	return renderer->pixels;
}

static void smpCross( const double a[3], const double b[3], double out[3] )
{
	out[0] = a[1] * b[2] - a[2] * b[1];
	out[1] = a[2] * b[0] - a[0] * b[2];
	out[2] = a[0] * b[1] - a[1] * b[0];
}

static double smpDot( const double a[3], const double b[3] )
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static bool smpNormalize( double v[3] )
{
	double len = sqrt( smpDot( v, v ) );
	if ( !( len > 1e-300 ) )
		return false;
	v[0] /= len;
	v[1] /= len;
	v[2] /= len;
	return true;
}

smpRenderMesh* smpCreateRenderMesh( const double* vertices, int vertexCount, const uint32_t* indices, int triangleCount,
									double creaseDegrees )
{
	if ( vertices == NULL || indices == NULL || vertexCount < 1 || triangleCount < 1 )
		return NULL;
	for ( int i = 0; i < 3 * triangleCount; ++i )
		if ( indices[i] >= (uint32_t)vertexCount )
			return NULL;
	smpRenderMesh* m = (smpRenderMesh*)calloc( 1, sizeof( smpRenderMesh ) );
	double* faceNormals = (double*)calloc( (size_t)triangleCount, 3 * sizeof( double ) );
	double* faceUnit = (double*)calloc( (size_t)triangleCount, 3 * sizeof( double ) );
	int* start = (int*)calloc( (size_t)vertexCount + 1, sizeof( int ) );
	int* faces = (int*)malloc( (size_t)triangleCount * 3 * sizeof( int ) );
	int* fill = (int*)calloc( (size_t)vertexCount, sizeof( int ) );
	if ( m != NULL )
	{
		m->positions = (float*)malloc( (size_t)triangleCount * 9 * sizeof( float ) );
		m->normals = (float*)malloc( (size_t)triangleCount * 9 * sizeof( float ) );
	}
	if ( m == NULL || faceNormals == NULL || faceUnit == NULL || start == NULL || faces == NULL || fill == NULL ||
		 m->positions == NULL || m->normals == NULL )
	{
		free( faceNormals );
		free( faceUnit );
		free( start );
		free( faces );
		free( fill );
		smpDestroyRenderMesh( m );
		return NULL;
	}
	m->triangleCount = triangleCount;

	// Face normals (area weighted) and the vertex -> faces lists.
	for ( int t = 0; t < triangleCount; ++t )
	{
		const double* a = vertices + 3 * indices[3 * t];
		const double* b = vertices + 3 * indices[3 * t + 1];
		const double* c = vertices + 3 * indices[3 * t + 2];
		double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
		double e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
		smpCross( e1, e2, faceNormals + 3 * t );
		memcpy( faceUnit + 3 * t, faceNormals + 3 * t, 3 * sizeof( double ) );
		if ( !smpNormalize( faceUnit + 3 * t ) )
			faceUnit[3 * t] = faceUnit[3 * t + 1] = faceUnit[3 * t + 2] = 0.0;
		for ( int k = 0; k < 3; ++k )
			start[indices[3 * t + k] + 1] += 1;
	}
	for ( int v = 0; v < vertexCount; ++v )
		start[v + 1] += start[v];
	for ( int t = 0; t < triangleCount; ++t )
		for ( int k = 0; k < 3; ++k )
		{
			uint32_t v = indices[3 * t + k];
			faces[start[v] + fill[v]++] = t;
		}

	double cosCrease = cos( creaseDegrees * SMP_RENDER_PI / 180.0 );
	for ( int t = 0; t < triangleCount; ++t )
	{
		const double* nt = faceUnit + 3 * t;
		for ( int k = 0; k < 3; ++k )
		{
			uint32_t v = indices[3 * t + k];
			double n[3] = { 0.0, 0.0, 0.0 };
			for ( int j = start[v]; j < start[v + 1]; ++j )
			{
				int f = faces[j];
				if ( smpDot( faceUnit + 3 * f, nt ) >= cosCrease )
				{
					n[0] += faceNormals[3 * f];
					n[1] += faceNormals[3 * f + 1];
					n[2] += faceNormals[3 * f + 2];
				}
			}
			if ( !smpNormalize( n ) )
			{
				n[0] = nt[0];
				n[1] = nt[1];
				n[2] = nt[2];
				if ( !smpNormalize( n ) )
				{
					n[0] = 0.0;
					n[1] = 1.0;
					n[2] = 0.0;
				}
			}
			for ( int a = 0; a < 3; ++a )
			{
				m->positions[9 * t + 3 * k + a] = (float)vertices[3 * v + a];
				m->normals[9 * t + 3 * k + a] = (float)n[a];
			}
		}
	}
	free( faceNormals );
	free( faceUnit );
	free( start );
	free( faces );
	free( fill );
	return m;
}

void smpDestroyRenderMesh( smpRenderMesh* mesh )
{
	if ( mesh == NULL )
		return;
	free( mesh->positions );
	free( mesh->normals );
	free( mesh );
}

// Column-major 4x4 of a pose.
static void smpPoseMatrix( const smpRenderPose* pose, double m[16] )
{
	double w = pose->q[0], x = pose->q[1], y = pose->q[2], z = pose->q[3];
	double n = sqrt( w * w + x * x + y * y + z * z );
	if ( !( n > 1e-12 ) )
	{
		w = 1.0;
		x = y = z = 0.0;
		n = 1.0;
	}
	w /= n;
	x /= n;
	y /= n;
	z /= n;
	m[0] = 1 - 2 * ( y * y + z * z );
	m[1] = 2 * ( x * y + w * z );
	m[2] = 2 * ( x * z - w * y );
	m[3] = 0;
	m[4] = 2 * ( x * y - w * z );
	m[5] = 1 - 2 * ( x * x + z * z );
	m[6] = 2 * ( y * z + w * x );
	m[7] = 0;
	m[8] = 2 * ( x * z + w * y );
	m[9] = 2 * ( y * z - w * x );
	m[10] = 1 - 2 * ( x * x + y * y );
	m[11] = 0;
	m[12] = pose->p[0];
	m[13] = pose->p[1];
	m[14] = pose->p[2];
	m[15] = 1;
}

static void smpLookAt( const double eye[3], const double target[3], const double up[3], double m[16] )
{
	double f[3] = { target[0] - eye[0], target[1] - eye[1], target[2] - eye[2] };
	if ( !smpNormalize( f ) )
	{
		f[0] = 0.0;
		f[1] = 0.0;
		f[2] = -1.0;
	}
	double s[3], u[3];
	smpCross( f, up, s );
	if ( !smpNormalize( s ) )
	{
		double alt[3] = { 0.0, 0.0, 1.0 };
		smpCross( f, alt, s );
		smpNormalize( s );
	}
	smpCross( s, f, u );
	m[0] = s[0];
	m[4] = s[1];
	m[8] = s[2];
	m[1] = u[0];
	m[5] = u[1];
	m[9] = u[2];
	m[2] = -f[0];
	m[6] = -f[1];
	m[10] = -f[2];
	m[3] = m[7] = m[11] = 0.0;
	m[12] = -smpDot( s, eye );
	m[13] = -smpDot( u, eye );
	m[14] = smpDot( f, eye );
	m[15] = 1.0;
}

void smpRenderer_Begin( smpRenderer* renderer, const smpRenderFrameDef* def )
{
	smpRenderer* r = renderer;
	r->frame = def != NULL ? *def : smpDefaultRenderFrameDef();
	r->casterCount = 0;
	r->overlayCount = 0;
	const smpRenderFrameDef* f = &r->frame;
	int ss = r->supersample;
	int w = r->width * ss, h = r->height * ss;
	if ( r->osmesa != NULL )
		r->osmesa->MakeCurrent( r->context, r->buffer, GL_UNSIGNED_BYTE, w, h );

	r->gl.Viewport( 0, 0, w, h );
	r->gl.ClearColor( f->background[0], f->background[1], f->background[2], 1.0f );
	r->gl.ClearStencil( 0 );
	r->gl.ClearDepth( 1.0 );
	r->gl.Clear( GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT );
	r->gl.Disable( GL_STENCIL_TEST );
	r->gl.Disable( GL_BLEND );

	// Sky: a vertical gradient behind everything.
	r->gl.MatrixMode( GL_PROJECTION );
	r->gl.LoadIdentity();
	r->gl.MatrixMode( GL_MODELVIEW );
	r->gl.LoadIdentity();
	r->gl.Disable( GL_DEPTH_TEST );
	r->gl.Disable( GL_LIGHTING );
	r->gl.Disable( GL_CULL_FACE );
	r->gl.ShadeModel( GL_SMOOTH );
	r->gl.Begin( GL_QUADS );
	r->gl.Color3f( 0.93f, 0.94f, 0.96f );
	r->gl.Vertex2f( -1.0f, -1.0f );
	r->gl.Vertex2f( 1.0f, -1.0f );
	r->gl.Color3f( f->background[0], f->background[1], f->background[2] );
	r->gl.Vertex2f( 1.0f, 1.0f );
	r->gl.Vertex2f( -1.0f, 1.0f );
	r->gl.End();

	// Camera.
	double aspect = (double)r->width / (double)r->height;
	double zNear = 0.1, zFar = 200.0;
	double fov = f->fovY > 1.0 && f->fovY < 170.0 ? f->fovY : 40.0;
	double top = zNear * tan( 0.5 * fov * SMP_RENDER_PI / 180.0 );
	r->gl.MatrixMode( GL_PROJECTION );
	r->gl.LoadIdentity();
	r->gl.Frustum( -top * aspect, top * aspect, -top, top, zNear, zFar );
	double view[16];
	double up[3] = { f->up[0], f->up[1], f->up[2] };
	if ( smpDot( up, up ) <= 0.0 )
		up[1] = 1.0;
	smpLookAt( f->eye, f->target, up, view );
	r->gl.MatrixMode( GL_MODELVIEW );
	r->gl.LoadMatrixd( view );

	// Lights in world space: a key light along lightDir and a dim fill from the other side.
	double l[3] = { -f->lightDir[0], -f->lightDir[1], -f->lightDir[2] };
	if ( !smpNormalize( l ) )
	{
		l[0] = 0.0;
		l[1] = 1.0;
		l[2] = 0.0;
	}
	GLfloat keyPos[4] = { (GLfloat)l[0], (GLfloat)l[1], (GLfloat)l[2], 0.0f };
	GLfloat fillPos[4] = { (GLfloat)-l[0], 0.4f, (GLfloat)-l[2], 0.0f };
	GLfloat keyDiffuse[4] = { 0.78f, 0.76f, 0.72f, 1.0f };
	GLfloat fillDiffuse[4] = { 0.22f, 0.24f, 0.28f, 1.0f };
	GLfloat specular[4] = { 0.25f, 0.25f, 0.25f, 1.0f };
	GLfloat none[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
	GLfloat ambient[4] = { 0.30f, 0.30f, 0.32f, 1.0f };
	r->gl.Lightfv( GL_LIGHT0, GL_POSITION, keyPos );
	r->gl.Lightfv( GL_LIGHT0, GL_DIFFUSE, keyDiffuse );
	r->gl.Lightfv( GL_LIGHT0, GL_SPECULAR, specular );
	r->gl.Lightfv( GL_LIGHT0, GL_AMBIENT, none );
	r->gl.Lightfv( GL_LIGHT1, GL_POSITION, fillPos );
	r->gl.Lightfv( GL_LIGHT1, GL_DIFFUSE, fillDiffuse );
	r->gl.Lightfv( GL_LIGHT1, GL_SPECULAR, none );
	r->gl.Lightfv( GL_LIGHT1, GL_AMBIENT, none );
	r->gl.LightModelfv( GL_LIGHT_MODEL_AMBIENT, ambient );
	r->gl.Enable( GL_LIGHT0 );
	r->gl.Enable( GL_LIGHT1 );
	r->gl.Enable( GL_NORMALIZE );
	r->gl.ColorMaterial( GL_FRONT_AND_BACK, GL_AMBIENT_AND_DIFFUSE );
	r->gl.Enable( GL_COLOR_MATERIAL );
	r->gl.Materialfv( GL_FRONT_AND_BACK, GL_SPECULAR, specular );
	r->gl.Materialf( GL_FRONT_AND_BACK, GL_SHININESS, 24.0f );
	r->gl.Enable( GL_DEPTH_TEST );
	r->gl.DepthFunc( GL_LEQUAL );

	// Ground just below y = groundY, so that floors of the scene at exactly groundY win.
	double s = f->groundHalfSize > 0.0 ? f->groundHalfSize : 12.0;
	double gy = f->groundY;
	r->gl.Enable( GL_LIGHTING );
	r->gl.Color3f( 0.80f, 0.80f, 0.78f );
	r->gl.Begin( GL_QUADS );
	r->gl.Normal3f( 0.0f, 1.0f, 0.0f );
	r->gl.Vertex3d( -s, gy - 0.004, s );
	r->gl.Vertex3d( s, gy - 0.004, s );
	r->gl.Vertex3d( s, gy - 0.004, -s );
	r->gl.Vertex3d( -s, gy - 0.004, -s );
	r->gl.End();
	r->gl.Disable( GL_LIGHTING );
	if ( f->gridSpacing > 0.0 )
	{
		int n = (int)floor( s / f->gridSpacing );
		if ( n > 500 )
			n = 500;
		r->gl.LineWidth( (GLfloat)ss );
		r->gl.Color3f( 0.62f, 0.62f, 0.62f );
		r->gl.Begin( GL_LINES );
		for ( int i = -n; i <= n; ++i )
		{
			double c = i * f->gridSpacing;
			r->gl.Vertex3d( c, gy + 0.001, -s );
			r->gl.Vertex3d( c, gy + 0.001, s );
			r->gl.Vertex3d( -s, gy + 0.001, c );
			r->gl.Vertex3d( s, gy + 0.001, c );
		}
		r->gl.End();
	}
	r->gl.Enable( GL_LIGHTING );
}

void smpRenderer_DrawMesh( smpRenderer* renderer, const smpRenderMesh* mesh, const smpRenderPose* pose,
						   const float rgb[3], unsigned flags )
{
	if ( mesh == NULL || pose == NULL )
		return;
	smpRenderer* r = renderer;
	double model[16];
	smpPoseMatrix( pose, model );
	bool twoSided = ( flags & SMP_RENDER_TWO_SIDED ) != 0;
	if ( twoSided )
		r->gl.Disable( GL_CULL_FACE );
	else
	{
		r->gl.Enable( GL_CULL_FACE );
		r->gl.CullFace( GL_BACK );
	}
	r->gl.LightModeli( GL_LIGHT_MODEL_TWO_SIDE, twoSided ? GL_TRUE : GL_FALSE );
	r->gl.Enable( GL_LIGHTING );
	r->gl.Color3f( rgb[0], rgb[1], rgb[2] );
	r->gl.PushMatrix();
	r->gl.MultMatrixd( model );
	r->gl.EnableClientState( GL_VERTEX_ARRAY );
	r->gl.EnableClientState( GL_NORMAL_ARRAY );
	r->gl.VertexPointer( 3, GL_FLOAT, 0, mesh->positions );
	r->gl.NormalPointer( GL_FLOAT, 0, mesh->normals );
	r->gl.DrawArrays( GL_TRIANGLES, 0, 3 * mesh->triangleCount );
	r->gl.DisableClientState( GL_NORMAL_ARRAY );
	r->gl.DisableClientState( GL_VERTEX_ARRAY );
	r->gl.PopMatrix();

	if ( ( flags & SMP_RENDER_CAST_SHADOW ) != 0 && r->frame.shadows )
	{
		if ( r->casterCount == r->casterCapacity )
		{
			int capacity = r->casterCapacity > 0 ? 2 * r->casterCapacity : 64;
			smpShadowCaster* grown =
				(smpShadowCaster*)realloc( r->casters, (size_t)capacity * sizeof( smpShadowCaster ) );
			if ( grown == NULL )
				return;
			r->casters = grown;
			r->casterCapacity = capacity;
		}
		smpShadowCaster* c = r->casters + r->casterCount++;
		c->mesh = mesh;
		memcpy( c->model, model, sizeof( model ) );
	}
}

static void smpPushOverlay( smpRenderer* r, const double a[3], const double b[3], const float rgb[3], float size )
{
	if ( r->overlayCount == r->overlayCapacity )
	{
		int capacity = r->overlayCapacity > 0 ? 2 * r->overlayCapacity : 256;
		smpOverlay* grown = (smpOverlay*)realloc( r->overlays, (size_t)capacity * sizeof( smpOverlay ) );
		if ( grown == NULL )
			return;
		r->overlays = grown;
		r->overlayCapacity = capacity;
	}
	smpOverlay* o = r->overlays + r->overlayCount++;
	memcpy( o->a, a, sizeof( o->a ) );
	memcpy( o->b, b, sizeof( o->b ) );
	memcpy( o->rgb, rgb, sizeof( o->rgb ) );
	o->size = size;
}

void smpRenderer_DrawPoint( smpRenderer* renderer, const double p[3], const float rgb[3], float size )
{
	smpPushOverlay( renderer, p, p, rgb, size > 0.0f ? size : 1.0f );
}

void smpRenderer_DrawLine( smpRenderer* renderer, const double a[3], const double b[3], const float rgb[3] )
{
	smpPushOverlay( renderer, a, b, rgb, 0.0f );
}

void smpRenderer_End( smpRenderer* renderer )
{
	smpRenderer* r = renderer;
	const smpRenderFrameDef* f = &r->frame;
	int ss = r->supersample;

	if ( f->shadows && r->casterCount > 0 )
	{
		// Project onto the plane y = groundY + eps along the light: p' = p - L (p.y - h) / L.y.
		double L[3] = { f->lightDir[0], f->lightDir[1], f->lightDir[2] };
		if ( !( L[1] < -1e-3 ) )
		{
			L[0] = 0.0;
			L[1] = -1.0;
			L[2] = 0.0;
		}
		double h = f->groundY + 0.003;
		double P[16] = { 0 };
		P[0] = 1.0;
		P[4] = -L[0] / L[1];
		P[12] = L[0] / L[1] * h;
		P[5] = 0.0;
		P[13] = h;
		P[10] = 1.0;
		P[6] = -L[2] / L[1];
		P[14] = L[2] / L[1] * h;
		P[15] = 1.0;
		r->gl.Disable( GL_LIGHTING );
		r->gl.Disable( GL_CULL_FACE );
		r->gl.Enable( GL_BLEND );
		r->gl.BlendFunc( GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA );
		r->gl.DepthMask( GL_FALSE );
		r->gl.Enable( GL_STENCIL_TEST );
		r->gl.StencilFunc( GL_EQUAL, 0, 0xff );
		r->gl.StencilOp( GL_KEEP, GL_KEEP, GL_INCR );
		r->gl.Color4f( 0.05f, 0.06f, 0.10f, 0.38f );
		r->gl.EnableClientState( GL_VERTEX_ARRAY );
		for ( int i = 0; i < r->casterCount; ++i )
		{
			r->gl.PushMatrix();
			r->gl.MultMatrixd( P );
			r->gl.MultMatrixd( r->casters[i].model );
			r->gl.VertexPointer( 3, GL_FLOAT, 0, r->casters[i].mesh->positions );
			r->gl.DrawArrays( GL_TRIANGLES, 0, 3 * r->casters[i].mesh->triangleCount );
			r->gl.PopMatrix();
		}
		r->gl.DisableClientState( GL_VERTEX_ARRAY );
		r->gl.Disable( GL_STENCIL_TEST );
		r->gl.DepthMask( GL_TRUE );
		r->gl.Disable( GL_BLEND );
	}

	if ( r->overlayCount > 0 )
	{
		r->gl.Disable( GL_LIGHTING );
		r->gl.Disable( GL_DEPTH_TEST );
		r->gl.LineWidth( 1.5f * (float)ss );
		r->gl.Begin( GL_LINES );
		for ( int i = 0; i < r->overlayCount; ++i )
		{
			const smpOverlay* o = r->overlays + i;
			if ( o->size > 0.0f )
				continue;
			r->gl.Color3f( o->rgb[0], o->rgb[1], o->rgb[2] );
			r->gl.Vertex3dv( o->a );
			r->gl.Vertex3dv( o->b );
		}
		r->gl.End();
		for ( int i = 0; i < r->overlayCount; ++i )
		{
			const smpOverlay* o = r->overlays + i;
			if ( o->size <= 0.0f )
				continue;
			r->gl.PointSize( o->size * (float)ss );
			r->gl.Begin( GL_POINTS );
			r->gl.Color3f( o->rgb[0], o->rgb[1], o->rgb[2] );
			r->gl.Vertex3dv( o->a );
			r->gl.End();
		}
		r->gl.Enable( GL_DEPTH_TEST );
	}
	// A window's frame stays in its back buffer until it is swapped or read back.
	if ( r->osmesa == NULL )
		return;
	r->gl.Finish();

	// Box filter ss x ss and flip to top row first.
	int bw = r->width * ss;
	int area = ss * ss;
	for ( int y = 0; y < r->height; ++y )
	{
		int srcY = ( r->height - 1 - y ) * ss;
		uint8_t* out = r->pixels + (size_t)y * r->width * 4;
		for ( int x = 0; x < r->width; ++x )
		{
			int sum[3] = { 0, 0, 0 };
			for ( int j = 0; j < ss; ++j )
			{
				const uint8_t* in = r->buffer + ( (size_t)( srcY + j ) * bw + (size_t)x * ss ) * 4;
				for ( int i = 0; i < ss; ++i )
				{
					sum[0] += in[4 * i];
					sum[1] += in[4 * i + 1];
					sum[2] += in[4 * i + 2];
				}
			}
			out[4 * x] = (uint8_t)( ( sum[0] + area / 2 ) / area );
			out[4 * x + 1] = (uint8_t)( ( sum[1] + area / 2 ) / area );
			out[4 * x + 2] = (uint8_t)( ( sum[2] + area / 2 ) / area );
			out[4 * x + 3] = 255;
		}
	}
}

// Flips rows of a width x rows RGBA block in place (bottom-first <-> top-first).
static void smpFlipRows( uint8_t* rgba, int width, int rows )
{
	size_t stride = (size_t)width * 4;
	uint8_t* swap = (uint8_t*)malloc( stride );
	if ( swap == NULL )
		return;
	for ( int y = 0; y < rows / 2; ++y )
	{
		uint8_t* a = rgba + (size_t)y * stride;
		uint8_t* b = rgba + (size_t)( rows - 1 - y ) * stride;
		memcpy( swap, a, stride );
		memcpy( a, b, stride );
		memcpy( b, swap, stride );
	}
	free( swap );
}

const uint8_t* smpRenderer_ReadPixels( smpRenderer* renderer )
{
	smpRenderer* r = renderer;
	if ( r->osmesa != NULL )
		return r->pixels;
	r->gl.ReadBuffer( GL_BACK );
	r->gl.PixelStorei( GL_PACK_ALIGNMENT, 1 );
	r->gl.ReadPixels( 0, 0, r->width, r->height, GL_RGBA, GL_UNSIGNED_BYTE, r->pixels );
	smpFlipRows( r->pixels, r->width, r->height );
	for ( size_t i = 0; i < (size_t)r->width * r->height; ++i )
		r->pixels[4 * i + 3] = 255;
	return r->pixels;
}

void smpRenderer_DrawLabel( smpRenderer* renderer, int x, int y, const char* text, int scale, const uint8_t rgb[3] )
{
	smpRenderer* r = renderer;
	if ( r->osmesa != NULL )
	{
		smpDrawLabel( r->pixels, r->width, r->height, x, y, text, scale, rgb );
		return;
	}
	// Window: read the band of rows the label covers (glyphs are 7 rows, the shade one more
	// scale below), write the label into it on the CPU and draw the band back.
	if ( scale < 1 )
		scale = 1;
	int top = y < 0 ? 0 : y;
	int bottom = y + 8 * scale < r->height ? y + 8 * scale : r->height;
	int rows = bottom - top;
	if ( rows <= 0 || text == NULL )
		return;
	uint8_t* band = (uint8_t*)malloc( (size_t)r->width * (size_t)rows * 4 );
	if ( band == NULL )
		return;
	int glY = r->height - bottom;
	r->gl.ReadBuffer( GL_BACK );
	r->gl.PixelStorei( GL_PACK_ALIGNMENT, 1 );
	r->gl.PixelStorei( GL_UNPACK_ALIGNMENT, 1 );
	r->gl.ReadPixels( 0, glY, r->width, rows, GL_RGBA, GL_UNSIGNED_BYTE, band );
	smpFlipRows( band, r->width, rows );
	smpDrawLabel( band, r->width, rows, x, y - top, text, scale, rgb );
	smpFlipRows( band, r->width, rows );
	r->gl.Disable( GL_DEPTH_TEST );
	r->gl.Disable( GL_BLEND );
	r->gl.Disable( GL_STENCIL_TEST );
	r->gl.WindowPos2i( 0, glY );
	r->gl.DrawPixels( r->width, rows, GL_RGBA, GL_UNSIGNED_BYTE, band );
	r->gl.Enable( GL_DEPTH_TEST );
	free( band );
}

void smpComposeSheet( const uint8_t* const* tiles, int tileCount, int tileWidth, int tileHeight, int columns, int pad,
					  uint8_t* outRgba, int* outWidth, int* outHeight )
{
	if ( columns < 1 )
		columns = 1;
	int rows = ( tileCount + columns - 1 ) / columns;
	int w = columns * ( tileWidth + pad ) + pad;
	int h = rows * ( tileHeight + pad ) + pad;
	*outWidth = w;
	*outHeight = h;
	if ( outRgba == NULL )
		return;
	memset( outRgba, 255, (size_t)w * (size_t)h * 4 );
	for ( int t = 0; t < tileCount; ++t )
	{
		int ox = pad + ( t % columns ) * ( tileWidth + pad );
		int oy = pad + ( t / columns ) * ( tileHeight + pad );
		for ( int y = 0; y < tileHeight; ++y )
			memcpy( outRgba + ( (size_t)( oy + y ) * w + (size_t)ox ) * 4, tiles[t] + (size_t)y * tileWidth * 4,
					(size_t)tileWidth * 4 );
	}
}
