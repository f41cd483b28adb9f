// SPDX-License-Identifier: MIT
// libFuzzer target: the model loaders. The first byte picks the extension (.tri, .tris,
// .obj, .ani); the rest is written to a temporary file and loaded with smpLoadSoup (or
// smpLoadPath for .ani). Checks: no crash, a failure has a one-line message, a loaded soup has
// in-range indices, and pdCreateMesh on it either succeeds or reports a status.
#include "fuzz_common.h"

#include "model_io.h"
#include "polydepth/polydepth.h"

#include <unistd.h>

static const char* const kExtensions[] = { "tri", "tris", "obj", "ani" };

static void testCheckMessage( const char* error, size_t size, const char* what )
{
	TEST_FUZZ_CHECK( memchr( error, 0, size ) != NULL, "%s: error message not terminated", what );
	TEST_FUZZ_CHECK( error[0] != '\0', "%s: failure without a message", what );
	TEST_FUZZ_CHECK( strchr( error, '\n' ) == NULL, "%s: message is not one line: %s", what, error );
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	if ( size < 1 )
	{
		return 0;
	}
	const char* ext = kExtensions[data[0] % 4];
	char path[128];
	snprintf( path, sizeof( path ), "/tmp/pd-fuzz-loader-%d.%s", (int)getpid(), ext );
	FILE* f = fopen( path, "wb" );
	if ( f == NULL )
	{
		return 0;
	}
	size_t written = fwrite( data + 1, 1, size - 1, f );
	fclose( f );
	if ( written != size - 1 )
	{
		remove( path );
		return 0;
	}

	char error[256];
	memset( error, 0x7f, sizeof( error ) );
	if ( data[0] % 4 == 3 )
	{
		smpPath p;
		memset( &p, 0x5a, sizeof( p ) );
		if ( smpLoadPath( path, &p, error, sizeof( error ) ) )
		{
			TEST_FUZZ_CHECK( p.frameCount >= 0, "frame count %d", p.frameCount );
			for ( int i = 0; i < 9 * p.frameCount; ++i )
			{
				TEST_FUZZ_CHECK( isfinite( p.rotations[i] ), "rotation value %d not finite", i );
			}
			for ( int i = 0; i < 3 * p.frameCount; ++i )
			{
				TEST_FUZZ_CHECK( isfinite( p.translations[i] ), "translation value %d not finite", i );
			}
			smpFreePath( &p );
		}
		else
		{
			testCheckMessage( error, sizeof( error ), "smpLoadPath" );
		}
	}
	else
	{
		smpSoup soup;
		memset( &soup, 0x5a, sizeof( soup ) );
		if ( smpLoadSoup( path, &soup, error, sizeof( error ) ) )
		{
			TEST_FUZZ_CHECK( soup.vertexCount >= 0 && soup.triangleCount >= 0, "counts %d %d", soup.vertexCount,
						   soup.triangleCount );
			for ( int i = 0; i < 3 * soup.triangleCount; ++i )
			{
				TEST_FUZZ_CHECK( soup.indices[i] < (uint32_t)soup.vertexCount, "index %d = %u of %d", i, soup.indices[i],
							   soup.vertexCount );
			}
			// Whatever loaded must be accepted or rejected by the core with a status.
			pdMeshReport report;
			pdMesh* mesh = smpSoupCreateMesh( &soup, &report );
			TEST_FUZZ_CHECK( ( mesh != NULL ) == ( report.status == PD_STATUS_OK ), "mesh %p status %d", (void*)mesh,
						   (int)report.status );
			pdDestroyMesh( mesh );
			smpFreeSoup( &soup );
		}
		else
		{
			testCheckMessage( error, sizeof( error ), "smpLoadSoup" );
		}
	}
	remove( path );
	return 0;
}
