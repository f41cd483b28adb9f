// SPDX-License-Identifier: MIT
// Recording and replaying pdContactPair_Generate calls (polydepth/contact_record.h).
//
// File layout (native byte order and struct layout):
//   header  "PDCR", uint32 version, uint32 sizeof(pdContactPair), sizeof(pdContactDef),
//           sizeof(pdTransform)
//   records one byte 'M' or 'C', then
//     'M' mesh: int32 id, int32 vertexCount, int32 triangleCount, vertexCount x 3 doubles,
//               triangleCount x 3 int32 (the mesh's own vertices and kept triangles, which
//               pdCreateMesh with the default def rebuilds into the same mesh)
//     'C' call: int32 mesh ids A, B, and of the pair's proven-gap meshes (-1: none), poseA,
//               poseB, the def, the pair with its two mesh pointers zeroed
#include "polydepth/contact_record.h"

#include "contact_pair.h"

#include "core.h"
#include "vec.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A call record holds the pair raw: its bytes are those of the plugin's private state, with
// nothing added around it, so a recording's pair reads back as that state field for field.
_Static_assert( sizeof( pdContactPair ) == sizeof( pdiPairState ), "PD_CONTACT_PAIR_SIZE is the private state's size" );
_Static_assert( _Alignof( pdiPairState ) <= _Alignof( pdContactPair ), "pdContactPair is aligned for its state" );

#define PDI_RECORD_MAGIC "PDCR"
#define PDI_RECORD_VERSION 2u
// Meshes per recording: a scene has a few shapes; more is a malformed file.
#define PDI_RECORD_MAX_MESHES 4096

typedef struct pdiRecordHeader
{
	char magic[4];
	uint32_t version;
	uint32_t pairSize, defSize, transformSize;
} pdiRecordHeader;

static pdiRecordHeader pdiRecord_ThisHeader( void )
{
	pdiRecordHeader h;
	memcpy( h.magic, PDI_RECORD_MAGIC, 4 );
	h.version = PDI_RECORD_VERSION;
	h.pairSize = (uint32_t)sizeof( pdContactPair );
	h.defSize = (uint32_t)sizeof( pdContactDef );
	h.transformSize = (uint32_t)sizeof( pdTransform );
	return h;
}

// ---------------------------------------------------------------------------------------------
// Recorder

struct pdContactRecorder
{
	FILE* file;
	bool failed;
	long calls;
	const pdMesh** meshes; // id -> address
	int meshCount, meshCapacity;
};

static bool pdiRecord_Put( pdContactRecorder* r, const void* data, size_t size )
{
	if ( !r->failed && ( r->file == NULL || fwrite( data, 1, size, r->file ) != size ) )
	{
		r->failed = true;
	}
	return !r->failed;
}

pdContactRecorder* pdCreateContactRecorder( const char* path, pdError* outError )
{
	pdStatus status = PD_STATUS_INVALID_ARGUMENT;
	pdContactRecorder* r = NULL;
	if ( path != NULL )
	{
		r = (pdContactRecorder*)calloc( 1, sizeof( *r ) );
		status = PD_STATUS_OUT_OF_MEMORY;
	}
	if ( r != NULL )
	{
		r->file = fopen( path, "wb" );
		pdiRecordHeader h = pdiRecord_ThisHeader();
		status = PD_STATUS_INVALID_ARGUMENT;
		if ( r->file == NULL || !pdiRecord_Put( r, &h, sizeof( h ) ) )
		{
			if ( r->file != NULL )
			{
				fclose( r->file );
			}
			free( r );
			r = NULL;
		}
		else
		{
			status = PD_STATUS_OK;
		}
	}
	char message[PD_MESSAGE_CAPACITY] = "";
	if ( status == PD_STATUS_OUT_OF_MEMORY )
	{
		snprintf( message, sizeof( message ), "out of memory creating a contact recorder" );
	}
	else if ( status == PD_STATUS_INVALID_ARGUMENT )
	{
		snprintf( message, sizeof( message ), "%.200s: cannot create the recording", path != NULL ? path : "(no path)" );
	}
	pdiSetError( outError, status, message );
	return r;
}

