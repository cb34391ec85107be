"""Schema-driven codec for ECTP messages: proto3 JSON and protobuf wire bytes, stdlib only.

Messages are handled as plain dicts keyed by their proto3 JSON (lowerCamelCase) field
names, with normalised values: ``int`` for every integer and enum field, ``bytes`` for
bytes fields, ``str``, ``bool``, nested dicts and lists. An absent field is an absent key
(proto3 default); a ``oneof`` is the one key that is set. This is the form the sans-IO
cores in this package consume and produce.

Why one codec for both encodings: the testee protocol speaks proto3 JSON
(``--json-lines``) or size-delimited protobuf (binary mode), and ``DeliverMessage.raw``
carries envelope bytes in either mode [V1][V2]. The tables come from ``schema.py``
(generated from the .proto files).

Decoding from JSON is *lenient* on purpose: a value that does not convert (a
non-numeric size, a null, an unknown enum name) is kept as received instead of raising,
so that untrusted input reaches the cores' validators, which turn it into a typed
outcome ([C2]: INVALID_ANNOUNCEMENT) instead of an exception [I1]. Decoding protobuf
bytes raises :class:`DecodeError` for malformed input; callers treat that as a malformed
message [C10].
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from typing import Any

from .schema import ENUMS, MESSAGES, ONEOFS

_INT_KINDS = frozenset({"uint32", "uint64", "int32", "int64", "sint32", "sint64", "fixed32", "fixed64"})
_STRING_INTS = frozenset({"uint64", "int64", "sint64", "fixed64"})  # written as decimal strings in JSON
_VARINT_KINDS = frozenset({"uint32", "uint64", "int32", "int64", "bool", "enum"})
#: A decimal integer as proto3 JSON writes one in a string: ASCII digits only, nothing around them.
_DECIMAL = re.compile(r"-?[0-9]+")

#: Field tables keyed by JSON name, by proto name and by number, built once.
_BY_JSON: dict[str, dict[str, tuple]] = {}
_BY_NUMBER: dict[str, dict[int, tuple]] = {}
for _name, _fields in MESSAGES.items():
    table = {}
    for _f in _fields:
        table[_f[0]] = _f
        table[_f[5]] = _f
    _BY_JSON[_name] = table
    _BY_NUMBER[_name] = {_f[1]: _f for _f in _fields}
_ENUM_NAMES: dict[str, dict[int, str]] = {e: {v: k for k, v in vals.items()} for e, vals in ENUMS.items()}


class DecodeError(ValueError):
    """Bytes that are not a valid protobuf encoding of the expected message."""


# ----------------------------------------------------------------------------- JSON


#: Standard base64 with its padding, nothing else (``b64decode`` alone accepts excess padding).
_PADDED_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")


def decode_base64(text: str) -> bytes | None:
    """Standard or URL-safe base64, with or without padding; ``None`` when invalid."""
    s = text.replace("-", "+").replace("_", "/")
    s += "=" * (-len(s) % 4)
    if not _PADDED_BASE64.fullmatch(s):
        return None
    try:
        return base64.b64decode(s, validate=True)
    except (binascii.Error, ValueError):
        return None


def _scalar_from_json(kind: str, ref: str, value: Any) -> Any:
    if kind in _INT_KINDS:
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and _DECIMAL.fullmatch(value):
            return int(value)
        return value  # lenient: kept for the validators
    if kind == "bytes":
        if isinstance(value, str):
            decoded = decode_base64(value)
            return value if decoded is None else decoded
        return value
    if kind == "enum":
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)  # JSON has one number type: 2.0 is 2 (as JavaScript's JSON.parse reads it)
        if isinstance(value, str):
            number = ENUMS[ref].get(value)
            if number is not None:
                return number
            if _DECIMAL.fullmatch(value):
                return int(value)  # a number in a string, as for 64-bit integers (nothing around its digits)
        return value
    if kind == "message":
        return from_json(ref, value) if isinstance(value, dict) else value
    return value  # string, bool: kept as is (validators check the type)


def from_json(type_name: str, obj: Any) -> Any:
    """Convert a proto3 JSON object of ``type_name`` to the dict form. Never raises.

    Accepts lowerCamelCase and snake_case names, ignores unknown keys, treats ``null``
    as absent, and keeps values it cannot convert as received (see module docstring).
    A non-dict ``obj`` is returned unchanged.
    """
    if not isinstance(obj, dict):
        return obj
    fields = _BY_JSON[type_name]
    out: dict[str, Any] = {}
    for key, value in obj.items():
        f = fields.get(key)
        if f is None or value is None:
            continue  # unknown fields are ignored [V1]
        json_name, _num, kind, ref, label, _proto = f
        if label == "repeated":
            if isinstance(value, list):
                out[json_name] = [_scalar_from_json(kind, ref, v) for v in value]
            else:
                out[json_name] = value
        else:
            out[json_name] = _scalar_from_json(kind, ref, value)
    return out


def field_named_twice(type_name: str, obj: Any, path: str = "") -> str | None:
    """The path of a field that ``obj`` (proto3 JSON of ``type_name``) or a message inside it gives
    under both of its names, lowerCamelCase and as in the .proto file; ``None`` when none is.

    Every proto3 JSON parser refuses such an object, even with one value under both names; a reader
    that kept either would take another size or another item than a reader that kept the other
    (TESTEE-PROTOCOL 5.4) [C2]."""
    if not isinstance(obj, dict):
        return None
    fields = _BY_JSON[type_name]
    seen: set[str] = set()
    for key, value in obj.items():
        f = fields.get(key)
        if f is None:
            continue
        json_name, _num, kind, ref, label, _proto = f
        if json_name in seen:
            return path + json_name
        seen.add(json_name)
        if kind == "message":
            for inner in value if label == "repeated" and isinstance(value, list) else [value]:
                twice = field_named_twice(ref, inner, f"{path}{json_name}.")
                if twice is not None:
                    return twice
    return None


def _scalar_to_json(kind: str, ref: str, value: Any) -> Any:
    if kind in _STRING_INTS:
        return str(value)
    if kind == "bytes":
        return base64.b64encode(bytes(value)).decode("ascii")
    if kind == "enum":
        return _ENUM_NAMES[ref].get(value, value)
    if kind == "message":
        return to_json(ref, value)
    return value


def to_json(type_name: str, msg: dict) -> dict:
    """Convert the dict form of ``type_name`` to a proto3 JSON object (uint64 as strings,
    enums as names, bytes as standard base64). Keys that are not fields are dropped."""
    fields = _BY_JSON[type_name]
    out: dict[str, Any] = {}
    for key, value in msg.items():
        f = fields.get(key)
        if f is None or value is None:
            continue
        json_name, _num, kind, ref, label, _proto = f
        if label == "repeated":
            out[json_name] = [_scalar_to_json(kind, ref, v) for v in value]
        else:
            out[json_name] = _scalar_to_json(kind, ref, value)
    return out


# ----------------------------------------------------------------------------- protobuf


def _varint(n: int) -> bytes:
    n &= 0xFFFFFFFFFFFFFFFF  # negative int32/int64 are ten-byte two's complement
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _is_default(kind: str, value: Any) -> bool:
    if kind in _INT_KINDS or kind == "enum":
        return value == 0
    if kind == "bool":
        return value is False
    if kind in ("string", "bytes"):
        return len(value) == 0
    return False


#: What a varint field of each kind may carry when encoding (inclusive): a value outside is a local
#: bug, refused rather than wrapped (receivers would read another, valid value), and a uint64 stops
#: at 2^53 - 1 (SPEC.md section 3.8: senders never send more).
_ENCODE_RANGES = {
    "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**53 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "enum": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "bool": (0, 1),
}


def _encode_varint(kind: str, value: Any, field: str, seen: list[int]) -> bytes:
    """The varint of ``value`` for a field of ``kind``; ``ValueError`` for one the field cannot carry
    (a uint64 of a testee frame, ``seen[1] < 0``, may go up to 2^64 - 1: deadlines and counters)."""
    n = int(value)
    low, high = _ENCODE_RANGES[kind]
    if kind == "uint64" and seen[1] < 0:
        high = 2**64 - 1
    if not low <= n <= high:
        raise ValueError(f"{field}: a {kind} must be in [{low}, {high}]; got {value!r}")
    return _varint(n)


def _encode_value(kind: str, ref: str, value: Any, field: str, seen: list[int]) -> tuple[int, bytes]:
    """(wire type, payload) of one value."""
    if kind in _VARINT_KINDS:
        return 0, _encode_varint(kind, value, field, seen)
    if kind == "string":
        data = value.encode("utf-8")
        return 2, _varint(len(data)) + data
    if kind == "bytes":
        data = bytes(value)
        return 2, _varint(len(data)) + data
    if kind == "message":
        data = _encode(ref, value, seen)
        return 2, _varint(len(data)) + data
    raise TypeError(f"cannot encode field kind {kind}")


def encode(type_name: str, msg: dict, limit_elements: bool = True) -> bytes:
    """Protobuf encoding of the dict form of ``type_name``. Repeated scalars are packed;
    default values of non-``optional`` scalars are omitted, as proto3 does.
    Raises ``TypeError``/``ValueError`` for values of the wrong type or out of their field's range,
    for more than ``MAX_REPEATED_ELEMENTS`` repeated elements and for two members of a oneof set
    (SPEC.md section 5; a local bug), unless ``limit_elements`` is false: the testee protocol's own
    frames (as :func:`decode`), which carry no element limit, uint64 values up to 2^64 - 1 (a
    deadline past 2^53 - 1, say) and the envelopes an implementation decided as they are."""
    return _encode(type_name, msg, [0, MAX_REPEATED_ELEMENTS if limit_elements else -1])


def _encode(type_name: str, msg: dict, seen: list[int]) -> bytes:
    """:func:`encode`; ``seen`` is ``[count, limit]`` of the whole message's repeated elements (limit < 0: unlimited)."""
    out = bytearray()
    oneofs = ONEOFS.get(type_name, {})
    members = [k for k in oneofs if msg.get(k) is not None]
    # SPEC.md section 5: receivers refuse a second member. A testee frame (seen[1] < 0) carries what an
    # implementation decided as it is, so a send of two bodies reaches the runner (with its raw_error).
    if len(members) > 1 and seen[1] >= 0:
        raise ValueError(f"{type_name}: more than one member of a oneof set ({', '.join(members)}); set exactly one")
    for f in MESSAGES[type_name]:
        json_name, num, kind, ref, label, _proto = f
        if json_name not in msg or msg[json_name] is None:
            continue
        value = msg[json_name]
        if label == "repeated":
            seen[0] += len(value)
            if 0 <= seen[1] < seen[0]:  # SPEC.md section 5: a sender MUST NOT send more
                raise ValueError(f"{type_name}.{json_name}: more than {MAX_REPEATED_ELEMENTS} repeated elements in one message")
            if kind in _VARINT_KINDS:
                packed = b"".join(_encode_varint(kind, v, json_name, seen) for v in value)
                if packed:
                    out += _varint(num << 3 | 2) + _varint(len(packed)) + packed
            else:
                for v in value:
                    wt, payload = _encode_value(kind, ref, v, json_name, seen)
                    out += _varint(num << 3 | wt) + payload
            continue
        if kind != "message" and label != "optional" and _is_default(kind, value):
            continue
        wt, payload = _encode_value(kind, ref, value, json_name, seen)
        out += _varint(num << 3 | wt) + payload
    return bytes(out)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    """A varint of up to 10 bytes, every bit kept (up to 70): :func:`_varint_value` takes the low 64
    bits of it, except for a bool, which any set bit makes true (as protobufjs reads it)."""
    result = 0
    shift = 0
    while True:
        if pos >= len(data):
            raise DecodeError("truncated varint")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise DecodeError("varint longer than 10 bytes")


