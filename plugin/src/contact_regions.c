// SPDX-License-Identifier: MIT
// Contact regions: gathered feature pairs grouped by normal into regions, each with its
// candidate points (on B), their distances at the input poses and, with a motion hint, at the
// end of the step; seeds from the local PDs; merging regions whose normals came to agree; and
// the final normals the slots and reductions work with.
#include "contact_internal.h"

#define PDI_REGION_KEEP 12

// How much the gap of a contact at pointA (on A) along normal n changes over the step.
double pdiClosing( const pdiMotion* m, pdVec3 pointA, pdVec3 n )
{
	if ( m == NULL )
	{
		return 0.0;
	}
	pdVec3 d = pdiAdd( m->linear, pdiCross( m->rotation, pdiSub( pointA, m->pivot ) ) );
	double c = pdiDot( d, n );
	return isfinite( c ) ? c : 0.0;
}

pdiRegion* pdiNewRegion( pdiRegions* regions, pdVec3 normal, bool fromPenetration )
{
	if ( regions->count == PDI_BUILD_REGIONS )
	{
		return NULL;
	}
	pdiRegion* r = regions->items + regions->count++;
	r->normal = normal;
	r->axis = regions->axis;
	r->band = regions->band;
	r->motion = regions->motion;
	r->arrival = regions->arrival;
	r->impact = regions->impact;
	r->normalSum = pdiV3( 0.0, 0.0, 0.0 );
	r->normalCount = 0;
	r->edgeNormalSum = pdiV3( 0.0, 0.0, 0.0 );
	r->faceBNormalSum = pdiV3( 0.0, 0.0, 0.0 );
	r->minDistance = DBL_MAX;
	r->fromPenetration = fromPenetration;
	r->ownGaps = false;
	r->count = 0;
	return r;
}

// The first region whose normal is within cosine of normal, or a new one (NULL when full).
static pdiRegion* pdiRegionFor( pdiRegions* regions, pdVec3 normal, double cosine, bool fromPenetration )
{
	for ( int i = 0; i < regions->count; ++i )
	{
		if ( pdiDot( regions->items[i].normal, normal ) >= cosine )
		{
			return regions->items + i;
		}
	}
	return pdiNewRegion( regions, normal, fromPenetration );
}

// A point at a closest pair of the surfaces (pointA on A, pointB on B, distance > 0 apart) in
// the region whose normal agrees with their separation, or in a new region along it; false when
// the separation has no direction or every region slot is taken.
bool pdiAddClosestPair( pdiRegions* regions, pdVec3 pointA, pdVec3 pointB, double distance, double regionCosine )
{
	pdVec3 nrm = pdiNormalize( pdiSub( pointA, pointB ) );
	if ( !( pdiDot( nrm, nrm ) > 0.0 ) )
	{
		return false;
	}
	pdiRegion* r = pdiRegionFor( regions, nrm, regionCosine, false );
	if ( r == NULL )
	{
		return false;
	}
	if ( r->count == 0 )
	{
		r->normalSum = nrm;
		r->normalCount = 1;
	}
	pdVec3 offset = pdiScale( nrm, distance );
	pdiAddPoint( r, pointB, offset, pdiDot( offset, r->normal ) );
	return true;
}

// A full region keeps the deepest with the largest area, and the extremes along 8 directions
// fixed to B (stable picks for the final reduction).
static void pdiCompactRegion( pdiRegion* r )
{
	int picked[PDI_REGION_KEEP];
	double lowest = pdiLowest( r->predicted, r->count );
	int pc = pdiReduceDeepest( r, fmax( r->band, r->impact ? r->arrival - lowest : r->arrival ), picked );
	int stable[8];
	int sc = pdiReduceStable( r, 4, 0.0, r->band, stable, 8 );
	for ( int j = 0; j < sc && pc < PDI_REGION_KEEP; ++j )
	{
		if ( !pdiHasIndex( picked, pc, stable[j] ) )
		{
			picked[pc++] = stable[j];
		}
	}
	pdVec3 keptPoints[PDI_REGION_KEEP];
	pdVec3 keptOffsets[PDI_REGION_KEEP];
	double keptDistances[PDI_REGION_KEEP];
	double keptPredicted[PDI_REGION_KEEP];
	for ( int k = 0; k < pc; ++k )
	{
		keptPoints[k] = r->pointB[picked[k]];
		keptOffsets[k] = r->offset[picked[k]];
		keptDistances[k] = r->distance[picked[k]];
		keptPredicted[k] = r->predicted[picked[k]];
	}
	for ( int k = 0; k < pc; ++k )
	{
		r->pointB[k] = keptPoints[k];
		r->offset[k] = keptOffsets[k];
		r->distance[k] = keptDistances[k];
		r->predicted[k] = keptPredicted[k];
	}
	r->count = pc;
}

