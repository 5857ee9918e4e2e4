"""ENotes in a real Neovim: the list with colours, a note as a buffer saved with :w (a change made elsewhere
merged into what is typed, or, where both changed the same words, shown instead of overwritten), new
notes, reordering and deleting by editing the list."""
from __future__ import annotations

import time

from satchel_client import Satchel


def test_the_list_shows_titles_deadlines_and_colours_and_opens_a_note(editor):
    with Satchel(db=editor.db) as s:
        green = s.notes.create(title="Groceries", content="milk\nbread",
                               color={"hue": 0.33, "saturation": 0.4, "brightness": 1},
                               deadline="2026-12-24T18:00:00+01:00")
        s.notes.create(title="Plain")
    editor.nvim.command("Satchel notes")
    editor.wait(lambda: len(editor.lines()) == 2)
    first, second = editor.lines()
    assert first == f"{green['id']} Groceries  ⏰ 2026-12-24 17:00 UTC"
    assert second.endswith(" Plain")
    marks = editor.nvim.exec_lua("""
        local ns = vim.api.nvim_get_namespaces().satchel_notes
        return vim.tbl_map(function(m) return m[4].hl_group end,
          vim.api.nvim_buf_get_extmarks(0, ns, 0, -1, {details = true}))""")
    assert marks == ["SatchelNote9BFF99", "SatchelNoteFFFFFF"]
    assert editor.nvim.exec_lua("return vim.api.nvim_get_hl_by_name('SatchelNote9BFF99', true).background") == 0x9BFF99
    editor.keys("gg<CR>")
    editor.wait(lambda: editor.nvim.current.buffer.name == f"satchel://notes/{green['id']}")
    editor.wait_lines(["Groceries", "", "milk", "bread"])

    editor.keys("Goeggs<Esc>:w<CR>")
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"])
    with Satchel(db=editor.db) as s:
        saved = s.notes.get(id=green["id"])
    assert saved["content"] == "milk\nbread\neggs" and saved["revision"] == 2


def test_a_write_that_conflicts_shows_both_versions_and_keeps_what_was_typed(editor):
    with Satchel(db=editor.db) as s:
        note = s.notes.create(title="Plan", content="v1")
    editor.nvim.command(f"edit satchel://notes/{note['id']}")
    editor.wait_lines(["Plan", "", "v1"])
    editor.keys("Gccmine<Esc>")
    editor.wait(lambda: editor.nvim.current.buffer.options["modified"])
    with Satchel(db=editor.db) as other:  # meanwhile, elsewhere
        other.notes.update(id=note["id"], content="theirs")
    editor.keys(":w<CR>")
    editor.wait(lambda: len(editor.nvim.windows) == 2, message="theirs in a split")
    names = sorted(w.buffer.name for w in editor.nvim.windows)
    assert names == [f"satchel://notes/{note['id']}", f"satchel://notes/{note['id']}/theirs"]
    theirs = next(w.buffer for w in editor.nvim.windows if w.buffer.name.endswith("/theirs"))
    assert theirs[:] == ["Plan", "", "theirs"]
    assert editor.lines() == ["Plan", "", "mine"] and editor.nvim.current.buffer.options["modified"]
    with Satchel(db=editor.db) as s:
        assert s.notes.get(id=note["id"])["content"] == "theirs"  # nothing was overwritten
    assert any("revision 2" in message for message, _ in editor.notifications())
    editor.keys(":w<CR>")  # having seen theirs, a second :w keeps mine
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"])
    with Satchel(db=editor.db) as s:
        assert s.notes.get(id=note["id"])["content"] == "mine"


def test_u_right_after_opening_a_note_keeps_its_text_and_then_undoes_only_what_was_typed(editor):
    with Satchel(db=editor.db) as s:
        note = s.notes.create(title="Plan", content="v1")
    editor.nvim.command(f"edit satchel://notes/{note['id']}")
    editor.wait_lines(["Plan", "", "v1"])
    editor.nvim.command("normal u")  # loading is no edit: nothing to undo
    assert editor.lines() == ["Plan", "", "v1"] and not editor.nvim.current.buffer.options["modified"]
    editor.keys("Gccv2<Esc>:w<CR>")
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"])
    editor.nvim.command("normal u")
    assert editor.lines() == ["Plan", "", "v1"] and editor.nvim.current.buffer.options["modified"]
    editor.nvim.command("normal u")  # and no further than what the buffer was opened with
    assert editor.lines() == ["Plan", "", "v1"]


