// SPDX-License-Identifier: MIT
// Reads the reproduction files written by pdWriteRepro (used by `polydepth replay FILE`).
#pragma once

#include "polydepth/penetration.h"
#include "shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reads a repro file into two soups (free with smpFreeSoup), the two poses and the def. On
/// failure returns false, leaves the soups empty and writes a one-line message naming the file
/// and the problem (e.g. "case.repro: line 7: expected 3 indices") into error.
bool smpReadRepro( const char* path, smpSoup* outA, smpSoup* outB, pdTransform* outPoseA, pdTransform* outPoseB,
				  pdPenetrationDef* outDef, char* error, size_t errorSize );

#ifdef __cplusplus
}
#endif
