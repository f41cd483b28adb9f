// SPDX-License-Identifier: MIT
// Private: the bounding-volume hierarchy built once per mesh (bvh.c), and the node-pair tests
// the proximity queries share (collide.c, distance.c, ccd.c, contact_features.c, proximity.c).
//
// Volume: an oriented box per node, fitted by principal axes (or the mesh-frame AABB when that
// is smaller). Pair tests run in B's frame; a query computes A's relative pose once.
// Split: object median of triangle centroids along the fitted box's longest axis, so the tree
// is balanced (depth <= log2(n) + 1) and at most PDI_BVH_LEAF_SIZE triangles sit in a leaf.
//
// Memory: a node is 128 bytes (15 doubles + 2 ints). Median splits stop at 4..8 triangles per
// leaf (about 6 on average), so a tree over n triangles has about n / 3 nodes: about 44 bytes per
// triangle plus 4 bytes of leaf order, 48 bytes per triangle in all (measured 37-48 on tori and
// knots; 3.4 MB for 70k triangles).
//
// Leaves of several triangles pay off: the exact triangle primitives are the expensive part, and
// cheap per-triangle rejections (boxes, supporting planes, the best separating axis so far) run
// in front of them at the leaves, while every node level saved removes box tests.
#pragma once

#include "tri_distance.h"
#include "vec.h"

struct pdMesh;

/// Largest number of triangles a leaf normally holds.
#define PDI_BVH_LEAF_SIZE 8
/// Hard depth cap: deeper subtrees become one (large) leaf. Median splits never get here.
#define PDI_BVH_MAX_DEPTH 64
/// Traversal stack entries a pair query needs at most: each descent adds one entry.
#define PDI_BVH_PAIR_STACK ( 2 * PDI_BVH_MAX_DEPTH + 8 )

typedef struct pdiBvhNode
{
	pdiMat33 axes;      ///< unit box axes (columns), mesh frame; right-handed
	pdVec3 center;     ///< box centre, mesh frame
	pdVec3 halfExtent; ///< half extents along the axes (>= 0), mesh units
	int start; ///< internal: index of the right child (left child = this + 1); leaf: first entry of pdiBvh.triangleOrder
	int count; ///< leaf: triangle count (> 0); internal: 0
} pdiBvhNode;

/// A cone holding the outward face normals of a node's triangles: every normal n satisfies
/// angle(n, axis) <= the half-angle, whose sine is `spread` (2 when the cone is wider than a
/// half-space, i.e. nothing can be concluded). The translational CCD culls a whole node pair
/// when one side's faces all point away from the motion (ccd.c).
typedef struct pdiBvhCone
{
	pdVec3 axis; ///< unit, mesh frame
	double spread;
} pdiBvhCone;

typedef struct pdiBvh
{
	int nodeCount;
	pdiBvhNode* nodes;   ///< [nodeCount], depth-first order, root at 0
	pdiBvhCone* cones;   ///< [nodeCount] normal cones, same order (NULL if they could not be built)
	size_t nodeBytes;   ///< bytes allocated for nodes
	int* triangleOrder; ///< [triangleCount] kept-triangle indices in leaf order
	/// [triangleCount] in leaf order (slot k is triangle triangleOrder[k]): the vertices and
	/// the box of each triangle, mesh frame. The leaf-pair loops of every query read these
	/// instead of gathering the vertices through the index array and boxing them each visit.
	pdVec3 ( *leafVertices )[3];
	pdVec3* leafLo;
	pdVec3* leafHi;
	/// [triangleCount] in leaf order: each triangle's plane, for the feature gathering's plane
	/// culls, which would otherwise make a cross product and its root per triangle pair.
	pdiTrianglePlane* leafPlanes;
	int triangleCount;
	int depth; ///< levels (a single leaf has depth 1)
	size_t bytes;
} pdiBvh;

