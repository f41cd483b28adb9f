// SPDX-License-Identifier: MIT
// Private to the shape generators (samples/common/shapes/*.c). Every generator builds its
// triangles from a topologically closed grid (periodic grids, surfaces of revolution with poles,
// or welded face grids), so closedness and consistent winding hold by construction; the sign of
// the volume then decides one global flip so that normals point outward.
#pragma once

#include "shapes.h"

#define SMP_PI 3.14159265358979323846
// Largest soup a generator builds (keeps index arithmetic in range; generators are for tests).
#define SMP_SHAPE_MAX_TRIANGLES ( 1 << 26 )

/// A growing soup; failed is set (and sticks) when an allocation or a cap fails.
typedef struct smpSoupBuilder
{
	double* vertices;
	int vertexCount;
	int vertexCapacity;
	uint32_t* indices;
	int triangleCount;
	int triangleCapacity;
	bool failed;
} smpSoupBuilder;

/// soup.c
void smpClearSoup( smpSoup* soup );
double smpSoupSignedVolume6( const smpSoup* soup );
void smpSoupFlip( smpSoup* soup );

/// builder.c
void smpBuilder_Reserve( smpSoupBuilder* b, int vertices, int triangles );
int smpBuilder_AddVertex( smpSoupBuilder* b, double x, double y, double z );
void smpBuilder_AddTriangle( smpSoupBuilder* b, int i0, int i1, int i2 );
void smpBuilder_Discard( smpSoupBuilder* b );
/// Hands the builder's arrays to out, flipped once if the volume is negative; false (builder
/// discarded) if it failed or is empty.
bool smpBuilder_Finish( smpSoupBuilder* b, smpSoup* out );
bool smpIsFinite3( double x, double y, double z );
/// A doubly periodic grid (torus topology): vertex (i, j) at index base + i * n + j.
void smpBuilder_AddPeriodicGrid( smpSoupBuilder* b, int base, int m, int n );
/// A surface of revolution about z: profile points (r, z), first and last on the axis.
void smpBuilder_AddRevolution( smpSoupBuilder* b, const double* r, const double* z, int profileCount, int around );

/// subdivide.c: every triangle into 4 (shared edge midpoints).
void smpBuilder_SubdivideOnce( smpSoupBuilder* b );

/// cup.c: the cup's cross-section profile; returns the point count (writes r, z when not NULL).
int smpCupProfile( double radius, double height, double wall, int segments, double* r, double* z );
