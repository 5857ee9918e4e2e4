#!/usr/bin/env python3
"""Writes src/satchel_client/api.py, the typed method namespaces, from a satchel binary's `rpc.discover`.

usage: generate_api.py [--check] [--binary PATH]
  --check   write nothing; exit 1 when the checked-in api.py differs from what the binary describes
The binary: --binary, else $SATCHEL_BINARY, else `satchel` on PATH.
"""
from __future__ import annotations

import argparse
import json
import keyword
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

HERE = pathlib.Path(__file__).resolve().parent
TARGET = HERE.parent / "src" / "satchel_client" / "api.py"

# Protocol plumbing the client itself takes care of (close() sends shutdown and exit; a cancelled call
# sends notifications/cancelled), and MCP's own methods, which an assistant reaches through `call`.
LEFT_OUT = {"shutdown", "exit", "notifications/initialized", "notifications/roots/list_changed",
            "notifications/cancelled", "server/discover", "tools/list", "tools/call"}

SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}

# The keywords the client itself takes on every method (never sent to the server).
OWN_KEYWORDS = ("progress", "timeout")


def pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[._/]", name) if part)


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def singular(name: str) -> str:
    return name[:-1] if name.endswith("s") and not name.endswith("ss") else name


def closed(schema: dict) -> bool:
    """An object whose keys are all known: a TypedDict (an open one stays a plain dict)."""
    return schema.get("type") == "object" and schema.get("additionalProperties") is False


def shape(schema: dict) -> object:
    """What two schemas must share to be one Python type: types, keys and choices, not descriptions."""
    if "anyOf" in schema:
        return ("anyOf", tuple(shape(option) for option in schema["anyOf"]))
    kind = schema.get("type")
    if kind == "array":
        return ("array", shape(schema.get("items", {})))
    if closed(schema):
        properties = schema.get("properties", {})
        return ("object", tuple((key, shape(value)) for key, value in properties.items()),
                tuple(sorted(schema.get("required", []))))
    return (kind, tuple(schema.get("enum", ())))


def resolved(schema: object, components: dict) -> object:
    """`schema` with each `$ref` to `components.schemas` replaced by the schema it names (which carries the
    entity's name as its `title`)."""
    if isinstance(schema, dict):
        if str(schema.get("$ref", "")).startswith("#/components/schemas/"):
            return resolved(components[schema["$ref"].rpartition("/")[2]], components)
        return {key: resolved(value, components) for key, value in schema.items()}
    if isinstance(schema, list):
        return [resolved(value, components) for value in schema]
    return schema