void pdiAddPoint( pdiRegion* r, pdVec3 pointB, pdVec3 offset, double distance )
{
	if ( r->count == PDI_REGION_CANDIDATES )
	{
		pdiCompactRegion( r );
	}
	r->pointB[r->count] = pointB;
	r->offset[r->count] = offset;
	r->distance[r->count] = distance;
	r->predicted[r->count] = distance + pdiClosing( r->motion, pdiMulAdd( pointB, distance, r->normal ), r->normal );
	r->count += 1;
	r->minDistance = fmin( r->minDistance, distance );
}

// Final normal (members' mean) and distances along it: (offset - translation) . normal.
void pdiFinishRegion( pdiRegion* r, pdVec3 translation, bool useMeanNormal )
{
	if ( useMeanNormal )
	{
		pdVec3 mean = pdiNormalize( r->normalSum );
		if ( pdiDot( mean, mean ) == 0.0 )
		{
			mean = pdiNormalize( r->edgeNormalSum );
		}
		if ( pdiDot( mean, mean ) > 0.0 )
		{
			r->normal = mean;
		}
	}
	r->minDistance = DBL_MAX;
	for ( int k = 0; k < r->count; ++k )
	{
		double d = pdiDot( pdiSub( r->offset[k], translation ), r->normal );
		if ( r->ownGaps )
		{
			d = d < 0.0 ? -pdiLength( r->offset[k] ) : pdiLength( r->offset[k] );
		}
		r->distance[k] = isfinite( d ) ? d : 0.0;
		r->minDistance = fmin( r->minDistance, r->distance[k] );
		pdVec3 pointA = pdiMulAdd( r->pointB[k], r->distance[k], r->normal );
		r->predicted[k] = r->distance[k] + pdiClosing( r->motion, pointA, r->normal );
	}
}

// A feature pair as a contact: its normal, its gap along it and its closest points' separation.
typedef struct pdiFeatureGap
{
	pdVec3 normal;
	double gap;
	pdVec3 sep; // pointA - pointB
	double sepLength;
} pdiFeatureGap;

// A pair facing along the global push that overlaps at the input poses (its gap at the contact
// configuration less the push along its normal is negative): a point of the overlap the push
// clears, whether or not it is locally closest.
static bool pdiInsideThePush( const pdiGrouping* g, pdVec3 normal, double gap )
{
	if ( g->translation == NULL )
	{
		return false;
	}
	pdVec3 t = *g->translation;
	double len = pdiLength( t );
	return len > 0.0 && pdiDot( normal, t ) >= g->regionCosine * len && gap - pdiDot( t, normal ) < 0.0;
}

