# SPDX-License-Identifier: MIT
# The package as its users install it: `pip install .` from the source tree into a virtual
# environment, the import from outside the tree, the README's first example, the uninstall;
# `pip install -e .`; a wheel made by `python3 -m build --wheel --no-isolation` installed into a
# fresh environment. Offline: --no-build-isolation, the build tools and numpy from the system
# (--system-site-packages). One CMake build serves the three (POLYDEPTH_PIP_BUILD_DIR).
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
README_EXAMPLE = re.compile(r"<!-- copied from examples/python/quickstart.py -->\n```python\n(.*?)```", re.S)


def run(command, env, cwd, timeout=900):
    done = subprocess.run([str(c) for c in command], env=env, cwd=str(cwd), capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, "%s\n%s\n%s" % (" ".join(map(str, command)), done.stdout[-4000:], done.stderr[-4000:])
    return done.stdout


def make_venv(path, env):
    run([sys.executable, "-m", "venv", "--system-site-packages", path], env, path.parent)
    return path / "bin" / "python"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.setdefault("POLYDEPTH_PIP_BUILD_DIR", str(tmp_path_factory.mktemp("pip-build")))
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_WARN_SCRIPT_LOCATION="1")
    return env


def check_installed(python, env, cwd, package_dir):
    """Imports from outside the tree, from package_dir; runs the README's example and reads a file."""
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    example = README_EXAMPLE.search(readme).group(1)
    assert len(example.strip().splitlines()) <= 4  # with the pip line, five lines to the first answer
    out = run([python, "-c", example], env, cwd)
    assert out.startswith("PENETRATING 0.200"), out
    (cwd / "tetra.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 1 4 3\n")
    out = run([python, "-c", "import polydepth; print(polydepth.__file__); "
                             "print(polydepth.Mesh.from_file('tetra.obj').triangle_count)"], env, cwd)
    where, triangles = out.split()
    assert where.startswith(str(package_dir)) and triangles == "4", out


def test_pip_install_editable_install_and_wheel(tmp_path, env):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    python = make_venv(tmp_path / "venv", env)
    site = run([python, "-c", "import sysconfig; print(sysconfig.get_path('platlib'))"], env, outside).strip()

    run([python, "-m", "pip", "install", "--no-build-isolation", ROOT], env, outside)
    check_installed(python, env, outside, site)
    out = run([python, "-c", "import polydepth.render as r; print(r.available())"], env, outside)
    assert out.strip() in ("True", "False")
    run([python, "-m", "pip", "uninstall", "-y", "polydepth"], env, outside)
    gone = subprocess.run([str(python), "-c", "import polydepth"], env=env, cwd=str(outside), capture_output=True)
    assert gone.returncode != 0

    # Editable: the package runs from python/ in the source tree, its extensions built in place.
    in_place = set(os.listdir(os.path.join(ROOT, "python", "polydepth")))
    try:
        run([python, "-m", "pip", "install", "--no-build-isolation", "-e", ROOT], env, outside)
        check_installed(python, env, outside, os.path.join(ROOT, "python", "polydepth"))
        run([python, "-m", "pip", "uninstall", "-y", "polydepth"], env, outside)
    finally:
        for name in set(os.listdir(os.path.join(ROOT, "python", "polydepth"))) - in_place:
            if name.endswith(".so"):
                os.remove(os.path.join(ROOT, "python", "polydepth", name))

    # A wheel, into a fresh environment.
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, ROOT], env, outside)
    wheels = list(dist.glob("polydepth-*.whl"))
    assert len(wheels) == 1, wheels
    fresh = make_venv(tmp_path / "fresh", env)
    run([fresh, "-m", "pip", "install", wheels[0]], env, outside)
    fresh_site = run([fresh, "-c", "import sysconfig; print(sysconfig.get_path('platlib'))"], env, outside).strip()
    check_installed(fresh, env, outside, fresh_site)
    listing = run([fresh, "-m", "pip", "show", "-f", "polydepth"], env, outside)
    for name in ("py.typed", "__init__.pyi", "render.pyi", "_io.", "_polydepth."):
        assert name in listing, listing
    shutil.rmtree(tmp_path / "fresh")
