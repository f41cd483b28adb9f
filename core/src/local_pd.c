// SPDX-License-Identifier: MIT
// Local PDs: after translating A by the global PD d, the contact features are grouped into
// regions, connected patches of contact with one normal (normals within 15 degrees of the
// region's seed; contacts connected through shared mesh vertices or points within 5% of the
// size); each region gives its normal n, the depth d . n and up to PD_MAX_REGION_POINTS points
// that keep its extent.
#include "penetration_query.h"
#include "plugin_interface.h"

// Grouping thresholds: a region's normals lie within 15 degrees of its seed's; contacts whose
// points lie within 5% of the size of each other touch.
#define PDI_REGION_COSINE 0.9659
#define PDI_REGION_LINK 0.05

// The features of one local-PD pass with what grouping needs: each one's unit normal (zero when
// unusable) and the mesh vertices its feature on A and on B consists of.
typedef struct pdiRegionFeatures
{
	const pdContactFeature* f[PDI_MAX_PD_FEATURES];
	int count;
	double scale;
	pdVec3 normal[PDI_MAX_PD_FEATURES];
	int verticesA[PDI_MAX_PD_FEATURES][3];
	int verticesB[PDI_MAX_PD_FEATURES][3];
} pdiRegionFeatures;

// The mesh vertices (welded ids, so a soup's copies of one position are one vertex) of a
// feature: 1 for a vertex, 2 for an edge, 3 for a face; -1 fills the rest, and all of out for a
// feature that names no kept triangle (features may come from a caller).
static void pdiFeatureVertices( const pdMesh* mesh, pdFeature feature, int out[3] )
{
	out[0] = out[1] = out[2] = -1;
	if ( feature.triangle < 0 || feature.triangle >= mesh->triangleCount || feature.index < 0 || feature.index > 2 )
	{
		return;
	}
	int n = feature.type == PD_FEATURE_VERTEX ? 1 : ( feature.type == PD_FEATURE_EDGE ? 2 : 3 );
	int first = feature.type == PD_FEATURE_FACE ? 0 : feature.index;
	const int* tri = mesh->triangles[feature.triangle];
	for ( int k = 0; k < n; ++k )
	{
		out[k] = mesh->canonicalVertex[tri[( first + k ) % 3]];
	}
}

static bool pdiSharesVertex( const int a[3], const int b[3] )
{
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = 0; j < 3 && a[i] >= 0; ++j )
		{
			if ( a[i] == b[j] )
			{
				return true;
			}
		}
	}
	return false;
}

static void pdiRegionFeatures_Init( pdiRegionFeatures* rf, const pdMesh* meshA, const pdMesh* meshB,
								   const pdContactFeature* features, const int* index, int count, double scale )
{
	rf->count = count;
	rf->scale = scale;
	for ( int i = 0; i < count; ++i )
	{
		const pdContactFeature* f = features + index[i];
		rf->f[i] = f;
		bool usable = pdiIsFiniteVec( f->normal ) && pdiLengthSq( f->normal ) >= 0.25;
		rf->normal[i] = usable ? pdiNormalize( f->normal ) : pdiV3( 0.0, 0.0, 0.0 );
		pdiFeatureVertices( meshA, f->featureA, rf->verticesA[i] );
		pdiFeatureVertices( meshB, f->featureB, rf->verticesB[i] );
	}
}

// Two contacts touch when their features share a vertex of A or of B (a face's contacts all
// share its vertices, a ring's consecutive ones their edge's) or their points lie close.
static bool pdiFeaturesTouch( const pdiRegionFeatures* rf, int i, int j )
{
	double link = PDI_REGION_LINK * rf->scale;
	return pdiSharesVertex( rf->verticesA[i], rf->verticesA[j] ) ||
		   pdiSharesVertex( rf->verticesB[i], rf->verticesB[j] ) ||
		   pdiDistanceSq( rf->f[i]->pointB, rf->f[j]->pointB ) < link * link;
}

