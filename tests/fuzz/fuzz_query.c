// SPDX-License-Identifier: MIT
// libFuzzer target: queries on arbitrary small soups and poses. The bytes give two soups (up
// to 12 triangles each, on a coarse grid or from a unit box), two poses (unit quaternions from
// the bytes, or raw doubles) and the PD def caps. Checks for collide, distance, CCD and PD: the
// status is in range, no output field is NaN, iterations <= maxIterations * maxStarts, and a
// PD answer separates (A moved by it collides with B at most within the contact tolerance).
#include "fuzz_common.h"

#include "polydepth/polydepth.h"
#include "polydepth/research.h"
#include "../support/feature_calls.h"

#define TEST_FUZZ_MAX_TRIS 12

typedef struct testFuzzSoup
{
	double v[3 * 3 * TEST_FUZZ_MAX_TRIS + 24];
	uint32_t idx[3 * TEST_FUZZ_MAX_TRIS + 36];
	int vertexCount;
	int triangleCount;
} testFuzzSoup;

// Either a box (closed, convex: exercises containment and the exact convex path) with grid
// half extents, or free triangles on the grid.
static void testReadSoup( testFuzzReader* r, testFuzzSoup* s )
{
	uint8_t head = testFuzz_Byte( r );
	if ( head & 1 )
	{
		double h[3];
		for ( int k = 0; k < 3; ++k )
		{
			h[k] = 0.125 + ( testFuzz_Byte( r ) % 16 ) / 8.0;
		}
		for ( int i = 0; i < 8; ++i )
		{
			s->v[3 * i + 0] = ( i & 1 ) ? h[0] : -h[0];
			s->v[3 * i + 1] = ( i & 2 ) ? h[1] : -h[1];
			s->v[3 * i + 2] = ( i & 4 ) ? h[2] : -h[2];
		}
		static const uint32_t box[36] = { 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
										  2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5 };
		memcpy( s->idx, box, sizeof( box ) );
		s->vertexCount = 8;
		s->triangleCount = 12;
		return;
	}
	int tris = 1 + ( head >> 1 ) % TEST_FUZZ_MAX_TRIS;
	s->vertexCount = 3 * tris;
	s->triangleCount = tris;
	for ( int i = 0; i < 3 * s->vertexCount; ++i )
	{
		s->v[i] = testFuzz_GridCoord( r );
	}
	for ( int i = 0; i < 3 * tris; ++i )
	{
		s->idx[i] = (uint32_t)i;
	}
}

static pdTransform testReadPose( testFuzzReader* r )
{
	pdTransform t;
	uint8_t mode = testFuzz_Byte( r );
	if ( mode == 0xff )
	{
		// Raw doubles: NaN, Inf, non-unit quaternions.
		t.q.w = testFuzz_RawDouble( r );
		t.q.x = testFuzz_RawDouble( r );
		t.q.y = testFuzz_RawDouble( r );
		t.q.z = testFuzz_RawDouble( r );
		t.p.x = testFuzz_RawDouble( r );
		t.p.y = testFuzz_RawDouble( r );
		t.p.z = testFuzz_RawDouble( r );
		return t;
	}
	double q[4];
	double len2 = 0.0;
	for ( int k = 0; k < 4; ++k )
	{
		q[k] = ( (double)testFuzz_Byte( r ) - 127.5 ) / 127.5;
		len2 += q[k] * q[k];
	}
	double len = sqrt( len2 );
	t.q.w = len > 1e-3 ? q[0] / len : 1.0;
	t.q.x = len > 1e-3 ? q[1] / len : 0.0;
	t.q.y = len > 1e-3 ? q[2] / len : 0.0;
	t.q.z = len > 1e-3 ? q[3] / len : 0.0;
	t.p.x = testFuzz_GridCoord( r );
	t.p.y = testFuzz_GridCoord( r );
	t.p.z = testFuzz_GridCoord( r );
	return t;
}

static int testStatusInRange( pdStatus s )
{
	return s >= PD_STATUS_INVALID_DEF && s <= PD_STATUS_FEATURE_LIMIT;
}

