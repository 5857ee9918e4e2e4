"""End-to-end encryption in the editor, against a real PostgreSQL: a device that has not unlocked is told
so once; `:Satchel unlock` asks for the passphrase without showing it, says a wrong one in the person's
words and, with the right one, brings the other device's notes; `:Satchel passphrase` changes it;
`:checkhealth satchel` says how encryption stands."""
from __future__ import annotations

import pytest

from editor_support import postgres
from satchel_client import Satchel, SatchelError, find_binary

PASSPHRASE = "correct horse battery"
LOCKED = "Satchel: your notes are locked on this device — :Satchel unlock"


@pytest.fixture
def cluster():
    started = postgres()
    yield started
    started.stop()


@pytest.fixture
def account(cluster):
    """A sync database and the URL of one account in it."""
    _, uris = cluster.database(find_binary(), ["anna"])
    return uris["anna"]


def device(tmp_path, account, name):
    return Satchel(db=tmp_path / f"{name}.sqlite", args=["--sync", account], timeout=60)


def syncing_editor(editor_factory, tmp_path, account, name="b", locale=None):
    editor = editor_factory(db=tmp_path / f"{name}.sqlite", locale=locale, setup=False)
    options = {"cmd": [find_binary(), "--sync", account], "db": str(editor.db)}
    if locale:
        options["locale"] = locale
    editor.nvim.exec_lua("require('satchel').setup(...)", options)
    # Each prompt of input()/inputsecret() counted as it opens, so a test answers the one it means.
    editor.nvim.exec_lua("""
        _G.prompts = 0
        vim.api.nvim_create_autocmd('CmdlineEnter', {callback = function()
          if vim.fn.expand('<afile>') ~= ':' then _G.prompts = _G.prompts + 1 end
        end})
    """)
    return editor


def prompt_row(editor) -> str:
    """The screen's last row (where a prompt is drawn), as shown."""
    return editor.nvim.exec_lua("""
        vim.cmd('redraw')
        local row, chars = vim.o.lines, {}
        for col = 1, vim.o.columns do chars[#chars + 1] = vim.fn.screenstring(row, col) end
        return vim.trim(table.concat(chars))""")


def secret(editor, number: int, typed: str) -> str:
    """Waits for the `number`th prompt, types `typed` into it, waits for it to show a star for each
    character typed, and answers the prompt row as shown then; then Enter."""
    editor.wait(lambda: editor.nvim.exec_lua("return _G.prompts") >= number
                and editor.nvim.api.get_mode()["mode"] == "c", message=f"prompt {number}")
    editor.nvim.input(typed.replace("<", "<lt>"))
    shown = editor.wait(lambda: (lambda row: row.endswith(": " + "*" * len(typed)) and row)(prompt_row(editor)),
                        message="typed")
    editor.nvim.input("<CR>")
    return shown


def messages(editor) -> list[str]:
    return [message for message, _ in editor.notifications()]


def wait_state(editor, predicate, message, timeout=30.0):
    status = "local _, s = require('satchel.rpc').request_sync('sync.status', nil, 2000) return s"
    return editor.wait(lambda: predicate(editor.nvim.exec_lua(status) or {}), timeout, message)


def assert_never_shown(editor, *secrets: str) -> None:
    said = editor.nvim.exec_lua("return vim.fn.execute('messages')") + "\n".join(messages(editor))
    history = editor.nvim.exec_lua("""
        local all = {}
        for _, kind in ipairs({'cmd', 'search', 'expr', 'input', 'debug'}) do
          for i = 1, vim.fn.histnr(kind) do all[#all + 1] = vim.fn.histget(kind, i) end
        end
        return all""")
    for text in secrets:
        assert text not in said, said
        assert not any(text in entry for entry in history), history


def test_a_locked_device_is_told_once_and_unlocks_with_the_right_passphrase(editor_factory, tmp_path, account):
    with device(tmp_path, account, "a") as a:
        assert a.call("sync.status")["encryption"] in ("off", "unknown")
        assert a.call("sync.unlock", {"passphrase": PASSPHRASE}) == {"encryption": "on"}
        a.notes.create(title="Sealed on A", content="only for anna")
        a.call("sync.now")

    editor = syncing_editor(editor_factory, tmp_path, account)
    editor.nvim.command("Satchel notes")
    editor.wait(lambda: LOCKED in messages(editor), timeout=30, message="told it is locked")
    assert "Sealed on A" not in "\n".join(editor.lines())

    editor.keys(":Satchel unlock<CR>")
    shown = secret(editor, 1, "not the passphrase")
    assert shown == "Passphrase: " + "*" * len("not the passphrase"), shown  # never echoed
    editor.wait(lambda: "Satchel: that passphrase does not unlock your notes: try again with :Satchel unlock"
                in messages(editor), timeout=30, message="the wrong one said")
    wait_state(editor, lambda s: s.get("reason") == "wrongPassphrase", "wrongPassphrase")

    editor.keys(":Satchel unlock<CR>")
    secret(editor, 2, PASSPHRASE)
    editor.wait(lambda: "Satchel: unlocked: your notes sync on this device again" in messages(editor),
                timeout=30, message="unlocked")
    editor.wait(lambda: any("Sealed on A" in line for line in editor.lines()), timeout=30,
                message="A's note in B's list")
    assert messages(editor).count(LOCKED) == 1, messages(editor)
    assert editor.nvim.exec_lua("return _G.prompts") == 2  # one prompt each time: no echo, no retyping
    assert_never_shown(editor, PASSPHRASE, "not the passphrase")


