"""What a Neovim user expects of a plugin, in a real Neovim: setup() checks its options, live refresh without
setup(), readable note colours in any colorscheme and terminal, q and g?, dd, read-only items, modifiers,
clear messages instead of tracebacks, :help, and the server found in the plugin's own checkout."""
from __future__ import annotations

import base64
import os
import pathlib
import shutil
import subprocess

from satchel_client import Satchel, SatchelError, find_binary

PLUGIN = pathlib.Path(__file__).resolve().parents[1]


def test_setup_refuses_bad_options_with_one_message_and_applies_none(editor):
    for options, expected in [
        ({"cmd": "/usr/bin/satchel"}, "cmd: expected a list such as {'/path/to/satchel'}"),
        ({"locale": "de"}, "locale: expected 'en', 'ru' or 'ja'"),
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"keys": "q"}, "keys: expected table"),
    ]:
        before = len(editor.notifications())
        assert editor.nvim.exec_lua("return require('satchel').setup(...)", options) is False
        new = editor.notifications()[before:]
        assert len(new) == 1 and new[0][1] == 4, new
        assert new[0][0].startswith("Satchel: setup() was not applied: ") and expected in new[0][0], new
    assert editor.nvim.exec_lua("return require('satchel').options.locale") is None
    editor.nvim.command("Satchel board")  # the options of the last good setup() still serve
    editor.wait(lambda: editor.nvim.current.buffer.name == "satchel://board")


def test_without_setup_the_lists_still_refresh_live(editor_factory, tmp_path, monkeypatch):
    db = tmp_path / "plain.sqlite"
    monkeypatch.setenv("SATCHEL_DB", str(db))
    editor = editor_factory(db=db, setup=False)
    editor.nvim.command("Satchel board")
    editor.wait(lambda: editor.nvim.current.buffer.name == "satchel://board")
    with Satchel(db=db) as s:
        s.board.create(title="From elsewhere")
    editor.wait(lambda: editor.lines() == ["     +0  From elsewhere"], message="the change shown")


def test_note_colours_keep_their_text_readable_in_any_colorscheme_and_terminal(editor):
    with Satchel(db=editor.db) as s:
        s.notes.create(title="Navy", color={"hue": 0.66, "saturation": 0.9, "brightness": 0.35})
        s.notes.create(title="Lemon", color={"hue": 0.16, "saturation": 0.5, "brightness": 1})
    editor.nvim.command("Satchel notes")
    editor.wait(lambda: len(editor.lines()) == 2)
    groups = editor.nvim.exec_lua("""
        local ns = vim.api.nvim_get_namespaces().satchel_notes
        return vim.tbl_map(function(m) return m[4].hl_group end,
          vim.api.nvim_buf_get_extmarks(0, ns, 0, -1, {details = true}))""")

    def colours(group):
        gui = editor.nvim.exec_lua("return vim.api.nvim_get_hl_by_name(..., true)", group)
        cterm = editor.nvim.exec_lua("return vim.api.nvim_get_hl_by_name(..., false)", group)
        return gui, cterm

    def contrast(first, second):
        def luminance(value):
            channels = [((value >> shift) & 0xFF) / 255 for shift in (16, 8, 0)]
            linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        a, b = sorted((luminance(first), luminance(second)))
        return (b + 0.05) / (a + 0.05)

    for group in groups:
        gui, cterm = colours(group)
        assert contrast(gui["background"], gui["foreground"]) >= 4.5, group
        assert isinstance(cterm.get("background"), int) and isinstance(cterm.get("foreground"), int), cterm
    navy, lemon = (colours(group)[0]["foreground"] for group in groups)
    assert navy == 0xFFFFFF and lemon == 0x1C1C1E
    editor.nvim.command("colorscheme default")  # clears every group: they come back
    for group in groups:
        assert "background" in colours(group)[0], group
    assert editor.nvim.exec_lua("return vim.fn.hlexists('SatchelHint')") == 1


def test_q_closes_a_list_g_help_lists_its_keys_and_keys_can_be_remapped(editor):
    editor.nvim.exec_lua("require('satchel').setup(vim.tbl_extend('force', require('satchel').options, ...))",
                         {"keys": {"board": {"vote_up": "=", "next_sort": False}}})
    with Satchel(db=editor.db) as s:
        s.board.create(title="Apple")
    editor.nvim.command("split")
    editor.nvim.command("Satchel board")
    editor.wait_lines(["     +0  Apple"])
    help_text = editor.nvim.exec_lua("""
        local shown = {}
        local echo = vim.api.nvim_echo
        vim.api.nvim_echo = function(chunks) for _, c in ipairs(chunks) do table.insert(shown, c[1]) end end
        vim.api.nvim_feedkeys('g?', 'x', false)
        vim.api.nvim_echo = echo
        return table.concat(shown)""")
    assert "=        Vote up" in help_text and "q        Close" in help_text and "dd" in help_text
    assert "Next sort" not in help_text and "+        Vote up" not in help_text
    editor.keys("=")
    editor.wait_lines(["▲    +1  Apple"])
    assert len(editor.nvim.windows) == 2
    editor.keys("q")
    editor.wait(lambda: len(editor.nvim.windows) == 1, message="the window closed")


