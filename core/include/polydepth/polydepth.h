// SPDX-License-Identifier: MIT
//
// PolyDepth: translational penetration depth between polygon-soup triangle meshes.
//
// Overview
//   pdMesh        an immutable, thread-shareable triangle mesh created from your arrays (copied).
//   pdWorkspace   per-thread scratch memory; queries allocate nothing once it has warmed up.
//   pdCollide / pdComputeDistance / pdComputeTranslationalCcd / pdComputeContactFeatures
//                 proximity queries between two posed meshes, each a Def in and a Result out
//                 (pdDefaultXxxDef() gives the defaults; NULL means the defaults too).
//   pdComputePenetration
//                 the smallest translation of A that leaves A and B at most touching, plus the
//                 local PDs (one normal and depth per contact region) projected from it.
//   polydepth/research.h
//                 the search's research settings one by one (starts, directions, pruning), for
//                 benchmarks and tuning; pdPenetrationDef.quality picks a preset of them.
//   Errors are values: every call returns a pdStatus (negative = error, positive = a cap was hit
//   and the answer is still a valid bound); pdGetStatusString() explains it.
//
// Example
//   pdMeshDef def = pdDefaultMeshDef();
//   def.vertices = positions;  def.vertexCount = nv;    // double xyz triplets
//   def.indices = indices;     def.triangleCount = nt;  // uint32 triplets
//   pdMeshReport report;
//   pdMesh* mesh = pdCreateMesh( &def, &report );
//   if ( mesh == NULL ) { fprintf( stderr, "%s\n", report.message ); return 1; }
//
//   pdWorkspace* ws = pdCreateWorkspace( NULL );
//   pdTransform poseA = pdIdentityTransform(), poseB = pdIdentityTransform();
//   poseA.p.x = 0.3;
//   pdPenetrationResult r;
//   pdComputePenetration( mesh, &poseA, mesh, &poseB, NULL, NULL, ws, &r );
//   if ( r.state == PD_STATE_PENETRATING )
//       printf( "move A by (%g %g %g), depth %g\n", r.translation.x, r.translation.y, r.translation.z, r.depth );
//   pdDestroyWorkspace( ws );
//   pdDestroyMesh( mesh );
#pragma once

#include "base.h"
#include "mesh.h"
#include "query.h"
#include "penetration.h"
#include "batch.h"
#include "rounded.h"
