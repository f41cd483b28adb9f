// SPDX-License-Identifier: MIT
// Batch queries (batch.h): one workspace per worker, the items split into ranges by the caller's
// task system (or run on the calling thread), every item answered by the single-query entry
// point's kernel with no coherence cache, so the answers do not depend on how the items were split.
#include "polydepth/batch.h"

#include "core.h"
#include "kernels.h"

#include <string.h>

typedef struct pdiBatchRun
{
	const pdBatchItem* items;
	pdiPenetrationOptions penetration; // the def's, resolved once
	pdDistanceDef distance;
	pdPenetrationResult* penetrationResults;
	pdDistanceResult* distanceResults; // one of the two result arrays is set
	pdWorkspace** workspaces;
	int workerCount;
} pdiBatchRun;

static pdBatchDef pdiBatchDefaults( void )
{
	pdBatchDef def;
	memset( &def, 0, sizeof( def ) );
	def.workerCount = 1;
	def.minRange = 1;
	def.internalValue = PDI_SECRET_COOKIE;
	return def;
}

pdBatchDef pdDefaultBatchDef( void )
{
	return pdiBatchDefaults();
}

static void pdiBatchTask( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	const pdiBatchRun* run = (const pdiBatchRun*)taskContext;
	bool validWorker = workerIndex >= 0 && workerIndex < run->workerCount;
	for ( int i = startIndex; i < endIndex; ++i )
	{
		const pdBatchItem* item = run->items + i;
		if ( run->penetrationResults != NULL )
		{
			pdPenetrationResult* out = run->penetrationResults + i;
			if ( !validWorker )
			{
				memset( out, 0, sizeof( *out ) );
				out->status = PD_STATUS_INVALID_ARGUMENT;
				continue;
			}
			pdiComputePenetration( item->meshA, &item->poseA, item->meshB, &item->poseB, &run->penetration, NULL,
								   run->workspaces[workerIndex], out );
		}
		else
		{
			pdDistanceResult* out = run->distanceResults + i;
			if ( !validWorker )
			{
				memset( out, 0, sizeof( *out ) );
				out->status = PD_STATUS_INVALID_ARGUMENT;
				continue;
			}
			out->status = pdiCheckedDistance( item->meshA, &item->poseA, item->meshB, &item->poseB, &run->distance,
											  false, run->workspaces[workerIndex], out );
		}
	}
}

static pdStatus pdiCheckBatchDef( const pdBatchDef* def )
{
	if ( def->internalValue != PDI_SECRET_COOKIE )
	{
		return PD_STATUS_DEF_NOT_INITIALIZED;
	}
	if ( def->workerCount < 1 || def->workerCount > 1024 || def->minRange < 1 ||
		 ( def->enqueueTask != NULL && def->finishTask == NULL ) )
	{
		return PD_STATUS_INVALID_DEF;
	}
	return PD_STATUS_OK;
}

// The items' statuses that concern the whole batch: a def problem fails every item alike, and a
// worker index the task system made up fails the items it was given.
static pdStatus pdiBatchStatus( const pdiBatchRun* run, int count )
{
	for ( int i = 0; i < count; ++i )
	{
		pdStatus s =
			run->penetrationResults != NULL ? run->penetrationResults[i].status : run->distanceResults[i].status;
		if ( s == PD_STATUS_DEF_NOT_INITIALIZED || s == PD_STATUS_INVALID_DEF || s == PD_STATUS_INVALID_ARGUMENT )
		{
			return s;
		}
	}
	return PD_STATUS_OK;
}

// Ranges handed to the task system: at least def->minRange items, and about 8 ranges a worker.
// Ranges of one item let the workers write neighbouring results, whose shared cache lines then
// pass between the cores (measured with small queries: docs/experiments.md).
static int pdiBatchRange( int count, const pdBatchDef* def )
{
	int even = count / ( 8 * def->workerCount );
	return even > def->minRange ? even : def->minRange;
}

static pdStatus pdiRunBatch( pdiBatchRun* run, int count, const pdBatchDef* def )
{
	pdBatchDef defaults = pdiBatchDefaults();
	if ( def == NULL )
	{
		def = &defaults;
	}
	pdStatus status = pdiCheckBatchDef( def );
	if ( status != PD_STATUS_OK || count == 0 )
	{
		return status;
	}
	run->distance = def->distance != NULL ? *def->distance : pdiDistanceDefaults();
	if ( run->penetrationResults != NULL )
	{
		status = pdiResolvePenetrationDef( def->penetration, &run->penetration );
		if ( status != PD_STATUS_OK )
		{
			// A def problem fails every item alike.
			for ( int i = 0; i < count; ++i )
			{
				memset( run->penetrationResults + i, 0, sizeof( pdPenetrationResult ) );
				run->penetrationResults[i].status = status;
			}
			return status;
		}
	}
	run->workerCount = def->workerCount;
	size_t bytes = 0;
	run->workspaces = (pdWorkspace**)pdiAllocArray( (size_t)def->workerCount, sizeof( pdWorkspace* ), &bytes );
	if ( run->workspaces == NULL )
	{
		return PD_STATUS_OUT_OF_MEMORY;
	}
	memset( run->workspaces, 0, bytes );
	for ( int w = 0; w < def->workerCount && status == PD_STATUS_OK; ++w )
	{
		run->workspaces[w] = pdiCreateWorkspace();
		status = run->workspaces[w] != NULL ? PD_STATUS_OK : PD_STATUS_OUT_OF_MEMORY;
	}
	if ( status == PD_STATUS_OK )
	{
		if ( def->enqueueTask == NULL )
		{
			pdiBatchTask( 0, count, 0, run );
		}
		else
		{
			void* task = def->enqueueTask( pdiBatchTask, count, pdiBatchRange( count, def ), run, def->userTaskContext );
			if ( task != NULL )
			{
				def->finishTask( task, def->userTaskContext );
			}
		}
		status = pdiBatchStatus( run, count );
	}
	for ( int w = 0; w < def->workerCount; ++w )
	{
		pdiDestroyWorkspace( run->workspaces[w] );
	}
	pdiFree( run->workspaces, bytes );
	return status;
}

// The argument checks both entry points share, then the run; results: exactly one of the two.
static pdStatus pdiStartBatch( const pdBatchItem* items, int count, const pdBatchDef* def,
							  pdPenetrationResult* penetrationResults, pdDistanceResult* distanceResults )
{
	if ( count < 0 || ( count > 0 && ( items == NULL || ( penetrationResults == NULL && distanceResults == NULL ) ) ) )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdiBatchRun run;
	memset( &run, 0, sizeof( run ) );
	run.items = items;
	run.penetrationResults = penetrationResults;
	run.distanceResults = distanceResults;
	return pdiRunBatch( &run, count, def );
}

pdStatus pdComputePenetrationBatch( const pdBatchItem* items, int count, const pdBatchDef* def,
									pdPenetrationResult* outResults )
{
	return pdiStartBatch( items, count, def, outResults, NULL );
}

pdStatus pdComputeDistanceBatch( const pdBatchItem* items, int count, const pdBatchDef* def,
								 pdDistanceResult* outResults )
{
	return pdiStartBatch( items, count, def, NULL, outResults );
}
