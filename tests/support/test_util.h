// SPDX-License-Identifier: MIT
// Owning handles for the C objects the core tests create, and a mesh from a soup without the
// clearance precomputation (which the orientation-graph tests do not need).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

extern "C"
{
#include "polydepth/polydepth.h"
#include "shapes.h"
#include "vec.h" // core/src: pdiMat33 and its helpers (core tests only)
}

struct TestMeshDeleter
{
	void operator()( pdMesh* m ) const { pdDestroyMesh( m ); }
};
using TestMeshPtr = std::unique_ptr<pdMesh, TestMeshDeleter>;

struct TestWorkspaceDeleter
{
	void operator()( pdWorkspace* w ) const { pdDestroyWorkspace( w ); }
};
using TestWorkspacePtr = std::unique_ptr<pdWorkspace, TestWorkspaceDeleter>;

/// A generated soup freed at scope exit.
struct TestOwnedSoup
{
	smpSoup soup{};
	~TestOwnedSoup() { smpFreeSoup( &soup ); }
};

/// The mesh of a soup (clearance points off); a failure is a test failure and returns null.
inline TestMeshPtr TestMakeMesh( const smpSoup& soup )
{
	pdMeshReport report;
	pdMeshDef def = smpSoupMeshDef( &soup );
	def.computeClearancePoints = false;
	TestMeshPtr mesh( pdCreateMesh( &def, &report ) );
	EXPECT_NE( mesh.get(), nullptr ) << report.message;
	return mesh;
}

/// Seeded xorshift; the same sequence on every platform.
struct TestRng
{
	uint64_t s;
	explicit TestRng( uint64_t seed ) : s( seed * 0x9E3779B97F4A7C15ull + 1 ) {}
	double Next()
	{
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		return (double)( s >> 11 ) * ( 1.0 / 9007199254740992.0 );
	}
	double Range( double a, double b ) { return a + ( b - a ) * Next(); }
};

inline pdiMat33 TestRandomRotation( TestRng& rng )
{
	pdQuat q;
	double n = 0.0;
	do
	{
		q = { rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ), rng.Range( -1, 1 ) };
		n = std::sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
	} while ( n < 0.1 || n > 1.0 );
	q = { q.w / n, q.x / n, q.y / n, q.z / n };
	return pdiMat33FromQuat( q );
}

inline pdiMat33 TestIdentityRotation()
{
	pdiMat33 m;
	m.cx = pdiV3( 1, 0, 0 );
	m.cy = pdiV3( 0, 1, 0 );
	m.cz = pdiV3( 0, 0, 1 );
	return m;
}

/// A point of a mesh (its own frame) posed by t.
inline pdVec3 TestApplyPose( const pdTransform& t, pdVec3 v )
{
	pdiMat33 r = pdiMat33FromQuat( t.q );
	return pdiAdd( pdiMulMV( &r, v ), t.p );
}

// A zero-thickness floor in y = 0 (cells x cells quads, facing +y).
inline TestMeshPtr TestMakeFloor( double half, int cells )
{
	smpSoup soup{};
	std::vector<double> v;
	std::vector<uint32_t> idx;
	for ( int i = 0; i <= cells; ++i )
		for ( int j = 0; j <= cells; ++j )
			v.insert( v.end(), { -half + 2.0 * half * i / cells, 0.0, -half + 2.0 * half * j / cells } );
	for ( int i = 0; i < cells; ++i )
		for ( int j = 0; j < cells; ++j )
		{
			uint32_t a = (uint32_t)( i * ( cells + 1 ) + j ), b = a + 1, c = a + (uint32_t)( cells + 1 ), d = c + 1;
			idx.insert( idx.end(), { a, b, d, a, d, c } );
		}
	soup.vertices = v.data();
	soup.vertexCount = (int)( v.size() / 3 );
	soup.indices = idx.data();
	soup.triangleCount = (int)( idx.size() / 3 );
	return TestMakeMesh( soup );
}
