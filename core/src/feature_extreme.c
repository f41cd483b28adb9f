// SPDX-License-Identifier: MIT
// Whether a contact feature pair's vertex or edge is its mesh's extreme along a direction among
// its neighbours (the vertices of the faces around a vertex, the opposite vertices of an edge's
// two faces): with the pair's own separation, whether the pair is locally closest; with its
// normal, whether a touching pair is applicable. Faces, boundary and non-manifold edges pass.
// And whether a vertex-face pair's face turns its back on the direction (the vertex behind it).
#include "core.h"
#include "mesh.h"
#include "plugin_interface.h"

// Angular slack for neighbours level with the feature (a flat patch, a ring lying flat).
#define PDI_LOCAL_SLACK 1e-6

// False when some vertex w among `count` lies ahead of p along dir by more than `slack` times
// its distance from p (the cosine between w - p and dir).
static bool pdiNoneAhead( const pdMesh* mesh, const int* vertices, int count, pdVec3 p, pdVec3 dir, double slack )
{
	for ( int i = 0; i < count; ++i )
	{
		pdVec3 w = pdiSub( mesh->vertices[vertices[i]], p );
		double len = pdiLength( w );
		if ( len > 0.0 && pdiDot( w, dir ) > slack * len )
		{
			return false;
		}
	}
	return true;
}

// True when the vertex or edge f of mesh is the mesh's extreme along dir (mesh frame) among
// its neighbours (the vertices of the faces around a vertex, the opposite vertices of the two
// faces of an edge), neighbours ahead by at most `slack` (a cosine) not counting.
static bool pdiFeatureIsExtreme( const pdMesh* mesh, const pdFeature* f, pdVec3 dir, double slack )
{
	if ( f->triangle < 0 || f->triangle >= mesh->triangleCount || f->index < 0 || f->index > 2 )
	{
		return true;
	}
	const int* tri = mesh->triangles[f->triangle];
	if ( f->type == PD_FEATURE_VERTEX )
	{
		int v = tri[f->index];
		int c = mesh->canonicalVertex[v];
		pdVec3 p = mesh->vertices[v];
		for ( int k = mesh->vertexFaceStart[c]; k < mesh->vertexFaceStart[c + 1]; ++k )
		{
			if ( !pdiNoneAhead( mesh, mesh->triangles[mesh->vertexFaces[k]], 3, p, dir, slack ) )
			{
				return false;
			}
		}
		return true;
	}
	if ( f->type == PD_FEATURE_EDGE )
	{
		const pdiMeshEdge* e = mesh->edges + mesh->triangleEdges[f->triangle][f->index];
		if ( e->face0 < 0 || e->face1 < 0 ||
			 ( e->flags & ( PDI_EDGE_BOUNDARY | PDI_EDGE_NONMANIFOLD | PDI_EDGE_INCONSISTENT ) ) )
		{
			return true;
		}
		pdVec3 p = mesh->vertices[tri[f->index]];
		return pdiNoneAhead( mesh, mesh->triangles[e->face0], 3, p, dir, slack ) &&
			   pdiNoneAhead( mesh, mesh->triangles[e->face1], 3, p, dir, slack );
	}
	return true;
}

bool pdiPlugin_IsFeatureExtremeAlong( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									  const pdTransform* poseB, const pdContactFeature* feature, pdVec3 direction )
{
	if ( feature == NULL || poseA == NULL || poseB == NULL || !pdiIsValidMesh( meshA ) || !pdiIsValidMesh( meshB ) )
	{
		return true;
	}
	double len = pdiLength( direction );
	if ( !( len > 0.0 ) || !isfinite( len ) )
	{
		return true;
	}
	pdVec3 d = pdiScale( direction, 1.0 / len );
	pdiFrame frameA, frameB;
	if ( pdiMakeFrame( poseA, &frameA ) != PD_STATUS_OK || pdiMakeFrame( poseB, &frameB ) != PD_STATUS_OK )
	{
		return true;
	}
	// A's feature must be A's extreme toward B (-d), B's its extreme toward A (+d).
	pdVec3 towardB = pdiMulMTV( &frameA.r, pdiNeg( d ) );
	pdVec3 towardA = pdiMulMTV( &frameB.r, d );
	return pdiFeatureIsExtreme( meshA, &feature->featureA, towardB, PDI_LOCAL_SLACK ) &&
		   pdiFeatureIsExtreme( meshB, &feature->featureB, towardA, PDI_LOCAL_SLACK );
}

bool pdiPlugin_IsVertexLeadingAlong( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
									 const pdTransform* poseB, const pdContactFeature* feature, pdVec3 normal,
									 double slope )
{
	if ( feature == NULL || poseA == NULL || poseB == NULL || !pdiIsValidMesh( meshA ) || !pdiIsValidMesh( meshB ) ||
		 !( pdiLength( normal ) > 0.0 ) || !isfinite( slope ) )
	{
		return true;
	}
	pdiFrame frame;
	if ( feature->kind == PD_CONTACT_VF && pdiMakeFrame( poseA, &frame ) == PD_STATUS_OK )
	{
		return pdiFeatureIsExtreme( meshA, &feature->featureA, pdiMulMTV( &frame.r, pdiNeg( pdiNormalize( normal ) ) ),
									slope );
	}
	if ( feature->kind == PD_CONTACT_FV && pdiMakeFrame( poseB, &frame ) == PD_STATUS_OK )
	{
		return pdiFeatureIsExtreme( meshB, &feature->featureB, pdiMulMTV( &frame.r, pdiNormalize( normal ) ), slope );
	}
	return true;
}

bool pdiPlugin_IsFaceTurnedAway( const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
								 const pdTransform* poseB, const pdContactFeature* feature, pdVec3 direction )
{
	if ( feature == NULL || poseA == NULL || poseB == NULL || !pdiIsValidMesh( meshA ) || !pdiIsValidMesh( meshB ) ||
		 !pdiIsFiniteVec( direction ) )
	{
		return false;
	}
	bool faceOfB = feature->kind == PD_CONTACT_VF;
	const pdMesh* mesh = faceOfB ? meshB : meshA;
	const pdFeature* face = faceOfB ? &feature->featureB : &feature->featureA;
	if ( ( feature->kind != PD_CONTACT_VF && feature->kind != PD_CONTACT_FV ) || !mesh->closed || face->triangle < 0 ||
		 face->triangle >= mesh->triangleCount )
	{
		return false;
	}
	pdiFrame frame;
	if ( pdiMakeFrame( faceOfB ? poseB : poseA, &frame ) != PD_STATUS_OK )
	{
		return false;
	}
	pdVec3 n = pdiMulMV( &frame.r, mesh->faceNormals[face->triangle] );
	double along = pdiDot( mesh->outwardWinding ? n : pdiNeg( n ), direction );
	// B's face must face A (along the direction), A's face must face B (against it).
	return faceOfB ? along < 0.0 : along > 0.0;
}
