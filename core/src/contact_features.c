// SPDX-License-Identifier: MIT
// Contact features at a configuration: every VF, FV and EE pair closer than a tolerance, and on
// the way the gap proof (no two triangles within a gap) or the gap measure (the surfaces'
// distance within the tolerance). One depth-first BVH-pair traversal (pair_traversal.c) hands
// the triangle pairs that pass its culls to a collector: the feature collector tests them with
// pdiTriangleOwnedContactFeatures and keeps the closest maxFeatures (a feature shared by
// neighbouring triangles is reported only by the triangle that owns it, pdMesh.featureOwnership,
// so each feature pair comes out once, in traversal order); the gap collector runs the exact
// triangle distance on the pairs within the gap and hands them on to the feature collector.
// The swept variant carries A's boxes along a step's rigid motion and keeps the pairs whose gap
// now or predicted after the step is within the tolerance.
#include "core.h"
#include "kernels.h"
#include "pair_traversal.h"
#include "tri_distance.h"
#include "proximity.h"

#include "rounded_point.h"

#include <string.h>

static void pdiFillFeature( const pdMesh* mesh, int triangle, pdFeature* f )
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

// How close a kept pair comes during the step: its gap now, or the gap predicted at the end of
// the step if smaller (world frame; first order in the motion).
static double pdiSweptKey( const pdContactFeature* f, const pdRigidMotion* motion )
{
	if ( motion == NULL )
	{
		return f->distance;
	}
	pdVec3 move = pdiAdd( motion->linear, pdiCross( motion->angular, pdiSub( f->pointA, motion->pivot ) ) );
	double predicted = f->distance + pdiDot( move, f->normal );
	return predicted < f->distance ? predicted : f->distance;
}

// ---------------------------------------------------------------------------------------------
// The feature collector: every feature pair within the tolerance (swept: that comes within it
// during the step). Past maxFeatures the closest are kept: the list is then a bounded set
// ordered by nothing, the farthest kept pair is tracked, and the reach shrinks to it so the
// traversal only looks for closer ones.

typedef struct pdiFeatureCollector
{
	pdiPairCollector base;
	const pdiPairTraversal* traversal;
	const pdRigidMotion* motion; // NULL: static
	pdVec3 approachB;            // the approach direction in B's frame
	pdiBuffer* buffer;
	int cap;
	int count;
	bool full;
	int worst;       // index of the farthest kept pair once full
	double worstKey; // its distance (swept: how close it comes during the step)
	bool skipFlatEdges;
	bool measureBuried; // see pdiGapProof.outBuried
	int buriedCount;    // in ws->pairs
	bool buriedFull;
	pdiBuffer* buried;
} pdiFeatureCollector;

// Keeps the world-frame feature f of the triangles (ta, tb) when it is within the tolerance
// during the step and, once the list is full, closer than the farthest kept one.
static void pdiFeatureCollector_Keep( pdiFeatureCollector* c, pdContactFeature f, int ta, int tb )
{
	pdContactFeature* out = (pdContactFeature*)c->buffer->data;
	double key = pdiSweptKey( &f, c->motion );
	if ( c->motion != NULL && !( key <= c->traversal->tolerance ) )
	{
		return; // does not come within the tolerance during the step
	}
	int slot = c->count;
	if ( c->count == c->cap )
	{
		c->full = true;
		if ( !( key < c->worstKey ) )
		{
			return;
		}
		slot = c->worst;
	}
	pdiFillFeature( c->traversal->meshA, ta, &f.featureA );
	pdiFillFeature( c->traversal->meshB, tb, &f.featureB );
	out[slot] = f;
	if ( slot == c->count )
	{
		c->count += 1;
	}
	if ( c->count == c->cap )
	{
		// (Re)find the farthest kept pair; only closer ones matter from here.
		c->worst = 0;
		c->worstKey = pdiSweptKey( out, c->motion );
		for ( int q = 1; q < c->count; ++q )
		{
			double qKey = pdiSweptKey( out + q, c->motion );
			if ( qKey > c->worstKey )
			{
				c->worst = q;
				c->worstKey = qKey;
			}
		}
		c->base.reach = pdiMinD( c->traversal->tolerance, pdiMaxD( c->worstKey, 0.0 ) );
	}
}

