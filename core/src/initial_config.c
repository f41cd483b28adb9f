// SPDX-License-Identifier: MIT
// Free configurations for PolyDepth (Sec. 5 of the paper): start candidates from every
// strategy, and turning a candidate into a verified free start. The static checks they use
// are in start_checks.c; the per-mesh data the strategies read (clearance points, inner
// balls) is made at mesh creation (clearance.c).
#include "initial_config.h"

#include "core.h"
#include "eigen.h"
#include "proximity.h"
#include "tri_distance.h"

#include <string.h>

// ---------------------------------------------------------------------------------------------
// Candidates

typedef struct pdiCandidateList
{
	pdiStartCandidate* items;
	int count;
	int capacity;
} pdiCandidateList;

// Random directions sampled for pockets when the probe at the bound collides (an even subset).
#define PDI_POCKET_DIRECTIONS 32

// Adds a candidate; a direction already among the first compareCount is not worth a second
// probe and is dropped.
static void pdiAddCandidateAfter( pdiCandidateList* list, pdVec3 x, unsigned strategy, bool direction, bool priority,
								 int compareCount )
{
	if ( list->count >= list->capacity || !pdiIsFiniteVec( x ) )
	{
		return;
	}
	if ( direction )
	{
		x = pdiNormalize( x );
		if ( pdiLengthSq( x ) < 0.25 )
		{
			return;
		}
		for ( int i = 0; i < compareCount; ++i )
		{
			const pdiStartCandidate* c = list->items + i;
			if ( c->direction && pdiDot( c->translation, x ) > 1.0 - 1e-6 )
			{
				return;
			}
		}
	}
	pdiStartCandidate* c = list->items + list->count++;
	c->translation = x;
	c->strategy = strategy;
	c->direction = direction;
	c->priority = priority;
	c->probeOnly = false;
}

static void pdiAddCandidate( pdiCandidateList* list, pdVec3 x, unsigned strategy, bool direction, bool priority )
{
	pdiAddCandidateAfter( list, x, strategy, direction, priority, list->count );
}

#define PDI_NORMAL_CLUSTERS 24
#define PDI_NORMAL_DIRECTIONS 8

static void pdiAddContactNormalCandidates( pdiStartContext* ctx, pdiCandidateList* list, const pdTrianglePair* pairs,
										  int pairCount )
{
	pdVec3 sums[PDI_NORMAL_CLUSTERS];
	int counts[PDI_NORMAL_CLUSTERS];
	int clusters = 0;
	const double cosCluster = 0.94; // about 20 degrees
	const pdMesh* meshA = ctx->meshA;
	const pdMesh* meshB = ctx->meshB;
	for ( int p = 0; p < pairCount; ++p )
	{
		pdVec3 dirs[4];
		int dirCount = 0;
		pdVec3 nB = pdiMulMV( &ctx->frameB.r, meshB->faceNormals[pairs[p].triangleB] );
		pdVec3 nA = pdiMulMV( &ctx->frameA.r, meshA->faceNormals[pairs[p].triangleA] );
		// A leaves along B's outward normal, or against its own; soups get both signs.
		if ( meshB->closed )
		{
			dirs[dirCount++] = meshB->outwardWinding ? nB : pdiNeg( nB );
		}
		else
		{
			dirs[dirCount++] = nB;
			dirs[dirCount++] = pdiNeg( nB );
		}
		if ( meshA->closed )
		{
			dirs[dirCount++] = meshA->outwardWinding ? pdiNeg( nA ) : nA;
		}
		else
		{
			dirs[dirCount++] = nA;
			dirs[dirCount++] = pdiNeg( nA );
		}
		for ( int d = 0; d < dirCount; ++d )
		{
			pdVec3 u = dirs[d];
			if ( !pdiIsFiniteVec( u ) || pdiLengthSq( u ) < 0.25 )
			{
				continue;
			}
			int found = -1;
			for ( int c = 0; c < clusters; ++c )
			{
				if ( pdiDot( pdiNormalize( sums[c] ), u ) > cosCluster )
				{
					found = c;
					break;
				}
			}
			if ( found >= 0 )
			{
				sums[found] = pdiAdd( sums[found], u );
				counts[found] += 1;
			}
			else if ( clusters < PDI_NORMAL_CLUSTERS )
			{
				sums[clusters] = u;
				counts[clusters] = 1;
				clusters += 1;
			}
		}
	}
	// The most supported directions first.
	for ( int taken = 0; taken < PDI_NORMAL_DIRECTIONS && taken < clusters; ++taken )
	{
		int best = -1;
		for ( int c = 0; c < clusters; ++c )
		{
			if ( counts[c] > 0 && ( best < 0 || counts[c] > counts[best] ) )
			{
				best = c;
			}
		}
		if ( best < 0 )
		{
			break;
		}
		pdiAddCandidate( list, sums[best], PD_START_CONTACT_NORMALS, true, taken < 4 );
		counts[best] = 0;
	}
}

