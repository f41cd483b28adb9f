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
