// SPDX-License-Identifier: MIT
// Procedural watertight shapes and a plain triangle-soup container, shared by tests,
// benchmarks and samples (one generator family per file in samples/common/shapes/).
#pragma once

#include "polydepth/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Indexed triangles in double precision. Owned; free with smpFreeSoup.
typedef struct smpSoup
{
	double* vertices;   ///< 3 * vertexCount
	int vertexCount;
	uint32_t* indices;  ///< 3 * triangleCount, counter-clockwise seen from outside (outward normals)
	int triangleCount;
} smpSoup;

void smpFreeSoup( smpSoup* soup );
/// A def describing the soup (pointers into it; the soup must outlive pdCreateMesh).
pdMeshDef smpSoupMeshDef( const smpSoup* soup );
/// pdCreateMesh on the soup; NULL on failure (report may be NULL).
pdMesh* smpSoupCreateMesh( const smpSoup* soup, pdMeshReport* report );

/// Every generator returns a closed, consistently oriented (outward) mesh centred at the
/// origin unless noted, with about the requested triangle count (>= the minimum the shape
/// needs). Returns false on bad parameters or out of memory (soup left empty).
bool smpMakeBox( pdVec3 halfExtents, int subdivisions, smpSoup* out );            ///< subdivisions per edge >= 1
bool smpMakeIcosphere( double radius, int levels, smpSoup* out );                  ///< 20 * 4^levels triangles
bool smpMakeTorus( double majorRadius, double minorRadius, int majorSegments, int minorSegments, smpSoup* out );
/// (p,q) torus knot tube of radius tubeRadius around the knot curve scaled by scale (shapes/torus.c).
bool smpMakeTorusKnot( int p, int q, double scale, double tubeRadius, int segments, int sides, smpSoup* out );
/// Plate of size x size x thickness with holesPerSide^2 square holes.
bool smpMakeGrate( double size, double thickness, int holesPerSide, smpSoup* out );
/// Open-top cylinder with wall thickness and a bottom (closed as a solid: inner and outer walls).
bool smpMakeCup( double radius, double height, double wall, int segments, smpSoup* out );
/// Elongated concave spoon-like solid (a bowl on a handle).
bool smpMakeSpoon( double length, int segments, smpSoup* out );
/// Torus with a smooth radial distortion of amplitude (fraction of the minor radius).
bool smpMakeDistortedTorus( double majorRadius, double minorRadius, double amplitude, int majorSegments,
						   int minorSegments, smpSoup* out );
/// Cylinder about z of the given radius and length, centred, with 45-degree chamfers of the
/// given widths (m, 0: a sharp edge) at its -z and +z ends (shapes/assembly.c): pegs, shafts.
bool smpMakeChamferedCylinder( double radius, double length, double chamferBottom, double chamferTop, int segments,
							   smpSoup* out );
/// Annulus about z (a washer), centred: inner and outer radius, thickness along z.
bool smpMakeWasher( double innerRadius, double outerRadius, double thickness, int segments, smpSoup* out );
/// Block sizeX x sizeY x sizeZ, centred, with a through hole of holeRadius along z and a 45-degree
/// chamfer of width chamfer (0: none) at the hole's +z rim; segments a multiple of 8 (the block's
/// corners are sample angles, so its faces are planar). Genus one.
bool smpMakeHoleBlock( double sizeX, double sizeY, double sizeZ, double holeRadius, double chamfer, int segments,
					   smpSoup* out );
/// Any shape by name ("box", "icosphere", "torus", "knot", "grate", "cup", "spoon",
/// "distorted-torus") at about targetTriangles, scaled to a bounding-box diagonal of about size.
bool smpMakeShapeByName( const char* name, int targetTriangles, double size, smpSoup* out );

/// Convex hull of points (for convex test pairs); closed, outward. False if degenerate.
bool smpMakeConvexHull( const double* points, int pointCount, smpSoup* out );
/// Random points on/in a unit sphere, then their hull (deterministic by seed).
bool smpMakeRandomConvex( int pointCount, unsigned seed, smpSoup* out );

/// Subdivides every triangle into 4 (levels times): the same surface, finer tessellation.
bool smpSubdivideSoup( const smpSoup* in, int levels, smpSoup* out );
/// Applies x' = R x + t to every vertex in place (R row-major 3x3).
void smpTransformSoup( smpSoup* soup, const double rowMajorR[9], pdVec3 t );
/// Merges exactly coincident vertices in place (indices remapped; triangles are kept as they
/// are). False on a NaN/Inf coordinate or out of memory (the soup is then unchanged).
bool smpWeldSoup( smpSoup* soup );

#ifdef __cplusplus
}
#endif
