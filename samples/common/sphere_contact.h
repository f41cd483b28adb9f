// SPDX-License-Identifier: MIT
// The exact-sphere peer's contacts (SMP_SCENE_ALGO_EXACT): two btSphereShapes within a reach of
// each other get one contact point at their exact gap, the ideal speculative contact. Bullet's
// own sphere-sphere algorithm reports touching pairs only, so a pair closing faster than it
// touches gets no constraint before it overlaps; this one is a peer for what perfect contacts do
// in a scene of spheres under Bullet's solver, not a product algorithm.
#pragma once

#include <memory>

class btCollisionDispatcher;
struct btCollisionAlgorithmCreateFunc;

/// Registers the ideal sphere-sphere contacts for SPHERE_SHAPE_PROXYTYPE pairs on the dispatcher:
/// every pair whose surfaces lie within reach (m, > 0) gets one point, normal along the centres,
/// at the surfaces' signed gap. The dispatcher keeps a pointer to the returned create function:
/// the caller keeps it until the dispatcher is gone.
std::unique_ptr<btCollisionAlgorithmCreateFunc> smpRegisterExactSpheres( btCollisionDispatcher* dispatcher,
																		 double reach );

/// The gap and normal the exact-sphere contact reports for centres a and b (radii ra and rb):
/// |a - b| - ra - rb, normal (a - b) / |a - b| into *normal (x axis for coincident centres).
double smpExactSphereGap( const double a[3], double ra, const double b[3], double rb, double normal[3] );
