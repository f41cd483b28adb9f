// SPDX-License-Identifier: MIT
// Long-run soak (scripts/soak; not part of ctest): many random PD queries over the generated
// shapes, checking that no output is NaN, every answer is valid (A moved by the PD is at most
// touching B) and memory stays flat after warm-up; then a Bullet scene (debris or tori, the
// PolyDepth algorithm) for many steps, checking that no body state is NaN and no body is lost.
//   polydepth-soak [--queries N] [--steps N] [--scene debris|tori] [--seed S] [--tris T] [--bodies N] [--no-sleep]
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C"
{
#include "polydepth/polydepth.h"
#include "shapes.h"
}

#include "random_pose.h"

#if defined( POLYDEPTH_SOAK_HAVE_SCENE )
#include "scene.h"
#endif

namespace
{

bool Finite( pdVec3 v )
{
	return std::isfinite( v.x ) && std::isfinite( v.y ) && std::isfinite( v.z );
}

bool ResultIsFinite( const pdPenetrationResult& r )
{
	if ( !std::isfinite( r.depth ) || !Finite( r.translation ) || !std::isfinite( r.elapsedMs ) )
	{
		return false;
	}
	for ( int i = 0; i < PD_MAX_LOCAL_REGIONS; ++i )
	{
		const pdLocalPenetration& l = r.local[i];
		if ( !Finite( l.normal ) || !std::isfinite( l.depth ) || !Finite( l.translation ) )
		{
			return false;
		}
		for ( int k = 0; k < PD_MAX_REGION_POINTS; ++k )
		{
			if ( !Finite( l.points[k] ) )
			{
				return false;
			}
		}
	}
	return true;
}

double Diagonal( const pdMesh* m )
{
	pdVec3 lo = pdMesh_GetInfo( m ).boundsMin, hi = pdMesh_GetInfo( m ).boundsMax;
	double x = hi.x - lo.x, y = hi.y - lo.y, z = hi.z - lo.z;
	return std::sqrt( x * x + y * y + z * z );
}

bool Collides( const pdMesh* a, pdTransform poseA, pdVec3 t, const pdMesh* b, const pdTransform& poseB,
			   bool containment, pdWorkspace* ws )
{
	poseA.p.x += t.x;
	poseA.p.y += t.y;
	poseA.p.z += t.z;
	pdCollideDef def = pdDefaultCollideDef();
	def.checkContainment = containment;
	pdCollideResult r;
	pdCollide( a, &poseA, b, &poseB, &def, ws, &r );
	return r.colliding;
}

pdTransform RandomPose( std::mt19937& rng, double spread )
{
	return polydepth::test::RandomAxisAnglePose( rng, spread, 3.14159265358979, 1e-12 );
}

int SoakQueries( long queries, unsigned seed, int tris )
{
	const char* names[] = { "torus", "knot", "grate", "cup", "spoon", "distorted-torus", "box", "icosphere" };
	std::vector<pdMesh*> meshes;
	for ( const char* name : names )
	{
		smpSoup s = {};
		if ( !smpMakeShapeByName( name, tris, 2.0, &s ) )
		{
			std::fprintf( stderr, "soak: cannot make %s\n", name );
			return 1;
		}
		pdMeshReport report;
		pdMesh* m = smpSoupCreateMesh( &s, &report );
		smpFreeSoup( &s );
		if ( m == nullptr )
		{
			std::fprintf( stderr, "soak: %s: %s\n", name, report.message );
			return 1;
		}
		meshes.push_back( m );
	}

	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdPenetrationCache cache;
	memset( &cache, 0, sizeof( cache ) );
	std::mt19937 rng( seed );
	long failures = 0, invalid = 0, nans = 0, penetrating = 0, capped = 0;
	long statusCounts[32] = {};
	long warmUp = queries / 10 > 0 ? queries / 10 : 1;
	size_t bytesAfterWarmUp = 0, bytesAtHalf = 0;
	long growthAfterWarmUp = 0;
	size_t lastBytes = 0;
	double sumMs = 0.0, maxMs = 0.0;
	auto start = std::chrono::steady_clock::now();
	for ( long i = 0; i < queries; ++i )
	{
		int ia = (int)( rng() % meshes.size() );
		int ib = (int)( rng() % meshes.size() );
		pdTransform pa = RandomPose( rng, 0.9 );
		pdTransform pb = RandomPose( rng, 0.2 );
		// Every 8th query is a coherent follow-up of the previous pair (exercises the cache).
		bool coherent = ( i % 8 ) != 0;
		pdPenetrationResult r;
		pdStatus s = pdComputePenetration( meshes[ia], &pa, meshes[ib], &pb, nullptr, coherent ? &cache : nullptr, ws, &r );
		statusCounts[( (int)s + 16 ) & 31] += 1;
		sumMs += r.elapsedMs;
		maxMs = r.elapsedMs > maxMs ? r.elapsedMs : maxMs;
		if ( !ResultIsFinite( r ) )
		{
			nans += 1;
			std::printf( "NaN: query %ld (seed %u) meshes %s/%s\n", i, seed, names[ia], names[ib] );
		}
		if ( s < 0 )
		{
			failures += 1;
			std::printf( "error: query %ld (seed %u) meshes %s/%s: %s\n", i, seed, names[ia], names[ib],
						 pdGetStatusString( s ) );
		}
		else if ( r.state == PD_STATE_PENETRATING )
		{
			penetrating += 1;
			capped += s != PD_STATUS_OK;
			double tol = 1.01e-4 * std::fmin( Diagonal( meshes[ia] ), Diagonal( meshes[ib] ) );
			bool containment = pdMesh_GetInfo( meshes[ia] ).closed && pdMesh_GetInfo( meshes[ib] ).closed;
			if ( Collides( meshes[ia], pa, r.translation, meshes[ib], pb, containment, ws ) )
			{
				double len = r.depth > 0.0 ? r.depth : 1.0;
				pdVec3 u = { r.translation.x / len, r.translation.y / len, r.translation.z / len };
				pdVec3 pushed = { r.translation.x + tol * u.x, r.translation.y + tol * u.y, r.translation.z + tol * u.z };
				if ( Collides( meshes[ia], pa, pushed, meshes[ib], pb, containment, ws ) )
				{
					invalid += 1;
					std::printf( "invalid: query %ld (seed %u) %s/%s depth %.17g t (%.17g %.17g %.17g)\n", i, seed,
								 names[ia], names[ib], r.depth, r.translation.x, r.translation.y, r.translation.z );
				}
			}
		}
		size_t bytes = pdGetAllocatorStats().bytes;
		if ( i == warmUp )
		{
			bytesAfterWarmUp = bytes;
		}
		else if ( i > warmUp && bytes != lastBytes )
		{
			growthAfterWarmUp += 1;
		}
		if ( i == queries / 2 )
		{
			bytesAtHalf = bytes;
		}
		lastBytes = bytes;
		if ( queries >= 10 && ( i + 1 ) % ( queries / 10 ) == 0 )
		{
			double sec = std::chrono::duration<double>( std::chrono::steady_clock::now() - start ).count();
			std::printf( "  %ld / %ld queries, %.1f s, %zu bytes\n", i + 1, queries, sec, bytes );
			std::fflush( stdout );
		}
	}
	double seconds = std::chrono::duration<double>( std::chrono::steady_clock::now() - start ).count();
	size_t finalBytes = pdGetAllocatorStats().bytes;
	std::printf( "queries: %ld (seed %u, %d triangles per shape) in %.1f s: penetrating %ld, capped %ld, errors %ld, "
				 "NaN %ld, invalid %ld, mean %.3f ms, max %.1f ms\n",
				 queries, seed, tris, seconds, penetrating, capped, failures, nans, invalid, sumMs / (double)queries, maxMs );
	std::printf( "memory: %zu bytes after warm-up (%ld queries), %zu at half, %zu at the end, %ld changes after warm-up\n",
				 bytesAfterWarmUp, warmUp, bytesAtHalf, finalBytes, growthAfterWarmUp );
	std::printf( "status counts:" );
	for ( int k = 0; k < 32; ++k )
	{
		if ( statusCounts[k] > 0 )
		{
			std::printf( " %s=%ld", pdGetStatusString( (pdStatus)( k - 16 ) ), statusCounts[k] );
		}
	}
	std::printf( "\n" );

	pdDestroyWorkspace( ws );
	for ( pdMesh* m : meshes )
	{
		pdDestroyMesh( m );
	}
	// Memory is flat when nothing grew in the second half of the run.
	bool flat = queries < 4 || finalBytes == bytesAtHalf;
	if ( !flat )
	{
		std::printf( "FAIL: memory grew in the second half (%zu -> %zu bytes)\n", bytesAtHalf, finalBytes );
	}
	return ( failures == 0 && nans == 0 && invalid == 0 && flat ) ? 0 : 1;
}

#if defined( POLYDEPTH_SOAK_HAVE_SCENE )
int SoakScene( const char* kindName, int steps, unsigned seed, int bodies, bool sleeping )
{
	smpSceneConfig config;
	if ( !smpParseSceneKind( kindName, &config.kind ) )
	{
		std::fprintf( stderr, "soak: unknown scene %s\n", kindName );
		return 1;
	}
	config.algo = SMP_SCENE_ALGO_POLYDEPTH;
	config.steps = steps;
	config.seed = seed;
	config.penetrationEvery = 100;
	config.bodies = bodies;
	// Awake bodies keep every pair in contact generation for the whole run.
	config.sleeping = sleeping;
	std::string error;
	std::unique_ptr<smpScene> scene = smpScene::create( config, &error );
	if ( !scene )
	{
		std::fprintf( stderr, "soak: scene: %s\n", error.c_str() );
		return 1;
	}
	auto start = std::chrono::steady_clock::now();
	long nanSteps = 0;
	int firstNan = -1;
	while ( scene->step() )
	{
		int k = scene->stepIndex();
		if ( k % 50 == 0 )
		{
			for ( int b = 0; b < scene->bodyCount(); ++b )
			{
				pdTransform t = scene->bodyPose( b );
				if ( !Finite( t.p ) || !std::isfinite( t.q.w ) || !std::isfinite( t.q.x ) || !std::isfinite( t.q.y ) ||
					 !std::isfinite( t.q.z ) )
				{
					nanSteps += 1;
					firstNan = firstNan < 0 ? k : firstNan;
					break;
				}
			}
		}
		if ( steps >= 10 && k % ( steps / 10 ) == 0 )
		{
			double sec = std::chrono::duration<double>( std::chrono::steady_clock::now() - start ).count();
			std::printf( "  %d / %d steps, %.1f s, %zu bytes\n", k, steps, sec, pdGetAllocatorStats().bytes );
			std::fflush( stdout );
		}
	}
	smpSceneMetrics m = scene->metrics();
	double seconds = std::chrono::duration<double>( std::chrono::steady_clock::now() - start ).count();
	std::printf( "scene %s: %d steps (seed %u) in %.1f s: bodies %d, lost %d, asleep %d, finite %s, NaN checks failed %ld "
				 "(first at step %d), max penetration %.4g m, final %.4g m, PD queries %d, PD failures %d, median step "
				 "%.2f ms, hash 0x%016" PRIx64 "\n",
				 scene->name(), m.steps, seed, seconds, m.dynamicBodies, m.lost, m.asleep, m.finite ? "yes" : "NO",
				 nanSteps, firstNan, m.maxPenetration, m.finalPenetration, m.penetrationQueries, m.penetrationFailures,
				 m.medianStepMs, m.hash );
	return ( m.finite && nanSteps == 0 && m.lost == 0 && m.penetrationFailures == 0 ) ? 0 : 1;
}
#endif

} // namespace

