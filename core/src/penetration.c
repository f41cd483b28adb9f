// SPDX-License-Identifier: MIT
// PolyDepth (Je et al. 2012): translational penetration depth by iterative contact-space
// projection, started from many free configurations and pruned by the best bound so far.
#include "penetration.h"

#include "contact_space.h"
#include "core.h"
#include "initial_config.h"
#include "lcp.h"
#include "mesh.h"
#include "proximity.h"
#include "sfog.h"
#include "workspace.h"

#include <string.h>

pdPenetrationDef pdDefaultPenetrationDef( void )
{
	pdPenetrationDef def;
	memset( &def, 0, sizeof( def ) );
	def.contactTolerance = 0.0;
	def.startStrategies = PD_START_ALL;
	def.maxStarts = 12;
	def.maxIterations = 30;
	def.timeBudgetMs = 0.0;
	def.maxContactPlanes = 20;
	def.maxLcpIterations = 100;
	// 512, of which an even 32 are sampled for pockets: 92.7% of 288 oracle cases within 1%
	// against 86.1% with 32 (all sampled), at 1.1-2x the time (bench/results/pd-random.md).
	def.randomDirections = 512;
	def.randomSeed = 1;
	// 128 over a 29-degree cap: 271 -> 275 of 288 oracle cases within 1% (seeds 1-3), 177 -> 182
	// of 192 on seeds 4-5, at about 1.1x the query time (bench/results/pd-random.md, session 16).
	def.coneDirections = 128;
	def.lineRefinement = true;
	def.useOrientationPruning = false;
	def.useOrientationCulling = true;
	def.useConvexExactPath = true;
	def.closedAsSolid = true;
	def.computeLocalPenetrations = true;
	def.internalValue = PD_SECRET_COOKIE;
	return def;
}

void pdResetPenetrationCache( pdPenetrationCache* cache )
{
	if ( cache != NULL )
	{
		memset( cache, 0, sizeof( *cache ) );
	}
}

double pdDefaultContactTolerance( const pdMesh* meshA, const pdMesh* meshB )
{
	double scale = fmin( meshA->diagonal, meshB->diagonal );
	return 1e-4 * ( scale > 0.0 ? scale : 1.0 );
}

// The pair's size (the smaller bounding-box diagonal, 1 for degenerate meshes) and the contact
// tolerance a def gives it: what every relative threshold of a query scales with.
static double pdPairScale( const pdMesh* meshA, const pdMesh* meshB )
{
	double scale = fmin( meshA->diagonal, meshB->diagonal );
	return scale > 0.0 ? scale : 1.0;
}

static double pdPairTolerance( const pdPenetrationDef* def, const pdMesh* meshA, const pdMesh* meshB )
{
	return def->contactTolerance > 0.0 ? def->contactTolerance : pdDefaultContactTolerance( meshA, meshB );
}

pdStatus pdValidatePenetrationDef( const pdPenetrationDef* def )
{
	if ( def->internalValue != PD_SECRET_COOKIE )
	{
		return PD_STATUS_DEF_NOT_INITIALIZED;
	}
	if ( !isfinite( def->contactTolerance ) || !isfinite( def->timeBudgetMs ) || def->timeBudgetMs < 0.0 )
	{
		return PD_STATUS_INVALID_DEF;
	}
	if ( def->maxStarts < 1 || def->maxStarts > 1024 || def->maxIterations < 1 || def->maxIterations > 100000 )
	{
		return PD_STATUS_INVALID_DEF;
	}
	if ( def->maxContactPlanes < 1 || def->maxContactPlanes > PD_MAX_PD_FEATURES || def->maxLcpIterations < 1 ||
		 def->maxLcpIterations > 100000 )
	{
		return PD_STATUS_INVALID_DEF;
	}
	if ( def->randomDirections < 0 || def->randomDirections > 4096 || def->coneDirections < 0 ||
		 def->coneDirections > 4096 || ( def->startStrategies & ~(unsigned)PD_START_ALL ) )
	{
		return PD_STATUS_INVALID_DEF;
	}
	return PD_STATUS_OK;
}

// ---------------------------------------------------------------------------------------------
// The query state

typedef struct pdPdQuery
{
	pdStartContext sc; ///< meshes, frames, tolerance, workspace, counters
	const pdPenetrationDef* def;
	double scale;      ///< the smaller bounding-box diagonal
	double tol;
	double deadline;   ///< pdNowMs() value, INFINITY when there is no budget
	bool timeUp;
	bool iterationLimit;
	int iterations;
	int nodeVisits;

	bool haveBest;
	pdVec3 best;
	double bestLength;
	int bestPlanes;
	/// Distance between the surfaces at best when a free-gap check measured it exactly there
	/// (<= 0 when unknown): the final verification then has nothing left to check.
	double bestGap;

	// Two feature sets (the current contact configuration and a candidate), swapped on accept.
	pdContactFeature* features[2];
	int featureCount[2];
	int current;
	pdContactPlane* planes;
	pdContactPlane* memory; ///< the planes of the previous iterations of this start
	int memoryCount;
	int currentPlanes;      ///< planes of the current contact configuration (first in planes)
	double* lambda;
} pdPdQuery;

static pdTransform pdQuery_PoseA( const pdPdQuery* q, pdVec3 x )
{
	pdTransform pose;
	pose.q = q->sc.rotationA;
	pose.p = pdAdd( q->sc.frameA.p, x );
	return pose;
}

static pdTransform pdQuery_PoseB( const pdPdQuery* q )
{
	pdTransform pose;
	pose.q = q->sc.rotationB;
	pose.p = q->sc.frameB.p;
	return pose;
}

static bool pdQuery_OutOfTime( pdPdQuery* q )
{
	if ( !q->timeUp && q->deadline < INFINITY && pdNowMs() > q->deadline )
	{
		q->timeUp = true;
	}
	return q->timeUp;
}

// A bound within the contact tolerance cannot be improved by anything that matters: answers
// are only defined up to the tolerance. Resting contacts (depths far below it) stop here.
static bool pdQuery_Settled( const pdPdQuery* q )
{
	return q->haveBest && q->bestLength <= q->tol;
}

