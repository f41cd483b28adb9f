#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The Python module's cost over the C library, measured in one run on the same poses:
#  - per query: polydepth.penetration() timed from Python against pdComputePenetration timed
#    inside C++ (polydepth._time_c_penetration: the same workspace and def, the clock read around
#    the C call only), alternated call by call on each pose; the overhead is the median of the
#    paired differences, in microseconds and as a fraction of the C query. Targets: under 20 us
#    on the 12-triangle box pair, under 5% on the 70k-triangle bunny pair.
#  - batches: penetration_batch() on 1 and 2 threads, calls alternated, queries per second, and
#    whether the answers are the same as one by one.
# Poses: random in-collision configurations of a model against itself (random rotation, centre
# within 0.6 of B's box), as polydepth-bench pd-random makes them.
#   PYTHONPATH=build/python /usr/bin/python3 bench/python/overhead.py [--models DIR] [--quick] [--json]
#   --models DIR (or POLYDEPTH_MODELS=DIR): the paper's models; bunny_noholes.tri is the 70k bunny.
#   Without it the bunny row is skipped (the box row needs no files).
import argparse
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

import polydepth

BOX_VERTICES = np.array([[x, y, z] for z in (-0.5, 0.5) for y in (-0.5, 0.5) for x in (-0.5, 0.5)])
BOX_FACES = np.array([[0, 3, 1], [0, 2, 3], [4, 5, 7], [4, 7, 6], [0, 1, 5], [0, 5, 4],
                      [1, 3, 7], [1, 7, 5], [3, 2, 6], [3, 6, 7], [2, 0, 4], [2, 4, 6]])


IDENTITY = np.eye(4)
BATCH_RUNS, BATCH_RUNS_QUICK = 5, 1  # batch calls per thread count


def load_tri(path):
    """A .tri model: 'TRI', the vertex count, the triangle count, x y z per vertex, i j k per triangle."""
    with open(path) as fh:
        tokens = fh.read().split()
    if not tokens or tokens[0] != "TRI":
        raise ValueError("%s: not a .tri file (no TRI header)" % path)
    nv, nt = int(tokens[1]), int(tokens[2])
    vertices = np.array(tokens[3:3 + 3 * nv], dtype=np.float64).reshape(nv, 3)
    faces = np.array(tokens[3 + 3 * nv:3 + 3 * nv + 3 * nt], dtype=np.int64).reshape(nt, 3)
    return vertices, faces


def colliding_poses(mesh, count, seed):
    """count 4x4 poses of mesh at which it collides with itself at the identity (not contained)."""
    rng = np.random.default_rng(seed)
    lo, hi = mesh.bounds
    poses = []
    while len(poses) < count:
        q = rng.normal(size=4)
        pose = polydepth.Pose(q / np.linalg.norm(q), rng.uniform(lo, hi) * 0.6).matrix()
        c = polydepth.collide(mesh, pose, mesh, np.eye(4))
        if c.colliding and not c.containment:
            poses.append(pose)
    return np.stack(poses)


def python_seconds(mesh, pose):
    """Seconds of one polydepth.penetration() call, as a caller sees it."""
    t0 = time.perf_counter()
    polydepth.penetration(mesh, pose, mesh, IDENTITY)
    return time.perf_counter() - t0


def overhead_row(name, mesh, poses, pairs):
    """Per pose, `pairs` C calls and Python calls alternated one by one (so that both see the same
    machine load), the medians of each and of the paired differences; then the medians over poses."""
    c_us, py_us, overhead = [], [], []
    for pose in poses:
        polydepth.penetration(mesh, pose, mesh, IDENTITY)  # warm-up: the workspace grows to its size
        cs, ps = [], []
        for _ in range(pairs):
            cs.append(polydepth._time_c_penetration(mesh, pose, mesh, IDENTITY, 1)[0])
            ps.append(python_seconds(mesh, pose))
        c_us.append(1e6 * statistics.median(cs))
        py_us.append(1e6 * statistics.median(ps))
        overhead.append(1e6 * statistics.median([p - c for p, c in zip(ps, cs)]))
    return {
        "name": name, "tris": mesh.triangle_count, "poses": len(poses), "pairs_per_pose": pairs,
        "c_us": statistics.median(c_us), "python_us": statistics.median(py_us),
        "overhead_us": statistics.median(overhead),
        "overhead_pct": 100.0 * statistics.median([o / c for o, c in zip(overhead, c_us)]),
    }


