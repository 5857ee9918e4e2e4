"""Diary, messages, board, search and health in a real Neovim, and the server's lifetime with the editor."""
from __future__ import annotations

import base64
import os
import pathlib
import signal
import time

from editor_support import alive, postgres
from satchel_client import Satchel, find_binary

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=="
)


def test_diary_previews_a_whole_post_its_images_and_a_new_post(editor, tmp_path):
    photo = tmp_path / "sea.png"
    photo.write_bytes(PNG)
    opened = tmp_path / "opened.txt"
    viewer = tmp_path / "viewer"
    viewer.write_text(f"#!/bin/sh\ncp \"$1\" {tmp_path}/copy.png\necho \"$1\" > {opened}\n")
    viewer.chmod(0o755)
    editor.nvim.exec_lua("require('satchel').options.open_cmd = {...}", str(viewer))
    with Satchel(db=editor.db) as s:
        s.diary.create(text="older")
        post = s.diary.create(text="\n".join(f"line {n}" for n in range(1, 9)), images=[{"path": str(photo)}])
    editor.nvim.command("Satchel diary")
    editor.wait(lambda: len(editor.lines()) > 3)
    lines = editor.lines()
    assert lines[0].startswith(post["displayDate"]) and "1 photo" in lines[0]
    assert lines[1:7] == ["  line 1", "  line 2", "  line 3", "  line 4", "  line 5…", ""]
    assert lines[8] == "  older"
    editor.keys("gg<CR>")
    editor.wait(lambda: editor.nvim.current.buffer.name == f"satchel://diary/{post['id']}")
    editor.wait(lambda: len(editor.lines()) > 2)
    assert editor.lines()[1] == f"[1] image/png 2x1 {len(PNG)} B  (gx: open)"
    assert editor.lines()[3:] == [f"line {n}" for n in range(1, 9)]
    editor.keys("2Ggx")
    editor.wait(lambda: opened.exists() and (tmp_path / "copy.png").exists())
    assert (tmp_path / "copy.png").read_bytes() == PNG

    editor.nvim.command("Satchel diary new")
    editor.keys("iA new day<Esc>:w<CR>")
    editor.wait(lambda: editor.nvim.eval("bufname()").startswith("satchel://diary/post_"))
    with Satchel(db=editor.db) as s:
        assert s.diary.list()["items"][0]["excerpt"] == "A new day"


def test_messages_newest_at_the_bottom_load_earlier_until_the_end_and_send(editor):
    with Satchel(db=editor.db) as s:
        s.messages.send(text="hello")
    editor.nvim.command("Satchel messages")
    editor.wait(lambda: editor.lines()[-1].endswith("Me: hello"))
    assert editor.nvim.current.window.cursor[0] == len(editor.lines())
    editor.keys("L")
    editor.wait(lambda: len(editor.lines()) == 21)
    assert editor.lines()[-1].endswith("Me: hello")
    editor.keys("gg")  # moving to the top loads again: the sample feed has ended
    editor.wait(lambda: any("No more messages" in m for m, _ in editor.notifications()))
    editor.keys("i")
    editor.answer("See you<CR>")
    editor.wait(lambda: editor.lines()[-1].endswith("Me: See you"))
    with Satchel(db=editor.db) as s:
        assert s.messages.list(limit=1)["items"][0]["text"] == "See you"


def test_board_votes_and_sorts(editor):
    with Satchel(db=editor.db) as s:
        apple = s.board.create(title="Apple")
        s.board.create(title="Banana")
        s.board.vote(id=apple["id"], direction="down")
    editor.nvim.command("Satchel board title")
    editor.wait_lines(["     -1  Apple", "     +0  Banana"])
    editor.keys("j+")
    editor.wait_lines(["     -1  Apple", "▲    +1  Banana"])
    editor.keys("gg+")  # Apple: +1 from this voter, -1 from before
    editor.wait(lambda: editor.lines()[0] == "▲    +0  Apple")
    editor.nvim.command("Satchel board votes")
    editor.wait_lines(["▲    +1  Banana", "▲    +0  Apple"])
    editor.keys("gg-")
    editor.wait_lines(["▲    +0  Apple", "▼    -1  Banana"])
    editor.keys("s")  # votes -> title
    editor.wait(lambda: editor.lines()[0].endswith("Apple"))
    with Satchel(db=editor.db) as s:
        assert {p["title"]: p["votes"] for p in s.board.list()["items"]} == {"Apple": 0, "Banana": -1}


