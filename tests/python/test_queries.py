# SPDX-License-Identifier: MIT
# The single queries against analytic answers and against the C library's own answers (the
# polydepth tool's JSON, bit for bit); 4x4 matrices and quaternions agree; float32 input gives
# the float64 answers.
import json
import os
import subprocess

import numpy as np
import pytest

import polydepth
from conftest import CUBE_FACES, CUBE_VERTICES, quaternion_matrix, random_poses, torus_arrays, translation


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_cubes_overlapping_by_0_2_have_depth_0_2_along_the_axis(cube, axis, sign):
    offset = np.zeros(3)
    offset[axis] = sign * 0.8
    r = polydepth.penetration(cube, translation(*offset), cube, np.eye(4))
    tolerance = 1e-4 * np.sqrt(3.0)  # the default contact tolerance: 1e-4 of the diagonal
    assert r.status == polydepth.Status.OK and r.status.ok
    assert r.state == polydepth.State.PENETRATING and r.penetrating
    assert abs(r.depth - 0.2) <= tolerance
    # The cubes' central inner balls (radius 0.5 less the clearance grid's step, centres 0.8
    # apart) overlap by nearly the exact 0.2: a certified bound, never above it.
    assert 0.19 < r.lower_bound <= 0.2
    expected = np.zeros(3)
    expected[axis] = sign * r.depth
    np.testing.assert_allclose(r.translation, expected, atol=1e-12)
    assert len(r.local) == 1
    region = r.local[0]
    np.testing.assert_allclose(region.normal, expected / r.depth, atol=1e-12)
    assert region.depth == pytest.approx(r.depth)
    assert region.points.shape[1] == 3 and 1 <= region.points.shape[0] <= 8
    # The points lie on B's face the region pushes A off.
    np.testing.assert_allclose(region.points[:, axis], sign * 0.5, atol=1e-9)


def test_separated_cubes_are_separated_with_depth_zero(cube):
    r = polydepth.penetration(cube, translation(1.5, 0, 0), cube, np.eye(4))
    assert r.state == polydepth.State.SEPARATED and r.depth == 0.0 and not r.local
    assert r.lower_bound == 0.0
    assert np.array_equal(r.translation, np.zeros(3))


def test_distance_collide_and_ccd_of_cubes(cube):
    d = polydepth.distance(cube, translation(1.75, 0, 0), cube, np.eye(4))
    assert d.status == polydepth.Status.OK
    assert d.distance == pytest.approx(0.75, abs=1e-12)
    assert d.point_a[0] == pytest.approx(1.25) and d.point_b[0] == pytest.approx(0.5)
    assert isinstance(d.feature_a.type, polydepth.FeatureType) and d.feature_a.triangle >= 0

    assert not polydepth.collide(cube, translation(1.75, 0, 0), cube, np.eye(4))
    c = polydepth.collide(cube, translation(0.9, 0.1, 0), cube, np.eye(4), report_all_pairs=True)
    assert c.colliding and not c.containment and c.pairs.shape[1] == 2 and len(c.pairs) > 0
    inside = polydepth.Mesh(CUBE_VERTICES * 0.25, CUBE_FACES)
    assert polydepth.collide(inside, np.eye(4), cube, np.eye(4)).containment
    assert not polydepth.collide(inside, np.eye(4), cube, np.eye(4), check_containment=False)

    s = polydepth.ccd(cube, translation(3, 0, 0), cube, np.eye(4), [0, 0, 0])
    assert s.hit and not s.start_colliding
    assert s.toc == pytest.approx(2.0 / 3.0, abs=1e-3)  # A's face reaches B's at x = 1
    assert s.contact_position[0] == pytest.approx(1.0, abs=3e-3)
    assert s.features and all(f.normal[0] == pytest.approx(1.0) for f in s.features)
    assert isinstance(s.features[0].kind, polydepth.ContactKind)
    miss = polydepth.ccd(cube, translation(3, 0, 0), cube, np.eye(4), [3, 5, 0])
    assert not miss.hit and miss.toc == 1.0


