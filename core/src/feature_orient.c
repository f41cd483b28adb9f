// SPDX-License-Identifier: MIT
// Contact features of two closed meshes gathered at penetrating poses, as local contacts: each
// feature's normal turned out of B by the meshes' outward normals (a triangle pair's own
// features are oriented by the sign of their separation, which inside a solid points the wrong
// way), its distance signed along it (negative = penetrating), an edge-edge pair kept where it
// is applicable along that normal (each edge its mesh's extreme toward the other), and every
// penetrating vertex leaving by one exit: its shallowest, or toward the side A is known to leave
// by when that is not much deeper. A vertex just under one face of a thin plate is also under
// the opposite face, from behind.
#include "core.h"
#include "mesh.h"
#include "plugin_interface.h"
#include "workspace.h"

#include <stdlib.h>
#include <string.h>

// Outward unit normal (mesh frame) of kept triangle t of a closed mesh.
static pdVec3 pdiOutwardNormal( const pdMesh* mesh, int t )
{
	pdVec3 n = mesh->faceNormals[t];
	return mesh->outwardWinding ? n : pdiNeg( n );
}

// The sum of the outward normals of the two faces of edge `index` of triangle t (mesh frame): a
// direction out of the mesh at the edge.
static pdVec3 pdiEdgeOutward( const pdMesh* mesh, int t, int index )
{
	const pdiMeshEdge* e = mesh->edges + mesh->triangleEdges[t][index];
	pdVec3 sum = pdiOutwardNormal( mesh, t );
	if ( e->face0 >= 0 && e->face1 >= 0 )
	{
		sum = pdiAdd( pdiOutwardNormal( mesh, e->face0 ), pdiOutwardNormal( mesh, e->face1 ) );
	}
	return sum;
}

// True for an edge between two coplanar faces (inside a flat patch).
static bool pdiIsFlatEdge( const pdMesh* mesh, const pdFeature* f )
{
	return f->type == PD_FEATURE_EDGE &&
		   ( mesh->edges[mesh->triangleEdges[f->triangle][f->index]].flags & PDI_EDGE_FLAT ) != 0;
}

// The feature's normal out of B (world) by the outward normals: B's face for vertex-face, A's
// face (reversed) for face-vertex, for edge-edge the cross product's sign that leaves B's edge
// outward. Zero when the edges' outward directions disagree on the sign (the pair is no
// contact along it).
static pdVec3 pdiOutwardFeatureNormal( const pdMesh* meshA, const pdiFrame* frameA, const pdMesh* meshB,
									   const pdiFrame* frameB, const pdContactFeature* f )
{
	if ( f->kind == PD_CONTACT_VF )
	{
		return pdiMulMV( &frameB->r, pdiOutwardNormal( meshB, f->featureB.triangle ) );
	}
	if ( f->kind == PD_CONTACT_FV )
	{
		return pdiNeg( pdiMulMV( &frameA->r, pdiOutwardNormal( meshA, f->featureA.triangle ) ) );
	}
	pdVec3 outB = pdiMulMV( &frameB->r, pdiEdgeOutward( meshB, f->featureB.triangle, f->featureB.index ) );
	pdVec3 outA = pdiMulMV( &frameA->r, pdiEdgeOutward( meshA, f->featureA.triangle, f->featureA.index ) );
	pdVec3 n = f->normal;
	double alongB = pdiDot( n, outB ), alongA = pdiDot( n, outA );
	if ( alongB < 0.0 || ( alongB == 0.0 && alongA > 0.0 ) )
	{
		n = pdiNeg( n );
		alongB = -alongB;
		alongA = -alongA;
	}
	return alongA <= 0.0 ? n : pdiV3( 0.0, 0.0, 0.0 );
}

// Whether the vertex of a vertex-face or face-vertex pair projects onto its face (within 1e-9
// of the face's size): false for the pairs past a face's concave edges.
static bool pdiVertexOverItsFace( const pdMesh* meshA, const pdiFrame* frameA, const pdMesh* meshB,
								  const pdiFrame* frameB, const pdContactFeature* f )
{
	bool faceOfB = f->kind == PD_CONTACT_VF;
	const pdMesh* mesh = faceOfB ? meshB : meshA;
	const pdiFrame* frame = faceOfB ? frameB : frameA;
	const int* tri = mesh->triangles[faceOfB ? f->featureB.triangle : f->featureA.triangle];
	pdVec3 x = faceOfB ? f->pointA : f->pointB;
	pdVec3 c[3];
	for ( int k = 0; k < 3; ++k )
	{
		c[k] = pdiFrameApply( frame, mesh->vertices[tri[k]] );
	}
	pdVec3 winding = pdiCross( pdiSub( c[1], c[0] ), pdiSub( c[2], c[0] ) );
	double size = sqrt( pdiMaxD( pdiLengthSq( pdiSub( c[1], c[0] ) ), pdiLengthSq( pdiSub( c[2], c[0] ) ) ) );
	for ( int k = 0; k < 3; ++k )
	{
		pdVec3 edge = pdiSub( c[( k + 1 ) % 3], c[k] );
		double h = pdiDot( pdiCross( edge, pdiSub( x, c[k] ) ), winding );
		if ( h < -1e-9 * size * pdiLength( edge ) * pdiLength( winding ) )
		{
			return false;
		}
	}
	return true;
}