def test_search_fills_the_quickfix_list_and_each_entry_opens_its_item(editor):
    with Satchel(db=editor.db) as s:
        note = s.notes.create(title="Kyoto trip", content="maples")
        s.board.create(title="Kyoto ramen")
    editor.nvim.command("Satchel search kyoto")
    editor.wait(lambda: len(editor.nvim.exec_lua("return vim.fn.getqflist()")) == 2)
    texts = [item["text"] for item in editor.nvim.exec_lua("return vim.fn.getqflist()")]
    assert any(text.startswith("[notes] Kyoto trip") for text in texts)
    index = next(i for i, text in enumerate(texts) if text.startswith("[notes]")) + 1
    editor.nvim.command(f"cc {index}")
    editor.wait(lambda: editor.nvim.current.buffer.name == f"satchel://notes/{note['id']}")
    editor.wait_lines(["Kyoto trip", "", "maples"])


def test_checkhealth_reports_the_binary_version_database_and_protocol(editor):
    editor.nvim.command("checkhealth satchel")
    text = "\n".join(editor.lines())
    assert "binary: " in text and "version: " in text and str(editor.db) in text and "ping answered" in text
    assert "sync: off" in text
    assert "ERROR" not in text


def test_checkhealth_says_where_it_syncs_and_why_it_is_offline_without_the_password(editor_factory):
    editor = editor_factory(setup=False)
    url = "postgresql://anna:hunter2@127.0.0.1:9/shared?connect_timeout=2"
    editor.nvim.exec_lua("require('satchel').setup(...)",
                         {"cmd": [find_binary(), "--sync", url], "db": str(editor.db)})
    editor.nvim.command("Satchel notes")
    time.sleep(1.0)  # the link's first try fails at once: nobody listens on port 9
    editor.nvim.command("checkhealth satchel")
    text = "\n".join(editor.lines())
    assert "sync: anna@127.0.0.1/shared as anna" in text, text
    assert "offline" in text and "hunter2" not in text


def test_the_device_name_command_names_this_device_and_checkhealth_shows_it(editor):
    def device_name():
        with Satchel(db=editor.db) as s:
            return s.call("sync.status", {})["deviceName"]

    before = device_name()
    editor.nvim.command("Satchel device-name")  # alone: tells the name
    editor.wait(lambda: editor.notifications(), message="the name told")
    assert editor.notifications()[-1] == [f"Satchel: this device is called {before} "
                                          "(a conflict copy made from its version says so)", 2]
    editor.nvim.command("Satchel device-name  Anna's laptop ")  # the whole rest, spaces inside kept
    editor.wait(lambda: device_name() == "Anna's laptop", message="named")
    editor.wait(lambda: ["Satchel: this device is now called Anna's laptop", 2] in editor.notifications())
    editor.nvim.command("checkhealth satchel")
    text = "\n".join(editor.lines())
    assert "sync: off" in text and "device name: Anna's laptop" in text, text


def test_a_device_name_refused_is_said_in_the_persons_words_and_changes_nothing(editor_factory):
    editor = editor_factory(locale="ru")
    editor.nvim.command("Satchel device-name " + "x" * 65)
    editor.wait(lambda: editor.notifications(), message="refused")
    assert editor.notifications()[-1] == ["Satchel: имя устройства — не длиннее 64 символов", 4]
    editor.nvim.command("Satchel device-name kitchen")
    editor.wait(lambda: len(editor.notifications()) == 2, message="named")
    with Satchel(db=editor.db) as s:
        assert s.call("sync.status", {})["deviceName"] == "kitchen"


