// SPDX-License-Identifier: MIT
// polydepth-bench: every benchmark as a subcommand. Tables for people; --json for scripts.
#include "bench_util.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace bench;

static void usage( FILE* f )
{
	std::fprintf(
		f, "usage: polydepth-bench SUBCOMMAND [--json] [--quick] [--models DIR] [--csv FILE] [--repeats N] [--seed S]\n"
		   "                       [--only NAME] [--oracle N] [--cases] [--random-directions N]\n"
		   "                       [--cone-directions N] [--max-starts N] [--part P] [--with-convex] [--seeds N]\n"
		   "subcommands:\n"
		   "  proximity  collide, distance and CCD against FCL on the same poses\n"
		   "  pd-random  the paper's random-configuration scenario, and the oracle on the other kinds of\n"
		   "             shapes PD is judged on (torus, grate, cup, spoon, box)\n"
		   "  pd-frontier the pd-random poses at several settings of the global search (directions,\n"
		   "             starts): the cost (PD/dist) and the accuracy against the oracle of each\n"
		   "  pd-path    the paper's predefined paths (motion coherence on and off)\n"
		   "  pd-batch   the pd-random configurations as one batch call: queries per second on the\n"
		   "             calling thread and on 2 threads, and whether the answers are identical\n"
		   "  sfog       orientation pruning on/off, exact convex PD against libccd EPA\n"
		   "  debris     the Bullet debris scene, GImpact against PolyDepth, same seed\n"
		   "  awake      scenes with Bullet's sleeping off (tori heap, torus chain, box stack, bowl,\n"
		   "             kinematic sweep, 10 m/s drops, assembly: pegs, washers, plates): GImpact,\n"
		   "             PolyDepth and, on the tori, the pegs and the plates, the convex peer; step\n"
		   "             times, lost bodies, penetration, resting speeds, the assembly's own figures\n"
		   "  peg-probe  a peg wedged in its bore at 3, 6, 10 and 20 degrees: every manifold Bullet gets\n"
		   "             (normal, points, depths) with PolyDepth and with GImpact, against the\n"
		   "             interference the geometry implies and the library's global PD (--json)\n"
		   "  contact-replay FILE\n"
		   "             recorded plugin calls (polydepth-sample --record-calls) run again outside\n"
		   "             Bullet: time per call, a hash of the contacts and the same calls' cost as\n"
		   "             distance queries (--repeats, --json)\n"
		   "options:\n"
		   "  --json      print one JSON object instead of tables\n"
		   "  --quick     a small version that finishes in under a minute\n"
		   "  --models D  the paper's model files (default: the POLYDEPTH_MODELS environment variable;\n"
		   "              without either, each missing model is a generated stand-in, named so in\n"
		   "              the output, and pd-path, which needs the paper's paths, skips)\n"
		   "  --csv F     also write the per-case rows as CSV\n"
		   "  --repeats N queries (or repeats) per case\n"
		   "  --seed S    seed of the random configurations\n"
		   "  --only NAME pd-random, pd-path: run only this model (for profiling); sfog: only this\n"
		   "              model in the sweep table (c), the larger ones the full run leaves out\n"
		   "              included (bunny_noholes.tri; knot: every size up to 4k triangles);\n"
		   "              awake: only this scene\n"
		   "  --oracle N  pd-random: oracle cases per model (0 = no oracle, for profiling)\n"
		   "  --cases     pd-random: one line per query on stderr: pose of A, answer, oracle, ms\n"
		   "  --random-directions N\n"
		   "              pd-random, pd-path: random start directions per query (0-4096; the\n"
		   "              core's default is 512): the accuracy against the oracle bought with time\n"
		   "  --cone-directions N\n"
		   "              pd-random, pd-path: directions probed around the best answer (0-4096,\n"
		   "              0 = off; the core's default is 128)\n"
		   "  --max-starts N\n"
		   "              pd-random, pd-path: free configurations refined at most (1-64; the\n"
		   "              core's default is 12); with 1 and no directions the query is the\n"
		   "              paper's single local optimisation\n"
		   "  --part P    sfog: run only these tables, any of a (pruning in PolyDepth), b (convex PD\n"
		   "              against EPA), c (overlay sweeps); default abc\n"
		   "  --with-convex\n"
		   "              debris: a third row, Bullet's own convex contacts on the tori cut into 48\n"
		   "              convex hulls each (same mass, inertia and penetration measurement), and\n"
		   "              a \"convex\" object in --json\n"
		   "  --threads N awake: GImpact and PolyDepth only, each scene with the narrow phase on 1 and\n"
		   "              on N threads (2-64; ParallelCollisionDispatcher): step times and speed-ups\n"
		   "  --seeds N   awake: the chaotic scenes (sphere-pour, tall-stack) run from seeds S..S+N-1\n"
		   "              (1-64; default 8, --quick 2): their figures as the median and the 90th\n"
		   "              percentile over the seeds\n"
		   "  --solver-iterations N\n"
		   "              awake: Bullet's solver iterations per step in every scene (1-1000; default\n"
		   "              10, Bullet's own): tells what the solver leaves from what the contacts do\n"
		   "  --record-calls F\n"
		   "              awake, with --only: records PolyDepth's plugin calls of that scene to F, for\n"
		   "              `contact-replay F`\n" );
}

