// SPDX-License-Identifier: MIT
// Private to the plugin: what the contact-generation files share. The regions one call builds
// (pdiRegion), the call's inputs and derived scales (pdiCall), the quaternion helpers the core's
// vec.h does not have, and the functions each stage file offers the others.
#pragma once

#include "contact_pair.h"
#include "plugin_interface.h" // the core's interface to the plugin
#include "polydepth/contact.h"
#include "vec.h" // the core's private inline vector helpers (static inline only)

#include <float.h>
#include <math.h>

PD_C_BEGIN

/// Area of the convex hull of up to 4 points projected on the plane normal to unit normal.
double pdiHullArea4( pdVec3 normal, const pdVec3* points, int count );

// Candidate points a region may hold before reduction. A resting ring on a ring has a few
// hundred feature pairs along its crest; with room for fewer, which ones survive the
// compaction depends on their order, and the picks move from frame to frame (about 6 KB per
// region, 100 KB of stack for the regions of one call).
#define PDI_REGION_CANDIDATES 96
// Regions built before slot assignment (the core gives at most PD_MAX_LOCAL_REGIONS).
#define PDI_BUILD_REGIONS PD_MAX_LOCAL_REGIONS
// A wide resting patch's plane replaces the region normal when they agree this well (cosine).
#define PDI_PLANE_COSINE 0.8
// A resting patch is face on (pdContactManifold.restingFlat) when its members' face normals
// agree this well (the length of their mean): flat faces on flat faces, not a crest's facets.
#define PDI_FLAT_FACE_COSINE 0.9986

// ---------------------------------------------------------------------------------------------
// Quaternion helpers (the core rotates through pdiMat33FromQuat, whose rounding differs).

// q / |q|, or the identity for a zero or non-finite q.
static inline pdQuat pdiSafeUnitQuat( pdQuat q )
{
	double n = sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
	if ( !( n > 1e-300 ) || !isfinite( n ) )
	{
		pdQuat identity = { 1.0, 0.0, 0.0, 0.0 };
		return identity;
	}
	pdQuat r = { q.w / n, q.x / n, q.y / n, q.z / n };
	return r;
}

// v' = v + 2w (u x v) + 2 u x (u x v), u the vector part.
static inline pdVec3 pdiRotate( pdQuat q, pdVec3 v )
{
	pdVec3 u = pdiV3( q.x, q.y, q.z );
	pdVec3 t = pdiScale( pdiCross( u, v ), 2.0 );
	return pdiAdd( pdiAdd( v, pdiScale( t, q.w ) ), pdiCross( u, t ) );
}
static inline pdVec3 pdiRotateInv( pdQuat q, pdVec3 v )
{
	return pdiRotate( pdiQuatConj( q ), v );
}

// Length of the mesh's bounding-box diagonal (0 when not finite).
static inline double pdiMeshDiagonal( const pdMesh* mesh )
{
	pdMeshInfo info = pdMesh_GetInfo( mesh );
	pdVec3 lo = info.boundsMin, hi = info.boundsMax;
	double d = pdiLength( pdiSub( hi, lo ) );
	return isfinite( d ) ? d : 0.0;
}

// True when list[0 .. count) holds value.
static inline bool pdiHasIndex( const int* list, int count, int value )
{
	bool seen = false;
	for ( int j = 0; j < count; ++j )
	{
		seen = seen || list[j] == value;
	}
	return seen;
}

// The smallest of values[0 .. count) (DBL_MAX for none).
static inline double pdiLowest( const double* values, int count )
{
	double lowest = DBL_MAX;
	for ( int i = 0; i < count; ++i )
	{
		lowest = fmin( lowest, values[i] );
	}
	return lowest;
}

// ---------------------------------------------------------------------------------------------
// Regions

// A's motion relative to B over the step (zero when the caller gave none).
typedef struct pdiMotion
{
	pdVec3 linear;
	pdVec3 rotation;
	pdVec3 pivot;
} pdiMotion;

