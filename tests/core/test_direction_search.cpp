// SPDX-License-Identifier: MIT
// The searches around the best answer (direction_search.c): the cone search finds a basin
// beside the local optimum.
#include "penetration_test.h"

// A knot through a knot (about 1,000 triangles each) whose shortest translation, 0.11413 by a
// 2,000-direction oracle, lies in a basin beside the local optimum that the starts and the
// pattern search settle in (0.11603, 1.7% longer): the cone search around the best answer's
// direction finds it (0.11417).
TEST_F( PdPenetration, ConeSearchFindsTheBasinBesideTheLocalOptimum )
{
	Mesh a, b;
	ASSERT_TRUE( smpMakeShapeByName( "knot", 1000, 1.0, &a.soup ) && a.Make() );
	ASSERT_TRUE( smpMakeShapeByName( "knot", 1000, 1.0, &b.soup ) && b.Make() );
	pdTransform pa = Pose( { -0.25809435692650184, 0.20549625067131677, -0.00062318970962668696 },
						   { 0.068803455117938242, -0.83763338518378505, -0.059462359494006835, 0.53860990001372278 } );
	pdTransform pb = Pose( { 0, 0, 0 } );
	pdPenetrationDef off = pdDefaultPenetrationDef();
	pdPenetrationSettings offSettings = pdDefaultPenetrationSettings( PD_QUALITY_ACCURATE );
	off.settings = &offSettings;
	offSettings.coneDirections = 0;
	pdPenetrationResult without = Run( a, pa, b, pb, &off );
	pdPenetrationResult with = Run( a, pa, b, pb );
	ASSERT_EQ( without.state, PD_STATE_PENETRATING );
	ASSERT_EQ( with.state, PD_STATE_PENETRATING );
	EXPECT_TRUE( Valid( a, pa, b, pb, with.translation ) );
	EXPECT_LT( with.depth, 0.99 * without.depth );
	TestOracleResult oracle = testOracleDirectionalPenetration( a.mesh, pa, b.mesh, pb, 2000, true, ws );
	ASSERT_TRUE( oracle.ok );
	printf( "  cone on %.6f, off %.6f, directional oracle (2,000 directions) %.6f\n", with.depth, without.depth,
			oracle.depth );
	EXPECT_LE( with.depth, 1.01 * oracle.depth );
	EXPECT_GT( without.depth, 1.01 * oracle.depth ); // the case needs the cone search
}
