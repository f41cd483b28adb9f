// SPDX-License-Identifier: MIT
// Static checks of the start search (Sec. 5 of the paper): whether A translated by x collides
// with B, and the gap when it does not. Cheap proofs come first (a recently intersecting
// triangle pair, overlapping inner balls, vertex sample boxes for containment), then one
// bounded collision or distance query.
#include "initial_config.h"

#include "core.h"
#include "kernels.h"
#include "proximity.h"
#include "tri_distance.h"

#define PDI_SAMPLE_VERTICES 512

// Box of (a strided sample of) the mesh's vertices rotated by r.
static void pdiSampleBox( const pdMesh* mesh, const pdiMat33* r, bool transpose, pdVec3* outLo, pdVec3* outHi )
{
	int n = mesh->vertexCount;
	int stride = n > PDI_SAMPLE_VERTICES ? n / PDI_SAMPLE_VERTICES : 1;
	pdVec3 lo = pdiV3( INFINITY, INFINITY, INFINITY ), hi = pdiV3( -INFINITY, -INFINITY, -INFINITY );
	for ( int i = 0; i < n; i += stride )
	{
		pdVec3 w = transpose ? pdiMulMTV( r, mesh->vertices[i] ) : pdiMulMV( r, mesh->vertices[i] );
		lo = pdiMin3( lo, w );
		hi = pdiMax3( hi, w );
	}
	*outLo = lo;
	*outHi = hi;
}

static void pdiStart_PrepareSamples( pdiStartContext* ctx )
{
	if ( ctx->sampleBoxesReady )
	{
		return;
	}
	pdiFrame rel = pdiRelativeFrame( &ctx->frameA, &ctx->frameB );
	pdiSampleBox( ctx->meshA, &rel.r, false, &ctx->sampleLoA, &ctx->sampleHiA );
	pdiSampleBox( ctx->meshB, &rel.r, true, &ctx->sampleLoB, &ctx->sampleHiB );
	ctx->sampleBoxesReady = true;
}

// False only when the sample box shifted by offset pokes out of [lo, hi] by more than rounding.
static bool pdiStart_BoxInside( pdVec3 sLo, pdVec3 sHi, pdVec3 offset, pdVec3 lo, pdVec3 hi, double diagonal )
{
	double pad = 1e-9 * ( diagonal + pdiLength( offset ) );
	return sLo.x + offset.x >= lo.x - pad && sLo.y + offset.y >= lo.y - pad && sLo.z + offset.z >= lo.z - pad &&
		   sHi.x + offset.x <= hi.x + pad && sHi.y + offset.y <= hi.y + pad && sHi.z + offset.z <= hi.z + pad;
}

// A recent intersecting pair that still intersects proves the collision (the same exact pair
// test as pdCollide's leaves). The pair that proved the last hit goes first, then the others
// newest first: nearby checks mostly hit on the same pair, and a miss costs an exact test.
static bool pdiStart_CachedHit( pdiStartContext* ctx, const pdiFrame* rel )
{
	const pdMesh* meshA = ctx->meshA;
	const pdMesh* meshB = ctx->meshB;
	int cached = ctx->hitPairCount < 0 ? 0 : ( ctx->hitPairCount > 8 ? 8 : ctx->hitPairCount );
	int last = ( ctx->hitPairLast % 8 + 8 ) % 8;
	int newest = ( ( ctx->hitPairNext - 1 ) % 8 + 8 ) % 8;
	for ( int k = -1; k < cached; ++k )
	{
		// k = -1: the last hit's slot; then the ring from the newest entry back, skipping it.
		int slot = k < 0 ? last : ( ( newest - k ) % 8 + 8 ) % 8;
		if ( ( k < 0 && last >= cached ) || ( k >= 0 && slot == last ) )
		{
			continue;
		}
		int ta = ctx->hitPairs[slot][0], tb = ctx->hitPairs[slot][1];
		if ( ta < 0 || ta >= meshA->triangleCount || tb < 0 || tb >= meshB->triangleCount )
		{
			continue;
		}
		pdVec3 va[3], vb[3];
		pdiMesh_TriangleVertices( meshA, ta, va );
		pdiMesh_TriangleVertices( meshB, tb, vb );
		va[0] = pdiFrameApply( rel, va[0] );
		va[1] = pdiFrameApply( rel, va[1] );
		va[2] = pdiFrameApply( rel, va[2] );
		if ( pdiTrianglesIntersect( va, vb ) )
		{
			ctx->hitPairLast = slot;
			return true;
		}
	}
	return false;
}