typedef struct pdiRegion
{
	pdVec3 normal;
	pdVec3 axis; // B's reference axis (world): fixes the reduction's directions to B
	double band; // points within this of the deepest form the supporting patch
	double minDistance;
	bool fromPenetration; // seeded by a local PD (points at depth -(d . n))
	int count;
	pdVec3 normalSum;     // members' face normals (vertex-face, face-vertex, local PDs) summed
	int normalCount;      // how many: |normalSum| / normalCount is 1 when they all agree
	pdVec3 edgeNormalSum; // edge-edge normals summed: used only when no face normal joined
	pdVec3 faceBNormalSum; // vertex-face normals (B's faces) summed: a local region's normal
	pdVec3 pointB[PDI_REGION_CANDIDATES];
	// pointA - pointB at the configuration the point was found at: its gap along any normal
	pdVec3 offset[PDI_REGION_CANDIDATES];
	double distance[PDI_REGION_CANDIDATES]; // (offset - d) . normal: distance at the input poses
	// distance at the end of the step if A keeps its motion: impacts keep the points that will
	// be deepest (a spinning ring the side coming down, not the side lifting off). Equal to
	// distance without a motion hint.
	double predicted[PDI_REGION_CANDIDATES];
	const pdiMotion* motion;
	// A moving body (0 when slow): points predicted within this of the deepest may all bear
	// load by the end of the step, so the reductions keep them in play, not only those within
	// band of the deepest; points further up (the outer side of a ring landing flat) are not.
	double arrival;
	// An impact (A can move more than the contact distance this step): every point predicted
	// to be closer than `arrival` after the step stays in play, and the final four are the
	// deepest predicted with the largest area over all of them. Measured on the 60-tori heap
	// (4 seeds): deepest body-body penetration 33 mm against 64 mm with the banded choice.
	bool impact;
	// A local region (pdiSettleLocalNormals): a point's distance is its own pair's signed gap
	// (|offset|, negative when the offset points into B), not that gap projected on the region
	// normal: the facets of a tessellated crest tilt up to 45 degrees from the region's push, and
	// projected on it their gaps would shrink by the cosine.
	bool ownGaps;
} pdiRegion;

typedef struct pdiRegions
{
	pdVec3 axis;             // B's local x axis in world, copied into every new region
	double band;             // support band, copied into every new region
	const pdiMotion* motion; // copied into every new region
	double arrival;          // copied into every new region
	bool impact;             // copied into every new region
	int count;
	pdiRegion items[PDI_BUILD_REGIONS];
} pdiRegions;

// The posed pair the features were gathered at (for the local-closeness test).
typedef struct pdiPosedPair
{
	const pdMesh* meshA;
	pdTransform poseA;
	const pdMesh* meshB;
	pdTransform poseB;
} pdiPosedPair;

// How features join regions (pdiGroupFeatures).
typedef struct pdiGrouping
{
	double regionCosine;       // features within this angle (cosine) share a region
	const pdVec3* translation; // the global PD when gathered at A + PD, else NULL
	double maxDistance;        // pairs further apart than this at the input poses are dropped
	double touchDistance;      // pairs closer than this count as touching (world units)
	// The features are oriented out of B with signed distances and already applicable
	// (pdiPlugin_GatherOrientedFeatures): penetrating and touching pairs join as they are.
	bool oriented;
	// At the PD contact configuration (translation given): only the pairs the applicability
	// test refuses that face along the push and overlap at the input poses (pdiFillThePush).
	bool overlapOnly;
} pdiGrouping;

// ---------------------------------------------------------------------------------------------
// One pdContactPair_Generate call: its inputs and what its steps derive from them.

