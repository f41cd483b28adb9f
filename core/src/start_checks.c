// SPDX-License-Identifier: MIT
// Static checks of the start search (Sec. 5 of the paper): whether A translated by x collides
// with B, and the gap when it does not. Cheap proofs come first (a recently intersecting
// triangle pair, overlapping inner balls, vertex sample boxes for containment), then one
// bounded collision or distance query.
#include "initial_config.h"

#include "core.h"
#include "proximity.h"
#include "tri_distance.h"

#define PD_SAMPLE_VERTICES 512

// Box of (a strided sample of) the mesh's vertices rotated by r.
static void pdSampleBox( const pdMesh* mesh, const pdMat33* r, bool transpose, pdVec3* outLo, pdVec3* outHi )
{
	int n = mesh->vertexCount;
	int stride = n > PD_SAMPLE_VERTICES ? n / PD_SAMPLE_VERTICES : 1;
	pdVec3 lo = pdV3( INFINITY, INFINITY, INFINITY ), hi = pdV3( -INFINITY, -INFINITY, -INFINITY );
	for ( int i = 0; i < n; i += stride )
	{
		pdVec3 w = transpose ? pdMulMTV( r, mesh->vertices[i] ) : pdMulMV( r, mesh->vertices[i] );
		lo = pdMin3( lo, w );
		hi = pdMax3( hi, w );
	}
	*outLo = lo;
	*outHi = hi;
}

static void pdStart_PrepareSamples( pdStartContext* ctx )
{
	if ( ctx->sampleBoxesReady )
	{
		return;
	}
	pdFrame rel = pdRelativeFrame( &ctx->frameA, &ctx->frameB );
	pdSampleBox( ctx->meshA, &rel.r, false, &ctx->sampleLoA, &ctx->sampleHiA );
	pdSampleBox( ctx->meshB, &rel.r, true, &ctx->sampleLoB, &ctx->sampleHiB );
	ctx->sampleBoxesReady = true;
}

// False only when the sample box shifted by offset pokes out of [lo, hi] by more than rounding.
static bool pdStart_BoxInside( pdVec3 sLo, pdVec3 sHi, pdVec3 offset, pdVec3 lo, pdVec3 hi, double diagonal )
{
	double pad = 1e-9 * ( diagonal + pdLength( offset ) );
	return sLo.x + offset.x >= lo.x - pad && sLo.y + offset.y >= lo.y - pad && sLo.z + offset.z >= lo.z - pad &&
		   sHi.x + offset.x <= hi.x + pad && sHi.y + offset.y <= hi.y + pad && sHi.z + offset.z <= hi.z + pad;
}

// A recent intersecting pair that still intersects proves the collision (the same exact pair
// test as pdCollide's leaves). The pair that proved the last hit goes first, then the others
// newest first: nearby checks mostly hit on the same pair, and a miss costs an exact test.
static bool pdStart_CachedHit( pdStartContext* ctx, const pdFrame* rel )
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
		pdMesh_TriangleVertices( meshA, ta, va );
		pdMesh_TriangleVertices( meshB, tb, vb );
		va[0] = pdFrameApply( rel, va[0] );
		va[1] = pdFrameApply( rel, va[1] );
		va[2] = pdFrameApply( rel, va[2] );
		if ( pdTrianglesIntersect( va, vb ) )
		{
			ctx->hitPairLast = slot;
			return true;
		}
	}
	return false;
}

static void pdStart_RememberHit( pdStartContext* ctx, int ta, int tb )
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
static bool pdStart_Contained( pdStartContext* ctx, const pdFrame* rel )
{
	if ( !ctx->containment )
	{
		return false;
	}
	const pdMesh* meshA = ctx->meshA;
	const pdMesh* meshB = ctx->meshB;
	pdStart_PrepareSamples( ctx );
	if ( meshB->closed && pdStart_BoxInside( ctx->sampleLoA, ctx->sampleHiA, rel->p, meshB->boundsMin, meshB->boundsMax,
											 meshB->diagonal ) )
	{
		pdVec3 p = pdFrameApply( rel, meshA->vertices[meshA->triangles[0][0]] );
		if ( pdMesh_ContainsPoint( meshB, p, ctx->ws ) )
		{
			return true;
		}
	}
	pdVec3 offsetB = pdMulMTV( &rel->r, pdNeg( rel->p ) ); // B's origin in A's frame
	if ( meshA->closed && pdStart_BoxInside( ctx->sampleLoB, ctx->sampleHiB, offsetB, meshA->boundsMin,
											 meshA->boundsMax, meshA->diagonal ) )
	{
		pdVec3 p = pdMulMTV( &rel->r, pdSub( meshB->vertices[meshB->triangles[0][0]], rel->p ) );
		if ( pdMesh_ContainsPoint( meshA, p, ctx->ws ) )
		{
			return true;
		}
	}
	return false;
}

static pdFrame pdStart_Relative( const pdStartContext* ctx, pdVec3 x )
{
	pdFrame frameA = ctx->frameA;
	frameA.p = pdAdd( ctx->frameA.p, x );
	return pdRelativeFrame( &frameA, &ctx->frameB );
}

// The query's poses with A translated by x.
static void pdStart_Poses( const pdStartContext* ctx, pdVec3 x, pdTransform* outA, pdTransform* outB )
{
	outA->q = ctx->rotationA;
	outA->p = pdAdd( ctx->frameA.p, x );
	outB->q = ctx->rotationB;
	outB->p = ctx->frameB.p;
}

