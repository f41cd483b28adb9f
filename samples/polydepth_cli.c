// SPDX-License-Identifier: MIT
// `polydepth`: penetration depth between two mesh files from the command line.
//   polydepth query A B [options]    one query, human-readable summary or --json
//   polydepth replay FILE [--json]   re-runs a reproduction written by pdWriteRepro
// Bad input (files, options, poses) exits with code 2 and exactly one line on stderr naming the
// file or option and the problem; a query that fails for another reason exits with code 1.
#include "model_io.h"
#include "polydepth/polydepth.h"
#include "repro_io.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SMP_EXIT_OK 0
#define SMP_EXIT_FAILED 1
#define SMP_EXIT_BAD_INPUT 2

typedef struct smpCliOptions
{
	const char* pathA;
	const char* pathB;
	pdTransform poseA;
	pdTransform poseB;
	pdPenetrationDef def; ///< its settings are `settings` (set where the query runs)
	pdPenetrationSettings settings;
	bool json;
	bool noPruning; ///< --no-pruning: off whatever the order of the pruning options
	const char* reproOut;
} smpCliOptions;

static const char* smpMainHelp =
	"polydepth: translational penetration depth between two triangle meshes.\n"
	"\n"
	"Usage:\n"
	"  polydepth query A B [options]   the smallest translation of A that leaves A and B at most touching\n"
	"  polydepth replay FILE [--json]  re-run a reproduction file written by pdWriteRepro (or --write-repro)\n"
	"  polydepth --help                this text; `polydepth query --help` lists the query options\n"
	"\n"
	"Mesh files: .tri, .tris, and OBJ/STL/PLY/OFF (through Assimp when built with it).\n"
	"Exit codes: 0 answered, 1 the query failed, 2 bad input (one line on stderr names the file or option).\n";

static const char* smpQueryHelp =
	"Usage: polydepth query A B [options]\n"
	"\n"
	"Computes the translational penetration depth of mesh A against mesh B: the shortest translation t\n"
	"(world frame, applied to A) after which A and B at most touch.\n"
	"\n"
	"Options:\n"
	"  --pose-a QW QX QY QZ TX TY TZ  pose of A: unit quaternion (w x y z), then translation. Default identity\n"
	"  --pose-b QW QX QY QZ TX TY TZ  pose of B, the same way\n"
	"  --json                          print exactly one JSON object:\n"
	"                                  {\"status\": \"penetrating\"|\"touching\"|\"separated\", \"pd\": d, \"t\": "
	"[x,y,z],\n"
	"                                   \"lowerBound\": b, \"iterations\": n, \"contacts\": n, \"ms\": m,\n"
	"                                   \"local\": [{\"point\": [...], \"normal\": [...], \"depth\": d}, ...]}\n"
	"  --tolerance T                   contact tolerance in world units (> 0). Default 1e-4 of the smaller\n"
	"                                  bounding-box diagonal\n"
	"  --starts N                      free configurations refined at most (>= 1). Default 12\n"
	"  --iterations N                  PolyDepth iterations per start (>= 1). Default 30\n"
	"  --time-budget MS                wall-clock budget in milliseconds (>= 0, 0 = none). Default 0\n"
	"  --strategies LIST               comma-separated start strategies: coherence, clearance, centroid,\n"
	"                                  random, contact-normals, principal-axes, or all. Default all\n"
	"  --no-pruning                    no orientation-based culling of back faces in the CCD (and no\n"
	"                                  contact-space pruning even with --contact-pruning)\n"
	"  --contact-pruning               drop inapplicable feature pairs (SFOG) from the contact space;\n"
	"                                  off by default: it measured neither faster nor more accurate\n"
	"  --no-solid                      treat closed meshes as surfaces (containment is not penetration)\n"
	"  --random-directions N           directions of the random start strategy (0 to 4096), about 32 of\n"
	"                                  them also sampled for pockets. Default 512\n"
	"  --cone-directions N             directions probed around the best answer's direction, over a cone of\n"
	"                                  29 degrees half-angle (0 to 4096, 0 = off). Default 128\n"
	"  --seed S                        seed of the random start strategy (unsigned). Default 1\n"
	"  --write-repro FILE              also write a reproduction of the query for `polydepth replay`\n"
	"  --help                          this text\n";

