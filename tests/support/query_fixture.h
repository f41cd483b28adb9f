// SPDX-License-Identifier: MIT
// The meshes and poses the two-mesh query tests (collide, distance, CCD) build: meshes from
// soups, generated shapes and boxes, random triangle soups, seeded random rotations and poses,
// and a mesh's triangle in the world frame. Raw pointers: each test destroys its meshes.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

extern "C"
{
#include "mesh.h"
#include "shapes.h"
}

namespace polydepth::test
{

/// The mesh of a soup; a failure is a test failure (with the report's message) and returns null.
inline pdMesh* MakeMesh( smpSoup* soup )
{
	pdMeshReport report;
	pdMesh* mesh = smpSoupCreateMesh( soup, &report );
	EXPECT_NE( mesh, nullptr ) << report.message;
	return mesh;
}

/// A generated shape by name (see smpMakeShapeByName) of about tris triangles.
inline pdMesh* MakeShape( const char* name, int tris, double size )
{
	smpSoup soup = {};
	EXPECT_TRUE( smpMakeShapeByName( name, tris, size, &soup ) ) << name;
	pdMesh* mesh = MakeMesh( &soup );
	smpFreeSoup( &soup );
	return mesh;
}

/// An axis-aligned box with half extents (hx, hy, hz), each face cut subdivisions times per edge.
inline pdMesh* MakeBox( double hx, double hy, double hz, int subdivisions )
{
	smpSoup soup = {};
	EXPECT_TRUE( smpMakeBox( pdVec3{ hx, hy, hz }, subdivisions, &soup ) );
	pdMesh* mesh = MakeMesh( &soup );
	smpFreeSoup( &soup );
	return mesh;
}

/// count unconnected triangles of vertices within triSize of centres within size of the origin.
inline pdMesh* MakeRandomSoup( std::mt19937& rng, int count, double size, double triSize )
{
	std::uniform_real_distribution<double> u( -1.0, 1.0 );
	std::vector<double> v;
	std::vector<uint32_t> idx;
	for ( int t = 0; t < count; ++t )
	{
		double cx = size * u( rng ), cy = size * u( rng ), cz = size * u( rng );
		for ( int k = 0; k < 3; ++k )
		{
			v.push_back( cx + triSize * u( rng ) );
			v.push_back( cy + triSize * u( rng ) );
			v.push_back( cz + triSize * u( rng ) );
			idx.push_back( (uint32_t)( 3 * t + k ) );
		}
	}
	smpSoup soup = { v.data(), (int)v.size() / 3, idx.data(), count };
	return MakeMesh( &soup );
}

/// A uniformly distributed rotation (a normalised Gaussian quaternion).
inline pdQuat RandomRotation( std::mt19937& rng )
{
	std::normal_distribution<double> g( 0.0, 1.0 );
	pdQuat q = { g( rng ), g( rng ), g( rng ), g( rng ) };
	double n = std::sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
	return pdQuat{ q.w / n, q.x / n, q.y / n, q.z / n };
}

/// A vector with components uniform in [-spread, spread].
inline pdVec3 RandomVec( std::mt19937& rng, double spread )
{
	std::uniform_real_distribution<double> u( -spread, spread );
	return pdVec3{ u( rng ), u( rng ), u( rng ) };
}

inline pdTransform Pose( pdQuat q, pdVec3 p )
{
	pdTransform t;
	t.q = q;
	t.p = p;
	return t;
}

/// A random rotation and a translation uniform in [-spread, spread]^3 (drawn in that order).
inline pdTransform RandomPose( std::mt19937& rng, double spread )
{
	pdQuat q = RandomRotation( rng );
	pdVec3 p = RandomVec( rng, spread );
	return Pose( q, p );
}

/// Triangle t of mesh in the world (pose) frame.
inline void WorldTriangle( const pdMesh* mesh, const pdTransform& pose, int t, pdVec3 out[3] )
{
	pdiFrame f;
	pdiMakeFrame( &pose, &f );
	pdiMesh_TriangleVertices( mesh, t, out );
	for ( int k = 0; k < 3; ++k )
	{
		out[k] = pdiFrameApply( &f, out[k] );
	}
}

} // namespace polydepth::test
