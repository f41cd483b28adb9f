// SPDX-License-Identifier: MIT
// Point queries on one mesh for rounded shapes: closest surface point with its feature, signed
// distance, pseudonormals, the local minima of the distance (where a sphere touches), and the
// two-point bound the segment search prunes with. One depth-first BVH descent serves them all,
// pruned by each query's own node bound.
#include "rounded_point.h"

#include "core.h"
#include "proximity.h"

typedef struct pdiNodeEntry
{
	int node;
	double bound;
} pdiNodeEntry;

// A query over the triangles of one mesh: the lower bound of a node (not squared) and the
// visit of a triangle, which may lower *limit; nodes whose bound exceeds *limit are skipped.
typedef double pdiNodeBoundFcn( const pdiBvhNode* node, const void* context );
typedef void pdiTriangleVisitFcn( int triangle, const pdVec3 v[3], void* context, double* limit );

static void pdiRounded_Descend( const pdMesh* mesh, pdWorkspace* ws, pdiNodeBoundFcn* bound, pdiTriangleVisitFcn* visit,
								void* context, double* limit )
{
	const pdiBvh* bvh = &mesh->bvh;
	if ( bvh->nodeCount == 0 || !pdiBuffer_Reserve( &ws->stack, PDI_BVH_PAIR_STACK * sizeof( pdiNodeEntry ), false ) )
	{
		return;
	}
	pdiNodeEntry* stack = ws->stack.data;
	int top = 0;
	stack[top++] = ( pdiNodeEntry ){ 0, bound( bvh->nodes, context ) };
	// Every node is pushed at most once, so nodeCount pops bound the loop.
	for ( int guard = 0; guard <= bvh->nodeCount && top > 0; ++guard )
	{
		pdiNodeEntry e = stack[--top];
		if ( e.bound > *limit )
		{
			continue;
		}
		const pdiBvhNode* node = bvh->nodes + e.node;
		if ( node->count > 0 )
		{
			for ( int k = 0; k < node->count; ++k )
			{
				int slot = node->start + k;
				visit( bvh->triangleOrder[slot], bvh->leafVertices[slot], context, limit );
			}
			continue;
		}
		if ( top + 2 > PDI_BVH_PAIR_STACK )
		{
			break; // cannot happen with the depth cap; stay finite anyway
		}
		int left = e.node + 1, right = node->start;
		double bl = bound( bvh->nodes + left, context ), br = bound( bvh->nodes + right, context );
		// The nearer child on top, so it is explored first and tightens the limit.
		pdiNodeEntry near = { left, bl }, far = { right, br };
		if ( br < bl )
		{
			near = ( pdiNodeEntry ){ right, br };
			far = ( pdiNodeEntry ){ left, bl };
		}
		if ( far.bound <= *limit )
		{
			stack[top++] = far;
		}
		if ( near.bound <= *limit )
		{
			stack[top++] = near;
		}
	}
}

// Closest point of segment [a, b] to p with its parameter.
static pdVec3 pdiClosestOnSegment( pdVec3 p, pdVec3 a, pdVec3 b, double* outT )
{
	pdVec3 ab = pdiSub( b, a );
	double len2 = pdiLengthSq( ab );
	double t = len2 > 0.0 ? pdiDot( pdiSub( p, a ), ab ) / len2 : 0.0;
	t = t < 0.0 ? 0.0 : ( t > 1.0 ? 1.0 : t );
	*outT = t;
	return pdiMulAdd( a, t, ab );
}

// The feature of edge e (vertex e -> e + 1) at parameter t: an end vertex or the edge.
static pdiTriFeature pdiEdgeFeature( int e, double t )
{
	if ( t <= 0.0 )
	{
		return ( pdiTriFeature ){ PD_FEATURE_VERTEX, e };
	}
	if ( t >= 1.0 )
	{
		return ( pdiTriFeature ){ PD_FEATURE_VERTEX, ( e + 1 ) % 3 };
	}
	return ( pdiTriFeature ){ PD_FEATURE_EDGE, e };
}

