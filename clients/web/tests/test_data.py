"""The Data panel in a real Chromium: everything exported to a downloaded file with a progress bar, a file
imported into another bridge and shown by the apps, a broken file refused in the page's language with
nothing changed, and replace only after a confirmation."""
from __future__ import annotations

import datetime
import json

import pytest
from selenium.webdriver.support.ui import Select

from satchel_client import Satchel
from bridge_pages import until

pytestmark = pytest.mark.timeout(180)

KINDS = ("board", "diary", "images", "messages", "notes", "photos", "reminders")

# Every state the progress bar shows, as [value, label, percentage], kept in window.seenProgress.
WATCH_PROGRESS = """
const progress = document.querySelector('.data-panel .data-progress');
const bar = progress.querySelector('progress');
const label = progress.querySelector('.data-progress-label');
const percent = progress.querySelector('.data-progress-percent');
window.seenProgress = [];
new MutationObserver(() => window.seenProgress.push([bar.getAttribute('value'), label.textContent, percent.textContent]))
  .observe(progress, { subtree: true, attributes: true, childList: true, characterData: true });
"""


def open_data(page) -> None:
    page.click("#data-button")
    page.wait_for("dialog .data-panel")


def choose(page, path) -> None:
    page.find(".data-panel input[type='file']").send_keys(str(path))
    page.wait_until(lambda: page.find(".data-file-name").text == path.name)


def notes_shown(page) -> list[str]:
    return page.texts("section[data-app='notes'] .note-title")


def test_export_downloads_the_document_after_a_progress_bar_that_reaches_100(bridge_factory, page_factory,
                                                                             tmp_path):
    demo = bridge_factory("--demo")
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    page = page_factory(on=demo, downloads=downloads).open("notes")
    open_data(page)
    assert page.find(".data-progress").is_displayed() is False
    page.driver.execute_script(WATCH_PROGRESS)
    page.click(".data-panel .data-export")
    page.wait_for(".data-progress[data-state='done']")

    name = f"satchel-{datetime.date.today().isoformat()}.json"
    download = downloads / name
    assert until(lambda: download.is_file() and not list(downloads.glob("*.crdownload")), timeout=20)
    with Satchel(db=demo.db) as s:
        document = s.export()
    assert json.loads(download.read_text()) == document
    total = sum(len(document[kind]) for kind in KINDS)

    seen = page.driver.execute_script("return window.seenProgress")
    labels = [label for _, label, _ in seen]
    assert labels[0] == "Exporting…"
    assert f"Exporting… {total} of {total}" in labels  # the server's last progress notification
    assert seen[-1] == ["100", "Export finished", "100%"]
    assert page.find(".data-progress-bar").get_attribute("value") == "100"
    assert page.find(".data-progress-bar").get_attribute("aria-labelledby") == "data-progress-label"
    result = page.find(".data-result").text
    assert f"Items exported: {total} (" in result and name in result
    counts = {li.get_attribute("data-kind"): li.text.split("\n") for li in page.find_all(".data-counts li")}
    assert counts["notes"] == ["Notes", str(len(document["notes"]))]
    assert counts["board"] == ["Board posts", str(len(document["board"]))]
    assert not page.find(".data-panel .error").is_displayed()
    assert page.console_errors() == []

    page.screenshot("data-export-1280")
    page.resize(390)
    page.screenshot("data-export-390")
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    page.screenshot("data-export-390-dark")


def test_a_file_imported_into_an_empty_bridge_appears_in_the_apps(bridge_factory, page_factory, tmp_path):
    demo = bridge_factory("--demo")
    exported = tmp_path / "satchel-exported.json"
    with Satchel(db=demo.db) as s:
        written = s.call("export", {"path": str(exported)})
        titles = [note["title"] for note in s.notes.list()["items"]]
    empty = bridge_factory("--memory", db=None)
    page = page_factory(on=empty).open("notes")
    page.wait_for("section[data-app='notes'] .empty")
    assert notes_shown(page) == []

    open_data(page)
    assert page.find(".data-panel .data-import").is_enabled() is False  # nothing chosen yet
    choose(page, exported)
    page.driver.execute_script(WATCH_PROGRESS)
    page.click(".data-panel .data-import")
    page.wait_for(".data-progress[data-state='done']")
    total = sum(written["counts"].values())
    assert page.find(".data-result p").text == f"Items imported: {total}."
    labels = [label for _, label, _ in page.driver.execute_script("return window.seenProgress")]
    assert any(label.startswith("Sending the file…") for label in labels)
    assert f"Importing… {total} of {total}" in labels
    assert page.find(".data-progress-percent").text == "100%"
    page.screenshot("data-import-1280")

    page.click(".data-panel .data-close")
    page.wait_gone("dialog .data-panel")
    page.wait_until(lambda: notes_shown(page) == titles, message="the imported notes are not shown")
    page.tab("board")
    page.wait_until(lambda: len(page.find_all("section[data-app='board'] li")) == written["counts"]["board"])
    assert page.console_errors() == []


