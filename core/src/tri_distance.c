// SPDX-License-Identifier: MIT
// Triangle-pair primitives: distance with closest features, intersection, translational
// time of impact and contact-feature enumeration.
//
// Robustness strategy:
//  - every query first puts each triangle's vertices in lexicographic order and the pair in
//    lexicographic order, so the 72 vertex-order / winding / A-B variants run the exact same
//    arithmetic and give bit-identical answers (outputs are mapped back);
//  - coordinates are taken relative to one vertex, so 1e6 offsets with small separations
//    lose nothing;
//  - distance of disjoint triangles is the minimum of the 6 vertex-face and 9 edge-edge
//    distances; the pair touches when that minimum is within 1e-12 of the triangles' size, or
//    when an edge strictly crosses the other face (sign tests only, exact on integer inputs).
#include "tri_distance.h"

#include <float.h>

// Separation below this fraction of the largest edge counts as touching.
#define PD_TRI_TOUCH_REL 1e-12
// |n| / maxEdge^2 below this: no plane for the crossing tests (numerically collinear).
#define PD_TRI_PLANE_REL 1e-14
// |n| / maxEdge^2 below this: the face is a needle; its vertex-face distance is ill-conditioned
// and its edges already give the distance to within this fraction of its size.
#define PD_TRI_FACE_REL 1e-8
// Edge-edge pairs with sin^2(angle) below this take the careful nearly-parallel path.
#define PD_TRI_PARALLEL_SIN_SQ 1e-6
// Newton cap for the time of impact.
#define PD_TRI_TOI_MAX_ITERATIONS 64

typedef struct pdTriCanon
{
	pdVec3 v[3];
	int perm[3]; // v[k] = input[perm[k]]
} pdTriCanon;

typedef struct pdTriPairResult
{
	double distSq; // squared distance of the closest features (0 when pierced)
	pdVec3 pointA, pointB;
	pdTriFeature featureA, featureB; // canonical local indices
	bool touching;
} pdTriPairResult;

static int pdLexCompare( pdVec3 a, pdVec3 b )
{
	if ( a.x != b.x )
	{
		return a.x < b.x ? -1 : 1;
	}
	if ( a.y != b.y )
	{
		return a.y < b.y ? -1 : 1;
	}
	if ( a.z != b.z )
	{
		return a.z < b.z ? -1 : 1;
	}
	return 0;
}

static void pdCanonTriangle( const pdVec3 in[3], pdTriCanon* out )
{
	int p[3] = { 0, 1, 2 };
	// Three-element sorting network; ties keep a fixed order, and tied vertices are equal anyway.
	if ( pdLexCompare( in[p[1]], in[p[0]] ) < 0 )
	{
		int s = p[0];
		p[0] = p[1];
		p[1] = s;
	}
	if ( pdLexCompare( in[p[2]], in[p[1]] ) < 0 )
	{
		int s = p[1];
		p[1] = p[2];
		p[2] = s;
	}
	if ( pdLexCompare( in[p[1]], in[p[0]] ) < 0 )
	{
		int s = p[0];
		p[0] = p[1];
		p[1] = s;
	}
	for ( int k = 0; k < 3; ++k )
	{
		out->perm[k] = p[k];
		out->v[k] = in[p[k]];
	}
}

static int pdCanonCompare( const pdTriCanon* a, const pdTriCanon* b )
{
	for ( int k = 0; k < 3; ++k )
	{
		int c = pdLexCompare( a->v[k], b->v[k] );
		if ( c != 0 )
		{
			return c;
		}
	}
	return 0;
}

// Maps a feature of the canonical triangle back to the caller's vertex order.
static pdTriFeature pdMapFeature( const pdTriCanon* c, pdTriFeature f )
{
	pdTriFeature r = f;
	if ( f.type == PD_FEATURE_VERTEX )
	{
		r.index = c->perm[f.index];
	}
	else if ( f.type == PD_FEATURE_EDGE )
	{
		int i = c->perm[f.index];
		int j = c->perm[( f.index + 1 ) % 3];
		r.index = ( i + 1 ) % 3 == j ? i : j;
	}
	else
	{
		r.index = 0;
	}
	return r;
}

static inline double pdClamp01( double x ) { return x < 0.0 ? 0.0 : ( x > 1.0 ? 1.0 : x ); }

