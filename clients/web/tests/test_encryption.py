"""End-to-end encryption of the private apps, in the page, against a real PostgreSQL: a person turns it on from
the device dialog (a passphrase typed twice, told what losing it costs); another device of the account says
"Locked" and asks for the passphrase, says a wrong one in words, lets the person go on with Later, and once
unlocked shows the notes the first device made; the passphrase changes from the same dialog, after which a
new device unlocks with the new one only."""
from __future__ import annotations

import pathlib
import time

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from satchel_client import Satchel
from test_accessibility import scheme, violations
from test_sync import overflows, postgres, sync_state

PASSPHRASE = "blue kettle sings"
NEW_PASSPHRASE = "green kettle hums"
WARNING = "Keep this passphrase safe. Losing it loses the synced copy, not this device’s data."


def type_into(page, css: str, text: str) -> None:
    field = page.find(css)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE)
    field.send_keys(text)


def new_note(page, title: str) -> None:
    page.click("section[data-app='notes'] button[aria-label='New note']")
    page.wait_for("dialog .note-editor")
    page.driver.switch_to.active_element.send_keys(title, Keys.ENTER)
    page.wait_gone("dialog")
    # The dialog closes before the list draws the new row: wait for the row itself.
    page.wait_until(lambda: title in note_titles(page), message=f"{title!r} listed")


def note_titles(page) -> list[str]:
    return page.texts("section[data-app='notes'] li.note")


def wait_synced(page, timeout: float = 20) -> None:
    page.wait_until(lambda: sync_state(page)[1] == "Synced", timeout=timeout, message="Synced shown")


def open_encryption(page) -> str:
    """Opens the device dialog and answers what it says of encryption."""
    page.click("#device-button")
    return page.wait_for("dialog .encryption .encryption-state").text


def turn_on(page, passphrase: str) -> None:
    """Turns encryption on from the device dialog: refused when too short or not the same twice, then on."""
    assert open_encryption(page) == "Not encrypted"
    page.click("dialog .encryption-turnOn")
    page.wait_for("dialog .turn-on-form")
    assert page.find("dialog .turn-on-form .warning").text == WARNING
    type_into(page, "dialog input[name='newPassphrase']", "short")
    type_into(page, "dialog input[name='newPassphraseAgain']", "short")
    page.click("dialog .turn-on-submit")
    page.wait_until(lambda: page.find("dialog .turn-on-form .error").text
                    == "A passphrase has at least 8 characters.", message="too short refused")
    assert page.find("dialog input[name='newPassphrase']").get_attribute("aria-invalid") == "true"
    type_into(page, "dialog input[name='newPassphrase']", passphrase)
    type_into(page, "dialog input[name='newPassphraseAgain']", passphrase + "x")
    page.click("dialog .turn-on-submit")
    page.wait_until(lambda: page.find("dialog .turn-on-form .error").text
                    == "The two passphrases differ: type the same one twice.", message="a mismatch refused")
    type_into(page, "dialog input[name='newPassphraseAgain']", passphrase + Keys.ENTER)
    page.wait_gone("dialog .turn-on-form", timeout=20)
    # The device dialog again, saying so.
    page.wait_until(lambda: page.find("dialog .encryption .encryption-state").text == "End-to-end encrypted",
                    message="encryption on")
    page.click("dialog .device-cancel")
    page.wait_gone("dialog")