class Results:
    """The TypedDicts of the results: one per distinct closed object, named by its `title` (the entities
    `rpc.discover` names in `components.schemas`), else after where it is met first (a domain's `get`
    first)."""

    def __init__(self, methods: list[dict]) -> None:
        self.names: dict[object, str] = {}
        self.classes: list[str] = []
        answered_by: dict[object, list[str]] = {}
        for method in methods:
            if method.get("result"):
                answered_by.setdefault(shape(method["result"]["schema"]), []).append(method["name"])
        self.shared_verb: dict[object, str] = {}
        for key, names in answered_by.items():
            verbs = {name.rpartition(".")[2] for name in names}
            if len(names) > 1 and len(verbs) == 1:
                self.shared_verb[key] = pascal(verbs.pop()) + "Result"
        for method in methods:
            prefix, dot, verb = method["name"].partition(".")
            if dot and verb == "get" and method.get("result"):
                self.type_of(method["result"]["schema"], pascal(prefix) + "Item")
        self.result_types = {
            method["name"]: self.type_of(method["result"]["schema"], pascal(method["name"]) + "Result")
            if method.get("result") else "None"
            for method in methods
        }

    def type_of(self, schema: dict, name: str) -> str:
        if "anyOf" in schema:
            names: list[str] = []
            for option in schema["anyOf"]:
                each = self.type_of(option, name)
                if each not in names:
                    names.append(each)
            return " | ".join(names)
        kind = schema.get("type")
        if kind == "array":
            base = name.removesuffix("Result")
            return f"builtins.list[{self.type_of(schema.get('items', {}), base + 'Item')}]"
        if closed(schema):
            return self.typed_dict(schema, name)
        if kind == "object":
            return "dict[str, Any]"
        if kind == "string" and "enum" in schema:
            return "Literal[" + ", ".join(repr(choice) for choice in schema["enum"]) + "]"
        return SCALARS.get(kind, "Any")

    def typed_dict(self, schema: dict, name: str) -> str:
        key = shape(schema)
        if key in self.names:
            return self.names[key]
        name = schema.get("title") or self.shared_verb.get(key, name)
        taken = set(self.names.values())
        while name in taken:
            name += "_"
        self.names[key] = name
        base = name.removesuffix("Result").removesuffix("Item")
        required = set(schema.get("required", []))
        fields: list[tuple[str, str, str]] = []
        for field, value in schema.get("properties", {}).items():
            if value.get("type") == "array":
                candidate = base + pascal(singular(field)) if field != "items" else base + "Item"
                kind = f"builtins.list[{self.type_of(value.get('items', {}), candidate)}]"
            else:
                candidate = pascal(field)
                if candidate in set(self.names.values()) and shape(value) not in self.names:
                    candidate = base + pascal(field)
                kind = self.type_of(value, candidate)
            fields.append((field, kind, value.get("description", "")))
        always = [(f, k, d) for f, k, d in fields if f in required]
        sometimes = [(f, k, d) for f, k, d in fields if f not in required]

        def body(members: list[tuple[str, str, str]]) -> str:
            if not members:
                return "    pass\n"
            return "".join(f"    {f}: {k}" + (f"  # {d}" if d else "") + "\n" for f, k, d in members)

        if any(keyword.iskeyword(f) for f, _, _ in fields) and not sometimes:
            # A key that is a Python keyword ("from") takes the functional form of TypedDict.
            members = "".join(f"        {f!r}: {k},  # {d}\n" if d else f"        {f!r}: {k},\n" for f, k, d in always)
            self.classes.append(f"{name} = TypedDict(\n    {name!r},\n    {{\n{members}    }},\n)\n")
        elif sometimes and always:
            self.classes.append(f"class _{name}Keys(TypedDict):\n{body(always)}")
            self.classes.append(f"class {name}(_{name}Keys, total=False):\n{body(sometimes)}")
        elif sometimes:
            self.classes.append(f"class {name}(TypedDict, total=False):\n{body(sometimes)}")
        else:
            self.classes.append(f"class {name}(TypedDict):\n{body(always)}")
        return name

    def param_type(self, schema: dict, name: str) -> str:
        """The type of a parameter (``name``: of its TypedDict): JSON's types, string choices as a Literal, an
        object of known keys as a TypedDict (and the object the server answers in its place, every key given:
        a note's ``color``)."""
        if "anyOf" in schema:
            names: list[str] = []
            for option in schema["anyOf"]:
                required = option.get("required", [])
                each = self.param_type(option, name.removesuffix("Input") + "From" + pascal(required[0])
                                       if closed(option) and required else name)
                names += [part for part in each.split(" | ") if part not in names]
            return " | ".join(names)
        kind = schema.get("type")
        if closed(schema):
            own = self.typed_dict(schema, name)
            answered = self.names.get(shape({**schema, "required": list(schema.get("properties", {}))}), own)
            return own if answered == own else f"{own} | {answered}"
        if kind == "object":
            return "dict[str, Any]"
        if kind == "array":
            return f"Sequence[{self.param_type(schema.get('items', {}), name)}]"
        if kind == "string" and "enum" in schema:
            return "Literal[" + ", ".join(repr(choice) for choice in schema["enum"]) + "]"
        return SCALARS.get(kind, "Any")


def python_name(name: str) -> str:
    return name + "_" if keyword.iskeyword(name) else name


def docstring(method: dict, indent: str) -> str:
    lines = textwrap.wrap(method.get("summary", method["name"]), 100)
    lines += ["", "Args:"]
    for param in method.get("params", []):
        what = param.get("summary", "")
        detail = param["schema"].get("description")
        if "enum" in param["schema"].get("items", param["schema"]):
            choices = param["schema"].get("items", param["schema"])["enum"]
            detail = "one of " + ", ".join(choices)
        name = param["name"] + (f" (or {snake(param['name'])})" if snake(param["name"]) != param["name"] else "")
        text = f"{name}: {what}" + (f" ({detail})" if detail else "")
        lines += textwrap.wrap(text, 96, initial_indent="    ", subsequent_indent="        ")
    lines += ["    progress: called with each `Progress` the server reports while it works on this call."]
    lines += ["    timeout: seconds to wait for the answer, `None` for ever (default: the client's `timeout`)."]
    lines += ["", f"Sends `{method['name']}`; answers its result or raises its error."]
    body = "\n".join((indent + line) if line else "" for line in lines)
    return f'{indent}"""{body.lstrip()}\n{indent}"""\n'


