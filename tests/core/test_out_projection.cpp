// SPDX-License-Identifier: MIT
// The out-projection of a PolyDepth query (core/src/out_projection.c): from a free
// configuration toward a target, the first contact configuration on the segment, with its
// contact features in the query's candidate slot. Checked against analytic contact times of
// boxes and, on random shapes, against the static collision and distance queries: the contact
// lies on the segment, A there is at most the target distance (half the tolerance) from B and
// not colliding, and no earlier point of the segment collides (dense pdCollide samples).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "query_fixture.h"

extern "C"
{
#include "penetration_query.h"
#include "workspace.h"
}

using namespace polydepth::test;

namespace
{

// The query state as pdComputePenetration sets it up before its stages run: meshes, frames,
// unit rotations, containment rule, scale, tolerance, no budget, and the two feature slots.
struct QueryState
{
	pdiPenetrationOptions def = DefaultOptions();
	pdiPdQuery q;

	static pdiPenetrationOptions DefaultOptions()
	{
		pdiPenetrationOptions options;
		pdiResolvePenetrationDef( nullptr, &options );
		return options;
	}

	pdStatus Begin( const pdMesh* a, const pdTransform& pa, const pdMesh* b, const pdTransform& pb, pdWorkspace* ws )
	{
		std::memset( &q, 0, sizeof( q ) );
		return pdiQuery_Begin( &q, a, &pa, b, &pb, &def, ws, 0.0 );
	}
	// A translated by x from the query configuration.
	pdTransform PoseA( pdVec3 x ) const { return pdiQuery_PoseA( &q, x ); }
	pdTransform PoseB() const { return pdiQuery_PoseB( &q ); }
	int Candidate() const { return 1 - q.current; }
};

bool Colliding( const QueryState& s, pdVec3 x, pdWorkspace* ws )
{
	pdTransform pa = s.PoseA( x ), pb = s.PoseB();
	pdCollideResult r;
	EXPECT_GE( pdCollide( s.q.sc.meshA, &pa, s.q.sc.meshB, &pb, nullptr, ws, &r ), 0 );
	return r.colliding;
}

double Distance( const QueryState& s, pdVec3 x, pdWorkspace* ws )
{
	pdTransform pa = s.PoseA( x ), pb = s.PoseB();
	pdDistanceResult r;
	EXPECT_GE( pdComputeDistance( s.q.sc.meshA, &pa, s.q.sc.meshB, &pb, nullptr, ws, &r ), 0 );
	return r.distance;
}

pdVec3 Lerp( pdVec3 a, pdVec3 b, double t )
{
	return pdVec3{ a.x + t * ( b.x - a.x ), a.y + t * ( b.y - a.y ), a.z + t * ( b.z - a.z ) };
}

// The parameter of x on the segment from..to, after checking that x lies on the segment's line.
double SegmentParameter( pdVec3 from, pdVec3 to, pdVec3 x, const std::string& what )
{
	pdVec3 d = pdiSub( to, from );
	double len2 = pdiDot( d, d );
	double t = pdiDot( pdiSub( x, from ), d ) / len2;
	double off = pdiLength( pdiSub( x, Lerp( from, to, t ) ) );
	EXPECT_LE( off, 1e-12 * ( 1.0 + std::sqrt( len2 ) + pdiLength( from ) ) ) << what << ": off the segment";
	EXPECT_GE( t, 0.0 ) << what;
	EXPECT_LE( t, 1.0 ) << what;
	return t;
}

// The contact x (on the segment from..to): not colliding, at most half the tolerance from B,
// and every one of `samples` points of the segment before it free.
void CheckContact( const QueryState& s, pdVec3 from, pdVec3 to, pdVec3 x, int samples, pdWorkspace* ws,
				   const std::string& what )
{
	double t = SegmentParameter( from, to, x, what );
	double tol = s.q.tol;
	EXPECT_FALSE( Colliding( s, x, ws ) ) << what;
	double d = Distance( s, x, ws );
	EXPECT_GT( d, 0.0 ) << what;
	EXPECT_LE( d, 0.5 * tol * ( 1.0 + 1e-6 ) ) << what;
	for ( int k = 0; k < samples; ++k )
	{
		double u = t * k / samples;
		EXPECT_FALSE( Colliding( s, Lerp( from, to, u ), ws ) ) << what << ": collides at parameter " << u;
	}
}

bool SameFeature( const pdFeature& a, const pdFeature& b )
{
	return a.type == b.type && a.triangle == b.triangle && a.index == b.index && a.vertex == b.vertex;
}

bool SameVec( pdVec3 a, pdVec3 b )
{
	return a.x == b.x && a.y == b.y && a.z == b.z;
}

// Field by field (the struct has padding).
bool SameFeature( const pdContactFeature& a, const pdContactFeature& b )
{
	return a.kind == b.kind && SameFeature( a.featureA, b.featureA ) && SameFeature( a.featureB, b.featureB ) &&
		   SameVec( a.pointA, b.pointA ) && SameVec( a.pointB, b.pointB ) && SameVec( a.normal, b.normal ) &&
		   a.distance == b.distance;
}

// The candidate slot's features are those of A at x (approach the motion), all within the
// tolerance.
void CheckCandidateFeatures( QueryState& s, pdVec3 x, pdVec3 approach, pdWorkspace* ws, const std::string& what )
{
	int slot = s.Candidate();
	pdTransform pa = s.PoseA( x ), pb = s.PoseB();
	pdContactFeatureDef def = pdDefaultContactFeatureDef();
	def.reach = s.q.tol;
	def.approachDirection = approach;
	def.maxFeatures = PDI_MAX_PD_FEATURES;
	pdContactFeatureResult r;
	ASSERT_GE( pdComputeContactFeatures( s.q.sc.meshA, &pa, s.q.sc.meshB, &pb, &def, ws, &r ), 0 ) << what;
	ASSERT_EQ( s.q.featureCount[slot], r.featureCount ) << what;
	for ( int k = 0; k < r.featureCount; ++k )
	{
		const pdContactFeature& f = s.q.features[slot][k];
		EXPECT_TRUE( SameFeature( f, r.features[k] ) ) << what << " feature " << k;
		EXPECT_LE( std::fabs( f.distance ), s.q.tol * ( 1.0 + 1e-9 ) ) << what << " feature " << k;
	}
}

pdVec3 Rotate( const pdiFrame& f, pdVec3 v )
{
	return pdiMulMV( &f.r, v );
}

// Box A (half 0.5) overlapping box B (half 1) by 0.3 along B's x axis, both turned by one
// rotation: A comes back from 3 along B's x and first touches B at 0.3 (the analytic depth).
struct BoxPair
{
	pdMesh* a = MakeBox( 0.5, 0.5, 0.5, 2 );
	pdMesh* b = MakeBox( 1.0, 1.0, 1.0, 2 );
	pdTransform pa, pb;
	pdiFrame fb;
	~BoxPair()
	{
		pdDestroyMesh( a );
		pdDestroyMesh( b );
	}
	void Place( pdQuat q, pdVec3 centerB, double overlap )
	{
		pb = Pose( q, centerB );
		pdiMakeFrame( &pb, &fb );
		pa = Pose( q, pdiAdd( centerB, Rotate( fb, pdVec3{ 1.5 - overlap, 0.1, -0.2 } ) ) );
	}
	pdVec3 AlongX( double s ) const { return Rotate( fb, pdVec3{ s, 0.0, 0.0 } ); }
};

} // namespace