def _varint_value(kind: str, raw: int) -> Any:
    if kind == "bool":
        return raw != 0  # any set bit of the 10 bytes, past bit 63 too
    raw &= 0xFFFFFFFFFFFFFFFF
    if kind in ("uint32",):
        return raw & 0xFFFFFFFF
    if kind in ("int32", "enum"):
        raw &= 0xFFFFFFFF
        return raw - (1 << 32) if raw & 0x80000000 else raw
    if kind == "int64":
        return raw - (1 << 64) if raw & (1 << 63) else raw
    return raw


#: The deepest nesting of groups (wire types 3 and 4) read, counting the messages around them
#: (a body in an Envelope is one level): deeper is malformed, so hostile input cannot nest without
#: limit. upb counts the same way and stops at 100; protobufjs too, except that it still reads an
#: empty group one level deeper.
MAX_NESTING_DEPTH = 100


def _read_varint32(data: bytes, pos: int, limit: int, what: str) -> tuple[int, int]:
    """A tag (``limit`` 2^32 - 1) or a length (2^31 - 1) as protobuf reads one: a varint of at most
    5 bytes, its value at most ``limit``; anything else raises ``invalid <what> encoding`` (the
    words protobufjs uses)."""
    result = 0
    shift = 0
    n = len(data)
    while True:
        if pos >= n:
            raise DecodeError("truncated varint")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            if result > limit:
                raise DecodeError(f"invalid {what} encoding: {result} is over {limit}")
            return result, pos
        shift += 7
        if shift >= 35:
            raise DecodeError(f"invalid {what} encoding: a varint longer than 5 bytes")


