"""The header says how sync stands (`--sync`): hidden without it; offline, with the changes that wait,
in the person's language, and what went wrong as its title (never a password)."""
from __future__ import annotations

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

UNREACHABLE = "postgresql://anna:hunter2@127.0.0.1:9/shared?connect_timeout=2"


def sync_state(page) -> tuple[bool, str, str]:
    return page.driver.execute_script(
        "const s = document.getElementById('sync-state'); return [s.hidden, s.textContent, s.title];")


def test_without_sync_the_header_says_nothing_of_it(bridge, page):
    page.open("notes")
    page.wait_until(lambda: page.driver.execute_script("return document.body.dataset.state") == "ready")
    assert sync_state(page)[0] is True


def test_offline_the_header_says_so_and_counts_what_waits_in_the_persons_language(bridge_factory, page_factory):
    bridge = bridge_factory("--sync", UNREACHABLE)
    page = page_factory(on=bridge)
    page.open("notes")
    page.wait_until(lambda: sync_state(page)[1] == "Offline", timeout=15, message="Offline shown")
    hidden, _, title = sync_state(page)
    assert not hidden
    assert "anna@127.0.0.1/shared" in title and "hunter2" not in title
    page.click("section[data-app='notes'] button[aria-label='New note']")
    page.wait_for("dialog .note-editor")
    page.driver.switch_to.active_element.send_keys("Made offline", Keys.ENTER)
    page.wait_gone("dialog")
    page.wait_until(lambda: sync_state(page)[1] == "Offline · 1 waiting", message="the note waits")
    Select(page.find("#language")).select_by_value("ru")
    page.wait_until(lambda: sync_state(page)[1] == "Нет связи · ждут: 1", message="in Russian")
    page.screenshot("sync-offline-ru")
    page.resize(390)
    assert not sync_state(page)[0]
    page.screenshot("sync-offline-ru-390")
    assert page.console_errors() == []


def test_a_note_made_on_another_device_appears_without_reloading(bridge_factory, page_factory, tmp_path):
    import pathlib
    import sys

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python" / "tests"))
    from postgres_cluster import Cluster

    from satchel_client import Satchel, find_binary

    cluster = Cluster()
    try:
        _, uris = cluster.database(find_binary(), ["anna"])
        bridge = bridge_factory("--sync", uris["anna"])
        page = page_factory(on=bridge)
        page.open("notes")
        page.wait_until(lambda: sync_state(page)[1] == "Synced", timeout=15, message="Synced shown")
        with Satchel(db=str(tmp_path / "phone.sqlite"), args=["--sync", uris["anna"]]) as phone:
            phone.notes.create(title="Written on the phone")
            phone.sync.now()
            page.wait_until(lambda: "Written on the phone" in page.texts("section[data-app='notes'] li.note"),
                            timeout=15, message="the phone's note in the list")
        # And back: a note made in the page reaches the phone's database.
        page.click("section[data-app='notes'] button[aria-label='New note']")
        page.wait_for("dialog .note-editor")
        page.driver.switch_to.active_element.send_keys("Written in the browser", Keys.ENTER)
        page.wait_gone("dialog")
        with Satchel(db=str(tmp_path / "phone.sqlite"), args=["--sync", uris["anna"]]) as phone:
            phone.sync.now()
            titles = sorted(note["title"] for note in phone.notes.list()["items"])
        assert titles == ["Written in the browser", "Written on the phone"]
        page.wait_until(lambda: sync_state(page)[1] == "Synced", message="nothing left to sync")
        page.screenshot("sync-from-another-device")
        assert page.console_errors() == []
    finally:
        cluster.stop()


def test_two_people_share_the_board_and_messages_live(bridge_factory, page_factory, tmp_path):
    """Anna in the page, Boris on his own device: his post and his message appear in her page without
    reloading, with his name; her vote reaches him; and her own private notes never reach him."""
    import pathlib
    import sys

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python" / "tests"))
    from postgres_cluster import Cluster

    from satchel_client import Satchel, find_binary

    cluster = Cluster()
    try:
        _, uris = cluster.database(find_binary(), ["anna", "boris"])
        boris_role = uris["boris"].rsplit("user=", 1)[1].split("&")[0]
        bridge = bridge_factory("--sync", uris["anna"])
        page = page_factory(on=bridge)
        page.open("board")
        page.wait_until(lambda: sync_state(page)[1] == "Synced", timeout=15, message="Synced shown")
        with Satchel(db=str(tmp_path / "boris.sqlite"), args=["--sync", uris["boris"]]) as boris:
            post = boris.board.create(title="Picnic on Sunday?")
            boris.messages.send(text="Bring the blue blanket")
            boris.sync.now()
            selector = f"section[data-app='board'] li.board-post[data-id='{post['id']}']"
            page.wait_for(selector, timeout=15)
            page.click(f"{selector} button.board-up")
            page.wait_until(lambda: page.find(f"{selector} .board-count").text.split()[0] == "1",
                            message="her vote counted")
            page.wait_until(lambda: sync_state(page)[1] == "Synced", timeout=15, message="her vote sent")
            boris.sync.now()
            assert boris.board.get(id=post["id"])["ups"] == 1
            page.screenshot("sync-shared-board")
            page.tab("messages")
            page.wait_until(lambda: "Bring the blue blanket" in page.texts("section[data-app='messages'] .chat-text"),
                            timeout=15, message="his message shown")
            assert boris_role in page.texts("section[data-app='messages'] .chat-author")
            page.screenshot("sync-shared-messages")
            # Her notes are hers: none reaches Boris.
            page.tab("notes")
            page.click("section[data-app='notes'] button[aria-label='New note']")
            page.wait_for("dialog .note-editor")
            page.driver.switch_to.active_element.send_keys("Anna's private list", Keys.ENTER)
            page.wait_gone("dialog")
            page.wait_until(lambda: sync_state(page)[1] == "Synced", timeout=15, message="her note sent")
            boris.sync.now()
            assert boris.notes.list()["items"] == []
        assert page.console_errors() == []
    finally:
        cluster.stop()
