// SPDX-License-Identifier: MIT
// Rounded shapes against a mesh: the deepest point of the skeleton, the contacts of the
// spheres at its ends and at that point, and the translation that clears B, verified.
//
// The deepest point's signed distance f gives a certified lower bound r - f of the PD (the
// signed distance is 1-Lipschitz, so the deepest point must travel at least that far). The
// translation along that point's normal by r - f is tried first and verified by the search at
// the moved pose; it clears B whenever the deepest point's nearest surface is the one to leave
// through (a sphere against any convex mesh, a sphere or capsule resting or sinking into a
// floor), and the answer is then exact. Otherwise (a segment pressed between opposite sides)
// the contacts at the tried poses become contact planes and the closest translation meeting
// them all is taken, as in PolyDepth's in-projection, verified again; past the step cap a
// translation out of B's bounding sphere is returned, which always clears it.
#include "polydepth/rounded.h"

#include "core.h"
#include "lcp.h"
#include "pair_query.h"
#include "proximity.h"
#include "rounded_segment.h"

#include <string.h>

// Contacts gathered per skeleton point before merging.
#define PDI_ROUNDED_POINT_CONTACTS 8
// Contact planes the push-out keeps.
#define PDI_ROUNDED_MAX_PLANES 48

typedef struct pdiRoundedQuery
{
	const pdMesh* mesh;
	pdWorkspace* ws;
	pdVec3 s0, s1; ///< skeleton in B's mesh frame (s1 = s0 for a point)
	bool segment;
	double radius;
	double tolerance;
	double contactDistance;
	pdVec3 approach;  ///< B's mesh frame
	pdVec3 preferred; ///< B's mesh frame, unit or zero
	int maxEvaluations;
	int evaluations;
} pdiRoundedQuery;

// A contact in B's mesh frame.
typedef struct pdiRoundedPoint
{
	pdVec3 pointB;
	pdVec3 normal;
	double distance;
	double u;
	int triangle;
	pdiTriFeature feature;
} pdiRoundedPoint;

// The deepest skeleton point at one translation t of A.
typedef struct pdiDeepest
{
	double u;
	double value; ///< signed distance (upper bound of the minimum)
	double bound; ///< lower bound of the minimum
	bool capped;
	pdVec3 normal;      ///< on B toward the skeleton point
	bool throughSheet;  ///< a segment crossing an open mesh (value is then radius - depth)
	pdiSurfacePoint at; ///< the surface point nearest the deepest point
} pdiDeepest;

static pdVec3 pdiRounded_At( const pdiRoundedQuery* q, pdVec3 t, double u )
{
	return pdiAdd( pdiLerp( q->s0, q->s1, u ), t );
}

// The normal at surface point sp toward skeleton point x: from sp to x outside, from x to sp
// inside a closed mesh, the feature's pseudonormal when x lies on the surface (for an open
// mesh turned against the approach: A came from -approach).
static pdVec3 pdiRounded_Normal( const pdiRoundedQuery* q, pdVec3 x, const pdiSurfacePoint* sp, bool inside )
{
	pdVec3 d = pdiSub( x, sp->point );
	double len = pdiLength( d );
	if ( len > 1e-12 * ( q->mesh->diagonal + q->radius ) )
	{
		return pdiScale( d, ( inside ? -1.0 : 1.0 ) / len );
	}
	pdVec3 n = pdiMesh_FeatureNormal( q->mesh, sp->triangle, sp->feature );
	if ( !q->mesh->closed && pdiDot( n, q->approach ) > 0.0 )
	{
		n = pdiNeg( n );
	}
	return n;
}

// Whether skeleton point x, outside a closed mesh, lies in front of surface point sp (on the
// outward side of its feature's pseudonormal). A local minimum of the unsigned distance behind
// its feature is the far side of a wall seen through the solid: a sphere centred at x cannot
// touch it without first crossing the near side, and as a contact it would hold A up at the
// far side (over a thin floor, a whole thickness deep). Points on the surface and open meshes
// (two-sided sheets) always count.
static bool pdiRounded_Faces( const pdiRoundedQuery* q, pdVec3 x, const pdiSurfacePoint* sp )
{
	if ( !q->mesh->closed || sp->distance <= q->tolerance )
	{
		return true;
	}
	return pdiDot( pdiSub( x, sp->point ), pdiMesh_FeatureNormal( q->mesh, sp->triangle, sp->feature ) ) > 0.0;
}

