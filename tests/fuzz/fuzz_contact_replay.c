// SPDX-License-Identifier: MIT
// libFuzzer target: the reader of contact recordings (plugin/src/contact_record.c). The input
// is written to a temporary file and read back with pdCreateContactReplay / _Next. Checks: no
// crash or leak, a failure has a one-line message naming the file, a call that reads back names
// meshes the replay built, and its pair state is one the plugin can index with.
#include "contact_pair.h" // the private pair state (plugin/src)
#include "fuzz_common.h"

#include "polydepth/contact_record.h"

#include <unistd.h>

static void testCheckMessage( const char* message, const char* path, const char* what )
{
	TEST_FUZZ_CHECK( memchr( message, 0, 256 ) != NULL, "%s: message not terminated", what );
	TEST_FUZZ_CHECK( strstr( message, path ) != NULL, "%s: message does not name the file: %s", what, message );
	TEST_FUZZ_CHECK( strchr( message, '\n' ) == NULL, "%s: message is not one line: %s", what, message );
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	char path[128];
	snprintf( path, sizeof( path ), "/tmp/pd-fuzz-replay-%d.pdcr", (int)getpid() );
	FILE* f = fopen( path, "wb" );
	if ( f == NULL )
	{
		return 0;
	}
	size_t written = fwrite( data, 1, size, f );
	fclose( f );
	if ( written != size )
	{
		remove( path );
		return 0;
	}
	pdError error;
	memset( &error, 0x7f, sizeof( error ) );
	char* message = error.message;
	pdStatus status = PD_STATUS_OK;
	pdContactReplay* replay = pdCreateContactReplay( path, &error );
	status = error.status;
	if ( replay == NULL )
	{
		TEST_FUZZ_CHECK( status < 0, "open failed with status %d", (int)status );
		testCheckMessage( message, path, "open" );
		remove( path );
		return 0;
	}
	for ( int k = 0; k < 64; ++k )
	{
		pdContactCall call;
		bool done = false;
		memset( &error, 0x7f, sizeof( error ) );
		status = pdContactReplay_ReadNext( replay, &call, &done, &error );
		if ( status != PD_STATUS_OK )
		{
			TEST_FUZZ_CHECK( status < 0, "next failed with status %d", (int)status );
			testCheckMessage( message, path, "next" );
			break;
		}
		if ( done )
		{
			break;
		}
		TEST_FUZZ_CHECK( call.meshA != NULL && call.meshB != NULL, "call %d without meshes", k );
		TEST_FUZZ_CHECK( pdMesh_GetInfo( call.meshA ).triangleCount > 0 && pdMesh_GetInfo( call.meshB ).triangleCount > 0,
					   "call %d names an empty mesh", k );
		TEST_FUZZ_CHECK( pdiPairStateOf( &call.pair )->penetration.count >= 0 && pdiPairStateOf( &call.pair )->penetration.count <= 3,
					   "call %d cache count %d", k, pdiPairStateOf( &call.pair )->penetration.count );
		for ( int s = 0; s < PD_MAX_CONTACT_MANIFOLDS; ++s )
		{
			TEST_FUZZ_CHECK( pdiPairStateOf( &call.pair )->slotPointCount[s] >= 0 &&
								 pdiPairStateOf( &call.pair )->slotPointCount[s] <= PD_MAX_CONTACT_POINTS,
						   "call %d slot %d count %d", k, s, pdiPairStateOf( &call.pair )->slotPointCount[s] );
		}
	}
	pdDestroyContactReplay( replay );
	remove( path );
	return 0;
}
