// SPDX-License-Identifier: MIT
// Transitional: replaced by the PolyDepth stage.
#include "initial_config.h"

pdStatus pdComputeClearancePoints( pdMesh* mesh, int gridResolution )
{
	(void)gridResolution;
	mesh->clearanceCount = 0;
	mesh->clearancePoints = NULL;
	mesh->clearanceRadii = NULL;
	return PD_STATUS_OK;
}

void pdFreeClearancePoints( pdMesh* mesh )
{
	mesh->clearanceCount = 0;
}
