"""What a person types lands where they meant, in a real Neovim: the cursor follows its item across redraws,
every way out of typing a reminder saves it, and long lists are drawn whole."""
from __future__ import annotations

import os
import signal
import time

from editor_support import alive
from satchel_client import Satchel


def reminders(db):
    """The titles as another process sees them (a blank one being edited is not shown to others)."""
    with Satchel(db=db) as s:
        return [r["title"] for r in s.reminders.list()["items"]]


def test_a_vote_stays_with_its_post_when_the_board_re_sorts(editor):
    with Satchel(db=editor.db) as s:
        apple, banana, cherry = (s.board.create(title=title) for title in ("Apple", "Banana", "Cherry"))
        s.board.vote(id=apple["id"], direction="up")
        s.board.vote(id=banana["id"], direction="down")
    editor.nvim.command("Satchel board votes")
    editor.wait_lines(["     +1  Apple", "     +0  Cherry", "     -1  Banana"])
    editor.nvim.current.window.cursor = (3, 0)
    editor.keys("+")  # Banana goes to 0 and sorts before Cherry: the cursor goes with it
    editor.wait_lines(["     +1  Apple", "▲    +0  Banana", "     +0  Cherry"])
    assert editor.nvim.current.window.cursor[0] == 2
    editor.keys("-")  # still Banana: from up to down (with the vote it had from elsewhere)
    editor.wait_lines(["     +1  Apple", "     +0  Cherry", "▼    -2  Banana"])
    with Satchel(db=editor.db) as s:
        votes = {post["title"]: post["votes"] for post in s.board.list()["items"]}
    assert votes == {"Apple": 1, "Banana": -2, "Cherry": 0}


def test_the_cursor_follows_its_item_when_another_process_changes_a_list(editor):
    with Satchel(db=editor.db) as s:
        ids = [s.notes.create(title=title)["id"] for title in ("one", "two", "three")]
    editor.nvim.command("Satchel notes")
    editor.wait(lambda: len(editor.lines()) == 3)
    editor.nvim.current.window.cursor = (2, 0)
    with Satchel(db=editor.db) as s:
        s.notes.create(title="zero", atIndex=0)
        s.notes.move(id=ids[2], toIndex=0)
    editor.wait(lambda: len(editor.lines()) == 4 and editor.lines()[0].endswith("three"))
    assert editor.lines()[editor.nvim.current.window.cursor[0] - 1].endswith(" two")


def test_ctrl_c_saves_what_was_typed_as_esc_does(editor):
    editor.nvim.command("Satchel reminders")
    editor.wait(lambda: editor.nvim.current.buffer.name == "satchel://reminders")
    editor.keys("o")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    editor.keys("Lost<C-c>")
    editor.wait_lines(["[ ] Lost"])
    assert reminders(editor.db) == ["Lost"]
    editor.keys("o")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    editor.keys("<C-c>")  # nothing typed: the empty reminder goes, as with <Esc>
    editor.wait_lines(["[ ] Lost"])
    assert reminders(editor.db) == ["Lost"]


def test_ctrl_o_and_leaving_the_window_while_typing_save_and_end_editing_as_esc_does(editor):
    editor.nvim.command("Satchel reminders")
    editor.wait(lambda: editor.nvim.current.buffer.name == "satchel://reminders")
    editor.nvim.command("new")  # a second window to go to
    editor.nvim.command("wincmd p")
    editing = "return vim.b[vim.fn.bufnr('satchel://reminders')].satchel_editing"
    editor.keys("o")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    editor.keys("Kept<C-o>")  # <C-o> leaves insert mode for one command: saved, editing ended, as <Esc>
    editor.wait(lambda: reminders(editor.db) == ["Kept"], message="saved by <C-o>")
    editor.wait(lambda: editor.nvim.exec_lua(editing) is None, message="editing ended by <C-o>")
    editor.keys("<Esc>")  # no command after all: back in insert mode, then out of it
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    editor.keys("<Esc>")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "n")
    editor.keys("o")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    editor.keys("More")
    editor.wait(lambda: "[ ] More" in editor.lines())
    editor.nvim.command("wincmd p")  # leaving the window without leaving insert mode
    editor.wait(lambda: reminders(editor.db) == ["Kept", "More"], message="saved on leaving")
    assert editor.nvim.exec_lua(editing) is None