// A way out of a closed mesh (a normal and a length), sorted shortest first, that leaves toward
// the preferred side: its normal within 60 degrees of it, taken over the shortest when that
// one is opposite it (within 60 degrees of the other way) and the way is at most twice as long.
// A point that crossed the middle of a thin wall it came over leaves the way it came, not
// through the far face; a point in a block, where the opposite face is farther than that, or a
// shortest way across the preferred side, is not turned. Returns the index taken (0: the
// shortest).
#define PDI_ROUNDED_PREFERRED_COSINE 0.5
#define PDI_ROUNDED_PREFERRED_RATIO 2.0
static int pdiRounded_Preferred( const pdiRoundedQuery* q, const pdiContactPlane* exits, int count )
{
	if ( count < 2 || pdiLengthSq( q->preferred ) == 0.0 ||
		 pdiDot( exits[0].normal, q->preferred ) >= -PDI_ROUNDED_PREFERRED_COSINE )
	{
		return 0;
	}
	for ( int k = 1; k < count && exits[k].offset <= PDI_ROUNDED_PREFERRED_RATIO * exits[0].offset; ++k )
	{
		if ( pdiDot( exits[k].normal, q->preferred ) > PDI_ROUNDED_PREFERRED_COSINE )
		{
			return k;
		}
	}
	return 0;
}

// The contacts of the sphere at skeleton point x (parameter u): the local minima of the
// distance within radius + contactDistance that x faces outside; inside a closed mesh the
// nearest surface, or the one toward the preferred side (pdiRounded_Preferred).
// Returns x's signed distance; *ioCount grows by the contacts written.
static double pdiRounded_PointContacts( pdiRoundedQuery* q, pdVec3 x, double u, pdiRoundedPoint* out, int capacity,
										int* ioCount )
{
	pdiSurfacePoint closest;
	if ( !pdiMesh_ClosestPoint( q->mesh, x, INFINITY, q->ws, &closest ) )
	{
		return INFINITY;
	}
	++q->evaluations;
	bool inside = q->mesh->closed && closest.distance > 0.0 && pdiMesh_ContainsPoint( q->mesh, x, q->ws );
	bool preferring = inside && pdiLengthSq( q->preferred ) > 0.0;
	double reach = q->radius + q->contactDistance;
	if ( inside )
	{
		// Ways out are as deep as radius + distance; the preferred one may be twice as deep.
		reach = preferring ? PDI_ROUNDED_PREFERRED_RATIO * ( q->radius + closest.distance ) - q->radius + q->tolerance
						   : closest.distance + q->tolerance;
	}
	pdiSurfacePoint minima[PDI_ROUNDED_POINT_CONTACTS];
	int n = pdiMesh_PointLocalMinima( q->mesh, x, reach, q->ws, minima, PDI_ROUNDED_POINT_CONTACTS, NULL );
	int chosen = -1; // inside: the minimum toward the preferred side, or -1 for the nearest ones
	if ( preferring && n > 1 )
	{
		pdiContactPlane exits[PDI_ROUNDED_POINT_CONTACTS];
		for ( int i = 0; i < n; ++i )
		{
			exits[i] =
				( pdiContactPlane ){ pdiRounded_Normal( q, x, minima + i, true ), q->radius + minima[i].distance, -1 };
		}
		int k = pdiRounded_Preferred( q, exits, n );
		chosen = k > 0 ? k : -1;
	}
	for ( int i = 0; i < n && *ioCount < capacity; ++i )
	{
		if ( inside ? ( chosen >= 0 ? i != chosen : minima[i].distance > closest.distance + q->tolerance )
					: !pdiRounded_Faces( q, x, minima + i ) )
		{
			continue;
		}
		pdiRoundedPoint* c = out + ( *ioCount )++;
		c->pointB = minima[i].point;
		c->normal = pdiRounded_Normal( q, x, minima + i, inside );
		c->distance = ( inside ? -minima[i].distance : minima[i].distance ) - q->radius;
		c->u = u;
		c->triangle = minima[i].triangle;
		c->feature = minima[i].feature;
	}
	return inside ? -closest.distance : closest.distance;
}