def test_dd_deletes_the_item_after_asking_in_every_list_that_is_not_text(editor):
    with Satchel(db=editor.db) as s:
        s.board.create(title="Apple")
        s.board.create(title="Banana")
        s.messages.send(text="hello")
    editor.nvim.command("Satchel board title")
    editor.wait_lines(["     +0  Apple", "     +0  Banana"])
    editor.keys("dd")
    editor.answer("n")
    assert editor.lines() == ["     +0  Apple", "     +0  Banana"]
    editor.keys("dd")
    editor.answer("y")
    editor.wait_lines(["     +0  Banana"])
    editor.nvim.command("Satchel messages")
    editor.wait(lambda: editor.lines()[-1].endswith("Me: hello"))
    editor.keys("Gdd")
    editor.answer("y")
    editor.wait(lambda: not any(line.endswith("Me: hello") for line in editor.lines()))
    with Satchel(db=editor.db) as s:
        assert [post["title"] for post in s.board.list()["items"]] == ["Banana"]
        assert all(m["text"] != "hello" for m in s.messages.list()["items"])


def test_items_are_read_only_unknown_names_are_said_and_errors_are_one_line(editor):
    with Satchel(db=editor.db) as s:
        post = s.board.create(title="Apple")
    editor.nvim.command(f"edit satchel://board/{post['id']}")
    editor.wait(lambda: editor.lines()[:1] == ["Apple"])
    assert editor.nvim.current.buffer.options["modifiable"] is False
    editor.nvim.command("edit satchel://bogus")
    editor.wait(lambda: any("satchel://bogus" in m for m, _ in editor.notifications()))
    message, level = editor.notifications()[-1]
    assert level == 4 and message.startswith("Satchel: there is no satchel://bogus")
    # An error inside a buffer's write is one notification, not a traceback and a hit-enter prompt.
    editor.nvim.command("Satchel note new")
    editor.nvim.exec_lua("""
        local rpc = require('satchel.rpc')
        _G.working_request = rpc.request
        rpc.request = function() error('the pipe broke') end""")
    try:
        editor.keys("ix<Esc>:w<CR>")
        editor.wait(lambda: any("the pipe broke" in m for m, _ in editor.notifications()))
        assert editor.nvim.api.get_mode()["blocking"] is False
        assert editor.nvim.current.buffer.options["modified"]
    finally:
        editor.nvim.exec_lua("require('satchel.rpc').request = _G.working_request")
    editor.keys(":w<CR>")  # and the next :w works
    editor.wait(lambda: not editor.nvim.current.buffer.options["modified"])


