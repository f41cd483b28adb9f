// SPDX-License-Identifier: MIT
// Applicability predicates of orientation pruning on the spherical face orientation graph: a
// vertex accepts a direction inside its normal cone (or pseudo-vertex cone), two edges can touch
// when their arcs, one reflected, cross. pdiSfog_IsApplicable maps a contact feature pair onto
// them. Every predicate is conservative: a pair within PDI_SFOG_ANGLE_TOLERANCE of the boundary,
// or involving anything undecidable, is kept.
#include "sfog.h"

#include "core.h"

// x on the great circle of the arc (a0 -> a1 around axis c); within tol radians of the arc.
static bool pdiSfog_OnArc( pdVec3 x, pdVec3 a0, pdVec3 a1, pdVec3 c, bool major, double tol )
{
	double s0 = pdiDot( pdiCross( a0, x ), c );
	double s1 = pdiDot( pdiCross( x, a1 ), c );
	double h = pdiDot( x, pdiAdd( a0, a1 ) );
	if ( major )
	{
		// The major arc is the circle minus the open minor arc, shrunk by tol.
		return !( s0 > tol && s1 > tol && h > 0.0 );
	}
	return s0 >= -tol && s1 >= -tol && h >= 0.0;
}

// A unit direction d within about tol radians of the arc.
static bool pdiSfog_NearArc( pdVec3 d, pdVec3 a0, pdVec3 a1, pdVec3 c, bool major, double tol )
{
	double s = pdiDot( d, c );
	if ( fabs( s ) > tol )
	{
		return false;
	}
	pdVec3 p = pdiMulAdd( d, -s, c );
	double len = pdiLength( p );
	if ( len < 0.5 )
	{
		return false;
	}
	return pdiSfog_OnArc( pdiScale( p, 1.0 / len ), a0, a1, c, major, tol );
}

bool pdiSfog_VertexAccepts( const pdiSfog* sfog, int vertex, pdVec3 d, double tol )
{
	if ( sfog == NULL || !sfog->decidable || vertex < 0 || vertex >= sfog->vertexCount ||
		 sfog->vertexKind[vertex] == PDI_SFOG_VERTEX_UNDECIDABLE )
	{
		return true;
	}
	// Inside the normal cone: no edge of the vertex points along d.
	int begin = sfog->ringStart[vertex], end = sfog->ringStart[vertex + 1];
	bool inside = true;
	for ( int k = begin; k < end; ++k )
	{
		if ( pdiDot( d, sfog->ringDir[k] ) > 0.0 )
		{
			inside = false;
			break;
		}
	}
	int c0 = sfog->cornerStart[vertex], m = sfog->cornerStart[vertex + 1] - c0;
	const pdVec3* c = sfog->corners + c0;
	// A flat vertex (one corner) has coplanar edges, which every direction along the normal
	// line passes, the antipode of its normal too: only the normal's side is inside.
	if ( inside && ( m != 1 || pdiDot( d, c[0] ) > 0.0 ) )
	{
		return true;
	}
	// Outside: keep it when within tol of the region's boundary.
	for ( int j = 0; j < m; ++j )
	{
		if ( pdiDistanceSq( d, c[j] ) <= tol * tol )
		{
			return true;
		}
	}
	int arcs = m == 2 ? 1 : ( m >= 3 ? m : 0 );
	for ( int j = 0; j < arcs; ++j )
	{
		if ( pdiSfog_NearArc( d, c[j], c[( j + 1 ) % m], sfog->cornerAxis[c0 + j], false, tol ) )
		{
			return true;
		}
	}
	return false;
}

pdiMat33 pdiSfog_RelativeRotation( const pdiMat33* rotationA, const pdiMat33* rotationB )
{
	pdiMat33 r;
	r.cx = pdiMulMTV( rotationA, rotationB->cx );
	r.cy = pdiMulMTV( rotationA, rotationB->cy );
	r.cz = pdiMulMTV( rotationA, rotationB->cz );
	return r;
}

