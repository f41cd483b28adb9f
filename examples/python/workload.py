# SPDX-License-Identifier: MIT
# The workload of the parallel examples: a torus mesh and random poses of it against itself.
import math

import numpy as np

import polydepth


def torus(major=1.0, minor=0.35, rings=48, sides=24):
    """A closed torus around z (rings x sides quads, two triangles each)."""
    u = np.repeat(np.arange(rings) * 2 * math.pi / rings, sides)
    v = np.tile(np.arange(sides) * 2 * math.pi / sides, rings)
    r = major + minor * np.cos(v)
    vertices = np.stack([r * np.cos(u), r * np.sin(u), minor * np.sin(v)], axis=1)
    i, j = np.divmod(np.arange(rings * sides), sides)
    a, b = i * sides + j, (i + 1) % rings * sides + j
    c, d = (i + 1) % rings * sides + (j + 1) % sides, i * sides + (j + 1) % sides
    faces = np.concatenate([np.stack([a, b, c], axis=1), np.stack([a, c, d], axis=1)])
    return polydepth.Mesh(vertices, faces)


def random_poses(count, seed):
    """count 4x4 poses: uniformly random rotations, translations within 0.6 of the origin."""
    rng = np.random.default_rng(seed)
    poses = np.empty((count, 4, 4))
    for k in range(count):
        q = rng.normal(size=4)
        poses[k] = polydepth.Pose(q / np.linalg.norm(q), rng.uniform(-0.6, 0.6, size=3)).matrix()
    return poses


def report(results, reference, where):
    """Prints what the workers answered and whether it equals the reference answers, bit for bit
    (depths and translations); returns the exit code (0 when equal)."""
    same = len(results) == len(reference) and all(
        r.depth == h.depth and np.array_equal(r.translation, h.translation) for r, h in zip(results, reference))
    print("%d queries on %s: %d penetrating, median depth %.4f; the same answers as here: %s"
          % (len(results), where, sum(r.penetrating for r in results), np.median([r.depth for r in results]),
             "yes" if same else "NO"))
    return 0 if same else 1