static void pdiStart_RememberHit( pdiStartContext* ctx, int ta, int tb )
{
	int slot = ( ctx->hitPairNext % 8 + 8 ) % 8;
	ctx->hitPairs[slot][0] = ta;
	ctx->hitPairs[slot][1] = tb;
	ctx->hitPairNext = ( slot + 1 ) % 8;
	if ( ctx->hitPairCount < 8 )
	{
		ctx->hitPairCount += 1;
	}
}

// With the surfaces apart: true when one solid lies inside the other (containment rule only).
// The same one-vertex-per-mesh test as pdCollide, each side only when its box allows it.
static bool pdiStart_Contained( pdiStartContext* ctx, const pdiFrame* rel )
{
	if ( !ctx->containment )
	{
		return false;
	}
	const pdMesh* meshA = ctx->meshA;
	const pdMesh* meshB = ctx->meshB;
	pdiStart_PrepareSamples( ctx );
	if ( meshB->closed && pdiStart_BoxInside( ctx->sampleLoA, ctx->sampleHiA, rel->p, meshB->boundsMin, meshB->boundsMax,
											 meshB->diagonal ) )
	{
		pdVec3 p = pdiFrameApply( rel, meshA->vertices[meshA->triangles[0][0]] );
		if ( pdiMesh_ContainsPoint( meshB, p, ctx->ws ) )
		{
			return true;
		}
	}
	pdVec3 offsetB = pdiMulMTV( &rel->r, pdiNeg( rel->p ) ); // B's origin in A's frame
	if ( meshA->closed && pdiStart_BoxInside( ctx->sampleLoB, ctx->sampleHiB, offsetB, meshA->boundsMin,
											 meshA->boundsMax, meshA->diagonal ) )
	{
		pdVec3 p = pdiMulMTV( &rel->r, pdiSub( meshB->vertices[meshB->triangles[0][0]], rel->p ) );
		if ( pdiMesh_ContainsPoint( meshA, p, ctx->ws ) )
		{
			return true;
		}
	}
	return false;
}

static pdiFrame pdiStart_Relative( const pdiStartContext* ctx, pdVec3 x )
{
	pdiFrame frameA = ctx->frameA;
	frameA.p = pdiAdd( ctx->frameA.p, x );
	return pdiRelativeFrame( &frameA, &ctx->frameB );
}

// The query's poses with A translated by x.
static void pdiStart_Poses( const pdiStartContext* ctx, pdVec3 x, pdTransform* outA, pdTransform* outB )
{
	outA->q = ctx->rotationA;
	outA->p = pdiAdd( ctx->frameA.p, x );
	outB->q = ctx->rotationB;
	outB->p = ctx->frameB.p;
}

bool pdiStart_BallsSettleChecks( const pdiStartContext* ctx )
{
	return ctx->ballTests >= 16 && 4 * ctx->ballHits >= 3 * ctx->ballTests;
}

bool pdiStart_Collides( pdiStartContext* ctx, pdVec3 x )
{
	pdTransform poseA, poseB;
	pdiStart_Poses( ctx, x, &poseA, &poseB );
	pdiFrame rel = pdiStart_Relative( ctx, x );
	ctx->collideCount += 1;
	if ( pdiStart_CachedHit( ctx, &rel ) || pdiStart_BallsOverlap( ctx, &rel ) )
	{
		return true;
	}

	pdCollideDef def = pdiCollideDefaults();
	def.reportAllPairs = false;
	// Containment is decided here, after a cheap proof that it is impossible.
	def.checkContainment = false;
	pdCollideResult result;
	pdStatus status = pdiCollide( ctx->meshA, &poseA, ctx->meshB, &poseB, &def, ctx->ws, &result );
	ctx->nodeVisits += result.nodeVisits;
	if ( status < 0 )
	{
		return true;
	}
	if ( result.colliding && result.pairCount > 0 && result.pairs != NULL )
	{
		pdiStart_RememberHit( ctx, result.pairs[0].triangleA, result.pairs[0].triangleB );
	}
	if ( result.colliding || status == PD_STATUS_TRAVERSAL_LIMIT )
	{
		return true;
	}
	return pdiStart_Contained( ctx, &rel );
}

