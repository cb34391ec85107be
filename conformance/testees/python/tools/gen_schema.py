#!/usr/bin/env python3
"""Generate ``ectp_py/schema.py`` from the ECTP ``.proto`` files.

Why: the testee needs the field numbers, types and JSON names of every message it
reads or writes (proto3 JSON for ``--json-lines``, protobuf bytes for binary mode and
for ``DeliverMessage.raw``), and must not depend on a protobuf library. Rather than
hand-copy ~300 fields, this script reads the protos with a parser for the small proto3
subset ECTP uses (messages, enums, ``oneof``, ``repeated``, ``optional``; no nesting,
maps or options) and writes a plain-data Python module.

Usage (from the repository root)::

    python3 conformance/testees/python/tools/gen_schema.py            # rewrite schema.py
    python3 conformance/testees/python/tools/gen_schema.py --check    # exit 1 if stale

The unit test ``tests/test_schema.py`` runs the check, so the schema cannot drift from
the protos unnoticed.
"""

from __future__ import annotations

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
PROTO_ROOT = os.path.join(REPO, "spec", "proto")
PROTO_FILES = [
    "ectp/v1/item.proto",
    "ectp/v1/reason.proto",
    "ectp/v1/control.proto",
    "ectp/v1/events.proto",
    "ectp/v1/envelope.proto",
    "ectp/conformance/v1/testee.proto",
]
OUTPUT = os.path.join(HERE, "..", "ectp_py", "schema.py")

SCALARS = {"string", "bytes", "bool", "uint32", "uint64", "int32", "int64", "sint32", "sint64", "fixed32", "fixed64"}

TOKEN = re.compile(r'"[^"]*"|[A-Za-z_][A-Za-z0-9_.]*|\d+|[{};=<>,]')


def tokenize(text: str) -> list[str]:
    """Tokens of a proto file with comments removed."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return TOKEN.findall(text)


def camel(name: str) -> str:
    """proto3 JSON name of a field: lowerCamelCase of its snake_case name."""
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def parse(path: str, messages: dict, enums: dict, raw_fields: dict) -> None:
    """Add the messages and enums of one file (types resolved later)."""
    with open(path, encoding="utf-8") as fh:
        toks = tokenize(fh.read())
    package = ""
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "package":
            package = toks[i + 1]
            i += 3
        elif t in ("syntax", "import", "option"):
            while toks[i] != ";":
                i += 1
            i += 1
        elif t == "enum":
            name = f"{package}.{toks[i + 1]}"
            i += 3  # enum NAME {
            values = {}
            while toks[i] != "}":
                values[toks[i]] = int(toks[i + 2])
                i += 4  # NAME = N ;
            enums[name] = values
            i += 1
        elif t == "message":
            name = f"{package}.{toks[i + 1]}"
            i += 3
            fields = []
            oneof = ""
            while not (toks[i] == "}" and not oneof):
                if toks[i] == "oneof":
                    oneof = toks[i + 1]
                    i += 3
                    continue
                if toks[i] == "}":
                    oneof = ""
                    i += 1
                    continue
                label = ""
                if toks[i] in ("repeated", "optional"):
                    label = toks[i]
                    i += 1
                ftype, fname, num = toks[i], toks[i + 1], int(toks[i + 3])
                i += 5  # TYPE NAME = N ;
                fields.append((fname, num, ftype, label, oneof))
            messages[name] = fields
            raw_fields[name] = package
            i += 1
        else:
            raise SystemExit(f"{path}: unexpected token {t!r}")


def resolve(type_name: str, package: str, messages: dict, enums: dict) -> tuple[str, str]:
    """(kind, full name) of a field type."""
    if type_name in SCALARS:
        return type_name, ""
    for full in (f"{package}.{type_name}", type_name):
        if full in messages:
            return "message", full
        if full in enums:
            return "enum", full
    raise SystemExit(f"unknown type {type_name} in package {package}")


def nested_dict_literal(variable: str, table: dict) -> str:
    """``VARIABLE = {...}`` for a dict of dicts, outer keys sorted, inner keys in their order."""
    lines = [f"{variable} = {{"]
    for name in sorted(table):
        lines.append(f"    {name!r}: {{")
        lines.extend(f"        {k!r}: {v!r}," for k, v in table[name].items())
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines)


def build() -> str:
    """The text of schema.py."""
    messages: dict = {}
    enums: dict = {}
    packages: dict = {}
    for rel in PROTO_FILES:
        parse(os.path.join(PROTO_ROOT, rel), messages, enums, packages)
    out_messages = {}
    oneofs: dict = {}
    for name, fields in messages.items():
        rows = []
        for fname, num, ftype, label, oneof in fields:
            kind, ref = resolve(ftype, packages[name], messages, enums)
            rows.append((camel(fname), num, kind, ref, label, fname))
            if oneof:
                oneofs.setdefault(name, {})[camel(fname)] = oneof
        out_messages[name] = tuple(rows)
    lines = ["MESSAGES = {"]
    for name in sorted(out_messages):
        lines.append(f"    {name!r}: (")
        lines.extend(f"        {row!r}," for row in out_messages[name])
        lines.append("    ),")
    lines.append("}")
    body = "\n".join(lines)
    enum_body = nested_dict_literal("ENUMS", enums)
    oneof_body = nested_dict_literal("ONEOFS", oneofs)
    return (
        '"""Message and enum tables of the ECTP protos (GENERATED by tools/gen_schema.py; do not edit).\n\n'
        "MESSAGES maps a full message name to its fields, each a tuple\n"
        "``(json_name, number, kind, type_ref, label, proto_name)`` where ``kind`` is a proto scalar\n"
        "type name, ``\"enum\"`` or ``\"message\"``, ``type_ref`` the full enum or message name, and\n"
        "``label`` is ``\"\"``, ``\"repeated\"`` or ``\"optional\"`` (proto3 explicit presence).\n"
        "ENUMS maps a full enum name to ``{value name: number}``.\n"
        "ONEOFS maps a full message name to ``{json_name: oneof name}`` for its oneof members.\n"
        '"""\n\n'
        f"{body}\n\n{enum_body}\n\n{oneof_body}\n"
    )


def main(argv: list[str]) -> int:
    text = build()
    if "--check" in argv:
        with open(OUTPUT, encoding="utf-8") as fh:
            if fh.read() != text:
                print("schema.py is stale: run tools/gen_schema.py", file=sys.stderr)
                return 1
        return 0
    with open(OUTPUT, "w", encoding="utf-8") as fh:
        fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