// A segment through an open mesh: its crossing point's normal, turned to the side A came from
// (or, without an approach, the side that is shorter to leave toward), and the depth along it.
static pdVec3 pdiRounded_SheetNormal( const pdiRoundedQuery* q, pdVec3 t, const pdiSurfacePoint* sp, double* outDepth )
{
	pdVec3 n = pdiMesh_FeatureNormal( q->mesh, sp->triangle, sp->feature );
	double behind[2] = { 0.0, 0.0 }; // how far the ends lie behind the surface, for n and -n
	for ( int e = 0; e < 2; ++e )
	{
		double h = pdiDot( pdiSub( pdiRounded_At( q, t, (double)e ), sp->point ), n );
		behind[0] = pdiMaxD( behind[0], -h );
		behind[1] = pdiMaxD( behind[1], h );
	}
	bool flip = pdiLengthSq( q->approach ) > 0.0 ? pdiDot( n, q->approach ) > 0.0 : behind[1] < behind[0];
	*outDepth = q->radius + ( flip ? behind[1] : behind[0] );
	return flip ? pdiNeg( n ) : n;
}

static pdiDeepest pdiRounded_Deepest( pdiRoundedQuery* q, pdVec3 t )
{
	pdiDeepest d;
	memset( &d, 0, sizeof( d ) );
	d.value = d.bound = INFINITY;
	d.normal = pdiV3( 0.0, 0.0, 1.0 );
	d.at.triangle = -1;
	if ( !q->segment )
	{
		pdiSurfacePoint closest;
		bool inside = false;
		pdVec3 x = pdiRounded_At( q, t, 0.0 );
		d.value = d.bound = pdiMesh_SignedDistance( q->mesh, x, q->ws, &closest, &inside );
		d.at = closest;
		++q->evaluations;
		if ( closest.triangle >= 0 )
		{
			d.normal = pdiRounded_Normal( q, x, &closest, inside );
		}
		return d;
	}
	pdiSegmentDeepest s;
	pdiMesh_SegmentDeepest( q->mesh, pdiRounded_At( q, t, 0.0 ), pdiRounded_At( q, t, 1.0 ), q->tolerance,
							q->maxEvaluations, q->ws, &s );
	q->evaluations += s.evaluations;
	d.u = s.u;
	d.value = s.value;
	d.bound = s.bound;
	d.capped = s.capped;
	d.at = s.closest;
	if ( s.closest.triangle < 0 )
	{
		return d;
	}
	if ( !q->mesh->closed && !( s.value > 0.0 ) )
	{
		double depth;
		d.normal = pdiRounded_SheetNormal( q, t, &s.closest, &depth );
		d.value = d.bound = q->radius - depth; // as deep as the far end lies behind the sheet
		d.throughSheet = true;
		return d;
	}
	d.normal = pdiRounded_Normal( q, pdiRounded_At( q, t, s.u ), &s.closest, s.inside );
	return d;
}

