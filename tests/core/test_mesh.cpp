// SPDX-License-Identifier: MIT
// Mesh creation: validation (status, index and message per rule; validate and create agree),
// input formats, degenerate removal, adjacency (against hand-built generators with known
// topology), analytic geometry, memory accounting and allocation failure.
#include <gtest/gtest.h>

extern "C"
{
#include "core.h"
#include "mesh.h"
}

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

struct Soup
{
	std::vector<double> v;   // xyz per vertex
	std::vector<uint32_t> t; // 3 per triangle

	int VertexCount() const { return (int)( v.size() / 3 ); }
	int TriangleCount() const { return (int)( t.size() / 3 ); }
	pdVec3 P( uint32_t i ) const { return { v[3 * i], v[3 * i + 1], v[3 * i + 2] }; }
	uint32_t Add( double x, double y, double z )
	{
		v.push_back( x );
		v.push_back( y );
		v.push_back( z );
		return (uint32_t)( v.size() / 3 - 1 );
	}
	void Tri( uint32_t a, uint32_t b, uint32_t c )
	{
		t.push_back( a );
		t.push_back( b );
		t.push_back( c );
	}
};

pdVec3 Sub( pdVec3 a, pdVec3 b )
{
	return { a.x - b.x, a.y - b.y, a.z - b.z };
}
pdVec3 Cross( pdVec3 a, pdVec3 b )
{
	return { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
}
double Dot( pdVec3 a, pdVec3 b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

// Adds a triangle oriented so that its normal points along `outward`.
void TriFacing( Soup& s, uint32_t a, uint32_t b, uint32_t c, pdVec3 outward )
{
	pdVec3 n = Cross( Sub( s.P( b ), s.P( a ) ), Sub( s.P( c ), s.P( a ) ) );
	if ( Dot( n, outward ) < 0.0 )
	{
		s.Tri( a, c, b );
	}
	else
	{
		s.Tri( a, b, c );
	}
}

// Axis-aligned box, outward winding. welded = false gives every triangle its own 3 vertices.
Soup MakeBox( pdVec3 center, pdVec3 half, bool welded = true )
{
	Soup s;
	for ( int i = 0; i < 8; ++i )
	{
		s.Add( center.x + ( ( i & 1 ) ? half.x : -half.x ), center.y + ( ( i & 2 ) ? half.y : -half.y ),
			   center.z + ( ( i & 4 ) ? half.z : -half.z ) );
	}
	for ( int axis = 0; axis < 3; ++axis )
	{
		int u = 1 << ( ( axis + 1 ) % 3 ), w = 1 << ( ( axis + 2 ) % 3 ), a = 1 << axis;
		for ( int side = 0; side < 2; ++side )
		{
			uint32_t base = side ? (uint32_t)a : 0u;
			uint32_t q[4] = { base, base + u, base + u + w, base + w };
			pdVec3 out = { 0.0, 0.0, 0.0 };
			( axis == 0 ? out.x : axis == 1 ? out.y : out.z ) = side ? 1.0 : -1.0;
			TriFacing( s, q[0], q[1], q[2], out );
			TriFacing( s, q[0], q[2], q[3], out );
		}
	}
	if ( !welded )
	{
		Soup u;
		for ( size_t i = 0; i < s.t.size(); ++i )
		{
			pdVec3 p = s.P( s.t[i] );
			u.t.push_back( u.Add( p.x, p.y, p.z ) );
		}
		return u;
	}
	return s;
}

Soup MakeIcosahedron()
{
	Soup s;
	const double g = ( 1.0 + std::sqrt( 5.0 ) ) * 0.5;
	const double p[12][3] = { { -1, g, 0 },  { 1, g, 0 },  { -1, -g, 0 }, { 1, -g, 0 }, { 0, -1, g },  { 0, 1, g },
							  { 0, -1, -g }, { 0, 1, -g }, { g, 0, -1 },  { g, 0, 1 },  { -g, 0, -1 }, { -g, 0, 1 } };
	for ( auto& q : p )
	{
		s.Add( q[0], q[1], q[2] );
	}
	// Faces = triples of mutually adjacent vertices (edge length 2).
	for ( uint32_t a = 0; a < 12; ++a )
		for ( uint32_t b = a + 1; b < 12; ++b )
			for ( uint32_t c = b + 1; c < 12; ++c )
			{
				auto near = [&]( uint32_t i, uint32_t j )
				{ return std::fabs( Dot( Sub( s.P( i ), s.P( j ) ), Sub( s.P( i ), s.P( j ) ) ) - 4.0 ) < 1e-9; };
				if ( near( a, b ) && near( b, c ) && near( a, c ) )
				{
					pdVec3 pa = s.P( a ), pb = s.P( b ), pc = s.P( c );
					TriFacing( s, a, b, c, { pa.x + pb.x + pc.x, pa.y + pb.y + pc.y, pa.z + pb.z + pc.z } );
				}
			}
	return s;
}

Soup MakeTorus( double R, double r, int nu, int nv )
{
	Soup s;
	const double pi = 3.14159265358979323846;
	for ( int i = 0; i < nu; ++i )
		for ( int j = 0; j < nv; ++j )
		{
			double u = 2.0 * pi * i / nu, w = 2.0 * pi * j / nv;
			s.Add( ( R + r * std::cos( w ) ) * std::cos( u ), ( R + r * std::cos( w ) ) * std::sin( u ),
				   r * std::sin( w ) );
		}
	auto id = [&]( int i, int j ) { return (uint32_t)( ( i % nu ) * nv + ( j % nv ) ); };
	for ( int i = 0; i < nu; ++i )
		for ( int j = 0; j < nv; ++j )
		{
			uint32_t q[4] = { id( i, j ), id( i + 1, j ), id( i + 1, j + 1 ), id( i, j + 1 ) };
			for ( int k = 0; k < 2; ++k )
			{
				uint32_t a = q[0], b = q[1 + k], c = q[2 + k];
				pdVec3 pa = s.P( a ), pb = s.P( b ), pc = s.P( c );
				pdVec3 m = { ( pa.x + pb.x + pc.x ) / 3, ( pa.y + pb.y + pc.y ) / 3, ( pa.z + pb.z + pc.z ) / 3 };
				double len = std::sqrt( m.x * m.x + m.y * m.y );
				pdVec3 tube = { R * m.x / len, R * m.y / len, 0.0 };
				TriFacing( s, a, b, c, Sub( m, tube ) );
			}
		}
	return s;
}

pdMeshDef DefOf( const Soup& s )
{
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = s.v.data();
	def.vertexCount = s.VertexCount();
	def.indices = s.t.data();
	def.triangleCount = s.TriangleCount();
	def.buildOrientationGraph = false;
	def.computeClearancePoints = false;
	return def;
}

struct MeshPtr
{
	pdMesh* m;
	explicit MeshPtr( pdMesh* mesh ) : m( mesh ) {}
	~MeshPtr() { pdDestroyMesh( m ); }
	pdMesh* operator->() const { return m; }
	MeshPtr( const MeshPtr& ) = delete;
	MeshPtr& operator=( const MeshPtr& ) = delete;
};

int CountEdges( const pdMesh* m, int flag )
{
	int n = 0;
	for ( int e = 0; e < m->edgeCount; ++e )
	{
		n += ( m->edges[e].flags & flag ) ? 1 : 0;
	}
	return n;
}

int EulerCharacteristic( const pdMesh* m )
{
	return m->canonicalVertexCount - m->edgeCount + m->triangleCount;
}

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
	size_t bytesBefore = pdGetByteCount();
	pdMeshReport validated;
	memset( &validated, 0x5a, sizeof( validated ) );
	pdStatus status = pdValidateMeshDef( &c.def, &validated );
	EXPECT_EQ( pdGetByteCount(), bytesBefore ) << "validation must not allocate";
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
	EXPECT_EQ( pdGetByteCount(), bytesBefore );
	EXPECT_EQ( created.status, validated.status );
	EXPECT_EQ( created.firstBadVertex, validated.firstBadVertex );
	EXPECT_EQ( created.firstBadTriangle, validated.firstBadTriangle );
	EXPECT_EQ( created.degenerateTriangles, validated.degenerateTriangles );
	EXPECT_EQ( created.removedTriangles, validated.removedTriangles );
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

TEST( PdMesh, DefaultDefHasCookieAndDocumentedDefaults )
{
	pdMeshDef def = pdDefaultMeshDef();
	EXPECT_EQ( def.internalValue, PD_SECRET_COOKIE );
	EXPECT_EQ( def.vertexType, PD_SCALAR_FLOAT64 );
	EXPECT_EQ( def.indexType, PD_INDEX_UINT32 );
	EXPECT_EQ( def.degenerateAreaTolerance, 1e-14 );
	EXPECT_FALSE( def.rejectDegenerate );
	EXPECT_TRUE( def.buildOrientationGraph );
	EXPECT_TRUE( def.computeClearancePoints );
	EXPECT_EQ( def.clearanceGridResolution, 16 );
	EXPECT_EQ( def.vertices, nullptr );
	EXPECT_EQ( def.vertexCount, 0 );
}

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

TEST( PdMesh, GettersTolerateNullAndInvalidMeshes )
{
	pdMesh fake;
	memset( &fake, 0, sizeof( fake ) );
	const pdMesh* bad[2] = { nullptr, &fake };
	for ( const pdMesh* m : bad )
	{
		EXPECT_EQ( pdMesh_GetVertexCount( m ), 0 );
		EXPECT_EQ( pdMesh_GetTriangleCount( m ), 0 );
		int count = 7;
		EXPECT_EQ( pdMesh_GetRemovedTriangles( m, &count ), nullptr );
		EXPECT_EQ( count, 0 );
		EXPECT_EQ( pdMesh_GetInputTriangleIndex( m, 0 ), -1 );
		pdVec3 v = pdMesh_GetVertex( m, 0 );
		EXPECT_EQ( v.x, 0.0 );
		int tri[3] = { 5, 5, 5 };
		pdMesh_GetTriangle( m, 0, tri );
		EXPECT_EQ( tri[0], -1 );
		pdVec3 lo = { 1, 1, 1 }, hi = { 1, 1, 1 };
		pdMesh_GetBounds( m, &lo, &hi );
		EXPECT_EQ( lo.x, 0.0 );
		EXPECT_EQ( hi.z, 0.0 );
		EXPECT_FALSE( pdMesh_IsClosed( m ) );
		EXPECT_FALSE( pdMesh_IsConvex( m ) );
		EXPECT_EQ( pdMesh_GetMemoryBytes( m ), 0u );
		EXPECT_EQ( pdMesh_GetBvhBytes( m ), 0u );
	}
	pdDestroyMesh( nullptr );
	pdDestroyMesh( &fake );

	Soup box = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	pdMeshDef def = DefOf( box );
	MeshPtr mesh( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( mesh.m, nullptr );
	EXPECT_EQ( pdMesh_GetInputTriangleIndex( mesh.m, -1 ), -1 );
	EXPECT_EQ( pdMesh_GetInputTriangleIndex( mesh.m, 12 ), -1 );
	int tri[3];
	pdMesh_GetTriangle( mesh.m, 12, tri );
	EXPECT_EQ( tri[2], -1 );
	EXPECT_EQ( pdMesh_GetVertex( mesh.m, 8 ).x, 0.0 );
	pdMesh_GetTriangle( mesh.m, 0, nullptr );
	pdMesh_GetBounds( mesh.m, nullptr, nullptr );
}

TEST( PdMesh, InputFormatsGiveIdenticalMeshes )
{
	Soup box = MakeBox( { 0.5, -0.25, 2.0 }, { 1.0, 2.0, 0.5 } ); // exact in float
	pdMeshDef ref = DefOf( box );
	MeshPtr a( pdCreateMesh( &ref, nullptr ) );
	ASSERT_NE( a.m, nullptr );

	// Floats with padding, doubles with padding, uint16 with padding, uint32 with padding.
	std::vector<float> floats( 4 * box.VertexCount() );
	std::vector<double> paddedDoubles( 5 * box.VertexCount() );
	for ( int i = 0; i < box.VertexCount(); ++i )
		for ( int k = 0; k < 3; ++k )
		{
			floats[4 * i + k] = (float)box.v[3 * i + k];
			paddedDoubles[5 * i + k] = box.v[3 * i + k];
		}
	std::vector<uint16_t> shorts( 4 * box.TriangleCount() );
	std::vector<uint32_t> paddedInts( 5 * box.TriangleCount() );
	for ( int t = 0; t < box.TriangleCount(); ++t )
		for ( int k = 0; k < 3; ++k )
		{
			shorts[4 * t + k] = (uint16_t)box.t[3 * t + k];
			paddedInts[5 * t + k] = box.t[3 * t + k];
		}

	for ( int variant = 0; variant < 3; ++variant )
	{
		SCOPED_TRACE( variant );
		pdMeshDef def = ref;
		if ( variant == 0 )
		{
			def.vertices = floats.data();
			def.vertexType = PD_SCALAR_FLOAT32;
			def.vertexStride = 4 * sizeof( float );
			def.indices = shorts.data();
			def.indexType = PD_INDEX_UINT16;
			def.indexStride = 4 * sizeof( uint16_t );
		}
		else if ( variant == 1 )
		{
			def.vertices = paddedDoubles.data();
			def.vertexStride = 5 * sizeof( double );
			def.indices = paddedInts.data();
			def.indexStride = 5 * sizeof( uint32_t );
		}
		else
		{
			def.vertexStride = 3 * sizeof( double ); // explicit tight stride
			def.indexStride = 3 * sizeof( uint32_t );
		}
		MeshPtr b( pdCreateMesh( &def, nullptr ) );
		ASSERT_NE( b.m, nullptr );
		ASSERT_EQ( b->vertexCount, a->vertexCount );
		ASSERT_EQ( b->triangleCount, a->triangleCount );
		ASSERT_EQ( b->edgeCount, a->edgeCount );
		EXPECT_EQ( 0, memcmp( b->vertices, a->vertices, sizeof( pdVec3 ) * a->vertexCount ) );
		EXPECT_EQ( 0, memcmp( b->triangles, a->triangles, sizeof( int[3] ) * a->triangleCount ) );
		EXPECT_EQ( 0, memcmp( b->faceNormals, a->faceNormals, sizeof( pdVec3 ) * a->triangleCount ) );
		EXPECT_EQ( 0, memcmp( b->edges, a->edges, sizeof( pdMeshEdge ) * a->edgeCount ) );
		EXPECT_EQ( b->closed, a->closed );
		EXPECT_EQ( b->convex, a->convex );
		EXPECT_EQ( b->volume, a->volume );
		EXPECT_EQ( b->memoryBytes, a->memoryBytes );
	}
}

TEST( PdMesh, DataIsCopied )
{
	Soup box = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	pdMeshDef def = DefOf( box );
	MeshPtr mesh( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( mesh.m, nullptr );
	box.v.assign( box.v.size(), 99.0 );
	box.t.assign( box.t.size(), 0u );
	EXPECT_EQ( pdMesh_GetVertex( mesh.m, 7 ).x, 1.0 );
	int tri[3];
	pdMesh_GetTriangle( mesh.m, 11, tri );
	EXPECT_NE( tri[0], tri[1] );
}

TEST( PdMesh, DegenerateRemovalKeepsInputIndices )
{
	Soup box = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	Soup s;
	s.v = box.v;
	uint32_t mid = s.Add( 0.0, -1.0, -1.0 ); // midpoint of the edge 0-1
	int input = 0;
	std::vector<int> expectedKept;
	for ( int t = 0; t < box.TriangleCount(); ++t )
	{
		if ( t == 3 )
		{
			s.Tri( 2, 2, 5 ); // repeated index: input 3
			++input;
		}
		if ( t == 6 )
		{
			s.Tri( 0, 1, mid ); // zero area: input 7
			++input;
		}
		s.Tri( box.t[3 * t], box.t[3 * t + 1], box.t[3 * t + 2] );
		expectedKept.push_back( input++ );
	}
	pdMeshDef def = DefOf( s );
	pdMeshReport validated, created;
	EXPECT_EQ( pdValidateMeshDef( &def, &validated ), PD_STATUS_OK );
	MeshPtr mesh( pdCreateMesh( &def, &created ) );
	ASSERT_NE( mesh.m, nullptr );
	for ( const pdMeshReport* r : { &validated, &created } )
	{
		EXPECT_EQ( r->status, PD_STATUS_OK );
		EXPECT_EQ( r->degenerateTriangles, 2 );
		EXPECT_EQ( r->removedTriangles, 2 );
		EXPECT_EQ( r->firstBadTriangle, 3 );
		EXPECT_EQ( r->firstBadVertex, -1 );
		EXPECT_STREQ( r->message, "" );
	}
	int count = 0;
	const int* removed = pdMesh_GetRemovedTriangles( mesh.m, &count );
	ASSERT_EQ( count, 2 );
	EXPECT_EQ( removed[0], 3 );
	EXPECT_EQ( removed[1], 7 );
	ASSERT_EQ( pdMesh_GetTriangleCount( mesh.m ), 12 );
	for ( int t = 0; t < 12; ++t )
	{
		EXPECT_EQ( pdMesh_GetInputTriangleIndex( mesh.m, t ), expectedKept[t] );
		int tri[3];
		pdMesh_GetTriangle( mesh.m, t, tri );
		EXPECT_EQ( (uint32_t)tri[0], box.t[3 * t] );
	}
	EXPECT_TRUE( pdMesh_IsClosed( mesh.m ) );
	EXPECT_TRUE( pdMesh_IsConvex( mesh.m ) );
}

TEST( PdMesh, BoxIsClosedConvexWithEulerTwo )
{
	Soup box = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	pdMeshDef def = DefOf( box );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_TRUE( m->closed );
	EXPECT_TRUE( m->outwardWinding );
	EXPECT_TRUE( m->convex );
	EXPECT_EQ( m->edgeCount, 18 );
	EXPECT_EQ( EulerCharacteristic( m.m ), 2 );
	EXPECT_EQ( CountEdges( m.m, PD_EDGE_CONVEX ), 12 );
	EXPECT_EQ( CountEdges( m.m, PD_EDGE_FLAT ), 6 );
	// Edge invariants: v0 < v1, face0 traverses v0 -> v1, triangleEdges point back.
	for ( int e = 0; e < m->edgeCount; ++e )
	{
		const pdMeshEdge& edge = m->edges[e];
		EXPECT_LT( edge.v0, edge.v1 );
		bool forward = false;
		for ( int k = 0; k < 3; ++k )
		{
			forward |= m->triangles[edge.face0][k] == edge.v0 && m->triangles[edge.face0][( k + 1 ) % 3] == edge.v1;
		}
		EXPECT_TRUE( forward ) << "edge " << e;
	}
	for ( int t = 0; t < m->triangleCount; ++t )
		for ( int k = 0; k < 3; ++k )
		{
			const pdMeshEdge& edge = m->edges[m->triangleEdges[t][k]];
			int a = m->triangles[t][k], b = m->triangles[t][( k + 1 ) % 3];
			EXPECT_EQ( std::min( a, b ), edge.v0 );
			EXPECT_EQ( std::max( a, b ), edge.v1 );
			EXPECT_TRUE( edge.face0 == t || edge.face1 == t );
		}
	// Vertex -> faces CSR against brute force.
	for ( int v = 0; v < m->vertexCount; ++v )
	{
		std::set<int> expected, got;
		for ( int t = 0; t < m->triangleCount; ++t )
			for ( int k = 0; k < 3; ++k )
				if ( m->triangles[t][k] == v )
					expected.insert( t );
		for ( int i = m->vertexFaceStart[v]; i < m->vertexFaceStart[v + 1]; ++i )
			got.insert( m->vertexFaces[i] );
		EXPECT_EQ( got, expected ) << "vertex " << v;
	}
	EXPECT_EQ( m->vertexFaceStart[m->vertexCount], 3 * m->triangleCount );
}

TEST( PdMesh, IcosahedronIsClosedConvex )
{
	Soup s = MakeIcosahedron();
	ASSERT_EQ( s.TriangleCount(), 20 );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_TRUE( pdMesh_IsClosed( m.m ) );
	EXPECT_TRUE( pdMesh_IsConvex( m.m ) );
	EXPECT_EQ( m->edgeCount, 30 );
	EXPECT_EQ( CountEdges( m.m, PD_EDGE_CONVEX ), 30 );
	EXPECT_EQ( EulerCharacteristic( m.m ), 2 );
	// Regular icosahedron of edge a = 2: V = 5/12 (3 + sqrt 5) a^3.
	EXPECT_NEAR( m->volume, 5.0 / 12.0 * ( 3.0 + std::sqrt( 5.0 ) ) * 8.0, 1e-12 );
	EXPECT_NEAR( m->centroid.x, 0.0, 1e-14 );
}

TEST( PdMesh, TorusIsClosedNotConvexWithEulerZero )
{
	Soup s = MakeTorus( 2.0, 0.5, 16, 8 );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_TRUE( pdMesh_IsClosed( m.m ) );
	EXPECT_TRUE( m->outwardWinding );
	EXPECT_FALSE( pdMesh_IsConvex( m.m ) );
	EXPECT_GT( CountEdges( m.m, PD_EDGE_CONCAVE ), 0 );
	EXPECT_GT( CountEdges( m.m, PD_EDGE_CONVEX ), 0 );
	EXPECT_EQ( m->edgeCount, 3 * 16 * 8 );
	EXPECT_EQ( EulerCharacteristic( m.m ), 0 );
	// Inscribed polyhedral torus: a bit below 2 pi^2 R r^2.
	double analytic = 2.0 * M_PI * M_PI * 2.0 * 0.25;
	EXPECT_LT( m->volume, analytic );
	EXPECT_GT( m->volume, 0.8 * analytic );
}

TEST( PdMesh, SingleTriangleIsOpenWithThreeBoundaryEdges )
{
	Soup s;
	s.Add( 1, 0, 0 );
	s.Add( 4, 0, 0 );
	s.Add( 1, 3, 0 );
	s.Tri( 0, 1, 2 );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_FALSE( pdMesh_IsClosed( m.m ) );
	EXPECT_FALSE( pdMesh_IsConvex( m.m ) );
	EXPECT_FALSE( m->outwardWinding );
	EXPECT_EQ( m->edgeCount, 3 );
	EXPECT_EQ( CountEdges( m.m, PD_EDGE_BOUNDARY ), 3 );
	for ( int e = 0; e < 3; ++e )
	{
		EXPECT_EQ( m->edges[e].face0, 0 );
		EXPECT_EQ( m->edges[e].face1, -1 );
	}
	EXPECT_EQ( m->volume, 0.0 );
	EXPECT_DOUBLE_EQ( m->faceAreas[0], 4.5 );
	EXPECT_DOUBLE_EQ( m->faceNormals[0].z, 1.0 );
	// Open mesh: area-weighted centroid = the triangle's centroid.
	EXPECT_DOUBLE_EQ( m->centroid.x, 2.0 );
	EXPECT_DOUBLE_EQ( m->centroid.y, 1.0 );
	EXPECT_DOUBLE_EQ( m->radius, std::sqrt( 5.0 ) );
}

TEST( PdMesh, FlippedTriangleIsInconsistentAndOpen )
{
	Soup s = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	std::swap( s.t[3 * 5 + 1], s.t[3 * 5 + 2] );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_FALSE( pdMesh_IsClosed( m.m ) );
	EXPECT_FALSE( pdMesh_IsConvex( m.m ) );
	EXPECT_EQ( CountEdges( m.m, PD_EDGE_INCONSISTENT ), 3 );
	EXPECT_EQ( CountEdges( m.m, PD_EDGE_BOUNDARY ), 0 );
	for ( int k = 0; k < 3; ++k )
	{
		EXPECT_TRUE( m->edges[m->triangleEdges[5][k]].flags & PD_EDGE_INCONSISTENT );
	}
}

TEST( PdMesh, NonManifoldEdgeIsFlagged )
{
	Soup s;
	s.Add( 0, 0, 0 );
	s.Add( 1, 0, 0 );
	s.Add( 0, 1, 0 );
	s.Add( 0, -1, 0 );
	s.Add( 0, 0, 1 );
	s.Tri( 0, 1, 2 );
	s.Tri( 1, 0, 3 );
	s.Tri( 0, 1, 4 );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_EQ( CountEdges( m.m, PD_EDGE_NONMANIFOLD ), 1 );
	EXPECT_EQ( CountEdges( m.m, PD_EDGE_BOUNDARY ), 6 );
	EXPECT_FALSE( m->closed );
}

TEST( PdMesh, UnweldedBoxIsStillClosed )
{
	Soup s = MakeBox( { 0, 0, 0 }, { 1, 1, 1 }, false );
	ASSERT_EQ( s.VertexCount(), 36 );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_EQ( pdMesh_GetVertexCount( m.m ), 36 ); // caller's numbering kept
	EXPECT_EQ( m->canonicalVertexCount, 8 );
	EXPECT_TRUE( pdMesh_IsClosed( m.m ) );
	EXPECT_TRUE( pdMesh_IsConvex( m.m ) );
	EXPECT_EQ( m->edgeCount, 18 );
	EXPECT_EQ( EulerCharacteristic( m.m ), 2 );
	EXPECT_DOUBLE_EQ( m->volume, 8.0 );
	for ( int t = 0; t < m->triangleCount; ++t )
		for ( int k = 0; k < 3; ++k )
			EXPECT_EQ( m->triangles[t][k], 3 * t + k );
	// Each canonical corner lists its 4-6 faces; non-canonical slots are empty.
	for ( int v = 0; v < 36; ++v )
	{
		int c = m->canonicalVertex[v];
		int n = m->vertexFaceStart[c + 1] - m->vertexFaceStart[c];
		EXPECT_GE( n, 3 );
		EXPECT_LE( n, 6 );
		pdVec3 a = m->vertices[v], b = m->vertices[c];
		EXPECT_TRUE( a.x == b.x && a.y == b.y && a.z == b.z );
	}
}

TEST( PdMesh, InwardBoxIsClosedWithConvexityFromOutside )
{
	Soup s = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	for ( size_t i = 0; i < s.t.size(); i += 3 )
	{
		std::swap( s.t[i + 1], s.t[i + 2] );
	}
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_TRUE( m->closed );
	EXPECT_FALSE( m->outwardWinding );
	EXPECT_TRUE( m->convex );
	EXPECT_EQ( CountEdges( m.m, PD_EDGE_CONVEX ), 12 );
	EXPECT_DOUBLE_EQ( m->volume, 8.0 );
}

TEST( PdMesh, BoxGeometryIsAnalytic )
{
	pdVec3 c = { 5.0, -1.0, 2.0 }, h = { 1.0, 2.0, 3.0 };
	Soup s = MakeBox( c, h );
	pdMeshDef def = DefOf( s );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	EXPECT_NEAR( m->volume, 48.0, 1e-12 );
	EXPECT_NEAR( m->centroid.x, 5.0, 1e-13 );
	EXPECT_NEAR( m->centroid.y, -1.0, 1e-13 );
	EXPECT_NEAR( m->centroid.z, 2.0, 1e-13 );
	EXPECT_NEAR( m->radius, std::sqrt( 14.0 ), 1e-13 );
	EXPECT_NEAR( m->diagonal, 2.0 * std::sqrt( 14.0 ), 1e-13 );
	pdVec3 lo, hi;
	pdMesh_GetBounds( m.m, &lo, &hi );
	EXPECT_EQ( lo.x, 4.0 );
	EXPECT_EQ( lo.y, -3.0 );
	EXPECT_EQ( lo.z, -1.0 );
	EXPECT_EQ( hi.x, 6.0 );
	EXPECT_EQ( hi.y, 1.0 );
	EXPECT_EQ( hi.z, 5.0 );
	double area = 0.0;
	for ( int t = 0; t < m->triangleCount; ++t )
	{
		area += m->faceAreas[t];
		pdVec3 n = m->faceNormals[t];
		EXPECT_NEAR( Dot( n, n ), 1.0, 1e-15 );
		// Outward: the normal points away from the centre.
		pdVec3 p = m->vertices[m->triangles[t][0]];
		EXPECT_GT( Dot( n, Sub( p, c ) ), 0.0 );
	}
	EXPECT_NEAR( area, 2.0 * ( 2 * 4 + 2 * 6 + 4 * 6 ), 1e-12 );
}

TEST( PdMesh, OffCentreVolumeCentroidDiffersFromSurfaceCentroid )
{
	// Box with one face subdivided finely: the area-weighted centroid moves, the volume one
	// does not. Here a box with a big cap pyramid: centroid of union checked analytically.
	Soup s = MakeBox( { 0, 0, 0 }, { 1, 1, 1 } );
	// Replace the +z face (two triangles) by a pyramid with apex (0,0,2).
	Soup p;
	p.v = s.v;
	uint32_t apex = p.Add( 0.0, 0.0, 2.0 );
	for ( int t = 0; t < s.TriangleCount(); ++t )
	{
		pdVec3 a = s.P( s.t[3 * t] ), b = s.P( s.t[3 * t + 1] ), cc = s.P( s.t[3 * t + 2] );
		if ( a.z == 1.0 && b.z == 1.0 && cc.z == 1.0 )
			continue;
		p.Tri( s.t[3 * t], s.t[3 * t + 1], s.t[3 * t + 2] );
	}
	uint32_t top[4] = { 4, 5, 7, 6 };
	for ( int k = 0; k < 4; ++k )
	{
		pdVec3 a = p.P( top[k] ), b = p.P( top[( k + 1 ) % 4] );
		TriFacing( p, top[k], top[( k + 1 ) % 4], apex, { a.x + b.x, a.y + b.y, 1.0 } );
	}
	pdMeshDef def = DefOf( p );
	MeshPtr m( pdCreateMesh( &def, nullptr ) );
	ASSERT_NE( m.m, nullptr );
	ASSERT_TRUE( m->closed );
	EXPECT_TRUE( m->convex );
	// Cube volume 8 centroid z 0; pyramid base 4 height 1 volume 4/3 centroid z = 1 + 1/4.
	double volume = 8.0 + 4.0 / 3.0;
	EXPECT_NEAR( m->volume, volume, 1e-12 );
	EXPECT_NEAR( m->centroid.z, ( 4.0 / 3.0 * 1.25 ) / volume, 1e-13 );
	EXPECT_NEAR( m->centroid.x, 0.0, 1e-14 );
}

TEST( PdMesh, DestroyReturnsEveryByte )
{
	size_t before = pdGetByteCount();
	Soup s = MakeTorus( 2.0, 0.5, 12, 6 );
	pdMeshDef def = DefOf( s );
	pdMesh* mesh = pdCreateMesh( &def, nullptr );
	ASSERT_NE( mesh, nullptr );
	EXPECT_EQ( pdGetByteCount() - before, pdMesh_GetMemoryBytes( mesh ) );
	EXPECT_GE( pdMesh_GetMemoryBytes( mesh ), sizeof( pdMesh ) + pdMesh_GetBvhBytes( mesh ) );
	EXPECT_EQ( pdMesh_GetBvhBytes( mesh ), mesh->bvh.bytes );
	pdDestroyMesh( mesh );
	EXPECT_EQ( pdGetByteCount(), before );

	// The full pipeline (orientation graph, clearance points) also frees everything.
	pdMeshDef full = def;
	full.buildOrientationGraph = true;
	full.computeClearancePoints = true;
	mesh = pdCreateMesh( &full, nullptr );
	ASSERT_NE( mesh, nullptr );
	EXPECT_GT( pdMesh_GetMemoryBytes( mesh ), 0u );
	pdDestroyMesh( mesh );
	EXPECT_EQ( pdGetByteCount(), before );
}

namespace
{

struct FailingAllocator
{
	int remaining; // allocations allowed before every further one fails
	int calls;
};

void* FailingAlloc( size_t size, size_t alignment, void* context )
{
	FailingAllocator* a = (FailingAllocator*)context;
	a->calls += 1;
	if ( a->remaining <= 0 )
	{
		return nullptr;
	}
	a->remaining -= 1;
	size_t rounded = ( size + alignment - 1 ) & ~( alignment - 1 );
	return aligned_alloc( alignment, rounded );
}

void FailingFree( void* memory, size_t, void* )
{
	free( memory );
}

} // namespace

TEST( PdMesh, AllocationFailureFailsCleanly )
{
	Soup s = MakeTorus( 2.0, 0.5, 8, 5 );
	// A removed triangle too, so every array is allocated.
	s.Tri( 0, 0, 1 );
	bool succeeded = false;
	for ( int allowed = 0; allowed < 200 && !succeeded; ++allowed )
	{
		SCOPED_TRACE( allowed );
		for ( int full = 0; full < 2; ++full )
		{
			pdMeshDef def = DefOf( s );
			def.buildOrientationGraph = full != 0;
			def.computeClearancePoints = full != 0;
			size_t before = pdGetByteCount();
			FailingAllocator state = { allowed, 0 };
			pdSetAllocator( FailingAlloc, FailingFree, &state );
			pdMeshReport report;
			pdMesh* mesh = pdCreateMesh( &def, &report );
			if ( mesh == nullptr )
			{
				EXPECT_EQ( report.status, PD_STATUS_OUT_OF_MEMORY );
				EXPECT_NE( std::string( report.message ).find( "out of memory" ), std::string::npos );
				EXPECT_EQ( pdMesh_GetTriangleCount( mesh ), 0 );
			}
			else
			{
				EXPECT_EQ( report.status, PD_STATUS_OK );
				EXPECT_EQ( pdMesh_GetTriangleCount( mesh ), s.TriangleCount() - 1 );
				EXPECT_TRUE( pdMesh_IsClosed( mesh ) );
				succeeded = succeeded || full == 1;
			}
			pdDestroyMesh( mesh );
			pdSetAllocator( nullptr, nullptr, nullptr );
			EXPECT_EQ( pdGetByteCount(), before );
		}
	}
	EXPECT_TRUE( succeeded );
}
