// SPDX-License-Identifier: MIT
// polydepth-bench awake: scenes of the users' kind with Bullet's sleeping off (every body simulated
// every step), each run with GImpact, PolyDepth and, on the tori scenes, the convex-decomposition
// peer (SMP_SCENE_ALGO_CONVEX), same seed, one run. Step times, lost bodies, penetration measured
// independently of Bullet's contacts (the core's PD between touching bodies and against closed
// static solids, analytic depth below the floor or into the bowl), and resting speeds.
#include "bench_util.h"

#ifdef POLYDEPTH_HAVE_BULLET
#include "scene.h"
#endif

namespace bench
{

#ifdef POLYDEPTH_HAVE_BULLET
namespace
{

struct AwakeRun
{
	bool present = false;
	smpSceneMetrics m;
	double maxPenetration = 0.0;
	double settledPenetration = 0.0;
	double restSpeed = 0.0;
	double restSpeedP90 = 0.0;
	double topDrift = 0.0; ///< how far the highest body at the end of the arrival phase moved from there to the end (m)
	double topEndSpeed = 0.0; ///< its speed over the last step (m/s)
};

struct AwakeScene
{
	const char* name;
	int bodies, steps, arrival;                // default size; arrival: steps before "settled"
	int quickBodies, quickSteps, quickArrival; // --quick
	std::string error;
	int dynamicBodies = 0;
	double bodySize = 0.0;
	AwakeRun run[3];
};

const int kPenetrationEvery = 15; ///< steps between penetration samples (and the last step)

/// The largest dynamic body's bounding-box diagonal (m), from its mesh.
double largestBody( const smpScene& scene )
{
	double size = 0.0;
	for ( int b = 0; b < scene.bodyCount(); ++b )
	{
		if ( scene.bodyIsStatic( b ) )
			continue;
		smpSceneMesh mesh = scene.bodyMesh( b );
		double lo[3] = { 1e300, 1e300, 1e300 }, hi[3] = { -1e300, -1e300, -1e300 };
		for ( int v = 0; v < mesh.vertexCount; ++v )
			for ( int k = 0; k < 3; ++k )
			{
				lo[k] = std::min( lo[k], mesh.vertices[3 * v + k] );
				hi[k] = std::max( hi[k], mesh.vertices[3 * v + k] );
			}
		double d2 = 0.0;
		for ( int k = 0; k < 3; ++k )
			d2 += ( hi[k] - lo[k] ) * ( hi[k] - lo[k] );
		size = std::max( size, std::sqrt( d2 ) );
	}
	return size;
}

/// The deepest penetration now (m): body-body and body-solid PD, and the floor or bowl.
double deepest( smpScene* scene )
{
	double pd = scene->measurePenetration();
	return std::max( pd, scene->metrics().lastFloorPenetration );
}

/// Runs one scene with one algorithm to the end. False with *error when it cannot be built.
bool runOne( AwakeScene* s, smpSceneAlgo algo, const Options& o, AwakeRun* out, std::string* error )
{
	smpSceneConfig c;
	c.algo = algo;
	c.seed = o.seed;
	c.modelsDir = o.modelsDir;
	c.sleeping = false;
	c.bodies = o.quick ? s->quickBodies : s->bodies;
	c.steps = o.quick ? s->quickSteps : s->steps;
	c.penetrationEvery = 0; // sampled below, with the settled phase told apart
	const int arrival = o.quick ? s->quickArrival : s->arrival;
	std::unique_ptr<smpScene> scene = smpCreateAwakeScene( s->name, c, error );
	if ( !scene )
		return false;
	s->bodySize = largestBody( *scene );
	const int lastSecond = (int)std::ceil( 1.0 / c.timeStep );
	std::vector<int> dynamic;
	for ( int b = 0; b < scene->bodyCount(); ++b )
		if ( !scene->bodyIsStatic( b ) )
			dynamic.push_back( b );
	s->dynamicBodies = (int)dynamic.size();
	std::vector<pdVec3> previous( dynamic.size() );
	std::vector<double> bodyRestSpeed( dynamic.size(), 0.0 );
	for ( size_t i = 0; i < dynamic.size(); ++i )
		previous[i] = scene->bodyPose( dynamic[i] ).p;
	size_t top = 0;
	pdVec3 topAtArrival = previous.empty() ? pdVec3{ 0.0, 0.0, 0.0 } : previous[0];
	while ( scene->step() )
	{
		int step = scene->stepIndex();
		if ( step == arrival )
		{
			for ( size_t i = 0; i < dynamic.size(); ++i )
				if ( scene->bodyPose( dynamic[i] ).p.y > scene->bodyPose( dynamic[top] ).p.y )
					top = i;
			if ( !dynamic.empty() )
				topAtArrival = scene->bodyPose( dynamic[top] ).p;
		}
		if ( step % kPenetrationEvery == 0 )
		{
			double depth = deepest( scene.get() );
			out->maxPenetration = std::max( out->maxPenetration, depth );
			if ( step >= arrival )
				out->settledPenetration = std::max( out->settledPenetration, depth );
		}
		for ( size_t i = 0; i < dynamic.size(); ++i )
		{
			pdVec3 p = scene->bodyPose( dynamic[i] ).p;
			double dx = p.x - previous[i].x, dy = p.y - previous[i].y, dz = p.z - previous[i].z;
			double speed = std::sqrt( dx * dx + dy * dy + dz * dz ) / c.timeStep;
			speed = std::isfinite( speed ) ? speed : 1e300;
			if ( step > scene->stepCount() - lastSecond )
				bodyRestSpeed[i] = std::max( bodyRestSpeed[i], speed );
			if ( i == top )
				out->topEndSpeed = speed;
			previous[i] = p;
		}
	}
	double depth = deepest( scene.get() );
	out->maxPenetration = std::max( out->maxPenetration, depth );
	out->settledPenetration = std::max( out->settledPenetration, depth );
	out->m = scene->metrics();
	if ( !dynamic.empty() )
	{
		pdVec3 p = scene->bodyPose( dynamic[top] ).p;
		double dx = p.x - topAtArrival.x, dy = p.y - topAtArrival.y, dz = p.z - topAtArrival.z;
		double drift = std::sqrt( dx * dx + dy * dy + dz * dz );
		out->topDrift = std::isfinite( drift ) ? drift : 1e300;
	}
	if ( !bodyRestSpeed.empty() )
	{
		std::vector<double> sorted = bodyRestSpeed;
		std::sort( sorted.begin(), sorted.end() );
		out->restSpeed = sorted.back();
		out->restSpeedP90 = sorted[std::min( sorted.size() - 1, (size_t)std::ceil( 0.9 * sorted.size() ) - 1 )];
	}
	out->present = true;
	return true;
}

void writeRun( Json& j, const char* key, const AwakeRun& r )
{
	j.beginObject( key );
	j.field( "median_ms", r.m.medianStepMs );
	j.field( "p95_ms", r.m.p95StepMs );
	j.field( "mean_ms", r.m.meanStepMs );
	j.field( "lost", r.m.lost );
	j.field( "max_penetration", r.maxPenetration );
	j.field( "settled_penetration", r.settledPenetration );
	j.field( "rest_speed", r.restSpeed );
	j.field( "rest_speed_p90", r.restSpeedP90 );
	j.field( "top_drift", r.topDrift );
	j.field( "top_end_speed", r.topEndSpeed );
	j.endObject();
}

} // namespace
#endif

int runAwake( const Options& o )
{
#ifndef POLYDEPTH_HAVE_BULLET
	std::fprintf( stderr, "polydepth-bench awake: built without Bullet (apt-get install libbullet-dev)\n" );
	return 2;
#else
	std::vector<AwakeScene> scenes = {
		{ "tori-heap", 60, 600, 360, 16, 240, 180 }, { "torus-chain", 6, 600, 240, 4, 240, 150 },
		{ "box-stack", 4, 600, 60, 4, 240, 60 },     { "bowl-pour", 24, 600, 360, 8, 240, 180 },
		{ "kinematic", 16, 600, 540, 8, 240, 180 },  { "torus-drop", 3, 300, 120, 3, 180, 120 },
	};
	const char* names[3] = { "gimpact", "polydepth", "convex" };
	const smpSceneAlgo algos[3] = { SMP_SCENE_ALGO_GIMPACT, SMP_SCENE_ALGO_POLYDEPTH, SMP_SCENE_ALGO_CONVEX };
	double maxMedianRatio = 0.0, maxP95Ratio = 0.0;
	if ( !o.only.empty() )
	{
		scenes.erase(
			std::remove_if( scenes.begin(), scenes.end(), [&]( const AwakeScene& s ) { return o.only != s.name; } ),
			scenes.end() );
		if ( scenes.empty() )
		{
			std::fprintf( stderr,
						  "polydepth-bench awake: no scene '%s' (tori-heap, torus-chain, box-stack, bowl-pour, "
						  "kinematic, torus-drop)\n",
						  o.only.c_str() );
			return 2;
		}
	}
	for ( AwakeScene& s : scenes )
	{
		for ( int a = 0; a < 3; ++a )
		{
			std::string error;
			if ( runOne( &s, algos[a], o, &s.run[a], &error ) )
				continue;
			if ( a < 2 )
			{
				std::fprintf( stderr, "polydepth-bench awake: %s, %s: %s\n", s.name, names[a], error.c_str() );
				return 1;
			}
		}
		maxMedianRatio =
			std::max( maxMedianRatio, s.run[1].m.medianStepMs / std::max( s.run[0].m.medianStepMs, 1e-9 ) );
		maxP95Ratio = std::max( maxP95Ratio, s.run[1].m.p95StepMs / std::max( s.run[0].m.p95StepMs, 1e-9 ) );
	}
	if ( o.json )
	{
		printJsonObject(
			[&]( Json& j )
			{
				j.objects( "scenes", scenes,
						   [&]( const AwakeScene& s )
						   {
							   j.field( "name", std::string( s.name ) );
							   j.field( "bodies", s.dynamicBodies );
							   j.field( "steps", s.run[0].m.steps );
							   j.field( "body_size", s.bodySize );
							   for ( int a = 0; a < 3; ++a )
								   if ( s.run[a].present )
									   writeRun( j, names[a], s.run[a] );
						   } );
				j.field( "max_median_ratio", maxMedianRatio );
				j.field( "max_p95_ratio", maxP95Ratio );
			} );
		return 0;
	}
	describeMachine( stdout );
	std::printf( "awake: Bullet sleeping off, steps of 1/60 s, seed %u%s; penetration (PD between touching bodies and\n"
				 "against closed static solids, analytic below the floor or into the bowl) every %d steps;\n"
				 "settled = after the arrival phase; rest speed: each body's largest speed over the last second\n"
				 "(lost bodies included), the largest and the 90th percentile over the bodies\n",
				 o.seed, o.quick ? ", --quick: fewer bodies and steps" : "", kPenetrationEvery );
	std::printf( "%-11s %-9s %6s %5s | %7s %7s %7s | %4s | %8s %8s | %8s %8s | %5s\n", "scene", "algorithm", "bodies",
				 "steps", "med ms", "p95 ms", "mean ms", "lost", "max mm", "settl mm", "rest m/s", "p90 m/s",
				 "x gimp" );
	for ( const AwakeScene& s : scenes )
		for ( int a = 0; a < 3; ++a )
		{
			const AwakeRun& r = s.run[a];
			if ( !r.present )
				continue;
			std::printf( "%-11s %-9s %6d %5d | %7.2f %7.2f %7.2f | %4d | %8.2f %8.2f | %8.3f %8.3f | %5.2f\n", s.name,
						 names[a], s.dynamicBodies, r.m.steps, r.m.medianStepMs, r.m.p95StepMs, r.m.meanStepMs,
						 r.m.lost, 1e3 * r.maxPenetration, 1e3 * r.settledPenetration, r.restSpeed, r.restSpeedP90,
						 r.m.medianStepMs / std::max( s.run[0].m.medianStepMs, 1e-9 ) );
		}
	std::printf( "largest polydepth / gimpact step time over the scenes: %.2f (median), %.2f (p95)\n", maxMedianRatio,
				 maxP95Ratio );
	for ( const AwakeScene& s : scenes )
	{
		std::printf( "%s: largest body %.3f m (1%% of it: %.1f mm); the highest body after arrival, drift to the end / "
					 "speed at the end:",
					 s.name, s.bodySize, 10.0 * s.bodySize );
		for ( int a = 0; a < 3; ++a )
			if ( s.run[a].present )
				std::printf( " %s %.2f mm / %.4f m/s;", names[a], 1e3 * s.run[a].topDrift, s.run[a].topEndSpeed );
		std::printf( "\n" );
	}
	return 0;
#endif
}

} // namespace bench
