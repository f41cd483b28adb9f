// SPDX-License-Identifier: MIT
// Contact features as local contacts of penetrating solids (core/src/feature_orient.c): normals
// out of B by the outward normals, signed distances, and per vertex only the shallowest exit.
// Oracle: analytic depths of axis-aligned boxes, one pushed a known depth into a thin plate.
#include "mesh_fixture.h"
#include "plugin_interface.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace
{

pdTransform At( double x, double y, double z )
{
	pdTransform t = pdIdentityTransform();
	t.p = { x, y, z };
	return t;
}

pdMesh* CreateMesh( const Soup& s )
{
	pdMeshDef def = DefOf( s );
	return pdCreateMesh( &def, nullptr );
}

// A cube of half size 0.1 whose bottom face lies `depth` below the top face of a plate 2 cm
// thick (half sizes 0.5, 0.01, 0.5) at the origin; the gathering reaches past the plate's
// bottom face, so every bottom vertex of the cube also lies within reach of it, from behind.
struct CubeOnPlate
{
	MeshPtr cube{ CreateMesh( MakeBox( { 0, 0, 0 }, { 0.1, 0.1, 0.1 } ) ) };
	MeshPtr plate;
	pdWorkspace* ws = pdCreateWorkspace( nullptr );
	explicit CubeOnPlate( bool flipPlate = false ) : plate( MakePlate( flipPlate ) ) {}
	~CubeOnPlate() { pdDestroyWorkspace( ws ); }

	static pdMesh* MakePlate( bool flip )
	{
		Soup s = MakeBox( { 0, 0, 0 }, { 0.5, 0.01, 0.5 } );
		if ( flip )
		{
			for ( size_t i = 0; i < s.t.size(); i += 3 )
				std::swap( s.t[i + 1], s.t[i + 2] );
		}
		return CreateMesh( s );
	}
	pdStatus Gather( double cubeBottom, double reach, pdiOrientedFeatures* out, pdVec3 preferred = { 0.0, 0.0, 0.0 } )
	{
		pdTransform poseA = At( 0.0, cubeBottom + 0.1, 0.0 ), poseB = At( 0.0, 0.0, 0.0 );
		pdContactFeatureDef def = pdDefaultContactFeatureDef();
		def.reach = reach;
		def.gap = 1e-5;
		def.maxFeatures = 4096;
		pdiExitChoice choice = { 1e-4, preferred };
		return pdiPlugin_GatherOrientedFeatures( cube.m, &poseA, plate.m, &poseB, &def, &choice, ws, out );
	}
};

void ExpectPushedUpOnly( const pdiOrientedFeatures& of, double depth )
{
	ASSERT_GT( of.featureCount, 0 );
	int penetrating = 0;
	for ( int i = 0; i < of.featureCount; ++i )
	{
		const pdContactFeature& f = of.features[i];
		if ( f.distance < 0.0 )
		{
			penetrating += 1;
			EXPECT_NEAR( f.normal.y, 1.0, 1e-9 ) << "feature " << i << ": out of the plate's top face";
			EXPECT_NEAR( f.distance, -depth, 1e-9 ) << "feature " << i;
		}
		EXPECT_GT( f.normal.y, -0.5 ) << "feature " << i << ": an exit through the plate's far side";
	}
	EXPECT_GE( penetrating, 4 ) << "the cube's bottom corners";
	EXPECT_NEAR( of.deepestExit, depth, 1e-9 );
}

} // namespace

TEST( PdFeatureOrient, PenetratingCubeLeavesThroughTheNearFace )
{
	CubeOnPlate s;
	ASSERT_NE( s.cube.m, nullptr );
	ASSERT_NE( s.plate.m, nullptr );
	pdiOrientedFeatures of;
	ASSERT_EQ( s.Gather( 0.01 - 0.002, 0.03, &of ), PD_STATUS_OK );
	EXPECT_FALSE( of.apart );
	EXPECT_GT( of.gatheredCount, of.featureCount ) << "the far face's pairs were gathered, then dropped";
	ExpectPushedUpOnly( of, 0.002 );
}

