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
#define PDI_TRI_TOUCH_REL 1e-12
// |n| / maxEdge^2 below this: no plane for the crossing tests (numerically collinear).
#define PDI_TRI_PLANE_REL 1e-14
// |n| / maxEdge^2 below this: the face is a needle; its vertex-face distance is ill-conditioned
// and its edges already give the distance to within this fraction of its size.
#define PDI_TRI_FACE_REL 1e-8
// Edge-edge pairs with sin^2(angle) below this take the careful nearly-parallel path.
#define PDI_TRI_PARALLEL_SIN_SQ 1e-6
// Newton cap for the time of impact.
#define PDI_TRI_TOI_MAX_ITERATIONS 64

typedef struct pdiTriPairResult
{
	double distSq; // squared distance of the closest features (0 when pierced)
	pdVec3 pointA, pointB;
	pdiTriFeature featureA, featureB; // canonical local indices
	bool touching;
} pdiTriPairResult;

static int pdiLexCompare( pdVec3 a, pdVec3 b )
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

void pdiCanonTriangle( const pdVec3 in[3], pdiTriCanon* out )
{
	int p[3] = { 0, 1, 2 };
	// Three-element sorting network; ties keep a fixed order, and tied vertices are equal anyway.
	if ( pdiLexCompare( in[p[1]], in[p[0]] ) < 0 )
	{
		int s = p[0];
		p[0] = p[1];
		p[1] = s;
	}
	if ( pdiLexCompare( in[p[2]], in[p[1]] ) < 0 )
	{
		int s = p[1];
		p[1] = p[2];
		p[2] = s;
	}
	if ( pdiLexCompare( in[p[1]], in[p[0]] ) < 0 )
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

static int pdiCanonCompare( const pdiTriCanon* a, const pdiTriCanon* b )
{
	for ( int k = 0; k < 3; ++k )
	{
		int c = pdiLexCompare( a->v[k], b->v[k] );
		if ( c != 0 )
		{
			return c;
		}
	}
	return 0;
}

pdiTriFeature pdiMapFeature( const pdiTriCanon* c, pdiTriFeature f )
{
	pdiTriFeature r = f;
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

static inline double pdiClamp01( double x ) { return x < 0.0 ? 0.0 : ( x > 1.0 ? 1.0 : x ); }

// Feature of segment i (vertex i -> i+1) at parameter s.
static inline pdiTriFeature pdiSegmentFeature( int i, double s )
{
	if ( s <= 0.0 )
	{
		return pdiMakeFeature( PD_FEATURE_VERTEX, i );
	}
	if ( s >= 1.0 )
	{
		return pdiMakeFeature( PD_FEATURE_VERTEX, ( i + 1 ) % 3 );
	}
	return pdiMakeFeature( PD_FEATURE_EDGE, i );
}

// Parameter of the point of segment q + t*d closest to x (d*d = e > pointSq, or returns 0).
static inline double pdiPointSegmentParam( pdVec3 x, pdVec3 q, pdVec3 d, double e, double pointSq )
{
	return e > pointSq ? pdiClamp01( pdiDot( pdiSub( x, q ), d ) / e ) : 0.0;
}

static inline double pdiSegmentPairDistSq( pdVec3 p, pdVec3 d1, double s, pdVec3 q, pdVec3 d2, double t )
{
	return pdiDistanceSq( pdiMulAdd( p, s, d1 ), pdiMulAdd( q, t, d2 ) );
}

// Keeps the segment parameters (sk, tk) when their squared distance d beats *ioBest.
static inline void pdiKeepCloser( double d, double sk, double tk, double* ioBest, double* ioS, double* ioT )
{
	if ( d < *ioBest )
	{
		*ioBest = d;
		*ioS = sk;
		*ioT = tk;
	}
}


double pdiSegmentSegment( pdVec3 p, pdVec3 d1, pdVec3 q, pdVec3 d2, double pointSq, double* outS, double* outT )
{
	pdVec3 r = pdiSub( p, q );
	double a = pdiDot( d1, d1 );
	double e = pdiDot( d2, d2 );
	double f = pdiDot( d2, r );
	double s = 0.0, t = 0.0;
	if ( a <= pointSq )
	{
		t = pdiPointSegmentParam( p, q, d2, e, pointSq );
		*outS = 0.0;
		*outT = t;
		return pdiSegmentPairDistSq( p, d1, 0.0, q, d2, t );
	}
	double c = pdiDot( d1, r );
	if ( e <= pointSq )
	{
		s = pdiClamp01( -c / a );
		*outS = s;
		*outT = 0.0;
		return pdiSegmentPairDistSq( p, d1, s, q, d2, 0.0 );
	}
	double b = pdiDot( d1, d2 );
	double denom = a * e - b * b;
	bool wellConditioned = denom > PDI_TRI_PARALLEL_SIN_SQ * a * e;
	s = denom > 0.0 ? pdiClamp01( ( b * f - c * e ) / denom ) : 0.0;
	t = ( b * s + f ) / e;
	if ( t < 0.0 )
	{
		t = 0.0;
		s = pdiClamp01( -c / a );
	}
	else if ( t > 1.0 )
	{
		t = 1.0;
		s = pdiClamp01( ( b - c ) / a );
	}
	double best = pdiSegmentPairDistSq( p, d1, s, q, d2, t );
	if ( wellConditioned )
	{
		*outS = s;
		*outT = t;
		return best;
	}

	// Nearly parallel: one alternating refinement, then the endpoint candidates.
	{
		double t2 = pdiPointSegmentParam( pdiMulAdd( p, s, d1 ), q, d2, e, pointSq );
		double s2 = pdiPointSegmentParam( pdiMulAdd( q, t2, d2 ), p, d1, a, pointSq );
		double d = pdiSegmentPairDistSq( p, d1, s2, q, d2, t2 );
		pdiKeepCloser( d, s2, t2, &best, &s, &t );
	}
	for ( int k = 0; k < 2; ++k )
	{
		double sk = (double)k;
		double tk = pdiPointSegmentParam( pdiMulAdd( p, sk, d1 ), q, d2, e, pointSq );
		double d = pdiSegmentPairDistSq( p, d1, sk, q, d2, tk );
		pdiKeepCloser( d, sk, tk, &best, &s, &t );
	}
	for ( int k = 0; k < 2; ++k )
	{
		double tk = (double)k;
		double sk = pdiPointSegmentParam( pdiMulAdd( q, tk, d2 ), p, d1, a, pointSq );
		double d = pdiSegmentPairDistSq( p, d1, sk, q, d2, tk );
		pdiKeepCloser( d, sk, tk, &best, &s, &t );
	}
	*outS = s;
	*outT = t;
	return best;
}

static inline double pdiMaxEdgeSq( const pdVec3 e[3] )
{
	return pdiMaxD( pdiLengthSq( e[0] ), pdiMaxD( pdiLengthSq( e[1] ), pdiLengthSq( e[2] ) ) );
}

void pdiTriLocalInit( const pdVec3 v[3], pdiTriLocal* t )
{
	t->v = v;
	t->e[0] = pdiSub( v[1], v[0] );
	t->e[1] = pdiSub( v[2], v[1] );
	t->e[2] = pdiSub( v[0], v[2] );
	t->n = pdiCross( t->e[0], pdiSub( v[2], v[0] ) );
	t->nSq = pdiLengthSq( t->n );
	t->maxEdgeSq = pdiMaxEdgeSq( t->e );
	double m4 = t->maxEdgeSq * t->maxEdgeSq;
	t->hasPlane = t->nSq > PDI_TRI_PLANE_REL * PDI_TRI_PLANE_REL * m4 && t->nSq > 0.0;
	t->hasFace = t->nSq > PDI_TRI_FACE_REL * PDI_TRI_FACE_REL * m4 && t->nSq > 0.0;
}

// Closed inside test of x's projection on the face (signs of the edge-plane tests).
static inline bool pdiInsideFace( const pdiTriLocal* t, pdVec3 x )
{
	for ( int k = 0; k < 3; ++k )
	{
		if ( pdiDot( pdiCross( t->e[k], pdiSub( x, t->v[k] ) ), t->n ) < 0.0 )
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
static bool pdiEdgeCrossesFace( const pdiTriLocal* t, pdVec3 p, pdVec3 q, double sp, double sq, pdVec3* outPoint )
{
	if ( !( ( sp > 0.0 && sq < 0.0 ) || ( sp < 0.0 && sq > 0.0 ) ) )
	{
		return false;
	}
	pdVec3 x = pdiMulAdd( p, sp / ( sp - sq ), pdiSub( q, p ) );
	if ( !pdiInsideFace( t, x ) )
	{
		return false;
	}
	*outPoint = x;
	return true;
}

// Plane sides of the corners p against t's plane through base, unnormalised: n . (p_j - base).
// True when all three lie clearly on one side (further than twice the touching tolerance).
static bool pdiPlaneSides( const pdiTriLocal* t, pdVec3 base, const pdVec3 p[3], double tolSq, double outS[3] )
{
	int above = 0, below = 0;
	double far = 4.0 * tolSq * t->nSq;
	for ( int j = 0; j < 3; ++j )
	{
		outS[j] = pdiDot( t->n, pdiSub( p[j], base ) );
		bool clear = outS[j] * outS[j] > far;
		above += outS[j] > 0.0 && clear;
		below += outS[j] < 0.0 && clear;
	}
	return above == 3 || below == 3;
}

// Feature pair (face of t, feature of the other triangle) in pair order: faceOnA says which
// triangle of the pair t is.
static void pdiSetFacePair( pdiTriPairResult* r, bool faceOnA, pdiTriFeature other )
{
	pdiTriFeature face = pdiMakeFeature( PD_FEATURE_FACE, 0 );
	r->featureA = faceOnA ? face : other;
	r->featureB = faceOnA ? other : face;
}

// An edge of the other triangle (corners p, plane sides s against t) that properly crosses
// t's face: then the pair touches there, and r says so. faceOnA: t is the pair's a.
static bool pdiEdgeCrossing( const pdiTriLocal* t, const pdVec3 p[3], const double s[3], bool faceOnA,
							pdiTriPairResult* r )
{
	for ( int j = 0; j < 3; ++j )
	{
		pdVec3 x;
		int j1 = ( j + 1 ) % 3;
		if ( pdiEdgeCrossesFace( t, p[j], p[j1], s[j], s[j1], &x ) )
		{
			r->distSq = 0.0;
			r->pointA = x;
			r->pointB = x;
			pdiSetFacePair( r, faceOnA, pdiMakeFeature( PD_FEATURE_EDGE, j ) );
			r->touching = true;
			return true;
		}
	}
	return false;
}

// Corners p of the other triangle (plane sides s against t) whose projection falls inside t's
// closed face: each nearer than r's best becomes r's result. True when the verdict "touching"
// is known and needPoints is false (the caller stops). faceOnA: t is the pair's a.
static bool pdiVertexFaceDistances( const pdiTriLocal* t, const pdVec3 p[3], const double s[3], bool faceOnA,
								   bool needPoints, double tolSq, pdiTriPairResult* r )
{
	for ( int j = 0; j < 3; ++j )
	{
		if ( !pdiInsideFace( t, p[j] ) )
		{
			continue;
		}
		double d = s[j] * s[j] / t->nSq;
		if ( d < r->distSq )
		{
			pdVec3 onFace = pdiMulAdd( p[j], -s[j] / t->nSq, t->n );
			r->distSq = d;
			r->pointA = faceOnA ? onFace : p[j];
			r->pointB = faceOnA ? p[j] : onFace;
			pdiSetFacePair( r, faceOnA, pdiMakeFeature( PD_FEATURE_VERTEX, j ) );
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
static void pdiTriPairLocal( const pdVec3 a[3], const pdVec3 b[3], bool needPoints, pdiTriPairResult* r )
{
	pdiTriLocal ta, tb;
	pdiTriLocalInit( a, &ta );
	pdiTriLocalInit( b, &tb );
	double maxEdgeSq = pdiMaxD( ta.maxEdgeSq, tb.maxEdgeSq );
	double tolSq = PDI_TRI_TOUCH_REL * PDI_TRI_TOUCH_REL * maxEdgeSq;
	double pointSq = 1e-28 * maxEdgeSq;

	r->distSq = DBL_MAX;
	r->pointA = a[0];
	r->pointB = b[0];
	r->featureA = pdiMakeFeature( PD_FEATURE_VERTEX, 0 );
	r->featureB = pdiMakeFeature( PD_FEATURE_VERTEX, 0 );
	r->touching = false;

	// Unnormalised plane sides: sB[j] = na . (b_j - a0), sA[i] = nb . (a_i - b0). A plane that
	// clearly separates gives the verdict "apart" (the features below would agree).
	double sA[3] = { 0.0, 0.0, 0.0 }, sB[3] = { 0.0, 0.0, 0.0 };
	if ( ta.hasPlane )
	{
		bool separated = pdiPlaneSides( &ta, a[0], b, tolSq, sB );
		if ( !needPoints && separated )
		{
			return;
		}
	}
	if ( tb.hasPlane )
	{
		bool separated = pdiPlaneSides( &tb, b[0], a, tolSq, sA );
		if ( !needPoints && separated )
		{
			return;
		}
	}

	// Proper crossings of an edge through the other face.
	if ( ta.hasPlane && pdiEdgeCrossing( &ta, b, sB, true, r ) )
	{
		return;
	}
	if ( tb.hasPlane && pdiEdgeCrossing( &tb, a, sA, false, r ) )
	{
		return;
	}

	// Vertex-face distances (projection inside the closed face).
	if ( ta.hasFace && pdiVertexFaceDistances( &ta, b, sB, true, needPoints, tolSq, r ) )
	{
		return;
	}
	if ( tb.hasFace && pdiVertexFaceDistances( &tb, a, sA, false, needPoints, tolSq, r ) )
	{
		return;
	}

	// Edge-edge distances (also covers vertex-edge and vertex-vertex).
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = 0; j < 3; ++j )
		{
			double s, t;
			double d = pdiSegmentSegment( a[i], ta.e[i], b[j], tb.e[j], pointSq, &s, &t );
			if ( d < r->distSq )
			{
				r->distSq = d;
				r->pointA = pdiMulAdd( a[i], s, ta.e[i] );
				r->pointB = pdiMulAdd( b[j], t, tb.e[j] );
				r->featureA = pdiSegmentFeature( i, s );
				r->featureB = pdiSegmentFeature( j, t );
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

typedef struct pdiTriPairSetup
{
	pdiTriCanon ca, cb; // canonical triangles as given (ca from a, cb from b)
	bool swapped;      // canonical pair order is (b, a)
	pdVec3 origin;
	pdVec3 la[3], lb[3]; // local coordinates, in canonical pair order
} pdiTriPairSetup;

static void pdiTriPairPrepare( const pdVec3 a[3], const pdVec3 b[3], pdiTriPairSetup* s )
{
	pdiCanonTriangle( a, &s->ca );
	pdiCanonTriangle( b, &s->cb );
	s->swapped = pdiCanonCompare( &s->cb, &s->ca ) < 0;
	const pdiTriCanon* first = s->swapped ? &s->cb : &s->ca;
	const pdiTriCanon* second = s->swapped ? &s->ca : &s->cb;
	s->origin = first->v[0];
	for ( int k = 0; k < 3; ++k )
	{
		s->la[k] = pdiSub( first->v[k], s->origin );
		s->lb[k] = pdiSub( second->v[k], s->origin );
	}
}

double pdiTriangleDistance( const pdVec3 a[3], const pdVec3 b[3], pdVec3* outPointA, pdVec3* outPointB,
						   pdiTriFeature* outFeatureA, pdiTriFeature* outFeatureB )
{
	pdiTriPairSetup s;
	pdiTriPairPrepare( a, b, &s );
	pdiTriPairResult r;
	pdiTriPairLocal( s.la, s.lb, true, &r );

	double dist;
	pdVec3 pa = r.pointA, pb = r.pointB;
	if ( r.touching )
	{
		// Touching within the tolerance: report one common point.
		dist = 0.0;
		pa = pdiScale( pdiAdd( pa, pb ), 0.5 );
		pb = pa;
	}
	else
	{
		dist = sqrt( r.distSq );
	}
	pa = pdiAdd( pa, s.origin );
	pb = pdiAdd( pb, s.origin );

	// Back to the caller's pair order and vertex order.
	pdVec3 pointA = s.swapped ? pb : pa;
	pdVec3 pointB = s.swapped ? pa : pb;
	pdiTriFeature fa = s.swapped ? r.featureB : r.featureA;
	pdiTriFeature fb = s.swapped ? r.featureA : r.featureB;
	fa = pdiMapFeature( &s.ca, fa );
	fb = pdiMapFeature( &s.cb, fb );
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

void pdiTrianglePlane_Make( const pdVec3 p[3], pdiTrianglePlane* out )
{
	pdVec3 e0 = pdiSub( p[1], p[0] ), e1 = pdiSub( p[2], p[0] ), e2 = pdiSub( p[2], p[1] );
	out->n = pdiCross( e0, e1 );
	double nLen = pdiLength( out->n );
	double edgeSq = pdiMaxD( pdiLengthSq( e0 ), pdiMaxD( pdiLengthSq( e1 ), pdiLengthSq( e2 ) ) );
	// A needle or a point: its normal is rounding noise, so it separates nothing.
	out->length = nLen > 1e-6 * edgeSq ? nLen : 0.0;
}

bool pdiPlaneSeparatesBy( const pdVec3 p[3], const pdVec3 q[3], double distance )
{
	pdiTrianglePlane plane;
	pdiTrianglePlane_Make( p, &plane );
	return pdiTrianglePlane_Separates( &plane, p[0], q, distance );
}

// Either plane separates the pair "clearly": by 1e-9 of the longest edge plus the coordinates'
// size, far beyond the 1e-12 touch tolerance of pdiTriPairLocal and the rounding of either
// coordinate origin, so whenever this holds the canonical test would also find that plane
// separating (the verdict is the same), and the canonical ordering and set-up are skipped for
// the pairs that merely have overlapping boxes.
static bool pdiClearlyPlaneSeparated( const pdVec3 a[3], const pdVec3 b[3] )
{
	double edge = 0.0;
	for ( int k = 0; k < 3; ++k )
	{
		edge = pdiMaxD( edge, pdiMaxD( pdiLength( pdiSub( a[( k + 1 ) % 3], a[k] ) ), pdiLength( pdiSub( b[( k + 1 ) % 3], b[k] ) ) ) );
	}
	double margin = 1e-9 * ( edge + pdiPairCoordinateScale( a, b ) );
	return pdiPlaneSeparatesBy( a, b, margin ) || pdiPlaneSeparatesBy( b, a, margin );
}

bool pdiTrianglesIntersect( const pdVec3 a[3], const pdVec3 b[3] )
{
	if ( pdiClearlyPlaneSeparated( a, b ) )
	{
		return false;
	}
	pdiTriPairSetup s;
	pdiTriPairPrepare( a, b, &s );
	pdiTriPairResult r;
	pdiTriPairLocal( s.la, s.lb, false, &r );
	return r.touching;
}

bool pdiTriangleTranslationToi( const pdVec3 a[3], const pdVec3 b[3], pdVec3 v, double tMax, double targetDistance,
							   double* outT )
{
	*outT = 0.0;
	double target = targetDistance > 0.0 ? targetDistance : 0.0;
	if ( !( tMax > 0.0 ) )
	{
		tMax = 0.0;
	}
	pdVec3 ea[3] = { pdiSub( a[1], a[0] ), pdiSub( a[2], a[1] ), pdiSub( a[0], a[2] ) };
	pdVec3 eb[3] = { pdiSub( b[1], b[0] ), pdiSub( b[2], b[1] ), pdiSub( b[0], b[2] ) };
	double size = sqrt( pdiMaxD( pdiMaxEdgeSq( ea ), pdiMaxEdgeSq( eb ) ) );
	// Stop once within this of the target; aim half of it short so rounding cannot overshoot.
	double tolStop = 1e-12 * ( size + target );
	double speed = pdiLength( v );

	// Work relative to b so that a + t*v is not rounded at the scale of far-away coordinates.
	pdVec3 origin = b[0];
	pdVec3 la[3] = { pdiSub( a[0], origin ), pdiSub( a[1], origin ), pdiSub( a[2], origin ) };
	pdVec3 lb[3] = { pdiV3( 0.0, 0.0, 0.0 ), pdiSub( b[1], origin ), pdiSub( b[2], origin ) };

	double t = 0.0;
	for ( int iteration = 0; iteration < PDI_TRI_TOI_MAX_ITERATIONS; ++iteration )
	{
		pdVec3 moved[3] = { pdiMulAdd( la[0], t, v ), pdiMulAdd( la[1], t, v ), pdiMulAdd( la[2], t, v ) };
		pdVec3 pa, pb;
		double d = pdiTriangleDistance( moved, lb, &pa, &pb, NULL, NULL );
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
		double slope = pdiDot( pdiSub( pa, pb ), v ) / d;
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
