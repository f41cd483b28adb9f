#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The smallest complete Python program: a tetrahedron dipping 0.2 into a unit cube, its
# penetration depth, the translation that separates them and the contact regions.
import sys

import numpy as np

import polydepth

cube_vertices = np.array([[x, y, z] for z in (-0.5, 0.5) for y in (-0.5, 0.5) for x in (-0.5, 0.5)])
cube_faces = np.array([[0, 3, 1], [0, 2, 3], [4, 5, 7], [4, 7, 6], [0, 1, 5], [0, 5, 4],
                       [1, 3, 7], [1, 7, 5], [3, 2, 6], [3, 6, 7], [2, 0, 4], [2, 4, 6]])
tetra_vertices = np.array([[-0.3, -0.3, 0.0], [0.3, -0.3, 0.0], [0.0, 0.3, 0.0], [0.0, 0.0, -0.3]])
tetra_faces = np.array([[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]])

cube = polydepth.Mesh(cube_vertices, cube_faces)      # float64 or float32 (n, 3), integer (m, 3)
tetra = polydepth.Mesh(tetra_vertices, tetra_faces)

pose_tetra = np.eye(4)                                # 4x4 homogeneous matrices, as trimesh uses them
pose_tetra[2, 3] = 0.6                                # the tip at z = 0.3, 0.2 below the cube's top
r = polydepth.penetration(tetra, pose_tetra, cube, np.eye(4))
print("status %s, state %s, depth %.4f" % (r.status.name, r.state.name, r.depth))
print("translate A by", np.round(r.translation, 4))
for i, region in enumerate(r.local):
    print("region %d: normal %s, depth %.4f, %d points" % (i, np.round(region.normal, 3), region.depth,
                                                         len(region.points)))

# The same pose as a quaternion (w, x, y, z) and a translation, and the other queries.
same = polydepth.penetration(tetra, polydepth.Pose((1, 0, 0, 0), (0, 0, 0.6)), cube, np.eye(4))
apart = polydepth.distance(tetra, polydepth.Pose(translation=(0, 0, 1.0)), cube, np.eye(4))
print("distance at z = 1.0: %.4f" % apart.distance)

ok = r.state == polydepth.State.PENETRATING and abs(r.depth - 0.2) < 0.01 and same.depth == r.depth
sys.exit(0 if ok else 1)