TEST( PdFeatureOrient, PastHalfTheThicknessACubeStillLeavesTheWayItCame )
{
	// The cube's bottom 12 mm into the 20 mm plate: through the far face is 8 mm, but the cube's
	// sides run on up through the plate, so its bottom corners do not lead that way (moving the
	// cube down 8 mm leaves its sides in the plate); back out is 12 mm.
	CubeOnPlate s;
	pdiOrientedFeatures of;
	ASSERT_EQ( s.Gather( 0.01 - 0.012, 0.03, &of ), PD_STATUS_OK );
	ExpectPushedUpOnly( of, 0.012 );
	EXPECT_FALSE( of.unledVertex );
	// Whatever the last push and however thin the rest: 16 mm back against 4 mm through.
	ASSERT_EQ( s.Gather( 0.01 - 0.016, 0.03, &of, { 0.0, -0.3, 0.0 } ), PD_STATUS_OK );
	ExpectPushedUpOnly( of, 0.016 );
}

TEST( PdFeatureOrient, SideCornerInsideThePlateLeavesThroughTheTop )
{
	// The cube 1 mm into the plate near its +x edge, its corners 0.5 mm inside the plate's side:
	// the side is the shallower face, but the cube's bottom runs on under the top face toward -x
	// (its corners do not lead toward +x), so the corners leave up, 1 mm.
	CubeOnPlate s;
	pdiOrientedFeatures of;
	pdTransform poseA = At( 0.5 - 0.1 + 0.0005, 0.01 - 0.001 + 0.1, 0.0 ), poseB = At( 0.0, 0.0, 0.0 );
	pdContactFeatureDef def = pdDefaultContactFeatureDef();
	def.reach = 0.03;
	def.gap = 1e-5;
	def.maxFeatures = 4096;
	pdiExitChoice choice = { 1e-4, { 0.0, 0.0, 0.0 } };
	ASSERT_EQ( pdiPlugin_GatherOrientedFeatures( s.cube.m, &poseA, s.plate.m, &poseB, &def, &choice, s.ws, &of ),
			   PD_STATUS_OK );
	ASSERT_GT( of.featureCount, 0 );
	for ( int i = 0; i < of.featureCount; ++i )
	{
		const pdContactFeature& f = of.features[i];
		if ( f.distance < -1e-6 )
		{
			EXPECT_NEAR( f.normal.y, 1.0, 1e-9 ) << "feature " << i << ": up, not out of the plate's side";
		}
	}
	EXPECT_NEAR( of.deepestExit, 0.001, 1e-9 );
}

TEST( PdFeatureOrient, CrossingDeeperThanTheReachIsFlagged )
{
	// The cube's bottom 14 mm into the plate, gathered within 5 mm: no vertex pair is within
	// reach, only the cube's sides crossing the top face; the corners behind it are buried.
	CubeOnPlate s;
	pdiOrientedFeatures of;
	ASSERT_EQ( s.Gather( 0.01 - 0.014, 0.005, &of ), PD_STATUS_OK );
	EXPECT_GT( of.buriedDepth, 0.005 );
	EXPECT_LE( of.buriedDepth, 0.02 + 1e-9 ) << "at most behind the plate's far face";
	// Half a millimetre in, within a 3 mm reach: the corners are seen, nothing is buried.
	ASSERT_EQ( s.Gather( 0.01 - 0.0005, 0.003, &of ), PD_STATUS_OK );
	EXPECT_EQ( of.buriedDepth, 0.0 );
}