def _read_tag(data: bytes, pos: int) -> tuple[int, int]:
    """A tag of at most 5 bytes that fits 32 bits: field numbers 1 to 2^29 - 1 (0 is refused by
    the caller)."""
    return _read_varint32(data, pos, 0xFFFFFFFF, "tag")


def _read_length(data: bytes, pos: int) -> tuple[int, int]:
    """A length of at most 5 bytes and at most 2^31 - 1, as protobufjs' ``Reader.size`` reads one
    (upb: below 2^31 - 1; a length that large runs past the end of any frame anyway)."""
    return _read_varint32(data, pos, 0x7FFFFFFF, "length")


def _skip_group(data: bytes, pos: int, number: int, depth: int) -> int:
    """Skip the group of field ``number`` whose start-group tag ends at ``pos``, in a message at
    nesting ``depth``: its fields, nested groups included, up to the end-group tag of the same
    field number. Returns the position after that tag. Iterative: ``open_`` holds the field
    numbers of the groups not yet closed, innermost last."""
    n = len(data)
    open_ = [number]
    if depth + 1 > MAX_NESTING_DEPTH:
        raise DecodeError(f"groups nested more than {MAX_NESTING_DEPTH} deep")
    while open_:
        if pos >= n:
            raise DecodeError(f"group of field {open_[-1]} without its end-group tag")
        tag = data[pos]
        if tag < 0x80:
            pos += 1
        else:
            tag, pos = _read_tag(data, pos)
        num, wt = tag >> 3, tag & 7
        if num == 0:
            raise DecodeError("field number 0")
        if wt == 0:
            if pos < n and data[pos] < 0x80:
                pos += 1
            else:
                _, pos = _read_varint(data, pos)
        elif wt == 2:
            if pos < n and data[pos] < 0x80:
                length = data[pos]
                pos += 1
            else:
                length, pos = _read_length(data, pos)
            if pos + length > n:
                raise DecodeError("truncated length-delimited field")
            pos += length
        elif wt == 1:
            if pos + 8 > n:
                raise DecodeError("truncated fixed64")
            pos += 8
        elif wt == 5:
            if pos + 4 > n:
                raise DecodeError("truncated fixed32")
            pos += 4
        elif wt == 3:
            if depth + len(open_) + 1 > MAX_NESTING_DEPTH:
                raise DecodeError(f"groups nested more than {MAX_NESTING_DEPTH} deep")
            open_.append(num)
        elif wt == 4:
            if num != open_[-1]:
                raise DecodeError(f"end-group tag of field {num} closes the group of field {open_[-1]}")
            open_.pop()
        else:
            raise DecodeError(f"unsupported wire type {wt}")
    return pos


