"""pgvector's ``vector`` as the schema's binary values: float32 bytes (native order) are sent
as a ``vector`` and a ``vector`` column comes back as those bytes (see ``db.py``)."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import psycopg
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

__all__ = ["configure_vectors", "decode_wire", "wire_vectors"]

_HEADER = struct.Struct(">HH")


class _VectorDumper(Dumper):
    """float32 bytes (native order) → pgvector's binary form (dim, 0, big-endian floats)."""

    format = Format.BINARY

    def dump(self, obj: Any) -> bytes:
        values = np.frombuffer(bytes(obj), dtype=np.float32)
        return _HEADER.pack(len(values), 0) + values.astype(">f4").tobytes()


class _VectorLoader(Loader):
    format = Format.BINARY

    def load(self, data: Any) -> bytes:
        dim, _ = _HEADER.unpack_from(data)
        return np.frombuffer(data, dtype=">f4", count=dim, offset=4).astype(np.float32).tobytes()


class _WireVector(Loader):
    """pgvector's binary form as it comes, for :func:`decode_wire` to decode many at once."""

    format = Format.BINARY

    def load(self, data: Any) -> bytes:
        return bytes(data)


def wire_vectors(cursor: Any) -> Any:
    """``cursor`` with ``vector`` columns loaded as their undecoded binary form."""
    oid = cursor.adapters.types["vector"].oid
    cursor.adapters.register_loader(oid, _WireVector)
    return cursor


def decode_wire(blobs: list[bytes]) -> np.ndarray:
    """Vectors of one dimension in pgvector's binary form (a 4-byte header, then big-endian
    float32) as one float32 matrix: one numpy call, not one per row."""
    wire = np.frombuffer(b"".join(blobs), dtype=">f4").reshape(len(blobs), -1)
    return wire[:, 1:].astype(np.float32)


class _VectorTextLoader(Loader):
    def load(self, data: Any) -> bytes:
        text = bytes(data).decode().strip("[]")
        return np.array(
            [float(x) for x in text.split(",")] if text else [], dtype=np.float32
        ).tobytes()


def configure_vectors(raw: psycopg.Connection[Any]) -> None:
    info = TypeInfo.fetch(raw, "vector")
    if info is None:
        raise RuntimeError("the pgvector extension is missing from this database")
    info.register(raw)  # by name too: a reader may load it its own way (vectors.py)
    dumper = type("VectorDumper", (_VectorDumper,), {"oid": info.oid})
    raw.adapters.register_dumper(bytes, dumper)
    raw.adapters.register_loader(info.oid, _VectorLoader)
    raw.adapters.register_loader(info.oid, _VectorTextLoader)
