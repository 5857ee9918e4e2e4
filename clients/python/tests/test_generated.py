"""The checked-in ``api.py`` is what the binary's ``rpc.discover`` describes."""
from __future__ import annotations

import copy
import importlib.util
import pathlib
import subprocess
import sys

import satchel_client
from satchel_client import api

TOOL = pathlib.Path(__file__).resolve().parents[1] / "tools" / "generate_api.py"


def load_generator():
    spec = importlib.util.spec_from_file_location("generate_api", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_checked_in_api_is_up_to_date_with_the_binary():
    generator = load_generator()
    document = generator.discover(satchel_client.find_binary())
    assert generator.render(document) == pathlib.Path(api.__file__).read_text(), (
        "src/satchel_client/api.py is stale: run clients/python/tools/generate_api.py"
    )


def test_a_new_method_or_parameter_makes_it_stale():
    generator = load_generator()
    document = generator.discover(satchel_client.find_binary())
    checked_in = pathlib.Path(api.__file__).read_text()
    added = copy.deepcopy(document)
    added["methods"].append({"name": "notes.duplicate", "summary": "Copies a note.",
                             "params": [{"name": "id", "required": True, "schema": {"type": "string"}}]})
    assert "def duplicate(\n        self,\n        *,\n        id: str,\n" in generator.render(added)
    widened = copy.deepcopy(document)
    next(m for m in widened["methods"] if m["name"] == "notes.get")["params"].append(
        {"name": "withImages", "required": False, "schema": {"type": "boolean"}})
    for changed in (added, widened):
        assert generator.render(changed) != checked_in


def test_the_check_mode_of_the_generator_passes():
    done = subprocess.run([sys.executable, str(TOOL), "--check", "--binary", satchel_client.find_binary()],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_every_method_but_the_plumbing_is_reachable():
    reachable = set(api.PATHS)
    for name in api.METHODS:
        if name in {"shutdown", "exit", "notifications/initialized", "notifications/roots/list_changed",
                    "notifications/cancelled", "server/discover", "tools/list", "tools/call"}:
            continue
        assert name.replace("import", "import_") in reachable, name
