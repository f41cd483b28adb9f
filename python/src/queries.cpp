// SPDX-License-Identifier: MIT
// One query per call: penetration, distance, collide and ccd, their result classes, and the C
// timing loop the overhead benchmark compares the Python call with.
#include "bindings.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <type_traits>
#include <string>

namespace polydepth::python
{

// ---------------------------------------------------------------------------------------------
// Options, one table per def (names are the snake_case of the def fields)

#define PDI_FIELD( def, name, cName, kind, doc )                                                                        \
	{                                                                                                                  \
		name, #cName, OptionField::kind, offsetof( def, cName ), doc                                                   \
	}

#define PDI_DEF_FIELD( name, cName, kind, doc )                                                                     \
	{                                                                                                                  \
		name, #cName, OptionField::kind, offsetof( PenetrationOptions, def ) + offsetof( pdPenetrationDef, cName ), doc \
	}
#define PDI_SETTING( name, cName, kind, doc )                                                                          \
	{                                                                                                                  \
		name, #cName, OptionField::kind,                                                                               \
			offsetof( PenetrationOptions, settings ) + offsetof( pdPenetrationSettings, cName ), doc                   \
	}

static const OptionField kPenetrationFields[] = {
	PDI_DEF_FIELD( "contact_tolerance", contactTolerance, Double,
				   "world units: the answer leaves A and B at most touching, overlapping by less than this; <= 0 "
				   "means 1e-4 of the smaller bounding-box diagonal (finite)" ),
	PDI_DEF_FIELD( "max_iterations", maxIterations, Int, "PolyDepth iterations per start (1 to 100000)" ),
	PDI_DEF_FIELD( "time_budget_ms", timeBudgetMs, Double,
				   "wall-clock budget in milliseconds, 0 = none (>= 0); when it runs out the status is TIME_LIMIT "
				   "and the answer the best bound so far" ),
	PDI_DEF_FIELD( "quality", quality, Int,
				   "QUALITY_ACCURATE (the full global search) or QUALITY_FAST (the contact plugin's): the preset of "
				   "the research settings below that are not given" ),
	PDI_DEF_FIELD( "closed_as_solid", closedAsSolid, Bool,
				   "closed meshes are solids (one inside the other is penetration)" ),
	PDI_SETTING( "start_strategies", startStrategies, Unsigned,
				 "research: START_* bits, the free-configuration strategies tried (a subset of START_ALL)" ),
	PDI_SETTING( "max_starts", maxStarts, Int, "research: free configurations refined at most (1 to 1024)" ),
	PDI_SETTING( "max_contact_planes", maxContactPlanes, Int,
				 "research: contact planes kept for the in-projection (1 to 256)" ),
	PDI_SETTING( "max_lcp_iterations", maxLcpIterations, Int,
				 "research: projected Gauss-Seidel sweeps per in-projection (1 to 100000)" ),
	PDI_SETTING( "random_directions", randomDirections, Int,
				 "research: directions tried by START_RANDOM (0 to 4096)" ),
	PDI_SETTING( "random_seed", randomSeed, Unsigned, "research: seed of START_RANDOM (answers are deterministic)" ),
	PDI_SETTING( "cone_directions", coneDirections, Int,
				 "research: directions probed around the best answer's direction, 0 = off (0 to 4096)" ),
	PDI_SETTING( "line_refinement", lineRefinement, Bool,
				 "research: line-sampling refinement of a free start toward the query" ),
	PDI_SETTING( "use_orientation_pruning", useOrientationPruning, Bool,
				 "research: drop inapplicable feature pairs from the contact space" ),
	PDI_SETTING( "use_orientation_culling", useOrientationCulling, Bool,
				 "research: skip back-facing triangles of closed meshes in the out-projection" ),
	PDI_SETTING( "use_convex_exact_path", useConvexExactPath, Bool,
				 "research: exact PD from the orientation-graph overlay when both meshes are convex" ),
	PDI_SETTING( "max_tracked_queries", maxTrackedQueries, Int,
				 "research: with a cache, queries in a row answered by refining the cached contact and searching "
				 "around it instead of the full search, 0 = always the full search (0 to 100000)" ),
};
#undef PDI_DEF_FIELD
#undef PDI_SETTING
static const PenetrationOptions kPenetrationDefaults = { pdDefaultPenetrationDef(),
														 pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE ) };
const OptionTable kPenetrationOptions = { "penetration", kPenetrationFields,
										  (int)( sizeof( kPenetrationFields ) / sizeof( kPenetrationFields[0] ) ),
										  &kPenetrationDefaults, sizeof( PenetrationOptions ) };

void finishPenetrationOptions( const OptionTable& table, const std::vector<int>& set, PenetrationOptions* options )
{
	pdPenetrationSettings preset = pdDefaultPenetrationSettings( options->def.quality );
	const size_t begin = offsetof( PenetrationOptions, settings );
	for ( int i = 0; i < table.count; ++i )
	{
		const OptionField& f = table.fields[i];
		if ( f.offset < begin || std::find( set.begin(), set.end(), i ) != set.end() )
			continue;
		size_t size = f.kind == OptionField::Bool ? sizeof( bool ) : f.kind == OptionField::Double ? sizeof( double )
																									: sizeof( int );
		std::memcpy( reinterpret_cast<char*>( options ) + f.offset,
					 reinterpret_cast<const char*>( &preset ) + ( f.offset - begin ), size );
	}
}