def test_a_second_device_is_locked_until_the_passphrase_unlocks_it(bridge_factory, page_factory):
    cluster, binary = postgres()
    try:
        _, uris = cluster.database(binary, ["anna"])
        bridges = [bridge_factory("--sync", uris["anna"]), bridge_factory("--sync", uris["anna"])]
        laptop = page_factory(on=bridges[0])
        laptop.open("notes")
        wait_synced(laptop)
        turn_on(laptop, PASSPHRASE)
        assert laptop.find("#sync-state").get_attribute("data-encryption") == "on"
        new_note(laptop, "Sealed plan")
        wait_synced(laptop)

        phone = page_factory(on=bridges[1])
        phone.open()  # the prompt comes as the page starts
        phone.wait_for("dialog .unlock-form", timeout=20)
        assert sync_state(phone)[1] == "Locked"
        assert phone.find("#sync-state").get_attribute("data-sync") == "locked"
        assert phone.driver.switch_to.active_element == phone.find("dialog input[name='passphrase']")
        assert phone.find("dialog input[name='passphrase']").get_attribute("type") == "password"
        assert [b.text for b in phone.find_all("dialog .actions button")] == ["Later", "Unlock"]
        phone.resize(390)
        assert violations(phone) == [], "the prompt, light"
        phone.screenshot("unlock-prompt-light-390")
        scheme(phone, "dark")
        assert violations(phone) == [], "the prompt, dark"
        phone.screenshot("unlock-prompt-dark-390")

        # A wrong passphrase: said in words, the field marked, nothing unlocked.
        type_into(phone, "dialog input[name='passphrase']", "blue kettle sang" + Keys.ENTER)
        phone.wait_until(lambda: phone.find("dialog .unlock-form .error").text
                         == "That passphrase does not unlock your synced notes. Check it and try again.",
                         message="the wrong passphrase in words")
        assert phone.find("dialog input[name='passphrase']").get_attribute("aria-invalid") == "true"
        assert "wrongPassphrase" not in phone.find("body").text
        assert violations(phone) == [], "the refusal, dark"
        phone.screenshot("unlock-wrong-dark-390")
        scheme(phone, "light")
        phone.screenshot("unlock-wrong-light-390")
        phone.resize(1280)

        # Later: the page goes on, its notes stay here; the word asks again.
        phone.click("dialog .unlock-dismiss")
        phone.wait_gone("dialog")
        phone.tab("notes")
        new_note(phone, "Written while locked")
        assert note_titles(phone) == ["Written while locked"]
        phone.wait_until(lambda: sync_state(phone)[1] in ("Locked", "Sync: passphrase not accepted"),
                         message="still locked")
        time.sleep(2.5)  # a refresh or two: Later is not asked again by itself
        assert phone.find_all("dialog") == []
        phone.click("#sync-state .sync-unlock")
        phone.wait_for("dialog .unlock-form")
        assert phone.find("dialog .unlock-form .error").get_attribute("hidden") is not None, "a fresh prompt"
        type_into(phone, "dialog input[name='passphrase']", PASSPHRASE + Keys.ENTER)
        phone.wait_gone("dialog", timeout=20)
        wait_synced(phone)
        assert phone.find("#sync-state").get_attribute("data-encryption") == "on"
        assert phone.find_all("#sync-state button") == [], "the word is a word again"
        phone.wait_until(lambda: "Sealed plan" in note_titles(phone), timeout=20, message="the laptop's note")
        assert open_encryption(phone) == "End-to-end encrypted"
        phone.click("dialog .device-cancel")
        # And the note written while locked reaches the laptop once unlocked.
        laptop.wait_until(lambda: "Written while locked" in note_titles(laptop), timeout=20,
                          message="the phone's note on the laptop")
        assert laptop.console_errors() == [] and phone.console_errors() == []
        for bridge in bridges:  # the passphrase passes through the bridge, and is never written down
            bridge.stop()
            assert PASSPHRASE not in "".join(bridge.stderr)
    finally:
        cluster.stop()


