// SPDX-License-Identifier: MIT
// The mixed scene: a game-like level where concave meshes meet every other kind of Bullet shape.
//   ground   a btHeightfieldTerrainShape 20 m wide (81 x 81 heights 0.25 m apart), bumps 0.3 m
//            from trough to crest (troughs 3.2 m apart, a 4 cm ripple on them), phases moved by
//            the seed; a btStaticPlaneShape slope of 15 degrees rising in +x from x = 2.4 m; four
//            btStaticPlaneShape walls bounding an 11.5 x 10 m area, so nothing leaves it
//   meshes   a dynamic bowl (a cup 1.4 m across, 0.35 m deep, 4 cm wall) in a trough, a torus
//            (R 0.5, r 0.15 m, 1,536 triangles) in each of two troughs and one lying on the slope,
//            all btGImpactMeshShape
//   dropped  17 primitives of every class (btBoxShape, btConvexHullShape, btCylinderShape,
//            btConeShape, btSphereShape, btCapsuleShape, a btCompoundShape of two boxes) into the
//            bowl and onto the tori, turned at random by the seed
// Sleeping is off. Figures by pair class, from the bodies' poses every step, independently of
// Bullet's contacts:
//   primitive_mesh  a primitive against a torus       primitive_bowl  a primitive against the bowl
//   mesh_terrain    a torus or the bowl against the terrain
//   mesh_plane      a torus or the bowl against the slope or a wall
//   mesh_mesh       two of the tori and the bowl
// Boxes, hulls and the compound's boxes are exact meshes and take the core's PD against the
// other mesh; cylinders and cones take it as inscribed 128-gon tessellations, short of the true
// depth by at most r (1 - cos(pi / 128)) (the figure round_measure_bound). Spheres and capsules
// are a point and a segment with a radius: the depth is the radius less the distance from the
// point or segment to the mesh, or the radius plus the depth of the point (of the deepest of 17
// points along the segment) inside the closed mesh: how deep the mesh's surface reaches into the
// ball. Against the terrain: the mesh's vertices below the surface Bullet collides with (the
// heights joined by its own triangles), as the distance to the triangle's plane under or above
// them, and the terrain's grid points inside the mesh, as their distance to its surface; against
// a plane: the deepest vertex below it (exact for a polyhedral mesh). Against the terrain the
// deepest point is exact when it is a vertex of either; where a terrain edge crosses a mesh face
// between vertices, the reading is the deeper of its ends. The pairs Bullet answers with its own convex
// algorithms (primitives against each other, the terrain and the planes) are not measured.
// A pair counts as present (`*_contacts`) at a step when its two bodies are within 1 cm.
#include "scene_world.h"