// The mesh's id, writing the mesh the first time; -1 for NULL, -2 on failure.
static int pdiRecord_MeshId( pdContactRecorder* r, const pdMesh* mesh )
{
	if ( mesh == NULL )
	{
		return -1;
	}
	for ( int i = 0; i < r->meshCount; ++i )
	{
		if ( r->meshes[i] == mesh )
		{
			return i;
		}
	}
	if ( r->meshCount >= PDI_RECORD_MAX_MESHES )
	{
		return -2;
	}
	if ( r->meshCount == r->meshCapacity )
	{
		int capacity = r->meshCapacity > 0 ? 2 * r->meshCapacity : 8;
		const pdMesh** grown = (const pdMesh**)realloc( (void*)r->meshes, (size_t)capacity * sizeof( *grown ) );
		if ( grown == NULL )
		{
			return -2;
		}
		r->meshes = grown;
		r->meshCapacity = capacity;
	}
	int32_t id = r->meshCount;
	pdMeshInfo info = pdMesh_GetInfo( mesh );
	int32_t vertexCount = info.vertexCount;
	int32_t triangleCount = info.triangleCount;
	bool ok = pdiRecord_Put( r, "M", 1 ) && pdiRecord_Put( r, &id, 4 ) && pdiRecord_Put( r, &vertexCount, 4 ) &&
			  pdiRecord_Put( r, &triangleCount, 4 );
	for ( int i = 0; i < vertexCount && ok; ++i )
	{
		pdVec3 v = info.vertices[i];
		double xyz[3] = { v.x, v.y, v.z };
		ok = pdiRecord_Put( r, xyz, sizeof( xyz ) );
	}
	for ( int i = 0; i < triangleCount && ok; ++i )
	{
		int32_t t32[3] = { info.triangles[i][0], info.triangles[i][1], info.triangles[i][2] };
		ok = pdiRecord_Put( r, t32, sizeof( t32 ) );
	}
	if ( !ok )
	{
		return -2;
	}
	r->meshes[r->meshCount++] = mesh;
	return id;
}

