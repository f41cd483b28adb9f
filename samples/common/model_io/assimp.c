// SPDX-License-Identifier: MIT
// STL, PLY, OFF and other formats through Assimp's C API, with a precheck of the declared
// sizes before Assimp allocates them.
#include "model_reader.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined( POLYDEPTH_HAVE_ASSIMP )

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

typedef struct smpAssimpTotals
{
	long long vertices;
	long long triangles;
	int depth;
	bool tooDeep;
} smpAssimpTotals;

static void smpCountNode( const struct aiScene* scene, const struct aiNode* node, int depth, smpAssimpTotals* totals )
{
	if ( depth > 64 )
	{
		totals->tooDeep = true;
		return;
	}
	for ( unsigned m = 0; m < node->mNumMeshes; ++m )
	{
		if ( node->mMeshes[m] >= scene->mNumMeshes )
		{
			continue;
		}
		const struct aiMesh* mesh = scene->mMeshes[node->mMeshes[m]];
		totals->vertices += mesh->mNumVertices;
		for ( unsigned f = 0; f < mesh->mNumFaces; ++f )
		{
			totals->triangles += mesh->mFaces[f].mNumIndices == 3;
		}
	}
	for ( unsigned c = 0; c < node->mNumChildren; ++c )
	{
		smpCountNode( scene, node->mChildren[c], depth + 1, totals );
	}
}

static void smpMultiply( const struct aiMatrix4x4* a, const struct aiMatrix4x4* b, struct aiMatrix4x4* out )
{
	const float* x = &a->a1;
	const float* y = &b->a1;
	float r[16];
	for ( int i = 0; i < 4; ++i )
	{
		for ( int j = 0; j < 4; ++j )
		{
			r[4 * i + j] =
				x[4 * i] * y[j] + x[4 * i + 1] * y[4 + j] + x[4 * i + 2] * y[8 + j] + x[4 * i + 3] * y[12 + j];
		}
	}
	memcpy( &out->a1, r, sizeof( r ) );
}

// Appends the node's meshes (transformed to the scene root) to out; returns false on a bad index
// or coordinate (message written).
static bool smpAppendNode( const struct aiScene* scene, const struct aiNode* node, const struct aiMatrix4x4* parent,
						   int depth, smpSoup* out, const char* path, char* error, size_t errorSize )
{
	struct aiMatrix4x4 world;
	smpMultiply( parent, &node->mTransformation, &world );
	const float* w = &world.a1;
	for ( unsigned m = 0; m < node->mNumMeshes; ++m )
	{
		if ( node->mMeshes[m] >= scene->mNumMeshes )
		{
			continue;
		}
		const struct aiMesh* mesh = scene->mMeshes[node->mMeshes[m]];
		int base = out->vertexCount;
		for ( unsigned v = 0; v < mesh->mNumVertices; ++v )
		{
			double x = mesh->mVertices[v].x, y = mesh->mVertices[v].y, z = mesh->mVertices[v].z;
			double p[3] = { w[0] * x + w[1] * y + w[2] * z + w[3], w[4] * x + w[5] * y + w[6] * z + w[7],
							w[8] * x + w[9] * y + w[10] * z + w[11] };
			if ( !isfinite( p[0] ) || !isfinite( p[1] ) || !isfinite( p[2] ) )
			{
				smpSetError( error, errorSize, path, "vertex %u of mesh %u has a non-finite coordinate", v,
							 node->mMeshes[m] );
				return false;
			}
			memcpy( out->vertices + 3 * out->vertexCount, p, sizeof( p ) );
			out->vertexCount++;
		}
		for ( unsigned f = 0; f < mesh->mNumFaces; ++f )
		{
			const struct aiFace* face = mesh->mFaces + f;
			if ( face->mNumIndices != 3 )
			{
				continue; // points and lines
			}
			for ( int k = 0; k < 3; ++k )
			{
				if ( face->mIndices[k] >= mesh->mNumVertices )
				{
					smpSetError( error, errorSize, path, "face %u of mesh %u references vertex %u of %u", f,
								 node->mMeshes[m], face->mIndices[k], mesh->mNumVertices );
					return false;
				}
				out->indices[3 * out->triangleCount + k] = (uint32_t)base + face->mIndices[k];
			}
			out->triangleCount++;
		}
	}
	for ( unsigned c = 0; c < node->mNumChildren; ++c )
	{
		if ( !smpAppendNode( scene, node->mChildren[c], &world, depth + 1, out, path, error, errorSize ) )
		{
			return false;
		}
	}
	return true;
}