static void pdiAddPrincipalAxisCandidates( pdiStartContext* ctx, pdiCandidateList* list, const pdTrianglePair* pairs,
										  int pairCount )
{
	if ( pairCount <= 0 )
	{
		return;
	}
	// Vertices of the intersecting triangles of both meshes, world frame.
	pdVec3 mean = pdiV3( 0.0, 0.0, 0.0 );
	double weight = 0.0;
	for ( int pass = 0; pass < 2; ++pass )
	{
		double cov[3][3] = { { 0 } };
		for ( int p = 0; p < pairCount; ++p )
		{
			pdVec3 tri[6];
			pdiMesh_TriangleVertices( ctx->meshA, pairs[p].triangleA, tri );
			pdiMesh_TriangleVertices( ctx->meshB, pairs[p].triangleB, tri + 3 );
			for ( int k = 0; k < 6; ++k )
			{
				pdVec3 w = k < 3 ? pdiFrameApply( &ctx->frameA, tri[k] ) : pdiFrameApply( &ctx->frameB, tri[k] );
				if ( pass == 0 )
				{
					mean = pdiAdd( mean, w );
					weight += 1.0;
				}
				else
				{
					pdVec3 d = pdiSub( w, mean );
					double dv[3] = { d.x, d.y, d.z };
					for ( int i = 0; i < 3; ++i )
					{
						for ( int j = 0; j < 3; ++j )
						{
							cov[i][j] += dv[i] * dv[j];
						}
					}
				}
			}
		}
		if ( pass == 0 )
		{
			mean = pdiScale( mean, 1.0 / weight );
			continue;
		}
		// Entries strictly below 1e-300 are negligible; no relative test.
		double tiny = nextafter( 1e-300, 0.0 );
		pdiEigenDef eigenDef = { .stopFloor = tiny, .skipFloor = tiny, .skipRelative = 0.0 };
		double v[3][3], w[3];
		pdiSymmetricEigen( cov, &eigenDef, v, w );
		// The thinnest axis of the overlap first: pushing across it is usually shortest.
		int order[3] = { 0, 1, 2 };
		for ( int i = 0; i < 3; ++i )
		{
			for ( int j = i + 1; j < 3; ++j )
			{
				if ( w[order[j]] < w[order[i]] )
				{
					int t = order[i];
					order[i] = order[j];
					order[j] = t;
				}
			}
		}
		for ( int i = 0; i < 3; ++i )
		{
			int c = order[i];
			pdVec3 axis = pdiV3( v[0][c], v[1][c], v[2][c] );
			pdiAddCandidate( list, axis, PD_START_PRINCIPAL_AXES, true, i == 0 );
			pdiAddCandidate( list, pdiNeg( axis ), PD_START_PRINCIPAL_AXES, true, i == 0 );
		}
	}
}

