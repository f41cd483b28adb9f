// SPDX-License-Identifier: MIT
// PdBulletPhysics: short simulations with the algorithm registered. Oracles: the exact mesh
// geometry (the torus's lowest world vertex against the floor plane y = 0) and the core's
// own distance and penetration queries between the posed tori, measured outside the step.
#include "bullet_test_world.h"
#include "polydepth/penetration.h"

#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletDynamicsCommon.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace
{

using polydepth::test::addFloorAndTorus;
using polydepth::test::World;

constexpr int kMajor = 48; // 48 x 16 x 2 = 1536 triangles
constexpr int kMinor = 16;
constexpr btScalar kStep = 1.0f / 60.0f;

struct PhysicsShapes : polydepth::test::TorusAndFloor
{
	pdMesh* torusMesh = nullptr; // the same triangles, for the measurements
	PhysicsShapes() : TorusAndFloor( kMajor, kMinor, 2.0, 8 )
	{
		pdMeshDef def = pdDefaultMeshDef();
		std::vector<double> v( torusData.vertices.begin(), torusData.vertices.end() );
		def.vertices = v.data();
		def.vertexCount = (int)( v.size() / 3 );
		def.vertexType = PD_SCALAR_FLOAT64;
		def.indices = torusData.indices.data();
		def.triangleCount = (int)( torusData.indices.size() / 3 );
		def.indexType = PD_INDEX_UINT32;
		torusMesh = pdCreateMesh( &def, nullptr );
	}
	~PhysicsShapes() { pdDestroyMesh( torusMesh ); }

	double lowestY( const btRigidBody* body ) const
	{
		const btTransform& t = body->getWorldTransform();
		double lo = 1e30;
		for ( size_t i = 0; i < torusData.vertices.size(); i += 3 )
		{
			btVector3 p = t * btVector3( torusData.vertices[i], torusData.vertices[i + 1], torusData.vertices[i + 2] );
			lo = std::min( lo, (double)p.y() );
		}
		return lo;
	}
};

pdTransform poseOf( const btRigidBody* body )
{
	const btTransform& t = body->getWorldTransform();
	btQuaternion q = t.getRotation();
	pdTransform pose;
	pose.q = { (double)q.w(), (double)q.x(), (double)q.y(), (double)q.z() };
	pose.p = { (double)t.getOrigin().x(), (double)t.getOrigin().y(), (double)t.getOrigin().z() };
	return pose;
}

// Rim speed bound: |v| + |w| (R + r).
double bodySpeed( const btRigidBody* body )
{
	return (double)body->getLinearVelocity().length() + (double)body->getAngularVelocity().length() * 0.65;
}

// Signed gap between two posed tori: distance when apart, minus the PD when overlapping.
double toriGap( const pdMesh* mesh, const btRigidBody* a, const btRigidBody* b, pdWorkspace* ws )
{
	pdTransform pa = poseOf( a ), pb = poseOf( b );
	pdDistanceResult dr;
	pdComputeDistance( mesh, &pa, mesh, &pb, nullptr, ws, &dr );
	if ( dr.distance > 0.0 )
	{
		return dr.distance;
	}
	pdPenetrationResult pr;
	pdComputePenetration( mesh, &pa, mesh, &pb, nullptr, nullptr, ws, &pr );
	return -pr.depth;
}

} // namespace

TEST( PdBulletPhysics, TorusComesToRestOnStaticFloor )
{
	PhysicsShapes s;
	World w;
	btRigidBody* torus = addFloorAndTorus( w, s, btVector3( 0.05f, 0.15f + 0.02f, 0 ) );
	torus->setActivationState( DISABLE_DEACTIVATION );
	double maxLateSpeed = 0.0, maxLateError = 0.0;
	const int steps = 180, settle = 120;
	for ( int i = 0; i < steps; ++i )
	{
		w.world->stepSimulation( kStep, 1, kStep );
		if ( i >= settle )
		{
			maxLateSpeed = std::max( maxLateSpeed, bodySpeed( torus ) );
			maxLateError = std::max( maxLateError, std::fabs( s.lowestY( torus ) ) );
		}
	}
	double lowest = s.lowestY( torus );
	std::printf( "torus on floor: lowest vertex y %.6f m, late max |gap| %.6f m, late max speed %.6f m/s\n", lowest,
				 maxLateError, maxLateSpeed );
	EXPECT_LT( maxLateError, 1e-3 ) << "penetration and hover gap under 1 mm";
	EXPECT_LT( maxLateSpeed, 0.01 ) << "still with sleeping disabled";
}

