// SPDX-License-Identifier: MIT
// Local PDs: after translating A by the global PD d, the contact features are grouped into
// regions (normals within 15 degrees, points linked within 5% of the size); each region gives
// its normal n, the depth d . n and a few points spread over it.
#include "penetration_query.h"

// Groups the features into regions: a feature joins the first region whose normal is within
// 15 degrees of its own and that holds a feature whose point lies within 5% of the size of its
// point; otherwise it opens one. region[i] gets the feature's region (-1 for an unusable
// normal), sums[r] the sum of a region's unit normals. Returns the regions.
static int pdGroupRegions( const pdContactFeature* const* f, int count, double scale, int* region, pdVec3* sums )
{
	int regions = 0;
	const double cosRegion = 0.9659; // 15 degrees
	const double link = 0.05 * scale;
	for ( int i = 0; i < count; ++i )
	{
		region[i] = -1;
		if ( !pdIsFiniteVec( f[i]->normal ) || pdLengthSq( f[i]->normal ) < 0.25 )
		{
			continue;
		}
		pdVec3 n = pdNormalize( f[i]->normal );
		int found = -1;
		for ( int r = 0; r < regions && found < 0; ++r )
		{
			if ( pdDot( pdNormalize( sums[r] ), n ) < cosRegion )
			{
				continue;
			}
			for ( int j = 0; j < i; ++j )
			{
				if ( region[j] == r && pdDistanceSq( f[j]->pointB, f[i]->pointB ) < link * link )
				{
					found = r;
					break;
				}
			}
		}
		if ( found < 0 )
		{
			found = regions++;
			sums[found] = pdV3( 0.0, 0.0, 0.0 );
		}
		region[i] = found;
		sums[found] = pdAdd( sums[found], n );
	}
	return regions;
}

// Points spread over region r into local: the closest pair first, then farthest-point
// sampling. False when the region has no feature.
static bool pdSpreadPoints( const pdContactFeature* const* f, int count, const int* region, int r, double scale,
							pdLocalPenetration* local )
{
	int first = -1;
	for ( int i = 0; i < count; ++i )
	{
		if ( region[i] == r && ( first < 0 || f[i]->distance < f[first]->distance ) )
		{
			first = i;
		}
	}
	if ( first < 0 )
	{
		return false;
	}
	local->points[local->pointCount++] = f[first]->pointB;
	while ( local->pointCount < PD_MAX_REGION_POINTS )
	{
		int far = -1;
		double farDist = 0.0;
		for ( int i = 0; i < count; ++i )
		{
			if ( region[i] != r )
			{
				continue;
			}
			double nearest = INFINITY;
			for ( int k = 0; k < local->pointCount; ++k )
			{
				nearest = fmin( nearest, pdDistanceSq( f[i]->pointB, local->points[k] ) );
			}
			if ( nearest > farDist )
			{
				farDist = nearest;
				far = i;
			}
		}
		if ( far < 0 || farDist <= 1e-24 * scale * scale )
		{
			break;
		}
		local->points[local->pointCount++] = f[far]->pointB;
	}
	return true;
}

// Inserts local into out's list, deepest regions first; the list keeps at most
// PD_MAX_LOCAL_REGIONS.
static void pdInsertByDepth( pdPenetrationResult* out, const pdLocalPenetration* local )
{
	double depth = local->depth;
	int slot = out->localCount < PD_MAX_LOCAL_REGIONS ? out->localCount : PD_MAX_LOCAL_REGIONS - 1;
	if ( out->localCount == PD_MAX_LOCAL_REGIONS && out->local[slot].depth >= depth )
	{
		return;
	}
	while ( slot > 0 && out->local[slot - 1].depth < depth )
	{
		out->local[slot] = out->local[slot - 1];
		slot -= 1;
	}
	out->local[slot] = *local;
	if ( out->localCount < PD_MAX_LOCAL_REGIONS )
	{
		out->localCount += 1;
	}
}