// The feature's contact normal and gap; false when the pair is no contact.
static bool pdiFeatureGapOf( const pdiPosedPair* at, const pdContactFeature* f, const pdiGrouping* g,
							 pdiFeatureGap* out )
{
	double touchDistance = g->touchDistance;
	pdVec3 fn = pdiNormalize( f->normal );
	double gap = f->distance;
	if ( pdiDot( fn, fn ) == 0.0 || !pdiIsFiniteVec( f->pointB ) || !pdiIsFiniteVec( f->pointA ) || !isfinite( gap ) )
	{
		return false;
	}
	// A pair with a clear gap separates along its closest points; that direction is
	// reliable for every kind, while an edge-edge cross product of nearly parallel edges
	// is not. Touching pairs keep the feature normal.
	pdVec3 sep = pdiSub( f->pointA, f->pointB );
	double sepLength = pdiLength( sep );
	if ( g->overlapOnly && !( sepLength > touchDistance ) )
	{
		return false;
	}
	if ( g->oriented && gap <= touchDistance )
	{
		// Oriented out of B and applicable along it: a penetrating pair's separation points
		// into B, and its own normal is the contact's.
		*out = ( pdiFeatureGap ){ fn, gap, pdiScale( fn, gap ), fabs( gap ) };
		return true;
	}
	if ( sepLength <= touchDistance && f->kind == PD_CONTACT_EE )
	{
		// A touching edge-edge pair's normal is the edges' cross product: applicable only
		// when each edge is its mesh's extreme along it (the normal lies on both edges'
		// Gauss-map arcs). An edge inside a flat floor under a torus edge is not: its
		// cross product tilts 40 to 90 degrees, a standing sideways push on a resting
		// torus. The vertex-face pairs there carry the floor's normal.
		if ( !pdiPlugin_IsFeatureExtremeAlong( at->meshA, &at->poseA, at->meshB, &at->poseB, f, fn ) )
		{
			return false;
		}
	}
	if ( sepLength > touchDistance )
	{
		// An edge or vertex of either side that is not its mesh's closest part along the gap
		// (an edge of a flat floor under a tilted edge) would push sideways: its patch is
		// reported by the vertex-face pairs with the face's own normal. Vertex-face pairs
		// are kept: they are the patch (a tilted ring over a floor). Filling a sparse push
		// (pdiFillThePush) takes exactly the refused ones that lie inside its overlap.
		bool refused = f->kind != PD_CONTACT_VF &&
					   !pdiPlugin_IsFeatureExtremeAlong( at->meshA, &at->poseA, at->meshB, &at->poseB, f,
														 pdiSub( f->pointA, f->pointB ) );
		if ( g->overlapOnly ? !( refused && pdiInsideThePush( g, fn, gap ) ) : refused )
		{
			return false;
		}
		pdVec3 dir = pdiScale( sep, 1.0 / sepLength );
		if ( pdiDot( dir, fn ) > 0.0 )
		{
			fn = dir;
			gap = sepLength;
		}
		// A vertex behind a solid's face (in a thin floor sunk into from the top, above its
		// underside) is no contact with that face: reported, it reads the far side's gap at the
		// very point of A where the near side reads the depth.
		if ( pdiPlugin_IsFaceTurnedAway( at->meshA, &at->poseA, at->meshB, &at->poseB, f, fn ) )
		{
			return false;
		}
	}
	out->normal = fn;
	out->gap = gap;
	out->sep = sep;
	out->sepLength = sepLength;
	return true;
}

// At the PD contact configuration, pairs with a gap only count as other regions of the same
// push (the far side of a ring on a ring): their normal must agree with the PD. A moving body
// is the exception: a part of it that will arrive within the step (predicted distance under
// the arrival band) is a contact whatever its normal.
static bool pdiJoinsThePush( const pdiGrouping* g, const pdiRegions* regions, const pdContactFeature* f,
							 const pdiFeatureGap* fg )
{
	if ( g->translation == NULL || !( fg->gap > g->touchDistance ) )
	{
		return true;
	}
	pdVec3 t = *g->translation;
	double len = pdiLength( t );
	if ( !( len > 0.0 && pdiDot( fg->normal, t ) < g->regionCosine * len ) )
	{
		return true;
	}
	double now = fg->gap - pdiDot( t, fg->normal );
	pdVec3 pointA = pdiMulAdd( f->pointB, now, fg->normal );
	return regions->arrival > 0.0 && now + pdiClosing( regions->motion, pointA, fg->normal ) < regions->arrival;
}

