// SPDX-License-Identifier: MIT
// Independent penetration-depth oracles for the PolyDepth tests. They share nothing with the
// product code except pdCollide, used as a plain static collision check.
#pragma once

#include "polydepth/polydepth.h"
#include "shapes.h"

struct TestOracleResult
{
	pdVec3 translation = { 0.0, 0.0, 0.0 }; ///< moves A (world) out of B
	double depth = 0.0;                     ///< |translation|
	bool ok = false;
};

/// Exact PD of two convex polyhedra by the separating-axis theorem: the smallest overlap over
/// all face normals of A and B and all cross products of an edge of A with an edge of B.
TestOracleResult testOracleConvexPenetration( const smpSoup& a, const pdTransform& poseA, const smpSoup& b,
										  const pdTransform& poseB );

/// Axis-aligned boxes (centres and half extents, world): the smallest axis overlap.
TestOracleResult testOracleBoxBox( pdVec3 centerA, pdVec3 halfA, pdVec3 centerB, pdVec3 halfB );

/// Two spheres: rA + rB - |cA - cB| along the centre difference.
TestOracleResult testOracleSphereSphere( pdVec3 centerA, double radiusA, pdVec3 centerB, double radiusB );

/// Brute-force directional search for small non-convex pairs: for `directions` directions of a
/// Fibonacci sphere, the smallest t with A at o + t u free (march from 0 in fine steps with
/// pdCollide, then bisect the first free step), refined by a local search around the best
/// directions. The answer is free (an upper bound near the global PD).
TestOracleResult testOracleDirectionalPenetration( const pdMesh* a, const pdTransform& poseA, const pdMesh* b,
											   const pdTransform& poseB, int directions, bool containment,
											   pdWorkspace* ws );

/// True when A moved by t leaves A and B at most touching: either not colliding, or not
/// colliding after a further push of tolerance along t (the overlap is shallower than that).
bool testOracleIsValidAnswer( const pdMesh* a, const pdTransform& poseA, const pdMesh* b, const pdTransform& poseB,
							pdVec3 t, double tolerance, bool containment, pdWorkspace* ws );