def test_checkhealth_says_why_sync_stopped_and_the_rows_it_skipped(editor_factory, tmp_path):
    """As the database's owner (a role no device syncs as) sync stops: an ERROR with the reason and what to
    do. As an account of its own it syncs (OK), and a row another device pushed that breaks a rule is
    skipped: a WARNING with the row and why."""
    import subprocess
    import uuid

    cluster = postgres()
    try:
        name, uris = cluster.database(find_binary(), ["anna"])
        owner = cluster.uri("owner_" + name.removeprefix("satchel_"), name)
        editor = editor_factory(setup=False, db=tmp_path / "owner.sqlite")
        editor.nvim.exec_lua("require('satchel').setup(...)",
                             {"cmd": [find_binary(), "--sync", owner], "db": str(editor.db)})
        editor.nvim.command("Satchel notes")
        status = "local _, s = require('satchel.rpc').request_sync('sync.status', nil, 2000) "
        editor.wait(lambda: editor.nvim.exec_lua(status + "return s and s.state") == "error", message="sync stopped")
        editor.nvim.command("checkhealth satchel")
        text = "\n".join(editor.lines())
        assert "ERROR: sync stopped (unsafeRole): " in text and "is the sync schema's owner" in text, text
        assert "ADVICE" in text and "this role may not sync" in text, text
        editor.quit()

        # Another device of anna's (here psql) pushes a "note" that is none; PostgreSQL takes it.
        role = uris["anna"].rsplit("user=", 1)[1]
        rows = ('[{"device_seq":1,"domain":"notes","entity":"note_x","op":"put",'
                '"body":{"id":"note_x","what":"not a note"}}]')
        subprocess.run(["psql", "-h", cluster.folder, "-U", role, "-d", name, "-v", "ON_ERROR_STOP=1", "-c",
                        f"SELECT satchel.push('{uuid.uuid4()}'::uuid, '{rows}'::jsonb)"],
                       check=True, stdout=subprocess.DEVNULL)
        editor = editor_factory(setup=False, db=tmp_path / "anna.sqlite")
        editor.nvim.exec_lua("require('satchel').setup(...)",
                             {"cmd": [find_binary(), "--sync", uris["anna"]], "db": str(editor.db)})
        editor.nvim.command("Satchel notes")
        editor.wait(lambda: editor.nvim.exec_lua(status + "return s and s.state == 'synced' and s.skipped.count"),
                    timeout=15, message="synced, the row skipped")
        editor.nvim.command("checkhealth satchel")
        text = "\n".join(editor.lines())
        assert "; synced" in text and "ERROR" not in text, text
        assert "sync: 1 row(s) skipped: they break a rule; the newest: notes note_x: " in text, text
    finally:
        cluster.stop()


def test_no_satchel_outlives_its_editor_and_a_dead_one_is_reported_and_restarted(editor_factory):
    editor = editor_factory()
    editor.nvim.command("Satchel reminders")
    editor.wait(lambda: editor.satchel_pid())
    first = editor.satchel_pid()
    os.kill(first, signal.SIGKILL)
    editor.wait(lambda: any("exited" in m for m, _ in editor.notifications()))
    editor.nvim.command("Satchel board")
    editor.wait(lambda: editor.satchel_pid() not in (None, first))
    second = editor.satchel_pid()
    editor.quit()
    deadline = time.monotonic() + 5
    while alive(second) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(second)


def test_errors_come_in_the_sessions_language(editor_factory):
    editor = editor_factory(locale="ja")
    editor.nvim.command("edit satchel://notes/note_missing")
    editor.wait(lambda: editor.notifications())
    message, level = editor.notifications()[-1]
    assert level == 4 and "note_missing" in message and any(ord(ch) > 0x3000 for ch in message)


def test_help_has_tags_for_every_app(editor, tmp_path):
    import shutil


    shutil.copytree(pathlib.Path(__file__).resolve().parents[1] / "doc", tmp_path / "doc")
    editor.nvim.command(f"set rtp^={tmp_path}")
    editor.nvim.command(f"helptags {tmp_path / 'doc'}")
    for tag in ("satchel", "satchel.setup()", ":Satchel", "satchel-notes", "satchel-reminders", "satchel-diary",
                "satchel-messages", "satchel-board", "satchel-search", "satchel-health", "satchel-export",
                "satchel-import", ":Satchel-export", ":Satchel-import", "satchel-merge", ":Satchel-device-name",
                "satchel-encryption", ":Satchel-unlock", ":Satchel-passphrase", "hl-SatchelMerged"):
        editor.nvim.command(f"help {tag}")
        assert editor.nvim.eval("&filetype") == "help"
        editor.nvim.command("helpclose")


