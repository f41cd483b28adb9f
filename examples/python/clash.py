#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Clash detection over a set of placements: N candidate poses of a part (an L-bracket) in an
# assembly (a tray with a divider), which of them penetrate the assembly, how deep, and the
# translation that would clear each, deepest first. The queries run as batches on threads; a
# progress bar shows (tqdm where installed, a plain counter otherwise); the answer is drawn as a
# picture (matplotlib where installed, the project's headless renderer otherwise).
#
#   clash.py [--placements N] [--seed S] [--out clash.png] [--part FILE] [--assembly FILE]
#
# Lengths are millimetres; the scene is y-up (the renderer's ground is y = 0).
import argparse
import sys
import time

import numpy as np

import polydepth


def boxes_mesh(boxes):
    """One mesh from boxes given as (centre, size): a soup of closed boxes, which may overlap."""
    vertices, faces = [], []
    for centre, size in boxes:
        box = polydepth.Mesh.box(size)
        faces.append(box.faces + sum(len(v) for v in vertices))
        vertices.append(box.vertices + np.asarray(centre, dtype=float))
    return polydepth.Mesh(np.concatenate(vertices), np.concatenate(faces))


def tray():
    """A 200 x 120 mm tray, 40 mm walls 6 mm thick, with a divider across its middle."""
    return boxes_mesh([((0, 3, 0), (200, 6, 120)),                       # floor
                       ((-97, 23, 0), (6, 40, 120)), ((97, 23, 0), (6, 40, 120)),
                       ((0, 23, -57), (200, 40, 6)), ((0, 23, 57), (200, 40, 6)),
                       ((20, 18, 0), (4, 30, 114))])                        # the divider


def bracket():
    """An L-bracket: a 60 x 4 x 30 mm foot and a 4 x 34 x 30 mm upright, its origin at the foot's middle."""
    return boxes_mesh([((0, 0, 0), (60, 4, 30)), ((-28, 19, 0), (4, 34, 30))])


def placements(count, seed):
    """count candidate poses (4x4) over the tray: a turn about y, a small tilt, a spot and a height."""
    rng = np.random.default_rng(seed)
    poses = np.tile(np.eye(4), (count, 1, 1))
    for pose in poses:
        yaw, tilt = rng.uniform(0, 2 * np.pi), rng.normal(0, 0.01)
        c, s, ct, st = np.cos(yaw), np.sin(yaw), np.cos(tilt), np.sin(tilt)
        pose[:3, :3] = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]) @ np.array([[1, 0, 0], [0, ct, -st], [0, st, ct]])
        pose[:3, 3] = (rng.uniform(-70, 70), rng.uniform(8.3, 9.5), rng.uniform(-28, 28))  # the foot just above the floor
    return poses


class PlainCounter:
    """What tqdm shows, for machines without it: a count that rewrites itself in place."""

    def __init__(self, total, desc):
        self.total, self.done, self.desc, self.start = total, 0, desc, time.monotonic()

    def update(self, n):
        self.done += n
        rate = self.done / max(time.monotonic() - self.start, 1e-9)
        sys.stderr.write("\r%s: %d/%d (%.0f/s)" % (self.desc, self.done, self.total, rate))
        sys.stderr.flush()

    def close(self):
        sys.stderr.write("\n")


def progress(total, desc, plain):
    if not plain:
        try:
            from tqdm import tqdm
            return tqdm(total=total, desc=desc, unit="pose")
        except ImportError:
            pass
    return PlainCounter(total, desc)


def find_clashes(part, poses, assembly, chunk, threads, plain_progress):
    """PD of every placement against the assembly, in chunks so that the progress bar moves."""
    depth = np.empty(len(poses))
    translation = np.empty((len(poses), 3))
    bar = progress(len(poses), "placements", plain_progress)
    for start in range(0, len(poses), chunk):
        results = polydepth.penetration_batch(part, poses[start:start + chunk], assembly, np.eye(4), threads=threads)
        depth[start:start + chunk] = results.depth
        translation[start:start + chunk] = results.translation
        bar.update(len(results))
    bar.close()
    return depth, translation


