// SPDX-License-Identifier: MIT
// Icosphere: a subdivided icosahedron projected onto the sphere.
#include "shape_builder.h"

#include <math.h>

bool smpMakeIcosphere( double radius, int levels, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( !isfinite( radius ) || radius <= 0.0 || levels < 0 || levels > 10 )
	{
		return false;
	}
	const double g = 1.6180339887498948482;
	static const int faces[20][3] = {
		{ 0, 11, 5 },  { 0, 5, 1 },  { 0, 1, 7 },  { 0, 7, 10 }, { 0, 10, 11 }, { 1, 5, 9 }, { 5, 11, 4 },
		{ 11, 10, 2 }, { 10, 7, 6 }, { 7, 1, 8 },  { 3, 9, 4 },  { 3, 4, 2 },   { 3, 2, 6 }, { 3, 6, 8 },
		{ 3, 8, 9 },   { 4, 9, 5 },  { 2, 4, 11 }, { 6, 2, 10 }, { 8, 6, 7 },   { 9, 8, 1 },
	};
	const double raw[12][3] = {
		{ -1, g, 0 },  { 1, g, 0 },  { -1, -g, 0 }, { 1, -g, 0 }, { 0, -1, g },  { 0, 1, g },
		{ 0, -1, -g }, { 0, 1, -g }, { g, 0, -1 },  { g, 0, 1 },  { -g, 0, -1 }, { -g, 0, 1 },
	};
	smpSoupBuilder b = { 0 };
	smpBuilder_Reserve( &b, 10 * ( 1 << ( 2 * levels ) ) + 2, 20 * ( 1 << ( 2 * levels ) ) );
	double norm = sqrt( 1.0 + g * g );
	for ( int i = 0; i < 12; ++i )
	{
		smpBuilder_AddVertex( &b, raw[i][0] / norm, raw[i][1] / norm, raw[i][2] / norm );
	}
	for ( int f = 0; f < 20; ++f )
	{
		// Orient each face outward on its own (the icosahedron is convex about the origin).
		const double* p = b.vertices + 3 * faces[f][0];
		const double* q = b.vertices + 3 * faces[f][1];
		const double* r = b.vertices + 3 * faces[f][2];
		double e1[3] = { q[0] - p[0], q[1] - p[1], q[2] - p[2] };
		double e2[3] = { r[0] - p[0], r[1] - p[1], r[2] - p[2] };
		double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
		double d = n[0] * ( p[0] + q[0] + r[0] ) + n[1] * ( p[1] + q[1] + r[1] ) + n[2] * ( p[2] + q[2] + r[2] );
		if ( d >= 0.0 )
		{
			smpBuilder_AddTriangle( &b, faces[f][0], faces[f][1], faces[f][2] );
		}
		else
		{
			smpBuilder_AddTriangle( &b, faces[f][0], faces[f][2], faces[f][1] );
		}
	}
	for ( int level = 0; level < levels && !b.failed; ++level )
	{
		smpBuilder_SubdivideOnce( &b );
		for ( int i = 0; i < b.vertexCount; ++i )
		{
			double* v = b.vertices + 3 * i;
			double len = sqrt( v[0] * v[0] + v[1] * v[1] + v[2] * v[2] );
			if ( len > 0.0 )
			{
				v[0] /= len;
				v[1] /= len;
				v[2] /= len;
			}
		}
	}
	for ( int i = 0; i < 3 * b.vertexCount && !b.failed; ++i )
	{
		b.vertices[i] *= radius;
	}
	return smpBuilder_Finish( &b, out );
}
