// SPDX-License-Identifier: MIT
// The in-projection inputs (in_projection.c) at analytic contact configurations of a unit cube A
// in a corner of B (a floor slab and two wall slabs, one closed non-convex soup): the planes
// pdiQuery_BuildPlanes builds (normals and offsets, one plane per distinct normal), the
// in-projection of o onto them by the library's LCP against the analytic projection for one,
// two and three planes, the planes kept from an earlier configuration, and the escape
// direction pdiQuery_Escape. A contact configuration stands a gap of 0.3 tolerances off
// touching; a plane's offset is the touching depth along its normal plus half a tolerance,
// whatever the gap.
#include "penetration_test.h"

namespace
{

// B: the floor z in [-1, 0] (x, y in [-2, 2]), the wall x in [1, 2] and the wall y in [1, 2]
// (x in [-2, 0.99]), both over z in [0.01, 2]: the three slabs are 0.01 apart, so edges of A
// along their seams stay out of reach.
const pdVec3 kFloorCenter = { 0.0, 0.0, -0.5 }, kFloorHalf = { 2.0, 2.0, 0.5 };
const pdVec3 kWallXCenter = { 1.5, 0.0, 1.005 }, kWallXHalf = { 0.5, 2.0, 0.995 };
const pdVec3 kWallYCenter = { -0.505, 1.5, 1.005 }, kWallYHalf = { 1.495, 0.5, 0.995 };

const pdVec3 kUp = { 0.0, 0.0, 1.0 };     // the floor's plane normal (from B toward A)
const pdVec3 kAwayX = { -1.0, 0.0, 0.0 }; // the wall x's
const pdVec3 kAwayY = { 0.0, -1.0, 0.0 }; // the wall y's

// Appends a box (centre, half extents) to soup.
bool AppendBox( smpSoup* soup, pdVec3 center, pdVec3 half )
{
	smpSoup box = {};
	if ( !smpMakeBox( half, 1, &box ) )
	{
		return false;
	}
	const double identity[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	smpTransformSoup( &box, identity, center );
	int v0 = soup->vertexCount;
	int t0 = soup->triangleCount;
	double* vertices = (double*)realloc( soup->vertices, (size_t)( v0 + box.vertexCount ) * 3 * sizeof( double ) );
	if ( vertices != nullptr )
	{
		soup->vertices = vertices;
	}
	uint32_t* indices =
		(uint32_t*)realloc( soup->indices, (size_t)( t0 + box.triangleCount ) * 3 * sizeof( uint32_t ) );
	if ( indices != nullptr )
	{
		soup->indices = indices;
	}
	if ( vertices == nullptr || indices == nullptr )
	{
		smpFreeSoup( &box );
		return false;
	}
	std::memcpy( soup->vertices + 3 * v0, box.vertices, (size_t)box.vertexCount * 3 * sizeof( double ) );
	for ( int i = 0; i < 3 * box.triangleCount; ++i )
	{
		soup->indices[3 * t0 + i] = box.indices[i] + (uint32_t)v0;
	}
	soup->vertexCount += box.vertexCount;
	soup->triangleCount += box.triangleCount;
	smpFreeSoup( &box );
	return true;
}

struct Plane
{
	pdVec3 normal;
	double offset;
};

// The rotation turning the cube's body diagonal (1, 1, 1) to point down: a vertex lowest.
pdQuat VertexDown()
{
	double angle = std::acos( -1.0 / std::sqrt( 3.0 ) );
	double s = std::sin( 0.5 * angle ) / std::sqrt( 2.0 ); // axis (-1, 1, 0) / sqrt 2
	return { std::cos( 0.5 * angle ), -s, s, 0.0 };
}

// 45 degrees about x: an edge along x lowest.
pdQuat EdgeDown()
{
	return { std::cos( M_PI / 8.0 ), std::sin( M_PI / 8.0 ), 0.0, 0.0 };
}

// The workspace comes from PdPenetration.
class PdInProjection : public PdPenetration
{
protected:
	void SetUp() override
	{
		PdPenetration::SetUp();
		ASSERT_TRUE( smpMakeBox( { 0.5, 0.5, 0.5 }, 1, &a.soup ) && a.Make() );
		ASSERT_TRUE( AppendBox( &b.soup, kFloorCenter, kFloorHalf ) );
		ASSERT_TRUE( AppendBox( &b.soup, kWallXCenter, kWallXHalf ) );
		ASSERT_TRUE( AppendBox( &b.soup, kWallYCenter, kWallYHalf ) );
		ASSERT_TRUE( b.Make() );
		ASSERT_TRUE( pdMesh_GetInfo( a.mesh ).closed && pdMesh_GetInfo( b.mesh ).closed );
		tol = Tolerance( a.mesh, b.mesh );
		gap = 0.3 * tol;
	}
	// The query with A's centre at `center` (o) and rotation r.
	void Begin( pdVec3 center, pdQuat r = { 1, 0, 0, 0 } )
	{
		rotation = r;
		o = center;
		ASSERT_TRUE( state.Begin( a.mesh, Pose( o, rotation ), b.mesh, Pose( { 0, 0, 0 } ), ws ) );
		ASSERT_DOUBLE_EQ( state.q.tol, tol );
	}

	// A's centre at `center`, distance (the gap unless given) from B: the features gathered
	// there made current. Returns the configuration relative to o.
	pdVec3 ContactAt( pdVec3 center, double distance = -1.0 )
	{
		pdVec3 xc = Sub( center, o );
		pdTransform pose = Pose( center, rotation );
		pdTransform poseB = Pose( { 0, 0, 0 } );
		pdDistanceDef def = pdDefaultDistanceDef();
		pdDistanceResult r;
		EXPECT_GE( pdComputeDistance( a.mesh, &pose, b.mesh, &poseB, &def, ws, &r ), 0 );
		EXPECT_NEAR( r.distance, distance < 0.0 ? gap : distance, 1e-12 ) << "not the contact meant";
		EXPECT_TRUE( state.StartAt( xc ) );
		return xc;
	}

	// The planes built at xc equal `expected` (in any order), to rounding (eps).
	void ExpectPlanes( int count, const std::vector<Plane>& expected, double eps = 1e-12 )
	{
		ASSERT_EQ( count, (int)expected.size() );

		for ( const Plane& e : expected )
		{
			int found = 0;
			for ( int i = 0; i < count; ++i )
			{
				const pdiContactPlane& p = state.q.planes[i];
				if ( Length( Sub( p.normal, e.normal ) ) < eps )
				{
					found += 1;
					EXPECT_NEAR( p.offset, e.offset, eps )
						<< "normal " << e.normal.x << " " << e.normal.y << " " << e.normal.z;
				}
			}
			EXPECT_EQ( found, 1 ) << "planes with normal " << e.normal.x << " " << e.normal.y << " " << e.normal.z;
		}
	}

	// The in-projection of o onto the count planes (the library's LCP): satisfies every plane.
	pdVec3 InProject( int count )
	{
		pdiLcpResult r = pdiSolveInProjection( state.q.planes, count, state.def.maxLcpIterations, nullptr );
		EXPECT_TRUE( r.converged );
		EXPECT_FALSE( r.infeasible );
		for ( int i = 0; i < count; ++i )
		{
			const pdiContactPlane& p = state.q.planes[i];
			EXPECT_GE( Dot( p.normal, r.x ), p.offset - 1e-12 ) << "plane " << i;
		}
		return r.x;
	}

	// The escape direction: unit, out of every plane, and the expected one (to eps).
	void ExpectEscape( int count, pdVec3 xc, pdVec3 expected, double eps = 1e-12 )
	{
		pdVec3 e = pdiQuery_Escape( &state.q, count, xc );
		EXPECT_NEAR( Length( e ), 1.0, 1e-12 );
		for ( int i = 0; i < count; ++i )
		{
			EXPECT_GT( Dot( state.q.planes[i].normal, e ), 0.0 ) << "plane " << i;
		}
		ExpectNear( e, expected, eps );
	}

	static void ExpectNear( pdVec3 v, pdVec3 expected, double eps )
	{
		EXPECT_NEAR( v.x, expected.x, eps );
		EXPECT_NEAR( v.y, expected.y, eps );
		EXPECT_NEAR( v.z, expected.z, eps );
	}

	Mesh a, b;
	double tol = 0.0;
	double gap = 0.0;
	pdVec3 o = { 0, 0, 0 };
	pdQuat rotation = { 1, 0, 0, 0 };
	QueryState state;
};

} // namespace

// A face of A on the floor: every feature (vertices of A over the floor, coplanar edge
// crossings) has the floor's normal, and they make one plane z >= 0.3 + tol/2; o projects to
// its foot.
TEST_F( PdInProjection, FaceOnFaceGivesOnePlane )
{
	Begin( { -0.8, -0.6, 0.2 } );
	pdVec3 xc = ContactAt( { -0.7, -0.5, 0.5 + gap } );
	EXPECT_GE( state.q.featureCount[state.q.current], 4 ); // four vertices of A at least
	int count = pdiQuery_BuildPlanes( &state.q, xc );
	ExpectPlanes( count, { { kUp, 0.3 + 0.5 * tol } } );
	EXPECT_EQ( state.q.currentPlanes, 1 );
	ExpectNear( InProject( count ), { 0.0, 0.0, 0.3 + 0.5 * tol }, 1e-12 );
	ExpectEscape( count, xc, kUp );
}

// A on an edge (45 degrees about x) on the floor: the edge's ends and its crossing of the
// floor's diagonal give one plane at the depth of the edge, sqrt(2)/2 - 0.5.
TEST_F( PdInProjection, EdgeOnFaceGivesOnePlane )
{
	Begin( { -0.8, -0.6, 0.5 }, EdgeDown() );
	double depth = std::sqrt( 0.5 ) - 0.5;
	pdVec3 xc = ContactAt( { -0.8, -0.55, std::sqrt( 0.5 ) + gap } );
	int count = pdiQuery_BuildPlanes( &state.q, xc );
	ExpectPlanes( count, { { kUp, depth + 0.5 * tol } } );
	ExpectNear( InProject( count ), { 0.0, 0.0, depth + 0.5 * tol }, 1e-12 );
	ExpectEscape( count, xc, kUp );
}

// A on a vertex (body diagonal vertical) on the floor: the one vertex-face pair gives the
// plane at the depth of the vertex, sqrt(3)/2 - 0.6.
TEST_F( PdInProjection, VertexOnFaceGivesOnePlane )
{
	Begin( { -1.1, -0.4, 0.6 }, VertexDown() );
	double depth = 0.5 * std::sqrt( 3.0 ) - 0.6;
	pdVec3 xc = ContactAt( { -1.0, -0.5, 0.5 * std::sqrt( 3.0 ) + gap } );
	EXPECT_EQ( state.q.featureCount[state.q.current], 1 );
	int count = pdiQuery_BuildPlanes( &state.q, xc );
	ExpectPlanes( count, { { kUp, depth + 0.5 * tol } } );
	ExpectNear( InProject( count ), { 0.0, 0.0, depth + 0.5 * tol }, 1e-12 );
	ExpectEscape( count, xc, kUp );
}

// A on the floor against the wall x, o sunk 0.2 into the floor and 0.1 into the wall: two
// planes, both active at the projection.
TEST_F( PdInProjection, FloorAndWallGiveTwoPlanes )
{
	Begin( { 0.6, -0.5, 0.3 } );
	pdVec3 xc = ContactAt( { 0.5 - gap, -0.45, 0.5 + gap } );
	int count = pdiQuery_BuildPlanes( &state.q, xc );
	ExpectPlanes( count, { { kUp, 0.2 + 0.5 * tol }, { kAwayX, 0.1 + 0.5 * tol } } );
	EXPECT_GE( state.q.planes[0].offset, state.q.planes[1].offset ); // largest offset first
	ExpectNear( InProject( count ), { -0.1 - 0.5 * tol, 0.0, 0.2 + 0.5 * tol }, 1e-12 );
	ExpectEscape( count, xc, pdiScale( pdiAdd( kUp, kAwayX ), std::sqrt( 0.5 ) ) );
}

// The same contact with o clear of the wall (A 0.2 short of it): the wall's plane has a
// negative offset, o satisfies it, and the projection is the floor plane's foot alone.
TEST_F( PdInProjection, PlaneThatOSatisfiesStaysInactive )
{
	Begin( { 0.3, -0.5, 0.3 } );
	pdVec3 xc = ContactAt( { 0.5 - gap, -0.45, 0.5 + gap } );
	int count = pdiQuery_BuildPlanes( &state.q, xc );
	ExpectPlanes( count, { { kUp, 0.2 + 0.5 * tol }, { kAwayX, -0.2 + 0.5 * tol } } );
	ExpectNear( InProject( count ), { 0.0, 0.0, 0.2 + 0.5 * tol }, 1e-12 );
}

// A in the corner of the floor and both walls, o sunk 0.3, 0.1 and 0.2 into them: three
// planes, the projection their common corner.
TEST_F( PdInProjection, CornerGivesThreePlanes )
{
	Begin( { 0.6, 0.7, 0.2 } );
	pdVec3 xc = ContactAt( { 0.5 - gap, 0.5 - gap, 0.5 + gap } );
	int count = pdiQuery_BuildPlanes( &state.q, xc );
	ExpectPlanes( count, { { kUp, 0.3 + 0.5 * tol }, { kAwayX, 0.1 + 0.5 * tol }, { kAwayY, 0.2 + 0.5 * tol } } );
	ExpectNear( InProject( count ), { -0.1 - 0.5 * tol, -0.2 - 0.5 * tol, 0.3 + 0.5 * tol }, 1e-12 );
	ExpectEscape( count, xc, pdiScale( pdiAdd( pdiAdd( kUp, kAwayX ), kAwayY ), 1.0 / std::sqrt( 3.0 ) ) );
}

// Orientation pruning keeps every pair of the corner (all are applicable): the same planes.
TEST_F( PdInProjection, OrientationPruningKeepsTheCornersPlanes )
{
	state.def.useOrientationPruning = true;
	Begin( { 0.6, 0.7, 0.2 } );
	pdVec3 xc = ContactAt( { 0.5 - gap, 0.5 - gap, 0.5 + gap } );
	int count = pdiQuery_BuildPlanes( &state.q, xc );
	ExpectPlanes( count, { { kUp, 0.3 + 0.5 * tol }, { kAwayX, 0.1 + 0.5 * tol }, { kAwayY, 0.2 + 0.5 * tol } } );
}

// A's bottom edge beside the floor's top edge x = -2 (parallel edges, no feature pair within
// reach): the closest pair gives the one plane, normal (p_A - p_B) / |p_A - p_B| =
// (-1, 0, 1) / sqrt 2, at the depth of o along it, 0.5 / sqrt 2. The normal comes from a
// difference of 1e-4 between coordinates of size 2: good to about 1e-12 only.
TEST_F( PdInProjection, NoFeaturesGiveTheClosestPairsPlane )
{
	Begin( { -2.2, 0.0, 0.3 } );
	pdVec3 xc = ContactAt( { -2.5 - gap, 0.0, 0.5 + gap }, gap * std::sqrt( 2.0 ) );
	EXPECT_EQ( state.q.featureCount[state.q.current], 0 );
	int count = pdiQuery_BuildPlanes( &state.q, xc );
	pdVec3 n = pdiScale( pdiAdd( kUp, kAwayX ), std::sqrt( 0.5 ) );
	double offset = 0.5 * std::sqrt( 0.5 ) + 0.5 * tol;
	ExpectPlanes( count, { { n, offset } }, 1e-10 );
	ExpectNear( InProject( count ), pdiScale( n, offset ), 1e-10 );
	ExpectEscape( count, xc, n, 1e-10 );
}

// From the floor-and-wall contact A slides 0.005 off the wall: the wall's plane, still nearly
// active, stays (from memory, no source) beside the floor's; 0.05 off it is dropped.
TEST_F( PdInProjection, NearlyActivePlanesOfTheStartStay )
{
	Begin( { 0.6, -0.5, 0.3 } );
	pdVec3 first = { 0.5 - gap, -0.45, 0.5 + gap };
	pdVec3 xc = ContactAt( first );
	ASSERT_EQ( pdiQuery_BuildPlanes( &state.q, xc ), 2 );
	ASSERT_EQ( state.q.memoryCount, 2 );

	xc = ContactAt( Add( first, { -0.005, 0.0, 0.0 } ) );
	int count = pdiQuery_BuildPlanes( &state.q, xc );
	EXPECT_EQ( state.q.currentPlanes, 1 );
	ExpectPlanes( count, { { kUp, 0.2 + 0.5 * tol }, { kAwayX, 0.1 + 0.5 * tol } } );
	ASSERT_EQ( count, 2 );
	EXPECT_EQ( state.q.planes[1].source, -1 );
	EXPECT_EQ( state.q.memoryCount, 2 );

	xc = ContactAt( Add( first, { -0.05, 0.0, 0.0 } ) );
	count = pdiQuery_BuildPlanes( &state.q, xc );
	ExpectPlanes( count, { { kUp, 0.2 + 0.5 * tol } } );
	EXPECT_EQ( state.q.memoryCount, 1 );
}

// A remembered plane with the normal of a current one merges into it, the larger offset
// winning; one violated by more than the tolerance belongs elsewhere and is dropped.
TEST_F( PdInProjection, RememberedPlaneWithTheSameNormalKeepsTheLargerOffset )
{
	Begin( { -0.8, -0.6, 0.2 } );
	pdVec3 contact = { -0.7, -0.5, 0.5 + gap };
	struct Case
	{
		double remembered; // offset of the remembered floor plane, above the depth 0.3
		double expected;   // the floor plane's offset after the merge
	};
	// The configuration is 0.3 + gap = 0.3 + 0.3 tol along the normal: a remembered offset of
	// 0.3 + 1.2 tol is violated by 0.9 tol (kept), 0.3 + 1.5 tol by 1.2 tol (dropped).
	const Case cases[] = { { 1.2 * tol, 1.2 * tol }, { 0.1 * tol, 0.5 * tol }, { 1.5 * tol, 0.5 * tol } };
	for ( const Case& c : cases )
	{
		pdVec3 xc = ContactAt( contact );
		state.q.memory[0] = { kUp, 0.3 + c.remembered, 7 };
		state.q.memoryCount = 1;
		int count = pdiQuery_BuildPlanes( &state.q, xc );
		ExpectPlanes( count, { { kUp, 0.3 + c.expected } } );
	}
}

// No planes: the escape is the direction of the configuration itself.
TEST_F( PdInProjection, EscapeWithoutPlanesIsAlongTheConfiguration )
{
	Begin( { -0.8, -0.6, 0.2 } );
	pdVec3 e = pdiQuery_Escape( &state.q, 0, { 3.0, 0.0, 4.0 } );
	ExpectNear( e, { 0.6, 0.0, 0.8 }, 1e-15 );
}
