// SPDX-License-Identifier: MIT
// The core's interface to the contact plugin (plugin/): the shortcuts contact generation needs
// that are not options a core user chooses. Exported from a shared core (the plugin is a
// library of its own) and listed in api/polydepth.api, but not installed and not part of the
// public API: it changes with the plugin. Each function checks its input as a public function
// does.
#pragma once

#include "kernels.h"

PD_C_BEGIN

/// pdiResolvePenetrationDef: the def's checks and its resolved options, which the plugin may
/// then adjust (computeLocalPenetrations off).
PD_API pdStatus pdiPlugin_ResolvePenetrationDef( const pdPenetrationDef* def, pdiPenetrationOptions* outOptions );

/// pdComputePenetration with resolved options.
PD_API pdStatus pdiPlugin_ComputePenetration( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
											  const pdTransform* poseB, const pdiPenetrationOptions* options,
											  pdPenetrationCache* ioCache, pdWorkspace* ioWorkspace,
											  pdPenetrationResult* outResult );

/// The local PDs of a penetrating result, from contact features the caller gathered at A
/// translated by result.translation (a contact-feature query with a reach of at least 1.5 x the
/// contact tolerance and approach direction -translation): the same regions the query gives with
/// computeLocalPenetrations on, for a caller that gathers those features anyway (with a wider
/// reach) and so gathers them once. Features farther than 1.5 x the contact tolerance from
/// touching are ignored, as are all after the first 256 within it. options supplies the contact
/// tolerance, as in the query. Fills ioResult->local and localCount; a result that is not
/// penetrating gets none.
PD_API pdStatus pdiPlugin_ComputeLocalPenetrations( const pdMesh* meshA, const pdMesh* meshB,
													const pdiPenetrationOptions* options,
													const pdContactFeature* features, int featureCount,
													pdPenetrationResult* ioResult );

/// pdComputeDistance with knownSeparated (kernels.h).
PD_API pdStatus pdiPlugin_ComputeDistance( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										   const pdTransform* poseB, const pdDistanceDef* def, bool knownSeparated,
										   pdWorkspace* ioWorkspace, pdDistanceResult* outResult );

/// pdComputeContactFeatures with the gap proof's options (kernels.h): a pair confirmed apart as
/// pdComputePenetration would classify it, with its features, in one call: reach = the contact
/// distance wanted, gap = the pair's contact tolerance, stopWithinGap on and checkContainment =
/// closedAsSolid; apart true means that query would report PD_STATE_SEPARATED.
PD_API pdStatus pdiPlugin_ComputeContactFeatures( const pdMesh* meshA, const pdTransform* poseA,
												  const pdMesh* meshB, const pdTransform* poseB,
												  const pdContactFeatureDef* def, pdiGapProof proof,
												  pdWorkspace* ioWorkspace, pdContactFeatureResult* outResult );

/// Whether each vertex or edge of the pair is its mesh's extreme along a world direction (from
/// B toward A, any length): A's feature must be A's extreme along -direction among its
/// neighbours, B's its extreme along +direction. Along the pair's separation pointA - pointB it
/// says whether the pair is locally closest: one that is not is a point of a larger contact that
/// another pair reports with the surface's own normal (an edge of a flat floor against a tilted
/// edge of A gives a sideways push, not a contact normal). Along the pair's normal it is the
/// applicability of a touching pair (the normal lies in both features' normal cones; an edge
/// inside a flat floor has none but the floor's). For an edge the direction must be across it.
/// Neighbours within 1e-6 rad of the plane normal to the direction do not count. True for a
/// zero or non-finite direction, for faces and for edges without exactly two consistent faces.
PD_API bool pdiPlugin_IsFeatureExtremeAlong( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
											 const pdTransform* poseB, const pdContactFeature* feature,
											 pdVec3 direction );

/// Whether a vertex-face (B's face) or face-vertex (A's face) pair's face, on a closed mesh,
/// turns its back on `direction` (world, out of B toward A): B's outward face normal points
/// against it, or A's along it. The vertex then lies behind the face, inside that solid (under
/// the far face of a thin wall), and the pair is no contact along the direction. False for
/// edge-edge pairs, faces of open meshes and invalid arguments.
PD_API bool pdiPlugin_IsFaceTurnedAway( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										const pdTransform* poseB, const pdContactFeature* feature, pdVec3 direction );

