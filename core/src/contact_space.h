// SPDX-License-Identifier: MIT
// Private: the local contact space of PolyDepth (contact_space.c). Contact feature pairs found
// at a contact configuration become half-spaces n_i . x >= c_i of translations x of A
// (relative to the query configuration o), the linearisation that the in-projection solves on.
#pragma once

#include "lcp.h"
#include "polydepth/query.h"

/// Normals closer than this (1 - dot) are the same plane; the most constraining offset wins.
#define PDI_PLANE_DEDUP_TOLERANCE 1e-9

/// The offset of the plane of one feature pair found with A translated by contactTranslation
/// (relative to o): c = n . (x_c + p_B - p_A), so that n . x >= c keeps the pair apart.
double pdiContactPlaneOffset( const pdContactFeature* feature, pdVec3 contactTranslation );

/// Builds the contact planes of featureCount features found at contactTranslation. Drops
/// features with a non-finite or zero normal, merges planes whose normals agree within
/// PDI_PLANE_DEDUP_TOLERANCE keeping the LARGEST offset (the most constraining), sorts by offset,
/// largest first, and keeps at most maxPlanes. outPlanes needs room for featureCount entries.
/// outMerged (may be NULL) receives the number of duplicates merged, outTruncated (may be NULL)
/// the number of distinct planes dropped by maxPlanes. Returns the planes kept.
int pdiBuildContactPlanes( const pdContactFeature* features, int featureCount, pdVec3 contactTranslation, int maxPlanes,
						  pdiContactPlane* outPlanes, int* outMerged, int* outTruncated );
