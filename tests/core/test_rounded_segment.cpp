// SPDX-License-Identifier: MIT
// PdRoundedSegment (rounded_segment.c): the segment-surface distance against a dense sampling
// of point distances, and the deepest point of a segment in a box (inside, crossing, outside)
// against the box's analytic distance field sampled densely: the bracket holds the minimum and
// is no wider than the tolerance.
#include "mesh_fixture.h"
#include "test_util.h"

extern "C"
{
#include "rounded_segment.h"
#include "workspace.h"
}

#include <algorithm>
#include <cmath>

namespace
{

double BoxSdf( pdVec3 p, pdVec3 h )
{
	double qx = std::fabs( p.x ) - h.x, qy = std::fabs( p.y ) - h.y, qz = std::fabs( p.z ) - h.z;
	double ox = std::max( qx, 0.0 ), oy = std::max( qy, 0.0 ), oz = std::max( qz, 0.0 );
	return std::sqrt( ox * ox + oy * oy + oz * oz ) + std::min( std::max( qx, std::max( qy, qz ) ), 0.0 );
}

// The smallest of the analytic field over 20001 points of the segment, and its spacing.
double SampledMinimum( pdVec3 a, pdVec3 b, pdVec3 h )
{
	double best = INFINITY;
	for ( int k = 0; k <= 20000; ++k )
		best = std::min( best, BoxSdf( pdiLerp( a, b, k / 20000.0 ), h ) );
	return best;
}

struct Box
{
	pdVec3 h{ 0.5, 0.4, 0.3 };
	Soup soup = MakeBox( { 0, 0, 0 }, h );
	MeshPtr mesh{ nullptr };
	TestWorkspacePtr ws{ pdCreateWorkspace( nullptr ) };
	Box()
	{
		pdMeshDef def = DefOf( soup );
		pdMeshReport report;
		mesh.m = pdCreateMesh( &def, &report );
		EXPECT_NE( mesh.m, nullptr ) << report.message;
	}
};

} // namespace

TEST( PdRoundedSegment, SegmentDistanceMatchesSampling )
{
	Box box;
	TestRng rng( 21 );
	int outside = 0;
	for ( int trial = 0; trial < 200; ++trial )
	{
		pdVec3 a = { rng.Range( -1.5, 1.5 ), rng.Range( -1.5, 1.5 ), rng.Range( -1.5, 1.5 ) };
		pdVec3 b = { rng.Range( -1.5, 1.5 ), rng.Range( -1.5, 1.5 ), rng.Range( -1.5, 1.5 ) };
		double u = -1;
		pdiSurfacePoint sp;
		ASSERT_TRUE( pdiMesh_SegmentClosest( box.mesh.m, a, b, box.ws.get(), &u, &sp ) );
		double sampled = SampledMinimum( a, b, box.h );
		if ( sampled > 0 )
		{
			++outside;
			EXPECT_NEAR( sp.distance, sampled, 1e-3 * pdiLength( pdiSub( b, a ) ) ) << "seed 21 trial " << trial;
			EXPECT_LE( sp.distance, sampled + 1e-12 );
			EXPECT_NEAR( pdiLength( pdiSub( pdiLerp( a, b, u ), sp.point ) ), sp.distance, 1e-9 );
		}
		else if ( BoxSdf( a, box.h ) * BoxSdf( b, box.h ) < 0 )
		{
			EXPECT_EQ( sp.distance, 0.0 ) << "a segment crossing the surface, seed 21 trial " << trial;
		}
	}
	EXPECT_GT( outside, 50 );
}

TEST( PdRoundedSegment, DeepestPointInsideAndAcrossABox )
{
	Box box;
	const double tolerance = 1e-5;
	TestRng rng( 8 );
	for ( int trial = 0; trial < 150; ++trial )
	{
		SCOPED_TRACE( "seed 8 trial " + std::to_string( trial ) );
		// Ends inside, across and outside.
		double spread = trial < 50 ? 0.45 : 1.2;
		pdVec3 a = { rng.Range( -spread, spread ), rng.Range( -spread, spread ), rng.Range( -spread, spread ) };
		pdVec3 b = { rng.Range( -spread, spread ), rng.Range( -spread, spread ), rng.Range( -spread, spread ) };
		pdiSegmentDeepest d;
		pdiMesh_SegmentDeepest( box.mesh.m, a, b, tolerance, 4000, box.ws.get(), &d );
		double truth = SampledMinimum( a, b, box.h );
		double spacing = pdiLength( pdiSub( b, a ) ) / 20000.0;
		EXPECT_FALSE( d.capped );
		EXPECT_LE( d.bound, truth + 1e-12 );
		EXPECT_GE( d.value, truth - spacing - 1e-12 );
		EXPECT_LE( d.value - d.bound, tolerance + 1e-12 );
		EXPECT_NEAR( BoxSdf( pdiLerp( a, b, d.u ), box.h ), d.value, 1e-12 );
	}
}

TEST( PdRoundedSegment, ALevelSegmentUnderTheTopNeedsNoBisection )
{
	Box box;
	// Parallel to the top face, 0.05 below it: every point is 0.05 deep.
	pdiSegmentDeepest d;
	pdiMesh_SegmentDeepest( box.mesh.m, { -0.3, 0, 0.25 }, { 0.3, 0, 0.25 }, 1e-6, 64, box.ws.get(), &d );
	EXPECT_NEAR( d.value, -0.05, 1e-12 );
	EXPECT_TRUE( d.inside );
	EXPECT_LE( d.evaluations, 3 );
	// A cap reports the bracket it reached.
	pdVec3 a = { -0.45, -0.1, -0.25 }, b = { 0.31, 0.27, 0.23 };
	pdiMesh_SegmentDeepest( box.mesh.m, a, b, 1e-12, 3, box.ws.get(), &d );
	double truth = SampledMinimum( a, b, box.h );
	EXPECT_TRUE( d.capped );
	EXPECT_LE( d.bound, truth + 1e-12 );
	EXPECT_GE( d.value, truth - 1e-4 );
	EXPECT_LE( d.evaluations, 3 );
}
