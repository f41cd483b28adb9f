// SPDX-License-Identifier: MIT
// Point queries on one mesh: distance from a point to the surface (ordered BVH descent with
// pruning) and point containment for closed meshes (ray parity, several directions, vote).
#include "proximity.h"

#include "core.h"

typedef struct pdiPointEntry
{
	int node;
	double d2;
} pdiPointEntry;

// Squared distance from p to triangle (a, b, c); regions as in Ericson, Real-Time Collision
// Detection 5.1.5, with every division guarded so degenerate triangles stay finite.
static double pdiPointTriangleDistanceSq( pdVec3 p, pdVec3 a, pdVec3 b, pdVec3 c )
{
	pdVec3 ab = pdiSub( b, a ), ac = pdiSub( c, a ), ap = pdiSub( p, a );
	double d1 = pdiDot( ab, ap ), d2 = pdiDot( ac, ap );
	if ( d1 <= 0.0 && d2 <= 0.0 )
	{
		return pdiLengthSq( ap );
	}
	pdVec3 bp = pdiSub( p, b );
	double d3 = pdiDot( ab, bp ), d4 = pdiDot( ac, bp );
	if ( d3 >= 0.0 && d4 <= d3 )
	{
		return pdiLengthSq( bp );
	}
	double vc = d1 * d4 - d3 * d2;
	if ( vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 )
	{
		double den = d1 - d3;
		double v = den > 0.0 ? d1 / den : 0.0;
		return pdiDistanceSq( p, pdiMulAdd( a, v, ab ) );
	}
	pdVec3 cp = pdiSub( p, c );
	double d5 = pdiDot( ab, cp ), d6 = pdiDot( ac, cp );
	if ( d6 >= 0.0 && d5 <= d6 )
	{
		return pdiLengthSq( cp );
	}
	double vb = d5 * d2 - d1 * d6;
	if ( vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 )
	{
		double den = d2 - d6;
		double w = den > 0.0 ? d2 / den : 0.0;
		return pdiDistanceSq( p, pdiMulAdd( a, w, ac ) );
	}
	double va = d3 * d6 - d5 * d4;
	if ( va <= 0.0 && ( d4 - d3 ) >= 0.0 && ( d5 - d6 ) >= 0.0 )
	{
		double den = ( d4 - d3 ) + ( d5 - d6 );
		double w = den > 0.0 ? ( d4 - d3 ) / den : 0.0;
		return pdiDistanceSq( p, pdiMulAdd( b, w, pdiSub( c, b ) ) );
	}
	double den = va + vb + vc;
	if ( !( den > 0.0 ) )
	{
		// Degenerate: the nearest of the three edges' end points is still an upper bound;
		// use the segment distances to stay exact for slivers.
		double best = fmin( pdiLengthSq( ap ), fmin( pdiLengthSq( bp ), pdiLengthSq( cp ) ) );
		return best;
	}
	double v = vb / den, w = vc / den;
	return pdiDistanceSq( p, pdiAdd( a, pdiAdd( pdiScale( ab, v ), pdiScale( ac, w ) ) ) );
}