// The ownership bits of triangle t's edges that lie between coplanar faces.
static unsigned pdiFlatEdgeBits( const pdMesh* mesh, int t )
{
	unsigned bits = 0u;
	for ( int k = 0; k < 3; ++k )
	{
		if ( mesh->edges[mesh->triangleEdges[t][k]].flags & PDI_EDGE_FLAT )
		{
			bits |= PDI_OWN_EDGE( k );
		}
	}
	return bits;
}

// The edges of triangle f (corners in any frame, winding its cross product) whose outer side
// the point x lies on, seen along the triangle's normal: bit k for edge f[k] -> f[k + 1]. No bit
// means x projects onto the triangle.
static unsigned pdiEdgesPast( const pdVec3 f[3], pdVec3 winding, pdVec3 x )
{
	unsigned past = 0u;
	for ( int k = 0; k < 3; ++k )
	{
		if ( pdiDot( pdiCross( pdiSub( f[( k + 1 ) % 3], f[k] ), pdiSub( x, f[k] ) ), winding ) < 0.0 )
		{
			past |= 1u << k;
		}
	}
	return past;
}

// Whether x, behind face f (triangle `face` of faceMesh, corners f in the frame toFrame takes
// the mesh's frame to, NULL for the mesh's own) and past its edges `past` (pdiEdgesPast, not
// none), lies in the wedge of concave edges: every edge it lies past is concave and x is behind
// the face across it and past that edge seen from that face too. A vertex sunk into a floor
// where it meets a wall projects onto neither; it is inside the solid, and leaves through both
// planes together. Past a saddle's concave edge (a torus's hole) a point behind one face
// projects onto the next: that face's own pair has it. The projection onPlane within reach of
// f. The edge flags go first: most points past an edge are past a convex one.
static bool pdiPastConcaveEdgesOnly( const pdMesh* faceMesh, int face, const pdiFrame* toFrame, const pdVec3 f[3],
									 unsigned past, pdVec3 x, pdVec3 onPlane, double reach )
{
	for ( int k = 0; k < 3; ++k )
	{
		const pdiMeshEdge* e = faceMesh->edges + faceMesh->triangleEdges[face][k];
		bool concaveWithNeighbour = ( e->flags & PDI_EDGE_CONCAVE ) != 0 && e->face0 >= 0 && e->face1 >= 0;
		if ( ( past & ( 1u << k ) ) != 0 && !concaveWithNeighbour )
		{
			return false;
		}
	}
	pdVec3 closest;
	pdiTriFeature part;
	if ( past == 0u || !( pdiClosestPointOnTriangle( onPlane, f, &closest, &part ) < reach ) )
	{
		return false;
	}
	double sign = faceMesh->outwardWinding ? 1.0 : -1.0;
	for ( int k = 0; k < 3; ++k )
	{
		if ( ( past & ( 1u << k ) ) == 0 )
		{
			continue;
		}
		int edgeId = faceMesh->triangleEdges[face][k];
		const pdiMeshEdge* e = faceMesh->edges + edgeId;
		int next = e->face0 == face ? e->face1 : e->face0;
		pdVec3 c[3];
		int shared = -1;
		for ( int j = 0; j < 3; ++j )
		{
			pdVec3 v = faceMesh->vertices[faceMesh->triangles[next][j]];
			c[j] = toFrame != NULL ? pdiFrameApply( toFrame, v ) : v;
			shared = faceMesh->triangleEdges[next][j] == edgeId ? j : shared;
		}
		pdVec3 nextWinding = pdiCross( pdiSub( c[1], c[0] ), pdiSub( c[2], c[0] ) );
		bool behindNext = sign * pdiDot( nextWinding, pdiSub( x, c[0] ) ) < 0.0;
		bool pastFromNext =
			shared >= 0 &&
			pdiDot( pdiCross( pdiSub( c[( shared + 1 ) % 3], c[shared] ), pdiSub( x, c[shared] ) ), nextWinding ) < 0.0;
		if ( !behindNext || !pastFromNext )
		{
			return false;
		}
	}
	return true;
}

