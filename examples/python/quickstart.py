#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The README's first Python lines: a unit cube 0.2 deep in another, its PD and the move that clears it.
import polydepth
box = polydepth.Mesh.box((1, 1, 1))    # or Mesh.from_file("part.stl"), or Mesh(trimesh_mesh)
r = polydepth.penetration(box, polydepth.Pose(translation=(0.8, 0, 0)), box, polydepth.Pose())
print(r.state.name, r.depth, r.translation)    # PENETRATING 0.2000... [0.2000... 0. 0.]: move A by that
