// SPDX-License-Identifier: MIT
// polydepth-bench awake: scenes of the users' kind with Bullet's sleeping off (every body simulated
// every step), each run with GImpact, PolyDepth and, where a scene has convex pieces (the tori,
// the pegs, the plates), the convex-decomposition peer (SMP_SCENE_ALGO_CONVEX), and on the
// sphere pour the exact-sphere peer (SMP_SCENE_ALGO_EXACT: perfect contacts), same seed, one
// run. Step times, lost bodies, penetration measured independently of Bullet's contacts (the
// core's PD between touching bodies and against closed static solids, analytic depth below the
// floor or into the bowl), and resting speeds.
// The mixed scene (a terrain, planes, a dynamic bowl and tori, primitives of every class) adds its
// penetration by pair class; the convex peer does not apply to it.
// With --threads N: GImpact and PolyDepth on each scene with the narrow phase on 1 and on N
// threads (polydepth::bullet::ParallelCollisionDispatcher), step times and speed-ups.
#include "bench_util.h"

#ifdef POLYDEPTH_HAVE_BULLET
#include "polydepth/bullet_parallel.h"
#include "scene.h"
#include "scene_world.h"

#include <array>
#endif

namespace bench
{

#ifdef POLYDEPTH_HAVE_BULLET
namespace
{

/// GImpact, PolyDepth, and the peers where a scene has them: convex pieces, exact spheres.
const int kAlgorithms = 4;

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
	/// With collision threads: pairs per step spread over the threads and kept on one (GImpact's),
	/// and the most threads that ran pairs in one step.
	double parallelPairs = 0.0, serialPairs = 0.0;
	int mostThreads = 0;
	/// The scene's own figures (assembly: inserted pegs, wall penetration, ...).
	std::vector<smpSceneFigure> figures;
};

struct AwakeScene
{
	const char* name;
	int bodies, steps, arrival;                // default size; arrival: steps before "settled"
	int quickBodies, quickSteps, quickArrival; // --quick
	/// Chaotic (a 10 um change of the start changes the figures a lot): run from several seeds and
	/// report each figure's median and 90th percentile over them.
	bool seeded = false;
	std::string error;
	int dynamicBodies = 0;
	double bodySize = 0.0;
	double thickness = 0.0; ///< the thinnest body's thinnest dimension (m), for the thin-body scenes; 0: none
	AwakeRun run[kAlgorithms];
	int seedCount = 0;
	unsigned firstSeed = 0;
	/// Seeded scenes: per algorithm, per figure (in the order of run[a].figures), the value of every seed.
	std::vector<std::vector<double>> seedValues[kAlgorithms];
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

/// One scene with one algorithm, stepped by the caller, and what the awake benchmark measures on it.
class AwakeRunner
{
  public:
	/// Builds the scene, the narrow phase on collisionThreads threads (0: Bullet's plain
	/// dispatcher). False with *error when it cannot be built.
	bool start( AwakeScene* s, smpSceneAlgo algo, int collisionThreads, const Options& o, std::string* error )
	{
		smpSceneConfig c;
		c.algo = algo;
		c.collisionThreads = collisionThreads;
		c.seed = o.seed;
		c.modelsDir = o.modelsDir;
		c.sleeping = false;
		c.bodies = o.quick ? s->quickBodies : s->bodies;
		c.steps = o.quick ? s->quickSteps : s->steps;
		c.penetrationEvery = 0; // sampled below, with the settled phase told apart
		c.solverIterations = o.solverIterations;
		c.recordCallsPath = o.recordCalls; // PolyDepth's runs only (the scene's rule)
		m_timeStep = c.timeStep;
		m_arrival = o.quick ? s->quickArrival : s->arrival;
		m_scene = smpCreateAwakeScene( s->name, c, error );
		if ( !m_scene )
			return false;
		s->bodySize = largestBody( *m_scene );
		m_lastSecond = (int)std::ceil( 1.0 / c.timeStep );
		for ( int b = 0; b < m_scene->bodyCount(); ++b )
			if ( !m_scene->bodyIsStatic( b ) )
				m_dynamic.push_back( b );
		s->dynamicBodies = (int)m_dynamic.size();
		m_previous.resize( m_dynamic.size() );
		m_bodyRestSpeed.assign( m_dynamic.size(), 0.0 );
		for ( size_t i = 0; i < m_dynamic.size(); ++i )
			m_previous[i] = m_scene->bodyPose( m_dynamic[i] ).p;
		m_topAtArrival = m_previous.empty() ? pdVec3{ 0.0, 0.0, 0.0 } : m_previous[0];
		auto* world = dynamic_cast<smpSceneWorld*>( m_scene.get() );
		m_parallel =
			world != nullptr
				? dynamic_cast<polydepth::bullet::ParallelCollisionDispatcher*>( world->world()->getDispatcher() )
				: nullptr;
		return true;
	}

