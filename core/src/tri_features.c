// SPDX-License-Identifier: MIT
// Contact features of one triangle pair: the VF, FV and EE feature pairs closer than a
// tolerance, with unit normals oriented from b toward a, optionally restricted to the features
// each triangle owns. Runs on canonical triangles in local coordinates (tri_local.h), so the
// vertex-order and winding variants of a pair give the same features.
#include "tri_distance.h"
#include "tri_local.h"

// Unit normal n or -n, oriented from b toward a: by the sign of sep when it is decidable,
// otherwise against approachDirection, otherwise a fixed sign of n.
static pdVec3 pdiOrientNormal( pdVec3 n, double sep, double sepTol, pdVec3 approachDirection )
{
	if ( sep > sepTol )
	{
		return n;
	}
	if ( sep < -sepTol )
	{
		return pdiNeg( n );
	}
	double ad = pdiDot( n, approachDirection );
	if ( ad > 0.0 )
	{
		return pdiNeg( n );
	}
	if ( ad < 0.0 )
	{
		return n;
	}
	if ( sep != 0.0 )
	{
		return sep > 0.0 ? n : pdiNeg( n );
	}
	bool positive = n.x != 0.0 ? n.x > 0.0 : ( n.y != 0.0 ? n.y > 0.0 : n.z >= 0.0 );
	return positive ? n : pdiNeg( n );
}

int pdiTriangleContactFeatures( const pdVec3 a[3], const pdVec3 b[3], double tolerance, pdVec3 approachDirection,
							   pdContactFeature out[15] )
{
	return pdiTriangleOwnedContactFeatures( a, b, tolerance, approachDirection, PDI_OWN_ALL, PDI_OWN_ALL, out );
}

// One triangle pair in canonical order and local coordinates (relative to origin), with the
// tolerances every feature test uses.
typedef struct pdiFeaturePair
{
	pdiTriCanon ca, cb;
	pdVec3 origin;
	pdVec3 la[3], lb[3];
	pdiTriLocal ta, tb; // point into la and lb
	double sepTol;     // separations within this are undecidable (1e-12 of the size)
	double margin;     // inside-face allowance (1e-9 of the size)
	double pointSq;    // squared length below which an edge is a point
	double tol;        // the contact tolerance, at least 0
	pdVec3 approachDirection;
} pdiFeaturePair;

static void pdiFeaturePairInit( const pdVec3 a[3], const pdVec3 b[3], double tolerance, pdVec3 approachDirection,
							   pdiFeaturePair* p )
{
	pdiCanonTriangle( a, &p->ca );
	pdiCanonTriangle( b, &p->cb );
	p->origin = p->ca.v[0];
	for ( int k = 0; k < 3; ++k )
	{
		p->la[k] = pdiSub( p->ca.v[k], p->origin );
		p->lb[k] = pdiSub( p->cb.v[k], p->origin );
	}
	pdiTriLocalInit( p->la, &p->ta );
	pdiTriLocalInit( p->lb, &p->tb );
	double size = sqrt( pdiMaxD( p->ta.maxEdgeSq, p->tb.maxEdgeSq ) );
	p->sepTol = 1e-12 * size;
	p->margin = 1e-9 * size;
	p->pointSq = 1e-28 * size * size;
	p->tol = tolerance > 0.0 ? tolerance : 0.0;
	p->approachDirection = approachDirection;
}

static void pdiSetContactFeature( pdContactFeature* c, pdContactKind kind, pdiTriFeature featureA, pdiTriFeature featureB )
{
	c->kind = kind;
	c->featureA.type = featureA.type;
	c->featureA.index = featureA.index;
	c->featureA.triangle = -1;
	c->featureA.vertex = -1;
	c->featureB.type = featureB.type;
	c->featureB.index = featureB.index;
	c->featureB.triangle = -1;
	c->featureB.vertex = -1;
}

// VF: owned vertices of a over the face of b; FV: owned vertices of b under the face of a.
// Appends to out; returns the new count.
static int pdiVertexFaceFeatures( const pdiFeaturePair* p, unsigned ownA, unsigned ownB, pdContactFeature* out,
								 int count )
{
	for ( int side = 0; side < 2; ++side )
	{
		const pdiTriLocal* face = side == 0 ? &p->tb : &p->ta;
		const pdVec3* verts = side == 0 ? p->la : p->lb;
		const pdiTriCanon* vertexCanon = side == 0 ? &p->ca : &p->cb;
		unsigned own = side == 0 ? ownA : ownB;
		if ( !face->hasFace || ( own & PDI_OWN_VERTICES ) == 0 )
		{
			continue;
		}
		double nLen = sqrt( face->nSq );
		pdVec3 n = pdiScale( face->n, 1.0 / nLen );
		for ( int i = 0; i < 3; ++i )
		{
			if ( ( own & PDI_OWN_VERTEX( vertexCanon->perm[i] ) ) == 0 )
			{
				continue;
			}
			pdVec3 x = verts[i];
			double s = pdiDot( n, pdiSub( x, face->v[0] ) );
			if ( fabs( s ) > p->tol )
			{
				continue;
			}
			bool inside = true;
			for ( int k = 0; k < 3 && inside; ++k )
			{
				// Signed distance of the projection to edge line k, positive inside.
				double el = sqrt( pdiLengthSq( face->e[k] ) );
				double h = pdiDot( pdiCross( face->e[k], pdiSub( x, face->v[k] ) ), n );
				inside = h >= -p->margin * el;
			}
			if ( !inside )
			{
				continue;
			}
			pdVec3 onFace = pdiMulAdd( x, -s, n );
			pdContactFeature* c = &out[count++];
			pdiTriFeature vertex = pdiMakeFeature( PD_FEATURE_VERTEX, vertexCanon->perm[i] );
			pdiTriFeature faceFeature = pdiMakeFeature( PD_FEATURE_FACE, 0 );
			if ( side == 0 )
			{
				// Separation of a from b along n is s.
				pdVec3 normal = pdiOrientNormal( n, s, p->sepTol, p->approachDirection );
				pdiSetContactFeature( c, PD_CONTACT_VF, vertex, faceFeature );
				c->pointA = pdiAdd( x, p->origin );
				c->pointB = pdiAdd( onFace, p->origin );
				c->normal = normal;
				c->distance = s * pdiDot( normal, n );
			}
			else
			{
				// The vertex belongs to b: a is on the far side, separation along n is -s.
				pdVec3 normal = pdiOrientNormal( n, -s, p->sepTol, p->approachDirection );
				pdiSetContactFeature( c, PD_CONTACT_FV, faceFeature, vertex );
				c->pointA = pdiAdd( onFace, p->origin );
				c->pointB = pdiAdd( x, p->origin );
				c->normal = normal;
				c->distance = -s * pdiDot( normal, n );
			}
		}
	}
	return count;
}

