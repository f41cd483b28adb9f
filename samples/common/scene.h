// SPDX-License-Identifier: MIT
// Bullet scenes shared by polydepth-sample, the tests and the debris benchmark: written once,
// driven the same way everywhere (create, step until done, read metrics).
//
//   smpSceneConfig config;                 // defaults: debris, GImpact, seed 1
//   config.kind = SMP_SCENE_TORI;          // the benchmark's 60 tori
//   config.algo = SMP_SCENE_ALGO_POLYDEPTH;
//   std::string error;
//   std::unique_ptr<smpScene> scene = smpScene::create( config, &error );
//   while ( scene && scene->step() ) {}
//   smpSceneMetrics m = scene->metrics();
//
// Units: metres, seconds, kilograms; y is up; the floor is the plane y = 0.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "polydepth/base.h"

/// The directory of the paper's model files: the POLYDEPTH_MODELS environment variable, or ""
/// (none: scenes use generated shapes only).
inline std::string smpDefaultModelsDir()
{
	const char* dir = std::getenv( "POLYDEPTH_MODELS" );
	return dir != nullptr ? dir : "";
}

enum smpSceneKind
{
	SMP_SCENE_DEBRIS = 0,  ///< mixed concave bodies falling into an open box
	SMP_SCENE_TORI = 1,    ///< the benchmark: 60 tori of 1,536 triangles in layers of 4 x 4 (bullet.md section 3)
	SMP_SCENE_RAGDOLL = 2, ///< ragdolls tumbling down stairs onto a heap of concave debris
	/// Pegs pushed into chamfered holes, washers dropped onto a shaft, thin plates dropped onto
	/// each other (scene_assembly.cpp); config.variant picks one part ("peg", "washers",
	/// "plates") or, empty, all three side by side.
	SMP_SCENE_ASSEMBLY = 3,
	/// A game-like scene (scene_mixed.cpp), sleeping off: a btHeightfieldTerrainShape, a
	/// btStaticPlaneShape slope and walls, a dynamic bowl and tori as GImpact meshes, and
	/// primitives of every class (box, convex hull, cylinder, cone, sphere, capsule, compound)
	/// dropped into the bowl and onto the tori; figures by pair class.
	SMP_SCENE_MIXED = 4,
};

enum smpSceneAlgo
{
	SMP_SCENE_ALGO_GIMPACT = 0,   ///< Bullet's btGImpactCollisionAlgorithm for every concave pair
	SMP_SCENE_ALGO_POLYDEPTH = 1, ///< GImpact registered first, then polydepth::bullet::registerAlgorithm
	/// A peer for comparison, not a mesh algorithm: each dynamic torus is a btCompoundShape of 48
	/// btConvexHullShape pieces (one per major segment of its mesh; their union is the mesh), so
	/// Bullet's own convex contacts (GJK/EPA with persistent manifolds, against each other and
	/// against the static btBvhTriangleMeshShape) make every contact. Mass, inertia and the
	/// penetration measurement are those of the other two. Tori only: any other dynamic shape
	/// (debris knots, cups, ..., ragdolls) makes smpScene::create fail with an error.
	SMP_SCENE_ALGO_CONVEX = 2,
	/// A peer of ideal contacts for the scene of spheres (the awake sphere-pour): each sphere a
	/// btSphereShape of the mesh's radius, every sphere pair within 0.1 m given one contact at its
	/// exact gap (sphere_contact.h), spheres against meshes Bullet's own convex-concave contacts.
	/// What Bullet's solver does with perfect contacts; every other scene refuses it with an error.
	SMP_SCENE_ALGO_EXACT = 3,
};