#include "polydepth/penetration.h"
#include "shapes.h"

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace
{

const int kGrid = 81;           ///< heights per side
const double kSpacing = 0.25;   ///< m between heights: 20 m
const double kBump = 0.15;      ///< m: crests at +0.15, troughs at -0.15
const double kBumpPeriod = 3.2; ///< m between troughs along x and z
const double kRipple = 0.02;    ///< m
const double kSlopeStart = 2.4; ///< m: the slope plane meets y = 0 here
const double kSlopeDeg = 15.0;
const double kWallMinX = -5.5, kWallMaxX = 6.0, kWallZ = 5.0;
const double kArrivalFraction = 0.6; ///< the settled phase: after this fraction of the steps
const double kContactGap = 0.01;     ///< m: a pair this close is touching (present)
const int kRoundSegments = 128;      ///< the measured cylinders' and cones' tessellation
const double kRoundMargin = 0.005;   ///< m: the hulls' and cones' collision margin (Bullet adds it outside)
const double kTorusR = 0.5, kTorusr = 0.15;
const double kCupRadius = 0.7, kCupHeight = 0.35, kCupWall = 0.04;

const std::array<float, 3> kGroundColor = { { 0.55f, 0.68f, 0.45f } };
const std::array<float, 3> kPlaneColor = { { 0.82f, 0.82f, 0.85f } };
const std::array<float, 3> kTorusColor = { { 0.90f, 0.55f, 0.20f } };
const std::array<float, 3> kBowlColor = { { 0.70f, 0.45f, 0.75f } };

enum smpMixedClass
{
	SMP_MIXED_PRIMITIVE_MESH = 0,
	SMP_MIXED_PRIMITIVE_BOWL,
	SMP_MIXED_MESH_TERRAIN,
	SMP_MIXED_MESH_PLANE,
	SMP_MIXED_MESH_MESH,
	SMP_MIXED_CLASS_COUNT
};

const char* const kClassKeys[SMP_MIXED_CLASS_COUNT] = { "primitive_mesh", "primitive_bowl", "mesh_terrain",
														"mesh_plane", "mesh_mesh" };
const char* const kClassLabels[SMP_MIXED_CLASS_COUNT] = {
	"a primitive against a torus", "a primitive against the bowl", "a torus or the bowl against the terrain",
	"a torus or the bowl against the slope or a wall", "tori and the bowl against each other" };

enum smpPrimitiveKind
{
	SMP_PRIM_BOX,
	SMP_PRIM_HULL,
	SMP_PRIM_CYLINDER,
	SMP_PRIM_CONE,
	SMP_PRIM_SPHERE,
	SMP_PRIM_CAPSULE,
	SMP_PRIM_COMPOUND,
	SMP_PRIM_KIND_COUNT
};

// ---------------------------------------------------------------------------------------------
// Small geometry in double precision (the measurement's own, independent of Bullet and the core)

struct V3
{
	double x, y, z;
};
inline V3 operator+( V3 a, V3 b )
{
	return { a.x + b.x, a.y + b.y, a.z + b.z };
}
inline V3 operator-( V3 a, V3 b )
{
	return { a.x - b.x, a.y - b.y, a.z - b.z };
}
inline V3 operator*( double s, V3 a )
{
	return { s * a.x, s * a.y, s * a.z };
}
inline double dot( V3 a, V3 b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline V3 cross( V3 a, V3 b )
{
	return { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
}
inline V3 toV3( const btVector3& v )
{
	return { (double)v.x(), (double)v.y(), (double)v.z() };
}

/// The closest point of triangle abc to p (Ericson, Real-Time Collision Detection 5.1.5).
V3 closestOnTriangle( V3 p, V3 a, V3 b, V3 c )
{
	V3 ab = b - a, ac = c - a, ap = p - a;
	double d1 = dot( ab, ap ), d2 = dot( ac, ap );
	if ( d1 <= 0.0 && d2 <= 0.0 )
		return a;
	V3 bp = p - b;
	double d3 = dot( ab, bp ), d4 = dot( ac, bp );
	if ( d3 >= 0.0 && d4 <= d3 )
		return b;
	double vc = d1 * d4 - d3 * d2;
	if ( vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 )
		return a + ( d1 / ( d1 - d3 ) ) * ab;
	V3 cp = p - c;
	double d5 = dot( ab, cp ), d6 = dot( ac, cp );
	if ( d6 >= 0.0 && d5 <= d6 )
		return c;
	double vb = d5 * d2 - d1 * d6;
	if ( vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 )
		return a + ( d2 / ( d2 - d6 ) ) * ac;
	double va = d3 * d6 - d5 * d4;
	if ( va <= 0.0 && ( d4 - d3 ) >= 0.0 && ( d5 - d6 ) >= 0.0 )
		return b + ( ( d4 - d3 ) / ( ( d4 - d3 ) + ( d5 - d6 ) ) ) * ( c - b );
	double denom = va + vb + vc;
	if ( !( std::fabs( denom ) > 0.0 ) )
		return a; // a degenerate triangle: its first corner
	double v = vb / denom, w = vc / denom;
	return a + v * ab + w * ac;
}

/// Squared distance between segments p1q1 and p2q2 (Ericson 5.1.9).
double segmentSegmentDistance2( V3 p1, V3 q1, V3 p2, V3 q2 )
{
	V3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
	double a = dot( d1, d1 ), e = dot( d2, d2 ), f = dot( d2, r );
	double s = 0.0, t = 0.0;
	const double eps = 1e-18;
	if ( a <= eps && e <= eps )
		return dot( r, r );
	if ( a <= eps )
		t = std::clamp( f / e, 0.0, 1.0 );
	else
	{
		double c = dot( d1, r );
		if ( e <= eps )
			s = std::clamp( -c / a, 0.0, 1.0 );
		else
		{
			double b = dot( d1, d2 ), denom = a * e - b * b;
			s = denom > 0.0 ? std::clamp( ( b * f - c * e ) / denom, 0.0, 1.0 ) : 0.0;
			t = ( b * s + f ) / e;
			if ( t < 0.0 )
			{
				t = 0.0;
				s = std::clamp( -c / a, 0.0, 1.0 );
			}
			else if ( t > 1.0 )
			{
				t = 1.0;
				s = std::clamp( ( b - c ) / a, 0.0, 1.0 );
			}
		}
	}
	V3 d = ( p1 + s * d1 ) - ( p2 + t * d2 );
	return dot( d, d );
}

/// Whether the ray from o along dir crosses triangle abc at a parameter in [0, tMax]
/// (Moller-Trumbore).
bool rayHitsTriangle( V3 o, V3 dir, double tMax, V3 a, V3 b, V3 c )
{
	V3 e1 = b - a, e2 = c - a;
	V3 p = cross( dir, e2 );
	double det = dot( e1, p );
	if ( std::fabs( det ) < 1e-300 )
		return false;
	double inv = 1.0 / det;
	V3 s = o - a;
	double u = dot( s, p ) * inv;
	if ( u < 0.0 || u > 1.0 )
		return false;
	V3 q = cross( s, e1 );
	double v = dot( dir, q ) * inv;
	if ( v < 0.0 || u + v > 1.0 )
		return false;
	double t = dot( e2, q ) * inv;
	return t >= 0.0 && t <= tMax;
}

/// A closed mesh posed in the world, for the analytic measurements: its triangles and bounds.
struct WorldMesh
{
	std::vector<V3> corners; ///< 3 per triangle
	V3 lo{ 0, 0, 0 }, hi{ 0, 0, 0 };

	void set( const std::vector<double>& v, const std::vector<uint32_t>& t, const btTransform& pose )
	{
		corners.clear();
		for ( uint32_t i : t )
			corners.push_back(
				toV3( pose * btVector3( btScalar( v[3 * i] ), btScalar( v[3 * i + 1] ), btScalar( v[3 * i + 2] ) ) ) );
		lo = hi = corners.empty() ? V3{ 0, 0, 0 } : corners[0];
		for ( const V3& c : corners )
		{
			lo = { std::min( lo.x, c.x ), std::min( lo.y, c.y ), std::min( lo.z, c.z ) };
			hi = { std::max( hi.x, c.x ), std::max( hi.y, c.y ), std::max( hi.z, c.z ) };
		}
	}

	/// Inside the closed mesh: crossings of a ray, nearly vertical and skewed off the grid's
	/// planes, counted for parity.
	bool inside( V3 p ) const
	{
		if ( p.x < lo.x || p.x > hi.x || p.y < lo.y || p.y > hi.y || p.z < lo.z || p.z > hi.z )
			return false;
		const V3 dir = { 0.0123, 1.0, 0.0371 };
		const double tMax = hi.y - p.y + 1e-9; // the ray leaves the bounds above this
		const double drift = 0.04 * tMax + 1e-9;
		int crossings = 0;
		for ( size_t k = 0; k + 2 < corners.size(); k += 3 )
		{
			const V3 &a = corners[k], &b = corners[k + 1], &c = corners[k + 2];
			if ( std::max( { a.y, b.y, c.y } ) < p.y || std::max( { a.x, b.x, c.x } ) < p.x - 1e-9 ||
				 std::min( { a.x, b.x, c.x } ) > p.x + drift || std::max( { a.z, b.z, c.z } ) < p.z - 1e-9 ||
				 std::min( { a.z, b.z, c.z } ) > p.z + drift )
				continue;
			if ( rayHitsTriangle( p, dir, tMax, a, b, c ) )
				++crossings;
		}
		return ( crossings & 1 ) != 0;
	}

	/// Distance from p to the surface, or, with a segment p q, from the segment (0 when it crosses
	/// a triangle). Triangles whose bounds are farther than the best so far are skipped.
	double distance( V3 p, V3 q ) const
	{
		V3 slo = { std::min( p.x, q.x ), std::min( p.y, q.y ), std::min( p.z, q.z ) };
		V3 shi = { std::max( p.x, q.x ), std::max( p.y, q.y ), std::max( p.z, q.z ) };
		bool segment = dot( q - p, q - p ) > 0.0;
		double best2 = 1e300;
		for ( size_t k = 0; k + 2 < corners.size(); k += 3 )
		{
			const V3 &a = corners[k], &b = corners[k + 1], &c = corners[k + 2];
			double gx =
				std::max( { 0.0, std::min( { a.x, b.x, c.x } ) - shi.x, slo.x - std::max( { a.x, b.x, c.x } ) } );
			double gy =
				std::max( { 0.0, std::min( { a.y, b.y, c.y } ) - shi.y, slo.y - std::max( { a.y, b.y, c.y } ) } );
			double gz =
				std::max( { 0.0, std::min( { a.z, b.z, c.z } ) - shi.z, slo.z - std::max( { a.z, b.z, c.z } ) } );
			if ( gx * gx + gy * gy + gz * gz >= best2 )
				continue;
			V3 cp = closestOnTriangle( p, a, b, c ) - p;
			best2 = std::min( best2, dot( cp, cp ) );
			if ( !segment )
				continue;
			cp = closestOnTriangle( q, a, b, c ) - q;
			best2 = std::min( best2, dot( cp, cp ) );
			best2 = std::min( { best2, segmentSegmentDistance2( p, q, a, b ), segmentSegmentDistance2( p, q, b, c ),
								segmentSegmentDistance2( p, q, c, a ) } );
			if ( rayHitsTriangle( p, q - p, 1.0, a, b, c ) )
				best2 = 0.0;
		}
		return std::sqrt( best2 );
	}
};

/// The terrain's surface as Bullet collides with it: its own triangles, two per cell.
class TerrainSurface
{
  public:
	void set( const smpSceneMesh& mesh )
	{
		m_cells.assign( (size_t)( kGrid - 1 ) * ( kGrid - 1 ), {} );
		m_vertices.assign( mesh.vertices, mesh.vertices + 3 * mesh.vertexCount );
		for ( int t = 0; t < mesh.triangleCount; ++t )
		{
			double cx = 0.0, cz = 0.0;
			for ( int k = 0; k < 3; ++k )
			{
				cx += mesh.vertices[3 * mesh.indices[3 * t + k]] / 3.0;
				cz += mesh.vertices[3 * mesh.indices[3 * t + k] + 2] / 3.0;
			}
			int i = 0, j = 0;
			if ( !cell( cx, cz, &i, &j ) )
				continue;
			Cell& c = m_cells[(size_t)j * ( kGrid - 1 ) + i];
			if ( c.count < 2 )
			{
				for ( int k = 0; k < 3; ++k )
					c.corners[c.count][k] = mesh.indices[3 * t + k];
				++c.count;
			}
		}
	}

	/// The height (m) of the surface above (x, z) and the unit normal of its triangle there;
	/// false outside the terrain.
	bool height( double x, double z, double* outHeight, V3* outNormal ) const
	{
		int i = 0, j = 0;
		if ( !cell( x, z, &i, &j ) )
			return false;
		const Cell& c = m_cells[(size_t)j * ( kGrid - 1 ) + i];
		double bestOutside = 1e300;
		for ( int t = 0; t < c.count; ++t )
		{
			V3 a = vertex( c.corners[t][0] ), b = vertex( c.corners[t][1] ), d = vertex( c.corners[t][2] );
			// Barycentric coordinates in the xz-plane.
			double det = ( b.x - a.x ) * ( d.z - a.z ) - ( d.x - a.x ) * ( b.z - a.z );
			if ( std::fabs( det ) < 1e-300 )
				continue;
			double u = ( ( x - a.x ) * ( d.z - a.z ) - ( d.x - a.x ) * ( z - a.z ) ) / det;
			double v = ( ( b.x - a.x ) * ( z - a.z ) - ( x - a.x ) * ( b.z - a.z ) ) / det;
			double outside = std::max( { -u, -v, u + v - 1.0 } );
			if ( outside >= bestOutside )
				continue;
			bestOutside = outside;
			*outHeight = a.y + u * ( b.y - a.y ) + v * ( d.y - a.y );
			V3 n = cross( b - a, d - a );
			if ( n.y < 0.0 )
				n = -1.0 * n;
			*outNormal = ( 1.0 / std::sqrt( dot( n, n ) ) ) * n;
		}
		return bestOutside < 1e300;
	}

  private:
	struct Cell
	{
		uint32_t corners[2][3];
		int count = 0;
	};
	static bool cell( double x, double z, int* outI, int* outJ )
	{
		const double half = 0.5 * kSpacing * ( kGrid - 1 );
		double fi = std::floor( ( x + half ) / kSpacing ), fj = std::floor( ( z + half ) / kSpacing );
		if ( !( fi >= 0.0 && fi < kGrid - 1 && fj >= 0.0 && fj < kGrid - 1 ) )
			return false;
		*outI = (int)fi;
		*outJ = (int)fj;
		return true;
	}
	V3 vertex( uint32_t i ) const { return { m_vertices[3 * i], m_vertices[3 * i + 1], m_vertices[3 * i + 2] }; }
	std::vector<Cell> m_cells;
	std::vector<double> m_vertices;
};

/// The deepest penetration of one pair class, and how often its pairs touched.
struct ClassFigures
{
	double maxDepth = 0.0;
	double settledDepth = 0.0;
	double settledOverSize = 0.0;
	int contacts = 0;
};

/// A dynamic concave mesh (a torus or the bowl).
struct MixedMesh
{
	int body = -1;
	bool bowl = false;
	pdMesh* mesh = nullptr; ///< the body's triangles, for the core's PD
	const std::vector<double>* vertices = nullptr;
	const std::vector<uint32_t>* indices = nullptr;
	double size = 0.0; ///< bounding-box diagonal (m)
	WorldMesh world;   ///< at the current step
};

/// A dropped primitive.
struct MixedPrimitive
{
	int body = -1;
	smpPrimitiveKind kind = SMP_PRIM_BOX;
	double size = 0.0;          ///< bounding-box diagonal (m)
	std::vector<pdMesh*> parts; ///< polyhedral parts in the body's frame (not owned)
	double radius = 0.0;        ///< sphere, capsule
	double halfHeight = 0.0;    ///< capsule: half the segment's length (along the body's y)
};

/// A static plane n . p = c (n unit, pointing out of the solid).
struct MixedPlane
{
	V3 n;
	double c;
};

class smpMixedScene : public smpSceneWorld
{
  public:
	smpMixedScene( const smpSceneConfig& config, const char* name ) : smpSceneWorld( config, name ) {}
	~smpMixedScene() override
	{
		for ( pdMesh* mesh : m_ownedMeshes )
			pdDestroyMesh( mesh );
		if ( m_measureWorkspace != nullptr )
			pdDestroyWorkspace( m_measureWorkspace );
	}

	bool build( std::string* error );

	/// The pair classes at the current step (every step, from the after-step hook; again on
	/// request): updates the figures, and the base metrics with the body-body classes as the
	/// penetration and the ground classes as the floor penetration.
	double measurePenetration() override;
	std::vector<smpSceneFigure> figures() const override;

  private:
	pdMesh* ownMesh( const smpSoup& soup );
	int addMeshBody( smpSoup* soup, const btTransform& pose, double mass, bool bowl, std::array<float, 3> color );
	int addPrimitive( smpPrimitiveKind kind, const btTransform& pose, std::string* error );
	bool makePrimitiveShape( smpPrimitiveKind kind, std::string* error );
	double groundHeight( double x, double z, double radius ) const;
	void record( int klass, double depth, double smallerSize, bool touching );
	double polyhedralDepth( const std::vector<pdMesh*>& parts, const btTransform& pose, const MixedMesh& mesh,
							bool* outTouching );
	double roundDepth( const MixedPrimitive& p, const MixedMesh& mesh, bool* outTouching ) const;
	void measureGround( MixedMesh& mesh, double* ioTerrain, double* ioPlane );

	TerrainSurface m_terrain;
	std::vector<float> m_heights;
	std::vector<MixedPlane> m_planes;
	std::vector<MixedMesh> m_meshes;
	std::vector<MixedPrimitive> m_primitives;
	int m_primitiveShape[SMP_PRIM_KIND_COUNT] = { -1, -1, -1, -1, -1, -1, -1 }; ///< made on first use
	std::vector<pdMesh*> m_primitiveParts[SMP_PRIM_KIND_COUNT];
	double m_primitiveRadius[SMP_PRIM_KIND_COUNT] = {};
	double m_primitiveHalfHeight[SMP_PRIM_KIND_COUNT] = {};
	double m_roundBound = 0.0;
	std::vector<pdMesh*> m_ownedMeshes;
	pdWorkspace* m_measureWorkspace = nullptr;
	ClassFigures m_classes[SMP_MIXED_CLASS_COUNT];
	int m_arrival = 0;
	int m_measuredStep = -1;
	int m_measureFailures = 0;
	smpSceneRandom m_random{ 1 };
};

pdMesh* smpMixedScene::ownMesh( const smpSoup& soup )
{
	pdMesh* mesh = smpSoupCreateMesh( &soup, nullptr );
	if ( mesh != nullptr )
		m_ownedMeshes.push_back( mesh );
	return mesh;
}

/// Turns a soup made about z so that its axis is y: (x, y, z) -> (x, z, -y).
void smpTurnZToY( smpSoup* soup )
{
	const double zToY[9] = { 1, 0, 0, 0, 0, 1, 0, -1, 0 };
	smpTransformSoup( soup, zToY, pdVec3{ 0.0, 0.0, 0.0 } );
}

std::vector<double> smpSoupVertices( const smpSoup& soup )
{
	return std::vector<double>( soup.vertices, soup.vertices + 3 * soup.vertexCount );
}

std::vector<uint32_t> smpSoupIndices( const smpSoup& soup )
{
	return std::vector<uint32_t>( soup.indices, soup.indices + 3 * soup.triangleCount );
}

double smpSoupDiagonal( const smpSoup& soup )
{
	double lo[3] = { 1e300, 1e300, 1e300 }, hi[3] = { -1e300, -1e300, -1e300 };
	for ( int v = 0; v < soup.vertexCount; ++v )
		for ( int k = 0; k < 3; ++k )
		{
			lo[k] = std::min( lo[k], soup.vertices[3 * v + k] );
			hi[k] = std::max( hi[k], soup.vertices[3 * v + k] );
		}
	return std::sqrt( ( hi[0] - lo[0] ) * ( hi[0] - lo[0] ) + ( hi[1] - lo[1] ) * ( hi[1] - lo[1] ) +
					  ( hi[2] - lo[2] ) * ( hi[2] - lo[2] ) );
}

/// A cone along y, apex at +height / 2, base at -height / 2 (btConeShape's), inscribed in the
/// circle with `segments` corners.
bool smpMakeCone( double radius, double height, int segments, smpSoup* out )
{
	std::vector<double> points = { 0.0, 0.5 * height, 0.0 };
	for ( int s = 0; s < segments; ++s )
	{
		double a = 2.0 * M_PI * s / segments;
		points.insert( points.end(), { radius * std::cos( a ), -0.5 * height, radius * std::sin( a ) } );
	}
	return smpMakeConvexHull( points.data(), (int)( points.size() / 3 ), out );
}

/// A cylinder along y of the given radius and half height, inscribed in the circle.
bool smpMakeCylinderY( double radius, double halfHeight, int segments, smpSoup* out )
{
	if ( !smpMakeChamferedCylinder( radius, 2.0 * halfHeight, 0.0, 0.0, segments, out ) )
		return false;
	smpTurnZToY( out );
	return true;
}

/// The triangles of soups a and b as one list, b's vertices moved by offset.
void smpAppendSoups( const smpSoup& a, const smpSoup& b, V3 offset, std::vector<double>* outV,
					 std::vector<uint32_t>* outT )
{
	*outV = smpSoupVertices( a );
	*outT = smpSoupIndices( a );
	uint32_t base = (uint32_t)a.vertexCount;
	for ( int v = 0; v < b.vertexCount; ++v )
		outV->insert( outV->end(), { b.vertices[3 * v] + offset.x, b.vertices[3 * v + 1] + offset.y,
									 b.vertices[3 * v + 2] + offset.z } );
	for ( int t = 0; t < 3 * b.triangleCount; ++t )
		outT->push_back( base + b.indices[t] );
}

const double kBoxHalf[3] = { 0.12, 0.09, 0.08 };
const double kHullRadius = 0.15;
const double kCylinderRadius = 0.1, kCylinderHalf = 0.12;
const double kConeRadius = 0.12, kConeHeight = 0.28;
const double kSphereRadius = 0.11;
const double kCapsuleRadius = 0.07, kCapsuleHalf = 0.1;
const double kBarHalf[3] = { 0.17, 0.04,
							 0.05 }; ///< each of the compound's two boxes; the second turned 90 degrees about y
const double kPrimitiveMass = 0.5;

const std::array<float, 3> kPrimitiveColors[SMP_PRIM_KIND_COUNT] = {
	{ { 0.55f, 0.75f, 0.35f } }, { { 0.35f, 0.60f, 0.90f } }, { { 0.95f, 0.80f, 0.25f } }, { { 0.90f, 0.35f, 0.35f } },
	{ { 0.30f, 0.80f, 0.80f } }, { { 0.60f, 0.50f, 0.95f } }, { { 0.85f, 0.60f, 0.70f } } };

bool smpMixedScene::makePrimitiveShape( smpPrimitiveKind kind, std::string* error )
{
	smpSoup render = {}, measured = {}, second = {};
	std::unique_ptr<btCollisionShape> shape;
	std::vector<std::unique_ptr<btCollisionShape>> children;
	std::vector<double> v;
	std::vector<uint32_t> t;
	bool ok = true;
	switch ( kind )
	{
		case SMP_PRIM_BOX:
			ok = smpMakeBox( pdVec3{ kBoxHalf[0], kBoxHalf[1], kBoxHalf[2] }, 1, &render );
			if ( ok )
			{
				shape.reset( new btBoxShape(
					btVector3( btScalar( kBoxHalf[0] ), btScalar( kBoxHalf[1] ), btScalar( kBoxHalf[2] ) ) ) );
				m_primitiveParts[kind].push_back( ownMesh( render ) );
			}
			break;
		case SMP_PRIM_HULL:
			ok = smpMakeRandomConvex( 14, 7u, &render );
			if ( ok )
			{
				const double scale[9] = { kHullRadius, 0, 0, 0, kHullRadius, 0, 0, 0, kHullRadius };
				smpTransformSoup( &render, scale, pdVec3{ 0.0, 0.0, 0.0 } );
				btConvexHullShape* hull = new btConvexHullShape();
				for ( int i = 0; i < render.vertexCount; ++i )
					hull->addPoint( btVector3( btScalar( render.vertices[3 * i] ),
											   btScalar( render.vertices[3 * i + 1] ),
											   btScalar( render.vertices[3 * i + 2] ) ),
									false );
				hull->recalcLocalAabb();
				hull->setMargin( btScalar( kRoundMargin ) );
				shape.reset( hull );
				m_primitiveParts[kind].push_back( ownMesh( render ) );
			}
			break;
		case SMP_PRIM_CYLINDER:
			ok = smpMakeCylinderY( kCylinderRadius, kCylinderHalf, 48, &render ) &&
				 smpMakeCylinderY( kCylinderRadius, kCylinderHalf, kRoundSegments, &measured );
			if ( ok )
			{
				shape.reset( new btCylinderShape( btVector3( btScalar( kCylinderRadius ), btScalar( kCylinderHalf ),
															 btScalar( kCylinderRadius ) ) ) );
				m_primitiveParts[kind].push_back( ownMesh( measured ) );
				m_roundBound = std::max( m_roundBound, kCylinderRadius * ( 1.0 - std::cos( M_PI / kRoundSegments ) ) );
			}
			break;
		case SMP_PRIM_CONE:
			ok = smpMakeCone( kConeRadius, kConeHeight, 48, &render ) &&
				 smpMakeCone( kConeRadius, kConeHeight, kRoundSegments, &measured );
			if ( ok )
			{
				btConeShape* cone = new btConeShape( btScalar( kConeRadius ), btScalar( kConeHeight ) );
				cone->setMargin( btScalar( kRoundMargin ) );
				shape.reset( cone );
				m_primitiveParts[kind].push_back( ownMesh( measured ) );
				m_roundBound = std::max( m_roundBound, kConeRadius * ( 1.0 - std::cos( M_PI / kRoundSegments ) ) );
			}
			break;
		case SMP_PRIM_SPHERE:
			ok = smpMakeIcosphere( kSphereRadius, 3, &render );
			if ( ok )
			{
				shape.reset( new btSphereShape( btScalar( kSphereRadius ) ) );
				m_primitiveRadius[kind] = kSphereRadius;
			}
			break;
		case SMP_PRIM_CAPSULE:
		{
			smpSceneMakeCapsule( kCapsuleRadius, 2.0 * kCapsuleHalf, 24, 6, &v, &t );
			shape.reset( new btCapsuleShape( btScalar( kCapsuleRadius ), btScalar( 2.0 * kCapsuleHalf ) ) );
			m_primitiveRadius[kind] = kCapsuleRadius;
			m_primitiveHalfHeight[kind] = kCapsuleHalf;
			break;
		}
		case SMP_PRIM_COMPOUND:
			ok = smpMakeBox( pdVec3{ kBarHalf[0], kBarHalf[1], kBarHalf[2] }, 1, &render ) &&
				 smpMakeBox( pdVec3{ kBarHalf[2], kBarHalf[1], kBarHalf[0] }, 1, &second );
			if ( ok )
			{
				btCompoundShape* compound = new btCompoundShape( true, 2 );
				btTransform identity;
				identity.setIdentity();
				children.emplace_back( new btBoxShape(
					btVector3( btScalar( kBarHalf[0] ), btScalar( kBarHalf[1] ), btScalar( kBarHalf[2] ) ) ) );
				children.emplace_back( new btBoxShape(
					btVector3( btScalar( kBarHalf[2] ), btScalar( kBarHalf[1] ), btScalar( kBarHalf[0] ) ) ) );
				compound->addChildShape( identity, children[0].get() );
				compound->addChildShape( identity, children[1].get() );
				shape.reset( compound );
				m_primitiveParts[kind].push_back( ownMesh( render ) );
				m_primitiveParts[kind].push_back( ownMesh( second ) );
				smpAppendSoups( render, second, V3{ 0, 0, 0 }, &v, &t );
			}
			break;
		default:
			ok = false;
	}
	for ( pdMesh* part : m_primitiveParts[kind] )
		ok = ok && part != nullptr;
	if ( ok && v.empty() )
	{
		v = smpSoupVertices( render );
		t = smpSoupIndices( render );
	}
	smpFreeSoup( &render );
	smpFreeSoup( &measured );
	smpFreeSoup( &second );
	if ( !ok || !shape )
	{
		*error = "cannot generate the mixed scene's primitive shapes";
		return false;
	}
	m_primitiveShape[kind] = addCollisionShape( std::move( shape ), std::move( v ), std::move( t ), true,
												kPrimitiveColors[kind], std::move( children ) );
	return true;
}

int smpMixedScene::addPrimitive( smpPrimitiveKind kind, const btTransform& pose, std::string* error )
{
	if ( m_primitiveShape[kind] < 0 && !makePrimitiveShape( kind, error ) )
		return -1;
	int body = addBody( m_primitiveShape[kind], pose, kPrimitiveMass );
	MixedPrimitive p;
	p.body = body;
	p.kind = kind;
	smpSceneMesh mesh = bodyMesh( body );
	smpSoup view = { const_cast<double*>( mesh.vertices ), mesh.vertexCount, const_cast<uint32_t*>( mesh.indices ),
					 mesh.triangleCount };
	p.size = smpSoupDiagonal( view );
	p.parts = m_primitiveParts[kind];
	p.radius = m_primitiveRadius[kind];
	p.halfHeight = m_primitiveHalfHeight[kind];
	m_primitives.push_back( p );
	return body;
}

/// A dynamic GImpact mesh body of the soup (freed); -1 when its mesh cannot be made.
int smpMixedScene::addMeshBody( smpSoup* soup, const btTransform& pose, double mass, bool bowl,
								std::array<float, 3> color )
{
	MixedMesh m;
	m.bowl = bowl;
	m.mesh = ownMesh( *soup );
	m.size = smpSoupDiagonal( *soup );
	int shape = addShape( smpSoupVertices( *soup ), smpSoupIndices( *soup ), false, color );
	smpFreeSoup( soup );
	if ( m.mesh == nullptr )
		return -1;
	m.body = addBody( shape, pose, mass );
	m.vertices = &m_shapes[shape]->vertices;
	m.indices = &m_shapes[shape]->indices;
	m_meshes.push_back( m );
	return m.body;
}

/// The highest ground (terrain or slope) within radius of (x, z), from the heights and the
/// slope's plane.
double smpMixedScene::groundHeight( double x, double z, double radius ) const
{
	const double half = 0.5 * kSpacing * ( kGrid - 1 );
	double top = -1e300;
	for ( int j = 0; j < kGrid; ++j )
		for ( int i = 0; i < kGrid; ++i )
		{
			double gx = -half + kSpacing * i, gz = -half + kSpacing * j;
			if ( ( gx - x ) * ( gx - x ) + ( gz - z ) * ( gz - z ) <= ( radius + kSpacing ) * ( radius + kSpacing ) )
				top = std::max( top, (double)m_heights[(size_t)j * kGrid + i] );
		}
	double slope = std::tan( kSlopeDeg * M_PI / 180.0 );
	return std::max( top, ( x + radius - kSlopeStart ) * slope );
}

btTransform smpPose( const btQuaternion& q, double x, double y, double z )
{
	return btTransform( q, btVector3( btScalar( x ), btScalar( y ), btScalar( z ) ) );
}

bool smpMixedScene::build( std::string* error )
{
	m_random = smpSceneRandom( m_config.seed );
	m_arrival = (int)std::lround( kArrivalFraction * m_stepCount );

	// The terrain: troughs at (0, 0), (+-3.2, 0), (0, +-3.2), ..., the seed moving them by up to
	// 5 cm and placing the ripple.
	const double k = 2.0 * M_PI / kBumpPeriod;
	const double phaseX = m_random.range( -0.1, 0.1 ), phaseZ = m_random.range( -0.1, 0.1 );
	const double rippleX = m_random.range( 0.0, 2.0 * M_PI ), rippleZ = m_random.range( 0.0, 2.0 * M_PI );
	const double half = 0.5 * kSpacing * ( kGrid - 1 );
	m_heights.resize( (size_t)kGrid * kGrid );
	for ( int j = 0; j < kGrid; ++j )
		for ( int i = 0; i < kGrid; ++i )
		{
			double x = -half + kSpacing * i, z = -half + kSpacing * j;
			double h =
				-kBump * std::cos( k * x + phaseX ) * std::cos( k * z + phaseZ ) +
				kRipple * std::sin( 2.0 * M_PI * x / 1.1 + rippleX ) * std::sin( 2.0 * M_PI * z / 1.3 + rippleZ );
			m_heights[(size_t)j * kGrid + i] = (float)h;
		}
	int terrainShape = addHeightfieldShape( m_heights, kGrid, kGrid, kSpacing, kGroundColor );
	if ( terrainShape < 0 )
	{
		*error = "cannot build the mixed scene's terrain";
		return false;
	}
	btTransform identity;
	identity.setIdentity();
	int terrain = addBody( terrainShape, identity, 0.0 );
	m_terrain.set( bodyMesh( terrain ) );

	// The slope and the walls: half-spaces n . p <= c are solid, drawn as quads facing out of them.
	const double theta = kSlopeDeg * M_PI / 180.0;
	const double wallLow = -0.3, wallHigh = 1.5;
	struct PlaneDef
	{
		V3 n;
		double c;
		btVector3 corner, u, v;
	};
	const double run = ( kWallMaxX - kSlopeStart ) / std::cos( theta );
	const PlaneDef planes[5] = {
		{ { -std::sin( theta ), std::cos( theta ), 0.0 },
		  -kSlopeStart * std::sin( theta ),
		  btVector3( btScalar( kSlopeStart ), 0, btScalar( kWallZ ) ),
		  btVector3( btScalar( run * std::cos( theta ) ), btScalar( run * std::sin( theta ) ), 0 ),
		  btVector3( 0, 0, btScalar( -2.0 * kWallZ ) ) },
		{ { 1, 0, 0 },
		  kWallMinX,
		  btVector3( btScalar( kWallMinX ), btScalar( wallLow ), btScalar( -kWallZ ) ),
		  btVector3( 0, btScalar( wallHigh - wallLow ), 0 ),
		  btVector3( 0, 0, btScalar( 2.0 * kWallZ ) ) },
		{ { -1, 0, 0 },
		  -kWallMaxX,
		  btVector3( btScalar( kWallMaxX ), btScalar( wallLow ), btScalar( -kWallZ ) ),
		  btVector3( 0, 0, btScalar( 2.0 * kWallZ ) ),
		  btVector3( 0, btScalar( wallHigh - wallLow ), 0 ) },
		{ { 0, 0, 1 },
		  -kWallZ,
		  btVector3( btScalar( kWallMinX ), btScalar( wallLow ), btScalar( -kWallZ ) ),
		  btVector3( btScalar( kWallMaxX - kWallMinX ), 0, 0 ),
		  btVector3( 0, btScalar( wallHigh - wallLow ), 0 ) },
		{ { 0, 0, -1 },
		  -kWallZ,
		  btVector3( btScalar( kWallMinX ), btScalar( wallLow ), btScalar( kWallZ ) ),
		  btVector3( 0, btScalar( wallHigh - wallLow ), 0 ),
		  btVector3( btScalar( kWallMaxX - kWallMinX ), 0, 0 ) },
	};
	for ( const PlaneDef& p : planes )
	{
		std::vector<double> v;
		std::vector<uint32_t> t;
		smpSceneAppendQuad( p.corner, p.u, p.v, 8, &v, &t );
		std::unique_ptr<btCollisionShape> shape( new btStaticPlaneShape(
			btVector3( btScalar( p.n.x ), btScalar( p.n.y ), btScalar( p.n.z ) ), btScalar( p.c ) ) );
		int plane =
			addBody( addCollisionShape( std::move( shape ), std::move( v ), std::move( t ), false, kPlaneColor ),
					 identity, 0.0 );
		rigidBody( plane )->setFriction( 1.0 );
		m_planes.push_back( { p.n, p.c } );
	}
	rigidBody( terrain )->setFriction( 1.0 );

	// The bowl in the trough at the origin, the tori in the troughs at (-3.2, 0) and (0, 3.2) and
	// on the slope: lying flat (the ring in the xz-plane), each tilted by up to 2 degrees and
	// moved by up to 1 cm by the seed.
	auto jitter = [this]() { return m_random.range( -0.01, 0.01 ); };
	auto tilt = [this]()
	{
		btVector3 axis( btScalar( m_random.range( -1.0, 1.0 ) ), 0, btScalar( m_random.range( -1.0, 1.0 ) ) );
		if ( axis.length2() < btScalar( 1e-6 ) )
			axis = btVector3( 1, 0, 0 );
		return btQuaternion( axis.normalized(), btScalar( m_random.range( 0.0, 2.0 ) * M_PI / 180.0 ) );
	};
	smpSoup soup = {};
	if ( !smpMakeCup( kCupRadius, kCupHeight, kCupWall, 48, &soup ) )
	{
		*error = "cannot generate the bowl";
		return false;
	}
	smpTurnZToY( &soup );
	double y = groundHeight( 0.0, 0.0, kCupRadius ) + 0.5 * kCupHeight + 0.05;
	if ( addMeshBody( &soup, smpPose( tilt(), jitter(), y, jitter() ), 3.0, true, kBowlColor ) < 0 )
	{
		*error = "cannot build the bowl's mesh";
		return false;
	}
	const btQuaternion flat( btVector3( 1, 0, 0 ), btScalar( M_PI / 2 ) ); // the ring from xy to xz
	const double torusAt[2][2] = { { -kBumpPeriod, 0.0 }, { 0.0, kBumpPeriod } };
	for ( const auto& at : torusAt )
	{
		if ( !smpMakeTorus( kTorusR, kTorusr, 48, 16, &soup ) )
		{
			*error = "cannot generate a torus";
			return false;
		}
		y = groundHeight( at[0], at[1], kTorusR + kTorusr ) + kTorusr + 0.05;
		if ( addMeshBody( &soup, smpPose( tilt() * flat, at[0] + jitter(), y, at[1] + jitter() ), 1.0, false,
						  kTorusColor ) < 0 )
		{
			*error = "cannot build a torus's mesh";
			return false;
		}
	}
	// On the slope: turned by its angle about z, its centre 2 cm clear of the plane.
	const double slopeX = 4.3, slopeZ = -2.5;
	const btQuaternion onSlope( btVector3( 0, 0, 1 ), btScalar( theta ) );
	const V3 n = { -std::sin( theta ), std::cos( theta ), 0.0 };
	const V3 foot = { slopeX, ( slopeX - kSlopeStart ) * std::tan( theta ), slopeZ };
	const V3 centre = foot + ( kTorusr + 0.02 ) * n;
	if ( !smpMakeTorus( kTorusR, kTorusr, 48, 16, &soup ) ||
		 addMeshBody( &soup, smpPose( onSlope * flat, centre.x, centre.y, centre.z ), 1.0, false, kTorusColor ) < 0 )
	{
		*error = "cannot build a torus's mesh";
		return false;
	}

	// The primitives: into the bowl in a loose column, onto the tube of each torus (and one through
	// the first torus's hole), turned at random.
	struct Drop
	{
		smpPrimitiveKind kind;
		double x, y, z;
	};
	const double cupFloor = groundHeight( 0.0, 0.0, kCupRadius ) + 0.05 + kCupWall;
	const double ax = -kBumpPeriod, bz = kBumpPeriod;
	const double topA = groundHeight( ax, 0.0, kTorusR + kTorusr ) + 2.0 * kTorusr + 0.05;
	const double topB = groundHeight( 0.0, bz, kTorusR + kTorusr ) + 2.0 * kTorusr + 0.05;
	const Drop drops[] = {
		// The bowl.
		{ SMP_PRIM_SPHERE, 0.2, cupFloor + 0.6, 0.1 },
		{ SMP_PRIM_CAPSULE, -0.2, cupFloor + 0.95, -0.1 },
		{ SMP_PRIM_BOX, 0.1, cupFloor + 1.3, -0.25 },
		{ SMP_PRIM_CONE, -0.15, cupFloor + 1.65, 0.2 },
		{ SMP_PRIM_CYLINDER, 0.25, cupFloor + 2.0, -0.05 },
		{ SMP_PRIM_COMPOUND, -0.05, cupFloor + 2.35, 0.05 },
		// The first torus: on its tube, and one through its hole.
		{ SMP_PRIM_HULL, ax + kTorusR, topA + 0.3, 0.0 },
		{ SMP_PRIM_CYLINDER, ax - kTorusR, topA + 0.6, 0.0 },
		{ SMP_PRIM_COMPOUND, ax, topA + 0.9, kTorusR },
		{ SMP_PRIM_CAPSULE, ax, topA + 1.2, -kTorusR },
		{ SMP_PRIM_BOX, ax, topA + 1.5, 0.0 },
		// The second torus.
		{ SMP_PRIM_SPHERE, kTorusR, topB + 0.3, bz },
		{ SMP_PRIM_CONE, -kTorusR, topB + 0.6, bz },
		{ SMP_PRIM_BOX, 0.0, topB + 0.9, bz + kTorusR },
		{ SMP_PRIM_HULL, 0.0, topB + 1.2, bz - kTorusR },
		// The torus on the slope.
		{ SMP_PRIM_BOX, slopeX + 0.1, centre.y + 0.8, slopeZ + kTorusR },
		{ SMP_PRIM_SPHERE, slopeX - kTorusR, centre.y + 1.1, slopeZ },
	};
	for ( const Drop& d : drops )
	{
		btQuaternion q = m_random.rotation();
		if ( addPrimitive( d.kind, smpPose( q, d.x + jitter(), d.y, d.z + jitter() ), error ) < 0 )
			return false;
	}
	// Bullet's friction combines as a product: the ground's 1 gives bodies their own 0.5. A little
	// rolling and spinning friction brings round bodies to rest on the bumps, where without it a
	// sphere would rock in a trough for ever and the rest speed would measure the terrain.
	for ( int b = 0; b < bodyCount(); ++b )
		if ( !bodyIsStatic( b ) )
		{
			rigidBody( b )->setRollingFriction( btScalar( 0.01 ) );
			rigidBody( b )->setSpinningFriction( btScalar( 0.01 ) );
		}

	smpSceneArea area;
	area.minX = kWallMinX;
	area.maxX = kWallMaxX;
	area.minZ = -kWallZ;
	area.maxZ = kWallZ;
	area.floorY = -kBump - kRipple - 0.4; // a centre this low went through the terrain
	setArea( area );
	setBodySize( 2.0 * ( kTorusR + kTorusr ) );
	setCamera( btVector3( 0.5, 4.2, 7.0 ), btVector3( -0.2, 0.0, 0.6 ) );
	setAfterStep( []( smpSceneWorld& world, int ) { world.measurePenetration(); } );
	return true;
}

void smpMixedScene::record( int klass, double depth, double smallerSize, bool touching )
{
	ClassFigures& c = m_classes[klass];
	if ( touching )
		++c.contacts;
	if ( !std::isfinite( depth ) )
	{
		++m_measureFailures;
		return;
	}
	depth = std::max( 0.0, depth );
	c.maxDepth = std::max( c.maxDepth, depth );
	if ( m_step >= m_arrival )
	{
		c.settledDepth = std::max( c.settledDepth, depth );
		if ( smallerSize > 0.0 )
			c.settledOverSize = std::max( c.settledOverSize, depth / smallerSize );
	}
}

pdTransform smpToPdPose( const btTransform& t )
{
	btQuaternion q = t.getRotation();
	pdTransform pose;
	pose.q = { (double)q.w(), (double)q.x(), (double)q.y(), (double)q.z() };
	pose.p = { (double)t.getOrigin().x(), (double)t.getOrigin().y(), (double)t.getOrigin().z() };
	return pose;
}

/// The core's PD of polyhedral parts (in one body's frame, at pose) against a mesh, the deepest
/// part's; *outTouching when a part is within the contact gap. NaN when a query fails.
double smpMixedScene::polyhedralDepth( const std::vector<pdMesh*>& parts, const btTransform& pose,
									   const MixedMesh& mesh, bool* outTouching )
{
	if ( m_measureWorkspace == nullptr )
		m_measureWorkspace = pdCreateWorkspace( nullptr );
	pdTransform pa = smpToPdPose( pose );
	pdTransform pb = smpToPdPose( rigidBody( mesh.body )->getWorldTransform() );
	double deepest = 0.0;
	*outTouching = false;
	for ( pdMesh* part : parts )
	{
		pdDistanceDef dd = pdDefaultDistanceDef();
		dd.upperBound = kContactGap;
		pdDistanceResult distance;
		if ( pdComputeDistance( part, &pa, mesh.mesh, &pb, &dd, m_measureWorkspace, &distance ) < 0 )
			return NAN;
		// Apart, or touching without crossing, unless the body is wholly inside the mesh (its
		// centre is then inside).
		bool contained = distance.distance > 0.0 && mesh.world.inside( toV3( pose.getOrigin() ) );
		if ( distance.stoppedAbove && !contained )
			continue;
		*outTouching = true;
		if ( distance.distance > 0.0 && !contained )
			continue;
		pdPenetrationResult result;
		if ( pdComputePenetration( part, &pa, mesh.mesh, &pb, nullptr, nullptr, m_measureWorkspace, &result ) < 0 )
			return NAN;
		if ( result.state == PD_STATE_PENETRATING )
			deepest = std::max( deepest, result.depth );
	}
	return deepest;
}

/// A sphere's or a capsule's depth into a mesh: the radius less the distance from its point or
/// segment to the surface, or the radius plus the depth of its deepest inside point.
double smpMixedScene::roundDepth( const MixedPrimitive& p, const MixedMesh& mesh, bool* outTouching ) const
{
	const btTransform& pose = rigidBody( p.body )->getWorldTransform();
	V3 a = toV3( pose * btVector3( 0, btScalar( p.halfHeight ), 0 ) );
	V3 b = toV3( pose * btVector3( 0, btScalar( -p.halfHeight ), 0 ) );
	double distance = mesh.world.distance( a, b );
	double inside = -1.0;
	const int samples = p.halfHeight > 0.0 ? 17 : 1;
	for ( int k = 0; k < samples; ++k )
	{
		V3 q = samples == 1 ? a : a + ( (double)k / ( samples - 1 ) ) * ( b - a );
		if ( mesh.world.inside( q ) )
			inside = std::max( inside, mesh.world.distance( q, q ) );
	}
	*outTouching = inside >= 0.0 || distance <= p.radius + kContactGap;
	return inside >= 0.0 ? p.radius + inside : p.radius - distance;
}

/// A mesh against the terrain (its vertices below the surface, the grid points inside it) and
/// against the planes (its deepest vertex), into the deepest so far.
void smpMixedScene::measureGround( MixedMesh& mesh, double* ioTerrain, double* ioPlane )
{
	const btTransform& pose = rigidBody( mesh.body )->getWorldTransform();
	const std::vector<double>& v = *mesh.vertices;
	double terrainGap = 1e300;
	std::vector<double> planeGap( m_planes.size(), 1e300 );
	for ( size_t i = 0; i + 2 < v.size(); i += 3 )
	{
		V3 p = toV3( pose * btVector3( btScalar( v[i] ), btScalar( v[i + 1] ), btScalar( v[i + 2] ) ) );
		double h = 0.0;
		V3 n{ 0, 1, 0 };
		if ( m_terrain.height( p.x, p.z, &h, &n ) )
			terrainGap = std::min( terrainGap, ( p.y - h ) * n.y );
		for ( size_t k = 0; k < m_planes.size(); ++k )
			planeGap[k] = std::min( planeGap[k], dot( m_planes[k].n, p ) - m_planes[k].c );
	}
	double terrainDepth = -terrainGap;
	const double half = 0.5 * kSpacing * ( kGrid - 1 );
	int i0 = std::max( 0, (int)std::ceil( ( mesh.world.lo.x + half ) / kSpacing ) );
	int i1 = std::min( kGrid - 1, (int)std::floor( ( mesh.world.hi.x + half ) / kSpacing ) );
	int j0 = std::max( 0, (int)std::ceil( ( mesh.world.lo.z + half ) / kSpacing ) );
	int j1 = std::min( kGrid - 1, (int)std::floor( ( mesh.world.hi.z + half ) / kSpacing ) );
	for ( int j = j0; j <= j1; ++j )
		for ( int i = i0; i <= i1; ++i )
		{
			V3 g = { -half + kSpacing * i, (double)m_heights[(size_t)j * kGrid + i], -half + kSpacing * j };
			if ( mesh.world.inside( g ) )
				terrainDepth = std::max( terrainDepth, mesh.world.distance( g, g ) );
		}
	record( SMP_MIXED_MESH_TERRAIN, terrainDepth, mesh.size, terrainGap <= kContactGap || terrainDepth > 0.0 );
	*ioTerrain = std::max( *ioTerrain, terrainDepth );
	for ( size_t k = 0; k < m_planes.size(); ++k )
	{
		if ( planeGap[k] > kContactGap )
			continue;
		record( SMP_MIXED_MESH_PLANE, -planeGap[k], mesh.size, true );
		*ioPlane = std::max( *ioPlane, -planeGap[k] );
	}
}

bool smpAabbsNear( const btRigidBody* a, const btRigidBody* b, double gap )
{
	btVector3 loA, hiA, loB, hiB;
	a->getAabb( loA, hiA );
	b->getAabb( loB, hiB );
	btScalar g = btScalar( gap );
	return !( loA.x() > hiB.x() + g || loB.x() > hiA.x() + g || loA.y() > hiB.y() + g || loB.y() > hiA.y() + g ||
			  loA.z() > hiB.z() + g || loB.z() > hiA.z() + g );
}

double smpMixedScene::measurePenetration()
{
	if ( m_measuredStep == m_step )
		return m_lastPenetration;
	m_measuredStep = m_step;
	double ground[2] = { 0.0, 0.0 }; // terrain, planes
	double bodies = 0.0;
	for ( MixedMesh& mesh : m_meshes )
	{
		mesh.world.set( *mesh.vertices, *mesh.indices, rigidBody( mesh.body )->getWorldTransform() );
		if ( !isLost( mesh.body ) )
			measureGround( mesh, &ground[0], &ground[1] );
	}
	for ( const MixedPrimitive& p : m_primitives )
	{
		if ( isLost( p.body ) )
			continue;
		for ( const MixedMesh& mesh : m_meshes )
		{
			if ( isLost( mesh.body ) || !smpAabbsNear( rigidBody( p.body ), rigidBody( mesh.body ), kContactGap ) )
				continue;
			++m_penetrationQueries;
			bool touching = false;
			double depth = p.parts.empty()
							   ? roundDepth( p, mesh, &touching )
							   : polyhedralDepth( p.parts, rigidBody( p.body )->getWorldTransform(), mesh, &touching );
			if ( !std::isfinite( depth ) )
				++m_penetrationFailures;
			record( mesh.bowl ? SMP_MIXED_PRIMITIVE_BOWL : SMP_MIXED_PRIMITIVE_MESH, depth,
					std::min( p.size, mesh.size ), touching );
			if ( std::isfinite( depth ) )
				bodies = std::max( bodies, depth );
		}
	}
	for ( size_t a = 0; a < m_meshes.size(); ++a )
		for ( size_t b = a + 1; b < m_meshes.size(); ++b )
		{
			const MixedMesh &ma = m_meshes[a], &mb = m_meshes[b];
			if ( isLost( ma.body ) || isLost( mb.body ) ||
				 !smpAabbsNear( rigidBody( ma.body ), rigidBody( mb.body ), kContactGap ) )
				continue;
			++m_penetrationQueries;
			bool touching = false;
			double depth = polyhedralDepth( { ma.mesh }, rigidBody( ma.body )->getWorldTransform(), mb, &touching );
			if ( !std::isfinite( depth ) )
				++m_penetrationFailures;
			record( SMP_MIXED_MESH_MESH, depth, std::min( ma.size, mb.size ), touching );
			if ( std::isfinite( depth ) )
				bodies = std::max( bodies, depth );
		}
	++m_penetrationSamples;
	m_lastPenetration = bodies;
	if ( bodies > m_maxPenetration || m_maxPenetrationStep < 0 )
	{
		m_maxPenetration = std::max( m_maxPenetration, bodies );
		m_maxPenetrationStep = m_step;
	}
	m_lastFloorPenetration = std::max( ground[0], ground[1] );
	m_maxFloorPenetration = std::max( m_maxFloorPenetration, m_lastFloorPenetration );
	return bodies;
}

std::vector<smpSceneFigure> smpMixedScene::figures() const
{
	std::vector<smpSceneFigure> f;
	for ( int c = 0; c < SMP_MIXED_CLASS_COUNT; ++c )
	{
		const ClassFigures& k = m_classes[c];
		std::string key = kClassKeys[c];
		std::string label = kClassLabels[c];
		f.push_back( { key + "_max_penetration", k.maxDepth, "deepest, " + label + " (m)" } );
		f.push_back( { key + "_settled_penetration", k.settledDepth, "deepest after the arrival phase (m)" } );
		f.push_back( { key + "_settled_over_size", k.settledOverSize,
					   "the same over the smaller body's bounding-box diagonal, the largest" } );
		f.push_back( { key + "_contacts", (double)k.contacts, "pair-steps within 1 cm (the class is present)" } );
	}
	int lost = 0;
	for ( const MixedMesh& mesh : m_meshes )
		lost += isLost( mesh.body ) ? 1 : 0;
	for ( const MixedPrimitive& p : m_primitives )
		lost += isLost( p.body ) ? 1 : 0;
	f.push_back( { "lost", (double)lost, "bodies through the terrain or out of the walls" } );
	f.push_back( { "rest_speed", m_jitter, "the largest speed over the last second, bodies not lost (m/s)" } );
	f.push_back( { "arrival_step", (double)m_arrival, "the settled phase starts here" } );
	f.push_back( { "round_measure_bound", m_roundBound,
				   "cylinders and cones measured as inscribed 128-gons: at most this short (m)" } );
	f.push_back( { "measure_failures", (double)m_measureFailures, "measurements that failed (not in the depths)" } );
	return f;
}

} // namespace

std::unique_ptr<smpScene> smpCreateMixedScene( const smpSceneConfig& inConfig, std::string* error )
{
	smpSceneConfig config = inConfig;
	config.kind = SMP_SCENE_MIXED;
	config.sleeping = false;
	if ( config.algo == SMP_SCENE_ALGO_CONVEX )
	{
		*error = "the convex algorithm has convex pieces for tori and convex bodies only, not for the mixed scene";
		return nullptr;
	}
	if ( config.steps <= 0 )
		config.steps = 600;
	config.substeps = std::max( 1, config.substeps );
	if ( config.solverIterations <= 0 )
		config.solverIterations = 10;
	std::unique_ptr<smpMixedScene> scene( new smpMixedScene( config, "mixed" ) );
	if ( !scene->initWorld( error ) )
		return nullptr;
	scene->setStepCount( config.steps );
	if ( !scene->build( error ) )
		return nullptr;
	return scene;
}