static pdMesh* testMakeMesh( const testFuzzSoup* s )
{
	pdMeshDef def = pdDefaultMeshDef();
	def.vertices = s->v;
	def.vertexCount = s->vertexCount;
	def.indices = s->idx;
	def.triangleCount = s->triangleCount;
	def.clearanceGridResolution = 6; // keep creation cheap
	return pdCreateMesh( &def, NULL );
}

static int testCollides( const pdMesh* a, pdTransform poseA, pdVec3 t, const pdMesh* b, const pdTransform* poseB,
					   bool containment, pdWorkspace* ws )
{
	poseA.p.x += t.x;
	poseA.p.y += t.y;
	poseA.p.z += t.z;
	pdCollideDef def = pdDefaultCollideDef();
	def.checkContainment = containment;
	pdCollideResult r;
	pdStatus s = pdCollide( a, &poseA, b, poseB, &def, ws, &r );
	TEST_FUZZ_CHECK( s == PD_STATUS_OK, "check collide status %d", (int)s );
	return r.colliding;
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	testFuzzReader r = { data, size, 0 };
	testFuzzSoup sa, sb;
	testReadSoup( &r, &sa );
	testReadSoup( &r, &sb );
	pdTransform poseA = testReadPose( &r );
	pdTransform poseB = testReadPose( &r );
	uint8_t caps = testFuzz_Byte( &r );
	uint8_t options = testFuzz_Byte( &r );

	pdMesh* a = testMakeMesh( &sa );
	pdMesh* b = testMakeMesh( &sb );
	if ( a == NULL || b == NULL )
	{
		// All-degenerate soups are rejected at creation; that is covered by fuzz_mesh_def.
		pdDestroyMesh( a );
		pdDestroyMesh( b );
		return 0;
	}
	pdWorkspace* ws = pdCreateWorkspace( NULL );

	pdCollideResult c;
	pdStatus s = pdCollide( a, &poseA, b, &poseB, NULL, ws, &c );
	TEST_FUZZ_CHECK( testStatusInRange( s ) && s == c.status, "collide status %d", (int)s );

	pdDistanceResult d;
	s = pdComputeDistance( a, &poseA, b, &poseB, NULL, ws, &d );
	TEST_FUZZ_CHECK( testStatusInRange( s ) && s == d.status, "distance status %d", (int)s );
	TEST_FUZZ_CHECK( isfinite( d.distance ) && testFuzz_FiniteVec( d.pointA.x, d.pointA.y, d.pointA.z ) &&
					   testFuzz_FiniteVec( d.pointB.x, d.pointB.y, d.pointB.z ),
				   "distance output not finite" );

	pdVec3 end = { poseA.p.x - 2.0 * poseB.p.x, poseA.p.y + 1.0, poseA.p.z };
	pdCcdResult ccd;
	s = pdComputeTranslationalCcd( a, &poseA, end, b, &poseB, NULL, ws, &ccd );
	TEST_FUZZ_CHECK( testStatusInRange( s ) && s == ccd.status, "ccd status %d", (int)s );
	TEST_FUZZ_CHECK( isfinite( ccd.toc ) && ccd.toc >= 0.0 && ccd.toc <= 1.0, "ccd toc %g", ccd.toc );
	TEST_FUZZ_CHECK( testFuzz_FiniteVec( ccd.contactPosition.x, ccd.contactPosition.y, ccd.contactPosition.z ),
				   "ccd position" );
	for ( int i = 0; i < ccd.featureCount; ++i )
	{
		const pdContactFeature* f = ccd.features + i;
		TEST_FUZZ_CHECK( testFuzz_FiniteVec( f->normal.x, f->normal.y, f->normal.z ) && isfinite( f->distance ) &&
						   testFuzz_FiniteVec( f->pointA.x, f->pointA.y, f->pointA.z ),
					   "ccd feature %d", i );
	}

	pdPenetrationDef def = pdDefaultPenetrationDef();
	pdPenetrationSettings settings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
	def.settings = &settings;
	def.maxIterations = 1 + caps % 8;
	settings.maxStarts = 1 + ( caps >> 3 ) % 4;
	settings.useConvexExactPath = ( options & 1 ) != 0;
	settings.useOrientationPruning = ( options & 2 ) != 0;
	settings.lineRefinement = ( options & 4 ) != 0;
	def.closedAsSolid = ( options & 8 ) != 0;
	settings.startStrategies =
		( options >> 4 ) == 0 ? PD_START_ALL : ( ( options >> 4 ) | ( ( ( caps >> 5 ) & 3 ) << 4 ) );
	settings.randomDirections = 8;
	pdPenetrationResult p;
	s = pdComputePenetration( a, &poseA, b, &poseB, &def, NULL, ws, &p );
	TEST_FUZZ_CHECK( testStatusInRange( s ) && s == p.status, "pd status %d", (int)s );
	TEST_FUZZ_CHECK( isfinite( p.depth ) && p.depth >= 0.0, "pd depth %g", p.depth );
	TEST_FUZZ_CHECK( testFuzz_FiniteVec( p.translation.x, p.translation.y, p.translation.z ), "pd translation" );
	TEST_FUZZ_CHECK( isfinite( p.elapsedMs ), "elapsed" );
	TEST_FUZZ_CHECK( p.iterations >= 0 && p.iterations <= def.maxIterations * settings.maxStarts,
					 "iterations %d > %d x %d", p.iterations, def.maxIterations, settings.maxStarts );
	TEST_FUZZ_CHECK( p.localCount >= 0 && p.localCount <= PD_MAX_LOCAL_REGIONS, "local count %d", p.localCount );
	for ( int i = 0; i < PD_MAX_LOCAL_REGIONS; ++i )
	{
		const pdLocalPenetration* l = p.local + i;
		TEST_FUZZ_CHECK( testFuzz_FiniteVec( l->normal.x, l->normal.y, l->normal.z ) && isfinite( l->depth ) &&
						   testFuzz_FiniteVec( l->translation.x, l->translation.y, l->translation.z ),
					   "local %d", i );
		TEST_FUZZ_CHECK( l->pointCount >= 0 && l->pointCount <= PD_MAX_REGION_POINTS, "local %d points", i );
		for ( int k = 0; k < PD_MAX_REGION_POINTS; ++k )
		{
			TEST_FUZZ_CHECK( testFuzz_FiniteVec( l->points[k].x, l->points[k].y, l->points[k].z ), "local %d point %d", i,
						   k );
		}
	}
	pdVec3 lo = pdMesh_GetInfo( a ).boundsMin, hi = pdMesh_GetInfo( a ).boundsMax;
	double da =
		sqrt( ( hi.x - lo.x ) * ( hi.x - lo.x ) + ( hi.y - lo.y ) * ( hi.y - lo.y ) + ( hi.z - lo.z ) * ( hi.z - lo.z ) );
	lo = pdMesh_GetInfo( b ).boundsMin;
	hi = pdMesh_GetInfo( b ).boundsMax;
	double db =
		sqrt( ( hi.x - lo.x ) * ( hi.x - lo.x ) + ( hi.y - lo.y ) * ( hi.y - lo.y ) + ( hi.z - lo.z ) * ( hi.z - lo.z ) );

	// The gap proof agrees with the distance: apart by half of it, not by one and a half; and
	// surfaces the distance query finds touching or intersecting (0) are within any gap.
	if ( d.status == PD_STATUS_OK && isfinite( d.distance ) )
	{
		double small = 1e-6 * fmin( da, db );
		bool apart = false;
		pdStatus gs = testGapProof( a, &poseA, b, &poseB, d.distance > 0.0 ? 0.5 * d.distance : small, ws, &apart );
		TEST_FUZZ_CHECK( testStatusInRange( gs ) && ( gs == PD_STATUS_OK || !apart ), "gap proof status %d", (int)gs );
		if ( gs == PD_STATUS_OK )
		{
			TEST_FUZZ_CHECK( apart == ( d.distance > 0.0 ), "gap proof below the distance %.17g says %d", d.distance,
						   (int)apart );
		}
		gs = testGapProof( a, &poseA, b, &poseB, 1.5 * d.distance + small, ws, &apart );
		TEST_FUZZ_CHECK( testStatusInRange( gs ) && !apart, "gap proof beyond the distance %.17g says apart (%d)",
					   d.distance, (int)gs );
	}

	// A pair said to have been apart: the one-traversal confirmation agrees with the query's
	// classification (apart exactly when the query says separated, unless a cap hid pairs) and
	// with the distance, and its features are finite.
	{
		pdPenetrationCache cache;
		memset( &cache, 0, sizeof( cache ) );
		cache.lastSeparated = true;
		bool apart = false;
		int count = -1;
		const pdContactFeature* features = NULL;
		double reach = 4e-4 * fmin( da, db );
		double tol = def.contactTolerance > 0.0 ? def.contactTolerance : 1e-4 * fmin( da, db );
		pdStatus cs = testConfirmApart( a, &poseA, b, &poseB, tol, def.closedAsSolid, &cache, reach, ( pdVec3 ){ 0, 0, 0 },
										64, ws, &apart, &count, &features );
		TEST_FUZZ_CHECK( testStatusInRange( cs ) && count >= 0 && ( count == 0 || features != NULL ), "confirm status %d",
					   (int)cs );
		TEST_FUZZ_CHECK( cs >= 0 || !apart, "confirm failed (%d) yet apart", (int)cs );
		for ( int i = 0; i < count; ++i )
		{
			const pdContactFeature* f = features + i;
			TEST_FUZZ_CHECK( testFuzz_FiniteVec( f->normal.x, f->normal.y, f->normal.z ) && isfinite( f->distance ) &&
							   testFuzz_FiniteVec( f->pointA.x, f->pointA.y, f->pointA.z ) &&
							   testFuzz_FiniteVec( f->pointB.x, f->pointB.y, f->pointB.z ),
						   "confirm feature %d", i );
		}
		if ( s >= 0 && cs == PD_STATUS_OK )
		{
			TEST_FUZZ_CHECK( apart == ( p.state == PD_STATE_SEPARATED ), "confirm says %s, the query %d",
						   apart ? "apart" : "not apart", (int)p.state );
		}
		if ( apart && d.status == PD_STATUS_OK )
		{
			TEST_FUZZ_CHECK( d.distance > 0.99e-4 * fmin( da, db ), "confirmed apart at distance %.17g", d.distance );
		}
	}

	// The same query for a pair its cache says was apart (step 0 tries to prove it still is,
	// then falls back on the full path): the same classification.
	{
		pdPenetrationCache cache;
		memset( &cache, 0, sizeof( cache ) );
		cache.lastSeparated = true;
		pdPenetrationResult pc;
		pdStatus sc = pdComputePenetration( a, &poseA, b, &poseB, &def, &cache, ws, &pc );
		TEST_FUZZ_CHECK( testStatusInRange( sc ) && sc == pc.status, "cached pd status %d", (int)sc );
		TEST_FUZZ_CHECK( isfinite( pc.depth ) && pc.depth >= 0.0, "cached pd depth %g", pc.depth );
		if ( s == PD_STATUS_OK && sc == PD_STATUS_OK )
		{
			TEST_FUZZ_CHECK( pc.state == p.state, "cached query says %d, the query %d", (int)pc.state, (int)p.state );
			TEST_FUZZ_CHECK( cache.lastSeparated == ( pc.state == PD_STATE_SEPARATED ), "cache lastSeparated %d, state %d",
						   (int)cache.lastSeparated, (int)pc.state );
		}
	}

	if ( s >= 0 && p.state == PD_STATE_PENETRATING )
	{
		double tol = 1.01e-4 * fmin( da, db );
		bool containment = def.closedAsSolid && pdMesh_GetInfo( a ).closed && pdMesh_GetInfo( b ).closed;
		if ( testCollides( a, poseA, p.translation, b, &poseB, containment, ws ) )
		{
			double len = p.depth > 0.0 ? p.depth : 1.0;
			pdVec3 u = { p.translation.x / len, p.translation.y / len, p.translation.z / len };
			if ( !( p.depth > 0.0 ) )
			{
				u.x = 1.0;
			}
			pdVec3 pushed = { p.translation.x + tol * u.x, p.translation.y + tol * u.y, p.translation.z + tol * u.z };
			TEST_FUZZ_CHECK( !testCollides( a, poseA, pushed, b, &poseB, containment, ws ),
						   "PD %.17g along (%.17g, %.17g, %.17g) does not separate (tol %g, status %d)", p.depth,
						   p.translation.x, p.translation.y, p.translation.z, tol, (int)s );
		}
	}
	else if ( s >= 0 )
	{
		TEST_FUZZ_CHECK( p.depth == 0.0, "not penetrating but depth %g", p.depth );
	}

	pdDestroyWorkspace( ws );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
	return 0;
}
