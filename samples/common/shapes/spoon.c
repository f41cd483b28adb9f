// SPDX-License-Identifier: MIT
// Spoon: a bowl on a handle, as a surface of revolution.
#include "shape_builder.h"

#include <math.h>
#include <stdlib.h>

static double smpEllipseHalfWidth( double x, double centre, double halfLength, double halfWidth )
{
	double s = ( x - centre ) / halfLength;
	double f = 1.0 - s * s;
	return f > 0.0 ? halfWidth * sqrt( f ) : 0.0;
}

// Spoon along x: a surface of revolution (bowl and handle radii) flattened in z, then sheared by
// z += -depth * bump(x, y). Revolution, scaling and a shear along z are all one-to-one, so the
// result stays embedded while the bowl's top becomes a dent (concave).
bool smpMakeSpoon( double length, int segments, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( !isfinite( length ) || length <= 0.0 || segments < 4 || segments > 4096 )
	{
		return false;
	}
	int count = 2 * segments + 1;
	double* r = (double*)malloc( (size_t)count * 2 * sizeof( double ) );
	if ( r == NULL )
	{
		return false;
	}
	double* z = r + count;
	const double bowlCentre = 0.25, bowlHalfLength = 0.25, bowlHalfWidth = 0.12;
	const double handleCentre = -0.2, handleHalfLength = 0.3, handleHalfWidth = 0.035;
	for ( int k = 0; k < count; ++k )
	{
		// Cosine spacing: finer near the two tips where the radius changes fastest.
		double x = -0.5 * cos( SMP_PI * (double)k / (double)( count - 1 ) );
		double bowl = smpEllipseHalfWidth( x, bowlCentre, bowlHalfLength, bowlHalfWidth );
		double handle = smpEllipseHalfWidth( x, handleCentre, handleHalfLength, handleHalfWidth );
		r[k] = bowl > handle ? bowl : handle;
		z[k] = x;
	}
	r[0] = 0.0;
	r[count - 1] = 0.0;
	z[0] = -0.5;
	z[count - 1] = 0.5;
	smpSoupBuilder b = { 0 };
	smpBuilder_AddRevolution( &b, r, z, count, segments );
	free( r );
	const double flatten = 0.35, depth = 0.08;
	for ( int i = 0; i < b.vertexCount && !b.failed; ++i )
	{
		double* v = b.vertices + 3 * i;
		double x = v[2], y = v[0], zz = v[1] * flatten;
		double sx = ( x - bowlCentre ) / ( 0.8 * bowlHalfLength );
		double sy = y / ( 0.8 * bowlHalfWidth );
		double f = 1.0 - sx * sx - sy * sy;
		if ( f > 0.0 )
		{
			zz -= depth * f * f;
		}
		v[0] = x * length;
		v[1] = y * length;
		v[2] = zz * length;
	}
	return smpBuilder_Finish( &b, out );
}
