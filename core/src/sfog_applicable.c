// SPDX-License-Identifier: MIT
// Applicability predicates of orientation pruning on the spherical face orientation graph: a
// vertex accepts a direction inside its normal cone (or pseudo-vertex cone), two edges can touch
// when their arcs, one reflected, cross. pdSfog_IsApplicable maps a contact feature pair onto
// them. Every predicate is conservative: a pair within PD_SFOG_ANGLE_TOLERANCE of the boundary,
// or involving anything undecidable, is kept.
#include "sfog.h"

#include "core.h"

// x on the great circle of the arc (a0 -> a1 around axis c); within tol radians of the arc.
static bool pdSfog_OnArc( pdVec3 x, pdVec3 a0, pdVec3 a1, pdVec3 c, bool major, double tol )
{
	double s0 = pdDot( pdCross( a0, x ), c );
	double s1 = pdDot( pdCross( x, a1 ), c );
	double h = pdDot( x, pdAdd( a0, a1 ) );
	if ( major )
	{
		// The major arc is the circle minus the open minor arc, shrunk by tol.
		return !( s0 > tol && s1 > tol && h > 0.0 );
	}
	return s0 >= -tol && s1 >= -tol && h >= 0.0;
}

// A unit direction d within about tol radians of the arc.
static bool pdSfog_NearArc( pdVec3 d, pdVec3 a0, pdVec3 a1, pdVec3 c, bool major, double tol )
{
	double s = pdDot( d, c );
	if ( fabs( s ) > tol )
	{
		return false;
	}
	pdVec3 p = pdMulAdd( d, -s, c );
	double len = pdLength( p );
	if ( len < 0.5 )
	{
		return false;
	}
	return pdSfog_OnArc( pdScale( p, 1.0 / len ), a0, a1, c, major, tol );
}

bool pdSfog_VertexAccepts( const pdSfog* sfog, int vertex, pdVec3 d, double tol )
{
	if ( sfog == NULL || !sfog->decidable || vertex < 0 || vertex >= sfog->vertexCount ||
		 sfog->vertexKind[vertex] == PD_SFOG_VERTEX_UNDECIDABLE )
	{
		return true;
	}
	// Inside the normal cone: no edge of the vertex points along d.
	int begin = sfog->ringStart[vertex], end = sfog->ringStart[vertex + 1];
	bool inside = true;
	for ( int k = begin; k < end; ++k )
	{
		if ( pdDot( d, sfog->ringDir[k] ) > 0.0 )
		{
			inside = false;
			break;
		}
	}
	int c0 = sfog->cornerStart[vertex], m = sfog->cornerStart[vertex + 1] - c0;
	const pdVec3* c = sfog->corners + c0;
	// A flat vertex (one corner) has coplanar edges, which every direction along the normal
	// line passes, the antipode of its normal too: only the normal's side is inside.
	if ( inside && ( m != 1 || pdDot( d, c[0] ) > 0.0 ) )
	{
		return true;
	}
	// Outside: keep it when within tol of the region's boundary.
	for ( int j = 0; j < m; ++j )
	{
		if ( pdDistanceSq( d, c[j] ) <= tol * tol )
		{
			return true;
		}
	}
	int arcs = m == 2 ? 1 : ( m >= 3 ? m : 0 );
	for ( int j = 0; j < arcs; ++j )
	{
		if ( pdSfog_NearArc( d, c[j], c[( j + 1 ) % m], sfog->cornerAxis[c0 + j], false, tol ) )
		{
			return true;
		}
	}
	return false;
}

pdMat33 pdSfog_RelativeRotation( const pdMat33* rotationA, const pdMat33* rotationB )
{
	pdMat33 r;
	r.cx = pdMulMTV( rotationA, rotationB->cx );
	r.cy = pdMulMTV( rotationA, rotationB->cy );
	r.cz = pdMulMTV( rotationA, rotationB->cz );
	return r;
}