static inline pdTriFeature pdMakeFeature( pdFeatureType type, int index )
{
	pdTriFeature f = { type, index };
	return f;
}

// Feature of segment i (vertex i -> i+1) at parameter s.
static inline pdTriFeature pdSegmentFeature( int i, double s )
{
	if ( s <= 0.0 )
	{
		return pdMakeFeature( PD_FEATURE_VERTEX, i );
	}
	if ( s >= 1.0 )
	{
		return pdMakeFeature( PD_FEATURE_VERTEX, ( i + 1 ) % 3 );
	}
	return pdMakeFeature( PD_FEATURE_EDGE, i );
}

// Parameter of the point of segment q + t*d closest to x (d*d = e > pointSq, or returns 0).
static inline double pdPointSegmentParam( pdVec3 x, pdVec3 q, pdVec3 d, double e, double pointSq )
{
	return e > pointSq ? pdClamp01( pdDot( pdSub( x, q ), d ) / e ) : 0.0;
}

static inline double pdSegmentPairDistSq( pdVec3 p, pdVec3 d1, double s, pdVec3 q, pdVec3 d2, double t )
{
	return pdDistanceSq( pdMulAdd( p, s, d1 ), pdMulAdd( q, t, d2 ) );
}

// Closest points of segments p + s*d1 and q + t*d2, s,t in [0,1]. Handles zero-length and
// parallel segments; nearly parallel ones also try the four endpoint projections, because
// there the interior solution is ill-conditioned. Returns the squared distance.
static double pdSegmentSegment( pdVec3 p, pdVec3 d1, pdVec3 q, pdVec3 d2, double pointSq, double* outS, double* outT )
{
	pdVec3 r = pdSub( p, q );
	double a = pdDot( d1, d1 );
	double e = pdDot( d2, d2 );
	double f = pdDot( d2, r );
	double s = 0.0, t = 0.0;
	if ( a <= pointSq )
	{
		t = pdPointSegmentParam( p, q, d2, e, pointSq );
		*outS = 0.0;
		*outT = t;
		return pdSegmentPairDistSq( p, d1, 0.0, q, d2, t );
	}
	double c = pdDot( d1, r );
	if ( e <= pointSq )
	{
		s = pdClamp01( -c / a );
		*outS = s;
		*outT = 0.0;
		return pdSegmentPairDistSq( p, d1, s, q, d2, 0.0 );
	}
	double b = pdDot( d1, d2 );
	double denom = a * e - b * b;
	bool wellConditioned = denom > PD_TRI_PARALLEL_SIN_SQ * a * e;
	s = denom > 0.0 ? pdClamp01( ( b * f - c * e ) / denom ) : 0.0;
	t = ( b * s + f ) / e;
	if ( t < 0.0 )
	{
		t = 0.0;
		s = pdClamp01( -c / a );
	}
	else if ( t > 1.0 )
	{
		t = 1.0;
		s = pdClamp01( ( b - c ) / a );
	}
	double best = pdSegmentPairDistSq( p, d1, s, q, d2, t );
	if ( wellConditioned )
	{
		*outS = s;
		*outT = t;
		return best;
	}

	// Nearly parallel: one alternating refinement, then the endpoint candidates.
	{
		double t2 = pdPointSegmentParam( pdMulAdd( p, s, d1 ), q, d2, e, pointSq );
		double s2 = pdPointSegmentParam( pdMulAdd( q, t2, d2 ), p, d1, a, pointSq );
		double d = pdSegmentPairDistSq( p, d1, s2, q, d2, t2 );
		if ( d < best )
		{
			best = d;
			s = s2;
			t = t2;
		}
	}
	for ( int k = 0; k < 2; ++k )
	{
		double sk = (double)k;
		double tk = pdPointSegmentParam( pdMulAdd( p, sk, d1 ), q, d2, e, pointSq );
		double d = pdSegmentPairDistSq( p, d1, sk, q, d2, tk );
		if ( d < best )
		{
			best = d;
			s = sk;
			t = tk;
		}
	}
	for ( int k = 0; k < 2; ++k )
	{
		double tk = (double)k;
		double sk = pdPointSegmentParam( pdMulAdd( q, tk, d2 ), p, d1, a, pointSq );
		double d = pdSegmentPairDistSq( p, d1, sk, q, d2, tk );
		if ( d < best )
		{
			best = d;
			s = sk;
			t = tk;
		}
	}
	*outS = s;
	*outT = t;
	return best;
}