double pdiClosestPointOnTriangle( pdVec3 p, const pdVec3 v[3], pdVec3* outPoint, pdiTriFeature* outFeature )
{
	// Voronoi regions as in Ericson, Real-Time Collision Detection 5.1.5.
	pdVec3 a = v[0], b = v[1], c = v[2];
	pdVec3 ab = pdiSub( b, a ), ac = pdiSub( c, a ), ap = pdiSub( p, a );
	pdVec3 q;
	pdiTriFeature f;
	double d1 = pdiDot( ab, ap ), d2 = pdiDot( ac, ap );
	pdVec3 bp = pdiSub( p, b ), cp = pdiSub( p, c );
	double d3 = pdiDot( ab, bp ), d4 = pdiDot( ac, bp );
	double d5 = pdiDot( ab, cp ), d6 = pdiDot( ac, cp );
	double vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
	double den = va + vb + vc;
	if ( d1 <= 0.0 && d2 <= 0.0 )
	{
		q = a;
		f = ( pdiTriFeature ){ PD_FEATURE_VERTEX, 0 };
	}
	else if ( d3 >= 0.0 && d4 <= d3 )
	{
		q = b;
		f = ( pdiTriFeature ){ PD_FEATURE_VERTEX, 1 };
	}
	else if ( d6 >= 0.0 && d5 <= d6 )
	{
		q = c;
		f = ( pdiTriFeature ){ PD_FEATURE_VERTEX, 2 };
	}
	else if ( !( den > 0.0 ) || !isfinite( den ) )
	{
		// Degenerate: the closest of the three edges.
		double best = INFINITY;
		q = a;
		f = ( pdiTriFeature ){ PD_FEATURE_VERTEX, 0 };
		for ( int e = 0; e < 3; ++e )
		{
			double t;
			pdVec3 s = pdiClosestOnSegment( p, v[e], v[( e + 1 ) % 3], &t );
			double d = pdiDistanceSq( p, s );
			if ( d < best )
			{
				best = d;
				q = s;
				f = pdiEdgeFeature( e, t );
			}
		}
	}
	else if ( vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 )
	{
		double t = d1 / ( d1 - d3 );
		q = pdiMulAdd( a, t, ab );
		f = ( pdiTriFeature ){ PD_FEATURE_EDGE, 0 };
	}
	else if ( vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 )
	{
		double t = d2 / ( d2 - d6 );
		q = pdiMulAdd( a, t, ac );
		f = ( pdiTriFeature ){ PD_FEATURE_EDGE, 2 };
	}
	else if ( va <= 0.0 && ( d4 - d3 ) >= 0.0 && ( d5 - d6 ) >= 0.0 )
	{
		double t = ( d4 - d3 ) / ( ( d4 - d3 ) + ( d5 - d6 ) );
		q = pdiMulAdd( b, t, pdiSub( c, b ) );
		f = ( pdiTriFeature ){ PD_FEATURE_EDGE, 1 };
	}
	else
	{
		double sv = vb / den, sw = vc / den;
		q = pdiAdd( a, pdiAdd( pdiScale( ab, sv ), pdiScale( ac, sw ) ) );
		f = ( pdiTriFeature ){ PD_FEATURE_FACE, 0 };
	}
	if ( outPoint != NULL )
	{
		*outPoint = q;
	}
	if ( outFeature != NULL )
	{
		*outFeature = f;
	}
	return pdiLength( pdiSub( p, q ) );
}

// ---------------------------------------------------------------------------------------------
// Closest point

typedef struct pdiClosestQuery
{
	pdVec3 p;
	pdiSurfacePoint best;
} pdiClosestQuery;

static double pdiPointNodeBound( const pdiBvhNode* node, const void* context )
{
	const pdiClosestQuery* q = context;
	return sqrt( pdiBvh_PointDistanceSq( node, q->p ) );
}

static void pdiClosestVisit( int triangle, const pdVec3 v[3], void* context, double* limit )
{
	pdiClosestQuery* q = context;
	pdVec3 point;
	pdiTriFeature feature;
	double d = pdiClosestPointOnTriangle( q->p, v, &point, &feature );
	if ( d <= *limit && ( q->best.triangle < 0 || d < q->best.distance ) )
	{
		q->best = ( pdiSurfacePoint ){ d, point, triangle, feature };
		*limit = d;
	}
}

bool pdiMesh_ClosestPoint( const pdMesh* mesh, pdVec3 p, double maxDistance, pdWorkspace* ws, pdiSurfacePoint* out )
{
	pdiClosestQuery q;
	q.p = p;
	q.best = ( pdiSurfacePoint ){ maxDistance, p, -1, { PD_FEATURE_FACE, 0 } };
	double limit = maxDistance;
	pdiRounded_Descend( mesh, ws, pdiPointNodeBound, pdiClosestVisit, &q, &limit );
	*out = q.best;
	return q.best.triangle >= 0;
}

// ---------------------------------------------------------------------------------------------
// Pseudonormals

