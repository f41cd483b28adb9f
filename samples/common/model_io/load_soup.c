// SPDX-License-Identifier: MIT
// smpLoadSoup: picks the loader by the file's extension.
#include "model_reader.h"

#include <stdlib.h>
#include <string.h>

bool smpLoadSoup( const char* path, smpSoup* out, char* error, size_t errorSize )
{
	if ( error != NULL && errorSize > 0 )
	{
		error[0] = '\0';
	}
	if ( out == NULL )
	{
		smpSetError( error, errorSize, path, "no output soup given" );
		return false;
	}
	smpClearSoupOut( out );
	size_t size = 0;
	char* data = smpReadNonEmptyFile( path, &size, error, errorSize );
	if ( data == NULL )
	{
		return false;
	}
	bool ok = false;
	if ( smpHasExtension( path, ".tri" ) || smpHasExtension( path, ".tris" ) || smpHasExtension( path, ".obj" ) )
	{
		smpTokenizer t = {
			.data = data, .size = size, .line = 1, .path = path, .error = error, .errorSize = errorSize };
		if ( memchr( data, '\0', size ) != NULL )
		{
			smpSetError( error, errorSize, path, "binary data in a text mesh file" );
		}
		else if ( smpHasExtension( path, ".obj" ) )
		{
			ok = smpParseObj( data, size, path, out, error, errorSize );
		}
		else
		{
			ok = smpHasExtension( path, ".tri" ) ? smpParseTri( &t, out ) : smpParseTris( &t, out );
		}
		free( data );
	}
	else
	{
#if defined( POLYDEPTH_HAVE_ASSIMP )
		bool plausible = smpPrecheckForAssimp( path, data, size, error, errorSize );
		free( data );
		ok = plausible && smpLoadAssimp( path, out, error, errorSize );
#else
		free( data );
		smpSetError( error, errorSize, path,
					 "cannot read this format: built without Assimp (only .tri, .tris and .obj)" );
#endif
	}
	if ( !ok )
	{
		smpFreeSoup( out );
	}
	return ok;
}
