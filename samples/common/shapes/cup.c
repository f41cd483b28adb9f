// SPDX-License-Identifier: MIT
// Cup: an open-top cylinder with a wall and a bottom, as a surface of revolution.
#include "shape_builder.h"

#include <math.h>
#include <stdlib.h>

static int smpPieces( double length, double step )
{
	double n = ceil( length / step - 1e-9 );
	if ( !( n >= 1.0 ) )
	{
		return 1;
	}
	return n > 4096.0 ? 4096 : (int)n;
}

// Profile of the cup's cross-section from the outer bottom centre round to the inner bottom
// centre; returns the point count (writes r, z when not NULL).
int smpCupProfile( double radius, double height, double wall, int segments, double* r, double* z )
{
	double step = 2.0 * SMP_PI * radius / (double)segments;
	double corners[6][2] = {
		{ 0.0, 0.0 }, { radius, 0.0 }, { radius, height }, { radius - wall, height }, { radius - wall, wall },
		{ 0.0, wall } };
	int count = 0;
	for ( int s = 0; s < 5; ++s )
	{
		double dr = corners[s + 1][0] - corners[s][0];
		double dz = corners[s + 1][1] - corners[s][1];
		int pieces = smpPieces( sqrt( dr * dr + dz * dz ), step );
		for ( int k = 0; k < pieces; ++k )
		{
			if ( r != NULL )
			{
				double f = (double)k / (double)pieces;
				r[count] = corners[s][0] + f * dr;
				z[count] = corners[s][1] + f * dz - 0.5 * height;
			}
			++count;
		}
	}
	if ( r != NULL )
	{
		r[count] = 0.0;
		z[count] = wall - 0.5 * height;
	}
	return count + 1;
}

bool smpMakeCup( double radius, double height, double wall, int segments, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( !smpIsFinite3( radius, height, wall ) || radius <= 0.0 || height <= 0.0 || wall <= 0.0 || wall >= radius ||
		 wall >= height || segments < 3 || segments > 4096 )
	{
		return false;
	}
	int count = smpCupProfile( radius, height, wall, segments, NULL, NULL );
	if ( (double)count * (double)segments * 2.0 > (double)SMP_SHAPE_MAX_TRIANGLES )
	{
		return false;
	}
	double* r = (double*)malloc( (size_t)count * 2 * sizeof( double ) );
	if ( r == NULL )
	{
		return false;
	}
	double* z = r + count;
	smpCupProfile( radius, height, wall, segments, r, z );
	smpSoupBuilder b = { 0 };
	smpBuilder_AddRevolution( &b, r, z, count, segments );
	free( r );
	return smpBuilder_Finish( &b, out );
}
