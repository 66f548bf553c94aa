"""A dependency-free reader for the safetensors format.

Layout: an 8-byte little-endian unsigned header length N, then N bytes of JSON mapping each tensor name to
``{"dtype", "shape", "data_offsets": [begin, end]}`` (offsets relative to the end of the header), an
optional ``"__metadata__"`` entry, then the raw little-endian tensor buffers.
"""

from __future__ import annotations

import json
import mmap
import os
import struct
from collections.abc import Iterable

import numpy as np

from memql.errors import MemqlError

_DTYPES: dict[str, str] = {
    "F64": "<f8",
    "F32": "<f4",
    "F16": "<f2",
    "I64": "<i8",
    "I32": "<i4",
    "I16": "<i2",
    "I8": "i1",
    "U8": "u1",
    "BOOL": "?",
}
_MAX_HEADER = 100 * 1024 * 1024


class SafetensorsError(MemqlError, ValueError):
    """The file is not a well-formed safetensors file."""


def read_header(path: str | os.PathLike[str]) -> tuple[dict[str, dict], int]:
    """Returns (tensor entries without ``__metadata__``, byte offset where the data section starts)."""
    with open(path, "rb") as fh:
        raw = fh.read(8)
        if len(raw) != 8:
            raise SafetensorsError(f"{path}: too short for a safetensors header")
        (n,) = struct.unpack("<Q", raw)
        if n > _MAX_HEADER:
            raise SafetensorsError(f"{path}: header length {n} is implausible")
        header = json.loads(fh.read(n))
    if not isinstance(header, dict):
        raise SafetensorsError(f"{path}: header is not a JSON object")
    header.pop("__metadata__", None)
    return header, 8 + n


def _decode(buf: memoryview, entry: dict, name: str) -> np.ndarray:
    dtype, shape = entry["dtype"], tuple(entry["shape"])
    begin, end = entry["data_offsets"]
    chunk = buf[begin:end]
    if dtype == "BF16":
        # bfloat16 is the top half of a float32: widen by shifting into the high 16 bits
        bits = np.frombuffer(chunk, dtype="<u2").astype(np.uint32) << 16
        arr = bits.view(np.float32)
    elif dtype in _DTYPES:
        arr = np.frombuffer(chunk, dtype=_DTYPES[dtype])
    else:
        raise SafetensorsError(f"tensor {name}: unsupported dtype {dtype}")
    count = int(np.prod(shape)) if shape else 1
    if arr.size != count:
        raise SafetensorsError(f"tensor {name}: {arr.size} values for shape {shape}")
    return arr.reshape(shape)


def load(
    path: str | os.PathLike[str], names: Iterable[str] | None = None, dtype: np.dtype | type | None = None
) -> dict[str, np.ndarray]:
    """Loads tensors (all, or only ``names``) as owned numpy arrays, optionally cast to ``dtype``.

    Floating tensors in F16/BF16 are widened losslessly when ``dtype`` is float32. The file is memory-mapped
    while reading; the returned arrays are copies, so nothing keeps the file open.
    """
    header, start = read_header(path)
    wanted = list(header) if names is None else list(names)
    missing = [n for n in wanted if n not in header]
    if missing:
        raise KeyError(f"{path}: tensors not found: {', '.join(missing[:5])}")
    out: dict[str, np.ndarray] = {}
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        view = memoryview(mm)
        try:
            data = view[start:]
            for name in wanted:
                arr = _decode(data, header[name], name)
                out[name] = arr.astype(dtype) if dtype is not None else arr.copy()
                del arr
            del data
        finally:
            view.release()
    return out
