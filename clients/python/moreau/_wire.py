"""The codec of the hot call, StepBatch.

Building a ``StepBatchRequest`` with the generated classes and reading every
``Observation`` field into numpy costs about 100 µs per instance in Python —
more than the simulation itself. StepBatch therefore goes over the wire as
raw bytes (the protobuf wire format, which is stable):

* the request is a byte template made once per set of instances, into which
  each step's actions are copied with one numpy assignment;
* a packed reply (one ``ObservationBatch``, struct of arrays) is scanned once
  for the offset of each array, and every array is one ``np.frombuffer``.

An unpacked reply (one ``Observation`` per instance, which instances of
different shapes need) is read by the generated classes. Field numbers come
from the generated descriptors; tests check the codec against the generated
classes.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from google.protobuf.descriptor import FieldDescriptor

from moreau._proto import pb
from moreau.observation import ObservationBatch

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


def _number(message: type, field: str) -> int:
    """The field number of ``message.field`` in the wire contract."""
    return message.DESCRIPTOR.fields_by_name[field].number


_REQUEST_STEPS = _number(pb.StepBatchRequest, "steps")
_REQUEST_PACKED = _number(pb.StepBatchRequest, "packed")
_STEP_ID = _number(pb.StepRequest, "instance_id")
_STEP_ACTION = _number(pb.StepRequest, "action")
_STEP_SUBSTEPS = _number(pb.StepRequest, "substeps")
_RESPONSE_PACKED = _number(pb.StepBatchResponse, "packed")


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
        # StepBatchRequest.packed = true: the reply is one ObservationBatch.
        self._trailer = _key(_REQUEST_PACKED, _WT_VARINT) + b"\x01" if packed else b""
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
            head = _key(_STEP_ID, _WT_LEN) + encode_varint(len(ident)) + ident
            action_head = ((_key(_STEP_ACTION, _WT_LEN) + encode_varint(action_bytes))
                           if action_size else b"")
            tail = (_key(_STEP_SUBSTEPS, _WT_VARINT) + encode_varint(int(k))) if k else b""
            body_length = len(head) + len(action_head) + action_bytes + len(tail)
            self._prefixes.append(_key(_REQUEST_STEPS, _WT_LEN) + encode_varint(body_length) +
                                  head + action_head)
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
            return decode_unpacked_step_batch(buf)
        ids = self.instance_ids if rows is None else [self.instance_ids[i] for i in rows]
        return decode_packed_step_batch(buf, ids)

    def decode_into(self, buf: bytes, rows: np.ndarray | None, out: ObservationBatch,
                    where: slice | np.ndarray) -> None:
        """:meth:`decode` written straight into rows ``where`` of ``out``."""
        ids = self.instance_ids if rows is None else [self.instance_ids[i] for i in rows]
        if self.packed:
            decode_packed_into(buf, ids, out, where)
        else:
            out.assign(where, decode_unpacked_step_batch(buf))


def decode_unpacked_step_batch(buf: bytes) -> ObservationBatch:
    """Decodes ``StepBatchResponse`` bytes with one ``Observation`` per
    instance (the generated classes read them); rows of instances that
    returned no data hold NaN or 0."""
    return ObservationBatch.from_protos(pb.StepBatchResponse.FromString(buf).observations)


# moreau.v1.ObservationBatch: the numpy dtype of each packed fixed-width type.
_DTYPES = {FieldDescriptor.TYPE_DOUBLE: np.dtype("<f8"),
           FieldDescriptor.TYPE_SFIXED64: np.dtype("<i8"),
           FieldDescriptor.TYPE_SFIXED32: np.dtype("<i4"),
           FieldDescriptor.TYPE_BOOL: np.dtype(np.uint8)}  # packed bools: one byte, 0 or 1


def _batch_arrays() -> dict[int, tuple[str, np.dtype]]:
    """Field number → (ObservationBatch attribute, dtype) of the arrays of
    moreau.v1.ObservationBatch."""
    fields = pb.ObservationBatch.DESCRIPTOR.fields_by_name
    out = {}
    for name in ObservationBatch.ARRAY_FIELDS:
        field = fields["status_codes" if name == "status_code" else name]
        if field.type not in _DTYPES:
            raise TypeError(f"ObservationBatch.{field.name} is not a fixed-width array")
        out[field.number] = (name, _DTYPES[field.type])
    return out


_BATCH_ARRAYS = _batch_arrays()
_BATCH_SIZES = {_number(pb.ObservationBatch, name): name
                for name in ("count", "nq", "nv", "num_actuators", "num_contacts",
                             "floating_base", "num_observed_links")}
_BATCH_IDS = _number(pb.ObservationBatch, "instance_ids")
_BATCH_MESSAGES = _number(pb.ObservationBatch, "status_messages")
_PACKED_KEY = (_RESPONSE_PACKED << 3) | _WT_LEN


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
        if key == _PACKED_KEY:
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
        # An array the server left out is empty (proto3 writes no empty
        # packed field): the size check below catches one that should not be.
        if (instance_ids is not None and number in (_BATCH_IDS, _BATCH_MESSAGES)
                and not ids and not messages and len(instance_ids) == sizes["count"]
                and (sizes["count"] == 0 or ("status_code" in arrays
                                             and not arrays["status_code"].any()))):
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
              "contact_flags": sizes["num_contacts"],
              "link_positions": 3 * sizes["num_observed_links"]}
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
