#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A batch of PD queries spread over worker processes (concurrent.futures): meshes and results
# pickle, so each worker gets the mesh and a slice of the poses, runs penetration_batch on it
# and sends its answers back. They equal those of one batch in this process, bit for bit.
#   process_pool.py [--queries N] [--workers W]
import argparse
import concurrent.futures
import sys

import numpy as np

import polydepth
from workload import random_poses, report, torus


def run_slice(mesh, poses):
    """What a worker process does: one batch over its slice of the poses, on one thread."""
    return polydepth.penetration_batch(mesh, poses, mesh, np.eye(4), threads=1)


def main():
    parser = argparse.ArgumentParser(description="PD queries over a process pool")
    parser.add_argument("--queries", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    mesh = torus()
    poses = random_poses(args.queries, seed=1)
    slices = np.array_split(poses, args.workers * 4)
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(run_slice, mesh, s) for s in slices]
        results = [r for f in futures for r in f.result(timeout=600)]

    reference = polydepth.penetration_batch(mesh, poses, mesh, np.eye(4))
    return report(results, reference, "%d worker processes" % args.workers)


if __name__ == "__main__":
    sys.exit(main())
