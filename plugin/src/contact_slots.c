// SPDX-License-Identifier: MIT
// Manifold slots and persistence: regions matched to last frame's slots by normal (held
// normals for resting contacts), a resting patch's points kept where they still bear load, the
// manifolds written with their points and remembered in B's frame, deepest first, and points
// that a deeper region already covers dropped.
#include "contact_internal.h"

// Slot matching: a region takes over last frame's slot when the normals are this close.
#define PDI_SLOT_COSINE 0.9

// Region indices by minDistance, deepest first (a stable insertion sort: ties keep their order).
static void pdiOrderByDepth( const pdiRegions* regions, int order[PDI_BUILD_REGIONS] )
{
	for ( int i = 0; i < regions->count; ++i )
	{
		int j = i;
		while ( j > 0 && regions->items[order[j - 1]].minDistance > regions->items[i].minDistance )
		{
			order[j] = order[j - 1];
			--j;
		}
		order[j] = i;
	}
}

// The untaken slot used last frame whose normal is closest to normal (cosine at least
// PDI_SLOT_COSINE), or -1; writes that cosine and the slot's normal in world.
static int pdiMatchingSlot( const pdiPairState* pair, pdQuat qB, unsigned taken, pdVec3 normal,
							double* outCosine, pdVec3* outNormal )
{
	int best = -1;
	double bestCos = PDI_SLOT_COSINE;
	for ( int s = 0; s < PD_MAX_CONTACT_MANIFOLDS; ++s )
	{
		if ( ( pair->slotMask & ( 1u << s ) ) == 0 || ( taken & ( 1u << s ) ) != 0 )
		{
			continue;
		}
		pdVec3 w = pdiRotate( qB, pair->slotNormals[s] );
		double c = pdiDot( w, normal );
		if ( c >= bestCos )
		{
			bestCos = c;
			best = s;
			*outNormal = w;
		}
	}
	*outCosine = bestCos;
	return best;
}

// An untaken slot, preferring one that was free last frame; -1 when all are taken.
static int pdiFreeSlot( const pdiPairState* pair, unsigned taken )
{
	for ( int s = 0; s < PD_MAX_CONTACT_MANIFOLDS; ++s )
	{
		if ( ( pair->slotMask & ( 1u << s ) ) == 0 && ( taken & ( 1u << s ) ) == 0 )
		{
			return s;
		}
	}
	for ( int s = 0; s < PD_MAX_CONTACT_MANIFOLDS; ++s )
	{
		if ( ( taken & ( 1u << s ) ) == 0 )
		{
			return s;
		}
	}
	return -1;
}

// Assigns every region (deepest first) to a slot: the unused slot whose last normal is
// closest (cosine >= PDI_SLOT_COSINE), else a slot that was free last frame, else any unused
// one. Regions beyond the slot count are dropped (the shallowest ones).
void pdiAssignSlots( pdiPairState* pair, pdQuat qB, const pdContactDef* def, pdiRegions* regions,
					 int slotOfRegion[PDI_BUILD_REGIONS] )
{
	int order[PDI_BUILD_REGIONS];
	int n = regions->count;
	pdiOrderByDepth( regions, order );
	unsigned taken = 0;
	for ( int k = 0; k < n; ++k )
	{
		int ri = order[k];
		pdiRegion* r = regions->items + ri;
		slotOfRegion[ri] = -1;
		double bestCos;
		pdVec3 oldWorld = pdiV3( 0.0, 0.0, 0.0 );
		int best = pdiMatchingSlot( pair, qB, taken, r->normal, &bestCos, &oldWorld );
		if ( best >= 0 )
		{
			// Hold last frame's normal when it barely moved: resting contacts stay still.
			if ( bestCos >= def->holdCosine && def->holdCosine < 1.0 )
			{
				r->normal = pdiNormalize( oldWorld );
			}
		}
		else
		{
			best = pdiFreeSlot( pair, taken );
		}
		if ( best >= 0 )
		{
			taken |= 1u << best;
			slotOfRegion[ri] = best;
		}
	}
	pair->slotMask = taken;
	for ( int i = 0; i < n; ++i )
	{
		if ( slotOfRegion[i] >= 0 )
		{
			pair->slotNormals[slotOfRegion[i]] = pdiRotateInv( qB, regions->items[i].normal );
		}
	}
}

