// SPDX-License-Identifier: MIT
// Private to the plugin: what the contact-generation files share. The regions one call builds
// (pdcRegion), the call's inputs and derived scales (pdcCall), the quaternion helpers the core's
// vec.h does not have, and the functions each stage file offers the others.
#pragma once

#include "polydepth/contact.h"
#include "vec.h" // the core's private inline vector helpers (static inline only)

#include <float.h>
#include <math.h>

PD_C_BEGIN

/// Area of the convex hull of up to 4 points projected on the plane normal to unit normal.
double pdcHullArea4( pdVec3 normal, const pdVec3* points, int count );

// Candidate points a region may hold before reduction. A resting ring on a ring has a few
// hundred feature pairs along its crest; with room for fewer, which ones survive the
// compaction depends on their order, and the picks move from frame to frame (about 6 KB per
// region, 100 KB of stack for the regions of one call).
#define PD_REGION_CANDIDATES 96
// Regions built before slot assignment (the core gives at most PD_MAX_LOCAL_REGIONS).
#define PD_BUILD_REGIONS PD_MAX_LOCAL_REGIONS
// A wide resting patch's plane replaces the region normal when they agree this well (cosine).
#define PD_PLANE_COSINE 0.8

// ---------------------------------------------------------------------------------------------
// Quaternion helpers (the core rotates through pdMat33FromQuat, whose rounding differs).

// q / |q|, or the identity for a zero or non-finite q.
static inline pdQuat pdcUnitQuat( pdQuat q )
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
static inline pdVec3 pdcRotate( pdQuat q, pdVec3 v )
{
	pdVec3 u = pdV3( q.x, q.y, q.z );
	pdVec3 t = pdScale( pdCross( u, v ), 2.0 );
	return pdAdd( pdAdd( v, pdScale( t, q.w ) ), pdCross( u, t ) );
}
static inline pdVec3 pdcRotateInv( pdQuat q, pdVec3 v )
{
	return pdcRotate( pdQuatConj( q ), v );
}

// Length of the mesh's bounding-box diagonal (0 when not finite).
static inline double pdcMeshDiagonal( const pdMesh* mesh )
{
	pdMeshInfo info = pdMesh_GetInfo( mesh );
	pdVec3 lo = info.boundsMin, hi = info.boundsMax;
	double d = pdLength( pdSub( hi, lo ) );
	return isfinite( d ) ? d : 0.0;
}

// True when list[0 .. count) holds value.
static inline bool pdcHasIndex( const int* list, int count, int value )
{
	bool seen = false;
	for ( int j = 0; j < count; ++j )
	{
		seen = seen || list[j] == value;
	}
	return seen;
}

// The smallest of values[0 .. count) (DBL_MAX for none).
static inline double pdcLowest( const double* values, int count )
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
typedef struct pdcMotion
{
	pdVec3 linear;
	pdVec3 rotation;
	pdVec3 pivot;
} pdcMotion;

typedef struct pdcRegion
{
	pdVec3 normal;
	pdVec3 axis; // B's reference axis (world): fixes the reduction's directions to B
	double band; // points within this of the deepest form the supporting patch
	double minDistance;
	bool fromPenetration; // seeded by a local PD (points at depth -(d . n))
	int count;
	pdVec3 normalSum;     // members' face normals (vertex-face, face-vertex, local PDs) summed
	pdVec3 edgeNormalSum; // edge-edge normals summed: used only when no face normal joined
	pdVec3 pointB[PD_REGION_CANDIDATES];
	// pointA - pointB at the configuration the point was found at: its gap along any normal
	pdVec3 offset[PD_REGION_CANDIDATES];
	double distance[PD_REGION_CANDIDATES]; // (offset - d) . normal: distance at the input poses
	// distance at the end of the step if A keeps its motion: impacts keep the points that will
	// be deepest (a spinning ring the side coming down, not the side lifting off). Equal to
	// distance without a motion hint.
	double predicted[PD_REGION_CANDIDATES];
	const pdcMotion* motion;
	// A moving body (0 when slow): points predicted within this of the deepest may all bear
	// load by the end of the step, so the reductions keep them in play, not only those within
	// band of the deepest; points further up (the outer side of a ring landing flat) are not.
	double arrival;
	// An impact (A can move more than the contact distance this step): every point predicted
	// to be closer than `arrival` after the step stays in play, and the final four are the
	// deepest predicted with the largest area over all of them. Measured on the 60-tori heap
	// (4 seeds): deepest body-body penetration 33 mm against 64 mm with the banded choice.
	bool impact;
} pdcRegion;

typedef struct pdcRegions
{
	pdVec3 axis;             // B's local x axis in world, copied into every new region
	double band;             // support band, copied into every new region
	const pdcMotion* motion; // copied into every new region
	double arrival;          // copied into every new region
	bool impact;             // copied into every new region
	int count;
	pdcRegion items[PD_BUILD_REGIONS];
} pdcRegions;

// The posed pair the features were gathered at (for the local-closeness test).
typedef struct pdcPosedPair
{
	const pdMesh* meshA;
	pdTransform poseA;
	const pdMesh* meshB;
	pdTransform poseB;
} pdcPosedPair;

// How features join regions (pdcGroupFeatures).
typedef struct pdcGrouping
{
	double regionCosine;       // features within this angle (cosine) share a region
	const pdVec3* translation; // the global PD when gathered at A + PD, else NULL
	double maxDistance;        // pairs further apart than this at the input poses are dropped
	double touchDistance;      // pairs closer than this count as touching (world units)
} pdcGrouping;

