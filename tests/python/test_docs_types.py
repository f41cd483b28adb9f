# SPDX-License-Identifier: MIT
# The package documents itself and is typed: every public function, class and method has a
# docstring, every function and class an example that runs (doctest), help(polydepth) reads as a
# page, the stubs (.pyi, py.typed) match the module (mypy's stubtest) and mypy checks user code
# against them.
import doctest
import inspect
import os
import pydoc
import subprocess
import sys

import pytest

import polydepth

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_DIR = os.path.dirname(os.path.dirname(polydepth.__file__))


def public_objects():
    """(name, object) of every public function, class, method and property of the package."""
    modules = [("polydepth", polydepth), ("polydepth.render", polydepth.render)]
    for prefix, module in modules:
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.ismodule(obj) or isinstance(obj, int):
                continue
            yield prefix + "." + name, obj
            if inspect.isclass(obj):
                for member, value in vars(obj).items():
                    if member.startswith("_") or isinstance(value, obj):  # enum values
                        continue
                    if hasattr(obj, "__members__") and member in ("name", "value"):  # pybind11's enum parts
                        continue
                    yield prefix + "." + name + "." + member, getattr(obj, member)


def test_every_public_name_has_a_docstring_and_the_callables_an_example():
    missing, without_example = [], []
    for name, obj in public_objects():
        doc = inspect.getdoc(obj) or ""
        if not doc.strip():
            missing.append(name)
        elif (inspect.isclass(obj) or callable(obj)) and not isinstance(obj, property) and ">>>" not in doc:
            without_example.append(name)
    assert not missing, "no docstring: " + ", ".join(missing)
    assert not without_example, "no example: " + ", ".join(without_example)


def test_docstring_examples_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples that write files write here
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    docs = [("polydepth", polydepth.__doc__), ("polydepth.render", polydepth.render.__doc__)]
    docs += [(name, inspect.getdoc(obj)) for name, obj in public_objects()]
    tried = 0
    for name, doc in docs:
        if doc and ">>>" in doc:
            test = parser.get_doctest(doc, {}, name, None, 0)
            result = runner.run(test, out=lambda text: sys.stdout.write(text))
            tried += result.attempted
            assert result.failed == 0, name
    assert tried > 50


def test_help_reads_as_a_page():
    page = pydoc.render_doc(polydepth, renderer=pydoc.plaintext)
    for heading in ("QUICK START", "CONVENTIONS", "MESHES", "QUERIES", "ERRORS"):
        assert heading in page
    assert "(w, x, y, z)" in page and "translation in a result is for A" in page
    function_page = pydoc.render_doc(polydepth.penetration, renderer=pydoc.plaintext)
    assert "Example:" in function_page and "max_starts" in function_page


def run_mypy(arguments, env_extra):
    env = dict(os.environ, MYPYPATH=PACKAGE_DIR, **env_extra)
    return subprocess.run([sys.executable, "-m"] + arguments, capture_output=True, text=True, timeout=600, env=env)


def test_stubs_match_the_module():
    pytest.importorskip("mypy")
    done = run_mypy(["mypy.stubtest", "polydepth", "--allowlist", os.path.join(HERE, "stubtest_allowlist.txt"),
                     "--mypy-config-file", os.devnull], {})
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_checks_user_code_against_the_stubs(tmp_path):
    pytest.importorskip("mypy")
    good = tmp_path / "good.py"
    good.write_text(
        "import numpy as np\nimport polydepth\n\n"
        "box: polydepth.Mesh = polydepth.Mesh.box((1, 1, 1))\n"
        "r = polydepth.penetration(box, np.eye(4), box, polydepth.Pose(translation=(0.8, 0, 0)), max_starts=4)\n"
        "depth: float = r.depth\n"
        "normals = [region.normal for region in r.local]\n"
        "batch = polydepth.penetration_batch(box, np.tile(np.eye(4), (3, 1, 1)), box, np.eye(4))\n"
        "first: polydepth.PenetrationResult = batch[0]\n"
        "polydepth.render.write_png('x.png', [(box, np.eye(4), (1, 0, 0))], eye=(1, 1, 1), target=(0, 0, 0))\n")
    bad = tmp_path / "bad.py"
    bad.write_text("import polydepth\n\ncount: str = polydepth.Mesh.box().vertex_count\n"
                   "polydepth.distance(polydepth.Mesh.box())\n")
    examples = os.path.join(HERE, "..", "..", "examples", "python")
    checked = [str(good), os.path.join(examples, "query.py"), os.path.join(examples, "clash.py")]
    done = run_mypy(["mypy", "--no-incremental", "--cache-dir", os.devnull, "--ignore-missing-imports"] + checked, {})
    assert done.returncode == 0, done.stdout + done.stderr
    done = run_mypy(["mypy", "--no-incremental", "--cache-dir", os.devnull, str(bad)], {})
    assert done.returncode != 0 and "bad.py:3" in done.stdout and "bad.py:4" in done.stdout, done.stdout
