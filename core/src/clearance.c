// SPDX-License-Identifier: MIT
// Per-mesh free-space data made once at mesh creation (Sec. 5 of the paper): the maximally
// clear points of a voxel grid over the mesh's bounding box, and balls inside a closed mesh's
// solid. The start strategies (initial_config.c) read both.
#include "clearance.h"

#include "core.h"
#include "proximity.h"

#include <string.h>

// ---------------------------------------------------------------------------------------------
// Maximally clear configurations

// Index of grid cell (i, j, k) in a field of n[0] x n[1] x n[2] cells, x fastest.
static inline size_t pdiCellIndex( const int n[3], int i, int j, int k )
{
	return ( (size_t)k * n[1] + (size_t)j ) * n[0] + (size_t)i;
}

// True when interior cell (i, j, k) holds a local maximum of the field over its 26 neighbours.
// Ties go to the first cell in scan order, so plateaus give one point.
static bool pdiIsLocalMaximum( const double* field, const int n[3], int i, int j, int k )
{
	double d = field[pdiCellIndex( n, i, j, k )];
	for ( int dk = -1; dk <= 1; ++dk )
	{
		for ( int dj = -1; dj <= 1; ++dj )
		{
			for ( int di = -1; di <= 1; ++di )
			{
				if ( di == 0 && dj == 0 && dk == 0 )
				{
					continue;
				}
				double e = field[pdiCellIndex( n, i + di, j + dj, k + dk )];
				bool earlier = ( dk < 0 ) || ( dk == 0 && dj < 0 ) || ( dk == 0 && dj == 0 && di < 0 );
				if ( e > d || ( e == d && earlier ) )
				{
					return false;
				}
			}
		}
	}
	return true;
}

// Inserts point p of clearance d into the list of the largest clearances (sorted, largest
// first, at most PDI_MAX_CLEARANCE_POINTS).
static void pdiKeepLargestClearance( pdVec3* points, double* radii, int* ioCount, pdVec3 p, double d )
{
	int count = *ioCount;
	int slot = count < PDI_MAX_CLEARANCE_POINTS ? count : PDI_MAX_CLEARANCE_POINTS - 1;
	if ( count == PDI_MAX_CLEARANCE_POINTS && radii[slot] >= d )
	{
		return;
	}
	while ( slot > 0 && radii[slot - 1] < d )
	{
		points[slot] = points[slot - 1];
		radii[slot] = radii[slot - 1];
		slot -= 1;
	}
	points[slot] = p;
	radii[slot] = d;
	if ( count < PDI_MAX_CLEARANCE_POINTS )
	{
		*ioCount = count + 1;
	}
}