// Adds the feature's normal to the region's sums (the mean is the region normal) and its point.
static void pdiJoinRegion( pdiRegion* r, const pdContactFeature* f, const pdiFeatureGap* fg, const pdVec3* translation )
{
	// Edge-edge normals of a polyhedral contact tilt with the tessellation; face normals are
	// the surface's, so they set the region normal whenever one is present.
	if ( f->kind == PD_CONTACT_EE )
	{
		r->edgeNormalSum = pdiAdd( r->edgeNormalSum, fg->normal );
	}
	else
	{
		r->normalSum = pdiAdd( r->normalSum, fg->normal );
		r->normalCount += 1;
		if ( f->kind == PD_CONTACT_VF )
		{
			r->faceBNormalSum = pdiAdd( r->faceBNormalSum, fg->normal );
		}
	}
	pdVec3 mean = pdiNormalize( pdiDot( r->normalSum, r->normalSum ) > 0.0 ? r->normalSum : r->edgeNormalSum );
	if ( pdiDot( mean, mean ) > 0.0 )
	{
		r->normal = mean;
	}
	// The point's gap is its pair's separation measured along the region normal (the
	// normal the engine will push along), not the pair's own gap along its own normal.
	pdVec3 offset = fg->sepLength > 0.0 ? fg->sep : pdiScale( fg->normal, fg->gap );
	double distance = pdiDot( offset, r->normal ) - ( translation != NULL ? pdiDot( *translation, r->normal ) : 0.0 );
	pdiAddPoint( r, f->pointB, offset, isfinite( distance ) ? distance : 0.0 );
}

// Groups features by normal, the closest feature first (it seeds the first region's normal).
// When g->translation is given (features gathered at the PD contact configuration), a point's
// distance at the input poses is its distance there minus (translation . regionNormal).
void pdiGroupFeatures( const pdiPosedPair* at, const pdContactFeature* features, int featureCount, const pdiGrouping* g,
					   pdiRegions* regions )
{
	if ( features == NULL || featureCount <= 0 )
	{
		return;
	}
	int closest = 0;
	for ( int i = 1; i < featureCount; ++i )
	{
		if ( features[i].distance < features[closest].distance )
		{
			closest = i;
		}
	}
	for ( int k = -1; k < featureCount; ++k )
	{
		if ( k == closest )
		{
			continue;
		}
		const pdContactFeature* f = features + ( k < 0 ? closest : k );
		pdiFeatureGap fg;
		if ( !pdiFeatureGapOf( at, f, g, &fg ) || !pdiJoinsThePush( g, regions, f, &fg ) )
		{
			continue;
		}
		// Distance at the input poses; pairs further apart than maxDistance are no contact.
		double estimate = g->translation != NULL ? fg.gap - pdiDot( *g->translation, fg.normal ) : fg.gap;
		if ( !( estimate <= g->maxDistance ) )
		{
			continue;
		}
		pdiRegion* r = pdiRegionFor( regions, fg.normal, g->regionCosine, false );
		if ( r != NULL )
		{
			pdiJoinRegion( r, f, &fg, g->translation );
		}
	}
}

// The region along the global push with fewer than three points (none counts) takes the pairs
// inside the push's overlap that the applicability test refused. A box tipped across a
// tessellated tube overlaps it under its whole bottom face, but only the tangent point is an
// applicable pair: a manifold of that one point lets the box turn about it and sink its other
// end into the tube within the step. A push with a patch of its own (a ring resting on a ring)
// keeps just its applicable pairs.
void pdiFillThePush( const pdiPosedPair* at, const pdContactFeature* features, int featureCount, const pdiGrouping* g,
					 pdiRegions* regions )
{
	if ( g->translation == NULL )
	{
		return;
	}
	pdVec3 t = *g->translation;
	double len = pdiLength( t );
	if ( !( len > 0.0 ) )
	{
		return;
	}
	for ( int i = 0; i < regions->count; ++i )
	{
		const pdiRegion* r = regions->items + i;
		if ( r->count >= 3 && pdiDot( r->normal, t ) >= g->regionCosine * len )
		{
			return;
		}
	}
	pdiGrouping overlap = *g;
	overlap.overlapOnly = true;
	pdiGroupFeatures( at, features, featureCount, &overlap, regions );
}

