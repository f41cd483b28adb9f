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
	f.distance = pdiDot( normal, pdiSub( pointA, pointB ) );
	return f;
}

} // namespace

TEST( PdContactSpace, OffsetPutsContactConfigurationOnThePlane )
{
	// A touched B's top face (normal +z at height 1) after moving by xc = (0.2, 0, 0.7).
	pdVec3 xc = pdiV3( 0.2, 0.0, 0.7 );
	pdContactFeature f = Feature( PD_CONTACT_VF, pdiV3( 0.5, 0.1, 1.0 ), pdiV3( 0.5, 0.1, 1.0 ), pdiV3( 0, 0, 1 ) );
	EXPECT_NEAR( pdiContactPlaneOffset( &f, xc ), 0.7, 1e-15 );
	pdiContactPlane planes[1];
	int n = pdiBuildContactPlanes( &f, 1, xc, 20, planes, nullptr, nullptr );
	ASSERT_EQ( n, 1 );
	// x_c itself lies on the plane; any translation with x.z >= 0.7 keeps the vertex above the face.
	EXPECT_NEAR( pdiDot( planes[0].normal, xc ) - planes[0].offset, 0.0, 1e-15 );
	EXPECT_EQ( planes[0].source, 0 );
}

TEST( PdContactSpace, GapAtContactWidensTheFreeSide )
{
	// The pair is still 0.01 apart at x_c: the plane lies 0.01 below x_c along n.
	pdVec3 xc = pdiV3( 0.0, 0.0, 1.0 );
	pdContactFeature f = Feature( PD_CONTACT_EE, pdiV3( 0, 0, 2.01 ), pdiV3( 0, 0, 2.0 ), pdiV3( 0, 0, 1 ) );
	EXPECT_NEAR( pdiContactPlaneOffset( &f, xc ), 0.99, 1e-12 );
}

TEST( PdContactSpace, DuplicateNormalsKeepTheLargestOffset )
{
	// Regression for bug B6: parallel planes with different offsets keep the most constraining.
	pdVec3 xc = pdiV3( 0, 0, 0 );
	std::vector<pdContactFeature> f = {
		Feature( PD_CONTACT_VF, pdiV3( 0, 0, 0 ), pdiV3( 0, 0, 0.3 ), pdiV3( 0, 0, 1 ) ),
		Feature( PD_CONTACT_VF, pdiV3( 0, 0, 0 ), pdiV3( 0, 0, 0.9 ), pdiV3( 0, 0, 1 ) ),
		Feature( PD_CONTACT_FV, pdiV3( 0, 0, 0 ), pdiV3( 0, 0, 0.5 ), pdiV3( 0, 0, 1 ) ),
		Feature( PD_CONTACT_EE, pdiV3( 0, 0, 0 ), pdiV3( 0.4, 0, 0 ), pdiV3( 1, 0, 0 ) ),
	};
	std::vector<pdiContactPlane> planes( f.size() );
	int merged = -1, truncated = -1;
	int n = pdiBuildContactPlanes( f.data(), (int)f.size(), xc, 20, planes.data(), &merged, &truncated );
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
		pdVec3 n = pdiV3( std::cos( a ), std::sin( a ), 0.3 );
		n = pdiNormalize( n );
		f.push_back( Feature( PD_CONTACT_VF, pdiV3( 0, 0, 0 ), pdiScale( n, 0.1 * ( i % 5 ) + 0.01 * i ), n ) );
	}
	std::vector<pdiContactPlane> planes( f.size() );
	int truncated = 0;
	int n = pdiBuildContactPlanes( f.data(), (int)f.size(), pdiV3( 0, 0, 0 ), 5, planes.data(), nullptr, &truncated );
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
		all.push_back( pdiContactPlaneOffset( &ff, pdiV3( 0, 0, 0 ) ) );
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
		Feature( PD_CONTACT_VF, pdiV3( 0, 0, 0 ), pdiV3( 0, 0, 1 ), pdiV3( 0, 0, 0 ) ),
		Feature( PD_CONTACT_EE, pdiV3( 0, 0, 0 ), pdiV3( 0, 0, 1 ), pdiV3( 0, 0, 1 ) ),
	};
	f[0].normal = pdiV3( 0, 0, 0 );
	std::vector<pdiContactPlane> planes( f.size() );
	int n = pdiBuildContactPlanes( f.data(), (int)f.size(), pdiV3( 0, 0, 0 ), 20, planes.data(), nullptr, nullptr );
	ASSERT_EQ( n, 1 );
	EXPECT_EQ( planes[0].source, 1 );
}

TEST( PdContactSpace, PlanesThenLcpGiveTheCornerOfABox )
{
	// A unit cube A overlapping a cube B so that pushing it out along x costs 0.3, along y 0.4:
	// a contact at x_c = (0.3, 0.4, 0) touching both faces: the in-projection is the corner.
	pdVec3 xc = pdiV3( 0.3, 0.4, 0.0 );
	std::vector<pdContactFeature> f = {
		Feature( PD_CONTACT_VF, pdiV3( 1, 0.5, 0 ), pdiV3( 1, 0.5, 0 ), pdiV3( 1, 0, 0 ) ),
		Feature( PD_CONTACT_VF, pdiV3( 0.5, 1, 0 ), pdiV3( 0.5, 1, 0 ), pdiV3( 0, 1, 0 ) ),
	};
	std::vector<pdiContactPlane> planes( f.size() );
	int n = pdiBuildContactPlanes( f.data(), (int)f.size(), xc, 20, planes.data(), nullptr, nullptr );
	ASSERT_EQ( n, 2 );
	pdiLcpResult r = pdiSolveInProjection( planes.data(), n, 100, nullptr );
	EXPECT_NEAR( r.x.x, 0.3, 1e-12 );
	EXPECT_NEAR( r.x.y, 0.4, 1e-12 );
}