static const char* smpReplayHelp = "Usage: polydepth replay FILE [--json]\n"
								  "\n"
								  "Re-runs the query stored in a reproduction file (both meshes, both poses and the\n"
								  "options) and prints the same summary as `polydepth query`.\n"
								  "\n"
								  "Options:\n"
								  "  --json   print exactly one JSON object (see `polydepth query --help`)\n"
								  "  --help   this text\n";

// The one line on stderr for bad input.
static int smpBadInput( const char* format, ... )
{
	char line[512];
	va_list args;
	va_start( args, format );
	vsnprintf( line, sizeof( line ), format, args );
	va_end( args );
	for ( char* c = line; *c != '\0'; ++c )
	{
		if ( *c == '\n' || *c == '\r' )
		{
			*c = ' ';
		}
	}
	fprintf( stderr, "%s\n", line );
	return SMP_EXIT_BAD_INPUT;
}

static bool smpParseDouble( const char* text, double* out )
{
	if ( text == NULL || text[0] == '\0' )
	{
		return false;
	}
	char* end = NULL;
	errno = 0;
	double v = strtod( text, &end );
	if ( end == text || *end != '\0' || !isfinite( v ) )
	{
		return false;
	}
	*out = v;
	return true;
}

static bool smpParseInt( const char* text, long long lo, long long hi, long long* out )
{
	if ( text == NULL || text[0] == '\0' )
	{
		return false;
	}
	char* end = NULL;
	errno = 0;
	long long v = strtoll( text, &end, 10 );
	if ( end == text || *end != '\0' || errno == ERANGE || v < lo || v > hi )
	{
		return false;
	}
	*out = v;
	return true;
}

// Reads 7 numbers after argv[*i] into a pose; validates the quaternion like the library does.
static int smpParsePose( int argc, char** argv, int* i, pdTransform* out )
{
	const char* option = argv[*i];
	double v[7];
	for ( int k = 0; k < 7; ++k )
	{
		int at = *i + 1 + k;
		if ( at >= argc )
		{
			return smpBadInput( "%s: expected 7 numbers (qw qx qy qz tx ty tz), got %d", option, k );
		}
		if ( !smpParseDouble( argv[at], v + k ) )
		{
			return smpBadInput( "%s: number %d ('%s') is not a finite number", option, k + 1, argv[at] );
		}
	}
	double norm = sqrt( v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3] );
	if ( fabs( norm - 1.0 ) > 1e-4 )
	{
		return smpBadInput( "%s: the quaternion (%g %g %g %g) is not unit length (norm %.9g)", option, v[0], v[1], v[2],
						   v[3], norm );
	}
	out->q = (pdQuat){ v[0] / norm, v[1] / norm, v[2] / norm, v[3] / norm };
	out->p = (pdVec3){ v[4], v[5], v[6] };
	*i += 7;
	return SMP_EXIT_OK;
}

static int smpParseStrategies( const char* option, const char* list, unsigned* out )
{
	static const struct
	{
		const char* name;
		unsigned bit;
	} names[] = {
		{ "coherence", PD_START_COHERENCE },
		{ "clearance", PD_START_CLEARANCE },
		{ "centroid", PD_START_CENTROID },
		{ "random", PD_START_RANDOM },
		{ "contact-normals", PD_START_CONTACT_NORMALS },
		{ "principal-axes", PD_START_PRINCIPAL_AXES },
		{ "all", PD_START_ALL },
	};
	unsigned bits = 0;
	const char* p = list;
	// At most strlen(list) + 1 items, so the loop ends.
	while ( *p != '\0' )
	{
		const char* comma = strchr( p, ',' );
		size_t n = comma != NULL ? (size_t)( comma - p ) : strlen( p );
		bool found = false;
		for ( size_t k = 0; k < sizeof( names ) / sizeof( names[0] ); ++k )
		{
			if ( strlen( names[k].name ) == n && strncmp( names[k].name, p, n ) == 0 )
			{
				bits |= names[k].bit;
				found = true;
			}
		}
		if ( !found )
		{
			return smpBadInput( "%s: unknown strategy '%.*s' (coherence, clearance, centroid, random, contact-normals, "
							   "principal-axes, all)",
							   option, (int)( n > 64 ? 64 : n ), p );
		}
		p += n;
		if ( *p == ',' )
		{
			++p;
		}
	}
	if ( bits == 0 )
	{
		return smpBadInput( "%s: expected a comma-separated list of strategies", option );
	}
	*out = bits;
	return SMP_EXIT_OK;
}