// gap: the distance measured at x by pdStart_FreeGap, or < 0 when x was not measured.
static void pdQuery_Offer( pdPdQuery* q, pdVec3 x, int planes, double gap )
{
	double len = pdLength( x );
	if ( pdIsFiniteVec( x ) && ( !q->haveBest || len < q->bestLength ) )
	{
		q->haveBest = true;
		q->best = x;
		q->bestLength = len;
		q->bestPlanes = planes;
		q->bestGap = gap;
	}
}

static void pdQuery_StoreFeatures( pdPdQuery* q, int slot, const pdContactFeature* features, int count )
{
	if ( count > PD_MAX_PD_FEATURES )
	{
		count = PD_MAX_PD_FEATURES;
	}
	if ( count < 0 || features == NULL )
	{
		count = 0;
	}
	if ( count > 0 )
	{
		memcpy( q->features[slot], features, (size_t)count * sizeof( pdContactFeature ) );
	}
	q->featureCount[slot] = count;
}

// Out-projection: A moves from o + from toward o + to; the first contact configuration on the
// way (relative to o) with its features in the candidate slot. knownFree: the caller has just
// checked `from` with pdStart_Collides, so the sweep's own start check is skipped where it
// applies the same containment rule. Features are gathered only for a contact the caller will
// refine: one shorter than acceptBelow and not already within the tolerance of o (which
// settles the query, see pdQuery_Settled).
static bool pdQuery_OutProjectEx( pdPdQuery* q, pdVec3 from, pdVec3 to, bool knownFree, double acceptBelow,
								  pdVec3* outContact )
{
	pdTransform poseA = pdQuery_PoseA( q, from );
	pdTransform poseB = pdQuery_PoseB( q );
	pdCcdDef def = pdDefaultCcdDef();
	def.contactTolerance = q->tol;
	def.maxFeatures = PD_MAX_PD_FEATURES;
	def.cullByOrientation = q->def->useOrientationCulling;
	bool sameRule = q->sc.containment || ( !q->sc.meshA->closed && !q->sc.meshB->closed );
	pdCcdResult r;
	pdStatus status = pdCcd_Sweep( q->sc.meshA, &poseA, pdAdd( q->sc.frameA.p, to ), q->sc.meshB, &poseB, &def,
								   q->sc.ws, knownFree && sameRule, false, &r );
	q->nodeVisits += r.nodeVisits;
	if ( status < 0 || !r.hit || r.startColliding || !pdIsFiniteVec( r.contactPosition ) )
	{
		return false;
	}
	*outContact = pdSub( r.contactPosition, q->sc.frameA.p );
	double length = pdLength( *outContact );
	if ( length < acceptBelow && length > q->tol )
	{
		// Exactly the sweep's own gathering: the contact pose and the motion as approach.
		pdTransform contactPose = poseA;
		contactPose.p = r.contactPosition;
		int count = 0;
		const pdContactFeature* features = NULL;
		pdStatus fs = pdComputeContactFeatures( q->sc.meshA, &contactPose, q->sc.meshB, &poseB, q->tol,
												pdSub( to, from ), PD_MAX_PD_FEATURES, q->sc.ws, &count, &features );
		if ( fs < 0 )
		{
			q->featureCount[1 - q->current] = 0;
			return false;
		}
		pdQuery_StoreFeatures( q, 1 - q->current, features, count );
	}
	else
	{
		q->featureCount[1 - q->current] = 0;
	}
	return true;
}

static bool pdQuery_OutProject( pdPdQuery* q, pdVec3 from, pdVec3 to, pdVec3* outContact )
{
	return pdQuery_OutProjectEx( q, from, to, false, INFINITY, outContact );
}

// Features of the configuration x (A at most touching) into the candidate slot.
static bool pdQuery_GatherFeatures( pdPdQuery* q, pdVec3 x )
{
	pdTransform poseA = pdQuery_PoseA( q, x );
	pdTransform poseB = pdQuery_PoseB( q );
	int count = 0;
	const pdContactFeature* features = NULL;
	pdStatus status = pdComputeContactFeatures( q->sc.meshA, &poseA, q->sc.meshB, &poseB, q->tol, pdNeg( x ),
												PD_MAX_PD_FEATURES, q->sc.ws, &count, &features );
	if ( status < 0 )
	{
		q->featureCount[1 - q->current] = 0;
		return false;
	}
	pdQuery_StoreFeatures( q, 1 - q->current, features, count );
	return true;
}

// pdStart_FreeGapGathering at x, the features into the candidate slot when the gap is within
// the tolerance (*outGathered: x is a contact configuration). UNKNOWN when a cap kept the
// traversal from measuring.
static pdStartGap pdQuery_ClassifyGathering( pdPdQuery* q, pdVec3 x, double* outGap, bool* outGathered )
{
	*outGathered = false;
	int count = 0;
	const pdContactFeature* features = NULL;
	pdStartGap verdict =
		pdStart_FreeGapGathering( &q->sc, x, pdNeg( x ), PD_MAX_PD_FEATURES, outGap, &count, &features );
	if ( verdict == PD_START_GAP_FREE && *outGap <= q->tol )
	{
		pdQuery_StoreFeatures( q, 1 - q->current, features, count );
		*outGathered = true;
	}
	return verdict;
}

// Classifies x as pdStart_FreeGap does with `above` = the tolerance (true: free, with *outGap)
// and, for a gap within the tolerance (x is a contact configuration), puts x's contact features
// into the candidate slot as pdQuery_GatherFeatures does (*outGathered), from the same
// traversal. Falls back to pdStart_FreeGap when the traversal was capped, leaving the features
// to the caller.
static bool pdQuery_FreeGapGathering( pdPdQuery* q, pdVec3 x, double* outGap, bool* outGathered )
{
	pdStartGap verdict = pdQuery_ClassifyGathering( q, x, outGap, outGathered );
	if ( verdict == PD_START_GAP_UNKNOWN )
	{
		return pdStart_FreeGap( &q->sc, x, q->tol, outGap );
	}
	return verdict == PD_START_GAP_FREE;
}