// Groups the features into regions: connected patches of contact with one normal. Each region
// grows from its seed (the closest feature not yet grouped) through touching features whose
// normal lies within 15 degrees of the seed's, so it holds every feature of the patch whatever
// their order. region[i] gets the feature's region (-1 for an unusable normal), sums[r] the sum
// of a region's unit normals. Returns the regions.
static int pdiGroupRegions( const pdiRegionFeatures* rf, int* region, pdVec3* sums )
{
	int members[PDI_MAX_PD_FEATURES];
	int regions = 0;
	for ( int i = 0; i < rf->count; ++i )
	{
		region[i] = -1;
	}
	for ( ;; )
	{
		int seed = -1;
		for ( int i = 0; i < rf->count; ++i )
		{
			if ( region[i] < 0 && pdiLengthSq( rf->normal[i] ) > 0.0 &&
				 ( seed < 0 || rf->f[i]->distance < rf->f[seed]->distance ) )
			{
				seed = i;
			}
		}
		if ( seed < 0 )
		{
			return regions;
		}
		int r = regions++;
		pdVec3 n = rf->normal[seed];
		region[seed] = r;
		sums[r] = n;
		members[0] = seed;
		int memberCount = 1;
		for ( int head = 0; head < memberCount; ++head )
		{
			for ( int j = 0; j < rf->count; ++j )
			{
				if ( region[j] < 0 && pdiDot( rf->normal[j], n ) >= PDI_REGION_COSINE &&
					 pdiFeaturesTouch( rf, members[head], j ) )
				{
					region[j] = r;
					sums[r] = pdiAdd( sums[r], rf->normal[j] );
					members[memberCount++] = j;
				}
			}
		}
	}
}

// The distinct points of region r (the closest feature's first) as feature indices in out;
// returns how many.
static int pdiDistinctPoints( const pdiRegionFeatures* rf, const int* region, int r, int* out )
{
	int first = -1;
	for ( int i = 0; i < rf->count; ++i )
	{
		if ( region[i] == r && ( first < 0 || rf->f[i]->distance < rf->f[first]->distance ) )
		{
			first = i;
		}
	}
	if ( first < 0 )
	{
		return 0;
	}
	int n = 0;
	out[n++] = first;
	double same = 1e-24 * rf->scale * rf->scale;
	for ( int i = 0; i < rf->count; ++i )
	{
		bool repeated = region[i] != r;
		for ( int k = 0; k < n && !repeated; ++k )
		{
			repeated = pdiDistanceSq( rf->f[i]->pointB, rf->f[out[k]]->pointB ) <= same;
		}
		if ( !repeated )
		{
			out[n++] = i;
		}
	}
	return n;
}

// The point of pts (feature indices) farthest along dir (taken or not), or, with dir zero, the
// one not taken farthest from the points already in local (-1 when every one is taken).
static int pdiFarthestPoint( const pdiRegionFeatures* rf, const int* pts, int n, const bool* taken, pdVec3 dir,
							const pdLocalPenetration* local )
{
	bool along = pdiLengthSq( dir ) > 0.0;
	int best = -1;
	double bestValue = -INFINITY;
	for ( int k = 0; k < n; ++k )
	{
		pdVec3 p = rf->f[pts[k]]->pointB;
		double value = along ? pdiDot( p, dir ) : INFINITY;
		for ( int j = 0; j < local->pointCount && !along; ++j )
		{
			value = fmin( value, pdiDistanceSq( p, local->points[j] ) );
		}
		if ( ( along || !taken[k] ) && value > bestValue )
		{
			bestValue = value;
			best = k;
		}
	}
	return best;
}

// A region's points into local: all its distinct points when they fit in PD_MAX_REGION_POINTS,
// else its extent: the extremes along 8 directions in the region's plane (turned 0.1 rad off
// the plane's axes, so an edge of a patch parallel to one gives its corner, not a tie), then
// the points farthest from those already kept. False when the region has no feature.
static bool pdiSpreadPoints( const pdiRegionFeatures* rf, const int* region, int r, pdVec3 normal,
							pdLocalPenetration* local )
{
	int pts[PDI_MAX_PD_FEATURES];
	bool taken[PDI_MAX_PD_FEATURES] = { false };
	int n = pdiDistinctPoints( rf, region, r, pts );
	if ( n <= PD_MAX_REGION_POINTS )
	{
		for ( int k = 0; k < n; ++k )
		{
			local->points[local->pointCount++] = rf->f[pts[k]]->pointB;
		}
		return n > 0;
	}
	pdVec3 axis = fabs( normal.x ) < 0.57 ? pdiV3( 1.0, 0.0, 0.0 ) : pdiV3( 0.0, 1.0, 0.0 );
	pdVec3 u = pdiNormalize( pdiCross( normal, axis ) );
	pdVec3 v = pdiCross( normal, u );
	for ( int d = 0; d < 8 + PD_MAX_REGION_POINTS && local->pointCount < PD_MAX_REGION_POINTS; ++d )
	{
		double angle = 0.1 + 0.25 * 3.14159265358979323846 * d;
		pdVec3 dir = d < 8 ? pdiAdd( pdiScale( u, cos( angle ) ), pdiScale( v, sin( angle ) ) ) : pdiV3( 0.0, 0.0, 0.0 );
		int k = pdiFarthestPoint( rf, pts, n, taken, dir, local );
		if ( k >= 0 && ( d >= 8 || !taken[k] ) )
		{
			taken[k] = true;
			local->points[local->pointCount++] = rf->f[pts[k]]->pointB;
		}
	}
	return true;
}