/// Builds the tree for a mesh whose geometry is filled in. Returns PD_STATUS_OK or OUT_OF_MEMORY.
pdStatus pdiBvh_Build( pdiBvh* outBvh, const struct pdMesh* mesh );
void pdiBvh_Destroy( pdiBvh* bvh );

// ---------------------------------------------------------------------------------------------
// Node-pair geometry shared by the queries. Node a belongs to mesh A, node b to mesh B;
// rel maps A's mesh frame into B's mesh frame.

/// A's box expressed in b's box frame: c[i][j] = b_i . (R a_j), t = b's axes^T (R ca + p - cb).
typedef struct pdiBvhPair
{
	double c[3][3];
	double ac[3][3]; ///< |c| plus a small epsilon (parallel edges)
	double t[3];
} pdiBvhPair;

/// A's box (axes and centre) carried into B's mesh frame; shared by every pair with that node.
typedef struct pdiBvhMoved
{
	pdVec3 axis[3];
	pdVec3 center;
} pdiBvhMoved;

static inline void pdiBvh_MoveNode( const pdiBvhNode* a, const pdiFrame* rel, pdiBvhMoved* out )
{
	out->axis[0] = pdiMulMV( &rel->r, a->axes.cx );
	out->axis[1] = pdiMulMV( &rel->r, a->axes.cy );
	out->axis[2] = pdiMulMV( &rel->r, a->axes.cz );
	out->center = pdiFrameApply( rel, a->center );
}

static inline void pdiBvh_RelateMoved( const pdiBvhMoved* m, const pdiBvhNode* b, pdiBvhPair* out )
{
	pdVec3 ra0 = m->axis[0], ra1 = m->axis[1], ra2 = m->axis[2];
	pdVec3 ca = pdiSub( m->center, b->center );
	const pdVec3* bx[3] = { &b->axes.cx, &b->axes.cy, &b->axes.cz };
	for ( int i = 0; i < 3; ++i )
	{
		pdVec3 bi = *bx[i];
		out->c[i][0] = pdiDot( bi, ra0 );
		out->c[i][1] = pdiDot( bi, ra1 );
		out->c[i][2] = pdiDot( bi, ra2 );
		out->ac[i][0] = fabs( out->c[i][0] ) + 1e-12;
		out->ac[i][1] = fabs( out->c[i][1] ) + 1e-12;
		out->ac[i][2] = fabs( out->c[i][2] ) + 1e-12;
		out->t[i] = pdiDot( bi, ca );
	}
}

static inline void pdiBvh_RelatePair( const pdiBvhNode* a, const pdiBvhNode* b, const pdiFrame* rel, pdiBvhPair* out )
{
	pdiBvhMoved m;
	pdiBvh_MoveNode( a, rel, &m );
	pdiBvh_RelateMoved( &m, b, out );
}

/// The two child pairs of a descent, (a0, b0) and (a1, b1): when B's node is the one split
/// (a0 == a1), A's box is carried into B's frame once for both.
static inline void pdiBvh_RelateChildren( const pdiBvhNode* nodesA, const pdiBvhNode* nodesB, int a0, int b0, int a1,
										 int b1, const pdiFrame* rel, pdiBvhPair* out0, pdiBvhPair* out1 )
{
	pdiBvhMoved m0;
	pdiBvh_MoveNode( nodesA + a0, rel, &m0 );
	pdiBvh_RelateMoved( &m0, nodesB + b0, out0 );
	if ( a1 == a0 )
	{
		pdiBvh_RelateMoved( &m0, nodesB + b1, out1 );
	}
	else
	{
		pdiBvhMoved m1;
		pdiBvh_MoveNode( nodesA + a1, rel, &m1 );
		pdiBvh_RelateMoved( &m1, nodesB + b1, out1 );
	}
}

