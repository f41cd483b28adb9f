// SPDX-License-Identifier: MIT
// polydepth-sample: runs the Bullet debris or ragdoll scene headless and prints a summary;
// optionally writes frames, a video, a contact sheet, or opens an interactive window.
#include "scene.h"

#ifdef POLYDEPTH_HAVE_RENDER
#include "render.h"
#include "viewer.h"
#endif

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace
{

struct smpOptions
{
	smpSceneConfig config;
	std::string framesDir;
	std::string video;
	std::string sheet;
	std::string series; ///< CSV of per-step figures (step, ms, contacts, penetration) for plots
	int every = 4;
	int width = 960;
	int height = 540;
	bool view = false;
	bool json = false;
	bool hash = false; ///< print only the final state hash (determinism checks across processes)
	bool showContacts = false;
	bool viewTrace = false;   ///< --view: one line per frame on stdout (what the frame did)
	std::string viewCapture;  ///< --view: PNG of the window's framebuffer at viewCaptureStep
	int viewCaptureStep = 30; ///< the scene step whose frame --view-capture writes
};

const char* const kUsage =
	"usage: polydepth-sample debris|ragdoll|tori|assembly|mixed [--algo polydepth|gimpact|convex] [--bodies N] [--steps N]\n"
	"       [--seed S] [--part peg|washers|plates]\n"
	"       [--frames DIR] [--every K] [--video FILE] [--sheet FILE] [--series FILE] [--size WxH] [--view] [--json]\n"
	"       [--show-contacts] [--shapes torus,knot,grate,cup,spoon,bunny] [--debris N] [--models DIR]\n"
	"       [--no-sleep] [--margin M] [--skin R] [--penetration-every N] [--substeps N] [--solver-iterations N] [--hash]\n"
	"       [--record-calls FILE [--record-from S] [--record-steps K]]\n"
	"       [--view-trace] [--view-capture FILE [--view-capture-step K]]\n"
	"  debris   mixed concave bodies falling into an open box (default 32 bodies, 600 steps)\n"
	"  tori     the benchmark: 60 tori of 1,536 triangles, 600 steps of 1/60 s\n"
	"  ragdoll  ragdolls (11 bodies, 10 joints) tumbling down stairs onto a debris heap (default 4)\n"
	"  assembly pegs pushed into holes of 1% and 0.25% radial clearance, washers dropped onto a\n"
	"           shaft, thin plates dropped onto each other (600 steps, sleeping off); --part runs one\n"
	"           of them; the summary adds inserted / threaded counts, insertion depth, wall\n"
	"           penetration, tilt and the time a pair stays deeper than 1% of its thickness\n"
	"  mixed    a heightfield terrain, a plane slope and walls, a dynamic bowl and tori (GImpact\n"
	"           meshes), and boxes, hulls, cylinders, cones, spheres, capsules and compounds dropped\n"
	"           into and onto them (21 bodies, 600 steps, sleeping off); the summary adds the\n"
	"           deepest penetration by pair class (primitive-mesh, primitive-bowl, mesh-terrain,\n"
	"           mesh-plane, mesh-mesh) while landing and once settled\n"
	"  --algo convex  a peer, tori and the assembly's pegs only: each torus a compound of 48 convex\n"
	"         hulls, a peg one hull (Bullet's own GJK/EPA contacts); same mass, inertia and\n"
	"         penetration measurement\n"
	"  --skin R  PolyDepth's solver skin as a fraction of the smaller mesh's size (pdBulletDef.relativeSkin,\n"
	"         default 2.5e-4); 0 puts the contacts at the exact surfaces\n"
	"  --hash prints only the final state hash (0x + 16 hex digits): same scene, seed and steps give\n"
	"         the same hash in every process\n"
	"  --record-calls FILE (PolyDepth) records the plugin calls of steps S..S+K-1 (K 0: to the end) for\n"
	"         `polydepth-bench contact-replay FILE`, which runs them again outside Bullet\n"
	"  --view opens a window (drag: orbit, wheel: zoom, space: pause, N: step, C: contacts,\n"
	"         A: switch algorithm and restart, R: restart, Q/Esc: quit)\n"
	"  --view-trace prints one line per frame (frame, step, algorithm, paused, contacts, keys);\n"
	"  --view-capture FILE writes the window's frame at step --view-capture-step K (default 30) as PNG\n";

[[noreturn]] void smpBadOption( const std::string& message )
{
	std::fprintf( stderr, "polydepth-sample: %s (see --help)\n", message.c_str() );
	std::exit( 2 );
}

bool smpParseInt( const char* text, long lo, long hi, long* out )
{
	if ( text == nullptr || *text == 0 )
		return false;
	char* end = nullptr;
	errno = 0;
	long v = std::strtol( text, &end, 10 );
	if ( errno != 0 || end == text || *end != 0 || v < lo || v > hi )
		return false;
	*out = v;
	return true;
}

smpOptions smpParseOptions( int argc, char** argv )
{
	smpOptions o;
	if ( argc < 2 )
		smpBadOption( "missing scene: debris, ragdoll, tori, assembly or mixed" );
	if ( std::strcmp( argv[1], "--help" ) == 0 || std::strcmp( argv[1], "-h" ) == 0 )
	{
		std::fputs( kUsage, stdout );
		std::exit( 0 );
	}
	if ( !smpParseSceneKind( argv[1], &o.config.kind ) )
		smpBadOption( std::string( "unknown scene '" ) + argv[1] + "' (debris, ragdoll, tori, assembly or mixed)" );
	for ( int i = 2; i < argc; ++i )
	{
		std::string arg = argv[i];
		auto value = [&]() -> const char*
		{
			if ( i + 1 >= argc )
				smpBadOption( arg + " needs a value" );
			return argv[++i];
		};
		auto integer = [&]( long lo, long hi ) -> long
		{
			const char* text = value();
			long v = 0;
			if ( !smpParseInt( text, lo, hi, &v ) )
				smpBadOption( arg + " expects an integer in " + std::to_string( lo ) + ".." + std::to_string( hi ) +
							 ", got '" + text + "'" );
			return v;
		};
		if ( arg == "--help" || arg == "-h" )
		{
			std::fputs( kUsage, stdout );
			std::exit( 0 );
		}
		else if ( arg == "--algo" )
		{
			const char* text = value();
			if ( !smpParseSceneAlgo( text, &o.config.algo ) )
				smpBadOption( std::string( "--algo expects polydepth, gimpact or convex, got '" ) + text + "'" );
		}
		else if ( arg == "--bodies" )
		{
			if ( o.config.kind == SMP_SCENE_MIXED )
				smpBadOption( "--bodies: the mixed scene has a fixed layout (21 bodies)" );
			o.config.bodies = (int)integer( 1, o.config.kind == SMP_SCENE_RAGDOLL ? 64 : 4096 );
		}
		else if ( arg == "--debris" )
			o.config.debris = (int)integer( 0, 256 );
		else if ( arg == "--steps" )
			o.config.steps = (int)integer( 1, 10000000 );
		else if ( arg == "--seed" )
			o.config.seed = (unsigned)integer( 0, 4294967295L );
		else if ( arg == "--frames" )
			o.framesDir = value();
		else if ( arg == "--every" )
			o.every = (int)integer( 1, 100000 );
		else if ( arg == "--video" )
			o.video = value();
		else if ( arg == "--sheet" )
			o.sheet = value();
		else if ( arg == "--series" )
			o.series = value();
		else if ( arg == "--size" )
		{
			const char* text = value();
			int w = 0, h = 0;
			char tail = 0;
			if ( std::sscanf( text, "%dx%d%c", &w, &h, &tail ) != 2 || w < 16 || h < 16 || w > 4096 || h > 4096 )
				smpBadOption( std::string( "--size expects WxH with 16..4096 pixels per side, got '" ) + text + "'" );
			o.width = w;
			o.height = h;
		}
		else if ( arg == "--view" )
			o.view = true;
		else if ( arg == "--view-trace" )
			o.viewTrace = true;
		else if ( arg == "--view-capture" )
			o.viewCapture = value();
		else if ( arg == "--view-capture-step" )
			o.viewCaptureStep = (int)integer( 0, 10000000 );
		else if ( arg == "--json" )
			o.json = true;
		else if ( arg == "--hash" )
			o.hash = true;
		else if ( arg == "--show-contacts" )
			o.showContacts = true;
		else if ( arg == "--part" )
		{
			const char* text = value();
			if ( o.config.kind != SMP_SCENE_ASSEMBLY )
				smpBadOption( "--part is an option of the assembly scene" );
			if ( std::strcmp( text, "peg" ) != 0 && std::strcmp( text, "washers" ) != 0 &&
				 std::strcmp( text, "plates" ) != 0 )
				smpBadOption( std::string( "--part expects peg, washers or plates, got '" ) + text + "'" );
			o.config.variant = text;
		}
		else if ( arg == "--shapes" )
			o.config.shapes = value();
		else if ( arg == "--models" )
			o.config.modelsDir = value();
		else if ( arg == "--no-sleep" )
			o.config.sleeping = false;
		else if ( arg == "--margin" )
		{
			const char* text = value();
			char* end = nullptr;
			double m = std::strtod( text, &end );
			if ( end == text || *end != 0 || !( m > 0.0 && m < 1.0 ) )
				smpBadOption( std::string( "--margin expects metres in (0, 1), got '" ) + text + "'" );
			o.config.margin = m;
		}
		else if ( arg == "--skin" )
		{
			const char* text = value();
			char* end = nullptr;
			double r = std::strtod( text, &end );
			if ( end == text || *end != 0 || !( r >= 0.0 && r < 0.1 ) )
				smpBadOption( std::string( "--skin expects a fraction of the mesh size in [0, 0.1), got '" ) + text + "'" );
			o.config.relativeSkin = r;
		}
		else if ( arg == "--substeps" )
			o.config.substeps = (int)integer( 1, 64 );
		else if ( arg == "--solver-iterations" )
			o.config.solverIterations = (int)integer( 1, 1000 );
		else if ( arg == "--penetration-every" )
			o.config.penetrationEvery = (int)integer( 0, 1000000 );
		else if ( arg == "--record-calls" )
			o.config.recordCallsPath = value();
		else if ( arg == "--record-from" )
			o.config.recordFrom = (int)integer( 0, 10000000 );
		else if ( arg == "--record-steps" )
			o.config.recordSteps = (int)integer( 0, 10000000 );
		else
			smpBadOption( "unknown option '" + arg + "'" );
	}
	o.config.recordContacts = o.showContacts;
	return o;
}

void smpPrintTable( const smpScene& scene, const smpSceneMetrics& m )
{
	const smpSceneConfig& c = scene.config();
	std::printf( "polydepth-sample %s: algo %s, seed %u, %d dynamic bodies, %d steps of %.4g s (%d physics substeps, "
				 "%d solver iterations)\n",
				 scene.name(), smpSceneAlgoName( c.algo ), c.seed, m.dynamicBodies, m.steps, c.timeStep, c.substeps,
				 c.solverIterations );
	std::printf( "  %-22s %.2f s\n", "simulated", m.simulatedSeconds );
	std::printf( "  %-22s median %.2f ms, p95 %.2f ms, mean %.2f ms\n", "step time", m.medianStepMs, m.p95StepMs,
				 m.meanStepMs );
	std::printf( "  %-22s mean %.1f, max %d (manifold points)\n", "contacts per step", m.meanContacts, m.maxContacts );
	std::printf( "  %-22s %d of %d (centre below the floor or outside the walls)\n", "bodies lost", m.lost,
				 m.dynamicBodies );
	std::printf( "  %-22s %d\n", "asleep at end", m.asleep );
	if ( m.penetrationSamples > 0 )
		std::printf( "  %-22s %.2f mm (step %d), %.2f mm at the end (pdComputePenetration, %d queries%s)\n",
					 "deepest penetration", 1000.0 * m.maxPenetration, m.maxPenetrationStep,
					 1000.0 * m.finalPenetration, m.penetrationQueries,
					 m.penetrationFailures > 0 ? ( ", " + std::to_string( m.penetrationFailures ) + " failed" ).c_str()
											   : "" );
	else
		std::printf( "  %-22s not measured\n", "deepest penetration" );
	std::printf( "  %-22s %.2f mm (deepest vertex below y = 0)\n", "floor penetration",
				 1000.0 * m.maxFloorPenetration );
	std::printf( "  %-22s %.4f m/s (max speed over the last second)\n", "resting jitter", m.jitter );
	if ( m.joints > 0 )
		std::printf( "  %-22s %d joints, max pivot error %.2f mm, angular error %.3f rad, beyond limits %.3f rad\n",
					 "ragdoll joints", m.joints, 1000.0 * m.maxJointError, m.maxJointAngleError, m.maxLimitViolation );
	std::printf( "  %-22s %s\n", "finite", m.finite ? "yes" : "NO (NaN or Inf in a body state)" );
	for ( const smpSceneFigure& f : scene.figures() )
		std::printf( "  %-34s %.6g  %s\n", f.key.c_str(), f.value, f.label.c_str() );
	std::printf( "  %-22s 0x%016" PRIx64 "\n", "state hash", m.hash );
}

void smpPrintJson( const smpScene& scene, const smpSceneMetrics& m )
{
	const smpSceneConfig& c = scene.config();
	std::printf( "{\"scene\": \"%s\", \"algo\": \"%s\", \"seed\": %u, \"bodies\": %d, \"steps\": %d, "
				 "\"substeps\": %d, \"solver_iterations\": %d, "
				 "\"simulated_s\": %.6g, \"median_ms\": %.6g, \"p95_ms\": %.6g, \"mean_ms\": %.6g, "
				 "\"contacts\": %.6g, \"max_contacts\": %d, \"lost\": %d, \"asleep\": %d, "
				 "\"max_penetration\": %.6g, \"max_penetration_step\": %d, \"final_penetration\": %.6g, "
				 "\"penetration_queries\": %d, \"penetration_failures\": %d, \"floor_penetration\": %.6g, "
				 "\"jitter\": %.6g, \"joints\": %d, \"max_joint_error\": %.6g, \"max_joint_angle_error\": %.6g, "
				 "\"max_limit_violation\": %.6g, "
				 "\"finite\": %s, \"hash\": \"0x%016" PRIx64 "\", \"body_size\": %.6g",
				 scene.name(), smpSceneAlgoName( c.algo ), c.seed, m.dynamicBodies, m.steps, c.substeps,
				 c.solverIterations, m.simulatedSeconds,
				 m.medianStepMs, m.p95StepMs, m.meanStepMs, m.meanContacts, m.maxContacts, m.lost, m.asleep,
				 m.maxPenetration, m.maxPenetrationStep, m.finalPenetration, m.penetrationQueries,
				 m.penetrationFailures, m.maxFloorPenetration, m.jitter, m.joints, m.maxJointError,
				 m.maxJointAngleError, m.maxLimitViolation, m.finite ? "true" : "false", m.hash, m.bodySize );
	for ( const smpSceneFigure& f : scene.figures() )
		std::printf( std::isfinite( f.value ) ? ", \"%s\": %.9g" : ", \"%s\": null", f.key.c_str(), f.value );
	std::printf( "}\n" );
}

#ifdef POLYDEPTH_HAVE_RENDER

/// Render meshes made once per scene mesh (bodies share meshes).
class smpSceneDrawer
{
  public:
	~smpSceneDrawer() { clear(); }
	void clear()
	{
		for ( auto& entry : m_meshes )
			smpDestroyRenderMesh( entry.second );
		m_meshes.clear();
	}

	void draw( smpRenderer* renderer, const smpScene& scene, const double eye[3], const double target[3],
			   bool showContacts )
	{
		smpRenderFrameDef frame = smpDefaultRenderFrameDef();
		for ( int k = 0; k < 3; ++k )
		{
			frame.eye[k] = eye[k];
			frame.target[k] = target[k];
		}
		smpRenderer_Begin( renderer, &frame );
		for ( int i = 0; i < scene.bodyCount(); ++i )
		{
			smpSceneMesh mesh = scene.bodyMesh( i );
			smpRenderMesh*& rm = m_meshes[mesh.vertices];
			if ( rm == nullptr )
				rm = smpCreateRenderMesh( mesh.vertices, mesh.vertexCount, mesh.indices, mesh.triangleCount, 40.0 );
			pdTransform pose = scene.bodyPose( i );
			smpRenderPose rp = { { pose.q.w, pose.q.x, pose.q.y, pose.q.z }, { pose.p.x, pose.p.y, pose.p.z } };
			float rgb[3];
			scene.bodyColor( i, rgb );
			// The static environment is one-sided (walls facing the camera away are culled, a
			// cut-away view); bodies are lit on both sides, as loaded soups may be wound either way.
			unsigned flags = scene.bodyIsStatic( i ) ? 0u : (unsigned)( SMP_RENDER_CAST_SHADOW | SMP_RENDER_TWO_SIDED );
			smpRenderer_DrawMesh( renderer, rm, &rp, rgb, flags );
		}
		if ( showContacts )
		{
			const float red[3] = { 0.95f, 0.10f, 0.10f };
			const float yellow[3] = { 1.0f, 0.85f, 0.10f };
			for ( const smpSceneContact& c : scene.contacts() )
			{
				double tip[3] = { c.point[0] + 0.15 * c.normal[0], c.point[1] + 0.15 * c.normal[1],
								  c.point[2] + 0.15 * c.normal[2] };
				smpRenderer_DrawLine( renderer, c.point, tip, yellow );
				smpRenderer_DrawPoint( renderer, c.point, red, 4.0f );
			}
		}
		smpRenderer_End( renderer );
	}

  private:
	std::map<const double*, smpRenderMesh*> m_meshes;
};

std::string smpLabel( const smpScene& scene )
{
	char text[128];
	std::snprintf( text, sizeof( text ), "%s %s  t=%.2fs", scene.name(), smpSceneAlgoName( scene.config().algo ),
				   scene.stepIndex() * scene.config().timeStep );
	return text;
}

/// One --view-trace line: "frame" (drawn) or "quit" (the loop ends), the frame's number, the scene
/// step drawn, the viewer's state, the keys the frame handled (ASCII codes, 27 Escape; "-" none)
/// and whether the window was closed. Flushed, so that a driver can follow it.
void smpPrintViewTrace( const char* what, long frame, const smpScene& scene, const smpViewerState& view,
						const smpWindowInput& input )
{
	std::string keys;
	for ( int k = 0; k < input.keyCount; ++k )
		keys += ( k > 0 ? "," : "" ) + std::to_string( input.keys[k] );
	std::printf( "view %s=%ld step=%d algo=%s paused=%d contacts=%d keys=%s closed=%d\n", what, frame,
				 scene.stepIndex(), smpSceneAlgoName( scene.config().algo ), view.paused ? 1 : 0,
				 view.showContacts ? 1 : 0, keys.empty() ? "-" : keys.c_str(), input.closed ? 1 : 0 );
	std::fflush( stdout );
}

int smpRunView( smpOptions& o )
{
	char reason[256] = "";
	if ( !smpWindowAvailable( reason, sizeof( reason ) ) )
	{
		std::fprintf( stderr, "polydepth-sample: --view: %s\n", reason );
		return 2;
	}
	smpWindow* window = smpCreateWindow( o.width, o.height, "polydepth-sample", reason, sizeof( reason ) );
	if ( window == nullptr )
	{
		std::fprintf( stderr, "polydepth-sample: --view: %s\n", reason );
		return 2;
	}
	char error[256] = "";
	// The window's own OpenGL context: the process never loads OSMesa (see render/gl_api.h).
	smpRenderer* renderer = smpWindow_CreateRenderer( window, error, sizeof( error ) );
	if ( renderer == nullptr )
	{
		std::fprintf( stderr, "polydepth-sample: %s\n", error );
		smpDestroyWindow( window );
		return 1;
	}
	o.config.recordContacts = true;
	std::string message;
	std::unique_ptr<smpScene> scene = smpScene::create( o.config, &message );
	if ( !scene )
	{
		std::fprintf( stderr, "polydepth-sample: %s\n", message.c_str() );
		smpDestroyRenderer( renderer );
		smpDestroyWindow( window );
		return 1;
	}
	double eye[3], target[3];
	scene->camera( eye, target );
	smpViewerState view;
	// A cycles through the algorithms; the convex peer only where it builds (tori).
	bool convexPeer =
		o.config.kind == SMP_SCENE_TORI || ( o.config.kind == SMP_SCENE_ASSEMBLY && o.config.variant == "peg" );
	int algorithms = convexPeer ? 3 : 2;
	smpViewer_Init( &view, eye, target, (int)o.config.algo, algorithms, o.showContacts );
	smpSceneDrawer drawer;
	bool captured = false;
	// The loop ends when the window closes or on Q/Esc; each pass is one frame. The input
	// handling is smpViewer_Update (tested without a window in tests/samples/test_viewer.cpp).
	for ( long frame = 0; frame < 100000000L; ++frame )
	{
		smpWindowInput input;
		smpWindow_Poll( window, &input );
		smpViewerActions act = smpViewer_Update( &view, &input, scene->stepIndex() >= scene->stepCount() );
		if ( act.quit )
		{
			if ( o.viewTrace )
				smpPrintViewTrace( "quit", frame, *scene, view, input );
			break;
		}
		if ( act.restart )
		{
			o.config.algo = (smpSceneAlgo)view.algorithm;
			std::unique_ptr<smpScene> next = smpScene::create( o.config, &message );
			if ( next )
			{
				drawer.clear();
				scene = std::move( next );
			}
			else
			{
				// Keep the running scene and its algorithm.
				std::fprintf( stderr, "polydepth-sample: %s\n", message.c_str() );
				o.config.algo = scene->config().algo;
				view.algorithm = (int)o.config.algo;
			}
		}
		smpViewer_GetEye( &view, eye );
		for ( int k = 0; k < 3; ++k )
			target[k] = view.target[k];
		if ( act.step && scene->stepIndex() < scene->stepCount() )
			scene->step();
		if ( input.width > 0 && input.height > 0 )
			smpRenderer_Resize( renderer, input.width, input.height );
		drawer.draw( renderer, *scene, eye, target, view.showContacts );
		const uint8_t white[3] = { 255, 255, 255 };
		smpRenderer_DrawLabel( renderer, 10, 10, ( smpLabel( *scene ) + ( view.paused ? "  (PAUSED)" : "" ) ).c_str(),
							   2, white );
		if ( !o.viewCapture.empty() && !captured && scene->stepIndex() == o.viewCaptureStep )
		{
			captured = true;
			char message[512] = "";
			if ( !smpWritePng( o.viewCapture.c_str(), smpRenderer_ReadPixels( renderer ),
							   smpRenderer_GetWidth( renderer ), smpRenderer_GetHeight( renderer ), message,
							   sizeof( message ) ) )
				std::fprintf( stderr, "polydepth-sample: %s\n", message );
			else if ( o.viewTrace )
				std::printf( "view capture step=%d file=%s\n", scene->stepIndex(), o.viewCapture.c_str() );
		}
		if ( o.viewTrace )
			smpPrintViewTrace( "frame", frame, *scene, view, input );
		smpWindow_SwapBuffers( window );
	}
	drawer.clear();
	smpDestroyRenderer( renderer );
	smpDestroyWindow( window );
	smpSceneMetrics m = scene->metrics();
	if ( o.json )
		smpPrintJson( *scene, m );
	else
		smpPrintTable( *scene, m );
	return 0;
}

#endif

} // namespace