def test_modifiers_say_where_a_list_opens_and_gx_without_a_viewer_says_so(editor, tmp_path):
    editor.nvim.command("vertical Satchel board")
    editor.wait(lambda: len(editor.nvim.windows) == 2)
    widths = sorted(window.width for window in editor.nvim.windows)
    assert widths[0] < 100, "side by side, not one above the other"
    editor.nvim.command("tab Satchel reminders")
    editor.wait(lambda: len(editor.nvim.tabpages) == 2)
    editor.nvim.exec_lua("require('satchel').options.open_cmd = {'no-such-viewer'}")
    png = tmp_path / "dot.png"
    png.write_bytes(base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=="))
    with Satchel(db=editor.db) as s:
        photo = s.photos.add(image={"path": str(png)})
    editor.nvim.command(f"edit satchel://photos/{photo['id']}")
    editor.wait(lambda: len(editor.lines()) == 2)
    editor.keys("2Ggx")
    editor.wait(lambda: any("no-such-viewer" in m for m, _ in editor.notifications()))
    assert "open_cmd" in editor.notifications()[-1][0]


def test_help_works_from_the_shipped_tags(tmp_path):
    """doc/tags is shipped (a plugin manager that does not run :helptags still gets :help satchel) and is
    what :helptags makes of the help as it is now."""
    shutil.copy(PLUGIN / "doc" / "satchel.txt", tmp_path / "satchel.txt")
    made = subprocess.run(["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-c", f"helptags {tmp_path}",
                           "-c", "qa!"], capture_output=True, timeout=60)
    assert made.returncode == 0
    assert (PLUGIN / "doc" / "tags").read_text() == (tmp_path / "tags").read_text(), "doc/tags is stale"
    shown = subprocess.run(["nvim", "--headless", "-u", "NONE", "-i", "NONE", "--cmd", f"set rtp^={PLUGIN}",
                            "-c", "help satchel-export", "-c", "echo expand('%:t') . ':' . getline('.')",
                            "-c", "qa!"], capture_output=True, text=True, timeout=60)
    assert "satchel.txt:" in shown.stderr and "*satchel-export*" in shown.stderr, shown.stderr


def test_the_server_is_found_in_the_plugins_own_checkout(editor):
    found = editor.nvim.exec_lua("""
        vim.env.SATCHEL_BINARY = ''
        return require('satchel.rpc').command({})""")
    checkout = PLUGIN.parents[1]
    assert found[0] in (str(checkout / ".build" / "release" / "satchel"), str(checkout / ".build" / "debug" / "satchel"))
    assert os.access(found[0], os.X_OK)


def said(editor) -> list[str]:
    """What :messages holds; asked only while no prompt waits for a key (a request would wait with it)."""
    assert editor.nvim.api.get_mode()["mode"] not in ("r", "rm"), "a hit-enter prompt"
    return [line for line in editor.nvim.exec_lua("return vim.api.nvim_exec('messages', true)").split("\n") if line]


def refusal(db, method: str, **params) -> str:
    """What the server answers `method` with, in its words (another process, the same database)."""
    with Satchel(db=db) as s:
        try:
            s.call(method, params)
        except SatchelError as error:
            return error.message
    raise AssertionError(f"{method} was not refused")


def test_an_error_while_saving_is_one_line_with_no_prompt_and_the_text_stays(editor):
    empty_note = refusal(editor.db, "notes.create", title="", content="")
    editor.nvim.exec_lua("vim.notify = _G.stock_notify")  # Neovim's own, as a user without a notifier has
    editor.nvim.command("messages clear")
    editor.nvim.command("Satchel note new")
    editor.keys("ix<Esc>x:w<CR>")  # an empty note: the server refuses it, from inside BufWriteCmd
    editor.wait(lambda: editor.nvim.api.get_mode()["blocking"] or any("Satchel" in line for line in said(editor)))
    assert said(editor) == ["Satchel: " + empty_note]
    assert editor.nvim.current.buffer.options["modified"]
    editor.nvim.command("messages clear")
    editor.nvim.command("Satchel reminders")
    editor.wait(lambda: editor.nvim.current.buffer.name == "satchel://reminders")
    editor.keys("o")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "i")
    editor.keys("x" * 1001 + "<Esc>")  # too long a title, refused from inside InsertLeave
    editor.wait(lambda: editor.nvim.api.get_mode()["blocking"] or any("Satchel" in line for line in said(editor)))
    assert said(editor) == ["Satchel: " + refusal(editor.db, "reminders.add", title="x" * 1001)]
    assert editor.lines() == ["[ ] " + "x" * 1001] and editor.nvim.current.buffer.options["modified"]


def test_a_missing_binary_is_said_once_with_what_to_do(editor):
    editor.nvim.exec_lua("vim.notify = _G.stock_notify")
    editor.nvim.exec_lua("vim.env.SATCHEL_BINARY = '/nowhere/satchel'; require('satchel').setup({db = ...})",
                         str(editor.db))
    editor.nvim.command("messages clear")
    for app in ("notes", "reminders", "board", "notes"):
        editor.keys(f":Satchel {app}<CR>")
        editor.wait(lambda: editor.nvim.api.get_mode()["blocking"] or editor.nvim.current.buffer.name == f"satchel://{app}")
    assert said(editor) == ["Satchel: $SATCHEL_BINARY is /nowhere/satchel, which is not a program: "
                            "point it at a satchel binary"]
    editor.nvim.exec_lua("require('satchel').setup({cmd = {'/nowhere/else'}, db = ...})", str(editor.db))
    editor.keys(":Satchel board<CR>")  # another reason is said in its turn
    editor.wait(lambda: len(said(editor)) == 2)
    assert said(editor)[1] == "Satchel: setup({cmd}) is /nowhere/else, which is not a program: point it at a satchel binary"
    editor.nvim.exec_lua("local binary, db = ...; require('satchel').setup({cmd = {binary}, db = db})",
                         find_binary(), str(editor.db))
    with Satchel(db=editor.db) as s:
        s.board.create(title="Apple")
    editor.keys(":Satchel board<CR>")
    editor.wait_lines(["     +0  Apple"])
    assert len(said(editor)) == 2
