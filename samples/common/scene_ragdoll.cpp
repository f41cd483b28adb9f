// SPDX-License-Identifier: MIT
// Ragdolls: 11 bodies and 10 joints each in human proportions (after Bullet's RagdollDemo,
// bullet.md section 4), limbs as tessellated capsules in btGImpactMeshShape, tumbling down
// static stairs (btBvhTriangleMeshShape) onto a heap of concave debris.
#include "scene_world.h"

#include "shapes.h"

#include <cmath>

namespace
{

enum smpBodyPart
{
	SMP_PART_PELVIS,
	SMP_PART_SPINE,
	SMP_PART_HEAD,
	SMP_PART_LEFT_UPPER_LEG,
	SMP_PART_LEFT_LOWER_LEG,
	SMP_PART_RIGHT_UPPER_LEG,
	SMP_PART_RIGHT_LOWER_LEG,
	SMP_PART_LEFT_UPPER_ARM,
	SMP_PART_LEFT_LOWER_ARM,
	SMP_PART_RIGHT_UPPER_ARM,
	SMP_PART_RIGHT_LOWER_ARM,
	SMP_PART_COUNT
};

struct smpPartSpec
{
	double radius, height; // capsule along local y: cylinder height, hemispherical caps
	double x, y, z;        // centre in the ragdoll frame, standing
	double rollZ;          // rotation about z (arms lie along x)
	double mass;
};

// Proportions of the classic Bullet ragdoll (1.8 m tall at scale 1); every part weighs 1 kg as
// in the demo (equal masses keep the sequential-impulse joints stiff).
const smpPartSpec kParts[SMP_PART_COUNT] = {
	{ 0.15, 0.20, 0.00, 1.00, 0, 0, 1.0 },       // pelvis
	{ 0.15, 0.28, 0.00, 1.20, 0, 0, 1.0 },       // spine
	{ 0.10, 0.05, 0.00, 1.60, 0, 0, 1.0 },       // head
	{ 0.07, 0.45, -0.18, 0.65, 0, 0, 1.0 },      // left upper leg
	{ 0.05, 0.37, -0.18, 0.20, 0, 0, 1.0 },      // left lower leg
	{ 0.07, 0.45, 0.18, 0.65, 0, 0, 1.0 },       // right upper leg
	{ 0.05, 0.37, 0.18, 0.20, 0, 0, 1.0 },       // right lower leg
	{ 0.05, 0.33, -0.35, 1.45, 0, M_PI_2, 1.0 }, // left upper arm
	{ 0.04, 0.25, -0.70, 1.45, 0, M_PI_2, 1.0 }, // left lower arm
	{ 0.05, 0.33, 0.35, 1.45, 0, -M_PI_2, 1.0 }, // right upper arm
	{ 0.04, 0.25, 0.70, 1.45, 0, -M_PI_2, 1.0 }, // right lower arm
};

btTransform smpFrame( double ex, double ey, double ez, double x, double y, double z )
{
	btTransform t;
	t.setIdentity();
	t.getBasis().setEulerZYX( btScalar( ex ), btScalar( ey ), btScalar( ez ) );
	t.setOrigin( btVector3( btScalar( x ), btScalar( y ), btScalar( z ) ) );
	return t;
}

/// Stairs descending toward +x: a landing from x = -6 to -4.6 at height steps * rise, then
/// `steps` treads of `run`; treads, risers and both side walls face outward (one-sided).
void smpMakeStairs( int steps, double rise, double run, double halfWidth, std::vector<double>* v,
				   std::vector<uint32_t>* t )
{
	double x0 = -6.0, landing = 1.4;
	for ( int k = 0; k <= steps; ++k )
	{
		double top = ( steps - k ) * rise + rise;
		if ( k == steps )
			break;
		double xa = k == 0 ? x0 : x0 + landing + ( k - 1 ) * run;
		double xb = k == 0 ? x0 + landing : xa + run;
		double w = 2.0 * halfWidth;
		// tread (+y), riser at xb (+x), sides (-z at z = -halfWidth, +z at z = +halfWidth)
		smpSceneAppendQuad( btVector3( btScalar( xa ), btScalar( top ), btScalar( -halfWidth ) ),
						   btVector3( 0, 0, btScalar( w ) ), btVector3( btScalar( xb - xa ), 0, 0 ), 4, v, t );
		smpSceneAppendQuad( btVector3( btScalar( xb ), 0, btScalar( -halfWidth ) ), btVector3( 0, btScalar( top ), 0 ),
						   btVector3( 0, 0, btScalar( w ) ), 4, v, t );
		smpSceneAppendQuad( btVector3( btScalar( xa ), 0, btScalar( -halfWidth ) ),
						   btVector3( btScalar( xb - xa ), 0, 0 ), btVector3( 0, btScalar( top ), 0 ), 2, v, t );
		smpSceneAppendQuad( btVector3( btScalar( xa ), 0, btScalar( halfWidth ) ), btVector3( 0, btScalar( top ), 0 ),
						   btVector3( btScalar( xb - xa ), 0, 0 ), 2, v, t );
	}
}

/// Floor (x in [-6, 6], z in [-3.5, 3.5]) and 1.2 m walls around it, facing in.
void smpMakeArena( std::vector<double>* v, std::vector<uint32_t>* t )
{
	const double h = 1.2, lx = 12.0, lz = 7.0;
	smpSceneAppendQuad( btVector3( -6, 0, -3.5f ), btVector3( 0, 0, lz ), btVector3( lx, 0, 0 ), 12, v, t );
	smpSceneAppendQuad( btVector3( -6, 0, -3.5f ), btVector3( 0, h, 0 ), btVector3( 0, 0, lz ), 4, v, t );
	smpSceneAppendQuad( btVector3( 6, 0, -3.5f ), btVector3( 0, 0, lz ), btVector3( 0, h, 0 ), 4, v, t );
	smpSceneAppendQuad( btVector3( -6, 0, -3.5f ), btVector3( lx, 0, 0 ), btVector3( 0, h, 0 ), 4, v, t );
	smpSceneAppendQuad( btVector3( -6, 0, 3.5f ), btVector3( 0, h, 0 ), btVector3( lx, 0, 0 ), 4, v, t );
}

bool smpMakeHeapShape( int kind, std::vector<double>* v, std::vector<uint32_t>* t )
{
	smpSoup soup = {};
	bool ok = false;
	switch ( kind % 4 )
	{
		case 0:
			ok = smpMakeTorus( 0.3, 0.09, 32, 12, &soup );
			break;
		case 1:
			ok = smpMakeCup( 0.25, 0.4, 0.04, 20, &soup );
			break;
		case 2:
			ok = smpMakeGrate( 0.7, 0.08, 3, &soup );
			break;
		default:
			ok = smpMakeTorusKnot( 2, 3, 1.0, 0.45, 64, 8, &soup );
			break;
	}
	if ( !ok )
		return false;
	v->assign( soup.vertices, soup.vertices + 3 * soup.vertexCount );
	t->assign( soup.indices, soup.indices + 3 * soup.triangleCount );
	smpFreeSoup( &soup );
	if ( v->empty() || t->empty() )
		return false;
	if ( kind % 4 != 0 )
		smpSceneNormalizeMesh( v, 0.8 );
	return true;
}

} // namespace