TEST( PdFeatureOrient, MovingCrossingDeeperThanTheReachIsFlagged )
{
	// As above with the step's motion (12 mm sideways): the traversal looks 17 mm around each
	// triangle for pairs the motion brings within the 5 mm reach, and the corners 14 mm behind
	// the top face are no such pair (the motion does not close them). Still buried: deeper than
	// the reach the gathering answers for.
	CubeOnPlate s;
	pdTransform poseA = At( 0.0, 0.01 - 0.014 + 0.1, 0.0 ), poseB = At( 0.0, 0.0, 0.0 );
	pdRigidMotion motion = { { 0.012, 0.0, 0.0 }, { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 } };
	pdContactFeatureDef def = pdDefaultContactFeatureDef();
	def.reach = 0.005;
	def.gap = -1.0; // no gap proof with a motion
	def.maxFeatures = 4096;
	def.motion = &motion;
	pdiExitChoice choice = { 1e-4, { 0.0, 0.0, 0.0 } };
	pdiOrientedFeatures of;
	ASSERT_EQ( pdiPlugin_GatherOrientedFeatures( s.cube.m, &poseA, s.plate.m, &poseB, &def, &choice, s.ws, &of ),
			   PD_STATUS_OK );
	EXPECT_GT( of.buriedDepth, 0.005 );
	EXPECT_LE( of.buriedDepth, 0.02 + 1e-9 );
}

TEST( PdFeatureOrient, InwardWindingGivesTheSameNormals )
{
	CubeOnPlate s( true );
	ASSERT_NE( s.plate.m, nullptr );
	ASSERT_TRUE( pdMesh_GetInfo( s.plate.m ).closed );
	pdiOrientedFeatures of;
	ASSERT_EQ( s.Gather( 0.01 - 0.003, 0.03, &of ), PD_STATUS_OK );
	ExpectPushedUpOnly( of, 0.003 );
}

TEST( PdFeatureOrient, SeparatedPairIsApartWithPositiveDistances )
{
	CubeOnPlate s;
	pdiOrientedFeatures of;
	ASSERT_EQ( s.Gather( 0.01 + 0.004, 0.01, &of ), PD_STATUS_OK );
	EXPECT_TRUE( of.apart );
	ASSERT_GT( of.featureCount, 0 );
	for ( int i = 0; i < of.featureCount; ++i )
	{
		EXPECT_NEAR( of.features[i].distance, 0.004, 1e-9 );
		EXPECT_NEAR( of.features[i].normal.y, 1.0, 1e-9 );
	}
	EXPECT_EQ( of.deepestExit, 0.0 );
}

TEST( PdFeatureOrient, SolidInsideTheOtherIsNotApartWithNoFeature )
{
	MeshPtr small( CreateMesh( MakeBox( { 0, 0, 0 }, { 0.05, 0.05, 0.05 } ) ) );
	MeshPtr big( CreateMesh( MakeBox( { 0, 0, 0 }, { 1.0, 1.0, 1.0 } ) ) );
	pdWorkspace* ws = pdCreateWorkspace( nullptr );
	pdTransform pose = At( 0.0, 0.0, 0.0 );
	pdContactFeatureDef def = pdDefaultContactFeatureDef();
	def.reach = 0.1;
	def.gap = 1e-5;
	pdiOrientedFeatures of;
	pdiExitChoice choice = { 1e-4, { 0.0, 0.0, 0.0 } };
	EXPECT_EQ( pdiPlugin_GatherOrientedFeatures( small.m, &pose, big.m, &pose, &def, &choice, ws, &of ), PD_STATUS_OK );
	EXPECT_FALSE( of.apart ) << "containment";
	EXPECT_EQ( of.featureCount, 0 );
	pdDestroyWorkspace( ws );
}

