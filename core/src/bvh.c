// SPDX-License-Identifier: MIT
// BVH construction: top-down, object-median splits along the fitted box's longest axis, one
// oriented box per node (principal axes of the node's vertices, or the mesh-frame AABB when
// that box is smaller). Iterative (explicit task stack), depth capped at PD_BVH_MAX_DEPTH.
#include "bvh.h"

#include "core.h"
#include "eigen.h"
#include "mesh.h"

#include <string.h>

#define PD_BVH_PI 3.14159265358979323846

typedef struct pdBuildTask
{
	int start, count;
	int parent; ///< node whose right-child index to patch, -1 for the root / a left child
	int depth;
} pdBuildTask;

// Thresholds the node boxes' principal axes are computed with: rotations whose entry is
// negligible against the gap between the two diagonal entries are skipped.
static const pdEigenDef pdBvhEigenDef = { .stopFloor = 0.0, .skipFloor = 1e-300, .skipRelative = 1e-14 };

// Fits the box of the triangles order[0..count) into node (principal axes or AABB).
static void pdFitNode( pdBvhNode* node, const pdMesh* mesh, const int* order, int count, double pad )
{
	pdVec3 mean = pdV3( 0.0, 0.0, 0.0 );
	pdVec3 lo = pdV3( INFINITY, INFINITY, INFINITY ), hi = pdV3( -INFINITY, -INFINITY, -INFINITY );
	for ( int k = 0; k < count; ++k )
	{
		const int* tri = mesh->triangles[order[k]];
		for ( int m = 0; m < 3; ++m )
		{
			pdVec3 p = mesh->vertices[tri[m]];
			mean = pdAdd( mean, p );
			lo = pdMin3( lo, p );
			hi = pdMax3( hi, p );
		}
	}
	mean = pdScale( mean, 1.0 / ( 3.0 * count ) );

	double cov[3][3] = { { 0 } };
	for ( int k = 0; k < count; ++k )
	{
		const int* tri = mesh->triangles[order[k]];
		for ( int m = 0; m < 3; ++m )
		{
			pdVec3 d = pdSub( mesh->vertices[tri[m]], mean );
			cov[0][0] += d.x * d.x;
			cov[0][1] += d.x * d.y;
			cov[0][2] += d.x * d.z;
			cov[1][1] += d.y * d.y;
			cov[1][2] += d.y * d.z;
			cov[2][2] += d.z * d.z;
		}
	}
	cov[1][0] = cov[0][1];
	cov[2][0] = cov[0][2];
	cov[2][1] = cov[1][2];
	double ev[3][3];
	pdSymmetricEigen( cov, &pdBvhEigenDef, ev, NULL );

	// Orthonormal right-handed axes from the eigenvectors (re-orthogonalised).
	pdVec3 u0 = pdNormalize( pdV3( ev[0][0], ev[1][0], ev[2][0] ) );
	pdVec3 u1 = pdV3( ev[0][1], ev[1][1], ev[2][1] );
	u1 = pdNormalize( pdMulAdd( u1, -pdDot( u1, u0 ), u0 ) );
	pdVec3 u2 = pdNormalize( pdCross( u0, u1 ) );
	bool usable = pdLengthSq( u0 ) > 0.5 && pdLengthSq( u1 ) > 0.5 && pdLengthSq( u2 ) > 0.5;

	pdVec3 aabbHalf = pdScale( pdSub( hi, lo ), 0.5 );
	double aabbCost = aabbHalf.x * aabbHalf.y + aabbHalf.y * aabbHalf.z + aabbHalf.z * aabbHalf.x;

	node->axes.cx = pdV3( 1.0, 0.0, 0.0 );
	node->axes.cy = pdV3( 0.0, 1.0, 0.0 );
	node->axes.cz = pdV3( 0.0, 0.0, 1.0 );
	node->center = pdScale( pdAdd( lo, hi ), 0.5 );
	node->halfExtent = aabbHalf;

	if ( usable )
	{
		pdVec3 olo = pdV3( INFINITY, INFINITY, INFINITY ), ohi = pdV3( -INFINITY, -INFINITY, -INFINITY );
		for ( int k = 0; k < count; ++k )
		{
			const int* tri = mesh->triangles[order[k]];
			for ( int m = 0; m < 3; ++m )
			{
				pdVec3 p = mesh->vertices[tri[m]];
				pdVec3 q = pdV3( pdDot( p, u0 ), pdDot( p, u1 ), pdDot( p, u2 ) );
				olo = pdMin3( olo, q );
				ohi = pdMax3( ohi, q );
			}
		}
		pdVec3 half = pdScale( pdSub( ohi, olo ), 0.5 );
		double cost = half.x * half.y + half.y * half.z + half.z * half.x;
		if ( cost < aabbCost )
		{
			pdVec3 mid = pdScale( pdAdd( olo, ohi ), 0.5 );
			node->axes.cx = u0;
			node->axes.cy = u1;
			node->axes.cz = u2;
			node->center = pdAdd( pdAdd( pdScale( u0, mid.x ), pdScale( u1, mid.y ) ), pdScale( u2, mid.z ) );
			node->halfExtent = half;
		}
	}
	// Pad for rounding in the fit so the box provably contains its triangles.
	node->halfExtent = pdAdd( node->halfExtent, pdV3( pad, pad, pad ) );
}

