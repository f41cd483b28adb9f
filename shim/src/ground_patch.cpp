// SPDX-License-Identifier: MIT
// Ground shapes (btStaticPlaneShape, btHeightfieldTerrainShape) as closed solids under one
// body: a per-pair mesh in the ground's own frame, built from the part of the ground under the
// body's bounds and kept while the body stays well inside it.
//
// The ground is treated as the solid below its surface (a plane's half-space, the terrain's
// column of earth), so a body that sank or tunnelled is pushed back up, never through. The
// solid is cut off by side walls and a bottom placed so that leaving through them is always
// longer than leaving through the surface: the sizes follow from the deepest the body can be
// (see updatePlane and updateTerrain), and a body that moves out of that guarantee gets a new
// patch. The mesh is never the whole ground: a plane is a box of 12 triangles, a terrain the
// cells under the body's footprint plus a margin, and their walls.
#include "shim_internal.h"

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace polydepth::bullet
{
inline namespace PD_BULLET_ABI
{

namespace
{
// Terrain patches widen their margin this many times when the body is deeper than the margin.
constexpr int kMaxWidening = 4;

pdMesh* createMesh( const ShapeTriangles& t )
{
	if ( t.vertices.empty() || t.indices.empty() )
	{
		return nullptr;
	}
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = t.vertices.data();
	def.vertexCount = (int)( t.vertices.size() / 3 );
	def.vertexType = PD_SCALAR_FLOAT64;
	def.indices = t.indices.data();
	def.triangleCount = (int)( t.indices.size() / 3 );
	def.indexType = PD_INDEX_UINT32;
	pdMeshReport report;
	return pdCreateMesh( &def, &report );
}

uint64_t mixBits( uint64_t h, double v )
{
	uint64_t bits = 0;
	std::memcpy( &bits, &v, sizeof( bits ) );
	h ^= bits + 0x9E3779B97F4A7C15ull + ( h << 6 ) + ( h >> 2 );
	return h * 0xBF58476D1CE4E5B9ull;
}

struct VertexKey
{
	double x, y, z;
	bool operator==( const VertexKey& o ) const { return x == o.x && y == o.y && z == o.z; }
};

struct VertexKeyHash
{
	size_t operator()( const VertexKey& k ) const
	{
		return (size_t)mixBits( mixBits( mixBits( 0x7ull, k.x ), k.y ), k.z );
	}
};

// The terrain's triangles in an AABB (terrain frame), as flat coordinates, 9 per triangle.
struct GatherTriangles : btTriangleCallback
{
	std::vector<double>* out;
	void processTriangle( btVector3* triangle, int, int ) override
	{
		for ( int k = 0; k < 3; ++k )
		{
			out->insert( out->end(), { (double)triangle[k].x(), (double)triangle[k].y(), (double)triangle[k].z() } );
		}
	}
};

} // namespace

bool isGroundShape( const btCollisionShape* shape )
{
	return shape != nullptr &&
		   ( shape->getShapeType() == STATIC_PLANE_PROXYTYPE || shape->getShapeType() == TERRAIN_SHAPE_PROXYTYPE );
}

GroundPatch::~GroundPatch()
{
	pdDestroyMesh( m_mesh );
}

void GroundPatch::replace( pdMesh* mesh )
{
	// The new mesh is created before the old one is freed, so its address differs and the
	// pair state's record of the mesh it was made for (held contacts) cannot match it by chance.
	pdDestroyMesh( m_mesh );
	m_mesh = mesh;
	m_triangles = mesh != nullptr ? pdMesh_GetInfo( mesh ).triangleCount : 0;
	++m_builds;
}

// A plane n . x = c (n unit, the ground's frame) under a body whose bounding sphere (grown by
// the reach) has centre p and radius R, at height h = n . p - c. The deepest point of the body
// is at most dmax = R - h below the plane, so leaving upward takes at most dmax. The patch is
// a box whose top face is the plane, half-width W about (u0, v0) in the plane, depth D, built
// for R <= Rb, dmax <= Db and the centre within Rb of (u0, v0) in each tangent direction:
//   - down, the body's top (at least h - R high) must pass the bottom at -D: at least
//     D + h - R, longer than dmax when D > 2 dmax; D = 2 Db + Rb.
//   - sideways, all of it must pass a wall W from (u0, v0): at least W - 2 Rb, longer than
//     dmax when W > Db + 2 Rb; W = Db + 3 Rb.
// Outside those bounds the box is built anew, with Db = max(2 dmax, R) for room to sink.
const pdMesh* GroundPatch::updatePlane( const btStaticPlaneShape* plane, const btVector3& centre, double radius )
{
	btVector3 nb = plane->getPlaneNormal();
	double nx = (double)nb.x(), ny = (double)nb.y(), nz = (double)nb.z();
	double len = std::sqrt( nx * nx + ny * ny + nz * nz );
	double c = (double)plane->getPlaneConstant();
	if ( !( len > 0.0 ) || !std::isfinite( len ) || !std::isfinite( c ) )
	{
		m_failed = true;
		return nullptr;
	}
	nx /= len;
	ny /= len;
	nz /= len;
	c /= len;
	btVector3 t1b, t2b;
	btPlaneSpace1( btVector3( (btScalar)nx, (btScalar)ny, (btScalar)nz ), t1b, t2b );
	double t1[3] = { (double)t1b.x(), (double)t1b.y(), (double)t1b.z() };
	double t2[3] = { (double)t2b.x(), (double)t2b.y(), (double)t2b.z() };
	double p[3] = { (double)centre.x(), (double)centre.y(), (double)centre.z() };
	double h = nx * p[0] + ny * p[1] + nz * p[2] - c;
	double u = t1[0] * p[0] + t1[1] * p[1] + t1[2] * p[2];
	double v = t2[0] * p[0] + t2[1] * p[1] + t2[2] * p[2];
	double dmax = std::fmax( 0.0, radius - h );
	if ( !std::isfinite( h ) || !std::isfinite( u ) || !std::isfinite( v ) || !( radius > 0.0 ) ||
		 !std::isfinite( radius ) )
	{
		return nullptr;
	}
	uint64_t planeKey = mixBits( mixBits( mixBits( mixBits( 0x9ull, nx ), ny ), nz ), c );
	if ( m_mesh != nullptr && m_key == planeKey && radius <= m_radius && dmax <= m_depth &&
		 std::fabs( u - m_u ) <= m_radius && std::fabs( v - m_v ) <= m_radius )
	{
		return m_mesh;
	}
	m_key = planeKey;
	m_radius = radius;
	m_depth = std::fmax( 2.0 * dmax, radius );
	m_u = u;
	m_v = v;
	double w = m_depth + 3.0 * m_radius;
	double d = 2.0 * m_depth + m_radius;
	ShapeTriangles box;
	for ( int i = 0; i < 8; ++i )
	{
		double su = ( i & 1 ) ? w : -w, sv = ( i & 2 ) ? w : -w, sn = ( i & 4 ) ? 0.0 : -d;
		double n[3] = { nx, ny, nz };
		for ( int k = 0; k < 3; ++k )
		{
			box.vertices.push_back( n[k] * ( c + sn ) + t1[k] * ( u + su ) + t2[k] * ( v + sv ) );
		}
	}
	static const uint32_t kFaces[6][4] = { { 0, 2, 3, 1 }, { 4, 5, 7, 6 }, { 0, 1, 5, 4 },
										   { 2, 6, 7, 3 }, { 0, 4, 6, 2 }, { 1, 3, 7, 5 } };
	for ( const auto& f : kFaces )
	{
		box.indices.insert( box.indices.end(), { f[0], f[1], f[2], f[0], f[2], f[3] } );
	}
	const char* problem = nullptr;
	replace( orientConvexTriangles( box, &problem ) ? createMesh( box ) : nullptr );
	return m_mesh;
}

// The terrain's triangles over [lo, hi] on the two lateral axes (the whole height range).
void GroundPatch::gather( const btHeightfieldTerrainShape* terrain, const double lo[2], const double hi[2],
						  std::vector<double>& out ) const
{
	int up = terrain->getUpAxis();
	int a = ( up + 1 ) % 3, b = ( up + 2 ) % 3;
	btVector3 qmin, qmax;
	qmin[up] = -BT_LARGE_FLOAT;
	qmax[up] = BT_LARGE_FLOAT;
	qmin[a] = (btScalar)lo[0];
	qmax[a] = (btScalar)hi[0];
	qmin[b] = (btScalar)lo[1];
	qmax[b] = (btScalar)hi[1];
	out.clear();
	GatherTriangles cb;
	cb.out = &out;
	terrain->processAllTriangles( &cb, qmin, qmax );
}

// The terrain surface triangles as a closed solid down to `bottom`: vertices welded (the
// terrain hands out the same values for a grid point from every cell), every triangle wound
// up, a wall under every boundary edge and a fan across the bottom.
bool GroundPatch::buildTerrainSolid( int up, const std::vector<double>& soup, double bottom, ShapeTriangles& out )
{
	out.vertices.clear();
	out.indices.clear();
	int a = ( up + 1 ) % 3, b = ( up + 2 ) % 3;
	std::unordered_map<VertexKey, uint32_t, VertexKeyHash> index;
	auto vertexOf = [&]( const double* p )
	{
		VertexKey key{ p[0], p[1], p[2] };
		auto it = index.find( key );
		if ( it != index.end() )
		{
			return it->second;
		}
		uint32_t i = (uint32_t)( out.vertices.size() / 3 );
		out.vertices.insert( out.vertices.end(), { p[0], p[1], p[2] } );
		index.emplace( key, i );
		return i;
	};
	for ( size_t t = 0; t + 9 <= soup.size(); t += 9 )
	{
		const double* p = soup.data() + t;
		// Counter-clockwise on the (a, b) axes is right-handed about +up.
		double cross = ( p[3 + a] - p[a] ) * ( p[6 + b] - p[b] ) - ( p[3 + b] - p[b] ) * ( p[6 + a] - p[a] );
		if ( !( std::fabs( cross ) > 0.0 ) )
		{
			continue;
		}
		uint32_t i0 = vertexOf( p ), i1 = vertexOf( p + 3 ), i2 = vertexOf( p + 6 );
		if ( cross > 0.0 )
		{
			out.indices.insert( out.indices.end(), { i0, i1, i2 } );
		}
		else
		{
			out.indices.insert( out.indices.end(), { i0, i2, i1 } );
		}
	}
	if ( out.indices.empty() )
	{
		return false;
	}
	// Boundary edges: directed edges whose reverse no triangle has.
	std::unordered_map<uint64_t, int> directed;
	auto edgeKey = []( uint32_t from, uint32_t to ) { return ( (uint64_t)from << 32 ) | to; };
	for ( size_t t = 0; t < out.indices.size(); t += 3 )
	{
		for ( int k = 0; k < 3; ++k )
		{
			directed[edgeKey( out.indices[t + k], out.indices[t + ( k + 1 ) % 3] )] += 1;
		}
	}
	std::vector<std::pair<uint32_t, uint32_t>> boundary;
	for ( const auto& e : directed )
	{
		uint32_t from = (uint32_t)( e.first >> 32 ), to = (uint32_t)( e.first & 0xffffffffu );
		if ( directed.find( edgeKey( to, from ) ) == directed.end() )
		{
			boundary.push_back( { from, to } );
		}
	}
	std::sort( boundary.begin(), boundary.end() );
	std::unordered_map<uint32_t, uint32_t> below;
	double centre[3] = { 0.0, 0.0, 0.0 };
	auto lowered = [&]( uint32_t i )
	{
		auto it = below.find( i );
		if ( it != below.end() )
		{
			return it->second;
		}
		uint32_t j = (uint32_t)( out.vertices.size() / 3 );
		double p[3] = { out.vertices[3 * i], out.vertices[3 * i + 1], out.vertices[3 * i + 2] };
		p[up] = bottom;
		out.vertices.insert( out.vertices.end(), { p[0], p[1], p[2] } );
		below.emplace( i, j );
		for ( int k = 0; k < 3; ++k )
		{
			centre[k] += p[k];
		}
		return j;
	};
	for ( const auto& e : boundary )
	{
		lowered( e.first );
		lowered( e.second );
	}
	for ( int k = 0; k < 3; ++k )
	{
		centre[k] /= (double)std::max<size_t>( 1, below.size() );
	}
	centre[up] = bottom;
	uint32_t middle = (uint32_t)( out.vertices.size() / 3 );
	out.vertices.insert( out.vertices.end(), { centre[0], centre[1], centre[2] } );
	for ( const auto& e : boundary )
	{
		// The surface runs e.first -> e.second with the inside on its left: the wall runs the
		// other way, and the bottom, seen from below, the other way again.
		uint32_t top0 = e.first, top1 = e.second, low0 = below[e.first], low1 = below[e.second];
		out.indices.insert( out.indices.end(), { top1, top0, low0, top1, low0, low1, middle, low1, low0 } );
	}
	return true;
}

// A terrain under a body whose bounds in the terrain's frame (grown by the reach) are
// [amin, amax]. The body leaves upward within depth = surfaceMax - amin[up]. The patch covers
// the body's lateral bounds plus a margin m >= depth on every side (the terrain adds at least
// one cell), so leaving through a wall takes more than m; its bottom lies m plus the body's
// height below the lower of the body and the terrain, so leaving through it takes more than m
// too. A body whose bounds come within the current depth of the patch's edge or bottom gets a
// new patch, with the margin doubled until it exceeds the depth.
const pdMesh* GroundPatch::updateTerrain( const btHeightfieldTerrainShape* terrain, const btVector3& amin,
										  const btVector3& amax, double reach )
{
	int up = terrain->getUpAxis();
	int a = ( up + 1 ) % 3, b = ( up + 2 ) % 3;
	double lo[2] = { (double)amin[a], (double)amin[b] }, hi[2] = { (double)amax[a], (double)amax[b] };
	double low = (double)amin[up], height = (double)( amax[up] - amin[up] );
	if ( !std::isfinite( lo[0] + lo[1] + hi[0] + hi[1] + low + height ) )
	{
		return nullptr;
	}
	if ( m_mesh != nullptr )
	{
		double depth = std::fmax( 0.0, m_surfaceMax - low );
		bool inside = lo[0] - depth >= m_lo[0] && lo[1] - depth >= m_lo[1] && hi[0] + depth <= m_hi[0] &&
					  hi[1] + depth <= m_hi[1] && low - m_bottom > depth;
		if ( inside )
		{
			// The terrain's data may change: the same region's triangles, compared.
			gather( terrain, m_lo, m_hi, m_soup );
			uint64_t h = 0x3ull;
			for ( double v : m_soup )
			{
				h = mixBits( h, v );
			}
			if ( h == m_key )
			{
				return m_mesh;
			}
		}
	}
	double size = std::fmax( hi[0] - lo[0], hi[1] - lo[1] );
	double margin = std::fmax( 0.5 * size, reach );
	double surfaceMin = 0.0, surfaceMax = 0.0;
	double region[2][2];
	for ( int widen = 0; widen <= kMaxWidening; ++widen )
	{
		region[0][0] = lo[0] - margin;
		region[0][1] = lo[1] - margin;
		region[1][0] = hi[0] + margin;
		region[1][1] = hi[1] + margin;
		gather( terrain, region[0], region[1], m_soup );
		if ( m_soup.empty() )
		{
			replace( nullptr );
			return nullptr;
		}
		surfaceMin = surfaceMax = m_soup[up];
		for ( size_t i = up; i < m_soup.size(); i += 3 )
		{
			surfaceMin = std::fmin( surfaceMin, m_soup[i] );
			surfaceMax = std::fmax( surfaceMax, m_soup[i] );
		}
		double depth = surfaceMax - low;
		if ( depth < margin )
		{
			break;
		}
		margin = 2.0 * depth;
	}
	uint64_t h = 0x3ull;
	for ( double v : m_soup )
	{
		h = mixBits( h, v );
	}
	double bottom = std::fmin( surfaceMin, low ) - margin - height;
	ShapeTriangles solid;
	pdMesh* mesh = buildTerrainSolid( up, m_soup, bottom, solid ) ? createMesh( solid ) : nullptr;
	replace( mesh );
	m_key = h;
	m_lo[0] = region[0][0];
	m_lo[1] = region[0][1];
	m_hi[0] = region[1][0];
	m_hi[1] = region[1][1];
	m_surfaceMax = surfaceMax;
	m_bottom = bottom;
	return m_mesh;
}

const pdMesh* GroundPatch::update( const btCollisionShape* ground, const btTransform& groundPose,
								   const btCollisionShape* body, const btTransform& bodyPose, double reach )
{
	m_failed = false;
	btTransform relative = groundPose.inverseTimes( bodyPose );
	if ( ground->getShapeType() == STATIC_PLANE_PROXYTYPE )
	{
		btVector3 centre;
		btScalar radius = 0;
		body->getBoundingSphere( centre, radius );
		return updatePlane( static_cast<const btStaticPlaneShape*>( ground ), relative( centre ),
							(double)radius + reach );
	}
	if ( ground->getShapeType() == TERRAIN_SHAPE_PROXYTYPE )
	{
		btVector3 amin, amax;
		body->getAabb( relative, amin, amax );
		btVector3 grow( (btScalar)reach, (btScalar)reach, (btScalar)reach );
		return updateTerrain( static_cast<const btHeightfieldTerrainShape*>( ground ), amin - grow, amax + grow,
							  reach );
	}
	m_failed = true;
	return nullptr;
}

} // namespace PD_BULLET_ABI
} // namespace polydepth::bullet
