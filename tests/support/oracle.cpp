// SPDX-License-Identifier: MIT
// Penetration-depth oracles (see oracle.h).
#include "oracle.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace
{

pdVec3 V( double x, double y, double z )
{
	return pdVec3{ x, y, z };
}
pdVec3 Sub( pdVec3 a, pdVec3 b )
{
	return V( a.x - b.x, a.y - b.y, a.z - b.z );
}
pdVec3 Add( pdVec3 a, pdVec3 b )
{
	return V( a.x + b.x, a.y + b.y, a.z + b.z );
}
pdVec3 Scale( pdVec3 a, double s )
{
	return V( a.x * s, a.y * s, a.z * s );
}
double Dot( pdVec3 a, pdVec3 b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}
pdVec3 Cross( pdVec3 a, pdVec3 b )
{
	return V( a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x );
}
double Length( pdVec3 a )
{
	return std::sqrt( Dot( a, a ) );
}

// Rotation of a unit quaternion applied to v.
pdVec3 Rotate( const pdQuat& q0, pdVec3 v )
{
	double n = std::sqrt( q0.w * q0.w + q0.x * q0.x + q0.y * q0.y + q0.z * q0.z );
	pdQuat q = { q0.w / n, q0.x / n, q0.y / n, q0.z / n };
	pdVec3 u = V( q.x, q.y, q.z );
	pdVec3 t = Scale( Cross( u, v ), 2.0 );
	return Add( Add( v, Scale( t, q.w ) ), Cross( u, t ) );
}

std::vector<pdVec3> WorldVertices( const smpSoup& s, const pdTransform& pose )
{
	std::vector<pdVec3> out( s.vertexCount );
	for ( int i = 0; i < s.vertexCount; ++i )
	{
		pdVec3 v = V( s.vertices[3 * i], s.vertices[3 * i + 1], s.vertices[3 * i + 2] );
		out[i] = Add( Rotate( pose.q, v ), pose.p );
	}
	return out;
}

// Unique unit directions (up to sign) of a soup's face normals and edges.
void Directions( const smpSoup& s, const std::vector<pdVec3>& w, std::vector<pdVec3>* normals, std::vector<pdVec3>* edges )
{
	auto addUnique = []( std::vector<pdVec3>* list, pdVec3 d ) {
		double len = Length( d );
		if ( !( len > 1e-12 ) )
		{
			return;
		}
		d = Scale( d, 1.0 / len );
		for ( const pdVec3& e : *list )
		{
			if ( std::fabs( Dot( e, d ) ) > 1.0 - 1e-12 )
			{
				return;
			}
		}
		list->push_back( d );
	};
	for ( int t = 0; t < s.triangleCount; ++t )
	{
		pdVec3 p[3];
		for ( int k = 0; k < 3; ++k )
		{
			p[k] = w[s.indices[3 * t + k]];
		}
		addUnique( normals, Cross( Sub( p[1], p[0] ), Sub( p[2], p[0] ) ) );
		for ( int k = 0; k < 3; ++k )
		{
			addUnique( edges, Sub( p[( k + 1 ) % 3], p[k] ) );
		}
	}
}

void Project( const std::vector<pdVec3>& w, pdVec3 n, double* lo, double* hi )
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for ( const pdVec3& p : w )
	{
		double d = Dot( p, n );
		*lo = std::min( *lo, d );
		*hi = std::max( *hi, d );
	}
}

bool Collides( const pdMesh* a, const pdTransform& poseA, const pdMesh* b, const pdTransform& poseB, pdVec3 t,
			   bool containment, pdWorkspace* ws )
{
	pdTransform moved = poseA;
	moved.p = Add( poseA.p, t );
	pdCollideDef def = pdDefaultCollideDef();
	def.checkContainment = containment;
	pdCollideResult r;
	pdStatus s = pdCollide( a, &moved, b, &poseB, &def, ws, &r );
	return s < 0 || r.colliding;
}

} // namespace

