// SPDX-License-Identifier: MIT
// Private to the plugin (and its tests): the per-pair state behind pdContactPair's bytes. Every
// vector is in B's frame so it survives B moving, except the input hints (world). Its layout
// is written raw into contact recordings (contact_record.c): a change here changes the
// recording format (PDI_RECORD_VERSION).
//
// Owners: contact.c the call's record (frame, lastState, lastTranslation, the hints),
// contact_slots.c the slots, contact_one_sided.c the free side, contact_gap.c the proven gap,
// contact_hold.c the held contact, the core the PD cache.
#pragma once

#include "polydepth/contact.h"
#include <stdint.h>

PD_C_BEGIN

// The state is accessed through a pointer into the caller's pdContactPair bytes.
#if defined( __GNUC__ ) || defined( __clang__ )
#define PDI_MAY_ALIAS __attribute__( ( may_alias ) )
#else
#define PDI_MAY_ALIAS
#endif

typedef struct PDI_MAY_ALIAS pdiPairState
{
	pdPenetrationCache penetration;               ///< motion coherence of the PD query
	int frame;                                    ///< calls made on this pair
	pdPenetrationState lastState;                 ///< state of the last call
	pdVec3 lastTranslation;                       ///< last PD translation (B frame)
	unsigned slotMask;                            ///< slots used by the last call (bit i = slot i)
	pdVec3 slotNormals[PD_MAX_CONTACT_MANIFOLDS]; ///< their normals (B frame)
	int slotPointCount[PD_MAX_CONTACT_MANIFOLDS]; ///< points each slot wrote last call
	pdVec3 slotPoints[PD_MAX_CONTACT_MANIFOLDS][PD_MAX_CONTACT_POINTS]; ///< those points on B (B frame)
	bool hasFreeSide;                                                   ///< freeSide is known
	/// One of the bodies is driven (pdContactPair_SetDriven): every penetrating call takes the
	/// global path. (Sits in hasFreeSide's padding: the layout of the fields after it, and so
	/// the recording format, are unchanged.)
	bool driven;
	pdVec3 freeSide;      ///< unit: the side of B that A was last free on (B frame)
	bool hasFreePosition; ///< freePosition is known
	pdVec3 freePosition;  ///< A's origin at its last free configuration (B frame)
	pdVec3 motion;        ///< input hint: A's displacement relative to B over the last step (world)
	pdVec3 rotation;      ///< input hint: A's rotation relative to B over the step (axis * angle, world)
	pdVec3 pivot;         ///< input hint: the world point A rotates about (its centre of mass)
	// A proven gap: at the reference pose (A relative to B) the meshes were at least
	// apartBound apart; until A has moved, relative to B, by more than that bound minus the
	// reach of a contact, the pair needs no query at all.
	bool apartValid;
	double apartBound;
	pdVec3 apartPosition;     ///< A's origin in B's frame at the reference
	pdQuat apartRotation;     ///< A's rotation relative to B at the reference
	const pdMesh* proofMeshA; ///< the meshes the proven gap and the held contact were made for
	const pdMesh* proofMeshB;
	// A held contact: the manifolds of the last full call, fixed to A and to B, answered again
	// (points moved with the bodies, distances measured anew) while A has moved relative to B
	// by less than holdBound since holdPosition/holdRotation. Every feature pair the full call
	// did not turn into a point was at least twice that far apart, so none can touch meanwhile.
	bool holdValid;
	int holdCalls;       ///< calls answered from the hold since it was made
	double holdBound;    ///< world units: the motion the hold allows
	pdVec3 holdPosition; ///< A's origin in B's frame when the hold was made
	pdQuat holdRotation; ///< A's rotation relative to B then
	pdPenetrationState holdState;
	bool holdSpeculative;
	bool holdResolvedOneSided;
	pdVec3 holdTranslation; ///< the PD translation (B frame)
	int holdCount;          ///< manifolds held
	int holdSlot[PD_MAX_CONTACT_MANIFOLDS];
	int holdPointCount[PD_MAX_CONTACT_MANIFOLDS];
	uint8_t holdRestingFlat; ///< bit m: held manifold m is restingFlat (in the padding before holdNormal)
	pdVec3 holdNormal[PD_MAX_CONTACT_MANIFOLDS];                        ///< B frame
	pdVec3 holdPointA[PD_MAX_CONTACT_MANIFOLDS][PD_MAX_CONTACT_POINTS]; ///< on A (A's frame)
	pdVec3 holdPointB[PD_MAX_CONTACT_MANIFOLDS][PD_MAX_CONTACT_POINTS]; ///< on B (B's frame)
} pdiPairState;

static inline pdiPairState* pdiPairStateOf( pdContactPair* pair )
{
	return (pdiPairState*)(void*)pair->opaque;
}

static inline const pdiPairState* pdiConstPairStateOf( const pdContactPair* pair )
{
	return (const pdiPairState*)(const void*)pair->opaque;
}

PD_C_END