TEST( PdFeatureOrient, OpenMeshOrBadBandIsRefused )
{
	Soup open = MakeBox( { 0, 0, 0 }, { 0.5, 0.01, 0.5 } );
	open.t.resize( open.t.size() - 6 ); // one face gone
	MeshPtr plate( CreateMesh( open ) );
	CubeOnPlate s;
	ASSERT_NE( plate.m, nullptr );
	pdTransform poseA = At( 0.0, 0.1, 0.0 ), poseB = At( 0.0, 0.0, 0.0 );
	pdContactFeatureDef def = pdDefaultContactFeatureDef();
	pdiOrientedFeatures of;
	pdiExitChoice choice = { 1e-4, { 0.0, 0.0, 0.0 } }, badBand = { NAN, { 0.0, 0.0, 0.0 } },
				  badSide = { 1e-4, { INFINITY, 0.0, 0.0 } };
	EXPECT_EQ( pdiPlugin_GatherOrientedFeatures( s.cube.m, &poseA, plate.m, &poseB, &def, &choice, s.ws, &of ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( of.featureCount, 0 );
	EXPECT_EQ( pdiPlugin_GatherOrientedFeatures( s.cube.m, &poseA, s.plate.m, &poseB, &def, &badBand, s.ws, &of ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdiPlugin_GatherOrientedFeatures( s.cube.m, &poseA, s.plate.m, &poseB, &def, &badSide, s.ws, &of ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdiPlugin_GatherOrientedFeatures( s.cube.m, &poseA, s.plate.m, &poseB, &def, nullptr, s.ws, &of ),
			   PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdiPlugin_GatherOrientedFeatures( s.cube.m, &poseA, s.plate.m, &poseB, &def, &choice, s.ws, nullptr ),
			   PD_STATUS_INVALID_ARGUMENT );
}

TEST( PdFeatureOrient, VertexInAConcaveSeamLeavesThroughBothFaces )
{
	// A block with an 8-sided bore (radius 0.1, axis z) and a 2 cm cube inside it, turned so
	// that one vertical edge points out along the seam at angle 0, 2 mm past the bore's radius:
	// the edge's two corners lie behind both facets at the seam, over neither (past the
	// concave seam seen from each). They leave through both facets together, each exit
	// 2 mm x cos(22.5 degrees).
	TestOwnedSoup block;
	ASSERT_TRUE( smpMakeHoleBlock( 0.4, 0.4, 0.2, 0.1, 0.0, 8, &block.soup ) );
	MeshPtr bore( TestMakeMesh( block.soup ).release() );
	MeshPtr cube( CreateMesh( MakeBox( { 0, 0, 0 }, { 0.01, 0.01, 0.01 } ) ) );
	ASSERT_NE( bore.m, nullptr );
	ASSERT_NE( cube.m, nullptr );
	pdWorkspace* ws = pdCreateWorkspace( nullptr );
	const double past = 0.002, half = 0.01;
	pdTransform poseA = At( 0.1 + past - half * std::sqrt( 2.0 ), 0.0, 0.0 ), poseB = At( 0.0, 0.0, 0.0 );
	poseA.q = { std::cos( M_PI / 8 ), 0.0, 0.0, std::sin( M_PI / 8 ) }; // 45 degrees about z
	pdContactFeatureDef def = pdDefaultContactFeatureDef();
	def.reach = 0.005;
	def.gap = 1e-5;
	def.maxFeatures = 4096;
	pdiExitChoice choice = { 1e-4, { 0.0, 0.0, 0.0 } };
	pdiOrientedFeatures of;
	ASSERT_EQ( pdiPlugin_GatherOrientedFeatures( cube.m, &poseA, bore.m, &poseB, &def, &choice, ws, &of ),
			   PD_STATUS_OK );
	const double depth = past * std::cos( M_PI / 8 );
	int left = 0, right = 0;
	for ( int i = 0; i < of.featureCount; ++i )
	{
		const pdContactFeature& f = of.features[i];
		if ( f.distance < -1e-6 )
		{
			EXPECT_NEAR( f.distance, -depth, 1e-9 ) << "feature " << i;
			EXPECT_NEAR( f.normal.x, -std::cos( M_PI / 8 ), 1e-9 ) << "into the bore, across a facet";
			( f.normal.y > 0.0 ? left : right ) += 1;
		}
	}
	EXPECT_EQ( left, 2 ) << "both corners, through the facet at +y";
	EXPECT_EQ( right, 2 ) << "both corners, through the facet at -y";
	EXPECT_NEAR( of.deepestExit, depth, 1e-9 );
	pdDestroyWorkspace( ws );
}
