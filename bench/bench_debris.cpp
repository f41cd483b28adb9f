// SPDX-License-Identifier: MIT
// polydepth-bench debris: the Bullet debris benchmark (60 tori into an open box built as
// btBvhTriangleMeshShape, 600 steps of 1/60 s), GImpact against PolyDepth, same scene and seed;
// with --with-convex also Bullet's own convex contacts on the tori cut into 48 convex hulls
// (SMP_SCENE_ALGO_CONVEX), a third row that tells solver limits from contact limits.
#include "bench_util.h"

#ifdef POLYDEPTH_HAVE_BULLET
#include "scene.h"
#endif

namespace bench
{

int runDebris( const Options& o )
{
#ifndef POLYDEPTH_HAVE_BULLET
	std::fprintf( stderr, "polydepth-bench debris: built without Bullet (apt-get install libbullet-dev)\n" );
	return 2;
#else
	smpSceneMetrics m[3];
	const char* names[3] = { "gimpact", "polydepth", "convex" };
	const smpSceneAlgo algos[3] = { SMP_SCENE_ALGO_GIMPACT, SMP_SCENE_ALGO_POLYDEPTH, SMP_SCENE_ALGO_CONVEX };
	const int count = o.withConvex ? 3 : 2;
	for ( int algo = 0; algo < count; ++algo )
	{
		smpSceneConfig c;
		c.kind = SMP_SCENE_TORI;
		c.algo = algos[algo];
		c.seed = o.seed;
		c.modelsDir = o.modelsDir;
		if ( o.quick )
		{
			c.bodies = 16;
			c.steps = 240;
		}
		std::string error;
		std::unique_ptr<smpScene> scene = smpScene::create( c, &error );
		if ( !scene )
		{
			std::fprintf( stderr, "polydepth-bench debris: %s: %s\n", names[algo], error.c_str() );
			return 1;
		}
		while ( scene->step() )
		{
		}
		scene->measurePenetration();
		m[algo] = scene->metrics();
	}
	if ( o.json )
	{
		printJsonObject( [&]( Json& j ) {
			for ( int a = 0; a < count; ++a )
			{
				j.beginObject( names[a] );
				j.field( "median_ms", m[a].medianStepMs );
				j.field( "p95_ms", m[a].p95StepMs );
				j.field( "contacts", m[a].meanContacts );
				j.field( "mean_ms", m[a].meanStepMs );
				j.field( "lost", m[a].lost );
				j.field( "max_penetration", m[a].maxPenetration );
				j.field( "final_penetration", m[a].finalPenetration );
				j.field( "jitter", m[a].jitter );
				j.field( "bodies", m[a].dynamicBodies );
				j.field( "steps", m[a].steps );
				j.field( "asleep", m[a].asleep );
				j.field( "penetration_failures", m[a].penetrationFailures );
				j.endObject();
			}
			j.field( "body_size", m[0].bodySize );
			j.field( "step_time_ratio", m[1].medianStepMs / std::max( m[0].medianStepMs, 1e-9 ) );
			j.field( "step_time_ratio_mean", m[1].meanStepMs / std::max( m[0].meanStepMs, 1e-9 ) );
		} );
		return 0;
	}
	describeMachine( stdout );
	std::printf( "debris: %d tori, %d steps of 1/60 s, seed %u, same scene for %s\n", m[0].dynamicBodies, m[0].steps,
				 o.seed, count == 3 ? "all three" : "both" );
	std::printf( "%-10s | %8s %8s %8s | %9s | %4s | %9s %9s | %9s | %6s\n", "algorithm", "med ms", "p95 ms",
				 "mean ms", "contacts", "lost", "max pen", "final pen", "jitter", "asleep" );
	for ( int a = 0; a < count; ++a )
		std::printf( "%-10s | %8.2f %8.2f %8.2f | %9.1f | %4d | %8.4fm %8.4fm | %7.4fm/s | %6d\n", names[a],
					 m[a].medianStepMs, m[a].p95StepMs, m[a].meanStepMs, m[a].meanContacts, m[a].lost,
					 m[a].maxPenetration, m[a].finalPenetration, m[a].jitter, m[a].asleep );
	// The median alone misleads once one side's bodies fall asleep (its sleeping steps cost
	// nothing); the mean is the ratio of total run times.
	std::printf( "step time polydepth / gimpact: %.2f (median), %.2f (mean); body size %.3f m (penetration target < "
				 "1%%: %.4f m)\n",
				 m[1].medianStepMs / std::max( m[0].medianStepMs, 1e-9 ),
				 m[1].meanStepMs / std::max( m[0].meanStepMs, 1e-9 ), m[0].bodySize, 0.01 * m[0].bodySize );
	if ( count == 3 )
		std::printf( "step time convex / gimpact: %.2f (median), %.2f (mean); polydepth / convex: %.2f (median), %.2f "
					 "(mean)\n",
					 m[2].medianStepMs / std::max( m[0].medianStepMs, 1e-9 ),
					 m[2].meanStepMs / std::max( m[0].meanStepMs, 1e-9 ),
					 m[1].medianStepMs / std::max( m[2].medianStepMs, 1e-9 ),
					 m[1].meanStepMs / std::max( m[2].meanStepMs, 1e-9 ) );
	return 0;
#endif
}

} // namespace bench
