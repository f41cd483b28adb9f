// SPDX-License-Identifier: MIT
// Convex Bullet shapes as closed triangle meshes: boxes as their 12 triangles, polyhedral
// shapes (hulls, point clouds, convex triangle meshes, tetrahedra) as the faces of
// btConvexHullComputer's hull of their points, cylinders and cones as tessellations whose rim
// deviates from the true circle by at most a set fraction of the radius, in and out alike.
//
// Margins: a box's and a cylinder's size is getHalfExtentsWithMargin() (the size the user gave:
// Bullet's implicit margin lies inside it); a cone is its radius and height; a polyhedral
// shape is the hull of its points. Bullet's convex algorithms round every one of them by the
// margin (sharp box corners become spheres of the margin, hulls and cones grow by it); the
// mesh keeps the sharp shape.
#include "shim_internal.h"

#include <BulletCollision/CollisionShapes/btConvexPointCloudShape.h>
#include <BulletCollision/CollisionShapes/btConvexTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTetrahedronShape.h>
#include <LinearMath/btConvexHullComputer.h>

#include <cmath>
#include <cstring>

namespace polydepth::bullet
{
inline namespace PD_BULLET_ABI
{

namespace
{
// Segment counts of a tessellated circle.
constexpr int kMinSegments = 8;
constexpr int kMaxSegments = 512;

struct Vec
{
	double x, y, z;
};

Vec sub( Vec a, Vec b )
{
	return { a.x - b.x, a.y - b.y, a.z - b.z };
}
Vec cross( Vec a, Vec b )
{
	return { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
}
double dot( Vec a, Vec b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

Vec vertexAt( const std::vector<double>& v, uint32_t i )
{
	return { v[3 * i], v[3 * i + 1], v[3 * i + 2] };
}

uint32_t addVertex( ShapeTriangles& out, double x, double y, double z )
{
	out.vertices.insert( out.vertices.end(), { x, y, z } );
	return (uint32_t)( out.vertices.size() / 3 - 1 );
}

// A point with coordinate `axial` on the up axis and (a, b) on the other two, in the cyclic
// order of the axes, so a counter-clockwise (a, b) turn is right-handed about +up.
uint32_t addAxial( ShapeTriangles& out, int up, double axial, double a, double b )
{
	double p[3];
	p[up] = axial;
	p[( up + 1 ) % 3] = a;
	p[( up + 2 ) % 3] = b;
	return addVertex( out, p[0], p[1], p[2] );
}

} // namespace

bool orientConvexTriangles( ShapeTriangles& out, const char** outProblem )
{
	size_t n = out.vertices.size() / 3;
	if ( n < 4 || out.indices.size() < 12 )
	{
		*outProblem = "fewer than 4 vertices or 4 faces: the shape has no volume";
		return false;
	}
	Vec centre = { 0.0, 0.0, 0.0 };
	Vec lo = vertexAt( out.vertices, 0 ), hi = lo;
	for ( size_t i = 0; i < n; ++i )
	{
		Vec v = vertexAt( out.vertices, (uint32_t)i );
		if ( !std::isfinite( v.x ) || !std::isfinite( v.y ) || !std::isfinite( v.z ) )
		{
			*outProblem = "a vertex is not finite";
			return false;
		}
		centre = { centre.x + v.x / (double)n, centre.y + v.y / (double)n, centre.z + v.z / (double)n };
		lo = { std::fmin( lo.x, v.x ), std::fmin( lo.y, v.y ), std::fmin( lo.z, v.z ) };
		hi = { std::fmax( hi.x, v.x ), std::fmax( hi.y, v.y ), std::fmax( hi.z, v.z ) };
	}
	double volume = 0.0;
	for ( size_t t = 0; t + 2 < out.indices.size(); t += 3 )
	{
		Vec a = vertexAt( out.vertices, out.indices[t] ), b = vertexAt( out.vertices, out.indices[t + 1] ),
			c = vertexAt( out.vertices, out.indices[t + 2] );
		Vec normal = cross( sub( b, a ), sub( c, a ) );
		double side = dot( normal, sub( a, centre ) );
		if ( side < 0.0 )
		{
			std::swap( out.indices[t + 1], out.indices[t + 2] );
		}
		volume += std::fabs( side ) / 6.0;
	}
	Vec size = sub( hi, lo );
	double diagonal = std::sqrt( dot( size, size ) );
	// A solid thinner than a millionth of its size along an axis is flat for the PD.
	if ( !( diagonal > 0.0 ) || !( volume > 1e-9 * diagonal * diagonal * diagonal ) ||
		 std::fmin( size.x, std::fmin( size.y, size.z ) ) < 1e-6 * diagonal )
	{
		*outProblem = "the shape has zero extent along an axis (flat or a point)";
		return false;
	}
	return true;
}

namespace
{

bool boxTriangles( const btBoxShape* box, ShapeTriangles& out, const char** outProblem )
{
	btVector3 h = box->getHalfExtentsWithMargin();
	for ( int i = 0; i < 8; ++i )
	{
		addVertex( out, ( i & 1 ) ? (double)h.x() : -(double)h.x(), ( i & 2 ) ? (double)h.y() : -(double)h.y(),
				   ( i & 4 ) ? (double)h.z() : -(double)h.z() );
	}
	// Two triangles per face; orientConvex winds them.
	static const uint32_t kFaces[6][4] = { { 0, 2, 3, 1 }, { 4, 5, 7, 6 }, { 0, 1, 5, 4 },
										   { 2, 6, 7, 3 }, { 0, 4, 6, 2 }, { 1, 3, 7, 5 } };
	for ( const auto& f : kFaces )
	{
		out.indices.insert( out.indices.end(), { f[0], f[1], f[2], f[0], f[2], f[3] } );
	}
	return orientConvexTriangles( out, outProblem );
}

// The hull's faces (convex polygons) as fans.
bool hullTriangles( const std::vector<double>& points, ShapeTriangles& out, const char** outProblem )
{
	if ( points.size() < 12 )
	{
		*outProblem = "fewer than 4 points: the hull has no volume";
		return false;
	}
	btConvexHullComputer hull;
	hull.compute( points.data(), 3 * (int)sizeof( double ), (int)( points.size() / 3 ), 0, 0 );
	if ( hull.vertices.size() < 4 || hull.faces.size() < 4 )
	{
		*outProblem = "the points' hull is flat: it has no volume";
		return false;
	}
	for ( int i = 0; i < hull.vertices.size(); ++i )
	{
		const btVector3& v = hull.vertices[i];
		addVertex( out, (double)v.x(), (double)v.y(), (double)v.z() );
	}
	for ( int f = 0; f < hull.faces.size(); ++f )
	{
		const btConvexHullComputer::Edge* first = &hull.edges[hull.faces[f]];
		uint32_t root = (uint32_t)first->getSourceVertex();
		const btConvexHullComputer::Edge* e = first->getNextEdgeOfFace();
		// A face has as many edges as the hull; more means a broken edge list.
		for ( int guard = 0; e != first && guard < hull.edges.size(); ++guard )
		{
			uint32_t a = (uint32_t)e->getSourceVertex(), b = (uint32_t)e->getTargetVertex();
			if ( a != root && b != root )
			{
				out.indices.insert( out.indices.end(), { root, a, b } );
			}
			e = e->getNextEdgeOfFace();
		}
	}
	return orientConvexTriangles( out, outProblem );
}

// Every vertex of a polyhedral shape (scaled as Bullet scales it).
void polyhedralPoints( const btCollisionShape* shape, std::vector<double>& points )
{
	if ( shape->getShapeType() == CONVEX_TRIANGLEMESH_SHAPE_PROXYTYPE )
	{
		// btConvexTriangleMeshShape has no vertex access of its own: its triangles, scaled by the
		// mesh interface (where the shape keeps its scaling).
		struct Collect : btInternalTriangleIndexCallback
		{
			std::vector<double>* points;
			void internalProcessTriangleIndex( btVector3* triangle, int, int ) override
			{
				for ( int k = 0; k < 3; ++k )
				{
					points->insert( points->end(),
									{ (double)triangle[k].x(), (double)triangle[k].y(), (double)triangle[k].z() } );
				}
			}
		} collect;
		collect.points = &points;
		auto* mesh = static_cast<const btConvexTriangleMeshShape*>( shape );
		btVector3 big( BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT );
		mesh->getMeshInterface()->InternalProcessAllTriangles( &collect, -big, big );
		return;
	}
	auto* poly = static_cast<const btPolyhedralConvexShape*>( shape );
	for ( int i = 0; i < poly->getNumVertices(); ++i )
	{
		btVector3 v;
		poly->getVertex( i, v );
		points.insert( points.end(), { (double)v.x(), (double)v.y(), (double)v.z() } );
	}
}

// Rings of `segments` points on radius r about the up axis; returns their first index. The
// points lie at r / ((1 + cos(pi/n)) / 2), so the polygon's corners bulge out and its edge
// middles cut in by the same r * tan^2(pi / 2n).
uint32_t addRing( ShapeTriangles& out, int up, double axial, double r, int segments )
{
	double c = std::cos( M_PI / segments );
	double rv = 2.0 * r / ( 1.0 + c );
	uint32_t first = (uint32_t)( out.vertices.size() / 3 );
	for ( int i = 0; i < segments; ++i )
	{
		double t = 2.0 * M_PI * i / segments;
		addAxial( out, up, axial, rv * std::cos( t ), rv * std::sin( t ) );
	}
	return first;
}

bool cylinderTriangles( const btCylinderShape* cylinder, int segments, ShapeTriangles& out, const char** outProblem )
{
	int up = cylinder->getUpAxis();
	double r = (double)cylinder->getRadius();
	double half = (double)cylinder->getHalfExtentsWithMargin()[up];
	if ( !( r > 0.0 ) || !( half > 0.0 ) )
	{
		*outProblem = "the cylinder has zero radius or zero height";
		return false;
	}
	uint32_t bottom = addRing( out, up, -half, r, segments );
	uint32_t top = addRing( out, up, half, r, segments );
	uint32_t cb = addAxial( out, up, -half, 0.0, 0.0 ), ct = addAxial( out, up, half, 0.0, 0.0 );
	for ( int i = 0; i < segments; ++i )
	{
		uint32_t j = (uint32_t)( ( i + 1 ) % segments );
		uint32_t b0 = bottom + (uint32_t)i, b1 = bottom + j, t0 = top + (uint32_t)i, t1 = top + j;
		out.indices.insert( out.indices.end(), { b0, b1, t1, b0, t1, t0, cb, b1, b0, ct, t0, t1 } );
	}
	return orientConvexTriangles( out, outProblem );
}

bool coneTriangles( const btConeShape* cone, int segments, ShapeTriangles& out, const char** outProblem )
{
	int up = cone->getConeUpIndex();
	double r = (double)cone->getRadius();
	double half = 0.5 * (double)cone->getHeight();
	if ( !( r > 0.0 ) || !( half > 0.0 ) )
	{
		*outProblem = "the cone has zero radius or zero height";
		return false;
	}
	uint32_t base = addRing( out, up, -half, r, segments );
	uint32_t apex = addAxial( out, up, half, 0.0, 0.0 ), cb = addAxial( out, up, -half, 0.0, 0.0 );
	for ( int i = 0; i < segments; ++i )
	{
		uint32_t b0 = base + (uint32_t)i, b1 = base + (uint32_t)( ( i + 1 ) % segments );
		out.indices.insert( out.indices.end(), { b0, b1, apex, cb, b1, b0 } );
	}
	return orientConvexTriangles( out, outProblem );
}

uint64_t mixBits( uint64_t h, double v )
{
	uint64_t bits = 0;
	std::memcpy( &bits, &v, sizeof( bits ) );
	h ^= bits + 0x9E3779B97F4A7C15ull + ( h << 6 ) + ( h >> 2 );
	return h * 0xBF58476D1CE4E5B9ull;
}

} // namespace

int roundSegments( double relativeError )
{
	// The rim error of addRing is r * tan^2(pi / 2n).
	if ( !( relativeError > 0.0 ) )
	{
		return kMaxSegments;
	}
	double n = M_PI / ( 2.0 * std::atan( std::sqrt( relativeError ) ) );
	if ( !std::isfinite( n ) || n > kMaxSegments )
	{
		return kMaxSegments;
	}
	return std::max( kMinSegments, (int)std::ceil( n - 1e-9 ) );
}

bool isConvexShape( const btCollisionShape* shape )
{
	if ( shape == nullptr )
	{
		return false;
	}
	switch ( shape->getShapeType() )
	{
		case BOX_SHAPE_PROXYTYPE:
		case CONVEX_HULL_SHAPE_PROXYTYPE:
		case CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE:
		case CONVEX_TRIANGLEMESH_SHAPE_PROXYTYPE:
		case TETRAHEDRAL_SHAPE_PROXYTYPE:
		case CYLINDER_SHAPE_PROXYTYPE:
		case CONE_SHAPE_PROXYTYPE:
			return true;
		default:
			return false;
	}
}

uint64_t convexShapeKey( const btCollisionShape* shape )
{
	uint64_t h = mixBits( 0xC0417ull, (double)shape->getShapeType() );
	btVector3 s = shape->getLocalScaling();
	h = mixBits( mixBits( mixBits( h, (double)s.x() ), (double)s.y() ), (double)s.z() );
	switch ( shape->getShapeType() )
	{
		case BOX_SHAPE_PROXYTYPE:
		case CYLINDER_SHAPE_PROXYTYPE:
		{
			// btCylinderShape derives from btConvexInternalShape like the box: the same fields.
			auto* internal = static_cast<const btConvexInternalShape*>( shape );
			btVector3 d = internal->getImplicitShapeDimensions();
			h = mixBits( mixBits( mixBits( h, (double)d.x() ), (double)d.y() ), (double)d.z() );
			h = mixBits( h, (double)internal->getMargin() );
			if ( shape->getShapeType() == CYLINDER_SHAPE_PROXYTYPE )
			{
				h = mixBits( h, (double)static_cast<const btCylinderShape*>( shape )->getUpAxis() );
			}
			return h;
		}
		case CONE_SHAPE_PROXYTYPE:
		{
			auto* cone = static_cast<const btConeShape*>( shape );
			h = mixBits( mixBits( h, (double)cone->getRadius() ), (double)cone->getHeight() );
			return mixBits( h, (double)cone->getConeUpIndex() );
		}
		case CONVEX_HULL_SHAPE_PROXYTYPE:
		{
			auto* hull = static_cast<const btConvexHullShape*>( shape );
			// getUnscaledPoints() indexes element 0: not on a hull without points.
			const btVector3* points = hull->getNumPoints() > 0 ? hull->getUnscaledPoints() : nullptr;
			h = mixBits( h, (double)(uintptr_t)points );
			return mixBits( h, (double)hull->getNumPoints() );
		}
		case CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE:
		{
			auto* cloud = static_cast<const btConvexPointCloudShape*>( shape );
			h = mixBits( h, (double)(uintptr_t)cloud->getUnscaledPoints() );
			return mixBits( h, (double)cloud->getNumPoints() );
		}
		case CONVEX_TRIANGLEMESH_SHAPE_PROXYTYPE:
		{
			auto* mesh = static_cast<const btConvexTriangleMeshShape*>( shape );
			const btStridingMeshInterface* mi = mesh->getMeshInterface();
			h = mixBits( h, (double)(uintptr_t)mi );
			btVector3 ms = mi != nullptr ? mi->getScaling() : btVector3( 0, 0, 0 );
			return mixBits( mixBits( mixBits( h, (double)ms.x() ), (double)ms.y() ), (double)ms.z() );
		}
		default:
			return h;
	}
}

uint64_t convexContentSignature( const btCollisionShape* shape )
{
	uint64_t h = convexShapeKey( shape );
	if ( shape->getShapeType() == BOX_SHAPE_PROXYTYPE || shape->getShapeType() == CYLINDER_SHAPE_PROXYTYPE ||
		 shape->getShapeType() == CONE_SHAPE_PROXYTYPE )
	{
		return h;
	}
	std::vector<double> points;
	polyhedralPoints( shape, points );
	for ( double v : points )
	{
		h = mixBits( h, v );
	}
	return mixBits( h, (double)points.size() );
}

bool convexShapeTriangles( const btCollisionShape* shape, int segments, ShapeTriangles& out, const char** outProblem )
{
	out.vertices.clear();
	out.indices.clear();
	*outProblem = nullptr;
	switch ( shape->getShapeType() )
	{
		case BOX_SHAPE_PROXYTYPE:
			return boxTriangles( static_cast<const btBoxShape*>( shape ), out, outProblem );
		case CYLINDER_SHAPE_PROXYTYPE:
			return cylinderTriangles( static_cast<const btCylinderShape*>( shape ), segments, out, outProblem );
		case CONE_SHAPE_PROXYTYPE:
			return coneTriangles( static_cast<const btConeShape*>( shape ), segments, out, outProblem );
		case CONVEX_HULL_SHAPE_PROXYTYPE:
		case CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE:
		case CONVEX_TRIANGLEMESH_SHAPE_PROXYTYPE:
		case TETRAHEDRAL_SHAPE_PROXYTYPE:
		{
			std::vector<double> points;
			polyhedralPoints( shape, points );
			return hullTriangles( points, out, outProblem );
		}
		default:
			*outProblem = "not a convex shape the shim builds";
			return false;
	}
}

} // namespace PD_BULLET_ABI
} // namespace polydepth::bullet
