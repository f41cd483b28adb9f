// SPDX-License-Identifier: MIT
// Private: free (collision-free) configurations for PolyDepth (initial_config.c).
#pragma once

#include "mesh.h"

/// Precomputes the maximally clear configurations of a mesh (local maxima of the distance
/// field on a voxel grid of its bounding box, interior cells only) into mesh->clearancePoints.
/// Called once at mesh creation when the def asks for it.
pdStatus pdComputeClearancePoints( pdMesh* mesh, int gridResolution );
void pdFreeClearancePoints( pdMesh* mesh );
