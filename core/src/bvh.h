// SPDX-License-Identifier: MIT
// Private: the bounding-volume hierarchy built once per mesh (bvh.c). The node layout is owned
// by bvh.c; collide.c, distance.c and ccd.c traverse it.
#pragma once

#include "vec.h"

struct pdMesh;

/// Placeholder layout; bvh.c defines the real one.
typedef struct pdBvhNode
{
	pdVec3 center;      ///< box centre, mesh frame
	pdVec3 halfExtent;  ///< box half extents along the box axes
	int firstChild;     ///< internal: index of the left child (right = left + 1); leaf: -1
	int firstTriangle;  ///< leaf: first index into pdBvh.triangleOrder
	int triangleCount;  ///< leaf: triangle count
} pdBvhNode;

typedef struct pdBvh
{
	int nodeCount;
	pdBvhNode* nodes;
	int* triangleOrder; ///< [triangleCount] kept-triangle indices in leaf order
	int depth;
	size_t bytes;
} pdBvh;

/// Builds the tree for a mesh whose geometry is filled in. Returns PD_STATUS_OK or OUT_OF_MEMORY.
pdStatus pdBvh_Build( pdBvh* outBvh, const struct pdMesh* mesh );
void pdBvh_Destroy( pdBvh* bvh );