static const char* smpOptionValue( int argc, char** argv, int i )
{
	return i + 1 < argc ? argv[i + 1] : NULL;
}

static int smpParseQueryOptions( int argc, char** argv, smpCliOptions* o, bool* outHelp )
{
	int positional = 0;
	for ( int i = 0; i < argc; ++i )
	{
		const char* a = argv[i];
		const char* value = smpOptionValue( argc, argv, i );
		long long n = 0;
		if ( strcmp( a, "--help" ) == 0 || strcmp( a, "-h" ) == 0 )
		{
			*outHelp = true;
			return SMP_EXIT_OK;
		}
		else if ( strcmp( a, "--pose-a" ) == 0 || strcmp( a, "--pose-b" ) == 0 )
		{
			int rc = smpParsePose( argc, argv, &i, a[7] == 'a' ? &o->poseA : &o->poseB );
			if ( rc != SMP_EXIT_OK )
			{
				return rc;
			}
		}
		else if ( strcmp( a, "--json" ) == 0 )
		{
			o->json = true;
		}
		else if ( strcmp( a, "--no-pruning" ) == 0 )
		{
			o->noPruning = true;
		}
		else if ( strcmp( a, "--contact-pruning" ) == 0 )
		{
			o->settings.useOrientationPruning = true;
		}
		else if ( strcmp( a, "--no-solid" ) == 0 )
		{
			o->def.closedAsSolid = false;
		}
		else if ( strcmp( a, "--tolerance" ) == 0 )
		{
			double t = 0.0;
			if ( !smpParseDouble( value, &t ) || t <= 0.0 )
			{
				return smpBadInput( "%s: expected a positive number, got '%s'", a, value != NULL ? value : "" );
			}
			o->def.contactTolerance = t;
			++i;
		}
		else if ( strcmp( a, "--time-budget" ) == 0 )
		{
			double t = 0.0;
			if ( !smpParseDouble( value, &t ) || t < 0.0 )
			{
				return smpBadInput( "%s: expected milliseconds >= 0, got '%s'", a, value != NULL ? value : "" );
			}
			o->def.timeBudgetMs = t;
			++i;
		}
		else if ( strcmp( a, "--starts" ) == 0 || strcmp( a, "--iterations" ) == 0 )
		{
			if ( !smpParseInt( value, 1, 1000000, &n ) )
			{
				return smpBadInput( "%s: expected an integer from 1 to 1000000, got '%s'", a, value != NULL ? value : "" );
			}
			if ( a[2] == 's' )
			{
				o->settings.maxStarts = (int)n;
			}
			else
			{
				o->def.maxIterations = (int)n;
			}
			++i;
		}
		else if ( strcmp( a, "--random-directions" ) == 0 || strcmp( a, "--cone-directions" ) == 0 )
		{
			if ( !smpParseInt( value, 0, 4096, &n ) )
			{
				return smpBadInput( "%s: expected an integer from 0 to 4096, got '%s'", a, value != NULL ? value : "" );
			}
			int* count = strcmp( a, "--random-directions" ) == 0 ? &o->settings.randomDirections : &o->settings.coneDirections;
			*count = (int)n;
			++i;
		}
		else if ( strcmp( a, "--seed" ) == 0 )
		{
			if ( !smpParseInt( value, 0, UINT_MAX, &n ) )
			{
				return smpBadInput( "%s: expected an unsigned integer, got '%s'", a, value != NULL ? value : "" );
			}
			o->settings.randomSeed = (unsigned)n;
			++i;
		}
		else if ( strcmp( a, "--strategies" ) == 0 )
		{
			if ( value == NULL )
			{
				return smpBadInput( "%s: expected a comma-separated list of strategies", a );
			}
			int rc = smpParseStrategies( a, value, &o->settings.startStrategies );
			if ( rc != SMP_EXIT_OK )
			{
				return rc;
			}
			++i;
		}
		else if ( strcmp( a, "--write-repro" ) == 0 )
		{
			if ( value == NULL || value[0] == '\0' )
			{
				return smpBadInput( "%s: expected a file name", a );
			}
			o->reproOut = value;
			++i;
		}
		else if ( a[0] == '-' && a[1] != '\0' )
		{
			return smpBadInput( "%s: unknown option (see `polydepth query --help`)", a );
		}
		else
		{
			if ( positional == 0 )
			{
				o->pathA = a;
			}
			else if ( positional == 1 )
			{
				o->pathB = a;
			}
			else
			{
				return smpBadInput( "%s: unexpected argument (query takes two mesh files)", a );
			}
			++positional;
		}
	}
	if ( positional < 2 )
	{
		return smpBadInput( "query: expected two mesh files A and B (see `polydepth query --help`)" );
	}
	if ( o->noPruning )
	{
		o->settings.useOrientationPruning = false;
		o->settings.useOrientationCulling = false;
	}
	return SMP_EXIT_OK;
}