static void pdQuery_Accept( pdPdQuery* q )
{
	q->current = 1 - q->current;
}

// The planes of the current contact configuration xc after orientation pruning.
static int pdQuery_BuildPlanes( pdPdQuery* q, pdVec3 xc )
{
	pdContactFeature* features = q->features[q->current];
	int count = q->featureCount[q->current];
	if ( q->def->useOrientationPruning && count > 0 )
	{
		// One applicability test per feature; the verdicts are kept while the list compacts.
		bool applicable[PD_MAX_PD_FEATURES];
		int kept = 0;
		for ( int i = 0; i < count; ++i )
		{
			applicable[i] =
				pdSfog_IsApplicable( q->sc.meshA, &q->sc.frameA.r, q->sc.meshB, &q->sc.frameB.r, features + i );
			kept += applicable[i] ? 1 : 0;
		}
		// Pruning everything means the graph cannot decide here: keep them all.
		if ( kept > 0 && kept < count )
		{
			int w = 0;
			for ( int i = 0; i < count; ++i )
			{
				if ( applicable[i] )
				{
					features[w++] = features[i];
				}
			}
			count = w;
			q->featureCount[q->current] = count;
		}
	}
	if ( count == 0 )
	{
		// Only vertex-vertex or parallel-edge contacts (dropped as features): the closest pair
		// still gives one supporting plane with the natural normal (p_A - p_B)/|p_A - p_B|.
		pdTransform poseA = pdQuery_PoseA( q, xc );
		pdTransform poseB = pdQuery_PoseB( q );
		pdDistanceDef def = pdDefaultDistanceDef();
		pdDistanceResult r;
		if ( pdComputeDistance( q->sc.meshA, &poseA, q->sc.meshB, &poseB, &def, q->sc.ws, &r ) >= 0 && r.distance > 0.0 &&
			 r.distance <= 2.0 * q->tol )
		{
			q->nodeVisits += r.nodeVisits;
			pdContactFeature f;
			memset( &f, 0, sizeof( f ) );
			f.kind = PD_CONTACT_VF;
			f.pointA = r.pointA;
			f.pointB = r.pointB;
			f.normal = pdNormalize( pdSub( r.pointA, r.pointB ) );
			f.distance = r.distance;
			features[0] = f;
			count = 1;
			q->featureCount[q->current] = 1;
		}
	}
	int planeCount = pdBuildContactPlanes( features, count, xc, q->def->maxContactPlanes, q->planes, NULL, NULL );
	// Out-projected contacts stop tol/2 short of touching; project onto the same offset so the
	// projected configuration classifies as "in contact" rather than touching-as-colliding.
	for ( int i = 0; i < planeCount; ++i )
	{
		q->planes[i].offset += 0.5 * q->tol;
	}
	q->currentPlanes = planeCount;

	// Planes met on the way stay in the model: without them the projection zigzags between two
	// contacts of a valley, each seen alone.
	int cap = q->def->maxContactPlanes;
	for ( int m = 0; m < q->memoryCount && planeCount < cap; ++m )
	{
		pdContactPlane p = q->memory[m];
		// Only planes still nearly active here: a violated or distant plane belongs to another
		// part of a non-convex contact space.
		double residual = pdDot( p.normal, xc ) - p.offset;
		if ( residual < -q->tol || residual > fmax( 20.0 * q->tol, 0.05 * pdLength( xc ) ) )
		{
			continue;
		}
		int same = -1;
		for ( int j = 0; j < planeCount && same < 0; ++j )
		{
			if ( 1.0 - pdDot( q->planes[j].normal, p.normal ) < PD_PLANE_DEDUP_TOLERANCE )
			{
				same = j;
			}
		}
		if ( same >= 0 )
		{
			q->planes[same].offset = fmax( q->planes[same].offset, p.offset );
			continue;
		}
		p.source = -1;
		q->planes[planeCount++] = p;
	}
	memcpy( q->memory, q->planes, (size_t)planeCount * sizeof( pdContactPlane ) );
	q->memoryCount = planeCount;
	return planeCount;
}

// A direction along which every active pair separates (the in-projection of n_i . y >= 1),
// for backing off a contact configuration before the next out-projection.
static pdVec3 pdQuery_Escape( pdPdQuery* q, int planeCount, pdVec3 xc )
{
	pdVec3 fallback = pdNormalize( xc );
	if ( planeCount <= 0 )
	{
		return fallback;
	}
	pdContactPlane unit[PD_MAX_PD_FEATURES];
	for ( int i = 0; i < planeCount; ++i )
	{
		unit[i] = q->planes[i];
		unit[i].offset = 1.0;
	}
	pdLcpResult r = pdSolveInProjection( unit, planeCount, q->def->maxLcpIterations, NULL );
	double len = pdLength( r.x );
	if ( !r.converged || r.infeasible || !( len > 0.0 ) || len > 1e3 )
	{
		return fallback;
	}
	return pdScale( r.x, 1.0 / len );
}

// Samples along the ray of a colliding in-projection.
#define PD_RAY_SAMPLES 6

// Improvements smaller than this do not count: a start or an iteration must shorten the bound
// by 0.1%, ten times finer than the accuracy the query promises (1%), and the iteration stops
// instead of creeping along a curved contact space in ever smaller steps.
#define PD_RELATIVE_IMPROVEMENT 1e-3
static double pdQuery_Epsilon( const pdPdQuery* q, double length )
{
	return fmax( 1e-12 * q->scale, PD_RELATIVE_IMPROVEMENT * length );
}

