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


def device_name(bridge) -> str:
    from satchel_client import Satchel

    with Satchel(db=bridge.db) as s:
        return s.call("sync.status")["deviceName"]


def test_the_header_shows_this_devices_name_and_changes_it(bridge, page):
    """Sync on or not, the header names this device (the copies Keep both and sync keep carry it); its button
    changes the name, and a name the server refuses is said in the person's words, in their language."""
    page.open("notes")
    button = page.wait_for("#device-button")
    assert button.text == device_name(bridge)
    assert button.get_attribute("aria-label") == f"This device: {device_name(bridge)}"
    button.click()
    field = page.wait_for("dialog .device-form input[name='deviceName']")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("Anna’s laptop", Keys.ENTER)
    page.wait_gone("dialog")
    assert device_name(bridge) == "Anna’s laptop"
    page.wait_until(lambda: page.find("#device-button").text == "Anna’s laptop", message="the new name shown")

    page.click("#device-button")
    field = page.wait_for("dialog .device-form input[name='deviceName']")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("   ", Keys.ENTER)
    error = page.wait_for("dialog .device-form .error")
    assert error.text == "Give this device a name: it cannot be blank."
    assert field.get_attribute("aria-invalid") == "true"
    page.screenshot("device-name-blank")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("x" * 65, Keys.ENTER)
    page.wait_until(lambda: page.find("dialog .device-form .error").text == "A device name is at most 64 characters.")
    page.click("dialog .device-cancel")
    page.wait_gone("dialog")
    assert device_name(bridge) == "Anna’s laptop", "nothing refused was saved"

    Select(page.find("#language")).select_by_value("ru")
    page.wait_until(lambda: page.find("#device-button").get_attribute("aria-label") == "Это устройство: Anna’s laptop")
    page.click("#device-button")
    field = page.wait_for("dialog .device-form input[name='deviceName']")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE, Keys.ENTER)
    page.wait_until(lambda: page.find("dialog .device-form .error").text
                    == "Дайте устройству название: оно не может быть пустым.")
    page.click("dialog .device-cancel")
    page.wait_gone("dialog")
    page.resize(390)
    assert not overflows(page)
    page.screenshot("device-name-ru-390")
    assert page.console_errors() == []


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
            # "Synced" may still be the word from before the vote: what counts is the vote reaching him.
            page.wait_until(lambda: boris.sync.now() is not None and boris.board.get(id=post["id"])["ups"] == 1,
                            timeout=15, message="her vote sent")
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


def postgres():
    """A throwaway PostgreSQL (clients/python/tests/postgres_cluster.py), and satchel's binary."""
    import pathlib
    import sys

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python" / "tests"))
    from postgres_cluster import Cluster

    from satchel_client import find_binary

    return Cluster(), find_binary()


def push_as(cluster, uri: str, rows: str) -> None:
    """Pushes `rows` (JSON) into the shared log as `uri`'s account, through psql: as another device of its
    would, with no satchel to check them first."""
    import subprocess
    import urllib.parse
    import uuid

    parts = urllib.parse.urlsplit(uri)
    role = urllib.parse.parse_qs(parts.query)["user"][0]
    statement = f"SELECT satchel.push('{uuid.uuid4()}'::uuid, '{rows}'::jsonb)"
    subprocess.run(["psql", "-h", cluster.folder, "-U", role, "-d", parts.path.lstrip("/"), "-v", "ON_ERROR_STOP=1",
                    "-At", "-c", statement], check=True, stdout=subprocess.DEVNULL)


def overflows(page) -> bool:
    """The sync word runs past the page's right edge (or makes the page scroll sideways)."""
    return page.driver.execute_script("""
        const box = document.getElementById('sync-state').getBoundingClientRect();
        return box.right > document.documentElement.clientWidth + 1
            || document.documentElement.scrollWidth > document.documentElement.clientWidth;""")