static inline double pdMaxEdgeSq( const pdVec3 e[3] )
{
	return pdMaxD( pdLengthSq( e[0] ), pdMaxD( pdLengthSq( e[1] ), pdLengthSq( e[2] ) ) );
}

// Precomputed per-triangle data (local coordinates).
typedef struct pdTriLocal
{
	const pdVec3* v;
	pdVec3 e[3]; // e[i] = v[i+1] - v[i]
	pdVec3 n;    // (v1 - v0) x (v2 - v0), unnormalised
	double nSq;
	double maxEdgeSq;
	bool hasPlane; // usable for crossing sign tests
	bool hasFace;  // usable for vertex-face distance
} pdTriLocal;

static void pdTriLocalInit( const pdVec3 v[3], pdTriLocal* t )
{
	t->v = v;
	t->e[0] = pdSub( v[1], v[0] );
	t->e[1] = pdSub( v[2], v[1] );
	t->e[2] = pdSub( v[0], v[2] );
	t->n = pdCross( t->e[0], pdSub( v[2], v[0] ) );
	t->nSq = pdLengthSq( t->n );
	t->maxEdgeSq = pdMaxEdgeSq( t->e );
	double m4 = t->maxEdgeSq * t->maxEdgeSq;
	t->hasPlane = t->nSq > PD_TRI_PLANE_REL * PD_TRI_PLANE_REL * m4 && t->nSq > 0.0;
	t->hasFace = t->nSq > PD_TRI_FACE_REL * PD_TRI_FACE_REL * m4 && t->nSq > 0.0;
}

// Closed inside test of x's projection on the face (signs of the edge-plane tests).
static inline bool pdInsideFace( const pdTriLocal* t, pdVec3 x )
{
	for ( int k = 0; k < 3; ++k )
	{
		if ( pdDot( pdCross( t->e[k], pdSub( x, t->v[k] ) ), t->n ) < 0.0 )
		{
			return false;
		}
	}
	return true;
}

// Does an edge p->q with strictly opposite plane sides sp, sq cross the closed face of t?
// The crossing point is interpolated from the sides, so it lies on the edge and (to rounding of
// max(|sp|,|sq|)) on the plane even when the sides are only noise; testing that point against
// the face, rather than sign-testing the edge against the face's edges, keeps an edge lying in
// the plane from passing on noise.
static bool pdEdgeCrossesFace( const pdTriLocal* t, pdVec3 p, pdVec3 q, double sp, double sq, pdVec3* outPoint )
{
	if ( !( ( sp > 0.0 && sq < 0.0 ) || ( sp < 0.0 && sq > 0.0 ) ) )
	{
		return false;
	}
	pdVec3 x = pdMulAdd( p, sp / ( sp - sq ), pdSub( q, p ) );
	if ( !pdInsideFace( t, x ) )
	{
		return false;
	}
	*outPoint = x;
	return true;
}