// Identity-turned boxes overlapping by 0.3 along x, B at the origin, and the query state.
class PdOutProjection : public ::testing::Test
{
  protected:
	void SetUp() override
	{
		ASSERT_TRUE( boxes.a && boxes.b );
		boxes.Place( pdQuat{ 1, 0, 0, 0 }, pdVec3{ 0, 0, 0 }, 0.3 );
		ASSERT_EQ( s.Begin( boxes.a, boxes.pa, boxes.b, boxes.pb, ws ), PD_STATUS_OK );
	}
	void TearDown() override { pdDestroyWorkspace( ws ); }

	pdWorkspace* ws = pdCreateWorkspace( NULL );
	BoxPair boxes;
	QueryState s;
};

// Boxes with an analytic contact: the contact configuration is the translation along B's x by
// the overlap plus the distance left at the contact (at most half the tolerance), it is on the
// segment, free, and every earlier point of the segment is free; its features (B's +x face
// against A's -x face) fill the candidate slot and leave the current one alone.
TEST_F( PdOutProjection, BoxesStopAtTheAnalyticContact )
{
	std::mt19937 rng( 7600 );
	for ( int k = 0; k < 6; ++k )
	{
		std::string what = "seed 7600 pose " + std::to_string( k );
		boxes.Place( k == 0 ? pdQuat{ 1, 0, 0, 0 } : RandomRotation( rng ), RandomVec( rng, 3.0 ), 0.3 );
		ASSERT_EQ( s.Begin( boxes.a, boxes.pa, boxes.b, boxes.pb, ws ), PD_STATUS_OK );
		ASSERT_TRUE( Colliding( s, pdVec3{ 0, 0, 0 }, ws ) ) << what;
		const double tol = s.q.tol;
		s.q.featureCount[s.q.current] = 7; // the current slot must stay as it is
		pdVec3 from = boxes.AlongX( 3.0 ), to = { 0.0, 0.0, 0.0 }, x;
		ASSERT_TRUE( pdiQuery_OutProject( &s.q, from, to, &x ) ) << what;
		EXPECT_GT( s.q.nodeVisits, 0 ) << what;
		// Along B's x only, by the overlap plus the distance left at the contact.
		pdVec3 local = pdiMulMTV( &boxes.fb.r, x );
		double gap = Distance( s, x, ws );
		EXPECT_NEAR( local.x, 0.3 + gap, 1e-12 ) << what;
		EXPECT_NEAR( local.y, 0.0, 1e-12 ) << what;
		EXPECT_NEAR( local.z, 0.0, 1e-12 ) << what;
		EXPECT_GE( local.x, 0.3 ) << what;
		EXPECT_LE( local.x, 0.3 + 0.5 * tol * ( 1.0 + 1e-6 ) ) << what;
		CheckContact( s, from, to, x, 200, ws, what );
		// A moved on by the tolerance collides: the contact is the first one.
		EXPECT_TRUE( Colliding( s, pdiSub( x, boxes.AlongX( tol ) ), ws ) ) << what;
		EXPECT_EQ( s.q.featureCount[s.q.current], 7 ) << what;
		ASSERT_GT( s.q.featureCount[s.Candidate()], 3 ) << what;
		CheckCandidateFeatures( s, x, pdiSub( to, from ), ws, what );
		for ( int j = 0; j < s.q.featureCount[s.Candidate()]; ++j )
		{
			EXPECT_GT( pdiDot( s.q.features[s.Candidate()][j].normal, boxes.AlongX( 1.0 ) ), 1.0 - 1e-9 ) << what;
		}
		// A target beyond B (free, on the far side): the same first contact.
		pdVec3 beyond = boxes.AlongX( -4.0 ), y;
		ASSERT_FALSE( Colliding( s, beyond, ws ) ) << what;
		ASSERT_TRUE( pdiQuery_OutProject( &s.q, from, beyond, &y ) ) << what;
		EXPECT_NEAR( pdiLength( pdiSub( x, y ) ), 0.0, 1e-12 ) << what;
		CheckContact( s, from, beyond, y, 200, ws, what );
	}
}

