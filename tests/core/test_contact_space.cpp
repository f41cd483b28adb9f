// SPDX-License-Identifier: MIT
// Contact planes from hand-made contact features (contact_space.c).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

extern "C" {
#include "contact_space.h"
}

namespace
{

pdContactFeature Feature( pdContactKind kind, pdVec3 pointA, pdVec3 pointB, pdVec3 normal )
{
	pdContactFeature f = {};
	f.kind = kind;
	f.pointA = pointA;
	f.pointB = pointB;
	f.normal = normal;
	f.distance = pdDot( normal, pdSub( pointA, pointB ) );
	return f;
}

} // namespace

TEST( PdContactSpace, OffsetPutsContactConfigurationOnThePlane )
{
	// A touched B's top face (normal +z at height 1) after moving by xc = (0.2, 0, 0.7).
	pdVec3 xc = pdV3( 0.2, 0.0, 0.7 );
	pdContactFeature f = Feature( PD_CONTACT_VF, pdV3( 0.5, 0.1, 1.0 ), pdV3( 0.5, 0.1, 1.0 ), pdV3( 0, 0, 1 ) );
	EXPECT_NEAR( pdContactPlaneOffset( &f, xc ), 0.7, 1e-15 );
	pdContactPlane planes[1];
	int n = pdBuildContactPlanes( &f, 1, xc, 20, planes, nullptr, nullptr );
	ASSERT_EQ( n, 1 );
	// x_c itself lies on the plane; any translation with x.z >= 0.7 keeps the vertex above the face.
	EXPECT_NEAR( pdDot( planes[0].normal, xc ) - planes[0].offset, 0.0, 1e-15 );
	EXPECT_EQ( planes[0].source, 0 );
}

TEST( PdContactSpace, GapAtContactWidensTheFreeSide )
{
	// The pair is still 0.01 apart at x_c: the plane lies 0.01 below x_c along n.
	pdVec3 xc = pdV3( 0.0, 0.0, 1.0 );
	pdContactFeature f = Feature( PD_CONTACT_EE, pdV3( 0, 0, 2.01 ), pdV3( 0, 0, 2.0 ), pdV3( 0, 0, 1 ) );
	EXPECT_NEAR( pdContactPlaneOffset( &f, xc ), 0.99, 1e-12 );
}

TEST( PdContactSpace, DuplicateNormalsKeepTheLargestOffset )
{
	// Regression for bug B6: parallel planes with different offsets keep the most constraining.
	pdVec3 xc = pdV3( 0, 0, 0 );
	std::vector<pdContactFeature> f = {
		Feature( PD_CONTACT_VF, pdV3( 0, 0, 0 ), pdV3( 0, 0, 0.3 ), pdV3( 0, 0, 1 ) ),
		Feature( PD_CONTACT_VF, pdV3( 0, 0, 0 ), pdV3( 0, 0, 0.9 ), pdV3( 0, 0, 1 ) ),
		Feature( PD_CONTACT_FV, pdV3( 0, 0, 0 ), pdV3( 0, 0, 0.5 ), pdV3( 0, 0, 1 ) ),
		Feature( PD_CONTACT_EE, pdV3( 0, 0, 0 ), pdV3( 0.4, 0, 0 ), pdV3( 1, 0, 0 ) ),
	};
	std::vector<pdContactPlane> planes( f.size() );
	int merged = -1, truncated = -1;
	int n = pdBuildContactPlanes( f.data(), (int)f.size(), xc, 20, planes.data(), &merged, &truncated );
	ASSERT_EQ( n, 2 );
	EXPECT_EQ( merged, 2 );
	EXPECT_EQ( truncated, 0 );
	EXPECT_NEAR( planes[0].offset, 0.9, 1e-15 );
	EXPECT_EQ( planes[0].source, 1 );
	EXPECT_NEAR( planes[1].offset, 0.4, 1e-15 );
}

TEST( PdContactSpace, SortedByOffsetAndTruncated )
{
	std::vector<pdContactFeature> f;
	for ( int i = 0; i < 12; ++i )
	{
		double a = 0.2 * i;
		pdVec3 n = pdV3( std::cos( a ), std::sin( a ), 0.3 );
		n = pdNormalize( n );
		f.push_back( Feature( PD_CONTACT_VF, pdV3( 0, 0, 0 ), pdScale( n, 0.1 * ( i % 5 ) + 0.01 * i ), n ) );
	}
	std::vector<pdContactPlane> planes( f.size() );
	int truncated = 0;
	int n = pdBuildContactPlanes( f.data(), (int)f.size(), pdV3( 0, 0, 0 ), 5, planes.data(), nullptr, &truncated );
	ASSERT_EQ( n, 5 );
	EXPECT_EQ( truncated, 7 );
	for ( int i = 1; i < n; ++i )
	{
		EXPECT_GE( planes[i - 1].offset, planes[i].offset );
	}
	// The kept planes are the five largest offsets.
	std::vector<double> all;
	for ( const auto& ff : f )
	{
		all.push_back( pdContactPlaneOffset( &ff, pdV3( 0, 0, 0 ) ) );
	}
	std::sort( all.begin(), all.end(), std::greater<double>() );
	for ( int i = 0; i < n; ++i )
	{
		EXPECT_NEAR( planes[i].offset, all[i], 1e-15 );
	}
}

TEST( PdContactSpace, BadNormalsAreDropped )
{
	std::vector<pdContactFeature> f = {
		Feature( PD_CONTACT_VF, pdV3( 0, 0, 0 ), pdV3( 0, 0, 1 ), pdV3( 0, 0, 0 ) ),
		Feature( PD_CONTACT_EE, pdV3( 0, 0, 0 ), pdV3( 0, 0, 1 ), pdV3( 0, 0, 1 ) ),
	};
	f[0].normal = pdV3( 0, 0, 0 );
	std::vector<pdContactPlane> planes( f.size() );
	int n = pdBuildContactPlanes( f.data(), (int)f.size(), pdV3( 0, 0, 0 ), 20, planes.data(), nullptr, nullptr );
	ASSERT_EQ( n, 1 );
	EXPECT_EQ( planes[0].source, 1 );
}

TEST( PdContactSpace, PlanesThenLcpGiveTheCornerOfABox )
{
	// A unit cube A overlapping a cube B so that pushing it out along x costs 0.3, along y 0.4:
	// a contact at x_c = (0.3, 0.4, 0) touching both faces: the in-projection is the corner.
	pdVec3 xc = pdV3( 0.3, 0.4, 0.0 );
	std::vector<pdContactFeature> f = {
		Feature( PD_CONTACT_VF, pdV3( 1, 0.5, 0 ), pdV3( 1, 0.5, 0 ), pdV3( 1, 0, 0 ) ),
		Feature( PD_CONTACT_VF, pdV3( 0.5, 1, 0 ), pdV3( 0.5, 1, 0 ), pdV3( 0, 1, 0 ) ),
	};
	std::vector<pdContactPlane> planes( f.size() );
	int n = pdBuildContactPlanes( f.data(), (int)f.size(), xc, 20, planes.data(), nullptr, nullptr );
	ASSERT_EQ( n, 2 );
	pdLcpResult r = pdSolveInProjection( planes.data(), n, 100, nullptr );
	EXPECT_NEAR( r.x.x, 0.3, 1e-12 );
	EXPECT_NEAR( r.x.y, 0.4, 1e-12 );
}