// Core pair test in local coordinates on canonical triangles. With needPoints false it stops
// as soon as the verdict is known (the verdict is the same either way).
static void pdTriPairLocal( const pdVec3 a[3], const pdVec3 b[3], bool needPoints, pdTriPairResult* r )
{
	pdTriLocal ta, tb;
	pdTriLocalInit( a, &ta );
	pdTriLocalInit( b, &tb );
	double maxEdgeSq = pdMaxD( ta.maxEdgeSq, tb.maxEdgeSq );
	double tolSq = PD_TRI_TOUCH_REL * PD_TRI_TOUCH_REL * maxEdgeSq;
	double pointSq = 1e-28 * maxEdgeSq;

	r->distSq = DBL_MAX;
	r->pointA = a[0];
	r->pointB = b[0];
	r->featureA = pdMakeFeature( PD_FEATURE_VERTEX, 0 );
	r->featureB = pdMakeFeature( PD_FEATURE_VERTEX, 0 );
	r->touching = false;

	// Unnormalised plane sides: sB[j] = na . (b_j - a0), sA[i] = nb . (a_i - b0).
	double sA[3] = { 0.0, 0.0, 0.0 }, sB[3] = { 0.0, 0.0, 0.0 };
	if ( ta.hasPlane )
	{
		int above = 0, below = 0;
		double far = 4.0 * tolSq * ta.nSq;
		for ( int j = 0; j < 3; ++j )
		{
			sB[j] = pdDot( ta.n, pdSub( b[j], a[0] ) );
			bool clear = sB[j] * sB[j] > far;
			above += sB[j] > 0.0 && clear;
			below += sB[j] < 0.0 && clear;
		}
		// A plane clearly separates: the verdict is "apart" (the features below would agree).
		if ( !needPoints && ( above == 3 || below == 3 ) )
		{
			return;
		}
	}
	if ( tb.hasPlane )
	{
		int above = 0, below = 0;
		double far = 4.0 * tolSq * tb.nSq;
		for ( int i = 0; i < 3; ++i )
		{
			sA[i] = pdDot( tb.n, pdSub( a[i], b[0] ) );
			bool clear = sA[i] * sA[i] > far;
			above += sA[i] > 0.0 && clear;
			below += sA[i] < 0.0 && clear;
		}
		if ( !needPoints && ( above == 3 || below == 3 ) )
		{
			return;
		}
	}

	// Proper crossings of an edge through the other face.
	if ( ta.hasPlane )
	{
		for ( int j = 0; j < 3; ++j )
		{
			pdVec3 x;
			int j1 = ( j + 1 ) % 3;
			if ( pdEdgeCrossesFace( &ta, b[j], b[j1], sB[j], sB[j1], &x ) )
			{
				r->distSq = 0.0;
				r->pointA = x;
				r->pointB = x;
				r->featureA = pdMakeFeature( PD_FEATURE_FACE, 0 );
				r->featureB = pdMakeFeature( PD_FEATURE_EDGE, j );
				r->touching = true;
				return;
			}
		}
	}
	if ( tb.hasPlane )
	{
		for ( int i = 0; i < 3; ++i )
		{
			pdVec3 x;
			int i1 = ( i + 1 ) % 3;
			if ( pdEdgeCrossesFace( &tb, a[i], a[i1], sA[i], sA[i1], &x ) )
			{
				r->distSq = 0.0;
				r->pointA = x;
				r->pointB = x;
				r->featureA = pdMakeFeature( PD_FEATURE_EDGE, i );
				r->featureB = pdMakeFeature( PD_FEATURE_FACE, 0 );
				r->touching = true;
				return;
			}
		}
	}

	// Vertex-face distances (projection inside the closed face).
	if ( ta.hasFace )
	{
		for ( int j = 0; j < 3; ++j )
		{
			if ( !pdInsideFace( &ta, b[j] ) )
			{
				continue;
			}
			double d = sB[j] * sB[j] / ta.nSq;
			if ( d < r->distSq )
			{
				r->distSq = d;
				r->pointB = b[j];
				r->pointA = pdMulAdd( b[j], -sB[j] / ta.nSq, ta.n );
				r->featureA = pdMakeFeature( PD_FEATURE_FACE, 0 );
				r->featureB = pdMakeFeature( PD_FEATURE_VERTEX, j );
				if ( !needPoints && d <= tolSq )
				{
					r->touching = true;
					return;
				}
			}
		}
	}
	if ( tb.hasFace )
	{
		for ( int i = 0; i < 3; ++i )
		{
			if ( !pdInsideFace( &tb, a[i] ) )
			{
				continue;
			}
			double d = sA[i] * sA[i] / tb.nSq;
			if ( d < r->distSq )
			{
				r->distSq = d;
				r->pointA = a[i];
				r->pointB = pdMulAdd( a[i], -sA[i] / tb.nSq, tb.n );
				r->featureA = pdMakeFeature( PD_FEATURE_VERTEX, i );
				r->featureB = pdMakeFeature( PD_FEATURE_FACE, 0 );
				if ( !needPoints && d <= tolSq )
				{
					r->touching = true;
					return;
				}
			}
		}
	}

	// Edge-edge distances (also covers vertex-edge and vertex-vertex).
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = 0; j < 3; ++j )
		{
			double s, t;
			double d = pdSegmentSegment( a[i], ta.e[i], b[j], tb.e[j], pointSq, &s, &t );
			if ( d < r->distSq )
			{
				r->distSq = d;
				r->pointA = pdMulAdd( a[i], s, ta.e[i] );
				r->pointB = pdMulAdd( b[j], t, tb.e[j] );
				r->featureA = pdSegmentFeature( i, s );
				r->featureB = pdSegmentFeature( j, t );
				if ( !needPoints && d <= tolSq )
				{
					r->touching = true;
					return;
				}
			}
		}
	}

	r->touching = r->distSq <= tolSq;
}