// The features are gathered only for a contact the caller refines: one shorter than
// acceptBelow and farther than the tolerance from the query configuration. Otherwise the
// candidate slot is emptied; the contact itself is the same.
TEST_F( PdOutProjection, FeaturesOnlyForAContactTheCallerRefines )
{
	boxes.Place( pdQuat{ 1, 0, 0, 0 }, pdVec3{ 0.5, -0.25, 0.125 }, 0.3 );
	ASSERT_EQ( s.Begin( boxes.a, boxes.pa, boxes.b, boxes.pb, ws ), PD_STATUS_OK );
	pdVec3 from = boxes.AlongX( 3.0 ), to = { 0, 0, 0 }, x, y;
	ASSERT_TRUE( pdiQuery_OutProjectEx( &s.q, from, to, false, INFINITY, &x ) );
	ASSERT_GT( s.q.featureCount[s.Candidate()], 0 );
	// acceptBelow at or under the contact's length: the same contact, no features.
	double length = pdiLength( x );
	for ( double acceptBelow : { 0.2, length } )
	{
		ASSERT_TRUE( pdiQuery_OutProjectEx( &s.q, from, to, false, acceptBelow, &y ) );
		EXPECT_EQ( std::memcmp( &x, &y, sizeof( x ) ), 0 );
		EXPECT_EQ( s.q.featureCount[s.Candidate()], 0 ) << "acceptBelow " << acceptBelow;
	}
	ASSERT_TRUE( pdiQuery_OutProjectEx( &s.q, from, to, false, 1.0, &y ) );
	EXPECT_GT( s.q.featureCount[s.Candidate()], 0 );

	// A pair overlapping by a quarter of the tolerance: the contact lies within the tolerance
	// of the query configuration (the query is settled there), so no features either.
	const double tol = s.q.tol; // the meshes' tolerance, whatever the poses
	boxes.Place( pdQuat{ 1, 0, 0, 0 }, pdVec3{ 0.5, -0.25, 0.125 }, 0.25 * tol );
	ASSERT_EQ( s.Begin( boxes.a, boxes.pa, boxes.b, boxes.pb, ws ), PD_STATUS_OK );
	ASSERT_EQ( s.q.tol, tol );
	ASSERT_TRUE( Colliding( s, pdVec3{ 0, 0, 0 }, ws ) );
	s.q.featureCount[s.Candidate()] = 5;
	from = boxes.AlongX( 3.0 );
	ASSERT_TRUE( pdiQuery_OutProject( &s.q, from, to, &y ) );
	EXPECT_LE( pdiLength( y ), tol );
	EXPECT_GE( pdiLength( y ), 0.25 * tol * ( 1.0 - 1e-6 ) );
	EXPECT_EQ( s.q.featureCount[s.Candidate()], 0 );
	CheckContact( s, from, to, y, 50, ws, "shallow" );
}