// A torus stacked on a torus on a floor, sleeping off, the upper one started `offsetMm` to the
// side; what the test measures after the stack has settled.
struct RestingStack
{
	double lateSpeed = 0.0, lateFloorGap = 0.0, lateToriGap = 0.0, upperY = 0.0;
};

RestingStack settleStack( double offsetMm )
{
	PhysicsShapes s;
	World w;
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	w.add( s.floor.get(), 0, btVector3( 0, 0, 0 ) );
	btRigidBody* lower = w.add( s.torus.get(), 1, btVector3( 0, 0.15f, 0 ) );
	// Concentric, turned half a segment so the vertex rings cross instead of meeting vertex
	// on vertex; the stack rests on the whole crest circle (ideal upper y = 0.45).
	btRigidBody* upper = w.add( s.torus.get(), 1, btVector3( (btScalar)( 1e-3 * offsetMm ), 0.45f + 0.02f, 0 ) );
	btTransform turned = upper->getWorldTransform();
	turned.setRotation( btQuaternion( btVector3( 0, 1, 0 ), SIMD_PI / kMajor ) );
	upper->setWorldTransform( turned );
	lower->setActivationState( DISABLE_DEACTIVATION );
	upper->setActivationState( DISABLE_DEACTIVATION );
	RestingStack r;
	const int steps = 150, settle = 100;
	for ( int i = 0; i < steps; ++i )
	{
		w.world->stepSimulation( kStep, 1, kStep );
		if ( i >= settle )
		{
			r.lateSpeed = std::max( { r.lateSpeed, bodySpeed( lower ), bodySpeed( upper ) } );
			r.lateFloorGap = std::max( r.lateFloorGap, std::fabs( s.lowestY( lower ) ) );
			if ( i % 10 == 0 )
			{
				r.lateToriGap = std::max( r.lateToriGap, std::fabs( toriGap( s.torusMesh, upper, lower, ws ) ) );
			}
		}
	}
	r.upperY = (double)upper->getWorldTransform().getOrigin().y();
	pdDestroyWorkspace( ws );
	return r;
}

TEST( PdBulletPhysics, TorusComesToRestOnAnotherTorus )
{
	// The stack is chaotic: one start is one draw, so the test takes 8 starts 0.5 mm apart
	// (scripts/resting-sweep measures the rate over more). PD_RESTING_OFFSET_MM runs one start.
	std::vector<double> starts = { 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5 };
	if ( const char* offsetMm = std::getenv( "PD_RESTING_OFFSET_MM" ) )
	{
		starts = { std::atof( offsetMm ) };
	}
	for ( double offset : starts )
	{
		RestingStack r = settleStack( offset );
		std::printf( "torus on torus: start %.1f mm, late max |floor gap| %.6f m, |tori gap| %.6f m, speed %.6f m/s, "
					 "upper y %.4f\n",
					 offset, r.lateFloorGap, r.lateToriGap, r.lateSpeed, r.upperY );
		EXPECT_GT( r.upperY, 0.4 ) << "still on top, start " << offset << " mm";
		EXPECT_LT( r.lateFloorGap, 1e-3 ) << "start " << offset << " mm";
		EXPECT_LT( r.lateToriGap, 1e-3 ) << "start " << offset << " mm";
		EXPECT_LT( r.lateSpeed, 0.01 ) << "start " << offset << " mm";
	}
}