static uint32_t pdiNextRandom( uint32_t* state )
{
	// xorshift32: deterministic, no global state.
	uint32_t x = *state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

static void pdiAddClearanceCandidates( pdiStartContext* ctx, pdiCandidateList* list )
{
	pdVec3 cA = pdiFrameApply( &ctx->frameA, ctx->meshA->centroid );
	pdVec3 cB = pdiFrameApply( &ctx->frameB, ctx->meshB->centroid );
	// A's centroid on a clear point of B, and B's centroid on a clear point of A (B9: with the
	// full poses of both meshes).
	for ( int i = 0; i < ctx->meshB->clearanceCount; ++i )
	{
		pdVec3 p = pdiFrameApply( &ctx->frameB, ctx->meshB->clearancePoints[i] );
		pdiAddCandidate( list, pdiSub( p, cA ), PD_START_CLEARANCE, false, false );
	}
	for ( int i = 0; i < ctx->meshA->clearanceCount; ++i )
	{
		pdVec3 p = pdiFrameApply( &ctx->frameA, ctx->meshA->clearancePoints[i] );
		pdiAddCandidate( list, pdiSub( cB, p ), PD_START_CLEARANCE, false, false );
	}
}

int pdiProposeStarts( pdiStartContext* ctx, unsigned strategies, const pdPenetrationCache* cache,
					 const pdTrianglePair* pairs, int pairCount, int randomDirections, unsigned seed,
					 const pdiStartCandidate** outCandidates )
{
	*outCandidates = NULL;
	if ( randomDirections < 0 )
	{
		randomDirections = 0;
	}
	int capacity = 3 + PDI_NORMAL_DIRECTIONS + 6 + 1 + 2 * PDI_MAX_CLEARANCE_POINTS + randomDirections + 8;
	if ( !pdiBuffer_Reserve( &ctx->ws->pdiStarts, (size_t)capacity * sizeof( pdiStartCandidate ), false ) )
	{
		return 0;
	}
	pdiCandidateList list;
	list.items = ctx->ws->pdiStarts.data;
	list.count = 0;
	list.capacity = capacity;

	if ( ( strategies & PD_START_COHERENCE ) && cache != NULL )
	{
		int count = cache->count < 0 ? 0 : ( cache->count > 3 ? 3 : cache->count );
		// Most recent first.
		for ( int k = 0; k < count; ++k )
		{
			int slot = ( ( cache->next - 1 - k ) % 3 + 3 ) % 3;
			pdVec3 world = pdiFrameApply( &ctx->frameB, cache->configurations[slot] );
			pdiAddCandidate( &list, pdiSub( world, ctx->frameA.p ), PD_START_COHERENCE, false, true );
		}
	}
	if ( ( strategies & PD_START_CONTACT_NORMALS ) && pairs != NULL )
	{
		pdiAddContactNormalCandidates( ctx, &list, pairs, pairCount );
	}
	if ( ( strategies & PD_START_PRINCIPAL_AXES ) && pairs != NULL )
	{
		pdiAddPrincipalAxisCandidates( ctx, &list, pairs, pairCount );
	}
	if ( strategies & PD_START_CENTROID )
	{
		pdVec3 cA = pdiFrameApply( &ctx->frameA, ctx->meshA->centroid );
		pdVec3 cB = pdiFrameApply( &ctx->frameB, ctx->meshB->centroid );
		pdVec3 d = pdiSub( cA, cB );
		double scale = fmin( ctx->meshA->diagonal, ctx->meshB->diagonal );
		if ( pdiLength( d ) <= 1e-9 * scale )
		{
			d = pdiV3( 1.0, 0.0, 0.0 );
		}
		pdiAddCandidate( &list, d, PD_START_CENTROID, true, true );
	}
	if ( strategies & PD_START_CLEARANCE )
	{
		pdiAddClearanceCandidates( ctx, &list );
	}
	if ( ( strategies & PD_START_RANDOM ) && randomDirections > 0 )
	{
		// A Fibonacci sphere (even coverage) turned by a seeded random rotation.
		uint32_t state = seed * 2654435761u + 0x9e3779b9u;
		if ( state == 0 )
		{
			state = 1;
		}
		pdQuat q;
		double len2 = 0.0;
		for ( int attempt = 0; attempt < 16 && len2 < 1e-6; ++attempt )
		{
			q.w = (double)pdiNextRandom( &state ) / 4294967295.0 - 0.5;
			q.x = (double)pdiNextRandom( &state ) / 4294967295.0 - 0.5;
			q.y = (double)pdiNextRandom( &state ) / 4294967295.0 - 0.5;
			q.z = (double)pdiNextRandom( &state ) / 4294967295.0 - 0.5;
			len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
		}
		pdiMat33 r;
		if ( len2 < 1e-6 )
		{
			r = pdiMat33FromQuat( ( pdQuat ){ 1.0, 0.0, 0.0, 0.0 } );
		}
		else
		{
			double inv = 1.0 / sqrt( len2 );
			q.w *= inv;
			q.x *= inv;
			q.y *= inv;
			q.z *= inv;
			r = pdiMat33FromQuat( q );
		}
		const double golden = 2.399963229728653; // pi (3 - sqrt 5)
		// In B's frame, so that moving both meshes rigidly moves the answer with them.
		// A Fibonacci set has no two equal directions: each is compared with the candidates
		// proposed before the set only (a quadratic scan over 512 would cost more than probing).
		int before = list.count;
		// An even subset of PDI_POCKET_DIRECTIONS is sampled for pockets; the rest get one probe at
		// the bound each, which is what finds a basin no other start reaches, for a fraction of
		// the cost (the pd-frontier page measures both).
		int pocketStride = randomDirections > PDI_POCKET_DIRECTIONS ? randomDirections / PDI_POCKET_DIRECTIONS : 1;
		for ( int i = 0; i < randomDirections; ++i )
		{
			double z = 1.0 - ( 2.0 * i + 1.0 ) / randomDirections;
			double rad = sqrt( fmax( 0.0, 1.0 - z * z ) );
			double phi = golden * i;
			pdVec3 u = pdiV3( rad * cos( phi ), rad * sin( phi ), z );
			int added = list.count;
			pdVec3 direction = pdiMulMV( &ctx->frameB.r, pdiMulMV( &r, u ) );
			pdiAddCandidateAfter( &list, direction, PD_START_RANDOM, true, false, before );
			if ( list.count > added )
			{
				list.items[added].probeOnly = i % pocketStride != 0;
			}
		}
	}
	*outCandidates = list.items;
	return list.count;
}

// ---------------------------------------------------------------------------------------------
// Free starts

#define PDI_LINE_SAMPLES 5
// Probes shorter than this many tolerances get no pocket samples.
#define PDI_POCKET_MIN_PROBE 8.0

// The free sample of the segment from o to start closest to o (start itself if none).
static pdVec3 pdiRefineAlongLine( pdiStartContext* ctx, pdVec3 start )
{
	for ( int k = 1; k < PDI_LINE_SAMPLES; ++k )
	{
		pdVec3 x = pdiScale( start, (double)k / PDI_LINE_SAMPLES );
		if ( !pdiStart_Collides( ctx, x ) )
		{
			return x;
		}
	}
	return start;
}

double pdiStart_FirstPush( const pdiStartContext* ctx )
{
	return 2.0 * ctx->tolerance;
}

double pdiStart_Limit( const pdiStartContext* ctx, double bound )
{
	// A start must beat the bound by a margin, or its contact cannot improve on the best.
	return bound < INFINITY ? bound - fmax( ctx->tolerance, 1e-3 * bound ) : bound;
}

bool pdiStart_MakeFree( pdiStartContext* ctx, const pdiStartCandidate* candidate, double bound, bool lineRefinement,
					   pdVec3* outStart )
{
	return pdiStart_MakeFreeKnowing( ctx, candidate, bound, lineRefinement, PDI_START_GAP_UNKNOWN, outStart );
}

bool pdiStart_MakeFreeKnowing( pdiStartContext* ctx, const pdiStartCandidate* candidate, double bound,
							  bool lineRefinement, pdiStartGap atPoint, pdVec3* outStart )
{
	*outStart = pdiV3( 0.0, 0.0, 0.0 );
	pdVec3 x = candidate->translation;
	double len = pdiLength( x );
	if ( !( len > 0.0 ) || !pdiIsFiniteVec( x ) )
	{
		return false;
	}
	pdVec3 u = pdiScale( x, 1.0 / len );
	double limit = pdiStart_Limit( ctx, bound );
	if ( !( limit > 0.0 ) )
	{
		return false;
	}
	bool found = false;
	pdVec3 start = x;

	if ( !candidate->direction && len < limit &&
		 ( atPoint == PDI_START_GAP_UNKNOWN ? !pdiStart_Collides( ctx, x ) : atPoint == PDI_START_GAP_FREE ) )
	{
		found = true;
	}
	if ( !found && !candidate->direction && candidate->strategy == PD_START_COHERENCE )
	{
		// The paper's push: march outward from the cached configuration in small steps. A
		// resting pair's cached contact is a fraction of a millimetre off (half of them collide
		// the next step): a few tolerances out usually clears it and keeps the out-projection's
		// sweep short; then steps of 5% of the size, for a pair that sank far since.
		double step = 0.05 * fmin( ctx->meshA->diagonal, ctx->meshB->diagonal );
		const double pushes[] = { pdiStart_FirstPush( ctx ), 8.0 * ctx->tolerance, 32.0 * ctx->tolerance,
								  step, 2.0 * step, 3.0 * step };
		for ( int k = 0; k < 6 && !found; ++k )
		{
			if ( k < 3 && !( pushes[k] < step ) )
			{
				continue;
			}
			pdVec3 y = pdiMulAdd( x, pushes[k], u );
			if ( pdiLength( y ) < limit && !pdiStart_Collides( ctx, y ) )
			{
				start = y;
				found = true;
			}
		}
	}
	if ( !found )
	{
		// Probe along the direction: only a free point short of the bound can lead to a
		// shorter contact along this ray.
		double t = pdiStart_SeparationDistance( ctx, u );
		bool byConstruction = !( limit < t );
		if ( limit < t )
		{
			t = limit;
		}
		pdVec3 y = pdiScale( u, t );
		if ( !pdiStart_Collides( ctx, y ) )
		{
			start = y;
			found = true;
		}
		else if ( byConstruction )
		{
			return false; // cannot happen for enclosing spheres; the checker is conservative
		}
		else
		{
			// A pocket of free space nearer to o along the ray (cups, grates, tori).
			// Probe-only directions get pocket samples too while the balls settle most checks:
			// those samples are then nearly free, and the pockets are where the misses are.
			// A probe within a few tolerances of o has no pockets worth sampling: a free region
			// nearer to o than that would be a PD under the probe's length, inside a shell of
			// colliding configurations a fraction of a tolerance thick. The plugin's resting pairs
			// (bounds of a few tolerances) made 5 to 10 checks per direction here.
			bool sampleAll = pdiStart_BallsSettleChecks( ctx );
			int samples = t < PDI_POCKET_MIN_PROBE * ctx->tolerance ? 1
						  : candidate->probeOnly && !sampleAll	 ? 1
						  : candidate->priority					 ? 2 * PDI_LINE_SAMPLES
																 : PDI_LINE_SAMPLES;
			for ( int k = 1; k < samples; ++k )
			{
				pdVec3 z = pdiScale( y, (double)k / samples );
				if ( !pdiStart_Collides( ctx, z ) )
				{
					*outStart = z;
					return true;
				}
			}
			return false;
		}
	}
	if ( lineRefinement )
	{
		start = pdiRefineAlongLine( ctx, start );
	}
	*outStart = start;
	return true;
}