// Every contact of A translated by t: the end spheres' and the deepest point's (when it lies
// between the ends and deeper than both). Sorted deepest first, coincident ones merged.
static int pdiRounded_Contacts( pdiRoundedQuery* q, pdVec3 t, const pdiDeepest* deepest, pdiRoundedPoint* out,
								int capacity )
{
	pdiRoundedPoint raw[3 * PDI_ROUNDED_POINT_CONTACTS];
	int count = 0;
	double f0 =
		pdiRounded_PointContacts( q, pdiRounded_At( q, t, 0.0 ), 0.0, raw, 3 * PDI_ROUNDED_POINT_CONTACTS, &count );
	double f1 = f0;
	if ( q->segment )
	{
		f1 =
			pdiRounded_PointContacts( q, pdiRounded_At( q, t, 1.0 ), 1.0, raw, 3 * PDI_ROUNDED_POINT_CONTACTS, &count );
		if ( deepest->throughSheet )
		{
			// Through a sheet: one contact at the crossing, toward the side chosen; the end
			// spheres on the other side would push A further through.
			int kept = 0;
			for ( int i = 0; i < count; ++i )
			{
				if ( pdiDot( raw[i].normal, deepest->normal ) > 0.0 )
				{
					raw[kept++] = raw[i];
				}
			}
			count = kept;
			const pdiSurfacePoint* sp = &deepest->at;
			raw[count++] = ( pdiRoundedPoint ){ sp->point,  deepest->normal, deepest->value - q->radius,
												deepest->u, sp->triangle,    sp->feature };
		}
		else if ( deepest->u > 0.0 && deepest->u < 1.0 && deepest->value < pdiMinD( f0, f1 ) - q->tolerance )
		{
			pdiRounded_PointContacts( q, pdiRounded_At( q, t, deepest->u ), deepest->u, raw,
									  3 * PDI_ROUNDED_POINT_CONTACTS, &count );
		}
	}
	// Deepest first, then merge points that coincide with a kept one (the same touch seen from
	// an end sphere and the deepest point).
	for ( int i = 1; i < count; ++i )
	{
		pdiRoundedPoint c = raw[i];
		int j = i;
		while ( j > 0 && raw[j - 1].distance > c.distance )
		{
			raw[j] = raw[j - 1];
			--j;
		}
		raw[j] = c;
	}
	int kept = 0;
	for ( int i = 0; i < count && kept < capacity; ++i )
	{
		bool duplicate = false;
		for ( int k = 0; k < kept && !duplicate; ++k )
		{
			duplicate = pdiDistanceSq( out[k].pointB, raw[i].pointB ) <= q->tolerance * q->tolerance &&
						pdiDot( out[k].normal, raw[i].normal ) > 0.999;
		}
		if ( !duplicate )
		{
			out[kept++] = raw[i];
		}
	}
	return kept;
}

// ---------------------------------------------------------------------------------------------
// The translation

// Whether A translated by t is at least radius - tolerance from B, proven by the search's
// lower bound; *outAt gets the deepest point there.
static bool pdiRounded_Clears( pdiRoundedQuery* q, pdVec3 t, pdiDeepest* outAt )
{
	*outAt = pdiRounded_Deepest( q, t );
	return outAt->bound >= q->radius - q->tolerance;
}

// Adds the contact planes of A translated by t: n . x >= n . t - distance keeps each touch
// apart to first order.
static int pdiRounded_AddPlanes( pdiRoundedQuery* q, pdVec3 t, const pdiDeepest* at, pdiContactPlane* planes,
								 int count )
{
	pdiRoundedPoint contacts[PD_MAX_ROUNDED_CONTACTS];
	double cd = q->contactDistance;
	q->contactDistance = 0.0; // only the touches the translation must undo
	int n = pdiRounded_Contacts( q, t, at, contacts, PD_MAX_ROUNDED_CONTACTS );
	q->contactDistance = cd;
	for ( int i = 0; i < n && count < PDI_ROUNDED_MAX_PLANES; ++i )
	{
		planes[count++] =
			( pdiContactPlane ){ contacts[i].normal, pdiDot( contacts[i].normal, t ) - contacts[i].distance, -1 };
	}
	return count;
}

// A translation along n that takes the skeleton out of B's bounding sphere grown by the
// radius: it always clears B.
static pdVec3 pdiRounded_LeaveBounds( const pdiRoundedQuery* q, pdVec3 n )
{
	double reach = q->mesh->radius + q->radius + q->tolerance;
	double s = 0.0;
	for ( int e = 0; e < 2; ++e )
	{
		pdVec3 w = pdiSub( pdiRounded_At( q, pdiV3( 0.0, 0.0, 0.0 ), (double)e ), q->mesh->centroid );
		double b = pdiDot( w, n );
		double disc = b * b - pdiLengthSq( w ) + reach * reach;
		if ( disc > 0.0 )
		{
			s = pdiMaxD( s, -b + sqrt( disc ) );
		}
	}
	return pdiScale( n, s );
}

