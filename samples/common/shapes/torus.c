// SPDX-License-Identifier: MIT
// Tori: the torus, the distorted torus and the (p,q) torus knot tube, all doubly periodic grids.
#include "shape_builder.h"

#include <math.h>
#include <stdlib.h>

static bool smpMakeTorusImpl( double majorRadius, double minorRadius, double amplitude, int majorSegments,
							  int minorSegments, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( !smpIsFinite3( majorRadius, minorRadius, amplitude ) || minorRadius <= 0.0 ||
		 minorRadius * ( 1.0 + fabs( amplitude ) ) >= majorRadius || fabs( amplitude ) >= 1.0 || majorSegments < 3 ||
		 minorSegments < 3 || majorSegments > 16384 || minorSegments > 16384 ||
		 (double)majorSegments * (double)minorSegments * 2.0 > (double)SMP_SHAPE_MAX_TRIANGLES )
	{
		return false;
	}
	smpSoupBuilder b = { 0 };
	smpBuilder_Reserve( &b, majorSegments * minorSegments, 2 * majorSegments * minorSegments );
	for ( int i = 0; i < majorSegments; ++i )
	{
		double u = 2.0 * SMP_PI * (double)i / (double)majorSegments;
		for ( int j = 0; j < minorSegments; ++j )
		{
			double v = 2.0 * SMP_PI * (double)j / (double)minorSegments;
			// |0.6 sin cos + 0.4 cos| <= 1, so the tube radius stays in r (1 +- amplitude) < R.
			double wobble = 0.6 * sin( 3.0 * u ) * cos( 2.0 * v ) + 0.4 * cos( 5.0 * u + v );
			double r = minorRadius * ( 1.0 + amplitude * wobble );
			double ring = majorRadius + r * cos( v );
			smpBuilder_AddVertex( &b, ring * cos( u ), ring * sin( u ), r * sin( v ) );
		}
	}
	smpBuilder_AddPeriodicGrid( &b, 0, majorSegments, minorSegments );
	return smpBuilder_Finish( &b, out );
}

bool smpMakeTorus( double majorRadius, double minorRadius, int majorSegments, int minorSegments, smpSoup* out )
{
	return smpMakeTorusImpl( majorRadius, minorRadius, 0.0, majorSegments, minorSegments, out );
}

bool smpMakeDistortedTorus( double majorRadius, double minorRadius, double amplitude, int majorSegments,
							int minorSegments, smpSoup* out )
{
	return smpMakeTorusImpl( majorRadius, minorRadius, amplitude, majorSegments, minorSegments, out );
}

static int smpGcd( int a, int b )
{
	a = a < 0 ? -a : a;
	b = b < 0 ? -b : b;
	for ( int guard = 0; b != 0 && guard < 64; ++guard )
	{
		int t = a % b;
		a = b;
		b = t;
	}
	return a;
}

// The knot curve c(t) = scale * ((2 + cos qt) cos pt, (2 + cos qt) sin pt, sin qt), t in [0, 2 pi):
// it winds p times around the z axis and q times through the hole of a torus of radii 2 and 1
// (times scale). For the (2,3) knot strands come no closer than about 1.66 * scale, so
// tubeRadius up to about 0.6 * scale gives an embedded tube.
bool smpMakeTorusKnot( int p, int q, double scale, double tubeRadius, int segments, int sides, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( p < 1 || q < 1 || p > 64 || q > 64 || smpGcd( p, q ) != 1 || !isfinite( scale ) || !isfinite( tubeRadius ) ||
		 scale <= 0.0 || tubeRadius <= 0.0 || tubeRadius >= scale || segments < 3 || sides < 3 || segments > 1 << 20 ||
		 sides > 4096 || (double)segments * (double)sides * 2.0 > (double)SMP_SHAPE_MAX_TRIANGLES )
	{
		return false;
	}
	smpSoupBuilder b = { 0 };
	smpBuilder_Reserve( &b, segments * sides, 2 * segments * sides );
	for ( int i = 0; i < segments; ++i )
	{
		double t = 2.0 * SMP_PI * (double)i / (double)segments;
		double cp = cos( p * t ), sp = sin( p * t ), cq = cos( q * t ), sq = sin( q * t );
		double r = 2.0 + cq;
		double c[3] = { scale * r * cp, scale * r * sp, scale * sq };
		// Tangent: d/dt of the curve (the tangential part p * r never vanishes).
		double dr = -q * sq;
		double tan[3] = { dr * cp - r * p * sp, dr * sp + r * p * cp, q * cq };
		double tl = sqrt( tan[0] * tan[0] + tan[1] * tan[1] + tan[2] * tan[2] );
		tan[0] /= tl;
		tan[1] /= tl;
		tan[2] /= tl;
		// Frame from the radial direction, which is never parallel to the tangent; periodic in t.
		double rad[3] = { cp, sp, 0.0 };
		double dot = rad[0] * tan[0] + rad[1] * tan[1];
		double n1[3] = { rad[0] - dot * tan[0], rad[1] - dot * tan[1], -dot * tan[2] };
		double nl = sqrt( n1[0] * n1[0] + n1[1] * n1[1] + n1[2] * n1[2] );
		n1[0] /= nl;
		n1[1] /= nl;
		n1[2] /= nl;
		double n2[3] = { tan[1] * n1[2] - tan[2] * n1[1], tan[2] * n1[0] - tan[0] * n1[2],
						 tan[0] * n1[1] - tan[1] * n1[0] };
		for ( int j = 0; j < sides; ++j )
		{
			double th = 2.0 * SMP_PI * (double)j / (double)sides;
			double ct = cos( th ) * tubeRadius, st = sin( th ) * tubeRadius;
			smpBuilder_AddVertex( &b, c[0] + ct * n1[0] + st * n2[0], c[1] + ct * n1[1] + st * n2[1],
								  c[2] + ct * n1[2] + st * n2[2] );
		}
	}
	smpBuilder_AddPeriodicGrid( &b, 0, segments, sides );
	return smpBuilder_Finish( &b, out );
}
