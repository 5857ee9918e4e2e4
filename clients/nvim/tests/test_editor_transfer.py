""":Satchel export and :Satchel import in a real Neovim: the file written, progress echoed, the final message
kept in :messages, the notes list refreshed by an import, a replace confirmed first, errors reported."""
from __future__ import annotations

import json

from satchel_client import Satchel

NOTES = 1500  # enough for the server to report progress more than once


def record_echoes(editor) -> None:
    """Keeps what the plugin echoes (text, kept in history?) while still showing it."""
    editor.nvim.exec_lua("""
        _G.echoes = {}
        local echo = vim.api.nvim_echo
        vim.api.nvim_echo = function(chunks, history, opts)
          table.insert(_G.echoes, {chunks[1][1], history})
          return echo(chunks, history, opts)
        end
    """)


def echoes(editor) -> list[list]:
    return editor.nvim.exec_lua("return _G.echoes")


def messages(editor) -> str:
    return editor.nvim.command_output("messages")


def not_prompting(editor) -> None:
    mode = editor.nvim.api.get_mode()
    assert not mode["blocking"] and mode["mode"] == "n", mode


def fill(db, count: int = NOTES) -> None:
    with Satchel(db=db) as s:
        for start in range(0, count, 1000):
            s.batch([("notes.create", {"title": f"note {i}"}) for i in range(start, min(count, start + 1000))])


def test_export_writes_the_file_echoing_progress_then_what_it_wrote(editor, tmp_path):
    fill(editor.db)
    with Satchel(db=editor.db) as s:
        s.board.create(title="Apple")
    record_echoes(editor)
    editor.nvim.command(f"cd {tmp_path}")
    editor.nvim.command("Satchel export backups/all.json")  # no such folder: said so
    editor.wait(lambda: editor.notifications(), message="an error")
    message, level = editor.notifications()[-1]
    assert level == 4 and message == f"Satchel: there is no folder {tmp_path / 'backups'}", message
    assert not (tmp_path / "backups").exists()

    editor.nvim.command("Satchel export all.json")  # relative: made absolute
    final = f"Satchel: exported 1,501 items to {tmp_path / 'all.json'}"
    editor.wait(lambda: any(text == final for text, _ in echoes(editor)), message="the final message")
    document = json.loads((tmp_path / "all.json").read_text())
    assert len(document["notes"]) == NOTES and len(document["board"]) == 1
    shown = [text for text, history in echoes(editor) if not history]
    assert shown and all(text.startswith("Satchel: exporting… ") and text.endswith("%") for text in shown)
    assert shown[-1] == "Satchel: exporting… 100%"
    assert final in messages(editor) and "exporting" not in messages(editor)  # progress is not kept
    not_prompting(editor)


def test_import_into_an_empty_database_shows_the_notes_and_replace_asks_first(editor_factory, tmp_path):
    source = editor_factory(db=tmp_path / "source.sqlite")
    fill(source.db, 3)
    path = tmp_path / "three.json"
    source.nvim.command(f"Satchel export {path}")
    source.wait(path.exists, message="the export")

    editor = editor_factory(db=tmp_path / "empty.sqlite")
    record_echoes(editor)
    editor.nvim.command("Satchel notes")
    editor.wait(lambda: editor.nvim.eval("bufname()") == "satchel://notes")
    editor.nvim.command(f"Satchel import {path}")  # merge, by default
    editor.wait(lambda: [line.split(" ", 1)[-1] for line in editor.lines()] == ["note 0", "note 1", "note 2"],
                message="the list refreshed")
    final = f"Satchel: imported 3 items from {path}"
    editor.wait(lambda: final in messages(editor), message="the final message")
    assert any(text.startswith("Satchel: importing… ") for text, history in echoes(editor) if not history)
    not_prompting(editor)

    with Satchel(db=editor.db) as s:
        s.notes.create(title="only here")
    editor.wait(lambda: len(editor.lines()) == 4)
    editor.keys(f":Satchel import {path} replace<CR>")  # a prompt: typed
    editor.answer("n")
    with Satchel(db=editor.db) as s:
        assert s.server.info()["counts"]["notes"] == 4
    editor.keys(f":Satchel import {path} replace<CR>")  # a prompt: typed
    editor.answer("y")
    editor.wait(lambda: len(editor.lines()) == 3, message="only what the file holds")
    with Satchel(db=editor.db) as s:
        assert [n["title"] for n in s.notes.list()["items"]] == ["note 0", "note 1", "note 2"]


