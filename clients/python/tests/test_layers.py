"""The package's modules import one way: read from their source (every import, also one inside a function or
under ``TYPE_CHECKING``), the imports between them form no circle."""
from __future__ import annotations

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "src" / "satchel_client"


def imports(path: pathlib.Path, modules: set[str]) -> set[str]:
    """The package's modules that the module at ``path`` imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0 and not (node.module or "").startswith("satchel_client"):
                continue
            base = (node.module or "").removeprefix("satchel_client").lstrip(".")
            names = [base] if base else [alias.name for alias in node.names]
            found.update(name.partition(".")[0] for name in names)
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[1] for alias in node.names
                         if alias.name.startswith("satchel_client."))
    return found & modules


def graph() -> dict[str, set[str]]:
    modules = {path.stem for path in PACKAGE.glob("*.py")}
    return {path.stem: imports(path, modules) - {path.stem} for path in PACKAGE.glob("*.py")}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every circle a depth-first walk meets, as the modules along it (the first one again at the end)."""
    found: list[list[str]] = []
    done: set[str] = set()

    def walk(module: str, path: list[str]) -> None:
        for imported in sorted(edges[module]):
            if imported in path:
                found.append(path[path.index(imported):] + [imported])
            elif imported not in done:
                walk(imported, path + [imported])
        done.add(module)

    for module in sorted(edges):
        if module not in done:
            walk(module, [module])
    return found


def test_the_walk_sees_every_import_and_every_circle(tmp_path):
    assert {"_protocol", "errors"} <= graph()["_connection"]
    source = tmp_path / "nested.py"
    source.write_text("from .errors import X\ndef f():\n    from .aio import Y\n"
                      "if TYPE_CHECKING:\n    from . import client\nimport satchel_client.api\n")
    assert imports(source, {"aio", "api", "client", "errors"}) == {"aio", "api", "client", "errors"}
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


def test_no_module_of_the_package_imports_one_that_imports_it_back():
    found = circles(graph())
    assert not found, "imports in a circle: " + "; ".join(" -> ".join(circle) for circle in found)