// No contact: a path that stays clear of B (false, candidate slot untouched) and a start that
// collides (false). A start known free skips the static check where the containment rules
// agree, and finds the same contact.
TEST_F( PdOutProjection, NoContactOnAClearPathOrFromACollidingStart )
{
	pdVec3 x = { 99, 99, 99 };
	s.q.featureCount[s.Candidate()] = 5;
	// A slides past B's +x face along z, 0.05 from it all the way.
	EXPECT_FALSE( pdiQuery_OutProject( &s.q, pdVec3{ 0.35, 0.0, -4.0 }, pdVec3{ 0.35, 0.0, 4.0 }, &x ) );
	EXPECT_EQ( x.x, 99.0 );
	EXPECT_EQ( s.q.featureCount[s.Candidate()], 5 );
	EXPECT_FALSE( Colliding( s, pdVec3{ 0.35, 0.0, 0.0 }, ws ) );
	EXPECT_NEAR( Distance( s, pdVec3{ 0.35, 0.0, 0.0 }, ws ), 0.05, 1e-12 );
	// Away from B.
	pdVec3 from = boxes.AlongX( 3.0 ), aside = pdiAdd( boxes.AlongX( 3.0 ), pdVec3{ 0.0, 4.0, 0.0 } );
	EXPECT_FALSE( pdiQuery_OutProject( &s.q, from, aside, &x ) );
	EXPECT_EQ( x.x, 99.0 );
	EXPECT_EQ( s.q.featureCount[s.Candidate()], 5 );
	// A colliding start (the query configuration itself).
	EXPECT_FALSE( pdiQuery_OutProject( &s.q, pdVec3{ 0, 0, 0 }, from, &x ) );
	EXPECT_FALSE( pdiQuery_OutProject( &s.q, boxes.AlongX( 0.1 ), pdVec3{ 0, 0, 0 }, &x ) );
	EXPECT_EQ( x.x, 99.0 );

	// Known free: the same contact without the static check of the start (closed solids, the
	// sweep's own check applies the same containment rule): exactly its node pairs fewer. Linked
	// rings 0.4 apart, whose boxes overlap, so that the check has node pairs to visit.
	{
		smpSoup soup = {};
		ASSERT_TRUE( smpMakeTorus( 1.0, 0.3, 24, 12, &soup ) );
		pdMesh* ring = MakeMesh( &soup );
		smpFreeSoup( &soup );
		ASSERT_NE( ring, nullptr );
		pdTransform pb = Pose( pdQuat{ 1, 0, 0, 0 }, pdVec3{ 0, 0, 0 } );
		pdTransform pa = Pose( pdQuat{ std::sqrt( 0.5 ), std::sqrt( 0.5 ), 0, 0 }, pdVec3{ 0.3, 0, 0 } );
		QueryState rings;
		ASSERT_EQ( rings.Begin( ring, pa, ring, pb, ws ), PD_STATUS_OK );
		pdVec3 start = { 0.7, 0.0, 0.0 };
		ASSERT_TRUE( Colliding( rings, pdVec3{ 0, 0, 0 }, ws ) );
		pdTransform at = rings.PoseA( start );
		pdCollideResult c;
		ASSERT_EQ( pdCollide( ring, &at, ring, &pb, nullptr, ws, &c ), PD_STATUS_OK );
		ASSERT_FALSE( c.colliding );
		pdVec3 checked, known;
		ASSERT_TRUE( pdiQuery_OutProjectEx( &rings.q, start, pdVec3{ 0, 0, 0 }, false, INFINITY, &checked ) );
		int checkedVisits = rings.q.nodeVisits;
		ASSERT_TRUE( pdiQuery_OutProjectEx( &rings.q, start, pdVec3{ 0, 0, 0 }, true, INFINITY, &known ) );
		int knownVisits = rings.q.nodeVisits - checkedVisits;
		EXPECT_EQ( std::memcmp( &checked, &known, sizeof( known ) ), 0 );
		EXPECT_GT( c.nodeVisits, 0 );
		EXPECT_EQ( knownVisits, checkedVisits - c.nodeVisits );
		CheckContact( rings, start, pdVec3{ 0, 0, 0 }, known, 100, ws, "linked rings" );
		pdDestroyMesh( ring );
	}
	// Closed meshes that are not solids: the sweep's start check (containment counts) is not
	// the caller's, so it is made even for a start known free.
	QueryState surfaces;
	surfaces.def.closedAsSolid = false;
	ASSERT_EQ( surfaces.Begin( boxes.a, boxes.pa, boxes.b, boxes.pb, ws ), PD_STATUS_OK );
	pdVec3 checked, known;
	ASSERT_TRUE( pdiQuery_OutProjectEx( &surfaces.q, from, pdVec3{ 0, 0, 0 }, false, INFINITY, &checked ) );
	int checkedVisits = surfaces.q.nodeVisits;
	ASSERT_TRUE( pdiQuery_OutProjectEx( &surfaces.q, from, pdVec3{ 0, 0, 0 }, true, INFINITY, &known ) );
	EXPECT_EQ( surfaces.q.nodeVisits, 2 * checkedVisits );
	EXPECT_EQ( std::memcmp( &checked, &known, sizeof( known ) ), 0 );
}