/// Separating-axis test of the two boxes on their six face axes, b's box inflated by margin on
/// every axis. True when no face axis separates them: conservative, since boxes apart only
/// along one of the nine edge-cross axes pass too. The queries' leaf tests are exact, so this
/// costs descents, not answers; the edge axes cost more than the descents they save (callgrind,
/// 16 tori for 240 steps: 25.80 G instructions with all 15 axes, 24.39 G with the six).
static inline bool pdiBvh_PairOverlap( const pdiBvhPair* p, const pdiBvhNode* a, const pdiBvhNode* b, double margin )
{
	const double ha[3] = { a->halfExtent.x, a->halfExtent.y, a->halfExtent.z };
	const double hb[3] = { b->halfExtent.x + margin, b->halfExtent.y + margin, b->halfExtent.z + margin };
	const double( *c )[3] = p->c;
	const double( *ac )[3] = p->ac;
	const double* t = p->t;
	for ( int i = 0; i < 3; ++i )
	{
		if ( fabs( t[i] ) > hb[i] + ha[0] * ac[i][0] + ha[1] * ac[i][1] + ha[2] * ac[i][2] )
		{
			return false;
		}
	}
	for ( int j = 0; j < 3; ++j )
	{
		double s = t[0] * c[0][j] + t[1] * c[1][j] + t[2] * c[2][j];
		if ( fabs( s ) > ha[j] + hb[0] * ac[0][j] + hb[1] * ac[1][j] + hb[2] * ac[2][j] )
		{
			return false;
		}
	}
	return true;
}

/// A lower bound on the distance between the two boxes: the largest gap along the six face axes
/// and the centre line. Negative when the boxes overlap on all of them (then the value says how
/// deeply, which orders the search among overlapping pairs); clamp at 0 for a distance.
static inline double pdiBvh_PairLowerBound( const pdiBvhPair* p, const pdiBvhNode* a, const pdiBvhNode* b )
{
	const double ha[3] = { a->halfExtent.x, a->halfExtent.y, a->halfExtent.z };
	const double hb[3] = { b->halfExtent.x, b->halfExtent.y, b->halfExtent.z };
	const double( *c )[3] = p->c;
	const double( *ac )[3] = p->ac;
	const double* t = p->t;
	double best = -INFINITY;
	for ( int i = 0; i < 3; ++i )
	{
		double g = fabs( t[i] ) - ( hb[i] + ha[0] * ac[i][0] + ha[1] * ac[i][1] + ha[2] * ac[i][2] );
		best = g > best ? g : best;
	}
	for ( int j = 0; j < 3; ++j )
	{
		double s = t[0] * c[0][j] + t[1] * c[1][j] + t[2] * c[2][j];
		double g = fabs( s ) - ( ha[j] + hb[0] * ac[0][j] + hb[1] * ac[1][j] + hb[2] * ac[2][j] );
		best = g > best ? g : best;
	}
	double len2 = t[0] * t[0] + t[1] * t[1] + t[2] * t[2];
	if ( len2 > 0.0 )
	{
		double len = sqrt( len2 );
		// Projections onto the unnormalised centre line, divided once at the end.
		double rb = hb[0] * fabs( t[0] ) + hb[1] * fabs( t[1] ) + hb[2] * fabs( t[2] );
		double ra = 0.0;
		for ( int j = 0; j < 3; ++j )
		{
			ra += ha[j] * fabs( t[0] * c[0][j] + t[1] * c[1][j] + t[2] * c[2][j] );
		}
		double g = ( len2 - ra - rb ) / len;
		best = g > best ? g : best;
	}
	return best;
}