def test_quitting_the_editor_while_typing_keeps_the_title(editor):
    editor.nvim.command("Satchel reminders")
    editor.wait(lambda: editor.nvim.current.buffer.name == "satchel://reminders")
    editor.keys("o")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    editor.keys("Bye")
    editor.wait(lambda: editor.lines() == ["[ ] Bye"])
    editor.quit()
    deadline = time.monotonic() + 10
    while reminders(editor.db) != ["Bye"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert reminders(editor.db) == ["Bye"]


def test_quitting_under_a_ui_ends_neovim_cleanly_and_its_server_with_it(editor):
    """A GUI runs ``nvim --embed`` with a UI attached, as this editor is: :qa! must not abort it."""
    editor.nvim.command("Satchel notes")
    editor.wait(lambda: editor.nvim.current.buffer.name == "satchel://notes" and editor.satchel_pid())
    server = editor.satchel_pid()
    assert editor.quit() == 0, "Neovim's exit status (134 is SIGABRT)"
    deadline = time.monotonic() + 10
    while alive(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(server)


def save_to_a_stalled_server(editor):
    """A note "Plan" opened, its server stopped (SIGSTOP), its text changed to "v2" and saved: the save is
    still on its way. Answers the note and the server's pid (the caller sends SIGCONT)."""
    with Satchel(db=editor.db) as s:
        note = s.notes.create(title="Plan", content="v1")
    editor.nvim.exec_lua("require('satchel.notes').write_wait = 300")
    editor.nvim.command(f"edit satchel://notes/{note['id']}")
    editor.wait_lines(["Plan", "", "v1"])
    pid = editor.satchel_pid()
    os.kill(pid, signal.SIGSTOP)
    try:
        editor.keys("Gccv2<Esc>:w<CR>")
        editor.wait(lambda: any("still being saved" in m for m, _ in editor.notifications()), message="told")
    except BaseException:
        os.kill(pid, signal.SIGCONT)
        raise
    return note, pid


def test_a_save_still_on_its_way_when_neovim_quits_is_done_before_it_ends(editor):
    note, pid = save_to_a_stalled_server(editor)
    try:
        editor.nvim.command("qa!", async_=True)
        editor.wait(lambda: editor.nvim.eval("v:exiting") is not None, message="Neovim quitting")
    finally:
        os.kill(pid, signal.SIGCONT)
    assert editor.ended() == 0
    with Satchel(db=editor.db) as s:
        assert s.notes.get(id=note["id"])["content"] == "v2"


def test_a_reminders_list_longer_than_a_page_is_drawn_whole(editor):
    with Satchel(db=editor.db) as s:
        s.batch([("reminders.add", {"title": f"r{n}"}) for n in range(620)])
        s.reminders.endEditing()
    editor.nvim.command("Satchel reminders")
    editor.wait(lambda: len(editor.lines()) == 620)
    assert editor.lines()[0] == "[ ] r0" and editor.lines()[-1] == "[ ] r619"


def test_a_write_to_a_stalled_server_is_never_reported_failed_and_its_outcome_arrives(editor):
    note, pid = save_to_a_stalled_server(editor)
    try:
        editor.keys(":w<CR>")  # a second :w while the first is on its way follows it
        editor.wait(lambda: any("still under way" in m for m, _ in editor.notifications()), message="queued")
        assert editor.nvim.current.buffer.options["modified"], "not saved yet: still modified"
    finally:
        os.kill(pid, signal.SIGCONT)
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"], message="the outcome arrived")
    assert not [m for m, level in editor.notifications() if level >= 4], "nothing reported as failed"
    editor.keys("Gccv3<Esc>:w<CR>")  # and the next :w does not conflict with its own text
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"])
    with Satchel(db=editor.db) as s:
        assert s.notes.get(id=note["id"])["content"] == "v3"
    assert len(editor.nvim.windows) == 1, "no conflict split"


def test_edits_in_the_notes_list_are_refused_and_kept_never_dropped(editor):
    with Satchel(db=editor.db) as s:
        first = s.notes.create(title="First")
        s.notes.create(title="Second")
    editor.nvim.command("Satchel notes")
    editor.wait(lambda: len(editor.lines()) == 2)
    editor.keys("ggA renamed<Esc>oBrand new<Esc>:w<CR>")
    editor.wait(lambda: any("by hand" in m for m, _ in editor.notifications()))
    assert editor.nvim.current.buffer.options["modified"], "what was typed stays"
    assert editor.lines()[0].endswith("First renamed") and editor.lines()[1] == "Brand new"
    with Satchel(db=editor.db) as s:
        assert [n["title"] for n in s.notes.list()["items"]] == ["First", "Second"]
    editor.keys("u")
    editor.keys("u")  # back to the list as drawn: a move still saves
    editor.wait(lambda: len(editor.lines()) == 2 and editor.lines()[0].endswith(" First"))
    editor.keys("ddp:w<CR>")
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"])
    with Satchel(db=editor.db) as s:
        assert [n["id"] for n in s.notes.list()["items"]][1] == first["id"]