// The PolyDepth iteration from the contact configuration xc (features in the current slot).
static void pdQuery_Refine( pdPdQuery* q, pdVec3 xc )
{
	q->memoryCount = 0;
	double xcGap = -1.0; // measured gap at xc, when xc came from a free-gap check
	for ( int it = 0;; ++it )
	{
		if ( pdQuery_OutOfTime( q ) )
		{
			return;
		}
		if ( pdQuery_Settled( q ) )
		{
			return;
		}
		if ( it >= q->def->maxIterations )
		{
			q->iterationLimit = true;
			return;
		}
		q->iterations += 1;

		int planeCount = pdQuery_BuildPlanes( q, xc );
		int currentPlanes = q->currentPlanes;
		if ( planeCount == 0 )
		{
			return;
		}
		pdLcpResult lcp = pdSolveInProjection( q->planes, planeCount, q->def->maxLcpIterations, q->lambda );
		if ( !lcp.converged && !lcp.infeasible )
		{
			for ( int i = 0; i < planeCount; ++i )
			{
				q->lambda[i] = 0.0;
			}
			pdLcpResult pgs = pdSolveInProjectionPgs( q->planes, planeCount, q->def->maxLcpIterations, q->lambda );
			if ( pgs.converged )
			{
				lcp = pgs;
			}
		}
		if ( lcp.infeasible || !pdIsFiniteVec( lcp.x ) )
		{
			return;
		}
		pdVec3 xp = lcp.x;
		double lenC = pdLength( xc );
		double eps = pdQuery_Epsilon( q, lenC );
		if ( !( pdLength( xp ) < lenC - eps ) )
		{
			return; // a local minimum of the linearised contact space
		}

		bool improved = false;
		double s = 1.0;
		for ( int damp = 0; damp < 3 && !improved; ++damp, s *= 0.5 )
		{
			pdVec3 target = pdLerp( xc, xp, s );
			pdVec3 next;
			double d;
			bool gathered = false;
			if ( pdQuery_FreeGapGathering( q, target, &d, &gathered ) )
			{
				if ( d <= q->tol )
				{
					// In contact: the projected configuration itself is the answer (bug B3).
					if ( gathered || pdQuery_GatherFeatures( q, target ) )
					{
						pdQuery_Accept( q );
						xc = target;
						xcGap = d;
						improved = true;
					}
				}
				else if ( pdQuery_OutProjectEx( q, target, pdV3( 0.0, 0.0, 0.0 ), true, lenC - eps, &next ) &&
						  pdLength( next ) < lenC - eps )
				{
					pdQuery_Accept( q );
					xc = next;
					xcGap = -1.0;
					improved = true;
				}
			}
			else
			{
				// Colliding: the first contact on the way from (just off) x_c to the target.
				pdVec3 back = pdMulAdd( xc, q->tol, pdQuery_Escape( q, currentPlanes, xc ) );
				if ( pdQuery_OutProjectEx( q, back, target, false, lenC - eps, &next ) && pdLength( next ) < lenC - eps )
				{
					pdQuery_Accept( q );
					xc = next;
					xcGap = -1.0;
					improved = true;
				}
				else if ( damp == 0 )
				{
					// The linearisation points at a shorter answer behind an obstacle: look for free
					// space outward along the projected ray, then come back in along it.
					double lenT = pdLength( target );
					pdVec3 u = pdScale( target, 1.0 / lenT );
					for ( int k = 1; k < PD_RAY_SAMPLES && !improved; ++k )
					{
						double t = lenT + ( lenC - eps - lenT ) * k / PD_RAY_SAMPLES;
						pdVec3 y = pdScale( u, t );
						if ( pdStart_Collides( &q->sc, y ) )
						{
							continue;
						}
						if ( pdQuery_OutProjectEx( q, y, pdV3( 0.0, 0.0, 0.0 ), true, lenC - eps, &next ) &&
							 pdLength( next ) < lenC - eps )
						{
							pdQuery_Accept( q );
							xc = next;
							xcGap = -1.0;
							improved = true;
						}
						break;
					}
				}
			}
		}
		if ( !improved )
		{
			return;
		}
		pdQuery_Offer( q, xc, planeCount, xcGap );
	}
}

// Two unit vectors completing u (unit) to an orthonormal basis.
static void pdQuery_Basis( pdVec3 u, pdVec3* e1, pdVec3* e2 )
{
	pdVec3 a = fabs( u.x ) < 0.9 ? pdCross( u, pdV3( 1.0, 0.0, 0.0 ) ) : pdCross( u, pdV3( 0.0, 1.0, 0.0 ) );
	*e1 = pdNormalize( a );
	*e2 = pdCross( u, *e1 );
}

// One start along the unit direction u, just inside the best bound: if A is free there, the
// out-projection toward o finds a contact shorter than the best and the iteration refines it.
// True when that happened.
static bool pdQuery_ProbeDirection( pdPdQuery* q, pdVec3 u )
{
	double bound = q->bestLength;
	double limit = bound - fmax( q->tol, 1e-3 * bound );
	if ( !( limit > 0.0 ) )
	{
		return false;
	}
	pdVec3 start = pdScale( u, limit );
	if ( pdStart_Collides( &q->sc, start ) )
	{
		return false;
	}
	pdVec3 contact;
	double accept = bound - pdQuery_Epsilon( q, bound );
	if ( !pdQuery_OutProjectEx( q, start, pdV3( 0.0, 0.0, 0.0 ), true, accept, &contact ) ||
		 !( pdLength( contact ) < accept ) )
	{
		return false;
	}
	pdQuery_Accept( q );
	pdQuery_Offer( q, contact, 0, -1.0 );
	pdQuery_Refine( q, contact );
	return true;
}

// Half-angle of the cone searched around the best answer's direction (radians, about 29
// degrees): the near misses it recovers lay 12-24 degrees from the answer found before.
#define PD_CONE_HALF_ANGLE 0.5