// Groups contact features at A + d into regions and gives each its normal n, depth d . n and
// spread points. index lists the features to use (at most PD_MAX_PD_FEATURES).
static void pdLocalFromFeatures( const pdContactFeature* features, const int* index, int count, pdVec3 d, double tol,
								 double scale, pdPenetrationResult* out )
{
	out->localCount = 0;
	double depthTotal = pdLength( d );
	if ( !( depthTotal > 0.0 ) || count <= 0 )
	{
		return;
	}
	const pdContactFeature* f[PD_MAX_PD_FEATURES];
	for ( int i = 0; i < count; ++i )
	{
		f[i] = features + index[i];
	}
	int region[PD_MAX_PD_FEATURES];
	pdVec3 sums[PD_MAX_PD_FEATURES];
	int regions = pdGroupRegions( f, count, scale, region, sums );
	for ( int r = 0; r < regions; ++r )
	{
		pdVec3 n = pdNormalize( sums[r] );
		double depth = pdDot( d, n );
		if ( !( depth > fmax( 0.1 * tol, 1e-3 * depthTotal ) ) )
		{
			continue;
		}
		pdLocalPenetration local;
		memset( &local, 0, sizeof( local ) );
		local.normal = n;
		local.depth = depth;
		local.translation = pdScale( n, depth );
		if ( pdSpreadPoints( f, count, region, r, scale, &local ) )
		{
			pdInsertByDepth( out, &local );
		}
	}
}

// The features gathered at the answer reach a little beyond the tolerance: the answer keeps a
// small gap.
#define PD_LOCAL_REACH 1.5

void pdQuery_LocalPenetrations( pdPdQuery* q, pdVec3 d, pdPenetrationResult* out )
{
	out->localCount = 0;
	if ( !( pdLength( d ) > 0.0 ) )
	{
		return;
	}
	pdTransform poseA = pdQuery_PoseA( q, d );
	int count = 0;
	const pdContactFeature* features = NULL;
	if ( pdQuery_ContactFeatures( q, &poseA, PD_LOCAL_REACH * q->tol, pdNeg( d ), &count, &features ) < 0 ||
		 count <= 0 )
	{
		return;
	}
	if ( count > PD_MAX_PD_FEATURES )
	{
		count = PD_MAX_PD_FEATURES;
	}
	int index[PD_MAX_PD_FEATURES];
	for ( int i = 0; i < count; ++i )
	{
		index[i] = i;
	}
	pdLocalFromFeatures( features, index, count, d, q->tol, q->scale, out );
}

pdStatus pdComputeLocalPenetrations( const pdMesh* meshA, const pdMesh* meshB, const pdPenetrationDef* def,
									 const pdContactFeature* features, int count, pdPenetrationResult* ioResult )
{
	if ( ioResult == NULL || count < 0 || ( count > 0 && features == NULL ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	ioResult->localCount = 0;
	if ( !pdIsValidMesh( meshA ) || !pdIsValidMesh( meshB ) )
	{
		return PD_STATUS_INVALID_MESH;
	}
	pdPenetrationDef defaults = pdDefaultPenetrationDef();
	pdStatus status = pdValidatePenetrationDef( def != NULL ? def : &defaults );
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	if ( ioResult->state != PD_STATE_PENETRATING || !pdIsFiniteVec( ioResult->translation ) )
	{
		return PD_STATUS_OK;
	}
	double scale = pdPairScale( meshA, meshB );
	double tol = pdPairTolerance( def != NULL ? def : &defaults, meshA, meshB );
	// The same features the query would gather: within the local reach, in the caller's order.
	int index[PD_MAX_PD_FEATURES];
	int used = 0;
	for ( int i = 0; i < count && used < PD_MAX_PD_FEATURES; ++i )
	{
		if ( fabs( features[i].distance ) <= PD_LOCAL_REACH * tol )
		{
			index[used++] = i;
		}
	}
	pdLocalFromFeatures( features, index, used, ioResult->translation, tol, scale, ioResult );
	return PD_STATUS_OK;
}