std::unique_ptr<smpScene> smpCreateRagdollScene( const smpSceneConfig& inConfig, std::string* error )
{
	smpSceneConfig config = inConfig;
	if ( config.bodies <= 0 )
		config.bodies = 4;
	if ( config.debris < 0 )
		config.debris = 12;
	if ( config.steps <= 0 )
		config.steps = 600;
	// Joint pivots drift by about r (w dt)^2 / 2 per physics step on limbs spinning at w (17 rad/s
	// on impact, r = 0.2 m), and Bullet takes back only ERP of it per step: at 60 Hz with ERP 0.2
	// that settles at 4 to 5 cm. 240 Hz, ERP 0.5 and 30 iterations keep it to millimetres.
	if ( config.substeps <= 0 )
		config.substeps = 4;
	if ( config.solverIterations <= 0 )
		config.solverIterations = 30;
	if ( config.bodies > 64 || config.debris > 256 )
	{
		*error = "too many ragdolls (at most 64) or debris pieces (at most 256)";
		return nullptr;
	}

	std::unique_ptr<smpSceneWorld> scene( new smpSceneWorld( config, "ragdoll" ) );
	if ( !scene->initWorld( error ) )
		return nullptr;
	scene->setStepCount( config.steps );
	scene->world()->getSolverInfo().m_erp = btScalar( 0.5 ); // joints only (contacts use m_erp2)

	btTransform identity;
	identity.setIdentity();
	{
		std::vector<double> v;
		std::vector<uint32_t> t;
		smpMakeArena( &v, &t );
		int arena = scene->addShape( std::move( v ), std::move( t ), true, { { 0.82f, 0.82f, 0.85f } } );
		scene->addBody( arena, identity, 0.0 );
	}
	const int stairSteps = 6;
	const double rise = 0.25, run = 0.5;
	{
		std::vector<double> v;
		std::vector<uint32_t> t;
		smpMakeStairs( stairSteps, rise, run, 2.5, &v, &t );
		int stairs = scene->addShape( std::move( v ), std::move( t ), true, { { 0.70f, 0.66f, 0.60f } } );
		scene->addBody( stairs, identity, 0.0 );
	}

	// Limb meshes: one per part, shared by every ragdoll.
	int partShape[SMP_PART_COUNT];
	for ( int p = 0; p < SMP_PART_COUNT; ++p )
	{
		std::vector<double> v;
		std::vector<uint32_t> t;
		smpSceneMakeCapsule( kParts[p].radius, kParts[p].height, 16, 5, &v, &t );
		std::array<float, 3> color = p == SMP_PART_HEAD   ? std::array<float, 3>{ { 0.95f, 0.80f, 0.65f } }
									 : p <= SMP_PART_HEAD ? std::array<float, 3>{ { 0.25f, 0.45f, 0.80f } }
														 : std::array<float, 3>{ { 0.35f, 0.65f, 0.85f } };
		partShape[p] = scene->addShape( std::move( v ), std::move( t ), false, color );
	}

	smpSceneRandom random( config.seed );

	// The heap at the foot of the stairs: layers of 3 x 3 at a 0.9 m pitch.
	int heapShape[4];
	const std::array<float, 3> heapColors[4] = { { { 0.90f, 0.55f, 0.20f } },
												 { { 0.85f, 0.35f, 0.40f } },
												 { { 0.55f, 0.75f, 0.35f } },
												 { { 0.30f, 0.60f, 0.90f } } };
	for ( int k = 0; k < 4; ++k )
	{
		std::vector<double> v;
		std::vector<uint32_t> t;
		if ( !smpMakeHeapShape( k, &v, &t ) )
		{
			*error = "cannot generate the debris shapes";
			return nullptr;
		}
		heapShape[k] = scene->addShape( std::move( v ), std::move( t ), false, heapColors[k] );
	}
	for ( int i = 0; i < config.debris; ++i )
	{
		int layer = i / 9, cell = i % 9;
		double x = -0.6 + ( cell % 3 - 1 ) * 0.9, z = ( cell / 3 - 1 ) * 0.9, y = 0.5 + layer * 0.9;
		btTransform pose( random.rotation(), btVector3( btScalar( x ), btScalar( y ), btScalar( z ) ) );
		scene->addBody( heapShape[(int)( random.next() % 4 )], pose, 1.0 );
	}

	// Ragdolls standing on the landing in T-pose, pushed down the stairs (+x), three abreast
	// 1.8 m apart, stacked 2 m apart when there are more than three. The arms span 1.73 m from
	// tip to tip: closer neighbours would start with interlocked forearms, and the first step's
	// separation impulses tear the elbows apart (5 to 9 cm of pivot error in the old layout).
	double landingTop = stairSteps * rise + rise;
	for ( int r = 0; r < config.bodies; ++r )
	{
		int column = r % 3, level = r / 3;
		double yaw = random.range( -0.3, 0.3 ) - M_PI_2; // face +x
		btTransform offset( btQuaternion( btVector3( 0, 1, 0 ), btScalar( yaw ) ),
							btVector3( btScalar( -5.4 + 0.25 * ( level % 2 ) ),
									   btScalar( landingTop + 0.05 + 2.0 * level ),
									   btScalar( -1.8 + 1.8 * column ) ) );
		btVector3 push( btScalar( random.range( 3.5, 5.0 ) ), 0, btScalar( random.range( -0.3, 0.3 ) ) );
		int body[SMP_PART_COUNT];
		for ( int p = 0; p < SMP_PART_COUNT; ++p )
		{
			const smpPartSpec& s = kParts[p];
			btTransform local( btQuaternion( btVector3( 0, 0, 1 ), btScalar( s.rollZ ) ),
							   btVector3( btScalar( s.x ), btScalar( s.y ), btScalar( s.z ) ) );
			// The upper body gets the push, so that the figure topples forward down the stairs.
			btVector3 velocity = push * btScalar( s.y > 0.9 ? 1.0 : 0.3 );
			body[p] = scene->addBody( partShape[p], offset * local, s.mass, velocity );
			btRigidBody* rb = scene->rigidBody( body[p] );
			rb->setDamping( btScalar( 0.05 ), btScalar( 0.85 ) );
			rb->setDeactivationTime( btScalar( 0.8 ) );
			rb->setSleepingThresholds( btScalar( 1.6 ), btScalar( 2.5 ) );
		}
		auto rigid = [&]( int part ) -> btRigidBody& { return *scene->rigidBody( body[part] ); };
		// Joint frames are given on body A (as in the classic demo); B's frame is derived from the
		// standing pose so that every joint starts exactly assembled (zero pivot error).
		auto frameOnB = [&]( int a, int b, const btTransform& fa )
		{ return rigid( b ).getCenterOfMassTransform().inverse() * ( rigid( a ).getCenterOfMassTransform() * fa ); };
		auto hinge = [&]( int a, int b, const btTransform& fa, double lo, double hi )
		{
			btHingeConstraint* c = new btHingeConstraint( rigid( a ), rigid( b ), fa, frameOnB( a, b, fa ) );
			c->setLimit( btScalar( lo ), btScalar( hi ) );
			scene->addJoint( c, body[a], body[b] );
		};
		auto cone = [&]( int a, int b, const btTransform& fa, double s1, double s2, double tw )
		{
			btConeTwistConstraint* c = new btConeTwistConstraint( rigid( a ), rigid( b ), fa, frameOnB( a, b, fa ) );
			c->setLimit( btScalar( s1 ), btScalar( s2 ), btScalar( tw ) );
			scene->addJoint( c, body[a], body[b] );
		};
		hinge( SMP_PART_PELVIS, SMP_PART_SPINE, smpFrame( 0, M_PI_2, 0, 0, 0.15, 0 ), -M_PI_4, M_PI_2 );
		cone( SMP_PART_SPINE, SMP_PART_HEAD, smpFrame( 0, 0, M_PI_2, 0, 0.30, 0 ), M_PI_4, M_PI_4, M_PI_2 );
		cone( SMP_PART_PELVIS, SMP_PART_LEFT_UPPER_LEG, smpFrame( 0, 0, -M_PI_4 * 5, -0.18, -0.10, 0 ), M_PI_4, M_PI_4,
			  0 );
		hinge( SMP_PART_LEFT_UPPER_LEG, SMP_PART_LEFT_LOWER_LEG, smpFrame( 0, M_PI_2, 0, 0, -0.225, 0 ), 0, M_PI_2 );
		cone( SMP_PART_PELVIS, SMP_PART_RIGHT_UPPER_LEG, smpFrame( 0, 0, M_PI_4, 0.18, -0.10, 0 ), M_PI_4, M_PI_4, 0 );
		hinge( SMP_PART_RIGHT_UPPER_LEG, SMP_PART_RIGHT_LOWER_LEG, smpFrame( 0, M_PI_2, 0, 0, -0.225, 0 ), 0, M_PI_2 );
		cone( SMP_PART_SPINE, SMP_PART_LEFT_UPPER_ARM, smpFrame( 0, 0, M_PI, -0.2, 0.15, 0 ), M_PI_2, M_PI_2, 0 );
		hinge( SMP_PART_LEFT_UPPER_ARM, SMP_PART_LEFT_LOWER_ARM, smpFrame( 0, M_PI_2, 0, 0, 0.18, 0 ), 0, M_PI_2 );
		cone( SMP_PART_SPINE, SMP_PART_RIGHT_UPPER_ARM, smpFrame( 0, 0, 0, 0.2, 0.15, 0 ), M_PI_2, M_PI_2, 0 );
		hinge( SMP_PART_RIGHT_UPPER_ARM, SMP_PART_RIGHT_LOWER_ARM, smpFrame( 0, M_PI_2, 0, 0, 0.18, 0 ), 0, M_PI_2 );
	}

	smpSceneArea area;
	area.minX = -6.0;
	area.maxX = 6.0;
	area.minZ = -3.5;
	area.maxZ = 3.5;
	scene->setArea( area );
	scene->setCamera( btVector3( 1.5f, 5.5f, 10.5f ), btVector3( -1.0f, 0.8f, 0.0f ) );
	scene->setBodySize( 0.8 );
	return scene;
}
