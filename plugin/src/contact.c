// SPDX-License-Identifier: MIT
// Contact generation for one pair per step: global PD -> one region per local PD, separated
// but close -> closest-feature regions, manifold reduction to 4 points, stable slots and
// normals frame to frame, and the one-sided rule for open surfaces. Public core API only.
#include "polydepth/contact.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#define PD_CONTACT_COOKIE 0x50444354
// Candidate points a region may hold before reduction. A resting ring on a ring has a few
// hundred feature pairs along its crest; with room for fewer, which ones survive the
// compaction depends on their order, and the picks move from frame to frame (about 6 KB per
// region, 100 KB of stack for the regions of one call).
#define PD_REGION_CANDIDATES 96
// Regions built before slot assignment (the core gives at most PD_MAX_LOCAL_REGIONS).
#define PD_BUILD_REGIONS PD_MAX_LOCAL_REGIONS
// Slot matching: a region takes over last frame's slot when the normals are this close.
#define PD_SLOT_COSINE 0.9
// A PD more than this far (cosine against the remembered free side) below the tangent plane
// counts as pushing A through a one-sided surface.
#define PD_THROUGH_COSINE -0.25
// A wide resting patch's plane replaces the region normal when they agree this well (cosine).
#define PD_PLANE_COSINE 0.8

// ---------------------------------------------------------------------------------------------
// Small vector helpers (the core's vec.h is private).

