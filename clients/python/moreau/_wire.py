"""A fast codec for the hot call, StepBatch.

Building a ``StepBatchRequest`` with the generated classes and reading every
``Observation`` field into numpy costs about 100 µs per instance in Python —
more than the simulation itself. StepBatch therefore goes over the wire as
raw bytes (the protobuf wire format, which is stable):

* the request is a byte template made once per set of instances, into which
  each step's actions are copied with one numpy assignment;
* the response is scanned once in Python for the offsets of each field of
  each observation, then every packed double field is gathered into an
  (n, size) array with one numpy indexing operation.

The generic decoder handles any field order, missing fields and unknown
fields; tests check it against the generated classes.
"""

from __future__ import annotations

import struct
from typing import Sequence

import numpy as np

from moreau.observation import DOUBLE_FIELDS, ObservationBatch

_WT_VARINT, _WT_I64, _WT_LEN, _WT_I32 = 0, 1, 2, 5


def encode_varint(value: int) -> bytes:
    """The base-128 varint of a non-negative integer."""
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _key(field_number: int, wire_type: int) -> bytes:
    return encode_varint((field_number << 3) | wire_type)


def _read_varint(buf: bytes, pos: int) -> tuple[int, int]:
    byte = buf[pos]
    if byte < 0x80:
        return byte, pos + 1
    result = byte & 0x7F
    shift = 7
    pos += 1
    while True:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def _skip(buf: bytes, pos: int, wire_type: int) -> int:
    if wire_type == _WT_VARINT:
        return _read_varint(buf, pos)[1]
    if wire_type == _WT_I64:
        return pos + 8
    if wire_type == _WT_LEN:
        length, pos = _read_varint(buf, pos)
        return pos + length
    if wire_type == _WT_I32:
        return pos + 4
    raise ValueError(f"unsupported protobuf wire type {wire_type}")


class StepBatchEncoder:
    """Encodes ``StepBatchRequest`` bytes for a fixed list of instances.

    Args:
        instance_ids: the instances, in request order.
        action_size: actions per instance (Spec.action.size).
        substeps: sub-steps per instance (one value for all, or one each).
    """

    def __init__(self, instance_ids: Sequence[str], action_size: int,
                 substeps: int | Sequence[int], *, packed: bool = False) -> None:
        n = len(instance_ids)
        self.packed = packed
        # StepBatchRequest.packed = 2 (varint 1): the reply is one ObservationBatch.
        self._trailer = _key(2, _WT_VARINT) + b"\x01" if packed else b""
        if isinstance(substeps, (int, np.integer)):
            substeps = [int(substeps)] * n
        if len(substeps) != n:
            raise ValueError(f"{len(substeps)} substeps values for {n} instances")
        self.num_instances = n
        self.action_size = action_size
        self.instance_ids = list(instance_ids)
        action_bytes = 8 * action_size
        self._prefixes: list[bytes] = []
        self._suffixes: list[bytes] = []
        for instance_id, k in zip(instance_ids, substeps):
            ident = instance_id.encode()
            head = _key(1, _WT_LEN) + encode_varint(len(ident)) + ident
            action_head = (_key(2, _WT_LEN) + encode_varint(action_bytes)) if action_size else b""
            tail = (_key(3, _WT_VARINT) + encode_varint(int(k))) if k else b""
            body_length = len(head) + len(action_head) + action_bytes + len(tail)
            self._prefixes.append(_key(1, _WT_LEN) + encode_varint(body_length) + head +
                                  action_head)
            self._suffixes.append(tail)
        # When every entry has the same length (ids of one length, one substeps
        # value), the request is an (n, L) byte matrix: actions are one slice.
        lengths = {len(p) + len(s) for p, s in zip(self._prefixes, self._suffixes)}
        self._matrix: np.ndarray | None = None
        if n and len(lengths) == 1 and len({len(p) for p in self._prefixes}) == 1:
            start = len(self._prefixes[0])
            self._slot = slice(start, start + action_bytes)
            rows = [np.frombuffer(p + bytes(action_bytes) + s, dtype=np.uint8)
                    for p, s in zip(self._prefixes, self._suffixes)]
            self._matrix = np.stack(rows)

    def encode(self, actions: np.ndarray, rows: np.ndarray | None = None) -> bytes:
        """The request for ``actions`` of shape (n, action_size); with
        ``rows`` (indices), only those instances, in that order (actions still
        has one row per instance)."""
        actions = np.ascontiguousarray(actions, dtype="<f8")
        if actions.shape != (self.num_instances, self.action_size):
            raise ValueError(f"actions have shape {actions.shape}, expected "
                             f"{(self.num_instances, self.action_size)}")
        if self._matrix is not None:
            self._matrix[:, self._slot] = actions.view(np.uint8).reshape(self.num_instances, -1)
            return (self._matrix if rows is None else self._matrix[rows]).tobytes() + self._trailer
        parts = []
        for i in (range(self.num_instances) if rows is None else rows):
            parts.append(self._prefixes[i])
            parts.append(actions[i].tobytes())
            parts.append(self._suffixes[i])
        parts.append(self._trailer)
        return b"".join(parts)

    def decode(self, buf: bytes, rows: np.ndarray | None = None) -> ObservationBatch:
        """The reply to a request this encoder made (with the same ``rows``)."""
        if not self.packed:
            return decode_step_batch(buf)
        ids = self.instance_ids if rows is None else [self.instance_ids[i] for i in rows]
        return decode_packed_step_batch(buf, ids)

    def decode_into(self, buf: bytes, rows: np.ndarray | None, out: ObservationBatch,
                    where: slice | np.ndarray) -> None:
        """:meth:`decode` written straight into rows ``where`` of ``out``."""
        ids = self.instance_ids if rows is None else [self.instance_ids[i] for i in rows]
        if self.packed:
            decode_packed_into(buf, ids, out, where)
        else:
            out.assign(where, decode_step_batch(buf))


