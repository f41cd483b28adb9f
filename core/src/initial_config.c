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

typedef struct pdCandidateList
{
	pdStartCandidate* items;
	int count;
	int capacity;
} pdCandidateList;

// Random directions sampled for pockets when the probe at the bound collides (an even subset).
#define PD_POCKET_DIRECTIONS 32

// Adds a candidate; a direction already among the first compareCount is not worth a second
// probe and is dropped.
static void pdAddCandidateAfter( pdCandidateList* list, pdVec3 x, unsigned strategy, bool direction, bool priority,
								 int compareCount )
{
	if ( list->count >= list->capacity || !pdIsFiniteVec( x ) )
	{
		return;
	}
	if ( direction )
	{
		x = pdNormalize( x );
		if ( pdLengthSq( x ) < 0.25 )
		{
			return;
		}
		for ( int i = 0; i < compareCount; ++i )
		{
			const pdStartCandidate* c = list->items + i;
			if ( c->direction && pdDot( c->translation, x ) > 1.0 - 1e-6 )
			{
				return;
			}
		}
	}
	pdStartCandidate* c = list->items + list->count++;
	c->translation = x;
	c->strategy = strategy;
	c->direction = direction;
	c->priority = priority;
	c->probeOnly = false;
}

static void pdAddCandidate( pdCandidateList* list, pdVec3 x, unsigned strategy, bool direction, bool priority )
{
	pdAddCandidateAfter( list, x, strategy, direction, priority, list->count );
}

#define PD_NORMAL_CLUSTERS 24
#define PD_NORMAL_DIRECTIONS 8

static void pdAddContactNormalCandidates( pdStartContext* ctx, pdCandidateList* list, const pdTrianglePair* pairs,
										  int pairCount )
{
	pdVec3 sums[PD_NORMAL_CLUSTERS];
	int counts[PD_NORMAL_CLUSTERS];
	int clusters = 0;
	const double cosCluster = 0.94; // about 20 degrees
	const pdMesh* meshA = ctx->meshA;
	const pdMesh* meshB = ctx->meshB;
	for ( int p = 0; p < pairCount; ++p )
	{
		pdVec3 dirs[4];
		int dirCount = 0;
		pdVec3 nB = pdMulMV( &ctx->frameB.r, meshB->faceNormals[pairs[p].triangleB] );
		pdVec3 nA = pdMulMV( &ctx->frameA.r, meshA->faceNormals[pairs[p].triangleA] );
		// A leaves along B's outward normal, or against its own; soups get both signs.
		if ( meshB->closed )
		{
			dirs[dirCount++] = meshB->outwardWinding ? nB : pdNeg( nB );
		}
		else
		{
			dirs[dirCount++] = nB;
			dirs[dirCount++] = pdNeg( nB );
		}
		if ( meshA->closed )
		{
			dirs[dirCount++] = meshA->outwardWinding ? pdNeg( nA ) : nA;
		}
		else
		{
			dirs[dirCount++] = nA;
			dirs[dirCount++] = pdNeg( nA );
		}
		for ( int d = 0; d < dirCount; ++d )
		{
			pdVec3 u = dirs[d];
			if ( !pdIsFiniteVec( u ) || pdLengthSq( u ) < 0.25 )
			{
				continue;
			}
			int found = -1;
			for ( int c = 0; c < clusters; ++c )
			{
				if ( pdDot( pdNormalize( sums[c] ), u ) > cosCluster )
				{
					found = c;
					break;
				}
			}
			if ( found >= 0 )
			{
				sums[found] = pdAdd( sums[found], u );
				counts[found] += 1;
			}
			else if ( clusters < PD_NORMAL_CLUSTERS )
			{
				sums[clusters] = u;
				counts[clusters] = 1;
				clusters += 1;
			}
		}
	}
	// The most supported directions first.
	for ( int taken = 0; taken < PD_NORMAL_DIRECTIONS && taken < clusters; ++taken )
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
		pdAddCandidate( list, sums[best], PD_START_CONTACT_NORMALS, true, taken < 4 );
		counts[best] = 0;
	}
}

