// SPDX-License-Identifier: MIT
// PdRounded (rounded.c, pdComputeRoundedPenetration): spheres and capsules against meshes, with
// analytic answers: a sphere above, touching and inside a box, at its edge and its corner (the
// normal points from the corner), a capsule lying on and tilted into a floor, a capsule inside
// a box, a sphere in a fold; every translation verified by a second query at the moved pose;
// the same answer under a common pose; bad input as a status with a zeroed result.
#include "mesh_fixture.h"
#include "test_util.h"

extern "C"
{
#include "polydepth/rounded.h"
}

#include <cmath>

namespace
{

struct Scene
{
	Soup soup;
	MeshPtr mesh{ nullptr };
	TestWorkspacePtr ws{ pdCreateWorkspace( nullptr ) };
	explicit Scene( Soup s ) : soup( std::move( s ) )
	{
		pdMeshDef def = DefOf( soup );
		pdMeshReport report;
		mesh.m = pdCreateMesh( &def, &report );
		EXPECT_NE( mesh.m, nullptr ) << report.message;
	}
	pdRoundedResult query( const pdRoundedShape& shape, const pdTransform& poseA, const pdRoundedDef* def = nullptr,
						   const pdTransform& poseB = pdIdentityTransform() )
	{
		pdRoundedResult r;
		pdStatus s = pdComputeRoundedPenetration( &shape, &poseA, mesh.m, &poseB, def, ws.get(), &r );
		EXPECT_GE( s, 0 ) << pdGetStatusString( s );
		return r;
	}
	// The translated shape is at most touching.
	void expectCleared( const pdRoundedShape& shape, pdTransform poseA, const pdRoundedResult& r,
						const pdTransform& poseB = pdIdentityTransform() )
	{
		poseA.p = pdiAdd( poseA.p, r.translation );
		pdRoundedResult moved = query( shape, poseA, nullptr, poseB );
		EXPECT_NE( moved.state, PD_STATE_PENETRATING ) << "separation " << moved.separation;
	}
};

pdRoundedShape Sphere( double r )
{
	pdRoundedShape s{};
	s.skeletonCount = 1;
	s.radius = r;
	return s;
}

// A capsule along x: segment from -half to +half.
pdRoundedShape Capsule( double r, double half )
{
	pdRoundedShape s{};
	s.skeletonCount = 2;
	s.skeleton[0] = { -half, 0, 0 };
	s.skeleton[1] = { half, 0, 0 };
	s.radius = r;
	return s;
}

pdTransform At( double x, double y, double z )
{
	pdTransform t = pdIdentityTransform();
	t.p = { x, y, z };
	return t;
}

pdTransform AtRotated( double x, double y, double z, pdVec3 axis, double angle )
{
	pdTransform t = At( x, y, z );
	double s = std::sin( angle / 2 );
	t.q = { std::cos( angle / 2 ), axis.x * s, axis.y * s, axis.z * s };
	return t;
}

void ExpectVec( pdVec3 a, pdVec3 b, double tol )
{
	EXPECT_NEAR( a.x, b.x, tol );
	EXPECT_NEAR( a.y, b.y, tol );
	EXPECT_NEAR( a.z, b.z, tol );
}

} // namespace

