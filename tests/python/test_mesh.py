# SPDX-License-Identifier: MIT
# Mesh creation from numpy arrays, what a mesh reports, pickling, and every kind of bad mesh
# input raising ValueError or TypeError that names the argument and the index.
import pickle

import numpy as np
import pytest

import polydepth
from conftest import CUBE_FACES, CUBE_VERTICES, random_poses, same_penetration, torus_arrays


def test_a_cube_reports_its_geometry(cube):
    assert (cube.vertex_count, cube.triangle_count) == (8, 12)
    assert cube.closed and cube.convex
    assert np.array_equal(cube.vertices, CUBE_VERTICES) and cube.vertices.dtype == np.float64
    assert np.array_equal(cube.faces, CUBE_FACES)
    assert np.array_equal(cube.input_triangles, np.arange(12)) and len(cube.removed_triangles) == 0
    np.testing.assert_array_equal(cube.bounds, [[-0.5] * 3, [0.5] * 3])
    assert cube.memory_bytes > 0
    assert "8 vertices" in repr(cube)


def test_any_integer_dtype_and_lists_are_accepted():
    for dtype in (np.int8, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
        assert polydepth.Mesh(CUBE_VERTICES, CUBE_FACES.astype(dtype)).triangle_count == 12
    assert polydepth.Mesh(CUBE_VERTICES.tolist(), CUBE_FACES.tolist()).triangle_count == 12
    assert polydepth.Mesh((CUBE_VERTICES * 2).astype(int), CUBE_FACES).triangle_count == 12
    assert polydepth.Mesh(np.asfortranarray(CUBE_VERTICES), CUBE_FACES[::1]).triangle_count == 12


def test_degenerate_triangles_are_removed_or_rejected():
    faces = np.vstack([CUBE_FACES, [[0, 0, 1]]])
    mesh = polydepth.Mesh(CUBE_VERTICES, faces)
    assert mesh.triangle_count == 12 and list(mesh.removed_triangles) == [12]
    with pytest.raises(ValueError, match=r"faces\[12\]: triangle 12 is degenerate"):
        polydepth.Mesh(CUBE_VERTICES, faces, reject_degenerate=True)


def test_pickling_round_trip_gives_identical_answers(torus):
    copy = pickle.loads(pickle.dumps(torus))
    assert np.array_equal(copy.vertices, torus.vertices) and np.array_equal(copy.faces, torus.faces)
    rng = np.random.default_rng(17)
    for q, t in random_poses(rng, 6, 0.6):
        assert same_penetration(polydepth.penetration(torus, (q, t), torus, np.eye(4)),
                                polydepth.penetration(copy, (q, t), copy, np.eye(4)))
    single = polydepth.Mesh(torus.vertices.astype(np.float32), torus.faces, clearance_grid_resolution=8)
    copy = pickle.loads(pickle.dumps(single, protocol=pickle.HIGHEST_PROTOCOL))
    q, t = random_poses(rng, 1, 0.5)[0]
    assert same_penetration(polydepth.penetration(single, (q, t), single, np.eye(4)),
                            polydepth.penetration(copy, (q, t), copy, np.eye(4)))
    pose = polydepth.Pose(q, t)
    assert np.array_equal(pickle.loads(pickle.dumps(pose)).matrix(), pose.matrix())


def test_the_mesh_keeps_its_own_copy_of_the_input():
    vertices, faces = CUBE_VERTICES.copy(), CUBE_FACES.copy()
    mesh = polydepth.Mesh(vertices, faces)
    vertices[:] = 7.0
    faces[:] = 0
    copy = pickle.loads(pickle.dumps(mesh))
    assert np.array_equal(copy.vertices, CUBE_VERTICES) and np.array_equal(copy.faces, CUBE_FACES)


@pytest.mark.parametrize("vertices, faces, error, message", [
    (np.zeros((8, 2)), CUBE_FACES, ValueError, r"vertices: expected shape \(n, 3\), got \(8, 2\)"),
    (np.zeros(24), CUBE_FACES, ValueError, r"vertices: expected shape \(n, 3\), got \(24,\)"),
    (CUBE_VERTICES.astype(complex), CUBE_FACES, TypeError, "vertices: expected float32 or float64"),
    (CUBE_VERTICES > 0, CUBE_FACES, TypeError, "vertices: expected float32 or float64"),
    ("cube", CUBE_FACES, TypeError, "vertices: expected float32 or float64"),
    (None, CUBE_FACES, TypeError, "vertices: expected an array"),
    ([[0, 0, 0], [1, 0]], CUBE_FACES, TypeError, "vertices: expected an array"),
    (CUBE_VERTICES, CUBE_FACES.astype(float), TypeError, "faces: expected integer vertex indices, got dtype float64"),
    (CUBE_VERTICES, CUBE_FACES[:, :2], ValueError, r"faces: expected shape \(m, 3\), got \(12, 2\)"),
    (CUBE_VERTICES, {"a": 1}, TypeError, "faces: expected an integer array"),
    (np.zeros((0, 3)), np.zeros((0, 3), int), ValueError, "vertices: mesh has no vertices"),
    (CUBE_VERTICES, np.zeros((0, 3), int), ValueError, "faces: mesh has no triangles"),
    (CUBE_VERTICES, [[0, 0, 1], [2, 2, 3]], ValueError, "faces: all 2 triangles are degenerate"),
])
def test_bad_mesh_input_names_the_argument(vertices, faces, error, message):
    with pytest.raises(error, match=message):
        polydepth.Mesh(vertices, faces)


def test_a_non_finite_vertex_is_named_by_its_index():
    for bad in (np.nan, np.inf, -np.inf):
        vertices = CUBE_VERTICES.copy()
        vertices[5, 1] = bad
        with pytest.raises(ValueError, match=r"vertices\[5\]: vertex 5 has a non-finite coordinate \(y = "):
            polydepth.Mesh(vertices, CUBE_FACES)
        with pytest.raises(ValueError, match=r"vertices\[5\]"):
            polydepth.Mesh(vertices.astype(np.float32), CUBE_FACES)
    vertices = CUBE_VERTICES.copy()
    vertices[2, 0] = 1e300
    with pytest.raises(ValueError, match=r"vertices\[2\]: vertex 2 has a coordinate too large"):
        polydepth.Mesh(vertices, CUBE_FACES)


@pytest.mark.parametrize("bad", [8, 902, -1, 2 ** 32, -(2 ** 40)])
def test_a_face_index_out_of_range_is_named_by_its_triangle(bad):
    faces = CUBE_FACES.copy().astype(np.int64)
    faces[7, 2] = bad
    with pytest.raises(ValueError, match=r"faces\[7\]: triangle 7 references vertex %d of 8" % bad):
        polydepth.Mesh(CUBE_VERTICES, faces)
    if bad >= 0:
        with pytest.raises(ValueError, match=r"faces\[7\]"):
            polydepth.Mesh(CUBE_VERTICES, faces.astype(np.uint64))


@pytest.mark.parametrize("options, error, message", [
    ({"clearance_grid_resolution": 0}, ValueError, "Mesh\\(\\): clearance_grid_resolution 0 is outside"),
    ({"degenerate_area_tolerance": 2.0}, ValueError, "degenerate_area_tolerance must be in"),
    ({"degenerate_area_tolerance": float("nan")}, ValueError, "degenerate_area_tolerance must be in"),
    ({"reject_degenerate": 1}, TypeError, "reject_degenerate: expected a bool, got int"),
    ({"clearance_grid_resolution": 8.0}, TypeError, "clearance_grid_resolution: expected an int, got float"),
    ({"clearance_grid_resolution": 2 ** 40}, ValueError, "clearance_grid_resolution: 1099511627776 is outside"),
    ({"degenerate_area_tolerance": "1e-9"}, TypeError, "degenerate_area_tolerance: expected a number, got str"),
    ({"resolution": 8}, TypeError, "Mesh\\(\\) got an unexpected keyword argument 'resolution'"),
])
def test_bad_mesh_options(options, error, message):
    with pytest.raises(error, match=message):
        polydepth.Mesh(CUBE_VERTICES, CUBE_FACES, **options)


def test_mesh_options_take_numpy_scalars():
    mesh = polydepth.Mesh(CUBE_VERTICES, CUBE_FACES, clearance_grid_resolution=np.int64(8),
                          degenerate_area_tolerance=np.float32(1e-12), reject_degenerate=np.bool_(True))
    assert mesh.triangle_count == 12


def test_a_large_soup_builds():
    vertices, faces = torus_arrays(rings=120, sides=60)
    mesh = polydepth.Mesh(vertices, faces)
    assert mesh.triangle_count == 2 * 120 * 60 and mesh.closed and not mesh.convex