int main( int argc, char** argv )
{
	long queries = 100000;
	int steps = 10000;
	unsigned seed = 1;
	int tris = 600;
	std::string scene = "debris";
	int bodies = 0;
	bool sleeping = true;
	for ( int i = 1; i < argc; ++i )
	{
		std::string arg = argv[i];
		if ( arg == "--no-sleep" )
		{
			sleeping = false;
			continue;
		}
		const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
		if ( value == nullptr )
		{
			std::fprintf( stderr, "usage: polydepth-soak [--queries N] [--steps N] [--scene debris|tori] [--seed S] [--tris T] [--bodies N] [--no-sleep]\n" );
			return 2;
		}
		if ( arg == "--queries" )
		{
			queries = std::atol( value );
		}
		else if ( arg == "--steps" )
		{
			steps = std::atoi( value );
		}
		else if ( arg == "--scene" )
		{
			scene = value;
		}
		else if ( arg == "--seed" )
		{
			seed = (unsigned)std::strtoul( value, nullptr, 10 );
		}
		else if ( arg == "--bodies" )
		{
			bodies = std::atoi( value );
		}
		else if ( arg == "--tris" )
		{
			tris = std::atoi( value );
		}
		else
		{
			std::fprintf( stderr, "polydepth-soak: unknown option %s\n", arg.c_str() );
			return 2;
		}
		++i;
	}
	int rc = 0;
	if ( queries > 0 )
	{
		rc |= SoakQueries( queries, seed, tris );
	}
	if ( steps > 0 )
	{
#if defined( POLYDEPTH_SOAK_HAVE_SCENE )
		rc |= SoakScene( scene.c_str(), steps, seed, bodies, sleeping );
#else
		std::printf( "scene: skipped (built without Bullet scenes)\n" );
#endif
	}
	std::printf( rc == 0 ? "soak passed\n" : "soak FAILED\n" );
	return rc;
}