// A vertex of one side: its canonical id, -1 for an edge or a face.
// An edge's pairs lie at different places along it (a peg's side edge leaves the wall at the rim
// and at the lower end by different depths): they are not alternatives of one another.
static int pdiFeatureKey( const pdMesh* mesh, const pdFeature* f )
{
	if ( f->type == PD_FEATURE_VERTEX )
	{
		return mesh->canonicalVertex[mesh->triangles[f->triangle][f->index]];
	}
	return -1;
}

// A penetrating vertex leaves through a face only where its own surface does not run on into
// that face more steeply than this (cosine; 30 degrees): a plate's bottom edge just inside the
// other plate's side does not leave sideways, its bottom face runs on under the top face.
#define PDI_EXIT_SLOPE 0.5
// Exits whose normals agree this well (cosine) leave along one direction.
#define PDI_EXIT_COSINE 0.95
// An exit within 60 degrees of the preferred side, opposite the vertex's shallowest exit, is
// taken while at most this many times as deep (a plate sunk 12 mm into a 20 mm plate leaves the
// way it came, not through the far face 8 mm away).
#define PDI_PREFERRED_COSINE 0.5
#define PDI_PREFERRED_RATIO 2.0

typedef struct pdiKeyedExit
{
	int key;     // the vertex (A's canonical id, or B's plus A's vertex count)
	int feature; // index into the features
	double distance;
	bool leading; // the vertex leads its surface into the face (pdiPlugin_IsVertexLeadingAlong)
	bool pastEdge; // the vertex lies past the face's (concave) edges, over no part of it
} pdiKeyedExit;

static int pdiCompareKeyedExit( const void* a, const void* b )
{
	const pdiKeyedExit* x = a;
	const pdiKeyedExit* y = b;
	if ( x->key != y->key )
	{
		return x->key < y->key ? -1 : 1;
	}
	return x->feature < y->feature ? -1 : ( x->feature > y->feature ? 1 : 0 );
}

// No exit: the vertex is outside the other solid (a pair at distance >= 0; its pairs behind
// faces are through the other side). Unled: every exit it has lies where its own surface runs
// on deeper (pdiPlugin_IsVertexLeadingAlong), so deeper vertices than any gathered lie beyond
// it.
#define PDI_NO_EXIT ( -1 )
#define PDI_UNLED ( -2 )

// The exit one vertex leaves by, of its exits [start, end): the shallowest leading one, or the
// shallowest leading one toward the preferred side when that is opposite it and not much
// deeper; else PDI_NO_EXIT or PDI_UNLED.
static int pdiChosenExit( const pdiKeyedExit* exits, int start, int end, const pdContactFeature* features,
						  pdVec3 preferred )
{
	int shallowest = -1, toward = -1;
	for ( int k = start; k < end; ++k )
	{
		if ( exits[k].distance >= 0.0 )
		{
			return PDI_NO_EXIT;
		}
		if ( !exits[k].leading )
		{
			continue;
		}
		if ( shallowest < 0 || exits[k].distance > exits[shallowest].distance )
		{
			shallowest = k;
		}
		bool along = pdiDot( features[exits[k].feature].normal, preferred ) > PDI_PREFERRED_COSINE;
		if ( along && ( toward < 0 || exits[k].distance > exits[toward].distance ) )
		{
			toward = k;
		}
	}
	if ( shallowest < 0 )
	{
		return PDI_UNLED;
	}
	// Only against the opposite exit, which is the thin plate's far face: a peg's end sunk into
	// the bore's wall just under the rim leaves radially, not up through the block's top (that
	// exit is across, not opposite), whatever its last push was.
	bool opposite = toward >= 0 && pdiDot( features[exits[toward].feature].normal,
										   features[exits[shallowest].feature].normal ) < -PDI_PREFERRED_COSINE;
	return opposite && -exits[toward].distance <= PDI_PREFERRED_RATIO * -exits[shallowest].distance ? toward
																									: shallowest;
}