pdStatus pdiComputeClearancePoints( pdMesh* mesh, int gridResolution )
{
	mesh->clearanceCount = 0;
	mesh->clearancePoints = NULL;
	mesh->clearanceRadii = NULL;
	if ( gridResolution < 3 )
	{
		return PD_STATUS_OK;
	}
	if ( gridResolution > 128 )
	{
		gridResolution = 128;
	}
	pdVec3 extent = pdiSub( mesh->boundsMax, mesh->boundsMin );
	double longest = fmax( extent.x, fmax( extent.y, extent.z ) );
	if ( !( longest > 0.0 ) )
	{
		return PD_STATUS_OK;
	}
	double cell = longest / gridResolution;
	int n[3];
	for ( int axis = 0; axis < 3; ++axis )
	{
		double e = pdiComponent( extent, axis );
		int c = (int)ceil( e / cell - 1e-9 );
		n[axis] = c < 1 ? 1 : ( c > gridResolution ? gridResolution : c );
	}
	// Local maxima must be interior cells (a cell away from the box boundary).
	if ( n[0] < 3 || n[1] < 3 || n[2] < 3 )
	{
		return PD_STATUS_OK;
	}

	size_t cells = (size_t)n[0] * n[1] * n[2];
	double* field = pdiAlloc( cells * sizeof( double ) );
	pdWorkspace* ws = pdiCreateWorkspace();
	if ( field == NULL || ws == NULL )
	{
		pdiFree( field, cells * sizeof( double ) );
		pdiDestroyWorkspace( ws );
		return PD_STATUS_OUT_OF_MEMORY;
	}
	pdVec3 origin = pdiMulAdd( mesh->boundsMin, 0.5, pdiSub( extent, pdiV3( n[0] * cell, n[1] * cell, n[2] * cell ) ) );
	for ( int k = 0; k < n[2]; ++k )
	{
		for ( int j = 0; j < n[1]; ++j )
		{
			for ( int i = 0; i < n[0]; ++i )
			{
				pdVec3 p = pdiAdd( origin, pdiV3( ( i + 0.5 ) * cell, ( j + 0.5 ) * cell, ( k + 0.5 ) * cell ) );
				double d = -1.0;
				bool interior = i > 0 && j > 0 && k > 0 && i < n[0] - 1 && j < n[1] - 1 && k < n[2] - 1;
				if ( interior )
				{
					d = pdiMesh_PointDistance( mesh, p, INFINITY, ws );
					// Inside a solid is not free space (polygon soups cannot tell: keep them).
					if ( mesh->closed && pdiMesh_ContainsPoint( mesh, p, ws ) )
					{
						d = -1.0;
					}
				}
				field[pdiCellIndex( n, i, j, k )] = d;
			}
		}
	}

	pdVec3 points[PDI_MAX_CLEARANCE_POINTS];
	double radii[PDI_MAX_CLEARANCE_POINTS];
	int count = 0;
	for ( int k = 1; k < n[2] - 1; ++k )
	{
		for ( int j = 1; j < n[1] - 1; ++j )
		{
			for ( int i = 1; i < n[0] - 1; ++i )
			{
				double d = field[pdiCellIndex( n, i, j, k )];
				// Meaningful clearance only: more than a cell of free space around the point.
				if ( !( d > cell ) )
				{
					continue;
				}
				if ( !pdiIsLocalMaximum( field, n, i, j, k ) )
				{
					continue;
				}
				pdVec3 p = pdiAdd( origin, pdiV3( ( i + 0.5 ) * cell, ( j + 0.5 ) * cell, ( k + 0.5 ) * cell ) );
				pdiKeepLargestClearance( points, radii, &count, p, d );
			}
		}
	}
	pdiFree( field, cells * sizeof( double ) );
	pdiDestroyWorkspace( ws );

	if ( count == 0 )
	{
		return PD_STATUS_OK;
	}
	mesh->clearancePoints = pdiAlloc( (size_t)count * sizeof( pdVec3 ) );
	mesh->clearanceRadii = pdiAlloc( (size_t)count * sizeof( double ) );
	if ( mesh->clearancePoints == NULL || mesh->clearanceRadii == NULL )
	{
		pdiFree( mesh->clearancePoints, (size_t)count * sizeof( pdVec3 ) );
		pdiFree( mesh->clearanceRadii, (size_t)count * sizeof( double ) );
		mesh->clearancePoints = NULL;
		mesh->clearanceRadii = NULL;
		return PD_STATUS_OUT_OF_MEMORY;
	}
	memcpy( mesh->clearancePoints, points, (size_t)count * sizeof( pdVec3 ) );
	memcpy( mesh->clearanceRadii, radii, (size_t)count * sizeof( double ) );
	mesh->clearanceCount = count;
	return PD_STATUS_OK;
}

void pdiFreeClearancePoints( pdMesh* mesh )
{
	if ( mesh->clearancePoints != NULL )
	{
		pdiFree( mesh->clearancePoints, (size_t)mesh->clearanceCount * sizeof( pdVec3 ) );
	}
	if ( mesh->clearanceRadii != NULL )
	{
		pdiFree( mesh->clearanceRadii, (size_t)mesh->clearanceCount * sizeof( double ) );
	}
	mesh->clearancePoints = NULL;
	mesh->clearanceRadii = NULL;
	mesh->clearanceCount = 0;
}

// ---------------------------------------------------------------------------------------------
// Inner balls

// The radius of the largest ball tangent to the surface at p from the side `inward` that holds
// none of the surface, at most cap (the shrinking-ball construction, by bisection: the balls
// tangent at p along a direction are nested, so being empty is monotone in the radius).
// Tessellated curved surfaces bulge a little into the exact tangent ball, so a ball counts as
// empty when the surface keeps 95% of its radius from its centre; the caller certifies the
// radius it keeps by measuring that distance.
static double pdiEmptyTangentBall( const pdMesh* mesh, pdVec3 p, pdVec3 inward, double cap, pdWorkspace* ws )
{
	if ( pdiMesh_PointDistance( mesh, pdiMulAdd( p, cap, inward ), INFINITY, ws ) >= 0.95 * cap )
	{
		return cap;
	}
	double lo = 0.0, hi = cap;
	for ( int k = 0; k < 14; ++k )
	{
		double mid = 0.5 * ( lo + hi );
		if ( pdiMesh_PointDistance( mesh, pdiMulAdd( p, mid, inward ), INFINITY, ws ) >= 0.95 * mid )
		{
			lo = mid;
		}
		else
		{
			hi = mid;
		}
	}
	return lo;
}

