// SPDX-License-Identifier: MIT
// Box: six welded face grids.
#include "shape_builder.h"

#include <stdlib.h>

bool smpMakeBox( pdVec3 halfExtents, int subdivisions, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	double h[3] = { halfExtents.x, halfExtents.y, halfExtents.z };
	if ( subdivisions < 1 || subdivisions > 2048 || !smpIsFinite3( h[0], h[1], h[2] ) || h[0] <= 0.0 || h[1] <= 0.0 ||
		 h[2] <= 0.0 )
	{
		return false;
	}
	int n = subdivisions;
	// One coordinate table per axis so that shared edges get bit-identical coordinates.
	double* table = (double*)malloc( (size_t)( n + 1 ) * 3 * sizeof( double ) );
	if ( table == NULL )
	{
		return false;
	}
	for ( int a = 0; a < 3; ++a )
	{
		for ( int i = 0; i <= n; ++i )
		{
			table[a * ( n + 1 ) + i] = -h[a] + 2.0 * h[a] * (double)i / (double)n;
		}
		table[a * ( n + 1 )] = -h[a];
		table[a * ( n + 1 ) + n] = h[a];
	}
	smpSoupBuilder b = { 0 };
	smpBuilder_Reserve( &b, 6 * ( n + 1 ) * ( n + 1 ), 12 * n * n );
	for ( int face = 0; face < 6; ++face )
	{
		int a = face / 2;
		double sign = ( face % 2 ) == 0 ? 1.0 : -1.0;
		int u = ( a + 1 ) % 3;
		int v = ( a + 2 ) % 3;
		int base = b.vertexCount;
		for ( int i = 0; i <= n; ++i )
		{
			for ( int j = 0; j <= n; ++j )
			{
				double p[3];
				p[a] = sign > 0.0 ? h[a] : -h[a];
				p[u] = table[u * ( n + 1 ) + i];
				p[v] = table[v * ( n + 1 ) + j];
				smpBuilder_AddVertex( &b, p[0], p[1], p[2] );
			}
		}
		for ( int i = 0; i < n; ++i )
		{
			for ( int j = 0; j < n; ++j )
			{
				int v00 = base + i * ( n + 1 ) + j;
				int v10 = v00 + ( n + 1 );
				int v11 = v10 + 1;
				int v01 = v00 + 1;
				// (u, v, a) is right-handed, so counter-clockwise in (u, v) faces +a.
				if ( sign > 0.0 )
				{
					smpBuilder_AddTriangle( &b, v00, v10, v11 );
					smpBuilder_AddTriangle( &b, v00, v11, v01 );
				}
				else
				{
					smpBuilder_AddTriangle( &b, v00, v11, v10 );
					smpBuilder_AddTriangle( &b, v00, v01, v11 );
				}
			}
		}
	}
	free( table );
	if ( !smpBuilder_Finish( &b, out ) )
	{
		return false;
	}
	if ( !smpWeldSoup( out ) )
	{
		smpFreeSoup( out );
		return false;
	}
	return true;
}