# Field numbers of moreau.v1.Observation.
_ID, _TIME, _STEPS, _FLAGS, _ITER, _CONVERGED, _STATUS, _SUBSTEPS = 1, 2, 3, 12, 13, 14, 15, 16
_unpack_double = struct.Struct("<d").unpack_from


def decode_step_batch(buf: bytes) -> ObservationBatch:
    """Decodes ``StepBatchResponse`` bytes into stacked arrays."""
    starts: dict[int, list[int]] = {number: [] for number in range(4, 13)}
    lengths: dict[int, list[int]] = {number: [] for number in range(4, 13)}
    ids: list[str] = []
    times: list[float] = []
    steps: list[int] = []
    iterations: list[int] = []
    converged: list[bool] = []
    codes: list[int] = []
    messages: list[str] = []
    substeps: list[int] = []

    pos, end = 0, len(buf)
    row = 0
    while pos < end:
        key, pos = _read_varint(buf, pos)
        if key != 0x0A:  # StepBatchResponse.observations = 1, length-delimited
            pos = _skip(buf, pos, key & 7)
            continue
        size, pos = _read_varint(buf, pos)
        stop = pos + size
        ids.append("")
        times.append(0.0)
        steps.append(0)
        iterations.append(0)
        converged.append(False)
        codes.append(0)
        messages.append("")
        substeps.append(0)
        for number in starts:
            starts[number].append(0)
            lengths[number].append(0)
        while pos < stop:
            key = buf[pos]
            if key < 0x80:
                pos += 1
            else:
                key, pos = _read_varint(buf, pos)
            number, wire_type = key >> 3, key & 7
            if wire_type == _WT_LEN:
                length = buf[pos]
                if length < 0x80:
                    pos += 1
                else:
                    length, pos = _read_varint(buf, pos)
                if 4 <= number <= 12:
                    starts[number][row] = pos
                    lengths[number][row] = length
                elif number == _ID:
                    ids[row] = buf[pos:pos + length].decode()
                elif number == _STATUS:
                    codes[row], messages[row] = _decode_status(buf, pos, pos + length)
                pos += length
            elif wire_type == _WT_VARINT:
                value, pos = _read_varint(buf, pos)
                if number == _STEPS:
                    steps[row] = value
                elif number == _SUBSTEPS:
                    substeps[row] = value
                elif number == _ITER:
                    iterations[row] = value
                elif number == _CONVERGED:
                    converged[row] = bool(value)
            elif wire_type == _WT_I64:
                if number == _TIME:
                    times[row] = _unpack_double(buf, pos)[0]
                pos += 8
            else:
                pos = _skip(buf, pos, wire_type)
        row += 1

    n = row
    raw = np.frombuffer(buf, dtype=np.uint8)
    arrays = {name: _gather(raw, starts[number], lengths[number], n, 8, np.dtype("<f8"))
              for name, number in DOUBLE_FIELDS.items()}
    flags = _gather(raw, starts[_FLAGS], lengths[_FLAGS], n, 1, np.dtype(np.uint8))
    return ObservationBatch(
        instance_ids=ids,
        time=np.array(times, dtype=np.float64),
        steps=np.array(steps, dtype=np.int64),
        contact_flags=flags.astype(bool),
        solver_iterations=np.array(iterations, dtype=np.int32),
        solver_converged=np.array(converged, dtype=bool),
        status_code=np.array(codes, dtype=np.int32),
        status_message=messages,
        substeps_done=np.array(substeps, dtype=np.int32),
        **arrays,
    )