def picture_matplotlib(path, part, poses, assembly, clashing, depth):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    fig = plt.figure(figsize=(9.6, 5.4), dpi=100)
    ax = fig.add_subplot(projection="3d")
    ax.add_collection3d(Poly3DCollection(assembly.vertices[assembly.faces][:, :, [0, 2, 1]], facecolor="0.75",
                                         edgecolor="0.5", linewidth=0.1, alpha=0.35))
    scale = max(depth.max(), 1e-9)
    for i in clashing:
        world = part.vertices @ poses[i][:3, :3].T + poses[i][:3, 3]
        colour = plt.cm.Reds(0.35 + 0.65 * depth[i] / scale)
        ax.add_collection3d(Poly3DCollection(world[part.faces][:, :, [0, 2, 1]], facecolor=colour, linewidth=0))
    lo, hi = assembly.bounds
    ax.set(xlim=(lo[0], hi[0]), ylim=(lo[2], hi[2]), zlim=(0, hi[1] * 2), xlabel="x (mm)", ylabel="z (mm)",
           zlabel="y (mm)", title="%d clashing placements, the deeper the redder" % len(clashing))
    ax.set_box_aspect((hi[0] - lo[0], hi[2] - lo[2], hi[1] * 2))
    fig.savefig(path)
    plt.close(fig)


def picture_headless(path, part, poses, assembly, clashing, depth):
    scale = max(depth.max(), 1e-9)
    items = [(assembly, np.eye(4), (0.72, 0.74, 0.78))]
    for i in clashing:
        t = depth[i] / scale
        items.append((part, poses[i], (0.95, 0.75 - 0.6 * t, 0.55 - 0.45 * t)))
    polydepth.render.write_png(path, items, eye=(-60, 230, 190), target=(0, 0, 0), grid_spacing=20,
                               ground_half_size=300, labels=[(12, 12, "%d clashing placements, the deeper the redder"
                                                              % len(clashing), 2)])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--placements", type=int, default=2000, help="candidate poses to check (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=None, help="default: every processor")
    parser.add_argument("--part", help="the part's mesh file (default: a generated L-bracket)")
    parser.add_argument("--assembly", help="the assembly's mesh file (default: a generated tray)")
    parser.add_argument("--out", default="clash.png", help="the picture (PNG)")
    parser.add_argument("--picture", choices=["auto", "matplotlib", "headless"], default="auto")
    parser.add_argument("--plain-progress", action="store_true", help="the plain counter even where tqdm is")
    parser.add_argument("--top", type=int, default=10, help="rows of the table (default 10)")
    args = parser.parse_args()

    part = polydepth.Mesh.from_file(args.part) if args.part else bracket()
    assembly = polydepth.Mesh.from_file(args.assembly) if args.assembly else tray()
    poses = placements(args.placements, args.seed)
    depth, translation = find_clashes(part, poses, assembly, 128, args.threads, args.plain_progress)

    clashing = np.flatnonzero(depth > 0)
    clashing = clashing[np.argsort(-depth[clashing], kind="stable")]
    print("%d placements, %d clash with the assembly, %d are free" % (len(poses), len(clashing),
                                                                   len(poses) - len(clashing)))
    print("%8s %10s  %s" % ("pose", "depth mm", "clear it by moving the part (mm)"))
    for i in clashing[:args.top]:
        print("%8d %10.3f  (%.3f, %.3f, %.3f)" % ((i, depth[i]) + tuple(translation[i])))

    # Each clashing placement moved by its translation at most touches the assembly.
    moved = poses[clashing].copy()
    moved[:, :3, 3] += translation[clashing] * 1.01
    after = polydepth.penetration_batch(part, moved, assembly, np.eye(4), threads=args.threads)
    cleared = not np.any(np.asarray(after.state) == int(polydepth.State.PENETRATING))
    print("every clashing placement cleared by its translation: %s" % ("yes" if cleared else "no"))

    kind = args.picture
    if kind == "auto":
        try:
            import matplotlib  # noqa: F401
            kind = "matplotlib"
        except ImportError:
            kind = "headless"
    shown = clashing[:40]  # the deepest, where the clashes are
    if kind == "matplotlib":
        picture_matplotlib(args.out, part, poses, assembly, shown, depth)
    else:
        picture_headless(args.out, part, poses, assembly, shown, depth)
    print("picture: %s (%s)" % (args.out, "matplotlib" if kind == "matplotlib" else "headless renderer"))
    return 0 if cleared and len(clashing) > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
