// SPDX-License-Identifier: MIT
// polydepth-bench pd-random and pd-path: the paper's random-configuration and predefined-path
// scenarios, with the cost of a PD query as a multiple of one BVH distance query.
#include "bench_util.h"

#include <atomic>
#include <cstring>
#include <string>
#include <thread>

namespace bench
{

namespace
{

struct ModelSpec
{
	const char* name;
	const char* source; // generator name or model file
	int tris;           // generator target
	int subdivide;      // levels of 4-to-1 subdivision applied after loading
	bool file;
};

bool buildModel( const Options& o, const ModelSpec& spec, Model* model )
{
	model->name = spec.name;
	if ( spec.file )
	{
		bool standIn = false;
		if ( !loadModelFile( o, spec.source, "pd", &model->soup, &standIn ) )
			return false;
		if ( standIn )
			model->name += " (stand-in)";
		model->shift = centreSoup( &model->soup );
	}
	else if ( !smpMakeShapeByName( spec.source, spec.tris, 2.0, &model->soup ) )
	{
		std::fprintf( stderr, "pd: cannot generate %s\n", spec.name );
		return false;
	}
	if ( spec.subdivide > 0 )
	{
		smpSoup finer{};
		if ( !smpSubdivideSoup( &model->soup, spec.subdivide, &finer ) )
			return false;
		smpFreeSoup( &model->soup );
		model->soup = finer;
	}
	std::string error;
	if ( !model->finish( &error ) )
	{
		std::fprintf( stderr, "pd: %s\n", error.c_str() );
		return false;
	}
	return true;
}

double diagonalOf( const pdMesh* mesh )
{
	pdVec3 lo = pdMesh_GetInfo( mesh ).boundsMin, hi = pdMesh_GetInfo( mesh ).boundsMax;
	return std::sqrt( ( hi.x - lo.x ) * ( hi.x - lo.x ) + ( hi.y - lo.y ) * ( hi.y - lo.y ) +
					  ( hi.z - lo.z ) * ( hi.z - lo.z ) );
}

bool collides( const pdMesh* a, const pdTransform& pa, const pdMesh* b, const pdTransform& pb, pdWorkspace* ws )
{
	pdCollideResult r;
	pdCollide( a, &pa, b, &pb, nullptr, ws, &r );
	return r.colliding;
}

pdTransform translated( pdTransform t, pdVec3 d )
{
	t.p.x += d.x;
	t.p.y += d.y;
	t.p.z += d.z;
	return t;
}

/// v rotated by the unit quaternion q: v + 2w (u x v) + 2 u x (u x v), u the vector part.
pdVec3 rotated( pdQuat q, pdVec3 v )
{
	pdVec3 c{ q.y * v.z - q.z * v.y, q.z * v.x - q.x * v.z, q.x * v.y - q.y * v.x };
	pdVec3 cc{ q.y * c.z - q.z * c.y, q.z * c.x - q.x * c.z, q.x * c.y - q.y * c.x };
	return pdVec3{ v.x + 2.0 * ( q.w * c.x + cc.x ), v.y + 2.0 * ( q.w * c.y + cc.y ),
				   v.z + 2.0 * ( q.w * c.z + cc.z ) };
}

/// Independent oracle: for many directions, the first free offset along the direction (march
/// outward, then bisect), refined around the best direction. An upper bound near the optimum.
double directionalOracle( const pdMesh* a, const pdTransform& pa, const pdMesh* b, const pdTransform& pb,
						  int directions, pdWorkspace* ws, pdVec3* outDirection )
{
	double far = 1.2 * ( diagonalOf( a ) + diagonalOf( b ) );
	double best = far;
	pdVec3 bestDir{ 1, 0, 0 };
	auto firstFree = [&]( pdVec3 u, double limit )
	{
		const int steps = 96;
		double prev = 0.0;
		for ( int i = 1; i <= steps; ++i )
		{
			double t = limit * (double)i / steps;
			if ( !collides( a, translated( pa, pdVec3{ u.x * t, u.y * t, u.z * t } ), b, pb, ws ) )
			{
				return bisectToFree(
					prev, t, 40,
					[&]( double m ) {
						return collides( a, translated( pa, pdVec3{ u.x * m, u.y * m, u.z * m } ), b, pb, ws );
					} );
			}
			prev = t;
		}
		return limit;
	};
	const double golden = M_PI * ( 3.0 - std::sqrt( 5.0 ) );
	for ( int i = 0; i < directions; ++i )
	{
		double z = 1.0 - 2.0 * ( i + 0.5 ) / directions, r = std::sqrt( std::max( 0.0, 1.0 - z * z ) );
		pdVec3 u{ r * std::cos( golden * i ), r * std::sin( golden * i ), z };
		double t = firstFree( u, std::min( best, far ) );
		if ( t < best )
		{
			best = t;
			bestDir = u;
		}
	}
	// Local refinement: random perturbations of the best direction with a shrinking radius.
	Rng rng( 12345 );
	double radius = 2.0 / std::sqrt( (double)directions );
	for ( int it = 0; it < 120; ++it )
	{
		pdVec3 d = rng.direction();
		pdVec3 u{ bestDir.x + radius * d.x, bestDir.y + radius * d.y, bestDir.z + radius * d.z };
		double len = std::sqrt( u.x * u.x + u.y * u.y + u.z * u.z );
		u = pdVec3{ u.x / len, u.y / len, u.z / len };
		double t = firstFree( u, best );
		if ( t < best )
		{
			best = t;
			bestDir = u;
		}
		else if ( it % 20 == 19 )
		{
			radius *= 0.5;
		}
	}
	*outDirection = bestDir;
	return best;
}

/// A random in-collision configuration: random rotation of A, A's centre inside B's box.
bool randomColliding( Rng& rng, const pdMesh* a, const pdMesh* b, pdWorkspace* ws, pdTransform* outA )
{
	pdVec3 lo = pdMesh_GetInfo( b ).boundsMin, hi = pdMesh_GetInfo( b ).boundsMax;
	for ( int attempt = 0; attempt < 200; ++attempt )
	{
		pdTransform t;
		t.q = rng.rotation();
		t.p = pdVec3{ rng.range( lo.x, hi.x ) * 0.6, rng.range( lo.y, hi.y ) * 0.6, rng.range( lo.z, hi.z ) * 0.6 };
		pdCollideResult r;
		pdTransform pb = pdIdentityTransform();
		pdCollide( a, &t, b, &pb, nullptr, ws, &r );
		if ( r.colliding && !r.containment )
		{
			*outA = t;
			return true;
		}
	}
	return false;
}

pdQuat quatFromRowMajor( const double* m )
{
	// Shepperd's method on a row-major rotation matrix.
	double tr = m[0] + m[4] + m[8];
	pdQuat q;
	if ( tr > 0 )
	{
		double s = std::sqrt( tr + 1.0 ) * 2;
		q = pdQuat{ 0.25 * s, ( m[7] - m[5] ) / s, ( m[2] - m[6] ) / s, ( m[3] - m[1] ) / s };
	}
	else if ( m[0] > m[4] && m[0] > m[8] )
	{
		double s = std::sqrt( 1.0 + m[0] - m[4] - m[8] ) * 2;
		q = pdQuat{ ( m[7] - m[5] ) / s, 0.25 * s, ( m[1] + m[3] ) / s, ( m[2] + m[6] ) / s };
	}
	else if ( m[4] > m[8] )
	{
		double s = std::sqrt( 1.0 + m[4] - m[0] - m[8] ) * 2;
		q = pdQuat{ ( m[2] - m[6] ) / s, ( m[1] + m[3] ) / s, 0.25 * s, ( m[5] + m[7] ) / s };
	}
	else
	{
		double s = std::sqrt( 1.0 + m[8] - m[0] - m[4] ) * 2;
		q = pdQuat{ ( m[3] - m[1] ) / s, ( m[2] + m[6] ) / s, ( m[5] + m[7] ) / s, 0.25 * s };
	}
	double n = std::sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
	return pdQuat{ q.w / n, q.x / n, q.y / n, q.z / n };
}

// The core's default settings with --random-directions, --cone-directions and --max-starts applied.
pdPenetrationSettings settingsWithQueryOptions( const Options& o )
{
	pdPenetrationSettings settings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
	if ( o.randomDirections >= 0 )
		settings.randomDirections = o.randomDirections;
	if ( o.coneDirections >= 0 )
		settings.coneDirections = o.coneDirections;
	if ( o.maxStarts >= 0 )
		settings.maxStarts = o.maxStarts;
	return settings;
}

/// One PD query of a model against itself (B at the identity), timed after a warm-up call, with
/// what the pd benchmarks report of it.
struct TimedPdQuery
{
	pdStatus status = PD_STATUS_OK;
	pdPenetrationResult result{};
	double ms = 0;             ///< the timed call
	double pdiOverDistance = 0; ///< its time over one distance query at its answer (a touching pose)
	bool valid = false;        ///< A moved by the answer does not collide
};

TimedPdQuery timePdQuery( const pdMesh* mesh, const pdTransform& pa, const pdPenetrationDef& def, pdWorkspace* ws )
{
	TimedPdQuery t;
	const pdTransform pb = pdIdentityTransform();
	pdComputePenetration( mesh, &pa, mesh, &pb, &def, nullptr, ws, &t.result ); // warm-up
	double t0 = nowUs();
	t.status = pdComputePenetration( mesh, &pa, mesh, &pb, &def, nullptr, ws, &t.result );
	double t1 = nowUs();
	if ( t.status < 0 )
		return t;
	t.ms = ( t1 - t0 ) * 1e-3;
	pdTransform moved = translated( pa, t.result.translation );
	t.valid = !collides( mesh, moved, mesh, pb, ws );
	pdDistanceResult dr;
	double d0 = nowUs();
	pdComputeDistance( mesh, &moved, mesh, &pb, nullptr, ws, &dr );
	double d1 = nowUs();
	t.pdiOverDistance = ( t1 - t0 ) / std::max( 1e-3, d1 - d0 );
	return t;
}

} // namespace

/// The pd-random models (two with --quick).
static std::vector<ModelSpec> pdiRandomSpecs( const Options& o )
{
	std::vector<ModelSpec> specs = { { "knot-3k", "knot", 3000, 0, false },
									 { "bunny-2k", "pqp_spinning_bunny.tris", 0, 0, true },
									 { "bunny-9k", "pqp_spinning_bunny.tris", 0, 1, true },
									 { "knot-40k", "knot", 40000, 0, false },
									 { "bunny-70k", "bunny_noholes.tri", 0, 0, true },
									 { "knot-170k", "knot", 170000, 0, false },
									 // The other kinds of the hold-out set (issue 3), for the oracle column.
									 { "torus-1k", "torus", 1000, 0, false },
									 { "grate-1k", "grate", 1000, 0, false },
									 { "cup-1k", "cup", 1000, 0, false },
									 { "spoon-1k", "spoon", 1000, 0, false },
									 { "box", "box", 12, 0, false } };
	if ( o.quick )
		specs = { { "knot-3k", "knot", 3000, 0, false }, { "bunny-2k", "pqp_spinning_bunny.tris", 0, 0, true } };
	return specs;
}

/// Calls fn( spec, model, rng ) for each pd-random model that --only allows, built, with the
/// generator of its random poses (the same poses in every pd benchmark).
template <typename Fn> static void forEachPdModel( const Options& o, Fn fn )
{
	for ( const ModelSpec& spec : pdiRandomSpecs( o ) )
	{
		if ( !o.only.empty() && o.only != spec.name )
			continue;
		Model model;
		if ( !buildModel( o, spec, &model ) )
			continue;
		Rng rng( o.seed * 104729u + (unsigned)model.triangles() );
		fn( spec, model, rng );
	}
}

int runPdRandom( const Options& o )
{
	const int queries = o.repeats > 0 ? o.repeats : ( o.quick ? 10 : 60 );
	const int oracleQueries = o.oracleCases >= 0 ? o.oracleCases : ( o.quick ? 2 : 6 );
	struct Row
	{
		std::string name;
		int tris = 0, queries = 0, valid = 0, oracleCases = 0, within1 = 0;
		double medianMs = 0, p95Ms = 0, contacts = 0, iterations = 0, pdiOverDistance = 0, worstRatio = 0;
		// The certified lower bound (closed meshes): its median share of the answer, the answers
		// it comes within 1% of, and the oracle cases it exceeds (must stay 0).
		bool closed = false;
		double boundShare = 0;
		int boundWithin1 = 0, boundAboveOracle = 0;
	};
	std::vector<Row> rows;
	pdPenetrationSettings querySettings = settingsWithQueryOptions( o );
	pdPenetrationDef queryDef = pdDefaultPenetrationDef();
	queryDef.settings = &querySettings;
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	forEachPdModel(
		o,
		[&]( const ModelSpec& spec, Model& model, Rng& rng )
		{
			const pdMesh* mesh = model.mesh;
			Row row;
			row.name = spec.name;
			row.tris = model.triangles();
			row.closed = pdMesh_GetInfo( mesh ).closed;
			std::vector<double> ms, ratio, share;
			double contacts = 0, iterations = 0;
			pdTransform pb = pdIdentityTransform();
			for ( int q = 0; q < queries; ++q )
			{
				pdTransform pa;
				if ( !randomColliding( rng, mesh, mesh, ws, &pa ) )
					continue;
				TimedPdQuery t = timePdQuery( mesh, pa, queryDef, ws );
				if ( t.status < 0 )
				{
					std::fprintf( stderr, "pd-random: %s query %d failed: %s\n", spec.name, q,
								  pdGetStatusString( t.status ) );
					continue;
				}
				const pdPenetrationResult& r = t.result;
				ms.push_back( t.ms );
				contacts += r.contactPlaneCount;
				iterations += r.iterations;
				row.queries++;
				row.valid += t.valid ? 1 : 0;
				ratio.push_back( t.pdiOverDistance );
				if ( r.depth > 0.0 )
				{
					share.push_back( r.lowerBound / r.depth );
					row.boundWithin1 += r.lowerBound >= r.depth / 1.01 ? 1 : 0;
				}
				double exact = 0.0;
				pdVec3 oracleDir{ 0, 0, 0 };
				if ( q < oracleQueries && row.tris <= 12000 )
				{
					exact = directionalOracle( mesh, pa, mesh, pb, o.quick ? 200 : 600, ws, &oracleDir );
					double rel = r.depth / std::max( exact, 1e-12 );
					row.oracleCases++;
					row.within1 += rel <= 1.01 ? 1 : 0;
					row.worstRatio = std::max( row.worstRatio, rel );
					row.boundAboveOracle += r.lowerBound > exact * ( 1.0 + 1e-9 ) ? 1 : 0;
				}
				if ( o.cases )
				{
					// Enough to replay the query on a file model with `polydepth query FILE FILE --pose-a
					// ... --pose-b ...`: the poses of the file's own vertices (the bench centred them by
					// s, so B sits at s and A at p + R s). The angle between our direction and the
					// oracle's tells a near miss in the same basin (a few degrees) from another basin.
					char angle[32] = "-";
					double len = std::sqrt( r.translation.x * r.translation.x + r.translation.y * r.translation.y +
											r.translation.z * r.translation.z );
					if ( exact > 0.0 && len > 0.0 )
					{
						double c = ( r.translation.x * oracleDir.x + r.translation.y * oracleDir.y +
									 r.translation.z * oracleDir.z ) /
								   len;
						std::snprintf( angle, sizeof( angle ), "%.1f",
									   std::acos( std::max( -1.0, std::min( 1.0, c ) ) ) * 180.0 / M_PI );
					}
					pdVec3 s = model.shift, rs = rotated( pa.q, s );
					pdVec3 fileA{ pa.p.x + rs.x, pa.p.y + rs.y, pa.p.z + rs.z };
					std::fprintf(
						stderr,
						"%s q%d pose-a %.17g %.17g %.17g %.17g %.17g %.17g %.17g pose-b 1 0 0 0 %.17g %.17g %.17g "
						"depth %.6g oracle %s angle %s starts %d iters %d ms %.3f\n",
						spec.name, q, pa.q.w, pa.q.x, pa.q.y, pa.q.z, fileA.x, fileA.y, fileA.z, s.x, s.y, s.z, r.depth,
						exact > 0.0 ? std::to_string( exact ).c_str() : "-", angle, r.starts, r.iterations, t.ms );
				}
			}
			row.medianMs = median( ms );
			row.p95Ms = percentile( ms, 0.95 );
			row.contacts = row.queries > 0 ? contacts / row.queries : 0;
			row.iterations = row.queries > 0 ? iterations / row.queries : 0;
			row.pdiOverDistance = median( ratio );
			row.boundShare = median( share );
			rows.push_back( row );
		} );
	pdDestroyWorkspace( ws );

	if ( o.json )
	{
		printJsonObject(
			[&]( Json& j )
			{
				j.objects( "models", rows,
						   [&]( const Row& r )
						   {
							   j.field( "name", r.name );
							   j.field( "tris", r.tris );
							   j.field( "queries", r.queries );
							   j.field( "median_ms", r.medianMs );
							   j.field( "p95_ms", r.p95Ms );
							   j.field( "contacts", r.contacts );
							   j.field( "iterations", r.iterations );
							   j.field( "pd_over_distance", r.pdiOverDistance );
							   j.field( "valid", r.valid );
							   j.field( "oracle_cases", r.oracleCases );
							   j.field( "within_1pct", r.within1 );
							   j.field( "worst_ratio", r.worstRatio );
							   j.field( "closed", r.closed );
							   j.field( "lower_bound_share", r.boundShare );
							   j.field( "lower_bound_within_1pct", r.boundWithin1 );
							   j.field( "lower_bound_above_oracle", r.boundAboveOracle );
						   } );
			} );
		return 0;
	}
	describeMachine( stdout );
	std::printf( "random in-collision configurations (A = B, random rotation, centre in B's box); %d random start "
				 "directions, %d cone directions, at most %d starts\n",
				 querySettings.randomDirections, querySettings.coneDirections, querySettings.maxStarts );
	std::printf( "%-10s %7s %5s | %8s %8s | %8s %6s | %7s | %5s | %-40s | %s\n", "model", "tris", "n", "med ms",
				 "p95 ms", "contacts", "iters", "PD/dist", "valid", "oracle: within 1% / cases (worst ratio)",
				 "lower bound: median share, within 1% (above oracle)" );
	for ( const Row& r : rows )
	{
		char bound[64] = "open mesh: none";
		if ( r.closed )
			std::snprintf( bound, sizeof( bound ), "%.3f, %d / %d (%d)", r.boundShare, r.boundWithin1, r.queries,
						   r.boundAboveOracle );
		char oracle[64];
		std::snprintf( oracle, sizeof( oracle ), "%d / %d (%.3f)", r.within1, r.oracleCases, r.worstRatio );
		std::printf( "%-10s %7d %5d | %8.3f %8.3f | %8.2f %6.2f | %7.2f | %5d | %-40s | %s\n", r.name.c_str(), r.tris,
					 r.queries, r.medianMs, r.p95Ms, r.contacts, r.iterations, r.pdiOverDistance, r.valid, oracle,
					 bound );
	}
	int cases = 0, within = 0;
	for ( const Row& r : rows )
	{
		cases += r.oracleCases;
		within += r.within1;
	}
	if ( cases > 0 )
		std::printf( "oracle, all models: %d / %d within 1%% (%.1f%%; the target is 95%%)\n", within, cases,
					 100.0 * within / cases );
	std::printf( "paper (2010 CPU): Torusknot 3k 5.53 ms, 4.84 contacts, 2.81 iters; Buddha 10k 6.23 ms; "
				 "Bunny2 40k 7.55 ms; Dragon 174k 12.76 ms\n" );
	return 0;
}

int runPdPath( const Options& o )
{
	struct PathSpec
	{
		const char* name;
		ModelSpec model;
		const char* pathA;
		const char* pathB;
	};
	std::vector<PathSpec> specs = {
		{ "bunny", { "bunny-70k", "bunny_noholes.tri", 0, 0, true }, "bunny40k_1.ani", "bunny40k_2.ani" },
		{ "torusknot", { "knot-3k", "knot", 3000, 0, false }, "torusknot1.ani", "torusknot2.ani" } };
	struct Row
	{
		std::string name;
		bool coherence = false;
		int frames = 0, penetrating = 0, tracked = 0;
		double medianMs = 0, p95Ms = 0, meanPd = 0, iterations = 0, pdiOverDistance = 0;
	};
	std::vector<Row> rows;
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	for ( const PathSpec& spec : specs )
	{
		if ( !o.only.empty() && o.only != spec.name )
			continue;
		// The paths have no stand-in: without the paper's files the path is skipped.
		if ( modelPath( o, spec.pathA ).empty() || modelPath( o, spec.pathB ).empty() )
		{
			std::fprintf( stderr, "pd-path: skipping %s (%s and %s not found; --models DIR or POLYDEPTH_MODELS)\n",
						  spec.name, spec.pathA, spec.pathB );
			continue;
		}
		Model model;
		if ( !buildModel( o, spec.model, &model ) )
			continue;
		smpPath pa{}, pb{};
		char err[256];
		std::string fa = modelPath( o, spec.pathA ), fb = modelPath( o, spec.pathB );
		if ( fa.empty() || fb.empty() || !smpLoadPath( fa.c_str(), &pa, err, sizeof( err ) ) ||
			 !smpLoadPath( fb.c_str(), &pb, err, sizeof( err ) ) )
		{
			std::fprintf( stderr, "pd-path: skipping %s (paths missing)\n", spec.name );
			smpFreePath( &pa );
			smpFreePath( &pb );
			continue;
		}
		int frames = std::min( pa.frameCount, pb.frameCount );
		if ( o.quick )
			frames = std::min( frames, 40 );
		for ( int mode = 0; mode < 2; ++mode )
		{
			Row row;
			row.name = spec.name;
			row.coherence = mode == 1;
			pdPenetrationCache cache;
			memset( &cache, 0, sizeof( cache ) );
			pdPenetrationSettings defSettings = settingsWithQueryOptions( o );
			pdPenetrationDef def = pdDefaultPenetrationDef();
			def.settings = &defSettings;
			if ( !row.coherence )
				defSettings.startStrategies &= ~(unsigned)PD_START_COHERENCE;
			std::vector<double> ms, ratio;
			double pdiSum = 0, iterSum = 0;
			for ( int f = 0; f < frames; ++f )
			{
				pdTransform ta, tb;
				ta.q = quatFromRowMajor( pa.rotations + 9 * f );
				ta.p = pdVec3{ pa.translations[3 * f], pa.translations[3 * f + 1], pa.translations[3 * f + 2] };
				tb.q = quatFromRowMajor( pb.rotations + 9 * f );
				tb.p = pdVec3{ pb.translations[3 * f], pb.translations[3 * f + 1], pb.translations[3 * f + 2] };
				pdPenetrationResult r;
				double t0 = nowUs();
				pdComputePenetration( model.mesh, &ta, model.mesh, &tb, &def, row.coherence ? &cache : nullptr, ws,
									  &r );
				double t1 = nowUs();
				row.frames++;
				if ( r.state == PD_STATE_PENETRATING )
				{
					row.penetrating++;
					row.tracked += r.tracked ? 1 : 0;
					ms.push_back( ( t1 - t0 ) * 1e-3 );
					pdiSum += r.depth;
					iterSum += r.iterations;
					// One full distance query on the same frame at the answer (a touching pose).
					pdTransform moved = translated( ta, r.translation );
					pdDistanceResult dr;
					double d0 = nowUs();
					pdComputeDistance( model.mesh, &moved, model.mesh, &tb, nullptr, ws, &dr );
					double d1 = nowUs();
					ratio.push_back( ( t1 - t0 ) / std::max( 1e-3, d1 - d0 ) );
				}
			}
			row.medianMs = median( ms );
			row.p95Ms = percentile( ms, 0.95 );
			row.meanPd = row.penetrating > 0 ? pdiSum / row.penetrating : 0;
			row.iterations = row.penetrating > 0 ? iterSum / row.penetrating : 0;
			row.pdiOverDistance = median( ratio );
			rows.push_back( row );
		}
		smpFreePath( &pa );
		smpFreePath( &pb );
	}
	pdDestroyWorkspace( ws );
	if ( o.json )
	{
		printJsonObject(
			[&]( Json& j )
			{
				j.objects( "paths", rows,
						   [&]( const Row& r )
						   {
							   j.field( "name", r.name );
							   j.field( "frames", r.frames );
							   j.field( "penetrating", r.penetrating );
							   j.field( "tracked", r.tracked );
							   j.field( "median_ms", r.medianMs );
							   j.field( "p95_ms", r.p95Ms );
							   j.flag( "coherence", r.coherence );
							   j.field( "mean_pd", r.meanPd );
							   j.field( "iterations", r.iterations );
							   j.field( "pd_over_distance", r.pdiOverDistance );
						   } );
			} );
		return 0;
	}
	describeMachine( stdout );
	std::printf( "%-10s %-9s %6s %6s %7s | %8s %8s | %9s %6s | %7s\n", "path", "coherence", "frames", "pen.", "tracked",
				 "med ms", "p95 ms", "mean PD", "iters", "PD/dist" );
	for ( const Row& r : rows )
		std::printf( "%-10s %-9s %6d %6d %7d | %8.3f %8.3f | %9.4f %6.2f | %7.2f\n", r.name.c_str(),
					 r.coherence ? "on" : "off", r.frames, r.penetrating, r.tracked, r.medianMs, r.p95Ms, r.meanPd,
					 r.iterations, r.pdiOverDistance );
	return 0;
}

namespace
{

// A task system of std::threads for pdComputePenetrationBatch: enqueue starts `threads` threads
// that pull ranges from a shared counter, finish joins them.
struct BatchThreads
{
	int threads = 2;
};

struct BatchRunning
{
	std::vector<std::thread> threads;
	std::atomic<int> next{ 0 };
};

void* enqueueBatchTask( pdTaskCallback* task, int itemCount, int minRange, void* taskContext, void* userContext )
{
	const BatchThreads* pool = static_cast<const BatchThreads*>( userContext );
	BatchRunning* running = new BatchRunning;
	for ( int w = 0; w < pool->threads; ++w )
		running->threads.emplace_back(
			[=]()
			{
				for ( int start = running->next.fetch_add( minRange ); start < itemCount;
					  start = running->next.fetch_add( minRange ) )
					task( start, std::min( start + minRange, itemCount ), w, taskContext );
			} );
	return running;
}

void finishBatchTask( void* userTask, void* )
{
	BatchRunning* running = static_cast<BatchRunning*>( userTask );
	for ( std::thread& t : running->threads )
		t.join();
	delete running;
}

// Median seconds of `runs` batch calls over the items; the answers of the last call in *out.
double timeBatch( const std::vector<pdBatchItem>& items, const pdBatchDef& def, int runs,
				  std::vector<pdPenetrationResult>* out )
{
	std::vector<double> seconds;
	out->assign( items.size(), pdPenetrationResult{} );
	for ( int r = 0; r < runs; ++r )
	{
		double t0 = nowUs();
		pdComputePenetrationBatch( items.data(), (int)items.size(), &def, out->data() );
		seconds.push_back( ( nowUs() - t0 ) * 1e-6 );
	}
	return median( seconds );
}

bool sameAnswers( const std::vector<pdPenetrationResult>& a, const std::vector<pdPenetrationResult>& b )
{
	for ( size_t i = 0; i < a.size(); ++i )
	{
		pdPenetrationResult x = a[i], y = b[i];
		x.elapsedMs = y.elapsedMs = 0.0;
		if ( std::memcmp( &x, &y, sizeof( x ) ) != 0 )
			return false;
	}
	return a.size() == b.size();
}

} // namespace

// polydepth-bench pd-batch: the pd-random configurations answered by pdComputePenetrationBatch on
// the calling thread and through a task system of 2 threads: queries per second at 1 and 2
// threads, the speed-up, and whether the two gave identical answers.
int runPdBatch( const Options& o )
{
	const int queries = o.repeats > 0 ? o.repeats : ( o.quick ? 16 : 48 );
	const int runs = o.quick ? 1 : 5;
	struct Row
	{
		std::string name;
		int tris = 0, queries = 0;
		double qps1 = 0, qps2 = 0;
		bool identical = false;
	};
	std::vector<Row> rows;
	pdPenetrationSettings querySettings = settingsWithQueryOptions( o );
	pdPenetrationDef queryDef = pdDefaultPenetrationDef();
	queryDef.settings = &querySettings;
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	forEachPdModel( o,
					[&]( const ModelSpec&, Model& model, Rng& rng )
					{
						std::vector<pdBatchItem> items;
						for ( int q = 0; q < queries; ++q )
						{
							pdBatchItem item = { model.mesh, pdIdentityTransform(), model.mesh, pdIdentityTransform() };
							if ( randomColliding( rng, model.mesh, model.mesh, ws, &item.poseA ) )
								items.push_back( item );
						}
						pdBatchDef serial = pdDefaultBatchDef();
						serial.penetration = &queryDef;
						BatchThreads pool;
						pdBatchDef parallel = serial;
						parallel.workerCount = pool.threads;
						parallel.enqueueTask = enqueueBatchTask;
						parallel.finishTask = finishBatchTask;
						parallel.userTaskContext = &pool;
						std::vector<pdPenetrationResult> one, two;
						// A batch of a few milliseconds (48 box queries take 2 ms) measures the start of the
						// threads more than the queries: the poses repeat until the serial call takes 50 ms.
						double pass = timeBatch( items, serial, 1, &one );
						if ( pass > 0.0 && pass < 0.05 && !items.empty() )
						{
							size_t distinct = items.size();
							int repeats = (int)std::ceil( 0.05 / pass );
							for ( int k = 1; k < repeats; ++k )
								items.insert( items.end(), items.begin(), items.begin() + distinct );
						}
						// Serial and parallel calls alternate, so a moment of load from elsewhere falls on both.
						std::vector<double> t1, t2;
						for ( int r = 0; r < runs; ++r )
						{
							t1.push_back( timeBatch( items, serial, 1, &one ) );
							t2.push_back( timeBatch( items, parallel, 1, &two ) );
						}
						double s1 = median( t1 ), s2 = median( t2 );
						Row row;
						row.name = model.name;
						row.tris = model.triangles();
						row.queries = (int)items.size();
						row.qps1 = s1 > 0.0 ? items.size() / s1 : 0.0;
						row.qps2 = s2 > 0.0 ? items.size() / s2 : 0.0;
						row.identical = sameAnswers( one, two );
						rows.push_back( row );
					} );
	pdDestroyWorkspace( ws );
	if ( o.json )
	{
		printJsonObject(
			[&]( Json& j )
			{
				j.objects( "models", rows,
						   [&]( const Row& r )
						   {
							   j.field( "name", r.name );
							   j.field( "tris", r.tris );
							   j.field( "queries", r.queries );
							   j.field( "qps_1", r.qps1 );
							   j.field( "qps_2", r.qps2 );
							   j.field( "speedup", r.qps1 > 0.0 ? r.qps2 / r.qps1 : 0.0 );
							   j.flag( "identical", r.identical );
						   } );
			} );
		return 0;
	}
	describeMachine( stdout );
	std::printf( "pd-random configurations as one pdComputePenetrationBatch call: on the calling thread (1) and on "
				 "a task system of 2 threads (2); median of %d calls\n",
				 runs );
	std::printf( "%-10s %7s %5s | %9s %9s | %7s | %s\n", "model", "tris", "n", "q/s 1", "q/s 2", "speedup",
				 "identical" );
	for ( const Row& r : rows )
		std::printf( "%-10s %7d %5d | %9.1f %9.1f | %7.2f | %s\n", r.name.c_str(), r.tris, r.queries, r.qps1, r.qps2,
					 r.qps1 > 0.0 ? r.qps2 / r.qps1 : 0.0, r.identical ? "yes" : "NO" );
	return 0;
}

/// The cost and the accuracy of the query at several settings of its global search, on the
/// pd-random poses: what each part of the search buys. One pass of the oracle per pose, shared
/// by every setting.
int runPdFrontier( const Options& o )
{
	struct Setting
	{
		const char* name;
		int randomDirections, coneDirections, maxStarts;
	};
	const std::vector<Setting> settings = {
		{ "defaults", 512, 128, 12 },         { "128 random, 128 cone", 128, 128, 12 },
		{ "64 random, 64 cone", 64, 64, 12 }, { "cone only", 0, 128, 12 },
		{ "random only", 512, 0, 12 },        { "starts only", 0, 0, 12 },
		{ "single start", 0, 0, 1 } };
	const int queries = o.repeats > 0 ? o.repeats : ( o.quick ? 6 : 30 );
	const int oracleQueries = o.oracleCases >= 0 ? o.oracleCases : ( o.quick ? 2 : 12 );
	struct Cell
	{
		std::string model;
		int tris = 0, queries = 0, valid = 0, oracleCases = 0, within1 = 0;
		double medianMs = 0, pdiOverDistance = 0;
	};
	// cells[s] holds setting s's row per model.
	std::vector<std::vector<Cell>> cells( settings.size() );
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	forEachPdModel( o,
					[&]( const ModelSpec& spec, Model& model, Rng& rng )
					{
						const pdMesh* mesh = model.mesh;
						const pdTransform pb = pdIdentityTransform();
						// The pd-random poses, and the oracle's PD on the first of them.
						std::vector<pdTransform> poses;
						std::vector<double> exact;
						for ( int q = 0; q < queries; ++q )
						{
							pdTransform pa;
							if ( !randomColliding( rng, mesh, mesh, ws, &pa ) )
								continue;
							poses.push_back( pa );
							pdVec3 direction;
							bool oracle = q < oracleQueries && model.triangles() <= 12000;
							exact.push_back(
								oracle ? directionalOracle( mesh, pa, mesh, pb, o.quick ? 200 : 600, ws, &direction )
									   : 0.0 );
						}
						for ( size_t s = 0; s < settings.size(); ++s )
						{
							pdPenetrationDef def = pdDefaultPenetrationDef();
							pdPenetrationSettings defSettings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
							def.settings = &defSettings;
							defSettings.randomDirections = settings[s].randomDirections;
							defSettings.coneDirections = settings[s].coneDirections;
							defSettings.maxStarts = settings[s].maxStarts;
							Cell cell;
							cell.model = spec.name;
							cell.tris = model.triangles();
							std::vector<double> ms, ratio;
							for ( size_t q = 0; q < poses.size(); ++q )
							{
								TimedPdQuery t = timePdQuery( mesh, poses[q], def, ws );
								if ( t.status < 0 )
								{
									std::fprintf( stderr, "pd-frontier: %s query %zu failed: %s\n", spec.name, q,
												  pdGetStatusString( t.status ) );
									continue;
								}
								cell.queries++;
								ms.push_back( t.ms );
								cell.valid += t.valid ? 1 : 0;
								ratio.push_back( t.pdiOverDistance );
								if ( exact[q] > 0.0 )
								{
									cell.oracleCases++;
									cell.within1 += t.result.depth <= 1.01 * exact[q] ? 1 : 0;
								}
							}
							cell.medianMs = median( ms );
							cell.pdiOverDistance = median( ratio );
							cells[s].push_back( cell );
						}
					} );
	pdDestroyWorkspace( ws );
	if ( cells[0].empty() )
	{
		std::fprintf( stderr, "pd-frontier: no model measured%s%s\n", o.only.empty() ? "" : " named ", o.only.c_str() );
		return 2;
	}

	// Per setting: the largest and smallest PD/dist over the models, the oracle over all of them.
	struct Summary
	{
		double lo = 0, hi = 0;
		int valid = 0, queries = 0, within1 = 0, oracleCases = 0;
	};
	std::vector<Summary> sums( settings.size() );
	for ( size_t s = 0; s < settings.size(); ++s )
	{
		Summary& m = sums[s];
		for ( size_t k = 0; k < cells[s].size(); ++k )
		{
			const Cell& c = cells[s][k];
			m.lo = k == 0 ? c.pdiOverDistance : std::min( m.lo, c.pdiOverDistance );
			m.hi = k == 0 ? c.pdiOverDistance : std::max( m.hi, c.pdiOverDistance );
			m.valid += c.valid;
			m.queries += c.queries;
			m.within1 += c.within1;
			m.oracleCases += c.oracleCases;
		}
	}
	if ( o.json )
	{
		printJsonObject(
			[&]( Json& j )
			{
				j.beginArray( "settings" );
				for ( size_t s = 0; s < settings.size(); ++s )
				{
					j.beginObject();
					j.field( "name", std::string( settings[s].name ) );
					j.field( "random_directions", settings[s].randomDirections );
					j.field( "cone_directions", settings[s].coneDirections );
					j.field( "max_starts", settings[s].maxStarts );
					j.field( "pd_over_distance_min", sums[s].lo );
					j.field( "pd_over_distance_max", sums[s].hi );
					j.field( "valid", sums[s].valid );
					j.field( "queries", sums[s].queries );
					j.field( "oracle_cases", sums[s].oracleCases );
					j.field( "within_1pct", sums[s].within1 );
					j.objects( "models", cells[s],
							   [&]( const Cell& c )
							   {
								   j.field( "name", c.model );
								   j.field( "tris", c.tris );
								   j.field( "queries", c.queries );
								   j.field( "median_ms", c.medianMs );
								   j.field( "pd_over_distance", c.pdiOverDistance );
								   j.field( "valid", c.valid );
								   j.field( "oracle_cases", c.oracleCases );
								   j.field( "within_1pct", c.within1 );
							   } );
					j.endObject();
				}
				j.endArray();
			} );
		return 0;
	}
	describeMachine( stdout );
	std::printf( "the pd-random poses, %d a model, at each setting of the global search; PD/dist per model, then "
				 "the oracle over all models\n",
				 queries );
	std::printf( "%-22s %6s %5s %6s |", "setting", "random", "cone", "starts" );
	if ( !cells.empty() )
		for ( const Cell& c : cells[0] )
			std::printf( " %9.9s", c.model.c_str() );
	std::printf( " | %-17s | valid\n", "oracle within 1%" );
	for ( size_t s = 0; s < settings.size(); ++s )
	{
		std::printf( "%-22s %6d %5d %6d |", settings[s].name, settings[s].randomDirections, settings[s].coneDirections,
					 settings[s].maxStarts );
		for ( const Cell& c : cells[s] )
			std::printf( " %9.1f", c.pdiOverDistance );
		const Summary& m = sums[s];
		std::printf( " | %3d / %3d (%5.1f%%) | %d / %d\n", m.within1, m.oracleCases,
					 m.oracleCases > 0 ? 100.0 * m.within1 / m.oracleCases : 0.0, m.valid, m.queries );
	}
	return 0;
}

} // namespace bench