static double smpFinite( double v )
{
	return isfinite( v ) ? v : 0.0;
}

static const char* smpStateName( pdPenetrationState state )
{
	switch ( state )
	{
		case PD_STATE_PENETRATING:
			return "penetrating";
		case PD_STATE_TOUCHING:
			return "touching";
		default:
			return "separated";
	}
}

static void smpPrintJsonString( const char* text )
{
	putchar( '"' );
	for ( const char* c = text; c != NULL && *c != '\0'; ++c )
	{
		unsigned char u = (unsigned char)*c;
		if ( u == '"' || u == '\\' )
		{
			printf( "\\%c", u );
		}
		else if ( u < 32 )
		{
			printf( "\\u%04x", u );
		}
		else
		{
			putchar( u );
		}
	}
	putchar( '"' );
}

static void smpPrintJsonVec( pdVec3 v )
{
	printf( "[%.17g, %.17g, %.17g]", smpFinite( v.x ), smpFinite( v.y ), smpFinite( v.z ) );
}

// A region's representative point: the mean of its contact points.
static pdVec3 smpRegionPoint( const pdLocalPenetration* region )
{
	pdVec3 sum = { 0.0, 0.0, 0.0 };
	int n = region->pointCount < 0 ? 0 : ( region->pointCount > PD_MAX_REGION_POINTS ? PD_MAX_REGION_POINTS : region->pointCount );
	for ( int i = 0; i < n; ++i )
	{
		sum.x += region->points[i].x;
		sum.y += region->points[i].y;
		sum.z += region->points[i].z;
	}
	if ( n > 0 )
	{
		sum.x /= n;
		sum.y /= n;
		sum.z /= n;
	}
	return sum;
}

static void smpPrintResult( const pdPenetrationResult* r, bool json, const char* nameA, const char* nameB,
						   const pdMesh* meshA, const pdMesh* meshB )
{
	int localCount = r->localCount < 0 ? 0 : ( r->localCount > PD_MAX_LOCAL_REGIONS ? PD_MAX_LOCAL_REGIONS : r->localCount );
	if ( json )
	{
		printf( "{\"status\": \"%s\", \"pd\": %.17g, \"t\": ", smpStateName( r->state ), smpFinite( r->depth ) );
		smpPrintJsonVec( r->translation );
		printf( ", \"lowerBound\": %.17g", smpFinite( r->lowerBound ) );
		printf( ", \"iterations\": %d, \"contacts\": %d, \"ms\": %.17g, \"starts\": %d, \"code\": ", r->iterations,
				r->contactPlaneCount, smpFinite( r->elapsedMs ), r->starts );
		smpPrintJsonString( pdGetStatusString( r->status ) );
		printf( ", \"local\": [" );
		for ( int i = 0; i < localCount; ++i )
		{
			const pdLocalPenetration* region = r->local + i;
			printf( "%s{\"point\": ", i > 0 ? ", " : "" );
			smpPrintJsonVec( smpRegionPoint( region ) );
			printf( ", \"normal\": " );
			smpPrintJsonVec( region->normal );
			printf( ", \"depth\": %.17g}", smpFinite( region->depth ) );
		}
		printf( "]}\n" );
		return;
	}
	printf( "A: %s (%d triangles)\n", nameA, pdMesh_GetInfo( meshA ).triangleCount );
	printf( "B: %s (%d triangles)\n", nameB, pdMesh_GetInfo( meshB ).triangleCount );
	printf( "state:       %s", smpStateName( r->state ) );
	if ( r->status != PD_STATUS_OK )
	{
		printf( " (%s: the answer is the best upper bound found)", pdGetStatusString( r->status ) );
	}
	printf( "\n" );
	printf( "depth:       %.17g\n", smpFinite( r->depth ) );
	printf( "lower bound: %.17g   (certified: no shorter translation separates them; 0 for open meshes)\n",
			smpFinite( r->lowerBound ) );
	printf( "translation: %.17g %.17g %.17g   (move A by this, world frame)\n", smpFinite( r->translation.x ),
			smpFinite( r->translation.y ), smpFinite( r->translation.z ) );
	printf( "iterations:  %d over %d start(s), %d contact plane(s), %.3f ms\n", r->iterations, r->starts, r->contactPlaneCount,
			smpFinite( r->elapsedMs ) );
	for ( int i = 0; i < localCount; ++i )
	{
		const pdLocalPenetration* region = r->local + i;
		pdVec3 p = smpRegionPoint( region );
		printf( "local %d:     depth %.9g along normal (%.6g %.6g %.6g) at (%.6g %.6g %.6g), %d point(s)\n", i,
				smpFinite( region->depth ), smpFinite( region->normal.x ), smpFinite( region->normal.y ),
				smpFinite( region->normal.z ), p.x, p.y, p.z, region->pointCount );
	}
}

