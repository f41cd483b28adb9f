#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A batch of PD queries on a Dask cluster, for work that outgrows one machine: the mesh is
# scattered to the workers once, each task runs penetration_batch on a slice of the poses, and
# the results come back pickled. Here the cluster is a LocalCluster of worker processes on this
# machine; give --scheduler tcp://HOST:8786 to use a running one. Every wait has a timeout.
#   dask_cluster.py [--queries N] [--workers W] [--scheduler ADDRESS] [--timeout S]
import argparse
import sys

import numpy as np
from dask.distributed import Client, LocalCluster, wait

import polydepth
from workload import random_poses, report, torus


def run_slice(mesh, poses):
    """What a Dask task does: one batch over its slice of the poses, on the worker's threads."""
    return polydepth.penetration_batch(mesh, poses, mesh, np.eye(4), threads=1)


def run(client, mesh, poses, slices, timeout):
    mesh_on_workers = client.scatter(mesh, broadcast=True, timeout=timeout)
    parts = np.array_split(poses, slices)
    futures = client.map(run_slice, [mesh_on_workers] * len(parts), parts, pure=False)
    wait(futures, timeout=timeout)
    return [r for batch in client.gather(futures) for r in batch]


def main():
    parser = argparse.ArgumentParser(description="PD queries on a Dask cluster")
    parser.add_argument("--queries", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: a LocalCluster)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds any one wait may take")
    args = parser.parse_args()

    mesh = torus()
    poses = random_poses(args.queries, seed=2)
    slices = args.workers * 4
    if args.scheduler:
        with Client(args.scheduler, timeout=args.timeout) as client:
            results = run(client, mesh, poses, slices, args.timeout)
    else:
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=40) as cluster, Client(cluster, timeout=args.timeout) as client:
            results = run(client, mesh, poses, slices, args.timeout)

    reference = polydepth.penetration_batch(mesh, poses, mesh, np.eye(4))
    return report(results, reference, "%d Dask workers" % args.workers)


if __name__ == "__main__":
    sys.exit(main())
