// SPDX-License-Identifier: MIT
// PolyDepth core: proximity queries between two posed meshes (collide, distance, translational
// continuous collision, contact features). Re-entrant: all scratch memory lives in a
// caller-owned workspace (one per thread); after warm-up a query allocates nothing.
#pragma once

#include "mesh.h"

PD_C_BEGIN

/// Per-thread scratch memory for queries. Not shareable between threads at the same time.
typedef struct pdWorkspace pdWorkspace;

/// Creates an empty workspace. NULL when memory runs out, with *outError (may be NULL) saying so.
PD_API pdWorkspace* pdCreateWorkspace( pdError* outError );
PD_API void pdDestroyWorkspace( pdWorkspace* workspace );
/// Bytes the workspace holds (it grows on demand and keeps its high-water mark).
PD_API size_t pdWorkspace_GetBytes( const pdWorkspace* workspace );

/// Kind of a mesh feature.
typedef enum pdFeatureType
{
	PD_FEATURE_VERTEX = 0,
	PD_FEATURE_EDGE = 1,
	PD_FEATURE_FACE = 2,
} pdFeatureType;

/// A feature of a kept triangle: a vertex (index 0..2), an edge (index i joins vertex i and
/// vertex (i+1)%3) or the face itself (index 0). vertex is the mesh vertex index for a vertex
/// feature, and the edge's first mesh vertex for an edge feature; -1 for a face.
typedef struct pdFeature
{
	pdFeatureType type;
	int triangle; ///< kept-triangle index (pdMeshInfo.inputTriangles gives the input index)
	int index;
	int vertex;
} pdFeature;

/// Kind of a contact between features of A and B.
typedef enum pdContactKind
{
	PD_CONTACT_VF = 0, ///< vertex of A on a face of B
	PD_CONTACT_FV = 1, ///< face of A on a vertex of B
	PD_CONTACT_EE = 2, ///< edge of A on an edge of B (non-parallel)
} pdContactKind;

/// A contact feature pair at a configuration where A and B touch (or nearly do).
typedef struct pdContactFeature
{
	pdContactKind kind;
	pdFeature featureA, featureB;
	pdVec3 pointA;   ///< closest point on A, world frame
	pdVec3 pointB;   ///< closest point on B, world frame
	pdVec3 normal;   ///< unit, world frame, on B pointing toward A (the direction A leaves along)
	double distance; ///< signed separation along normal (>= 0 when touching from outside), world units
} pdContactFeature;

/// A pair of intersecting triangles (kept-triangle indices).
typedef struct pdTrianglePair
{
	int triangleA, triangleB;
} pdTrianglePair;

// ---------------------------------------------------------------------------------------------
// Collide

typedef struct pdCollideDef
{
	bool reportAllPairs;   ///< gather every intersecting triangle pair (else stop at the first). Default false
	int maxPairs;          ///< cap on gathered pairs. Default 4096
	bool checkContainment; ///< for closed meshes, report one inside the other without surface contact. Default true
	int maxNodeVisits;     ///< cap on BVH node pairs visited. Default 50,000,000
	int internalValue;
} pdCollideDef;

typedef struct pdCollideResult
{
	pdStatus status;
	bool colliding;              ///< surfaces intersect, or (closed meshes) one contains the other
	bool containment;            ///< colliding because one closed mesh contains the other
	int pairCount;               ///< intersecting triangle pairs gathered
	const pdTrianglePair* pairs; ///< pairCount pairs, owned by the workspace until its next query
	int nodeVisits;              ///< BVH node pairs visited
} pdCollideResult;

PD_API pdCollideDef pdDefaultCollideDef( void );
/// def may be NULL (defaults). Returns the status also stored in outResult.
PD_API pdStatus pdCollide( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
						   const pdTransform* poseB, const pdCollideDef* def, pdWorkspace* ioWorkspace,
						   pdCollideResult* outResult );

// ---------------------------------------------------------------------------------------------
// Distance

typedef struct pdDistanceDef
{
	/// Bounded variant: stop as soon as the distance is proven below lowerBound (world units)...
	double lowerBound; ///< default 0 (off)
	/// ...or proven above upperBound. Default +infinity (off).
	double upperBound;
	int maxNodeVisits; ///< default 50,000,000
	int internalValue;
} pdDistanceDef;

typedef struct pdDistanceResult
{
	pdStatus status;
	double distance;           ///< minimum distance, 0 when the surfaces intersect (world units)
	pdVec3 pointA, pointB;     ///< closest points, world frame
	pdFeature featureA, featureB; ///< the features realising the distance
	bool stoppedBelow;         ///< bounded: stopped because distance < lowerBound (distance is an upper bound)
	bool stoppedAbove;         ///< bounded: stopped because distance > upperBound (distance is a lower bound)
	int nodeVisits;
} pdDistanceResult;

PD_API pdDistanceDef pdDefaultDistanceDef( void );
PD_API pdStatus pdComputeDistance( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
								   const pdTransform* poseB, const pdDistanceDef* def, pdWorkspace* ioWorkspace,
								   pdDistanceResult* outResult );

// ---------------------------------------------------------------------------------------------
// Translational continuous collision: A keeps poseA's rotation and its position moves linearly
// from poseA->p to endPositionA; B is fixed.