bool pdStart_BallsSettleChecks( const pdStartContext* ctx )
{
	return ctx->ballTests >= 16 && 4 * ctx->ballHits >= 3 * ctx->ballTests;
}

bool pdStart_Collides( pdStartContext* ctx, pdVec3 x )
{
	pdTransform poseA, poseB;
	pdStart_Poses( ctx, x, &poseA, &poseB );
	pdFrame rel = pdStart_Relative( ctx, x );
	ctx->collideCount += 1;
	if ( pdStart_CachedHit( ctx, &rel ) || pdStart_BallsOverlap( ctx, &rel ) )
	{
		return true;
	}

	pdCollideDef def = pdDefaultCollideDef();
	def.reportAllPairs = false;
	// Containment is decided here, after a cheap proof that it is impossible.
	def.checkContainment = false;
	pdCollideResult result;
	pdStatus status = pdCollide( ctx->meshA, &poseA, ctx->meshB, &poseB, &def, ctx->ws, &result );
	ctx->nodeVisits += result.nodeVisits;
	if ( status < 0 )
	{
		return true;
	}
	if ( result.colliding && result.pairCount > 0 && result.pairs != NULL )
	{
		pdStart_RememberHit( ctx, result.pairs[0].triangleA, result.pairs[0].triangleB );
	}
	if ( result.colliding || status == PD_STATUS_TRAVERSAL_LIMIT )
	{
		return true;
	}
	return pdStart_Contained( ctx, &rel );
}

bool pdStart_FreeGap( pdStartContext* ctx, pdVec3 x, double above, double* outGap )
{
	*outGap = 0.0;
	pdFrame rel = pdStart_Relative( ctx, x );
	ctx->collideCount += 1;
	if ( pdStart_CachedHit( ctx, &rel ) || pdStart_BallsOverlap( ctx, &rel ) )
	{
		return false;
	}
	pdTransform poseA, poseB;
	pdStart_Poses( ctx, x, &poseA, &poseB );
	pdDistanceDef def = pdDefaultDistanceDef();
	def.upperBound = above;
	pdDistanceResult r;
	// Asked of configurations expected to be free, where a first-hit collision check first
	// would only repeat the descent's work.
	def.knownSeparated = true;
	pdStatus status = pdComputeDistance( ctx->meshA, &poseA, ctx->meshB, &poseB, &def, ctx->ws, &r );
	ctx->nodeVisits += r.nodeVisits;
	// Touching counts as colliding, as in pdStart_Collides (a failed query too: conservative).
	if ( status < 0 || status == PD_STATUS_TRAVERSAL_LIMIT || !( r.distance > 0.0 ) || !isfinite( r.distance ) )
	{
		return false;
	}
	if ( pdStart_Contained( ctx, &rel ) )
	{
		return false;
	}
	*outGap = r.distance;
	return true;
}

pdStartGap pdStart_FreeGapGathering( pdStartContext* ctx, pdVec3 x, pdVec3 approach, int maxFeatures, double* outGap,
									 int* outCount, const pdContactFeature** outFeatures )
{
	*outGap = 0.0;
	*outCount = 0;
	*outFeatures = NULL;
	pdFrame rel = pdStart_Relative( ctx, x );
	ctx->collideCount += 1;
	if ( pdStart_CachedHit( ctx, &rel ) || pdStart_BallsOverlap( ctx, &rel ) )
	{
		return PD_START_GAP_COLLIDING;
	}
	pdTransform poseA, poseB;
	pdStart_Poses( ctx, x, &poseA, &poseB );
	double distance = 0.0;
	int visits = 0;
	int count = 0;
	const pdContactFeature* features = NULL;
	int closest[2];
	pdStatus status =
		pdContactFeatures_GatherMeasuringGap( ctx->meshA, &poseA, ctx->meshB, &poseB, ctx->tolerance, approach,
											  maxFeatures, ctx->ws, &count, &features, &distance, closest, &visits );
	ctx->nodeVisits += visits;
	if ( status != PD_STATUS_OK )
	{
		// A full list or a cap: the distance is not known; the caller asks pdStart_FreeGap.
		return PD_START_GAP_UNKNOWN;
	}
	// Touching counts as colliding, as in pdStart_FreeGap; infinite: nothing within the tolerance.
	if ( !( distance > 0.0 ) )
	{
		if ( closest[0] >= 0 )
		{
			// Checks nearby try it first (pdStart_CachedHit tests it exactly there).
			pdStart_RememberHit( ctx, closest[0], closest[1] );
		}
		return PD_START_GAP_COLLIDING;
	}
	if ( pdStart_Contained( ctx, &rel ) )
	{
		return PD_START_GAP_COLLIDING;
	}
	*outGap = distance;
	*outCount = count;
	*outFeatures = features;
	return PD_START_GAP_FREE;
}

double pdStart_SeparationDistance( const pdStartContext* ctx, pdVec3 u )
{
	pdVec3 cA = pdFrameApply( &ctx->frameA, ctx->meshA->centroid );
	pdVec3 cB = pdFrameApply( &ctx->frameB, ctx->meshB->centroid );
	pdVec3 delta = pdSub( cA, cB );
	double r = ctx->meshA->radius + ctx->meshB->radius + 2.0 * ctx->tolerance;
	// |delta + t u| = r, the larger root.
	double b = pdDot( u, delta );
	double disc = b * b - pdDot( delta, delta ) + r * r;
	double t = disc > 0.0 ? -b + sqrt( disc ) : 0.0;
	return t > ctx->tolerance ? t : ctx->tolerance;
}