def _fields(data: bytes, depth: int = 0) -> Iterator[tuple[int, int, int, bytes | None]]:
    """The fields of a message at nesting ``depth``, in order: (number, wire type, varint or fixed
    value, payload of a length-delimited field). Groups (wire type 3) are skipped, never yielded:
    no ECTP field is one, so every group is an unknown field [V1]. Malformed framing raises
    :class:`DecodeError`: a tag or length protobuf would refuse, field number 0, an end-group tag
    without its group, a group without its end-group tag, groups nested too deep."""
    pos = 0
    n = len(data)
    while pos < n:
        # One-byte varints (tags of fields 1-15, small values and lengths) are read inline:
        # a hostile frame of millions of tiny unknown fields costs half the time this way.
        tag = data[pos]
        if tag < 0x80:
            pos += 1
        else:
            tag, pos = _read_tag(data, pos)
        num, wt = tag >> 3, tag & 7
        if num == 0:
            raise DecodeError("field number 0")
        raw, payload = 0, None
        if wt == 0:
            if pos < n and data[pos] < 0x80:
                raw = data[pos]
                pos += 1
            else:
                raw, pos = _read_varint(data, pos)
        elif wt == 2:
            if pos < n and data[pos] < 0x80:
                length = data[pos]
                pos += 1
            else:
                length, pos = _read_length(data, pos)
            if pos + length > n:
                raise DecodeError("truncated length-delimited field")
            payload = data[pos : pos + length]
            pos += length
        elif wt == 1:
            if pos + 8 > n:
                raise DecodeError("truncated fixed64")
            raw = int.from_bytes(data[pos : pos + 8], "little")
            pos += 8
        elif wt == 5:
            if pos + 4 > n:
                raise DecodeError("truncated fixed32")
            raw = int.from_bytes(data[pos : pos + 4], "little")
            pos += 4
        elif wt == 3:
            if tag < 0x80 and pos < n and data[pos] == tag + 1:
                pos += 1  # an empty group of a field 1-15, its end-group tag next: inline too
                if depth + 1 > MAX_NESTING_DEPTH:
                    raise DecodeError(f"groups nested more than {MAX_NESTING_DEPTH} deep")
            else:
                pos = _skip_group(data, pos, num, depth)
            continue
        elif wt == 4:
            raise DecodeError(f"end-group tag of field {num} outside any group")
        else:
            raise DecodeError(f"unsupported wire type {wt}")
        yield num, wt, raw, payload