TEST( PdRounded, SphereAboveTouchingAndInsideABox )
{
	Scene box( MakeBox( { 0, 0, 0 }, { 1, 1, 1 } ) );
	pdRoundedShape ball = Sphere( 0.25 );
	pdRoundedDef def = pdDefaultRoundedDef();
	def.contactDistance = 0.1;

	pdRoundedResult r = box.query( ball, At( 0.2, 0.3, 1.3 ), &def );
	EXPECT_EQ( r.state, PD_STATE_SEPARATED );
	EXPECT_NEAR( r.separation, 0.05, 1e-12 );
	EXPECT_EQ( r.depth, 0.0 );
	ASSERT_EQ( r.contactCount, 1 );
	EXPECT_NEAR( r.contacts[0].distance, 0.05, 1e-12 );
	ExpectVec( r.contacts[0].normal, { 0, 0, 1 }, 1e-12 );
	ExpectVec( r.contacts[0].pointB, { 0.2, 0.3, 1 }, 1e-12 );
	ExpectVec( r.contacts[0].pointA, { 0.2, 0.3, 1.05 }, 1e-12 );
	EXPECT_EQ( r.contacts[0].featureB.type, PD_FEATURE_FACE );

	r = box.query( ball, At( 0.2, 0.3, 1.25 ) );
	EXPECT_EQ( r.state, PD_STATE_TOUCHING );
	EXPECT_EQ( r.contactCount, 1 );

	// Sunk 0.1 into the top: PD 0.1 straight up, exact.
	r = box.query( ball, At( 0.2, 0.3, 1.15 ) );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( r.depth, 0.1, 1e-12 );
	EXPECT_NEAR( r.lowerBound, 0.1, 1e-12 );
	EXPECT_TRUE( r.exact );
	ExpectVec( r.translation, { 0, 0, 0.1 }, 1e-12 );
	ASSERT_EQ( r.contactCount, 1 );
	EXPECT_NEAR( r.contacts[0].distance, -0.1, 1e-12 );
	box.expectCleared( ball, At( 0.2, 0.3, 1.15 ), r );

	// Centre inside, 0.3 below the top (nearest face): out through the top, r + 0.3.
	r = box.query( ball, At( 0.2, 0.1, 0.7 ) );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( r.depth, 0.55, 1e-12 );
	EXPECT_TRUE( r.exact );
	ExpectVec( r.translation, { 0, 0, 0.55 }, 1e-12 );
	ASSERT_EQ( r.contactCount, 1 );
	ExpectVec( r.contacts[0].normal, { 0, 0, 1 }, 1e-12 );
	EXPECT_NEAR( r.contacts[0].distance, -0.55, 1e-12 );
	box.expectCleared( ball, At( 0.2, 0.1, 0.7 ), r );
}

TEST( PdRounded, SphereAtAnEdgeAndACornerIsPushedFromThem )
{
	Scene box( MakeBox( { 0, 0, 0 }, { 1, 1, 1 } ) );
	pdRoundedShape ball = Sphere( 0.3 );
	// Beside the edge x = z = 1, 0.2 from it along the diagonal: 0.1 deep.
	double a = 0.2 / std::sqrt( 2.0 );
	pdRoundedResult r = box.query( ball, At( 1 + a, 0.4, 1 + a ) );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( r.depth, 0.1, 1e-12 );
	ExpectVec( r.translation, { 0.1 * std::sqrt( 0.5 ), 0, 0.1 * std::sqrt( 0.5 ) }, 1e-12 );
	ASSERT_EQ( r.contactCount, 1 );
	ExpectVec( r.contacts[0].pointB, { 1, 0.4, 1 }, 1e-12 );
	EXPECT_EQ( r.contacts[0].featureB.type, PD_FEATURE_EDGE );
	box.expectCleared( ball, At( 1 + a, 0.4, 1 + a ), r );

	// Off the corner (1, 1, 1) along (1, 2, 3): the normal points from the corner to the centre.
	pdVec3 dir = pdiNormalize( { 1, 2, 3 } );
	pdVec3 c = pdiMulAdd( { 1, 1, 1 }, 0.25, dir );
	r = box.query( ball, At( c.x, c.y, c.z ) );
	EXPECT_NEAR( r.depth, 0.05, 1e-12 );
	ASSERT_EQ( r.contactCount, 1 );
	ExpectVec( r.contacts[0].normal, dir, 1e-12 );
	ExpectVec( r.contacts[0].pointB, { 1, 1, 1 }, 1e-12 );
	EXPECT_EQ( r.contacts[0].featureB.type, PD_FEATURE_VERTEX );
	ExpectVec( r.translation, pdiScale( dir, 0.05 ), 1e-12 );
}

