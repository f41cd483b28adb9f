// SPDX-License-Identifier: MIT
// Private: the query kernels. Each public entry point checks its def and its input once, sets
// up, and calls its kernel here; stages and the batch call the kernels with inputs already
// checked (valid meshes, usable poses, a valid workspace, a def from its defaults function), so
// no stage repeats a public function's checks. The contact plugin reaches the core through
// plugin_interface.h, which checks like a public function.
#pragma once

#include "polydepth/penetration.h"
#include "polydepth/research.h"

// The private headers have no C++ guards of their own; C++ tests include this one directly.
PD_C_BEGIN
#include "core.h"
#include "mesh.h"
#include "workspace.h"

// ---------------------------------------------------------------------------------------------
// Defaults: what the pdDefaultXxxDef() functions return.

pdCollideDef pdiCollideDefaults( void );
pdDistanceDef pdiDistanceDefaults( void );
pdCcdDef pdiCcdDefaults( void );
pdContactFeatureDef pdiContactFeatureDefaults( void );

// ---------------------------------------------------------------------------------------------
// Proximity kernels (collide.c, distance.c, contact_features.c, ccd.c).

/// pdCollide on checked input.
pdStatus pdiCollide( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB, const pdTransform* poseB,
					 const pdCollideDef* def, pdWorkspace* ws, pdCollideResult* outResult );

/// pdComputeDistance on checked input. knownSeparated: the caller has just found the meshes not
/// intersecting at these poses (or expects them free), so the first-hit collision check that
/// settles intersecting meshes quickly is skipped; the answer is the same either way.
pdStatus pdiComputeDistance( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							 const pdTransform* poseB, const pdDistanceDef* def, bool knownSeparated, pdWorkspace* ws,
							 pdDistanceResult* outResult );

/// pdComputeDistance with knownSeparated: the public function's checks, then the kernel.
pdStatus pdiCheckedDistance( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							 const pdTransform* poseB, const pdDistanceDef* def, bool knownSeparated, pdWorkspace* ws,
							 pdDistanceResult* outResult );

/// How a contact-feature query's gap proof (def.gap >= 0) may end early and what it counts as
/// not apart.
/// A vertex behind a face of the other mesh (pdiGapProof.outBuried): key is A's canonical
/// vertex id, or A's vertex count plus B's; depth how far behind the face (world units).
typedef struct pdiBuriedVertex
{
	int key;
	double depth;
} pdiBuriedVertex;

/// The buried vertices of one gathering, in the workspace until its next query; full when more
/// were found than kept (PDI_BURIED_CAP).
typedef struct pdiBuriedVertices
{
	int count;
	bool full;
	const pdiBuriedVertex* items;
} pdiBuriedVertices;

#define PDI_BURIED_CAP 4096

typedef struct pdiGapProof
{
	/// The first triangle pair within the gap ends the traversal (the features are then
	/// incomplete: for a caller that wants them only for an apart pair).
	bool stopWithinGap;
	/// With two closed meshes, `apart` is also false when one contains the other (pdCollide's
	/// containment test): the classification a PD query makes of two solids (closedAsSolid).
	bool checkContainment;
	/// Edge-edge pairs with an edge between coplanar faces are not gathered (nor counted
	/// against maxFeatures): inside a flat patch the vertex-face pairs say all there is.
	bool skipFlatEdges;
	/// Non-NULL, with two closed meshes: receives the vertices of the crossing triangle pairs
	/// visited that lie behind the other triangle's face (on its solid's side) where no
	/// vertex-face pair can have them: over the face by more than the reach, or past its
	/// concave edges only by any depth. A crossing whose vertices the reach does not see (a
	/// plate tilted through another, its corners 15 mm in) gathers no vertex pair, only edges
	/// crossing at zero depth, and a vertex sunk into a floor where it meets a wall lies over
	/// neither face; a vertex listed here and in no gathered pair is such a vertex.
	pdiBuriedVertices* outBuried;
} pdiGapProof;

/// pdComputeContactFeatures on checked input, with the proof's options.
pdStatus pdiComputeContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									const pdTransform* poseB, const pdContactFeatureDef* def, pdiGapProof proof,
									pdWorkspace* ws, pdContactFeatureResult* outResult );

/// pdComputeContactFeatures with the proof's options: the public function's checks, then the
/// kernel (for the public function and the plugin interface).
pdStatus pdiCheckedContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									const pdTransform* poseB, const pdContactFeatureDef* def, pdiGapProof proof,
									pdWorkspace* ws, pdContactFeatureResult* outResult );

// ---------------------------------------------------------------------------------------------
// Penetration depth (penetration.c).

/// Most contact features kept per contact configuration.
#define PDI_MAX_PD_FEATURES 256

/// Every setting of one PD query, flat: the caller's def with its research settings resolved
/// (the quality preset, or def.settings); fields as in pdPenetrationDef and
/// pdPenetrationSettings.
typedef struct pdiPenetrationOptions
{
	double contactTolerance; ///< <= 0: the pair's default (1e-4 of the smaller diagonal)
	double timeBudgetMs;
	int maxIterations;
	bool closedAsSolid;
	unsigned startStrategies;
	int maxStarts;
	int maxContactPlanes;
	int maxLcpIterations;
	int randomDirections;
	unsigned randomSeed;
	int coneDirections;
	bool lineRefinement;
	bool useOrientationPruning;
	bool useOrientationCulling;
	bool useConvexExactPath;
	int maxTrackedQueries;
	/// Group the contacts at the answer into the result's local PDs. Off for a caller that
	/// gathers its own contacts at the answer anyway and groups them with
	/// pdiPlugin_ComputeLocalPenetrations, so they are gathered once.
	bool computeLocalPenetrations;
	/// Certify the result's lower bound (ball tests, tens of microseconds a query). Off for a
	/// caller that does not read it: the result then says 0, the bound known without them.
	bool computeLowerBound;
} pdiPenetrationOptions;

/// The settings of a preset (what pdDefaultPenetrationSettings returns).
pdPenetrationSettings pdiPenetrationSettingsOf( pdPenetrationQuality quality );

/// Checks a def (NULL: the defaults) and its settings, and resolves them into outOptions.
/// PD_STATUS_OK, PD_STATUS_DEF_NOT_INITIALIZED or PD_STATUS_INVALID_DEF.
pdStatus pdiResolvePenetrationDef( const pdPenetrationDef* def, pdiPenetrationOptions* outOptions );

/// pdComputePenetration with resolved options. Meshes, poses, workspace and result are checked
/// here (the batch hands items it has not checked); options must come from
/// pdiResolvePenetrationDef or be built from one.
pdStatus pdiComputePenetration( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
								const pdTransform* poseB, const pdiPenetrationOptions* options,
								pdPenetrationCache* ioCache, pdWorkspace* ws, pdPenetrationResult* outResult );

PD_C_END
