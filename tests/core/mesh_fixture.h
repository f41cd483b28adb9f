// SPDX-License-Identifier: MIT
// Shared by the mesh tests (creation, validation, topology): a soup built by hand, generators
// with known topology (box, icosahedron, torus), the def of a soup and an owning mesh handle.
#pragma once

#include <gtest/gtest.h>

extern "C"
{
#include "core.h"
#include "mesh.h"
}

#include <cmath>
#include <cstdint>
#include <vector>

struct Soup
{
	std::vector<double> v;   // xyz per vertex
	std::vector<uint32_t> t; // 3 per triangle

	int VertexCount() const { return (int)( v.size() / 3 ); }
	int TriangleCount() const { return (int)( t.size() / 3 ); }
	pdVec3 P( uint32_t i ) const { return { v[3 * i], v[3 * i + 1], v[3 * i + 2] }; }
	uint32_t Add( double x, double y, double z )
	{
		v.push_back( x );
		v.push_back( y );
		v.push_back( z );
		return (uint32_t)( v.size() / 3 - 1 );
	}
	void Tri( uint32_t a, uint32_t b, uint32_t c )
	{
		t.push_back( a );
		t.push_back( b );
		t.push_back( c );
	}
};

inline pdVec3 Sub( pdVec3 a, pdVec3 b )
{
	return { a.x - b.x, a.y - b.y, a.z - b.z };
}
inline pdVec3 Cross( pdVec3 a, pdVec3 b )
{
	return { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
}
inline double Dot( pdVec3 a, pdVec3 b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

// Adds a triangle oriented so that its normal points along `outward`.
inline void TriFacing( Soup& s, uint32_t a, uint32_t b, uint32_t c, pdVec3 outward )
{
	pdVec3 n = Cross( Sub( s.P( b ), s.P( a ) ), Sub( s.P( c ), s.P( a ) ) );
	if ( Dot( n, outward ) < 0.0 )
	{
		s.Tri( a, c, b );
	}
	else
	{
		s.Tri( a, b, c );
	}
}

// Axis-aligned box, outward winding. welded = false gives every triangle its own 3 vertices.
inline Soup MakeBox( pdVec3 center, pdVec3 half, bool welded = true )
{
	Soup s;
	for ( int i = 0; i < 8; ++i )
	{
		s.Add( center.x + ( ( i & 1 ) ? half.x : -half.x ), center.y + ( ( i & 2 ) ? half.y : -half.y ),
			   center.z + ( ( i & 4 ) ? half.z : -half.z ) );
	}
	for ( int axis = 0; axis < 3; ++axis )
	{
		int u = 1 << ( ( axis + 1 ) % 3 ), w = 1 << ( ( axis + 2 ) % 3 ), a = 1 << axis;
		for ( int side = 0; side < 2; ++side )
		{
			uint32_t base = side ? (uint32_t)a : 0u;
			uint32_t q[4] = { base, base + u, base + u + w, base + w };
			pdVec3 out = { 0.0, 0.0, 0.0 };
			( axis == 0 ? out.x : axis == 1 ? out.y : out.z ) = side ? 1.0 : -1.0;
			TriFacing( s, q[0], q[1], q[2], out );
			TriFacing( s, q[0], q[2], q[3], out );
		}
	}
	if ( !welded )
	{
		Soup u;
		for ( size_t i = 0; i < s.t.size(); ++i )
		{
			pdVec3 p = s.P( s.t[i] );
			u.t.push_back( u.Add( p.x, p.y, p.z ) );
		}
		return u;
	}
	return s;
}

inline Soup MakeIcosahedron()
{
	Soup s;
	const double g = ( 1.0 + std::sqrt( 5.0 ) ) * 0.5;
	const double p[12][3] = { { -1, g, 0 },  { 1, g, 0 },  { -1, -g, 0 }, { 1, -g, 0 }, { 0, -1, g },  { 0, 1, g },
							  { 0, -1, -g }, { 0, 1, -g }, { g, 0, -1 },  { g, 0, 1 },  { -g, 0, -1 }, { -g, 0, 1 } };
	for ( auto& q : p )
	{
		s.Add( q[0], q[1], q[2] );
	}
	// Faces = triples of mutually adjacent vertices (edge length 2).
	for ( uint32_t a = 0; a < 12; ++a )
		for ( uint32_t b = a + 1; b < 12; ++b )
			for ( uint32_t c = b + 1; c < 12; ++c )
			{
				auto near = [&]( uint32_t i, uint32_t j )
				{ return std::fabs( Dot( Sub( s.P( i ), s.P( j ) ), Sub( s.P( i ), s.P( j ) ) ) - 4.0 ) < 1e-9; };
				if ( near( a, b ) && near( b, c ) && near( a, c ) )
				{
					pdVec3 pa = s.P( a ), pb = s.P( b ), pc = s.P( c );
					TriFacing( s, a, b, c, { pa.x + pb.x + pc.x, pa.y + pb.y + pc.y, pa.z + pb.z + pc.z } );
				}
			}
	return s;
}

inline Soup MakeTorus( double R, double r, int nu, int nv )
{
	Soup s;
	const double pi = 3.14159265358979323846;
	for ( int i = 0; i < nu; ++i )
		for ( int j = 0; j < nv; ++j )
		{
			double u = 2.0 * pi * i / nu, w = 2.0 * pi * j / nv;
			s.Add( ( R + r * std::cos( w ) ) * std::cos( u ), ( R + r * std::cos( w ) ) * std::sin( u ),
				   r * std::sin( w ) );
		}
	auto id = [&]( int i, int j ) { return (uint32_t)( ( i % nu ) * nv + ( j % nv ) ); };
	for ( int i = 0; i < nu; ++i )
		for ( int j = 0; j < nv; ++j )
		{
			uint32_t q[4] = { id( i, j ), id( i + 1, j ), id( i + 1, j + 1 ), id( i, j + 1 ) };
			for ( int k = 0; k < 2; ++k )
			{
				uint32_t a = q[0], b = q[1 + k], c = q[2 + k];
				pdVec3 pa = s.P( a ), pb = s.P( b ), pc = s.P( c );
				pdVec3 m = { ( pa.x + pb.x + pc.x ) / 3, ( pa.y + pb.y + pc.y ) / 3, ( pa.z + pb.z + pc.z ) / 3 };
				double len = std::sqrt( m.x * m.x + m.y * m.y );
				pdVec3 tube = { R * m.x / len, R * m.y / len, 0.0 };
				TriFacing( s, a, b, c, Sub( m, tube ) );
			}
		}
	return s;
}

inline pdMeshDef DefOf( const Soup& s )
{
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = s.v.data();
	def.vertexCount = s.VertexCount();
	def.indices = s.t.data();
	def.triangleCount = s.TriangleCount();
	def.buildOrientationGraph = false;
	def.computeClearancePoints = false;
	return def;
}

struct MeshPtr
{
	pdMesh* m;
	explicit MeshPtr( pdMesh* mesh ) : m( mesh ) {}
	~MeshPtr() { pdDestroyMesh( m ); }
	pdMesh* operator->() const { return m; }
	MeshPtr( const MeshPtr& ) = delete;
	MeshPtr& operator=( const MeshPtr& ) = delete;
};

inline int CountEdges( const pdMesh* m, int flag )
{
	int n = 0;
	for ( int e = 0; e < m->edgeCount; ++e )
	{
		n += ( m->edges[e].flags & flag ) ? 1 : 0;
	}
	return n;
}

inline int EulerCharacteristic( const pdMesh* m )
{
	return m->canonicalVertexCount - m->edgeCount + m->triangleCount;
}
