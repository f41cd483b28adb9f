# SPDX-License-Identifier: MIT
# Meshes from files (Mesh.from_file, the polydepth tool's loaders) and from other libraries' mesh
# objects (Mesh(obj)), checked against the same mesh made from arrays. The other libraries are
# played by small stand-in classes with their attribute names: nothing here imports them.
import pickle

import numpy as np
import pytest

import polydepth

# A tetrahedron, wound counter-clockwise seen from outside.
TETRA_VERTICES = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0]])
TETRA_FACES = np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]])


def tetra_files(directory):
    """The tetrahedron in every format the tool reads: {extension: path}."""
    v, f = TETRA_VERTICES, TETRA_FACES
    files = {
        "obj": "".join("v %g %g %g\n" % tuple(p) for p in v) + "".join("f %d %d %d\n" % tuple(t + 1) for t in f),
        "tri": "TRI\n4 4\n" + "".join("%g %g %g\n" % tuple(p) for p in v) + "".join("%d %d %d\n" % tuple(t) for t in f),
        "tris": "4\n" + "".join(" ".join("%g" % x for x in v[t].reshape(-1)) + "\n" for t in f),
        "off": "OFF\n4 4 6\n" + "".join("%g %g %g\n" % tuple(p) for p in v) + "".join("3 %d %d %d\n" % tuple(t) for t in f),
        "ply": "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
               "element face 4\nproperty list uchar int vertex_indices\nend_header\n"
               + "".join("%g %g %g\n" % tuple(p) for p in v) + "".join("3 %d %d %d\n" % tuple(t) for t in f),
    }
    stl = ["solid tetra"]
    for t in f:
        a, b, c = v[t]
        n = np.cross(b - a, c - a)
        stl += ["facet normal %g %g %g" % tuple(n / np.linalg.norm(n)), " outer loop"]
        stl += ["  vertex %g %g %g" % tuple(p) for p in (a, b, c)]
        stl += [" endloop", "endfacet"]
    files["stl"] = "\n".join(stl + ["endsolid tetra", ""])
    paths = {}
    for extension, text in files.items():
        path = directory / ("tetra." + extension)
        path.write_text(text)
        paths[extension] = path
    return paths


def same_shape(mesh):
    """The mesh has the tetrahedron's triangles, whatever the vertex order a loader chose."""
    triangles = sorted(tuple(sorted(map(tuple, np.round(mesh.vertices[t], 9)))) for t in mesh.faces)
    expected = sorted(tuple(sorted(map(tuple, TETRA_VERTICES[t]))) for t in TETRA_FACES)
    return mesh.triangle_count == 4 and triangles == expected


@pytest.mark.parametrize("extension", ["obj", "stl", "ply", "off", "tri", "tris"])
def test_from_file_reads_every_format_of_the_tool(tmp_path, extension):
    mesh = polydepth.Mesh.from_file(tetra_files(tmp_path)[extension])
    assert same_shape(mesh), extension
    assert mesh.closed
    # The answers are those of the mesh made from the arrays.
    reference = polydepth.Mesh(TETRA_VERTICES, TETRA_FACES)
    pose = polydepth.Pose(translation=(0.1, 0.1, 0.1))
    got = polydepth.penetration(mesh, pose, reference, np.eye(4))
    assert got.state == polydepth.State.PENETRATING and got.depth > 0


def test_from_file_takes_str_and_mesh_options(tmp_path):
    path = tetra_files(tmp_path)["obj"]
    mesh = polydepth.Mesh.from_file(str(path), reject_degenerate=True)
    assert same_shape(mesh)
    with pytest.raises(TypeError):
        polydepth.Mesh.from_file(path, no_such_option=1)


