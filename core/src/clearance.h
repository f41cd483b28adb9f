// SPDX-License-Identifier: MIT
// Private: per-mesh free-space data made at mesh creation (clearance.c): maximally clear
// points and inner balls.
#pragma once

#include "mesh.h"

/// Most clearance points kept per mesh (the largest clearances).
#define PDI_MAX_CLEARANCE_POINTS 32

/// Precomputes the maximally clear configurations of a mesh (local maxima of the distance
/// field on a voxel grid of its bounding box, interior cells only) into mesh->clearancePoints.
/// Called once at mesh creation when the def asks for it.
pdStatus pdiComputeClearancePoints( pdMesh* mesh, int gridResolution );
void pdiFreeClearancePoints( pdMesh* mesh );

/// A ball in a mesh frame.
typedef struct pdiBall
{
	pdVec3 center;
	double radius;
} pdiBall;

/// Most inner balls kept per mesh, and the triangles sampled to find them.
#define PDI_MAX_INNER_BALLS 32
#define PDI_INNER_BALL_SAMPLES 96

/// Precomputes balls inside a closed mesh's solid into mesh->innerBalls (none for open
/// meshes, whose inside is undefined): at sampled triangles, the largest ball tangent to the
/// surface from inside that holds none of it (a shrinking ball), the largest kept. Called once
/// at mesh creation with the clearance points.
pdStatus pdiComputeInnerBalls( pdMesh* mesh );
void pdiFreeInnerBalls( pdMesh* mesh );

/// A certified lower bound on the PD of two closed meshes placed by their frames (world
/// units): the deepest overlap of a ball inside A with a ball inside B, r_i + r_j less the
/// distance of their centres; A must move at least that far before those balls, and so the
/// solids, part. 0 when no two balls overlap and for open meshes (no balls).
double pdiInnerBallOverlapAt( const pdMesh* meshA, const pdiFrame* frameA, const pdMesh* meshB,
							  const pdiFrame* frameB );

/// The certified lower bound a penetration answer carries (ball_overlap.c): the larger of
/// pdiInnerBallOverlapAt and, for two closed meshes, the deepest ball inside one mesh measured
/// against the other's solid (radius plus the depth of its centre inside that solid: no
/// translation shorter than that takes the solid off the ball). 0 when nothing certifies more.
/// Uses ws's scratch stack.
double pdiPenetrationLowerBound( const pdMesh* meshA, const pdiFrame* frameA, const pdMesh* meshB,
								 const pdiFrame* frameB, pdWorkspace* ws );
