// SPDX-License-Identifier: MIT
// The soup container (shapes.h): clear, free, mesh def, transform, and the signed volume and
// flip that turn a consistently wound soup outward.
#include "shape_builder.h"

#include <stdlib.h>

void smpClearSoup( smpSoup* soup )
{
	soup->vertices = NULL;
	soup->vertexCount = 0;
	soup->indices = NULL;
	soup->triangleCount = 0;
}

void smpFreeSoup( smpSoup* soup )
{
	if ( soup == NULL )
	{
		return;
	}
	free( soup->vertices );
	free( soup->indices );
	smpClearSoup( soup );
}

pdMeshDef smpSoupMeshDef( const smpSoup* soup )
{
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = soup->vertices;
	def.vertexCount = soup->vertexCount;
	def.vertexStride = 0;
	def.vertexType = PD_SCALAR_FLOAT64;
	def.indices = soup->indices;
	def.triangleCount = soup->triangleCount;
	def.indexStride = 0;
	def.indexType = PD_INDEX_UINT32;
	return def;
}

pdMesh* smpSoupCreateMesh( const smpSoup* soup, pdMeshReport* report )
{
	pdMeshDef def = smpSoupMeshDef( soup );
	return pdCreateMesh( &def, report );
}

double smpSoupSignedVolume6( const smpSoup* soup )
{
	double sum = 0.0;
	for ( int t = 0; t < soup->triangleCount; ++t )
	{
		const double* a = soup->vertices + 3 * soup->indices[3 * t + 0];
		const double* b = soup->vertices + 3 * soup->indices[3 * t + 1];
		const double* c = soup->vertices + 3 * soup->indices[3 * t + 2];
		sum += a[0] * ( b[1] * c[2] - b[2] * c[1] ) - a[1] * ( b[0] * c[2] - b[2] * c[0] ) +
			   a[2] * ( b[0] * c[1] - b[1] * c[0] );
	}
	return sum;
}

void smpSoupFlip( smpSoup* soup )
{
	for ( int t = 0; t < soup->triangleCount; ++t )
	{
		uint32_t tmp = soup->indices[3 * t + 1];
		soup->indices[3 * t + 1] = soup->indices[3 * t + 2];
		soup->indices[3 * t + 2] = tmp;
	}
}

void smpTransformSoup( smpSoup* soup, const double rowMajorR[9], pdVec3 t )
{
	if ( soup == NULL || rowMajorR == NULL )
	{
		return;
	}
	const double* r = rowMajorR;
	for ( int i = 0; i < soup->vertexCount; ++i )
	{
		double* v = soup->vertices + 3 * i;
		double x = v[0], y = v[1], z = v[2];
		v[0] = r[0] * x + r[1] * y + r[2] * z + t.x;
		v[1] = r[3] * x + r[4] * y + r[5] * z + t.y;
		v[2] = r[6] * x + r[7] * y + r[8] * z + t.z;
	}
	// A reflection would turn the normals inward; keep them outward.
	double det = r[0] * ( r[4] * r[8] - r[5] * r[7] ) - r[1] * ( r[3] * r[8] - r[5] * r[6] ) +
				 r[2] * ( r[3] * r[7] - r[4] * r[6] );
	if ( det < 0.0 )
	{
		smpSoupFlip( soup );
	}
}