// Last call's points of the slot (posed with B) that still have a supporting candidate (within
// band of the deepest) within matchRadius: each takes its nearest such candidate, once.
// Returns the count written to kept.
static int pdiMatchPrevious( const pdiPairState* pair, pdQuat qB, pdVec3 pB, int slot, const pdiRegion* r,
							 double band, double matchRadius, int kept[PD_MAX_CONTACT_POINTS] )
{
	int previous = pair->slotPointCount[slot];
	double lowest = pdiLowest( r->distance, r->count );
	int keptCount = 0;
	for ( int k = 0; k < previous && k < PD_MAX_CONTACT_POINTS; ++k )
	{
		pdVec3 old = pdiAdd( pdiRotate( qB, pair->slotPoints[slot][k] ), pB );
		int best = -1;
		double bestLength = matchRadius;
		for ( int i = 0; i < r->count; ++i )
		{
			double len = pdiLength( pdiSub( r->pointB[i], old ) );
			if ( r->distance[i] <= lowest + band && len <= bestLength )
			{
				bestLength = len;
				best = i;
			}
		}
		if ( best >= 0 && !pdiHasIndex( kept, keptCount, best ) )
		{
			kept[keptCount++] = best;
		}
	}
	return keptCount;
}

// Fills the kept set up with fresh picks that are not next to a kept point, each time the one
// that widens the kept set most (in pick order, a lost corner's replacement can come after
// picks that crowd one side, and a patch held on one side only tips the body over the other).
// Returns the new count.
static int pdiFillWidest( const pdiRegion* r, double matchRadius, const int* picked, int pc,
						  int kept[PD_MAX_CONTACT_POINTS], int keptCount )
{
	while ( keptCount < PD_MAX_CONTACT_POINTS )
	{
		int bestPick = -1;
		double bestArea = -1.0;
		for ( int j = 0; j < pc; ++j )
		{
			bool near = false;
			for ( int k = 0; k < keptCount; ++k )
			{
				near = near || pdiLength( pdiSub( r->pointB[picked[j]], r->pointB[kept[k]] ) ) <= matchRadius;
			}
			if ( near )
			{
				continue;
			}
			pdVec3 trial[PD_MAX_CONTACT_POINTS];
			for ( int k = 0; k < keptCount; ++k )
			{
				trial[k] = r->pointB[kept[k]];
			}
			trial[keptCount] = r->pointB[picked[j]];
			double area = pdiHullArea4( r->normal, trial, keptCount + 1 );
			if ( area > bestArea )
			{
				bestArea = area;
				bestPick = j;
			}
		}
		if ( bestPick < 0 )
		{
			break;
		}
		kept[keptCount++] = picked[bestPick];
	}
	return keptCount;
}

// Hull area of the region's points at the given indices.
static double pdiPickedArea( const pdiRegion* r, const int* indices, int count )
{
	pdVec3 points[PD_MAX_CONTACT_POINTS];
	for ( int j = 0; j < count; ++j )
	{
		points[j] = r->pointB[indices[j]];
	}
	return pdiHullArea4( r->normal, points, count );
}

// Point persistence for a resting patch: last call's points of the slot that still have a
// supporting candidate within matchRadius keep it, so the engine's cache matches them and
// warm-starts; the fresh picks fill the rest. The kept set is used only when it spans at least
// half the fresh picks' area (a patch that moved on gets fresh points). Returns the count.
static int pdiKeepPrevious( const pdiPairState* pair, pdQuat qB, pdVec3 pB, int slot, const pdiRegion* r,
							double band, double matchRadius, int* picked, int pc )
{
	if ( pair->slotPointCount[slot] <= 0 || pc <= 0 )
	{
		return pc;
	}
	int kept[PD_MAX_CONTACT_POINTS];
	int keptCount = pdiMatchPrevious( pair, qB, pB, slot, r, band, matchRadius, kept );
	keptCount = pdiFillWidest( r, matchRadius, picked, pc, kept, keptCount );
	double freshArea = pdiPickedArea( r, picked, pc );
	double keptArea = pdiPickedArea( r, kept, keptCount );
	if ( keptCount < pc || keptArea < 0.5 * freshArea )
	{
		return pc;
	}
	for ( int j = 0; j < keptCount; ++j )
	{
		picked[j] = kept[j];
	}
	return keptCount;
}

