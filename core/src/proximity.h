// SPDX-License-Identifier: MIT
// Private: proximity helpers other stages use. The point queries on one mesh
// (pdiMesh_PointDistance, pdiMesh_ContainsPoint) are in proximity.c, the containment test of two
// meshes (pdiCollide_Containment) in collide.c, and the contact-feature gathering variants
// (pdiContactFeatures_*) in contact_features.c.
#pragma once

#include "mesh.h"
#include "workspace.h"

/// Distance from a point (mesh frame) to the mesh surface, searching no farther than maxDistance
/// (pass INFINITY for no limit; returns maxDistance when nothing is closer). Uses ws->stack.
double pdiMesh_PointDistance( const pdMesh* mesh, pdVec3 localPoint, double maxDistance, pdWorkspace* ws );

/// For a closed mesh: true when the point (mesh frame) is strictly inside the solid (robust
/// ray parity with several directions). Always false for an open mesh. Uses ws->stack.
bool pdiMesh_ContainsPoint( const pdMesh* mesh, pdVec3 localPoint, pdWorkspace* ws );

/// With no surface pair intersecting: whether one closed mesh contains the other (A's frame
/// relative to B's is rel), decided by one vertex of each, as pdCollide's containment test.
bool pdiCollide_Containment( const pdMesh* meshA, const pdMesh* meshB, const pdiFrame* rel, pdWorkspace* ws );

/// The contact features within the tolerance at rest (pdComputeContactFeatures) that also measure
/// the surfaces' distance within the tolerance in the same traversal (contact_features.c):
/// *outMinDistance is the exact distance (the distance query's value) when it is at most the
/// tolerance, a larger value otherwise, and 0 when the surfaces intersect (the traversal then
/// ends early and the features are incomplete). Only meaningful with status PD_STATUS_OK: a full feature list (PD_STATUS_FEATURE_LIMIT) or a traversal cap
/// narrowed the search. outClosestPair (may be NULL) gets the triangles of that distance (-1
/// when no pair came within the tolerance), outVisits (may be NULL) the node pairs visited.
pdStatus pdiContactFeatures_GatherMeasuringGap( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
												const pdTransform* poseB, double tolerance, pdVec3 approachDirection,
												int maxFeatures, pdWorkspace* ws, int* outCount,
												const pdContactFeature** outFeatures, double* outMinDistance,
												int outClosestPair[2], int* outVisits );
