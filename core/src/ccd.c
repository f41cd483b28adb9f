// SPDX-License-Identifier: MIT
// Out-projection: translational continuous collision by conservative advancement on the BVHs.
// A keeps its rotation and moves from poseA->p to endPositionA, B is fixed. Node pairs get the
// exact earliest time their boxes touch under the translation (separating-axis slabs swept
// along the motion, B's box inflated by half the contact tolerance); leaf pairs get the minimal
// directional distance of their triangles, pdiTriangleTranslationToi with targetDistance =
// tolerance/2, so the contact configuration stops just short of touching. The traversal is
// best-first: pending node pairs sit in a min-heap on the earliest time their boxes can touch,
// so the pair taken next is always the one that could be hit first, and the search ends as
// soon as that time cannot beat the best leaf time found (an ordered depth-first search
// improves its best time about 27 times per sweep on the 70k-triangle bunny pair). The contact
// features at the contact configuration are then gathered with pdComputeContactFeatures.
//
// Orientation culling (def->useOrientationCulling, only for a mesh that is closed with outward
// winding): while A is outside B, the first point of B that A reaches lies on a face whose
// outward normal n opposes the motion v (n.v <= 0): the separation direction at first contact
// is in B's normal cone there and does not increase along v, so some face through the contact
// point faces the motion. Triangles of B with n.v > 0 (and of A with n.v < 0) are skipped.
// Faces exactly parallel to v (n.v = 0) are kept. A start that already intersects is
// detected beforehand by a static collide (startColliding), so culling never hides it.
#include "ccd.h"
#include "core.h"
#include "kernels.h"
#include "pair_heap.h"
#include "pair_query.h"
#include "proximity.h"
#include "tri_distance.h"

#include <string.h>

pdCcdDef pdiCcdDefaults( void )
{
	pdCcdDef def;
	memset( &def, 0, sizeof( def ) );
	def.contactTolerance = 0.0;
	def.maxFeatures = 256;
	def.maxNodeVisits = 50000000;
	def.useOrientationCulling = true;
	def.internalValue = PDI_SECRET_COOKIE;
	return def;
}

// True when the vertices v, moving by s * (0..1) along the unit plane normal n (s = the
// normal component of the whole sweep), stay farther than reach from the plane through p0 on
// one side: then the triangle never comes within reach of anything in that plane.
static bool pdiSweptPlaneClear( pdVec3 n, pdVec3 p0, const pdVec3 v[3], double s, double reach )
{
	double s0 = pdiDot( n, pdiSub( v[0], p0 ) );
	double s1 = pdiDot( n, pdiSub( v[1], p0 ) );
	double s2 = pdiDot( n, pdiSub( v[2], p0 ) );
	double lo = pdiMinD( s0, pdiMinD( s1, s2 ) ), hi = pdiMaxD( s0, pdiMaxD( s1, s2 ) );
	return lo + pdiMinD( s, 0.0 ) > reach || hi + pdiMaxD( s, 0.0 ) < -reach;
}

// True when every normal in the cone points strictly along dir (unit), with a margin well
// above the per-triangle test's (n . v > 1e-9 |v|): all of the node's triangles would be
// culled one by one, so the node pair is culled whole.
static bool pdiConeFacesAlong( const pdiBvhCone* cone, pdVec3 dir )
{
	return cone->spread <= 1.0 && pdiDot( cone->axis, dir ) > cone->spread + 1e-6;
}

static void pdiBoxVelocity( const pdiBvhNode* b, pdVec3 v, double w[3] )
{
	w[0] = pdiDot( b->axes.cx, v );
	w[1] = pdiDot( b->axes.cy, v );
	w[2] = pdiDot( b->axes.cz, v );
}

pdCcdDef pdDefaultCcdDef( void )
{
	return pdiCcdDefaults();
}

