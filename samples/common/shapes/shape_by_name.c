// SPDX-License-Identifier: MIT
// Any shape by name at about a target triangle count and size (the generators' parameters are
// searched for the count nearest the target).
#include "shape_builder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void smpSoupBounds( const smpSoup* soup, double lo[3], double hi[3] )
{
	for ( int a = 0; a < 3; ++a )
	{
		lo[a] = soup->vertexCount > 0 ? soup->vertices[a] : 0.0;
		hi[a] = lo[a];
	}
	for ( int i = 1; i < soup->vertexCount; ++i )
	{
		for ( int a = 0; a < 3; ++a )
		{
			double c = soup->vertices[3 * i + a];
			lo[a] = c < lo[a] ? c : lo[a];
			hi[a] = c > hi[a] ? c : hi[a];
		}
	}
}

// Picks the integer n in [lo, hi] whose triangle count f(n) is closest to target (in ratio).
static int smpBestParameter( int lo, int hi, int target, double ( *count )( int, const double* ), const double* ctx )
{
	int best = lo;
	double bestErr = INFINITY;
	for ( int n = lo; n <= hi; ++n )
	{
		double c = count( n, ctx );
		double err = fabs( log( c / (double)target ) );
		if ( err < bestErr )
		{
			bestErr = err;
			best = n;
		}
		if ( c > 4.0 * (double)target )
		{
			break;
		}
	}
	return best;
}

static double smpBoxCount( int n, const double* ctx )
{
	return 12.0 * n * n;
}

static double smpIcoCount( int n, const double* ctx )
{
	return 20.0 * pow( 4.0, n );
}

// Tube-like grids: ctx[0] = segments per side ratio.
static double smpTubeCount( int n, const double* ctx )
{
	int major = (int)lround( ctx[0] * n );
	return 2.0 * ( major < 3 ? 3 : major ) * n;
}

static double smpGrateCount( int h, const double* ctx )
{
	return 20.0 * h * h + 32.0 * h + 12.0;
}

static double smpCupCount( int s, const double* ctx )
{
	return 2.0 * s * ( smpCupProfile( ctx[0], ctx[1], ctx[2], s, NULL, NULL ) - 2 );
}

static double smpSpoonCount( int s, const double* ctx )
{
	return 2.0 * s * ( 2 * s - 1 );
}

bool smpMakeShapeByName( const char* name, int targetTriangles, double size, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( name == NULL || targetTriangles < 1 || targetTriangles > SMP_SHAPE_MAX_TRIANGLES / 4 || !isfinite( size ) ||
		 size <= 0.0 )
	{
		return false;
	}
	int target = targetTriangles;
	bool ok = false;
	if ( strcmp( name, "box" ) == 0 )
	{
		int n = smpBestParameter( 1, 2048, target, smpBoxCount, NULL );
		ok = smpMakeBox( ( pdVec3 ){ 1.0, 1.0, 1.0 }, n, out );
	}
	else if ( strcmp( name, "icosphere" ) == 0 || strcmp( name, "sphere" ) == 0 )
	{
		int n = smpBestParameter( 0, 10, target, smpIcoCount, NULL );
		ok = smpMakeIcosphere( 1.0, n, out );
	}
	else if ( strcmp( name, "torus" ) == 0 || strcmp( name, "distorted-torus" ) == 0 )
	{
		// R / r = 2.5: segments in proportion to the two circumferences.
		double ratio[1] = { 2.5 };
		int n = smpBestParameter( 3, 4096, target, smpTubeCount, ratio );
		int major = (int)lround( ratio[0] * n );
		double amplitude = strcmp( name, "torus" ) == 0 ? 0.0 : 0.3;
		ok = smpMakeDistortedTorus( 1.0, 0.4, amplitude, major < 3 ? 3 : major, n, out );
	}
	else if ( strcmp( name, "knot" ) == 0 || strcmp( name, "torusknot" ) == 0 )
	{
		// The (2,3) curve is about 6.7 times as long as the tube's circumference at tube 0.4.
		double ratio[1] = { 6.67 };
		int n = smpBestParameter( 3, 4096, target, smpTubeCount, ratio );
		int segments = (int)lround( ratio[0] * n );
		ok = smpMakeTorusKnot( 2, 3, 1.0, 0.4, segments < 3 ? 3 : segments, n, out );
	}
	else if ( strcmp( name, "grate" ) == 0 )
	{
		int h = smpBestParameter( 1, 1000, target, smpGrateCount, NULL );
		// Larger targets: more, smaller holes only up to 12 per side, then finer triangles.
		int levels = 0;
		if ( h > 12 )
		{
			h = 12;
			while ( levels < 8 && smpGrateCount( h, NULL ) * pow( 4.0, levels + 1 ) <= 2.0 * target )
			{
				++levels;
			}
		}
		smpSoup plate = { 0 };
		ok = smpMakeGrate( 1.0, 0.08, h, &plate );
		if ( ok && levels > 0 )
		{
			ok = smpSubdivideSoup( &plate, levels, out );
			smpFreeSoup( &plate );
		}
		else
		{
			*out = plate;
		}
	}
	else if ( strcmp( name, "cup" ) == 0 )
	{
		double ctx[3] = { 0.5, 1.0, 0.06 };
		int s = smpBestParameter( 3, 4096, target, smpCupCount, ctx );
		ok = smpMakeCup( ctx[0], ctx[1], ctx[2], s, out );
	}
	else if ( strcmp( name, "spoon" ) == 0 )
	{
		int s = smpBestParameter( 4, 4096, target, smpSpoonCount, NULL );
		ok = smpMakeSpoon( 1.0, s, out );
	}
	if ( !ok )
	{
		smpFreeSoup( out );
		return false;
	}
	// Centre the bounding box and scale its diagonal to size.
	double lo[3], hi[3];
	smpSoupBounds( out, lo, hi );
	double c[3] = { 0.5 * ( lo[0] + hi[0] ), 0.5 * ( lo[1] + hi[1] ), 0.5 * ( lo[2] + hi[2] ) };
	double d[3] = { hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2] };
	double diagonal = sqrt( d[0] * d[0] + d[1] * d[1] + d[2] * d[2] );
	double s = diagonal > 0.0 ? size / diagonal : 1.0;
	for ( int i = 0; i < out->vertexCount; ++i )
	{
		for ( int a = 0; a < 3; ++a )
		{
			out->vertices[3 * i + a] = ( out->vertices[3 * i + a] - c[a] ) * s;
		}
	}
	return true;
}
