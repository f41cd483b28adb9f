// SPDX-License-Identifier: MIT
// Copy-pasteable reproductions of penetration queries: both meshes, both poses and the def as
// one text file (read back by samples/common/repro_io.c for `polydepth replay FILE`).
#include "kernels.h"
#include "mesh.h"

#include <stdio.h>

// Format (version 1), one record per line, numbers printed with 17 significant digits:
//   polydepth-repro 1
//   def <contactTolerance> <startStrategies> <maxStarts> <maxIterations> <timeBudgetMs>
//       <maxContactPlanes> <maxLcpIterations> <randomDirections> <randomSeed> <lineRefinement>
//       <useOrientationPruning> <useConvexExactPath> <closedAsSolid> <useOrientationCulling>
//       <coneDirections>
//   (a def line without the last two fields reads useOrientationCulling as 1 and
//   coneDirections as 0, so that such a file runs the query it describes)
//   pose a <qw> <qx> <qy> <qz> <px> <py> <pz>
//   pose b ...
//   mesh a <vertexCount> <triangleCount>, then "v x y z" and "f i j k" (0-based) lines
//   mesh b ...
//   end
static bool pdiWriteReproMesh( FILE* file, char name, const pdMesh* mesh )
{
	if ( fprintf( file, "mesh %c %d %d\n", name, mesh->vertexCount, mesh->triangleCount ) < 0 )
	{
		return false;
	}
	for ( int i = 0; i < mesh->vertexCount; ++i )
	{
		pdVec3 v = mesh->vertices[i];
		if ( fprintf( file, "v %.17g %.17g %.17g\n", v.x, v.y, v.z ) < 0 )
		{
			return false;
		}
	}
	for ( int i = 0; i < mesh->triangleCount; ++i )
	{
		const int* t = mesh->triangles[i];
		if ( fprintf( file, "f %d %d %d\n", t[0], t[1], t[2] ) < 0 )
		{
			return false;
		}
	}
	return true;
}

static bool pdiWriteReproPose( FILE* file, char name, const pdTransform* pose )
{
	return fprintf( file, "pose %c %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", name, pose->q.w, pose->q.x, pose->q.y,
					pose->q.z, pose->p.x, pose->p.y, pose->p.z ) >= 0;
}

pdStatus pdWriteRepro( const char* path, const pdMesh* meshA, const pdTransform* poseA, const pdMesh* meshB,
					   const pdTransform* poseB, const pdPenetrationDef* def )
{
	if ( path == NULL || !pdiIsValidMesh( meshA ) || !pdiIsValidMesh( meshB ) || poseA == NULL || poseB == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	pdiPenetrationOptions options;
	if ( pdiResolvePenetrationDef( def, &options ) != PD_STATUS_OK )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	const pdiPenetrationOptions* o = &options;
	FILE* file = fopen( path, "w" );
	if ( file == NULL )
	{
		return PD_STATUS_INVALID_ARGUMENT;
	}
	bool ok = fprintf( file, "polydepth-repro 1\n" ) >= 0;
	ok = ok && fprintf( file, "def %.17g %u %d %d %.17g %d %d %d %u %d %d %d %d %d %d\n", o->contactTolerance,
						o->startStrategies, o->maxStarts, o->maxIterations, o->timeBudgetMs, o->maxContactPlanes,
						o->maxLcpIterations, o->randomDirections, o->randomSeed, o->lineRefinement ? 1 : 0,
						o->useOrientationPruning ? 1 : 0, o->useConvexExactPath ? 1 : 0, o->closedAsSolid ? 1 : 0,
						o->useOrientationCulling ? 1 : 0, o->coneDirections ) >= 0;
	ok = ok && pdiWriteReproPose( file, 'a', poseA ) && pdiWriteReproPose( file, 'b', poseB );
	ok = ok && pdiWriteReproMesh( file, 'a', meshA ) && pdiWriteReproMesh( file, 'b', meshB );
	ok = ok && fprintf( file, "end\n" ) >= 0;
	ok = ( fclose( file ) == 0 ) && ok;
	return ok ? PD_STATUS_OK : PD_STATUS_INVALID_ARGUMENT;
}