// One sweep from a free start: the motion and culling set-up, the heap of pending node pairs,
// and the earliest leaf time found so far. Everything is in B's mesh frame.
typedef struct pdiSweepSearch
{
	const pdMesh* meshA;
	const pdMesh* meshB;
	pdiFrame rel;             ///< A's mesh frame in B's mesh frame
	pdVec3 vB;               ///< A's whole translation
	pdVec3 u;                ///< unit motion direction (zero without motion)
	pdVec3 trailingA;        ///< -u carried into A's frame
	bool cullA, cullB;       ///< per-triangle orientation culling on A's / B's side
	double cullEps;          ///< the per-triangle culling margin, 1e-9 |vB|
	const pdiBvhCone* conesA; ///< A's normal cones when culling A, else NULL
	const pdiBvhCone* conesB; ///< B's normal cones when culling B, else NULL
	double target;           ///< leaf pairs stop at this distance (half the tolerance)
	double pad;              ///< rounding allowance of the cheap leaf-pair rejections
	double margin;           ///< node boxes grow by this (the target distance)
	int maxNodeVisits;
	pdiPairHeap heap; ///< pending node pairs keyed by the earliest time their boxes can touch
	int visits;      ///< node pairs visited, the start check's included
	double best;     ///< earliest leaf time so far (1 before any)
	bool found;      ///< some leaf pair gave best
} pdiSweepSearch;

// The set-up for a sweep of A by v (world frame). False when the heap cannot be allocated.
static bool pdiSweep_Init( pdiSweepSearch* s, const pdMesh* meshA, const pdMesh* meshB, const pdiPairFrames* frames,
						  pdVec3 v, const pdCcdDef* def, double tolerance, pdWorkspace* ws )
{
	if ( !pdiPairHeap_Init( &s->heap, &ws->stack ) )
	{
		return false;
	}
	s->meshA = meshA;
	s->meshB = meshB;
	s->rel = frames->rel;
	s->vB = pdiMulMTV( &frames->b.r, v );
	double speed = pdiLength( s->vB );
	s->cullA = def->useOrientationCulling && meshA->closed && meshA->outwardWinding && speed > 0.0;
	s->cullB = def->useOrientationCulling && meshB->closed && meshB->outwardWinding && speed > 0.0;
	s->cullEps = 1e-9 * speed;
	// Node-level culling: B's faces turned away from the motion (along +u), A's trailing faces
	// (along -u, carried into A's frame).
	s->u = speed > 0.0 ? pdiScale( s->vB, 1.0 / speed ) : pdiV3( 0.0, 0.0, 0.0 );
	s->trailingA = pdiMulMTV( &s->rel.r, pdiNeg( s->u ) );
	s->conesA = s->cullA ? meshA->bvh.cones : NULL;
	s->conesB = s->cullB ? meshB->bvh.cones : NULL;
	s->target = 0.5 * tolerance;
	// Rounding allowance for the cheap pair rejections (they must never drop a real contact).
	s->pad = 1e-12 * ( meshA->diagonal + meshB->diagonal + pdiLength( s->rel.p ) + speed );
	// Boxes grow by the target distance so leaf pairs that come within it are reached.
	s->margin = s->target;
	s->maxNodeVisits = def->maxNodeVisits;
	s->visits = 0;
	s->best = 1.0;
	s->found = false;
	return true;
}

// True when the node pair (a, b) is culled by orientation: all of node a's faces trail the
// motion, or all of node b's faces turn away from it, so nothing under the pair is hit first.
// A node equal to keptA / keptB is the parent's own node carried down unchanged and is not
// tested again (pass -1 to test both).
static bool pdiSweep_Culled( const pdiSweepSearch* s, int a, int b, int keptA, int keptB )
{
	return ( s->conesA != NULL && a != keptA && pdiConeFacesAlong( s->conesA + a, s->trailingA ) ) ||
		   ( s->conesB != NULL && b != keptB && pdiConeFacesAlong( s->conesB + b, s->u ) );
}