typedef struct pdTriPairSetup
{
	pdTriCanon ca, cb; // canonical triangles as given (ca from a, cb from b)
	bool swapped;      // canonical pair order is (b, a)
	pdVec3 origin;
	pdVec3 la[3], lb[3]; // local coordinates, in canonical pair order
} pdTriPairSetup;

static void pdTriPairPrepare( const pdVec3 a[3], const pdVec3 b[3], pdTriPairSetup* s )
{
	pdCanonTriangle( a, &s->ca );
	pdCanonTriangle( b, &s->cb );
	s->swapped = pdCanonCompare( &s->cb, &s->ca ) < 0;
	const pdTriCanon* first = s->swapped ? &s->cb : &s->ca;
	const pdTriCanon* second = s->swapped ? &s->ca : &s->cb;
	s->origin = first->v[0];
	for ( int k = 0; k < 3; ++k )
	{
		s->la[k] = pdSub( first->v[k], s->origin );
		s->lb[k] = pdSub( second->v[k], s->origin );
	}
}

double pdTriangleDistance( const pdVec3 a[3], const pdVec3 b[3], pdVec3* outPointA, pdVec3* outPointB,
						   pdTriFeature* outFeatureA, pdTriFeature* outFeatureB )
{
	pdTriPairSetup s;
	pdTriPairPrepare( a, b, &s );
	pdTriPairResult r;
	pdTriPairLocal( s.la, s.lb, true, &r );

	double dist;
	pdVec3 pa = r.pointA, pb = r.pointB;
	if ( r.touching )
	{
		// Touching within the tolerance: report one common point.
		dist = 0.0;
		pa = pdScale( pdAdd( pa, pb ), 0.5 );
		pb = pa;
	}
	else
	{
		dist = sqrt( r.distSq );
	}
	pa = pdAdd( pa, s.origin );
	pb = pdAdd( pb, s.origin );

	// Back to the caller's pair order and vertex order.
	pdVec3 pointA = s.swapped ? pb : pa;
	pdVec3 pointB = s.swapped ? pa : pb;
	pdTriFeature fa = s.swapped ? r.featureB : r.featureA;
	pdTriFeature fb = s.swapped ? r.featureA : r.featureB;
	fa = pdMapFeature( &s.ca, fa );
	fb = pdMapFeature( &s.cb, fb );
	if ( outPointA != NULL )
	{
		*outPointA = pointA;
	}
	if ( outPointB != NULL )
	{
		*outPointB = pointB;
	}
	if ( outFeatureA != NULL )
	{
		*outFeatureA = fa;
	}
	if ( outFeatureB != NULL )
	{
		*outFeatureB = fb;
	}
	return dist;
}

void pdTrianglePlane_Make( const pdVec3 p[3], pdTrianglePlane* out )
{
	pdVec3 e0 = pdSub( p[1], p[0] ), e1 = pdSub( p[2], p[0] ), e2 = pdSub( p[2], p[1] );
	out->n = pdCross( e0, e1 );
	double nLen = pdLength( out->n );
	double edgeSq = pdMaxD( pdLengthSq( e0 ), pdMaxD( pdLengthSq( e1 ), pdLengthSq( e2 ) ) );
	// A needle or a point: its normal is rounding noise, so it separates nothing.
	out->length = nLen > 1e-6 * edgeSq ? nLen : 0.0;
}

bool pdPlaneSeparatesBy( const pdVec3 p[3], const pdVec3 q[3], double distance )
{
	pdTrianglePlane plane;
	pdTrianglePlane_Make( p, &plane );
	return pdTrianglePlane_Separates( &plane, p[0], q, distance );
}

