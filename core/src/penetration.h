// SPDX-License-Identifier: MIT
// Private: the PolyDepth driver (penetration.c) — validation, the convex exact path, the start
// search, the per-start iteration (out-projection, contact planes, in-projection, classify),
// the final answer and the local PDs. The public entry points are in polydepth/penetration.h.
#pragma once

#include "ccd.h"
#include "polydepth/penetration.h"

/// Most contact features kept per contact configuration.
#define PDI_MAX_PD_FEATURES 256

/// The default contact tolerance for a pair: 1e-4 of the smaller bounding-box diagonal.
double pdiDefaultContactTolerance( const pdMesh* meshA, const pdMesh* meshB );

/// Checks a def's cookie and ranges. PD_STATUS_OK, DEF_NOT_INITIALIZED or INVALID_DEF.
pdStatus pdiValidatePenetrationDef( const pdPenetrationDef* def );
