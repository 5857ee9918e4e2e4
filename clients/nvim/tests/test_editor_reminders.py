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


def test_o_and_O_insert_below_and_above_and_the_memo_shows_under_its_reminder(editor):
    with Satchel(db=editor.db) as s:
        first = s.reminders.add(title="First", memo="with a memo")["reminder"]
        s.reminders.add(title="Last")
        s.reminders.endEditing()
    editor.nvim.command("Satchel reminders")
    editor.wait_lines(["[ ] First", "    with a memo", "[ ] Last"])
    editor.nvim.current.window.cursor = (1, 0)
    editor.keys("o")
    editor.wait_lines(["[ ] First", "    with a memo", "[ ] ", "[ ] Last"])
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    assert editor.nvim.current.window.cursor[0] == 3
    editor.keys("Between<Esc>")
    editor.wait_lines(["[ ] First", "    with a memo", "[ ] Between", "[ ] Last"])
    editor.keys("ggO")
    editor.wait_lines(["[ ] ", "[ ] First", "    with a memo", "[ ] Between", "[ ] Last"])
    editor.keys("Top<Esc>")
    editor.wait_lines(["[ ] Top", "[ ] First", "    with a memo", "[ ] Between", "[ ] Last"])
    assert titles(editor.db) == [("Top", False), ("First", False), ("Between", False), ("Last", False)]
    with Satchel(db=editor.db) as s:
        assert s.reminders.get(id=first["id"])["memo"] == "with a memo"
    editor.nvim.current.window.cursor = (4, 0)
    editor.keys("D")
    editor.wait_lines(["[ ] Top", "[ ] First", "    with a memo", "[ ] Last"])


def test_two_editors_on_one_database_see_each_other_and_keep_their_own_editing(editor_factory, tmp_path):
    db = tmp_path / "shared.sqlite"
    left, right = editor_factory(db), editor_factory(db)
    for editor in (left, right):
        editor.nvim.command("Satchel reminders")
        editor.wait(lambda e=editor: e.nvim.current.buffer.name == "satchel://reminders")
    left.keys("o")
    left.wait_lines(["[ ] "])
    left.keys("From the left<Esc>")
    right.wait_lines(["[ ] From the left"])  # refreshed by the change feed
    right.keys("o")
    right.wait(lambda: right.nvim.api.get_mode()["mode"] == "i")
    right.keys("From the right<Esc>")
    left.wait_lines(["[ ] From the left", "[ ] From the right"])
    assert titles(db) == [("From the left", False), ("From the right", False)]


def test_the_list_is_there_again_after_a_restart_and_in_the_web_app(editor_factory, tmp_path):
    import importlib.util
    import pathlib

    db = tmp_path / "everyday.sqlite"
    editor = editor_factory(db)
    editor.nvim.command("Satchel reminders")
    editor.keys("o")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    editor.keys("Milk<CR>Bread<CR>")
    editor.wait_lines(["[ ] Milk", "[ ] Bread", "[ ] "])
    editor.keys("<Esc>")
    editor.wait_lines(["[ ] Milk", "[ ] Bread"])
    editor.quit()

    again = editor_factory(db)
    again.nvim.command("Satchel reminders")
    again.wait_lines(["[ ] Milk", "[ ] Bread"])

    web = pathlib.Path(__file__).resolve().parents[2] / "web" / "tests" / "conftest.py"
    spec = importlib.util.spec_from_file_location("web_fixtures", web)
    fixtures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fixtures)
    bridge = fixtures.Bridge(["--db", str(db)], db)
    driver = fixtures.chromium_driver()
    try:
        page = fixtures.Page(driver, bridge, tmp_path).open("reminders")
        page.wait_until(lambda: [e.get_property("value") for e in page.find_all("section[data-app='reminders'] input.rem-title")] == ["Milk", "Bread"])
    finally:
        driver.quit()
        bridge.stop()


def test_lines_deleted_by_hand_are_not_saved_as_other_titles(editor):
    with Satchel(db=editor.db) as s:
        for title in ("A", "B", "C"):
            s.reminders.add(title=title)
        s.reminders.endEditing()
    editor.nvim.command("Satchel reminders")
    editor.wait_lines(["[ ] A", "[ ] B", "[ ] C"])
    editor.keys(":1delete<CR>:w<CR>")  # a line deleted by hand (dd is D here: it deletes the reminder)
    editor.wait(lambda: editor.notifications())
    assert "o/O" in editor.notifications()[-1][0]
    assert titles(editor.db) == [("A", False), ("B", False), ("C", False)]
    assert editor.lines() == ["[ ] B", "[ ] C"] and editor.nvim.current.buffer.options["modified"]
    editor.keys("x")  # neither does a toggle act on a line that moved
    editor.wait(lambda: len(editor.notifications()) == 2)
    assert titles(editor.db) == [("A", False), ("B", False), ("C", False)]
    editor.keys("u:w<CR>")
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"])
    assert editor.lines() == ["[ ] A", "[ ] B", "[ ] C"]


def test_a_title_the_server_refuses_stays_in_the_buffer(editor):
    editor.nvim.command("Satchel reminders")
    editor.keys("o")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    editor.keys("x" * 1001 + "<Esc>")
    editor.wait(lambda: editor.notifications())
    assert editor.notifications()[-1][1] == 4
    assert editor.lines() == ["[ ] " + "x" * 1001] and editor.nvim.current.buffer.options["modified"]
    editor.keys("$Xi<Esc>")  # one character less: now it is a title
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"])
    assert titles(editor.db) == [("x" * 1000, False)]