// Either plane separates the pair "clearly": by 1e-9 of the longest edge plus the coordinates'
// size, far beyond the 1e-12 touch tolerance of pdTriPairLocal and the rounding of either
// coordinate origin, so whenever this holds the canonical test would also find that plane
// separating (the verdict is the same), and the canonical ordering and set-up are skipped for
// the pairs that merely have overlapping boxes.
static bool pdClearlyPlaneSeparated( const pdVec3 a[3], const pdVec3 b[3] )
{
	double edge = 0.0;
	for ( int k = 0; k < 3; ++k )
	{
		edge = pdMaxD( edge, pdMaxD( pdLength( pdSub( a[( k + 1 ) % 3], a[k] ) ), pdLength( pdSub( b[( k + 1 ) % 3], b[k] ) ) ) );
	}
	double margin = 1e-9 * ( edge + pdPairCoordinateScale( a, b ) );
	return pdPlaneSeparatesBy( a, b, margin ) || pdPlaneSeparatesBy( b, a, margin );
}

bool pdTrianglesIntersect( const pdVec3 a[3], const pdVec3 b[3] )
{
	if ( pdClearlyPlaneSeparated( a, b ) )
	{
		return false;
	}
	pdTriPairSetup s;
	pdTriPairPrepare( a, b, &s );
	pdTriPairResult r;
	pdTriPairLocal( s.la, s.lb, false, &r );
	return r.touching;
}

bool pdTriangleTranslationToi( const pdVec3 a[3], const pdVec3 b[3], pdVec3 v, double tMax, double targetDistance,
							   double* outT )
{
	*outT = 0.0;
	double target = targetDistance > 0.0 ? targetDistance : 0.0;
	if ( !( tMax > 0.0 ) )
	{
		tMax = 0.0;
	}
	pdVec3 ea[3] = { pdSub( a[1], a[0] ), pdSub( a[2], a[1] ), pdSub( a[0], a[2] ) };
	pdVec3 eb[3] = { pdSub( b[1], b[0] ), pdSub( b[2], b[1] ), pdSub( b[0], b[2] ) };
	double size = sqrt( pdMaxD( pdMaxEdgeSq( ea ), pdMaxEdgeSq( eb ) ) );
	// Stop once within this of the target; aim half of it short so rounding cannot overshoot.
	double tolStop = 1e-12 * ( size + target );
	double speed = pdLength( v );

	// Work relative to b so that a + t*v is not rounded at the scale of far-away coordinates.
	pdVec3 origin = b[0];
	pdVec3 la[3] = { pdSub( a[0], origin ), pdSub( a[1], origin ), pdSub( a[2], origin ) };
	pdVec3 lb[3] = { pdV3( 0.0, 0.0, 0.0 ), pdSub( b[1], origin ), pdSub( b[2], origin ) };

	double t = 0.0;
	for ( int iteration = 0; iteration < PD_TRI_TOI_MAX_ITERATIONS; ++iteration )
	{
		pdVec3 moved[3] = { pdMulAdd( la[0], t, v ), pdMulAdd( la[1], t, v ), pdMulAdd( la[2], t, v ) };
		pdVec3 pa, pb;
		double d = pdTriangleDistance( moved, lb, &pa, &pb, NULL, NULL );
		double gap = d - target;
		if ( gap <= tolStop )
		{
			*outT = t;
			return true;
		}
		// The distance falls no faster than |v|.
		if ( speed * ( tMax - t ) < gap )
		{
			return false;
		}
		// d(t) is convex: its tangent lies below it, so the tangent's root is never late, and
		// a non-decreasing tangent means it never comes closer.
		double slope = pdDot( pdSub( pa, pb ), v ) / d;
		if ( !( slope < 0.0 ) )
		{
			return false;
		}
		double step = ( gap - 0.5 * tolStop ) / -slope;
		if ( step > tMax - t )
		{
			return false;
		}
		double next = t + step;
		if ( !( next > t ) )
		{
			// Converged to the resolution of t.
			*outT = t;
			return true;
		}
		t = next;
	}
	// Cap hit: the last iterate is still before the contact (monotone from the left).
	*outT = t;
	return true;
}