TestOracleResult testOracleConvexPenetration( const smpSoup& a, const pdTransform& poseA, const smpSoup& b,
										  const pdTransform& poseB )
{
	TestOracleResult result;
	std::vector<pdVec3> wa = WorldVertices( a, poseA ), wb = WorldVertices( b, poseB );
	std::vector<pdVec3> axes, edgesA, edgesB;
	Directions( a, wa, &axes, &edgesA );
	Directions( b, wb, &axes, &edgesB );
	for ( const pdVec3& ea : edgesA )
	{
		for ( const pdVec3& eb : edgesB )
		{
			pdVec3 c = Cross( ea, eb );
			double len = Length( c );
			if ( len > 1e-9 )
			{
				axes.push_back( Scale( c, 1.0 / len ) );
			}
		}
	}
	double best = INFINITY;
	for ( const pdVec3& n : axes )
	{
		double loA, hiA, loB, hiB;
		Project( wa, n, &loA, &hiA );
		Project( wb, n, &loB, &hiB );
		double plus = hiB - loA;  // move A along +n
		double minus = hiA - loB; // move A along -n
		if ( plus <= 0.0 || minus <= 0.0 )
		{
			result.ok = true;
			result.depth = 0.0;
			result.translation = V( 0, 0, 0 );
			return result; // separated along n
		}
		if ( plus < best )
		{
			best = plus;
			result.translation = Scale( n, plus );
		}
		if ( minus < best )
		{
			best = minus;
			result.translation = Scale( n, -minus );
		}
	}
	result.ok = best < INFINITY;
	result.depth = result.ok ? best : 0.0;
	return result;
}

TestOracleResult testOracleBoxBox( pdVec3 centerA, pdVec3 halfA, pdVec3 centerB, pdVec3 halfB )
{
	TestOracleResult result;
	double c[3] = { centerA.x - centerB.x, centerA.y - centerB.y, centerA.z - centerB.z };
	double h[3] = { halfA.x + halfB.x, halfA.y + halfB.y, halfA.z + halfB.z };
	double best = INFINITY;
	for ( int axis = 0; axis < 3; ++axis )
	{
		double plus = h[axis] - c[axis];
		double minus = h[axis] + c[axis];
		double d[3] = { 0, 0, 0 };
		if ( plus < best )
		{
			best = plus;
			d[axis] = plus;
			result.translation = V( d[0], d[1], d[2] );
		}
		d[axis] = 0;
		if ( minus < best )
		{
			best = minus;
			d[axis] = -minus;
			result.translation = V( d[0], d[1], d[2] );
		}
	}
	result.ok = best > 0.0;
	result.depth = result.ok ? best : 0.0;
	if ( !result.ok )
	{
		result.translation = V( 0, 0, 0 );
	}
	return result;
}

TestOracleResult testOracleSphereSphere( pdVec3 centerA, double radiusA, pdVec3 centerB, double radiusB )
{
	TestOracleResult result;
	pdVec3 d = Sub( centerA, centerB );
	double len = Length( d );
	double depth = radiusA + radiusB - len;
	result.ok = depth > 0.0;
	result.depth = result.ok ? depth : 0.0;
	pdVec3 u = len > 0.0 ? Scale( d, 1.0 / len ) : V( 1, 0, 0 );
	result.translation = Scale( u, result.depth );
	return result;
}