// Sign that turns a face's winding normal outward: closed meshes wound inward are flipped.
static double pdiOutwardSign( const pdMesh* mesh )
{
	return mesh->closed && !mesh->outwardWinding ? -1.0 : 1.0;
}

static int pdiCanonical( const pdMesh* mesh, int vertex )
{
	return mesh->canonicalVertex != NULL ? mesh->canonicalVertex[vertex] : vertex;
}

// The local corner of triangle t at canonical vertex cv, or -1.
static int pdiCornerOf( const pdMesh* mesh, int t, int cv )
{
	for ( int k = 0; k < 3; ++k )
	{
		if ( pdiCanonical( mesh, mesh->triangles[t][k] ) == cv )
		{
			return k;
		}
	}
	return -1;
}

pdVec3 pdiMesh_FeatureNormal( const pdMesh* mesh, int triangle, pdiTriFeature feature )
{
	pdVec3 n = mesh->faceNormals[triangle];
	if ( feature.type == PD_FEATURE_EDGE )
	{
		int cv0 = pdiCanonical( mesh, mesh->triangles[triangle][feature.index] );
		int cv1 = pdiCanonical( mesh, mesh->triangles[triangle][( feature.index + 1 ) % 3] );
		n = pdiV3( 0.0, 0.0, 0.0 );
		for ( int i = mesh->vertexFaceStart[cv0]; i < mesh->vertexFaceStart[cv0 + 1]; ++i )
		{
			int g = mesh->vertexFaces[i];
			if ( pdiCornerOf( mesh, g, cv1 ) >= 0 )
			{
				n = pdiAdd( n, mesh->faceNormals[g] );
			}
		}
	}
	else if ( feature.type == PD_FEATURE_VERTEX )
	{
		int cv = pdiCanonical( mesh, mesh->triangles[triangle][feature.index] );
		n = pdiV3( 0.0, 0.0, 0.0 );
		for ( int i = mesh->vertexFaceStart[cv]; i < mesh->vertexFaceStart[cv + 1]; ++i )
		{
			int g = mesh->vertexFaces[i];
			int k = pdiCornerOf( mesh, g, cv );
			if ( k < 0 )
			{
				continue;
			}
			pdVec3 v[3];
			pdiMesh_TriangleVertices( mesh, g, v );
			pdVec3 e1 = pdiNormalize( pdiSub( v[( k + 1 ) % 3], v[k] ) );
			pdVec3 e2 = pdiNormalize( pdiSub( v[( k + 2 ) % 3], v[k] ) );
			double c = pdiDot( e1, e2 );
			double angle = acos( c < -1.0 ? -1.0 : ( c > 1.0 ? 1.0 : c ) );
			n = pdiMulAdd( n, angle, mesh->faceNormals[g] );
		}
	}
	n = pdiNormalize( n );
	if ( pdiLengthSq( n ) == 0.0 )
	{
		n = mesh->faceNormals[triangle]; // opposite faces cancel (a zero-thickness fold)
	}
	return pdiScale( n, pdiOutwardSign( mesh ) );
}

double pdiMesh_SignedDistance( const pdMesh* mesh, pdVec3 p, pdWorkspace* ws, pdiSurfacePoint* outClosest,
							   bool* outInside )
{
	pdiSurfacePoint closest;
	pdiMesh_ClosestPoint( mesh, p, INFINITY, ws, &closest );
	bool inside = closest.triangle >= 0 && closest.distance > 0.0 && pdiMesh_ContainsPoint( mesh, p, ws );
	if ( outClosest != NULL )
	{
		*outClosest = closest;
	}
	if ( outInside != NULL )
	{
		*outInside = inside;
	}
	return inside ? -closest.distance : closest.distance;
}

// ---------------------------------------------------------------------------------------------
// Local minima

typedef struct pdiMinimaQuery
{
	const pdMesh* mesh;
	pdVec3 p;
	double mergeTolerance;
	pdiSurfacePoint* out;
	int capacity;
	int count;
	bool dropped;
} pdiMinimaQuery;

static double pdiMinimaNodeBound( const pdiBvhNode* node, const void* context )
{
	const pdiMinimaQuery* q = context;
	return sqrt( pdiBvh_PointDistanceSq( node, q->p ) );
}

