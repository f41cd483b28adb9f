// SPDX-License-Identifier: MIT
// Private: triangles in canonical vertex order and in local coordinates, and the segment
// closest-point kernel (tri_distance.c), shared by the triangle-pair primitives
// (tri_distance.c) and the contact-feature enumeration (tri_features.c).
#pragma once

#include "tri_distance.h"

/// A triangle with its vertices in lexicographic order.
typedef struct pdiTriCanon
{
	pdVec3 v[3];
	int perm[3]; // v[k] = input[perm[k]]
} pdiTriCanon;

/// Puts in's vertices in lexicographic order (ties keep a fixed order).
void pdiCanonTriangle( const pdVec3 in[3], pdiTriCanon* out );

/// Maps a feature of the canonical triangle back to the caller's vertex order.
pdiTriFeature pdiMapFeature( const pdiTriCanon* c, pdiTriFeature f );

static inline pdiTriFeature pdiMakeFeature( pdFeatureType type, int index )
{
	pdiTriFeature f = { type, index };
	return f;
}

// Precomputed per-triangle data (local coordinates).
typedef struct pdiTriLocal
{
	const pdVec3* v;
	pdVec3 e[3]; // e[i] = v[i+1] - v[i]
	pdVec3 n;    // (v1 - v0) x (v2 - v0), unnormalised
	double nSq;
	double maxEdgeSq;
	bool hasPlane; // usable for crossing sign tests
	bool hasFace;  // usable for vertex-face distance
} pdiTriLocal;

/// Fills t from v (which t keeps pointing at).
void pdiTriLocalInit( const pdVec3 v[3], pdiTriLocal* t );

/// Closest points of segments p + s*d1 and q + t*d2, s,t in [0,1]. Handles zero-length (d*d at
/// most pointSq) and parallel segments; nearly parallel ones also try the four endpoint
/// projections, because there the interior solution is ill-conditioned. Returns the squared
/// distance.
double pdiSegmentSegment( pdVec3 p, pdVec3 d1, pdVec3 q, pdVec3 d2, double pointSq, double* outS, double* outT );