static pdMesh* smpCreateMeshFromSoup( const char* name, const smpSoup* soup, int* outExit )
{
	pdMeshReport report;
	memset( &report, 0, sizeof( report ) );
	pdMesh* mesh = smpSoupCreateMesh( soup, &report );
	if ( mesh == NULL )
	{
		*outExit = report.status == PD_STATUS_OUT_OF_MEMORY ? SMP_EXIT_FAILED : SMP_EXIT_BAD_INPUT;
		if ( report.message[0] != '\0' )
		{
			smpBadInput( "%s: %s", name, report.message );
		}
		else
		{
			smpBadInput( "%s: cannot create a mesh (%s)", name, pdGetStatusString( report.status ) );
		}
	}
	return mesh;
}

// Runs one query on two soups and prints the result; the common tail of query and replay.
static int smpRunQuery( const char* nameA, const smpSoup* soupA, const char* nameB, const smpSoup* soupB,
					   const smpCliOptions* o )
{
	pdPenetrationDef def = o->def;
	def.settings = &o->settings;
	int rc = SMP_EXIT_OK;
	pdMesh* meshA = smpCreateMeshFromSoup( nameA, soupA, &rc );
	if ( meshA == NULL )
	{
		return rc;
	}
	pdMesh* meshB = smpCreateMeshFromSoup( nameB, soupB, &rc );
	if ( meshB == NULL )
	{
		pdDestroyMesh( meshA );
		return rc;
	}
	pdWorkspace* workspace = pdCreateWorkspace( NULL );
	if ( workspace == NULL )
	{
		pdDestroyMesh( meshA );
		pdDestroyMesh( meshB );
		fprintf( stderr, "polydepth: out of memory creating the workspace\n" );
		return SMP_EXIT_FAILED;
	}
	if ( o->reproOut != NULL &&
		 pdWriteRepro( o->reproOut, meshA, &o->poseA, meshB, &o->poseB, &def ) != PD_STATUS_OK )
	{
		pdDestroyWorkspace( workspace );
		pdDestroyMesh( meshA );
		pdDestroyMesh( meshB );
		return smpBadInput( "%s: cannot write the reproduction file", o->reproOut );
	}
	pdPenetrationResult result;
	memset( &result, 0, sizeof( result ) );
	pdStatus status = pdComputePenetration( meshA, &o->poseA, meshB, &o->poseB, &def, NULL, workspace, &result );
	if ( status < 0 )
	{
		if ( status == PD_STATUS_INVALID_POSE )
		{
			rc = smpBadInput( "--pose-a/--pose-b: %s", pdGetStatusString( status ) );
		}
		else if ( status == PD_STATUS_INVALID_DEF || status == PD_STATUS_INVALID_ARGUMENT )
		{
			rc = smpBadInput( "options: %s", pdGetStatusString( status ) );
		}
		else
		{
			fprintf( stderr, "polydepth: the query failed: %s\n", pdGetStatusString( status ) );
			rc = SMP_EXIT_FAILED;
		}
	}
	else
	{
		smpPrintResult( &result, o->json, nameA, nameB, meshA, meshB );
		rc = SMP_EXIT_OK;
	}
	pdDestroyWorkspace( workspace );
	pdDestroyMesh( meshA );
	pdDestroyMesh( meshB );
	return rc;
}