// True when a triangle other than t around the feature comes closer to p than d.
static bool pdiNeighbourCloser( const pdMesh* mesh, pdVec3 p, int t, pdiTriFeature f, double d, double slack )
{
	if ( f.type == PD_FEATURE_FACE )
	{
		return false;
	}
	int cv0 = pdiCanonical( mesh, mesh->triangles[t][f.index] );
	int cv1 = f.type == PD_FEATURE_EDGE ? pdiCanonical( mesh, mesh->triangles[t][( f.index + 1 ) % 3] ) : -1;
	for ( int i = mesh->vertexFaceStart[cv0]; i < mesh->vertexFaceStart[cv0 + 1]; ++i )
	{
		int g = mesh->vertexFaces[i];
		if ( g == t || ( cv1 >= 0 && pdiCornerOf( mesh, g, cv1 ) < 0 ) )
		{
			continue;
		}
		pdVec3 v[3];
		pdiMesh_TriangleVertices( mesh, g, v );
		if ( pdiClosestPointOnTriangle( p, v, NULL, NULL ) < d - slack )
		{
			return true;
		}
	}
	return false;
}

static void pdiMinimaVisit( int triangle, const pdVec3 v[3], void* context, double* limit )
{
	pdiMinimaQuery* q = context;
	pdVec3 point;
	pdiTriFeature feature;
	double d = pdiClosestPointOnTriangle( q->p, v, &point, &feature );
	if ( d > *limit || pdiNeighbourCloser( q->mesh, q->p, triangle, feature, d, q->mergeTolerance ) )
	{
		return;
	}
	for ( int i = 0; i < q->count; ++i )
	{
		if ( pdiDistanceSq( q->out[i].point, point ) <= q->mergeTolerance * q->mergeTolerance )
		{
			if ( d < q->out[i].distance )
			{
				q->out[i] = ( pdiSurfacePoint ){ d, point, triangle, feature };
			}
			return;
		}
	}
	// Sorted by distance; past capacity the farthest goes.
	int at = q->count;
	if ( q->count == q->capacity )
	{
		q->dropped = true;
		if ( q->capacity == 0 || d >= q->out[q->capacity - 1].distance )
		{
			return;
		}
		at = q->capacity - 1;
	}
	else
	{
		++q->count;
	}
	while ( at > 0 && q->out[at - 1].distance > d )
	{
		q->out[at] = q->out[at - 1];
		--at;
	}
	q->out[at] = ( pdiSurfacePoint ){ d, point, triangle, feature };
}

int pdiMesh_PointLocalMinima( const pdMesh* mesh, pdVec3 p, double reach, pdWorkspace* ws, pdiSurfacePoint* out,
							  int capacity, bool* outDropped )
{
	pdiMinimaQuery q;
	q.mesh = mesh;
	q.p = p;
	// Points on a shared edge or vertex computed from two triangles differ by rounding only.
	q.mergeTolerance = 1e-9 * ( mesh->diagonal + pdiLength( pdiSub( p, mesh->centroid ) ) + reach );
	q.out = out;
	q.capacity = capacity;
	q.count = 0;
	q.dropped = false;
	double limit = reach;
	pdiRounded_Descend( mesh, ws, pdiMinimaNodeBound, pdiMinimaVisit, &q, &limit );
	if ( outDropped != NULL )
	{
		*outDropped = q.dropped;
	}
	return q.count;
}

// ---------------------------------------------------------------------------------------------
// Two-point bound

typedef struct pdiTwoPointQuery
{
	pdVec3 p0, p1;
} pdiTwoPointQuery;

static double pdiTwoPointNodeBound( const pdiBvhNode* node, const void* context )
{
	const pdiTwoPointQuery* q = context;
	return sqrt( pdiMaxD( pdiBvh_PointDistanceSq( node, q->p0 ), pdiBvh_PointDistanceSq( node, q->p1 ) ) );
}

static void pdiTwoPointVisit( int triangle, const pdVec3 v[3], void* context, double* limit )
{
	(void)triangle;
	const pdiTwoPointQuery* q = context;
	double d0 = pdiClosestPointOnTriangle( q->p0, v, NULL, NULL );
	if ( d0 >= *limit )
	{
		return;
	}
	double d = pdiMaxD( d0, pdiClosestPointOnTriangle( q->p1, v, NULL, NULL ) );
	*limit = d < *limit ? d : *limit;
}

double pdiMesh_TwoPointBound( const pdMesh* mesh, pdVec3 p0, pdVec3 p1, double maxDistance, pdWorkspace* ws )
{
	pdiTwoPointQuery q = { p0, p1 };
	double limit = maxDistance;
	pdiRounded_Descend( mesh, ws, pdiTwoPointNodeBound, pdiTwoPointVisit, &q, &limit );
	return limit;
}
