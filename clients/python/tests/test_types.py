"""The types match the runtime: mypy --strict and pyright (basedpyright) accept the documented surface and
report a forgotten await, a misspelt namespace or method and a result key that does not exist."""
from __future__ import annotations

import json
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

SAMPLES = pathlib.Path(__file__).resolve().parent / "typecheck"
SOURCE = pathlib.Path(__file__).resolve().parents[1] / "src"


def marked(sample: pathlib.Path) -> set[int]:
    return {number for number, line in enumerate(sample.read_text().splitlines(), 1) if line.endswith("# error")}


def mypy(tmp_path: pathlib.Path, sample: pathlib.Path) -> tuple[set[int], int, str]:
    """The lines of ``sample`` with an error, how many errors there are in all (the package's too), the output."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "--no-error-summary",
         sample.name],
        capture_output=True, text=True, timeout=300, cwd=sample.parent,
    )
    lines = {int(m.group(1)) for m in re.finditer(rf"^{re.escape(sample.name)}:(\d+): error", done.stdout, re.M)}
    return lines, len(re.findall(r"^\S+:\d+: error", done.stdout, re.M)), done.stdout


def pyright(tmp_path: pathlib.Path, sample: pathlib.Path) -> tuple[set[int], int, str]:
    checker = shutil.which("basedpyright", path=str(pathlib.Path(sys.executable).parent))
    if checker is None:
        pytest.skip("basedpyright is not installed")
    config = tmp_path / "pyrightconfig.json"
    config.write_text(json.dumps({"typeCheckingMode": "standard", "pythonVersion": "3.10",
                                  "extraPaths": [str(SOURCE)], "reportUnusedCoroutine": "error"}))
    done = subprocess.run([checker, "--project", str(config), "--outputjson", str(sample)],
                          capture_output=True, text=True, timeout=300)
    report = json.loads(done.stdout)
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    lines = {d["range"]["start"]["line"] + 1 for d in errors if d["file"] == str(sample)}
    return lines, len(errors), done.stdout


@pytest.mark.parametrize("check", [mypy, pyright])
def test_the_documented_surface_type_checks(check, tmp_path):
    lines, errors, output = check(tmp_path, SAMPLES / "passes.py")
    assert errors == 0, output


@pytest.mark.parametrize("check", [mypy, pyright])
def test_each_mistake_is_reported_on_its_line(check, tmp_path):
    sample = SAMPLES / "fails.py"
    lines, errors, output = check(tmp_path, sample)
    assert lines == marked(sample), output
    assert errors == len(lines) or check is pyright, output  # mypy: one error a mistake, none in the package