bool pdiStart_FreeGap( pdiStartContext* ctx, pdVec3 x, double above, double* outGap )
{
	*outGap = 0.0;
	pdiFrame rel = pdiStart_Relative( ctx, x );
	ctx->collideCount += 1;
	if ( pdiStart_CachedHit( ctx, &rel ) || pdiStart_BallsOverlap( ctx, &rel ) )
	{
		return false;
	}
	pdTransform poseA, poseB;
	pdiStart_Poses( ctx, x, &poseA, &poseB );
	pdDistanceDef def = pdiDistanceDefaults();
	def.upperBound = above;
	pdDistanceResult r;
	// Asked of configurations expected to be free, where a first-hit collision check first
	// would only repeat the descent's work (knownSeparated).
	pdStatus status = pdiComputeDistance( ctx->meshA, &poseA, ctx->meshB, &poseB, &def, true, ctx->ws, &r );
	ctx->nodeVisits += r.nodeVisits;
	// Touching counts as colliding, as in pdiStart_Collides (a failed query too: conservative).
	if ( status < 0 || status == PD_STATUS_TRAVERSAL_LIMIT || !( r.distance > 0.0 ) || !isfinite( r.distance ) )
	{
		return false;
	}
	if ( pdiStart_Contained( ctx, &rel ) )
	{
		return false;
	}
	*outGap = r.distance;
	return true;
}

pdiStartGap pdiStart_FreeGapGathering( pdiStartContext* ctx, pdVec3 x, pdVec3 approach, int maxFeatures, double* outGap,
									 int* outCount, const pdContactFeature** outFeatures )
{
	*outGap = 0.0;
	*outCount = 0;
	*outFeatures = NULL;
	pdiFrame rel = pdiStart_Relative( ctx, x );
	ctx->collideCount += 1;
	if ( pdiStart_CachedHit( ctx, &rel ) || pdiStart_BallsOverlap( ctx, &rel ) )
	{
		return PDI_START_GAP_COLLIDING;
	}
	pdTransform poseA, poseB;
	pdiStart_Poses( ctx, x, &poseA, &poseB );
	double distance = 0.0;
	int visits = 0;
	int count = 0;
	const pdContactFeature* features = NULL;
	int closest[2];
	pdStatus status =
		pdiContactFeatures_GatherMeasuringGap( ctx->meshA, &poseA, ctx->meshB, &poseB, ctx->tolerance, approach,
											  maxFeatures, ctx->ws, &count, &features, &distance, closest, &visits );
	ctx->nodeVisits += visits;
	if ( status != PD_STATUS_OK )
	{
		// A full list or a cap: the distance is not known; the caller asks pdiStart_FreeGap.
		return PDI_START_GAP_UNKNOWN;
	}
	// Touching counts as colliding, as in pdiStart_FreeGap; infinite: nothing within the tolerance.
	if ( !( distance > 0.0 ) )
	{
		if ( closest[0] >= 0 )
		{
			// Checks nearby try it first (pdiStart_CachedHit tests it exactly there).
			pdiStart_RememberHit( ctx, closest[0], closest[1] );
		}
		return PDI_START_GAP_COLLIDING;
	}
	if ( pdiStart_Contained( ctx, &rel ) )
	{
		return PDI_START_GAP_COLLIDING;
	}
	*outGap = distance;
	*outCount = count;
	*outFeatures = features;
	return PDI_START_GAP_FREE;
}

double pdiStart_SeparationDistance( const pdiStartContext* ctx, pdVec3 u )
{
	pdVec3 cA = pdiFrameApply( &ctx->frameA, ctx->meshA->centroid );
	pdVec3 cB = pdiFrameApply( &ctx->frameB, ctx->meshB->centroid );
	pdVec3 delta = pdiSub( cA, cB );
	double r = ctx->meshA->radius + ctx->meshB->radius + 2.0 * ctx->tolerance;
	// |delta + t u| = r, the larger root.
	double b = pdiDot( u, delta );
	double disc = b * b - pdiDot( delta, delta ) + r * r;
	double t = disc > 0.0 ? -b + sqrt( disc ) : 0.0;
	return t > ctx->tolerance ? t : ctx->tolerance;
}
