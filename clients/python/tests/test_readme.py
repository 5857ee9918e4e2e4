"""The README's tour and asyncio example run as written, and print what they say they print."""
from __future__ import annotations

import base64
import contextlib
import io
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"
# A 2x1 PNG: the tour's "beach.png".
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=="
)


def blocks(section: str) -> str:
    text = README.read_text()
    start = text.index(section)
    end = text.index("\n## ", start + 1)
    return "\n".join(re.findall(r"```python\n(.*?)```", text[start:end], re.S))


def run(source: str, folder: pathlib.Path, monkeypatch) -> str:
    monkeypatch.chdir(folder)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, str(README), "exec"), {"__name__": "__readme__"})
    return out.getvalue()


def test_the_five_minute_tour(tmp_path, monkeypatch):
    (tmp_path / "beach.png").write_bytes(PNG)
    printed = run(blocks("## A five-minute tour"), tmp_path, monkeypatch)
    for expected in ["#9BFF99", "['Milk', 'Bread']", "older messages", "Hello from Python", "up",
                     "reminders **Bre**ad", "notes created Written elsewhere", "emptyNote title",
                     "now at revision 3", "-32001 "]:
        assert expected in printed, (expected, printed)
    assert printed.count("True") == 2
    assert re.search(r"\d\d/\d\d/\d{4} \d\d:\d\d \[\[0\]\]", printed)


def test_the_asyncio_example(tmp_path, monkeypatch):
    printed = run(blocks("## asyncio"), tmp_path, monkeypatch)
    assert re.fullmatch(r"updated note_\w+\n", printed)


def test_the_photos_example(tmp_path, monkeypatch):
    (tmp_path / "beach.png").write_bytes(PNG)
    printed = run(blocks("## Photos as bytes"), tmp_path, monkeypatch)
    assert printed == f"sent 100%\n{len(PNG)} bytes; thumbnail ffd8\n"


def test_the_progress_example(tmp_path, monkeypatch):
    printed = run(blocks("## Long work: progress"), tmp_path, monkeypatch).splitlines()
    assert printed[0] == "1/1000" and printed.count("1000/1000") == 2
    assert "1000 notes in backup.json" in printed
    assert "{'imported': {'notes': 1000}}" in printed
    assert printed[-1] == "importing: 100%"


def test_the_ten_line_script_prints_what_another_process_changes(tmp_path):
    import os
    import queue
    import subprocess
    import sys
    import threading

    from satchel_client import Satchel

    script = tmp_path / "watch.py"
    script.write_text(blocks("## In ten lines"))
    watcher = subprocess.Popen([sys.executable, "-u", str(script)], cwd=tmp_path, stdout=subprocess.PIPE,
                               text=True, env=os.environ.copy())
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in watcher.stdout], daemon=True).start()
    try:
        assert lines.get(timeout=30) == "reminders: []\n"
        own = lines.get(timeout=10)
        assert own.startswith("notes created note_")
        with Satchel(db=tmp_path / "my.sqlite") as other:
            other.reminders.add(title="Milk")
            other.reminders.endEditing()
            note = other.notes.create(title="from elsewhere")
        assert lines.get(timeout=10).startswith("reminders created rem_")
        assert lines.get(timeout=10) == f"notes created {note['id']}\n"
        with Satchel(db=tmp_path / "my.sqlite") as other:  # an import: one resync, and the script reads again
            other.batch([("notes.create", {"title": f"imported {i}"}) for i in range(600)])
        assert lines.get(timeout=10) == "reminders: ['Milk']\n"
    finally:
        watcher.terminate()
        watcher.wait(10)


def test_the_sync_example_with_a_real_postgresql(tmp_path, monkeypatch):
    from postgres_cluster import Cluster
    from satchel_client import find_binary

    cluster = Cluster()
    try:
        _, uris = cluster.database(find_binary(), ["anna"])
        source = blocks("## Two devices, one account").replace("postgresql://anna@db.example/satchel", uris["anna"])
        assert uris["anna"] in source
        printed = run(source, tmp_path, monkeypatch)
    finally:
        cluster.stop()
    assert printed == "['Groceries']\nTrue 0\n"