def signature_source(
    name: str, parts: list[str], returns: str, indent: str, overload: bool = False, asynchronous: bool = False
) -> str:
    define = "async def" if asynchronous else "def"
    head = f"{indent}{define} {name}({', '.join(parts)}) -> {returns}:"
    if len(head) > 110:
        inner = indent + "    "
        head = f"{indent}{define} {name}(\n" + "".join(f"{inner}{part},\n" for part in parts) + f"{indent}) -> {returns}:"
    if overload:
        return f"{indent}@overload\n{head} ...\n"
    return head + "\n"


def method_source(
    method: dict, attribute: str, indent: str, returns: str, kinds: dict[str, str], stub: bool = False
) -> str:
    """A method of a namespace (``kinds``: its parameters' types); a ``stub`` is its signature alone (the
    asyncio flavour, for type checkers: a coroutine function)."""
    params = method.get("params", [])
    for param in params:
        if python_name(param["name"]) in OWN_KEYWORDS or snake(param["name"]) in OWN_KEYWORDS:
            raise SystemExit(f"{method['name']} has a parameter named {param['name']}, which the client takes")
    own = ["progress: OnProgress | None = None", "timeout: float | None | Unset = UNSET"]
    signature = ["self", "*"]
    # A camelCase parameter is also taken in snake_case (`ifRevision` or `if_revision`); both are optional in
    # the signature, so a required one gets an overload for each spelling.
    spelled_twice = [param for param in params if snake(param["name"]) != param["name"]]
    required_twice = [param for param in spelled_twice if param.get("required")]
    for param in params:
        kind = kinds[param["name"]]
        if param.get("required") and param not in spelled_twice:
            signature.append(f"{python_name(param['name'])}: {kind}")
        else:
            signature.append(f"{python_name(param['name'])}: {kind} | Unset = UNSET")
        if param in spelled_twice:
            signature.append(f"{snake(param['name'])}: {kind} | Unset = UNSET")
    name = python_name(attribute)
    out = ""
    if required_twice:
        for spelling in (lambda n: n, snake):
            parts = ["self", "*"]
            for param in params:
                kind = kinds[param["name"]]
                if param.get("required"):
                    parts.append(f"{spelling(python_name(param['name']))}: {kind}")
                else:
                    parts.append(f"{spelling(python_name(param['name']))}: {kind} | Unset = UNSET")
            out += signature_source(name, parts + own, returns, indent, overload=True, asynchronous=stub) + "\n"
    out += signature_source(name, signature + own, returns, indent, asynchronous=stub)

    def value(param: dict) -> str:
        if param not in spelled_twice:
            return python_name(param["name"])
        required = ", True" if param.get("required") else ""
        return f"either({param['name']!r}, {param['name']}, {snake(param['name'])}{required})"

    arguments = [f"{param['name']}={value(param)}" for param in params]
    sent = f"named({', '.join(arguments)})" if params else "None"
    call = f"{indent}    return self._call({method['name']!r}, {sent}, progress, timeout)\n"
    if len(call) > 111:
        inner = indent + "        "
        listed = "".join(f"{inner}    {argument},\n" for argument in arguments)
        call = (
            f"{indent}    return self._call(\n{inner}{method['name']!r},\n{inner}named(\n{listed}{inner}),\n"
            f"{inner}progress,\n{inner}timeout,\n{indent}    )\n"
        )
    out += f"{indent}    ...\n" if stub else docstring(method, indent + "    ") + call
    if snake(attribute) != attribute:
        out += f"\n{indent}{snake(attribute)} = {name}\n"
    return out


