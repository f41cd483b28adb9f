// SPDX-License-Identifier: MIT
// Transitional: replaced by the orientation-pruning stage.
#include "sfog.h"

pdSfog* pdSfog_Build( const pdMesh* mesh )
{
	(void)mesh;
	return NULL;
}

void pdSfog_Destroy( pdSfog* sfog )
{
	(void)sfog;
}

size_t pdSfog_Bytes( const pdSfog* sfog )
{
	(void)sfog;
	return 0;
}

bool pdSfog_IsApplicable( const pdMesh* meshA, const pdMat33* rotationA, const pdMesh* meshB, const pdMat33* rotationB,
						  const pdContactFeature* feature )
{
	(void)meshA;
	(void)rotationA;
	(void)meshB;
	(void)rotationB;
	(void)feature;
	return true;
}

pdStatus pdSfog_ConvexPenetration( const pdMesh* meshA, const pdFrame* frameA, const pdMesh* meshB, const pdFrame* frameB,
								   pdWorkspace* ws, pdVec3* outTranslation, double* outDepth, int* outCandidates )
{
	(void)meshA;
	(void)frameA;
	(void)meshB;
	(void)frameB;
	(void)ws;
	*outTranslation = pdV3( 0.0, 0.0, 0.0 );
	*outDepth = 0.0;
	if ( outCandidates != NULL )
	{
		*outCandidates = 0;
	}
	return PD_STATUS_FAILED;
}
