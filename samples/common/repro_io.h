// SPDX-License-Identifier: MIT
// Reads the reproduction files written by pdWriteRepro (used by `polydepth replay FILE`).
#pragma once

#include "polydepth/research.h"
#include "shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The query's options a repro file records: the def, whose settings point at `settings` (so
/// the struct must stay where smpReadRepro wrote it, or the pointer be set again).
typedef struct smpReproDef
{
	pdPenetrationDef def;
	pdPenetrationSettings settings;
} smpReproDef;

/// Reads a repro file into two soups (free with smpFreeSoup), the two poses and the def. On
/// failure returns false, leaves the soups empty and writes a one-line message naming the file
/// and the problem (e.g. "case.repro: line 7: expected 3 indices") into error.
bool smpReadRepro( const char* path, smpSoup* outA, smpSoup* outB, pdTransform* outPoseA, pdTransform* outPoseB,
				  smpReproDef* outDef, char* error, size_t errorSize );

#ifdef __cplusplus
}
#endif
