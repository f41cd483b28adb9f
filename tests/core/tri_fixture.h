// SPDX-License-Identifier: MIT
// Shared by the triangle-pair tests (tri_distance, tri_features): a long-double vertex-face /
// edge-edge reference, barycentric sampling, an exact integer intersection test, and seeded
// random triangles with their vertex-order and winding variants.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

extern "C"
{
#include "tri_distance.h"
}

typedef long double Ld;

struct LdVec
{
	Ld x, y, z;
};

inline LdVec L( pdVec3 v )
{
	return { v.x, v.y, v.z };
}
inline LdVec operator-( LdVec a, LdVec b )
{
	return { a.x - b.x, a.y - b.y, a.z - b.z };
}
inline LdVec operator+( LdVec a, LdVec b )
{
	return { a.x + b.x, a.y + b.y, a.z + b.z };
}
inline LdVec operator*( LdVec a, Ld s )
{
	return { a.x * s, a.y * s, a.z * s };
}
inline Ld Dot( LdVec a, LdVec b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline LdVec Cross( LdVec a, LdVec b )
{
	return { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
}
inline Ld Clamp01( Ld x )
{
	return x < 0 ? 0 : ( x > 1 ? 1 : x );
}

struct Tri
{
	pdVec3 v[3];
};

inline pdVec3 V( double x, double y, double z )
{
	return pdVec3{ x, y, z };
}

// --- Independent reference (long double, simple formulas) -------------------------------

inline Ld RefPointSegmentSq( LdVec p, LdVec a, LdVec b )
{
	LdVec d = b - a;
	Ld e = Dot( d, d );
	Ld t = e > 0 ? Clamp01( Dot( p - a, d ) / e ) : 0;
	LdVec c = a + d * t;
	return Dot( p - c, p - c );
}

inline Ld RefSegmentSegmentSq( LdVec p0, LdVec p1, LdVec q0, LdVec q1 )
{
	Ld best = RefPointSegmentSq( p0, q0, q1 );
	best = std::min( best, RefPointSegmentSq( p1, q0, q1 ) );
	best = std::min( best, RefPointSegmentSq( q0, p0, p1 ) );
	best = std::min( best, RefPointSegmentSq( q1, p0, p1 ) );
	// Interior critical point of the 2x2 normal equations.
	LdVec d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
	Ld a = Dot( d1, d1 ), e = Dot( d2, d2 ), b = Dot( d1, d2 ), c = Dot( d1, r ), f = Dot( d2, r );
	Ld den = a * e - b * b;
	if ( den > 1e-30L * a * e && den > 0 )
	{
		Ld s = ( b * f - c * e ) / den, t = ( a * f - b * c ) / den;
		if ( s > 0 && s < 1 && t > 0 && t < 1 )
		{
			LdVec x = ( p0 + d1 * s ) - ( q0 + d2 * t );
			best = std::min( best, Dot( x, x ) );
		}
	}
	return best;
}

// Vertex to the face interior only (edges are covered by the segment pairs).
inline Ld RefPointFaceSq( LdVec p, const Tri& t, bool* inside )
{
	LdVec a = L( t.v[0] ), b = L( t.v[1] ), c = L( t.v[2] );
	LdVec n = Cross( b - a, c - a );
	Ld nn = Dot( n, n );
	*inside = false;
	if ( !( nn > 0 ) )
	{
		return 0;
	}
	Ld u = Dot( Cross( b - a, p - a ), n ), v = Dot( Cross( c - b, p - b ), n ), w = Dot( Cross( a - c, p - c ), n );
	if ( u < 0 || v < 0 || w < 0 )
	{
		return 0;
	}
	*inside = true;
	Ld s = Dot( n, p - a );
	return s * s / nn;
}

// Some edge of one strictly crosses the other's plane inside the closed face.
inline bool RefPierce( const Tri& a, const Tri& b )
{
	for ( int pass = 0; pass < 2; ++pass )
	{
		const Tri& f = pass == 0 ? a : b;
		const Tri& g = pass == 0 ? b : a;
		LdVec f0 = L( f.v[0] ), f1 = L( f.v[1] ), f2 = L( f.v[2] );
		LdVec n = Cross( f1 - f0, f2 - f0 );
		for ( int i = 0; i < 3; ++i )
		{
			LdVec p = L( g.v[i] ), q = L( g.v[( i + 1 ) % 3] );
			Ld sp = Dot( n, p - f0 ), sq = Dot( n, q - f0 );
			if ( !( ( sp > 0 && sq < 0 ) || ( sp < 0 && sq > 0 ) ) )
			{
				continue;
			}
			LdVec x = p + ( q - p ) * ( sp / ( sp - sq ) );
			Ld u = Dot( Cross( f1 - f0, x - f0 ), n ), v = Dot( Cross( f2 - f1, x - f1 ), n ),
			   w = Dot( Cross( f0 - f2, x - f2 ), n );
			if ( u >= 0 && v >= 0 && w >= 0 )
			{
				return true;
			}
		}
	}
	return false;
}

// Reference distance: 0 when an edge pierces a face, else the 15-feature minimum.
inline Ld RefDistance( const Tri& a, const Tri& b, bool* pierced = nullptr )
{
	bool p = RefPierce( a, b );
	if ( pierced )
	{
		*pierced = p;
	}
	if ( p )
	{
		return 0;
	}
	Ld best = INFINITY;
	for ( int i = 0; i < 3; ++i )
	{
		bool in;
		Ld d = RefPointFaceSq( L( a.v[i] ), b, &in );
		if ( in )
		{
			best = std::min( best, d );
		}
		d = RefPointFaceSq( L( b.v[i] ), a, &in );
		if ( in )
		{
			best = std::min( best, d );
		}
		for ( int j = 0; j < 3; ++j )
		{
			best = std::min( best, RefSegmentSegmentSq( L( a.v[i] ), L( a.v[( i + 1 ) % 3] ), L( b.v[j] ),
														L( b.v[( j + 1 ) % 3] ) ) );
		}
	}
	return sqrtl( best );
}

// Distance of a point to the closed triangle (for checking reported closest points).
inline Ld RefPointTriangle( pdVec3 p, const Tri& t )
{
	bool in;
	Ld d = RefPointFaceSq( L( p ), t, &in );
	Ld best = in ? d : INFINITY;
	for ( int i = 0; i < 3; ++i )
	{
		best = std::min( best, RefPointSegmentSq( L( p ), L( t.v[i] ), L( t.v[( i + 1 ) % 3] ) ) );
	}
	return sqrtl( best );
}

// Upper bound by sampling both barycentric grids.
inline double SampledDistance( const Tri& a, const Tri& b, int n )
{
	double best = INFINITY;
	for ( int i = 0; i <= n; ++i )
	{
		for ( int j = 0; i + j <= n; ++j )
		{
			double u = double( i ) / n, v = double( j ) / n;
			pdVec3 pa = V( a.v[0].x + u * ( a.v[1].x - a.v[0].x ) + v * ( a.v[2].x - a.v[0].x ),
						   a.v[0].y + u * ( a.v[1].y - a.v[0].y ) + v * ( a.v[2].y - a.v[0].y ),
						   a.v[0].z + u * ( a.v[1].z - a.v[0].z ) + v * ( a.v[2].z - a.v[0].z ) );
			for ( int k = 0; k <= n; ++k )
			{
				for ( int l = 0; k + l <= n; ++l )
				{
					double s = double( k ) / n, t = double( l ) / n;
					double x = b.v[0].x + s * ( b.v[1].x - b.v[0].x ) + t * ( b.v[2].x - b.v[0].x ) - pa.x;
					double y = b.v[0].y + s * ( b.v[1].y - b.v[0].y ) + t * ( b.v[2].y - b.v[0].y ) - pa.y;
					double z = b.v[0].z + s * ( b.v[1].z - b.v[0].z ) + t * ( b.v[2].z - b.v[0].z ) - pa.z;
					best = std::min( best, x * x + y * y + z * z );
				}
			}
		}
	}
	return std::sqrt( best );
}

// --- Exact oracle on integer inputs: 0 in conv{a_i - b_j} by Caratheodory -----------------

struct IVec
{
	int64_t x, y, z;
};
inline IVec ISub( IVec a, IVec b )
{
	return { a.x - b.x, a.y - b.y, a.z - b.z };
}
inline IVec ICross( IVec a, IVec b )
{
	return { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
}
inline int64_t IDot( IVec a, IVec b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline bool IZero( IVec a )
{
	return a.x == 0 && a.y == 0 && a.z == 0;
}
inline int Sign( int64_t x )
{
	return ( x > 0 ) - ( x < 0 );
}

inline bool OriginInSegment( IVec p, IVec q )
{
	return IZero( ICross( p, q ) ) && IDot( p, q ) <= 0;
}

inline bool OriginInTriangle( IVec p, IVec q, IVec r )
{
	IVec n = ICross( ISub( q, p ), ISub( r, p ) );
	if ( IZero( n ) || IDot( n, p ) != 0 )
	{
		return false; // degenerate ones are covered by the segments
	}
	IVec o = { 0, 0, 0 };
	return IDot( ICross( ISub( q, p ), ISub( o, p ) ), n ) >= 0 &&
		   IDot( ICross( ISub( r, q ), ISub( o, q ) ), n ) >= 0 && IDot( ICross( ISub( p, r ), ISub( o, r ) ), n ) >= 0;
}

inline int64_t Orient( IVec a, IVec b, IVec c, IVec d )
{
	return IDot( ISub( b, a ), ICross( ISub( c, a ), ISub( d, a ) ) );
}

inline bool OriginInTetra( IVec p, IVec q, IVec r, IVec s )
{
	int64_t vol = Orient( p, q, r, s );
	if ( vol == 0 )
	{
		return false;
	}
	IVec o = { 0, 0, 0 };
	int sv = Sign( vol );
	return Sign( Orient( o, q, r, s ) ) * sv >= 0 && Sign( Orient( p, o, r, s ) ) * sv >= 0 &&
		   Sign( Orient( p, q, o, s ) ) * sv >= 0 && Sign( Orient( p, q, r, o ) ) * sv >= 0;
}

inline bool ExactIntersect( const IVec a[3], const IVec b[3] )
{
	IVec d[9];
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = 0; j < 3; ++j )
		{
			d[3 * i + j] = ISub( a[i], b[j] );
		}
	}
	for ( int i = 0; i < 9; ++i )
	{
		if ( IZero( d[i] ) )
		{
			return true;
		}
		for ( int j = i + 1; j < 9; ++j )
		{
			if ( OriginInSegment( d[i], d[j] ) )
			{
				return true;
			}
			for ( int k = j + 1; k < 9; ++k )
			{
				if ( OriginInTriangle( d[i], d[j], d[k] ) )
				{
					return true;
				}
				for ( int l = k + 1; l < 9; ++l )
				{
					if ( OriginInTetra( d[i], d[j], d[k], d[l] ) )
					{
						return true;
					}
				}
			}
		}
	}
	return false;
}

// --- Helpers ----------------------------------------------------------------------------

struct Rng
{
	std::mt19937_64 gen;
	explicit Rng( uint64_t seed ) : gen( seed ) {}
	double Uniform( double lo, double hi ) { return std::uniform_real_distribution<double>( lo, hi )( gen ); }
	int Int( int lo, int hi ) { return std::uniform_int_distribution<int>( lo, hi )( gen ); }
	pdVec3 Point( double r ) { return V( Uniform( -r, r ), Uniform( -r, r ), Uniform( -r, r ) ); }
};

inline Tri RandomTri( Rng& rng, pdVec3 center, double size )
{
	Tri t;
	for ( int k = 0; k < 3; ++k )
	{
		pdVec3 p = rng.Point( size );
		t.v[k] = V( center.x + p.x, center.y + p.y, center.z + p.z );
	}
	return t;
}

inline Tri Translate( const Tri& t, pdVec3 d )
{
	Tri r;
	for ( int k = 0; k < 3; ++k )
	{
		r.v[k] = V( t.v[k].x + d.x, t.v[k].y + d.y, t.v[k].z + d.z );
	}
	return r;
}

// Variant k of 6: cyclic rotation k%3, winding reversed when k >= 3.
inline Tri Variant( const Tri& t, int k )
{
	int rot = k % 3;
	Tri r;
	for ( int i = 0; i < 3; ++i )
	{
		int src = ( i + rot ) % 3;
		if ( k >= 3 )
		{
			src = ( 3 - i + rot ) % 3;
		}
		r.v[i] = t.v[src];
	}
	return r;
}

inline double Dist( const Tri& a, const Tri& b, pdVec3* pa = nullptr, pdVec3* pb = nullptr )
{
	return pdiTriangleDistance( a.v, b.v, pa, pb, nullptr, nullptr );
}

inline double Size( const Tri& a, const Tri& b )
{
	double m = 0;
	for ( const Tri* t : { &a, &b } )
	{
		for ( int i = 0; i < 3; ++i )
		{
			m = std::max( m, pdiLength( pdiSub( t->v[i], t->v[( i + 1 ) % 3] ) ) );
		}
	}
	return m;
}

inline double Gap( pdVec3 a, pdVec3 b )
{
	return pdiLength( pdiSub( a, b ) );
}

// The unit right triangle in the z = 0 plane, the fixed partner of the special configurations.
const Tri kBase = { { V( 0, 0, 0 ), V( 1, 0, 0 ), V( 0, 1, 0 ) } };
