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
