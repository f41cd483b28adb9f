# SPDX-License-Identifier: MIT
# The Python examples run as a user runs them (each in its own interpreter, with a time limit):
# the smallest query, a batch over a process pool, a batch on a Dask LocalCluster, clash
# detection over a set of placements with its picture.
import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "python")


@pytest.mark.parametrize("script, arguments, expected", [
    ("query.py", [], "state PENETRATING, depth 0.2000"),
    ("process_pool.py", ["--queries", "24", "--workers", "2"], "the same answers as here: yes"),
    ("dask_cluster.py", ["--queries", "24", "--workers", "2", "--timeout", "60"], "the same answers as here: yes"),
    ("clash.py", ["--placements", "600", "--picture", "headless", "--plain-progress"],
     "every clashing placement cleared by its translation: yes"),
    ("clash.py", ["--placements", "300", "--picture", "matplotlib"], "(matplotlib)"),
])
def test_example_runs(script, arguments, expected, tmp_path):
    if script == "dask_cluster.py":
        pytest.importorskip("distributed")
    if "matplotlib" in arguments:
        pytest.importorskip("matplotlib")
    done = subprocess.run([sys.executable, os.path.join(EXAMPLES, script)] + arguments, capture_output=True,
                          text=True, timeout=180, cwd=str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert expected in done.stdout
    if script == "clash.py":  # a picture of the clashes, and a progress count that reached the end
        assert (tmp_path / "clash.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert ("600/600" in done.stderr) if "--plain-progress" in arguments else True
