// SPDX-License-Identifier: MIT
// Recording and replaying pdContactPair_Generate calls. A recording holds every input of each call
// (both meshes, both poses, the def and the pair state before the call), so a replay runs the
// same calls outside the engine, deterministically: attach one to a bug report, or compare the
// cost of two builds on the same calls with an instruction counter (the heap scenes are chaotic,
// so two builds run in the engine soon see different calls).
//
// The Bullet shim records through pdBullet_StartRecording; `polydepth-bench contact-replay FILE`
// replays a file. The format is binary, native byte order and struct layout: a recording is read
// back by a build of the same version on the same platform (the header checks the layout).
// Meshes are stored as their vertices and kept triangles and rebuilt with pdDefaultMeshDef(), as
// the shim builds them; a mesh made with other options (no clearance points, say) replays as the
// default mesh of the same triangles.
#pragma once

#include "polydepth/contact.h"

PD_C_BEGIN

/// Writes calls to a file. Not thread-safe: one writer per recorder (the shim serialises).
typedef struct pdContactRecorder pdContactRecorder;

/// Creates the file (truncating it). NULL on failure, with *outError (may be NULL) saying why:
/// PD_STATUS_INVALID_ARGUMENT (NULL path, or the file cannot be created; the message names it)
/// or PD_STATUS_OUT_OF_MEMORY.
PD_API pdContactRecorder* pdCreateContactRecorder( const char* path, pdError* outError );

/// Appends one call: the pair state before the call and its inputs (def may be NULL: the
/// defaults). A mesh is written the first time it is seen; it is identified by its address, so
/// a mesh must not be destroyed while a recorder that has seen it is open. PD_STATUS_OK;
/// PD_STATUS_INVALID_ARGUMENT for a NULL argument, PD_STATUS_INVALID_MESH for a mesh that is not
/// one, PD_STATUS_FAILED once a write has failed (the file is then incomplete).
PD_API pdStatus pdContactRecorder_Write( pdContactRecorder* recorder, const pdContactPair* pair,
										 const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										 const pdTransform* poseB, const pdContactDef* def );

/// Calls written so far.
PD_API long pdContactRecorder_GetCallCount( const pdContactRecorder* recorder );

/// Flushes and closes the file. PD_STATUS_OK when every write and the close succeeded,
/// PD_STATUS_FAILED otherwise; later writes fail. The recorder stays to be destroyed.
PD_API pdStatus pdContactRecorder_Finish( pdContactRecorder* recorder );

/// Destroys the recorder, closing its file first when pdContactRecorder_Finish was not called.
/// NULL is allowed.
PD_API void pdDestroyContactRecorder( pdContactRecorder* recorder );

/// One recorded call, ready for pdContactPair_Generate( &call.pair, call.meshA, &call.poseA,
/// call.meshB, &call.poseB, &call.def, ... ). The meshes belong to the replay.
typedef struct pdContactCall
{
	const pdMesh* meshA;
	pdTransform poseA;
	const pdMesh* meshB;
	pdTransform poseB;
	pdContactDef def;
	pdContactPair pair;
} pdContactCall;

/// Reads a recording back.
typedef struct pdContactReplay pdContactReplay;

/// Opens a recording. NULL on failure with *outError (may be NULL): PD_STATUS_INVALID_ARGUMENT
/// for a missing or unreadable file or one that is not a recording of this build's layout, the
/// message naming the file and the problem.
PD_API pdContactReplay* pdCreateContactReplay( const char* path, pdError* outError );

/// Reads the next call into *outCall. Returns PD_STATUS_OK with *outDone false for a call,
/// PD_STATUS_OK with *outDone true at the end, and an error status with *outError (may be NULL;
/// the message names the file and the record) for a truncated or malformed record or a mesh the
/// core rejects.
PD_API pdStatus pdContactReplay_ReadNext( pdContactReplay* replay, pdContactCall* outCall, bool* outDone,
									  pdError* outError );

/// Closes the file and destroys the meshes read from it (calls returned earlier point to them).
PD_API void pdDestroyContactReplay( pdContactReplay* replay );

PD_C_END
