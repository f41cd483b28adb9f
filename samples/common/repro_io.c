// SPDX-License-Identifier: MIT
// Reader for the pdWriteRepro text format (see core/src/repro.c for the grammar).
#include "repro_io.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct smpReproReader
{
	FILE* file;
	const char* path;
	int line;
	char text[512];
	char* error;
	size_t errorSize;
} smpReproReader;

static bool smpReproFail( smpReproReader* r, const char* format, ... )
{
	if ( r->error != NULL && r->errorSize > 0 )
	{
		char message[256];
		va_list args;
		va_start( args, format );
		vsnprintf( message, sizeof( message ), format, args );
		va_end( args );
		snprintf( r->error, r->errorSize, "%s: line %d: %s", r->path, r->line, message );
	}
	return false;
}

static bool smpReproNextLine( smpReproReader* r )
{
	for ( ;; )
	{
		if ( fgets( r->text, sizeof( r->text ), r->file ) == NULL )
		{
			return false;
		}
		r->line += 1;
		size_t len = strlen( r->text );
		if ( len + 1 == sizeof( r->text ) && r->text[len - 1] != '\n' )
		{
			// Over-long line: not a file we wrote.
			r->text[0] = '\0';
			return true;
		}
		char* p = r->text;
		while ( *p == ' ' || *p == '\t' )
		{
			++p;
		}
		if ( *p != '\0' && *p != '\n' && *p != '\r' && *p != '#' )
		{
			return true;
		}
	}
}

static bool smpReproPose( smpReproReader* r, char name, pdTransform* pose )
{
	char got = 0;
	pdTransform t;
	if ( !smpReproNextLine( r ) ||
		 sscanf( r->text, "pose %c %lf %lf %lf %lf %lf %lf %lf", &got, &t.q.w, &t.q.x, &t.q.y, &t.q.z, &t.p.x, &t.p.y,
				 &t.p.z ) != 8 ||
		 got != name )
	{
		return smpReproFail( r, "expected 'pose %c' with 7 numbers", name );
	}
	*pose = t;
	return true;
}

static bool smpReproMesh( smpReproReader* r, char name, smpSoup* soup )
{
	char got = 0;
	int vertexCount = 0, triangleCount = 0;
	if ( !smpReproNextLine( r ) || sscanf( r->text, "mesh %c %d %d", &got, &vertexCount, &triangleCount ) != 3 ||
		 got != name )
	{
		return smpReproFail( r, "expected 'mesh %c <vertices> <triangles>'", name );
	}
	if ( vertexCount <= 0 || triangleCount <= 0 || vertexCount > 50000000 || triangleCount > 50000000 )
	{
		return smpReproFail( r, "bad counts %d vertices, %d triangles", vertexCount, triangleCount );
	}
	soup->vertices = malloc( (size_t)vertexCount * 3 * sizeof( double ) );
	soup->indices = malloc( (size_t)triangleCount * 3 * sizeof( uint32_t ) );
	if ( soup->vertices == NULL || soup->indices == NULL )
	{
		return smpReproFail( r, "out of memory" );
	}
	soup->vertexCount = vertexCount;
	soup->triangleCount = triangleCount;
	for ( int i = 0; i < vertexCount; ++i )
	{
		double* v = soup->vertices + 3 * i;
		if ( !smpReproNextLine( r ) || sscanf( r->text, "v %lf %lf %lf", v, v + 1, v + 2 ) != 3 )
		{
			return smpReproFail( r, "expected 'v x y z' (vertex %d of %d)", i, vertexCount );
		}
	}
	for ( int i = 0; i < triangleCount; ++i )
	{
		long a, b, c;
		if ( !smpReproNextLine( r ) || sscanf( r->text, "f %ld %ld %ld", &a, &b, &c ) != 3 )
		{
			return smpReproFail( r, "expected 3 indices (triangle %d of %d)", i, triangleCount );
		}
		if ( a < 0 || b < 0 || c < 0 || a >= vertexCount || b >= vertexCount || c >= vertexCount )
		{
			return smpReproFail( r, "triangle %d references a vertex outside 0..%d", i, vertexCount - 1 );
		}
		soup->indices[3 * i] = (uint32_t)a;
		soup->indices[3 * i + 1] = (uint32_t)b;
		soup->indices[3 * i + 2] = (uint32_t)c;
	}
	return true;
}