TEST( PdBulletPhysics, FastTorusNeverEndsBelowZeroThicknessFloor )
{
	PhysicsShapes s;
	World w;
	btRigidBody* torus = addFloorAndTorus( w, s, btVector3( 0, 0.6f, 0 ) );
	btTransform t = torus->getWorldTransform();
	t.setRotation( btQuaternion( btVector3( 1, 0, 0.3f ).normalized(), 0.4f ) );
	torus->setWorldTransform( t );
	torus->setLinearVelocity( btVector3( 0.5f, -8.0f, 0 ) ); // 13 cm per step
	torus->setActivationState( DISABLE_DEACTIVATION );
	double lowestCentre = 1e30;
	for ( int i = 0; i < 120; ++i )
	{
		w.world->stepSimulation( kStep, 1, kStep );
		lowestCentre = std::min( lowestCentre, (double)torus->getWorldTransform().getOrigin().y() );
	}
	double lowest = s.lowestY( torus );
	std::printf( "fast torus: lowest centre %.4f m, final lowest vertex %.6f m\n", lowestCentre, lowest );
	EXPECT_GT( lowestCentre, 0.0 ) << "the centre never went below the floor";
	EXPECT_GT( lowest, -2e-3 ) << "ends on top of the floor";
	EXPECT_LT( lowest, 0.05 ) << "and resting on it";
}

TEST( PdBulletPhysics, SpeculativeContactsLandAFastTorusOnTheSurface )
{
	// 8 m/s is 13 cm per step, six times the contact distance: without speculative contacts
	// the torus is first seen when already a step deep in the floor.
	double deepest[2] = { 0.0, 0.0 };
	for ( int speculative = 0; speculative < 2; ++speculative )
	{
		PhysicsShapes s;
		pdBulletDef def = pdDefaultBulletDef();
		def.speculativeContacts = speculative != 0;
		World w( &def );
		btRigidBody* torus = addFloorAndTorus( w, s, btVector3( 0, 1.0f, 0 ) );
		torus->setLinearVelocity( btVector3( 0, -8.0f, 0 ) );
		torus->setActivationState( DISABLE_DEACTIVATION );
		for ( int i = 0; i < 30; ++i )
		{
			w.world->stepSimulation( kStep, 1, kStep );
			deepest[speculative] = std::min( deepest[speculative], s.lowestY( torus ) );
		}
	}
	std::printf( "fast torus onto floor: deepest vertex %.4f m without speculative contacts, %.4f m with\n",
				 deepest[0], deepest[1] );
	EXPECT_GT( deepest[1], -1e-3 ) << "lands on the surface";
	EXPECT_LT( deepest[0], deepest[1] - 2e-3 ) << "and the option is what makes the difference";
}

TEST( PdBulletPhysics, FastCompoundLandsOnTheSurface )
{
	// Two 16 cm cubes of one btCompoundShape, over the tube of a static torus (its top ring at
	// y = 0.15), falling at 8 m/s: 13 cm a step. Each child needs its speculative contact the
	// step before it arrives, when its bounds do not yet overlap the torus's.
	PhysicsShapes s;
	World w;
	w.add( s.torus.get(), 0, btVector3( 0, 0, 0 ) );
	const btScalar half = 0.08f;
	btBoxShape cube( btVector3( half, half, half ) );
	btCompoundShape pair;
	polydepth::test::addSideBySide( pair, &cube, 0.5f );
	btRigidBody* body = w.add( &pair, 1, btVector3( 0, 1.0f, 0 ) );
	body->setLinearVelocity( btVector3( 0, -8.0f, 0 ) );
	body->setActivationState( DISABLE_DEACTIVATION );
	double deepest = 0.0, gap = 0.0;
	for ( int i = 0; i < 60; ++i )
	{
		w.world->stepSimulation( kStep, 1, kStep );
		gap = (double)body->getWorldTransform().getOrigin().y() - half - 0.15;
		deepest = std::min( deepest, gap );
	}
	std::printf( "fast compound onto torus: deepest %.4f m, final gap %.4f m\n", deepest, gap );
	EXPECT_GT( deepest, -2e-3 ) << "the cubes land on the tube";
	EXPECT_LT( gap, 0.01 ) << "and rest on it";
	EXPECT_GT( gap, -2e-3 );
}