#: The most elements the repeated fields of one message hold together, nested ones included
#: (SPEC.md section 5): more is malformed, refused before the element over the limit is decoded.
MAX_REPEATED_ELEMENTS = 65_536


def _count(seen: list[int], field: str) -> None:
    """Count one repeated element; ``seen`` is ``[count, limit]`` (limit < 0: unlimited)."""
    seen[0] += 1
    if 0 <= seen[1] < seen[0]:
        raise DecodeError(
            f"more than {MAX_REPEATED_ELEMENTS} repeated elements in one message (at field {field}); "
            "SPEC.md section 5 limits them"
        )


def _decode_into(type_name: str, data: bytes, out: dict, seen: list[int], depth: int = 0) -> dict:
    fields = _BY_NUMBER[type_name]
    oneofs = ONEOFS.get(type_name, {})
    once: set[int | str] = set()  # the non-repeated fields read, a oneof by its name
    for num, wt, raw, payload in _fields(data, depth):
        f = fields.get(num)
        if f is None:
            continue  # unknown field: skipped [V1]
        json_name, _num, kind, ref, label, _proto = f
        repeated = label == "repeated"
        varint = kind in _VARINT_KINDS
        if not (wt == 0 if varint else wt == 2) and not (varint and repeated and wt == 2):
            continue  # the wrong wire type for this field: an unknown field, skipped (as protobuf does)
        if not repeated:
            # SPEC.md section 5: a non-repeated field occurs once, and one member of a oneof;
            # a repeat is refused before it is decoded (protobuf would decode and drop it).
            slot = oneofs.get(json_name, num)
            if slot in once:
                what = f"oneof {slot} was already set" if isinstance(slot, str) else "it occurs twice in one message"
                raise DecodeError(f"{type_name}.{json_name}: {what}; SPEC.md section 5 allows a non-repeated field once")
            once.add(slot)
        if repeated and not (varint and wt == 2):
            _count(seen, json_name)  # one element; a packed run counts value by value below
        if varint:
            if wt == 0:
                values = [_varint_value(kind, raw)]
            else:  # packed
                values = []
                p = 0
                while p < len(payload):
                    _count(seen, json_name)
                    v, p = _read_varint(payload, p)
                    values.append(_varint_value(kind, v))
        elif kind == "string":
            try:
                values = [payload.decode("utf-8")]
            except UnicodeDecodeError as err:
                raise DecodeError(f"{type_name}.{json_name}: invalid UTF-8") from err
        elif kind == "bytes":
            values = [bytes(payload)]
        elif kind == "message":
            values = [_decode_into(ref, payload, {}, seen, depth + 1)]
        else:
            raise DecodeError(f"{type_name}.{json_name}: unsupported kind {kind}")
        if repeated:
            out.setdefault(json_name, []).extend(values)
        else:
            out[json_name] = values[-1]
    return out


