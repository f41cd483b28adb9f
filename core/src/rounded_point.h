// SPDX-License-Identifier: MIT
// Private: point queries on one mesh for rounded shapes (rounded_point.c). The closest point of
// the surface with the feature it lies on, the signed distance (negative inside a closed mesh),
// the feature's pseudonormal, and the local minima of the distance from a point to the surface:
// the places a sphere centred there touches.
#pragma once

#include "mesh.h"
#include "tri_distance.h"
#include "workspace.h"

/// A point of the mesh surface near a query point, mesh frame.
typedef struct pdiSurfacePoint
{
	double distance;       ///< unsigned distance from the query point
	pdVec3 point;          ///< on the surface
	int triangle;          ///< kept-triangle index (-1 when none was found)
	pdiTriFeature feature; ///< the part of the triangle the point lies on
} pdiSurfacePoint;

/// Closest point of triangle v to p, with the feature it lies on; returns the distance.
/// Degenerate triangles give the closest point of their edges.
double pdiClosestPointOnTriangle( pdVec3 p, const pdVec3 v[3], pdVec3* outPoint, pdiTriFeature* outFeature );

/// The closest surface point to p (mesh frame) no farther than maxDistance (INFINITY for no
/// limit). False, with out->triangle -1, when nothing is that close. Uses ws->stack.
bool pdiMesh_ClosestPoint( const pdMesh* mesh, pdVec3 p, double maxDistance, pdWorkspace* ws, pdiSurfacePoint* out );

/// Unit normal of a triangle's feature pointing out of the solid (the face's outward normal;
/// for an edge the sum of its faces' normals, for a vertex the angle-weighted sum of the normals
/// around it: Baerentzen and Aanaes' pseudonormals, which tell inside from outside at the
/// closest feature). Winding normals for an open mesh.
pdVec3 pdiMesh_FeatureNormal( const pdMesh* mesh, int triangle, pdiTriFeature feature );

/// Signed distance from p to the mesh: negative when p is inside a closed mesh (ray parity, as
/// pdCollide's containment), the unsigned distance for an open mesh. outClosest (may be NULL)
/// gets the closest surface point. Uses ws->stack.
double pdiMesh_SignedDistance( const pdMesh* mesh, pdVec3 p, pdWorkspace* ws, pdiSurfacePoint* outClosest,
							   bool* outInside );

/// The local minima of the distance from p to the surface within reach of p: surface points no
/// neighbouring triangle (sharing the edge or vertex the point lies on) comes closer to than
/// they are, merged when they coincide. A sphere centred at p touches the surface at exactly
/// these points, so a sphere over a flat tessellated floor gets one, over a fold two, and none
/// on the far side of an edge it does not reach. Writes at most capacity of them, the closest
/// kept, and returns how many; *outDropped (may be NULL) says whether some were left out.
int pdiMesh_PointLocalMinima( const pdMesh* mesh, pdVec3 p, double reach, pdWorkspace* ws, pdiSurfacePoint* out,
							  int capacity, bool* outDropped );

/// min over triangles T of max( dist(p0, T), dist(p1, T) ), no farther than maxDistance (returns
/// maxDistance when nothing is closer). Every triangle's distance is convex along the segment
/// p0 p1, so this bounds the distance to the surface of every point of the segment from above.
/// Uses ws->stack.
double pdiMesh_TwoPointBound( const pdMesh* mesh, pdVec3 p0, pdVec3 p1, double maxDistance, pdWorkspace* ws );