pdStatus pdiComputeInnerBalls( pdMesh* mesh )
{
	mesh->innerBallCount = 0;
	mesh->innerBalls = NULL;
	if ( !mesh->closed || mesh->triangleCount <= 0 || !( mesh->diagonal > 0.0 ) )
	{
		return PD_STATUS_OK;
	}
	pdWorkspace* ws = pdiCreateWorkspace();
	if ( ws == NULL )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	pdiBall balls[PDI_MAX_INNER_BALLS];
	int count = 0;
	double scale = mesh->diagonal;
	double probe = 1e-3 * scale;
	int samples = mesh->triangleCount < PDI_INNER_BALL_SAMPLES ? mesh->triangleCount : PDI_INNER_BALL_SAMPLES;
	for ( int s = 0; s < samples; ++s )
	{
		int t = (int)( ( (long long)s * mesh->triangleCount ) / samples );
		pdVec3 v[3];
		pdiMesh_TriangleVertices( mesh, t, v );
		pdVec3 n = pdiCross( pdiSub( v[1], v[0] ), pdiSub( v[2], v[0] ) );
		double twiceArea = pdiLength( n );
		if ( !( twiceArea > 1e-12 * scale * scale ) )
		{
			continue;
		}
		n = pdiScale( n, 1.0 / twiceArea );
		pdVec3 p = pdiScale( pdiAdd( pdiAdd( v[0], v[1] ), v[2] ), 1.0 / 3.0 );
		// Closed soups need not be consistently wound: ask which side is inside.
		if ( !pdiMesh_ContainsPoint( mesh, pdiMulAdd( p, -probe, n ), ws ) )
		{
			n = pdiNeg( n );
			if ( !pdiMesh_ContainsPoint( mesh, pdiMulAdd( p, -probe, n ), ws ) )
			{
				continue; // thinner than the probe, or the votes disagree
			}
		}
		// n points outward.
		double reach = pdiEmptyTangentBall( mesh, p, pdiNeg( n ), 0.5 * scale, ws );
		if ( !( reach > probe ) )
		{
			continue;
		}
		pdVec3 center = pdiMulAdd( p, -reach, n );
		// The ball is empty of surface; its centre must be inside for the ball to be.
		if ( !pdiMesh_ContainsPoint( mesh, center, ws ) )
		{
			continue;
		}
		// The radius kept is the measured distance from the centre to the surface.
		double radius = pdiMesh_PointDistance( mesh, center, INFINITY, ws );
		if ( !( radius > probe ) )
		{
			continue;
		}
		int slot = count < PDI_MAX_INNER_BALLS ? count : PDI_MAX_INNER_BALLS - 1;
		if ( count == PDI_MAX_INNER_BALLS && balls[slot].radius >= radius )
		{
			continue;
		}
		while ( slot > 0 && balls[slot - 1].radius < radius )
		{
			balls[slot] = balls[slot - 1];
			slot -= 1;
		}
		balls[slot] = ( pdiBall ){ center, radius };
		if ( count < PDI_MAX_INNER_BALLS )
		{
			count += 1;
		}
	}
	pdiDestroyWorkspace( ws );
	if ( count == 0 )
	{
		return PD_STATUS_OK;
	}
	mesh->innerBalls = pdiAlloc( (size_t)count * sizeof( pdiBall ) );
	if ( mesh->innerBalls == NULL )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	memcpy( mesh->innerBalls, balls, (size_t)count * sizeof( pdiBall ) );
	mesh->innerBallCount = count;
	return PD_STATUS_OK;
}

void pdiFreeInnerBalls( pdMesh* mesh )
{
	pdiFree( mesh->innerBalls, (size_t)mesh->innerBallCount * sizeof( pdiBall ) );
	mesh->innerBalls = NULL;
	mesh->innerBallCount = 0;
}
