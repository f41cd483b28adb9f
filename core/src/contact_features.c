// SPDX-License-Identifier: MIT
// Contact features at a configuration: every VF, FV and EE pair closer than a tolerance. A BVH
// descent keeps node pairs whose boxes (B's inflated by the tolerance) overlap; leaf pairs go
// to pdTriangleOwnedContactFeatures. A feature shared by neighbouring triangles (a vertex of
// several faces, an edge of two) is tested and reported only by the triangle that owns it
// (pdMesh.featureOwnership), so each feature pair comes out once, in traversal order. Past
// maxFeatures the closest ones are kept.
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
	// When more than maxFeatures pairs are within the tolerance, the closest maxFeatures are
	// kept (not the first found): the list is then a bounded set ordered by nothing, the
	// farthest kept pair is tracked, and the traversal only looks for closer ones.
	int rawCap = maxFeatures;
	int rawCount = 0;
	int visits = 0;
	const int maxVisits = 50000000;
	pdFeatureEntry* stack = ws->stack.data;
	int top = 0;
	stack[top++] = ( pdFeatureEntry ){ 0, 0 };
	bool full = false;
	int worst = -1;           // index of the farthest kept pair once full
	double reach = tolerance; // node and triangle pairs farther apart than this cannot contribute
	bool stop = false;        // nothing can be kept (maxFeatures 0) and one pair was found

	while ( top > 0 && !stop )
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
		if ( !pdBvh_PairOverlap( &pair, na, nb, reach ) )
		{
			continue;
		}
		if ( na->count > 0 && nb->count > 0 )
		{
			for ( int chunk = 0; chunk < nb->count && !stop; chunk += PD_BVH_LEAF_SIZE )
			{
				pdLeafChunk cb;
				pdLeafChunk_Load( meshB, nb, chunk, &cb );
				for ( int i = 0; i < na->count && !stop; ++i )
				{
					int ta = bvhA->triangleOrder[na->start + i];
					pdVec3 va[3], loA, hiA;
					pdMesh_MovedTriangle( meshA, ta, &rel, va, &loA, &hiA );
					if ( !pdBoxesWithin( loA, hiA, cb.allLo, cb.allHi, reach ) )
					{
						continue;
					}
					for ( int j = 0; j < cb.count && !stop; ++j )
					{
						if ( !pdBoxesWithin( loA, hiA, cb.lo[j], cb.hi[j], reach ) )
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
						if ( rawCap == 0 )
						{
							full = stop = true;
							break;
						}
						if ( !pdBuffer_Reserve( &ws->features,
												(size_t)( rawCount + n < rawCap ? rawCount + n : rawCap ) *
													sizeof( pdContactFeature ),
												true ) )
						{
							return PD_STATUS_OUT_OF_MEMORY;
						}
						pdContactFeature* out = (pdContactFeature*)ws->features.data;
						for ( int k = 0; k < n; ++k )
						{
							pdContactFeature f = local[k];
							int slot = rawCount;
							if ( rawCount == rawCap )
							{
								full = true;
								if ( !( f.distance < out[worst].distance ) )
								{
									continue;
								}
								slot = worst;
							}
							pdFillFeature( meshA, ta, &f.featureA );
							pdFillFeature( meshB, tb, &f.featureB );
							f.pointA = pdFrameApply( &frameB, f.pointA );
							f.pointB = pdFrameApply( &frameB, f.pointB );
							f.normal = pdMulMV( &frameB.r, f.normal );
							out[slot] = f;
							if ( slot == rawCount )
							{
								rawCount += 1;
							}
							if ( rawCount == rawCap )
							{
								// (Re)find the farthest kept pair; only closer ones matter from here.
								worst = 0;
								for ( int q = 1; q < rawCount; ++q )
								{
									worst = out[q].distance > out[worst].distance ? q : worst;
								}
								reach = pdMinD( tolerance, pdMaxD( out[worst].distance, 0.0 ) );
							}
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

// ---------------------------------------------------------------------------------------------
// Local closeness of one feature

// Angular slack for neighbours level with the feature (a flat patch, a ring lying flat).
#define PD_LOCAL_SLACK 1e-6

// False when some vertex w among `count` lies further along dir than p (beyond the slack).
static bool pdNoneAhead( const pdMesh* mesh, const int* vertices, int count, pdVec3 p, pdVec3 dir )
{
	for ( int i = 0; i < count; ++i )
	{
		pdVec3 w = pdSub( mesh->vertices[vertices[i]], p );
		double len = pdLength( w );
		if ( len > 0.0 && pdDot( w, dir ) > PD_LOCAL_SLACK * len )
		{
			return false;
		}
	}
	return true;
}

// True when the vertex or edge f of mesh is the mesh's extreme along dir (mesh frame) among
// its neighbours: the vertices of the faces around a vertex, the opposite vertices of the two
// faces of an edge.
static bool pdFeatureIsExtreme( const pdMesh* mesh, const pdFeature* f, pdVec3 dir )
{
	if ( f->triangle < 0 || f->triangle >= mesh->triangleCount || f->index < 0 || f->index > 2 )
	{
		return true;
	}
	const int* tri = mesh->triangles[f->triangle];
	if ( f->type == PD_FEATURE_VERTEX )
	{
		int v = tri[f->index];
		int c = mesh->canonicalVertex[v];
		pdVec3 p = mesh->vertices[v];
		for ( int k = mesh->vertexFaceStart[c]; k < mesh->vertexFaceStart[c + 1]; ++k )
		{
			if ( !pdNoneAhead( mesh, mesh->triangles[mesh->vertexFaces[k]], 3, p, dir ) )
			{
				return false;
			}
		}
		return true;
	}
	if ( f->type == PD_FEATURE_EDGE )
	{
		const pdMeshEdge* e = mesh->edges + mesh->triangleEdges[f->triangle][f->index];
		if ( e->face0 < 0 || e->face1 < 0 ||
			 ( e->flags & ( PD_EDGE_BOUNDARY | PD_EDGE_NONMANIFOLD | PD_EDGE_INCONSISTENT ) ) )
		{
			return true;
		}
		pdVec3 p = mesh->vertices[tri[f->index]];
		return pdNoneAhead( mesh, mesh->triangles[e->face0], 3, p, dir ) &&
			   pdNoneAhead( mesh, mesh->triangles[e->face1], 3, p, dir );
	}
	return true;
}

bool pdContactFeature_IsExtremeAlong( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									  const pdTransform* poseB, const pdContactFeature* feature, pdVec3 direction )
{
	if ( feature == NULL || poseA == NULL || poseB == NULL || !pdIsValidMesh( meshA ) || !pdIsValidMesh( meshB ) )
	{
		return true;
	}
	double len = pdLength( direction );
	if ( !( len > 0.0 ) || !isfinite( len ) )
	{
		return true;
	}
	pdVec3 d = pdScale( direction, 1.0 / len );
	pdFrame frameA, frameB;
	if ( pdMakeFrame( poseA, &frameA ) != PD_STATUS_OK || pdMakeFrame( poseB, &frameB ) != PD_STATUS_OK )
	{
		return true;
	}
	// A's feature must be A's extreme toward B (-d), B's its extreme toward A (+d).
	pdVec3 towardB = pdMulMTV( &frameA.r, pdNeg( d ) );
	pdVec3 towardA = pdMulMTV( &frameB.r, d );
	return pdFeatureIsExtreme( meshA, &feature->featureA, towardB ) &&
		   pdFeatureIsExtreme( meshB, &feature->featureB, towardA );
}

bool pdContactFeature_IsLocallyClosest( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										const pdTransform* poseB, const pdContactFeature* feature )
{
	if ( feature == NULL )
	{
		return true;
	}
	return pdContactFeature_IsExtremeAlong( meshA, poseA, meshB, poseB, feature,
											pdSub( feature->pointA, feature->pointB ) );
}