def decode(type_name: str, data: bytes | bytearray | memoryview, limit_elements: bool = True) -> dict:
    """Decode protobuf bytes of ``type_name`` to the dict form. Unknown fields are skipped;
    malformed bytes raise :class:`DecodeError`, and so does a message with more than
    ``MAX_REPEATED_ELEMENTS`` repeated elements, unless ``limit_elements`` is false (for the
    testee protocol's own frames, which carry ECTP messages already decoded by the runner)."""
    return _decode_into(type_name, bytes(data), {}, [0, MAX_REPEATED_ELEMENTS if limit_elements else -1])


def decode_frozen_envelope(data: bytes | bytearray | memoryview) -> dict | None:
    """[V1] What every major version can read of an envelope whose body does not parse as
    major 1's: the frozen fields 1 to 3 (version, senderId, senderEpoch), a HandshakeReject
    body (field 11, its frozen fields 1 to 3), and whether the body is field 10 (a Hello in
    major 1; it is answered with a HandshakeReject), and a ReadRequest body (field 12) that
    decodes as major 1's and comes once (its sender is answered ReadReject VERSION at once).
    ``None`` when even these do not parse, and when one of them, or a body, occurs twice
    (SPEC.md section 5)."""
    out: dict = {}
    once: set[int] = set()
    read_requests = 0
    try:
        for num, wt, raw, payload in _fields(bytes(data)):
            if num in (10, 11) and wt == 2:
                slot = 10  # the bodies known in every major share one slot: one body per envelope
            elif (num in (1, 2) and wt == 2) or (num == 3 and wt == 0):
                slot = num
            else:
                slot = 0  # unknown, or of the wrong wire type: skipped, never counted
            if slot in once:
                return None
            if slot:
                once.add(slot)
            # Nested messages at the depth the full decode gives them (the envelope is depth 0), so
            # groups nested past the limit are malformed here too, not another major's answer.
            if num == 1 and wt == 2:
                out["version"] = _decode_into("ectp.v1.SpecVersion", payload, {}, [0, MAX_REPEATED_ELEMENTS], 1)
            elif num == 2 and wt == 2:
                out["senderId"] = payload.decode("utf-8")
            elif num == 3 and wt == 0:
                out["senderEpoch"] = raw & 0xFFFFFFFFFFFFFFFF  # a uint64: the low 64 bits of the varint
            elif wt == 2 and num in (10, 11):
                if num == 10:
                    out["hello"] = {}
                else:
                    out["handshakeReject"] = _decode_into("ectp.v1.HandshakeReject", payload, {}, [0, MAX_REPEATED_ELEMENTS], 1)
            elif wt == 2 and num == 12:
                # [V1] kept when it decodes as ours, and only when it comes once (field 12 is not
                # frozen: two of them name no one attempt; a repeat is not decoded).
                read_requests += 1
                rr = None
                if read_requests == 1:
                    try:
                        rr = _decode_into("ectp.v1.ReadRequest", payload, {}, [0, MAX_REPEATED_ELEMENTS], 1)
                    except (DecodeError, UnicodeDecodeError):
                        rr = None
                if rr is not None:
                    out["readRequest"] = rr
                else:
                    out.pop("readRequest", None)
    except (DecodeError, UnicodeDecodeError):
        return None
    if "hello" in out or "handshakeReject" in out:
        out.pop("readRequest", None)  # [V1] field 12 is no second body beside a frozen one
    return out


def enum_name(enum: str, value: int) -> str | None:
    """The name of an enum value, or ``None`` for a value this schema does not know."""
    return _ENUM_NAMES[enum].get(value)


def enum_value(enum: str, name: str) -> int:
    """The number of an enum value name. Raises ``KeyError`` for an unknown name."""
    return ENUMS[enum][name]
