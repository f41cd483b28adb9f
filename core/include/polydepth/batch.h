// SPDX-License-Identifier: MIT
// Batch queries: many PD or distance queries over shared, immutable meshes in one call, run in
// parallel through the caller's task system (the enqueue/finish pattern of Box2D v3) or serially.
// Each item is answered exactly as one pdComputePenetration / pdComputeDistance call with a fresh
// workspace and no coherence cache would answer it, whatever the thread count.
#pragma once

#include "penetration.h"
#include "query.h"

PD_C_BEGIN

/// A range of items [startIndex, endIndex) for one worker; workerIndex is in [0, workerCount).
typedef void pdTaskCallback( int startIndex, int endIndex, int workerIndex, void* taskContext );

/// Hands the task to the caller's task system: it must run task over [0, itemCount) split into
/// ranges of at least minRange items, each range on one worker with a distinct workerIndex
/// among those running at the same time. Return a handle for finishTask, or NULL when the task
/// was run to completion inside this call.
typedef void* pdEnqueueTaskCallback( pdTaskCallback* task, int itemCount, int minRange, void* taskContext,
									 void* userContext );

/// Waits until the task behind userTask (from enqueueTask) has run over every item.
typedef void pdFinishTaskCallback( void* userTask, void* userContext );

/// One query of a batch: two meshes (shared by any number of items) and their poses.
typedef struct pdBatchItem
{
	const pdMesh* meshA;
	pdTransform poseA;
	const pdMesh* meshB;
	pdTransform poseB;
} pdBatchItem;

/// Options of a batch. Initialise with pdDefaultBatchDef(); NULL means the defaults (serial).
typedef struct pdBatchDef
{
	const pdPenetrationDef* penetration; ///< the PD queries' options; NULL: pdDefaultPenetrationDef()
	const pdDistanceDef* distance;       ///< the distance queries' options; NULL: pdDefaultDistanceDef()
	/// Workers the task system may run at once (one workspace each, made by the batch). Default 1
	int workerCount;
	/// The caller's task system; NULL runs the batch on the calling thread. Default NULL
	pdEnqueueTaskCallback* enqueueTask;
	pdFinishTaskCallback* finishTask; ///< required with enqueueTask
	void* userTaskContext;            ///< passed to enqueueTask and finishTask
	/// Fewest items per range handed to a worker; the batch hands ranges of about 1/8 of a
	/// worker's share when that is more. Default 1
	int minRange;
	int internalValue; ///< set by pdDefaultBatchDef(); do not touch
} pdBatchDef;

PD_API pdBatchDef pdDefaultBatchDef( void );

/// Answers itemCount PD queries into outResults[0..itemCount). Returns PD_STATUS_OK when every item was
/// run (each result carries its own status: a bad mesh or pose fails that item only);
/// PD_STATUS_INVALID_ARGUMENT for a NULL items/outResults with itemCount > 0, a negative itemCount, an
/// enqueueTask without finishTask or a worker index outside [0, workerCount) (those items get
/// that status too); PD_STATUS_DEF_NOT_INITIALIZED / PD_STATUS_INVALID_DEF for a bad def;
/// PD_STATUS_OUT_OF_MEMORY when the workspaces cannot be made.
PD_API pdStatus pdComputePenetrationBatch( const pdBatchItem* items, int itemCount, const pdBatchDef* def,
										   pdPenetrationResult* outResults );

/// The same for distance queries.
PD_API pdStatus pdComputeDistanceBatch( const pdBatchItem* items, int itemCount, const pdBatchDef* def,
										pdDistanceResult* outResults );

PD_C_END