// Inserts local into out's list, deepest regions first; the list keeps at most
// PD_MAX_LOCAL_REGIONS.
static void pdiInsertByDepth( pdPenetrationResult* out, const pdLocalPenetration* local )
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
// points. index lists the features to use (at most PDI_MAX_PD_FEATURES).
static void pdiLocalFromFeatures( const pdMesh* meshA, const pdMesh* meshB, const pdContactFeature* features,
								 const int* index, int count, pdVec3 d, double tol, double scale,
								 pdPenetrationResult* out )
{
	out->localCount = 0;
	double depthTotal = pdiLength( d );
	if ( !( depthTotal > 0.0 ) || count <= 0 )
	{
		return;
	}
	pdiRegionFeatures rf;
	pdiRegionFeatures_Init( &rf, meshA, meshB, features, index, count, scale );
	int region[PDI_MAX_PD_FEATURES];
	pdVec3 sums[PDI_MAX_PD_FEATURES];
	int regions = pdiGroupRegions( &rf, region, sums );
	for ( int r = 0; r < regions; ++r )
	{
		pdVec3 n = pdiNormalize( sums[r] );
		double depth = pdiDot( d, n );
		if ( !( depth > fmax( 0.1 * tol, 1e-3 * depthTotal ) ) )
		{
			continue;
		}
		pdLocalPenetration local;
		memset( &local, 0, sizeof( local ) );
		local.normal = n;
		local.depth = depth;
		local.translation = pdiScale( n, depth );
		if ( pdiSpreadPoints( &rf, region, r, n, &local ) )
		{
			pdiInsertByDepth( out, &local );
		}
	}
}

// The features gathered at the answer reach a little beyond the tolerance: the answer keeps a
// small gap.
#define PDI_LOCAL_REACH 1.5

void pdiQuery_LocalPenetrations( pdiPdQuery* q, pdVec3 d, pdPenetrationResult* out )
{
	out->localCount = 0;
	if ( !( pdiLength( d ) > 0.0 ) )
	{
		return;
	}
	pdTransform poseA = pdiQuery_PoseA( q, d );
	int count = 0;
	const pdContactFeature* features = NULL;
	if ( pdiQuery_ContactFeatures( q, &poseA, PDI_LOCAL_REACH * q->tol, pdiNeg( d ), &count, &features ) < 0 ||
		 count <= 0 )
	{
		return;
	}
	if ( count > PDI_MAX_PD_FEATURES )
	{
		count = PDI_MAX_PD_FEATURES;
	}
	int index[PDI_MAX_PD_FEATURES];
	for ( int i = 0; i < count; ++i )
	{
		index[i] = i;
	}
	pdiLocalFromFeatures( q->sc.meshA, q->sc.meshB, features, index, count, d, q->tol, q->scale, out );
}

pdStatus pdiPlugin_ComputeLocalPenetrations( const pdMesh* meshA, const pdMesh* meshB,
											 const pdiPenetrationOptions* options, const pdContactFeature* features,
											 int count, pdPenetrationResult* ioResult )
{
	if ( ioResult == NULL || options == NULL || count < 0 || ( count > 0 && features == NULL ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	ioResult->localCount = 0;
	if ( !pdiIsValidMesh( meshA ) || !pdiIsValidMesh( meshB ) )
	{
		return PD_STATUS_INVALID_MESH;
	}
	if ( ioResult->state != PD_STATE_PENETRATING || !pdiIsFiniteVec( ioResult->translation ) )
	{
		return PD_STATUS_OK;
	}
	double scale = pdiPairScale( meshA, meshB );
	double tol = pdiPairTolerance( options, meshA, meshB );
	// The same features the query would gather: within the local reach, in the caller's order.
	int index[PDI_MAX_PD_FEATURES];
	int used = 0;
	for ( int i = 0; i < count && used < PDI_MAX_PD_FEATURES; ++i )
	{
		if ( fabs( features[i].distance ) <= PDI_LOCAL_REACH * tol )
		{
			index[used++] = i;
		}
	}
	pdiLocalFromFeatures( meshA, meshB, features, index, used, ioResult->translation, tol, scale, ioResult );
	return PD_STATUS_OK;
}