def test_u_takes_back_a_rename_in_the_buffer_and_the_database_and_refuses_the_rest_in_words(editor):
    with Satchel(db=editor.db) as s:
        milk = s.reminders.add(title="Milk")["reminder"]
        s.reminders.endEditing()
    editor.nvim.command("Satchel reminders")
    editor.wait_lines(["[ ] Milk"])
    editor.keys("o")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    editor.keys("Bread<Esc>")
    editor.wait(lambda: titles(editor.db) == [("Milk", False), ("Bread", False)])
    editor.nvim.command("normal u")  # a new reminder's title is not a rename: said so, nothing changes
    assert "no rename to undo" in editor.notifications()[-1][0]
    assert editor.lines() == ["[ ] Milk", "[ ] Bread"] and titles(editor.db) == [("Milk", False), ("Bread", False)]

    editor.nvim.current.window.cursor = (1, 0)
    editor.keys("i")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    editor.keys(" 2L<Esc>")
    editor.wait(lambda: titles(editor.db)[0] == ("Milk 2L", False))
    editor.wait_lines(["[ ] Milk 2L", "[ ] Bread"])
    editor.nvim.command("normal u")
    assert editor.lines() == ["[ ] Milk", "[ ] Bread"] and not editor.nvim.current.buffer.options["modified"]
    assert titles(editor.db) == [("Milk", False), ("Bread", False)]
    editor.nvim.command('execute "normal \\<C-r>"')
    assert editor.lines() == ["[ ] Milk 2L", "[ ] Bread"]
    assert titles(editor.db) == [("Milk 2L", False), ("Bread", False)]

    with Satchel(db=editor.db) as s:  # renamed elsewhere since: undoing here would overwrite that
        s.reminders.update(id=milk["id"], title="Oat milk")
    editor.wait_lines(["[ ] Oat milk", "[ ] Bread"])
    editor.nvim.command("normal u")
    assert "changed or deleted since" in editor.notifications()[-1][0]
    assert titles(editor.db) == [("Oat milk", False), ("Bread", False)]


def test_two_editors_on_one_reminder_overwrite_nothing_and_show_both(editor_factory, tmp_path):
    db = tmp_path / "shared.sqlite"
    with Satchel(db=db) as s:
        s.reminders.add(title="Milk")
        s.reminders.endEditing()
    left, right = editor_factory(db), editor_factory(db)
    for editor in (left, right):
        editor.nvim.command("Satchel reminders")
        editor.wait_lines(["[ ] Milk"])
        editor.keys("i")
        editor.wait(lambda e=editor: e.nvim.api.get_mode()["mode"] == "i")
    left.keys(" from the left")
    left.wait_lines(["[ ] Milk from the left"])
    right.keys(" from the right<Esc>")
    right.wait(lambda: titles(db) == [("Milk from the right", False)])
    left.keys("<Esc>")  # drawn before the right's save: refused, and theirs shown beside
    left.wait(lambda: len(left.nvim.windows) == 2, message="theirs in a split")
    theirs = [w.buffer for w in left.nvim.windows if w.buffer.name.endswith("/theirs")]
    assert [b[:] for b in theirs] == [["[ ] Milk from the right"]]
    assert left.nvim.current.buffer.name == "satchel://reminders"
    assert left.lines() == ["[ ] Milk from the left"] and left.nvim.current.buffer.options["modified"]
    assert any("changed elsewhere" in m and level == 3 for m, level in left.notifications())
    left.nvim.command("wincmd p")  # going to read theirs saves nothing over it
    left.nvim.command("wincmd p")
    assert titles(db) == [("Milk from the right", False)]
    left.keys(":w<CR>")  # the second save keeps the left's, having seen theirs
    left.wait(lambda: not left.nvim.current.buffer.options["modified"])
    assert titles(db) == [("Milk from the left", False)]
    right.wait_lines(["[ ] Milk from the left"])

    right.keys("i")  # now a clash met by Return, in Insert mode: typing goes on, theirs beside
    right.wait(lambda: right.nvim.api.get_mode()["mode"] == "i")
    right.keys(", right again")
    left.keys("i")
    left.wait(lambda: left.nvim.api.get_mode()["mode"] == "i")
    left.keys(", left again<Esc>")
    left.wait(lambda: titles(db) == [("Milk from the left, left again", False)])
    right.keys("<CR>")
    right.wait(lambda: len(right.nvim.windows) == 2, message="theirs in a split")
    assert right.nvim.api.get_mode()["mode"] == "i" and right.nvim.current.buffer.name == "satchel://reminders"
    assert titles(db) == [("Milk from the left, left again", False)]
    right.keys("<Esc>")  # leaving Insert mode is the next save
    right.wait(lambda: titles(db) == [("Milk from the left, right again", False)])


def test_quitting_while_typing_a_reminder_changed_elsewhere_keeps_both(editor_factory, tmp_path):
    db = tmp_path / "shared.sqlite"
    with Satchel(db=db) as s:
        milk = s.reminders.add(title="Milk")["reminder"]
        s.reminders.endEditing()
    left = editor_factory(db)
    left.nvim.command("Satchel reminders")
    left.wait_lines(["[ ] Milk"])
    left.keys("i")
    left.wait(lambda: left.nvim.api.get_mode()["mode"] == "i")
    left.keys(" from the left")
    left.wait_lines(["[ ] Milk from the left"])
    with Satchel(db=db) as s:
        s.reminders.update(id=milk["id"], title="Milk from elsewhere")
    assert left.quit() == 0  # no split to show theirs in any more: nothing overwritten, nothing dropped
    assert titles(db) == [("Milk from elsewhere", False), ("Milk from the left", False)]
