// SPDX-License-Identifier: MIT
// Private: a segment against one mesh (rounded_segment.c), the skeleton of a capsule: the exact
// distance from the segment to the surface, and the deepest point of the segment (the smallest
// signed distance along it) inside a closed mesh, found by branch and bound with a proven
// bracket.
#pragma once

#include "rounded_point.h"

/// Exact distance from segment [a, b] (mesh frame) to the surface: 0 when it crosses or touches
/// the surface. *outU gets the parameter (0 at a, 1 at b) of the segment's closest point and
/// out the surface point. False when the mesh has no triangle to measure. Uses ws->stack.
bool pdiMesh_SegmentClosest( const pdMesh* mesh, pdVec3 a, pdVec3 b, pdWorkspace* ws, double* outU,
							 pdiSurfacePoint* out );

/// The deepest point of a segment: the smallest signed distance f(u) of the points a + u (b - a)
/// to the mesh (negative inside a closed mesh; unsigned for an open one).
typedef struct pdiSegmentDeepest
{
	double u;                ///< where the smallest value found lies, in [0, 1]
	double value;            ///< f(u): an upper bound of the minimum
	double bound;            ///< a lower bound of the minimum: the minimum lies in [bound, value]
	pdiSurfacePoint closest; ///< the surface point closest to the point at u
	bool inside;             ///< the point at u is inside the closed mesh
	int evaluations;         ///< signed-distance evaluations (each a closest point and a parity test)
	bool capped;             ///< maxEvaluations ended the search before value - bound <= tolerance
} pdiSegmentDeepest;

/// Finds the deepest point of segment [a, b] (mesh frame) to within tolerance (world units,
/// > 0): value - bound <= tolerance unless capped. A segment outside a closed mesh, or any
/// segment against an open one, is answered exactly by pdiMesh_SegmentClosest. Otherwise the
/// search bisects intervals best-first, bounding f on [u0, u1] from below by the larger of
/// (f(u0) + f(u1) - length) / 2 (f is 1-Lipschitz) and -min_T max( dist(x(u0), T),
/// dist(x(u1), T) ) (each triangle's distance is convex along the segment, and a point outside
/// has f >= 0). Uses ws->stack and ws->scratch.
void pdiMesh_SegmentDeepest( const pdMesh* mesh, pdVec3 a, pdVec3 b, double tolerance, int maxEvaluations,
							 pdWorkspace* ws, pdiSegmentDeepest* out );
