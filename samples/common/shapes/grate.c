// SPDX-License-Identifier: MIT
// Grate: a (2h+1) x (2h+1) grid of equal cells, the cells with both coordinates odd are holes.
#include "shape_builder.h"

#include <math.h>
#include <stdlib.h>

bool smpMakeGrate( double size, double thickness, int holesPerSide, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( !isfinite( size ) || !isfinite( thickness ) || size <= 0.0 || thickness <= 0.0 || holesPerSide < 0 ||
		 holesPerSide > 1000 )
	{
		return false;
	}
	int cells = 2 * holesPerSide + 1;
	int g = cells + 1;
	double* coord = (double*)malloc( (size_t)g * sizeof( double ) );
	if ( coord == NULL )
	{
		return false;
	}
	for ( int k = 0; k < g; ++k )
	{
		coord[k] = -0.5 * size + size * (double)k / (double)cells;
	}
	coord[g - 1] = 0.5 * size;
	double zt = 0.5 * thickness;
	smpSoupBuilder b = { 0 };
	smpBuilder_Reserve( &b, 2 * g * g, 4 * cells * cells + 8 * cells * 4 );
	for ( int layer = 0; layer < 2; ++layer )
	{
		for ( int k = 0; k < g; ++k )
		{
			for ( int l = 0; l < g; ++l )
			{
				smpBuilder_AddVertex( &b, coord[k], coord[l], layer == 0 ? zt : -zt );
			}
		}
	}
	free( coord );
	int bottom = g * g;
#define SMP_GRATE_HOLE( i, j )                                                                                         \
	( ( i ) < 0 || ( j ) < 0 || ( i ) >= cells || ( j ) >= cells || ( ( (i)&1 ) && ( (j)&1 ) ) )
	for ( int i = 0; i < cells; ++i )
	{
		for ( int j = 0; j < cells; ++j )
		{
			if ( SMP_GRATE_HOLE( i, j ) )
			{
				continue;
			}
			// Corners counter-clockwise seen from +z: (i,j) (i+1,j) (i+1,j+1) (i,j+1).
			int c[4] = { i * g + j, ( i + 1 ) * g + j, ( i + 1 ) * g + j + 1, i * g + j + 1 };
			smpBuilder_AddTriangle( &b, c[0], c[1], c[2] );
			smpBuilder_AddTriangle( &b, c[0], c[2], c[3] );
			smpBuilder_AddTriangle( &b, bottom + c[0], bottom + c[2], bottom + c[1] );
			smpBuilder_AddTriangle( &b, bottom + c[0], bottom + c[3], bottom + c[2] );
			// Side k runs from corner k to corner k+1; its neighbour cell is below, right, above, left.
			int ni[4] = { i, i + 1, i, i - 1 };
			int nj[4] = { j - 1, j, j + 1, j };
			for ( int k = 0; k < 4; ++k )
			{
				if ( !SMP_GRATE_HOLE( ni[k], nj[k] ) )
				{
					continue;
				}
				int pv = c[k];
				int qv = c[( k + 1 ) % 4];
				smpBuilder_AddTriangle( &b, qv, pv, bottom + pv );
				smpBuilder_AddTriangle( &b, qv, bottom + pv, bottom + qv );
			}
		}
	}
#undef SMP_GRATE_HOLE
	return smpBuilder_Finish( &b, out );
}