// Cone search: directions spread evenly over the cap of PD_CONE_HALF_ANGLE around the best
// answer's direction (a Fibonacci cap, nearest first), each probed at the current bound. On a
// tessellated surface a shorter translation can lie in a basin of free space a few degrees wide
// beside the local optimum the iteration stopped in; the random directions (about 9 degrees
// apart at 512) step over it. bench/results/pd-random.md, session 16: bunny-2k 32 -> 36 of 36
// oracle cases within 1%.
static int pdQuery_ConeSearch( pdPdQuery* q, int directions, int maxStarts )
{
	int starts = 0;
	if ( directions <= 0 || !q->haveBest || !( q->bestLength > 0.0 ) )
	{
		return 0;
	}
	pdVec3 axis = pdScale( q->best, 1.0 / q->bestLength );
	pdVec3 e1, e2;
	pdQuery_Basis( axis, &e1, &e2 );
	double zMin = cos( PD_CONE_HALF_ANGLE );
	for ( int k = 0; k < directions && starts < maxStarts; ++k )
	{
		if ( pdQuery_Settled( q ) || pdQuery_OutOfTime( q ) )
		{
			break;
		}
		// Equal-area rings from the axis outward, turned by the golden angle.
		double z = 1.0 - ( 1.0 - zMin ) * ( k + 0.5 ) / directions;
		double r = sqrt( fmax( 0.0, 1.0 - z * z ) );
		double phi = k * 2.399963229728653;
		pdVec3 probe = pdAdd( pdScale( axis, z ), pdAdd( pdScale( e1, r * cos( phi ) ), pdScale( e2, r * sin( phi ) ) ) );
		if ( pdQuery_ProbeDirection( q, probe ) )
		{
			starts += 1;
		}
	}
	return starts;
}

// Probes directions around the best answer's at shrinking angles; every free probe point short
// of the bound is out-projected and refined. Returns the starts it refined.
static int pdQuery_DirectionSearch( pdPdQuery* q, int maxStarts )
{
	int starts = 0;
	if ( !q->haveBest || !( q->bestLength > 0.0 ) || pdQuery_Settled( q ) )
	{
		return 0;
	}
	for ( double angle = 0.3; angle > 0.004 && starts < maxStarts; angle *= 0.5 )
	{
		bool moved = true;
		for ( int round = 0; round < 4 && moved && starts < maxStarts; ++round )
		{
			moved = false;
			if ( pdQuery_OutOfTime( q ) )
			{
				return starts;
			}
			pdVec3 u = pdScale( q->best, 1.0 / q->bestLength );
			pdVec3 e1, e2;
			pdQuery_Basis( u, &e1, &e2 );
			for ( int k = 0; k < 8 && !moved; ++k )
			{
				double phi = k * 0.78539816339744831;
				pdVec3 side = pdAdd( pdScale( e1, cos( phi ) ), pdScale( e2, sin( phi ) ) );
				pdVec3 probe = pdNormalize( pdAdd( pdScale( u, cos( angle ) ), pdScale( side, sin( angle ) ) ) );
				if ( pdQuery_ProbeDirection( q, probe ) )
				{
					starts += 1;
					moved = true;
				}
			}
		}
	}
	return starts;
}

// ---------------------------------------------------------------------------------------------
// Local PDs

// Groups contact features at A + d into regions (normals within 15 degrees, points linked
// within 5% of the size) and gives each its normal n, depth d . n and spread points. index
// lists the features to use (at most PD_MAX_PD_FEATURES).
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
	int members[PD_MAX_PD_FEATURES];
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
			members[found] = 0;
		}
		region[i] = found;
		sums[found] = pdAdd( sums[found], n );
		members[found] += 1;
	}

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
		// Points spread over the region: the closest pair first, then farthest-point sampling.
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
			continue;
		}
		local.points[local.pointCount++] = f[first]->pointB;
		while ( local.pointCount < PD_MAX_REGION_POINTS )
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
				for ( int k = 0; k < local.pointCount; ++k )
				{
					nearest = fmin( nearest, pdDistanceSq( f[i]->pointB, local.points[k] ) );
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
			local.points[local.pointCount++] = f[far]->pointB;
		}
		// Deepest regions first; the list keeps at most PD_MAX_LOCAL_REGIONS.
		int slot = out->localCount < PD_MAX_LOCAL_REGIONS ? out->localCount : PD_MAX_LOCAL_REGIONS - 1;
		if ( out->localCount == PD_MAX_LOCAL_REGIONS && out->local[slot].depth >= depth )
		{
			continue;
		}
		while ( slot > 0 && out->local[slot - 1].depth < depth )
		{
			out->local[slot] = out->local[slot - 1];
			slot -= 1;
		}
		out->local[slot] = local;
		if ( out->localCount < PD_MAX_LOCAL_REGIONS )
		{
			out->localCount += 1;
		}
	}
}

// The features gathered at the answer reach a little beyond the tolerance: the answer keeps a
// small gap.
#define PD_LOCAL_REACH 1.5