// Refines a translation from start t: while A does not clear B there, the contacts at t
// become contact planes (with the start's own plane) and the closest translation meeting them
// all is tried next. Returns true with the cleared translation in *ioT.
static bool pdiRounded_Refine( pdiRoundedQuery* q, pdiContactPlane first, int maxIterations, pdVec3* ioT,
							   int* ioIterations )
{
	pdVec3 t = *ioT;
	pdiDeepest at;
	if ( pdiRounded_Clears( q, t, &at ) )
	{
		return true;
	}
	pdiContactPlane planes[PDI_ROUNDED_MAX_PLANES];
	int count = 0;
	planes[count++] = first;
	for ( int it = 0; it < maxIterations; ++it )
	{
		++*ioIterations;
		count = pdiRounded_AddPlanes( q, t, &at, planes, count );
		pdiLcpResult lcp = pdiSolveInProjection( planes, count, 64, NULL );
		if ( lcp.infeasible || !pdiIsFiniteVec( lcp.x ) )
		{
			return false;
		}
		// A little beyond the planes, so that curved surfaces met at a slant are cleared too.
		t = pdiAdd( lcp.x, pdiScale( pdiNormalize( lcp.x ), 0.5 * q->tolerance ) );
		if ( pdiRounded_Clears( q, t, &at ) )
		{
			*ioT = t;
			return true;
		}
	}
	return false;
}

// The ways out tried, shortest first: along the deepest point's normal by radius - f, and
// through each surface near it (a local minimum of its distance; inside a closed mesh every
// one within the shape's size farther than the nearest, since a segment pierced through a slab
// leaves through a side, not a face it spans). Inside, the way toward the preferred side goes
// first when pdiRounded_Preferred takes it (*outPreferred). Returns how many.
static int pdiRounded_Exits( pdiRoundedQuery* q, const pdiDeepest* start, pdiContactPlane* out, int capacity,
							 bool* outPreferred )
{
	*outPreferred = false;
	int count = 0;
	out[count++] = ( pdiContactPlane ){ start->normal, q->radius - start->value, -1 };
	if ( start->throughSheet )
	{
		return count;
	}
	bool inside = start->value < 0.0 && q->mesh->closed;
	pdVec3 x = pdiRounded_At( q, pdiV3( 0.0, 0.0, 0.0 ), start->u );
	double size = 2.0 * q->radius + pdiLength( pdiSub( q->s1, q->s0 ) );
	double reach = inside ? -start->value + size : q->radius;
	pdiSurfacePoint minima[PDI_ROUNDED_POINT_CONTACTS];
	int n = pdiMesh_PointLocalMinima( q->mesh, x, reach, q->ws, minima, PDI_ROUNDED_POINT_CONTACTS, NULL );
	for ( int i = 0; i < n && count < capacity; ++i )
	{
		if ( !inside && !pdiRounded_Faces( q, x, minima + i ) )
		{
			continue;
		}
		pdVec3 normal = pdiRounded_Normal( q, x, minima + i, inside );
		double length = q->radius + ( inside ? minima[i].distance : -minima[i].distance );
		out[count++] = ( pdiContactPlane ){ normal, length, -1 };
	}
	for ( int i = 1; i < count; ++i )
	{
		pdiContactPlane c = out[i];
		int j = i;
		while ( j > 0 && out[j - 1].offset > c.offset )
		{
			out[j] = out[j - 1];
			--j;
		}
		out[j] = c;
	}
	if ( inside )
	{
		int k = pdiRounded_Preferred( q, out, count );
		pdiContactPlane toward = out[k];
		for ( ; k > 0; --k )
		{
			out[k] = out[k - 1];
		}
		out[0] = toward;
		*outPreferred =
			pdiLengthSq( q->preferred ) > 0.0 && pdiDot( toward.normal, q->preferred ) > PDI_ROUNDED_PREFERRED_COSINE;
	}
	return count;
}

// The translation that clears B: each way out refined in turn until one clears no longer
// than the next starts; false when none did (*outT then leaves B's bounds).
static bool pdiRounded_PushOut( pdiRoundedQuery* q, const pdiDeepest* start, int maxIterations, pdVec3* outT,
								int* outIterations )
{
	*outIterations = 0;
	pdiContactPlane exits[PDI_ROUNDED_POINT_CONTACTS + 1];
	bool preferred;
	int count = pdiRounded_Exits( q, start, exits, PDI_ROUNDED_POINT_CONTACTS + 1, &preferred );
	double best = INFINITY;
	for ( int i = 0; i < count && exits[i].offset < best; ++i )
	{
		pdVec3 t = pdiScale( exits[i].normal, exits[i].offset );
		if ( pdiRounded_Refine( q, exits[i], maxIterations, &t, outIterations ) && pdiLength( t ) < best )
		{
			best = pdiLength( t );
			*outT = t;
			if ( i == 0 && preferred )
			{
				return true; // toward the preferred side, though a shorter way may exist
			}
		}
	}
	if ( best < INFINITY )
	{
		return true;
	}
	*outT = pdiRounded_LeaveBounds( q, start->normal );
	return false;
}