// Random shape pairs in collision at the query configuration, projected out from a free
// configuration on a random direction toward it: a contact is found (the segment ends in
// collision), and it passes the static oracles.
TEST_F( PdOutProjection, ContactIsTheFirstOnTheSegmentForRandomShapes )
{
	const char* names[][2] = {
		{ "torus", "torus" }, { "knot", "icosphere" }, { "cup", "spoon" }, { "grate", "torus" } };
	int checked = 0;
	for ( unsigned seed = 7700; seed < 7712; ++seed )
	{
		const char* const* pair = names[seed % 4];
		pdMesh* a = MakeShape( pair[0], 300, 2.0 );
		pdMesh* b = MakeShape( pair[1], 300, 2.0 );
		ASSERT_TRUE( a && b );
		std::mt19937 rng( seed );
		pdTransform pb = RandomPose( rng, 0.3 );
		pdTransform pa = Pose( RandomRotation( rng ), pdiAdd( pb.p, RandomVec( rng, 0.4 ) ) );
		pdVec3 dir = pdiNormalize( RandomVec( rng, 1.0 ) );
		pdVec3 target = RandomVec( rng, 0.1 );
		std::string what = std::string( pair[0] ) + "/" + pair[1] + " seed " + std::to_string( seed );
		ASSERT_EQ( s.Begin( a, pa, b, pb, ws ), PD_STATUS_OK ) << what;
		pdVec3 from = pdiScale( dir, 5.0 );
		if ( !Colliding( s, target, ws ) || Colliding( s, from, ws ) )
		{
			pdDestroyMesh( a );
			pdDestroyMesh( b );
			continue;
		}
		pdVec3 x;
		ASSERT_TRUE( pdiQuery_OutProject( &s.q, from, target, &x ) ) << what;
		CheckContact( s, from, target, x, 400, ws, what );
		if ( pdiLength( x ) > s.q.tol )
		{
			CheckCandidateFeatures( s, x, pdiSub( target, from ), ws, what );
			EXPECT_GT( s.q.featureCount[s.Candidate()], 0 ) << what;
		}
		++checked;
		pdDestroyMesh( a );
		pdDestroyMesh( b );
	}
	EXPECT_GE( checked, 6 );
}

