// SPDX-License-Identifier: MIT
// Shorthands the tests use for common pdComputeContactFeatures calls: the features within a
// reach (optionally swept by a motion), a gap proof, and the apart confirmation the Bullet
// plugin makes (gap = the contact tolerance, containment as closedAsSolid), each one def and
// one query. The query does all argument checking; these only fill the def and copy results.
#pragma once

#include "plugin_interface.h"
#include "polydepth/polydepth.h"

#include <stddef.h>

static inline pdStatus testSweptContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
												 const pdTransform* poseB, double reach, const pdRigidMotion* motion,
												 pdVec3 approach, int maxFeatures, pdWorkspace* ws, int* outCount,
												 const pdContactFeature** outFeatures )
{
	pdContactFeatureDef def = pdDefaultContactFeatureDef();
	def.reach = reach;
	def.motion = motion;
	def.approachDirection = approach;
	def.maxFeatures = maxFeatures;
	pdContactFeatureResult r;
	pdStatus status = pdComputeContactFeatures( meshA, poseA, meshB, poseB, &def, ws, &r );
	*outCount = r.featureCount;
	*outFeatures = r.features;
	return status;
}

static inline pdStatus testContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
											const pdTransform* poseB, double reach, pdVec3 approach, int maxFeatures,
											pdWorkspace* ws, int* outCount, const pdContactFeature** outFeatures )
{
	return testSweptContactFeatures( meshA, poseA, meshB, poseB, reach, NULL, approach, maxFeatures, ws, outCount,
									 outFeatures );
}

static inline pdStatus testGapProof( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									 const pdTransform* poseB, double gap, pdWorkspace* ws, bool* outApart )
{
	pdContactFeatureDef def = pdDefaultContactFeatureDef();
	def.reach = gap;
	def.maxFeatures = 0;
	def.gap = gap;
	pdiGapProof defProof = { true, false, false };
	pdContactFeatureResult r;
	pdStatus status = pdiPlugin_ComputeContactFeatures( meshA, poseA, meshB, poseB, &def, defProof, ws, &r );
	*outApart = r.apart;
	return status;
}

/// The plugin's confirmation that a pair its cache remembers apart is still apart, with the
/// features within reach; tolerance is the pair's contact tolerance. Records an apart pair in
/// ioCache (may be NULL) as pdComputePenetration would. No features unless apart.
static inline pdStatus testConfirmApart( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										 const pdTransform* poseB, double tolerance, bool closedAsSolid,
										 pdPenetrationCache* ioCache, double reach, pdVec3 approach, int maxFeatures,
										 pdWorkspace* ws, bool* outApart, int* outCount,
										 const pdContactFeature** outFeatures )
{
	pdContactFeatureDef def = pdDefaultContactFeatureDef();
	def.reach = reach;
	def.approachDirection = approach;
	def.maxFeatures = maxFeatures;
	def.gap = tolerance;
	pdiGapProof defProof = { true, false, false };
	defProof.checkContainment = closedAsSolid;
	pdContactFeatureResult r;
	pdStatus status = pdiPlugin_ComputeContactFeatures( meshA, poseA, meshB, poseB, &def, defProof, ws, &r );
	*outApart = status >= 0 && r.apart;
	*outCount = *outApart ? r.featureCount : 0;
	*outFeatures = *outApart ? r.features : NULL;
	if ( *outApart && ioCache != NULL )
	{
		ioCache->lastSeparated = true;
	}
	return status;
}
