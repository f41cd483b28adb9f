# SPDX-License-Identifier: MIT
# Batches: the answers equal one-by-one queries bit for bit on 1, 2 and 4 threads; meshes and
# poses one for all or one per item; the GIL is released while a batch runs.
import threading
import time

import numpy as np
import pytest

import polydepth
from conftest import quaternion_matrix, random_poses, same_penetration, translation


@pytest.fixture(scope="module")
def poses():
    rng = np.random.default_rng(2024)
    return np.stack([quaternion_matrix(q, t) for q, t in random_poses(rng, 24, 0.7)])


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_penetration_batch_equals_one_by_one_bit_for_bit(torus, poses, threads):
    one_by_one = [polydepth.penetration(torus, p, torus, np.eye(4)) for p in poses]
    batch = polydepth.penetration_batch(torus, poses, torus, np.eye(4), threads=threads)
    assert len(batch) == len(poses)
    assert all(same_penetration(x, y) for x, y in zip(batch, one_by_one))
    assert np.array_equal(batch.depth, [r.depth for r in one_by_one])
    assert np.array_equal(batch.translation, [r.translation for r in one_by_one])
    assert np.array_equal(batch.state, [int(r.state) for r in one_by_one])
    assert np.array_equal(batch.status, [int(r.status) for r in one_by_one])
    assert batch.elapsed_ms.shape == (len(poses),)
    assert sum(r.penetrating for r in batch) > len(poses) // 2  # the poses are mostly deep


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_distance_batch_equals_one_by_one(torus, poses, threads):
    moved = poses.copy()
    moved[:, 0, 3] += 2.0
    batch = polydepth.distance_batch(torus, moved, torus, np.eye(4), threads=threads)
    for i, p in enumerate(moved):
        d = polydepth.distance(torus, p, torus, np.eye(4))
        assert batch[i].distance == d.distance and np.array_equal(batch[i].point_a, d.point_a)
        assert np.array_equal(batch.point_b[i], d.point_b)
    assert np.array_equal(batch.distance, [r.distance for r in batch])


def test_batch_options_match_the_single_query_options(torus, poses):
    options = {"random_directions": 32, "cone_directions": 0, "max_starts": 4}
    batch = polydepth.penetration_batch(torus, poses[:6], torus, np.eye(4), threads=2, **options)
    for p, r in zip(poses[:6], batch):
        assert same_penetration(r, polydepth.penetration(torus, p, torus, np.eye(4), **options))


def test_meshes_and_poses_one_for_all_or_one_per_item(cube, torus, poses):
    k = 5
    meshes = [cube, torus, cube, torus, cube]
    batch = polydepth.penetration_batch(meshes, poses[:k], torus, [polydepth.Pose()] * k, threads=2)
    for i in range(k):
        assert same_penetration(batch[i], polydepth.penetration(meshes[i], poses[i], torus, np.eye(4)))
    assert same_penetration(batch[-1], batch[k - 1])
    with pytest.raises(IndexError):
        batch[k]
    single = polydepth.penetration_batch(cube, translation(0.8, 0, 0), cube, np.eye(4))
    assert len(single) == 1 and single[0].depth == pytest.approx(0.2, abs=1e-3)
    empty = polydepth.penetration_batch(cube, np.zeros((0, 4, 4)), cube, np.eye(4))
    assert len(empty) == 0 and empty.depth.shape == (0,)
    as_list = polydepth.penetration_batch(cube, list(poses[:3]), cube, np.eye(4))
    assert len(as_list) == 3
    from collections.abc import Sequence
    assert isinstance(batch, Sequence)


def test_default_threads_and_more_threads_than_items(torus, poses):
    assert polydepth.available_cpus() >= 1
    default = polydepth.penetration_batch(torus, poses[:3], torus, np.eye(4))
    many = polydepth.penetration_batch(torus, poses[:3], torus, np.eye(4), threads=64)
    assert all(same_penetration(x, y) for x, y in zip(default, many))


def test_the_gil_is_released_while_a_batch_runs(torus):
    rng = np.random.default_rng(9)
    poses = np.stack([quaternion_matrix(q, t) for q, t in random_poses(rng, 128, 0.5)])
    ticks = []
    done = threading.Event()

    def run():
        polydepth.penetration_batch(torus, poses, torus, np.eye(4), threads=1)
        done.set()

    worker = threading.Thread(target=run)
    start = time.perf_counter()
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    elapsed = time.perf_counter() - start
    # Holding the GIL for the whole batch would leave the loop above at one or two ticks.
    assert len(ticks) >= 10, (elapsed, len(ticks))


def test_single_queries_run_on_several_python_threads(torus, poses):
    expected = [polydepth.penetration(torus, p, torus, np.eye(4)) for p in poses[:8]]
    got = [None] * 8

    def run(i):
        got[i] = polydepth.penetration(torus, poses[i], torus, np.eye(4))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(same_penetration(x, y) for x, y in zip(got, expected))