typedef struct pdiCall
{
	pdiPairState* pair; ///< the private state of the caller's pair
	const pdMesh* meshA;
	const pdTransform* poseA;
	const pdMesh* meshB;
	const pdTransform* poseB;
	const pdContactDef* def;
	pdWorkspace* ws;
	pdContactManifoldSet* set;

	pdQuat qB;           // B's rotation, unit
	double diagA, diagB; // bounding-box diagonals (world units)
	double tolerance;    // PD contact tolerance (world units)
	double skin;         // subtracted from every reported distance
	bool oneSided;       // B is treated as one-sided
	double contactReach; // anything closer than this gets contacts
	bool apart;          // the pair's proven gap still holds: no query this call

	pdiPenetrationOptions pdef; ///< the PD query's options
	bool haveSide;            // side is known
	pdVec3 side;              // the side of B A is known to be free on (world, unit)
	pdVec3 separatedApproach; // direction a separated pair gathers along (toward B)

	// The apart confirmation's gathering (pdiConfirmApart), used when it confirmed.
	bool confirmedApart;
	int confirmedCount;
	const pdContactFeature* confirmedFeatures;

	pdPenetrationResult pr;
	double deepMargin;  // depth lead that lets the deepest point displace a stable pick
	double supportBand; // points this close to a region's deepest form its supporting patch
	double restDepth;   // regions shallower than this (and slow) are resting
	pdiMotion motion;   // the step's motion hint
	double sweep;       // the farthest any point of A moves relative to B this step (the hint)
	bool slow;          // A barely moves relative to B this step
	bool impact;        // A can move more than the contact distance this step
	bool moving;        // a motion hint was given
	int maxFeatures;    // contact features gathered
	pdVec3 translation; // the global PD (zero when not penetrating)
	// Every feature pair the call did not turn into a point was at least this far apart at the
	// input poses (world units); 0 when not known (then no hold is made).
	double holdGap;
	// The local path's reach: how deep a vertex or edge may lie inside the other solid and its
	// contact still be the pair's own (pdiLocalReach); 0 when the pair takes the global path.
	double localReach;
} pdiCall;

// ---------------------------------------------------------------------------------------------
// Stage functions

// contact_reduce.c
void pdiDeepestFirst( const double* distances, int* picked, int count );
int pdiReduceStable( const pdiRegion* r, int half, double deepMargin, double band, int* outIndices, int maxOut );
int pdiReduceDeepest( const pdiRegion* r, double band, int outIndices[PD_MAX_CONTACT_POINTS] );
int pdiReduceImpact( const pdiRegion* r, double band, int outIndices[PD_MAX_CONTACT_POINTS] );
bool pdiPatchNormal( const pdiRegion* r, const int* picked, int count, double minArea, double minCosine,
					 pdVec3* outNormal );

// contact_regions.c
double pdiClosing( const pdiMotion* m, pdVec3 pointA, pdVec3 n );
pdiRegion* pdiNewRegion( pdiRegions* regions, pdVec3 normal, bool fromPenetration );
void pdiAddPoint( pdiRegion* r, pdVec3 pointB, pdVec3 offset, double distance );
bool pdiAddClosestPair( pdiRegions* regions, pdVec3 pointA, pdVec3 pointB, double distance, double regionCosine );
void pdiFinishRegion( pdiRegion* r, pdVec3 translation, bool useMeanNormal );
void pdiGroupFeatures( const pdiPosedPair* at, const pdContactFeature* features, int featureCount,
					   const pdiGrouping* grouping, pdiRegions* regions );
void pdiFillThePush( const pdiPosedPair* at, const pdContactFeature* features, int featureCount, const pdiGrouping* g,
					 pdiRegions* regions );
void pdiRegionsFromLocal( const pdPenetrationResult* pr, double regionCosine, pdiRegions* regions );
void pdiDropEmptyRegions( pdiRegions* regions );
void pdiSettleNormals( pdiRegions* regions, double regionCosine, pdVec3 translation );

// contact_gap.c
// A relative to B: its origin in B's frame and its rotation relative to B's.
void pdiRelativePose( const pdTransform* poseA, const pdTransform* poseB, pdVec3* outPosition, pdQuat* outRotation );
// How far any point of A can have moved relative to B since A's relative pose was
// (position, rotation) (pdiRelativePose); INFINITY when not finite.
double pdiMovedSince( pdVec3 position, pdQuat rotation, const pdMesh* meshA, const pdTransform* poseA,
					  const pdTransform* poseB );