static inline pdVec3 pdcV3( double x, double y, double z )
{
	pdVec3 v = { x, y, z };
	return v;
}
static inline pdVec3 pdcAdd( pdVec3 a, pdVec3 b )
{
	return pdcV3( a.x + b.x, a.y + b.y, a.z + b.z );
}
static inline pdVec3 pdcSub( pdVec3 a, pdVec3 b )
{
	return pdcV3( a.x - b.x, a.y - b.y, a.z - b.z );
}
static inline pdVec3 pdcScale( pdVec3 a, double s )
{
	return pdcV3( a.x * s, a.y * s, a.z * s );
}
static inline pdVec3 pdcMulAdd( pdVec3 a, double s, pdVec3 b )
{
	return pdcV3( a.x + s * b.x, a.y + s * b.y, a.z + s * b.z );
}
static inline double pdcDot( pdVec3 a, pdVec3 b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline pdVec3 pdcCross( pdVec3 a, pdVec3 b )
{
	return pdcV3( a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x );
}
static inline double pdcLength( pdVec3 a )
{
	return sqrt( pdcDot( a, a ) );
}
static inline pdVec3 pdcNormalize( pdVec3 a )
{
	double len = pdcLength( a );
	return len > 1e-300 ? pdcScale( a, 1.0 / len ) : pdcV3( 0.0, 0.0, 0.0 );
}
static inline bool pdcIsFinite( pdVec3 a )
{
	return isfinite( a.x ) && isfinite( a.y ) && isfinite( a.z );
}

static pdQuat pdcUnitQuat( pdQuat q )
{
	double n = sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
	if ( !( n > 1e-300 ) || !isfinite( n ) )
	{
		pdQuat identity = { 1.0, 0.0, 0.0, 0.0 };
		return identity;
	}
	pdQuat r = { q.w / n, q.x / n, q.y / n, q.z / n };
	return r;
}

// v' = v + 2w (u x v) + 2 u x (u x v), u the vector part.
static pdVec3 pdcRotate( pdQuat q, pdVec3 v )
{
	pdVec3 u = pdcV3( q.x, q.y, q.z );
	pdVec3 t = pdcScale( pdcCross( u, v ), 2.0 );
	return pdcAdd( pdcAdd( v, pdcScale( t, q.w ) ), pdcCross( u, t ) );
}
static pdVec3 pdcRotateInv( pdQuat q, pdVec3 v )
{
	pdQuat c = { q.w, -q.x, -q.y, -q.z };
	return pdcRotate( c, v );
}

static double pdcMeshDiagonal( const pdMesh* mesh )
{
	pdVec3 lo, hi;
	pdMesh_GetBounds( mesh, &lo, &hi );
	double d = pdcLength( pdcSub( hi, lo ) );
	return isfinite( d ) ? d : 0.0;
}

// An orthonormal tangent basis of the plane normal to n (n unit or zero).
static void pdcTangents( pdVec3 n, pdVec3* u, pdVec3* v )
{
	pdVec3 a = fabs( n.x ) < 0.57 ? pdcV3( 1.0, 0.0, 0.0 ) : pdcV3( 0.0, 1.0, 0.0 );
	*u = pdcNormalize( pdcCross( n, a ) );
	if ( pdcDot( *u, *u ) == 0.0 )
	{
		*u = pdcV3( 1.0, 0.0, 0.0 );
	}
	*v = pdcCross( n, *u );
}

// ---------------------------------------------------------------------------------------------
// Manifold reduction

static double pdcTriangleArea( pdVec3 n, pdVec3 a, pdVec3 b, pdVec3 c )
{
	return 0.5 * fabs( pdcDot( n, pdcCross( pdcSub( b, a ), pdcSub( c, a ) ) ) );
}

double pdContact_HullArea4( pdVec3 normal, const pdVec3* points, int count )
{
	if ( points == NULL || count < 3 )
	{
		return 0.0;
	}
	pdVec3 n = pdcNormalize( normal );
	const pdVec3* p = points;
	if ( count == 3 )
	{
		return pdcTriangleArea( n, p[0], p[1], p[2] );
	}
	// The hull of 4 points is either one of the 4 triangles (a point inside) or the simple
	// quadrilateral among the 3 cyclic orders; every candidate is <= the hull, one equals it.
	double best = 0.0;
	best = fmax( best, pdcTriangleArea( n, p[0], p[1], p[2] ) );
	best = fmax( best, pdcTriangleArea( n, p[0], p[1], p[3] ) );
	best = fmax( best, pdcTriangleArea( n, p[0], p[2], p[3] ) );
	best = fmax( best, pdcTriangleArea( n, p[1], p[2], p[3] ) );
	// Signed area of quad abcd = 0.5 n . ((c - a) x (d - b)).
	best = fmax( best, 0.5 * fabs( pdcDot( n, pdcCross( pdcSub( p[2], p[0] ), pdcSub( p[3], p[1] ) ) ) ) );
	best = fmax( best, 0.5 * fabs( pdcDot( n, pdcCross( pdcSub( p[3], p[0] ), pdcSub( p[2], p[1] ) ) ) ) );
	best = fmax( best, 0.5 * fabs( pdcDot( n, pdcCross( pdcSub( p[1], p[0] ), pdcSub( p[3], p[2] ) ) ) ) );
	return best;
}

int pdContact_ReducePoints( pdVec3 normal, const pdVec3* points, const double* distances, int count,
							int outIndices[PD_CONTACT_MAX_POINTS] )
{
	if ( points == NULL || distances == NULL || outIndices == NULL || count <= 0 )
	{
		return 0;
	}
	int deepest = 0;
	for ( int i = 1; i < count; ++i )
	{
		if ( distances[i] < distances[deepest] )
		{
			deepest = i;
		}
	}
	outIndices[0] = deepest;
	if ( count <= PD_CONTACT_MAX_POINTS )
	{
		int k = 1;
		for ( int i = 0; i < count; ++i )
		{
			if ( i != deepest )
			{
				outIndices[k++] = i;
			}
		}
		return count;
	}

	pdVec3 n = pdcNormalize( normal );

	// Candidates besides the deepest: all of them up to 16, else the extreme points along 16
	// directions in the contact plane (the hull of the best 4 uses hull vertices only).
	int cand[16];
	int candCount = 0;
	if ( count <= 17 )
	{
		for ( int i = 0; i < count; ++i )
		{
			if ( i != deepest )
			{
				cand[candCount++] = i;
			}
		}
	}
	else
	{
		pdVec3 u, v;
		pdcTangents( n, &u, &v );
		for ( int k = 0; k < 16; ++k )
		{
			double angle = 2.0 * 3.14159265358979323846 * (double)k / 16.0;
			pdVec3 dir = pdcAdd( pdcScale( u, cos( angle ) ), pdcScale( v, sin( angle ) ) );
			int best = -1;
			double bestValue = -DBL_MAX;
			for ( int i = 0; i < count; ++i )
			{
				double value = pdcDot( dir, points[i] );
				if ( i != deepest && value > bestValue )
				{
					bestValue = value;
					best = i;
				}
			}
			bool seen = false;
			for ( int j = 0; j < candCount; ++j )
			{
				seen = seen || cand[j] == best;
			}
			if ( best >= 0 && !seen )
			{
				cand[candCount++] = best;
			}
		}
	}

	double bestArea = -1.0;
	int bestSet[3] = { cand[0], cand[1], cand[2] };
	for ( int a = 0; a < candCount; ++a )
	{
		for ( int b = a + 1; b < candCount; ++b )
		{
			for ( int c = b + 1; c < candCount; ++c )
			{
				pdVec3 quad[4] = { points[deepest], points[cand[a]], points[cand[b]], points[cand[c]] };
				double area = pdContact_HullArea4( n, quad, 4 );
				if ( area > bestArea )
				{
					bestArea = area;
					bestSet[0] = cand[a];
					bestSet[1] = cand[b];
					bestSet[2] = cand[c];
				}
			}
		}
	}

	// All collinear (zero area): keep the two points farthest from the deepest instead.
	if ( !( bestArea > 0.0 ) )
	{
		int far1 = cand[0];
		double d1 = -1.0;
		for ( int j = 0; j < candCount; ++j )
		{
			double d = pdcLength( pdcSub( points[cand[j]], points[deepest] ) );
			if ( d > d1 )
			{
				d1 = d;
				far1 = cand[j];
			}
		}
		int far2 = far1;
		double d2 = -1.0;
		for ( int j = 0; j < candCount; ++j )
		{
			double d = pdcLength( pdcSub( points[cand[j]], points[far1] ) );
			if ( cand[j] != far1 && d > d2 )
			{
				d2 = d;
				far2 = cand[j];
			}
		}
		outIndices[1] = far1;
		if ( far2 == far1 || far2 == deepest )
		{
			return 2;
		}
		outIndices[2] = far2;
		return 3;
	}

	outIndices[1] = bestSet[0];
	outIndices[2] = bestSet[1];
	outIndices[3] = bestSet[2];
	return 4;
}

// ---------------------------------------------------------------------------------------------
// Defs and pair state

pdContactDef pdContactDefaultDef( void )
{
	pdContactDef def;
	memset( &def, 0, sizeof( def ) );
	def.contactDistance = 0.02;
	def.relativeTolerance = 1e-4;
	def.maxIterations = 30;
	def.timeBudgetMs = 0.0;
	def.oneSided = PD_ONE_SIDED_AUTO;
	def.regionCosine = 0.95;
	def.holdCosine = 0.99;
	def.maxFeatures = 256;
	def.internalValue = PD_CONTACT_COOKIE;
	return def;
}

void pdContactPair_Reset( pdContactPair* pair )
{
	if ( pair == NULL )
	{
		return;
	}
	memset( pair, 0, sizeof( *pair ) );
	pdResetPenetrationCache( &pair->penetration );
	pair->lastState = PD_STATE_SEPARATED;
}

void pdContactPair_SetMotion( pdContactPair* pair, pdVec3 relativeDisplacement )
{
	if ( pair == NULL )
	{
		return;
	}
	pair->motion = pdcIsFinite( relativeDisplacement ) ? relativeDisplacement : pdcV3( 0.0, 0.0, 0.0 );
	pair->rotation = pdcV3( 0.0, 0.0, 0.0 );
	pair->pivot = pdcV3( 0.0, 0.0, 0.0 );
}

void pdContactPair_SetRigidMotion( pdContactPair* pair, pdVec3 linearDisplacement, pdVec3 rotation, pdVec3 pivot )
{
	if ( pair == NULL )
	{
		return;
	}
	pdContactPair_SetMotion( pair, linearDisplacement );
	if ( pdcIsFinite( rotation ) && pdcIsFinite( pivot ) )
	{
		pair->rotation = rotation;
		pair->pivot = pivot;
	}
}

// ---------------------------------------------------------------------------------------------
// Proven gaps: skipping pairs that cannot have come within reach

// Farthest any point of the mesh lies from its frame's origin (its pose's rotation centre).
static double pdcOriginReach( const pdMesh* mesh )
{
	pdVec3 lo, hi;
	pdMesh_GetBounds( mesh, &lo, &hi );
	double x = fmax( fabs( lo.x ), fabs( hi.x ) ), y = fmax( fabs( lo.y ), fabs( hi.y ) ),
		   z = fmax( fabs( lo.z ), fabs( hi.z ) );
	return sqrt( x * x + y * y + z * z );
}

static pdQuat pdcQuatMul( pdQuat a, pdQuat b )
{
	pdQuat r = { a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
				 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w };
	return r;
}

static pdQuat pdcQuatConj( pdQuat q )
{
	pdQuat r = { q.w, -q.x, -q.y, -q.z };
	return r;
}

// A relative to B: its origin in B's frame and its rotation relative to B's.
static void pdcRelativePose( const pdTransform* poseA, const pdTransform* poseB, pdVec3* outPosition,
							 pdQuat* outRotation )
{
	pdQuat qA = pdcUnitQuat( poseA->q ), qB = pdcUnitQuat( poseB->q );
	*outPosition = pdcRotateInv( qB, pdcSub( poseA->p, poseB->p ) );
	*outRotation = pdcQuatMul( pdcQuatConj( qB ), qA );
}

// How far any point of A can have moved relative to B since the reference: the origin's
// displacement plus the rotation's chord at A's reach, |R p - R0 p| <= 2 sin(angle / 2) |p|.
static double pdcMovedSinceApart( const pdContactPair* pair, const pdMesh* meshA, const pdTransform* poseA,
								  const pdTransform* poseB )
{
	pdVec3 p;
	pdQuat q;
	pdcRelativePose( poseA, poseB, &p, &q );
	pdQuat dq = pdcQuatMul( q, pdcQuatConj( pair->apartRotation ) );
	double s = sqrt( dq.x * dq.x + dq.y * dq.y + dq.z * dq.z ); // sin(angle / 2)
	double moved = pdcLength( pdcSub( p, pair->apartPosition ) ) + 2.0 * fmin( s, 1.0 ) * pdcOriginReach( meshA );
	return isfinite( moved ) ? moved : INFINITY;
}

// ---------------------------------------------------------------------------------------------
// Region building

// A's motion relative to B over the step (zero when the caller gave none).
typedef struct pdcMotion
{
	pdVec3 linear;
	pdVec3 rotation;
	pdVec3 pivot;
} pdcMotion;

// How much the gap of a contact at pointA (on A) along normal n changes over the step.
static double pdcClosing( const pdcMotion* m, pdVec3 pointA, pdVec3 n )
{
	if ( m == NULL )
	{
		return 0.0;
	}
	pdVec3 d = pdcAdd( m->linear, pdcCross( m->rotation, pdcSub( pointA, m->pivot ) ) );
	double c = pdcDot( d, n );
	return isfinite( c ) ? c : 0.0;
}

typedef struct pdcRegion
{
	pdVec3 normal;
	pdVec3 axis; // B's reference axis (world): fixes the reduction's directions to B
	double band; // points within this of the deepest form the supporting patch
	double minDistance;
	bool fromPenetration; // seeded by a local PD (points at depth -(d . n))
	int count;
	pdVec3 normalSum;     // members' face normals (vertex-face, face-vertex, local PDs) summed
	pdVec3 edgeNormalSum; // edge-edge normals summed: used only when no face normal joined
	pdVec3 pointB[PD_REGION_CANDIDATES];
	// pointA - pointB at the configuration the point was found at: its gap along any normal
	pdVec3 offset[PD_REGION_CANDIDATES];
	double distance[PD_REGION_CANDIDATES]; // (offset - d) . normal: distance at the input poses
	// distance at the end of the step if A keeps its motion: impacts keep the points that will
	// be deepest (a spinning ring the side coming down, not the side lifting off). Equal to
	// distance without a motion hint.
	double predicted[PD_REGION_CANDIDATES];
	const pdcMotion* motion;
	// A moving body (0 when slow): points predicted within this of the deepest may all bear
	// load by the end of the step, so the reductions keep them in play, not only those within
	// band of the deepest; points further up (the outer side of a ring landing flat) are not.
	double arrival;
	// An impact (A can move more than the contact distance this step): every point predicted
	// to be closer than `arrival` after the step stays in play, and the final four are the
	// deepest predicted with the largest area over all of them. Measured on the 60-tori heap
	// (4 seeds): deepest body-body penetration 33 mm against 64 mm with the banded choice.
	bool impact;
} pdcRegion;

typedef struct pdcRegions
{
	pdVec3 axis;             // B's local x axis in world, copied into every new region
	double band;             // support band, copied into every new region
	const pdcMotion* motion; // copied into every new region
	double arrival;          // copied into every new region
	bool impact;             // copied into every new region
	int count;
	pdcRegion items[PD_BUILD_REGIONS];
} pdcRegions;

static pdcRegion* pdcNewRegion( pdcRegions* regions, pdVec3 normal, bool fromPenetration )
{
	if ( regions->count == PD_BUILD_REGIONS )
	{
		return NULL;
	}
	pdcRegion* r = regions->items + regions->count++;
	r->normal = normal;
	r->axis = regions->axis;
	r->band = regions->band;
	r->motion = regions->motion;
	r->arrival = regions->arrival;
	r->impact = regions->impact;
	r->normalSum = pdcV3( 0.0, 0.0, 0.0 );
	r->edgeNormalSum = pdcV3( 0.0, 0.0, 0.0 );
	r->minDistance = DBL_MAX;
	r->fromPenetration = fromPenetration;
	r->count = 0;
	return r;
}

// Tangent basis of the plane normal to n whose first axis is B's reference axis projected on
// it, so directions in the contact plane turn with B and not with the points found.
static void pdcBodyTangents( pdVec3 n, pdVec3 axis, pdVec3* u, pdVec3* v )
{
	pdVec3 t = pdcMulAdd( axis, -pdcDot( axis, n ), n );
	if ( pdcDot( t, t ) < 0.01 )
	{
		// The axis is (nearly) the normal: use the one perpendicular to both.
		pdcTangents( n, u, v );
		return;
	}
	*u = pdcNormalize( t );
	*v = pdcCross( n, *u );
}

// Reduction that keeps point identity frame to frame: the extreme points along directions fixed
// to B in the contact plane (2 * half directions), not the deepest plus the largest area,
// whose choice on a near-uniform patch (a ring on a ring) jumps around every frame and defeats
// warm starting. A point clearly deeper than every pick (by more than deepMargin) replaces the
// pick nearest to it, so a deep corner is never lost. Returns the count; the deepest is first.
static int pdcReduceStable( const pdcRegion* r, int half, double deepMargin, double band, int* outIndices,
							int maxOut )
{
	if ( r->count <= 0 || maxOut <= 0 )
	{
		return 0;
	}
	// Only points within band of the deepest bear load; the patch's rim (a flank that only
	// just came within reach) would otherwise be every direction's extreme.
	double lowest = DBL_MAX;
	for ( int i = 0; i < r->count; ++i )
	{
		lowest = fmin( lowest, r->distance[i] );
	}
	pdVec3 u, v;
	pdcBodyTangents( r->normal, r->axis, &u, &v );
	int n = 0;
	for ( int k = 0; k < 2 * half && n < maxOut; ++k )
	{
		// Order +u, +v, -u, -v (then the diagonals) so the first 4 span the patch.
		int quarter = k % 4;
		double angle = 0.5 * 3.14159265358979323846 * (double)quarter;
		if ( k >= 4 )
		{
			angle += 0.25 * 3.14159265358979323846;
		}
		pdVec3 dir = pdcAdd( pdcScale( u, cos( angle ) ), pdcScale( v, sin( angle ) ) );
		int best = 0;
		double bestValue = -DBL_MAX;
		for ( int i = 0; i < r->count; ++i )
		{
			double value = pdcDot( dir, r->pointB[i] );
			if ( r->distance[i] <= lowest + band && value > bestValue )
			{
				bestValue = value;
				best = i;
			}
		}
		bool seen = false;
		for ( int j = 0; j < n; ++j )
		{
			seen = seen || outIndices[j] == best;
		}
		if ( !seen )
		{
			outIndices[n++] = best;
		}
	}
	int deepest = 0;
	for ( int i = 1; i < r->count; ++i )
	{
		if ( r->distance[i] < r->distance[deepest] )
		{
			deepest = i;
		}
	}
	double pickedMin = DBL_MAX;
	bool have = false;
	for ( int j = 0; j < n; ++j )
	{
		pickedMin = fmin( pickedMin, r->distance[outIndices[j]] );
		have = have || outIndices[j] == deepest;
	}
	if ( !have && r->distance[deepest] < pickedMin - deepMargin )
	{
		int nearest = 0;
		double nearestLength = DBL_MAX;
		for ( int j = 0; j < n; ++j )
		{
			double len = pdcLength( pdcSub( r->pointB[outIndices[j]], r->pointB[deepest] ) );
			if ( len < nearestLength )
			{
				nearestLength = len;
				nearest = j;
			}
		}
		outIndices[nearest] = deepest;
	}
	// Deepest first.
	int first = 0;
	for ( int j = 1; j < n; ++j )
	{
		if ( r->distance[outIndices[j]] < r->distance[outIndices[first]] )
		{
			first = j;
		}
	}
	int t = outIndices[0];
	outIndices[0] = outIndices[first];
	outIndices[first] = t;
	return n;
}

#define PD_REGION_KEEP 12

// Point persistence for a resting patch: last call's points of the slot that still have a
// supporting candidate within matchRadius keep it, so the engine's cache matches them and
// warm-starts; the fresh picks fill the rest. The kept set is used only when it spans at least
// half the fresh picks' area (a patch that moved on gets fresh points). Returns the count.
static int pdcKeepPrevious( const pdContactPair* pair, pdQuat qB, pdVec3 pB, int slot, const pdcRegion* r, double band,
							double matchRadius, int* picked, int pc )
{
	int previous = pair->slotPointCount[slot];
	if ( previous <= 0 || pc <= 0 )
	{
		return pc;
	}
	double lowest = DBL_MAX;
	for ( int i = 0; i < r->count; ++i )
	{
		lowest = fmin( lowest, r->distance[i] );
	}
	int kept[PD_CONTACT_MAX_POINTS];
	int keptCount = 0;
	for ( int k = 0; k < previous && k < PD_CONTACT_MAX_POINTS; ++k )
	{
		pdVec3 old = pdcAdd( pdcRotate( qB, pair->slotPoints[slot][k] ), pB );
		int best = -1;
		double bestLength = matchRadius;
		for ( int i = 0; i < r->count; ++i )
		{
			double len = pdcLength( pdcSub( r->pointB[i], old ) );
			if ( r->distance[i] <= lowest + band && len <= bestLength )
			{
				bestLength = len;
				best = i;
			}
		}
		bool seen = false;
		for ( int j = 0; j < keptCount; ++j )
		{
			seen = seen || kept[j] == best;
		}
		if ( best >= 0 && !seen )
		{
			kept[keptCount++] = best;
		}
	}
	// Fill up with fresh picks that are not next to a kept point, each time the one that widens
	// the kept set most (in pick order, a lost corner's replacement can come after picks that
	// crowd one side, and a patch held on one side only tips the body over the other).
	while ( keptCount < PD_CONTACT_MAX_POINTS )
	{
		int bestPick = -1;
		double bestArea = -1.0;
		for ( int j = 0; j < pc; ++j )
		{
			bool near = false;
			for ( int k = 0; k < keptCount; ++k )
			{
				near = near || pdcLength( pdcSub( r->pointB[picked[j]], r->pointB[kept[k]] ) ) <= matchRadius;
			}
			if ( near )
			{
				continue;
			}
			pdVec3 trial[PD_CONTACT_MAX_POINTS];
			for ( int k = 0; k < keptCount; ++k )
			{
				trial[k] = r->pointB[kept[k]];
			}
			trial[keptCount] = r->pointB[picked[j]];
			double area = pdContact_HullArea4( r->normal, trial, keptCount + 1 );
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
	pdVec3 freshPoints[PD_CONTACT_MAX_POINTS], keptPoints[PD_CONTACT_MAX_POINTS];
	for ( int j = 0; j < pc; ++j )
	{
		freshPoints[j] = r->pointB[picked[j]];
	}
	for ( int j = 0; j < keptCount; ++j )
	{
		keptPoints[j] = r->pointB[kept[j]];
	}
	double freshArea = pdContact_HullArea4( r->normal, freshPoints, pc );
	double keptArea = pdContact_HullArea4( r->normal, keptPoints, keptCount );
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

// Normal of the plane through a wide patch's picked points on B. A ring resting on a ring
// touches along a crest whose faces tilt either way by half a tessellation segment; the region
// normal (a PD direction or a few features' normals) follows whichever face touched this frame,
// so it flips by ~10 degrees frame to frame and pushes the stack sideways. The support points
// themselves lie in the patch's plane. Only for patches of at least minArea whose plane agrees
// with the region normal (cosine >= minCosine); returns false otherwise.
static bool pdcPatchNormal( const pdcRegion* r, const int* picked, int count, double minArea, double minCosine,
							pdVec3* outNormal )
{
	if ( count < 3 )
	{
		return false;
	}
	pdVec3 p[4];
	for ( int k = 0; k < count && k < 4; ++k )
	{
		p[k] = r->pointB[picked[k]];
	}
	// Twice the area vector: of the triangle, or of the quad in whichever cyclic order is simple
	// (that order gives the longest diagonal cross product).
	pdVec3 best = pdcCross( pdcSub( p[1], p[0] ), pdcSub( p[2], p[0] ) );
	if ( count >= 4 )
	{
		pdVec3 c[3] = {
			pdcCross( pdcSub( p[2], p[0] ), pdcSub( p[3], p[1] ) ),
			pdcCross( pdcSub( p[3], p[0] ), pdcSub( p[2], p[1] ) ),
			pdcCross( pdcSub( p[1], p[0] ), pdcSub( p[3], p[2] ) ),
		};
		best = c[0];
		for ( int k = 1; k < 3; ++k )
		{
			best = pdcDot( c[k], c[k] ) > pdcDot( best, best ) ? c[k] : best;
		}
	}
	double twiceArea = pdcLength( best );
	if ( !( twiceArea >= 2.0 * minArea ) || !isfinite( twiceArea ) )
	{
		return false;
	}
	pdVec3 n = pdcScale( best, 1.0 / twiceArea );
	if ( pdcDot( n, r->normal ) < 0.0 )
	{
		n = pdcScale( n, -1.0 );
	}
	if ( pdcDot( n, r->normal ) < minCosine )
	{
		return false;
	}
	*outNormal = n;
	return true;
}

// Deepest plus largest area (pdContact_ReducePoints) over the points within band of the
// deepest and the points penetrating now: the largest area otherwise goes to rim points that do
// not bear load. Depth is the predicted one: where each point will be after the step. A point
// that penetrates now bears load whatever the band says: a ring sunk along an arc of another
// (9 to 17 mm along a metre of it) that got points only at its deeper end rocked about the
// other end, deeper end up one step and down the next, and fell asleep 17 mm deep (seed 8 of
// the 60 tori; bench/results/debris.md, session 21).
static int pdcReduceDeepest( const pdcRegion* r, double band, int outIndices[PD_CONTACT_MAX_POINTS] )
{
	double lowest = DBL_MAX;
	for ( int i = 0; i < r->count; ++i )
	{
		lowest = fmin( lowest, r->predicted[i] );
	}
	int map[PD_REGION_CANDIDATES];
	pdVec3 points[PD_REGION_CANDIDATES];
	double distances[PD_REGION_CANDIDATES];
	int n = 0;
	for ( int i = 0; i < r->count; ++i )
	{
		if ( r->predicted[i] <= lowest + band || r->distance[i] <= 0.0 )
		{
			map[n] = i;
			points[n] = r->pointB[i];
			distances[n] = r->predicted[i];
			++n;
		}
	}
	int pc = pdContact_ReducePoints( r->normal, points, distances, n, outIndices );
	for ( int k = 0; k < pc; ++k )
	{
		outIndices[k] = map[outIndices[k]];
	}
	return pc;
}

// Impact: the four points that will be deepest with the largest area, over the points that
// will be level with the deepest (within band) when they span at least half the area the
// points over the whole reach do (a ring landing flat stands on its bottom circle, not on the
// outer side of its tube a centimetre up), over the whole reach otherwise (a wobbling ring
// comes down on both sides).
static int pdcReduceImpact( const pdcRegion* r, double band, int outIndices[PD_CONTACT_MAX_POINTS] )
{
	int level[PD_CONTACT_MAX_POINTS];
	int levelCount = pdcReduceDeepest( r, fmax( r->band, band ), level );
	int all = pdContact_ReducePoints( r->normal, r->pointB, r->predicted, r->count, outIndices );
	pdVec3 a[PD_CONTACT_MAX_POINTS], b[PD_CONTACT_MAX_POINTS];
	for ( int k = 0; k < levelCount; ++k )
	{
		a[k] = r->pointB[level[k]];
	}
	for ( int k = 0; k < all; ++k )
	{
		b[k] = r->pointB[outIndices[k]];
	}
	if ( pdContact_HullArea4( r->normal, a, levelCount ) >= 0.5 * pdContact_HullArea4( r->normal, b, all ) )
	{
		for ( int k = 0; k < levelCount; ++k )
		{
			outIndices[k] = level[k];
		}
		return levelCount;
	}
	return all;
}

static void pdcAddPoint( pdcRegion* r, pdVec3 pointB, pdVec3 offset, double distance )
{
	if ( r->count == PD_REGION_CANDIDATES )
	{
		// Full: keep the deepest with the largest area, and the extremes along 8 directions
		// fixed to B (stable picks for the final reduction), then go on.
		int picked[PD_REGION_KEEP];
		double lowest = DBL_MAX;
		for ( int k = 0; k < r->count; ++k )
		{
			lowest = fmin( lowest, r->predicted[k] );
		}
		int pc = pdcReduceDeepest( r, fmax( r->band, r->impact ? r->arrival - lowest : r->arrival ), picked );
		int stable[8];
		int sc = pdcReduceStable( r, 4, 0.0, r->band, stable, 8 );
		for ( int j = 0; j < sc && pc < PD_REGION_KEEP; ++j )
		{
			bool seen = false;
			for ( int k = 0; k < pc; ++k )
			{
				seen = seen || picked[k] == stable[j];
			}
			if ( !seen )
			{
				picked[pc++] = stable[j];
			}
		}
		pdVec3 keptPoints[PD_REGION_KEEP];
		pdVec3 keptOffsets[PD_REGION_KEEP];
		double keptDistances[PD_REGION_KEEP];
		double keptPredicted[PD_REGION_KEEP];
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
	r->pointB[r->count] = pointB;
	r->offset[r->count] = offset;
	r->distance[r->count] = distance;
	r->predicted[r->count] = distance + pdcClosing( r->motion, pdcMulAdd( pointB, distance, r->normal ), r->normal );
	r->count += 1;
	r->minDistance = fmin( r->minDistance, distance );
}

// Final normal (members' mean) and distances along it: (offset - translation) . normal.
static void pdcFinishRegion( pdcRegion* r, pdVec3 translation, bool useMeanNormal )
{
	if ( useMeanNormal )
	{
		pdVec3 mean = pdcNormalize( r->normalSum );
		if ( pdcDot( mean, mean ) == 0.0 )
		{
			mean = pdcNormalize( r->edgeNormalSum );
		}
		if ( pdcDot( mean, mean ) > 0.0 )
		{
			r->normal = mean;
		}
	}
	r->minDistance = DBL_MAX;
	for ( int k = 0; k < r->count; ++k )
	{
		double d = pdcDot( pdcSub( r->offset[k], translation ), r->normal );
		r->distance[k] = isfinite( d ) ? d : 0.0;
		r->minDistance = fmin( r->minDistance, r->distance[k] );
		pdVec3 pointA = pdcMulAdd( r->pointB[k], r->distance[k], r->normal );
		r->predicted[k] = r->distance[k] + pdcClosing( r->motion, pointA, r->normal );
	}
}

// The posed pair the features were gathered at (for the local-closeness test).
typedef struct pdcPosedPair
{
	const pdMesh* meshA;
	pdTransform poseA;
	const pdMesh* meshB;
	pdTransform poseB;
} pdcPosedPair;

// Groups features by normal, the closest feature first (it seeds the first region's normal).
// When translation is given (features gathered at the PD contact configuration), a point's
// distance at the input poses is its distance there minus (translation . regionNormal).
static void pdcGroupFeatures( const pdcPosedPair* at, const pdContactFeature* features, int featureCount,
							  double regionCosine, const pdVec3* translation, double maxDistance, double touchDistance,
							  pdcRegions* regions )
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
		pdVec3 fn = pdcNormalize( f->normal );
		double gap = f->distance;
		if ( pdcDot( fn, fn ) == 0.0 || !pdcIsFinite( f->pointB ) || !pdcIsFinite( f->pointA ) || !isfinite( gap ) )
		{
			continue;
		}
		// A pair with a clear gap separates along its closest points; that direction is
		// reliable for every kind, while an edge-edge cross product of nearly parallel edges
		// is not. Touching pairs keep the feature normal.
		pdVec3 sep = pdcSub( f->pointA, f->pointB );
		double sepLength = pdcLength( sep );
		if ( sepLength <= touchDistance && f->kind == PD_CONTACT_EE )
		{
			// A touching edge-edge pair's normal is the edges' cross product: applicable only
			// when each edge is its mesh's extreme along it (the normal lies on both edges'
			// Gauss-map arcs). An edge inside a flat floor under a torus edge is not: its
			// cross product tilts 40 to 90 degrees and was a standing sideways push on a
			// resting torus. The vertex-face pairs there carry the floor's normal.
			if ( !pdContactFeature_IsExtremeAlong( at->meshA, &at->poseA, at->meshB, &at->poseB, f, fn ) )
			{
				continue;
			}
		}
		if ( sepLength > touchDistance )
		{
			// An edge or vertex of either side that is not its mesh's closest part along the gap
			// (an edge of a flat floor under a tilted edge) would push sideways: its patch is
			// reported by the vertex-face pairs with the face's own normal. Vertex-face pairs
			// are kept: they are the patch (a tilted ring over a floor).
			if ( f->kind != PD_CONTACT_VF &&
				 !pdContactFeature_IsLocallyClosest( at->meshA, &at->poseA, at->meshB, &at->poseB, f ) )
			{
				continue;
			}
			pdVec3 dir = pdcScale( sep, 1.0 / sepLength );
			if ( pdcDot( dir, fn ) > 0.0 )
			{
				fn = dir;
				gap = sepLength;
			}
		}
		// Distance at the input poses; pairs further apart than maxDistance are no contact.
		double estimate = translation != NULL ? gap - pdcDot( *translation, fn ) : gap;
		// At the PD contact configuration, pairs with a gap only count as other regions of the
		// same push (the far side of a ring on a ring): their normal must agree with the PD.
		// A moving body is the exception: a part of it that will arrive within the step
		// (predicted distance under the arrival band) is a contact whatever its normal.
		if ( translation != NULL && gap > touchDistance )
		{
			double len = pdcLength( *translation );
			if ( len > 0.0 && pdcDot( fn, *translation ) < regionCosine * len )
			{
				double now = gap - pdcDot( *translation, fn );
				pdVec3 pointA = pdcMulAdd( f->pointB, now, fn );
				bool arriving = regions->arrival > 0.0 &&
								now + pdcClosing( regions->motion, pointA, fn ) < regions->arrival;
				if ( !arriving )
				{
					continue;
				}
			}
		}
		if ( !( estimate <= maxDistance ) )
		{
			continue;
		}
		pdcRegion* r = NULL;
		for ( int i = 0; i < regions->count && r == NULL; ++i )
		{
			if ( pdcDot( regions->items[i].normal, fn ) >= regionCosine )
			{
				r = regions->items + i;
			}
		}
		if ( r == NULL )
		{
			r = pdcNewRegion( regions, fn, false );
			if ( r == NULL )
			{
				continue;
			}
		}
		// Edge-edge normals of a polyhedral contact tilt with the tessellation; face normals are
		// the surface's, so they set the region normal whenever one is present.
		if ( f->kind == PD_CONTACT_EE )
		{
			r->edgeNormalSum = pdcAdd( r->edgeNormalSum, fn );
		}
		else
		{
			r->normalSum = pdcAdd( r->normalSum, fn );
		}
		pdVec3 mean = pdcNormalize( pdcDot( r->normalSum, r->normalSum ) > 0.0 ? r->normalSum : r->edgeNormalSum );
		if ( pdcDot( mean, mean ) > 0.0 )
		{
			r->normal = mean;
		}
		// The point's gap is its pair's separation measured along the region normal (the
		// normal the engine will push along), not the pair's own gap along its own normal.
		pdVec3 offset = sepLength > 0.0 ? sep : pdcScale( fn, gap );
		double distance = pdcDot( offset, r->normal ) - ( translation != NULL ? pdcDot( *translation, r->normal ) : 0.0 );
		pdcAddPoint( r, f->pointB, offset, isfinite( distance ) ? distance : 0.0 );
	}
}

// One region seed (a normal, no points yet) per local PD; local PDs whose normals agree
// (regionCosine) share a seed, since the core may report one local PD per contact feature.
// The points come from the gathering at the contact configuration, which covers the local PDs'
// own points with their gaps: the core's points count every pair within its tolerance (0.2 mm
// on a 1 m torus) as touching, and reported at the full depth a slightly tilted resting body
// looked level until it dropped.
static void pdcRegionsFromLocal( const pdPenetrationResult* pr, double regionCosine, pdcRegions* regions )
{
	int n = pr->localCount < PD_MAX_LOCAL_REGIONS ? pr->localCount : PD_MAX_LOCAL_REGIONS;
	for ( int i = 0; i < n; ++i )
	{
		const pdLocalPenetration* lp = pr->local + i;
		pdVec3 nrm = pdcNormalize( lp->normal );
		if ( pdcDot( nrm, nrm ) == 0.0 || lp->pointCount <= 0 )
		{
			continue;
		}
		pdcRegion* r = NULL;
		for ( int k = 0; k < regions->count && r == NULL; ++k )
		{
			if ( pdcDot( regions->items[k].normal, nrm ) >= regionCosine )
			{
				r = regions->items + k;
			}
		}
		if ( r == NULL )
		{
			r = pdcNewRegion( regions, nrm, true );
			if ( r == NULL )
			{
				continue;
			}
		}
		r->normalSum = pdcAdd( r->normalSum, nrm );
	}
}

// Means drift while features join, so two regions can end up with agreeing normals (one
// patch seen from a local PD and from features): fold them together.
static void pdcMergeRegions( pdcRegions* regions, double regionCosine, pdVec3 translation )
{
	for ( int i = 0; i < regions->count; ++i )
	{
		for ( int j = regions->count - 1; j > i; --j )
		{
			pdcRegion* a = regions->items + i;
			pdcRegion* b = regions->items + j;
			if ( pdcDot( a->normal, b->normal ) < regionCosine )
			{
				continue;
			}
			a->normalSum = pdcAdd( a->normalSum, b->normalSum );
			a->edgeNormalSum = pdcAdd( a->edgeNormalSum, b->edgeNormalSum );
			a->fromPenetration = a->fromPenetration || b->fromPenetration;
			for ( int k = 0; k < b->count; ++k )
			{
				pdcAddPoint( a, b->pointB[k], b->offset[k], b->distance[k] );
			}
			pdcFinishRegion( a, translation, true );
			regions->items[j] = regions->items[regions->count - 1];
			regions->count -= 1;
		}
	}
}

// ---------------------------------------------------------------------------------------------
// One-sided surfaces

// Out-projects A from positions on its remembered side (its last free position, where it came
// from, and far along the free side) to its current position, and keeps the shortest
// resolution that leaves toward that side. Returns true and writes the translation.
static bool pdcResolveOneSided( const pdContactPair* pair, const pdMesh* meshA, const pdTransform* poseA,
								const pdMesh* meshB, const pdTransform* poseB, pdQuat qB, pdVec3 side, double tolerance,
								pdWorkspace* ws, pdVec3* outTranslation )
{
	pdVec3 p = poseA->p;
	pdVec3 starts[3];
	int startCount = 0;
	if ( pair->hasFreePosition )
	{
		starts[startCount++] = pdcAdd( pdcRotate( qB, pair->freePosition ), poseB->p );
	}
	if ( pdcLength( pair->motion ) > 0.0 )
	{
		starts[startCount++] = pdcSub( p, pair->motion );
	}
	double reach = pdcMeshDiagonal( meshA ) + 2.0 * tolerance;
	starts[startCount++] = pdcMulAdd( p, reach, side );

	pdCcdDef ccd = pdDefaultCcdDef();
	ccd.contactTolerance = tolerance;
	ccd.maxFeatures = 1;

	bool found = false;
	double bestLength = DBL_MAX;
	for ( int s = 0; s < startCount; ++s )
	{
		pdTransform start = *poseA;
		start.p = starts[s];
		pdCcdResult cr;
		pdStatus st = pdComputeTranslationalCcd( meshA, &start, p, meshB, poseB, &ccd, ws, &cr );
		if ( st < 0 || cr.startColliding || !cr.hit )
		{
			continue;
		}
		pdVec3 d = pdcSub( cr.contactPosition, p );
		double len = pdcLength( d );
		if ( !pdcIsFinite( d ) || pdcDot( d, side ) < 0.0 || len >= bestLength )
		{
			continue;
		}
		bestLength = len;
		*outTranslation = d;
		found = true;
	}
	return found;
}

// ---------------------------------------------------------------------------------------------
// Slots

// Assigns every region (deepest first) to a slot: the unused slot whose last normal is
// closest (cosine >= PD_SLOT_COSINE), else a slot that was free last frame, else any unused
// one. Regions beyond the slot count are dropped (the shallowest ones).
static void pdcAssignSlots( pdContactPair* pair, pdQuat qB, const pdContactDef* def, pdcRegions* regions,
							int slotOfRegion[PD_BUILD_REGIONS] )
{
	int order[PD_BUILD_REGIONS];
	int n = regions->count;
	for ( int i = 0; i < n; ++i )
	{
		int j = i;
		while ( j > 0 && regions->items[order[j - 1]].minDistance > regions->items[i].minDistance )
		{
			order[j] = order[j - 1];
			--j;
		}
		order[j] = i;
	}
	unsigned taken = 0;
	for ( int k = 0; k < n; ++k )
	{
		int ri = order[k];
		pdcRegion* r = regions->items + ri;
		slotOfRegion[ri] = -1;
		int best = -1;
		double bestCos = PD_SLOT_COSINE;
		pdVec3 oldWorld = pdcV3( 0.0, 0.0, 0.0 );
		for ( int s = 0; s < PD_CONTACT_MAX_MANIFOLDS; ++s )
		{
			if ( ( pair->slotMask & ( 1u << s ) ) == 0 || ( taken & ( 1u << s ) ) != 0 )
			{
				continue;
			}
			pdVec3 w = pdcRotate( qB, pair->slotNormals[s] );
			double c = pdcDot( w, r->normal );
			if ( c >= bestCos )
			{
				bestCos = c;
				best = s;
				oldWorld = w;
			}
		}
		if ( best >= 0 )
		{
			// Hold last frame's normal when it barely moved: resting contacts stay still.
			if ( bestCos >= def->holdCosine && def->holdCosine < 1.0 )
			{
				r->normal = pdcNormalize( oldWorld );
			}
		}
		else
		{
			for ( int s = 0; s < PD_CONTACT_MAX_MANIFOLDS && best < 0; ++s )
			{
				if ( ( pair->slotMask & ( 1u << s ) ) == 0 && ( taken & ( 1u << s ) ) == 0 )
				{
					best = s;
				}
			}
			for ( int s = 0; s < PD_CONTACT_MAX_MANIFOLDS && best < 0; ++s )
			{
				if ( ( taken & ( 1u << s ) ) == 0 )
				{
					best = s;
				}
			}
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
			pair->slotNormals[slotOfRegion[i]] = pdcRotateInv( qB, regions->items[i].normal );
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Generate

static pdStatus pdcCheckDef( const pdContactDef* def )
{
	if ( def->internalValue != PD_CONTACT_COOKIE )
	{
		return PD_STATUS_DEF_NOT_INITIALIZED;
	}
	// isfinite first: an ordered comparison with NaN raises FE_INVALID (a trap where enabled).
	if ( !isfinite( def->contactDistance ) || def->contactDistance < 0.0 || !isfinite( def->speculativeDistance ) ||
		 def->speculativeDistance < 0.0 || !isfinite( def->relativeTolerance ) || !( def->relativeTolerance > 0.0 ) ||
		 def->maxIterations < 1 || !isfinite( def->timeBudgetMs ) || def->timeBudgetMs < 0.0 ||
		 !isfinite( def->regionCosine ) || !( def->regionCosine >= -1.0 && def->regionCosine <= 1.0 ) ||
		 !isfinite( def->holdCosine ) || !( def->holdCosine >= -1.0 && def->holdCosine <= 1.0 ) ||
		 def->maxFeatures < 1 || !isfinite( def->relativeSkin ) || def->relativeSkin < 0.0 || def->relativeSkin >= 0.1 ||
		 ( def->oneSided != PD_ONE_SIDED_AUTO && def->oneSided != PD_ONE_SIDED_ALWAYS &&
		   def->oneSided != PD_ONE_SIDED_NEVER ) )
	{
		return PD_STATUS_INVALID_DEF;
	}
	return PD_STATUS_OK;
}

static void pdcClearSet( pdContactManifoldSet* set, pdStatus status )
{
	memset( set, 0, sizeof( *set ) );
	set->status = status;
	set->state = PD_STATE_SEPARATED;
}

pdStatus pdContact_Generate( pdContactPair* ioPair, const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							 const pdTransform* poseB, const pdContactDef* def, pdWorkspace* ioWorkspace,
							 pdContactManifoldSet* outSet )
{
	if ( outSet == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdcClearSet( outSet, PD_STATUS_OK );
	if ( ioPair == NULL || meshA == NULL || meshB == NULL || poseA == NULL || poseB == NULL || ioWorkspace == NULL )
	{
		outSet->status = PD_STATUS_INVALID_ARGUMENT;
		return outSet->status;
	}
	pdContactDef defaults = pdContactDefaultDef();
	if ( def == NULL )
	{
		def = &defaults;
	}
	pdStatus defStatus = pdcCheckDef( def );
	if ( defStatus != PD_STATUS_OK )
	{
		outSet->status = defStatus;
		return defStatus;
	}

	ioPair->frame += 1;
	pdQuat qB = pdcUnitQuat( poseB->q );
	double diagA = pdcMeshDiagonal( meshA );
	double diagB = pdcMeshDiagonal( meshB );
	double tolerance = def->relativeTolerance * fmin( diagA, diagB );
	// A skin only works where separated pairs still get contacts: at most half the contact
	// distance (none without separated contacts), else a pair would hover where it has none.
	double skin = fmin( def->relativeSkin * fmin( diagA, diagB ), 0.5 * def->contactDistance );
	if ( !( tolerance > 0.0 ) )
	{
		tolerance = 1e-9;
	}
	bool oneSided =
		def->oneSided == PD_ONE_SIDED_ALWAYS || ( def->oneSided == PD_ONE_SIDED_AUTO && !pdMesh_IsClosed( meshB ) );

	// Anything closer than this gets contacts (the distance a contact reaches, with margin).
	double contactReach = fmax( def->contactDistance, def->speculativeDistance ) + 4.0 * tolerance;
	bool apart = false;
	if ( ioPair->apartValid && ioPair->apartMeshA == meshA && ioPair->apartMeshB == meshB )
	{
		// Still farther apart than any contact reaches: exactly what the queries would find.
		apart = ioPair->apartBound - pdcMovedSinceApart( ioPair, meshA, poseA, poseB ) > contactReach;
	}
	ioPair->apartValid = apart;

	pdPenetrationDef pdef = pdDefaultPenetrationDef();
	// Contact-space pruning is off in the core's defaults (neutral per query), but in the debris
	// scene the heap settled sooner with it: mean step 37.1 and 41.2 ms against 48.9 and 43.7 ms
	// on seeds 2 and 3, level on seeds 1 and 4 (bench/results/debris.md, session 13).
	pdef.useOrientationPruning = true;
	// Motion coherence gives the plugin's queries their start; the core's dense random set
	// (512 directions, for single queries with no history) would add a probe each per pair.
	pdef.randomDirections = 32;
	// The cone search around the best answer (for a single query's global optimum) off: in the
	// 60-tori scene, seeds 1-4, it made the mean step 50.2 -> 54.0 ms and the deepest pair no
	// shallower (median 27.4 -> 25.7 mm, worst 29.5 -> 45.3 mm; bench/results/debris.md, session 16).
	pdef.coneDirections = 0;
	pdef.contactTolerance = tolerance;
	pdef.maxIterations = def->maxIterations;
	pdef.timeBudgetMs = def->timeBudgetMs;
	// Local PDs are computed below from the contact pairs the plugin gathers anyway.
	pdef.computeLocalPenetrations = false;
	// The side A is known to be free on, in world: history first, else where it came from.
	bool haveSide = false;
	pdVec3 side = pdcV3( 0.0, 0.0, 0.0 );
	if ( ioPair->hasFreeSide )
	{
		side = pdcNormalize( pdcRotate( qB, ioPair->freeSide ) );
		haveSide = pdcDot( side, side ) > 0.0;
	}
	if ( !haveSide && pdcLength( ioPair->motion ) > 0.0 )
	{
		side = pdcNormalize( pdcScale( ioPair->motion, -1.0 ) );
		haveSide = pdcDot( side, side ) > 0.0;
	}
	// A separated pair gathers toward B from its free side.
	pdVec3 separatedApproach = haveSide ? pdcScale( side, -1.0 ) : pdcV3( 0.0, 0.0, 0.0 );

	// A pair the last query found apart, gathering over the contact distance only (nothing
	// speculative beyond it): one traversal gathers those contacts and confirms the pair still
	// apart, the classification the PD query would make, without that query's own traversals
	// over the same near box pairs. Anything else takes the query. (Asking it of every pair, or
	// of those not penetrating last step, cost more than it saved: replay of seed 6, steps
	// 150-190, 17.76 G -> 19.07 G and 18.10 G instructions; most of them still touch.)
	bool confirmedApart = false;
	int confirmedCount = 0;
	const pdContactFeature* confirmedFeatures = NULL;
	if ( !apart && ioPair->penetration.lastSeparated && def->contactDistance >= tolerance &&
		 !( def->speculativeDistance > def->contactDistance ) )
	{
		if ( pdConfirmApartGatheringFeatures( meshA, poseA, meshB, poseB, &pdef, &ioPair->penetration,
											  def->contactDistance, separatedApproach, def->maxFeatures, ioWorkspace,
											  &confirmedApart, &confirmedCount, &confirmedFeatures ) < 0 )
		{
			confirmedApart = false;
		}
	}

	pdPenetrationResult pr;
	memset( &pr, 0, sizeof( pr ) );
	pr.state = PD_STATE_SEPARATED;
	pdStatus status =
		apart || confirmedApart
			? PD_STATUS_OK
			: pdComputePenetration( meshA, poseA, meshB, poseB, &pdef, &ioPair->penetration, ioWorkspace, &pr );
	outSet->iterations = pr.iterations;
	if ( status < 0 )
	{
		outSet->status = status;
		ioPair->slotMask = 0;
		return status;
	}
	outSet->status = status;
	outSet->state = pr.state;

	pdcRegions regions;
	regions.count = 0;
	regions.axis = pdcRotate( qB, pdcV3( 1.0, 0.0, 0.0 ) );
	// Depth lead that lets the deepest point displace a stable pick.
	double deepMargin = fmax( 0.25 * def->contactDistance, 4.0 * tolerance );
	// Points this close to a region's deepest count as its supporting patch.
	double supportBand = fmax( 0.05 * def->contactDistance, 8.0 * tolerance );
	regions.band = supportBand;
	// Resting contacts (shallow, and A barely moving relative to B) get the stable treatment;
	// impacts keep the deepest point and the largest area, which resolve them fastest.
	double restDepth = fmax( 0.05 * def->contactDistance, 4.0 * tolerance );
	pdcMotion motion = { ioPair->motion, ioPair->rotation, ioPair->pivot };
	regions.motion = &motion;
	// The farthest any point of A moves: the linear part plus the rotation at A's size.
	double sweep = pdcLength( ioPair->motion ) + pdcLength( ioPair->rotation ) * diagA;
	bool slow = sweep <= supportBand;
	regions.impact = sweep > def->contactDistance;
	regions.arrival = slow				 ? 0.0
					  : regions.impact ? fmax( def->contactDistance, supportBand )
									   : fmax( 0.25 * def->contactDistance, supportBand );
	// A body that can close more than the contact distance this step gathers over its whole
	// reach; the cap keeps the closest pairs, which can all lie on the side that is nearest now
	// while a spinning body lands on its other side first: a wider cap for those.
	bool reaching = def->speculativeDistance > def->contactDistance && !slow;
	// With the step's motion known, speculative reach gathers only what that motion can close.
	bool moving =
		pdcDot( ioPair->motion, ioPair->motion ) > 0.0 || pdcDot( ioPair->rotation, ioPair->rotation ) > 0.0;
	int maxFeatures = reaching && def->maxFeatures <= INT_MAX / 4 ? 4 * def->maxFeatures : def->maxFeatures;
	pdVec3 translation = pdcV3( 0.0, 0.0, 0.0 );

	if ( pr.state == PD_STATE_PENETRATING )
	{
		translation = pdcIsFinite( pr.translation ) ? pr.translation : pdcV3( 0.0, 0.0, 0.0 );
		double len = pdcLength( translation );
		bool resolved = false;
		if ( oneSided && haveSide && len > 0.0 && pdcDot( translation, side ) < PD_THROUGH_COSINE * len )
		{
			pdVec3 d;
			if ( pdcResolveOneSided( ioPair, meshA, poseA, meshB, poseB, qB, side, tolerance, ioWorkspace, &d ) )
			{
				translation = d;
				resolved = true;
				outSet->resolvedOneSided = true;
			}
		}
		// The local PDs carry a few points each, on the side that touches at the contact
		// configuration. Feature pairs there with a gap g are penetrating by g - (d . n) now,
		// so gathering up to |d| + contact distance gives every region that still overlaps
		// (both sides of a ring resting on a ring) and its full extent.
		pdTransform moved = *poseA;
		moved.p = pdcAdd( poseA->p, translation );
		int count = 0;
		const pdContactFeature* features = NULL;
		pdVec3 approach = pdcScale( pdcNormalize( translation ), -1.0 );
		// Speculative margin: enough for the other side of a resting contact, small enough to
		// keep the gathering cheap.
		double restingMargin = fmin( def->contactDistance, 4.0 * tolerance + 0.5 * len );
		// ... and wide enough for parts of A that can arrive within this step.
		double margin = fmax( restingMargin, def->speculativeDistance );
		// A body that can move further than that this step gathers only the pairs its motion can
		// bring within the arrival band: a pair it cannot close gets no impulse, and a fast
		// tumbling body has hundreds of those within its reach.
		bool swept = moving && def->speculativeDistance > restingMargin;
		pdRigidMotion stepMotion = { ioPair->motion, ioPair->rotation, pdcAdd( ioPair->pivot, translation ) };
		double gatherMargin = swept ? fmax( restingMargin, regions.arrival ) : margin;
		double reach = fmin( len + gatherMargin, 0.25 * fmin( diagA, diagB ) );
		reach = fmax( reach, 4.0 * tolerance );
		pdStatus st = pdComputeSweptContactFeatures( meshA, &moved, meshB, poseB, reach, swept ? &stepMotion : NULL,
													 approach, maxFeatures, ioWorkspace, &count, &features );
		if ( !resolved )
		{
			// The local PDs come from the pairs just gathered at A + d: the query's own pass over
			// the same configuration (within a smaller reach) would find the same ones again.
			if ( st >= 0 && pdComputeLocalPenetrations( meshA, meshB, &pdef, features, count, &pr ) >= 0 )
			{
				pdcRegionsFromLocal( &pr, def->regionCosine, &regions );
			}
		}
		if ( st >= 0 )
		{
			pdcPosedPair at = { meshA, moved, meshB, *poseB };
			pdcGroupFeatures( &at, features, count, def->regionCosine, &translation, fmax( margin, 4.0 * tolerance ),
							  4.0 * tolerance, &regions );
		}
		{
			// Seeds from local PDs that no gathered pair joined.
			int kept = 0;
			for ( int k = 0; k < regions.count; ++k )
			{
				if ( regions.items[k].count > 0 )
				{
					regions.items[kept++] = regions.items[k];
				}
			}
			regions.count = kept;
		}
		if ( regions.count == 0 )
		{
			// Nothing usable (e.g. only vertex-vertex touches): one point at the closest pair.
			pdDistanceResult dr;
			if ( pdComputeDistance( meshA, &moved, meshB, poseB, NULL, ioWorkspace, &dr ) >= 0 && len > 0.0 )
			{
				pdcRegion* r = pdcNewRegion( &regions, pdcNormalize( translation ), true );
				r->normalSum = r->normal;
				pdcAddPoint( r, dr.pointB, pdcV3( 0.0, 0.0, 0.0 ), -pdcDot( translation, r->normal ) );
			}
		}
		outSet->translation = translation;
		outSet->depth = pdcLength( translation );
		ioPair->hasFreePosition = true;
		ioPair->freePosition = pdcRotateInv( qB, pdcSub( pdcAdd( poseA->p, translation ), poseB->p ) );
	}
	else
	{
		double range = def->contactDistance;
		if ( pr.state == PD_STATE_TOUCHING )
		{
			range = fmax( range, 4.0 * tolerance );
		}
		else if ( def->speculativeDistance > range && !apart )
		{
			// A pair that can close more than the contact distance this step: a gap proof at the
			// reach (yes or no, cheaper than a distance query bounded by it) says whether anything
			// is within reach; if so, every feature pair that could meet within the step becomes
			// a contact (a spinning body lands on its far side too), with its positive distance,
			// and a second proof at the contact distance says whether they are speculative.
			bool beyondReach = false, beyondContact = false;
			pdStatus ds = pdComputeGapProof( meshA, poseA, meshB, poseB, def->speculativeDistance, ioWorkspace,
											 &beyondReach );
			if ( ds < 0 || beyondReach )
			{
				range = 0.0; // out of reach this step: no contacts (or a failed query: none either)
			}
			else
			{
				outSet->speculative =
					pdComputeGapProof( meshA, poseA, meshB, poseB, range, ioWorkspace, &beyondContact ) >= 0 &&
					beyondContact;
				range = def->speculativeDistance;
			}
		}
		if ( pr.state == PD_STATE_TOUCHING )
		{
			range = fmax( range, def->speculativeDistance );
		}
		if ( range > 0.0 && !apart )
		{
			int count = 0;
			const pdContactFeature* features = NULL;
			// Beyond the contact distance only what the motion can close within the step counts.
			double closeRange = pr.state == PD_STATE_TOUCHING ? fmax( def->contactDistance, 4.0 * tolerance )
															  : def->contactDistance;
			bool swept = moving && range > closeRange;
			pdRigidMotion stepMotion = { ioPair->motion, ioPair->rotation, ioPair->pivot };
			pdStatus st = PD_STATUS_OK;
			if ( confirmedApart )
			{
				// Gathered above, exactly this call's (range = contactDistance, static).
				count = confirmedCount;
				features = confirmedFeatures;
			}
			else
			{
				st = pdComputeSweptContactFeatures( meshA, poseA, meshB, poseB, swept ? closeRange : range,
													swept ? &stepMotion : NULL, separatedApproach, maxFeatures,
													ioWorkspace, &count, &features );
			}
			if ( st < 0 )
			{
				outSet->status = st;
			}
			else if ( features != NULL )
			{
				if ( st > 0 && outSet->status == PD_STATUS_OK )
				{
					outSet->status = st;
				}
				pdcPosedPair at = { meshA, *poseA, meshB, *poseB };
				pdcGroupFeatures( &at, features, count, def->regionCosine, NULL, range, 4.0 * tolerance, &regions );
			}
			if ( regions.count == 0 && st >= 0 )
			{
				// No feature pair (e.g. only vertex-vertex): one point at the closest pair.
				pdDistanceDef ddef = pdDefaultDistanceDef();
				ddef.upperBound = range;
				ddef.knownSeparated = true;
				pdDistanceResult dr;
				if ( pdComputeDistance( meshA, poseA, meshB, poseB, &ddef, ioWorkspace, &dr ) >= 0 &&
					 !dr.stoppedAbove && dr.distance > 0.0 && dr.distance <= range )
				{
					pdVec3 nrm = pdcNormalize( pdcSub( dr.pointA, dr.pointB ) );
					if ( pdcDot( nrm, nrm ) > 0.0 )
					{
						pdcRegion* r = pdcNewRegion( &regions, nrm, false );
						r->normalSum = nrm;
						pdcAddPoint( r, dr.pointB, pdcScale( nrm, dr.distance ), dr.distance );
					}
				}
			}
		}
		if ( !apart && pr.state == PD_STATE_SEPARATED && regions.count == 0 && outSet->status >= 0 )
		{
			// Nothing within reach: prove a gap half a reach wider once (a yes or no, cheaper than
			// the distance query bounded at 4 reaches it replaced: `polydepth-sample tori --seed 2
			// --steps 100` under callgrind 51.20 -> 50.04 G instructions, 4 reaches 55.21 G,
			// bench/results/debris.md, session 21), and the next calls skip every query until A
			// has moved relative to B by the margin it leaves.
			bool beyondProof = false;
			double proof = 1.5 * contactReach;
			if ( pdComputeGapProof( meshA, poseA, meshB, poseB, proof, ioWorkspace, &beyondProof ) >= 0 && beyondProof )
			{
				ioPair->apartValid = true;
				ioPair->apartBound = proof;
				ioPair->apartMeshA = meshA;
				ioPair->apartMeshB = meshB;
				pdcRelativePose( poseA, poseB, &ioPair->apartPosition, &ioPair->apartRotation );
			}
		}
		else if ( !apart )
		{
			ioPair->apartValid = false;
		}
		ioPair->hasFreePosition = true;
		ioPair->freePosition = pdcRotateInv( qB, pdcSub( poseA->p, poseB->p ) );
	}

	// Mean normals, stable slots (and held normals), then reduction to 4 points per region.
	for ( int i = 0; i < regions.count; ++i )
	{
		pdcFinishRegion( regions.items + i, translation, true );
	}
	pdcMergeRegions( &regions, def->regionCosine, translation );
	// The region the global PD pushes along takes the PD direction as its normal: the mean of
	// its features' normals tilts with the tessellation and with which side of a ring happens
	// to touch, and a tilted normal on a resting stack is a steady sideways push.
	double translationLength = pdcLength( translation );
	if ( translationLength > 0.0 )
	{
		pdVec3 push = pdcScale( translation, 1.0 / translationLength );
		for ( int i = 0; i < regions.count; ++i )
		{
			if ( pdcDot( regions.items[i].normal, push ) >= def->regionCosine )
			{
				regions.items[i].normal = push;
				pdcFinishRegion( regions.items + i, translation, false );
			}
		}
	}
	int slotOfRegion[PD_BUILD_REGIONS];
	pdcAssignSlots( ioPair, qB, def, &regions, slotOfRegion );

	pdVec3 sideSum = pdcV3( 0.0, 0.0, 0.0 );
	unsigned written = 0;
	for ( int i = 0; i < regions.count; ++i )
	{
		pdcRegion* r = regions.items + i;
		if ( slotOfRegion[i] < 0 || r->count == 0 )
		{
			continue;
		}
		pdcFinishRegion( r, translation, false ); // the normal may have been held
		int picked[PD_CONTACT_MAX_POINTS];
		// Resting patches (shallow, A slow relative to B) keep point identity frame to frame;
		// impacts keep the deepest point and the largest area, which resolves them fastest.
		bool resting = r->minDistance > -restDepth && slow;
		int pc = resting ? pdcReduceStable( r, 2, deepMargin, supportBand, picked, PD_CONTACT_MAX_POINTS )
				 : r->impact ? pdcReduceImpact( r, 0.25 * def->contactDistance, picked )
				 : r->arrival > 0.0 ? pdcReduceDeepest( r, fmax( r->band, r->arrival ), picked )
									: pdContact_ReducePoints( r->normal, r->pointB, r->predicted, r->count, picked );
		if ( resting )
		{
			pc = pdcKeepPrevious( ioPair, qB, poseB->p, slotOfRegion[i], r, supportBand,
								  0.5 * def->contactDistance + 4.0 * tolerance, picked, pc );
		}
		pdVec3 planeNormal;
		if ( resting &&
			 pdcPatchNormal( r, picked, pc, 0.01 * fmin( diagA, diagB ) * fmin( diagA, diagB ), PD_PLANE_COSINE,
							 &planeNormal ) )
		{
			// A wide resting patch: its plane on B is the contact normal (see pdcPatchNormal).
			r->normal = planeNormal;
			pdcFinishRegion( r, translation, false );
			ioPair->slotNormals[slotOfRegion[i]] = pdcRotateInv( qB, planeNormal );
			int first = 0;
			for ( int k = 1; k < pc; ++k )
			{
				first = r->distance[picked[k]] < r->distance[picked[first]] ? k : first;
			}
			int t = picked[0];
			picked[0] = picked[first];
			picked[first] = t;
		}
		pdContactManifold* m = outSet->manifolds + outSet->count++;
		m->slot = slotOfRegion[i];
		m->normal = r->normal;
		m->pointCount = pc;
		// Distances as the engine sees them: less the skin. With a skin, a resting pair is
		// touching as the engine sees it while its surfaces are a skin apart.
		double minReported = r->minDistance - skin;
		bool touching = pr.state == PD_STATE_TOUCHING || minReported <= tolerance;
		for ( int k = 0; k < pc; ++k )
		{
			pdContactPoint* cp = m->points + k;
			cp->pointB = r->pointB[picked[k]];
			cp->distance = r->distance[picked[k]] - skin;
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
			cp->pointA = pdcMulAdd( cp->pointB, cp->distance, r->normal );
		}
		sideSum = pdcMulAdd( sideSum, fmax( -r->minDistance, 0.0 ) + tolerance, r->normal );
		int slot = slotOfRegion[i];
		written |= 1u << slot;
		ioPair->slotPointCount[slot] = pc;
		for ( int k = 0; k < pc; ++k )
		{
			ioPair->slotPoints[slot][k] = pdcRotateInv( qB, pdcSub( m->points[k].pointB, poseB->p ) );
		}
	}
	for ( int s = 0; s < PD_CONTACT_MAX_MANIFOLDS; ++s )
	{
		if ( ( written & ( 1u << s ) ) == 0 )
		{
			ioPair->slotPointCount[s] = 0;
		}
	}

	// Deepest region first.
	for ( int i = 1; i < outSet->count; ++i )
	{
		pdContactManifold key = outSet->manifolds[i];
		int j = i;
		while ( j > 0 && outSet->manifolds[j - 1].points[0].distance > key.points[0].distance )
		{
			outSet->manifolds[j] = outSet->manifolds[j - 1];
			--j;
		}
		outSet->manifolds[j] = key;
	}

	// A point at the same place as a point of a deeper region is one contact seen through two
	// features (a vertex or edge crossing with an ill-defined normal); keeping it only adds a
	// sideways push, so the deeper region keeps it alone.
	double samePlace = fmax( 8.0 * tolerance, 0.1 * def->contactDistance );
	int keptManifolds = 0;
	for ( int i = 0; i < outSet->count; ++i )
	{
		pdContactManifold* m = outSet->manifolds + i;
		int pc = 0;
		for ( int k = 0; k < m->pointCount; ++k )
		{
			bool covered = false;
			for ( int j = 0; j < keptManifolds && !covered; ++j )
			{
				const pdContactManifold* d = outSet->manifolds + j;
				for ( int q = 0; q < d->pointCount && !covered; ++q )
				{
					covered = pdcLength( pdcSub( d->points[q].pointB, m->points[k].pointB ) ) <= samePlace;
				}
			}
			if ( !covered )
			{
				m->points[pc++] = m->points[k];
			}
		}
		m->pointCount = pc;
		if ( pc == 0 )
		{
			ioPair->slotPointCount[m->slot] = 0;
			ioPair->slotMask &= ~( 1u << m->slot );
			continue;
		}
		if ( keptManifolds != i )
		{
			outSet->manifolds[keptManifolds] = *m;
		}
		++keptManifolds;
	}
	outSet->count = keptManifolds;

	// Remember the free side: where the contact normals point now.
	pdVec3 sideNew = pdcNormalize( sideSum );
	if ( pdcDot( sideNew, sideNew ) > 0.0 )
	{
		ioPair->freeSide = pdcRotateInv( qB, sideNew );
		ioPair->hasFreeSide = true;
	}
	ioPair->lastState = pr.state;
	ioPair->lastTranslation = pdcRotateInv( qB, translation );
	ioPair->motion = pdcV3( 0.0, 0.0, 0.0 );
	ioPair->rotation = pdcV3( 0.0, 0.0, 0.0 );
	return outSet->status;
}