def test_options_are_keywords_with_the_library_defaults(cube):
    defaults = polydepth.defaults("penetration")
    assert defaults["max_starts"] == 12 and defaults["max_iterations"] == 30 and defaults["random_directions"] == 512
    assert defaults["quality"] == polydepth.QUALITY_ACCURATE and defaults["start_strategies"] == polydepth.START_ALL
    assert defaults["max_tracked_queries"] == 8
    pose = translation(0.8, 0, 0)
    base = polydepth.penetration(cube, pose, cube, np.eye(4))
    same = polydepth.penetration(cube, pose, cube, np.eye(4), **defaults)
    assert same.depth == base.depth and np.array_equal(same.translation, base.translation)
    # The fast preset: its settings unless given one by one.
    fast = polydepth.penetration(cube, pose, cube, np.eye(4), quality=polydepth.QUALITY_FAST)
    assert abs(fast.depth - base.depth) <= 0.01 * base.depth
    with pytest.raises(ValueError, match="quality"):
        polydepth.penetration(cube, pose, cube, np.eye(4), quality=7)
    loose = polydepth.penetration(cube, pose, cube, np.eye(4), contact_tolerance=0.01)
    assert abs(loose.depth - 0.2) <= 0.01
    for query in ("distance", "collide", "ccd", "Mesh"):
        assert polydepth.defaults(query)
    with pytest.raises(ValueError, match="query"):
        polydepth.defaults("nothing")


def test_a_cache_gives_motion_coherence(torus):
    cache = polydepth.PenetrationCache()
    first = polydepth.penetration(torus, translation(0.3, 0, 0.1), torus, np.eye(4), cache=cache)
    again = polydepth.penetration(torus, translation(0.31, 0, 0.1), torus, np.eye(4), cache=cache)
    assert first.penetrating and again.penetrating
    assert not first.tracked and again.tracked  # the second refines the cached contact
    cache.reset()
    untracked = polydepth.penetration(torus, translation(0.3, 0, 0.1), torus, np.eye(4), cache=cache,
                                      max_tracked_queries=0)
    assert not polydepth.penetration(torus, translation(0.31, 0, 0.1), torus, np.eye(4), cache=cache,
                                     max_tracked_queries=0).tracked
    assert untracked.depth == first.depth
    cache.reset()
    with pytest.raises(TypeError, match="cache"):
        polydepth.penetration(torus, np.eye(4), torus, np.eye(4), cache=object())


def test_matrix_and_quaternion_forms_agree(torus):
    rng = np.random.default_rng(11)
    for q, t in random_poses(rng, 8, 0.6):
        by_pair = polydepth.penetration(torus, (q, t), torus, np.eye(4))
        by_pose = polydepth.penetration(torus, polydepth.Pose(q, t), torus, np.eye(4))
        by_matrix = polydepth.penetration(torus, quaternion_matrix(q, t), torus, np.eye(4))
        assert by_pose.depth == by_pair.depth
        assert by_matrix.state == by_pair.state
        assert by_matrix.depth == pytest.approx(by_pair.depth, rel=1e-9, abs=1e-12)
        np.testing.assert_allclose(by_matrix.translation, by_pair.translation, rtol=1e-9, atol=1e-12)
        pose = polydepth.Pose.from_matrix(quaternion_matrix(q, t))
        np.testing.assert_allclose(pose.matrix(), quaternion_matrix(q, t), atol=1e-15)
        sign = np.sign(pose.quaternion[0] * q[0])  # q and -q are one rotation
        np.testing.assert_allclose(pose.quaternion * sign, q, atol=1e-15)


