// SPDX-License-Identifier: MIT
// Static collision between two posed meshes: simultaneous depth-first descent of both BVHs
// (explicit stack in the workspace), exact triangle-pair intersection at the leaves, and a
// containment test for closed meshes when no surface pair intersects.
#include "core.h"
#include "proximity.h"
#include "tri_distance.h"

#include <string.h>

typedef struct pdPairEntry
{
	int a, b;
} pdPairEntry;

bool pdCollide_Containment( const pdMesh* meshA, const pdMesh* meshB, const pdFrame* rel, pdWorkspace* ws )
{
	// No surface crossing: each connected part is wholly inside or outside, so one vertex
	// decides (for the component it belongs to).
	if ( meshB->closed )
	{
		pdVec3 p = pdFrameApply( rel, meshA->vertices[meshA->triangles[0][0]] );
		if ( pdMesh_ContainsPoint( meshB, p, ws ) )
		{
			return true;
		}
	}
	if ( meshA->closed )
	{
		pdVec3 p = pdMulMTV( &rel->r, pdSub( meshB->vertices[meshB->triangles[0][0]], rel->p ) );
		return pdMesh_ContainsPoint( meshA, p, ws );
	}
	return false;
}

pdCollideDef pdDefaultCollideDef( void )
{
	pdCollideDef def;
	memset( &def, 0, sizeof( def ) );
	def.reportAllPairs = false;
	def.maxPairs = 4096;
	def.checkContainment = true;
	def.maxNodeVisits = 50000000;
	def.internalValue = PD_SECRET_COOKIE;
	return def;
}

static bool pdBoundsOverlap( pdVec3 loA, pdVec3 hiA, pdVec3 loB, pdVec3 hiB )
{
	return loA.x <= hiB.x && loB.x <= hiA.x && loA.y <= hiB.y && loB.y <= hiA.y && loA.z <= hiB.z && loB.z <= hiA.z;
}

// Appends a pair; false when the cap is reached (the pair is then not stored).
static bool pdPushPair( pdWorkspace* ws, int* count, int maxPairs, int ta, int tb, bool* outOfMemory )
{
	if ( *count >= maxPairs )
	{
		return false;
	}
	if ( !pdBuffer_Reserve( &ws->pairs, (size_t)( *count + 1 ) * sizeof( pdTrianglePair ), true ) )
	{
		*outOfMemory = true;
		return false;
	}
	pdTrianglePair* pairs = ws->pairs.data;
	pairs[*count] = ( pdTrianglePair ){ ta, tb };
	*count += 1;
	return true;
}