// Adds to *count (at most 3 per call) the vertices of triangle t of `mesh` (`vertices`, in the
// face's frame) that lie behind the face (triangle `faceTriangle` of faceMesh, corners `face`) by
// more than `reach`, keyed by offset + canonical id: over the face, or past its concave edges
// only, less than `reach` past them (sunk into a floor where it meets a wall: the solid goes on
// there). Within the reach such a vertex has a pair with the face (pdiPastConcaveEdgePairs).
static void pdiBuriedUnder( const pdMesh* mesh, int t, int offset, const pdVec3 vertices[3], const pdMesh* faceMesh,
							int faceTriangle, const pdiFrame* faceFrame, const pdVec3 face[3], double reach,
							pdiBuriedVertex* out, int* count )
{
	pdVec3 winding = pdiCross( pdiSub( face[1], face[0] ), pdiSub( face[2], face[0] ) );
	double length = pdiLength( winding );
	if ( !( length > 0.0 ) )
	{
		return;
	}
	pdVec3 outside = pdiScale( winding, ( faceMesh->outwardWinding ? 1.0 : -1.0 ) / length );
	for ( int i = 0; i < 3; ++i )
	{
		double behind = -pdiDot( outside, pdiSub( vertices[i], face[0] ) );
		if ( !( behind > reach ) )
		{
			continue;
		}
		unsigned past = pdiEdgesPast( face, winding, vertices[i] );
		if ( past == 0u || pdiPastConcaveEdgesOnly( faceMesh, faceTriangle, faceFrame, face, past, vertices[i],
													pdiMulAdd( vertices[i], behind, outside ), reach ) )
		{
			out[( *count )++] = ( pdiBuriedVertex ){ offset + mesh->canonicalVertex[mesh->triangles[t][i]], behind };
		}
	}
}

// Files the buried vertices of a crossing triangle pair (pdiGapProof.outBuried). Only a pair
// that crosses: a vertex behind a face it does not cross toward can lie beyond the far side of
// a thin wall, outside it (a box's bottom centre, behind a channel wall's outer face). Buried
// means deeper than the gathering's own reach, not the swept feature reach of a moving pair:
// a vertex between the two is no feature (the swept filter keeps the pairs that close, and its
// pair reads as opening) and would go unseen.
static void pdiFileBuried( pdiFeatureCollector* c, const pdiTrianglePairHit* hit )
{
	const pdiPairTraversal* t = c->traversal;
	pdiBuriedVertex found[6];
	int count = 0;
	pdiBuriedUnder( t->meshA, hit->triangleA, 0, hit->va, t->meshB, hit->triangleB, NULL, hit->vb, t->tolerance, found,
					&count );
	pdiBuriedUnder( t->meshB, hit->triangleB, t->meshA->vertexCount, hit->vb, t->meshA, hit->triangleA, &t->rel,
					hit->va, t->tolerance, found, &count );
	if ( count == 0 || !pdiTrianglesIntersect( hit->va, hit->vb ) )
	{
		return;
	}
	if ( c->buriedCount + count > PDI_BURIED_CAP ||
		 !pdiBuffer_Reserve( c->buried, (size_t)( c->buriedCount + count ) * sizeof( pdiBuriedVertex ), true ) )
	{
		c->buriedFull = true;
		return;
	}
	memcpy( (pdiBuriedVertex*)c->buried->data + c->buriedCount, found, (size_t)count * sizeof( *found ) );
	c->buriedCount += count;
}