def test_a_bad_file_is_reported_in_the_session_language_and_changes_nothing(editor_factory, tmp_path):
    editor = editor_factory(locale="ru")
    fill(editor.db, 2)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "satchel", "version": 1, "notes": [{"title": 5}]}')
    editor.keys(f":Satchel import {bad} replace<CR>")
    editor.answer("y")
    editor.wait(lambda: editor.notifications(), message="an error")
    message, level = editor.notifications()[-1]
    assert level == 4 and message.startswith("Satchel: ") and any("а" <= ch <= "я" for ch in message.lower())
    editor.nvim.command(f"Satchel import {tmp_path / 'missing.json'}")
    editor.wait(lambda: len(editor.notifications()) == 2, message="a second error")
    assert editor.notifications()[-1] == [f"Satchel: файла {tmp_path / 'missing.json'} нет", 4]
    with Satchel(db=editor.db) as s:
        assert [n["title"] for n in s.notes.list()["items"]] == ["note 0", "note 1"]
    not_prompting(editor)


def test_export_and_import_complete_files_and_modes(editor, tmp_path):
    (tmp_path / "backup.json").write_text("{}")
    complete = lambda line: editor.nvim.call("getcompletion", line, "cmdline")
    assert complete("Satchel ex") == ["export"] and complete("Satchel im") == ["import"]
    assert complete(f"Satchel export {tmp_path}/b") == [f"{tmp_path}/backup.json"]
    assert complete(f"Satchel import {tmp_path}/b") == [f"{tmp_path}/backup.json"]
    assert complete(f"Satchel import {tmp_path}/backup.json ") == ["merge", "replace"]
    assert complete(f"Satchel import {tmp_path}/backup.json r") == ["replace"]
    editor.nvim.command("Satchel import")
    assert "import {file}" in editor.notifications()[-1][0]


def test_export_replaces_an_existing_file_only_with_a_bang(editor, tmp_path):
    fill(editor.db, 2)
    existing = tmp_path / "old.json"
    existing.write_text("my earlier export")
    editor.nvim.command(f"Satchel export {existing}")
    editor.wait(lambda: editor.notifications(), message="the refusal")
    message, level = editor.notifications()[-1]
    assert level == 4 and "exists" in message and "!" in message, message
    assert existing.read_text() == "my earlier export"
    record_echoes(editor)
    editor.nvim.command(f"Satchel! export {existing}")
    editor.wait(lambda: existing.read_text().startswith("{"), message="the file replaced")
    assert len(json.loads(existing.read_text())["notes"]) == 2
    not_prompting(editor)


def test_each_path_error_says_what_is_wrong(editor, tmp_path):
    backup = tmp_path / "backup.json"
    backup.write_text("{}")
    for command, expected in [
        (f"Satchel import {backup} marge", "Satchel: unknown import mode 'marge' (merge or replace)"),
        (f"Satchel import {tmp_path / 'nothing.json'}", f"Satchel: there is no file {tmp_path / 'nothing.json'}"),
        (f"Satchel import {tmp_path}", f"Satchel: {tmp_path} is not a file"),
        (f"Satchel export {tmp_path}", f"Satchel: {tmp_path} is not a file"),
        (f"Satchel export {tmp_path / 'no' / 'x.json'}", f"Satchel: there is no folder {tmp_path / 'no'}"),
    ]:
        before = len(editor.notifications())
        editor.nvim.command(command)
        editor.wait(lambda: len(editor.notifications()) > before, message=command)
        assert editor.notifications()[-1] == [expected, 4], command
    assert backup.read_text() == "{}"
