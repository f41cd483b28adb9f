// SPDX-License-Identifier: MIT
// PdPegProbe: a peg wedged in its bore (samples/common/peg_probe.h) through Bullet's collision
// world with the algorithm registered. Oracle: the ideal circles' interference at the rim and
// at the lower end (analytic), plus the facets' sagitta. Each side of the bore gets radial
// normals with its own depth; no manifold pushes the peg along the bore's axis.
#include "peg_probe.h"

#include <gtest/gtest.h>

#include <cmath>

TEST( PdPegProbe, RadialContactsOnBothSidesWithTheirOwnDepths )
{
	smpPegProbe probe;
	ASSERT_TRUE( smpRunPegProbe( { 3.0, 6.0, 10.0, 20.0 }, &probe ) );
	ASSERT_EQ( probe.angles.size(), 4u );
	double sagitta = std::max( probe.boreSagitta, probe.pegSagitta );
	for ( const smpPegProbeAngle& a : probe.angles )
	{
		const smpPegProbeContacts& c = a.polydepth;
		EXPECT_TRUE( c.radialPlus ) << a.degrees << " deg: no radial push on the lower end's side";
		EXPECT_TRUE( c.radialMinus ) << a.degrees << " deg: no radial push on the rim's side";
		EXPECT_FALSE( c.axial ) << a.degrees << " deg: a manifold along the bore's axis";
		// The lower end presses the +x wall (pushed toward -x), the side presses the rim at -x.
		EXPECT_NEAR( c.deepestPlusSide, a.lowerInterference, 0.1 * a.lowerInterference + sagitta )
			<< a.degrees << " deg";
		EXPECT_NEAR( c.deepestMinusSide, a.rimInterference, 0.1 * a.rimInterference + sagitta ) << a.degrees << " deg";
		// The global PD lifts the peg out of the hole, far deeper than either side.
		EXPECT_GT( a.pd, 3.0 * a.rimInterference ) << a.degrees << " deg";
	}
}
