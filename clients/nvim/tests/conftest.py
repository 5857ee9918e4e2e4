"""A real headless Neovim (``nvim --embed --headless``) driven through pynvim, with the plugin on its
runtimepath and satchel (``$SATCHEL_BINARY``) on a fresh database file per test."""
from __future__ import annotations

import os
import pathlib
import tempfile
import time

import pynvim
import pytest

from satchel_client import find_binary

PLUGIN = pathlib.Path(__file__).resolve().parents[1]


class Editor:
    """One Neovim as a GUI runs it (``nvim --embed`` with a UI attached): ``nvim`` (pynvim), ``db`` (its
    satchel's database), helpers to wait for the buffer. ``quit()`` answers its exit status, which a shell
    around it keeps (pynvim does not tell it)."""

    def __init__(self, db: pathlib.Path, locale: str | None = None, setup: bool = True) -> None:
        self.db = db
        self.closed = False
        self.exit_status: int | None = None
        handle, status = tempfile.mkstemp(prefix="nvim-exit-", dir=db.parent)
        os.close(handle)
        self.status_file = pathlib.Path(status)
        argv = ["sh", "-c", 'nvim "$@"; echo $? > "$0"', str(self.status_file),
                "--embed", "-u", "NONE", "-i", "NONE", "-n",
                "--cmd", f"set rtp^={PLUGIN}", "--cmd", "set noswapfile shortmess+=F"]
        self.nvim = pynvim.attach("child", argv=argv)
        # A screen, as a person has: prompts (confirm, input) then wait for keys instead of answering alone.
        self.nvim.ui_attach(120, 40, rgb=True)
        self.nvim.command("runtime plugin/satchel.lua")
        # What the plugin says is kept to be read (Neovim's own vim.notify stays as _G.stock_notify).
        self.nvim.exec_lua("""
            _G.notifications, _G.stock_notify = {}, vim.notify
            vim.notify = function(message, level) table.insert(_G.notifications, {message, level or 2}) end
        """)
        options = {"cmd": [find_binary()], "db": str(db)}
        if locale:
            options["locale"] = locale
        if setup:
            self.nvim.exec_lua("require('satchel').setup(...)", options)

    def lines(self) -> list[str]:
        return self.nvim.current.buffer[:]

    def wait(self, condition, timeout: float = 10.0, message: str = ""):
        """Polls ``condition()`` (each poll lets Neovim run its event loop) until it is true."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            last = condition()
            if last:
                return last
            time.sleep(0.05)
        raise AssertionError(f"timed out: {message or condition} (last: {last!r}; lines: {self.lines()!r}; "
                             f"notifications: {self.notifications()!r})")

    def wait_lines(self, expected: list[str], timeout: float = 10.0) -> None:
        self.wait(lambda: self.lines() == expected, timeout, f"lines == {expected!r}")

    def notifications(self) -> list[list]:
        return self.nvim.exec_lua("return _G.notifications")

    def keys(self, keys: str) -> None:
        """Types ``keys`` as a user does (key notation such as <CR> and <Esc> understood)."""
        self.nvim.input(keys)

    def answer(self, keys: str, timeout: float = 10.0) -> None:
        """Waits for a prompt (confirm, input), which drops keys typed ahead of it, then answers it."""
        prompting = lambda: self.nvim.api.get_mode()["blocking"] or self.nvim.api.get_mode()["mode"] == "c"
        self.wait(prompting, timeout, "a prompt")
        self.nvim.input(keys)
        self.wait(lambda: not prompting(), timeout, "the prompt answered")

    def satchel_pid(self) -> int | None:
        return self.nvim.exec_lua("return require('satchel.rpc').pid()")

    def quit(self) -> int | None:
        """:qa! as a user leaves (VimLeavePre ends satchel), once; answers Neovim's exit status (128 + the
        signal's number when a signal ended it), or None when it did not end."""
        if self.closed:
            return self.exit_status
        self.closed = True
        try:
            if self.nvim.api.get_mode()["blocking"]:  # a prompt left by a failed test would hold :qa! back
                self.nvim.input("<C-c>")
            self.nvim.command("qa!")
        except Exception:  # the editor is gone with its channel: that is the point
            pass
        return self.ended()

    def ended(self) -> int | None:
        """Waits for Neovim to end (a :qa! already on its way) and answers its exit status, as quit() does."""
        self.closed = True
        deadline = time.monotonic() + 30
        while not self.status_file.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        try:
            self.nvim.close()
        except Exception:
            pass
        text = self.status_file.read_text().strip()
        self.exit_status = int(text) if text else None
        return self.exit_status


@pytest.fixture
def editor_factory(tmp_path):
    """``editor_factory(db=None, locale=None, setup=True)``: a Neovim; editors share a database when given
    the same; ``setup=False`` leaves ``setup()`` uncalled (the server is then found by $SATCHEL_BINARY)."""
    started: list[Editor] = []

    def start(db: pathlib.Path | None = None, locale: str | None = None, setup: bool = True) -> Editor:
        editor = Editor(db or tmp_path / "satchel.sqlite", locale, setup)
        started.append(editor)
        return editor

    yield start
    statuses = [editor.quit() for editor in started]
    assert all(status == 0 for status in statuses), f"Neovim's exit statuses: {statuses}"


@pytest.fixture
def editor(editor_factory) -> Editor:
    return editor_factory()


@pytest.fixture(autouse=True)
def _binary_env(monkeypatch):
    monkeypatch.setenv("SATCHEL_BINARY", find_binary())
    os.environ.setdefault("SATCHEL_BINARY", find_binary())