// OFF: the header [ST][C][N][4][n]OFF and its vertex and face counts against the file size.
static bool smpPrecheckOff( const char* path, const char* data, size_t size, char* error, size_t errorSize )
{
	// Header: [ST][C][N][4][n]OFF, then vertex, face and edge counts; '#' starts a comment.
	long long counts[3] = { 0, 0, 0 };
	int found = -1; // -1: header not yet seen
	size_t pos = 0;
	while ( pos < size && found < 3 )
	{
		char c = data[pos];
		if ( smpIsSpace( c ) )
		{
			++pos;
			continue;
		}
		if ( c == '#' )
		{
			while ( pos < size && data[pos] != '\n' )
			{
				++pos;
			}
			continue;
		}
		size_t start = pos;
		while ( pos < size && !smpIsSpace( data[pos] ) && data[pos] != '#' )
		{
			++pos;
		}
		size_t n = pos - start;
		char token[32];
		if ( n >= sizeof( token ) )
		{
			smpSetError( error, errorSize, path, "not an OFF file (bad header)" );
			return false;
		}
		memcpy( token, data + start, n );
		token[n] = '\0';
		if ( found < 0 )
		{
			if ( n < 3 || strcmp( token + n - 3, "OFF" ) != 0 )
			{
				smpSetError( error, errorSize, path, "not an OFF file (expected an OFF header)" );
				return false;
			}
			found = 0;
			continue;
		}
		char* end = NULL;
		errno = 0;
		long long v = strtoll( token, &end, 10 );
		if ( end == token || *end != '\0' || errno == ERANGE || v < 0 || v > SMP_IO_MAX_TRIANGLES )
		{
			smpSetError( error, errorSize, path, "OFF header: bad or absurd count '%s' (limit %d)", token,
						 SMP_IO_MAX_TRIANGLES );
			return false;
		}
		counts[found++] = v;
	}
	if ( found < 3 )
	{
		smpSetError( error, errorSize, path, "truncated file: OFF header without vertex, face and edge counts" );
		return false;
	}
	// Each vertex needs at least 6 bytes ("0 0 0 "), each face at least 8 ("3 0 1 2 ").
	if ( 6 * counts[0] + 8 * counts[1] > (long long)size )
	{
		smpSetError( error, errorSize, path, "truncated file: %lld vertices and %lld faces cannot fit in %zu bytes",
					 counts[0], counts[1], size );
		return false;
	}
	return true;
}