pdStatus pdCollide( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB, const pdTransform* poseB,
					const pdCollideDef* def, pdWorkspace* ws, pdCollideResult* outResult )
{
	if ( outResult == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	memset( outResult, 0, sizeof( *outResult ) );
	pdCollideDef defaults = pdDefaultCollideDef();
	if ( def == NULL )
	{
		def = &defaults;
	}
	pdStatus status = PD_STATUS_OK;
	pdFrame frameA, frameB;
	if ( def->internalValue != PD_SECRET_COOKIE )
	{
		status = PD_STATUS_DEF_NOT_INITIALIZED;
	}
	else if ( def->maxPairs < 0 || def->maxNodeVisits <= 0 )
	{
		status = PD_STATUS_INVALID_DEF;
	}
	else if ( !pdIsValidMesh( meshA ) || !pdIsValidMesh( meshB ) )
	{
		status = PD_STATUS_INVALID_MESH;
	}
	else if ( !pdIsValidWorkspace( ws ) )
	{
		status = PD_STATUS_INVALID_ARGUMENT;
	}
	else if ( ( status = pdMakeFrame( poseA, &frameA ) ) == PD_STATUS_OK )
	{
		status = pdMakeFrame( poseB, &frameB );
		if ( status == PD_STATUS_OK && ( !pdIsUsablePosition( frameA.p ) || !pdIsUsablePosition( frameB.p ) ) )
		{
			status = PD_STATUS_INVALID_POSE;
		}
	}
	if ( status != PD_STATUS_OK )
	{
		outResult->status = status;
		return status;
	}
	const pdBvh* bvhA = &meshA->bvh;
	const pdBvh* bvhB = &meshB->bvh;
	if ( bvhA->nodeCount == 0 || bvhB->nodeCount == 0 ||
		 !pdBuffer_Reserve( &ws->stack, PD_BVH_PAIR_STACK * sizeof( pdPairEntry ), false ) )
	{
		outResult->status = PD_STATUS_OUT_OF_MEMORY;
		return outResult->status;
	}
	pdFrame rel = pdRelativeFrame( &frameA, &frameB );
	int maxPairs = def->reportAllPairs ? def->maxPairs : ( def->maxPairs > 0 ? 1 : 0 );
	pdPairEntry* stack = ws->stack.data;
	int top = 0, visits = 0, pairCount = 0;
	bool anyHit = false, done = false, outOfMemory = false;
	pdBvhPair rootPair;
	pdBvh_RelatePair( bvhA->nodes, bvhB->nodes, &rel, &rootPair );
	bool rootsOverlap = pdBvh_PairOverlap( &rootPair, bvhA->nodes, bvhB->nodes, 0.0 );
	if ( rootsOverlap )
	{
		stack[top++] = ( pdPairEntry ){ 0, 0 };
	}

	while ( top > 0 && !done )
	{
		if ( visits >= def->maxNodeVisits )
		{
			status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		++visits;
		pdPairEntry e = stack[--top];
		const pdBvhNode* na = bvhA->nodes + e.a;
		const pdBvhNode* nb = bvhB->nodes + e.b;
		// Entries on the stack already overlap (tested when pushed).
		if ( na->count > 0 && nb->count > 0 )
		{
			for ( int chunk = 0; chunk < nb->count && !done; chunk += PD_BVH_LEAF_SIZE )
			{
				pdLeafChunk cb;
				pdLeafChunk_Load( meshB, nb, chunk, &cb );
				for ( int i = 0; i < na->count && !done; ++i )
				{
					int ta = bvhA->triangleOrder[na->start + i];
					pdVec3 va[3], loA, hiA;
					pdMesh_MovedLeafTriangle( meshA, na->start + i, &rel, va, &loA, &hiA );
					if ( !pdBoundsOverlap( loA, hiA, cb.allLo, cb.allHi ) )
					{
						continue;
					}
					for ( int j = 0; j < cb.count; ++j )
					{
						if ( !pdBoundsOverlap( loA, hiA, cb.lo[j], cb.hi[j] ) || !pdTrianglesIntersect( va, cb.v[j] ) )
						{
							continue;
						}
						int tb = cb.index[j];
						anyHit = true;
						if ( !pdPushPair( ws, &pairCount, maxPairs, ta, tb, &outOfMemory ) )
						{
							// The cap only counts as a limit when the caller wanted every pair.
							if ( def->reportAllPairs && !outOfMemory )
							{
								status = PD_STATUS_FEATURE_LIMIT;
							}
							done = true;
							break;
						}
						if ( !def->reportAllPairs )
						{
							done = true;
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
		pdPairEntry c0, c1;
		if ( pdBvh_DescendA( na, nb ) )
		{
			c0 = ( pdPairEntry ){ e.a + 1, e.b };
			c1 = ( pdPairEntry ){ na->start, e.b };
		}
		else
		{
			c0 = ( pdPairEntry ){ e.a, e.b + 1 };
			c1 = ( pdPairEntry ){ e.a, nb->start };
		}
		// Test both children now; the pair with the closer centres goes on top (more likely
		// to hold an intersection, which ends a first-hit query).
		pdBvhPair p0, p1;
		const pdBvhNode* a0 = bvhA->nodes + c0.a;
		const pdBvhNode* b0 = bvhB->nodes + c0.b;
		const pdBvhNode* a1 = bvhA->nodes + c1.a;
		const pdBvhNode* b1 = bvhB->nodes + c1.b;
		pdBvh_RelateChildren( bvhA->nodes, bvhB->nodes, c0.a, c0.b, c1.a, c1.b, &rel, &p0, &p1 );
		bool o0 = pdBvh_PairOverlap( &p0, a0, b0, 0.0 );
		bool o1 = pdBvh_PairOverlap( &p1, a1, b1, 0.0 );
		double d0 = p0.t[0] * p0.t[0] + p0.t[1] * p0.t[1] + p0.t[2] * p0.t[2];
		double d1 = p1.t[0] * p1.t[0] + p1.t[1] * p1.t[1] + p1.t[2] * p1.t[2];
		if ( d0 <= d1 )
		{
			if ( o1 )
			{
				stack[top++] = c1;
			}
			if ( o0 )
			{
				stack[top++] = c0;
			}
		}
		else
		{
			if ( o0 )
			{
				stack[top++] = c0;
			}
			if ( o1 )
			{
				stack[top++] = c1;
			}
		}
	}
	if ( outOfMemory )
	{
		status = PD_STATUS_OUT_OF_MEMORY;
	}

	bool containment = false;
	if ( !anyHit && status == PD_STATUS_OK && def->checkContainment && ( meshA->closed || meshB->closed ) )
	{
		if ( rootsOverlap )
		{
			containment = pdCollide_Containment( meshA, meshB, &rel, ws );
		}
	}

	if ( status < 0 )
	{
		memset( outResult, 0, sizeof( *outResult ) );
		outResult->status = status;
		return status;
	}
	outResult->status = status;
	outResult->colliding = anyHit || containment;
	outResult->containment = containment;
	outResult->pairCount = pairCount;
	outResult->pairs = pairCount > 0 ? ws->pairs.data : NULL;
	outResult->nodeVisits = visits;
	return status;
}
