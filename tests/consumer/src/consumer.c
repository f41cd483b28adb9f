// SPDX-License-Identifier: MIT
// A tiny outside program: two overlapping unit cubes, one PD query through the installed API.
#include <polydepth/polydepth.h>

#include <stdio.h>

static const double kCubeVertices[] = { -0.5, -0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, -0.5,
										-0.5, -0.5, 0.5,  0.5, -0.5, 0.5,  0.5, 0.5, 0.5,  -0.5, 0.5, 0.5 };
static const uint32_t kCubeIndices[] = { 0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
										 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7 };

int main( void )
{
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = kCubeVertices;
	def.vertexCount = 8;
	def.indices = kCubeIndices;
	def.triangleCount = 12;
	pdMeshReport report;
	pdMesh* cube = pdCreateMesh( &def, &report );
	if ( cube == NULL )
	{
		fprintf( stderr, "consumer: %s\n", report.message );
		return 1;
	}
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdTransform poseA = pdIdentityTransform();
	pdTransform poseB = pdIdentityTransform();
	poseA.p.x = 0.75;
	pdPenetrationResult result;
	pdStatus status = pdComputePenetration( cube, &poseA, cube, &poseB, NULL, NULL, ws, &result );
	printf( "consumer: status %s, state %d, depth %.6f\n", pdGetStatusString( status ), (int)result.state, result.depth );
	int ok = status >= 0 && result.state == PD_STATE_PENETRATING && result.depth > 0.2 && result.depth < 0.3;
	pdDestroyWorkspace( ws );
	pdDestroyMesh( cube );
	return ok ? 0 : 1;
}
