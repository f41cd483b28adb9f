// SPDX-License-Identifier: MIT
// A random pose drawn axis-angle from std::mt19937, for the runs whose queries come from a
// seed (the thread and soak runs, among others): their results depend on these exact draws, in
// this order.
#pragma once

#include <cmath>
#include <random>

extern "C"
{
#include "polydepth/polydepth.h"
}

namespace polydepth::test
{

/// Rotation about an axis uniform in [-1, 1]^3 (normalised; axisGuard is added to its length so
/// that a zero axis stays finite) by an angle uniform in [-maxAngle, maxAngle], then a
/// translation uniform in [-spread, spread]^3.
inline pdTransform RandomAxisAnglePose( std::mt19937& rng, double spread, double maxAngle, double axisGuard )
{
	std::uniform_real_distribution<double> u( -1.0, 1.0 );
	double ax = u( rng ), ay = u( rng ), az = u( rng );
	double len = std::sqrt( ax * ax + ay * ay + az * az ) + axisGuard;
	double angle = maxAngle * u( rng );
	double s = std::sin( 0.5 * angle ) / len;
	pdTransform t;
	t.q = { std::cos( 0.5 * angle ), s * ax, s * ay, s * az };
	t.p = { spread * u( rng ), spread * u( rng ), spread * u( rng ) };
	return t;
}

} // namespace polydepth::test