/// A lower bound along one extra unit axis (B's mesh frame), typically the direction between
/// the closest points found so far: near the answer the true separation is almost along it,
/// where the box axes can underestimate by a factor up to sqrt(3).
static inline double pdiBvh_PairAxisGap( const pdiBvhPair* p, const pdiBvhNode* a, const pdiBvhNode* b, pdVec3 axis )
{
	double n[3] = { pdiDot( b->axes.cx, axis ), pdiDot( b->axes.cy, axis ), pdiDot( b->axes.cz, axis ) };
	const double( *c )[3] = p->c;
	double s = p->t[0] * n[0] + p->t[1] * n[1] + p->t[2] * n[2];
	double r = b->halfExtent.x * fabs( n[0] ) + b->halfExtent.y * fabs( n[1] ) + b->halfExtent.z * fabs( n[2] );
	r += a->halfExtent.x * fabs( n[0] * c[0][0] + n[1] * c[1][0] + n[2] * c[2][0] );
	r += a->halfExtent.y * fabs( n[0] * c[0][1] + n[1] * c[1][1] + n[2] * c[2][1] );
	r += a->halfExtent.z * fabs( n[0] * c[0][2] + n[1] * c[1][2] + n[2] * c[2][2] );
	return fabs( s ) - r;
}

/// A sharper lower bound for separated boxes: two rounds of alternating projections (closest
/// point of one box to a point of the other) approach the closest pair, and the gap along the
/// direction they give is a valid bound whatever its accuracy.
static inline double pdiBvh_PairRefinedGap( const pdiBvhPair* p, const pdiBvhNode* a, const pdiBvhNode* b )
{
	const double ha[3] = { a->halfExtent.x, a->halfExtent.y, a->halfExtent.z };
	const double hb[3] = { b->halfExtent.x, b->halfExtent.y, b->halfExtent.z };
	const double( *c )[3] = p->c;
	const double* t = p->t;
	double x[3] = { t[0], t[1], t[2] }; // a point of A's box (its centre), b's box frame
	double q[3] = { 0.0, 0.0, 0.0 };
	for ( int round = 0; round < 2; ++round )
	{
		// Closest point of b's box to x.
		for ( int i = 0; i < 3; ++i )
		{
			q[i] = x[i] > hb[i] ? hb[i] : ( x[i] < -hb[i] ? -hb[i] : x[i] );
		}
		// Closest point of a's box to q.
		double d[3] = { q[0] - t[0], q[1] - t[1], q[2] - t[2] };
		double l[3];
		for ( int j = 0; j < 3; ++j )
		{
			double v = d[0] * c[0][j] + d[1] * c[1][j] + d[2] * c[2][j];
			l[j] = v > ha[j] ? ha[j] : ( v < -ha[j] ? -ha[j] : v );
		}
		for ( int i = 0; i < 3; ++i )
		{
			x[i] = t[i] + c[i][0] * l[0] + c[i][1] * l[1] + c[i][2] * l[2];
		}
	}
	double n[3] = { x[0] - q[0], x[1] - q[1], x[2] - q[2] };
	double len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
	if ( !( len2 > 0.0 ) )
	{
		return 0.0;
	}
	double s = t[0] * n[0] + t[1] * n[1] + t[2] * n[2];
	double r = hb[0] * fabs( n[0] ) + hb[1] * fabs( n[1] ) + hb[2] * fabs( n[2] );
	for ( int j = 0; j < 3; ++j )
	{
		r += ha[j] * fabs( n[0] * c[0][j] + n[1] * c[1][j] + n[2] * c[2][j] );
	}
	return ( fabs( s ) - r ) / sqrt( len2 );
}

/// Node "size" used to decide which side of a pair to descend (the larger one).
static inline double pdiBvh_NodeSize( const pdiBvhNode* n )
{
	return n->halfExtent.x * n->halfExtent.x + n->halfExtent.y * n->halfExtent.y + n->halfExtent.z * n->halfExtent.z;
}

/// True when the pair should descend a (a is internal and b is a leaf or smaller).
static inline bool pdiBvh_DescendA( const pdiBvhNode* a, const pdiBvhNode* b )
{
	return a->count == 0 && ( b->count != 0 || pdiBvh_NodeSize( a ) >= pdiBvh_NodeSize( b ) );
}