static bool smpReproRead( smpReproReader* r, smpSoup* a, smpSoup* b, pdTransform* poseA, pdTransform* poseB,
						 smpReproDef* def )
{
	int version = 0;
	if ( !smpReproNextLine( r ) || sscanf( r->text, "polydepth-repro %d", &version ) != 1 )
	{
		return smpReproFail( r, "not a polydepth repro file" );
	}
	if ( version != 1 )
	{
		return smpReproFail( r, "unsupported version %d", version );
	}
	smpReproDef rd;
	rd.def = pdDefaultPenetrationDef();
	rd.settings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
	pdPenetrationDef* d = &rd.def;
	pdPenetrationSettings* s = &rd.settings;
	int line = 0, prune = 0, convex = 0, solid = 0, cull = 1, cone = 0;
	int fields = smpReproNextLine( r ) ? sscanf( r->text, "def %lf %u %d %d %lf %d %d %d %u %d %d %d %d %d %d",
												&d->contactTolerance, &s->startStrategies, &s->maxStarts,
												&d->maxIterations, &d->timeBudgetMs, &s->maxContactPlanes,
												&s->maxLcpIterations, &s->randomDirections, &s->randomSeed, &line,
												&prune, &convex, &solid, &cull, &cone )
									  : 0;
	// 13 and 14: written before useOrientationCulling and coneDirections existed; such a file
	// replays with the cone search off, as the query it records ran.
	if ( fields < 13 || fields > 15 )
	{
		return smpReproFail( r, "expected 'def' with 13 to 15 fields" );
	}
	s->coneDirections = cone;
	s->useOrientationCulling = cull != 0;
	s->lineRefinement = line != 0;
	s->useOrientationPruning = prune != 0;
	s->useConvexExactPath = convex != 0;
	d->closedAsSolid = solid != 0;
	if ( !smpReproPose( r, 'a', poseA ) || !smpReproPose( r, 'b', poseB ) || !smpReproMesh( r, 'a', a ) ||
		 !smpReproMesh( r, 'b', b ) )
	{
		return false;
	}
	if ( !smpReproNextLine( r ) || strncmp( r->text, "end", 3 ) != 0 )
	{
		return smpReproFail( r, "expected 'end'" );
	}
	*def = rd;
	return true;
}

bool smpReadRepro( const char* path, smpSoup* outA, smpSoup* outB, pdTransform* outPoseA, pdTransform* outPoseB,
				  smpReproDef* outDef, char* error, size_t errorSize )
{
	if ( error != NULL && errorSize > 0 )
	{
		error[0] = '\0';
	}
	if ( outA == NULL || outB == NULL || outPoseA == NULL || outPoseB == NULL || outDef == NULL )
	{
		if ( error != NULL && errorSize > 0 )
		{
			snprintf( error, errorSize, "%s: invalid arguments", path != NULL ? path : "(null)" );
		}
		return false;
	}
	memset( outA, 0, sizeof( *outA ) );
	memset( outB, 0, sizeof( *outB ) );
	*outPoseA = pdIdentityTransform();
	*outPoseB = pdIdentityTransform();
	outDef->def = pdDefaultPenetrationDef();
	outDef->settings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
	outDef->def.settings = &outDef->settings;
	if ( path == NULL )
	{
		if ( error != NULL && errorSize > 0 )
		{
			snprintf( error, errorSize, "(null): no file name" );
		}
		return false;
	}
	smpReproReader r;
	memset( &r, 0, sizeof( r ) );
	r.path = path;
	r.error = error;
	r.errorSize = errorSize;
	r.file = fopen( path, "r" );
	if ( r.file == NULL )
	{
		if ( error != NULL && errorSize > 0 )
		{
			snprintf( error, errorSize, "%s: cannot open the file", path );
		}
		return false;
	}
	pdTransform poseA, poseB;
	smpReproDef def;
	bool ok = smpReproRead( &r, outA, outB, &poseA, &poseB, &def );
	fclose( r.file );
	if ( !ok )
	{
		smpFreeSoup( outA );
		smpFreeSoup( outB );
		return false;
	}
	*outPoseA = poseA;
	*outPoseB = poseB;
	*outDef = def;
	outDef->def.settings = &outDef->settings;
	return true;
}
