"""Reminders in a real Neovim: type a list with Return, leave an empty one, see it cleaned up."""
from __future__ import annotations

from satchel_client import Satchel


def titles(db):
    with Satchel(db=db) as s:
        return [(r["title"], r["completed"]) for r in s.reminders.list()["items"]]


def test_a_list_typed_with_return_and_the_empty_one_cleaned_up(editor):
    editor.nvim.command("Satchel reminders")
    editor.wait(lambda: editor.nvim.current.buffer.name == "satchel://reminders")
    assert editor.lines() == [""]
    editor.keys("o")
    editor.wait_lines(["[ ] "])
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    editor.keys("Milk<CR>")
    editor.wait_lines(["[ ] Milk", "[ ] "])
    editor.keys("Bread<CR>")
    editor.wait_lines(["[ ] Milk", "[ ] Bread", "[ ] "])
    editor.keys("<Esc>")
    editor.wait_lines(["[ ] Milk", "[ ] Bread"])
    assert titles(editor.db) == [("Milk", False), ("Bread", False)]
    editor.nvim.current.window.cursor = (1, 0)
    editor.keys("x")
    editor.wait_lines(["[x] Milk", "[ ] Bread"])
    assert titles(editor.db) == [("Milk", True), ("Bread", False)]
