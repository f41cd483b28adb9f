# SPDX-License-Identifier: MIT
# `cmake --install` puts the package where the interpreter finds it under the prefix: install the
# python component of the build tree into a temporary prefix and import it from there, in a
# fresh interpreter that sees nothing of the build tree.
import os
import subprocess
import sys

import pytest

BUILD = os.environ.get("POLYDEPTH_BUILD_DIR")
INSTALL_DIR = os.environ.get("POLYDEPTH_PYTHON_INSTALL_DIR")


@pytest.mark.skipif(not BUILD or not INSTALL_DIR, reason="POLYDEPTH_BUILD_DIR / POLYDEPTH_PYTHON_INSTALL_DIR not set")
def test_installed_package_imports_and_answers(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix), "--component", "python"], check=True,
                   capture_output=True, timeout=120)
    site = prefix / INSTALL_DIR
    assert (site / "polydepth" / "__init__.py").is_file()
    script = ("import numpy as np, polydepth\n"
              "v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0]])\n"
              "f = np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]])\n"
              "t = polydepth.Mesh(v, f)\n"
              "pose = np.eye(4); pose[0, 3] = 0.1\n"
              "r = polydepth.penetration(t, pose, t, np.eye(4))\n"
              "print(polydepth.__file__, r.state.name)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60,
                          cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    where, state = done.stdout.split()
    assert where.startswith(str(site)) and state == "PENETRATING"