def test_float32_input_gives_the_float64_answers():
    vertices, faces = torus_arrays()
    vertices = vertices.astype(np.float32)  # the float32 values, exactly, in both meshes
    single = polydepth.Mesh(vertices, faces.astype(np.int32))
    double = polydepth.Mesh(vertices.astype(np.float64), faces)
    assert np.array_equal(single.vertices, double.vertices)
    rng = np.random.default_rng(5)
    for q, t in random_poses(rng, 6, 0.6):
        x = polydepth.penetration(single, (q, t), single, np.eye(4))
        y = polydepth.penetration(double, (q, t), double, np.eye(4))
        assert x.depth == y.depth and np.array_equal(x.translation, y.translation)
        assert polydepth.distance(single, (q, t), single, np.eye(4)).distance == \
            polydepth.distance(double, (q, t), double, np.eye(4)).distance
    m32 = quaternion_matrix(*random_poses(rng, 1, 0.5)[0]).astype(np.float32)
    x = polydepth.penetration(single, m32, single, np.eye(4))
    y = polydepth.penetration(single, m32.astype(np.float64), single, np.eye(4))
    assert x.depth == y.depth


def write_obj(path, vertices, faces):
    with open(path, "w") as fh:
        for v in vertices:
            fh.write("v %r %r %r\n" % tuple(float(c) for c in v))
        for f in faces:
            fh.write("f %d %d %d\n" % tuple(int(i) + 1 for i in f))


@pytest.mark.skipif(not os.environ.get("POLYDEPTH_CLI"), reason="POLYDEPTH_CLI (the polydepth tool) not set")
def test_answers_equal_the_c_library_through_the_polydepth_tool(tmp_path):
    vertices, faces = torus_arrays()
    path = tmp_path / "torus.obj"
    write_obj(path, vertices, faces)
    mesh = polydepth.Mesh(vertices, faces)
    rng = np.random.default_rng(3)
    states = {"penetrating": polydepth.State.PENETRATING, "touching": polydepth.State.TOUCHING,
              "separated": polydepth.State.SEPARATED}
    for q, t in random_poses(rng, 6, 0.8):
        pose = [repr(float(c)) for c in list(q) + list(t)]
        command = [os.environ["POLYDEPTH_CLI"], "query", str(path), str(path), "--json", "--pose-a"] + pose
        c = json.loads(subprocess.run(command, capture_output=True, text=True, check=True, timeout=120).stdout)
        r = polydepth.penetration(mesh, (q, t), mesh, np.eye(4))
        assert states[c["status"]] == r.state
        assert c["pd"] == r.depth and c["t"] == list(r.translation)
        # The bound comes from balls each side builds inside its own copy of the mesh (the
        # tool's through its OBJ loader): equal to rounding.
        assert c["lowerBound"] == pytest.approx(r.lower_bound, rel=1e-12, abs=1e-15)
        assert (c["iterations"], c["contacts"], c["starts"]) == (r.iterations, r.contacts, r.starts)
        assert len(c["local"]) == len(r.local)
        for cl, pl in zip(c["local"], r.local):
            assert cl["normal"] == list(pl.normal) and cl["depth"] == pl.depth


HEADERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "include", "polydepth")


def def_fields(header, struct):
    """The settable fields of a C def struct, snake_case (internalValue and pointers left out)."""
    import re
    text = open(os.path.join(HEADERS, header)).read()
    body = re.search(r"(?:typedef )?struct %s\s*\{(.*?)\}\s*(?:%s)?;" % (struct, struct), text, re.S).group(1)
    body = re.sub(r"//[^\n]*", "", body)
    names = re.findall(r"^\s*(?:const\s+)?\w+\s+(\w+)\s*;", body, re.M)
    return {re.sub(r"([A-Z])", r"_\1", n).lower() for n in names if n != "internalValue"}


@pytest.mark.parametrize("query, header, struct", [
    ("penetration", "penetration.h", "pdPenetrationDef"), ("distance", "query.h", "pdDistanceDef"),
    ("collide", "query.h", "pdCollideDef"), ("ccd", "query.h", "pdCcdDef"), ("Mesh", "mesh.h", "pdMeshDef"),
])
def test_every_def_field_is_a_keyword(query, header, struct):
    # The mesh def's arrays, counts, strides and types come from the arrays themselves.
    from_arrays = {"vertex_count", "vertex_stride", "vertex_type", "triangle_count", "index_stride", "index_type"}
    fields = def_fields(header, struct) - from_arrays
    if query == "penetration":  # and its research settings, one keyword each
        fields |= def_fields("research.h", "pdPenetrationSettings")
    assert fields == set(polydepth.defaults(query))
