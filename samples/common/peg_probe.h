// SPDX-License-Identifier: MIT
// The peg probe: the contacts of one peg wedged in its bore, as Bullet receives them. A peg
// (closed cylinder, radius 0.04 / 1.01 m, 48 segments, 0.25 m) stands 3 cm deep in the 4 cm hole
// of a block (0.3 x 0.2 x 0.3 m, static triangle mesh), tilted by a about z about its lower end
// and shifted by 0.015 tan(a) in x, so that its lower end presses the bore on one side and its
// side presses the rim on the other. For each angle one
// btCollisionWorld::performDiscreteCollisionDetection with the PolyDepth algorithm registered
// (and, for reference, with Bullet's GImpact alone) and every manifold it leaves. Beside them the
// interference the geometry implies (ideal circles, analytic) and the library's global PD. Used
// by `polydepth-bench peg-probe` (figures) and the shim tests (assertions).
#pragma once

#include "polydepth/polydepth.h"

#include <LinearMath/btVector3.h>

#include <vector>

struct smpPegProbeManifold
{
	btVector3 normal;              ///< on the block toward the peg (the push on the peg), unit
	std::vector<double> depths;    ///< Bullet's distances (< 0: penetration), m
	std::vector<btVector3> points; ///< on the block, world
};

struct smpPegProbeContacts
{
	std::vector<smpPegProbeManifold> manifolds;
	/// A radial normal (horizontal, or tilted by at most the peg's tilt where the peg's side meets
	/// the rim's edge) pushing the peg toward -x (the lower end's side) / toward +x (the rim's).
	bool radialPlus = false, radialMinus = false;
	double deepestPlusSide = 0.0;  ///< deepest point among the radial normals toward -x, m
	double deepestMinusSide = 0.0; ///< deepest point among the radial normals toward +x, m
	bool axial = false;            ///< a normal within 45 degrees of the bore's axis
	double deepest = 0.0;          ///< the deepest point, m (>= 0)
};

struct smpPegProbeAngle
{
	double degrees = 0.0, shift = 0.0;
	/// Ideal circles, m (> 0: overlap): at the rim (-x side), at the lower end (+x side).
	double rimInterference = 0.0, lowerInterference = 0.0;
	double pd = 0.0; ///< the library's global PD of the pair, m
	pdVec3 pdDirection{ 0.0, 0.0, 0.0 };
	smpPegProbeContacts polydepth, gimpact;
};

struct smpPegProbe
{
	double boreRadius = 0.0, pegRadius = 0.0;
	double boreSagitta = 0.0, pegSagitta = 0.0; ///< how far a tessellated wall lies inside its circle, m
	std::vector<smpPegProbeAngle> angles;
};

/// Runs the probe at each tilt (degrees). False when the meshes cannot be built or the
/// algorithm cannot be registered.
bool smpRunPegProbe( const std::vector<double>& degrees, smpPegProbe* out );
