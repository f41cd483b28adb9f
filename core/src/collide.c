// SPDX-License-Identifier: MIT
// Static collision between two posed meshes: simultaneous depth-first descent of both BVHs
// (explicit stack in the workspace), exact triangle-pair intersection at the leaves, and a
// containment test for closed meshes when no surface pair intersects.
#include "core.h"
#include "kernels.h"
#include "pair_query.h"
#include "proximity.h"
#include "tri_distance.h"

#include <string.h>

typedef struct pdiPairEntry
{
	int a, b;
} pdiPairEntry;

bool pdiCollide_Containment( const pdMesh* meshA, const pdMesh* meshB, const pdiFrame* rel, pdWorkspace* ws )
{
	// No surface crossing: each connected part is wholly inside or outside, so one vertex
	// decides (for the component it belongs to).
	if ( meshB->closed )
	{
		pdVec3 p = pdiFrameApply( rel, meshA->vertices[meshA->triangles[0][0]] );
		if ( pdiMesh_ContainsPoint( meshB, p, ws ) )
		{
			return true;
		}
	}
	if ( meshA->closed )
	{
		pdVec3 p = pdiMulMTV( &rel->r, pdiSub( meshB->vertices[meshB->triangles[0][0]], rel->p ) );
		return pdiMesh_ContainsPoint( meshA, p, ws );
	}
	return false;
}

pdCollideDef pdiCollideDefaults( void )
{
	pdCollideDef def;
	memset( &def, 0, sizeof( def ) );
	def.reportAllPairs = false;
	def.maxPairs = 4096;
	def.checkContainment = true;
	def.maxNodeVisits = 50000000;
	def.internalValue = PDI_SECRET_COOKIE;
	return def;
}

static bool pdiBoundsOverlap( pdVec3 loA, pdVec3 hiA, pdVec3 loB, pdVec3 hiB )
{
	return loA.x <= hiB.x && loB.x <= hiA.x && loA.y <= hiB.y && loB.y <= hiA.y && loA.z <= hiB.z && loB.z <= hiA.z;
}

// Appends a pair; false when the cap is reached (the pair is then not stored).
static bool pdiPushPair( pdWorkspace* ws, int* count, int maxPairs, int ta, int tb, bool* outOfMemory )
{
	if ( *count >= maxPairs )
	{
		return false;
	}
	if ( !pdiBuffer_Reserve( &ws->pairs, (size_t)( *count + 1 ) * sizeof( pdTrianglePair ), true ) )
	{
		*outOfMemory = true;
		return false;
	}
	pdTrianglePair* pairs = ws->pairs.data;
	pairs[*count] = ( pdTrianglePair ){ ta, tb };
	*count += 1;
	return true;
}

// One static collision query: the frames, the traversal's stack and counters, what it found.
typedef struct pdiCollideSearch
{
	const pdMesh* meshA;
	const pdMesh* meshB;
	const pdCollideDef* def;
	pdWorkspace* ws;
	pdiFrame rel;      ///< A's mesh frame in B's mesh frame
	int maxPairs;     ///< pairs stored at most (1 for a first-hit query)
	int pairCount;    ///< pairs stored in ws->pairs
	int visits;       ///< node pairs visited
	pdStatus status;  ///< PD_STATUS_OK, or the limit that ended the traversal
	bool anyHit;      ///< some triangle pair intersects
	bool done;        ///< the query has its answer (first hit, or the pair cap reached)
	bool outOfMemory; ///< storing a pair failed
} pdiCollideSearch;

