// SPDX-License-Identifier: MIT
// Fills the renderer's OpenGL table (gl_api.h) from OSMesa, opened on demand, or from any
// context's own look-up function.
#include "gl_api.h"

#include <dlfcn.h>
#include <stdio.h>

bool smpLoadGl( smpGl* outGl, smpRenderGetProc getProc, void* user, char* error, size_t errorSize )
{
#define SMP_GL_LOAD( name )                                                                                            \
	outGl->name = (__typeof__( outGl->name ))getProc( user, "gl" #name );                                              \
	if ( outGl->name == NULL )                                                                                         \
	{                                                                                                                  \
		if ( error != NULL && errorSize > 0 )                                                                          \
			snprintf( error, errorSize, "the OpenGL context lacks gl" #name );                                         \
		return false;                                                                                                  \
	}
	SMP_GL_FUNCTIONS( SMP_GL_LOAD )
#undef SMP_GL_LOAD
	return true;
}

// libOSMesa exports the whole GL API itself; dlsym on its handle returns its own entry points.
static void* smpOsMesaSymbol( void* handle, const char* name )
{
	return dlsym( handle, name );
}

const smpOsMesa* smpOpenOsMesa( char* error, size_t errorSize )
{
	static smpOsMesa api;
	static bool opened = false;
	if ( opened )
		return &api;
	void* handle = dlopen( "libOSMesa.so.8", RTLD_NOW | RTLD_LOCAL );
	if ( handle == NULL )
		handle = dlopen( "libOSMesa.so", RTLD_NOW | RTLD_LOCAL );
	if ( handle == NULL )
	{
		if ( error != NULL && errorSize > 0 )
			snprintf( error, errorSize, "cannot open libOSMesa (no off-screen OpenGL): %s", dlerror() );
		return NULL;
	}
	api.CreateContextExt = (__typeof__( api.CreateContextExt ))dlsym( handle, "OSMesaCreateContextExt" );
	api.MakeCurrent = (__typeof__( api.MakeCurrent ))dlsym( handle, "OSMesaMakeCurrent" );
	api.GetCurrentContext = (__typeof__( api.GetCurrentContext ))dlsym( handle, "OSMesaGetCurrentContext" );
	api.DestroyContext = (__typeof__( api.DestroyContext ))dlsym( handle, "OSMesaDestroyContext" );
	if ( api.CreateContextExt == NULL || api.MakeCurrent == NULL || api.GetCurrentContext == NULL ||
		 api.DestroyContext == NULL )
	{
		if ( error != NULL && errorSize > 0 )
			snprintf( error, errorSize, "libOSMesa lacks the OSMesa context functions" );
		dlclose( handle );
		return NULL;
	}
	if ( !smpLoadGl( &api.gl, smpOsMesaSymbol, handle, error, errorSize ) )
	{
		dlclose( handle );
		return NULL;
	}
	opened = true;
	return &api;
}