// Queues the root pair when its boxes can touch within the sweep and orientation keeps it.
static void pdiSweep_PushRoot( pdiSweepSearch* s )
{
	const pdiBvhNode* nodesA = s->meshA->bvh.nodes;
	const pdiBvhNode* nodesB = s->meshB->bvh.nodes;
	double w[3];
	pdiBvhPair root;
	pdiBvh_RelatePair( nodesA, nodesB, &s->rel, &root );
	pdiBoxVelocity( nodesB, s->vB, w );
	double t = pdiBvh_PairSweep( &root, nodesA, nodesB, w, s->margin, 1.0 );
	bool culled = pdiSweep_Culled( s, 0, 0, -1, -1 );
	if ( t <= 1.0 && !culled )
	{
		pdiPairHeap_Push( &s->heap, ( pdiKeyedPair ){ 0, 0, t } ); // fits: an empty heap has room
	}
}

// A's triangle va (normal nA; swept over [0, best] it fills the box loS..hiS) against a chunk of
// B's leaf: the time of contact of every pair the cheap proofs do not rule out, keeping the
// earliest.
static void pdiSweep_TriangleChunk( pdiSweepSearch* s, const pdVec3 va[3], pdVec3 nA, pdVec3 loS, pdVec3 hiS,
								   const pdiLeafChunk* cb, double reach )
{
	const pdVec3* normalsB = s->meshB->faceNormals;
	for ( int j = 0; j < cb->count; ++j )
	{
		int tb = cb->index[j];
		if ( s->cullB && pdiDot( normalsB[tb], s->vB ) > s->cullEps )
		{
			continue; // face of B turned away from the motion
		}
		const pdVec3* vb = cb->v[j];
		// Cheap proofs that the pair never comes within target before best: the swept box, and
		// both supporting planes with the vertices' linear motion.
		if ( !pdiBoxesWithin( loS, hiS, cb->lo[j], cb->hi[j], reach ) )
		{
			continue;
		}
		if ( pdiSweptPlaneClear( normalsB[tb], vb[0], va, s->best * pdiDot( normalsB[tb], s->vB ), reach ) ||
			 pdiSweptPlaneClear( nA, va[0], vb, -s->best * pdiDot( nA, s->vB ), reach ) )
		{
			continue;
		}
		double t;
		if ( pdiTriangleTranslationToi( va, vb, s->vB, s->best, s->target, &t ) && ( !s->found || t < s->best ) )
		{
			s->best = t;
			s->found = true;
		}
	}
}

// Every triangle pair of the leaf pair (na, nb) that could touch before the best time.
static void pdiSweep_Leaves( pdiSweepSearch* s, const pdiBvhNode* na, const pdiBvhNode* nb )
{
	const pdMesh* meshA = s->meshA;
	double reach = s->target + s->pad;
	for ( int chunk = 0; chunk < nb->count; chunk += PDI_BVH_LEAF_SIZE )
	{
		pdiLeafChunk cb;
		pdiLeafChunk_Load( s->meshB, nb, chunk, &cb );
		for ( int i = 0; i < na->count; ++i )
		{
			int ta = meshA->bvh.triangleOrder[na->start + i];
			if ( s->cullA && pdiDot( pdiMulMV( &s->rel.r, meshA->faceNormals[ta] ), s->vB ) < -s->cullEps )
			{
				continue; // trailing face of A
			}
			// A's triangle swept over [0, best], as a box.
			pdVec3 va[3], loA, hiA;
			pdiMesh_MovedLeafTriangle( meshA, na->start + i, &s->rel, va, &loA, &hiA );
			pdVec3 sweep = pdiScale( s->vB, s->best );
			pdVec3 loS = pdiAdd( loA, pdiMin3( sweep, pdiV3( 0.0, 0.0, 0.0 ) ) );
			pdVec3 hiS = pdiAdd( hiA, pdiMax3( sweep, pdiV3( 0.0, 0.0, 0.0 ) ) );
			if ( !pdiBoxesWithin( loS, hiS, cb.allLo, cb.allHi, reach ) )
			{
				continue;
			}
			pdVec3 nA = pdiMulMV( &s->rel.r, meshA->faceNormals[ta] );
			pdiSweep_TriangleChunk( s, va, nA, loS, hiS, &cb, reach );
		}
	}
}