def test_the_passphrase_changes_and_only_the_new_one_unlocks_a_new_device(bridge_factory, page_factory, tmp_path):
    cluster, binary = postgres()
    try:
        _, uris = cluster.database(binary, ["anna"])
        page = page_factory(on=bridge_factory("--sync", uris["anna"]))
        page.open("notes")
        wait_synced(page)
        page.resize(390)
        assert open_encryption(page) == "Not encrypted"
        page.click("dialog .encryption-turnOn")
        page.wait_for("dialog .turn-on-form")
        for colours in ("light", "dark"):
            scheme(page, colours)
            assert violations(page) == [], f"turning on, {colours}"
            page.screenshot(f"encryption-turn-on-{colours}-390")
        scheme(page, "light")
        page.click("dialog .turn-on-dismiss")
        page.wait_gone("dialog .turn-on-form")
        assert page.wait_for("dialog .encryption .encryption-state").text == "Not encrypted", "back, nothing changed"
        page.click("dialog .device-cancel")
        page.wait_gone("dialog")
        page.resize(1280)
        turn_on(page, PASSPHRASE)
        new_note(page, "Before the change")
        wait_synced(page)

        assert open_encryption(page) == "End-to-end encrypted"
        page.click("dialog .encryption-change")
        page.wait_for("dialog .change-form")
        type_into(page, "dialog input[name='passphrase']", "not the passphrase")
        type_into(page, "dialog input[name='newPassphrase']", NEW_PASSPHRASE)
        type_into(page, "dialog input[name='newPassphraseAgain']", NEW_PASSPHRASE + Keys.ENTER)
        page.wait_until(lambda: page.find("dialog .change-form .error").text == "That is not the current passphrase.",
                        timeout=15, message="a wrong current passphrase in words")
        assert page.find("dialog input[name='passphrase']").get_attribute("aria-invalid") == "true"
        for colours in ("light", "dark"):
            scheme(page, colours)
            assert violations(page) == [], f"changing, {colours}"
        scheme(page, "light")
        type_into(page, "dialog input[name='passphrase']", PASSPHRASE)
        type_into(page, "dialog input[name='newPassphraseAgain']", NEW_PASSPHRASE + "!" + Keys.ENTER)
        page.wait_until(lambda: page.find("dialog .change-form .error").text
                        == "The two passphrases differ: type the same one twice.", message="a mismatch refused")
        type_into(page, "dialog input[name='newPassphraseAgain']", NEW_PASSPHRASE + Keys.ENTER)
        page.wait_gone("dialog .change-form", timeout=20)
        page.wait_until(lambda: page.find("dialog .device-form .notice").text == "The passphrase was changed.",
                        message="the change said")
        assert page.find("dialog .encryption .encryption-state").text == "End-to-end encrypted"
        page.screenshot("encryption-device-dialog")
        page.click("dialog .device-cancel")
        page.wait_gone("dialog")

        # A new device: the old passphrase no longer unlocks it, the new one does and brings the note.
        with Satchel(db=str(tmp_path / "new.sqlite"), args=["--sync", uris["anna"]]) as fresh:
            deadline = time.monotonic() + 20
            while fresh.call("sync.status")["encryption"] == "unknown" and time.monotonic() < deadline:
                time.sleep(0.2)
            assert fresh.call("sync.status")["encryption"] == "locked"
            try:
                fresh.call("sync.unlock", {"passphrase": PASSPHRASE})
            except Exception as refusal:  # noqa: BLE001 - the client's error for -32002
                assert getattr(refusal, "data", {}).get("reason") == "wrongPassphrase", refusal
            else:
                raise AssertionError("the old passphrase still unlocks")
            assert fresh.call("sync.unlock", {"passphrase": NEW_PASSPHRASE}) == {"encryption": "on"}
            fresh.sync.now()
            assert [note["title"] for note in fresh.notes.list()["items"]] == ["Before the change"]
        assert page.console_errors() == []
    finally:
        cluster.stop()


def test_locked_and_a_refused_passphrase_read_in_every_language(bridge, page):
    """The word for `locked` and for `error` `wrongPassphrase`, in each language, from the page's own module fed
    those answers: a button that asks for the passphrase, named with the word it shows."""
    page.open()
    said = page.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const base = {enabled: true, connected: true, pending: 0, reason: null, progress: null, lastError: null,
                      skipped: {count: 0, recent: []}, encryption: 'locked'};
        const statuses = [{state: 'locked'}, {state: 'error', reason: 'wrongPassphrase', lastError: 'why'}];
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
              for (const dialog of document.querySelectorAll('dialog')) dialog.close();
              const button = element.querySelector('button.sync-unlock');
              said[language].push([element.textContent, element.dataset.sync, button?.getAttribute('aria-label')]);
            }
          }
          i18n.setLanguage('en');
          done(said);
        }, (error) => done(String(error)));""")
    assert isinstance(said, dict), said
    assert said["en"][0][:2] == ["Locked", "locked"]
    assert said["en"][1][:2] == ["Sync: passphrase not accepted", "error"]
    assert said["en"][0][2] == "Locked: type your passphrase to sync your notes here"
    for language in ("ru", "ja"):
        texts = [text for text, *_ in said[language]]
        assert not set(texts) & {"Locked", "Sync: passphrase not accepted"}, f"{language}: translated"
        assert all(label and label.startswith(text) for text, _, label in said[language]), said[language]
    Select(page.find("#language")).select_by_value("ja")
    assert page.console_errors() == []
    assert overflows(page) is False