pdStatus pdContactRecorder_Write( pdContactRecorder* recorder, const pdContactPair* pair, const pdMesh* meshA,
								  const pdTransform* poseA, const pdMesh* meshB, const pdTransform* poseB,
								  const pdContactDef* def )
{
	if ( recorder == NULL || pair == NULL || meshA == NULL || meshB == NULL || poseA == NULL || poseB == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	if ( recorder->failed )
	{
		return PD_STATUS_FAILED;
	}
	// A destroyed or foreign mesh reads as empty: refused here, not written for the replay to reject.
	if ( pdMesh_GetInfo( meshA ).triangleCount <= 0 || pdMesh_GetInfo( meshB ).triangleCount <= 0 )
	{
		return PD_STATUS_INVALID_MESH;
	}
	pdContactDef defaults = pdDefaultContactDef();
	int32_t ids[4] = { pdiRecord_MeshId( recorder, meshA ), pdiRecord_MeshId( recorder, meshB ),
					   pdiRecord_MeshId( recorder, pdiConstPairStateOf( pair )->proofMeshA ),
					   pdiRecord_MeshId( recorder, pdiConstPairStateOf( pair )->proofMeshB ) };
	if ( ids[0] < 0 || ids[1] < 0 || ids[2] < -1 || ids[3] < -1 )
	{
		recorder->failed = true;
		return PD_STATUS_FAILED;
	}
	pdContactPair copy = *pair;
	pdiPairStateOf( &copy )->proofMeshA = NULL;
	pdiPairStateOf( &copy )->proofMeshB = NULL;
	bool ok = pdiRecord_Put( recorder, "C", 1 ) && pdiRecord_Put( recorder, ids, sizeof( ids ) ) &&
			  pdiRecord_Put( recorder, poseA, sizeof( *poseA ) ) && pdiRecord_Put( recorder, poseB, sizeof( *poseB ) ) &&
			  pdiRecord_Put( recorder, def != NULL ? def : &defaults, sizeof( pdContactDef ) ) &&
			  pdiRecord_Put( recorder, &copy, sizeof( copy ) );
	if ( !ok )
	{
		return PD_STATUS_FAILED;
	}
	recorder->calls += 1;
	return PD_STATUS_OK;
}

long pdContactRecorder_GetCallCount( const pdContactRecorder* recorder )
{
	return recorder != NULL ? recorder->calls : 0;
}

pdStatus pdContactRecorder_Finish( pdContactRecorder* recorder )
{
	if ( recorder == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	if ( recorder->file != NULL )
	{
		recorder->failed = fclose( recorder->file ) != 0 || recorder->failed;
		recorder->file = NULL;
	}
	return recorder->failed ? PD_STATUS_FAILED : PD_STATUS_OK;
}

void pdDestroyContactRecorder( pdContactRecorder* recorder )
{
	if ( recorder == NULL )
	{
		return;
	}
	pdContactRecorder_Finish( recorder );
	free( (void*)recorder->meshes );
	free( recorder );
}

// ---------------------------------------------------------------------------------------------
// Replay

struct pdContactReplay
{
	FILE* file;
	char path[96];
	long records; // records read (meshes and calls), for messages
	long size;    // bytes in the file (a mesh record cannot ask for more)
	pdMesh** meshes;
	int meshCount;
};

static void pdiReplay_Message( char* message, const pdContactReplay* r, const char* what )
{
	if ( message != NULL )
	{
		snprintf( message, PD_MESSAGE_CAPACITY, "%s: record %ld: %.128s", r->path, r->records, what );
	}
}

static bool pdiReplay_Get( pdContactReplay* r, void* data, size_t size )
{
	return fread( data, 1, size, r->file ) == size;
}

pdContactReplay* pdCreateContactReplay( const char* path, pdError* outError )
{
	pdiSetError( outError, PD_STATUS_INVALID_ARGUMENT, "" );
	char* message = outError != NULL ? outError->message : NULL;
	if ( path == NULL )
	{
		if ( message != NULL )
		{
			snprintf( message, PD_MESSAGE_CAPACITY, "no recording path" );
		}
		return NULL;
	}
	pdContactReplay* r = (pdContactReplay*)calloc( 1, sizeof( *r ) );
	if ( r == NULL )
	{
		pdiSetError( outError, PD_STATUS_OUT_OF_MEMORY, "out of memory opening a contact recording" );
		return NULL;
	}
	snprintf( r->path, sizeof( r->path ), "%s", path );
	r->meshes = (pdMesh**)calloc( PDI_RECORD_MAX_MESHES, sizeof( pdMesh* ) );
	r->file = r->meshes != NULL ? fopen( path, "rb" ) : NULL;
	pdiRecordHeader expected = pdiRecord_ThisHeader(), h;
	const char* problem = NULL;
	if ( r->meshes == NULL )
	{
		problem = "out of memory";
	}
	else if ( r->file == NULL )
	{
		problem = "cannot open the file";
	}
	else if ( fseek( r->file, 0, SEEK_END ) != 0 || ( r->size = ftell( r->file ) ) < 0 ||
			  fseek( r->file, 0, SEEK_SET ) != 0 )
	{
		problem = "cannot read the file";
	}
	else if ( !pdiReplay_Get( r, &h, sizeof( h ) ) || memcmp( h.magic, PDI_RECORD_MAGIC, 4 ) != 0 )
	{
		problem = "not a contact recording (no PDCR header)";
	}
	else if ( h.version != expected.version || h.pairSize != expected.pairSize || h.defSize != expected.defSize ||
			  h.transformSize != expected.transformSize )
	{
		problem = "recorded by a build with another version or struct layout";
	}
	if ( problem != NULL )
	{
		if ( message != NULL )
		{
			snprintf( message, PD_MESSAGE_CAPACITY, "%s: %s", path, problem );
		}
		pdDestroyContactReplay( r );
		return NULL;
	}
	pdiSetError( outError, PD_STATUS_OK, "" );
	return r;
}

// Reads one mesh record (after its 'M') and builds the mesh.
static pdStatus pdiReplay_ReadMesh( pdContactReplay* r, char* message )
{
	int32_t id, vertexCount, triangleCount;
	if ( !pdiReplay_Get( r, &id, 4 ) || !pdiReplay_Get( r, &vertexCount, 4 ) || !pdiReplay_Get( r, &triangleCount, 4 ) )
	{
		pdiReplay_Message( message, r, "truncated mesh header" );
		return PD_STATUS_INVALID_ARGUMENT;
	}
	// Meshes come in id order; counts bounded so a corrupt file cannot ask for terabytes.
	long at = ftell( r->file );
	if ( id != r->meshCount || id >= PDI_RECORD_MAX_MESHES || vertexCount <= 0 || triangleCount <= 0 ||
		 vertexCount > ( 1 << 26 ) || triangleCount > ( 1 << 26 ) || at < 0 ||
		 (long)vertexCount * 24 + (long)triangleCount * 12 > r->size - at )
	{
		pdiReplay_Message( message, r, "mesh id or counts out of range (or past the end of the file)" );
		return PD_STATUS_INVALID_ARGUMENT;
	}
	double* vertices = (double*)malloc( (size_t)vertexCount * 3 * sizeof( double ) );
	int32_t* indices = (int32_t*)malloc( (size_t)triangleCount * 3 * sizeof( int32_t ) );
	pdStatus status = PD_STATUS_OUT_OF_MEMORY;
	if ( vertices != NULL && indices != NULL )
	{
		status = PD_STATUS_INVALID_ARGUMENT;
		if ( !pdiReplay_Get( r, vertices, (size_t)vertexCount * 3 * sizeof( double ) ) ||
			 !pdiReplay_Get( r, indices, (size_t)triangleCount * 3 * sizeof( int32_t ) ) )
		{
			pdiReplay_Message( message, r, "truncated mesh data" );
		}
		else
		{
			pdMeshDef def = pdDefaultMeshDef();
			def.vertices = vertices;
			def.vertexCount = vertexCount;
			def.vertexType = PD_SCALAR_FLOAT64;
			def.indices = indices;
			def.triangleCount = triangleCount;
			def.indexType = PD_INDEX_UINT32;
			pdMeshReport report;
			pdMesh* mesh = pdCreateMesh( &def, &report );
			if ( mesh == NULL )
			{
				char what[128];
				snprintf( what, sizeof( what ), "mesh %d rejected: %.90s", (int)id, report.message );
				pdiReplay_Message( message, r, what );
				status = report.status != PD_STATUS_OK ? report.status : PD_STATUS_FAILED;
			}
			else
			{
				r->meshes[r->meshCount++] = mesh;
				status = PD_STATUS_OK;
			}
		}
	}
	free( vertices );
	free( indices );
	return status;
}

// A pair state the plugin could have written: counts, indices and enums in range, and every
// bool a 0 or 1 byte (the plugin indexes its arrays with these; a corrupt file must not).
// A held contact (contact_hold.c) the plugin could have made: counts, slots and state in range,
// every number finite (its points are written out as they are).
static bool pdiReplay_HoldInRange( const pdiPairState* pair )
{
	int state = (int)pair->holdState;
	if ( pair->holdCount < 0 || pair->holdCount > PD_MAX_CONTACT_MANIFOLDS || pair->holdCalls < 0 ||
		 state < PD_STATE_SEPARATED || state > PD_STATE_PENETRATING || !isfinite( pair->holdBound ) ||
		 !pdiIsFiniteVec( pair->holdPosition ) || !pdiIsFiniteVec( pair->holdTranslation ) ||
		 !isfinite( pair->holdRotation.w + pair->holdRotation.x + pair->holdRotation.y + pair->holdRotation.z ) )
	{
		return false;
	}
	for ( int m = 0; m < pair->holdCount; ++m )
	{
		if ( pair->holdSlot[m] < 0 || pair->holdSlot[m] >= PD_MAX_CONTACT_MANIFOLDS || pair->holdPointCount[m] < 0 ||
			 pair->holdPointCount[m] > PD_MAX_CONTACT_POINTS || !pdiIsFiniteVec( pair->holdNormal[m] ) )
		{
			return false;
		}
		for ( int p = 0; p < pair->holdPointCount[m]; ++p )
		{
			if ( !pdiIsFiniteVec( pair->holdPointA[m][p] ) || !pdiIsFiniteVec( pair->holdPointB[m][p] ) )
			{
				return false;
			}
		}
	}
	return true;
}

static bool pdiReplay_PairInRange( const pdiPairState* pair )
{
	const bool* flags[] = { &pair->penetration.lastSeparated,
							&pair->hasFreeSide,
							&pair->hasFreePosition,
							&pair->apartValid,
							&pair->holdValid,
							&pair->holdSpeculative,
							&pair->holdResolvedOneSided };
	for ( size_t i = 0; i < sizeof( flags ) / sizeof( flags[0] ); ++i )
	{
		unsigned char byte;
		memcpy( &byte, flags[i], 1 );
		if ( byte > 1 )
		{
			return false;
		}
	}
	int state = (int)pair->lastState;
	if ( pair->penetration.count < 0 || pair->penetration.count > 3 || pair->penetration.next < 0 ||
		 pair->penetration.next > 2 || state < PD_STATE_SEPARATED || state > PD_STATE_PENETRATING ||
		 ( pair->slotMask >> PD_MAX_CONTACT_MANIFOLDS ) != 0 )
	{
		return false;
	}
	for ( int k = 0; k < PD_MAX_CONTACT_MANIFOLDS; ++k )
	{
		if ( pair->slotPointCount[k] < 0 || pair->slotPointCount[k] > PD_MAX_CONTACT_POINTS )
		{
			return false;
		}
	}
	return pdiReplay_HoldInRange( pair );
}

static pdStatus pdiReplay_Next( pdContactReplay* replay, pdContactCall* outCall, bool* outDone, char* message );

pdStatus pdContactReplay_ReadNext( pdContactReplay* replay, pdContactCall* outCall, bool* outDone, pdError* outError )
{
	pdiSetError( outError, PD_STATUS_OK, "" );
	if ( replay == NULL || outCall == NULL || outDone == NULL )
	{
		pdiSetError( outError, PD_STATUS_INVALID_ARGUMENT, "no replay, call or done flag" );
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdStatus status = pdiReplay_Next( replay, outCall, outDone, outError != NULL ? outError->message : NULL );
	if ( outError != NULL )
	{
		outError->status = status;
	}
	return status;
}

// The next record after the argument checks; message (may be NULL) gets a problem's description.
static pdStatus pdiReplay_Next( pdContactReplay* replay, pdContactCall* outCall, bool* outDone, char* message )
{
	*outDone = false;
	for ( ;; )
	{
		char kind;
		if ( !pdiReplay_Get( replay, &kind, 1 ) )
		{
			*outDone = true;
			return PD_STATUS_OK;
		}
		replay->records += 1;
		if ( kind == 'M' )
		{
			pdStatus status = pdiReplay_ReadMesh( replay, message );
			if ( status != PD_STATUS_OK )
			{
				return status;
			}
			continue;
		}
		if ( kind != 'C' )
		{
			pdiReplay_Message( message, replay, "unknown record kind" );
			return PD_STATUS_INVALID_ARGUMENT;
		}
		int32_t ids[4];
		pdContactCall call;
		if ( !pdiReplay_Get( replay, ids, sizeof( ids ) ) ||
			 !pdiReplay_Get( replay, &call.poseA, sizeof( call.poseA ) ) ||
			 !pdiReplay_Get( replay, &call.poseB, sizeof( call.poseB ) ) ||
			 !pdiReplay_Get( replay, &call.def, sizeof( call.def ) ) ||
			 !pdiReplay_Get( replay, &call.pair, sizeof( call.pair ) ) )
		{
			pdiReplay_Message( message, replay, "truncated call" );
			return PD_STATUS_INVALID_ARGUMENT;
		}
		for ( int k = 0; k < 4; ++k )
		{
			if ( ids[k] < ( k < 2 ? 0 : -1 ) || ids[k] >= replay->meshCount )
			{
				pdiReplay_Message( message, replay, "call names a mesh the file has not defined" );
				return PD_STATUS_INVALID_ARGUMENT;
			}
		}
		if ( !pdiReplay_PairInRange( pdiPairStateOf( &call.pair ) ) )
		{
			pdiReplay_Message( message, replay, "pair state out of range (not written by the plugin)" );
			return PD_STATUS_INVALID_ARGUMENT;
		}
		call.meshA = replay->meshes[ids[0]];
		call.meshB = replay->meshes[ids[1]];
		pdiPairStateOf( &call.pair )->proofMeshA = ids[2] >= 0 ? replay->meshes[ids[2]] : NULL;
		pdiPairStateOf( &call.pair )->proofMeshB = ids[3] >= 0 ? replay->meshes[ids[3]] : NULL;
		*outCall = call;
		return PD_STATUS_OK;
	}
}

void pdDestroyContactReplay( pdContactReplay* replay )
{
	if ( replay == NULL )
	{
		return;
	}
	if ( replay->file != NULL )
	{
		fclose( replay->file );
	}
	for ( int i = 0; i < replay->meshCount; ++i )
	{
		pdDestroyMesh( replay->meshes[i] );
	}
	free( replay->meshes );
	free( replay );
}