// EE: owned, non-parallel edges whose closest points are interior to both and within the
// tolerance. Appends to out; returns the new count.
static int pdiEdgeEdgeFeatures( const pdiFeaturePair* p, unsigned ownA, unsigned ownB, pdContactFeature* out, int count )
{
	const pdVec3* la = p->la;
	const pdVec3* lb = p->lb;
	double tol = p->tol, margin = p->margin, pointSq = p->pointSq;
	// Each canonical edge's index in the caller's vertex order, mapped once (not per edge pair).
	int edgeA[3], edgeB[3];
	for ( int k = 0; k < 3; ++k )
	{
		edgeA[k] = pdiMapFeature( &p->ca, pdiMakeFeature( PD_FEATURE_EDGE, k ) ).index;
		edgeB[k] = pdiMapFeature( &p->cb, pdiMakeFeature( PD_FEATURE_EDGE, k ) ).index;
	}
	for ( int i = 0; i < 3; ++i )
	{
		if ( ( ownA & PDI_OWN_EDGE( edgeA[i] ) ) == 0 )
		{
			continue;
		}
		for ( int j = 0; j < 3; ++j )
		{
			if ( ( ownB & PDI_OWN_EDGE( edgeB[j] ) ) == 0 )
			{
				continue;
			}
			pdVec3 da = p->ta.e[i], db = p->tb.e[j];
			double aa = pdiLengthSq( da ), bb = pdiLengthSq( db );
			if ( aa <= pointSq || bb <= pointSq )
			{
				continue;
			}
			pdVec3 n = pdiCross( da, db );
			double nSq = pdiLengthSq( n );
			if ( !( nSq > 1e-18 * aa * bb ) )
			{
				continue;
			}
			// Cheap rejections before the closest points: the segments' boxes, and the distance
			// between the two lines (a lower bound on the segments'), both padded for rounding so
			// that nothing the exact test below would keep is dropped.
			pdVec3 ea = pdiAdd( la[i], da ), eb = pdiAdd( lb[j], db );
			double reach = tol + margin;
			pdVec3 loA = pdiMin3( la[i], ea ), hiA = pdiMax3( la[i], ea );
			pdVec3 loB = pdiMin3( lb[j], eb ), hiB = pdiMax3( lb[j], eb );
			if ( loA.x > hiB.x + reach || loB.x > hiA.x + reach || loA.y > hiB.y + reach || loB.y > hiA.y + reach ||
				 loA.z > hiB.z + reach || loB.z > hiA.z + reach )
			{
				continue;
			}
			double lineGap = pdiDot( pdiSub( lb[j], la[i] ), n );
			if ( lineGap * lineGap > reach * reach * nSq )
			{
				continue;
			}
			double s, t;
			double dSq = pdiSegmentSegment( la[i], da, lb[j], db, pointSq, &s, &t );
			const double interior = 1e-9;
			if ( s <= interior || s >= 1.0 - interior || t <= interior || t >= 1.0 - interior )
			{
				continue;
			}
			if ( dSq > tol * tol )
			{
				continue;
			}
			pdVec3 pa = pdiMulAdd( la[i], s, da );
			pdVec3 pb = pdiMulAdd( lb[j], t, db );
			pdVec3 nu = pdiScale( n, 1.0 / sqrt( nSq ) );
			double sep = pdiDot( pdiSub( pa, pb ), nu );
			pdVec3 normal = pdiOrientNormal( nu, sep, p->sepTol, p->approachDirection );
			pdContactFeature* c = &out[count++];
			pdiSetContactFeature( c, PD_CONTACT_EE, pdiMakeFeature( PD_FEATURE_EDGE, edgeA[i] ),
								 pdiMakeFeature( PD_FEATURE_EDGE, edgeB[j] ) );
			c->pointA = pdiAdd( pa, p->origin );
			c->pointB = pdiAdd( pb, p->origin );
			c->normal = normal;
			c->distance = sep * pdiDot( normal, nu );
		}
	}
	return count;
}

int pdiTriangleOwnedContactFeatures( const pdVec3 a[3], const pdVec3 b[3], double tolerance, pdVec3 approachDirection,
									unsigned ownA, unsigned ownB, pdContactFeature out[15] )
{
	pdiFeaturePair p;
	pdiFeaturePairInit( a, b, tolerance, approachDirection, &p );
	int count = pdiVertexFaceFeatures( &p, ownA, ownB, out, 0 );
	if ( ( ownA & PDI_OWN_EDGES ) == 0 || ( ownB & PDI_OWN_EDGES ) == 0 )
	{
		return count;
	}
	return pdiEdgeEdgeFeatures( &p, ownA, ownB, out, count );
}