// Tests the triangle pairs of the leaf pair (na, nb) and stores the intersecting ones; sets done
// when a first-hit query has its hit or the pair cap is reached.
static void pdiCollide_Leaves( pdiCollideSearch* s, const pdiBvhNode* na, const pdiBvhNode* nb )
{
	const pdiBvh* bvhA = &s->meshA->bvh;
	for ( int chunk = 0; chunk < nb->count && !s->done; chunk += PDI_BVH_LEAF_SIZE )
	{
		pdiLeafChunk cb;
		pdiLeafChunk_Load( s->meshB, nb, chunk, &cb );
		for ( int i = 0; i < na->count && !s->done; ++i )
		{
			int ta = bvhA->triangleOrder[na->start + i];
			pdVec3 va[3], loA, hiA;
			pdiMesh_MovedLeafTriangle( s->meshA, na->start + i, &s->rel, va, &loA, &hiA );
			if ( !pdiBoundsOverlap( loA, hiA, cb.allLo, cb.allHi ) )
			{
				continue;
			}
			for ( int j = 0; j < cb.count; ++j )
			{
				if ( !pdiBoundsOverlap( loA, hiA, cb.lo[j], cb.hi[j] ) || !pdiTrianglesIntersect( va, cb.v[j] ) )
				{
					continue;
				}
				int tb = cb.index[j];
				s->anyHit = true;
				if ( !pdiPushPair( s->ws, &s->pairCount, s->maxPairs, ta, tb, &s->outOfMemory ) )
				{
					// The cap only counts as a limit when the caller wanted every pair.
					if ( s->def->reportAllPairs && !s->outOfMemory )
					{
						s->status = PD_STATUS_FEATURE_LIMIT;
					}
					s->done = true;
					break;
				}
				if ( !s->def->reportAllPairs )
				{
					s->done = true;
					break;
				}
			}
		}
	}
}

// Tests both child pairs of the internal pair e and pushes the overlapping ones, the pair with
// the closer centres on top (more likely to hold an intersection, which ends a first-hit
// query). The caller has checked that the stack has room for two.
static void pdiCollide_PushChildren( const pdiCollideSearch* s, pdiPairEntry e, pdiPairEntry* stack, int* top )
{
	const pdiBvh* bvhA = &s->meshA->bvh;
	const pdiBvh* bvhB = &s->meshB->bvh;
	pdiChildPairs c = pdiPairQuery_Split( bvhA->nodes + e.a, bvhB->nodes + e.b, e.a, e.b );
	pdiPairEntry c0 = { c.a0, c.b0 }, c1 = { c.a1, c.b1 };
	pdiBvhPair p0, p1;
	pdiBvh_RelateChildren( bvhA->nodes, bvhB->nodes, c0.a, c0.b, c1.a, c1.b, &s->rel, &p0, &p1 );
	bool o0 = pdiBvh_PairOverlap( &p0, bvhA->nodes + c0.a, bvhB->nodes + c0.b, 0.0 );
	bool o1 = pdiBvh_PairOverlap( &p1, bvhA->nodes + c1.a, bvhB->nodes + c1.b, 0.0 );
	double d0 = p0.t[0] * p0.t[0] + p0.t[1] * p0.t[1] + p0.t[2] * p0.t[2];
	double d1 = p1.t[0] * p1.t[0] + p1.t[1] * p1.t[1] + p1.t[2] * p1.t[2];
	bool firstOnTop = d0 <= d1;
	pdiPairEntry under = firstOnTop ? c1 : c0, over = firstOnTop ? c0 : c1;
	bool pushUnder = firstOnTop ? o1 : o0, pushOver = firstOnTop ? o0 : o1;
	if ( pushUnder )
	{
		stack[( *top )++] = under;
	}
	if ( pushOver )
	{
		stack[( *top )++] = over;
	}
}