/// Steps a scene and, when a path is given, writes one CSV row per step: the step's wall time,
/// its contact points, and the body-body and below-floor penetrations at the latest sample.
class smpSeriesWriter
{
public:
	explicit smpSeriesWriter( const std::string& path )
	{
		if ( !path.empty() )
		{
			m_file = std::fopen( path.c_str(), "w" );
			m_failed = m_file == nullptr;
			if ( m_file != nullptr )
				std::fprintf( m_file, "step,ms,contacts,penetration_m,floor_m\n" );
		}
	}
	~smpSeriesWriter()
	{
		if ( m_file != nullptr )
			std::fclose( m_file );
	}
	bool ok() const { return !m_failed; }
	bool step( smpScene& scene )
	{
		auto t0 = std::chrono::steady_clock::now();
		bool more = scene.step();
		double ms = std::chrono::duration<double, std::milli>( std::chrono::steady_clock::now() - t0 ).count();
		if ( m_file != nullptr )
		{
			smpSceneMetrics m = scene.metrics();
			// metrics() keeps a running mean of contacts; recover this step's count from it.
			double total = m.meanContacts * m.steps;
			std::fprintf( m_file, "%d,%.4f,%.0f,%.6f,%.6f\n", m.steps, ms, total - m_contactTotal, m.finalPenetration,
						  m.lastFloorPenetration );
			m_contactTotal = total;
		}
		return more;
	}

private:
	FILE* m_file = nullptr;
	bool m_failed = false;
	double m_contactTotal = 0.0;
};

