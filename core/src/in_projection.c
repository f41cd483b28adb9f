// SPDX-License-Identifier: MIT
// PolyDepth in-projection inputs: the contact planes of the current contact configuration
// (after orientation pruning, with a closest-pair plane when only dropped feature kinds touch,
// and the planes met earlier in the same start), and the escape direction that backs a contact
// configuration off along every active plane. The LCP itself is lcp.c.
#include "penetration_query.h"

#include "sfog.h"

int pdiQuery_BuildPlanes( pdiPdQuery* q, pdVec3 xc )
{
	pdContactFeature* features = q->features[q->current];
	int count = q->featureCount[q->current];
	if ( q->def->useOrientationPruning && count > 0 )
	{
		// One applicability test per feature; the verdicts are kept while the list compacts.
		bool applicable[PDI_MAX_PD_FEATURES];
		int kept = 0;
		for ( int i = 0; i < count; ++i )
		{
			applicable[i] =
				pdiSfog_IsApplicable( q->sc.meshA, &q->sc.frameA.r, q->sc.meshB, &q->sc.frameB.r, features + i );
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
		pdTransform poseA = pdiQuery_PoseA( q, xc );
		pdTransform poseB = pdiQuery_PoseB( q );
		pdDistanceDef def = pdiDistanceDefaults();
		pdDistanceResult r;
		if ( pdiComputeDistance( q->sc.meshA, &poseA, q->sc.meshB, &poseB, &def, false, q->sc.ws, &r ) >= 0 &&
			 r.distance > 0.0 && r.distance <= 2.0 * q->tol )
		{
			q->nodeVisits += r.nodeVisits;
			pdContactFeature f;
			memset( &f, 0, sizeof( f ) );
			f.kind = PD_CONTACT_VF;
			f.pointA = r.pointA;
			f.pointB = r.pointB;
			f.normal = pdiNormalize( pdiSub( r.pointA, r.pointB ) );
			f.distance = r.distance;
			features[0] = f;
			count = 1;
			q->featureCount[q->current] = 1;
		}
	}
	int planeCount = pdiBuildContactPlanes( features, count, xc, q->def->maxContactPlanes, q->planes, NULL, NULL );
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
		pdiContactPlane p = q->memory[m];
		// Only planes still nearly active here: a violated or distant plane belongs to another
		// part of a non-convex contact space.
		double residual = pdiDot( p.normal, xc ) - p.offset;
		if ( residual < -q->tol || residual > fmax( 20.0 * q->tol, 0.05 * pdiLength( xc ) ) )
		{
			continue;
		}
		int same = -1;
		for ( int j = 0; j < planeCount && same < 0; ++j )
		{
			if ( 1.0 - pdiDot( q->planes[j].normal, p.normal ) < PDI_PLANE_DEDUP_TOLERANCE )
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
	memcpy( q->memory, q->planes, (size_t)planeCount * sizeof( pdiContactPlane ) );
	q->memoryCount = planeCount;
	return planeCount;
}

// A direction along which every active pair separates (the in-projection of n_i . y >= 1),
// for backing off a contact configuration before the next out-projection.
pdVec3 pdiQuery_Escape( pdiPdQuery* q, int planeCount, pdVec3 xc )
{
	pdVec3 fallback = pdiNormalize( xc );
	if ( planeCount <= 0 )
	{
		return fallback;
	}
	pdiContactPlane unit[PDI_MAX_PD_FEATURES];
	for ( int i = 0; i < planeCount; ++i )
	{
		unit[i] = q->planes[i];
		unit[i].offset = 1.0;
	}
	pdiLcpResult r = pdiSolveInProjection( unit, planeCount, q->def->maxLcpIterations, NULL );
	double len = pdiLength( r.x );
	if ( !r.converged || r.infeasible || !( len > 0.0 ) || len > 1e3 )
	{
		return fallback;
	}
	return pdiScale( r.x, 1.0 / len );
}