// Every penetrating vertex leaves by one exit (pdiChosenExit): its pairs along other directions
// are dropped, and along the chosen one those more than band deeper, and those it does not
// lead. A vertex outside the other solid keeps none behind a face; an unled vertex keeps none
// and sets *outUnled. The deepest chosen exit goes to *outDeepest.
static void pdiChooseExits( const pdiKeyedExit* exits, int n, const pdContactFeature* features,
							const pdiExitChoice* choice, bool* drop, double* outDeepest, bool* outUnled )
{
	pdVec3 preferred = pdiNormalize( choice->preferred );
	*outDeepest = 0.0;
	*outUnled = false;
	for ( int start = 0; start < n; )
	{
		int end = start;
		while ( end < n && exits[end].key == exits[start].key )
		{
			end += 1;
		}
		int chosen = pdiChosenExit( exits, start, end, features, preferred );
		pdVec3 direction = chosen >= 0 ? features[exits[chosen].feature].normal : pdiV3( 0.0, 0.0, 0.0 );
		// A vertex inside where two faces meet at a concave edge (a floor and a wall) lies past
		// the edge of each: leaving through one face's plane leaves it behind the other's, so
		// it leaves through all of them together.
		bool jointly = chosen >= 0 && exits[chosen].pastEdge;
		for ( int k = start; k < end; ++k )
		{
			const pdContactFeature* f = features + exits[k].feature;
			bool keep = f->distance >= 0.0;
			if ( chosen >= 0 )
			{
				bool alongChosen = pdiDot( f->normal, direction ) >= PDI_EXIT_COSINE &&
								   f->distance >= exits[chosen].distance - choice->band;
				bool joint = jointly && exits[k].pastEdge;
				keep = exits[k].leading && ( alongChosen || joint );
				if ( keep && joint )
				{
					*outDeepest = fmax( *outDeepest, -f->distance );
				}
			}
			drop[exits[k].feature] = drop[exits[k].feature] || !keep;
		}
		if ( chosen >= 0 )
		{
			*outDeepest = fmax( *outDeepest, -exits[chosen].distance );
		}
		*outUnled = *outUnled || chosen == PDI_UNLED;
		start = end;
	}
}

// Orients and filters features[0 .. count) in place; returns the kept count.
static int pdiOrientInPlace( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
							 const pdTransform* poseB, pdContactFeature* features, int count,
							 const pdiExitChoice* choice, pdWorkspace* ws, pdiOrientedFeatures* out )
{
	pdiFrame frameA, frameB;
	if ( pdiMakeFrame( poseA, &frameA ) != PD_STATUS_OK || pdiMakeFrame( poseB, &frameB ) != PD_STATUS_OK )
	{
		return 0;
	}
	size_t bytes = (size_t)count * ( sizeof( pdiKeyedExit ) + sizeof( bool ) );
	if ( !pdiBuffer_Reserve( &ws->scratch, bytes, false ) )
	{
		out->status = PD_STATUS_OUT_OF_MEMORY;
		return 0;
	}
	pdiKeyedExit* exits = ws->scratch.data;
	bool* drop = (bool*)( exits + count );
	int n = 0;
	for ( int i = 0; i < count; ++i )
	{
		pdContactFeature* f = features + i;
		pdVec3 normal = pdiOutwardFeatureNormal( meshA, &frameA, meshB, &frameB, f );
		drop[i] = pdiDot( normal, normal ) == 0.0;
		if ( drop[i] )
		{
			continue;
		}
		f->normal = pdiNormalize( normal );
		f->distance = pdiDot( pdiSub( f->pointA, f->pointB ), f->normal );
		// A face's normal is its own contact normal whatever the vertex against it; an
		// edge-edge cross product is one only where both edges are extreme along it (an edge
		// inside a flat floor would push sideways). The vertex of a penetrating vertex-face pair
		// need not be strictly extreme (a rim vertex of a tessellated bore lies in a shallow
		// valley of its rim, and the peg's facet against it is still the contact there), only
		// leading within PDI_EXIT_SLOPE; pairs outside keep saying the vertex is outside. An
		// edge inside a flat patch adds nothing its face's vertex-face pairs do not say.
		drop[i] = !isfinite( f->distance ) ||
				  ( f->kind == PD_CONTACT_EE &&
					( pdiIsFlatEdge( meshA, &f->featureA ) || pdiIsFlatEdge( meshB, &f->featureB ) ||
					  !pdiPlugin_IsFeatureExtremeAlong( meshA, poseA, meshB, poseB, f, f->normal ) ) );
		int key = f->kind == PD_CONTACT_VF   ? pdiFeatureKey( meshA, &f->featureA )
				  : f->kind == PD_CONTACT_FV ? meshA->vertexCount + pdiFeatureKey( meshB, &f->featureB )
											 : -1;
		if ( !drop[i] && key >= 0 )
		{
			bool leading = f->distance >= 0.0 || pdiPlugin_IsVertexLeadingAlong( meshA, poseA, meshB, poseB, f,
																				f->normal, PDI_EXIT_SLOPE );
			bool pastEdge = !pdiVertexOverItsFace( meshA, &frameA, meshB, &frameB, f );
			exits[n++] = ( pdiKeyedExit ){ key, i, f->distance, leading, pastEdge };
		}
	}
	qsort( exits, (size_t)n, sizeof( *exits ), pdiCompareKeyedExit );
	pdiChooseExits( exits, n, features, choice, drop, &out->deepestExit, &out->unledVertex );
	int kept = 0;
	for ( int i = 0; i < count; ++i )
	{
		if ( !drop[i] )
		{
			features[kept++] = features[i];
		}
	}
	return kept;
}