TEST( PdRounded, CapsuleLyingOnAndTiltedIntoAFloor )
{
	// The floor: the top face of a wide slab at z = 0.
	Scene floor( MakeBox( { 0, 0, -0.5 }, { 3, 3, 0.5 } ) );
	pdRoundedShape cap = Capsule( 0.1, 0.4 );
	pdRoundedDef def = pdDefaultRoundedDef();
	def.contactDistance = 0.01;

	// Lying 0.02 deep: a contact under each end, both 0.02 deep.
	pdRoundedResult r = floor.query( cap, At( 0.3, 0.2, 0.08 ), &def );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( r.depth, 0.02, 1e-12 );
	EXPECT_TRUE( r.exact );
	ExpectVec( r.translation, { 0, 0, 0.02 }, 1e-12 );
	ASSERT_EQ( r.contactCount, 2 );
	for ( int i = 0; i < 2; ++i )
	{
		EXPECT_NEAR( r.contacts[i].distance, -0.02, 1e-12 );
		ExpectVec( r.contacts[i].normal, { 0, 0, 1 }, 1e-12 );
	}
	EXPECT_NEAR( std::fabs( r.contacts[0].pointB.x - r.contacts[1].pointB.x ), 0.8, 1e-12 );

	// Tilted by 30 degrees about y: the lower end (at x = +0.4 cos 30) is the deepest.
	double angle = M_PI / 6;
	double low = 0.15 - 0.4 * std::sin( angle ); // the lower end's height
	pdTransform tilted = AtRotated( 0, 0, 0.15, { 0, 1, 0 }, angle );
	r = floor.query( cap, tilted, &def );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( r.depth, 0.1 - low, 1e-9 );
	EXPECT_NEAR( r.lowerBound, 0.1 - low, 1e-9 );
	EXPECT_TRUE( r.exact );
	ExpectVec( r.translation, { 0, 0, 0.1 - low }, 1e-9 );
	ASSERT_GE( r.contactCount, 1 );
	EXPECT_NEAR( r.contacts[0].distance, low - 0.1, 1e-9 );
	EXPECT_NEAR( r.contacts[0].pointB.x, 0.4 * std::cos( angle ), 1e-9 );
	floor.expectCleared( cap, tilted, r );
}

TEST( PdRounded, CapsuleInsideABox )
{
	Scene box( MakeBox( { 0, 0, 0 }, { 1, 0.6, 0.5 } ) );
	pdRoundedShape cap = Capsule( 0.1, 0.3 );
	// Level, centred 0.2 below the top: out through the top, 0.2 + 0.1.
	pdRoundedResult r = box.query( cap, At( 0.1, 0, 0.3 ) );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_NEAR( r.depth, 0.3, 1e-9 );
	EXPECT_TRUE( r.exact );
	ExpectVec( r.translation, { 0, 0, 0.3 }, 1e-9 );
	box.expectCleared( cap, At( 0.1, 0, 0.3 ), r );

	// Tilted about y with the upper end nearest the top: every point must leave, so the PD is
	// set by the lowest end, the deepest point: 0.5 - z_low + r.
	double angle = 0.4;
	pdTransform pose = AtRotated( 0.1, 0, 0.25, { 0, 1, 0 }, angle );
	double zLow = 0.25 - 0.3 * std::sin( angle );
	r = box.query( cap, pose );
	EXPECT_NEAR( r.lowerBound, 0.5 - zLow + 0.1, 1e-4 );
	EXPECT_TRUE( r.exact );
	EXPECT_NEAR( r.depth, 0.5 - zLow + 0.1, 1e-4 );
	box.expectCleared( cap, pose, r );
}

TEST( PdRounded, CapsuleThroughASlabLeavesSideways )
{
	// A thin slab pierced by a vertical capsule: the deepest point's normal (the slab's) cannot
	// clear it, the contact planes oppose, and the answer leaves through a side; verified.
	Scene slab( MakeBox( { 0, 0, 0 }, { 0.3, 0.3, 0.05 } ) );
	pdRoundedShape cap = Capsule( 0.05, 0.4 );
	pdTransform pose = AtRotated( 0.2, 0.05, 0.01, { 0, 1, 0 }, M_PI / 2 ); // along z
	pdRoundedResult r = slab.query( cap, pose );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	EXPECT_FALSE( r.exact );
	EXPECT_GE( r.depth, r.lowerBound );
	EXPECT_NEAR( r.lowerBound, 0.05 + 0.05, 1e-4 ); // the deepest point is mid-slab, 0.05 deep
	slab.expectCleared( cap, pose, r );
	// The short way out is through the side x = 0.3: 0.1 + 0.05.
	EXPECT_LE( r.depth, 0.16 );
}