int main( int argc, char** argv )
{
	if ( argc < 2 || std::strcmp( argv[1], "--help" ) == 0 || std::strcmp( argv[1], "-h" ) == 0 )
	{
		usage( argc < 2 ? stderr : stdout );
		return argc < 2 ? 2 : 0;
	}
	Options o;
	const char* modelsFromEnvironment = std::getenv( "POLYDEPTH_MODELS" );
	o.modelsDir = modelsFromEnvironment != nullptr ? modelsFromEnvironment : "";
	std::string sub = argv[1];
	for ( int i = 2; i < argc; ++i )
	{
		std::string a = argv[i];
		auto value = [&]( const char* name ) -> const char*
		{
			if ( i + 1 >= argc )
			{
				std::fprintf( stderr, "polydepth-bench: %s needs a value\n", name );
				std::exit( 2 );
			}
			return argv[++i];
		};
		// A whole decimal integer in [lo, hi], or a message naming the option and exit code 2.
		auto integer = [&]( const char* name, long lo, long hi ) -> long
		{
			const char* text = value( name );
			char* end = nullptr;
			errno = 0;
			long n = std::strtol( text, &end, 10 );
			if ( errno != 0 || end == text || *end != 0 || n < lo || n > hi )
			{
				std::fprintf( stderr, "polydepth-bench: %s expects an integer from %ld to %ld, got '%s'\n", name, lo,
							  hi, text );
				std::exit( 2 );
			}
			return n;
		};
		if ( a == "--json" )
			o.json = true;
		else if ( a == "--quick" )
			o.quick = true;
		else if ( a == "--models" )
			o.modelsDir = value( "--models" );
		else if ( a == "--csv" )
			o.csvPath = value( "--csv" );
		else if ( a == "--repeats" )
			o.repeats = (int)integer( "--repeats", 1, 1000000 );
		else if ( a == "--only" )
			o.only = value( "--only" );
		else if ( a == "--oracle" )
			o.oracleCases = (int)integer( "--oracle", 0, 1000000 );
		else if ( a == "--cases" )
			o.cases = true;
		else if ( a == "--with-convex" )
			o.withConvex = true;
		else if ( a == "--seeds" )
			o.seeds = (int)integer( "--seeds", 1, 64 );
		else if ( a == "--threads" )
			o.threads = (int)integer( "--threads", 2, 64 );
		else if ( a == "--random-directions" )
			o.randomDirections = (int)integer( "--random-directions", 0, 4096 );
		else if ( a == "--cone-directions" )
			o.coneDirections = (int)integer( "--cone-directions", 0, 4096 );
		else if ( a == "--max-starts" )
			o.maxStarts = (int)integer( "--max-starts", 1, 64 );
		else if ( a == "--part" )
		{
			o.parts = value( "--part" );
			if ( o.parts.empty() || o.parts.find_first_not_of( "abc" ) != std::string::npos )
			{
				std::fprintf( stderr, "polydepth-bench: --part expects letters from 'abc', got '%s'\n",
							  o.parts.c_str() );
				return 2;
			}
		}
		else if ( a == "--seed" )
			o.seed = (unsigned)integer( "--seed", 0, 4294967295L );
		else if ( a == "--solver-iterations" )
			o.solverIterations = (int)integer( "--solver-iterations", 1, 1000 );
		else if ( a == "--record-calls" )
			o.recordCalls = value( "--record-calls" );
		else if ( sub == "contact-replay" && o.inputPath.empty() && a.rfind( "--", 0 ) != 0 )
			o.inputPath = a;
		else
		{
			std::fprintf( stderr, "polydepth-bench: unknown option '%s'\n", a.c_str() );
			return 2;
		}
	}
	if ( sub == "proximity" )
		return runProximity( o );
	if ( sub == "pd-random" )
		return runPdRandom( o );
	if ( sub == "pd-frontier" )
		return runPdFrontier( o );
	if ( sub == "pd-path" )
		return runPdPath( o );
	if ( sub == "sfog" )
		return runSfog( o );
	if ( sub == "debris" )
		return runDebris( o );
	if ( sub == "pd-batch" )
		return runPdBatch( o );
	if ( sub == "awake" )
		return runAwake( o );
	if ( sub == "peg-probe" )
		return runPegProbe( o );
	if ( sub == "contact-replay" )
		return runContactReplay( o );
	std::fprintf( stderr, "polydepth-bench: unknown subcommand '%s' (try --help)\n", sub.c_str() );
	return 2;
}