// Unit normal n or -n, oriented from b toward a: by the sign of sep when it is decidable,
// otherwise against approachDirection, otherwise a fixed sign of n.
static pdVec3 pdOrientNormal( pdVec3 n, double sep, double sepTol, pdVec3 approachDirection )
{
	if ( sep > sepTol )
	{
		return n;
	}
	if ( sep < -sepTol )
	{
		return pdNeg( n );
	}
	double ad = pdDot( n, approachDirection );
	if ( ad > 0.0 )
	{
		return pdNeg( n );
	}
	if ( ad < 0.0 )
	{
		return n;
	}
	if ( sep != 0.0 )
	{
		return sep > 0.0 ? n : pdNeg( n );
	}
	bool positive = n.x != 0.0 ? n.x > 0.0 : ( n.y != 0.0 ? n.y > 0.0 : n.z >= 0.0 );
	return positive ? n : pdNeg( n );
}

int pdTriangleContactFeatures( const pdVec3 a[3], const pdVec3 b[3], double tolerance, pdVec3 approachDirection,
							   pdContactFeature out[15] )
{
	return pdTriangleOwnedContactFeatures( a, b, tolerance, approachDirection, PD_OWN_ALL, PD_OWN_ALL, out );
}

int pdTriangleOwnedContactFeatures( const pdVec3 a[3], const pdVec3 b[3], double tolerance,
									pdVec3 approachDirection, unsigned ownA, unsigned ownB, pdContactFeature out[15] )
{
	pdTriCanon ca, cb;
	pdCanonTriangle( a, &ca );
	pdCanonTriangle( b, &cb );
	pdVec3 origin = ca.v[0];
	pdVec3 la[3], lb[3];
	for ( int k = 0; k < 3; ++k )
	{
		la[k] = pdSub( ca.v[k], origin );
		lb[k] = pdSub( cb.v[k], origin );
	}
	pdTriLocal ta, tb;
	pdTriLocalInit( la, &ta );
	pdTriLocalInit( lb, &tb );
	double size = sqrt( pdMaxD( ta.maxEdgeSq, tb.maxEdgeSq ) );
	double sepTol = 1e-12 * size;
	double margin = 1e-9 * size;
	double pointSq = 1e-28 * size * size;
	double tol = tolerance > 0.0 ? tolerance : 0.0;
	int count = 0;

	// VF: vertex of a over the face of b. FV: vertex of b under the face of a.
	for ( int side = 0; side < 2; ++side )
	{
		const pdTriLocal* face = side == 0 ? &tb : &ta;
		const pdVec3* verts = side == 0 ? la : lb;
		const pdTriCanon* vertexCanon = side == 0 ? &ca : &cb;
		unsigned own = side == 0 ? ownA : ownB;
		if ( !face->hasFace || ( own & PD_OWN_VERTICES ) == 0 )
		{
			continue;
		}
		double nLen = sqrt( face->nSq );
		pdVec3 n = pdScale( face->n, 1.0 / nLen );
		for ( int i = 0; i < 3; ++i )
		{
			if ( ( own & PD_OWN_VERTEX( vertexCanon->perm[i] ) ) == 0 )
			{
				continue;
			}
			pdVec3 p = verts[i];
			double s = pdDot( n, pdSub( p, face->v[0] ) );
			if ( fabs( s ) > tol )
			{
				continue;
			}
			bool inside = true;
			for ( int k = 0; k < 3 && inside; ++k )
			{
				// Signed distance of the projection to edge line k, positive inside.
				double el = sqrt( pdLengthSq( face->e[k] ) );
				double h = pdDot( pdCross( face->e[k], pdSub( p, face->v[k] ) ), n );
				inside = h >= -margin * el;
			}
			if ( !inside )
			{
				continue;
			}
			pdVec3 onFace = pdMulAdd( p, -s, n );
			pdContactFeature* c = &out[count++];
			if ( side == 0 )
			{
				// Separation of a from b along n is s.
				pdVec3 normal = pdOrientNormal( n, s, sepTol, approachDirection );
				c->kind = PD_CONTACT_VF;
				c->featureA.type = PD_FEATURE_VERTEX;
				c->featureA.index = ca.perm[i];
				c->featureB.type = PD_FEATURE_FACE;
				c->featureB.index = 0;
				c->pointA = pdAdd( p, origin );
				c->pointB = pdAdd( onFace, origin );
				c->normal = normal;
				c->distance = s * pdDot( normal, n );
			}
			else
			{
				// The vertex belongs to b: a is on the far side, separation along n is -s.
				pdVec3 normal = pdOrientNormal( n, -s, sepTol, approachDirection );
				c->kind = PD_CONTACT_FV;
				c->featureA.type = PD_FEATURE_FACE;
				c->featureA.index = 0;
				c->featureB.type = PD_FEATURE_VERTEX;
				c->featureB.index = cb.perm[i];
				c->pointA = pdAdd( onFace, origin );
				c->pointB = pdAdd( p, origin );
				c->normal = normal;
				c->distance = -s * pdDot( normal, n );
			}
			c->featureA.triangle = -1;
			c->featureA.vertex = -1;
			c->featureB.triangle = -1;
			c->featureB.vertex = -1;
		}
	}

	// EE: non-parallel edges whose closest points are interior to both.
	if ( ( ownA & PD_OWN_EDGES ) == 0 || ( ownB & PD_OWN_EDGES ) == 0 )
	{
		return count;
	}
	// Each canonical edge's index in the caller's vertex order, mapped once (not per edge pair).
	int edgeA[3], edgeB[3];
	for ( int k = 0; k < 3; ++k )
	{
		edgeA[k] = pdMapFeature( &ca, pdMakeFeature( PD_FEATURE_EDGE, k ) ).index;
		edgeB[k] = pdMapFeature( &cb, pdMakeFeature( PD_FEATURE_EDGE, k ) ).index;
	}
	for ( int i = 0; i < 3; ++i )
	{
		if ( ( ownA & PD_OWN_EDGE( edgeA[i] ) ) == 0 )
		{
			continue;
		}
		for ( int j = 0; j < 3; ++j )
		{
			if ( ( ownB & PD_OWN_EDGE( edgeB[j] ) ) == 0 )
			{
				continue;
			}
			pdVec3 da = ta.e[i], db = tb.e[j];
			double aa = pdLengthSq( da ), bb = pdLengthSq( db );
			if ( aa <= pointSq || bb <= pointSq )
			{
				continue;
			}
			pdVec3 n = pdCross( da, db );
			double nSq = pdLengthSq( n );
			if ( !( nSq > 1e-18 * aa * bb ) )
			{
				continue;
			}
			// Cheap rejections before the closest points: the segments' boxes, and the distance
			// between the two lines (a lower bound on the segments'), both padded for rounding so
			// that nothing the exact test below would keep is dropped.
			pdVec3 ea = pdAdd( la[i], da ), eb = pdAdd( lb[j], db );
			double reach = tol + margin;
			pdVec3 loA = pdMin3( la[i], ea ), hiA = pdMax3( la[i], ea );
			pdVec3 loB = pdMin3( lb[j], eb ), hiB = pdMax3( lb[j], eb );
			if ( loA.x > hiB.x + reach || loB.x > hiA.x + reach || loA.y > hiB.y + reach || loB.y > hiA.y + reach ||
				 loA.z > hiB.z + reach || loB.z > hiA.z + reach )
			{
				continue;
			}
			double lineGap = pdDot( pdSub( lb[j], la[i] ), n );
			if ( lineGap * lineGap > reach * reach * nSq )
			{
				continue;
			}
			double s, t;
			double dSq = pdSegmentSegment( la[i], da, lb[j], db, pointSq, &s, &t );
			const double interior = 1e-9;
			if ( s <= interior || s >= 1.0 - interior || t <= interior || t >= 1.0 - interior )
			{
				continue;
			}
			if ( dSq > tol * tol )
			{
				continue;
			}
			pdVec3 pa = pdMulAdd( la[i], s, da );
			pdVec3 pb = pdMulAdd( lb[j], t, db );
			pdVec3 nu = pdScale( n, 1.0 / sqrt( nSq ) );
			double sep = pdDot( pdSub( pa, pb ), nu );
			pdVec3 normal = pdOrientNormal( nu, sep, sepTol, approachDirection );
			pdContactFeature* c = &out[count++];
			c->kind = PD_CONTACT_EE;
			c->featureA.type = PD_FEATURE_EDGE;
			c->featureA.index = edgeA[i];
			c->featureA.triangle = -1;
			c->featureA.vertex = -1;
			c->featureB.type = PD_FEATURE_EDGE;
			c->featureB.index = edgeB[j];
			c->featureB.triangle = -1;
			c->featureB.vertex = -1;
			c->pointA = pdAdd( pa, origin );
			c->pointB = pdAdd( pb, origin );
			c->normal = normal;
			c->distance = sep * pdDot( normal, nu );
		}
	}
	return count;
}
