// SPDX-License-Identifier: MIT
// Contact features at a configuration: every VF, FV and EE pair closer than a tolerance. A BVH
// descent keeps node pairs whose boxes (B's inflated by the tolerance) overlap; leaf pairs go
// to pdTriangleOwnedContactFeatures. A feature shared by neighbouring triangles (a vertex of
// several faces, an edge of two) is tested and reported only by the triangle that owns it
// (pdMesh.featureOwnership), so each feature pair comes out once, in traversal order.
#include "core.h"
#include "proximity.h"
#include "tri_distance.h"


typedef struct pdFeatureEntry
{
	int a, b;
} pdFeatureEntry;

static void pdFillFeature( const pdMesh* mesh, int triangle, pdFeature* f )
{
	f->triangle = triangle;
	if ( f->type == PD_FEATURE_FACE )
	{
		f->index = 0;
		f->vertex = -1;
	}
	else
	{
		f->vertex = mesh->triangles[triangle][f->index];
	}
}

pdStatus pdComputeContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
								   const pdTransform* poseB, double tolerance, pdVec3 approachDirection,
								   int maxFeatures, pdWorkspace* ws, int* outCount,
								   const pdContactFeature** outFeatures )
{
	if ( outCount != NULL )
	{
		*outCount = 0;
	}
	if ( outFeatures != NULL )
	{
		*outFeatures = NULL;
	}
	if ( outCount == NULL || outFeatures == NULL || !isfinite( tolerance ) || tolerance < 0.0 || maxFeatures < 0 ||
		 !pdIsFiniteVec( approachDirection ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	if ( !pdIsValidMesh( meshA ) || !pdIsValidMesh( meshB ) )
	{
		return PD_STATUS_INVALID_MESH;
	}
	if ( !pdIsValidWorkspace( ws ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdFrame frameA, frameB;
	pdStatus status = pdMakeFrame( poseA, &frameA );
	if ( status == PD_STATUS_OK )
	{
		status = pdMakeFrame( poseB, &frameB );
	}
	if ( status == PD_STATUS_OK && ( !pdIsUsablePosition( frameA.p ) || !pdIsUsablePosition( frameB.p ) ) )
	{
		status = PD_STATUS_INVALID_POSE;
	}
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	const pdBvh* bvhA = &meshA->bvh;
	const pdBvh* bvhB = &meshB->bvh;
	if ( bvhA->nodeCount == 0 || bvhB->nodeCount == 0 ||
		 !pdBuffer_Reserve( &ws->stack, PD_BVH_PAIR_STACK * sizeof( pdFeatureEntry ), false ) )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}

	pdFrame rel = pdRelativeFrame( &frameA, &frameB );
	pdVec3 approachB = pdMulMTV( &frameB.r, approachDirection );
	// Ownership makes every reported feature pair distinct: no repeats to remove afterwards.
	int rawCap = maxFeatures;
	int rawCount = 0;
	int visits = 0;
	const int maxVisits = 50000000;
	pdFeatureEntry* stack = ws->stack.data;
	int top = 0;
	stack[top++] = ( pdFeatureEntry ){ 0, 0 };
	bool full = false;

	while ( top > 0 && !full )
	{
		if ( visits >= maxVisits )
		{
			status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		++visits;
		pdFeatureEntry e = stack[--top];
		const pdBvhNode* na = bvhA->nodes + e.a;
		const pdBvhNode* nb = bvhB->nodes + e.b;
		pdBvhPair pair;
		pdBvh_RelatePair( na, nb, &rel, &pair );
		if ( !pdBvh_PairOverlap( &pair, na, nb, tolerance ) )
		{
			continue;
		}
		if ( na->count > 0 && nb->count > 0 )
		{
			for ( int chunk = 0; chunk < nb->count && !full; chunk += PD_BVH_LEAF_SIZE )
			{
				pdLeafChunk cb;
				pdLeafChunk_Load( meshB, nb, chunk, &cb );
				for ( int i = 0; i < na->count && !full; ++i )
				{
					int ta = bvhA->triangleOrder[na->start + i];
					pdVec3 va[3], loA, hiA;
					pdMesh_MovedTriangle( meshA, ta, &rel, va, &loA, &hiA );
					if ( !pdBoxesWithin( loA, hiA, cb.allLo, cb.allHi, tolerance ) )
					{
						continue;
					}
					for ( int j = 0; j < cb.count; ++j )
					{
						if ( !pdBoxesWithin( loA, hiA, cb.lo[j], cb.hi[j], tolerance ) )
						{
							continue;
						}
						int tb = cb.index[j];
						pdContactFeature local[15];
						int n = pdTriangleOwnedContactFeatures( va, cb.v[j], tolerance, approachB,
																meshA->featureOwnership[ta],
																meshB->featureOwnership[tb], local );
						if ( n <= 0 )
						{
							continue;
						}
						if ( rawCount + n > rawCap )
						{
							full = true; // keep what fits, in traversal order
							n = rawCap - rawCount;
							if ( n <= 0 )
							{
								break;
							}
						}
						if ( !pdBuffer_Reserve( &ws->features, (size_t)( rawCount + n ) * sizeof( pdContactFeature ),
												true ) )
						{
							return PD_STATUS_OUT_OF_MEMORY;
						}
						pdContactFeature* out = (pdContactFeature*)ws->features.data + rawCount;
						for ( int k = 0; k < n; ++k )
						{
							pdContactFeature f = local[k];
							pdFillFeature( meshA, ta, &f.featureA );
							pdFillFeature( meshB, tb, &f.featureB );
							f.pointA = pdFrameApply( &frameB, f.pointA );
							f.pointB = pdFrameApply( &frameB, f.pointB );
							f.normal = pdMulMV( &frameB.r, f.normal );
							out[k] = f;
						}
						rawCount += n;
						if ( full )
						{
							break;
						}
					}
				}
			}
			continue;
		}
		if ( top + 2 > PD_BVH_PAIR_STACK )
		{
			status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		if ( pdBvh_DescendA( na, nb ) )
		{
			stack[top++] = ( pdFeatureEntry ){ na->start, e.b };
			stack[top++] = ( pdFeatureEntry ){ e.a + 1, e.b };
		}
		else
		{
			stack[top++] = ( pdFeatureEntry ){ e.a, nb->start };
			stack[top++] = ( pdFeatureEntry ){ e.a, e.b + 1 };
		}
	}

	int count = rawCount;
	if ( full && status == PD_STATUS_OK )
	{
		status = PD_STATUS_FEATURE_LIMIT;
	}
	*outCount = count;
	*outFeatures = count > 0 ? ws->features.data : NULL;
	return status;
}
