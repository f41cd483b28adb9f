# SPDX-License-Identifier: MIT
"""Translational penetration depth (PD) between triangle meshes.

The smallest translation that separates two overlapping meshes, with a normal and a depth per
contact region, computed by the PolyDepth C library; also distance, collision and translational
continuous collision (CCD), one at a time or as a batch over many poses on several threads
without the GIL.

QUICK START
    >>> import polydepth
    >>> box = polydepth.Mesh.box((1, 1, 1))    # or Mesh.from_file("part.stl"), or Mesh(trimesh_mesh)
    >>> r = polydepth.penetration(box, polydepth.Pose(translation=(0.8, 0, 0)), box, polydepth.Pose())
    >>> r.state.name, round(r.depth, 3), [round(x, 3) for x in r.translation]
    ('PENETRATING', 0.2, [0.2, 0.0, 0.0])

CONVENTIONS
    A query takes mesh A at pose_a and mesh B at pose_b. A is the one that moves: every
    translation in a result is for A, in the world frame; B stays where it is. A pose is a 4x4
    rigid homogeneous matrix (as trimesh and most of numpy's world use), a polydepth.Pose, or a
    pair (quaternion, translation). Quaternions are (w, x, y, z), the scalar first, as in the
    polydepth command-line tool (scipy's Rotation.as_quat() gives (x, y, z, w)). world = R @ local
    + t. Lengths are in the unit of the vertices (results come back in it), times in
    milliseconds. Contact normals are unit vectors on B pointing toward A; a PD leaves A and B at
    most touching, overlapping by less than contact_tolerance (default 1e-4 of the smaller
    bounding-box diagonal).

MESHES
    Mesh(vertices, faces)     (n, 3) float64/float32 and (m, 3) integer arrays, copied
    Mesh(obj)                 a mesh of another library by its arrays: trimesh (vertices, faces),
                              open3d (vertices, triangles), meshio (points, triangle cells)
    Mesh.from_file(path)      OBJ, STL, PLY, OFF, .tri, .tris (the polydepth tool's loaders)
    Mesh.box(size)            an axis-aligned box centred on its origin
    Meshes are immutable, shared freely between threads, and pickle.

QUERIES (help() of each lists its options, with units and defaults)
    penetration(a, pose_a, b, pose_b, cache=None, **options) -> PenetrationResult
    distance(a, pose_a, b, pose_b, **options)                -> DistanceResult
    collide(a, pose_a, b, pose_b, **options)                 -> CollideResult
    ccd(a, pose_a, b, pose_b, end_position_a, **options)     -> CcdResult
    penetration_batch(a, poses_a, b, poses_b, threads=None, **options) -> PenetrationBatch
    distance_batch(a, poses_a, b, poses_b, threads=None, **options)    -> DistanceBatch
    defaults(query) -> dict of the options and their defaults

    A batch takes (k, 4, 4) pose arrays (or one pose for all items) and gives the answers of the
    one-by-one queries, bit for bit, with the main fields as arrays (results.depth: (k,)).

PICTURES
    polydepth.render.write_png(path, items, eye=..., target=...) draws meshes headless
    (OSMesa), for machines without matplotlib.

ERRORS
    Bad input raises ValueError or TypeError naming the argument and the index inside it
    ("faces[7]: triangle 7 references vertex 902 of 8"); files: the file and the line
    ("part.obj: line 12: ..."). Results never hold NaN.
"""
import errno as _errno
import os as _os
from collections.abc import Sequence as _Sequence

from ._polydepth import (
    QUALITY_ACCURATE,
    QUALITY_FAST,
    START_ALL,
    START_CENTROID,
    START_CLEARANCE,
    START_COHERENCE,
    START_CONTACT_NORMALS,
    START_PRINCIPAL_AXES,
    START_RANDOM,
    CcdResult,
    CollideResult,
    ContactFeature,
    ContactKind,
    DistanceBatch,
    DistanceResult,
    Feature,
    FeatureType,
    LocalPenetration,
    Mesh,
    PenetrationBatch,
    PenetrationCache,
    PenetrationResult,
    Pose,
    State,
    Status,
    __version__,
    _time_c_penetration,
    available_cpus,
    ccd,
    collide,
    defaults,
    distance,
    distance_batch,
    penetration,
    penetration_batch,
)