def test_a_new_note_and_a_failed_save_that_loses_nothing(editor_factory, tmp_path):
    editor = editor_factory(locale="ru")
    editor.nvim.command("Satchel note new")
    editor.keys("i   <Esc>:w<CR>")
    editor.wait(lambda: editor.notifications(), message="an error")
    message, level = editor.notifications()[-1]
    assert level == 4 and any("а" <= ch <= "я" for ch in message.lower())  # ERROR, in Russian
    assert editor.lines() == ["   "] and editor.nvim.current.buffer.options["modified"]
    editor.keys("ggdGiShopping<CR><CR>list<Esc>:w<CR>")
    editor.wait(lambda: editor.nvim.current.buffer.name.startswith("satchel://notes/note_"))
    with Satchel(db=editor.db) as s:
        (note,) = s.notes.list()["items"]
    assert (note["title"], note["content"]) == ("Shopping", "list")


def test_reorder_by_moving_lines_and_delete_with_a_confirmation(editor):
    with Satchel(db=editor.db) as s:
        for title in ("one", "two", "three"):
            s.notes.create(title=title)
    editor.nvim.command("Satchel notes")
    editor.wait(lambda: len(editor.lines()) == 3)
    editor.keys("Gddggp:w<CR>")  # three moves below one: one, three, two
    editor.wait(lambda: [line.split(" ", 1)[1] for line in editor.lines()] == ["one", "three", "two"])
    with Satchel(db=editor.db) as s:
        assert [n["title"] for n in s.notes.list()["items"]] == ["one", "three", "two"]
    editor.keys("ggdd:w<CR>")
    editor.answer("n")  # the confirmation: no
    with Satchel(db=editor.db) as s:
        assert len(s.notes.list()["items"]) == 3
    assert editor.nvim.current.buffer.options["modified"]  # the deletion waits in the buffer
    editor.keys(":w<CR>")
    editor.answer("y")
    editor.wait(lambda: [line.split(" ", 1)[1] for line in editor.lines()] == ["three", "two"])
    with Satchel(db=editor.db) as s:
        assert [n["title"] for n in s.notes.list()["items"]] == ["three", "two"]


def test_a_change_from_another_process_refreshes_an_open_buffer(editor):
    with Satchel(db=editor.db) as s:
        note = s.notes.create(title="Shared", content="first")
    editor.nvim.command("Satchel notes")
    editor.wait(lambda: len(editor.lines()) == 1)
    editor.nvim.command(f"split satchel://notes/{note['id']}")
    editor.wait_lines(["Shared", "", "first"])
    with Satchel(db=editor.db) as other:
        other.notes.update(id=note["id"], content="second")
        other.notes.create(title="Another")
    editor.wait_lines(["Shared", "", "second"])
    notes_list = next(w.buffer for w in editor.nvim.windows if w.buffer.name == "satchel://notes")
    editor.wait(lambda: len(notes_list[:]) == 2)


def test_a_note_typed_without_the_blank_line_keeps_every_line(editor):
    editor.nvim.command("Satchel note new")
    editor.keys("iShopping<CR>milk<CR>eggs<Esc>:w<CR>")
    editor.wait(lambda: editor.nvim.eval("bufname()").startswith("satchel://notes/note_"))
    with Satchel(db=editor.db) as s:
        (note,) = s.notes.list()["items"]
    assert (note["title"], note["content"]) == ("Shopping", "milk\neggs")