TEST( PdRounded, ThinSlabsFarFaceIsNoContact )
{
	// A 2 cm slab; a sphere (radius 0.1) above it with a contact distance reaching past its far
	// face, then sunk 1.5 cm into it (centre still above the middle). The bottom face is a local
	// minimum of the distance seen through the solid: no contact, and the answer is the top
	// face's alone, straight up.
	Scene slab( MakeBox( { 0, 0, 0 }, { 0.6, 0.6, 0.01 } ) );
	pdRoundedShape ball = Sphere( 0.1 );
	pdRoundedDef def = pdDefaultRoundedDef();
	def.contactDistance = 0.05;
	for ( double sunk : { -0.01, 0.0, 0.015 } )
	{
		pdTransform pose = At( 0.1, -0.05, 0.01 + 0.1 - sunk );
		pdRoundedResult r = slab.query( ball, pose, &def );
		ASSERT_EQ( r.contactCount, 1 ) << "sunk " << sunk;
		ExpectVec( r.contacts[0].normal, { 0, 0, 1 }, 1e-12 );
		EXPECT_NEAR( r.contacts[0].pointB.z, 0.01, 1e-12 ) << "on the top face";
		EXPECT_NEAR( r.contacts[0].distance, -sunk, 1e-12 );
		if ( sunk > 0 )
		{
			EXPECT_TRUE( r.exact );
			ExpectVec( r.translation, { 0, 0, sunk }, 1e-12 );
			slab.expectCleared( ball, pose, r );
		}
	}
	// A capsule lying flat, sunk as far: one contact per end, both on the top face.
	pdRoundedShape cap = Capsule( 0.1, 0.2 );
	pdRoundedResult r = slab.query( cap, At( 0.0, 0.1, 0.01 + 0.1 - 0.015 ), &def );
	ASSERT_EQ( r.contactCount, 2 );
	for ( int i = 0; i < r.contactCount; ++i )
	{
		EXPECT_NEAR( r.contacts[i].pointB.z, 0.01, 1e-12 );
		EXPECT_NEAR( r.contacts[i].distance, -0.015, 1e-12 );
	}
}