double pdiMesh_PointDistance( const pdMesh* mesh, pdVec3 localPoint, double maxDistance, pdWorkspace* ws )
{
	const pdiBvh* bvh = &mesh->bvh;
	if ( bvh->nodeCount == 0 || !pdiBuffer_Reserve( &ws->stack, PDI_BVH_PAIR_STACK * sizeof( pdiPointEntry ), false ) )
	{
		return maxDistance;
	}
	pdiPointEntry* stack = ws->stack.data;
	double best = maxDistance * maxDistance;
	if ( !( maxDistance < 1e150 ) )
	{
		best = INFINITY;
	}
	int top = 0;
	stack[top++] = ( pdiPointEntry ){ 0, pdiBvh_PointDistanceSq( bvh->nodes, localPoint ) };
	// Every node is pushed at most once, so nodeCount pops bound the loop.
	for ( int guard = 0; guard <= bvh->nodeCount && top > 0; ++guard )
	{
		pdiPointEntry e = stack[--top];
		if ( e.d2 >= best )
		{
			continue;
		}
		const pdiBvhNode* node = bvh->nodes + e.node;
		if ( node->count > 0 )
		{
			for ( int k = 0; k < node->count; ++k )
			{
				pdVec3 v[3];
				pdiMesh_TriangleVertices( mesh, bvh->triangleOrder[node->start + k], v );
				double d2 = pdiPointTriangleDistanceSq( localPoint, v[0], v[1], v[2] );
				best = d2 < best ? d2 : best;
			}
			continue;
		}
		int left = e.node + 1, right = node->start;
		double dl = pdiBvh_PointDistanceSq( bvh->nodes + left, localPoint );
		double dr = pdiBvh_PointDistanceSq( bvh->nodes + right, localPoint );
		if ( top + 2 > PDI_BVH_PAIR_STACK )
		{
			break; // cannot happen with the depth cap; stay finite anyway
		}
		// Push the farther first so the nearer is explored first.
		if ( dl <= dr )
		{
			if ( dr < best )
			{
				stack[top++] = ( pdiPointEntry ){ right, dr };
			}
			if ( dl < best )
			{
				stack[top++] = ( pdiPointEntry ){ left, dl };
			}
		}
		else
		{
			if ( dl < best )
			{
				stack[top++] = ( pdiPointEntry ){ left, dl };
			}
			if ( dr < best )
			{
				stack[top++] = ( pdiPointEntry ){ right, dr };
			}
		}
	}
	if ( best == INFINITY )
	{
		return maxDistance;
	}
	double d = sqrt( best );
	return d < maxDistance ? d : maxDistance;
}

enum
{
	PDI_RAY_CLEAN = 0,
	PDI_RAY_GRAZING = 1,
	PDI_RAY_ON_SURFACE = 2,
};

static int pdiSign( double x, double eps )
{
	return x > eps ? 1 : ( x < -eps ? -1 : 0 );
}

// Counts crossings of the ray origin + s * dir (s in (0, 1]) with the mesh. Returns the
// crossing count in outCount and PDI_RAY_GRAZING when the ray passes within a relative epsilon
// of an edge or vertex (or lies in a triangle's plane), PDI_RAY_ON_SURFACE when the origin lies
// on the surface.
static int pdiCastParityRay( const pdMesh* mesh, pdVec3 origin, pdVec3 dir, int* stack, int* outCount )
{
	const pdiBvh* bvh = &mesh->bvh;
	int count = 0, top = 0;
	stack[top++] = 0;
	double dirLen = pdiLength( dir );
	for ( int guard = 0; guard <= bvh->nodeCount && top > 0; ++guard )
	{
		int index = stack[--top];
		const pdiBvhNode* node = bvh->nodes + index;
		pdVec3 rel = pdiSub( origin, node->center );
		double lo = 0.0, hi = 1.0;
		pdiClipSlab( pdiDot( rel, node->axes.cx ), pdiDot( dir, node->axes.cx ), node->halfExtent.x, &lo, &hi );
		pdiClipSlab( pdiDot( rel, node->axes.cy ), pdiDot( dir, node->axes.cy ), node->halfExtent.y, &lo, &hi );
		pdiClipSlab( pdiDot( rel, node->axes.cz ), pdiDot( dir, node->axes.cz ), node->halfExtent.z, &lo, &hi );
		if ( lo > hi )
		{
			continue;
		}
		if ( node->count == 0 )
		{
			if ( top + 2 > PDI_BVH_PAIR_STACK )
			{
				return PDI_RAY_GRAZING; // cannot happen with the depth cap; discard the ray
			}
			stack[top++] = node->start;
			stack[top++] = index + 1;
			continue;
		}
		for ( int k = 0; k < node->count; ++k )
		{
			pdVec3 v[3];
			pdiMesh_TriangleVertices( mesh, bvh->triangleOrder[node->start + k], v );
			pdVec3 a = pdiSub( v[0], origin ), b = pdiSub( v[1], origin ), c = pdiSub( v[2], origin );
			double la = pdiLength( a ), lb = pdiLength( b ), lc = pdiLength( c );
			// Signed volumes: the line crosses the triangle exactly when all three agree.
			double u = pdiDot( dir, pdiCross( b, c ) );
			double w0 = pdiDot( dir, pdiCross( c, a ) );
			double w1 = pdiDot( dir, pdiCross( a, b ) );
			int su = pdiSign( u, 1e-10 * dirLen * lb * lc );
			int sv = pdiSign( w0, 1e-10 * dirLen * lc * la );
			int sw = pdiSign( w1, 1e-10 * dirLen * la * lb );
			bool pos = su > 0 || sv > 0 || sw > 0;
			bool neg = su < 0 || sv < 0 || sw < 0;
			if ( pos && neg )
			{
				continue; // clean miss of the line
			}
			// Where along the line: sign of the volume of the origin against the plane.
			double vol = pdiDot( a, pdiCross( b, c ) );
			int sVol = pdiSign( vol, 1e-12 * la * lb * lc );
			if ( su == 0 || sv == 0 || sw == 0 )
			{
				if ( sVol == 0 && ( su != 0 || sv != 0 || sw != 0 ) )
				{
					return PDI_RAY_ON_SURFACE; // origin on an edge of this triangle
				}
				// The line grazes an edge or vertex (or lies in the plane): only matters ahead of
				// the origin, but deciding that is as fragile as the graze itself.
				return PDI_RAY_GRAZING;
			}
			if ( sVol == 0 )
			{
				return PDI_RAY_ON_SURFACE;
			}
			// The hit parameter has the sign of vol / (u + v + w); u, v, w share one sign.
			if ( ( sVol > 0 ) == ( su > 0 ) )
			{
				++count;
			}
		}
	}
	*outCount = count;
	return PDI_RAY_CLEAN;
}

