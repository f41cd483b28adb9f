// SPDX-License-Identifier: MIT
// The core's interface to the contact plugin: checked entry points over the kernels.
#include "plugin_interface.h"

#include <string.h>

pdStatus pdiPlugin_ResolvePenetrationDef( const pdPenetrationDef* def, pdiPenetrationOptions* outOptions )
{
	return outOptions == NULL ? PD_STATUS_INVALID_ARGUMENT : pdiResolvePenetrationDef( def, outOptions );
}

pdStatus pdiPlugin_ComputePenetration( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									   const pdTransform* poseB, const pdiPenetrationOptions* options,
									   pdPenetrationCache* ioCache, pdWorkspace* ioWorkspace,
									   pdPenetrationResult* outResult )
{
	if ( outResult == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	if ( options == NULL )
	{
		memset( outResult, 0, sizeof( *outResult ) );
		outResult->status = PD_STATUS_INVALID_ARGUMENT;
		return outResult->status;
	}
	return pdiComputePenetration( meshA, poseA, meshB, poseB, options, ioCache, ioWorkspace, outResult );
}

pdStatus pdiPlugin_ComputeDistance( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									const pdTransform* poseB, const pdDistanceDef* def, bool knownSeparated,
									pdWorkspace* ioWorkspace, pdDistanceResult* outResult )
{
	return pdiCheckedDistance( meshA, poseA, meshB, poseB, def, knownSeparated, ioWorkspace, outResult );
}

pdStatus pdiPlugin_ComputeContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										   const pdTransform* poseB, const pdContactFeatureDef* def, pdiGapProof proof,
										   pdWorkspace* ioWorkspace, pdContactFeatureResult* outResult )
{
	return pdiCheckedContactFeatures( meshA, poseA, meshB, poseB, def, proof, ioWorkspace, outResult );
}