/// A certified lower bound on the pair's PD (solids only): the deepest overlap of a ball inside
/// A with a ball inside B (the inner balls built with each closed mesh), r_i + r_j minus the
/// distance of their centres, since A must move at least that far before those balls, and so
/// the solids, part. 0 when no two balls overlap, for open meshes and for invalid arguments.
PD_API double pdiPlugin_InnerBallOverlap( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										  const pdTransform* poseB );

/// Whether the vertex of a vertex-face (A's) or face-vertex (B's) pair leads its mesh into the
/// other along the pair's normal (world, out of B): no neighbour of the vertex (the vertices of
/// the faces around it) lies further into the other solid at a slope steeper than `slope` (the
/// cosine between the neighbour's offset and the push's reverse). A vertex on a plate's bottom
/// edge does not lead toward the other plate's side face: the bottom face runs on into it.
/// True for edge-edge pairs and for invalid arguments.
PD_API bool pdiPlugin_IsVertexLeadingAlong( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
											const pdTransform* poseB, const pdContactFeature* feature, pdVec3 normal,
											double slope );

/// What pdiPlugin_GatherOrientedFeatures found.
typedef struct pdiOrientedFeatures
{
	pdStatus status;
	/// No two triangles within the def's gap and neither solid inside the other (as
	/// pdiPlugin_ComputeContactFeatures with checkContainment).
	bool apart;
	int gatheredCount;                ///< feature pairs the traversal found within the reach
	int featureCount;                 ///< those kept: applicable along their outward normal
	const pdContactFeature* features; ///< owned by the workspace until its next query
	/// The deepest of the penetrating vertices' chosen exits (world units, >= 0): how far the
	/// deepest gathered vertex lies inside the other solid.
	double deepestExit;
	/// How far the deepest vertex of a visited triangle pair that no gathered pair has lies
	/// behind the other triangle's face (world units, 0 when none): beyond the reach over the
	/// face (a crossing deeper than the gathered pairs show), or at any depth past its concave
	/// edges (pdiGapProof.outBuried).
	double buriedDepth;
	/// A penetrating vertex whose every gathered exit lies where its own surface runs on deeper
	/// (a cube's side vertex halfway down into a block): deeper vertices lie beyond the ones
	/// gathered.
	bool unledVertex;
	int nodeVisits;
} pdiOrientedFeatures;

/// How pdiPlugin_GatherOrientedFeatures picks each penetrating vertex's exit.
typedef struct pdiExitChoice
{
	double band;      ///< along the chosen direction, exits this much deeper than the shallowest are dropped
	pdVec3 preferred; ///< the side A is known to leave toward (any length; zero: none)
} pdiExitChoice;

/// The contact features of two closed meshes within def->reach at their poses, as local
/// contacts of penetrating solids, from one traversal (with def->gap's proof, containment
/// included): each normal points out of B by the meshes' outward normals (B's face for
/// vertex-face, A's face reversed for face-vertex, the edges' outward sides for edge-edge) and
/// each distance is signed along it (negative = penetrating); an edge-edge pair is kept when
/// each edge is its mesh's extreme toward the other along that normal. Each penetrating vertex
/// leaves by one exit: its shallowest, or its shallowest within 60 degrees of choice->preferred
/// when that one is opposite the shallowest (more than 120 degrees) and at most twice as deep;
/// its exits along other directions (normals more than 18 degrees apart) are dropped, and along
/// the chosen one those more than choice->band deeper. A vertex with a pair outside the other
/// solid keeps none behind a face. PD_STATUS_INVALID_ARGUMENT for a mesh that is not closed or
/// a bad choice.
PD_API pdStatus pdiPlugin_GatherOrientedFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
												  const pdTransform* poseB, const pdContactFeatureDef* def,
												  const pdiExitChoice* choice, pdWorkspace* ioWorkspace,
												  pdiOrientedFeatures* outResult );

PD_C_END
