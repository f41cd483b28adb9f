# SPDX-License-Identifier: MIT
# The Python examples run as a user runs them (each in its own interpreter, with a time limit):
# the smallest query, a batch over a process pool, a batch on a Dask LocalCluster.
import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "python")


@pytest.mark.parametrize("script, arguments, expected", [
    ("query.py", [], "state PENETRATING, depth 0.2000"),
    ("process_pool.py", ["--queries", "24", "--workers", "2"], "the same answers as here: yes"),
    ("dask_cluster.py", ["--queries", "24", "--workers", "2", "--timeout", "60"], "the same answers as here: yes"),
])
def test_example_runs(script, arguments, expected):
    if script == "dask_cluster.py":
        pytest.importorskip("distributed")
    done = subprocess.run([sys.executable, os.path.join(EXAMPLES, script)] + arguments, capture_output=True,
                          text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    assert expected in done.stdout