// ---------------------------------------------------------------------------------------------
// The query

static pdRoundedDef pdiRoundedDefaults( void )
{
	pdRoundedDef def;
	memset( &def, 0, sizeof( def ) );
	def.contactDistance = 0.0;
	def.tolerance = 0.0;
	def.maxEvaluations = 64;
	def.maxIterations = 8;
	def.approachDirection = pdiV3( 0.0, 0.0, 0.0 );
	def.preferredDirection = pdiV3( 0.0, 0.0, 0.0 );
	def.internalValue = PDI_SECRET_COOKIE;
	return def;
}

pdRoundedDef pdDefaultRoundedDef( void )
{
	return pdiRoundedDefaults();
}

static pdStatus pdiRounded_CheckDef( const pdRoundedDef* def )
{
	pdStatus status = pdiPairQuery_DefStatus( def->internalValue );
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	// isfinite first: an ordered comparison with a NaN raises the invalid flag.
	if ( !isfinite( def->contactDistance ) || def->contactDistance < 0.0 || !isfinite( def->tolerance ) ||
		 def->maxEvaluations < 2 || def->maxEvaluations > 100000 || def->maxIterations < 1 ||
		 def->maxIterations > 1000 || !pdiIsFiniteVec( def->approachDirection ) ||
		 !pdiIsFiniteVec( def->preferredDirection ) )
	{
		return PD_STATUS_INVALID_DEF;
	}
	return PD_STATUS_OK;
}

static bool pdiRounded_ValidShape( const pdRoundedShape* shape )
{
	if ( shape == NULL || ( shape->skeletonCount != 1 && shape->skeletonCount != 2 ) || !isfinite( shape->radius ) ||
		 shape->radius <= 0.0 )
	{
		return false;
	}
	for ( int i = 0; i < shape->skeletonCount; ++i )
	{
		if ( !pdiIsFiniteVec( shape->skeleton[i] ) || !pdiIsUsablePosition( shape->skeleton[i] ) )
		{
			return false;
		}
	}
	return true;
}

// The contacts and the answer in B's mesh frame, written to the result in world.
static pdStatus pdiRounded_Run( pdiRoundedQuery* q, const pdRoundedDef* def, const pdiFrame* frameB,
								pdRoundedResult* out )
{
	pdVec3 zero = pdiV3( 0.0, 0.0, 0.0 );
	pdiDeepest deepest = pdiRounded_Deepest( q, zero );
	if ( deepest.at.triangle < 0 )
	{
		return PD_STATUS_FAILED; // a mesh without a tree: cannot happen for a created mesh
	}
	pdStatus status = deepest.capped ? PD_STATUS_ITERATION_LIMIT : PD_STATUS_OK;
	out->separation = deepest.value - q->radius;
	out->skeletonParameter = deepest.u;
	out->state = out->separation > q->tolerance
					 ? PD_STATE_SEPARATED
					 : ( out->separation >= -q->tolerance ? PD_STATE_TOUCHING : PD_STATE_PENETRATING );
	if ( out->state == PD_STATE_PENETRATING )
	{
		pdVec3 t = pdiV3( 0.0, 0.0, 0.0 );
		if ( !pdiRounded_PushOut( q, &deepest, def->maxIterations, &t, &out->iterations ) )
		{
			status = PD_STATUS_ITERATION_LIMIT;
		}
		out->lowerBound = -out->separation;
		out->depth = pdiLength( t );
		out->translation = pdiMulMV( &frameB->r, t );
		out->exact = out->depth <= out->lowerBound + q->tolerance;
	}

	pdiRoundedPoint contacts[PD_MAX_ROUNDED_CONTACTS];
	int n = pdiRounded_Contacts( q, zero, &deepest, contacts, PD_MAX_ROUNDED_CONTACTS );
	for ( int i = 0; i < n; ++i )
	{
		const pdiRoundedPoint* c = contacts + i;
		pdRoundedContact* w = out->contacts + out->contactCount++;
		pdVec3 x = pdiRounded_At( q, zero, c->u );
		w->pointA = pdiFrameApply( frameB, pdiMulAdd( x, -q->radius, c->normal ) );
		w->pointB = pdiFrameApply( frameB, c->pointB );
		w->normal = pdiMulMV( &frameB->r, c->normal );
		w->distance = c->distance;
		w->skeletonParameter = c->u;
		w->featureB.type = c->feature.type;
		w->featureB.triangle = c->triangle;
		w->featureB.index = c->feature.type == PD_FEATURE_FACE ? 0 : c->feature.index;
		w->featureB.vertex =
			c->feature.type == PD_FEATURE_FACE ? -1 : q->mesh->triangles[c->triangle][w->featureB.index];
	}
	out->evaluations = q->evaluations;
	return status;
}

