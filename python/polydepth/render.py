# SPDX-License-Identifier: MIT
"""Pictures without matplotlib: meshes drawn headless by the samples' renderer (OSMesa), as PNG.

The scene is y-up: a ground grid lies in the plane y = ground_y, lit from above, and meshes cast
shadows on it. Needs Mesa's off-screen library at run time (Debian: libosmesa6); available()
says whether this build and machine have it.

    >>> import polydepth
    >>> box = polydepth.Mesh.box((1, 1, 1))
    >>> items = [(box, polydepth.Pose(translation=(0, 0.5, 0)), (0.8, 0.3, 0.2))]
    >>> polydepth.render.write_png("box.png", items, eye=(3, 2.5, 4), target=(0, 0.5, 0))  # doctest: +SKIP
"""
import os as _os

__all__ = ["available", "write_png"]


def available():
    """available() -> bool

    Whether write_png can draw here: the renderer was built (OSMesa headers and libpng found)
    and Mesa's off-screen library loads.

    Example:
        >>> import polydepth
        >>> isinstance(polydepth.render.available(), bool)
        True
    """
    try:
        from . import _render
    except ImportError:
        return False
    return bool(_render.available)


def _pose_parts(pose):
    from . import _polydepth

    if isinstance(pose, _polydepth.Pose):
        p = pose
    elif isinstance(pose, (tuple, list)) and len(pose) == 2:
        p = _polydepth.Pose(pose[0], pose[1])
    else:
        p = _polydepth.Pose.from_matrix(pose)
    return [float(x) for x in p.quaternion], [float(x) for x in p.translation]


def write_png(path, items, *, eye, target, up=(0.0, 1.0, 0.0), size=(960, 540), fov_y=40.0, ground_y=0.0,
              ground_half_size=12.0, grid_spacing=1.0, shadows=True, lines=(), labels=()):
    """write_png(path, items, *, eye, target, up=(0, 1, 0), size=(960, 540), ...) -> None

    Draws the items headless and writes an RGB(A) PNG of size (width, height) pixels.

    items: (mesh, pose, rgb) triples: a polydepth.Mesh (or a (vertices, faces) pair), a pose in
    any form the queries take (4x4 matrix, Pose, (quaternion (w, x, y, z), translation)) and a
    colour, three floats in [0, 1]. eye, target, up: the camera, world frame, length units of
    the vertices; fov_y: vertical field of view in degrees. The ground plane y = ground_y spans
    [-ground_half_size, ground_half_size] in x and z with grid lines every grid_spacing
    (<= 0: none). lines: (a, b, rgb) segments drawn over the scene (a PD translation, a normal);
    labels: (x, y, text) or (x, y, text, scale) written in pixels from the top left.
    RuntimeError when the renderer is missing or cannot start, or the file cannot be written.

    Example:
        >>> import polydepth
        >>> box = polydepth.Mesh.box((1, 1, 1))
        >>> polydepth.render.write_png("box.png", [(box, polydepth.Pose(translation=(0, 0.5, 0)), (0.8, 0.3, 0.2))],
        ...                            eye=(3, 2.5, 4), target=(0, 0.5, 0))   # doctest: +SKIP
    """
    try:
        from . import _render
    except ImportError as e:
        raise RuntimeError("polydepth.render: the renderer module cannot be loaded (%s)" % e) from None
    import numpy as np

    from . import _polydepth

    # The renderer clips at fixed distances (0.1 to 200): the scene is scaled to put the camera 10
    # from its target, which leaves the picture as it was in any length unit.
    eye, target = [float(x) for x in eye], [float(x) for x in target]
    distance = sum((e - t) ** 2 for e, t in zip(eye, target)) ** 0.5
    if not distance > 0 or distance == float("inf"):
        raise ValueError("eye, target: expected two different finite points, got %r and %r" % (eye, target))
    k = 10.0 / distance
    drawn = []
    for i, item in enumerate(items):
        if len(item) != 3:
            raise ValueError("items[%d]: expected (mesh, pose, rgb), got %d values" % (i, len(item)))
        mesh, pose, rgb = item
        if isinstance(mesh, _polydepth.Mesh):
            vertices, faces = mesh.vertices, mesh.faces
        else:
            vertices, faces = mesh
        q, t = _pose_parts(pose)
        scaled = np.asarray(vertices, dtype=np.float64) * k
        drawn.append(_render.Item(scaled, faces, q, [k * x for x in t], [float(c) for c in rgb]))
    segments = [_render.Line([k * float(x) for x in a], [k * float(x) for x in b], rgb) for a, b, rgb in lines]
    texts = [_render.Label(*label) for label in labels]
    width, height = size
    _render.render(_os.fspath(path), drawn, segments, texts, [k * x for x in eye], [k * x for x in target], up,
                   int(width), int(height), float(fov_y), k * float(ground_y), k * float(ground_half_size),
                   k * float(grid_spacing), bool(shadows))
