# SPDX-License-Identifier: MIT
"""Builds the Python package with the project's CMake build (read by pip through pyproject.toml).

The extensions polydepth._polydepth, polydepth._io and polydepth._render are the CMake target
polydepth_python_package, built for the interpreter running this file (Python3_EXECUTABLE) with the
tests, benchmarks and the Bullet shim left out. Environment:
  POLYDEPTH_PIP_BUILD_DIR   where setuptools and CMake build (default: build-pip/ in the source tree)
  POLYDEPTH_CMAKE_ARGS      more arguments for the CMake configure step (space-separated)
  CMAKE_BUILD_PARALLEL_LEVEL  compile jobs (default: the processors available)
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
BUILD_BASE = os.path.abspath(os.environ.get("POLYDEPTH_PIP_BUILD_DIR") or os.path.join(ROOT, "build-pip"))
os.makedirs(BUILD_BASE, exist_ok=True)  # egg_info writes its metadata there, out of the source tree


def project_version():
    """The version in CMakeLists.txt's project() call: one number for the C library and the package."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        match = re.search(r"project\(PolyDepth\s+VERSION\s+([0-9.]+)", f.read())
    if match is None:
        raise RuntimeError("CMakeLists.txt: no project(PolyDepth VERSION ...) found")
    return match.group(1)


class CMakeBuild(build_ext):
    """Configures and builds the CMake target polydepth_python_package once, then copies each
    extension module it made (<cmake>/python/polydepth/_*.so) where setuptools wants it."""

    def run_cmake(self):
        if shutil.which("cmake") is None:
            raise RuntimeError("building polydepth needs CMake 3.22 or newer on PATH (Debian: apt-get install cmake)")
        cmake_dir = os.path.join(os.path.abspath(self.build_temp), "cmake")
        os.makedirs(cmake_dir, exist_ok=True)
        configure = [
            "cmake", "-S", ROOT, "-B", cmake_dir,
            "-DCMAKE_BUILD_TYPE=Release",
            # A virtual environment's interpreter builds what its base does: the base's path keeps the
            # CMake tree valid from one environment to the next.
            "-DPython3_EXECUTABLE=" + getattr(sys, "_base_executable", sys.executable),
            "-DPOLYDEPTH_PYTHON=ON", "-DPOLYDEPTH_SAMPLES=ON",
            "-DPOLYDEPTH_TESTS=OFF", "-DPOLYDEPTH_BENCH=OFF", "-DPOLYDEPTH_EXAMPLES=OFF", "-DPOLYDEPTH_SHIM=OFF",
        ]
        if shutil.which("ninja") and not os.path.exists(os.path.join(cmake_dir, "CMakeCache.txt")):
            configure += ["-G", "Ninja"]
        configure += shlex.split(os.environ.get("POLYDEPTH_CMAKE_ARGS", ""))
        subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(len(os.sched_getaffinity(0)))
        subprocess.run(["cmake", "--build", cmake_dir, "--target", "polydepth_python_package", "-j", jobs],
                       check=True)
        return os.path.join(cmake_dir, "python", "polydepth")

    def build_extension(self, ext):
        if getattr(self, "_built_dir", None) is None:
            self._built_dir = self.run_cmake()
        name = self.get_ext_filename(ext.name.split(".")[-1])  # _io.cpython-311-x86_64-linux-gnu.so
        built = os.path.join(self._built_dir, name)
        if not os.path.exists(built):
            raise RuntimeError("the CMake build made no %s (is pybind11 installed? Debian: pybind11-dev python3-dev)"
                               % built)
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        self.copy_file(built, target)


setup(
    version=project_version(),
    packages=["polydepth"],
    package_dir={"": "python"},
    package_data={"polydepth": ["py.typed", "*.pyi"]},
    # The modules CMake builds: the library's, the file loaders', the headless renderer's.
    ext_modules=[Extension("polydepth." + name, sources=[]) for name in ("_polydepth", "_io", "_render")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": BUILD_BASE}, "egg_info": {"egg_base": BUILD_BASE}},
    zip_safe=False,
)