TEST( PdRounded, RememberedSideTurnsTheWayOutOfAThinWall )
{
	// A sphere (radius 0.1) whose centre came down over a 2 cm slab and crossed its middle, 4 mm
	// under it: the nearest way out is down through the bottom face (0.1 + 0.006), the way it
	// came up through the top (0.1 + 0.014). Told the side it was last outside of (+z), it leaves
	// up, contacts and translation alike; told nothing, down; a block whose far face is more
	// than twice as far is not turned.
	Scene slab( MakeBox( { 0, 0, 0 }, { 0.6, 0.6, 0.01 } ) );
	pdRoundedShape ball = Sphere( 0.1 );
	pdTransform pose = At( 0.1, -0.05, -0.004 );
	pdRoundedResult r = slab.query( ball, pose );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	ExpectVec( r.translation, { 0, 0, -0.106 }, 1e-9 );
	ASSERT_GE( r.contactCount, 1 );
	EXPECT_LT( r.contacts[0].normal.z, -0.999 );

	pdRoundedDef def = pdDefaultRoundedDef();
	def.preferredDirection = { 0, 0, 3 }; // any length
	r = slab.query( ball, pose, &def );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	ExpectVec( r.translation, { 0, 0, 0.114 }, 1e-4 );
	EXPECT_GE( r.depth, r.lowerBound );
	EXPECT_FALSE( r.exact );
	slab.expectCleared( ball, pose, r );
	ASSERT_GE( r.contactCount, 1 );
	for ( int i = 0; i < r.contactCount; ++i )
	{
		EXPECT_GT( r.contacts[i].normal.z, 0.999 ) << "contact " << i;
		EXPECT_NEAR( r.contacts[i].pointB.z, 0.01, 1e-12 );
	}

	// The same under a common pose of both: the preferred side is a world direction.
	pdTransform common = AtRotated( 0.3, -0.2, 0.5, { 1, 0, 0 }, 0.7 );
	pdiMat33 m = pdiMat33FromQuat( common.q );
	pdRoundedDef turned = def;
	turned.preferredDirection = pdiMulMV( &m, def.preferredDirection );
	pdTransform both = pose;
	both.q = pdiQuatMul( common.q, pose.q );
	both.p = pdiAdd( pdiMulMV( &m, pose.p ), common.p );
	pdRoundedResult c = slab.query( ball, both, &turned, common );
	EXPECT_NEAR( c.depth, r.depth, 1e-9 );
	ExpectVec( pdiMulMV( &m, r.translation ), c.translation, 1e-9 );

	// A capsule lying flat in it the same way: its end spheres leave up too.
	pdRoundedShape cap = Capsule( 0.1, 0.2 );
	r = slab.query( cap, pose, &def );
	ASSERT_GE( r.contactCount, 2 );
	for ( int i = 0; i < r.contactCount; ++i )
	{
		EXPECT_GT( r.contacts[i].normal.z, 0.999 ) << "contact " << i;
	}
	EXPECT_GT( r.translation.z, 0.11 );
	slab.expectCleared( cap, pose, r );

	// A block: 0.1 under the top, 0.9 over the bottom; preferring down changes nothing.
	Scene box( MakeBox( { 0, 0, 0 }, { 1, 1, 0.5 } ) );
	def.preferredDirection = { 0, 0, -1 };
	r = box.query( ball, At( 0.2, 0.1, 0.4 ), &def );
	ExpectVec( r.translation, { 0, 0, 0.2 }, 1e-9 );
	EXPECT_TRUE( r.exact );
}

TEST( PdRounded, SphereInAFoldTouchesBothSides )
{
	// An open V fold z = |x|, the sphere sunk into the crease.
	Soup v;
	uint32_t a = v.Add( -1, -1, 1 ), b = v.Add( -1, 1, 1 ), c = v.Add( 0, -1, 0 ), d = v.Add( 0, 1, 0 ),
			 e = v.Add( 1, -1, 1 ), g = v.Add( 1, 1, 1 );
	TriFacing( v, a, c, d, { 1, 0, 1 } );
	TriFacing( v, a, d, b, { 1, 0, 1 } );
	TriFacing( v, c, e, g, { -1, 0, 1 } );
	TriFacing( v, c, g, d, { -1, 0, 1 } );
	Scene fold( v );
	pdRoundedShape ball = Sphere( 0.3 );
	double h = 0.3 * std::sqrt( 2.0 ); // resting height: touching both planes
	pdRoundedResult r = fold.query( ball, At( 0, 0, h - 0.05 ) );
	EXPECT_EQ( r.state, PD_STATE_PENETRATING );
	ASSERT_EQ( r.contactCount, 2 );
	EXPECT_NEAR( r.contacts[0].distance, -0.05 / std::sqrt( 2.0 ), 1e-12 );
	EXPECT_NEAR( r.contacts[0].normal.x, -r.contacts[1].normal.x, 1e-12 );
	// The way out is straight up by 0.05 (both planes at once); the first try along one
	// plane's normal does not clear the other.
	EXPECT_NEAR( r.depth, 0.05, 1e-3 );
	EXPECT_GE( r.depth, r.lowerBound );
	fold.expectCleared( ball, At( 0, 0, h - 0.05 ), r );
}