// Appends the pairs of the owned vertices v (of the other mesh) with the face f (triangle `face`
// of faceMesh, a closed solid; corners in the same frame) that lie behind f within reach and
// leave it, seen along its normal, across its concave edges only, less than reach past them:
// a vertex sunk into a floor where it meets a wall is inside the solid but over neither face,
// and has no ordinary vertex-face pair. Its pair with each such face is the exit along that
// face's normal; it leaves through all of them together (pdiPlugin_GatherOrientedFeatures).
// Unoriented as the ordinary pairs: the normal from the face's plane toward the vertex.
static int pdiPastConcaveEdgePairs( const pdMesh* faceMesh, int face, const pdiFrame* faceFrame, const pdVec3 f[3],
									const pdVec3 v[3], unsigned ownVertices, bool faceOfB, double reach,
									pdContactFeature* out, int n )
{
	pdVec3 winding = pdiCross( pdiSub( f[1], f[0] ), pdiSub( f[2], f[0] ) );
	double length = pdiLength( winding );
	if ( !( length > 0.0 ) )
	{
		return n;
	}
	pdVec3 outward = pdiScale( winding, ( faceMesh->outwardWinding ? 1.0 : -1.0 ) / length );
	for ( int i = 0; i < 3; ++i )
	{
		double s = pdiDot( outward, pdiSub( v[i], f[0] ) );
		if ( ( ownVertices & PDI_OWN_VERTEX( i ) ) == 0 || !( s < 0.0 && -s <= reach ) )
		{
			continue;
		}
		pdVec3 onPlane = pdiMulAdd( v[i], -s, outward );
		unsigned past = pdiEdgesPast( f, winding, v[i] );
		if ( past == 0u || !pdiPastConcaveEdgesOnly( faceMesh, face, faceFrame, f, past, v[i], onPlane, reach ) )
		{
			continue; // over the face (the ordinary pair has it), or past a convex edge: outside
		}
		pdContactFeature* c = out + n++;
		memset( c, 0, sizeof( *c ) );
		c->kind = faceOfB ? PD_CONTACT_VF : PD_CONTACT_FV;
		c->featureA.type = faceOfB ? PD_FEATURE_VERTEX : PD_FEATURE_FACE;
		c->featureA.index = faceOfB ? i : 0;
		c->featureB.type = faceOfB ? PD_FEATURE_FACE : PD_FEATURE_VERTEX;
		c->featureB.index = faceOfB ? 0 : i;
		c->pointA = faceOfB ? v[i] : onPlane;
		c->pointB = faceOfB ? onPlane : v[i];
		c->normal = faceOfB ? pdiNeg( outward ) : outward;
		c->distance = -s;
	}
	return n;
}