bool pdSfog_ArcsCross( const pdSfog* sfogA, int edgeA, const pdSfog* sfogB, int edgeB, const pdMat33* rotationBA,
					   double tol )
{
	if ( sfogA == NULL || sfogB == NULL || !sfogA->decidable || !sfogB->decidable || edgeA < 0 ||
		 edgeA >= sfogA->edgeCount || edgeB < 0 || edgeB >= sfogB->edgeCount )
	{
		return true;
	}
	int kindA = sfogA->arcKind[edgeA], kindB = sfogB->arcKind[edgeB];
	if ( kindA == PD_SFOG_ARC_UNDECIDABLE || kindB == PD_SFOG_ARC_UNDECIDABLE )
	{
		return true;
	}
	pdVec3 a0 = sfogA->nodeNormals[sfogA->arcNode[2 * edgeA]];
	pdVec3 a1 = sfogA->nodeNormals[sfogA->arcNode[2 * edgeA + 1]];
	// B's arc, reflected through the centre and expressed in A's frame. The reflection keeps the
	// circle's axis: (-R m0) x (-R m1) = R (m0 x m1).
	pdVec3 b0 = pdNeg( pdMulMV( rotationBA, sfogB->nodeNormals[sfogB->arcNode[2 * edgeB]] ) );
	if ( kindA == PD_SFOG_ARC_POINT && kindB == PD_SFOG_ARC_POINT )
	{
		return pdDistanceSq( a0, b0 ) <= tol * tol;
	}
	pdVec3 b1 = pdNeg( pdMulMV( rotationBA, sfogB->nodeNormals[sfogB->arcNode[2 * edgeB + 1]] ) );
	if ( kindA == PD_SFOG_ARC_POINT )
	{
		pdVec3 cb = pdMulMV( rotationBA, sfogB->arcAxis[edgeB] );
		return pdDistanceSq( a0, b0 ) <= tol * tol || pdDistanceSq( a0, b1 ) <= tol * tol ||
			   pdSfog_NearArc( a0, b0, b1, cb, kindB == PD_SFOG_ARC_MAJOR, tol );
	}
	pdVec3 ca = sfogA->arcAxis[edgeA];
	if ( kindB == PD_SFOG_ARC_POINT )
	{
		return pdDistanceSq( b0, a0 ) <= tol * tol || pdDistanceSq( b0, a1 ) <= tol * tol ||
			   pdSfog_NearArc( b0, a0, a1, ca, kindA == PD_SFOG_ARC_MAJOR, tol );
	}
	pdVec3 cb = pdMulMV( rotationBA, sfogB->arcAxis[edgeB] );
	pdVec3 p = pdCross( ca, cb );
	double len = pdLength( p );
	bool majorA = kindA == PD_SFOG_ARC_MAJOR, majorB = kindB == PD_SFOG_ARC_MAJOR;
	if ( len < 1e-6 )
	{
		// (Nearly) one great circle: parallel edges. Keep them when the arcs overlap, which
		// keeps the predicate local (the sweep relies on that).
		return pdSfog_NearArc( b0, a0, a1, ca, majorA, tol ) || pdSfog_NearArc( b1, a0, a1, ca, majorA, tol ) ||
			   pdSfog_NearArc( a0, b0, b1, cb, majorB, tol ) || pdSfog_NearArc( a1, b0, b1, cb, majorB, tol );
	}
	p = pdScale( p, 1.0 / len );
	if ( pdSfog_OnArc( p, a0, a1, ca, majorA, tol ) && pdSfog_OnArc( p, b0, b1, cb, majorB, tol ) )
	{
		return true;
	}
	pdVec3 q = pdNeg( p );
	return pdSfog_OnArc( q, a0, a1, ca, majorA, tol ) && pdSfog_OnArc( q, b0, b1, cb, majorB, tol );
}

static int pdSfog_FeatureVertex( const pdMesh* mesh, const pdFeature* f )
{
	if ( f->type != PD_FEATURE_VERTEX || f->triangle < 0 || f->triangle >= mesh->triangleCount || f->index < 0 ||
		 f->index > 2 )
	{
		return -1;
	}
	int v = ( f->vertex >= 0 && f->vertex < mesh->vertexCount ) ? f->vertex : mesh->triangles[f->triangle][f->index];
	return pdSfog_Canonical( mesh, v );
}

static int pdSfog_FeatureEdge( const pdMesh* mesh, const pdFeature* f )
{
	if ( f->type != PD_FEATURE_EDGE || f->triangle < 0 || f->triangle >= mesh->triangleCount || f->index < 0 ||
		 f->index > 2 || mesh->triangleEdges == NULL )
	{
		return -1;
	}
	return mesh->triangleEdges[f->triangle][f->index];
}

static int pdSfog_FeatureFace( const pdSfog* s, const pdFeature* f )
{
	if ( f->type != PD_FEATURE_FACE || f->triangle < 0 || f->triangle >= s->triangleCount )
	{
		return -1;
	}
	return s->triangleNode[f->triangle];
}

bool pdSfog_IsApplicable( const pdMesh* meshA, const pdMat33* rotationA, const pdMesh* meshB, const pdMat33* rotationB,
						  const pdContactFeature* feature )
{
	if ( !pdIsValidMesh( meshA ) || !pdIsValidMesh( meshB ) || rotationA == NULL || rotationB == NULL ||
		 feature == NULL )
	{
		return true;
	}
	const pdSfog* sA = meshA->sfog;
	const pdSfog* sB = meshB->sfog;
	if ( sA == NULL || sB == NULL || !sA->decidable || !sB->decidable )
	{
		return true;
	}
	const double tol = PD_SFOG_ANGLE_TOLERANCE;
	switch ( feature->kind )
	{
		case PD_CONTACT_VF:
		{
			int v = pdSfog_FeatureVertex( meshA, &feature->featureA );
			int f = pdSfog_FeatureFace( sB, &feature->featureB );
			if ( v < 0 || f < 0 )
			{
				return true;
			}
			pdVec3 d = pdMulMTV( rotationA, pdNeg( pdMulMV( rotationB, sB->nodeNormals[f] ) ) );
			return pdSfog_VertexAccepts( sA, v, d, tol );
		}
		case PD_CONTACT_FV:
		{
			int f = pdSfog_FeatureFace( sA, &feature->featureA );
			int v = pdSfog_FeatureVertex( meshB, &feature->featureB );
			if ( v < 0 || f < 0 )
			{
				return true;
			}
			pdVec3 d = pdMulMTV( rotationB, pdNeg( pdMulMV( rotationA, sA->nodeNormals[f] ) ) );
			return pdSfog_VertexAccepts( sB, v, d, tol );
		}
		case PD_CONTACT_EE:
		{
			int eA = pdSfog_FeatureEdge( meshA, &feature->featureA );
			int eB = pdSfog_FeatureEdge( meshB, &feature->featureB );
			if ( eA < 0 || eB < 0 )
			{
				return true;
			}
			pdMat33 r = pdSfog_RelativeRotation( rotationA, rotationB );
			return pdSfog_ArcsCross( sA, eA, sB, eB, &r, tol );
		}
		default:
			return true;
	}
}