// The region's points for its manifold. Resting patches (shallow, A slow relative to B) keep
// point identity frame to frame, and a wide one takes its plane on B as the normal (see
// pdiPatchNormal; *outFlat says whether its faces lie flat on each other); impacts keep the deepest point and the largest area, which
// resolves them fastest. Returns the count; the deepest is first.
static int pdiPickPoints( pdiCall* call, pdiRegion* r, bool resting, int slot, int picked[PD_MAX_CONTACT_POINTS],
						  bool* outFlat )
{
	*outFlat = false;
	const pdContactDef* def = call->def;
	int pc = resting     ? pdiReduceStable( r, 2, call->deepMargin, call->supportBand, picked, PD_MAX_CONTACT_POINTS )
			 : r->impact ? pdiReduceImpact( r, 0.25 * def->contactDistance, picked )
			 : r->arrival > 0.0 ? pdiReduceDeepest( r, fmax( r->band, r->arrival ), picked )
								: pdReduceContactPoints( r->normal, r->pointB, r->predicted, r->count, picked );
	if ( resting )
	{
		pc = pdiKeepPrevious( call->pair, call->qB, call->poseB->p, slot, r, call->supportBand,
							  0.5 * def->contactDistance + 4.0 * call->tolerance, picked, pc );
	}
	double minDiag = fmin( call->diagA, call->diagB );
	pdVec3 planeNormal;
	if ( resting && pdiPatchNormal( r, picked, pc, 0.01 * minDiag * minDiag, PDI_PLANE_COSINE, &planeNormal ) )
	{
		*outFlat = r->normalCount > 0 && pdiLength( r->normalSum ) >= PDI_FLAT_FACE_COSINE * r->normalCount;
		r->normal = planeNormal;
		pdiFinishRegion( r, call->translation, false );
		call->pair->slotNormals[slot] = pdiRotateInv( call->qB, planeNormal );
		pdiDeepestFirst( r->distance, picked, pc );
	}
	return pc;
}

// The manifold's points with their distances as the engine sees them: less the skin. With a
// skin, a resting pair is touching as the engine sees it while its surfaces are a skin apart.
static void pdiWritePoints( const pdiCall* call, const pdiRegion* r, bool resting, const int* picked, int pc,
							pdContactManifold* m )
{
	double supportBand = call->supportBand;
	double minReported = r->minDistance - call->skin;
	bool touching = call->pr.state == PD_STATE_TOUCHING || minReported <= call->tolerance;
	for ( int k = 0; k < pc; ++k )
	{
		pdContactPoint* cp = m->points + k;
		cp->pointB = r->pointB[picked[k]];
		cp->distance = r->distance[picked[k]] - call->skin;
		// A resting, penetrating patch: its support points a hair above zero are the same
		// surface within the feature noise. Left positive, the engine lets A approach
		// through them for a step (speculative contact), and the stack bobs.
		// The same holds for a touching patch (its support level with its closest point):
		// else a resting body whose pair flips from penetrating to touching sees its support
		// drop by up to the band in one step, and falls onto it.
		if ( resting && minReported < 0.0 && cp->distance > 0.0 && cp->distance <= supportBand )
		{
			cp->distance = 0.0;
		}
		else if ( resting && touching && minReported >= 0.0 && cp->distance > minReported &&
				  cp->distance <= minReported + supportBand )
		{
			cp->distance = minReported;
		}
		cp->pointA = pdiMulAdd( cp->pointB, cp->distance, r->normal );
	}
}

