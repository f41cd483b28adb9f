// SPDX-License-Identifier: MIT
// The smallest complete PD query: a tetrahedron (A) whose tip is pushed 0.2 into the top of a
// unit cube (B). Prints the state, the depth, the translation that separates them and the
// local PDs of the contact regions; exits 0 when A is found penetrating 0.2 deep.
#include <polydepth/polydepth.h>

#include <math.h>
#include <stdio.h>

// A unit cube centred on its origin; triangles wound counter-clockwise seen from outside.
static const double kCubeVertices[] = { -0.5, -0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, -0.5,
										-0.5, -0.5, 0.5,  0.5, -0.5, 0.5,  0.5, 0.5, 0.5,  -0.5, 0.5, 0.5 };
static const uint32_t kCubeIndices[] = { 0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
										 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7 };

// A tetrahedron with a flat top at z = 0 and its tip at z = -0.3.
static const double kTetraVertices[] = { -0.3, -0.3, 0.0, 0.3, -0.3, 0.0, 0.0, 0.3, 0.0, 0.0, 0.0, -0.3 };
static const uint32_t kTetraIndices[] = { 0, 1, 2, 0, 3, 1, 1, 3, 2, 2, 3, 0 };

static pdMesh* createMesh( const char* name, const double* vertices, int vertexCount, const uint32_t* indices,
						   int triangleCount )
{
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = vertices; // copied: the arrays may go away after pdCreateMesh
	def.vertexCount = vertexCount;
	def.indices = indices;
	def.triangleCount = triangleCount;
	pdMeshReport report;
	pdMesh* mesh = pdCreateMesh( &def, &report );
	if ( mesh == NULL )
	{
		fprintf( stderr, "%s: %s\n", name, report.message );
	}
	return mesh;
}

int main( void )
{
	pdMesh* tetra = createMesh( "tetrahedron", kTetraVertices, 4, kTetraIndices, 4 );
	pdMesh* cube = createMesh( "cube", kCubeVertices, 8, kCubeIndices, 12 );
	if ( tetra == NULL || cube == NULL )
	{
		pdDestroyMesh( tetra );
		pdDestroyMesh( cube );
		return 1;
	}

	pdTransform poseA = pdIdentityTransform(); // the tetrahedron's tip at z = 0.3, 0.2 below the top
	poseA.p.z = 0.6;
	pdTransform poseB = pdIdentityTransform();

	pdWorkspace* ws = pdCreateWorkspace( NULL ); // one per thread, reused by every query
	pdPenetrationResult r;
	pdStatus status = pdComputePenetration( tetra, &poseA, cube, &poseB, NULL, NULL, ws, &r );

	static const char* kStates[] = { "separated", "touching", "penetrating" };
	printf( "status %s, state %s, depth %.4f\n", pdGetStatusString( status ), kStates[r.state], r.depth );
	printf( "translate A by (%.4f %.4f %.4f)\n", r.translation.x, r.translation.y, r.translation.z );
	for ( int i = 0; i < r.localCount; ++i )
	{
		const pdLocalPenetration* l = &r.local[i];
		printf( "region %d: normal (%.3f %.3f %.3f), depth %.4f, %d points\n", i, l->normal.x, l->normal.y,
				l->normal.z, l->depth, l->pointCount );
	}

	int ok = status >= 0 && r.state == PD_STATE_PENETRATING && fabs( r.depth - 0.2 ) < 0.01;
	pdDestroyWorkspace( ws );
	pdDestroyMesh( cube );
	pdDestroyMesh( tetra );
	return ok ? 0 : 1;
}