// Sweeps the boxes of both child pairs of the internal pair e and queues those that could touch
// before the best time; a child whose faces all turn away gets no box test (nothing under it
// can be hit first). False when the heap cannot grow.
static bool pdiSweep_PushChildren( pdiSweepSearch* s, pdiKeyedPair e )
{
	const pdiBvhNode* nodesA = s->meshA->bvh.nodes;
	const pdiBvhNode* nodesB = s->meshB->bvh.nodes;
	pdiChildPairs c = pdiPairQuery_Split( nodesA + e.a, nodesB + e.b, e.a, e.b );
	bool cull0 = pdiSweep_Culled( s, c.a0, c.b0, e.a, e.b );
	bool cull1 = pdiSweep_Culled( s, c.a1, c.b1, e.a, e.b );
	if ( cull0 && cull1 )
	{
		return true;
	}
	pdiBvhPair p0, p1;
	double w0[3], w1[3];
	const pdiBvhNode* nb0 = nodesB + c.b0;
	const pdiBvhNode* nb1 = nodesB + c.b1;
	pdiBvh_RelateChildren( nodesA, nodesB, c.a0, c.b0, c.a1, c.b1, &s->rel, &p0, &p1 );
	pdiBoxVelocity( nb0, s->vB, w0 );
	pdiBoxVelocity( nb1, s->vB, w1 );
	double t0 = cull0 ? INFINITY : pdiBvh_PairSweep( &p0, nodesA + c.a0, nb0, w0, s->margin, s->best );
	double t1 = cull1 ? INFINITY : pdiBvh_PairSweep( &p1, nodesA + c.a1, nb1, w1, s->margin, s->best );
	// Pairs that cannot beat the best are dropped here.
	bool keep0 = !cull0 && t0 <= s->best && !( s->found && t0 >= s->best );
	bool keep1 = !cull1 && t1 <= s->best && !( s->found && t1 >= s->best );
	if ( ( keep0 || keep1 ) && !pdiPairHeap_Grow( &s->heap ) )
	{
		return false;
	}
	if ( keep0 )
	{
		pdiPairHeap_Push( &s->heap, ( pdiKeyedPair ){ c.a0, c.b0, t0 } );
	}
	if ( keep1 )
	{
		pdiPairHeap_Push( &s->heap, ( pdiKeyedPair ){ c.a1, c.b1, t1 } );
	}
	return true;
}

// Best-first descent until no pending pair can beat the best time. PD_STATUS_OK,
// PD_STATUS_TRAVERSAL_LIMIT (the pending pairs stay in the heap) or PD_STATUS_OUT_OF_MEMORY.
static pdStatus pdiSweep_Traverse( pdiSweepSearch* s )
{
	while ( s->heap.count > 0 )
	{
		// Every pending pair touches no earlier than the first: none can beat the best.
		double first = pdiPairHeap_Top( &s->heap )->key;
		if ( first > s->best || ( s->found && first >= s->best ) )
		{
			s->heap.count = 0;
			break;
		}
		if ( s->visits >= s->maxNodeVisits )
		{
			return PD_STATUS_TRAVERSAL_LIMIT;
		}
		pdiKeyedPair e = pdiPairHeap_Pop( &s->heap );
		++s->visits;
		const pdiBvhNode* na = s->meshA->bvh.nodes + e.a;
		const pdiBvhNode* nb = s->meshB->bvh.nodes + e.b;
		if ( na->count > 0 && nb->count > 0 )
		{
			pdiSweep_Leaves( s, na, nb );
			if ( s->found && s->best <= 0.0 )
			{
				break;
			}
			continue;
		}
		if ( !pdiSweep_PushChildren( s, e ) )
		{
			return PD_STATUS_OUT_OF_MEMORY;
		}
	}
	return PD_STATUS_OK;
}