typedef struct pdCcdDef
{
	/// Contact tolerance (world units): the contact configuration stops this far short of
	/// touching at most, and features within it are reported. <= 0 means the default,
	/// 1e-4 of the smaller bounding-box diagonal.
	double contactTolerance;
	int maxFeatures;       ///< cap on reported features. Default 256
	int maxNodeVisits;     ///< default 50,000,000
	bool useOrientationCulling; ///< skip primitives that cannot be hit first given the motion (closed meshes). Default true
	int internalValue;
} pdCcdDef;

typedef struct pdCcdResult
{
	pdStatus status;
	bool hit;                 ///< A touches B somewhere along the motion
	bool startColliding;      ///< A already intersects B at the start (toc = 0)
	double toc;               ///< time of contact in [0,1]; 1 when there is no hit
	pdVec3 contactPosition;   ///< A's position (poseA->p moved) at toc, world frame
	int featureCount;
	const pdContactFeature* features; ///< owned by the workspace until its next query
	int nodeVisits;
} pdCcdResult;

PD_API pdCcdDef pdDefaultCcdDef( void );
PD_API pdStatus pdComputeTranslationalCcd( const pdMesh* meshA, const pdTransform* poseA, pdVec3 endPositionA,
										   const pdMesh* meshB, const pdTransform* poseB, const pdCcdDef* def,
										   pdWorkspace* ioWorkspace, pdCcdResult* outResult );

// ---------------------------------------------------------------------------------------------
// Contact features: one query gives the feature pairs within a reach (at rest or over a step's
// motion) and, from the same traversal, whether the surfaces are more than a gap apart.

/// A's motion relative to B over a coming step, world frame, to first order: a point p of A
/// moves by linear + angular x (p - pivot). angular is the rotation vector of the step
/// (angular velocity times the step, radians).
typedef struct pdRigidMotion
{
	pdVec3 linear;
	pdVec3 angular;
	pdVec3 pivot;
} pdRigidMotion;

/// Options of a contact-feature query. Initialise with pdDefaultContactFeatureDef(); NULL means
/// the defaults.
typedef struct pdContactFeatureDef
{
	/// World units: every VF, FV and EE feature pair closer than this is reported (with a
	/// motion: that comes within it during the step, see below); node and triangle pairs farther
	/// apart are not visited. Negative means the pair's default contact tolerance, 1e-4 of the
	/// smaller bounding-box diagonal. Default -1.
	double reach;
	/// World frame, any length, may be zero: orients normals where the separation sign is
	/// undecidable (A is taken to have come from -approachDirection). Default zero.
	pdVec3 approachDirection;
	/// Most feature pairs reported: past it the closest are kept and the status is
	/// PD_STATUS_FEATURE_LIMIT. 0 reports none (with a gap only the proof runs, ending at the
	/// first pair within the gap). Default 256.
	int maxFeatures;
	/// A's motion relative to B over a coming step (world frame, first order), or NULL (the
	/// default) for the pair at rest; a zero motion is the pair at rest too. With a motion the
	/// features are those within reach now, or whose gap predicted at the end of the step (the
	/// gap now plus A's displacement at pointA along the normal) is within reach. Where the step
	/// moves A's triangle by more than reach, the pairs of two triangles that provably stay
	/// farther apart than reach all through the step (a separating axis, B's plane, A's or the
	/// line through the centroids, every point of A moving to first order) are left out: the
	/// first-order gap of a slanted pair reads a sideways motion as closing. Node and triangle
	/// pairs whose boxes cannot come within reach while A's box moves by motion->linear (grown
	/// by the rotation's reach) are not visited. Distances are those at the given poses; past
	/// maxFeatures the pairs that come closest during the step are kept. A speculative contact
	/// the motion cannot close would get no impulse from a solver anyway; skipping it is what
	/// makes a fast body's gathering cheap.
	const pdRigidMotion* motion;
	/// World units: with gap >= 0 the result's `apart` says whether no triangle of A comes
	/// within gap of a triangle of B at the poses (the exact triangle distance a distance query
	/// minimises, proven in the same traversal). At most reach, and only at rest (no motion).
	/// Negative: no proof. Default -1.
	double gap;
	int internalValue;
} pdContactFeatureDef;

typedef struct pdContactFeatureResult
{
	pdStatus status;
	int featureCount;
	/// Normals on B pointing toward A, world frame; owned by the workspace until its next query.
	const pdContactFeature* features;
	/// With def.gap >= 0: no two triangles within the gap. False when a pair lies within it, on any error, and on
	/// PD_STATUS_FEATURE_LIMIT or PD_STATUS_TRAVERSAL_LIMIT (not every pair was seen). Surfaces
	/// that merely touch can come out a rounding error above 0: ask gap 0 of pdCollide instead.
	bool apart;
	int nodeVisits; ///< BVH node pairs visited
} pdContactFeatureResult;

PD_API pdContactFeatureDef pdDefaultContactFeatureDef( void );

/// The contact features of A and B at the poses and the gap proof, from one depth-first
/// traversal (see pdContactFeatureDef). def may be NULL (defaults). Returns the status also
/// stored in outResult. For a yes or no it is cheaper than a distance query bounded by the gap
/// (maxFeatures 0, reach = gap).
PD_API pdStatus pdComputeContactFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										const pdTransform* poseB, const pdContactFeatureDef* def,
										pdWorkspace* ioWorkspace, pdContactFeatureResult* outResult );

PD_C_END