// The meshes the pair's proofs (gap, hold) are made for; proofs made for others end.
void pdiSetProofMeshes( pdiCall* call );
bool pdiStillApart( const pdiCall* call );
void pdiConfirmApart( pdiCall* call );
double pdiSeparatedRange( pdiCall* call );
void pdiProveApart( pdiCall* call );

// contact_hold.c
bool pdiAnswerFromHold( pdiCall* call );
void pdiMakeHold( pdiCall* call );

// contact_local.c
// Feature pairs whose normals lie within 45 degrees (cosine) join one region on the local path:
// a tessellated crest (a ring on a ring, a peg's end against its bore) is one region whose push
// bisects its facets, not one region per facet, each pushing along its tilt.
#define PDI_LOCAL_REGION_COSINE 0.7071

typedef enum pdiLocalOutcome
{
	PDI_LOCAL_ANSWERED, // regions built from the neighbourhood, each with its own depth
	PDI_LOCAL_APART,    // the surfaces are apart (as the PD query would classify the pair)
	PDI_LOCAL_ESCAPE,   // the overlap is not local: the global PD decides
} pdiLocalOutcome;
// The local path's reach for this call (pdiCall.localReach), 0 when the pair cannot take it
// (an open or one-sided mesh).
double pdiLocalReach( const pdiCall* call );
pdiLocalOutcome pdiGatherLocal( pdiCall* call, pdiRegions* regions );
// A pair closing in (separated last call) takes the PD query, which confirms a separated pair in
// one traversal; one that arrived in contact with a PD deeper than the step can have pushed it
// is answered from its neighbourhood within that reach when the neighbourhood explains the
// overlap (PDI_LOCAL_ANSWERED, regions built): its first contact in a tight fit is not the
// global PD's deep push (a peg that slid down its bore and touches the wall). Else
// PDI_LOCAL_ESCAPE, regions empty: an impact keeps the PD.
pdiLocalOutcome pdiLocalAfterArrival( pdiCall* call, pdStatus status, pdiRegions* regions );
pdVec3 pdiDeepestRegionPush( const pdiRegions* regions );
// Each penetrating region's normal becomes the mean of B's faces its vertex-face points press
// on, or without any the direction of its own push (the shortest translation that separates
// its candidate points); its points keep their own gaps.
void pdiSettleLocalNormals( pdiRegions* regions );

// contact_one_sided.c
void pdiFindFreeSide( pdiCall* call );
bool pdiResolveOneSided( pdiCall* call );
void pdiRememberFreeSide( pdiCall* call, pdVec3 sideSum );

// contact_slots.c
void pdiAssignSlots( pdiPairState* pair, pdQuat qB, const pdContactDef* def, pdiRegions* regions,
					 int slotOfRegion[PDI_BUILD_REGIONS] );
pdVec3 pdiWriteManifolds( pdiCall* call, pdiRegions* regions, const int slotOfRegion[PDI_BUILD_REGIONS] );
void pdiSortManifolds( pdContactManifoldSet* set );
void pdiDropCoveredPoints( pdiCall* call );

// The contact features within reach of A at poseA and B at the call's pose (motion NULL: at
// rest), from one pdComputeContactFeatures call; the workspace owns them until its next query.
pdStatus pdiGatherFeatures( const pdiCall* call, const pdTransform* poseA, double reach, const pdRigidMotion* motion,
							pdVec3 approach, int maxFeatures, int* outCount, const pdContactFeature** outFeatures );
// Whether no triangle of A comes within gap of B at the call's poses (a gap proof, cheaper than
// a distance query bounded by it); *outApart is false on any error or cap.
pdStatus pdiProveGap( const pdiCall* call, double gap, bool* outApart );

PD_C_END
