# SPDX-License-Identifier: MIT
# Shapes and functions shared by the Python tests. The tests generate their own meshes; ctest runs
# each file with PYTHONPATH at the built package (POLYDEPTH_CLI: the polydepth tool, for the C
# answers to compare with; POLYDEPTH_BUILD_DIR: the build tree, for the install test).
import math

import numpy as np
import pytest

import polydepth

# A unit cube centred on its origin, triangles wound counter-clockwise seen from outside.
CUBE_VERTICES = np.array(
    [[-0.5, -0.5, -0.5], [0.5, -0.5, -0.5], [0.5, 0.5, -0.5], [-0.5, 0.5, -0.5],
     [-0.5, -0.5, 0.5], [0.5, -0.5, 0.5], [0.5, 0.5, 0.5], [-0.5, 0.5, 0.5]])
CUBE_FACES = np.array(
    [[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
     [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]])


def torus_arrays(major=1.0, minor=0.35, rings=24, sides=12):
    """A closed torus around z: (vertices, faces), rings x sides quads split in two."""
    u = np.repeat(np.arange(rings) * 2 * math.pi / rings, sides)
    v = np.tile(np.arange(sides) * 2 * math.pi / sides, rings)
    vertices = np.stack([(major + minor * np.cos(v)) * np.cos(u), (major + minor * np.cos(v)) * np.sin(u),
                         minor * np.sin(v)], axis=1)
    faces = []
    for i in range(rings):
        for j in range(sides):
            a, b = i * sides + j, ((i + 1) % rings) * sides + j
            c, d = ((i + 1) % rings) * sides + (j + 1) % sides, i * sides + (j + 1) % sides
            faces += [[a, b, c], [a, c, d]]
    return vertices, np.array(faces)


def random_quaternion(rng):
    """A uniformly random unit quaternion (w, x, y, z)."""
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def quaternion_matrix(q, t):
    """The 4x4 homogeneous matrix of quaternion q (w, x, y, z) and translation t."""
    w, x, y, z = q / np.linalg.norm(q)
    m = np.eye(4)
    m[:3, :3] = [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                 [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                 [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
    m[:3, 3] = t
    return m


def translation(x, y, z):
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


def random_poses(rng, count, spread):
    """count random (quaternion, translation) pairs with translations in [-spread, spread]^3."""
    return [(random_quaternion(rng), rng.uniform(-spread, spread, size=3)) for _ in range(count)]


def same_penetration(x, y):
    """Two PenetrationResults with the same answer, bit for bit (the wall time aside)."""
    if (x.status, x.state, x.iterations, x.starts, x.tracked, x.contacts, x.node_visits) != \
            (y.status, y.state, y.iterations, y.starts, y.tracked, y.contacts, y.node_visits):
        return False
    if x.depth != y.depth or not np.array_equal(x.translation, y.translation) or len(x.local) != len(y.local):
        return False
    return all(a.depth == b.depth and np.array_equal(a.normal, b.normal) and np.array_equal(a.points, b.points)
               and np.array_equal(a.translation, b.translation) for a, b in zip(x.local, y.local))


@pytest.fixture(scope="module")
def cube():
    return polydepth.Mesh(CUBE_VERTICES, CUBE_FACES)


@pytest.fixture(scope="module")
def torus():
    return polydepth.Mesh(*torus_arrays())