TestOracleResult testOracleDirectionalPenetration( const pdMesh* a, const pdTransform& poseA, const pdMesh* b,
											   const pdTransform& poseB, int directions, bool containment,
											   pdWorkspace* ws )
{
	TestOracleResult result;
	// Enclosing radius of both meshes around A's bounds centre: beyond 2*(rA + rB) + |offset|
	// every direction is free.
	pdVec3 loA, hiA, loB, hiB;
	loA = pdMesh_GetInfo( a ).boundsMin;
	hiA = pdMesh_GetInfo( a ).boundsMax;
	loB = pdMesh_GetInfo( b ).boundsMin;
	hiB = pdMesh_GetInfo( b ).boundsMax;
	double rA = 0.5 * Length( Sub( hiA, loA ) ), rB = 0.5 * Length( Sub( hiB, loB ) );
	pdVec3 cA = Add( Rotate( poseA.q, Scale( Add( loA, hiA ), 0.5 ) ), poseA.p );
	pdVec3 cB = Add( Rotate( poseB.q, Scale( Add( loB, hiB ), 0.5 ) ), poseB.p );
	double reach = rA + rB + Length( Sub( cA, cB ) );
	double step = reach / 250.0;
	double best = INFINITY;
	pdVec3 bestDir = V( 1, 0, 0 );

	// Smallest free t along u, looking no farther than limit (INFINITY when none found).
	auto along = [&]( pdVec3 u, double limit ) {
		double prev = 0.0;
		for ( int k = 1; k <= 500; ++k )
		{
			double t = k * step;
			if ( t > limit )
			{
				// Only the limit itself can still tie the best.
				t = limit;
			}
			if ( !Collides( a, poseA, b, poseB, Scale( u, t ), containment, ws ) )
			{
				double lo = prev, hi = t;
				for ( int i = 0; i < 30; ++i )
				{
					double mid = 0.5 * ( lo + hi );
					if ( Collides( a, poseA, b, poseB, Scale( u, mid ), containment, ws ) )
					{
						lo = mid;
					}
					else
					{
						hi = mid;
					}
				}
				return hi;
			}
			if ( t >= limit )
			{
				return (double)INFINITY;
			}
			prev = t;
		}
		return (double)INFINITY;
	};

	std::vector<std::pair<double, pdVec3>> found;
	const double golden = 2.399963229728653;
	for ( int i = 0; i < directions; ++i )
	{
		double z = 1.0 - ( 2.0 * i + 1.0 ) / directions;
		double r = std::sqrt( std::max( 0.0, 1.0 - z * z ) );
		pdVec3 u = V( r * std::cos( golden * i ), r * std::sin( golden * i ), z );
		double t = along( u, best );
		if ( t < INFINITY )
		{
			found.push_back( { t, u } );
			if ( t < best )
			{
				best = t;
				bestDir = u;
			}
		}
	}
	// Local search around the best few directions with shrinking angles.
	std::sort( found.begin(), found.end(), []( const auto& x, const auto& y ) { return x.first < y.first; } );
	int seeds = std::min<int>( 4, (int)found.size() );
	double spacing = std::sqrt( 4.0 * M_PI / std::max( 1, directions ) );
	for ( int s = 0; s < seeds; ++s )
	{
		pdVec3 u = found[s].second;
		double tu = found[s].first;
		for ( double angle = spacing; angle > 1e-3; angle *= 0.5 )
		{
			bool moved = true;
			for ( int round = 0; round < 4 && moved; ++round )
			{
				moved = false;
				pdVec3 e1 = std::fabs( u.x ) < 0.9 ? Cross( u, V( 1, 0, 0 ) ) : Cross( u, V( 0, 1, 0 ) );
				e1 = Scale( e1, 1.0 / Length( e1 ) );
				pdVec3 e2 = Cross( u, e1 );
				for ( int k = 0; k < 8; ++k )
				{
					double phi = k * M_PI / 4.0;
					pdVec3 w = Add( Scale( u, std::cos( angle ) ),
									Scale( Add( Scale( e1, std::cos( phi ) ), Scale( e2, std::sin( phi ) ) ), std::sin( angle ) ) );
					w = Scale( w, 1.0 / Length( w ) );
					double t = along( w, tu );
					if ( t < tu )
					{
						tu = t;
						u = w;
						moved = true;
					}
				}
			}
		}
		if ( tu < best )
		{
			best = tu;
			bestDir = u;
		}
	}
	result.ok = best < INFINITY;
	result.depth = result.ok ? best : 0.0;
	result.translation = result.ok ? Scale( bestDir, best ) : V( 0, 0, 0 );
	return result;
}

bool testOracleIsValidAnswer( const pdMesh* a, const pdTransform& poseA, const pdMesh* b, const pdTransform& poseB,
							pdVec3 t, double tolerance, bool containment, pdWorkspace* ws )
{
	if ( !Collides( a, poseA, b, poseB, t, containment, ws ) )
	{
		return true;
	}
	double len = Length( t );
	pdVec3 u = len > 0.0 ? Scale( t, 1.0 / len ) : V( 1, 0, 0 );
	return !Collides( a, poseA, b, poseB, Add( t, Scale( u, tolerance ) ), containment, ws );
}
