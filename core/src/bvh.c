// SPDX-License-Identifier: MIT
// Transitional: replaced by the BVH stage.
#include "bvh.h"

#include <string.h>

pdStatus pdBvh_Build( pdBvh* outBvh, const struct pdMesh* mesh )
{
	(void)mesh;
	memset( outBvh, 0, sizeof( *outBvh ) );
	return PD_STATUS_OK;
}

void pdBvh_Destroy( pdBvh* bvh )
{
	memset( bvh, 0, sizeof( *bvh ) );
}