def render(document: dict) -> str:
    components = document.get("components", {}).get("schemas", {})
    methods = [resolved(m, components) for m in document["methods"] if m["name"] not in LEFT_OUT]
    results = Results(methods)
    kinds = {m["name"]: {p["name"]: results.param_type(p["schema"], pascal(singular(p["name"])) + "Input")
                         for p in m.get("params", [])} for m in methods}
    top = [m for m in methods if "." not in m["name"]]
    groups: dict[str, list[dict]] = {}
    for method in methods:
        if "." in method["name"]:
            prefix, _, _ = method["name"].partition(".")
            groups.setdefault(prefix, []).append(method)
    out = [
        f'"""The methods of Satchel {document["info"]["version"]} as Python namespaces, with their parameters, '
        "results and summaries.\n\nGenerated by tools/generate_api.py from the server's `rpc.discover`: do not edit "
        "by hand.\n"
        '"""\n',
        "# Each method returns the untyped answer of `_call` as the type `rpc.discover` gives for its result.\n",
        '# mypy: disable-error-code="no-any-return"\n',
        "from __future__ import annotations\n\n",
        "import builtins\n",
        "from collections.abc import Sequence\n",
        "from functools import cached_property\n",
        "from typing import TYPE_CHECKING, Any, Literal, TypedDict, overload\n\n",
        "from ._namespace import UNSET, Namespace, Unset, either, named\n",
        "from ._protocol import OnProgress\n\n",
        "#: For pytest: a failed call's traceback ends at its caller's line, not in these methods.\n",
        "__tracebackhide__ = True\n\n",
        "#: Every method of the protocol, with its summary.\n",
        "METHODS: dict[str, str] = {\n",
    ]
    out += [f"    {m['name']!r}: {m.get('summary', '')!r},\n" for m in document["methods"]]
    out.append("}\n")
    out.append("\n\n# The results, as `rpc.discover` describes them.\n")
    for source in results.classes:
        out.append("\n\n" + source)

    def flavour(prefix_of_class: str, stub: bool) -> str:
        text = []
        for prefix, members in groups.items():
            text.append(f"\n\nclass {prefix_of_class}{pascal(prefix)}(Namespace):\n")
            text.append(f'    """The `{prefix}.*` methods."""\n\n')
            text.append(f"    _prefix = {prefix!r}\n")
            for method in members:
                returns = results.result_types[method["name"]]
                attribute = method["name"].partition(".")[2]
                text.append("\n" + method_source(method, attribute, "    ", returns, kinds[method["name"]], stub))
        text.append(f"\n\nclass {prefix_of_class}Methods:\n")
        text.append(f'    """The namespaces and top-level methods of {"an asyncio" if stub else "a blocking"} '
                    'connection."""\n\n')
        text.append(
            "    def _call(\n"
            "        self, method: str, params: Any, progress: OnProgress | None = None, timeout: float | None | Unset = UNSET\n"
            "    ) -> Any:\n"
            "        raise NotImplementedError\n"
        )
        for prefix in groups:
            text.append(f"\n    @cached_property\n    def {prefix}(self) -> {prefix_of_class}{pascal(prefix)}:\n")
            text.append(f"        return {prefix_of_class}{pascal(prefix)}(self._call)\n")
        for method in top:
            returns = results.result_types[method["name"]]
            text.append("\n" + method_source(method, method["name"], "    ", returns, kinds[method["name"]], stub))
        return "".join(text)

    out.append(flavour("", stub=False))
    # The asyncio client runs the same classes (its `_call` answers a coroutine); a type checker sees each
    # method as a coroutine function (`async def`: `asyncio.gather` of several is a tuple of their results).
    out.append("\n\nif TYPE_CHECKING:")
    stubs = flavour("Async", stub=True).lstrip("\n")
    out.append("\n" + "".join(("    " + line) if line.strip() else line for line in stubs.splitlines(True)))
    names = ["Methods"] + [pascal(prefix) for prefix in groups]
    out.append("else:\n" + "".join(f"    Async{name} = {name}\n" for name in names))
    paths = [".".join(python_name(part) for part in m["name"].split(".")) for m in methods]
    out.append("\n\n#: Every method as it is reached from Python (`s.notes.create`, `s.ping`, `s.import_`).\n")
    out.append("PATHS: tuple[str, ...] = (\n" + "".join(f"    {path!r},\n" for path in paths) + ")\n")
    return "".join(out)


def discover(binary: str) -> dict:
    request = b'{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}\n'
    done = subprocess.run([binary, "--memory"], input=request, capture_output=True, check=True, timeout=60)
    return json.loads(done.stdout.splitlines()[0])["result"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when api.py is stale")
    parser.add_argument("--binary", help="the satchel binary to ask")
    options = parser.parse_args()
    binary = options.binary or os.environ.get("SATCHEL_BINARY") or shutil.which("satchel")
    if not binary:
        parser.error("no satchel binary: pass --binary or set $SATCHEL_BINARY")
    text = render(discover(binary))
    if options.check:
        if TARGET.read_text() != text:
            print(f"{TARGET} is stale: run clients/python/tools/generate_api.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text)
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
