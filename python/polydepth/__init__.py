# SPDX-License-Identifier: MIT
"""Translational penetration depth (PD) between triangle meshes.

The smallest translation that separates two overlapping meshes, with a normal and a depth per
contact region, computed by the PolyDepth C library; also distance, collision and translational
continuous collision, one at a time or as a batch over many poses on several threads.

    import numpy as np
    import polydepth

    box = polydepth.Mesh(vertices, faces)          # (n, 3) float64/float32, (m, 3) integers
    pose_a = np.eye(4); pose_a[0, 3] = 0.8         # 4x4 homogeneous matrices (or polydepth.Pose)
    r = polydepth.penetration(box, pose_a, box, np.eye(4))
    r.state, r.depth, r.translation                # PENETRATING, 0.2, [0.2, 0, 0]
    for region in r.local:
        region.normal, region.depth, region.points

    results = polydepth.penetration_batch(box, poses_a, box, np.eye(4))   # poses_a: (k, 4, 4)
    results.depth                                  # (k,) array; results[i] is a PenetrationResult

Quaternions are (w, x, y, z), the scalar first. Options are the keyword arguments listed in
help(polydepth.penetration) and polydepth.defaults("penetration"). Bad input raises ValueError
or TypeError naming the argument (and the index inside it).
"""
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

__all__ = [
    "QUALITY_ACCURATE", "QUALITY_FAST", "START_ALL", "START_CENTROID", "START_CLEARANCE", "START_COHERENCE", "START_CONTACT_NORMALS",
    "START_PRINCIPAL_AXES", "START_RANDOM", "CcdResult", "CollideResult", "ContactFeature",
    "ContactKind", "DistanceBatch", "DistanceResult", "Feature", "FeatureType", "LocalPenetration",
    "Mesh", "PenetrationBatch", "PenetrationCache", "PenetrationResult", "Pose", "State", "Status",
    "available_cpus", "ccd", "collide", "defaults", "distance", "distance_batch", "penetration",
    "penetration_batch",
]
