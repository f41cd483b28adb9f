// SPDX-License-Identifier: MIT
// Mesh def validation (mesh_validate.c): status, index and message per rule, and validate and
// create agree on every bad def.
#include <gtest/gtest.h>

#include "mesh_fixture.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace
{

// ---------------------------------------------------------------------------------------------
// Validation table: every bad def, checked through both entry points.

struct BadCase
{
	const char* name;
	pdStatus status;
	int badVertex;
	int badTriangle;
	const char* message;
};

// Storage kept alive for the defs the cases build.
struct CaseData
{
	Soup soup;
	std::vector<float> floats;
	pdMeshDef def;
};

CaseData BuildCase( const std::string& name )
{
	CaseData c;
	c.soup = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	if ( name == "BadIndex" )
	{
		c.soup = Soup();
		for ( int i = 0; i < 900; ++i )
		{
			c.soup.Add( i, i % 7, i % 13 );
		}
		for ( uint32_t t = 0; t < 20; ++t )
		{
			c.soup.Tri( t, t + 1, t == 17 ? 902u : t + 2 );
		}
	}
	if ( name == "NanVertex" || name == "InfVertex" || name == "HugeVertex" )
	{
		c.soup = MakeBox( { 0, 0, 0 }, { 1, 1, 1 }, false );
	}
	c.def = DefOf( c.soup );
	pdMeshDef& d = c.def;
	if ( name == "NoCookie" )
		d.internalValue = 0;
	if ( name == "NegativeVertexCount" )
		d.vertexCount = -3;
	if ( name == "NegativeTriangleCount" )
		d.triangleCount = -1;
	if ( name == "NullVertices" )
		d.vertices = nullptr;
	if ( name == "NullIndices" )
		d.indices = nullptr;
	if ( name == "SmallVertexStride" )
		d.vertexStride = 16;
	if ( name == "SmallIndexStride" )
		d.indexStride = 8;
	if ( name == "NegativeStride" )
		d.vertexStride = -24;
	if ( name == "BadVertexType" )
		d.vertexType = (pdScalarType)7;
	if ( name == "BadIndexType" )
		d.indexType = (pdIndexType)9;
	if ( name == "HugeTriangleCount" )
		d.triangleCount = std::numeric_limits<int>::max();
	if ( name == "HugeVertexCount" )
		d.vertexCount = std::numeric_limits<int>::max() / 2;
	if ( name == "BadTolerance" )
		d.degenerateAreaTolerance = -1.0;
	if ( name == "BadClearanceResolution" )
	{
		d.computeClearancePoints = true;
		d.clearanceGridResolution = 0;
	}
	if ( name == "NoVertices" )
		d.vertexCount = 0;
	if ( name == "NoTriangles" )
		d.triangleCount = 0;
	if ( name == "NanVertex" )
		c.soup.v[3 * 5 + 1] = std::numeric_limits<double>::quiet_NaN();
	if ( name == "InfVertex" )
		c.soup.v[3 * 8 + 2] = -std::numeric_limits<double>::infinity();
	if ( name == "HugeVertex" )
		c.soup.v[3 * 4 + 0] = 1e200;
	if ( name == "FloatNanVertex" )
	{
		c.floats.assign( c.soup.v.begin(), c.soup.v.end() );
		c.floats[3 * 6 + 0] = std::numeric_limits<float>::signaling_NaN();
		d.vertices = c.floats.data();
		d.vertexType = PD_SCALAR_FLOAT32;
	}
	if ( name == "RejectDegenerate" )
	{
		c.soup.t[3 * 4 + 2] = c.soup.t[3 * 4 + 0];
		d.rejectDegenerate = true;
	}
	if ( name == "RejectTinyTriangle" )
	{
		// A sliver: third vertex on the line of the first two.
		uint32_t a = c.soup.Add( 0.0, 0.0, 0.0 ), b = c.soup.Add( 1.0, 0.0, 0.0 ), e = c.soup.Add( 0.5, 0.0, 0.0 );
		c.soup.Tri( a, b, e );
		d = DefOf( c.soup );
		d.rejectDegenerate = true;
	}
	if ( name == "AllDegenerate" )
	{
		for ( size_t i = 0; i < c.soup.t.size(); i += 3 )
		{
			c.soup.t[i + 1] = c.soup.t[i];
		}
	}
	return c;
}

const BadCase kBadCases[] = {
	{ "NoCookie", PD_STATUS_DEF_NOT_INITIALIZED, -1, -1, "pdDefaultMeshDef" },
	{ "NegativeVertexCount", PD_STATUS_INVALID_ARGUMENT, -1, -1, "vertexCount is negative (-3)" },
	{ "NegativeTriangleCount", PD_STATUS_INVALID_ARGUMENT, -1, -1, "triangleCount is negative" },
	{ "NullVertices", PD_STATUS_INVALID_ARGUMENT, -1, -1, "vertices is NULL" },
	{ "NullIndices", PD_STATUS_INVALID_ARGUMENT, -1, -1, "indices is NULL" },
	{ "SmallVertexStride", PD_STATUS_INVALID_ARGUMENT, -1, -1, "vertexStride 16 is smaller than a vertex (24 bytes)" },
	{ "SmallIndexStride", PD_STATUS_INVALID_ARGUMENT, -1, -1, "indexStride 8 is smaller than a triangle (12 bytes)" },
	{ "NegativeStride", PD_STATUS_INVALID_ARGUMENT, -1, -1, "vertexStride -24" },
	{ "BadVertexType", PD_STATUS_INVALID_ARGUMENT, -1, -1, "vertexType 7" },
	{ "BadIndexType", PD_STATUS_INVALID_ARGUMENT, -1, -1, "indexType 9" },
	{ "HugeTriangleCount", PD_STATUS_INVALID_ARGUMENT, -1, -1, "triangleCount 2147483647 is above the limit" },
	{ "HugeVertexCount", PD_STATUS_INVALID_ARGUMENT, -1, -1, "vertexCount 1073741823 is above the limit" },
	{ "BadTolerance", PD_STATUS_INVALID_DEF, -1, -1, "degenerateAreaTolerance" },
	{ "BadClearanceResolution", PD_STATUS_INVALID_DEF, -1, -1, "clearanceGridResolution 0" },
	{ "NoVertices", PD_STATUS_EMPTY_MESH, -1, -1, "no vertices" },
	{ "NoTriangles", PD_STATUS_EMPTY_MESH, -1, -1, "no triangles" },
	{ "NanVertex", PD_STATUS_INVALID_VERTEX, 5, -1, "vertex 5 has a non-finite coordinate (y = nan)" },
	{ "InfVertex", PD_STATUS_INVALID_VERTEX, 8, -1, "vertex 8 has a non-finite coordinate (z = -inf)" },
	{ "FloatNanVertex", PD_STATUS_INVALID_VERTEX, 6, -1, "vertex 6 has a non-finite coordinate (x = nan)" },
	{ "HugeVertex", PD_STATUS_INVALID_VERTEX, 4, -1, "vertex 4 has a coordinate too large" },
	{ "BadIndex", PD_STATUS_INVALID_INDEX, -1, 17, "triangle 17 references vertex 902 of 900" },
	{ "RejectDegenerate", PD_STATUS_DEGENERATE_TRIANGLE, -1, 4, "triangle 4 is degenerate (repeats vertex" },
	{ "RejectTinyTriangle", PD_STATUS_DEGENERATE_TRIANGLE, -1, 12, "triangle 12 is degenerate (area 0" },
	{ "AllDegenerate", PD_STATUS_DEGENERATE_MESH, -1, 0, "all 12 triangles are degenerate" },
};

void ExpectRejected( const BadCase& expected )
{
	SCOPED_TRACE( expected.name );
	CaseData c = BuildCase( expected.name );
	size_t bytesBefore = pdGetAllocatorStats().bytes;
	pdMeshReport validated;
	memset( &validated, 0x5a, sizeof( validated ) );
	pdStatus status = pdValidateMeshDef( &c.def, &validated );
	EXPECT_EQ( pdGetAllocatorStats().bytes, bytesBefore ) << "validation must not allocate";
	EXPECT_EQ( status, expected.status );
	EXPECT_EQ( validated.status, expected.status );
	EXPECT_EQ( validated.firstBadVertex, expected.badVertex );
	EXPECT_EQ( validated.firstBadTriangle, expected.badTriangle );
	EXPECT_NE( std::string( validated.message ).find( expected.message ), std::string::npos ) << validated.message;

	pdMeshReport created;
	memset( &created, 0x3c, sizeof( created ) );
	pdMesh* mesh = pdCreateMesh( &c.def, &created );
	EXPECT_EQ( mesh, nullptr );
	pdDestroyMesh( mesh );
	EXPECT_EQ( pdGetAllocatorStats().bytes, bytesBefore );
	EXPECT_EQ( created.status, validated.status );
	EXPECT_EQ( created.firstBadVertex, validated.firstBadVertex );
	EXPECT_EQ( created.firstBadTriangle, validated.firstBadTriangle );
	EXPECT_EQ( created.degenerateTriangleCount, validated.degenerateTriangleCount );
	EXPECT_EQ( created.removedTriangleCount, validated.removedTriangleCount );
	EXPECT_STREQ( created.message, validated.message );
}

void RunCase( const char* name )
{
	for ( const BadCase& c : kBadCases )
	{
		if ( std::strcmp( c.name, name ) == 0 )
		{
			ExpectRejected( c );
			return;
		}
	}
	FAIL() << "no case " << name;
}

} // namespace

