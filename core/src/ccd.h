// SPDX-License-Identifier: MIT
// Private: the out-projection stage (ccd.c), translational CCD by conservative advancement on
// the BVHs with the minimal directional distance per BV/triangle pair. The public entry point
// is pdComputeTranslationalCcd in polydepth/query.h.
#pragma once

#include "polydepth/query.h"

/// pdComputeTranslationalCcd on checked input (a def from pdiCcdDefaults, valid meshes, usable
/// poses and end position), with two shortcuts for the PolyDepth driver: startKnownFree skips
/// the static check of the start (the caller proved it free with the same containment rule, so
/// startColliding stays false), and gatherFeatures false leaves the features empty (the caller
/// gathers them only for a contact it keeps).
pdStatus pdiCcd_Sweep( const pdMesh* meshA, const pdTransform* poseA, pdVec3 endPositionA, const pdMesh* meshB,
					  const pdTransform* poseB, const pdCcdDef* def, pdWorkspace* ws, bool startKnownFree,
					  bool gatherFeatures, pdCcdResult* outResult );