static void pdiFeatureCollector_AddPair( pdiPairCollector* self, const pdiTrianglePairHit* hit )
{
	pdiFeatureCollector* c = (pdiFeatureCollector*)self;
	const pdiPairTraversal* t = c->traversal;
	pdContactFeature local[21]; // 6 vertex-face, 9 edge-edge, 6 past concave edges
	unsigned ownA = t->meshA->featureOwnership[hit->triangleA], ownB = t->meshB->featureOwnership[hit->triangleB];
	if ( c->skipFlatEdges )
	{
		ownA &= ~pdiFlatEdgeBits( t->meshA, hit->triangleA );
		ownB &= ~pdiFlatEdgeBits( t->meshB, hit->triangleB );
	}
	if ( c->measureBuried )
	{
		pdiFileBuried( c, hit );
	}
	int n = pdiTriangleOwnedContactFeatures( hit->va, hit->vb, hit->featureReach, c->approachB, ownA, ownB, local );
	if ( c->measureBuried && n >= 0 )
	{
		// Closed solids gathered as local contacts: the vertices inside at a concave edge too.
		n = pdiPastConcaveEdgePairs( t->meshB, hit->triangleB, NULL, hit->vb, hit->va, ownA, true, hit->featureReach,
									 local, n );
		n = pdiPastConcaveEdgePairs( t->meshA, hit->triangleA, &t->rel, hit->va, hit->vb, ownB, false,
									 hit->featureReach, local, n );
	}
	if ( n <= 0 )
	{
		return;
	}
	if ( c->cap == 0 )
	{
		c->full = self->stop = true;
		return;
	}
	if ( !pdiBuffer_Reserve(
			 c->buffer, (size_t)( c->count + n < c->cap ? c->count + n : c->cap ) * sizeof( pdContactFeature ), true ) )
	{
		self->status = PD_STATUS_OUT_OF_MEMORY;
		self->stop = true;
		return;
	}
	for ( int k = 0; k < n; ++k )
	{
		pdContactFeature f = local[k];
		f.pointA = pdiFrameApply( &t->frameB, f.pointA );
		f.pointB = pdiFrameApply( &t->frameB, f.pointB );
		f.normal = pdiMulMV( &t->frameB.r, f.normal );
		pdiFeatureCollector_Keep( c, f, hit->triangleA, hit->triangleB );
	}
}

static void pdiFeatureCollector_Init( pdiFeatureCollector* c, const pdiPairTraversal* t, const pdRigidMotion* motion,
									 pdVec3 approachDirection, int maxFeatures, pdWorkspace* ws )
{
	memset( c, 0, sizeof( *c ) );
	c->base.addPair = pdiFeatureCollector_AddPair;
	c->base.reach = t->tolerance;
	c->traversal = t;
	c->motion = motion;
	c->approachB = pdiMulMTV( &t->frameB.r, approachDirection );
	c->buffer = &ws->features;
	c->cap = maxFeatures;
	c->worst = -1;
}

// ---------------------------------------------------------------------------------------------
// The gap collector: the pairs that pass the cheap separations at the gap get the exact
// triangle distance (the distance query's primitive). Every pair within the gap is among the
// pairs within the tolerance the traversal visits anyway. Proving, it looks only until the
// first pair within the gap; measuring, it keeps the smallest distance and its triangles (the
// surfaces' distance when at most the gap: a pair at that distance passes every conservative
// cull) and ends at an intersecting pair. Then the pair goes on to the feature collector, if
// any, unless the proof is all that is wanted or its answer is known and stopWithinGap says so.

typedef struct pdiGapCollector
{
	pdiPairCollector base;
	pdiFeatureCollector* features; // NULL: the proof alone, ending at the first pair within the gap
	double gap;
	bool measure;       // measure the distance (else prove the gap)
	bool stopWithinGap; // the first pair within the gap ends the traversal
	bool withinGap;     // a triangle pair within the gap was found
	double minDistance; // the smallest exact triangle distance computed
	int closestA, closestB;
} pdiGapCollector;

static void pdiGapCollector_AddPair( pdiPairCollector* self, const pdiTrianglePairHit* hit )
{
	pdiGapCollector* c = (pdiGapCollector*)self;
	double gap = c->gap;
	if ( ( c->measure || !c->withinGap ) && pdiBoxesWithin( hit->loA, hit->hiA, hit->loB, hit->hiB, gap ) &&
		 !pdiPlaneSeparated( hit->planeB, hit->vb, hit->va, gap ) &&
		 !pdiPlaneSeparated( hit->planeA, hit->va, hit->vb, gap ) && !pdiCentroidAxisSeparated( hit->va, hit->vb, gap ) )
	{
		pdVec3 pa, pb;
		double d = pdiTriangleDistance( hit->va, hit->vb, &pa, &pb, NULL, NULL );
		c->withinGap = c->withinGap || d <= gap;
		if ( d < c->minDistance )
		{
			c->minDistance = d;
			c->closestA = hit->triangleA;
			c->closestB = hit->triangleB;
		}
		if ( c->measure && !( d > 0.0 ) )
		{
			self->stop = true; // intersecting: nothing closer, and the caller wants no features
			return;
		}
	}
	if ( c->features == NULL || ( c->stopWithinGap && c->withinGap ) )
	{
		self->stop = c->withinGap;
		return;
	}
	pdiPairCollector* inner = &c->features->base;
	inner->addPair( inner, hit );
	self->reach = inner->reach;
	self->stop = inner->stop;
	self->status = inner->status;
}

