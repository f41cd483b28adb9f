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

/// Orientation pruning of one contact feature pair (Donald's applicability constraints on the
/// Gauss map). rotationA/rotationB are the meshes' world rotations. Returns false only when the
/// pair is provably inapplicable (VF: the reflected face normal of B is outside the normal cone
/// of A's vertex; EE: the two arcs, one reflected, do not cross); true whenever applicability
/// cannot be decided (open soups, non-manifold edges, no graph).
bool pdSfog_IsApplicable( const pdMesh* meshA, const pdMat33* rotationA, const pdMesh* meshB, const pdMat33* rotationB,
						  const pdContactFeature* feature );

/// Exact translational PD of two convex meshes from the overlay of their orientation graphs
/// (the applicable pairs are the faces of the Minkowski sum). outTranslation moves A (world).
/// Returns PD_STATUS_FAILED when either mesh is not convex or has no graph. outCandidates (may
/// be NULL) receives the number of applicable pairs evaluated.
pdStatus pdSfog_ConvexPenetration( const pdMesh* meshA, const pdFrame* frameA, const pdMesh* meshB, const pdFrame* frameB,
								   pdWorkspace* ws, pdVec3* outTranslation, double* outDepth, int* outCandidates );