TEST( PdMesh, NullDefIsInvalidArgument )
{
	pdMeshReport a, b;
	EXPECT_EQ( pdValidateMeshDef( nullptr, &a ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdCreateMesh( nullptr, &b ), nullptr );
	EXPECT_EQ( b.status, PD_STATUS_INVALID_ARGUMENT );
	EXPECT_STREQ( a.message, b.message );
	EXPECT_NE( std::string( a.message ).find( "def is NULL" ), std::string::npos );
	EXPECT_EQ( pdValidateMeshDef( nullptr, nullptr ), PD_STATUS_INVALID_ARGUMENT );
	EXPECT_EQ( pdCreateMesh( nullptr, nullptr ), nullptr );
}

TEST( PdMesh, MissingCookieIsDefNotInitialized )
{
	RunCase( "NoCookie" );
}

TEST( PdMesh, NegativeVertexCountIsInvalidArgument )
{
	RunCase( "NegativeVertexCount" );
}

TEST( PdMesh, NegativeTriangleCountIsInvalidArgument )
{
	RunCase( "NegativeTriangleCount" );
}

TEST( PdMesh, NullVerticesIsInvalidArgument )
{
	RunCase( "NullVertices" );
}

TEST( PdMesh, NullIndicesIsInvalidArgument )
{
	RunCase( "NullIndices" );
}

TEST( PdMesh, SmallVertexStrideIsInvalidArgument )
{
	RunCase( "SmallVertexStride" );
}

TEST( PdMesh, SmallIndexStrideIsInvalidArgument )
{
	RunCase( "SmallIndexStride" );
}

TEST( PdMesh, NegativeStrideIsInvalidArgument )
{
	RunCase( "NegativeStride" );
}

TEST( PdMesh, BadEnumIsInvalidArgument )
{
	RunCase( "BadVertexType" );
	RunCase( "BadIndexType" );
}

TEST( PdMesh, OverflowingCountsAreRejected )
{
	RunCase( "HugeTriangleCount" );
	RunCase( "HugeVertexCount" );
}

TEST( PdMesh, OutOfRangeDefFieldsAreInvalidDef )
{
	RunCase( "BadTolerance" );
	RunCase( "BadClearanceResolution" );
}

TEST( PdMesh, NoVerticesOrTrianglesIsEmptyMesh )
{
	RunCase( "NoVertices" );
	RunCase( "NoTriangles" );
}

TEST( PdMesh, NonFiniteVertexIsInvalidVertex )
{
	RunCase( "NanVertex" );
	RunCase( "InfVertex" );
	RunCase( "FloatNanVertex" );
	RunCase( "HugeVertex" );
}

TEST( PdMesh, OutOfRangeIndexIsInvalidIndex )
{
	RunCase( "BadIndex" );
}

TEST( PdMesh, RejectDegenerateGivesDegenerateTriangle )
{
	RunCase( "RejectDegenerate" );
	RunCase( "RejectTinyTriangle" );
}

TEST( PdMesh, AllDegenerateIsDegenerateMesh )
{
	RunCase( "AllDegenerate" );
}

TEST( PdMesh, ValidateAndCreateAgreeOnEveryBadDef )
{
	for ( const BadCase& c : kBadCases )
	{
		ExpectRejected( c );
	}
}
