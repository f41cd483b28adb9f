// SPDX-License-Identifier: MIT
// Shared by the PolyDepth query's test files (test_penetration.cpp and the stage files
// test_classify.cpp, test_local_pd.cpp, test_direction_search.cpp, test_in_projection.cpp,
// test_refine.cpp): owned meshes, poses, small vector helpers, the pair's contact tolerance,
// the PdPenetration fixture, which runs a query and checks its answer against the validity
// oracle, and QueryState, the state of one query for the tests of a single stage.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "oracle.h"

extern "C" {
#include "penetration_query.h"
#include "proximity.h"
#include "repro_io.h"
#include "shapes.h"
}

namespace penetration_test
{


struct Mesh
{
	smpSoup soup = {};
	pdMesh* mesh = nullptr;
	~Mesh()
	{
		pdDestroyMesh( mesh );
		smpFreeSoup( &soup );
	}
	bool Make()
	{
		pdMeshReport report;
		mesh = smpSoupCreateMesh( &soup, &report );
		return mesh != nullptr;
	}
};

inline pdTransform Pose( pdVec3 p, pdQuat q = { 1, 0, 0, 0 } )
{
	pdTransform t;
	double n = std::sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
	t.q = { q.w / n, q.x / n, q.y / n, q.z / n };
	t.p = p;
	return t;
}

inline pdQuat RandomQuat( std::mt19937& rng )
{
	std::normal_distribution<double> g( 0.0, 1.0 );
	pdQuat q = { g( rng ), g( rng ), g( rng ), g( rng ) };
	double n = std::sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
	return { q.w / n, q.x / n, q.y / n, q.z / n };
}

inline pdVec3 Add( pdVec3 a, pdVec3 b )
{
	return { a.x + b.x, a.y + b.y, a.z + b.z };
}
inline pdVec3 Scale( pdVec3 a, double s )
{
	return { a.x * s, a.y * s, a.z * s };
}
inline double Length( pdVec3 a )
{
	return std::sqrt( a.x * a.x + a.y * a.y + a.z * a.z );
}
inline pdVec3 Sub( pdVec3 a, pdVec3 b )
{
	return { a.x - b.x, a.y - b.y, a.z - b.z };
}

inline double Dot( pdVec3 a, pdVec3 b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

// Rotate v by unit q.
inline pdVec3 Rotate( pdQuat q, pdVec3 v )
{
	pdVec3 u = { q.x, q.y, q.z };
	auto cross = []( pdVec3 a, pdVec3 b ) {
		return pdVec3{ a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
	};
	pdVec3 t = Scale( cross( u, v ), 2.0 );
	return Add( Add( v, Scale( t, q.w ) ), cross( u, t ) );
}
inline pdQuat Mul( pdQuat a, pdQuat b )
{
	return { a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
			 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w };
}

inline double Tolerance( const pdMesh* a, const pdMesh* b )
{
	pdVec3 lo = pdMesh_GetInfo( a ).boundsMin, hi = pdMesh_GetInfo( a ).boundsMax;
	double da = Length( { hi.x - lo.x, hi.y - lo.y, hi.z - lo.z } );
	lo = pdMesh_GetInfo( b ).boundsMin;
	hi = pdMesh_GetInfo( b ).boundsMax;
	double db = Length( { hi.x - lo.x, hi.y - lo.y, hi.z - lo.z } );
	return 1e-4 * std::min( da, db );
}

class PdPenetration : public ::testing::Test
{
protected:
	void SetUp() override
	{
		ws = pdCreateWorkspace( NULL );
		ASSERT_NE( ws, nullptr );
	}
	void TearDown() override { pdDestroyWorkspace( ws ); }

	pdPenetrationResult Run( const Mesh& a, const pdTransform& pa, const Mesh& b, const pdTransform& pb,
							 const pdPenetrationDef* def = nullptr, pdPenetrationCache* cache = nullptr )
	{
		pdPenetrationResult r;
		pdStatus s = pdComputePenetration( a.mesh, &pa, b.mesh, &pb, def, cache, ws, &r );
		EXPECT_GE( s, 0 ) << pdGetStatusString( s );
		EXPECT_EQ( s, r.status );
		EXPECT_TRUE( std::isfinite( r.depth ) && std::isfinite( r.translation.x ) && std::isfinite( r.translation.y ) &&
					 std::isfinite( r.translation.z ) );
		return r;
	}
	bool Valid( const Mesh& a, const pdTransform& pa, const Mesh& b, const pdTransform& pb, pdVec3 t )
	{
		return testOracleIsValidAnswer( a.mesh, pa, b.mesh, pb, t, Tolerance( a.mesh, b.mesh ),
									  pdMesh_GetInfo( a.mesh ).closed && pdMesh_GetInfo( b.mesh ).closed, ws );
	}

	pdWorkspace* ws = nullptr;
};

// The default settings with the convex exact path off (one shared copy: the defs point at it).
inline const pdPenetrationSettings* NoExactPathSettings()
{
	static const pdPenetrationSettings settings = [] {
		pdPenetrationSettings s = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
		s.useConvexExactPath = false;
		return s;
	}();
	return &settings;
}

inline pdPenetrationDef NoExactPath()
{
	pdPenetrationDef def = pdDefaultPenetrationDef();
	def.settings = NoExactPathSettings();
	return def;
}

// The state of one PolyDepth query set up as pdComputePenetration sets it up (frames, unit
// rotations, containment, scale, tolerance, no time budget, the feature, plane and multiplier
// scratch in the workspace), for driving one stage (pdiQuery_BuildPlanes, pdiQuery_Refine) by
// hand. Holds a pointer to its own def: not copyable.
struct QueryState
{
	pdiPenetrationOptions def; ///< the default def's options; change them before Begin
	pdiPdQuery q;

	QueryState()
	{
		std::memset( &q, 0, sizeof( q ) );
		pdiResolvePenetrationDef( nullptr, &def );
	}
	QueryState( const QueryState& ) = delete;
	QueryState& operator=( const QueryState& ) = delete;

	// Change def before Begin.
	bool Begin( const pdMesh* a, const pdTransform& pa, const pdMesh* b, const pdTransform& pb, pdWorkspace* ws )
	{
		std::memset( &q, 0, sizeof( q ) );
		return pdiQuery_Begin( &q, a, &pa, b, &pb, &def, ws, 0.0 ) == PD_STATUS_OK;
	}

	// xc (A at most touching) as a start leaves it for pdiQuery_Refine: its features in the
	// current slot and xc offered as the bound.
	bool StartAt( pdVec3 xc )
	{
		if ( !pdiQuery_GatherFeatures( &q, xc ) )
		{
			return false;
		}
		pdiQuery_Accept( &q );
		pdiQuery_Offer( &q, xc, 0, -1.0 );
		return true;
	}

	// A start from the free translation `from`: its out-projection toward o, made current and
	// offered. False when the sweep found no contact.
	bool StartFrom( pdVec3 from, pdVec3* outContact )
	{
		if ( !pdiQuery_OutProject( &q, from, { 0.0, 0.0, 0.0 }, outContact ) )
		{
			return false;
		}
		pdiQuery_Accept( &q );
		pdiQuery_Offer( &q, *outContact, 0, -1.0 );
		return true;
	}
};


} // namespace penetration_test

using namespace penetration_test;