// Partially orders order[0..count) by key so that the first k entries hold the k smallest keys.
static void pdSelect( int* order, double* key, int count, int k )
{
	int lo = 0, hi = count - 1;
	// Each pass strictly shrinks [lo, hi], so at most count passes.
	for ( int pass = 0; pass < count && lo < hi; ++pass )
	{
		int mid = lo + ( hi - lo ) / 2;
		double a = key[lo], b = key[mid], c = key[hi];
		double pivot = a < b ? ( b < c ? b : ( a < c ? c : a ) ) : ( a < c ? a : ( b < c ? c : b ) );
		int i = lo, j = hi;
		while ( i <= j )
		{
			while ( key[i] < pivot )
			{
				++i;
			}
			while ( key[j] > pivot )
			{
				--j;
			}
			if ( i <= j )
			{
				double tk = key[i];
				key[i] = key[j];
				key[j] = tk;
				int to = order[i];
				order[i] = order[j];
				order[j] = to;
				++i;
				--j;
			}
		}
		if ( k <= j )
		{
			hi = j;
		}
		else if ( k >= i )
		{
			lo = i;
		}
		else
		{
			return;
		}
	}
}

// The cone of unit vectors within half-angle `angle` of axis, as a pdBvhCone.
static pdBvhCone pdMakeCone( pdVec3 axis, double angle )
{
	pdBvhCone c;
	c.axis = axis;
	c.spread = angle < 0.5 * PD_BVH_PI ? sin( angle ) : 2.0;
	return c;
}

static double pdAngleBetween( pdVec3 a, pdVec3 b )
{
	return atan2( pdLength( pdCross( a, b ) ), pdDot( a, b ) );
}

// Bottom-up: a leaf's cone is centred on its normals' mean and reaches the farthest one; a
// parent's is centred between its children's axes and reaches both children's cones.
static void pdBvh_FitCones( pdBvh* bvh, const struct pdMesh* mesh )
{
	const double slack = 1e-9; // rounding of the angles
	for ( int i = bvh->nodeCount - 1; i >= 0; --i )
	{
		const pdBvhNode* node = bvh->nodes + i;
		pdVec3 sum = pdV3( 0.0, 0.0, 0.0 );
		double angle = 0.0;
		if ( node->count > 0 )
		{
			for ( int k = 0; k < node->count; ++k )
			{
				sum = pdAdd( sum, mesh->faceNormals[bvh->triangleOrder[node->start + k]] );
			}
			pdVec3 axis = pdNormalize( sum );
			if ( !( pdLengthSq( axis ) > 0.5 ) )
			{
				bvh->cones[i] = pdMakeCone( pdV3( 1.0, 0.0, 0.0 ), PD_BVH_PI );
				continue;
			}
			for ( int k = 0; k < node->count; ++k )
			{
				angle = fmax( angle, pdAngleBetween( axis, mesh->faceNormals[bvh->triangleOrder[node->start + k]] ) );
			}
			bvh->cones[i] = pdMakeCone( axis, angle + slack );
			continue;
		}
		const pdBvhCone* left = bvh->cones + i + 1;
		const pdBvhCone* right = bvh->cones + node->start;
		if ( left->spread > 1.0 || right->spread > 1.0 )
		{
			bvh->cones[i] = pdMakeCone( pdV3( 1.0, 0.0, 0.0 ), PD_BVH_PI );
			continue;
		}
		pdVec3 axis = pdNormalize( pdAdd( left->axis, right->axis ) );
		if ( !( pdLengthSq( axis ) > 0.5 ) )
		{
			bvh->cones[i] = pdMakeCone( pdV3( 1.0, 0.0, 0.0 ), PD_BVH_PI );
			continue;
		}
		angle = fmax( pdAngleBetween( axis, left->axis ) + asin( left->spread ),
					  pdAngleBetween( axis, right->axis ) + asin( right->spread ) );
		bvh->cones[i] = pdMakeCone( axis, angle + slack );
	}
}