def test_the_command_completes_apps_and_arguments_and_alone_offers_a_picker(editor):
    complete = lambda line: editor.nvim.call("getcompletion", line, "cmdline")
    assert complete("Satchel b") == ["board"]
    assert complete("Satchel ") == ["notes", "note", "reminders", "diary", "messages", "board", "search", "export",
                                    "import", "device-name", "unlock", "passphrase"]
    assert complete("Satchel board h") == ["hot"]
    assert complete("Satchel note ") == ["new"]
    editor.keys(":Satchel<CR>")
    editor.answer("2<CR>")  # the picker: 2 is reminders
    editor.wait(lambda: editor.nvim.eval("bufname()") == "satchel://reminders")


def test_a_message_the_server_refuses_comes_back_to_the_prompt(editor):
    editor.nvim.command("Satchel messages")
    editor.wait(lambda: editor.nvim.eval("bufname()") == "satchel://messages")
    editor.keys("i")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "c", message="the prompt")
    editor.keys("y" * 10001 + "<CR>")
    editor.wait(lambda: editor.notifications(), message="the refusal")
    editor.wait(lambda: editor.nvim.api.get_mode()["mode"] == "c", message="the prompt again")
    assert editor.nvim.call("getcmdline") == "y" * 10001
    assert editor.notifications()[-1][1] == 4


def test_quitting_sends_shutdown_and_exit(editor_factory, tmp_path):
    log = tmp_path / "stdin.log"
    wrapper = tmp_path / "satchel-logged"
    # Neovim ends its jobs with SIGTERM as it exits, right after the plugin closed their input: ignored here,
    # so that tee lives to log the last lines (both end at the end of their input).
    wrapper.write_text(f'#!/bin/sh\ntrap "" TERM\ntee "{log}" | exec "$SATCHEL_BINARY" "$@"\n')
    wrapper.chmod(0o755)
    editor = editor_factory()
    editor.nvim.exec_lua("local wrapper, db = ...; require('satchel').setup({cmd = {wrapper}, db = db})",
                         str(wrapper), str(editor.db))
    editor.nvim.command("Satchel board")
    editor.wait(lambda: editor.nvim.eval("bufname()") == "satchel://board" and log.exists() and log.stat().st_size)
    editor.quit()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and '"exit"' not in log.read_text():
        time.sleep(0.05)
    methods = [line.split('"method":"')[1].split('"')[0] for line in log.read_text().splitlines()]
    assert methods[-2:] == ["shutdown", "exit"]


def test_lists_longer_than_a_page_are_shown_whole(editor):
    with Satchel(db=editor.db) as s:
        s.batch([("board.create", {"title": f"post {n:03}"}) for n in range(501)])
    editor.nvim.command("Satchel board title")
    editor.wait(lambda: len(editor.lines()) == 501)
    assert editor.lines()[-1].endswith("post 500")


def test_a_save_is_not_held_back_by_a_load_waiting_on_the_feed(editor_factory, tmp_path):
    import subprocess
    import sys

    def stored_messages() -> int:
        with Satchel(db=editor.db) as s:
            return len(s.messages.list()["items"])

    script = pathlib.Path(__file__).resolve().parents[3] / "Tests/ServerTests/Support/feed_server.py"
    feed = subprocess.Popen([sys.executable, str(script), "10", "--delay", "4"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{feed.stdout.readline().strip()}/feed"
        editor = editor_factory(setup=False)
        editor.nvim.exec_lua("require('satchel').setup(...)",
                             {"cmd": [find_binary(), "--messages-feed", url], "db": str(editor.db)})
        editor.nvim.command("Satchel messages")
        editor.keys("L")  # the next batch: the feed takes 4 s
        time.sleep(0.3)
        editor.nvim.command("Satchel diary new")
        started = time.monotonic()
        editor.keys("iWhile the chat loads<Esc>:w<CR>")
        editor.wait(lambda: editor.nvim.eval("bufname()").startswith("satchel://diary/post_"), timeout=10)
        assert time.monotonic() - started < 2.5, "the write waited for the feed"
        with Satchel(db=editor.db) as s:
            assert s.diary.list()["items"][0]["excerpt"] == "While the chat loads"
            assert s.messages.list()["items"] == []  # the load still waits
        editor.wait(lambda: stored_messages() == 10, timeout=10)
    finally:
        feed.kill()
        feed.wait()