def test_from_file_errors_name_the_file_and_the_line(tmp_path):
    bad = tmp_path / "bad.tri"
    bad.write_text("TRI\n4 4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n0 2 1\n0 1 x\n1 2 3\n0 3 2\n")
    with pytest.raises(ValueError) as e:
        polydepth.Mesh.from_file(bad)
    assert str(bad) in str(e.value) and "line 8" in str(e.value)
    out_of_range = tmp_path / "range.obj"
    out_of_range.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n")
    with pytest.raises(ValueError) as e:
        polydepth.Mesh.from_file(out_of_range)
    assert str(out_of_range) in str(e.value) and "line 4" in str(e.value)
    garbage = tmp_path / "garbage.stl"
    garbage.write_bytes(b"\x00\x01 not a mesh")
    with pytest.raises(ValueError, match="garbage.stl"):
        polydepth.Mesh.from_file(garbage)
    with pytest.raises(FileNotFoundError):
        polydepth.Mesh.from_file(tmp_path / "missing.obj")
    unknown = tmp_path / "mesh.xyz"
    unknown.write_text("1 2 3\n")
    with pytest.raises(ValueError, match="unsupported format"):
        polydepth.Mesh.from_file(unknown)


class TrimeshLike:
    """What polydepth reads of trimesh.Trimesh: vertices and faces."""

    def __init__(self, vertices, faces):
        self.vertices, self.faces = vertices, faces


class Open3dLike:
    """What polydepth reads of open3d.geometry.TriangleMesh: vertices and triangles (array-likes)."""

    def __init__(self, vertices, triangles):
        self.vertices = [list(p) for p in vertices]
        self.triangles = [list(t) for t in triangles]


class CellBlock:
    """meshio's CellBlock: a type and a data array."""

    def __init__(self, type, data):
        self.type, self.data = type, data


class MeshioLike:
    """What polydepth reads of meshio.Mesh: points and cells."""

    def __init__(self, points, cells):
        self.points, self.cells = points, cells


def test_mesh_objects_of_other_libraries():
    reference = polydepth.Mesh(TETRA_VERTICES, TETRA_FACES)
    split = [CellBlock("vertex", np.array([[0]])), CellBlock("triangle", TETRA_FACES[:2]),
             CellBlock("line", np.array([[0, 1]])), CellBlock("triangle", TETRA_FACES[2:])]
    objects = [
        TrimeshLike(TETRA_VERTICES, TETRA_FACES),
        Open3dLike(TETRA_VERTICES, TETRA_FACES),
        MeshioLike(TETRA_VERTICES, [CellBlock("triangle", TETRA_FACES)]),
        MeshioLike(TETRA_VERTICES, split),
        MeshioLike(TETRA_VERTICES, [("triangle", TETRA_FACES)]),
        MeshioLike(TETRA_VERTICES, {"triangle": TETRA_FACES}),
    ]
    for obj in objects:
        mesh = polydepth.Mesh(obj)
        assert np.array_equal(mesh.vertices, reference.vertices), type(obj).__name__
        assert np.array_equal(mesh.faces, reference.faces), type(obj).__name__
        assert pickle.loads(pickle.dumps(mesh)).triangle_count == 4
    assert polydepth.Mesh(TrimeshLike(TETRA_VERTICES.astype(np.float32), TETRA_FACES), reject_degenerate=True)


def test_mesh_objects_bad_input_names_the_problem():
    with pytest.raises(TypeError, match="vertices and faces"):
        polydepth.Mesh(object())
    with pytest.raises(ValueError, match=r"cells: no triangle cells \(found: quad, tetra\)"):
        polydepth.Mesh(MeshioLike(TETRA_VERTICES, [CellBlock("quad", np.array([[0, 1, 2, 3]])),
                                                   CellBlock("tetra", np.array([[0, 1, 2, 3]]))]))
    with pytest.raises(TypeError, match=r"cells\[0\]"):
        polydepth.Mesh(MeshioLike(TETRA_VERTICES, [42]))
    bad = TETRA_VERTICES.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match=r"vertices\[2\]"):
        polydepth.Mesh(TrimeshLike(bad, TETRA_FACES))
    with pytest.raises(ValueError, match=r"faces\[1\]"):
        polydepth.Mesh(TrimeshLike(TETRA_VERTICES, np.array([[0, 2, 1], [0, 1, 7]])))


def test_box():
    box = polydepth.Mesh.box((2, 1, 0.5))
    assert box.closed and box.convex and box.triangle_count == 12
    assert np.array_equal(box.bounds, [[-1, -0.5, -0.25], [1, 0.5, 0.25]])
    for size in [(1, 1), (1, -1, 1), (1, np.nan, 1)]:
        with pytest.raises(ValueError, match="size"):
            polydepth.Mesh.box(size)