int main( int argc, char** argv )
{
	smpOptions o = smpParseOptions( argc, argv );
	bool pictures = !o.framesDir.empty() || !o.video.empty() || !o.sheet.empty();

#ifdef POLYDEPTH_HAVE_RENDER
	if ( o.view )
		return smpRunView( o );
#else
	if ( o.view || pictures )
	{
		std::fprintf( stderr, "polydepth-sample: built without the renderer (OSMesa and libpng); no pictures\n" );
		return 2;
	}
#endif

	bool haveFfmpeg = false;
	if ( !o.video.empty() )
	{
		haveFfmpeg = std::system( "command -v ffmpeg >/dev/null 2>&1" ) == 0;
		if ( !haveFfmpeg )
			std::fprintf( stderr, "polydepth-sample: ffmpeg is not installed; --video %s is skipped%s\n",
						  o.video.c_str(), o.framesDir.empty() ? "" : " (the frames are still written)" );
	}

	std::string error;
	std::unique_ptr<smpScene> scene = smpScene::create( o.config, &error );
	if ( !scene )
	{
		std::fprintf( stderr, "polydepth-sample: %s\n", error.c_str() );
		return 1;
	}

#ifdef POLYDEPTH_HAVE_RENDER
	smpRenderer* renderer = nullptr;
	smpSceneDrawer drawer;
	std::string frameDir = o.framesDir;
	bool temporaryFrames = false;
	const int tileW = 480, tileH = 270, sheetMoments = 6;
	std::vector<std::vector<uint8_t>> tiles;
	std::vector<int> sheetSteps;
	smpRenderer* tileRenderer = nullptr;
	if ( pictures )
	{
		char message[256] = "";
		renderer = smpCreateRenderer( o.width, o.height, 2, message, sizeof( message ) );
		if ( renderer == nullptr )
		{
			std::fprintf( stderr, "polydepth-sample: %s\n", message );
			return 1;
		}
		if ( frameDir.empty() && haveFfmpeg )
		{
			char pattern[] = "/tmp/polydepth-sample-XXXXXX";
			if ( mkdtemp( pattern ) == nullptr )
			{
				std::fprintf( stderr, "polydepth-sample: cannot create a temporary frame directory\n" );
				smpDestroyRenderer( renderer );
				return 1;
			}
			frameDir = pattern;
			temporaryFrames = true;
		}
		if ( !frameDir.empty() )
		{
			std::error_code ec;
			std::filesystem::create_directories( frameDir, ec );
			if ( ec )
			{
				std::fprintf( stderr, "polydepth-sample: %s: cannot create directory (%s)\n", frameDir.c_str(),
							  ec.message().c_str() );
				smpDestroyRenderer( renderer );
				return 1;
			}
		}
		if ( !o.sheet.empty() )
		{
			tileRenderer = smpCreateRenderer( tileW, tileH, 2, message, sizeof( message ) );
			if ( tileRenderer == nullptr )
			{
				std::fprintf( stderr, "polydepth-sample: %s\n", message );
				smpDestroyRenderer( renderer );
				return 1;
			}
			for ( int k = 0; k < sheetMoments; ++k )
				sheetSteps.push_back( (int)( (long)scene->stepCount() * k / ( sheetMoments - 1 ) ) );
		}
	}
	double eye[3], target[3];
	scene->camera( eye, target );
	int frameIndex = 0;
	bool writeFailed = false;
	auto capture = [&]()
	{
		if ( !frameDir.empty() && scene->stepIndex() % o.every == 0 && !writeFailed )
		{
			drawer.draw( renderer, *scene, eye, target, o.showContacts );
			char path[4096];
			std::snprintf( path, sizeof( path ), "%s/frame_%05d.png", frameDir.c_str(), frameIndex++ );
			char message[512] = "";
			const uint8_t* p = smpRenderer_GetPixels( renderer );
			std::vector<uint8_t> labelled( p, p + 4 * o.width * o.height );
			const uint8_t white[3] = { 255, 255, 255 };
			smpDrawLabel( labelled.data(), o.width, o.height, 10, 10, smpLabel( *scene ).c_str(), o.width >= 640 ? 2 : 1,
						 white );
			if ( !smpWritePng( path, labelled.data(), o.width, o.height, message, sizeof( message ) ) )
			{
				std::fprintf( stderr, "polydepth-sample: %s\n", message );
				writeFailed = true;
			}
		}
		if ( tileRenderer != nullptr &&
			 std::find( sheetSteps.begin(), sheetSteps.end(), scene->stepIndex() ) != sheetSteps.end() &&
			 (int)tiles.size() < sheetMoments )
		{
			drawer.draw( tileRenderer, *scene, eye, target, o.showContacts );
			const uint8_t* p = smpRenderer_GetPixels( tileRenderer );
			tiles.emplace_back( p, p + 4 * tileW * tileH );
			const uint8_t white[3] = { 255, 255, 255 };
			smpDrawLabel( tiles.back().data(), tileW, tileH, 8, 8, smpLabel( *scene ).c_str(), 2, white );
		}
	};
	smpSeriesWriter series( o.series );
	if ( !series.ok() )
	{
		std::fprintf( stderr, "polydepth-sample: %s: cannot write the series file\n", o.series.c_str() );
		return 2;
	}
	if ( pictures )
		capture();
	while ( series.step( *scene ) )
	{
		if ( pictures )
			capture();
	}
	if ( pictures )
		capture();
#else
	smpSeriesWriter series( o.series );
	if ( !series.ok() )
	{
		std::fprintf( stderr, "polydepth-sample: %s: cannot write the series file\n", o.series.c_str() );
		return 2;
	}
	while ( series.step( *scene ) )
	{
	}
#endif

	smpSceneMetrics m = scene->metrics();
	int status = 0;

#ifdef POLYDEPTH_HAVE_RENDER
	if ( tileRenderer != nullptr && !tiles.empty() )
	{
		std::vector<const uint8_t*> pointers;
		for ( const auto& t : tiles )
			pointers.push_back( t.data() );
		int sw = 0, sh = 0;
		smpComposeSheet( pointers.data(), (int)pointers.size(), tileW, tileH, 3, 6, nullptr, &sw, &sh );
		std::vector<uint8_t> sheet( (size_t)sw * sh * 4 );
		smpComposeSheet( pointers.data(), (int)pointers.size(), tileW, tileH, 3, 6, sheet.data(), &sw, &sh );
		char message[512] = "";
		if ( !smpWritePng( o.sheet.c_str(), sheet.data(), sw, sh, message, sizeof( message ) ) )
		{
			std::fprintf( stderr, "polydepth-sample: %s\n", message );
			status = 1;
		}
	}
	if ( !o.video.empty() && haveFfmpeg && !writeFailed && frameIndex > 0 )
	{
		double fps = 1.0 / ( scene->config().timeStep * o.every );
		std::string command = "ffmpeg -y -loglevel error -framerate " + std::to_string( fps ) + " -i '" + frameDir +
							  "/frame_%05d.png' -c:v libx264 -pix_fmt yuv420p -vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' '" +
							  o.video + "'";
		if ( std::system( command.c_str() ) != 0 )
		{
			std::fprintf( stderr, "polydepth-sample: ffmpeg failed to encode %s\n", o.video.c_str() );
			status = 1;
		}
	}
	if ( temporaryFrames )
	{
		std::error_code ec;
		std::filesystem::remove_all( frameDir, ec );
	}
	if ( writeFailed )
		status = 1;
	drawer.clear();
	smpDestroyRenderer( tileRenderer );
	smpDestroyRenderer( renderer );
#endif

	if ( o.hash )
		std::printf( "0x%016" PRIx64 "\n", m.hash );
	else if ( o.json )
		smpPrintJson( *scene, m );
	else
		smpPrintTable( *scene, m );
	return status;
}