// One region seed (a normal, no points yet) per local PD; local PDs whose normals agree
// (regionCosine) share a seed: the plugin's regions are one per normal, so two separate
// patches with one normal (the core's two local PDs) make one manifold.
// The points come from the gathering at the contact configuration, which covers the local PDs'
// own points with their gaps: the core's points count every pair within its tolerance (0.2 mm
// on a 1 m torus) as touching, and reported at the full depth a slightly tilted resting body
// looks level until it drops.
void pdiRegionsFromLocal( const pdPenetrationResult* pr, double regionCosine, pdiRegions* regions )
{
	int n = pr->localCount < PD_MAX_LOCAL_REGIONS ? pr->localCount : PD_MAX_LOCAL_REGIONS;
	for ( int i = 0; i < n; ++i )
	{
		const pdLocalPenetration* lp = pr->local + i;
		pdVec3 nrm = pdiNormalize( lp->normal );
		if ( pdiDot( nrm, nrm ) == 0.0 || lp->pointCount <= 0 )
		{
			continue;
		}
		pdiRegion* r = pdiRegionFor( regions, nrm, regionCosine, true );
		if ( r != NULL )
		{
			r->normalSum = pdiAdd( r->normalSum, nrm );
			r->normalCount += 1;
		}
	}
}

// Drops the seeds (from local PDs) that no gathered pair joined.
void pdiDropEmptyRegions( pdiRegions* regions )
{
	int kept = 0;
	for ( int k = 0; k < regions->count; ++k )
	{
		if ( regions->items[k].count > 0 )
		{
			regions->items[kept++] = regions->items[k];
		}
	}
	regions->count = kept;
}

// Means drift while features join, so two regions can end up with agreeing normals (one
// patch seen from a local PD and from features): fold them together.
static void pdiMergeRegions( pdiRegions* regions, double regionCosine, pdVec3 translation )
{
	for ( int i = 0; i < regions->count; ++i )
	{
		for ( int j = regions->count - 1; j > i; --j )
		{
			pdiRegion* a = regions->items + i;
			pdiRegion* b = regions->items + j;
			if ( pdiDot( a->normal, b->normal ) < regionCosine )
			{
				continue;
			}
			a->normalSum = pdiAdd( a->normalSum, b->normalSum );
			a->normalCount += b->normalCount;
			a->edgeNormalSum = pdiAdd( a->edgeNormalSum, b->edgeNormalSum );
			a->faceBNormalSum = pdiAdd( a->faceBNormalSum, b->faceBNormalSum );
			a->fromPenetration = a->fromPenetration || b->fromPenetration;
			for ( int k = 0; k < b->count; ++k )
			{
				pdiAddPoint( a, b->pointB[k], b->offset[k], b->distance[k] );
			}
			pdiFinishRegion( a, translation, true );
			regions->items[j] = regions->items[regions->count - 1];
			regions->count -= 1;
		}
	}
}

// Mean normals and distances along them, agreeing regions merged, and the PD direction as the
// normal of the region the global PD pushes along: the mean of its features' normals tilts
// with the tessellation and with which side of a ring happens to touch, and a tilted normal
// on a resting stack is a steady sideways push.
void pdiSettleNormals( pdiRegions* regions, double regionCosine, pdVec3 translation )
{
	for ( int i = 0; i < regions->count; ++i )
	{
		pdiFinishRegion( regions->items + i, translation, true );
	}
	pdiMergeRegions( regions, regionCosine, translation );
	double translationLength = pdiLength( translation );
	if ( translationLength > 0.0 )
	{
		pdVec3 push = pdiScale( translation, 1.0 / translationLength );
		for ( int i = 0; i < regions->count; ++i )
		{
			if ( pdiDot( regions->items[i].normal, push ) >= regionCosine )
			{
				regions->items[i].normal = push;
				pdiFinishRegion( regions->items + i, translation, false );
			}
		}
	}
}
