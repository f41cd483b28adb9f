# SPDX-License-Identifier: MIT
# Bad query input: every case raises ValueError or TypeError naming the argument (and the index
# inside it), never a crash; then a sweep of junk through every argument of every function.
import itertools

import numpy as np
import pytest

import polydepth
from conftest import translation

ROTATION_Z90 = np.array([[0.0, -1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])


def scaled(s):
    m = np.eye(4)
    m[:3, :3] *= s
    return m


def with_element(i, j, value):
    m = np.eye(4)
    m[i, j] = value
    return m


@pytest.mark.parametrize("pose, error, message", [
    (np.eye(3), ValueError, r"pose_a: expected a 4x4 homogeneous matrix, got shape \(3, 3\)"),
    (np.eye(4)[None], ValueError, r"pose_a: expected a 4x4 homogeneous matrix, got shape \(1, 4, 4\)"),
    (with_element(1, 2, np.nan), ValueError, r"pose_a: element \[1, 2\] is not finite \(nan\)"),
    (with_element(0, 3, np.inf), ValueError, r"pose_a: element \[0, 3\] is not finite \(inf\)"),
    (with_element(3, 0, 0.5), ValueError, r"pose_a: the last row must be \[0, 0, 0, 1\]"),
    (scaled(2.0), ValueError, "pose_a: the upper-left 3x3 block is not a rotation"),
    (with_element(0, 1, 0.3), ValueError, "pose_a: the upper-left 3x3 block is not a rotation"),
    (np.diag([1.0, 1.0, -1.0, 1.0]), ValueError, "pose_a: the upper-left 3x3 block is a reflection"),
    (with_element(2, 3, 1e200), ValueError, "pose_a: translation component 2 is beyond 1e100"),
    (np.eye(4).astype(str), TypeError, "pose_a: expected a 4x4 matrix of numbers"),
    ("identity", TypeError, "pose_a: expected a 4x4 matrix of numbers"),
    (None, TypeError, "pose_a: expected a 4x4 matrix, a polydepth.Pose or a"),
    (((1, 0, 0, 0.5), (0, 0, 0)), ValueError, r"pose_a: the quaternion \(w, x, y, z\) is not unit length"),
    (((1, 0, 0, np.nan), (0, 0, 0)), ValueError, "pose_a: quaternion component 3 is not finite"),
    (((1, 0, 0, 0), (0, np.nan, 0)), ValueError, "pose_a: translation component 1 is not finite"),
    (((1, 0, 0, 0), ("a", 0, 0)), TypeError, "pose_a: expected a translation"),
])
def test_bad_pose_names_the_argument(cube, pose, error, message):
    for query in (polydepth.penetration, polydepth.distance, polydepth.collide):
        with pytest.raises(error, match=message):
            query(cube, pose, cube, np.eye(4))
    with pytest.raises(error, match=message.replace("pose_a", "pose_b")):
        polydepth.penetration(cube, np.eye(4), cube, pose)


def test_slightly_non_orthonormal_float32_rotations_are_accepted(cube):
    r = polydepth.penetration(cube, ROTATION_Z90.astype(np.float32), cube, translation(0.9, 0, 0))
    assert r.penetrating


def test_bad_pose_object():
    with pytest.raises(ValueError, match="Pose: the quaternion"):
        polydepth.Pose((2, 0, 0, 0), (0, 0, 0))
    with pytest.raises(ValueError, match=r"Pose: expected a quaternion \(w, x, y, z\), got shape \(3,\)"):
        polydepth.Pose((1, 0, 0), (0, 0, 0))
    with pytest.raises(ValueError, match="matrix: the upper-left 3x3 block is not a rotation"):
        polydepth.Pose.from_matrix(scaled(3.0))


def test_bad_mesh_arguments(cube):
    with pytest.raises(TypeError, match="a: expected a polydepth.Mesh, got list"):
        polydepth.penetration([], np.eye(4), cube, np.eye(4))
    with pytest.raises(TypeError, match="b: expected a polydepth.Mesh, got NoneType"):
        polydepth.distance(cube, np.eye(4), None, np.eye(4))
    with pytest.raises(TypeError, match=r"a\[1\]: expected a polydepth.Mesh, got int"):
        polydepth.penetration_batch([cube, 3], np.eye(4), cube, np.eye(4))
    with pytest.raises(TypeError, match="b: expected a polydepth.Mesh or a sequence of them, got float"):
        polydepth.penetration_batch(cube, np.eye(4), 1.5, np.eye(4))


def test_bad_end_position(cube):
    with pytest.raises(ValueError, match=r"end_position_a: expected a 3-vector, got shape \(2,\)"):
        polydepth.ccd(cube, np.eye(4), cube, np.eye(4), [1, 2])
    with pytest.raises(ValueError, match="end_position_a: component 0 is not finite"):
        polydepth.ccd(cube, np.eye(4), cube, np.eye(4), [np.nan, 0, 0])


@pytest.mark.parametrize("function, options, error, message", [
    ("penetration", {"max_iteration": 3}, TypeError, "penetration\\(\\) got an unexpected keyword argument 'max_iteration'"),
    ("penetration", {"max_starts": 0}, ValueError, "penetration\\(\\): max_starts=0 is out of range"),
    ("penetration", {"random_directions": 5000}, ValueError, "random_directions=5000 is out of range"),
    ("penetration", {"time_budget_ms": -1.0}, ValueError, "time_budget_ms=-1.0 is out of range"),
    ("penetration", {"contact_tolerance": float("nan")}, ValueError, "contact_tolerance=nan is out of range"),
    ("penetration", {"start_strategies": 1 << 10}, ValueError, "start_strategies=1024 is out of range"),
    ("penetration", {"start_strategies": -1}, ValueError, "start_strategies: -1 is outside \\[0, 4294967295\\]"),
    ("penetration", {"max_starts": "3"}, TypeError, "max_starts: expected an int, got str"),
    ("penetration", {"max_starts": 3.0}, TypeError, "max_starts: expected an int, got float"),
    ("penetration", {"max_starts": True}, TypeError, "max_starts: expected an int, got bool"),
    ("penetration", {"line_refinement": "yes"}, TypeError, "line_refinement: expected a bool, got str"),
    ("penetration", {"contact_tolerance": 1j}, TypeError, "contact_tolerance: expected a number, got complex"),
    ("distance", {"max_node_visits": 0}, ValueError, "distance\\(\\): max_node_visits=0 is out of range"),
    ("distance", {"upper_bound": float("nan")}, ValueError, "upper_bound=nan is out of range"),
    ("distance", {"tolerance": 1.0}, TypeError, "distance\\(\\) got an unexpected keyword argument 'tolerance'"),
    ("collide", {"max_pairs": -1}, ValueError, "collide\\(\\): max_pairs=-1 is out of range"),
    ("penetration_batch", {"max_starts": 0}, ValueError, "penetration\\(\\): max_starts=0 is out of range"),
    ("penetration_batch", {"threads": 0}, ValueError, "threads: must be at least 1, got 0"),
    ("penetration_batch", {"threads": 2.0}, TypeError, "threads: expected an int or None, got float"),
    ("distance_batch", {"max_node_visits": -5}, ValueError, "distance\\(\\): max_node_visits=-5 is out of range"),
])
def test_bad_options(cube, function, options, error, message):
    with pytest.raises(error, match=message):
        getattr(polydepth, function)(cube, np.eye(4), cube, np.eye(4), **options)


def test_bad_ccd_options(cube):
    with pytest.raises(ValueError, match="ccd\\(\\): max_features=-1 is out of range"):
        polydepth.ccd(cube, np.eye(4), cube, np.eye(4), [1, 0, 0], max_features=-1)


def test_bad_batch_poses_name_the_index(cube):
    poses = np.stack([np.eye(4)] * 5)
    poses[3, 0, 0] = np.nan
    with pytest.raises(ValueError, match=r"poses_a\[3\]: element \[0, 0\] is not finite"):
        polydepth.penetration_batch(cube, poses, cube, np.eye(4))
    poses = np.stack([np.eye(4)] * 5)
    poses[4] = scaled(1.5)
    with pytest.raises(ValueError, match=r"poses_b\[4\]: the upper-left 3x3 block is not a rotation"):
        polydepth.distance_batch(cube, np.eye(4), cube, poses)
    with pytest.raises(ValueError, match=r"poses_b\[1\]: the quaternion"):
        polydepth.penetration_batch(cube, np.eye(4), cube, [((1, 0, 0, 0), (0, 0, 0)), ((3, 0, 0, 0), (0, 0, 0))])
    with pytest.raises(ValueError, match=r"poses_a: expected shape \(k, 4, 4\) or \(4, 4\), got \(5, 3, 3\)"):
        polydepth.penetration_batch(cube, np.zeros((5, 3, 3)), cube, np.eye(4))
    with pytest.raises(ValueError, match="poses_b: 3 items, but poses_a has 5"):
        polydepth.penetration_batch(cube, np.stack([np.eye(4)] * 5), cube, np.stack([np.eye(4)] * 3))
    with pytest.raises(ValueError, match="poses_a: 5 items, but a has 2"):
        polydepth.penetration_batch([cube, cube], np.stack([np.eye(4)] * 5), cube, np.eye(4))


JUNK = [None, 0, -1, 1.5, np.nan, "x", b"x", [], [1], [[1, 2, 3]], {}, object(), np.zeros(0), np.zeros((2, 2, 2, 2)),
        np.full((4, 4), np.nan), np.array([["a"] * 4] * 4), (1, 2), ((1, 2, 3, 4), (1, 2)), np.eye(4) * -1,
        np.ones((3, 3)), np.ones((4, 4), dtype=np.complex128), 2 ** 70]


def test_junk_in_every_argument_raises_value_or_type_error(cube):
    good = {"a": cube, "pose_a": np.eye(4), "b": cube, "pose_b": translation(0.5, 0, 0)}
    calls = [(polydepth.penetration, good), (polydepth.distance, good), (polydepth.collide, good),
             (polydepth.ccd, dict(good, end_position_a=[1, 0, 0])),
             (polydepth.penetration_batch, {"a": cube, "poses_a": np.eye(4), "b": cube, "poses_b": np.eye(4)}),
             (polydepth.distance_batch, {"a": cube, "poses_a": np.eye(4), "b": cube, "poses_b": np.eye(4)}),
             (polydepth.Mesh, {"vertices": np.eye(3), "faces": [[0, 1, 2]]})]
    checked = 0
    for (function, arguments), junk in itertools.product(calls, JUNK):
        for name in arguments:
            bad = dict(arguments, **{name: junk})
            try:
                function(**bad)
            except (ValueError, TypeError) as e:
                assert str(e), (function, name, junk)
                checked += 1
    assert checked > 300
    for junk in JUNK:
        for option in ("max_starts", "contact_tolerance", "line_refinement", "start_strategies"):
            try:
                polydepth.penetration(cube, np.eye(4), cube, np.eye(4), **{option: junk})
            except (ValueError, TypeError) as e:
                assert option in str(e)