static void pdQuery_LocalPenetrations( pdPdQuery* q, pdVec3 d, pdPenetrationResult* out )
{
	out->localCount = 0;
	if ( !( pdLength( d ) > 0.0 ) )
	{
		return;
	}
	pdTransform poseA = pdQuery_PoseA( q, d );
	pdTransform poseB = pdQuery_PoseB( q );
	int count = 0;
	const pdContactFeature* features = NULL;
	if ( pdComputeContactFeatures( q->sc.meshA, &poseA, q->sc.meshB, &poseB, PD_LOCAL_REACH * q->tol, pdNeg( d ),
								   PD_MAX_PD_FEATURES, q->sc.ws, &count, &features ) < 0 ||
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

// A pair whose triangles are all farther apart than the tolerance is apart, unless both are
// solids and one contains the other (pdCollide's containment test): the classification the
// query's step 0 and pdConfirmApartGatheringFeatures share.
static bool pdApartUnlessContained( const pdMesh* meshA, const pdFrame* frameA, const pdMesh* meshB,
									const pdFrame* frameB, bool solids, pdWorkspace* ws )
{
	if ( !solids )
	{
		return true;
	}
	pdFrame rel = pdRelativeFrame( frameA, frameB );
	return !pdCollide_Containment( meshA, meshB, &rel, ws );
}

pdStatus pdConfirmApartGatheringFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										  const pdTransform* poseB, const pdPenetrationDef* def,
										  pdPenetrationCache* ioCache, double reach, pdVec3 approachDirection,
										  int maxFeatures, pdWorkspace* ioWorkspace, bool* outApart, int* outCount,
										  const pdContactFeature** outFeatures )
{
	if ( outApart != NULL )
	{
		*outApart = false;
	}
	if ( outCount != NULL )
	{
		*outCount = 0;
	}
	if ( outFeatures != NULL )
	{
		*outFeatures = NULL;
	}
	if ( outApart == NULL || outCount == NULL || outFeatures == NULL || poseA == NULL || poseB == NULL ||
		 !pdIsValidWorkspace( ioWorkspace ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	if ( !pdIsValidMesh( meshA ) || !pdIsValidMesh( meshB ) )
	{
		return PD_STATUS_INVALID_MESH;
	}
	pdPenetrationDef defaults = pdDefaultPenetrationDef();
	if ( def == NULL )
	{
		def = &defaults;
	}
	pdStatus status = pdValidatePenetrationDef( def );
	if ( status != PD_STATUS_OK )
	{
		return status;
	}
	double tol = pdPairTolerance( def, meshA, meshB );
	if ( !isfinite( reach ) || !( reach >= tol ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdFrame frameA, frameB;
	if ( ( status = pdMakeFrame( poseA, &frameA ) ) != PD_STATUS_OK ||
		 ( status = pdMakeFrame( poseB, &frameB ) ) != PD_STATUS_OK )
	{
		return status;
	}
	// The features matter only for an apart pair: the first pair within the tolerance ends it.
	bool apart = false;
	status = pdContactFeatures_GatherProvingGap( meshA, poseA, meshB, poseB, reach, approachDirection, maxFeatures, tol,
												 true, ioWorkspace, outCount, outFeatures, &apart, NULL );
	if ( status < 0 )
	{
		return status;
	}
	// No two triangles within the tolerance and neither solid inside the other: exactly what
	// makes pdComputePenetration report a pair separated, whatever the cache says (its first
	// step for a pair it remembers apart, or its collision check and the proof at the
	// tolerance otherwise), and what it records.
	apart = apart && pdApartUnlessContained( meshA, &frameA, meshB, &frameB,
											 def->closedAsSolid && meshA->closed && meshB->closed, ioWorkspace );
	*outApart = apart;
	if ( apart && ioCache != NULL )
	{
		ioCache->lastSeparated = true;
	}
	if ( !apart )
	{
		*outCount = 0;
		*outFeatures = NULL;
	}
	return status;
}

// ---------------------------------------------------------------------------------------------
// The query

static void pdUpdateCache( pdPdQuery* q, pdPenetrationCache* cache, pdVec3 x )
{
	if ( cache == NULL )
	{
		return;
	}
	if ( cache->count < 0 || cache->count > 3 || cache->next < 0 || cache->next > 2 )
	{
		pdResetPenetrationCache( cache );
	}
	pdVec3 rel = pdFrameApplyInverse( &q->sc.frameB, pdAdd( q->sc.frameA.p, x ) );
	for ( int i = 0; i < cache->count; ++i )
	{
		if ( pdDistanceSq( cache->configurations[i], rel ) <= 1e-18 * q->scale * q->scale )
		{
			return;
		}
	}
	cache->configurations[cache->next] = rel;
	cache->relativeRotation[cache->next] = pdQuatMul( pdQuatConj( q->sc.rotationB ), q->sc.rotationA );
	cache->next = ( cache->next + 1 ) % 3;
	if ( cache->count < 3 )
	{
		cache->count += 1;
	}
	cache->stamp += 1;
}

static pdQuat pdUnitQuat( pdQuat q )
{
	double n = sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
	pdQuat r = { q.w / n, q.x / n, q.y / n, q.z / n };
	return r;
}

static pdStatus pdFinish( pdPenetrationResult* out, pdStatus status, double startMs )
{
	out->status = status;
	out->elapsedMs = pdNowMs() - startMs;
	return status;
}

static pdStatus pdFail( pdPenetrationResult* out, pdStatus status, double startMs )
{
	memset( out, 0, sizeof( *out ) );
	return pdFinish( out, status, startMs );
}

// No two triangles within the tolerance (the gap proof: the gathering's culls, then the exact
// triangle distance, ending at the first pair within): exactly what a distance query bounded by
// the tolerance decides, for less. False also when a cap kept it from seeing every pair.
static pdStatus pdQuery_ApartByTolerance( pdPdQuery* q, const pdTransform* poseA, const pdTransform* poseB,
										  bool* outApart )
{
	int visits = 0;
	pdStatus status = pdContactFeatures_ProveGap( q->sc.meshA, poseA, q->sc.meshB, poseB, q->tol, q->sc.ws, outApart,
												  &visits );
	q->nodeVisits += visits;
	return status;
}

pdStatus pdComputePenetration( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							   const pdTransform* poseB, const pdPenetrationDef* def, pdPenetrationCache* ioCache,
							   pdWorkspace* ioWorkspace, pdPenetrationResult* outResult )
{
	double startMs = pdNowMs();
	if ( outResult == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	memset( outResult, 0, sizeof( *outResult ) );
	if ( !pdIsValidMesh( meshA ) || !pdIsValidMesh( meshB ) )
	{
		return pdFail( outResult, PD_STATUS_INVALID_MESH, startMs );
	}
	if ( !pdIsValidWorkspace( ioWorkspace ) || poseA == NULL || poseB == NULL )
	{
		return pdFail( outResult, PD_STATUS_INVALID_ARGUMENT, startMs );
	}
	pdPenetrationDef defaults = pdDefaultPenetrationDef();
	if ( def == NULL )
	{
		def = &defaults;
	}
	pdStatus status = pdValidatePenetrationDef( def );
	if ( status != PD_STATUS_OK )
	{
		return pdFail( outResult, status, startMs );
	}

	pdPdQuery q;
	memset( &q, 0, sizeof( q ) );
	status = pdMakeFrame( poseA, &q.sc.frameA );
	if ( status == PD_STATUS_OK )
	{
		status = pdMakeFrame( poseB, &q.sc.frameB );
	}
	if ( status != PD_STATUS_OK )
	{
		return pdFail( outResult, status, startMs );
	}
	q.sc.meshA = meshA;
	q.sc.meshB = meshB;
	q.sc.rotationA = pdUnitQuat( poseA->q );
	q.sc.rotationB = pdUnitQuat( poseB->q );
	q.sc.containment = def->closedAsSolid && meshA->closed && meshB->closed;
	q.sc.ws = ioWorkspace;
	q.def = def;
	q.scale = pdPairScale( meshA, meshB );
	q.tol = pdPairTolerance( def, meshA, meshB );
	q.sc.tolerance = q.tol;
	q.deadline = def->timeBudgetMs > 0.0 ? startMs + def->timeBudgetMs : INFINITY;

	// Scratch: two feature sets, the planes, the multipliers.
	pdWorkspace* ws = ioWorkspace;
	if ( !pdBuffer_Reserve( &ws->pdFeatures, 2 * PD_MAX_PD_FEATURES * sizeof( pdContactFeature ), false ) ||
		 !pdBuffer_Reserve( &ws->pdPlanes, 2 * PD_MAX_PD_FEATURES * sizeof( pdContactPlane ), false ) ||
		 !pdBuffer_Reserve( &ws->pdScratch, PD_MAX_PD_FEATURES * sizeof( double ), false ) )
	{
		return pdFail( outResult, PD_STATUS_OUT_OF_MEMORY, startMs );
	}
	q.features[0] = ws->pdFeatures.data;
	q.features[1] = q.features[0] + PD_MAX_PD_FEATURES;
	q.planes = ws->pdPlanes.data;
	q.memory = q.planes + PD_MAX_PD_FEATURES;
	q.lambda = ws->pdScratch.data;

	// 0. A pair the last query found apart (a resting pair a skin apart, every step) is most
	// likely still apart: one traversal proves that no two triangles lie within the tolerance
	// (the culls of the feature gathering at the tolerance, then the exact triangle distance;
	// it stops at the first pair within), without the collision check below, which visits every
	// overlapping box pair when nothing intersects. The classification is the same as the
	// tolerance-bounded distance query's (containment is checked as pdCollide checks it); any
	// other outcome takes the full path.
	if ( ioCache != NULL && ioCache->lastSeparated )
	{
		bool apart = false;
		status = pdQuery_ApartByTolerance( &q, poseA, poseB, &apart );
		if ( status < 0 )
		{
			return pdFail( outResult, status, startMs );
		}
		if ( apart && pdApartUnlessContained( meshA, &q.sc.frameA, meshB, &q.sc.frameB, q.sc.containment, ws ) )
		{
			outResult->state = PD_STATE_SEPARATED;
			outResult->nodeVisits = q.nodeVisits;
			return pdFinish( outResult, PD_STATUS_OK, startMs );
		}
	}

	// 1. Colliding at all? The intersecting pairs also seed the start directions.
	pdCollideDef collideDef = pdDefaultCollideDef();
	collideDef.reportAllPairs = true;
	collideDef.maxPairs = 256;
	collideDef.checkContainment = q.sc.containment;
	pdCollideResult collide;
	status = pdCollide( meshA, poseA, meshB, poseB, &collideDef, ws, &collide );
	q.nodeVisits += collide.nodeVisits;
	if ( status < 0 )
	{
		return pdFail( outResult, status, startMs );
	}
	if ( !collide.colliding )
	{
		// Touching or apart: a pair within the tolerance is touching (step 0's proof, which
		// decides exactly what a distance query bounded by the tolerance would).
		bool apart = false;
		status = pdQuery_ApartByTolerance( &q, poseA, poseB, &apart );
		if ( status < 0 )
		{
			return pdFail( outResult, status, startMs );
		}
		outResult->state = apart ? PD_STATE_SEPARATED : PD_STATE_TOUCHING;
		if ( ioCache != NULL )
		{
			ioCache->lastSeparated = outResult->state == PD_STATE_SEPARATED;
		}
		outResult->nodeVisits = q.nodeVisits;
		return pdFinish( outResult, PD_STATUS_OK, startMs );
	}

	// 2. Convex pairs: the exact answer from the orientation-graph overlay.
	bool exact = false;
	if ( def->useConvexExactPath && meshA->convex && meshB->convex )
	{
		pdVec3 t;
		double depth = 0.0;
		int candidates = 0;
		if ( pdSfog_ConvexPenetration( meshA, &q.sc.frameA, meshB, &q.sc.frameB, ws, &t, &depth, &candidates ) ==
				 PD_STATUS_OK &&
			 pdIsFiniteVec( t ) && pdLength( t ) > 0.0 )
		{
			// Exactly touching: keep a small gap so the answer is not colliding.
			pdVec3 u = pdNormalize( t );
			for ( int k = 0; k < 4 && !exact; ++k )
			{
				pdVec3 padded = pdMulAdd( t, ( 0.05 + 0.5 * k ) * q.tol, u );
				if ( !pdStart_Collides( &q.sc, padded ) )
				{
					pdQuery_Offer( &q, padded, 0, -1.0 );
					exact = true;
				}
			}
		}
	}

	// 3-4. Starts and the PolyDepth iteration from each, pruned by the best bound.
	int starts = 0;
	if ( !exact )
	{
		const pdStartCandidate* candidates = NULL;
		int candidateCount = pdProposeStarts( &q.sc, def->startStrategies, ioCache, collide.pairs, collide.pairCount,
											  def->randomDirections, def->randomSeed, &candidates );
		for ( int i = 0; i < candidateCount && starts < def->maxStarts; ++i )
		{
			// At least one start always runs, so even a tiny budget returns a real contact.
			if ( pdQuery_Settled( &q ) || ( q.haveBest && pdQuery_OutOfTime( &q ) ) )
			{
				break;
			}
			const pdStartCandidate* candidate = candidates + i;
			double bound = q.haveBest ? q.bestLength : INFINITY;
			double accept = q.haveBest ? q.bestLength - pdQuery_Epsilon( &q, q.bestLength ) : INFINITY;
			pdVec3 contact;
			double contactGap = -1.0;
			// A cached contact configuration (motion coherence) is usually still one, or within a
			// fraction of a millimetre of one: one traversal says whether it is free and within
			// the tolerance of touching, with its features. Then it is the start's contact, and
			// the out-projection (a collision check, a sweep and a gathering) is not needed.
			pdStartGap atPoint = PD_START_GAP_UNKNOWN;
			bool gathered = false;
			pdStartCandidate pushedCandidate;
			double limit = pdStart_Limit( &q.sc, bound );
			double cachedLength = pdLength( candidate->translation );
			if ( candidate->strategy == PD_START_COHERENCE && !candidate->direction && cachedLength < limit )
			{
				contact = candidate->translation;
				atPoint = pdQuery_ClassifyGathering( &q, contact, &contactGap, &gathered );
				if ( atPoint == PD_START_GAP_COLLIDING && cachedLength > 0.0 )
				{
					// Sunk a little since: the push's first step, classified the same way; free,
					// it stands for the cached point (a contact itself, or where the sweep starts).
					pdVec3 pushed =
						pdMulAdd( candidate->translation, pdStart_FirstPush( &q.sc ) / cachedLength, candidate->translation );
					if ( pdLength( pushed ) < limit &&
						 pdQuery_ClassifyGathering( &q, pushed, &contactGap, &gathered ) == PD_START_GAP_FREE )
					{
						pushedCandidate = *candidate;
						pushedCandidate.translation = pushed;
						candidate = &pushedCandidate;
						atPoint = PD_START_GAP_FREE;
						contact = pushed;
					}
				}
			}
			if ( !gathered )
			{
				pdVec3 start;
				contactGap = -1.0;
				if ( !pdStart_MakeFreeKnowing( &q.sc, candidate, bound, def->lineRefinement, atPoint, &start ) )
				{
					continue;
				}
				if ( !pdQuery_OutProjectEx( &q, start, pdV3( 0.0, 0.0, 0.0 ), true, accept, &contact ) )
				{
					continue;
				}
			}
			if ( q.haveBest && !( pdLength( contact ) < accept ) )
			{
				continue;
			}
			pdQuery_Accept( &q );
			starts += 1;
			pdQuery_Offer( &q, contact, 0, contactGap );
			pdQuery_Refine( &q, contact );
		}

		// Basins beside the best answer, then a pattern search on its direction: the contact space iteration
		// stalls at vertex-vertex and parallel-edge contacts of tessellated curved surfaces.
		starts += pdQuery_ConeSearch( &q, def->coneDirections, def->maxStarts - starts );
		starts += pdQuery_DirectionSearch( &q, def->maxStarts - starts );

		if ( !q.haveBest )
		{
			// Nothing proposed or nothing worked: back off along the centroid difference past the
			// enclosing spheres (free by construction), then out-project once.
			pdVec3 cA = pdFrameApply( &q.sc.frameA, meshA->centroid );
			pdVec3 cB = pdFrameApply( &q.sc.frameB, meshB->centroid );
			pdVec3 u = pdNormalize( pdSub( cA, cB ) );
			if ( pdLengthSq( u ) < 0.25 )
			{
				u = pdV3( 1.0, 0.0, 0.0 );
			}
			pdVec3 far = pdScale( u, pdStart_SeparationDistance( &q.sc, u ) );
			pdVec3 contact;
			if ( pdQuery_OutProject( &q, far, pdV3( 0.0, 0.0, 0.0 ), &contact ) )
			{
				pdQuery_Accept( &q );
				pdQuery_Offer( &q, contact, 0, -1.0 );
				starts += 1;
			}
			else
			{
				pdQuery_Offer( &q, far, 0, -1.0 );
			}
		}
	}

	// 5. The answer: verified free, then tightened toward o so that the gap left by the
	// out-projection does not count against the depth.
	pdVec3 answer = q.best;
	pdVec3 u = pdNormalize( answer );
	if ( pdLengthSq( u ) < 0.25 )
	{
		u = pdV3( 1.0, 0.0, 0.0 );
	}
	// An answer where an in-projection landed in contact was already proven free with its gap
	// measured exactly: the same check again would give the same distance.
	double gap = q.bestGap;
	bool valid = gap > 0.0;
	if ( !valid )
	{
		// Out-projected answers stop about tol/2 short of touching; a bound well above that
		// keeps the distance search short, and an answer farther out is tightened from it.
		valid = pdStart_FreeGap( &q.sc, answer, 16.0 * q.tol, &gap );
	}
	for ( int k = 1; k <= 8 && !valid; ++k )
	{
		answer = pdMulAdd( q.best, k * q.tol, u );
		valid = pdStart_FreeGap( &q.sc, answer, 16.0 * q.tol, &gap );
	}
	if ( !valid )
	{
		answer = pdScale( u, pdStart_SeparationDistance( &q.sc, u ) );
	}
	else
	{
		double pull = gap - 0.05 * q.tol;
		if ( pull > 0.0 && pull < pdLength( answer ) )
		{
			// Moving by less than the gap (a lower bound on the distance) cannot make the
			// surfaces meet, nor put one solid inside the other: free without another check.
			answer = pdMulAdd( answer, -pull, u );
		}
	}

	outResult->state = PD_STATE_PENETRATING;
	outResult->translation = answer;
	outResult->depth = pdLength( answer );
	outResult->iterations = q.iterations;
	outResult->starts = starts;
	outResult->contacts = q.bestPlanes;

	// 6. Local PDs.
	if ( def->computeLocalPenetrations )
	{
		pdQuery_LocalPenetrations( &q, answer, outResult );
	}

	// 7. Motion coherence.
	pdUpdateCache( &q, ioCache, answer );
	if ( ioCache != NULL )
	{
		ioCache->lastSeparated = false;
	}

	outResult->nodeVisits = q.nodeVisits + q.sc.nodeVisits;
	pdStatus final = PD_STATUS_OK;
	if ( q.timeUp )
	{
		final = PD_STATUS_TIME_LIMIT;
	}
	else if ( q.iterationLimit )
	{
		final = PD_STATUS_ITERATION_LIMIT;
	}
	return pdFinish( outResult, final, startMs );
}