	/// One step and its bookkeeping; false (and no step) once the scene has ended.
	bool step()
	{
		if ( !m_scene->step() )
			return false;
		int step = m_scene->stepIndex();
		if ( m_parallel != nullptr )
		{
			polydepth::bullet::ParallelDispatchCounts counts = m_parallel->getLastDispatchCounts();
			m_parallelPairs += counts.parallelPairs;
			m_serialPairs += counts.serialPairs;
			m_out.mostThreads = std::max( m_out.mostThreads, counts.threadsUsed );
		}
		if ( step == m_arrival )
		{
			for ( size_t i = 0; i < m_dynamic.size(); ++i )
				if ( m_scene->bodyPose( m_dynamic[i] ).p.y > m_scene->bodyPose( m_dynamic[m_top] ).p.y )
					m_top = i;
			if ( !m_dynamic.empty() )
				m_topAtArrival = m_scene->bodyPose( m_dynamic[m_top] ).p;
		}
		if ( step % kPenetrationEvery == 0 )
		{
			double depth = deepest( m_scene.get() );
			m_out.maxPenetration = std::max( m_out.maxPenetration, depth );
			if ( step >= m_arrival )
				m_out.settledPenetration = std::max( m_out.settledPenetration, depth );
		}
		for ( size_t i = 0; i < m_dynamic.size(); ++i )
		{
			pdVec3 p = m_scene->bodyPose( m_dynamic[i] ).p;
			double dx = p.x - m_previous[i].x, dy = p.y - m_previous[i].y, dz = p.z - m_previous[i].z;
			double speed = std::sqrt( dx * dx + dy * dy + dz * dz ) / m_timeStep;
			speed = std::isfinite( speed ) ? speed : 1e300;
			if ( step > m_scene->stepCount() - m_lastSecond )
				m_bodyRestSpeed[i] = std::max( m_bodyRestSpeed[i], speed );
			if ( i == m_top )
				m_out.topEndSpeed = speed;
			m_previous[i] = p;
		}
		return true;
	}

	/// The figures of the whole run (call after the last step).
	AwakeRun finish()
	{
		double depth = deepest( m_scene.get() );
		m_out.maxPenetration = std::max( m_out.maxPenetration, depth );
		m_out.settledPenetration = std::max( m_out.settledPenetration, depth );
		m_out.m = m_scene->metrics();
		m_out.figures = m_scene->figures();
		m_out.parallelPairs = (double)m_parallelPairs / std::max( m_out.m.steps, 1 );
		m_out.serialPairs = (double)m_serialPairs / std::max( m_out.m.steps, 1 );
		if ( !m_dynamic.empty() )
		{
			pdVec3 p = m_scene->bodyPose( m_dynamic[m_top] ).p;
			double dx = p.x - m_topAtArrival.x, dy = p.y - m_topAtArrival.y, dz = p.z - m_topAtArrival.z;
			double drift = std::sqrt( dx * dx + dy * dy + dz * dz );
			m_out.topDrift = std::isfinite( drift ) ? drift : 1e300;
		}
		if ( !m_bodyRestSpeed.empty() )
		{
			std::vector<double> sorted = m_bodyRestSpeed;
			std::sort( sorted.begin(), sorted.end() );
			m_out.restSpeed = sorted.back();
			m_out.restSpeedP90 = sorted[std::min( sorted.size() - 1, (size_t)std::ceil( 0.9 * sorted.size() ) - 1 )];
		}
		m_out.present = true;
		return m_out;
	}