def test_turning_encryption_on_warns_and_asks_twice_in_the_persons_language(editor_factory, tmp_path, account):
    editor = syncing_editor(editor_factory, tmp_path, account, locale="ru")
    editor.nvim.command("Satchel notes")
    wait_state(editor, lambda s: s.get("encryption") == "off", "encryption known to be off")

    editor.keys(":Satchel unlock<CR>")
    secret(editor, 1, PASSPHRASE)
    secret(editor, 2, PASSPHRASE + "!")
    editor.wait(lambda: "Satchel: пароли не совпадают: ничего не изменено" in messages(editor), message="mismatch")
    assert any("Потеряв пароль, вы потеряете синхронизированную копию, но не данные этого устройства" in m
               for m in messages(editor)), messages(editor)
    assert wait_state(editor, lambda s: s, "status")["encryption"] == "off"  # nothing was sent

    editor.keys(":Satchel unlock<CR>")
    secret(editor, 3, PASSPHRASE)
    secret(editor, 4, PASSPHRASE)
    editor.wait(lambda: "Satchel: шифрование включено: заметки синхронизируются зашифрованными вашим паролем"
                in messages(editor), timeout=30, message="turned on")
    assert wait_state(editor, lambda s: s.get("encryption") == "on", "on")
    assert LOCKED not in messages(editor)
    assert_never_shown(editor, PASSPHRASE)
    with device(tmp_path, account, "fresh") as fresh:
        assert fresh.call("sync.unlock", {"passphrase": PASSPHRASE}) == {"encryption": "on"}


def test_the_passphrase_command_changes_it_and_only_the_new_one_unlocks_a_new_device(
        editor_factory, tmp_path, account):
    editor = syncing_editor(editor_factory, tmp_path, account)
    with device(tmp_path, account, "a") as a:
        a.call("sync.unlock", {"passphrase": PASSPHRASE})
    editor.nvim.command("Satchel notes")
    editor.wait(lambda: LOCKED in messages(editor), timeout=30, message="told it is locked")
    new = "a longer, newer passphrase"

    editor.keys(":Satchel passphrase<CR>")  # the wrong current one: refused, nothing changed
    secret(editor, 1, "not it at all")
    secret(editor, 2, new)
    secret(editor, 3, new)
    editor.wait(lambda: "Satchel: the current passphrase is not that one: nothing was changed" in messages(editor),
                timeout=30, message="wrong current")

    editor.keys(":Satchel passphrase<CR>")  # the new one twice, differently: refused before sending
    secret(editor, 4, PASSPHRASE)
    secret(editor, 5, new)
    secret(editor, 6, new + "?")
    editor.wait(lambda: "Satchel: the two passphrases differ: nothing was changed" in messages(editor))

    editor.keys(":Satchel passphrase<CR>")
    secret(editor, 7, PASSPHRASE)
    secret(editor, 8, new)
    secret(editor, 9, new)
    editor.wait(lambda: any(m.startswith("Satchel: the passphrase is changed") for m in messages(editor)),
                timeout=30, message="changed")
    assert_never_shown(editor, PASSPHRASE, new)

    with device(tmp_path, account, "fresh") as fresh:
        with pytest.raises(SatchelError) as refused:
            fresh.call("sync.unlock", {"passphrase": PASSPHRASE})
        assert refused.value.code == -32002 and refused.value.data["reason"] == "wrongPassphrase"
        assert fresh.call("sync.unlock", {"passphrase": new}) == {"encryption": "on"}


def test_checkhealth_shows_how_encryption_stands(editor_factory, tmp_path, account):
    with device(tmp_path, account, "a") as a:
        a.call("sync.unlock", {"passphrase": PASSPHRASE})
    editor = syncing_editor(editor_factory, tmp_path, account)
    editor.nvim.command("Satchel notes")
    wait_state(editor, lambda s: s.get("state") == "locked", "locked")
    editor.nvim.command("checkhealth satchel")
    text = "\n".join(editor.lines())
    assert "encryption: locked" in text and ":Satchel unlock" in text, text
    assert "; locked: " in text and "sync stopped" not in text, text

    editor.nvim.command("bwipeout")
    editor.keys(":Satchel unlock<CR>")
    secret(editor, 1, PASSPHRASE)
    editor.wait(lambda: "Satchel: unlocked: your notes sync on this device again" in messages(editor), timeout=30)
    editor.nvim.command("checkhealth satchel")
    text = "\n".join(editor.lines())
    assert "OK encryption: on (end-to-end" in text or "OK: encryption: on (end-to-end" in text, text
    assert PASSPHRASE not in text
