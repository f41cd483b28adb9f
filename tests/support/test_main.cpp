// SPDX-License-Identifier: MIT
// GoogleTest main for the C layers: floating-point traps on (invalid, divide by zero,
// overflow), so an operation that would produce NaN or Inf crashes the test that caused it.
#include <gtest/gtest.h>

#if !defined( POLYDEPTH_TEST_NO_FP_TRAPS ) && defined( __GLIBC__ )
#include <cfenv>
#include <cstdlib>
#endif

int main( int argc, char** argv )
{
	::testing::InitGoogleTest( &argc, argv );
#if !defined( POLYDEPTH_TEST_NO_FP_TRAPS ) && defined( __GLIBC__ )
	if ( std::getenv( "PD_NO_FP_TRAPS" ) == nullptr )
	{
		feenableexcept( FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW );
	}
#endif
	return RUN_ALL_TESTS();
}
