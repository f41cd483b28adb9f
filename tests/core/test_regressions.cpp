// SPDX-License-Identifier: MIT
// Regression tests: one per bug found by the robustness tests, the fuzzers or the soak, named
// after what broke, with the failing input pasted verbatim. Each query runs with the
// floating-point traps masked and the sticky flags checked afterwards, so a regression fails
// the test with a message instead of killing the process with SIGFPE.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

extern "C"
{
#include "polydepth/polydepth.h"
#include "shapes.h"
}

namespace
{

// Masks the traps the test main enabled, clears the flags, and reports what was raised.
class FpFlagScope
{
public:
	FpFlagScope()
	{
#if defined( __GLIBC__ )
		m_traps = fegetexcept();
		fedisableexcept( FE_ALL_EXCEPT );
#endif
		std::feclearexcept( FE_ALL_EXCEPT );
	}
	~FpFlagScope()
	{
		std::feclearexcept( FE_ALL_EXCEPT );
#if defined( __GLIBC__ )
		feenableexcept( m_traps );
#endif
	}
	// "" when no invalid, divide-by-zero or overflow happened since construction.
	std::string Raised() const
	{
		std::string s;
		if ( std::fetestexcept( FE_INVALID ) )
		{
			s += "FE_INVALID ";
		}
		if ( std::fetestexcept( FE_DIVBYZERO ) )
		{
			s += "FE_DIVBYZERO ";
		}
		if ( std::fetestexcept( FE_OVERFLOW ) )
		{
			s += "FE_OVERFLOW ";
		}
		return s;
	}

private:
	int m_traps = 0;
};

pdMesh* MakeBox( double half )
{
	smpSoup s = {};
	EXPECT_TRUE( smpMakeBox( { half, half, half }, 1, &s ) );
	pdMesh* mesh = smpSoupCreateMesh( &s, nullptr );
	smpFreeSoup( &s );
	EXPECT_NE( mesh, nullptr );
	return mesh;
}

bool Finite( pdVec3 v )
{
	return std::isfinite( v.x ) && std::isfinite( v.y ) && std::isfinite( v.z );
}

// Found by PdRobustness (bad poses): a finite but huge translation (1e308) passes pose
// validation, and the distance query then overflows in pdiBvh_PairLowerBound (bvh.h:143,
// t[0]*t[0] + ...), which traps (SIGFPE) under the test main's FE_OVERFLOW trap. Expected:
// PD_STATUS_INVALID_POSE (a pose that cannot be squared in double is not a usable pose), or
// a finite answer with no floating-point exception. Each query is checked separately.
// History: failed on 2026-12-01 21:20 (distance, CCD and PD raised FE_OVERFLOW/FE_INVALID
// for |p| >= 1e160, pdCollide was clean); passes since the core change that landed by 22:35.
TEST( PdRegression, HugeFinitePoseOverflows )
{
	pdMesh* a = MakeBox( 1.0 );
	pdMesh* b = MakeBox( 1.0 );
	pdWorkspace* ws = pdCreateWorkspace( NULL );
	pdTransform good = pdIdentityTransform();
	for ( double x : { 1e308, -1e300, 1e200, 1e160 } )
	{
		pdTransform huge = pdIdentityTransform();
		huge.p.x = x;
		char label[64];
		std::snprintf( label, sizeof( label ), "poseA.p.x = %g", x );
		SCOPED_TRACE( label );
		{
			FpFlagScope fp;
			pdCollideResult r;
			pdStatus s = pdCollide( a, &huge, b, &good, nullptr, ws, &r );
			EXPECT_EQ( fp.Raised(), "" ) << "pdCollide, status " << pdGetStatusString( s );
			EXPECT_TRUE( s == PD_STATUS_INVALID_POSE || ( s >= 0 && !r.colliding ) ) << pdGetStatusString( s );
		}
		{
			FpFlagScope fp;
			pdDistanceResult r;
			pdStatus s = pdComputeDistance( a, &huge, b, &good, nullptr, ws, &r );
			EXPECT_EQ( fp.Raised(), "" ) << "pdComputeDistance, status " << pdGetStatusString( s );
			EXPECT_TRUE( std::isfinite( r.distance ) && Finite( r.pointA ) && Finite( r.pointB ) );
		}
		{
			FpFlagScope fp;
			pdCcdResult r;
			pdStatus s = pdComputeTranslationalCcd( a, &huge, { 0, 0, 0 }, b, &good, nullptr, ws, &r );
			EXPECT_EQ( fp.Raised(), "" ) << "pdComputeTranslationalCcd, status " << pdGetStatusString( s );
			EXPECT_TRUE( std::isfinite( r.toc ) && Finite( r.contactPosition ) );
		}
		{
			FpFlagScope fp;
			pdPenetrationResult r;
			pdStatus s = pdComputePenetration( a, &huge, b, &good, nullptr, nullptr, ws, &r );
			EXPECT_EQ( fp.Raised(), "" ) << "pdComputePenetration, status " << pdGetStatusString( s );
			EXPECT_TRUE( std::isfinite( r.depth ) && Finite( r.translation ) );
		}
	}
	pdDestroyWorkspace( ws );
	pdDestroyMesh( a );
	pdDestroyMesh( b );
}

} // namespace
