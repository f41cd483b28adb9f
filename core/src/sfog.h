// SPDX-License-Identifier: MIT
// Private: the spherical face orientation graph (sfog.c): built once per mesh, used to prune
// inapplicable contact feature pairs and for the exact convex PD.
#pragma once

#include "mesh.h"
#include "workspace.h"

typedef struct pdSfog pdSfog;

/// Builds the graph for a mesh with adjacency. Returns NULL when out of memory (the mesh is
/// then simply used without pruning). Never fails on odd topology: undecidable parts are
/// marked so that they are never pruned.
pdSfog* pdSfog_Build( const pdMesh* mesh );
void pdSfog_Destroy( pdSfog* sfog );
size_t pdSfog_Bytes( const pdSfog* sfog );