// Depth-first descent from the root pair (pushed when the roots overlap, so every entry on the
// stack overlaps) until the stack empties, the query is done or a cap is hit.
static void pdiCollide_Traverse( pdiCollideSearch* s, bool rootsOverlap )
{
	const pdiBvh* bvhA = &s->meshA->bvh;
	const pdiBvh* bvhB = &s->meshB->bvh;
	pdiPairEntry* stack = s->ws->stack.data;
	int top = 0;
	if ( rootsOverlap )
	{
		stack[top++] = ( pdiPairEntry ){ 0, 0 };
	}
	while ( top > 0 && !s->done )
	{
		if ( s->visits >= s->def->maxNodeVisits )
		{
			s->status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		++s->visits;
		pdiPairEntry e = stack[--top];
		const pdiBvhNode* na = bvhA->nodes + e.a;
		const pdiBvhNode* nb = bvhB->nodes + e.b;
		if ( na->count > 0 && nb->count > 0 )
		{
			pdiCollide_Leaves( s, na, nb );
			continue;
		}
		if ( top + 2 > PDI_BVH_PAIR_STACK )
		{
			s->status = PD_STATUS_TRAVERSAL_LIMIT;
			break;
		}
		pdiCollide_PushChildren( s, e, stack, &top );
	}
}

pdCollideDef pdDefaultCollideDef( void )
{
	return pdiCollideDefaults();
}

pdStatus pdiCollide( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB, const pdTransform* poseB,
					 const pdCollideDef* def, pdWorkspace* ws, pdCollideResult* outResult )
{
	memset( outResult, 0, sizeof( *outResult ) );
	pdiPairFrames frames;
	pdStatus status = pdiPairQuery_Frames( poseA, poseB, &frames );
	if ( status == PD_STATUS_OK &&
		 ( !pdiPairQuery_HasTrees( meshA, meshB ) ||
		   !pdiBuffer_Reserve( &ws->stack, PDI_BVH_PAIR_STACK * sizeof( pdiPairEntry ), false ) ) )
	{
		status = PD_STATUS_OUT_OF_MEMORY;
	}
	if ( status != PD_STATUS_OK )
	{
		outResult->status = status;
		return status;
	}

	pdiCollideSearch s = {
		.meshA = meshA,
		.meshB = meshB,
		.def = def,
		.ws = ws,
		.rel = frames.rel,
		.maxPairs = def->reportAllPairs ? def->maxPairs : ( def->maxPairs > 0 ? 1 : 0 ),
		.status = PD_STATUS_OK,
	};
	pdiBvhPair rootPair;
	pdiBvh_RelatePair( meshA->bvh.nodes, meshB->bvh.nodes, &s.rel, &rootPair );
	bool rootsOverlap = pdiBvh_PairOverlap( &rootPair, meshA->bvh.nodes, meshB->bvh.nodes, 0.0 );
	pdiCollide_Traverse( &s, rootsOverlap );
	status = s.outOfMemory ? PD_STATUS_OUT_OF_MEMORY : s.status;

	bool containment = false;
	// No surface pair intersects: one closed mesh may still hold the other (only if the roots overlap).
	if ( !s.anyHit && status == PD_STATUS_OK && def->checkContainment && ( meshA->closed || meshB->closed ) &&
		 rootsOverlap )
	{
		containment = pdiCollide_Containment( meshA, meshB, &s.rel, ws );
	}

	if ( status < 0 )
	{
		memset( outResult, 0, sizeof( *outResult ) );
		outResult->status = status;
		return status;
	}
	outResult->status = status;
	outResult->colliding = s.anyHit || containment;
	outResult->containment = containment;
	outResult->pairCount = s.pairCount;
	outResult->pairs = s.pairCount > 0 ? ws->pairs.data : NULL;
	outResult->nodeVisits = s.visits;
	return status;
}

pdStatus pdCollide( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB, const pdTransform* poseB,
					const pdCollideDef* def, pdWorkspace* ws, pdCollideResult* outResult )
{
	if ( outResult == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	memset( outResult, 0, sizeof( *outResult ) );
	pdCollideDef defaults = pdiCollideDefaults();
	if ( def == NULL )
	{
		def = &defaults;
	}
	pdStatus defStatus = pdiPairQuery_DefStatus( def->internalValue );
	if ( defStatus == PD_STATUS_OK && ( def->maxPairs < 0 || def->maxNodeVisits <= 0 ) )
	{
		defStatus = PD_STATUS_INVALID_DEF;
	}
	pdiPairFrames frames;
	pdStatus status = pdiPairQuery_Check( defStatus, meshA, poseA, meshB, poseB, ws, &frames );
	if ( status != PD_STATUS_OK )
	{
		outResult->status = status;
		return status;
	}
	return pdiCollide( meshA, poseA, meshB, poseB, def, ws, outResult );
}