bool pdiMesh_ContainsPoint( const pdMesh* mesh, pdVec3 localPoint, pdWorkspace* ws )
{
	if ( !mesh->closed || mesh->bvh.nodeCount == 0 )
	{
		return false;
	}
	// Outside the root box: outside the solid.
	if ( pdiBvh_PointDistanceSq( mesh->bvh.nodes, localPoint ) > 0.0 )
	{
		return false;
	}
	if ( !pdiBuffer_Reserve( &ws->stack, PDI_BVH_PAIR_STACK * sizeof( int ), false ) )
	{
		return false;
	}
	int* stack = ws->stack.data;
	// Fixed directions away from the coordinate axes and planes (so axis-aligned meshes never
	// graze); extra ones replace rays that graze.
	static const double dirs[7][3] = {
		{ 0.5773502691896258, 0.6172133998483676, 0.5345224838248488 },
		{ -0.4364357804719848, 0.8017837257372732, -0.4082482904638631 },
		{ 0.7071067811865476, -0.3162277660168379, -0.6324555320336759 },
		{ -0.6859943405700353, -0.5144957554275265, 0.5144957554275265 },
		{ 0.2672612419124244, -0.8017837257372732, 0.5345224838248488 },
		{ -0.8320502943378437, 0.2773500981126146, 0.4803844614152614 },
		{ 0.4472135954999579, 0.4082482904638631, -0.7953949089757175 },
	};
	pdVec3 c = pdiScale( pdiAdd( mesh->boundsMin, mesh->boundsMax ), 0.5 );
	// Long enough to leave the bounds from any point inside them.
	double length = 2.0 * ( pdiLength( pdiSub( localPoint, c ) ) + mesh->diagonal ) + 1e-300;
	int inside = 0, outside = 0;
	// Majority of three clean rays; two that agree already decide it.
	for ( int k = 0; k < 7 && inside < 2 && outside < 2; ++k )
	{
		pdVec3 d = pdiScale( pdiNormalize( pdiV3( dirs[k][0], dirs[k][1], dirs[k][2] ) ), length );
		int crossings = 0;
		int kind = pdiCastParityRay( mesh, localPoint, d, stack, &crossings );
		if ( kind == PDI_RAY_ON_SURFACE )
		{
			return false;
		}
		if ( kind == PDI_RAY_CLEAN )
		{
			if ( crossings & 1 )
			{
				++inside;
			}
			else
			{
				++outside;
			}
		}
	}
	return inside > outside;
}