pdStatus pdBvh_Build( pdBvh* outBvh, const struct pdMesh* mesh )
{
	memset( outBvh, 0, sizeof( *outBvh ) );
	int n = mesh->triangleCount;
	if ( n <= 0 )
	{
		return PD_STATUS_OK;
	}
	int maxNodes = 2 * n;
	pdBvhNode* nodes = pdAlloc( (size_t)maxNodes * sizeof( pdBvhNode ) );
	int* order = pdAlloc( (size_t)n * sizeof( int ) );
	double* key = pdAlloc( (size_t)n * sizeof( double ) );
	pdVec3* centroid = pdAlloc( (size_t)n * sizeof( pdVec3 ) );
	pdBuildTask* tasks = pdAlloc( ( PD_BVH_MAX_DEPTH + 2 ) * sizeof( pdBuildTask ) );
	if ( nodes == NULL || order == NULL || key == NULL || centroid == NULL || tasks == NULL )
	{
		pdFree( nodes, (size_t)maxNodes * sizeof( pdBvhNode ) );
		pdFree( order, (size_t)n * sizeof( int ) );
		pdFree( key, (size_t)n * sizeof( double ) );
		pdFree( centroid, (size_t)n * sizeof( pdVec3 ) );
		pdFree( tasks, ( PD_BVH_MAX_DEPTH + 2 ) * sizeof( pdBuildTask ) );
		return PD_STATUS_OUT_OF_MEMORY;
	}
	for ( int i = 0; i < n; ++i )
	{
		pdVec3 v[3];
		pdMesh_TriangleVertices( mesh, i, v );
		order[i] = i;
		centroid[i] = pdScale( pdAdd( pdAdd( v[0], v[1] ), v[2] ), 1.0 / 3.0 );
	}
	pdVec3 span = pdSub( mesh->boundsMax, mesh->boundsMin );
	double extent = fmax( fmax( fabs( mesh->boundsMax.x ), fabs( mesh->boundsMin.x ) ),
						  fmax( fmax( fabs( mesh->boundsMax.y ), fabs( mesh->boundsMin.y ) ),
								fmax( fabs( mesh->boundsMax.z ), fabs( mesh->boundsMin.z ) ) ) );
	double pad = 1e-13 * ( pdLength( span ) + extent ) + 1e-300;

	int nodeCount = 0, depth = 0, taskCount = 0;
	tasks[taskCount++] = ( pdBuildTask ){ 0, n, -1, 1 };
	// Each task creates one node and there are at most 2n - 1 of them.
	for ( int guard = 0; guard < maxNodes && taskCount > 0; ++guard )
	{
		pdBuildTask task = tasks[--taskCount];
		int index = nodeCount++;
		pdBvhNode* node = nodes + index;
		if ( task.parent >= 0 )
		{
			nodes[task.parent].start = index;
		}
		depth = task.depth > depth ? task.depth : depth;
		pdFitNode( node, mesh, order + task.start, task.count, pad );

		if ( task.count <= PD_BVH_LEAF_SIZE || task.depth >= PD_BVH_MAX_DEPTH )
		{
			node->start = task.start;
			node->count = task.count;
			continue;
		}

		// Split axis: the box axis with the largest extent.
		pdVec3 axis = node->axes.cx;
		double h = node->halfExtent.x;
		if ( node->halfExtent.y > h )
		{
			axis = node->axes.cy;
			h = node->halfExtent.y;
		}
		if ( node->halfExtent.z > h )
		{
			axis = node->axes.cz;
		}
		int* sub = order + task.start;
		for ( int k = 0; k < task.count; ++k )
		{
			key[k] = pdDot( centroid[sub[k]], axis );
		}
		int half = task.count / 2;
		pdSelect( sub, key, task.count, half );

		node->start = -1;
		node->count = 0;
		// Right first so the left child is popped next and lands at index + 1.
		tasks[taskCount++] = ( pdBuildTask ){ task.start + half, task.count - half, index, task.depth + 1 };
		tasks[taskCount++] = ( pdBuildTask ){ task.start, half, -1, task.depth + 1 };
	}
	PD_ASSERT( taskCount == 0 );

	pdFree( key, (size_t)n * sizeof( double ) );
	pdFree( centroid, (size_t)n * sizeof( pdVec3 ) );
	pdFree( tasks, ( PD_BVH_MAX_DEPTH + 2 ) * sizeof( pdBuildTask ) );
	if ( nodeCount < maxNodes )
	{
		pdBvhNode* shrunk =
			pdRealloc( nodes, (size_t)maxNodes * sizeof( pdBvhNode ), (size_t)nodeCount * sizeof( pdBvhNode ) );
		if ( shrunk != NULL )
		{
			nodes = shrunk;
			maxNodes = nodeCount;
		}
	}
	outBvh->nodes = nodes;
	outBvh->nodeCount = nodeCount;
	outBvh->nodeBytes = (size_t)maxNodes * sizeof( pdBvhNode );
	outBvh->triangleOrder = order;
	outBvh->triangleCount = n;
	outBvh->depth = depth;
	// Normal cones are an accelerator only: without memory for them the CCD culls per triangle.
	outBvh->cones = pdAlloc( (size_t)nodeCount * sizeof( pdBvhCone ) );
	if ( outBvh->cones != NULL )
	{
		pdBvh_FitCones( outBvh, mesh );
	}
	outBvh->leafVertices = pdAlloc( (size_t)n * sizeof( pdVec3[3] ) );
	outBvh->leafLo = pdAlloc( (size_t)n * sizeof( pdVec3 ) );
	outBvh->leafHi = pdAlloc( (size_t)n * sizeof( pdVec3 ) );
	outBvh->leafPlanes = pdAlloc( (size_t)n * sizeof( pdTrianglePlane ) );
	if ( outBvh->leafVertices == NULL || outBvh->leafLo == NULL || outBvh->leafHi == NULL ||
		 outBvh->leafPlanes == NULL )
	{
		pdBvh_Destroy( outBvh );
		return PD_STATUS_OUT_OF_MEMORY;
	}
	for ( int k = 0; k < n; ++k )
	{
		pdMesh_TriangleVertices( mesh, order[k], outBvh->leafVertices[k] );
		pdTriangleBox( outBvh->leafVertices[k], outBvh->leafLo + k, outBvh->leafHi + k );
		pdTrianglePlane_Make( outBvh->leafVertices[k], outBvh->leafPlanes + k );
	}
	outBvh->bytes = outBvh->nodeBytes +
					(size_t)n * ( sizeof( int ) + sizeof( pdVec3[3] ) + 2 * sizeof( pdVec3 ) + sizeof( pdTrianglePlane ) ) +
					( outBvh->cones != NULL ? (size_t)nodeCount * sizeof( pdBvhCone ) : 0 );
	return PD_STATUS_OK;
}

void pdBvh_Destroy( pdBvh* bvh )
{
	if ( bvh->nodes != NULL )
	{
		pdFree( bvh->nodes, bvh->nodeBytes );
	}
	if ( bvh->cones != NULL )
	{
		pdFree( bvh->cones, (size_t)bvh->nodeCount * sizeof( pdBvhCone ) );
	}
	pdFree( bvh->leafVertices, (size_t)bvh->triangleCount * sizeof( pdVec3[3] ) );
	pdFree( bvh->leafLo, (size_t)bvh->triangleCount * sizeof( pdVec3 ) );
	pdFree( bvh->leafHi, (size_t)bvh->triangleCount * sizeof( pdVec3 ) );
	pdFree( bvh->leafPlanes, (size_t)bvh->triangleCount * sizeof( pdTrianglePlane ) );
	if ( bvh->triangleOrder != NULL )
	{
		pdFree( bvh->triangleOrder, (size_t)bvh->triangleCount * sizeof( int ) );
	}
	memset( bvh, 0, sizeof( *bvh ) );
}