// One manifold per region that got a slot, its points remembered in B's frame for the next
// call; slots without a manifold forget their points. Returns the sum of the normals weighted
// by depth (plus the tolerance), the side A leaves toward.
pdVec3 pdiWriteManifolds( pdiCall* call, pdiRegions* regions, const int slotOfRegion[PDI_BUILD_REGIONS] )
{
	pdiPairState* pair = call->pair;
	pdContactManifoldSet* set = call->set;
	pdVec3 sideSum = pdiV3( 0.0, 0.0, 0.0 );
	unsigned written = 0;
	for ( int i = 0; i < regions->count; ++i )
	{
		pdiRegion* r = regions->items + i;
		int slot = slotOfRegion[i];
		if ( slot < 0 || r->count == 0 )
		{
			continue;
		}
		pdiFinishRegion( r, call->translation, false ); // the normal may have been held
		bool resting = r->minDistance > -call->restDepth && call->slow;
		int picked[PD_MAX_CONTACT_POINTS];
		bool flat = false;
		int pc = pdiPickPoints( call, r, resting, slot, picked, &flat );
		pdContactManifold* m = set->manifolds + set->manifoldCount++;
		m->slot = slot;
		m->normal = r->normal;
		m->pointCount = pc;
		m->restingFlat = flat;
		pdiWritePoints( call, r, resting, picked, pc, m );
		sideSum = pdiMulAdd( sideSum, fmax( -r->minDistance, 0.0 ) + call->tolerance, r->normal );
		written |= 1u << slot;
		pair->slotPointCount[slot] = pc;
		for ( int k = 0; k < pc; ++k )
		{
			pair->slotPoints[slot][k] = pdiRotateInv( call->qB, pdiSub( m->points[k].pointB, call->poseB->p ) );
		}
	}
	for ( int s = 0; s < PD_MAX_CONTACT_MANIFOLDS; ++s )
	{
		if ( ( written & ( 1u << s ) ) == 0 )
		{
			pair->slotPointCount[s] = 0;
		}
	}
	return sideSum;
}

// Deepest manifold (by its first point) first; a stable insertion sort.
void pdiSortManifolds( pdContactManifoldSet* set )
{
	for ( int i = 1; i < set->manifoldCount; ++i )
	{
		pdContactManifold key = set->manifolds[i];
		int j = i;
		while ( j > 0 && set->manifolds[j - 1].points[0].distance > key.points[0].distance )
		{
			set->manifolds[j] = set->manifolds[j - 1];
			--j;
		}
		set->manifolds[j] = key;
	}
}

// True when a point of the first keptCount manifolds lies within samePlace of pointB.
static bool pdiCovered( const pdContactManifoldSet* set, int keptCount, pdVec3 pointB, double samePlace )
{
	bool covered = false;
	for ( int j = 0; j < keptCount && !covered; ++j )
	{
		const pdContactManifold* d = set->manifolds + j;
		for ( int q = 0; q < d->pointCount && !covered; ++q )
		{
			covered = pdiLength( pdiSub( d->points[q].pointB, pointB ) ) <= samePlace;
		}
	}
	return covered;
}

// A point at the same place as a point of a deeper region is one contact seen through two
// features (a vertex or edge crossing with an ill-defined normal); keeping it only adds a
// sideways push, so the deeper region keeps it alone. A manifold left without points frees
// its slot.
void pdiDropCoveredPoints( pdiCall* call )
{
	pdContactManifoldSet* set = call->set;
	double samePlace = fmax( 8.0 * call->tolerance, 0.1 * call->def->contactDistance );
	int keptManifolds = 0;
	for ( int i = 0; i < set->manifoldCount; ++i )
	{
		pdContactManifold* m = set->manifolds + i;
		int pc = 0;
		for ( int k = 0; k < m->pointCount; ++k )
		{
			if ( !pdiCovered( set, keptManifolds, m->points[k].pointB, samePlace ) )
			{
				m->points[pc++] = m->points[k];
			}
		}
		m->pointCount = pc;
		if ( pc == 0 )
		{
			call->pair->slotPointCount[m->slot] = 0;
			call->pair->slotMask &= ~( 1u << m->slot );
			continue;
		}
		if ( keptManifolds != i )
		{
			set->manifolds[keptManifolds] = *m;
		}
		++keptManifolds;
	}
	set->manifoldCount = keptManifolds;
}