struct smpSceneConfig
{
	smpSceneKind kind = SMP_SCENE_DEBRIS;
	smpSceneAlgo algo = SMP_SCENE_ALGO_GIMPACT;
	/// Debris/tori: dynamic bodies; ragdoll: ragdolls. <= 0 means the scene's default
	/// (debris 32, tori 60, ragdoll 4).
	int bodies = 0;
	/// Ragdoll only: pieces in the debris heap at the bottom of the stairs; < 0 means 12.
	int debris = -1;
	/// Steps of timeStep; <= 0 means the scene's default (600, i.e. 10 s).
	int steps = 0;
	unsigned seed = 1;
	double timeStep = 1.0 / 60.0; ///< seconds per step; stepSimulation( timeStep, substeps, timeStep / substeps )
	/// Bullet physics steps per step (collision detection and solve each time); <= 0 means the
	/// scene's default (debris and tori 1; ragdoll 4, i.e. 240 Hz, which keeps its joints
	/// assembled to millimetres through impacts).
	int substeps = 0;
	/// Sequential-impulse iterations per physics step; <= 0 means the scene's default (debris and
	/// tori Bullet's 10; ragdoll 30, for its chains of joints).
	int solverIterations = 0;
	/// Debris: comma-separated shape mix drawn from "torus,knot,grate,cup,spoon,bunny"
	/// (the bunny only when its file exists). Empty means all of them.
	std::string shapes;
	/// Assembly: "peg", "washers" or "plates" builds that part alone; empty builds all three.
	std::string variant;
	/// Where pqp_spinning_bunny.tris is looked for: the POLYDEPTH_MODELS environment variable by
	/// default; empty (no model files) leaves the bunny out of the debris mix.
	std::string modelsDir = smpDefaultModelsDir();
	/// Body-body penetration is measured with pdComputePenetration every this many steps
	/// (and after the last step); 0 turns the measurement off.
	int penetrationEvery = 30;
	/// Bullet's deactivation (sleeping). The baseline in bullet.md ran with it on.
	bool sleeping = true;
	/// Debris/tori: centre height of the first spawn layer (m); layers are 1.4 m apart. Bodies fit
	/// a 0.65 m sphere, so anything from 0.66 up starts clear of the floor. Default 1.0.
	double spawnHeight = 1.0;
	/// Collision margin of the GImpact parts (m); <= 0 keeps Bullet's default 0.01. The convex
	/// peer's pieces use the same margin (<= 0: 0.01), shrunk into the mesh by it.
	double margin = 0.0;
	/// PolyDepth only: pdBulletDef.relativeSkin (solver skin relative to the smaller mesh's
	/// diagonal); < 0 keeps the shim's default (2.5e-4), 0 puts contacts at the exact surfaces.
	double relativeSkin = -1.0;
	/// > 0: the narrow phase runs on this many threads (polydepth::bullet::ParallelCollisionDispatcher,
	/// Bullet's GImpact pairs on one of them); 0: a plain btCollisionDispatcher.
	int collisionThreads = 0;
	/// Keep the contact points of the last step for smpScene::contacts() (overlays).
	bool recordContacts = false;
	/// PolyDepth only: record the plugin calls of steps [recordFrom, recordFrom + recordSteps)
	/// into this file (pdBullet_StartRecording; recordSteps 0: to the end) for
	/// `polydepth-bench contact-replay`. Empty: no recording.
	std::string recordCallsPath;
	int recordFrom = 0;
	int recordSteps = 0;
};

/// A figure a scene measures beyond smpSceneMetrics (inserted pegs, wall penetration, ...), for
/// the sample's summary and the benchmark's rows.
struct smpSceneFigure
{
	std::string key;   ///< JSON key, snake_case
	double value;      ///< SI units (m, s) unless the key says otherwise (_deg, _steps, counts)
	std::string label; ///< what it is, for a table
};

/// A mesh of a body in its own frame (the frame of the Bullet body).
struct smpSceneMesh
{
	const double* vertices; ///< 3 * vertexCount
	int vertexCount;
	const uint32_t* indices; ///< 3 * triangleCount, counter-clockwise seen from outside
	int triangleCount;
	bool closed; ///< a closed solid (dynamic bodies); the static environment is open, one-sided
};

struct smpSceneContact
{
	double point[3];  ///< on body B, world
	double normal[3]; ///< on B toward A, unit
	double distance;  ///< < 0: penetration (m)
};