// ---------------------------------------------------------------------------------------------
// The gathering

// One gathering: what the traversal looks for (private form of pdContactFeatureDef).
typedef struct pdiGathering
{
	double tolerance;            // world units, >= 0
	const pdRigidMotion* motion; // NULL or a nonzero finite motion
	pdVec3 approachDirection;    // world
	int maxFeatures;             // >= 0
	double gap;                  // world units, 0 <= gap <= tolerance when proving or measuring
	bool proveGap;
	bool stopWithinGap;
	bool measureGap;
	bool skipFlatEdges;
	bool measureBuried;
} pdiGathering;

typedef struct pdiGatheringOut
{
	int count;
	const pdContactFeature* features;
	bool apart;         // proving: no two triangles within the gap, every pair seen
	double minDistance; // measuring: see pdiContactFeatures_GatherMeasuringGap
	int closestPair[2];
	int visits;
	pdiBuriedVertices buried; // see pdiGapProof.outBuried
} pdiGatheringOut;

static pdStatus pdiGather( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB, const pdTransform* poseB,
						  const pdiGathering* g, pdWorkspace* ws, pdiGatheringOut* out )
{
	memset( out, 0, sizeof( *out ) );
	out->closestPair[0] = out->closestPair[1] = -1;
	if ( !isfinite( g->tolerance ) || g->tolerance < 0.0 || g->maxFeatures < 0 ||
		 !pdiIsFiniteVec( g->approachDirection ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdiPairTraversal t;
	pdStatus status = pdiPairTraversal_Make( meshA, poseA, meshB, poseB, g->tolerance, g->motion, ws, &t );
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	pdiFeatureCollector features;
	pdiFeatureCollector_Init( &features, &t, g->motion, g->approachDirection, g->maxFeatures, ws );
	features.skipFlatEdges = g->skipFlatEdges;
	features.measureBuried = g->measureBuried;
	features.buried = &ws->pairs;
	pdiGapCollector gap;
	memset( &gap, 0, sizeof( gap ) );
	gap.base.addPair = pdiGapCollector_AddPair;
	gap.base.reach = g->tolerance;
	// The proof alone (a gap to prove and no feature to keep) looks for no feature.
	gap.features = g->proveGap && g->maxFeatures == 0 ? NULL : &features;
	gap.gap = g->gap;
	gap.measure = g->measureGap;
	gap.stopWithinGap = g->stopWithinGap;
	gap.minDistance = INFINITY;
	gap.closestA = gap.closestB = -1;
	bool withGap = g->proveGap || g->measureGap;
	pdiPairCollector* collector = withGap ? &gap.base : &features.base;
	int visits = 0;
	status = pdiPairTraversal_Run( &t, ws, collector, &visits );
	if ( status == PD_STATUS_OUT_OF_MEMORY )
	{
		return status;
	}
	out->visits = visits;
	if ( features.full && status == PD_STATUS_OK )
	{
		status = PD_STATUS_FEATURE_LIMIT;
	}
	// A full list narrowed the search to the closest pairs: the rest went unseen.
	out->apart = g->proveGap && status == PD_STATUS_OK && !features.full && !gap.withinGap;
	out->minDistance = g->measureGap ? gap.minDistance : 0.0;
	out->closestPair[0] = gap.closestA;
	out->closestPair[1] = gap.closestB;
	out->count = features.count;
	out->features = features.count > 0 ? ws->features.data : NULL;
	out->buried = ( pdiBuriedVertices ){ features.buriedCount, features.buriedFull,
										 features.buriedCount > 0 ? ws->pairs.data : NULL };
	return status;
}

// ---------------------------------------------------------------------------------------------
// The query

pdContactFeatureDef pdiContactFeatureDefaults( void )
{
	pdContactFeatureDef def;
	memset( &def, 0, sizeof( def ) );
	def.reach = -1.0;
	def.approachDirection = pdiV3( 0.0, 0.0, 0.0 );
	def.maxFeatures = 256;
	def.motion = NULL;
	def.gap = -1.0;
	def.internalValue = PDI_SECRET_COOKIE;
	return def;
}

static bool pdiIsValidMotion( const pdRigidMotion* motion )
{
	return motion == NULL ||
		   ( pdiIsFiniteVec( motion->linear ) && pdiIsFiniteVec( motion->angular ) && pdiIsFiniteVec( motion->pivot ) );
}

pdContactFeatureDef pdDefaultContactFeatureDef( void )
{
	return pdiContactFeatureDefaults();
}

static pdStatus pdiValidateContactFeatureDef( const pdContactFeatureDef* def )
{
	if ( def->internalValue != PDI_SECRET_COOKIE )
	{
		return PD_STATUS_DEF_NOT_INITIALIZED;
	}
	if ( !isfinite( def->reach ) || def->maxFeatures < 0 || !pdiIsFiniteVec( def->approachDirection ) ||
		 !pdiIsValidMotion( def->motion ) ||
		 !( isfinite( def->gap ) || ( !isnan( def->gap ) && def->gap < 0.0 ) ) ) // NaN compares signal
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	return PD_STATUS_OK;
}

// The gathering a def asks for; g->tolerance is the reach.
static void pdiContactFeatures_Setup( const pdMesh* meshA, const pdMesh* meshB, const pdContactFeatureDef* def,
									  pdiGapProof proof, pdiGathering* g )
{
	memset( g, 0, sizeof( *g ) );
	g->tolerance = def->reach >= 0.0 ? def->reach : pdiDefaultContactTolerance( meshA, meshB );
	bool still = def->motion == NULL ||
				 ( pdiLengthSq( def->motion->linear ) == 0.0 && pdiLengthSq( def->motion->angular ) == 0.0 );
	g->motion = still ? NULL : def->motion;
	g->approachDirection = def->approachDirection;
	g->maxFeatures = def->maxFeatures;
	g->proveGap = def->gap >= 0.0;
	g->gap = g->proveGap ? def->gap : 0.0;
	g->stopWithinGap = proof.stopWithinGap;
	g->skipFlatEdges = proof.skipFlatEdges;
	g->measureBuried = proof.outBuried != NULL && meshA->closed && meshB->closed;
}

pdStatus pdiComputeContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									const pdTransform* poseB, const pdContactFeatureDef* def, pdiGapProof proof,
									pdWorkspace* ws, pdContactFeatureResult* outResult )
{
	memset( outResult, 0, sizeof( *outResult ) );
	pdiGathering g;
	pdiContactFeatures_Setup( meshA, meshB, def, proof, &g );
	pdiGatheringOut out;
	pdStatus status = pdiGather( meshA, poseA, meshB, poseB, &g, ws, &out );
	bool apart = out.apart;
	if ( apart && proof.checkContainment && meshA->closed && meshB->closed )
	{
		// Surfaces apart: a closed solid can still be wholly inside the other.
		pdiFrame frameA, frameB;
		pdiMakeFrame( poseA, &frameA );
		pdiMakeFrame( poseB, &frameB );
		pdiFrame rel = pdiRelativeFrame( &frameA, &frameB );
		apart = !pdiCollide_Containment( meshA, meshB, &rel, ws );
	}
	outResult->status = status;
	outResult->featureCount = out.count;
	outResult->features = out.features;
	outResult->apart = apart;
	outResult->nodeVisits = out.visits;
	if ( proof.outBuried != NULL )
	{
		*proof.outBuried = out.buried;
	}
	return status;
}

static pdStatus pdiCheckContactFeatureQuery( const pdMesh* meshA, const pdMesh* meshB,
											 const pdContactFeatureDef* def )
{
	pdStatus status = pdiValidateContactFeatureDef( def );
	if ( status == PD_STATUS_OK && ( !pdiIsValidMesh( meshA ) || !pdiIsValidMesh( meshB ) ) )
	{
		status = PD_STATUS_INVALID_MESH;
	}
	if ( status == PD_STATUS_OK && def->gap >= 0.0 )
	{
		// The proof runs inside the gathering's traversal, at rest.
		double reach = def->reach >= 0.0 ? def->reach : pdiDefaultContactTolerance( meshA, meshB );
		bool still = def->motion == NULL ||
					 ( pdiLengthSq( def->motion->linear ) == 0.0 && pdiLengthSq( def->motion->angular ) == 0.0 );
		if ( !( def->gap <= reach ) || !still )
		{
			status = PD_STATUS_INVALID_ARGUMENT;
		}
	}
	return status;
}

pdStatus pdiCheckedContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									const pdTransform* poseB, const pdContactFeatureDef* def, pdiGapProof proof,
									pdWorkspace* ws, pdContactFeatureResult* outResult )
{
	if ( outResult == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	memset( outResult, 0, sizeof( *outResult ) );
	pdContactFeatureDef defaults = pdiContactFeatureDefaults();
	if ( def == NULL )
	{
		def = &defaults;
	}
	pdStatus status = pdiCheckContactFeatureQuery( meshA, meshB, def );
	if ( status != PD_STATUS_OK )
	{
		outResult->status = status;
		return status;
	}
	return pdiComputeContactFeatures( meshA, poseA, meshB, poseB, def, proof, ws, outResult );
}

pdStatus pdComputeContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
								   const pdTransform* poseB, const pdContactFeatureDef* def, pdWorkspace* ioWorkspace,
								   pdContactFeatureResult* outResult )
{
	pdiGapProof proof = { false, false, false, NULL };
	return pdiCheckedContactFeatures( meshA, poseA, meshB, poseB, def, proof, ioWorkspace, outResult );
}

