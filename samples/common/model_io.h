// SPDX-License-Identifier: MIT
// Model loaders for samples, the command-line tool and benchmarks (the core never reads files):
// .tri and .tris (the formats of the paper's benchmark models), .obj and .ani paths parsed here, and
// STL/PLY/OFF through Assimp's C API.
#pragma once

#include "shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Loads a mesh file by extension (.tri, .tris, .obj, else Assimp). On failure returns false and
/// writes a one-line message naming the file and the problem (e.g. "bunny.tri: line 12:
/// expected 3 indices") into error. Never crashes on garbage, truncated or huge input.
bool smpLoadSoup( const char* path, smpSoup* out, char* error, size_t errorSize );

/// A predefined path (.ani): per frame a rotation (row-major 3x3) and a translation.
typedef struct smpPath
{
	int frameCount;
	double* rotations;    ///< 9 per frame, row-major
	double* translations; ///< 3 per frame
} smpPath;

bool smpLoadPath( const char* path, smpPath* out, char* error, size_t errorSize );
void smpFreePath( smpPath* path );

/// Writes a soup as OBJ (for tests and for users to look at).
bool smpSaveObj( const char* path, const smpSoup* soup );

#ifdef __cplusplus
}
#endif