def test_changes_to_several_notes_at_once_reach_each_open_note(editor):
    with Satchel(db=editor.db) as s:
        a = s.notes.create(title="A", content="a1")
        b = s.notes.create(title="B", content="b1")
    editor.nvim.command(f"edit satchel://notes/{a['id']}")
    editor.nvim.command(f"split satchel://notes/{b['id']}")
    editor.wait_lines(["B", "", "b1"])
    with Satchel(db=editor.db) as other:
        other.batch([("notes.update", {"id": a["id"], "content": "a2"}),
                     ("notes.update", {"id": b["id"], "content": "b2"})])
    editor.wait_lines(["B", "", "b2"])
    other_window = next(w for w in editor.nvim.windows if w.buffer.name.endswith(a["id"]))
    editor.wait(lambda: other_window.buffer[:] == ["A", "", "a2"])


def test_a_resync_redraws_every_buffer_and_keeps_one_being_edited(editor):
    """More changes at once than the server sends one by one (an import elsewhere): one `resync` instead,
    and every satchel buffer is drawn again, except one with unsaved changes, as on any change."""
    with Satchel(db=editor.db) as s:
        shared = s.notes.create(title="Shared", content="first")
        draft = s.notes.create(title="Draft", content="b1")
        s.board.create(title="Apple")
    editor.nvim.exec_lua("""
        _G.methods = {}
        require('satchel.rpc').on_notification(function(method) table.insert(_G.methods, method) end)
    """)
    editor.nvim.command("Satchel board title")
    editor.wait_lines(["     +0  Apple"])
    editor.nvim.command("split | Satchel notes")
    editor.wait(lambda: len(editor.lines()) == 2)
    editor.nvim.command(f"split satchel://notes/{shared['id']}")
    editor.wait_lines(["Shared", "", "first"])
    editor.nvim.command(f"split satchel://notes/{draft['id']}")
    editor.wait_lines(["Draft", "", "b1"])
    editor.keys("Gccmine, not saved<Esc>")
    editor.wait(lambda: editor.nvim.current.buffer.options["modified"])

    with Satchel(db=editor.db) as other:  # one batch, one commit: 603 changes at once
        answers = other.batch([
            *(("notes.create", {"title": f"Imported {i:03d}"}) for i in range(600)),
            ("notes.update", {"id": shared["id"], "content": "second"}),
            ("notes.update", {"id": draft["id"], "content": "theirs"}),
            ("board.create", {"title": "Banana"}),
        ])
        assert not [answer for answer in answers if isinstance(answer, Exception)]

    buffers = {window.buffer.name: window.buffer for window in editor.nvim.windows}
    editor.wait(lambda: buffers[f"satchel://notes/{shared['id']}"][:] == ["Shared", "", "second"],
                message="the open note is drawn again")
    editor.wait(lambda: len(buffers["satchel://notes"][:]) == 602, message="the notes list is drawn again")
    editor.wait(lambda: buffers["satchel://board"][:] == ["     +0  Apple", "     +0  Banana"],
                message="the board is drawn again")
    assert editor.nvim.exec_lua("return _G.methods") == ["resync"]  # not 603 `changed`
    # The note being edited keeps what was typed; its :w then shows theirs instead of overwriting it.
    assert editor.lines() == ["Draft", "", "mine, not saved"] and editor.nvim.current.buffer.options["modified"]
    editor.keys(":w<CR>")
    editor.wait(lambda: any(w.buffer.name.endswith("/theirs") for w in editor.nvim.windows), message="theirs")
    theirs = next(w.buffer for w in editor.nvim.windows if w.buffer.name.endswith("/theirs"))
    assert theirs[:] == ["Draft", "", "theirs"]
    assert editor.lines() == ["Draft", "", "mine, not saved"]


MERGED_MARKS = """
    local ns = vim.api.nvim_get_namespaces().satchel_merged
    if not ns then return {} end
    return vim.tbl_map(function(m)
      local text = vim.api.nvim_buf_get_text(0, m[2], m[3], m[4].end_row, m[4].end_col, {})
      return {table.concat(text, '\\n'), m[4].hl_group}
    end, vim.api.nvim_buf_get_extmarks(0, ns, 0, -1, {details = true}))"""