def test_a_broken_file_is_refused_in_the_pages_language_and_changes_nothing(bridge, page, tmp_path):
    with Satchel(db=bridge.db) as s:
        s.notes.create(title="Kept")
        before = s.export()
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "satchel", "version": 1, "notes": [{"title": ')
    wrong = tmp_path / "wrong-title.json"
    wrong.write_text(json.dumps({**before, "notes": [{**before["notes"][0], "title": 5}]}))
    page.open("notes")
    Select(page.find("#language")).select_by_value("ru")
    page.wait_until(lambda: page.find("#data-button").text == "Данные")
    open_data(page)
    choose(page, broken)
    page.find(".data-panel input[value='replace']").click()
    page.click(".data-panel .data-import")
    page.click("dialog .confirm button[value='yes']")
    error = page.wait_for(".data-panel .error")
    assert "Документ не является корректным экспортом Satchel" in error.text
    assert error.text.endswith("Ничего не изменилось.")
    assert page.find(".data-progress").get_attribute("data-state") == "failed"
    assert page.find(".data-progress-label").text == "Остановлено"
    page.resize(390)
    page.screenshot("data-import-error-390-ru")

    choose(page, wrong)
    page.click(".data-panel .data-import")
    page.click("dialog .confirm button[value='yes']")
    page.wait_until(lambda: "document.notes[0].title" in page.find(".data-panel .error").text)
    with Satchel(db=bridge.db) as s:
        assert s.export() == before
    page.click(".data-panel .data-close")
    assert notes_shown(page) == ["Kept"]


def test_replace_asks_first_and_cancel_keeps_everything(bridge, page, tmp_path):
    replacement = tmp_path / "replacement.json"
    with Satchel(db=tmp_path / "other.sqlite") as other:
        other.notes.create(title="From the file")
        other.call("export", {"path": str(replacement)})
    with Satchel(db=bridge.db) as s:
        s.notes.create(title="Already here")
        before = s.export()
    page.open("notes")
    page.wait_until(lambda: notes_shown(page) == ["Already here"])
    open_data(page)
    choose(page, replacement)
    page.find(".data-panel input[value='replace']").click()
    page.click(".data-panel .data-import")
    question = page.wait_for("dialog .confirm p")
    assert "replacement.json" in question.text and "will be deleted" in question.text
    page.screenshot("data-replace-confirm-1280")
    page.click("dialog .confirm button[value='no']")
    page.wait_gone("dialog .confirm")
    assert page.find(".data-progress").is_displayed() is False
    with Satchel(db=bridge.db) as s:
        assert s.export() == before

    page.click(".data-panel .data-import")
    page.click("dialog .confirm button[value='yes']")
    page.wait_for(".data-progress[data-state='done']")
    assert page.find(".data-result p").text == "Items imported: 1."
    page.click(".data-panel .data-close")
    page.wait_until(lambda: notes_shown(page) == ["From the file"], message="replace did not replace")


def test_a_file_that_is_not_an_export_is_refused_in_plain_words(bridge, page, tmp_path):
    photo = tmp_path / "holiday.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    page.open("notes")
    open_data(page)
    choose(page, photo)
    page.click(".data-panel .data-import")
    error = page.wait_for(".data-panel .error")
    assert error.text.startswith("This file is not a Satchel export"), error.text
    assert "document" not in error.text.split("(")[0], "no field path in the words"
    with Satchel(db=bridge.db) as s:
        assert s.notes.list()["items"] == []