def batch_row(name, mesh, poses, runs):
    """Queries per second of penetration_batch() on 1 and 2 threads: runs calls of each, alternated
    (so that both see the same machine load), the median of each."""
    row = {"name": name, "tris": mesh.triangle_count, "queries": len(poses)}
    answers, seconds = {}, {1: [], 2: []}
    for _ in range(runs):
        for threads in (1, 2):
            t0 = time.perf_counter()
            answers[threads] = polydepth.penetration_batch(mesh, poses, mesh, IDENTITY, threads=threads)
            seconds[threads].append(time.perf_counter() - t0)
    for threads in (1, 2):
        row["qps_%d" % threads] = len(poses) / statistics.median(seconds[threads])
    row["speedup"] = row["qps_2"] / row["qps_1"]
    one_by_one = [polydepth.penetration(mesh, p, mesh, IDENTITY) for p in poses]
    row["identical"] = all(
        a.depth == b.depth and c.depth == b.depth and np.array_equal(a.translation, b.translation)
        and np.array_equal(c.translation, b.translation) and a.iterations == b.iterations
        for a, c, b in zip(answers[1], answers[2], one_by_one))
    return row


def main():
    parser = argparse.ArgumentParser(description="the Python module's overhead over the C library")
    parser.add_argument("--models", default=os.environ.get("POLYDEPTH_MODELS"),
                        help="directory of the paper's models (bunny_noholes.tri); default $POLYDEPTH_MODELS")
    parser.add_argument("--quick", action="store_true", help="fewer poses and repeats (under a minute)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    box = polydepth.Mesh(BOX_VERTICES, BOX_FACES)
    models = [("box", box, 8 if args.quick else 24, 500 if args.quick else 2000)]
    notes = []
    bunny_path = os.path.join(args.models, "bunny_noholes.tri") if args.models else None
    if bunny_path and os.path.isfile(bunny_path):
        bunny = polydepth.Mesh(*load_tri(bunny_path))
        models.append(("bunny-70k", bunny, 6 if args.quick else 16, 6 if args.quick else 12))
    else:
        notes.append("bunny-70k skipped: give --models DIR (or POLYDEPTH_MODELS) with bunny_noholes.tri")

    overhead, batches = [], []
    for name, mesh, count, pairs in models:
        poses = colliding_poses(mesh, count, args.seed)
        overhead.append(overhead_row(name, mesh, poses, pairs))
        batch_poses = colliding_poses(mesh, 48 if name != "box" else 2000, args.seed + 1)
        batches.append(batch_row(name, mesh, batch_poses, BATCH_RUNS_QUICK if args.quick else BATCH_RUNS))

    if args.json:
        json.dump({"overhead": overhead, "batch": batches, "batch_runs": BATCH_RUNS_QUICK if args.quick else BATCH_RUNS,
                   "python": platform.python_version(),
                   "numpy": np.__version__, "cpus": polydepth.available_cpus()}, sys.stdout, indent=1)
        print()
        for n in notes:
            print(n, file=sys.stderr)
        return 0
    print("Python %s, numpy %s, %d processors available" % (platform.python_version(), np.__version__,
                                                            polydepth.available_cpus()))
    print("penetration() from Python against pdComputePenetration timed in C, alternated on the same poses; "
          "medians per pose, then over poses")
    print("%-10s %7s %5s | %11s %11s | %11s %9s" % ("model", "tris", "poses", "C us", "Python us", "overhead us",
                                                    "overhead"))
    for r in overhead:
        print("%-10s %7d %5d | %11.2f %11.2f | %11.2f %8.3f%%" % (r["name"], r["tris"], r["poses"], r["c_us"],
                                                                  r["python_us"], r["overhead_us"], r["overhead_pct"]))
    print("\npenetration_batch() on 1 and 2 threads (median of the calls, alternated)")
    print("%-10s %7s %7s | %11s %11s | %7s | %s" % ("model", "tris", "queries", "q/s 1", "q/s 2", "speedup",
                                                    "identical"))
    for r in batches:
        print("%-10s %7d %7d | %11.1f %11.1f | %6.2fx | %s" % (r["name"], r["tris"], r["queries"], r["qps_1"],
                                                              r["qps_2"], r["speedup"],
                                                              "yes" if r["identical"] else "NO"))
    for n in notes:
        print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
