// SPDX-License-Identifier: MIT
// BVH construction: top-down, object-median splits along the fitted box's longest axis, one
// oriented box per node (principal axes of the node's vertices, or the mesh-frame AABB when
// that box is smaller). Iterative (explicit task stack), depth capped at PDI_BVH_MAX_DEPTH.
#include "bvh.h"

#include "core.h"
#include "eigen.h"
#include "mesh.h"

#include <string.h>

#define PDI_BVH_PI 3.14159265358979323846

typedef struct pdiBuildTask
{
	int start, count;
	int parent; ///< node whose right-child index to patch, -1 for the root / a left child
	int depth;
} pdiBuildTask;

// Thresholds the node boxes' principal axes are computed with: rotations whose entry is
// negligible against the gap between the two diagonal entries are skipped.
static const pdiEigenDef pdiBvhEigenDef = { .stopFloor = 0.0, .skipFloor = 1e-300, .skipRelative = 1e-14 };

// Fits the box of the triangles order[0..count) into node (principal axes or AABB).
static void pdiFitNode( pdiBvhNode* node, const pdMesh* mesh, const int* order, int count, double pad )
{
	pdVec3 mean = pdiV3( 0.0, 0.0, 0.0 );
	pdVec3 lo = pdiV3( INFINITY, INFINITY, INFINITY ), hi = pdiV3( -INFINITY, -INFINITY, -INFINITY );
	for ( int k = 0; k < count; ++k )
	{
		const int* tri = mesh->triangles[order[k]];
		for ( int m = 0; m < 3; ++m )
		{
			pdVec3 p = mesh->vertices[tri[m]];
			mean = pdiAdd( mean, p );
			lo = pdiMin3( lo, p );
			hi = pdiMax3( hi, p );
		}
	}
	mean = pdiScale( mean, 1.0 / ( 3.0 * count ) );

	double cov[3][3] = { { 0 } };
	for ( int k = 0; k < count; ++k )
	{
		const int* tri = mesh->triangles[order[k]];
		for ( int m = 0; m < 3; ++m )
		{
			pdVec3 d = pdiSub( mesh->vertices[tri[m]], mean );
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
	pdiSymmetricEigen( cov, &pdiBvhEigenDef, ev, NULL );

	// Orthonormal right-handed axes from the eigenvectors (re-orthogonalised).
	pdVec3 u0 = pdiNormalize( pdiV3( ev[0][0], ev[1][0], ev[2][0] ) );
	pdVec3 u1 = pdiV3( ev[0][1], ev[1][1], ev[2][1] );
	u1 = pdiNormalize( pdiMulAdd( u1, -pdiDot( u1, u0 ), u0 ) );
	pdVec3 u2 = pdiNormalize( pdiCross( u0, u1 ) );
	bool usable = pdiLengthSq( u0 ) > 0.5 && pdiLengthSq( u1 ) > 0.5 && pdiLengthSq( u2 ) > 0.5;

	pdVec3 aabbHalf = pdiScale( pdiSub( hi, lo ), 0.5 );
	double aabbCost = aabbHalf.x * aabbHalf.y + aabbHalf.y * aabbHalf.z + aabbHalf.z * aabbHalf.x;

	node->axes.cx = pdiV3( 1.0, 0.0, 0.0 );
	node->axes.cy = pdiV3( 0.0, 1.0, 0.0 );
	node->axes.cz = pdiV3( 0.0, 0.0, 1.0 );
	node->center = pdiScale( pdiAdd( lo, hi ), 0.5 );
	node->halfExtent = aabbHalf;

	if ( usable )
	{
		pdVec3 olo = pdiV3( INFINITY, INFINITY, INFINITY ), ohi = pdiV3( -INFINITY, -INFINITY, -INFINITY );
		for ( int k = 0; k < count; ++k )
		{
			const int* tri = mesh->triangles[order[k]];
			for ( int m = 0; m < 3; ++m )
			{
				pdVec3 p = mesh->vertices[tri[m]];
				pdVec3 q = pdiV3( pdiDot( p, u0 ), pdiDot( p, u1 ), pdiDot( p, u2 ) );
				olo = pdiMin3( olo, q );
				ohi = pdiMax3( ohi, q );
			}
		}
		pdVec3 half = pdiScale( pdiSub( ohi, olo ), 0.5 );
		double cost = half.x * half.y + half.y * half.z + half.z * half.x;
		if ( cost < aabbCost )
		{
			pdVec3 mid = pdiScale( pdiAdd( olo, ohi ), 0.5 );
			node->axes.cx = u0;
			node->axes.cy = u1;
			node->axes.cz = u2;
			node->center = pdiAdd( pdiAdd( pdiScale( u0, mid.x ), pdiScale( u1, mid.y ) ), pdiScale( u2, mid.z ) );
			node->halfExtent = half;
		}
	}
	// Pad for rounding in the fit so the box provably contains its triangles.
	node->halfExtent = pdiAdd( node->halfExtent, pdiV3( pad, pad, pad ) );
}

// Partially orders order[0..count) by key so that the first k entries hold the k smallest keys.
static void pdiSelect( int* order, double* key, int count, int k )
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

// The cone of unit vectors within half-angle `angle` of axis, as a pdiBvhCone.
static pdiBvhCone pdiMakeCone( pdVec3 axis, double angle )
{
	pdiBvhCone c;
	c.axis = axis;
	c.spread = angle < 0.5 * PDI_BVH_PI ? sin( angle ) : 2.0;
	return c;
}

static double pdiAngleBetween( pdVec3 a, pdVec3 b )
{
	return atan2( pdiLength( pdiCross( a, b ) ), pdiDot( a, b ) );
}

// Bottom-up: a leaf's cone is centred on its normals' mean and reaches the farthest one; a
// parent's is centred between its children's axes and reaches both children's cones.
static void pdiBvh_FitCones( pdiBvh* bvh, const struct pdMesh* mesh )
{
	const double slack = 1e-9; // rounding of the angles
	for ( int i = bvh->nodeCount - 1; i >= 0; --i )
	{
		const pdiBvhNode* node = bvh->nodes + i;
		pdVec3 sum = pdiV3( 0.0, 0.0, 0.0 );
		double angle = 0.0;
		if ( node->count > 0 )
		{
			for ( int k = 0; k < node->count; ++k )
			{
				sum = pdiAdd( sum, mesh->faceNormals[bvh->triangleOrder[node->start + k]] );
			}
			pdVec3 axis = pdiNormalize( sum );
			if ( !( pdiLengthSq( axis ) > 0.5 ) )
			{
				bvh->cones[i] = pdiMakeCone( pdiV3( 1.0, 0.0, 0.0 ), PDI_BVH_PI );
				continue;
			}
			for ( int k = 0; k < node->count; ++k )
			{
				angle = fmax( angle, pdiAngleBetween( axis, mesh->faceNormals[bvh->triangleOrder[node->start + k]] ) );
			}
			bvh->cones[i] = pdiMakeCone( axis, angle + slack );
			continue;
		}
		const pdiBvhCone* left = bvh->cones + i + 1;
		const pdiBvhCone* right = bvh->cones + node->start;
		if ( left->spread > 1.0 || right->spread > 1.0 )
		{
			bvh->cones[i] = pdiMakeCone( pdiV3( 1.0, 0.0, 0.0 ), PDI_BVH_PI );
			continue;
		}
		pdVec3 axis = pdiNormalize( pdiAdd( left->axis, right->axis ) );
		if ( !( pdiLengthSq( axis ) > 0.5 ) )
		{
			bvh->cones[i] = pdiMakeCone( pdiV3( 1.0, 0.0, 0.0 ), PDI_BVH_PI );
			continue;
		}
		angle = fmax( pdiAngleBetween( axis, left->axis ) + asin( left->spread ),
					  pdiAngleBetween( axis, right->axis ) + asin( right->spread ) );
		bvh->cones[i] = pdiMakeCone( axis, angle + slack );
	}
}

pdStatus pdiBvh_Build( pdiBvh* outBvh, const struct pdMesh* mesh )
{
	memset( outBvh, 0, sizeof( *outBvh ) );
	int n = mesh->triangleCount;
	if ( n <= 0 )
	{
		return PD_STATUS_OK;
	}
	int maxNodes = 2 * n;
	pdiBvhNode* nodes = pdiAlloc( (size_t)maxNodes * sizeof( pdiBvhNode ) );
	int* order = pdiAlloc( (size_t)n * sizeof( int ) );
	double* key = pdiAlloc( (size_t)n * sizeof( double ) );
	pdVec3* centroid = pdiAlloc( (size_t)n * sizeof( pdVec3 ) );
	pdiBuildTask* tasks = pdiAlloc( ( PDI_BVH_MAX_DEPTH + 2 ) * sizeof( pdiBuildTask ) );
	if ( nodes == NULL || order == NULL || key == NULL || centroid == NULL || tasks == NULL )
	{
		pdiFree( nodes, (size_t)maxNodes * sizeof( pdiBvhNode ) );
		pdiFree( order, (size_t)n * sizeof( int ) );
		pdiFree( key, (size_t)n * sizeof( double ) );
		pdiFree( centroid, (size_t)n * sizeof( pdVec3 ) );
		pdiFree( tasks, ( PDI_BVH_MAX_DEPTH + 2 ) * sizeof( pdiBuildTask ) );
		return PD_STATUS_OUT_OF_MEMORY;
	}
	for ( int i = 0; i < n; ++i )
	{
		pdVec3 v[3];
		pdiMesh_TriangleVertices( mesh, i, v );
		order[i] = i;
		centroid[i] = pdiScale( pdiAdd( pdiAdd( v[0], v[1] ), v[2] ), 1.0 / 3.0 );
	}
	pdVec3 span = pdiSub( mesh->boundsMax, mesh->boundsMin );
	double extent = fmax( fmax( fabs( mesh->boundsMax.x ), fabs( mesh->boundsMin.x ) ),
						  fmax( fmax( fabs( mesh->boundsMax.y ), fabs( mesh->boundsMin.y ) ),
								fmax( fabs( mesh->boundsMax.z ), fabs( mesh->boundsMin.z ) ) ) );
	double pad = 1e-13 * ( pdiLength( span ) + extent ) + 1e-300;

	int nodeCount = 0, depth = 0, taskCount = 0;
	tasks[taskCount++] = ( pdiBuildTask ){ 0, n, -1, 1 };
	// Each task creates one node and there are at most 2n - 1 of them.
	for ( int guard = 0; guard < maxNodes && taskCount > 0; ++guard )
	{
		pdiBuildTask task = tasks[--taskCount];
		int index = nodeCount++;
		pdiBvhNode* node = nodes + index;
		if ( task.parent >= 0 )
		{
			nodes[task.parent].start = index;
		}
		depth = task.depth > depth ? task.depth : depth;
		pdiFitNode( node, mesh, order + task.start, task.count, pad );

		if ( task.count <= PDI_BVH_LEAF_SIZE || task.depth >= PDI_BVH_MAX_DEPTH )
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
			key[k] = pdiDot( centroid[sub[k]], axis );
		}
		int half = task.count / 2;
		pdiSelect( sub, key, task.count, half );

		node->start = -1;
		node->count = 0;
		// Right first so the left child is popped next and lands at index + 1.
		tasks[taskCount++] = ( pdiBuildTask ){ task.start + half, task.count - half, index, task.depth + 1 };
		tasks[taskCount++] = ( pdiBuildTask ){ task.start, half, -1, task.depth + 1 };
	}
	PDI_ASSERT( taskCount == 0 );

	pdiFree( key, (size_t)n * sizeof( double ) );
	pdiFree( centroid, (size_t)n * sizeof( pdVec3 ) );
	pdiFree( tasks, ( PDI_BVH_MAX_DEPTH + 2 ) * sizeof( pdiBuildTask ) );
	if ( nodeCount < maxNodes )
	{
		pdiBvhNode* shrunk =
			pdiRealloc( nodes, (size_t)maxNodes * sizeof( pdiBvhNode ), (size_t)nodeCount * sizeof( pdiBvhNode ) );
		if ( shrunk != NULL )
		{
			nodes = shrunk;
			maxNodes = nodeCount;
		}
	}
	outBvh->nodes = nodes;
	outBvh->nodeCount = nodeCount;
	outBvh->nodeBytes = (size_t)maxNodes * sizeof( pdiBvhNode );
	outBvh->triangleOrder = order;
	outBvh->triangleCount = n;
	outBvh->depth = depth;
	// Normal cones are an accelerator only: without memory for them the CCD culls per triangle.
	outBvh->cones = pdiAlloc( (size_t)nodeCount * sizeof( pdiBvhCone ) );
	if ( outBvh->cones != NULL )
	{
		pdiBvh_FitCones( outBvh, mesh );
	}
	outBvh->leafVertices = pdiAlloc( (size_t)n * sizeof( pdVec3[3] ) );
	outBvh->leafLo = pdiAlloc( (size_t)n * sizeof( pdVec3 ) );
	outBvh->leafHi = pdiAlloc( (size_t)n * sizeof( pdVec3 ) );
	outBvh->leafPlanes = pdiAlloc( (size_t)n * sizeof( pdiTrianglePlane ) );
	if ( outBvh->leafVertices == NULL || outBvh->leafLo == NULL || outBvh->leafHi == NULL ||
		 outBvh->leafPlanes == NULL )
	{
		pdiBvh_Destroy( outBvh );
		return PD_STATUS_OUT_OF_MEMORY;
	}
	for ( int k = 0; k < n; ++k )
	{
		pdiMesh_TriangleVertices( mesh, order[k], outBvh->leafVertices[k] );
		pdiTriangleBox( outBvh->leafVertices[k], outBvh->leafLo + k, outBvh->leafHi + k );
		pdiTrianglePlane_Make( outBvh->leafVertices[k], outBvh->leafPlanes + k );
	}
	outBvh->bytes = outBvh->nodeBytes +
					(size_t)n * ( sizeof( int ) + sizeof( pdVec3[3] ) + 2 * sizeof( pdVec3 ) + sizeof( pdiTrianglePlane ) ) +
					( outBvh->cones != NULL ? (size_t)nodeCount * sizeof( pdiBvhCone ) : 0 );
	return PD_STATUS_OK;
}

void pdiBvh_Destroy( pdiBvh* bvh )
{
	if ( bvh->nodes != NULL )
	{
		pdiFree( bvh->nodes, bvh->nodeBytes );
	}
	if ( bvh->cones != NULL )
	{
		pdiFree( bvh->cones, (size_t)bvh->nodeCount * sizeof( pdiBvhCone ) );
	}
	pdiFree( bvh->leafVertices, (size_t)bvh->triangleCount * sizeof( pdVec3[3] ) );
	pdiFree( bvh->leafLo, (size_t)bvh->triangleCount * sizeof( pdVec3 ) );
	pdiFree( bvh->leafHi, (size_t)bvh->triangleCount * sizeof( pdVec3 ) );
	pdiFree( bvh->leafPlanes, (size_t)bvh->triangleCount * sizeof( pdiTrianglePlane ) );
	if ( bvh->triangleOrder != NULL )
	{
		pdiFree( bvh->triangleOrder, (size_t)bvh->triangleCount * sizeof( int ) );
	}
	memset( bvh, 0, sizeof( *bvh ) );
}