// Where a query stands after the start check and after the sweep.
typedef struct pdiSweepOutcome
{
	pdStatus status; ///< PD_STATUS_OK, or PD_STATUS_TRAVERSAL_LIMIT from the start check or the sweep
	int visits;      ///< node pairs visited, the start check's included
	bool hit;
	double toc; ///< time of contact in [0, 1] (1 without a hit)
} pdiSweepOutcome;

// Runs the sweep set up in s from a start the static check found free, updating io.
// PD_STATUS_OUT_OF_MEMORY when the heap cannot grow, else PD_STATUS_OK.
static pdStatus pdiSweep_Run( pdiSweepSearch* s, pdiSweepOutcome* io )
{
	s->visits = io->visits;
	pdiSweep_PushRoot( s );
	pdStatus status = pdiSweep_Traverse( s );
	if ( status == PD_STATUS_OUT_OF_MEMORY )
	{
		return status;
	}
	if ( status == PD_STATUS_TRAVERSAL_LIMIT )
	{
		io->status = status;
	}
	io->visits = s->visits;
	if ( io->status == PD_STATUS_TRAVERSAL_LIMIT && s->heap.count > 0 )
	{
		// Conservative: the earliest time anything pending could touch (the heap's first).
		s->best = fmin( s->best, pdiPairHeap_Top( &s->heap )->key );
		s->found = true;
	}
	if ( s->found )
	{
		io->hit = true;
		io->toc = fmax( 0.0, fmin( s->best, 1.0 ) );
	}
	return PD_STATUS_OK;
}

// The argument checks of a sweep: the def's ranges, the meshes, the workspace, both poses and
// the end position. On PD_STATUS_OK outFrames holds the frames.
static pdStatus pdiCcd_Check( const pdCcdDef* def, const pdMesh* meshA, const pdTransform* poseA, pdVec3 endPositionA,
							 const pdMesh* meshB, const pdTransform* poseB, const pdWorkspace* ws,
							 pdiPairFrames* outFrames )
{
	pdStatus defStatus = pdiPairQuery_DefStatus( def->internalValue );
	if ( defStatus == PD_STATUS_OK && ( def->maxFeatures < 0 || def->maxNodeVisits <= 0 ||
										isnan( def->contactTolerance ) || isinf( def->contactTolerance ) ) )
	{
		defStatus = PD_STATUS_INVALID_DEF;
	}
	pdStatus status = pdiPairQuery_Check( defStatus, meshA, poseA, meshB, poseB, ws, outFrames );
	if ( status == PD_STATUS_OK && ( !pdiIsFiniteVec( endPositionA ) || !pdiIsUsablePosition( endPositionA ) ) )
	{
		status = PD_STATUS_INVALID_POSE;
	}
	return status;
}

// Adds to outResult the contact features at its contact position (A translated there). Returns
// their status; a negative one has cleared the result.
static pdStatus pdiCcd_GatherFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									  const pdTransform* poseB, int maxFeatures, double tolerance, pdVec3 v,
									  pdWorkspace* ws, pdCcdResult* outResult )
{
	pdTransform contactPose = *poseA;
	contactPose.p = outResult->contactPosition;
	pdContactFeatureDef gather = pdiContactFeatureDefaults();
	gather.reach = tolerance;
	gather.approachDirection = v;
	gather.maxFeatures = maxFeatures;
	pdContactFeatureResult gathered;
	pdiGapProof noProof = { false, false, false, NULL };
	pdStatus fs = pdiComputeContactFeatures( meshA, &contactPose, meshB, poseB, &gather, noProof, ws, &gathered );
	if ( fs < 0 )
	{
		memset( outResult, 0, sizeof( *outResult ) );
		return fs;
	}
	outResult->featureCount = gathered.featureCount;
	outResult->features = gathered.features;
	return fs;
}