static int smpQueryCommand( int argc, char** argv )
{
	smpCliOptions o;
	memset( &o, 0, sizeof( o ) );
	o.poseA = pdIdentityTransform();
	o.poseB = pdIdentityTransform();
	o.def = pdDefaultPenetrationDef();
	o.settings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
	bool help = false;
	int rc = smpParseQueryOptions( argc, argv, &o, &help );
	if ( help )
	{
		fputs( smpQueryHelp, stdout );
		return SMP_EXIT_OK;
	}
	if ( rc != SMP_EXIT_OK )
	{
		return rc;
	}
	char error[512];
	smpSoup soupA, soupB;
	if ( !smpLoadSoup( o.pathA, &soupA, error, sizeof( error ) ) )
	{
		return smpBadInput( "%s", error );
	}
	if ( !smpLoadSoup( o.pathB, &soupB, error, sizeof( error ) ) )
	{
		smpFreeSoup( &soupA );
		return smpBadInput( "%s", error );
	}
	rc = smpRunQuery( o.pathA, &soupA, o.pathB, &soupB, &o );
	smpFreeSoup( &soupA );
	smpFreeSoup( &soupB );
	return rc;
}

static int smpReplayCommand( int argc, char** argv )
{
	smpCliOptions o;
	memset( &o, 0, sizeof( o ) );
	const char* path = NULL;
	for ( int i = 0; i < argc; ++i )
	{
		if ( strcmp( argv[i], "--help" ) == 0 || strcmp( argv[i], "-h" ) == 0 )
		{
			fputs( smpReplayHelp, stdout );
			return SMP_EXIT_OK;
		}
		else if ( strcmp( argv[i], "--json" ) == 0 )
		{
			o.json = true;
		}
		else if ( argv[i][0] == '-' && argv[i][1] != '\0' )
		{
			return smpBadInput( "%s: unknown option (see `polydepth replay --help`)", argv[i] );
		}
		else if ( path == NULL )
		{
			path = argv[i];
		}
		else
		{
			return smpBadInput( "%s: unexpected argument (replay takes one file)", argv[i] );
		}
	}
	if ( path == NULL )
	{
		return smpBadInput( "replay: expected a reproduction file (see `polydepth replay --help`)" );
	}
	char error[512];
	smpSoup soupA, soupB;
	memset( &soupA, 0, sizeof( soupA ) );
	memset( &soupB, 0, sizeof( soupB ) );
	smpReproDef recorded;
	if ( !smpReadRepro( path, &soupA, &soupB, &o.poseA, &o.poseB, &recorded, error, sizeof( error ) ) )
	{
		smpFreeSoup( &soupA );
		smpFreeSoup( &soupB );
		return smpBadInput( "%s", error[0] != '\0' ? error : path );
	}
	o.def = recorded.def;
	o.settings = recorded.settings;
	char nameA[600], nameB[600];
	snprintf( nameA, sizeof( nameA ), "%s (mesh a)", path );
	snprintf( nameB, sizeof( nameB ), "%s (mesh b)", path );
	int rc = smpRunQuery( nameA, &soupA, nameB, &soupB, &o );
	smpFreeSoup( &soupA );
	smpFreeSoup( &soupB );
	return rc;
}

int main( int argc, char** argv )
{
	if ( argc < 2 )
	{
		return smpBadInput( "polydepth: expected a command: query or replay (see `polydepth --help`)" );
	}
	const char* command = argv[1];
	if ( strcmp( command, "--help" ) == 0 || strcmp( command, "-h" ) == 0 || strcmp( command, "help" ) == 0 )
	{
		fputs( smpMainHelp, stdout );
		return SMP_EXIT_OK;
	}
	if ( strcmp( command, "query" ) == 0 )
	{
		return smpQueryCommand( argc - 2, argv + 2 );
	}
	if ( strcmp( command, "replay" ) == 0 )
	{
		return smpReplayCommand( argc - 2, argv + 2 );
	}
	return smpBadInput( "%s: unknown command (query, replay; see `polydepth --help`)", command );
}
