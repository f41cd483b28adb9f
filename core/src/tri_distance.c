// SPDX-License-Identifier: MIT
// Triangle-pair primitives: distance with closest features, intersection and translational
// time of impact (the contact features of a pair are in tri_features.c).
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
#include "tri_local.h"

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

void pdCanonTriangle( const pdVec3 in[3], pdTriCanon* out )
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

pdTriFeature pdMapFeature( const pdTriCanon* c, pdTriFeature f )
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

// Keeps the segment parameters (sk, tk) when their squared distance d beats *ioBest.
static inline void pdKeepCloser( double d, double sk, double tk, double* ioBest, double* ioS, double* ioT )
{
	if ( d < *ioBest )
	{
		*ioBest = d;
		*ioS = sk;
		*ioT = tk;
	}
}


double pdSegmentSegment( pdVec3 p, pdVec3 d1, pdVec3 q, pdVec3 d2, double pointSq, double* outS, double* outT )
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
		pdKeepCloser( d, s2, t2, &best, &s, &t );
	}
	for ( int k = 0; k < 2; ++k )
	{
		double sk = (double)k;
		double tk = pdPointSegmentParam( pdMulAdd( p, sk, d1 ), q, d2, e, pointSq );
		double d = pdSegmentPairDistSq( p, d1, sk, q, d2, tk );
		pdKeepCloser( d, sk, tk, &best, &s, &t );
	}
	for ( int k = 0; k < 2; ++k )
	{
		double tk = (double)k;
		double sk = pdPointSegmentParam( pdMulAdd( q, tk, d2 ), p, d1, a, pointSq );
		double d = pdSegmentPairDistSq( p, d1, sk, q, d2, tk );
		pdKeepCloser( d, sk, tk, &best, &s, &t );
	}
	*outS = s;
	*outT = t;
	return best;
}

static inline double pdMaxEdgeSq( const pdVec3 e[3] )
{
	return pdMaxD( pdLengthSq( e[0] ), pdMaxD( pdLengthSq( e[1] ), pdLengthSq( e[2] ) ) );
}

void pdTriLocalInit( const pdVec3 v[3], pdTriLocal* t )
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

// Plane sides of the corners p against t's plane through base, unnormalised: n . (p_j - base).
// True when all three lie clearly on one side (further than twice the touching tolerance).
static bool pdPlaneSides( const pdTriLocal* t, pdVec3 base, const pdVec3 p[3], double tolSq, double outS[3] )
{
	int above = 0, below = 0;
	double far = 4.0 * tolSq * t->nSq;
	for ( int j = 0; j < 3; ++j )
	{
		outS[j] = pdDot( t->n, pdSub( p[j], base ) );
		bool clear = outS[j] * outS[j] > far;
		above += outS[j] > 0.0 && clear;
		below += outS[j] < 0.0 && clear;
	}
	return above == 3 || below == 3;
}

// Feature pair (face of t, feature of the other triangle) in pair order: faceOnA says which
// triangle of the pair t is.
static void pdSetFacePair( pdTriPairResult* r, bool faceOnA, pdTriFeature other )
{
	pdTriFeature face = pdMakeFeature( PD_FEATURE_FACE, 0 );
	r->featureA = faceOnA ? face : other;
	r->featureB = faceOnA ? other : face;
}

// An edge of the other triangle (corners p, plane sides s against t) that properly crosses
// t's face: then the pair touches there, and r says so. faceOnA: t is the pair's a.
static bool pdEdgeCrossing( const pdTriLocal* t, const pdVec3 p[3], const double s[3], bool faceOnA,
							pdTriPairResult* r )
{
	for ( int j = 0; j < 3; ++j )
	{
		pdVec3 x;
		int j1 = ( j + 1 ) % 3;
		if ( pdEdgeCrossesFace( t, p[j], p[j1], s[j], s[j1], &x ) )
		{
			r->distSq = 0.0;
			r->pointA = x;
			r->pointB = x;
			pdSetFacePair( r, faceOnA, pdMakeFeature( PD_FEATURE_EDGE, j ) );
			r->touching = true;
			return true;
		}
	}
	return false;
}

// Corners p of the other triangle (plane sides s against t) whose projection falls inside t's
// closed face: each nearer than r's best becomes r's result. True when the verdict "touching"
// is known and needPoints is false (the caller stops). faceOnA: t is the pair's a.
static bool pdVertexFaceDistances( const pdTriLocal* t, const pdVec3 p[3], const double s[3], bool faceOnA,
								   bool needPoints, double tolSq, pdTriPairResult* r )
{
	for ( int j = 0; j < 3; ++j )
	{
		if ( !pdInsideFace( t, p[j] ) )
		{
			continue;
		}
		double d = s[j] * s[j] / t->nSq;
		if ( d < r->distSq )
		{
			pdVec3 onFace = pdMulAdd( p[j], -s[j] / t->nSq, t->n );
			r->distSq = d;
			r->pointA = faceOnA ? onFace : p[j];
			r->pointB = faceOnA ? p[j] : onFace;
			pdSetFacePair( r, faceOnA, pdMakeFeature( PD_FEATURE_VERTEX, j ) );
			if ( !needPoints && d <= tolSq )
			{
				r->touching = true;
				return true;
			}
		}
	}
	return false;
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

	// Unnormalised plane sides: sB[j] = na . (b_j - a0), sA[i] = nb . (a_i - b0). A plane that
	// clearly separates gives the verdict "apart" (the features below would agree).
	double sA[3] = { 0.0, 0.0, 0.0 }, sB[3] = { 0.0, 0.0, 0.0 };
	if ( ta.hasPlane )
	{
		bool separated = pdPlaneSides( &ta, a[0], b, tolSq, sB );
		if ( !needPoints && separated )
		{
			return;
		}
	}
	if ( tb.hasPlane )
	{
		bool separated = pdPlaneSides( &tb, b[0], a, tolSq, sA );
		if ( !needPoints && separated )
		{
			return;
		}
	}

	// Proper crossings of an edge through the other face.
	if ( ta.hasPlane && pdEdgeCrossing( &ta, b, sB, true, r ) )
	{
		return;
	}
	if ( tb.hasPlane && pdEdgeCrossing( &tb, a, sA, false, r ) )
	{
		return;
	}

	// Vertex-face distances (projection inside the closed face).
	if ( ta.hasFace && pdVertexFaceDistances( &ta, b, sB, true, needPoints, tolSq, r ) )
	{
		return;
	}
	if ( tb.hasFace && pdVertexFaceDistances( &tb, a, sA, false, needPoints, tolSq, r ) )
	{
		return;
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