pdStatus pdiCcd_Sweep( const pdMesh* meshA, const pdTransform* poseA, pdVec3 endPositionA, const pdMesh* meshB,
					  const pdTransform* poseB, const pdCcdDef* def, pdWorkspace* ws, bool startKnownFree,
					  bool gatherFeatures, pdCcdResult* outResult )
{
	memset( outResult, 0, sizeof( *outResult ) );
	pdiPairFrames frames;
	pdStatus status = pdiPairQuery_Frames( poseA, poseB, &frames );
	if ( status == PD_STATUS_OK && ( !pdiIsFiniteVec( endPositionA ) || !pdiIsUsablePosition( endPositionA ) ) )
	{
		status = PD_STATUS_INVALID_POSE;
	}
	if ( status == PD_STATUS_OK && !pdiPairQuery_HasTrees( meshA, meshB ) )
	{
		status = PD_STATUS_OUT_OF_MEMORY;
	}
	if ( status != PD_STATUS_OK )
	{
		outResult->status = status;
		return status;
	}

	double tolerance =
		def->contactTolerance > 0.0 ? def->contactTolerance : 1e-4 * fmin( meshA->diagonal, meshB->diagonal );
	pdVec3 v = pdiSub( endPositionA, poseA->p );

	// A start that already intersects (or contains): time of contact 0.
	pdCollideResult start;
	memset( &start, 0, sizeof( start ) );
	if ( !startKnownFree )
	{
		pdCollideDef collideDef = pdiCollideDefaults();
		collideDef.maxNodeVisits = def->maxNodeVisits;
		status = pdiCollide( meshA, poseA, meshB, poseB, &collideDef, ws, &start );
		if ( status < 0 )
		{
			outResult->status = status;
			return status;
		}
	}
	pdiSweepOutcome sweep = {
		.status = status == PD_STATUS_TRAVERSAL_LIMIT ? status : PD_STATUS_OK,
		.visits = start.nodeVisits,
		.hit = false,
		.toc = 1.0,
	};
	if ( start.colliding )
	{
		outResult->startColliding = true;
		sweep.hit = true;
		sweep.toc = 0.0;
	}
	else
	{
		pdiSweepSearch s;
		if ( !pdiSweep_Init( &s, meshA, meshB, &frames, v, def, tolerance, ws ) ||
			 pdiSweep_Run( &s, &sweep ) != PD_STATUS_OK )
		{
			outResult->status = PD_STATUS_OUT_OF_MEMORY;
			return outResult->status;
		}
	}

	outResult->hit = sweep.hit;
	outResult->toc = sweep.toc;
	outResult->contactPosition = sweep.hit ? pdiMulAdd( poseA->p, sweep.toc, v ) : endPositionA;
	outResult->nodeVisits = sweep.visits;
	status = sweep.status;
	if ( sweep.hit && gatherFeatures )
	{
		pdStatus fs = pdiCcd_GatherFeatures( meshA, poseA, meshB, poseB, def->maxFeatures, tolerance, v, ws, outResult );
		// An error replaces everything; otherwise a traversal cap outranks a feature cap.
		status = fs < 0 || status == PD_STATUS_OK ? fs : status;
	}
	outResult->status = status;
	return status;
}

pdStatus pdComputeTranslationalCcd( const pdMesh* meshA, const pdTransform* poseA, pdVec3 endPositionA,
									const pdMesh* meshB, const pdTransform* poseB, const pdCcdDef* def, pdWorkspace* ws,
									pdCcdResult* outResult )
{
	if ( outResult == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	memset( outResult, 0, sizeof( *outResult ) );
	pdCcdDef defaults = pdiCcdDefaults();
	if ( def == NULL )
	{
		def = &defaults;
	}
	pdiPairFrames frames;
	pdStatus status = pdiCcd_Check( def, meshA, poseA, endPositionA, meshB, poseB, ws, &frames );
	if ( status != PD_STATUS_OK )
	{
		outResult->status = status;
		return status;
	}
	return pdiCcd_Sweep( meshA, poseA, endPositionA, meshB, poseB, def, ws, false, true, outResult );
}
