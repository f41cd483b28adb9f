// SPDX-License-Identifier: MIT
// Private: mesh topology and shape built at creation (mesh_topology.c).
#pragma once

#include "mesh.h"

/// canonicalVertex[i] = lowest index with exactly equal coordinates (open-addressing hash);
/// sets canonicalVertexCount. False when out of memory.
bool pdiWeldVertices( pdMesh* mesh );

/// Edges (with face0/face1 and boundary/non-manifold/inconsistent flags), triangleEdges and the
/// vertex -> faces lists, on canonical ids. Needs the welded vertices and the arrays allocated
/// by pdCreateMesh; adds the edge array's size to *ioBytes. False when out of memory.
bool pdiBuildAdjacency( pdMesh* mesh, size_t* ioBytes );

/// mesh->featureOwnership, on the caller's vertex indices (the identity contact-feature
/// gathering deduplicates by), not on canonical ids. False when out of memory.
bool pdiBuildFeatureOwnership( pdMesh* mesh, size_t* ioBytes );

/// Closed and convex classification, edge convexity flags, centroid, volume, radius and
/// winding, from the adjacency.
void pdiComputeTopologyAndShape( pdMesh* mesh );