def _decode_status(buf: bytes, pos: int, stop: int) -> tuple[int, str]:
    code, message = 0, ""
    while pos < stop:
        key, pos = _read_varint(buf, pos)
        number, wire_type = key >> 3, key & 7
        if number == 1 and wire_type == _WT_VARINT:
            code, pos = _read_varint(buf, pos)
            if code >= 1 << 63:  # a negative int32 (never sent by moreaud)
                code -= 1 << 64
        elif number == 2 and wire_type == _WT_LEN:
            length, pos = _read_varint(buf, pos)
            message = buf[pos:pos + length].decode(errors="replace")
            pos += length
        else:
            pos = _skip(buf, pos, wire_type)
    return code, message


def _gather(raw: np.ndarray, starts: list[int], lengths: list[int], n: int, item: int,
            dtype: np.dtype) -> np.ndarray:
    """Rows ``raw[start : start + length]`` as an (n, width) array of ``dtype``.

    Rows shorter than the widest (fields a failed instance left out) are NaN
    (for doubles) or 0.
    """
    width_bytes = max(lengths) if lengths else 0
    width = width_bytes // item
    if dtype.kind == "f":
        out = np.full((n, width), np.nan, dtype=np.float64)
    else:
        out = np.zeros((n, width), dtype=dtype)
    if width == 0:
        return out
    start_array = np.asarray(starts, dtype=np.int64)
    full = np.asarray(lengths, dtype=np.int64) == width_bytes
    index = start_array[full, None] + np.arange(width_bytes, dtype=np.int64)
    rows = raw[index].view(dtype)
    out[full] = rows
    return out


# moreau.v1.ObservationBatch: field number → (name, numpy dtype) of its
# fixed-width packed arrays, and the row-width fields.
_BATCH_ARRAYS = {
    8: ("time", np.dtype("<f8")),
    9: ("steps", np.dtype("<i8")),
    10: ("q", np.dtype("<f8")),
    11: ("v", np.dtype("<f8")),
    12: ("joint_positions", np.dtype("<f8")),
    13: ("joint_velocities", np.dtype("<f8")),
    14: ("joint_torques", np.dtype("<f8")),
    15: ("base_pose", np.dtype("<f8")),
    16: ("base_twist", np.dtype("<f8")),
    17: ("contact_normal_forces", np.dtype("<f8")),
    18: ("contact_flags", np.dtype(np.uint8)),
    19: ("solver_iterations", np.dtype("<i4")),
    20: ("solver_converged", np.dtype(np.uint8)),
    21: ("status_code", np.dtype("<i4")),
    23: ("substeps_done", np.dtype("<i4")),
}
_BATCH_SIZES = {1: "count", 2: "nq", 3: "nv", 4: "num_actuators", 5: "num_contacts",
                6: "floating_base"}
_BATCH_IDS, _BATCH_MESSAGES = 30, 31
_PER_INSTANCE = ("time", "steps", "solver_iterations", "solver_converged", "status_code",
                 "substeps_done")


