// SPDX-License-Identifier: MIT
// Assembly parts: a cylinder with 45-degree chamfers at its ends (pegs, shafts), an annulus
// (washers) and a rectangular block with a through hole (the peg's bore). All are built about the
// z axis; every circle has its vertices on the nominal radius, so a facet lies inside it by the
// sagitta radius * (1 - cos(pi / segments)).
#include "shape_builder.h"

#include <math.h>

bool smpMakeChamferedCylinder( double radius, double length, double chamferBottom, double chamferTop, int segments,
							   smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( !smpIsFinite3( radius, length, chamferBottom ) || !isfinite( chamferTop ) || radius <= 0.0 || length <= 0.0 ||
		 chamferBottom < 0.0 || chamferTop < 0.0 || chamferBottom >= radius || chamferTop >= radius ||
		 chamferBottom + chamferTop >= length || segments < 3 || segments > 4096 )
	{
		return false;
	}
	double r[6], z[6];
	int n = 0;
	const double h = 0.5 * length;
	r[n] = 0.0, z[n++] = -h;
	if ( chamferBottom > 0.0 )
	{
		r[n] = radius - chamferBottom, z[n++] = -h;
	}
	r[n] = radius, z[n++] = -h + chamferBottom;
	r[n] = radius, z[n++] = h - chamferTop;
	if ( chamferTop > 0.0 )
	{
		r[n] = radius - chamferTop, z[n++] = h;
	}
	r[n] = 0.0, z[n++] = h;
	smpSoupBuilder b = { 0 };
	smpBuilder_AddRevolution( &b, r, z, n, segments );
	return smpBuilder_Finish( &b, out );
}

bool smpMakeWasher( double innerRadius, double outerRadius, double thickness, int segments, smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	if ( !smpIsFinite3( innerRadius, outerRadius, thickness ) || innerRadius <= 0.0 || outerRadius <= innerRadius ||
		 thickness <= 0.0 || segments < 3 || segments > 4096 )
	{
		return false;
	}
	// A closed profile loop (inner bottom, outer bottom, outer top, inner top) swept around z: a
	// doubly periodic grid, vertex (around j, profile k) at j * 4 + k.
	const double pr[4] = { innerRadius, outerRadius, outerRadius, innerRadius };
	const double pz[4] = { -0.5 * thickness, -0.5 * thickness, 0.5 * thickness, 0.5 * thickness };
	smpSoupBuilder b = { 0 };
	smpBuilder_Reserve( &b, 4 * segments, 8 * segments );
	for ( int j = 0; j < segments; ++j )
	{
		double phi = 2.0 * SMP_PI * (double)j / (double)segments;
		for ( int k = 0; k < 4; ++k )
		{
			smpBuilder_AddVertex( &b, pr[k] * cos( phi ), pr[k] * sin( phi ), pz[k] );
		}
	}
	smpBuilder_AddPeriodicGrid( &b, 0, segments, 4 );
	return smpBuilder_Finish( &b, out );
}

bool smpMakeHoleBlock( double sizeX, double sizeY, double sizeZ, double holeRadius, double chamfer, int segments,
					   smpSoup* out )
{
	if ( out == NULL )
	{
		return false;
	}
	smpClearSoup( out );
	const double hx = 0.5 * sizeX, hy = 0.5 * sizeY, hz = 0.5 * sizeZ;
	if ( !smpIsFinite3( sizeX, sizeY, sizeZ ) || !smpIsFinite3( holeRadius, chamfer, 0.0 ) || sizeX <= 0.0 ||
		 sizeY <= 0.0 || sizeZ <= 0.0 || holeRadius <= 0.0 || chamfer < 0.0 || chamfer >= sizeZ ||
		 holeRadius + chamfer >= 0.999 * ( hx < hy ? hx : hy ) || segments < 8 || segments > 4096 || segments % 8 != 0 )
	{
		return false;
	}
	// Per angle phi_j a closed profile loop: the outline at the top, the chamfer's top edge (when
	// there is a chamfer), the bore at the chamfer's foot, the bore at the bottom, the outline at
	// the bottom. The outline point of phi is on the side its ray meets, at tan() of the angle
	// from that side's middle: the four corners are the angles 45 + 90 k degrees, which are
	// sample angles because segments is a multiple of 8, so every face is planar.
	const int loop = chamfer > 0.0 ? 5 : 4;
	smpSoupBuilder b = { 0 };
	smpBuilder_Reserve( &b, loop * segments, 2 * loop * segments );
	for ( int j = 0; j < segments; ++j )
	{
		double phi = 2.0 * SMP_PI * (double)j / (double)segments;
		double c = cos( phi ), s = sin( phi );
		int side = ( ( 8 * j + segments ) / ( 2 * segments ) ) % 4; // 0: +x, 1: +y, 2: -x, 3: -y
		double local = phi - 0.5 * SMP_PI * side;                   // in [-pi/4, pi/4]
		double t = tan( local );
		int eighth = ( 8 * j ) / segments; // corners exactly at +-1
		if ( 8 * j == segments * eighth && eighth % 2 == 1 )
		{
			t = side == ( eighth / 2 ) ? 1.0 : -1.0;
		}
		double ox = 0.0, oy = 0.0;
		switch ( side )
		{
			case 0:
				ox = hx, oy = hy * t;
				break;
			case 1:
				ox = -hx * t, oy = hy;
				break;
			case 2:
				ox = -hx, oy = -hy * t;
				break;
			default:
				ox = hx * t, oy = -hy;
				break;
		}
		smpBuilder_AddVertex( &b, ox, oy, hz );
		if ( chamfer > 0.0 )
		{
			smpBuilder_AddVertex( &b, ( holeRadius + chamfer ) * c, ( holeRadius + chamfer ) * s, hz );
		}
		smpBuilder_AddVertex( &b, holeRadius * c, holeRadius * s, hz - chamfer );
		smpBuilder_AddVertex( &b, holeRadius * c, holeRadius * s, -hz );
		smpBuilder_AddVertex( &b, ox, oy, -hz );
	}
	smpBuilder_AddPeriodicGrid( &b, 0, segments, loop );
	return smpBuilder_Finish( &b, out );
}