static const OptionField kDistanceFields[] = {
	PDI_FIELD( pdDistanceDef, "lower_bound", lowerBound, Double,
			  "world units: stop once the distance is proven below it (result.stopped_below), 0 = off (not NaN)" ),
	PDI_FIELD( pdDistanceDef, "upper_bound", upperBound, Double,
			  "world units: stop once the distance is proven above it (result.stopped_above), inf = off (not NaN)" ),
	PDI_FIELD( pdDistanceDef, "max_node_visits", maxNodeVisits, Int, "cap on BVH node pairs visited (at least 1)" ),
};
static const pdDistanceDef kDistanceDefaults = pdDefaultDistanceDef();
const OptionTable kDistanceOptions = { "distance", kDistanceFields,
									   (int)( sizeof( kDistanceFields ) / sizeof( kDistanceFields[0] ) ),
									   &kDistanceDefaults, sizeof( pdDistanceDef ) };

static const OptionField kCollideFields[] = {
	PDI_FIELD( pdCollideDef, "report_all_pairs", reportAllPairs, Bool,
			  "gather every intersecting triangle pair (else stop at the first)" ),
	PDI_FIELD( pdCollideDef, "max_pairs", maxPairs, Int, "cap on gathered pairs (>= 0)" ),
	PDI_FIELD( pdCollideDef, "check_containment", checkContainment, Bool,
			  "closed meshes: one inside the other without surface contact counts as colliding" ),
	PDI_FIELD( pdCollideDef, "max_node_visits", maxNodeVisits, Int, "cap on BVH node pairs visited (at least 1)" ),
};
static const pdCollideDef kCollideDefaults = pdDefaultCollideDef();
static const OptionTable kCollideOptions = { "collide", kCollideFields,
											 (int)( sizeof( kCollideFields ) / sizeof( kCollideFields[0] ) ),
											 &kCollideDefaults, sizeof( pdCollideDef ) };

static const OptionField kCcdFields[] = {
	PDI_FIELD( pdCcdDef, "contact_tolerance", contactTolerance, Double,
			  "world units: the contact configuration stops at most this short of touching; <= 0 means 1e-4 of "
			  "the smaller bounding-box diagonal (finite)" ),
	PDI_FIELD( pdCcdDef, "max_features", maxFeatures, Int, "cap on reported contact features (>= 0)" ),
	PDI_FIELD( pdCcdDef, "max_node_visits", maxNodeVisits, Int, "cap on BVH node pairs visited (at least 1)" ),
	PDI_FIELD( pdCcdDef, "use_orientation_culling", useOrientationCulling, Bool,
			  "skip primitives that cannot be hit first given the motion (closed meshes)" ),
};
static const pdCcdDef kCcdDefaults = pdDefaultCcdDef();
static const OptionTable kCcdOptions = { "ccd", kCcdFields, (int)( sizeof( kCcdFields ) / sizeof( kCcdFields[0] ) ),
										 &kCcdDefaults, sizeof( pdCcdDef ) };

#undef PDI_FIELD

// Probes: the query on the two probe meshes, apart, with the def to test.
static const pdTransform kProbePoseA = { { 1, 0, 0, 0 }, { 0, 0, 0 } };
static const pdTransform kProbePoseB = { { 1, 0, 0, 0 }, { 3, 0, 0 } };

pdStatus probePenetration( const void* options )
{
	pdPenetrationResult r;
	pdPenetrationDef def = static_cast<const PenetrationOptions*>( options )->resolved();
	return pdComputePenetration( probeMeshA(), &kProbePoseA, probeMeshB(), &kProbePoseB, &def, nullptr,
								 threadWorkspace(), &r );
}

pdStatus probeDistance( const void* def )
{
	pdDistanceResult r;
	return pdComputeDistance( probeMeshA(), &kProbePoseA, probeMeshB(), &kProbePoseB,
							  static_cast<const pdDistanceDef*>( def ), threadWorkspace(), &r );
}

static pdStatus probeCollide( const void* def )
{
	pdCollideResult r;
	return pdCollide( probeMeshA(), &kProbePoseA, probeMeshB(), &kProbePoseB, static_cast<const pdCollideDef*>( def ),
					  threadWorkspace(), &r );
}

static pdStatus probeCcd( const void* def )
{
	pdCcdResult r;
	return pdComputeTranslationalCcd( probeMeshA(), &kProbePoseA, pdVec3{ 1, 0, 0 }, probeMeshB(), &kProbePoseB,
									  static_cast<const pdCcdDef*>( def ), threadWorkspace(), &r );
}

// ---------------------------------------------------------------------------------------------
// The queries