def _read_packed(buf: bytes, instance_ids: Sequence[str] | None
                 ) -> tuple[dict[str, np.ndarray], list[str], list[str]]:
    """The arrays of the ``ObservationBatch`` in ``StepBatchResponse`` bytes,
    as read-only views of ``buf`` shaped (count[, width]), and its ids and
    messages. With ``instance_ids`` (those of the request, in order) the scan
    stops before the per-instance strings when every status is OK (the
    messages are then all empty); it reads them otherwise, and in any field
    order."""
    pos, end = 0, len(buf)
    inner: tuple[int, int] | None = None
    while pos < end:
        key, pos = _read_varint(buf, pos)
        if key == 0x12:  # StepBatchResponse.packed = 2, length-delimited
            size, pos = _read_varint(buf, pos)
            inner = (pos, pos + size)
            pos += size
        else:
            pos = _skip(buf, pos, key & 7)
    sizes = dict.fromkeys(_BATCH_SIZES.values(), 0)
    arrays: dict[str, np.ndarray] = {}
    ids: list[str] = []
    messages: list[str] = []
    pos, stop = inner if inner is not None else (0, 0)
    view = memoryview(buf)
    while pos < stop:
        key, pos = _read_varint(buf, pos)
        number, wire_type = key >> 3, key & 7
        if (instance_ids is not None and number in (_BATCH_IDS, _BATCH_MESSAGES)
                and len(arrays) == len(_BATCH_ARRAYS) and not ids and not messages
                and len(instance_ids) == sizes["count"]
                and not arrays["status_code"].any()):
            ids = list(instance_ids)
            messages = [""] * sizes["count"]
            break
        if wire_type == _WT_LEN:
            length, pos = _read_varint(buf, pos)
            if number in _BATCH_ARRAYS:
                name, dtype = _BATCH_ARRAYS[number]
                arrays[name] = np.frombuffer(view[pos:pos + length], dtype=dtype)
            elif number == _BATCH_IDS:
                ids.append(str(view[pos:pos + length], "utf-8"))
            elif number == _BATCH_MESSAGES:
                messages.append(str(view[pos:pos + length], "utf-8", "replace"))
            pos += length
        elif wire_type == _WT_VARINT and number in _BATCH_SIZES:
            sizes[_BATCH_SIZES[number]], pos = _read_varint(buf, pos)
        else:
            pos = _skip(buf, pos, wire_type)
    n = sizes["count"]
    base = 1 if sizes["floating_base"] else 0
    widths = {"q": sizes["nq"], "v": sizes["nv"], "joint_positions": sizes["num_actuators"],
              "joint_velocities": sizes["num_actuators"],
              "joint_torques": sizes["num_actuators"], "base_pose": 7 * base,
              "base_twist": 6 * base, "contact_normal_forces": sizes["num_contacts"],
              "contact_flags": sizes["num_contacts"]}
    shaped: dict[str, np.ndarray] = {}
    for name, dtype in _BATCH_ARRAYS.values():
        width = widths.get(name)
        array = arrays.get(name)
        if array is None:
            array = np.zeros(0, dtype=dtype)
        if array.size != (n if width is None else n * width):  # np.prod costs µs
            shape = (n,) if width is None else (n, width)
            raise ValueError(f"ObservationBatch.{name} has {array.size} values, "
                             f"expected {shape} for count {n}")
        shaped[name] = array if width is None else array.reshape(n, width)
    if len(ids) != n or len(messages) != n:
        raise ValueError(f"ObservationBatch has {len(ids)} instance ids and {len(messages)} "
                         f"status messages for count {n}")
    return shaped, ids, messages


def decode_packed_step_batch(buf: bytes,
                             instance_ids: Sequence[str] | None = None) -> ObservationBatch:
    """Decodes ``StepBatchResponse`` bytes whose ``packed`` field holds an
    ``ObservationBatch``: every array is one ``np.frombuffer`` (then copied:
    aligned and writable). ``instance_ids`` as in :func:`_read_packed`."""
    arrays, ids, messages = _read_packed(buf, instance_ids)
    out = {name: array.copy() for name, array in arrays.items()}
    return ObservationBatch(
        instance_ids=ids,
        status_message=messages,
        contact_flags=out.pop("contact_flags").astype(bool),
        solver_converged=out.pop("solver_converged").astype(bool),
        **out,
    )


def decode_packed_into(buf: bytes, instance_ids: Sequence[str] | None, out: ObservationBatch,
                       where: slice | np.ndarray) -> None:
    """Decodes like :func:`decode_packed_step_batch`, writing the rows
    straight into rows ``where`` of ``out`` (one copy per array instead of
    two), as :meth:`ObservationBatch.assign` would."""
    arrays, ids, messages = _read_packed(buf, instance_ids)
    for name, array in arrays.items():
        target = getattr(out, name)
        if array.shape[1:] != target.shape[1:]:
            if array.size:
                raise ValueError(f"ObservationBatch.{name} rows have shape {array.shape[1:]}, "
                                 f"this batch's have {target.shape[1:]}")
            # A batch whose instances all failed carries no rows.
            target[where] = np.nan if target.dtype.kind == "f" else 0
        else:
            target[where] = array
    out.set_labels(where, ids, messages)
