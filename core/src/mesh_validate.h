// SPDX-License-Identifier: MIT
// Private: reading and checking a pdMeshDef (mesh_validate.c), shared by pdValidateMeshDef and
// pdCreateMesh.
#pragma once

#include "mesh.h"

/// Degeneracy reasons (pdiClassifyTriangle).
enum
{
	PDI_TRI_OK = 0,
	PDI_TRI_REPEATED = 1,
	PDI_TRI_SMALL = 2,
};

/// A report with status OK and no bad vertex or triangle.
void pdiResetReport( pdMeshReport* report );

/// Sets the report's status and message (printf format); returns status.
pdStatus pdiFailReport( pdMeshReport* report, pdStatus status, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 3, 4 ) ) )
#endif
	;

/// Everything both entry points check, in a fixed order. No allocation. On success
/// *outDiagonalSq holds the squared diagonal of all vertices' bounds.
pdStatus pdiCheckMeshDef( const pdMeshDef* def, pdMeshReport* report, double* outDiagonalSq );

/// The three vertex indices of the def's triangle t.
void pdiReadTriangle( const pdMeshDef* def, int t, uint32_t out[3] );

/// Vertex i of a checked def, in double (-0 read as +0).
pdVec3 pdiReadVertexValue( const pdMeshDef* def, int i );

/// The one degeneracy predicate (validation and creation both call it): a PDI_TRI_* reason.
/// outArea (may be NULL) receives the triangle's area.
int pdiClassifyTriangle( const pdMeshDef* def, const uint32_t tri[3], double diagonalSq, double* outArea );