TEST( PdRounded, SameAnswerUnderACommonPose )
{
	Scene box( MakeBox( { 0, 0, 0 }, { 1, 0.6, 0.5 } ) );
	pdRoundedShape cap = Capsule( 0.1, 0.3 );
	pdTransform poseA = AtRotated( 0.9, 0.2, 0.5, { 0, 0.6, 0.8 }, 0.7 );
	pdRoundedResult r0 = box.query( cap, poseA );
	pdTransform common = AtRotated( 3, -2, 1, pdiNormalize( { 1, 1, 0.5 } ), 1.1 );
	pdiMat33 m = pdiMat33FromQuat( common.q );
	pdTransform a2 = poseA;
	a2.q = pdiQuatMul( common.q, poseA.q );
	a2.p = pdiAdd( pdiMulMV( &m, poseA.p ), common.p );
	pdRoundedResult r1 = box.query( cap, a2, nullptr, common );
	EXPECT_EQ( r0.state, r1.state );
	EXPECT_NEAR( r0.depth, r1.depth, 1e-9 );
	ExpectVec( pdiMulMV( &m, r0.translation ), r1.translation, 1e-9 );
	ASSERT_EQ( r0.contactCount, r1.contactCount );
	for ( int i = 0; i < r0.contactCount; ++i )
		ExpectVec( pdiMulMV( &m, r0.contacts[i].normal ), r1.contacts[i].normal, 1e-9 );
}

TEST( PdRounded, BadInputIsAStatus )
{
	Scene box( MakeBox( { 0, 0, 0 }, { 1, 1, 1 } ) );
	pdTransform pose = At( 0, 0, 0 );
	pdRoundedResult r;
	auto run = [&]( const pdRoundedShape* s, const pdRoundedDef* def )
	{
		memset( &r, 0x7f, sizeof( r ) );
		pdStatus st = pdComputeRoundedPenetration( s, &pose, box.mesh.m, &pose, def, box.ws.get(), &r );
		EXPECT_EQ( st, r.status );
		EXPECT_EQ( r.depth, 0.0 );
		EXPECT_EQ( r.contactCount, 0 );
		return st;
	};
	pdRoundedShape good = Sphere( 0.1 );
	pdRoundedShape s = good;
	EXPECT_EQ( run( nullptr, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	s.radius = 0.0;
	EXPECT_EQ( run( &s, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	s.radius = NAN;
	EXPECT_EQ( run( &s, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	s = good;
	s.skeletonCount = 3;
	EXPECT_EQ( run( &s, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	s = good;
	s.skeleton[0].y = INFINITY;
	EXPECT_EQ( run( &s, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	pdRoundedDef def = pdDefaultRoundedDef();
	def.maxEvaluations = 1;
	EXPECT_EQ( run( &good, &def ), PD_STATUS_INVALID_DEF );
	def = pdDefaultRoundedDef();
	def.contactDistance = -1;
	EXPECT_EQ( run( &good, &def ), PD_STATUS_INVALID_DEF );
	pdRoundedDef raw{};
	EXPECT_EQ( run( &good, &raw ), PD_STATUS_DEF_NOT_INITIALIZED );
	pose.q.w = 2;
	EXPECT_EQ( run( &good, nullptr ), PD_STATUS_INVALID_POSE );
	pose = At( 0, 0, 0 );
	EXPECT_EQ( pdComputeRoundedPenetration( &good, &pose, nullptr, &pose, nullptr, box.ws.get(), &r ),
			   PD_STATUS_INVALID_MESH );
	EXPECT_EQ( pdComputeRoundedPenetration( &good, &pose, box.mesh.m, &pose, nullptr, box.ws.get(), nullptr ),
			   PD_STATUS_INVALID_ARGUMENT );
	// A zero-length segment is a sphere.
	pdRoundedShape point = Capsule( 0.25, 0.0 );
	pose = At( 0, 0, 1.2 );
	pdRoundedResult a, b;
	pdRoundedShape ball = Sphere( 0.25 );
	pdComputeRoundedPenetration( &point, &pose, box.mesh.m, &pose, nullptr, box.ws.get(), &a );
	pdTransform id = pdIdentityTransform();
	pdComputeRoundedPenetration( &point, &pose, box.mesh.m, &id, nullptr, box.ws.get(), &a );
	pdComputeRoundedPenetration( &ball, &pose, box.mesh.m, &id, nullptr, box.ws.get(), &b );
	EXPECT_EQ( a.state, b.state );
	EXPECT_NEAR( a.depth, b.depth, 1e-15 );
	EXPECT_NEAR( a.depth, 0.05, 1e-12 );
}
