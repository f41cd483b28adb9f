# SPDX-License-Identifier: MIT
# Type stubs of polydepth.render.
import os
from typing import Any, Iterable, Sequence, Tuple, Union

import numpy.typing as npt

_Vec3 = Union[Sequence[float], npt.ArrayLike]
_Rgb = Sequence[float]

def available() -> bool: ...
def write_png(path: Union[str, os.PathLike[str]], items: Iterable[Tuple[Any, Any, _Rgb]], *, eye: _Vec3, target: _Vec3,
              up: _Vec3 = ..., size: Tuple[int, int] = ..., fov_y: float = ..., ground_y: float = ...,
              ground_half_size: float = ..., grid_spacing: float = ..., shadows: bool = ...,
              lines: Iterable[Tuple[_Vec3, _Vec3, _Rgb]] = ...,
              labels: Iterable[Union[Tuple[int, int, str], Tuple[int, int, str, int]]] = ...) -> None: ...