struct smpSceneMetrics
{
	int steps = 0;
	double simulatedSeconds = 0.0;
	double medianStepMs = 0.0;
	double p95StepMs = 0.0;
	double meanStepMs = 0.0;
	double meanContacts = 0.0; ///< manifold points summed over all manifolds, mean per step
	int maxContacts = 0;
	int dynamicBodies = 0;
	int lost = 0;   ///< centre below the floor or outside the walls/area
	int asleep = 0; ///< deactivated at the end
	/// Deepest body-body penetration (m) seen by pdComputePenetration over all samples, the
	/// step where it was seen, and the value at the last sample.
	double maxPenetration = 0.0;
	int maxPenetrationStep = -1;
	double finalPenetration = 0.0;
	int penetrationSamples = 0;
	int penetrationQueries = 0;
	int penetrationFailures = 0;      ///< queries that returned an error status (not counted in depths)
	double maxFloorPenetration = 0.0; ///< deepest vertex below y = 0 of a body not lost (m)
	double lastFloorPenetration = 0.0; ///< the same at the latest sample (m)
	/// Max linear speed (m/s) over the last second of bodies that should be at rest (not lost).
	double jitter = 0.0;
	int joints = 0;
	double maxJointError = 0.0; ///< max pivot separation at a joint (m), over the run
	/// Max angle beyond a limit (rad), over the run: hinge angle outside [lo, hi], or swing
	/// outside the cone of a cone-twist joint.
	double maxLimitViolation = 0.0;
	/// Max angular error (rad), over the run: hinge axes out of parallel, or twist beyond the
	/// twist span of a cone-twist joint.
	double maxJointAngleError = 0.0;
	bool finite = true;    ///< no NaN/Inf in any body state at any step
	uint64_t hash = 0;     ///< FNV-1a of every dynamic body's transform and velocities
	double bodySize = 0.0; ///< typical body bounding-box diagonal (m)
};

class smpScene
{
  public:
	/// Builds a scene. Returns nullptr and sets *error (one line) on failure, e.g. when the
	/// PolyDepth algorithm cannot be registered.
	static std::unique_ptr<smpScene> create( const smpSceneConfig& config, std::string* error );

	virtual ~smpScene() = default;

	/// Advances one step. Returns false once the configured step count is reached.
	virtual bool step() = 0;
	/// Steps taken so far.
	virtual int stepIndex() const = 0;
	virtual int stepCount() const = 0;

	/// Every body, static environment first, then dynamic bodies.
	virtual int bodyCount() const = 0;
	virtual bool bodyIsStatic( int body ) const = 0;
	virtual pdTransform bodyPose( int body ) const = 0;
	virtual smpSceneMesh bodyMesh( int body ) const = 0;
	/// RGB in [0, 1], stable per body.
	virtual void bodyColor( int body, float outRgb[3] ) const = 0;

	/// Contact points of the last step (only with config.recordContacts).
	virtual const std::vector<smpSceneContact>& contacts() const = 0;
	/// Metrics so far (penetration at the last sample; call after the last step for the summary).
	virtual smpSceneMetrics metrics() const = 0;
	/// The scene's own figures so far (none for most scenes; call after the last step for the
	/// summary).
	virtual std::vector<smpSceneFigure> figures() const { return {}; }
	/// Hash of all dynamic body transforms and velocities now (bit-exact determinism check).
	virtual uint64_t hash() const = 0;
	/// Measures body-body penetration now (also done automatically every penetrationEvery steps).
	virtual double measurePenetration() = 0;

	virtual const smpSceneConfig& config() const = 0;
	/// A camera that frames the scene: eye and target (m).
	virtual void camera( double outEye[3], double outTarget[3] ) const = 0;
	virtual const char* name() const = 0;
};

/// "debris", "tori", "ragdoll", "assembly", "mixed" -> kind; false for anything else.
bool smpParseSceneKind( const char* text, smpSceneKind* outKind );
/// "polydepth", "gimpact", "convex", "exact" -> algo; false for anything else.
bool smpParseSceneAlgo( const char* text, smpSceneAlgo* outAlgo );
const char* smpSceneAlgoName( smpSceneAlgo algo );

/// The awake scenes (scene_awake.cpp), run with Bullet's sleeping off whatever config.sleeping
/// says: "tori-heap", "torus-chain", "box-stack", "bowl-pour", "kinematic", "torus-drop",
/// "sphere-pour", "tall-stack" (900 steps), the assembly parts "assembly-peg",
/// "assembly-washers", "assembly-plates" (scene_assembly.cpp), and "mixed" (SMP_SCENE_MIXED, a
/// fixed layout). config.bodies and config.steps (<= 0: the scene's default) size them; the
/// convex algorithm builds the tori scenes, the convex bodies of "sphere-pour" and "tall-stack",
/// and "assembly-peg" only.
extern const char* const smpAwakeSceneNames[12];
std::unique_ptr<smpScene> smpCreateAwakeScene( const std::string& name, const smpSceneConfig& config,
											   std::string* error );

/// The assembly scene (SMP_SCENE_ASSEMBLY) with its part chosen by config.variant; the awake
/// benchmark's "assembly-*" scenes are these with sleeping off.
std::unique_ptr<smpScene> smpCreateAssemblyScene( const smpSceneConfig& config, std::string* error );
