// SPDX-License-Identifier: MIT
// Private: exact, robust triangle-pair primitives (tri_distance.c; the contact features of a
// pair in tri_features.c). Every function is invariant under vertex order, winding and A/B swap
// (up to swapping the outputs), and has a defined answer for coplanar, shared-edge,
// shared-vertex, nearly coplanar and degenerate (zero-area) triangles.
#pragma once

#include "polydepth/query.h"
#include "vec.h"

/// Which part of a triangle a closest point lies on.
typedef struct pdiTriFeature
{
	pdFeatureType type; ///< vertex, edge or face
	int index;          ///< vertex i, edge i (vertex i -> i+1), or 0 for the face
} pdiTriFeature;

/// Minimum distance between triangles a and b (0 when they intersect), with closest points
/// and the features they lie on. Any output pointer may be NULL.
double pdiTriangleDistance( const pdVec3 a[3], const pdVec3 b[3], pdVec3* outPointA, pdVec3* outPointB,
						   pdiTriFeature* outFeatureA, pdiTriFeature* outFeatureB );

/// Sum of the absolute coordinates of p[0] and q[0]: the size a rounding allowance scales with.
static inline double pdiPairCoordinateScale( const pdVec3 p[3], const pdVec3 q[3] )
{
	return fabs( p[0].x ) + fabs( p[0].y ) + fabs( p[0].z ) + fabs( q[0].x ) + fabs( q[0].y ) + fabs( q[0].z );
}

/// True when p has a plane to trust (not a needle or a point, whose normal is rounding noise)
/// and every corner of q lies more than `distance` from that plane, all on the same side: then
/// no point of q is within `distance` of p. A cheap, conservative cull before exact tests.
bool pdiPlaneSeparatesBy( const pdVec3 p[3], const pdVec3 q[3], double distance );

/// The plane pdiPlaneSeparatesBy uses for p, computed once for the many pairs one triangle
/// meets in a leaf loop: n = (p1 - p0) x (p2 - p0) unnormalised, and its length, or 0 when p
/// has no plane to trust. The prepared test does the same arithmetic, so the same verdicts.
typedef struct pdiTrianglePlane
{
	pdVec3 n;
	double length;
} pdiTrianglePlane;

void pdiTrianglePlane_Make( const pdVec3 p[3], pdiTrianglePlane* out );

/// pdiPlaneSeparatesBy( p, q, distance ) with p's prepared plane; p0 is p[0].
static inline bool pdiTrianglePlane_Separates( const pdiTrianglePlane* plane, pdVec3 p0, const pdVec3 q[3],
											  double distance )
{
	if ( !( plane->length > 0.0 ) )
	{
		return false;
	}
	double limit = distance * plane->length;
	double d0 = pdiDot( plane->n, pdiSub( q[0], p0 ) );
	double d1 = pdiDot( plane->n, pdiSub( q[1], p0 ) );
	double d2 = pdiDot( plane->n, pdiSub( q[2], p0 ) );
	return ( d0 > limit && d1 > limit && d2 > limit ) || ( d0 < -limit && d1 < -limit && d2 < -limit );
}

/// True when the closed triangles share at least one point (touching counts).
bool pdiTrianglesIntersect( const pdVec3 a[3], const pdVec3 b[3] );

/// Triangle a translates by t*v, t in [0, tMax]; b is fixed. Finds the first t at which the
/// distance is <= targetDistance (>= 0). Returns false when that never happens in [0, tMax].
/// When the distance is already <= targetDistance at t = 0, returns true with t = 0.
/// Never reports a time later than the true first time (conservative), and is within
/// 1e-9 relative of it.
bool pdiTriangleTranslationToi( const pdVec3 a[3], const pdVec3 b[3], pdVec3 v, double tMax, double targetDistance,
							   double* outT );

/// Enumerates the VF, FV and EE feature pairs of one triangle pair closer than tolerance:
///  - VF: a vertex of a whose projection falls inside b (closed, with a small relative margin)
///    and whose distance to b's plane is <= tolerance; normal = b's face normal;
///  - FV: the same with the roles swapped; normal = -(a's face normal);
///  - EE: two non-parallel edges whose closest points are interior to both segments and
///    closer than tolerance; normal = +-(ea x eb).
/// Vertex-edge contacts become VF with each face on the edge (they pass the closed inside test);
/// vertex-vertex and parallel edge-edge pairs are dropped.
/// Normals are unit and oriented from b toward a: by the sign of the separation when it
/// exceeds 1e-12 of the triangles' size, otherwise against approachDirection (a came from
/// -approachDirection). Writes at most 15 entries to out (features carry local indices; the
/// caller fills triangle and vertex ids). Returns the count.
int pdiTriangleContactFeatures( const pdVec3 a[3], const pdVec3 b[3], double tolerance, pdVec3 approachDirection,
							   pdContactFeature out[15] );

// Feature ownership masks (pdMesh.featureOwnership): bit k for vertex k of the triangle, bit
// 3 + k for its edge k (vertex k -> vertex k + 1).
#define PDI_OWN_VERTEX( k ) ( 1u << ( k ) )
#define PDI_OWN_EDGE( k ) ( 1u << ( 3 + ( k ) ) )
#define PDI_OWN_VERTICES 0x7u
#define PDI_OWN_EDGES 0x38u
#define PDI_OWN_ALL 0x3fu

/// pdiTriangleContactFeatures restricted to the features the two triangles own: a vertex of a
/// (VF) only when ownA has its bit, a vertex of b (FV) only with ownB's, an EE pair only when
/// both edges are owned. Faces are always owned. With one owner per shared vertex and edge, a
/// mesh-pair gathering reports every feature pair exactly once.
int pdiTriangleOwnedContactFeatures( const pdVec3 a[3], const pdVec3 b[3], double tolerance,
									pdVec3 approachDirection, unsigned ownA, unsigned ownB, pdContactFeature out[15] );