// ---------------------------------------------------------------------------------------------
// One pdContact_Generate call: its inputs and what its steps derive from them.

typedef struct pdcCall
{
	pdContactPairInternal* pair; ///< the private state of the caller's pair (ioPair->internal)
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

	pdPenetrationDef pdef;
	bool haveSide;            // side is known
	pdVec3 side;              // the side of B A is known to be free on (world, unit)
	pdVec3 separatedApproach; // direction a separated pair gathers along (toward B)

	// The apart confirmation's gathering (pdcConfirmApart), used when it confirmed.
	bool confirmedApart;
	int confirmedCount;
	const pdContactFeature* confirmedFeatures;

	pdPenetrationResult pr;
	double deepMargin;  // depth lead that lets the deepest point displace a stable pick
	double supportBand; // points this close to a region's deepest form its supporting patch
	double restDepth;   // regions shallower than this (and slow) are resting
	pdcMotion motion;   // the step's motion hint
	double sweep;       // the farthest any point of A moves relative to B this step (the hint)
	bool slow;          // A barely moves relative to B this step
	bool impact;        // A can move more than the contact distance this step
	bool moving;        // a motion hint was given
	int maxFeatures;    // contact features gathered
	pdVec3 translation; // the global PD (zero when not penetrating)
	// Every feature pair the call did not turn into a point was at least this far apart at the
	// input poses (world units); 0 when not known (then no hold is made).
	double holdGap;
} pdcCall;

// ---------------------------------------------------------------------------------------------
// Stage functions

// contact_reduce.c
void pdcDeepestFirst( const double* distances, int* picked, int count );
int pdcReduceStable( const pdcRegion* r, int half, double deepMargin, double band, int* outIndices, int maxOut );
int pdcReduceDeepest( const pdcRegion* r, double band, int outIndices[PD_CONTACT_MAX_POINTS] );
int pdcReduceImpact( const pdcRegion* r, double band, int outIndices[PD_CONTACT_MAX_POINTS] );
bool pdcPatchNormal( const pdcRegion* r, const int* picked, int count, double minArea, double minCosine,
					 pdVec3* outNormal );

// contact_regions.c
double pdcClosing( const pdcMotion* m, pdVec3 pointA, pdVec3 n );
pdcRegion* pdcNewRegion( pdcRegions* regions, pdVec3 normal, bool fromPenetration );
void pdcAddPoint( pdcRegion* r, pdVec3 pointB, pdVec3 offset, double distance );
void pdcFinishRegion( pdcRegion* r, pdVec3 translation, bool useMeanNormal );
void pdcGroupFeatures( const pdcPosedPair* at, const pdContactFeature* features, int featureCount,
					   const pdcGrouping* grouping, pdcRegions* regions );
void pdcRegionsFromLocal( const pdPenetrationResult* pr, double regionCosine, pdcRegions* regions );
void pdcDropEmptyRegions( pdcRegions* regions );
void pdcSettleNormals( pdcRegions* regions, double regionCosine, pdVec3 translation );

// contact_gap.c
// A relative to B: its origin in B's frame and its rotation relative to B's.
void pdcRelativePose( const pdTransform* poseA, const pdTransform* poseB, pdVec3* outPosition, pdQuat* outRotation );
// How far any point of A can have moved relative to B since A's relative pose was
// (position, rotation) (pdcRelativePose); INFINITY when not finite.
double pdcMovedSince( pdVec3 position, pdQuat rotation, const pdMesh* meshA, const pdTransform* poseA,
					  const pdTransform* poseB );
// The meshes the pair's proofs (gap, hold) are made for; proofs made for others end.
void pdcSetProofMeshes( pdcCall* call );
bool pdcStillApart( const pdcCall* call );
void pdcConfirmApart( pdcCall* call );
double pdcSeparatedRange( pdcCall* call );
void pdcProveApart( pdcCall* call );

// contact_hold.c
bool pdcAnswerFromHold( pdcCall* call );
void pdcMakeHold( pdcCall* call );

// contact_one_sided.c
void pdcFindFreeSide( pdcCall* call );
bool pdcResolveOneSided( pdcCall* call );
void pdcRememberFreeSide( pdcCall* call, pdVec3 sideSum );

// contact_slots.c
void pdcAssignSlots( pdContactPairInternal* pair, pdQuat qB, const pdContactDef* def, pdcRegions* regions,
					 int slotOfRegion[PD_BUILD_REGIONS] );
pdVec3 pdcWriteManifolds( pdcCall* call, pdcRegions* regions, const int slotOfRegion[PD_BUILD_REGIONS] );
void pdcSortManifolds( pdContactManifoldSet* set );
void pdcDropCoveredPoints( pdcCall* call );

// The contact features within reach of A at poseA and B at the call's pose (motion NULL: at
// rest), from one pdComputeContactFeatures call; the workspace owns them until its next query.
pdStatus pdcGatherFeatures( const pdcCall* call, const pdTransform* poseA, double reach, const pdRigidMotion* motion,
							pdVec3 approach, int maxFeatures, int* outCount, const pdContactFeature** outFeatures );
// Whether no triangle of A comes within gap of B at the call's poses (a gap proof, cheaper than
// a distance query bounded by it); *outApart is false on any error or cap.
pdStatus pdcProveGap( const pdcCall* call, double gap, bool* outApart );

PD_C_END