/// Clips [*lo, *hi] by the linear constraint s + t * d <= 0 without ever dividing by a tiny
/// number: ratios outside [-4, 4] are replaced by +-4 (callers use t within [0, 1]).
static inline void pdiClipLinear( double s, double d, double* lo, double* hi )
{
	if ( d > 0.0 )
	{
		double q = ( -s <= 4.0 * d ) ? ( -s >= -4.0 * d ? -s / d : -4.0 ) : 4.0;
		*hi = q < *hi ? q : *hi;
	}
	else if ( d < 0.0 )
	{
		double q = ( s <= -4.0 * d ) ? ( s >= 4.0 * d ? -s / d : -4.0 ) : 4.0;
		*lo = q > *lo ? q : *lo;
	}
	else if ( s > 0.0 )
	{
		*lo = 4.0;
		*hi = -4.0;
	}
}

/// Clips [*lo, *hi] to the times t at which |s + t d| <= r.
static inline void pdiClipSlab( double s, double d, double r, double* lo, double* hi )
{
	pdiClipLinear( s - r, d, lo, hi );
	pdiClipLinear( -s - r, -d, lo, hi );
}

/// Earliest time in [0, tMax] at which the boxes (b inflated by margin) touch while A's box
/// moves by t * w (w in b's box frame, w = b axes^T v). Exact for a pure translation: the boxes
/// overlap exactly when all 15 separating-axis slabs do. Returns a value > tMax when never.
static inline double pdiBvh_PairSweep( const pdiBvhPair* p, const pdiBvhNode* a, const pdiBvhNode* b, const double w[3],
									  double margin, double tMax )
{
	const double ha[3] = { a->halfExtent.x, a->halfExtent.y, a->halfExtent.z };
	const double hb[3] = { b->halfExtent.x + margin, b->halfExtent.y + margin, b->halfExtent.z + margin };
	const double( *c )[3] = p->c;
	const double( *ac )[3] = p->ac;
	const double* t = p->t;
	double lo = 0.0, hi = tMax;
	for ( int i = 0; i < 3; ++i )
	{
		pdiClipSlab( t[i], w[i], hb[i] + ha[0] * ac[i][0] + ha[1] * ac[i][1] + ha[2] * ac[i][2], &lo, &hi );
	}
	for ( int j = 0; j < 3 && lo <= hi; ++j )
	{
		double s = t[0] * c[0][j] + t[1] * c[1][j] + t[2] * c[2][j];
		double d = w[0] * c[0][j] + w[1] * c[1][j] + w[2] * c[2][j];
		pdiClipSlab( s, d, ha[j] + hb[0] * ac[0][j] + hb[1] * ac[1][j] + hb[2] * ac[2][j], &lo, &hi );
	}
	for ( int i = 0; i < 3 && lo <= hi; ++i )
	{
		int i1 = ( i + 1 ) % 3, i2 = ( i + 2 ) % 3;
		for ( int j = 0; j < 3; ++j )
		{
			int j1 = ( j + 1 ) % 3, j2 = ( j + 2 ) % 3;
			double s = t[i2] * c[i1][j] - t[i1] * c[i2][j];
			double d = w[i2] * c[i1][j] - w[i1] * c[i2][j];
			double r = hb[i1] * ac[i2][j] + hb[i2] * ac[i1][j] + ha[j1] * ac[i][j2] + ha[j2] * ac[i][j1];
			pdiClipSlab( s, d, r, &lo, &hi );
		}
	}
	return lo <= hi ? lo : tMax + 1.0;
}

/// Squared distance from a point (mesh frame) to a node's box.
static inline double pdiBvh_PointDistanceSq( const pdiBvhNode* n, pdVec3 point )
{
	pdVec3 d = pdiSub( point, n->center );
	double q[3] = { pdiDot( d, n->axes.cx ), pdiDot( d, n->axes.cy ), pdiDot( d, n->axes.cz ) };
	double h[3] = { n->halfExtent.x, n->halfExtent.y, n->halfExtent.z };
	double sum = 0.0;
	for ( int i = 0; i < 3; ++i )
	{
		double e = fabs( q[i] ) - h[i];
		sum += e > 0.0 ? e * e : 0.0;
	}
	return sum;
}

