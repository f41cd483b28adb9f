// SPDX-License-Identifier: MIT
// Private: what the two-mesh BVH queries (collide.c, distance.c, ccd.c) share: the argument
// checks and frames every query starts with, and the split of an internal node pair into its
// two child pairs.
#pragma once

#include "core.h"
#include "mesh.h"
#include "workspace.h"

/// The mesh frames of a two-mesh query and A's frame relative to B's (rel maps A's mesh frame
/// into B's mesh frame; the traversals work in B's frame).
typedef struct pdiPairFrames
{
	pdiFrame a, b, rel;
} pdiPairFrames;

/// PD_STATUS_DEF_NOT_INITIALIZED unless a def's cookie says it came from its pdDefaultXxxDef();
/// a query reads the def's other fields (its range check) only after PD_STATUS_OK here.
static inline pdStatus pdiPairQuery_DefStatus( int internalValue )
{
	return internalValue == PDI_SECRET_COOKIE ? PD_STATUS_OK : PD_STATUS_DEF_NOT_INITIALIZED;
}

/// The checks a two-mesh query runs after its def's (defStatus: PD_STATUS_OK,
/// PD_STATUS_DEF_NOT_INITIALIZED or PD_STATUS_INVALID_DEF, returned as it is when not OK): both
/// meshes valid, a valid workspace, both poses usable. On PD_STATUS_OK outFrames holds
/// both frames and the relative frame.
static inline pdStatus pdiPairQuery_Check( pdStatus defStatus, const pdMesh* meshA, const pdTransform* poseA,
										  const pdMesh* meshB, const pdTransform* poseB, const pdWorkspace* ws,
										  pdiPairFrames* outFrames )
{
	if ( defStatus != PD_STATUS_OK )
	{
		return defStatus;
	}
	if ( !pdiIsValidMesh( meshA ) || !pdiIsValidMesh( meshB ) )
	{
		return PD_STATUS_INVALID_MESH;
	}
	if ( !pdiIsValidWorkspace( ws ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdStatus status = pdiMakeFrame( poseA, &outFrames->a );
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	status = pdiMakeFrame( poseB, &outFrames->b );
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	if ( !pdiIsUsablePosition( outFrames->a.p ) || !pdiIsUsablePosition( outFrames->b.p ) )
	{
		return PD_STATUS_INVALID_POSE;
	}
	outFrames->rel = pdiRelativeFrame( &outFrames->a, &outFrames->b );
	return PD_STATUS_OK;
}

/// The frames of two poses, for a kernel whose caller checked the def, meshes and workspace:
/// PD_STATUS_INVALID_POSE for a pose a stage derived out of range (a translation grown past
/// what the frames can hold), as pdiPairQuery_Check says of a caller's pose.
static inline pdStatus pdiPairQuery_Frames( const pdTransform* poseA, const pdTransform* poseB,
											pdiPairFrames* outFrames )
{
	pdStatus status = pdiMakeFrame( poseA, &outFrames->a );
	if ( status == PD_STATUS_OK )
	{
		status = pdiMakeFrame( poseB, &outFrames->b );
	}
	if ( status == PD_STATUS_OK && ( !pdiIsUsablePosition( outFrames->a.p ) || !pdiIsUsablePosition( outFrames->b.p ) ) )
	{
		status = PD_STATUS_INVALID_POSE;
	}
	outFrames->rel = pdiRelativeFrame( &outFrames->a, &outFrames->b );
	return status;
}

/// True when both meshes have a BVH to traverse (a query reports PD_STATUS_OUT_OF_MEMORY
/// otherwise: the tree's allocation is what failed).
static inline bool pdiPairQuery_HasTrees( const pdMesh* meshA, const pdMesh* meshB )
{
	return meshA->bvh.nodeCount > 0 && meshB->bvh.nodeCount > 0;
}

/// The two child pairs of an internal node pair (a, b): A's children with b when pdiBvh_DescendA
/// splits A, else a with B's children. Child 0 is the node's first child (its index + 1),
/// child 1 its second (node->start).
typedef struct pdiChildPairs
{
	int a0, b0, a1, b1;
} pdiChildPairs;

static inline pdiChildPairs pdiPairQuery_Split( const pdiBvhNode* na, const pdiBvhNode* nb, int a, int b )
{
	pdiChildPairs c;
	if ( pdiBvh_DescendA( na, nb ) )
	{
		c.a0 = a + 1;
		c.a1 = na->start;
		c.b0 = c.b1 = b;
	}
	else
	{
		c.a0 = c.a1 = a;
		c.b0 = b + 1;
		c.b1 = nb->start;
	}
	return c;
}