def test_a_change_elsewhere_to_another_paragraph_is_merged_into_what_is_typed(editor):
    """Unsaved words in the first paragraph, the third changed elsewhere: both are in the buffer, theirs
    highlighted, no split; :w stores both; `u` takes the merge out in one step, and nothing more."""
    with Satchel(db=editor.db) as s:
        note = s.notes.create(title="Trip", content="We leave on Monday.\n\nPack light.\n\nTrain at nine.")
    editor.nvim.command(f"edit satchel://notes/{note['id']}")
    editor.wait_lines(["Trip", "", "We leave on Monday.", "", "Pack light.", "", "Train at nine."])
    editor.keys("3G$bcwTuesday<Esc>")  # the first paragraph: Monday -> Tuesday
    editor.wait(lambda: editor.lines()[2] == "We leave on Tuesday.")
    with Satchel(db=editor.db) as other:  # meanwhile, elsewhere: the third paragraph
        other.notes.update(id=note["id"], content="We leave on Monday.\n\nPack light.\n\nTrain at ten sharp.")
    both = ["Trip", "", "We leave on Tuesday.", "", "Pack light.", "", "Train at ten sharp."]
    editor.wait_lines(both)
    assert editor.nvim.current.buffer.options["modified"], "merged, not written: :w writes it"
    assert editor.nvim.exec_lua(MERGED_MARKS) == [["ten sharp", "SatchelMerged"]]
    assert editor.nvim.exec_lua("return vim.api.nvim_get_hl_by_name('SatchelMerged', true).background") == \
        editor.nvim.exec_lua("return vim.api.nvim_get_hl_by_name('DiffAdd', true).background")
    assert len(editor.nvim.windows) == 1, "no theirs split"
    assert any("revision 2" in message and "merged" in message for message, _ in editor.notifications())
    assert editor.nvim.current.window.cursor[0] == 3, "the cursor stays on the line it was on"

    editor.keys("u")  # the merge is one undo step; what was typed stays
    editor.wait_lines(["Trip", "", "We leave on Tuesday.", "", "Pack light.", "", "Train at nine."])
    editor.keys("<C-r>")
    editor.wait_lines(both)
    editor.keys(":w<CR>")
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"], message="written")
    with Satchel(db=editor.db) as s:
        saved = s.notes.get(id=note["id"])
    assert saved["content"] == "We leave on Tuesday.\n\nPack light.\n\nTrain at ten sharp."
    assert saved["revision"] == 3
    assert editor.nvim.exec_lua(MERGED_MARKS) == [], "written: nothing is marked any more"
    assert len(editor.nvim.windows) == 1


def test_a_change_that_comes_while_typing_is_merged_once_insert_mode_ends(editor):
    with Satchel(db=editor.db) as s:
        note = s.notes.create(title="List", content="apples\n\npears")
    editor.nvim.command(f"edit satchel://notes/{note['id']}")
    editor.wait_lines(["List", "", "apples", "", "pears"])
    editor.keys("3GA and plums")  # still typing
    editor.wait(lambda: editor.lines()[2] == "apples and plums")
    with Satchel(db=editor.db) as other:
        other.notes.update(id=note["id"], title="Shopping")
    time.sleep(1.0)
    assert editor.nvim.api.get_mode()["mode"] == "i"
    assert editor.lines() == ["List", "", "apples and plums", "", "pears"], "nothing moves under the typing"
    editor.keys(" too<Esc>")
    editor.wait_lines(["Shopping", "", "apples and plums too", "", "pears"])
    assert editor.nvim.exec_lua(MERGED_MARKS) == [["Shopping", "SatchelMerged"]]
    editor.keys("u")  # the merge, then the typing: one step each
    editor.wait_lines(["List", "", "apples and plums too", "", "pears"])
    editor.keys("u")
    editor.wait_lines(["List", "", "apples", "", "pears"])