_Sequence.register(PenetrationBatch)
_Sequence.register(DistanceBatch)


def _mesh_from_file(path, **options):
    """Mesh.from_file(path, **options) -> Mesh

    The mesh in a file, read by the loaders of the polydepth command-line tool: OBJ (polygons
    fanned into triangles), .tri and .tris (the formats of the PolyDepth paper's models), and STL,
    PLY and OFF (through Assimp). Vertices keep the file's unit. options: those of Mesh().
    FileNotFoundError when there is no such file; ValueError naming the file, and the line for
    text formats, when it cannot be read or holds a bad mesh.

    Example:
        >>> import os, tempfile, polydepth
        >>> path = os.path.join(tempfile.mkdtemp(), "tetra.obj")
        >>> with open(path, "w") as f:
        ...     _ = f.write("v 0 0 0\\nv 1 0 0\\nv 0 1 0\\nv 0 0 1\\nf 1 3 2\\nf 1 2 4\\nf 2 3 4\\nf 1 4 3\\n")
        >>> polydepth.Mesh.from_file(path)
        <polydepth.Mesh 4 vertices, 4 triangles, convex>
    """
    name = _os.fspath(path)
    if isinstance(name, bytes):
        name = _os.fsdecode(name)
    if not _os.path.exists(name):
        raise FileNotFoundError(_errno.ENOENT, "no such mesh file", name)
    from . import _io  # Assimp is loaded only by the first file read

    vertices, faces = _io.load(name)
    try:
        return Mesh(vertices, faces, **options)
    except ValueError as e:
        raise ValueError("%s: %s" % (name, e)) from None


def _mesh_box(size=(1.0, 1.0, 1.0), **options):
    """Mesh.box(size=(1, 1, 1), **options) -> Mesh

    A closed box of size (x, y, z) (length units of your choice), centred on its own origin, edges
    along the axes: 8 vertices, 12 triangles wound counter-clockwise seen from outside.
    options: those of Mesh().

    Example:
        >>> import polydepth
        >>> polydepth.Mesh.box((2, 1, 0.5)).bounds.tolist()
        [[-1.0, -0.5, -0.25], [1.0, 0.5, 0.25]]
    """
    import numpy as np

    half = np.asarray(size, dtype=np.float64).reshape(-1) * 0.5
    if half.shape != (3,) or not np.all(np.isfinite(half)) or np.any(half <= 0):
        raise ValueError("size: expected three positive finite lengths, got %r" % (size,))
    corners = np.array([[x, y, z] for z in (-1, 1) for y in (-1, 1) for x in (-1, 1)], dtype=np.float64) * half
    faces = np.array([[0, 3, 1], [0, 2, 3], [4, 5, 7], [4, 7, 6], [0, 1, 5], [0, 5, 4],
                      [1, 3, 7], [1, 7, 5], [3, 2, 6], [3, 6, 7], [2, 0, 4], [2, 4, 6]], dtype=np.uint32)
    return Mesh(corners, faces, **options)


_mesh_from_file.__name__ = _mesh_from_file.__qualname__ = "from_file"
_mesh_box.__name__ = _mesh_box.__qualname__ = "box"
Mesh.from_file = staticmethod(_mesh_from_file)
Mesh.box = staticmethod(_mesh_box)

from . import render  # noqa: E402  (its renderer module is loaded on first use)

__all__ = [
    "QUALITY_ACCURATE", "QUALITY_FAST", "START_ALL", "START_CENTROID", "START_CLEARANCE", "START_COHERENCE",
    "START_CONTACT_NORMALS", "START_PRINCIPAL_AXES", "START_RANDOM", "CcdResult", "CollideResult",
    "ContactFeature", "ContactKind", "DistanceBatch", "DistanceResult", "Feature", "FeatureType",
    "LocalPenetration", "Mesh", "PenetrationBatch", "PenetrationCache", "PenetrationResult", "Pose", "State",
    "Status", "available_cpus", "ccd", "collide", "defaults", "distance", "distance_batch", "penetration",
    "penetration_batch", "render",
]