// PLY: a well-formed header whose declared elements fit in the body.
static bool smpPrecheckPly( const char* path, const char* data, size_t size, char* error, size_t errorSize )
{
	if ( size < 4 || strncmp( data, "ply", 3 ) != 0 )
	{
		smpSetError( error, errorSize, path, "not a PLY file (expected 'ply' on the first line)" );
		return false;
	}
	// Every declared element needs at least one byte of body in any encoding.
	long long total = 0;
	size_t pos = 0;
	bool ended = false;
	int lineNumber = 0;
	while ( pos < size && !ended )
	{
		size_t start = pos;
		while ( pos < size && data[pos] != '\n' )
		{
			++pos;
		}
		size_t n = pos - start;
		++pos;
		char line[256];
		if ( n >= sizeof( line ) )
		{
			n = sizeof( line ) - 1;
		}
		memcpy( line, data + start, n );
		line[n] = '\0';
		// Trim trailing spaces and CR: header lines must be exactly what the PLY grammar allows,
		// since Assimp's parser can loop on a malformed header (e.g. data glued to end_header).
		while ( n > 0 && ( line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t' ) )
		{
			line[--n] = '\0';
		}
		++lineNumber;
		if ( strcmp( line, "end_header" ) == 0 )
		{
			ended = true;
		}
		else if ( lineNumber == 1 ? strcmp( line, "ply" ) != 0
								  : ( strncmp( line, "format ", 7 ) != 0 && strncmp( line, "comment", 7 ) != 0 &&
									  strncmp( line, "obj_info", 8 ) != 0 && strncmp( line, "element ", 8 ) != 0 &&
									  strncmp( line, "property ", 9 ) != 0 ) )
		{
			smpSetError( error, errorSize, path, "PLY header line %d is malformed: '%.48s'", lineNumber, line );
			return false;
		}
		else if ( strncmp( line, "element ", 8 ) == 0 )
		{
			const char* countText = strrchr( line, ' ' );
			char* end = NULL;
			errno = 0;
			long long v = countText != NULL ? strtoll( countText + 1, &end, 10 ) : -1;
			if ( end == NULL || end == countText + 1 || *end != '\0' || errno == ERANGE || v < 0 ||
				 v > SMP_IO_MAX_TRIANGLES )
			{
				smpSetError( error, errorSize, path, "PLY header: bad or absurd element count in '%.64s'", line );
				return false;
			}
			total += v;
		}
	}
	if ( !ended )
	{
		smpSetError( error, errorSize, path, "truncated file: PLY header without end_header" );
		return false;
	}
	if ( total > (long long)( size - ( pos < size ? pos : size ) ) )
	{
		smpSetError( error, errorSize, path,
					 "truncated file: the PLY header declares %lld elements, the body has %zu bytes", total,
					 size - ( pos < size ? pos : size ) );
		return false;
	}
	return true;
}

// Assimp allocates what a header declares before reading the data (an OFF header claiming 5e11
// faces is a 28 GB allocation), and handles other oddities with assertions. So only the formats
// we test are passed on, and their declared counts are checked against the file size first.
bool smpPrecheckForAssimp( const char* path, const char* data, size_t size, char* error, size_t errorSize )
{
	if ( smpHasExtension( path, ".stl" ) )
	{
		return true; // Assimp checks a binary STL's facet count against the file size
	}
	if ( smpHasExtension( path, ".off" ) )
	{
		return smpPrecheckOff( path, data, size, error, errorSize );
	}
	if ( smpHasExtension( path, ".ply" ) )
	{
		return smpPrecheckPly( path, data, size, error, errorSize );
	}
	smpSetError( error, errorSize, path, "unsupported format (use .tri, .tris, .obj, .stl, .ply or .off)" );
	return false;
}

bool smpLoadAssimp( const char* path, smpSoup* out, char* error, size_t errorSize )
{
	// Malformed importer output (faces without indices from a truncated OFF or PLY) trips an
	// assertion (abort) inside Assimp's triangulation step. So import with validation only, check
	// the faces here, and only then triangulate and join vertices.
	const struct aiScene* scene = aiImportFile( path, aiProcess_ValidateDataStructure );
	if ( scene == NULL )
	{
		const char* why = aiGetErrorString();
		smpSetError( error, errorSize, path, "cannot import (%s)",
					 why != NULL && why[0] != '\0' ? why : "unknown format" );
		return false;
	}
	for ( unsigned m = 0; m < scene->mNumMeshes; ++m )
	{
		const struct aiMesh* mesh = scene->mMeshes[m];
		bool bad = mesh == NULL || ( mesh->mNumFaces > 0 && mesh->mFaces == NULL ) ||
				   ( mesh->mNumVertices > 0 && mesh->mVertices == NULL );
		for ( unsigned f = 0; !bad && f < mesh->mNumFaces; ++f )
		{
			const struct aiFace* face = mesh->mFaces + f;
			bad = face->mNumIndices == 0 || face->mIndices == NULL;
			for ( unsigned k = 0; !bad && k < face->mNumIndices; ++k )
			{
				bad = face->mIndices[k] >= mesh->mNumVertices;
			}
		}
		if ( bad )
		{
			smpSetError( error, errorSize, path, "malformed mesh %u (a face without valid indices; truncated file?)",
						 m );
			aiReleaseImport( scene );
			return false;
		}
	}
	scene = aiApplyPostProcessing( scene, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices );
	if ( scene == NULL )
	{
		const char* why = aiGetErrorString();
		smpSetError( error, errorSize, path, "cannot triangulate (%s)",
					 why != NULL && why[0] != '\0' ? why : "unknown" );
		return false;
	}
	bool ok = false;
	smpAssimpTotals totals = { 0 };
	if ( scene->mRootNode != NULL )
	{
		smpCountNode( scene, scene->mRootNode, 0, &totals );
	}
	if ( totals.tooDeep )
	{
		smpSetError( error, errorSize, path, "scene graph deeper than 64 levels" );
	}
	else if ( totals.triangles == 0 )
	{
		smpSetError( error, errorSize, path, "empty mesh (no triangles)" );
	}
	else if ( totals.triangles > SMP_IO_MAX_TRIANGLES || totals.vertices > SMP_IO_MAX_VERTICES )
	{
		smpSetError( error, errorSize, path, "%lld triangles and %lld vertices exceed the limit of %d",
					 totals.triangles, totals.vertices, SMP_IO_MAX_TRIANGLES );
	}
	else
	{
		out->vertices = (double*)malloc( (size_t)totals.vertices * 3 * sizeof( double ) + 1 );
		out->indices = (uint32_t*)malloc( (size_t)totals.triangles * 3 * sizeof( uint32_t ) );
		if ( out->vertices == NULL || out->indices == NULL )
		{
			smpSetError( error, errorSize, path, "out of memory" );
		}
		else
		{
			struct aiMatrix4x4 identity = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
			ok = smpAppendNode( scene, scene->mRootNode, &identity, 0, out, path, error, errorSize );
			if ( ok && !smpWeldSoup( out ) )
			{
				smpSetError( error, errorSize, path, "out of memory welding vertices" );
				ok = false;
			}
		}
	}
	aiReleaseImport( scene );
	return ok;
}

#endif
