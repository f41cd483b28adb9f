// SPDX-License-Identifier: MIT
// Rounded Bullet shapes as the core's rounded shapes: a skeleton (a point or a segment) and a
// radius, exactly, in the shape's own frame.
//
// Margins: a sphere and a capsule are their margin in Bullet (the whole radius is margin), so
// the radius is getRadius() (with the shape's scaling) and nothing is added or taken away. A
// btMultiSphereShape is the hull of its spheres (positions and radii scaled by a uniform
// scaling); it is a rounded shape when that hull is a sphere or a capsule: every radius equal
// and every centre on one line.
#include "shim_internal.h"

#include <cmath>

namespace polydepth::bullet
{
inline namespace PD_BULLET_ABI
{

namespace
{
// Radii and alignments within this fraction of the shape's size count as equal.
constexpr double kRoundedRelative = 1e-6;

pdVec3 toVec( const btVector3& v )
{
	return { (double)v.x(), (double)v.y(), (double)v.z() };
}

bool multiSphereSkeleton( const btMultiSphereShape* multi, pdRoundedShape* out, const char** outProblem )
{
	int n = multi->getSphereCount();
	btVector3 s = multi->getLocalScaling();
	if ( n < 1 )
	{
		*outProblem = "a multi-sphere without spheres";
		return false;
	}
	if ( std::fabs( (double)s.x() - (double)s.y() ) > kRoundedRelative * std::fabs( (double)s.x() ) ||
		 std::fabs( (double)s.x() - (double)s.z() ) > kRoundedRelative * std::fabs( (double)s.x() ) )
	{
		*outProblem = "a multi-sphere scaled unevenly is not a sphere or a capsule";
		return false;
	}
	double scale = std::fabs( (double)s.x() );
	double radius = (double)multi->getSphereRadius( 0 ) * scale;
	// The two centres farthest apart span the segment.
	int a = 0, b = 0;
	double widest = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		for ( int j = i + 1; j < n; ++j )
		{
			double d = (double)( multi->getSpherePosition( i ) - multi->getSpherePosition( j ) ).length();
			if ( d > widest )
			{
				widest = d;
				a = i;
				b = j;
			}
		}
	}
	btVector3 pa = multi->getSpherePosition( a ), pb = multi->getSpherePosition( b );
	double size = ( widest + 2.0 * (double)multi->getSphereRadius( 0 ) ) * scale;
	for ( int i = 0; i < n; ++i )
	{
		if ( std::fabs( (double)multi->getSphereRadius( i ) * scale - radius ) > kRoundedRelative * size )
		{
			*outProblem = "a multi-sphere whose radii differ is not a sphere or a capsule";
			return false;
		}
		btVector3 p = multi->getSpherePosition( i );
		double off = widest > 0.0 ? (double)( ( p - pa ).cross( pb - pa ) ).length() / widest : 0.0;
		if ( off * scale > kRoundedRelative * size )
		{
			*outProblem = "a multi-sphere whose centres are not on one line is not a sphere or a capsule";
			return false;
		}
	}
	out->skeleton[0] = toVec( pa * s );
	out->skeleton[1] = toVec( pb * s );
	out->skeletonCount = widest > 0.0 ? 2 : 1;
	out->radius = radius;
	return true;
}

} // namespace

bool isRoundedShape( const btCollisionShape* shape )
{
	if ( shape == nullptr )
	{
		return false;
	}
	int type = shape->getShapeType();
	return type == SPHERE_SHAPE_PROXYTYPE || type == CAPSULE_SHAPE_PROXYTYPE || type == MULTI_SPHERE_SHAPE_PROXYTYPE;
}

bool roundedShapeSkeleton( const btCollisionShape* shape, pdRoundedShape* out, const char** outProblem )
{
	*out = pdRoundedShape{};
	*outProblem = nullptr;
	switch ( shape->getShapeType() )
	{
		case SPHERE_SHAPE_PROXYTYPE:
			out->skeletonCount = 1;
			out->radius = (double)static_cast<const btSphereShape*>( shape )->getRadius();
			break;
		case CAPSULE_SHAPE_PROXYTYPE:
		{
			auto* capsule = static_cast<const btCapsuleShape*>( shape );
			double half = (double)capsule->getHalfHeight();
			if ( !std::isfinite( half ) || half < 0.0 )
			{
				*outProblem = "the capsule's height is not finite";
				return false;
			}
			// A zero-height capsule is a sphere.
			out->skeletonCount = half > 0.0 ? 2 : 1;
			double end[3] = { 0.0, 0.0, 0.0 };
			end[capsule->getUpAxis()] = half;
			out->skeleton[0] = { -end[0], -end[1], -end[2] };
			out->skeleton[1] = { end[0], end[1], end[2] };
			if ( out->skeletonCount == 1 )
			{
				out->skeleton[0] = { 0.0, 0.0, 0.0 };
			}
			out->radius = (double)capsule->getRadius();
			break;
		}
		case MULTI_SPHERE_SHAPE_PROXYTYPE:
			if ( !multiSphereSkeleton( static_cast<const btMultiSphereShape*>( shape ), out, outProblem ) )
			{
				return false;
			}
			break;
		default:
			*outProblem = "not a rounded shape";
			return false;
	}
	if ( !std::isfinite( out->radius ) || !( out->radius > 0.0 ) )
	{
		*outProblem = "the radius is zero or not finite";
		return false;
	}
	for ( int i = 0; i < out->skeletonCount; ++i )
	{
		if ( !std::isfinite( out->skeleton[i].x ) || !std::isfinite( out->skeleton[i].y ) ||
			 !std::isfinite( out->skeleton[i].z ) )
		{
			*outProblem = "a sphere centre is not finite";
			return false;
		}
	}
	return true;
}

} // namespace PD_BULLET_ABI
} // namespace polydepth::bullet