def test_syncing_as_the_databases_owner_the_header_says_so_in_words(bridge_factory, page_factory):
    """The owner could read every account: no device syncs as it. The header says so in words a person can
    act on, in their language, with satchel's own words (what to do) as its title."""
    cluster, binary = postgres()
    try:
        name, _ = cluster.database(binary, [])
        owner = cluster.uri("owner_" + name.removeprefix("satchel_"), name)
        bridge = bridge_factory("--sync", owner)
        page = page_factory(on=bridge)
        page.open("notes")
        page.wait_until(lambda: sync_state(page)[1] == "Sync: this account may not sync", timeout=15,
                        message="the unsafe role in words")
        hidden, _, title = sync_state(page)
        assert not hidden and page.find("#sync-state").get_attribute("data-sync") == "error"
        assert "the sync schema's owner" in title and "role of its own" in title, title
        assert not overflows(page)
        page.screenshot("sync-unsafe-role")
        Select(page.find("#language")).select_by_value("ru")
        page.wait_until(lambda: sync_state(page)[1] == "Синхронизация под этой учётной записью запрещена",
                        message="in Russian")
        page.resize(390)
        assert not overflows(page)
        page.screenshot("sync-unsafe-role-ru-390")
        Select(page.find("#language")).select_by_value("ja")
        page.wait_until(lambda: sync_state(page)[1] == "同期: このアカウントでは同期できません", message="in Japanese")
        assert not overflows(page)
        assert page.console_errors() == []
    finally:
        cluster.stop()


def test_a_row_that_breaks_a_rule_is_skipped_and_the_header_counts_it(bridge_factory, page_factory):
    """Another device of the account (here psql) pushes a "note" that is none: PostgreSQL takes it, this
    device skips it, and the header says so, the row and why in its title."""
    cluster, binary = postgres()
    try:
        _, uris = cluster.database(binary, ["anna"])
        bridge = bridge_factory("--sync", uris["anna"])
        page = page_factory(on=bridge)
        page.open("notes")
        page.wait_until(lambda: sync_state(page)[1] == "Synced", timeout=15, message="Synced shown")
        push_as(cluster, uris["anna"], '[{"device_seq":1,"domain":"notes","entity":"note_x","op":"put",'
                                       '"body":{"id":"note_x","what":"not a note"}}]')
        page.wait_until(lambda: sync_state(page)[1] == "Synced · 1 skipped", timeout=15, message="the row counted")
        title = sync_state(page)[2]
        assert title.splitlines()[0] == "1 skipped: they break a rule", title
        assert title.splitlines()[1].startswith("ENotes: "), title  # the app, not the row's wire names
        assert page.find("#sync-state").get_attribute("data-sync") == "synced"
        assert page.texts("section[data-app='notes'] li.note") == []
        page.screenshot("sync-skipped")
        Select(page.find("#language")).select_by_value("ru")
        page.wait_until(lambda: sync_state(page)[1] == "Синхронизировано · пропущено: 1", message="in Russian")
        page.resize(390)
        assert not overflows(page)
        page.screenshot("sync-skipped-ru-390")
        assert page.console_errors() == []
    finally:
        cluster.stop()