/// Largest translation component a query accepts (world units): beyond it squared distances
/// overflow, so such a pose is rejected as PD_STATUS_INVALID_POSE instead of trapping.
#define PDI_MAX_POSITION 1e100

static inline bool pdiIsUsablePosition( pdVec3 p )
{
	return fabs( p.x ) <= PDI_MAX_POSITION && fabs( p.y ) <= PDI_MAX_POSITION && fabs( p.z ) <= PDI_MAX_POSITION;
}

/// Relative pose mapping A's mesh frame into B's mesh frame.
static inline pdiFrame pdiRelativeFrame( const pdiFrame* frameA, const pdiFrame* frameB )
{
	pdiFrame rel;
	rel.r.cx = pdiMulMTV( &frameB->r, frameA->r.cx );
	rel.r.cy = pdiMulMTV( &frameB->r, frameA->r.cy );
	rel.r.cz = pdiMulMTV( &frameB->r, frameA->r.cz );
	rel.p = pdiMulMTV( &frameB->r, pdiSub( frameA->p, frameB->p ) );
	return rel;
}

/// Axis-aligned bounds of a triangle.
static inline void pdiTriangleBox( const pdVec3 v[3], pdVec3* lo, pdVec3* hi )
{
	lo->x = pdiMinD( v[0].x, pdiMinD( v[1].x, v[2].x ) );
	lo->y = pdiMinD( v[0].y, pdiMinD( v[1].y, v[2].y ) );
	lo->z = pdiMinD( v[0].z, pdiMinD( v[1].z, v[2].z ) );
	hi->x = pdiMaxD( v[0].x, pdiMaxD( v[1].x, v[2].x ) );
	hi->y = pdiMaxD( v[0].y, pdiMaxD( v[1].y, v[2].y ) );
	hi->z = pdiMaxD( v[0].z, pdiMaxD( v[1].z, v[2].z ) );
}

/// Gap between the projections of two triangles on a unit axis (<= 0 when they overlap).
static inline double pdiAxisGap( pdVec3 axis, const pdVec3 a[3], const pdVec3 b[3] )
{
	double a0 = pdiDot( axis, a[0] ), a1 = pdiDot( axis, a[1] ), a2 = pdiDot( axis, a[2] );
	double b0 = pdiDot( axis, b[0] ), b1 = pdiDot( axis, b[1] ), b2 = pdiDot( axis, b[2] );
	double aLo = pdiMinD( a0, pdiMinD( a1, a2 ) ), aHi = pdiMaxD( a0, pdiMaxD( a1, a2 ) );
	double bLo = pdiMinD( b0, pdiMinD( b1, b2 ) ), bHi = pdiMaxD( b0, pdiMaxD( b1, b2 ) );
	return pdiMaxD( bLo - aHi, aLo - bHi );
}

/// Lower bound on the distance between a triangle's vertices v and the plane through p0 with
/// unit normal n: the smallest |offset| when all three lie strictly on one side, else 0.
static inline double pdiPlaneGap( pdVec3 n, pdVec3 p0, const pdVec3 v[3] )
{
	double s0 = pdiDot( n, pdiSub( v[0], p0 ) );
	double s1 = pdiDot( n, pdiSub( v[1], p0 ) );
	double s2 = pdiDot( n, pdiSub( v[2], p0 ) );
	double lo = pdiMinD( s0, pdiMinD( s1, s2 ) ), hi = pdiMaxD( s0, pdiMaxD( s1, s2 ) );
	return lo > 0.0 ? lo : ( hi < 0.0 ? -hi : 0.0 );
}