def test_a_write_that_conflicts_on_other_words_merges_them_before_writing(editor):
    """The change elsewhere comes after the last notification was read (the :w meets it): merged the same
    way, and the following :w writes both."""
    with Satchel(db=editor.db) as s:
        note = s.notes.create(title="Plan", content="one\n\ntwo")
    editor.nvim.command(f"edit satchel://notes/{note['id']}")
    editor.wait_lines(["Plan", "", "one", "", "two"])
    # Nothing reaches this buffer from the change feed until the :w: only its revision conflict tells.
    editor.nvim.exec_lua("require('satchel.buffer').changed = function() end")
    editor.keys("3GccONE<Esc>")
    with Satchel(db=editor.db) as other:
        other.notes.update(id=note["id"], content="one\n\nTWO")
    editor.keys(":w<CR>")
    editor.wait_lines(["Plan", "", "ONE", "", "TWO"])
    assert editor.nvim.current.buffer.options["modified"] and len(editor.nvim.windows) == 1
    with Satchel(db=editor.db) as s:
        assert s.notes.get(id=note["id"])["content"] == "one\n\nTWO"  # nothing was overwritten
    editor.keys(":w<CR>")
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"])
    with Satchel(db=editor.db) as s:
        assert s.notes.get(id=note["id"])["content"] == "ONE\n\nTWO"


def test_a_colour_changed_elsewhere_does_not_stop_a_write(editor):
    """A revision that changes no text (a colour) brings nothing to merge: the :w that meets it goes on."""
    with Satchel(db=editor.db) as s:
        note = s.notes.create(title="Plan", content="v1")
    editor.nvim.command(f"edit satchel://notes/{note['id']}")
    editor.wait_lines(["Plan", "", "v1"])
    editor.nvim.exec_lua("require('satchel.buffer').changed = function() end")  # only the :w meets it
    editor.keys("Gccmine<Esc>")
    with Satchel(db=editor.db) as other:
        other.notes.update(id=note["id"], color={"hue": 0.6, "saturation": 0.5, "brightness": 1})
    editor.keys(":w<CR>")
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"], message="written")
    with Satchel(db=editor.db) as s:
        saved = s.notes.get(id=note["id"])
    assert (saved["content"], saved["revision"]) == ("mine", 3)
    assert len(editor.nvim.windows) == 1 and not editor.nvim.exec_lua(MERGED_MARKS)
    assert not [m for m, level in editor.notifications() if level >= 3]


def test_the_same_word_changed_on_both_sides_still_shows_theirs_in_a_split(editor):
    """A first change elsewhere, to other words, is merged; a second one to the word being changed here
    clashes: it touches nothing typed, and :w shows theirs in a split as ever (the merged words kept)."""
    with Satchel(db=editor.db) as s:
        note = s.notes.create(title="Plan", content="Meet at noon.\n\nBring maps.")
    editor.nvim.command(f"edit satchel://notes/{note['id']}")
    editor.wait_lines(["Plan", "", "Meet at noon.", "", "Bring maps."])
    editor.keys("3G$bcwdawn<Esc>")
    editor.wait(lambda: editor.lines()[2] == "Meet at dawn.")
    with Satchel(db=editor.db) as other:
        other.notes.update(id=note["id"], content="Meet at noon.\n\nBring tea.")
    editor.wait_lines(["Plan", "", "Meet at dawn.", "", "Bring tea."])
    with Satchel(db=editor.db) as other:  # the same word as here, another way
        other.notes.update(id=note["id"], content="Meet at dusk.\n\nBring tea.")
    time.sleep(1.0)  # the change has come: a clash touches nothing typed and opens nothing by itself
    assert editor.lines() == ["Plan", "", "Meet at dawn.", "", "Bring tea."] and len(editor.nvim.windows) == 1
    editor.keys(":w<CR>")
    editor.wait(lambda: len(editor.nvim.windows) == 2, message="theirs in a split")
    theirs = next(w.buffer for w in editor.nvim.windows if w.buffer.name.endswith("/theirs"))
    assert theirs[:] == ["Plan", "", "Meet at dusk.", "", "Bring tea."]
    assert editor.lines() == ["Plan", "", "Meet at dawn.", "", "Bring tea."]
    assert editor.nvim.current.buffer.options["modified"]
    with Satchel(db=editor.db) as s:
        assert s.notes.get(id=note["id"])["content"] == "Meet at dusk.\n\nBring tea."  # nothing overwritten
    assert any("revision 3" in message and "beside yours" in message for message, _ in editor.notifications())
    editor.keys(":w<CR>")  # having seen theirs, a second :w keeps mine
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"])
    with Satchel(db=editor.db) as s:
        assert s.notes.get(id=note["id"])["content"] == "Meet at dawn.\n\nBring tea."