static int pdiCompareInt( const void* a, const void* b )
{
	int x = *(const int*)a, y = *(const int*)b;
	return x < y ? -1 : ( x > y ? 1 : 0 );
}

// The deepest buried vertex (pdiGapProof.outBuried) that no gathered vertex-face pair has:
// it lies farther than the reach from every face around it. With more buried vertices than
// were kept, the deepest kept one.
static double pdiUnseenBuriedDepth( const pdMesh* meshA, const pdMesh* meshB, const pdContactFeature* features,
									int count, const pdiBuriedVertices* buried, pdWorkspace* ws )
{
	if ( buried->count == 0 )
	{
		return 0.0;
	}
	if ( !pdiBuffer_Reserve( &ws->scratch, (size_t)( count > 0 ? count : 1 ) * sizeof( int ), false ) )
	{
		return INFINITY; // unknown: deeper than the reach for all the caller can tell
	}
	int* seen = ws->scratch.data;
	int n = 0;
	for ( int i = 0; i < count; ++i )
	{
		const pdContactFeature* f = features + i;
		int key = f->kind == PD_CONTACT_VF   ? pdiFeatureKey( meshA, &f->featureA )
				  : f->kind == PD_CONTACT_FV ? meshA->vertexCount + pdiFeatureKey( meshB, &f->featureB )
											 : -1;
		if ( key >= 0 )
		{
			seen[n++] = key;
		}
	}
	qsort( seen, (size_t)n, sizeof( int ), pdiCompareInt );
	double deepest = 0.0;
	for ( int i = 0; i < buried->count; ++i )
	{
		const pdiBuriedVertex* v = buried->items + i;
		if ( v->depth > deepest && ( buried->full || bsearch( &v->key, seen, (size_t)n, sizeof( int ), pdiCompareInt ) == NULL ) )
		{
			deepest = v->depth;
		}
	}
	return deepest;
}

pdStatus pdiPlugin_GatherOrientedFeatures( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
										   const pdTransform* poseB, const pdContactFeatureDef* def,
										   const pdiExitChoice* choice, pdWorkspace* ioWorkspace,
										   pdiOrientedFeatures* outResult )
{
	if ( outResult == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	memset( outResult, 0, sizeof( *outResult ) );
	if ( choice == NULL || !isfinite( choice->band ) || choice->band < 0.0 || !pdiIsFiniteVec( choice->preferred ) )
	{
		outResult->status = PD_STATUS_INVALID_ARGUMENT;
		return outResult->status;
	}
	if ( pdiIsValidMesh( meshA ) && pdiIsValidMesh( meshB ) && ( !meshA->closed || !meshB->closed ) )
	{
		outResult->status = PD_STATUS_INVALID_ARGUMENT; // outward normals need closed meshes
		return outResult->status;
	}
	pdiBuriedVertices buried = { 0, false, NULL };
	pdiGapProof proof = {
		.stopWithinGap = false, .checkContainment = true, .skipFlatEdges = true, .outBuried = &buried };
	pdContactFeatureResult r;
	pdStatus status = pdiCheckedContactFeatures( meshA, poseA, meshB, poseB, def, proof, ioWorkspace, &r );
	outResult->status = status;
	outResult->apart = r.apart;
	outResult->nodeVisits = r.nodeVisits;
	if ( status < 0 )
	{
		return status;
	}
	// The features live in the workspace's buffer: oriented there, for the caller to read.
	pdContactFeature* features = (pdContactFeature*)r.features;
	outResult->gatheredCount = r.featureCount;
	outResult->buriedDepth = pdiUnseenBuriedDepth( meshA, meshB, features, r.featureCount, &buried, ioWorkspace );
	outResult->featureCount = features == NULL ? 0
											   : pdiOrientInPlace( meshA, poseA, meshB, poseB, features, r.featureCount,
																   choice, ioWorkspace, outResult );
	outResult->features = outResult->featureCount > 0 ? features : NULL;
	return outResult->status;
}