pdStatus pdiContactFeatures_GatherMeasuringGap( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
											   const pdTransform* poseB, double tolerance, pdVec3 approachDirection,
											   int maxFeatures, pdWorkspace* ws, int* outCount,
											   const pdContactFeature** outFeatures, double* outMinDistance,
											   int outClosestPair[2], int* outVisits )
{
	pdiGathering g;
	memset( &g, 0, sizeof( g ) );
	g.tolerance = tolerance;
	g.approachDirection = approachDirection;
	g.maxFeatures = maxFeatures;
	g.gap = tolerance;
	g.measureGap = true;
	pdiGatheringOut out;
	pdStatus status = outCount == NULL || outFeatures == NULL ? PD_STATUS_INVALID_ARGUMENT
															  : pdiGather( meshA, poseA, meshB, poseB, &g, ws, &out );
	if ( status == PD_STATUS_INVALID_ARGUMENT )
	{
		memset( &out, 0, sizeof( out ) );
		out.closestPair[0] = out.closestPair[1] = -1;
	}
	if ( outCount != NULL )
	{
		*outCount = out.count;
	}
	if ( outFeatures != NULL )
	{
		*outFeatures = out.features;
	}
	if ( outMinDistance != NULL )
	{
		*outMinDistance = out.minDistance;
	}
	if ( outClosestPair != NULL )
	{
		outClosestPair[0] = out.closestPair[0];
		outClosestPair[1] = out.closestPair[1];
	}
	if ( outVisits != NULL )
	{
		*outVisits = out.visits;
	}
	return status;
}
