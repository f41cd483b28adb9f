// SPDX-License-Identifier: MIT
// Shared by the PdContact tests (test_contact*.cpp): poses, mesh and workspace holders, and the
// box, torus and open-floor meshes they collide.
#pragma once

#include "polydepth/contact.h"
#include "shapes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace
{


inline pdTransform at( double x, double y, double z )
{
	pdTransform t = pdIdentityTransform();
	t.p = { x, y, z };
	return t;
}

struct MeshHolder
{
	pdMesh* mesh = nullptr;
	~MeshHolder() { pdDestroyMesh( mesh ); }
};

inline pdMesh* makeBox( double hx, double hy, double hz )
{
	smpSoup soup{};
	if ( !smpMakeBox( { hx, hy, hz }, 2, &soup ) )
	{
		return nullptr;
	}
	pdMesh* mesh = smpSoupCreateMesh( &soup, nullptr );
	smpFreeSoup( &soup );
	return mesh;
}

// An icosphere of radius 0.2 (320 triangles, poles on y), the spheres of a pour; nullptr on
// failure.
inline pdMesh* makePourSphere()
{
	smpSoup soup{};
	if ( !smpMakeIcosphere( 0.2, 2, &soup ) )
	{
		return nullptr;
	}
	pdMesh* mesh = smpSoupCreateMesh( &soup, nullptr );
	smpFreeSoup( &soup );
	return mesh;
}

// A torus (axis z, R 0.5, r 0.15) as a mesh; nullptr on failure.
inline pdMesh* makeTorus( int majorSegments, int minorSegments )
{
	smpSoup soup{};
	if ( !smpMakeTorus( 0.5, 0.15, majorSegments, minorSegments, &soup ) )
	{
		return nullptr;
	}
	pdMesh* mesh = smpSoupCreateMesh( &soup, nullptr );
	smpFreeSoup( &soup );
	return mesh;
}

// A mesh from xyz doubles and uint32 triangle indices; nullptr on failure.
inline pdMesh* makeMesh( const std::vector<double>& v, const std::vector<uint32_t>& idx )
{
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = v.data();
	def.vertexCount = (int)( v.size() / 3 );
	def.vertexType = PD_SCALAR_FLOAT64;
	def.indices = idx.data();
	def.triangleCount = (int)( idx.size() / 3 );
	def.indexType = PD_INDEX_UINT32;
	return pdCreateMesh( &def, nullptr );
}

// An open, zero-thickness square floor in the plane y = 0, facing +y, cells x cells.
inline pdMesh* makeFloor( double half, int cells )
{
	std::vector<double> v;
	std::vector<uint32_t> idx;
	for ( int i = 0; i <= cells; ++i )
	{
		for ( int j = 0; j <= cells; ++j )
		{
			v.push_back( -half + 2.0 * half * i / cells );
			v.push_back( 0.0 );
			v.push_back( -half + 2.0 * half * j / cells );
		}
	}
	for ( int i = 0; i < cells; ++i )
	{
		for ( int j = 0; j < cells; ++j )
		{
			uint32_t a = (uint32_t)( i * ( cells + 1 ) + j ), b = a + 1, c = a + (uint32_t)( cells + 1 ), d = c + 1;
			// Counter-clockwise seen from +y.
			idx.insert( idx.end(), { a, b, d, a, d, c } );
		}
	}
	return makeMesh( v, idx );
}

// Hamilton product a * b: the rotation b, then a.
inline pdQuat quatMul( const pdQuat& a, const pdQuat& b )
{
	return { a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
			 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w };
}

// Rotation by angle about a coordinate axis (0 x, 1 y, 2 z).
inline pdQuat axisAngle( int axis, double angle )
{
	pdQuat q = { std::cos( 0.5 * angle ), 0.0, 0.0, 0.0 };
	double s = std::sin( 0.5 * angle );
	( axis == 0 ? q.x : axis == 1 ? q.y : q.z ) = s;
	return q;
}

// The torus lying flat: its axis z turned to +y.
const pdQuat kFlat = { 0.70710678118654752, -0.70710678118654752, 0.0, 0.0 };

// Lowest world y of the mesh's vertices rotated by q (translation left out).
inline double lowestRotatedY( const pdMesh* mesh, const pdQuat& q )
{
	double lowest = 1e30;
	for ( int v = 0; v < pdMesh_GetInfo( mesh ).vertexCount; ++v )
	{
		pdVec3 w = pdMesh_GetInfo( mesh ).vertices[v];
		double ry = 2.0 * ( q.x * q.y + q.w * q.z ) * w.x + ( 1.0 - 2.0 * ( q.x * q.x + q.z * q.z ) ) * w.y +
					2.0 * ( q.y * q.z - q.w * q.x ) * w.z;
		lowest = std::min( lowest, ry );
	}
	return lowest;
}

struct WorkspaceHolder
{
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	~WorkspaceHolder() { pdDestroyWorkspace( ws ); }
};

} // namespace