static void pdAddPrincipalAxisCandidates( pdStartContext* ctx, pdCandidateList* list, const pdTrianglePair* pairs,
										  int pairCount )
{
	if ( pairCount <= 0 )
	{
		return;
	}
	// Vertices of the intersecting triangles of both meshes, world frame.
	pdVec3 mean = pdV3( 0.0, 0.0, 0.0 );
	double weight = 0.0;
	for ( int pass = 0; pass < 2; ++pass )
	{
		double cov[3][3] = { { 0 } };
		for ( int p = 0; p < pairCount; ++p )
		{
			pdVec3 tri[6];
			pdMesh_TriangleVertices( ctx->meshA, pairs[p].triangleA, tri );
			pdMesh_TriangleVertices( ctx->meshB, pairs[p].triangleB, tri + 3 );
			for ( int k = 0; k < 6; ++k )
			{
				pdVec3 w = k < 3 ? pdFrameApply( &ctx->frameA, tri[k] ) : pdFrameApply( &ctx->frameB, tri[k] );
				if ( pass == 0 )
				{
					mean = pdAdd( mean, w );
					weight += 1.0;
				}
				else
				{
					pdVec3 d = pdSub( w, mean );
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
			mean = pdScale( mean, 1.0 / weight );
			continue;
		}
		// Entries strictly below 1e-300 are negligible; no relative test.
		double tiny = nextafter( 1e-300, 0.0 );
		pdEigenDef eigenDef = { .stopFloor = tiny, .skipFloor = tiny, .skipRelative = 0.0 };
		double v[3][3], w[3];
		pdSymmetricEigen( cov, &eigenDef, v, w );
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
			pdVec3 axis = pdV3( v[0][c], v[1][c], v[2][c] );
			pdAddCandidate( list, axis, PD_START_PRINCIPAL_AXES, true, i == 0 );
			pdAddCandidate( list, pdNeg( axis ), PD_START_PRINCIPAL_AXES, true, i == 0 );
		}
	}
}

static uint32_t pdNextRandom( uint32_t* state )
{
	// xorshift32: deterministic, no global state.
	uint32_t x = *state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

static void pdAddClearanceCandidates( pdStartContext* ctx, pdCandidateList* list )
{
	pdVec3 cA = pdFrameApply( &ctx->frameA, ctx->meshA->centroid );
	pdVec3 cB = pdFrameApply( &ctx->frameB, ctx->meshB->centroid );
	// A's centroid on a clear point of B, and B's centroid on a clear point of A (B9: with the
	// full poses of both meshes).
	for ( int i = 0; i < ctx->meshB->clearanceCount; ++i )
	{
		pdVec3 p = pdFrameApply( &ctx->frameB, ctx->meshB->clearancePoints[i] );
		pdAddCandidate( list, pdSub( p, cA ), PD_START_CLEARANCE, false, false );
	}
	for ( int i = 0; i < ctx->meshA->clearanceCount; ++i )
	{
		pdVec3 p = pdFrameApply( &ctx->frameA, ctx->meshA->clearancePoints[i] );
		pdAddCandidate( list, pdSub( cB, p ), PD_START_CLEARANCE, false, false );
	}
}

int pdProposeStarts( pdStartContext* ctx, unsigned strategies, const pdPenetrationCache* cache,
					 const pdTrianglePair* pairs, int pairCount, int randomDirections, unsigned seed,
					 const pdStartCandidate** outCandidates )
{
	*outCandidates = NULL;
	if ( randomDirections < 0 )
	{
		randomDirections = 0;
	}
	int capacity = 3 + PD_NORMAL_DIRECTIONS + 6 + 1 + 2 * PD_MAX_CLEARANCE_POINTS + randomDirections + 8;
	if ( !pdBuffer_Reserve( &ctx->ws->pdStarts, (size_t)capacity * sizeof( pdStartCandidate ), false ) )
	{
		return 0;
	}
	pdCandidateList list;
	list.items = ctx->ws->pdStarts.data;
	list.count = 0;
	list.capacity = capacity;

	if ( ( strategies & PD_START_COHERENCE ) && cache != NULL )
	{
		int count = cache->count < 0 ? 0 : ( cache->count > 3 ? 3 : cache->count );
		// Most recent first.
		for ( int k = 0; k < count; ++k )
		{
			int slot = ( ( cache->next - 1 - k ) % 3 + 3 ) % 3;
			pdVec3 world = pdFrameApply( &ctx->frameB, cache->configurations[slot] );
			pdAddCandidate( &list, pdSub( world, ctx->frameA.p ), PD_START_COHERENCE, false, true );
		}
	}
	if ( ( strategies & PD_START_CONTACT_NORMALS ) && pairs != NULL )
	{
		pdAddContactNormalCandidates( ctx, &list, pairs, pairCount );
	}
	if ( ( strategies & PD_START_PRINCIPAL_AXES ) && pairs != NULL )
	{
		pdAddPrincipalAxisCandidates( ctx, &list, pairs, pairCount );
	}
	if ( strategies & PD_START_CENTROID )
	{
		pdVec3 cA = pdFrameApply( &ctx->frameA, ctx->meshA->centroid );
		pdVec3 cB = pdFrameApply( &ctx->frameB, ctx->meshB->centroid );
		pdVec3 d = pdSub( cA, cB );
		double scale = fmin( ctx->meshA->diagonal, ctx->meshB->diagonal );
		if ( pdLength( d ) <= 1e-9 * scale )
		{
			d = pdV3( 1.0, 0.0, 0.0 );
		}
		pdAddCandidate( &list, d, PD_START_CENTROID, true, true );
	}
	if ( strategies & PD_START_CLEARANCE )
	{
		pdAddClearanceCandidates( ctx, &list );
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
			q.w = (double)pdNextRandom( &state ) / 4294967295.0 - 0.5;
			q.x = (double)pdNextRandom( &state ) / 4294967295.0 - 0.5;
			q.y = (double)pdNextRandom( &state ) / 4294967295.0 - 0.5;
			q.z = (double)pdNextRandom( &state ) / 4294967295.0 - 0.5;
			len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
		}
		pdMat33 r;
		if ( len2 < 1e-6 )
		{
			r = pdMat33FromQuat( ( pdQuat ){ 1.0, 0.0, 0.0, 0.0 } );
		}
		else
		{
			double inv = 1.0 / sqrt( len2 );
			q.w *= inv;
			q.x *= inv;
			q.y *= inv;
			q.z *= inv;
			r = pdMat33FromQuat( q );
		}
		const double golden = 2.399963229728653; // pi (3 - sqrt 5)
		// In B's frame, so that moving both meshes rigidly moves the answer with them.
		// A Fibonacci set has no two equal directions: each is compared with the candidates
		// proposed before the set only (a quadratic scan over 512 would cost more than probing).
		int before = list.count;
		// An even subset of PD_POCKET_DIRECTIONS is sampled for pockets; the rest get one probe at
		// the bound each, which is what finds a basin no other start reaches, for a fraction of
		// the cost (bench/results/pd-random.md).
		int pocketStride = randomDirections > PD_POCKET_DIRECTIONS ? randomDirections / PD_POCKET_DIRECTIONS : 1;
		for ( int i = 0; i < randomDirections; ++i )
		{
			double z = 1.0 - ( 2.0 * i + 1.0 ) / randomDirections;
			double rad = sqrt( fmax( 0.0, 1.0 - z * z ) );
			double phi = golden * i;
			pdVec3 u = pdV3( rad * cos( phi ), rad * sin( phi ), z );
			int added = list.count;
			pdVec3 direction = pdMulMV( &ctx->frameB.r, pdMulMV( &r, u ) );
			pdAddCandidateAfter( &list, direction, PD_START_RANDOM, true, false, before );
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

#define PD_LINE_SAMPLES 5
// Probes shorter than this many tolerances get no pocket samples.
#define PD_POCKET_MIN_PROBE 8.0

// The free sample of the segment from o to start closest to o (start itself if none).
static pdVec3 pdRefineAlongLine( pdStartContext* ctx, pdVec3 start )
{
	for ( int k = 1; k < PD_LINE_SAMPLES; ++k )
	{
		pdVec3 x = pdScale( start, (double)k / PD_LINE_SAMPLES );
		if ( !pdStart_Collides( ctx, x ) )
		{
			return x;
		}
	}
	return start;
}

double pdStart_FirstPush( const pdStartContext* ctx )
{
	return 2.0 * ctx->tolerance;
}

double pdStart_Limit( const pdStartContext* ctx, double bound )
{
	// A start must beat the bound by a margin, or its contact cannot improve on the best.
	return bound < INFINITY ? bound - fmax( ctx->tolerance, 1e-3 * bound ) : bound;
}

bool pdStart_MakeFree( pdStartContext* ctx, const pdStartCandidate* candidate, double bound, bool lineRefinement,
					   pdVec3* outStart )
{
	return pdStart_MakeFreeKnowing( ctx, candidate, bound, lineRefinement, PD_START_GAP_UNKNOWN, outStart );
}

bool pdStart_MakeFreeKnowing( pdStartContext* ctx, const pdStartCandidate* candidate, double bound,
							  bool lineRefinement, pdStartGap atPoint, pdVec3* outStart )
{
	*outStart = pdV3( 0.0, 0.0, 0.0 );
	pdVec3 x = candidate->translation;
	double len = pdLength( x );
	if ( !( len > 0.0 ) || !pdIsFiniteVec( x ) )
	{
		return false;
	}
	pdVec3 u = pdScale( x, 1.0 / len );
	double limit = pdStart_Limit( ctx, bound );
	if ( !( limit > 0.0 ) )
	{
		return false;
	}
	bool found = false;
	pdVec3 start = x;

	if ( !candidate->direction && len < limit &&
		 ( atPoint == PD_START_GAP_UNKNOWN ? !pdStart_Collides( ctx, x ) : atPoint == PD_START_GAP_FREE ) )
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
		const double pushes[] = { pdStart_FirstPush( ctx ), 8.0 * ctx->tolerance, 32.0 * ctx->tolerance,
								  step, 2.0 * step, 3.0 * step };
		for ( int k = 0; k < 6 && !found; ++k )
		{
			if ( k < 3 && !( pushes[k] < step ) )
			{
				continue;
			}
			pdVec3 y = pdMulAdd( x, pushes[k], u );
			if ( pdLength( y ) < limit && !pdStart_Collides( ctx, y ) )
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
		double t = pdStart_SeparationDistance( ctx, u );
		bool byConstruction = !( limit < t );
		if ( limit < t )
		{
			t = limit;
		}
		pdVec3 y = pdScale( u, t );
		if ( !pdStart_Collides( ctx, y ) )
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
			bool sampleAll = pdStart_BallsSettleChecks( ctx );
			int samples = t < PD_POCKET_MIN_PROBE * ctx->tolerance ? 1
						  : candidate->probeOnly && !sampleAll	 ? 1
						  : candidate->priority					 ? 2 * PD_LINE_SAMPLES
																 : PD_LINE_SAMPLES;
			for ( int k = 1; k < samples; ++k )
			{
				pdVec3 z = pdScale( y, (double)k / samples );
				if ( !pdStart_Collides( ctx, z ) )
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
		start = pdRefineAlongLine( ctx, start );
	}
	*outStart = start;
	return true;
}