bool pdiSfog_ArcsCross( const pdiSfog* sfogA, int edgeA, const pdiSfog* sfogB, int edgeB, const pdiMat33* rotationBA,
					   double tol )
{
	if ( sfogA == NULL || sfogB == NULL || !sfogA->decidable || !sfogB->decidable || edgeA < 0 ||
		 edgeA >= sfogA->edgeCount || edgeB < 0 || edgeB >= sfogB->edgeCount )
	{
		return true;
	}
	int kindA = sfogA->arcKind[edgeA], kindB = sfogB->arcKind[edgeB];
	if ( kindA == PDI_SFOG_ARC_UNDECIDABLE || kindB == PDI_SFOG_ARC_UNDECIDABLE )
	{
		return true;
	}
	pdVec3 a0 = sfogA->nodeNormals[sfogA->arcNode[2 * edgeA]];
	pdVec3 a1 = sfogA->nodeNormals[sfogA->arcNode[2 * edgeA + 1]];
	// B's arc, reflected through the centre and expressed in A's frame. The reflection keeps the
	// circle's axis: (-R m0) x (-R m1) = R (m0 x m1).
	pdVec3 b0 = pdiNeg( pdiMulMV( rotationBA, sfogB->nodeNormals[sfogB->arcNode[2 * edgeB]] ) );
	if ( kindA == PDI_SFOG_ARC_POINT && kindB == PDI_SFOG_ARC_POINT )
	{
		return pdiDistanceSq( a0, b0 ) <= tol * tol;
	}
	pdVec3 b1 = pdiNeg( pdiMulMV( rotationBA, sfogB->nodeNormals[sfogB->arcNode[2 * edgeB + 1]] ) );
	if ( kindA == PDI_SFOG_ARC_POINT )
	{
		pdVec3 cb = pdiMulMV( rotationBA, sfogB->arcAxis[edgeB] );
		return pdiDistanceSq( a0, b0 ) <= tol * tol || pdiDistanceSq( a0, b1 ) <= tol * tol ||
			   pdiSfog_NearArc( a0, b0, b1, cb, kindB == PDI_SFOG_ARC_MAJOR, tol );
	}
	pdVec3 ca = sfogA->arcAxis[edgeA];
	if ( kindB == PDI_SFOG_ARC_POINT )
	{
		return pdiDistanceSq( b0, a0 ) <= tol * tol || pdiDistanceSq( b0, a1 ) <= tol * tol ||
			   pdiSfog_NearArc( b0, a0, a1, ca, kindA == PDI_SFOG_ARC_MAJOR, tol );
	}
	pdVec3 cb = pdiMulMV( rotationBA, sfogB->arcAxis[edgeB] );
	pdVec3 p = pdiCross( ca, cb );
	double len = pdiLength( p );
	bool majorA = kindA == PDI_SFOG_ARC_MAJOR, majorB = kindB == PDI_SFOG_ARC_MAJOR;
	if ( len < 1e-6 )
	{
		// (Nearly) one great circle: parallel edges. Keep them when the arcs overlap, which
		// keeps the predicate local (the sweep relies on that).
		return pdiSfog_NearArc( b0, a0, a1, ca, majorA, tol ) || pdiSfog_NearArc( b1, a0, a1, ca, majorA, tol ) ||
			   pdiSfog_NearArc( a0, b0, b1, cb, majorB, tol ) || pdiSfog_NearArc( a1, b0, b1, cb, majorB, tol );
	}
	p = pdiScale( p, 1.0 / len );
	if ( pdiSfog_OnArc( p, a0, a1, ca, majorA, tol ) && pdiSfog_OnArc( p, b0, b1, cb, majorB, tol ) )
	{
		return true;
	}
	pdVec3 q = pdiNeg( p );
	return pdiSfog_OnArc( q, a0, a1, ca, majorA, tol ) && pdiSfog_OnArc( q, b0, b1, cb, majorB, tol );
}

static int pdiSfog_FeatureVertex( const pdMesh* mesh, const pdFeature* f )
{
	if ( f->type != PD_FEATURE_VERTEX || f->triangle < 0 || f->triangle >= mesh->triangleCount || f->index < 0 ||
		 f->index > 2 )
	{
		return -1;
	}
	int v = ( f->vertex >= 0 && f->vertex < mesh->vertexCount ) ? f->vertex : mesh->triangles[f->triangle][f->index];
	return pdiSfog_Canonical( mesh, v );
}

static int pdiSfog_FeatureEdge( const pdMesh* mesh, const pdFeature* f )
{
	if ( f->type != PD_FEATURE_EDGE || f->triangle < 0 || f->triangle >= mesh->triangleCount || f->index < 0 ||
		 f->index > 2 || mesh->triangleEdges == NULL )
	{
		return -1;
	}
	return mesh->triangleEdges[f->triangle][f->index];
}

static int pdiSfog_FeatureFace( const pdiSfog* s, const pdFeature* f )
{
	if ( f->type != PD_FEATURE_FACE || f->triangle < 0 || f->triangle >= s->triangleCount )
	{
		return -1;
	}
	return s->triangleNode[f->triangle];
}

bool pdiSfog_IsApplicable( const pdMesh* meshA, const pdiMat33* rotationA, const pdMesh* meshB, const pdiMat33* rotationB,
						  const pdContactFeature* feature )
{
	if ( !pdiIsValidMesh( meshA ) || !pdiIsValidMesh( meshB ) || rotationA == NULL || rotationB == NULL ||
		 feature == NULL )
	{
		return true;
	}
	const pdiSfog* sA = meshA->sfog;
	const pdiSfog* sB = meshB->sfog;
	if ( sA == NULL || sB == NULL || !sA->decidable || !sB->decidable )
	{
		return true;
	}
	const double tol = PDI_SFOG_ANGLE_TOLERANCE;
	switch ( feature->kind )
	{
		case PD_CONTACT_VF:
		{
			int v = pdiSfog_FeatureVertex( meshA, &feature->featureA );
			int f = pdiSfog_FeatureFace( sB, &feature->featureB );
			if ( v < 0 || f < 0 )
			{
				return true;
			}
			pdVec3 d = pdiMulMTV( rotationA, pdiNeg( pdiMulMV( rotationB, sB->nodeNormals[f] ) ) );
			return pdiSfog_VertexAccepts( sA, v, d, tol );
		}
		case PD_CONTACT_FV:
		{
			int f = pdiSfog_FeatureFace( sA, &feature->featureA );
			int v = pdiSfog_FeatureVertex( meshB, &feature->featureB );
			if ( v < 0 || f < 0 )
			{
				return true;
			}
			pdVec3 d = pdiMulMTV( rotationB, pdiNeg( pdiMulMV( rotationA, sA->nodeNormals[f] ) ) );
			return pdiSfog_VertexAccepts( sB, v, d, tol );
		}
		case PD_CONTACT_EE:
		{
			int eA = pdiSfog_FeatureEdge( meshA, &feature->featureA );
			int eB = pdiSfog_FeatureEdge( meshB, &feature->featureB );
			if ( eA < 0 || eB < 0 )
			{
				return true;
			}
			pdiMat33 r = pdiSfog_RelativeRotation( rotationA, rotationB );
			return pdiSfog_ArcsCross( sA, eA, sB, eB, &r, tol );
		}
		default:
			return true;
	}
}