pdStatus pdComputeRoundedPenetration( const pdRoundedShape* shapeA, const pdTransform* poseA, const pdMesh* meshB,
									  const pdTransform* poseB, const pdRoundedDef* def, pdWorkspace* ioWorkspace,
									  pdRoundedResult* outResult )
{
	if ( outResult == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	memset( outResult, 0, sizeof( *outResult ) );
	pdRoundedDef defaults = pdiRoundedDefaults();
	if ( def == NULL )
	{
		def = &defaults;
	}
	pdStatus status = pdiRounded_CheckDef( def );
	pdiFrame frameA, frameB;
	if ( status == PD_STATUS_OK && !pdiRounded_ValidShape( shapeA ) )
	{
		status = PD_STATUS_INVALID_ARGUMENT;
	}
	if ( status == PD_STATUS_OK && !pdiIsValidMesh( meshB ) )
	{
		status = PD_STATUS_INVALID_MESH;
	}
	if ( status == PD_STATUS_OK && !pdiIsValidWorkspace( ioWorkspace ) )
	{
		status = PD_STATUS_INVALID_ARGUMENT;
	}
	if ( status == PD_STATUS_OK )
	{
		status = pdiMakeFrame( poseA, &frameA );
	}
	if ( status == PD_STATUS_OK )
	{
		status = pdiMakeFrame( poseB, &frameB );
	}
	if ( status == PD_STATUS_OK && ( !pdiIsUsablePosition( frameA.p ) || !pdiIsUsablePosition( frameB.p ) ) )
	{
		status = PD_STATUS_INVALID_POSE;
	}
	if ( status != PD_STATUS_OK )
	{
		outResult->status = status;
		return status;
	}

	pdiRoundedQuery q;
	memset( &q, 0, sizeof( q ) );
	q.mesh = meshB;
	q.ws = ioWorkspace;
	q.s0 = pdiFrameApplyInverse( &frameB, pdiFrameApply( &frameA, shapeA->skeleton[0] ) );
	q.s1 = shapeA->skeletonCount == 2 ? pdiFrameApplyInverse( &frameB, pdiFrameApply( &frameA, shapeA->skeleton[1] ) )
									  : q.s0;
	q.segment = pdiDistanceSq( q.s0, q.s1 ) > 0.0;
	q.radius = shapeA->radius;
	double size = 2.0 * q.radius + pdiLength( pdiSub( q.s1, q.s0 ) );
	q.tolerance =
		def->tolerance > 0.0 ? def->tolerance : 1e-4 * pdiMinD( size, meshB->diagonal > 0.0 ? meshB->diagonal : size );
	q.contactDistance = def->contactDistance;
	q.approach = pdiMulMTV( &frameB.r, def->approachDirection );
	q.preferred = pdiNormalize( pdiMulMTV( &frameB.r, def->preferredDirection ) );
	q.maxEvaluations = def->maxEvaluations;
	status = pdiRounded_Run( &q, def, &frameB, outResult );
	if ( status < 0 )
	{
		memset( outResult, 0, sizeof( *outResult ) );
	}
	outResult->status = status;
	return status;
}