  private:
	std::unique_ptr<smpScene> m_scene;
	polydepth::bullet::ParallelCollisionDispatcher* m_parallel = nullptr;
	double m_timeStep = 0.0;
	int m_arrival = 0, m_lastSecond = 0;
	std::vector<int> m_dynamic;
	std::vector<pdVec3> m_previous;
	std::vector<double> m_bodyRestSpeed;
	size_t m_top = 0;
	pdVec3 m_topAtArrival{ 0.0, 0.0, 0.0 };
	long m_parallelPairs = 0, m_serialPairs = 0;
	AwakeRun m_out;
};

/// Runs one scene with one algorithm to the end on Bullet's plain dispatcher. False with *error
/// when it cannot be built.
bool runOne( AwakeScene* s, smpSceneAlgo algo, const Options& o, AwakeRun* out, std::string* error )
{
	AwakeRunner runner;
	if ( !runner.start( s, algo, 0, o, error ) )
		return false;
	while ( runner.step() )
	{
	}
	*out = runner.finish();
	return true;
}

/// The run's figures as the object key; lanes adds where its pairs ran (--threads); seedValues
/// (seeded scenes) adds every figure's median and 90th percentile over the seeds.
void writeRun( Json& j, const char* key, const AwakeRun& r, bool lanes = false,
			   const std::vector<std::vector<double>>* seedValues = nullptr )
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
	for ( size_t i = 0; i < r.figures.size(); ++i )
	{
		const smpSceneFigure& f = r.figures[i];
		if ( f.key == "thickness" )
			continue;
		j.field( f.key.c_str(), f.value );
		if ( seedValues != nullptr && i < seedValues->size() && !( *seedValues )[i].empty() )
		{
			j.field( ( f.key + "_median" ).c_str(), median( ( *seedValues )[i] ) );
			j.field( ( f.key + "_p90" ).c_str(), percentile( ( *seedValues )[i], 0.9 ) );
		}
	}
	if ( lanes )
	{
		j.field( "parallel_pairs", r.parallelPairs );
		j.field( "serial_pairs", r.serialPairs );
		j.field( "most_threads", r.mostThreads );
	}
	j.endObject();
}

/// One algorithm on one scene with the narrow phase on 1 and on N threads.
struct ThreadsPair
{
	AwakeRun one, many;
	double medianSpeedup() const { return one.m.medianStepMs / std::max( many.m.medianStepMs, 1e-9 ); }
	double meanSpeedup() const { return one.m.meanStepMs / std::max( many.m.meanStepMs, 1e-9 ); }
	bool sameResult() const { return one.m.hash == many.m.hash; }
};

/// awake --threads N: GImpact and PolyDepth per scene on 1 and N threads, in one run; the two
/// runs of an algorithm step in turns, so a change in the machine's load falls on both.
int runAwakeThreads( std::vector<AwakeScene>& scenes, const Options& o )
{
	const char* names[2] = { "gimpact", "polydepth" };
	const smpSceneAlgo algos[2] = { SMP_SCENE_ALGO_GIMPACT, SMP_SCENE_ALGO_POLYDEPTH };
	std::vector<std::array<ThreadsPair, 2>> runs( scenes.size() );
	for ( size_t i = 0; i < scenes.size(); ++i )
		for ( int a = 0; a < 2; ++a )
		{
			std::string error;
			AwakeRunner one, many;
			if ( !one.start( &scenes[i], algos[a], 1, o, &error ) ||
				 !many.start( &scenes[i], algos[a], o.threads, o, &error ) )
			{
				std::fprintf( stderr, "polydepth-bench awake: %s, %s: %s\n", scenes[i].name, names[a], error.c_str() );
				return 1;
			}
			bool oneStepped = true, manyStepped = true;
			while ( oneStepped || manyStepped )
			{
				oneStepped = oneStepped && one.step();
				manyStepped = manyStepped && many.step();
			}
			runs[i][a].one = one.finish();
			runs[i][a].many = many.finish();
		}
	if ( o.json )
	{
		printJsonObject(
			[&]( Json& j )
			{
				j.field( "threads", o.threads );
				size_t i = 0;
				j.objects( "scenes", scenes,
						   [&]( const AwakeScene& s )
						   {
							   j.field( "name", std::string( s.name ) );
							   j.field( "bodies", s.dynamicBodies );
							   j.field( "steps", runs[i][0].one.m.steps );
							   j.field( "body_size", s.bodySize );
							   for ( int a = 0; a < 2; ++a )
							   {
								   const ThreadsPair& r = runs[i][a];
								   j.beginObject( names[a] );
								   writeRun( j, "one_thread", r.one, true );
								   writeRun( j, "threads", r.many, true );
								   j.field( "median_speedup", r.medianSpeedup() );
								   j.field( "mean_speedup", r.meanSpeedup() );
								   j.flag( "same_result", r.sameResult() );
								   j.endObject();
							   }
							   ++i;
						   } );
			} );
		return 0;
	}
	describeMachine( stdout );
	std::printf(
		"awake --threads %d: Bullet sleeping off, steps of 1/60 s, seed %u%s; the narrow phase on 1 and on %d\n"
		"threads (ParallelCollisionDispatcher: PolyDepth and convex pairs spread over the threads, GImpact's\n"
		"pairs on one of them); step times in ms (the whole step); pairs per step; same = the bodies end\n"
		"bit for bit where the 1-thread run puts them\n",
		o.threads, o.seed, o.quick ? ", --quick: fewer bodies and steps" : "", o.threads );
	std::printf( "%-11s %-9s %6s %5s | %8s %8s %7s | %8s %8s %7s | %8s %8s | %4s\n", "scene", "algorithm", "bodies",
				 "steps", "med 1t", "med Nt", "speedup", "mean 1t", "mean Nt", "speedup", "parallel", "serial",
				 "same" );
	for ( size_t i = 0; i < scenes.size(); ++i )
		for ( int a = 0; a < 2; ++a )
		{
			const ThreadsPair& r = runs[i][a];
			std::printf( "%-11s %-9s %6d %5d | %8.2f %8.2f %6.2fx | %8.2f %8.2f %6.2fx | %8.1f %8.1f | %4s\n",
						 scenes[i].name, names[a], scenes[i].dynamicBodies, r.one.m.steps, r.one.m.medianStepMs,
						 r.many.m.medianStepMs, r.medianSpeedup(), r.one.m.meanStepMs, r.many.m.meanStepMs,
						 r.meanSpeedup(), r.many.parallelPairs, r.many.serialPairs, r.sameResult() ? "yes" : "NO" );
		}
	return 0;
}

/// Runs a seeded scene from the seeds after o.seed (run[a] holds o.seed's run) and keeps every
/// seed's figures in s->seedValues[a]. False with *error when a run cannot be built.
bool runSeeds( AwakeScene* s, int a, smpSceneAlgo algo, const Options& o, std::string* error )
{
	s->seedCount = o.seeds > 0 ? o.seeds : ( o.quick ? 2 : 8 );
	s->firstSeed = o.seed;
	const std::vector<smpSceneFigure>& first = s->run[a].figures;
	s->seedValues[a].assign( first.size(), std::vector<double>() );
	for ( size_t i = 0; i < first.size(); ++i )
		s->seedValues[a][i].push_back( first[i].value );
	for ( int k = 1; k < s->seedCount; ++k )
	{
		Options seeded = o;
		seeded.seed = o.seed + (unsigned)k;
		AwakeRun r;
		if ( !runOne( s, algo, seeded, &r, error ) )
			return false;
		for ( size_t i = 0; i < first.size() && i < r.figures.size(); ++i )
			s->seedValues[a][i].push_back( r.figures[i].value );
	}
	return true;
}

/// The scenes' own figures (assembly, the seeded scenes), one row per figure, one column per
/// algorithm; seeded scenes give the median and the 90th percentile over the seeds.
void printFigures( const std::vector<AwakeScene>& scenes, const char* const names[kAlgorithms] )
{
	for ( const AwakeScene& s : scenes )
	{
		if ( s.run[0].figures.empty() )
			continue;
		int width = 28; // the key column: the longest key
		for ( const smpSceneFigure& f : s.run[0].figures )
			width = std::max( width, (int)f.key.size() );
		if ( s.seeded )
		{
			std::printf( "\n%s: median / 90th percentile over %d seeds (%u to %u)\n", s.name, s.seedCount, s.firstSeed,
						 s.firstSeed + (unsigned)s.seedCount - 1u );
			std::printf( "  %-*s", width, "figure" );
			for ( int a = 0; a < kAlgorithms; ++a )
				if ( s.run[a].present )
					std::printf( " %21s", names[a] );
			std::printf( "   what\n" );
			for ( size_t i = 0; i < s.run[0].figures.size(); ++i )
			{
				std::printf( "  %-*s", width, s.run[0].figures[i].key.c_str() );
				for ( int a = 0; a < kAlgorithms; ++a )
					if ( s.run[a].present && i < s.seedValues[a].size() )
						std::printf( " %10.4g / %8.4g", median( s.seedValues[a][i] ),
									 percentile( s.seedValues[a][i], 0.9 ) );
				std::printf( "   %s\n", s.run[0].figures[i].label.c_str() );
			}
			continue;
		}
		if ( s.thickness > 0.0 )
			std::printf( "\n%s (thickness %.4g m: a pair is deep beyond 1%% of the thinner body's thickness)\n", s.name,
						 s.thickness );
		else
			std::printf( "\n%s\n", s.name );
		std::printf( "  %-*s", std::max( width, 32 ), "figure" );
		for ( int a = 0; a < kAlgorithms; ++a )
			if ( s.run[a].present )
				std::printf( " %12s", names[a] );
		std::printf( "   what\n" );
		for ( size_t i = 0; i < s.run[0].figures.size(); ++i )
		{
			const smpSceneFigure& f = s.run[0].figures[i];
			if ( f.key == "thickness" )
				continue;
			std::printf( "  %-*s", std::max( width, 32 ), f.key.c_str() );
			for ( int a = 0; a < kAlgorithms; ++a )
				if ( s.run[a].present )
					std::printf( " %12.6g", i < s.run[a].figures.size() ? s.run[a].figures[i].value : NAN );
			std::printf( "   %s\n", f.label.c_str() );
		}
	}
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
		{ "tori-heap", 60, 600, 360, 16, 240, 180 },
		{ "torus-chain", 6, 600, 240, 4, 240, 150 },
		{ "box-stack", 4, 600, 60, 4, 240, 60 },
		{ "bowl-pour", 24, 600, 360, 8, 240, 180 },
		{ "kinematic", 16, 600, 540, 8, 240, 180 },
		{ "torus-drop", 3, 300, 120, 3, 180, 120 },
		// The assembly parts (scene_assembly.cpp): their sizes are fixed; arrival is the step
		// after which every part has been released and pushed (the scenes' settled phase).
		{ "assembly-peg", 2, 600, 180, 2, 300, 180 },
		{ "assembly-washers", 6, 600, 350, 6, 420, 350 },
		{ "assembly-plates", 6, 600, 260, 6, 360, 260 },
		// A user's report (scene_awake.cpp), over seeds.
		{ "sphere-pour", 40, 900, 600, 12, 240, 180, true },
		{ "tall-stack", 4, 900, 300, 4, 300, 120, true },
		// Concave meshes against every other kind of shape (scene_mixed.cpp), over seeds: its
		// arrival is the scene's own settled phase (0.6 of the steps).
		{ "mixed", 21, 600, 360, 21, 300, 180, true },
	};
	const char* names[kAlgorithms] = { "gimpact", "polydepth", "convex", "exact" };
	const smpSceneAlgo algos[kAlgorithms] = { SMP_SCENE_ALGO_GIMPACT, SMP_SCENE_ALGO_POLYDEPTH, SMP_SCENE_ALGO_CONVEX,
											  SMP_SCENE_ALGO_EXACT };
	double maxMedianRatio = 0.0, maxP95Ratio = 0.0;
	if ( !o.recordCalls.empty() && o.only.empty() )
	{
		std::fprintf( stderr, "polydepth-bench awake: --record-calls needs --only SCENE (one recording)\n" );
		return 2;
	}
	if ( !o.only.empty() )
	{
		scenes.erase(
			std::remove_if( scenes.begin(), scenes.end(), [&]( const AwakeScene& s ) { return o.only != s.name; } ),
			scenes.end() );
		if ( scenes.empty() )
		{
			std::fprintf( stderr,
						  "polydepth-bench awake: no scene '%s' (tori-heap, torus-chain, box-stack, bowl-pour, "
						  "kinematic, torus-drop, assembly-peg, assembly-washers, assembly-plates, sphere-pour, "
						  "tall-stack, mixed)\n",
						  o.only.c_str() );
			return 2;
		}
	}
	if ( o.threads > 0 )
		return runAwakeThreads( scenes, o );
	for ( AwakeScene& s : scenes )
	{
		for ( int a = 0; a < kAlgorithms; ++a )
		{
			std::string error;
			if ( !runOne( &s, algos[a], o, &s.run[a], &error ) )
			{
				if ( a < 2 )
				{
					std::fprintf( stderr, "polydepth-bench awake: %s, %s: %s\n", s.name, names[a], error.c_str() );
					return 1;
				}
				continue;
			}
			if ( s.seeded && !runSeeds( &s, a, algos[a], o, &error ) )
			{
				std::fprintf( stderr, "polydepth-bench awake: %s, %s: %s\n", s.name, names[a], error.c_str() );
				return 1;
			}
		}
		for ( const smpSceneFigure& f : s.run[0].figures )
			if ( f.key == "thickness" )
				s.thickness = f.value;
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
							   if ( s.thickness > 0.0 )
								   j.field( "thickness", s.thickness );
							   if ( s.seeded )
							   {
								   j.field( "seeds", s.seedCount );
								   j.field( "first_seed", (double)s.firstSeed );
							   }
							   for ( int a = 0; a < kAlgorithms; ++a )
								   if ( s.run[a].present )
									   writeRun( j, names[a], s.run[a], false, &s.seedValues[a] );
						   } );
				j.field( "max_median_ratio", maxMedianRatio );
				j.field( "max_p95_ratio", maxP95Ratio );
			} );
		return 0;
	}
	describeMachine( stdout );
	if ( o.solverIterations > 0 )
		std::printf( "awake: Bullet's solver at %d iterations a step (--solver-iterations)\n", o.solverIterations );
	std::printf( "awake: Bullet sleeping off, steps of 1/60 s, seed %u%s; penetration (PD between touching bodies and\n"
				 "against closed static solids, analytic below the floor or into the bowl) every %d steps;\n"
				 "settled = after the arrival phase; rest speed: each body's largest speed over the last second\n"
				 "(lost bodies included), the largest and the 90th percentile over the bodies\n",
				 o.seed, o.quick ? ", --quick: fewer bodies and steps" : "", kPenetrationEvery );
	std::printf( "%-16s %-9s %6s %5s | %7s %7s %7s | %4s | %8s %8s | %8s %8s | %5s\n", "scene", "algorithm", "bodies",
				 "steps", "med ms", "p95 ms", "mean ms", "lost", "max mm", "settl mm", "rest m/s", "p90 m/s",
				 "x gimp" );
	for ( const AwakeScene& s : scenes )
		for ( int a = 0; a < kAlgorithms; ++a )
		{
			const AwakeRun& r = s.run[a];
			if ( !r.present )
				continue;
			std::printf( "%-16s %-9s %6d %5d | %7.2f %7.2f %7.2f | %4d | %8.2f %8.2f | %8.3f %8.3f | %5.2f\n", s.name,
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
		for ( int a = 0; a < kAlgorithms; ++a )
			if ( s.run[a].present )
				std::printf( " %s %.2f mm / %.4f m/s;", names[a], 1e3 * s.run[a].topDrift, s.run[a].topEndSpeed );
		std::printf( "\n" );
	}
	printFigures( scenes, names );
	return 0;
#endif
}

} // namespace bench