def test_every_state_and_reason_reads_in_every_language(bridge, page):
    """The word for each state `sync.status` can answer (a pull's progress, every reason it stops on, rows
    skipped), in each language, from the page's own module fed those answers."""
    page.open()
    said = page.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const base = {enabled: true, connected: true, pending: 0, reason: null, progress: null, lastError: null,
                      skipped: {count: 0, recent: []}};
        const statuses = [
          {state: 'synced'}, {state: 'syncing', pending: 3},
          {state: 'syncing', pending: 2, progress: {pulled: 1234, total: 50000}},
          {state: 'offline', connected: false}, {state: 'offline', connected: false, pending: 4},
          ...['authenticationFailed', 'databaseMissing', 'tlsRequired', 'unsafeRole', 'schemaMissing', 'schemaOlder',
              'schemaNewer', 'wrongRole', 'quotaExceeded'].map((reason) => ({state: 'error', reason, lastError: 'why'})),
          {state: 'synced', skipped: {count: 7, recent: Array.from({length: 7}, (_, i) =>
            ({row: i + 1, domain: 'notes', entity: `note_${i}`, reason: 'body.title is not readable', at: ''}))}},
          {state: 'off', enabled: false},
        ];
        Promise.all([import(new URL('app/js/sync-state.js', document.baseURI).href),
                     import(new URL('app/js/i18n.js', document.baseURI).href)]).then(async ([sync, i18n]) => {
          const said = {};
          for (const language of ['en', 'ru', 'ja']) {
            i18n.setLanguage(language);
            said[language] = [];
            for (const status of statuses) {
              const element = document.createElement('span');
              const word = sync.syncState(element, {call: async () => ({...base, ...status})});
              await word.refresh();
              said[language].push([element.hidden, element.textContent, element.title, element.dataset.sync ?? null]);
            }
          }
          i18n.setLanguage('en');
          done(said);
        }, (error) => done(String(error)));""")
    assert isinstance(said, dict), said
    en = [text for _, text, _, _ in said["en"]]
    assert en == [
        "Synced", "3 to sync", "Syncing 1,234 of 50,000", "Offline", "Offline · 4 waiting",
        "Sync: password refused", "Sync: database not found", "Sync: secure connection required",
        "Sync: this account may not sync", "Sync not set up", "Sync not set up", "Sync: update satchel",
        "Sync: signed in as another account", "Sync: storage quota reached", "Synced · 7 skipped", en[-1],
    ]
    assert said["en"][-1][0] is True, "hidden when sync is off"
    assert [state for *_, state in said["en"][:15]] == (
        ["synced", "syncing", "syncing", "offline", "offline"] + ["error"] * 9 + ["synced"])
    assert all(title == "why" for _, _, title, _ in said["en"][5:14])
    skipped_title = said["en"][14][2].splitlines()
    assert skipped_title[0] == "7 skipped: they break a rule"
    assert skipped_title[1:] == ["ENotes: body.title is not readable"] * 5, "five listed, by the app's name"
    assert said["ru"][2][1] == "Синхронизация: 1\u00a0234 из 50\u00a0000"
    assert said["ja"][2][1] == "同期中 1,234 / 50,000 件"
    for language in ("ru", "ja"):
        texts = [text for _, text, _, _ in said[language][:15]]
        assert len(set(texts[5:14])) == 8, f"{language}: a text for each reason (the old schemas share one)"
        assert not set(texts) & set(en), f"{language}: every word translated"


def test_the_word_is_said_once_while_sync_stands_still_and_never_reads_zero_to_sync(bridge, page):
    """The word is a live region: asked every 2 s and at every change, it changes (and is said again) only when
    how sync stands does. A pull under way whose size is not known yet reads "Syncing…", not "0 to sync"."""
    page.open()
    said = page.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const status = {enabled: true, connected: true, pending: 0, reason: null, progress: null, lastError: null,
                        state: 'synced', skipped: {count: 1, recent: [{row: 1, domain: 'diary', entity: 'post_x',
                        reason: 'body.text is not readable', at: ''}]}};
        Promise.all([import(new URL('app/js/sync-state.js', document.baseURI).href),
                     import(new URL('app/js/i18n.js', document.baseURI).href)]).then(async ([sync, i18n]) => {
          const element = document.createElement('span');
          document.body.append(element);
          let answer = status;
          const word = sync.syncState(element, {call: async () => answer});
          await word.refresh();
          const changes = [];
          new MutationObserver((records) => changes.push(...records.map((r) => r.type)))
            .observe(element, {childList: true, characterData: true, subtree: true});
          for (let n = 0; n < 5; n++) await word.refresh();
          await new Promise((resolve) => setTimeout(resolve, 0));
          const still = changes.length;
          const syncing = {};
          answer = {...status, state: 'syncing', skipped: {count: 0, recent: []}};
          for (const language of ['en', 'ru', 'ja']) {
            i18n.setLanguage(language);
            await word.refresh();
            syncing[language] = element.textContent;
          }
          i18n.setLanguage('en');
          await new Promise((resolve) => setTimeout(resolve, 0));
          answer = {...status, state: 'locked'};
          await word.refresh();
          const locked = element.textContent;
          await word.refresh();
          await new Promise((resolve) => setTimeout(resolve, 0));
          const before = changes.length;
          await word.refresh();
          await new Promise((resolve) => setTimeout(resolve, 0));
          document.querySelectorAll('dialog').forEach((dialog) => dialog.close());
          element.remove();
          done({still, syncing, changed: before > still, lockedAgain: changes.length - before, locked});
        }, (error) => done(String(error)));""")
    assert isinstance(said, dict), said
    assert said["still"] == 0, "said again while nothing changed"
    assert said["syncing"] == {"en": "Syncing…", "ru": "Синхронизация…", "ja": "同期中…"}
    assert said["changed"] and said["lockedAgain"] == 0, said
    assert said["locked"].startswith("Locked")
    assert page.console_errors() == []