// The feature slots: StoreFeatures copies at most PDI_MAX_PD_FEATURES and stores none for a
// negative count or no array; GatherFeatures fills the candidate slot with the features of A
// at x, approached from x toward the query configuration.
TEST_F( PdOutProjection, FeatureSlotsHoldWhatTheyAreGiven )
{
	std::vector<pdContactFeature> many( PDI_MAX_PD_FEATURES + 10 );
	for ( size_t k = 0; k < many.size(); ++k )
	{
		std::memset( &many[k], 0, sizeof( many[k] ) );
		many[k].distance = (double)k;
	}
	pdiQuery_StoreFeatures( &s.q, 0, many.data(), (int)many.size() );
	EXPECT_EQ( s.q.featureCount[0], PDI_MAX_PD_FEATURES );
	EXPECT_EQ( s.q.features[0][PDI_MAX_PD_FEATURES - 1].distance, (double)( PDI_MAX_PD_FEATURES - 1 ) );
	pdiQuery_StoreFeatures( &s.q, 1, many.data(), 3 );
	EXPECT_EQ( s.q.featureCount[1], 3 );
	EXPECT_EQ( s.q.features[1][2].distance, 2.0 );
	EXPECT_EQ( s.q.featureCount[0], PDI_MAX_PD_FEATURES ); // the other slot untouched
	pdiQuery_StoreFeatures( &s.q, 1, many.data(), -1 );
	EXPECT_EQ( s.q.featureCount[1], 0 );
	pdiQuery_StoreFeatures( &s.q, 1, nullptr, 4 );
	EXPECT_EQ( s.q.featureCount[1], 0 );

	// A at the analytic contact (0.3 plus a quarter of the tolerance along x).
	pdVec3 x = boxes.AlongX( 0.3 + 0.25 * s.q.tol );
	ASSERT_TRUE( pdiQuery_GatherFeatures( &s.q, x ) );
	ASSERT_GT( s.q.featureCount[s.Candidate()], 3 );
	CheckCandidateFeatures( s, x, pdiNeg( x ), ws, "gathered" );
	for ( int j = 0; j < s.q.featureCount[s.Candidate()]; ++j )
	{
		EXPECT_NEAR( s.q.features[s.Candidate()][j].distance, 0.25 * s.q.tol, 1e-12 );
	}
}