namespace
{

// The meshes and poses of a query's first four arguments.
struct Pair
{
	const pdMesh* a;
	pdTransform poseA;
	const pdMesh* b;
	pdTransform poseB;
};

Pair toPair( py::handle a, py::handle poseA, py::handle b, py::handle poseB )
{
	Pair p;
	p.a = toMesh( a, ArgName{ "a" } );
	p.poseA = toTransform( poseA, ArgName{ "pose_a" } );
	p.b = toMesh( b, ArgName{ "b" } );
	p.poseB = toTransform( poseB, ArgName{ "pose_b" } );
	return p;
}

pdPenetrationCache* toCache( const py::kwargs& kwargs )
{
	if ( !kwargs.contains( "cache" ) || kwargs["cache"].is_none() )
		return nullptr;
	py::handle c = kwargs["cache"];
	if ( !py::isinstance<PenetrationCache>( c ) )
		throw py::type_error( "cache: expected a polydepth.PenetrationCache, got " + typeName( c ) );
	return &c.cast<PenetrationCache&>().cache;
}

// Runs a query without the GIL: the def from the keywords (the table's, less `skip`), the
// calling thread's workspace; raises for a def the library rejects or for bad input it found.
template <class Def, class Run>
void runQuery( const OptionTable& table, const py::kwargs& kwargs, pdStatus ( *probe )( const void* ), Run run,
			   const std::vector<const char*>& skip = {} )
{
	Def def;
	std::vector<int> set;
	applyOptions( table, kwargs, &def, &set, skip );
	if constexpr ( std::is_same_v<Def, PenetrationOptions> )
		finishPenetrationOptions( table, set, &def );
	pdWorkspace* ws = threadWorkspace();
	pdStatus status;
	{
		py::gil_scoped_release release;
		status = run( def, ws );
	}
	if ( status == PD_STATUS_INVALID_DEF )
		raiseInvalidOption( table, &def, set, probe );
	raiseForInputStatus( status, table.function );
}

PenetrationResult penetration( py::handle a, py::handle poseA, py::handle b, py::handle poseB,
							   const py::kwargs& kwargs )
{
	Pair p = toPair( a, poseA, b, poseB );
	pdPenetrationCache* cache = toCache( kwargs );
	PenetrationResult out;
	runQuery<PenetrationOptions>(
		kPenetrationOptions, kwargs, probePenetration,
		[&]( const PenetrationOptions& options, pdWorkspace* ws )
		{
			pdPenetrationDef def = options.resolved();
			return pdComputePenetration( p.a, &p.poseA, p.b, &p.poseB, &def, cache, ws, &out.r );
		},
		{ "cache" } );
	return out;
}

DistanceResult distance( py::handle a, py::handle poseA, py::handle b, py::handle poseB, const py::kwargs& kwargs )
{
	Pair p = toPair( a, poseA, b, poseB );
	DistanceResult out;
	runQuery<pdDistanceDef>( kDistanceOptions, kwargs, probeDistance,
							 [&]( const pdDistanceDef& def, pdWorkspace* ws )
							 { return pdComputeDistance( p.a, &p.poseA, p.b, &p.poseB, &def, ws, &out.r ); } );
	return out;
}

CollideResult collide( py::handle a, py::handle poseA, py::handle b, py::handle poseB, const py::kwargs& kwargs )
{
	Pair p = toPair( a, poseA, b, poseB );
	CollideResult out;
	runQuery<pdCollideDef>( kCollideOptions, kwargs, probeCollide,
							[&]( const pdCollideDef& def, pdWorkspace* ws )
							{
								pdStatus status = pdCollide( p.a, &p.poseA, p.b, &p.poseB, &def, ws, &out.r );
								// The pairs are the workspace's until its next query: copied out.
								out.pairs.assign( out.r.pairs, out.r.pairs + out.r.pairCount );
								out.r.pairs = nullptr;
								return status;
							} );
	return out;
}

CcdResult ccd( py::handle a, py::handle poseA, py::handle b, py::handle poseB, py::handle endPositionA,
			   const py::kwargs& kwargs )
{
	Pair p = toPair( a, poseA, b, poseB );
	pdVec3 end = toVec3( endPositionA, ArgName{ "end_position_a" } );
	CcdResult out;
	runQuery<pdCcdDef>( kCcdOptions, kwargs, probeCcd,
						[&]( const pdCcdDef& def, pdWorkspace* ws )
						{
							pdStatus status =
								pdComputeTranslationalCcd( p.a, &p.poseA, end, p.b, &p.poseB, &def, ws, &out.r );
							out.features.assign( out.r.features, out.r.features + out.r.featureCount );
							out.r.features = nullptr;
							return status;
						} );
	return out;
}

// Seconds per pdComputePenetration call, `repeats` calls in a row with no Python in between
// (the same workspace and def a Python call uses).
py::array_t<double> timeCPenetration( py::handle a, py::handle poseA, py::handle b, py::handle poseB, int repeats,
									  const py::kwargs& kwargs )
{
	if ( repeats < 1 )
		throw py::value_error( "repeats: must be at least 1, got " + std::to_string( repeats ) );
	Pair p = toPair( a, poseA, b, poseB );
	py::array_t<double> seconds( repeats );
	double* s = seconds.mutable_data();
	runQuery<PenetrationOptions>(
		kPenetrationOptions, kwargs, probePenetration,
		[&]( const PenetrationOptions& options, pdWorkspace* ws )
		{
			pdPenetrationDef def = options.resolved();
			pdPenetrationResult r;
			for ( int i = 0; i < repeats; ++i )
			{
				auto t0 = std::chrono::steady_clock::now();
				pdComputePenetration( p.a, &p.poseA, p.b, &p.poseB, &def, nullptr, ws, &r );
				s[i] = std::chrono::duration<double>( std::chrono::steady_clock::now() - t0 ).count();
			}
			return r.status;
		} );
	return seconds;
}

std::string stateName( pdPenetrationState s )
{
	return s == PD_STATE_PENETRATING ? "penetrating" : s == PD_STATE_TOUCHING ? "touching" : "separated";
}

py::array_t<int> triangle_pairs( const std::vector<pdTrianglePair>& pairs )
{
	py::array_t<int> a( { (py::ssize_t)pairs.size(), (py::ssize_t)2 } );
	int* d = a.mutable_data();
	for ( size_t i = 0; i < pairs.size(); ++i )
	{
		d[2 * i] = pairs[i].triangleA;
		d[2 * i + 1] = pairs[i].triangleB;
	}
	return a;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Registration

static void bindEnums( py::module_& m )
{
	py::enum_<pdStatus>( m, "Status",
						 "A query's status: OK (0), a cap that was reached (> 0, the result is still "
						 "valid), or an error (< 0). status.ok, status.message.\n\nExample:\n"
						 "    >>> import polydepth\n"
						 "    >>> polydepth.Status.TIME_LIMIT.ok\n"
						 "    True\n" )
		.value( "OK", PD_STATUS_OK )
		.value( "ITERATION_LIMIT", PD_STATUS_ITERATION_LIMIT )
		.value( "TIME_LIMIT", PD_STATUS_TIME_LIMIT )
		.value( "TRAVERSAL_LIMIT", PD_STATUS_TRAVERSAL_LIMIT )
		.value( "FEATURE_LIMIT", PD_STATUS_FEATURE_LIMIT )
		.value( "INVALID_ARGUMENT", PD_STATUS_INVALID_ARGUMENT )
		.value( "DEF_NOT_INITIALIZED", PD_STATUS_DEF_NOT_INITIALIZED )
		.value( "INVALID_VERTEX", PD_STATUS_INVALID_VERTEX )
		.value( "INVALID_INDEX", PD_STATUS_INVALID_INDEX )
		.value( "EMPTY_MESH", PD_STATUS_EMPTY_MESH )
		.value( "DEGENERATE_MESH", PD_STATUS_DEGENERATE_MESH )
		.value( "DEGENERATE_TRIANGLE", PD_STATUS_DEGENERATE_TRIANGLE )
		.value( "OUT_OF_MEMORY", PD_STATUS_OUT_OF_MEMORY )
		.value( "INVALID_POSE", PD_STATUS_INVALID_POSE )
		.value( "INVALID_MESH", PD_STATUS_INVALID_MESH )
		.value( "FAILED", PD_STATUS_FAILED )
		.value( "INVALID_DEF", PD_STATUS_INVALID_DEF )
		.def_property_readonly(
			"ok", []( pdStatus s ) { return s >= 0; }, "True unless the status is an error" )
		.def_property_readonly(
			"message", []( pdStatus s ) { return std::string( pdGetStatusString( s ) ); }, "the library's text" );
	py::enum_<pdPenetrationState>( m, "State", "Whether A and B overlap, touch (within contact_tolerance) or are apart." "\n\nExample:\n"
		"    >>> import numpy as np, polydepth\n"
		"    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		"    >>> polydepth.penetration(box, polydepth.Pose(translation=(2, 0, 0)), box, np.eye(4)).state.name\n"
		"    'SEPARATED'\n"
 )
		.value( "SEPARATED", PD_STATE_SEPARATED )
		.value( "TOUCHING", PD_STATE_TOUCHING )
		.value( "PENETRATING", PD_STATE_PENETRATING );
	py::enum_<pdFeatureType>( m, "FeatureType", "Which feature of a triangle: a vertex, an edge or the face." "\n\nExample:\n"
		"    >>> import numpy as np, polydepth\n"
		"    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		"    >>> d = polydepth.distance(box, polydepth.Pose(translation=(2, 0, 0)), box, np.eye(4))\n"
		"    >>> d.feature_a.type in (polydepth.FeatureType.VERTEX, polydepth.FeatureType.EDGE, polydepth.FeatureType.FACE)\n"
		"    True\n"
 )
		.value( "VERTEX", PD_FEATURE_VERTEX )
		.value( "EDGE", PD_FEATURE_EDGE )
		.value( "FACE", PD_FEATURE_FACE );
	py::enum_<pdContactKind>( m, "ContactKind",
							  "VF: a vertex of A on a face of B; FV: a face of A on a vertex of "
							  "B; EE: an edge of A on an edge of B." "\n\nExample:\n"
		"    >>> import numpy as np, polydepth\n"
		"    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		"    >>> c = polydepth.ccd(box, polydepth.Pose(translation=(3, 0, 0)), box, np.eye(4), (-3, 0, 0))\n"
		"    >>> sorted({f.kind.name for f in c.features}) <= ['EE', 'FV', 'VF']\n"
		"    True\n"
 )
		.value( "VF", PD_CONTACT_VF )
		.value( "FV", PD_CONTACT_FV )
		.value( "EE", PD_CONTACT_EE );
	m.attr( "START_COHERENCE" ) = (unsigned)PD_START_COHERENCE;
	m.attr( "START_CLEARANCE" ) = (unsigned)PD_START_CLEARANCE;
	m.attr( "START_CENTROID" ) = (unsigned)PD_START_CENTROID;
	m.attr( "START_RANDOM" ) = (unsigned)PD_START_RANDOM;
	m.attr( "START_CONTACT_NORMALS" ) = (unsigned)PD_START_CONTACT_NORMALS;
	m.attr( "START_PRINCIPAL_AXES" ) = (unsigned)PD_START_PRINCIPAL_AXES;
	m.attr( "START_ALL" ) = (unsigned)PD_START_ALL;
	m.attr( "QUALITY_ACCURATE" ) = (int)PD_QUALITY_ACCURATE;
	m.attr( "QUALITY_FAST" ) = (int)PD_QUALITY_FAST;
}

static void bindPenetrationResult( py::module_& m )
{
	py::class_<LocalPenetration>( m, "LocalPenetration",
								  "One contact region after translating A by the global PD: a connected patch of "
								  "contact with one normal." "\n\nExample:\n"
		"    >>> import numpy as np, polydepth\n"
		"    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		"    >>> r = polydepth.penetration(box, polydepth.Pose(translation=(0, 0, 0.9)), box, np.eye(4))\n"
		"    >>> region = r.local[0]\n"
		"    >>> np.round(region.normal, 3).tolist(), round(region.depth, 3), len(region.points) > 0\n"
		"    ([0.0, 0.0, 1.0], 0.1, True)\n"
 )
		.def_property_readonly(
			"normal", []( const LocalPenetration& l ) { return vec3Array( l.l.normal ); },
			"unit normal, world frame, on B pointing toward A" )
		.def_property_readonly(
			"depth", []( const LocalPenetration& l ) { return l.l.depth; },
			"how deep A was along the normal (>= 0, world units)" )
		.def_property_readonly(
			"translation", []( const LocalPenetration& l ) { return vec3Array( l.l.translation ); },
			"depth * normal, world frame" )
		.def_property_readonly(
			"points", []( const LocalPenetration& l ) { return vec3Rows( l.l.points, l.l.pointCount ); },
			"(p, 3) contact points on B's surface at the contact configuration, world frame" )
		.def( "__repr__",
			  []( const LocalPenetration& l )
			  {
				  return "<polydepth.LocalPenetration depth " + std::to_string( l.l.depth ) + ", " +
						 std::to_string( l.l.pointCount ) + " points>";
			  } );

	py::class_<PenetrationResult> result( m, "PenetrationResult", "The answer of penetration() (picklable): state, depth and the translation for "
		"A (world frame, length units of the vertices), the contact regions in local, and diagnostics.\n\n"
		"Example:\n"
		"    >>> import numpy as np, polydepth\n"
		"    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		"    >>> r = polydepth.penetration(box, polydepth.Pose(translation=(0, 0, 0.9)), box, np.eye(4))\n"
		"    >>> [np.round(region.normal, 3).tolist() for region in r.local]\n"
		"    [[0.0, 0.0, 1.0]]\n" );
	addBytePickling<PenetrationResult, pdPenetrationResult, &PenetrationResult::r>( result );
	result
		.def_property_readonly(
			"status", []( const PenetrationResult& p ) { return p.r.status; },
			"Status.OK, or a cap (ITERATION_LIMIT, TIME_LIMIT) with a valid upper bound" )
		.def_property_readonly(
			"state", []( const PenetrationResult& p ) { return p.r.state; },
			"State.PENETRATING, TOUCHING (within contact_tolerance) or SEPARATED" )
		.def_property_readonly(
			"penetrating", []( const PenetrationResult& p ) { return p.r.state == PD_STATE_PENETRATING; },
			"state is State.PENETRATING" )
		.def_property_readonly(
			"depth", []( const PenetrationResult& p ) { return p.r.depth; },
			"|translation| (world units), 0 unless penetrating" )
		.def_property_readonly(
			"translation", []( const PenetrationResult& p ) { return vec3Array( p.r.translation ); },
			"translate A by this (world frame) to leave A and B at most touching" )
		.def_property_readonly(
			"lower_bound", []( const PenetrationResult& p ) { return p.r.lowerBound; },
			"certified lower bound on the PD (world units, at most depth): no shorter translation of A "
			"separates the solids; from the balls inside two closed meshes, 0 for open meshes" )
		.def_property_readonly(
			"local",
			[]( const PenetrationResult& p )
			{
				py::list regions;
				for ( int i = 0; i < p.r.localCount; ++i )
					regions.append( LocalPenetration{ p.r.local[i] } );
				return regions;
			},
			"the contact regions at the answer (LocalPenetration)" )
		.def_property_readonly(
			"iterations", []( const PenetrationResult& p ) { return p.r.iterations; },
			"PolyDepth iterations summed over starts" )
		.def_property_readonly(
			"starts", []( const PenetrationResult& p ) { return p.r.starts; }, "free configurations refined" )
		.def_property_readonly(
			"tracked", []( const PenetrationResult& p ) { return p.r.tracked; },
			"answered by motion coherence (the cached contact refined and searched around, no full search)" )
		.def_property_readonly(
			"contacts", []( const PenetrationResult& p ) { return p.r.contactPlaneCount; },
			"contact planes in the final in-projection" )
		.def_property_readonly(
			"node_visits", []( const PenetrationResult& p ) { return p.r.nodeVisits; }, "BVH node pairs visited" )
		.def_property_readonly(
			"elapsed_ms", []( const PenetrationResult& p ) { return p.r.elapsedMs; },
			"wall time of the query inside the library (ms)" )
		.def( "__repr__",
			  []( const PenetrationResult& p )
			  {
				  return "<polydepth.PenetrationResult " + stateName( p.r.state ) + ", depth " +
						 std::to_string( p.r.depth ) + ", " + std::to_string( p.r.localCount ) + " regions, status " +
						 pdGetStatusString( p.r.status ) + ">";
			  } );
}

static void bindOtherResults( py::module_& m )
{
	py::class_<pdFeature>( m, "Feature",
						   "A feature of a kept triangle (Mesh.input_triangles maps the triangle to its input index)." "\n\nExample:\n"
		"    >>> import numpy as np, polydepth\n"
		"    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		"    >>> f = polydepth.distance(box, polydepth.Pose(translation=(0, 0, 1.5)), box, np.eye(4)).feature_b\n"
		"    >>> 0 <= f.triangle < box.triangle_count\n"
		"    True\n"
 )
		.def_property_readonly(
			"type", []( const pdFeature& f ) { return f.type; }, "FeatureType: vertex, edge or face" )
		.def_readonly( "triangle", &pdFeature::triangle, "kept-triangle index" )
		.def_readonly( "index", &pdFeature::index, "vertex 0..2 or edge 0..2 of the triangle; 0 for the face" )
		.def_readonly( "vertex", &pdFeature::vertex,
					   "mesh vertex of a vertex feature or an edge's first; -1 for a face" );

	py::class_<DistanceResult> distance( m, "DistanceResult", "The answer of distance() (picklable): the distance (length units of the vertices) and "
		"the closest points and features on each mesh, world frame." "\n\nExample:\n"
		"    >>> import numpy as np, polydepth\n"
		"    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		"    >>> d = polydepth.distance(box, polydepth.Pose(translation=(0, 0, 1.5)), box, np.eye(4))\n"
		"    >>> round(d.distance, 6), round(d.point_a[2], 6), round(d.point_b[2], 6)\n"
		"    (0.5, 1.0, 0.5)\n"
 );
	addBytePickling<DistanceResult, pdDistanceResult, &DistanceResult::r>( distance );
	distance.def_property_readonly(
			"status", []( const DistanceResult& d ) { return d.r.status; },
			"Status.OK, or TRAVERSAL_LIMIT when max_node_visits ran out" )
		.def_property_readonly(
			"distance", []( const DistanceResult& d ) { return d.r.distance; },
			"minimum distance, 0 when the surfaces intersect (world units)" )
		.def_property_readonly(
			"point_a", []( const DistanceResult& d ) { return vec3Array( d.r.pointA ); },
			"(3,) float64: the closest point on A, world frame" )
		.def_property_readonly(
			"point_b", []( const DistanceResult& d ) { return vec3Array( d.r.pointB ); },
			"(3,) float64: the closest point on B, world frame" )
		.def_property_readonly(
			"feature_a", []( const DistanceResult& d ) { return d.r.featureA; },
			"the Feature of A the closest point lies on" )
		.def_property_readonly(
			"feature_b", []( const DistanceResult& d ) { return d.r.featureB; },
			"the Feature of B the closest point lies on" )
		.def_property_readonly(
			"stopped_below", []( const DistanceResult& d ) { return d.r.stoppedBelow; },
			"stopped early: the distance is proven below lower_bound" )
		.def_property_readonly(
			"stopped_above", []( const DistanceResult& d ) { return d.r.stoppedAbove; },
			"stopped early: the distance is proven above upper_bound" )
		.def_property_readonly(
			"node_visits", []( const DistanceResult& d ) { return d.r.nodeVisits; },
			"BVH node pairs visited" )
		.def( "__repr__", []( const DistanceResult& d )
			  { return "<polydepth.DistanceResult distance " + std::to_string( d.r.distance ) + ">"; } );

	py::class_<CollideResult>( m, "CollideResult", "The answer of collide(): colliding (also the truth value of the result), containment and the "
		"intersecting triangle pairs." "\n\nExample:\n"
		"    >>> import numpy as np, polydepth\n"
		"    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		"    >>> c = polydepth.collide(box, polydepth.Pose(translation=(0.9, 0, 0)), box, np.eye(4), report_all_pairs=True)\n"
		"    >>> bool(c), c.pairs.shape[1]\n"
		"    (True, 2)\n"
 )
		.def_property_readonly(
			"status", []( const CollideResult& c ) { return c.r.status; },
			"Status.OK, or a cap (TRAVERSAL_LIMIT, FEATURE_LIMIT) reached" )
		.def_property_readonly(
			"colliding", []( const CollideResult& c ) { return c.r.colliding; },
			"the surfaces intersect (or, with check_containment, one closed mesh holds the other)" )
		.def_property_readonly(
			"containment", []( const CollideResult& c ) { return c.r.containment; },
			"colliding because one closed mesh contains the other" )
		.def_property_readonly(
			"pairs", []( const CollideResult& c ) { return triangle_pairs( c.pairs ); },
			"(p, 2) intersecting kept-triangle pairs (A, B)" )
		.def_property_readonly(
			"node_visits", []( const CollideResult& c ) { return c.r.nodeVisits; },
			"BVH node pairs visited" )
		.def( "__bool__", []( const CollideResult& c ) { return c.r.colliding; } )
		.def( "__repr__", []( const CollideResult& c )
			  { return std::string( "<polydepth.CollideResult " ) + ( c.r.colliding ? "colliding" : "free" ) + ">"; } );

	py::class_<ContactFeature>( m, "ContactFeature", "A contact feature pair at a configuration where A and B touch (CcdResult.features)." "\n\nExample:\n"
		"    >>> import numpy as np, polydepth\n"
		"    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		"    >>> c = polydepth.ccd(box, polydepth.Pose(translation=(3, 0, 0)), box, np.eye(4), (-3, 0, 0))\n"
		"    >>> all(abs(f.distance) < 1e-3 and f.normal[0] > 0.99 for f in c.features)\n"
		"    True\n"
 )
		.def_property_readonly(
			"kind", []( const ContactFeature& c ) { return c.f.kind; },
			"ContactKind: VF, FV or EE" )
		.def_property_readonly(
			"feature_a", []( const ContactFeature& c ) { return c.f.featureA; },
			"the Feature of A in contact" )
		.def_property_readonly(
			"feature_b", []( const ContactFeature& c ) { return c.f.featureB; },
			"the Feature of B in contact" )
		.def_property_readonly(
			"point_a", []( const ContactFeature& c ) { return vec3Array( c.f.pointA ); },
			"(3,) float64: the contact point on A, world frame" )
		.def_property_readonly(
			"point_b", []( const ContactFeature& c ) { return vec3Array( c.f.pointB ); },
			"(3,) float64: the contact point on B, world frame" )
		.def_property_readonly(
			"normal", []( const ContactFeature& c ) { return vec3Array( c.f.normal ); },
			"unit, world frame, on B pointing toward A" )
		.def_property_readonly(
			"distance", []( const ContactFeature& c ) { return c.f.distance; },
			"signed separation along the normal (world units)" );

	py::class_<CcdResult>( m, "CcdResult", "The answer of ccd(): whether and when (toc, the fraction of A's motion) A first touches B, A's "
		"position then and the features in contact." "\n\nExample:\n"
		"    >>> import numpy as np, polydepth\n"
		"    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		"    >>> c = polydepth.ccd(box, polydepth.Pose(translation=(3, 0, 0)), box, np.eye(4), (-3, 0, 0))\n"
		"    >>> c.hit, round(c.toc, 3)\n"
		"    (True, 0.333)\n"
 )
		.def_property_readonly(
			"status", []( const CcdResult& c ) { return c.r.status; },
			"Status.OK, or a cap reached (TRAVERSAL_LIMIT, FEATURE_LIMIT)" )
		.def_property_readonly(
			"hit", []( const CcdResult& c ) { return c.r.hit; },
			"A touches B before the end of the motion" )
		.def_property_readonly(
			"start_colliding", []( const CcdResult& c ) { return c.r.startColliding; },
			"A and B already intersect at the start (toc 0)" )
		.def_property_readonly(
			"toc", []( const CcdResult& c ) { return c.r.toc; }, "time of contact in [0, 1]; 1 when there is no hit" )
		.def_property_readonly(
			"contact_position", []( const CcdResult& c ) { return vec3Array( c.r.contactPosition ); },
			"A's position at toc, world frame" )
		.def_property_readonly(
			"features",
			[]( const CcdResult& c )
			{
				py::list out;
				for ( const pdContactFeature& f : c.features )
					out.append( ContactFeature{ f } );
				return out;
			},
			"the contact feature pairs at toc (ContactFeature)" )
		.def_property_readonly(
			"node_visits", []( const CcdResult& c ) { return c.r.nodeVisits; },
			"BVH node pairs visited" )
		.def( "__repr__",
			  []( const CcdResult& c )
			  {
				  return std::string( "<polydepth.CcdResult " ) +
						 ( c.r.hit ? "hit at toc " + std::to_string( c.r.toc ) : "no hit" ) + ">";
			  } );

	py::class_<PenetrationCache>( m, "PenetrationCache",
								  "Motion coherence for one pair queried again and again (the last contact "
								  "configurations): pass it as penetration(..., cache=c). One pair, one thread at "
								  "a time.\n\nExample:\n"
								  "    >>> import numpy as np, polydepth\n"
								  "    >>> box, cache = polydepth.Mesh.box((1, 1, 1)), polydepth.PenetrationCache()\n"
								  "    >>> for z in (0.90, 0.91, 0.92):   # A rising out of B, one step at a time\n"
								  "    ...     r = polydepth.penetration(box, polydepth.Pose(translation=(0, 0, z)), box,\n"
								  "    ...                               np.eye(4), cache=cache)\n"
								  "    >>> round(r.depth, 3)\n"
								  "    0.08\n" )
		.def( py::init<>() )
		.def(
			"reset", []( PenetrationCache& c ) { c.cache = pdPenetrationCache{}; },
			"reset() -> None\n\nForget the pair (before reusing the cache for another one).\n\nExample:\n"
			"    >>> import polydepth\n"
			"    >>> polydepth.PenetrationCache().reset()\n" );
}

static const char* kPoseDoc =
	"A pose is a 4x4 homogeneous matrix (rigid: a rotation block, a translation column, last row [0, 0, 0, 1]), a "
	"polydepth.Pose, or a pair (quaternion (w, x, y, z), translation (x, y, z)).";

const char* const kConventionsDoc =
	"Conventions: poses place each mesh's own coordinates in the world (world = R @ local + t); quaternions "
	"are (w, x, y, z), the scalar first (scipy's Rotation.as_quat() gives (x, y, z, w)). A is the one that "
	"moves: every translation in a result is for A, in the world frame; B stays. Lengths are in the unit of "
	"the vertices (whatever it is: metres, millimetres), times in milliseconds. Normals are unit vectors on B "
	"pointing toward A.";

void bindQueries( py::module_& m )
{
	bindEnums( m );
	bindPenetrationResult( m );
	bindOtherResults( m );
	std::string doc =
		std::string( "penetration(a, pose_a, b, pose_b, *, cache=None, **options) -> PenetrationResult\n\n"
					 "Translational penetration depth (PD) of mesh a at pose_a against mesh b at pose_b: the "
					 "shortest translation of A (world frame, length units of the vertices) after which A and B "
					 "at most touch, with the contact regions there (each its own normal and depth). B does not "
					 "move. A's rotation is kept. " ) +
		kPoseDoc + " cache: a PenetrationCache, for one pair queried again and again (motion coherence).\n\n" +
		kConventionsDoc +
		"\n\nExample:\n"
		"    >>> import numpy as np, polydepth\n"
		"    >>> box = polydepth.Mesh.box((1, 1, 1))            # a unit cube centred on its origin\n"
		"    >>> pose_a = np.eye(4); pose_a[0, 3] = 0.8     # A 0.8 along x: 0.2 deep in B\n"
		"    >>> r = polydepth.penetration(box, pose_a, box, np.eye(4))\n"
		"    >>> r.state.name, round(r.depth, 3), np.round(r.translation, 3).tolist()\n"
		"    ('PENETRATING', 0.2, [0.2, 0.0, 0.0])\n"
		"\nOptions:\n" +
		optionDoc( kPenetrationOptions );
	m.def( "penetration", &penetration, py::arg( "a" ), py::arg( "pose_a" ), py::arg( "b" ), py::arg( "pose_b" ),
		   doc.c_str() );
	doc = std::string( "distance(a, pose_a, b, pose_b, **options) -> DistanceResult\n\nMinimum distance between the "
					   "surfaces (length units of the vertices; 0 when they intersect) and the closest points on "
					   "each, world frame. " ) +
		  kPoseDoc + "\n\n" + kConventionsDoc +
		  "\n\nExample:\n"
		  "    >>> import numpy as np, polydepth\n"
		  "    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		  "    >>> d = polydepth.distance(box, polydepth.Pose(translation=(1.5, 0, 0)), box, np.eye(4))\n"
		  "    >>> round(d.distance, 6)\n"
		  "    0.5\n"
		  "\nOptions:\n" +
		  optionDoc( kDistanceOptions );
	m.def( "distance", &distance, py::arg( "a" ), py::arg( "pose_a" ), py::arg( "b" ), py::arg( "pose_b" ),
		   doc.c_str() );
	doc = std::string( "collide(a, pose_a, b, pose_b, **options) -> CollideResult\n\nWhether the surfaces intersect "
					   "(with check_containment, also whether one closed mesh lies inside the other), and with "
					   "report_all_pairs the intersecting triangle pairs. The result is true when colliding. " ) +
		  kPoseDoc + "\n\n" + kConventionsDoc +
		  "\n\nExample:\n"
		  "    >>> import numpy as np, polydepth\n"
		  "    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		  "    >>> bool(polydepth.collide(box, ((1, 0, 0, 0), (0.9, 0, 0)), box, np.eye(4)))\n"
		  "    True\n"
		  "\nOptions:\n" +
		  optionDoc( kCollideOptions );
	m.def( "collide", &collide, py::arg( "a" ), py::arg( "pose_a" ), py::arg( "b" ), py::arg( "pose_b" ), doc.c_str() );
	doc = std::string( "ccd(a, pose_a, b, pose_b, end_position_a, **options) -> CcdResult\n\nTranslational "
					   "continuous collision: A keeps pose_a's rotation while its position moves linearly from "
					   "pose_a's translation to end_position_a (world frame); B stays at pose_b. The result's toc "
					   "is the fraction of the motion (0 to 1) at first contact, contact_position A's position "
					   "there. " ) +
		  kPoseDoc + "\n\n" + kConventionsDoc +
		  "\n\nExample:\n"
		  "    >>> import numpy as np, polydepth\n"
		  "    >>> box = polydepth.Mesh.box((1, 1, 1))\n"
		  "    >>> c = polydepth.ccd(box, polydepth.Pose(translation=(3, 0, 0)), box, np.eye(4), (-3, 0, 0))\n"
		  "    >>> c.hit, round(c.toc, 3), np.round(c.contact_position, 3).tolist()\n"
		  "    (True, 0.333, [1.0, 0.0, 0.0])\n"
		  "\nOptions:\n" +
		  optionDoc( kCcdOptions );
	m.def( "ccd", &ccd, py::arg( "a" ), py::arg( "pose_a" ), py::arg( "b" ), py::arg( "pose_b" ),
		   py::arg( "end_position_a" ), doc.c_str() );
	m.def( "_time_c_penetration", &timeCPenetration, py::arg( "a" ), py::arg( "pose_a" ), py::arg( "b" ),
		   py::arg( "pose_b" ), py::arg( "repeats" ),
		   "Seconds per C query: pdComputePenetration called `repeats` times in a loop with no Python in between "
		   "(for measuring the binding's overhead)." );
	m.def(
		"defaults",
		[]( const std::string& query )
		{
			for ( const OptionTable* t :
				  { &kPenetrationOptions, &kDistanceOptions, &kCollideOptions, &kCcdOptions, &kMeshOptions } )
				if ( query == t->function )
					return optionDefaults( *t );
			throw py::value_error( "query: expected 'penetration', 'distance', 'collide', 'ccd' or 'Mesh', got '" +
								   query + "'" );
		},
		py::arg( "query" ),
		"defaults(query) -> dict\n\nThe keyword options of a query ('penetration', 'distance', 'collide', "
		"'ccd', 'Mesh') with the library's defaults; help() of the query says what each means and its units."
		"\n\nExample:\n"
		"    >>> import polydepth\n"
		"    >>> polydepth.defaults('distance')['max_node_visits'] > 0\n"
		"    True\n" );
}

} // namespace polydepth::python
