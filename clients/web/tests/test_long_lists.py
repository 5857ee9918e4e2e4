"""Long lists in a real Chromium: ENotes (text and photos) and Reminders show their first page at once and the
next ones as the list scrolls, never the whole list; search opens an item far below what is loaded; a large
import shown while the screen is open reaches the page as one resync and costs it a few list reads, not one
per change."""
from __future__ import annotations

import base64
import json

import pytest
from selenium.webdriver.common.keys import Keys

from fill import fill
from satchel_client import Satchel

pytestmark = pytest.mark.timeout(240)

NOTES = "section[data-app='notes']"
NOTE = f"{NOTES} li.note"
REMINDERS = "section[data-app='reminders']"
REMINDER = f"{REMINDERS} li.rem-row"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=="
)

# Every request the page sends, as [method, params], kept in window.sent, and the changes it is told of in
# window.changes: how many notifications, how many changes they stand for, and how many resyncs (more changes
# at once than the server sends one by one) came instead (installed before the page loads).
RECORD_CALLS = """
window.sent = [];
window.changes = { notifications: 0, changes: 0, resyncs: 0 };
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (!this.recorded) {
    this.recorded = true;
    this.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      if (message.method === 'resync') window.changes.resyncs += 1;
      if (message.method !== 'changed') return;
      window.changes.notifications += 1;
      window.changes.changes += 1 + (message.params.skipped ?? 0);
    });
  }
  try { const message = JSON.parse(data); window.sent.push([message.method, message.params ?? null]); } catch {}
  return send.call(this, data);
};
"""


def record_calls(page) -> None:
    page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_CALLS})


def calls(page, method: str) -> list:
    return [params for name, params in page.driver.execute_script("return window.sent") if name == method]


def count(page, css: str) -> int:
    return page.driver.execute_script("return document.querySelectorAll(arguments[0]).length", css)


def scroll_to_end(page) -> None:
    page.driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")


def search_and_open(page, query: str, domain: str) -> None:
    page.find("#search-input").send_keys(query, Keys.ENTER)
    page.click(f"section[data-app='search'] .hit[data-domain='{domain}']")


def test_notes_show_a_page_load_more_on_scrolling_and_open_a_far_note_from_search(bridge, page_factory):
    fill(bridge.db, "notes.create", ({"title": f"Note {i:04d}", "content": f"number {i}"} for i in range(5000)))
    with Satchel(db=bridge.db) as s:
        far = s.notes.create(title="Lighthouse", content="the far end of the list")
    page = page_factory(width=1280)
    record_calls(page)
    page.open("notes")
    page.wait_until(lambda: count(page, NOTE) > 0)
    first = count(page, NOTE)
    assert first <= 300, f"{first} rows for a first page"
    assert page.texts(f"{NOTES} .note-title")[:2] == ["Note 0000", "Note 0001"]
    assert page.find(f"{NOTES} button.load-more").text == "Load more"
    assert all(params["limit"] <= 500 for params in calls(page, "notes.list"))
    page.screenshot("notes-long-1280")

    scroll_to_end(page)
    page.wait_until(lambda: count(page, NOTE) > first, message="scrolling to the end loads the next page")
    loaded = count(page, NOTE)
    assert loaded < 5000
    assert page.texts(f"{NOTES} .note-title")[loaded - 1] == f"Note {loaded - 1:04d}"
    page.wait_until(lambda: not page.find(f"{NOTES} button.load-more").get_attribute("aria-busy"))
    loaded = count(page, NOTE)
    page.driver.execute_script("arguments[0].click()", page.find(f"{NOTES} button.load-more"))  # the fallback
    page.wait_until(lambda: count(page, NOTE) > loaded, message="Load more loads the next page")

    # A change re-reads what is loaded, from the start: no more, no fewer.
    loaded = count(page, NOTE)
    before = len(calls(page, "notes.list"))
    with Satchel(db=bridge.db) as other:
        other.notes.update(id=other.notes.list(limit=1)["items"][0]["id"], title="Note 0000 renamed")
    page.wait_until(lambda: page.texts(f"{NOTES} .note-title")[0] == "Note 0000 renamed", timeout=5)
    assert count(page, NOTE) == loaded
    reread = calls(page, "notes.list")[before:]
    assert sum(params["limit"] for params in reread) % loaded == 0 and len(reread) <= 2 * (loaded // 500 + 1)

    page.resize(390, 844)
    page.screenshot("notes-long-390")
    page.resize(1280, 900)
    search_and_open(page, "lighthouse", "notes")
    title = page.wait_for("dialog .note-editor input[name='title']")
    assert title.get_attribute("value") == "Lighthouse"
    assert page.find("dialog .note-editor textarea").get_attribute("value") == "the far end of the list"
    assert count(page, f"{NOTE}[data-id='{far['id']}']") == 0  # opened without reading the list down to it
    page.find("dialog textarea[name='content']").send_keys(", found")
    page.click("dialog button[type='submit']")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        assert s.notes.get(id=far["id"])["content"] == "the far end of the list, found"
    assert page.console_errors() == []


def test_the_photo_grid_loads_more_and_the_viewer_goes_on_past_what_is_loaded(bridge, page):
    data = base64.b64encode(PNG).decode()
    fill(bridge.db, "photos.add", ({"image": {"data": data}, "caption": f"Photo {i:03d}"} for i in range(250)))
    page.open("notes")
    page.click(f"{NOTES} .segmented button:nth-child(2)")
    page.wait_until(lambda: count(page, f"{NOTES} li.photo") > 0)
    first = count(page, f"{NOTES} li.photo")
    assert first < 250
    last = page.find_all(f"{NOTES} li.photo button")[first - 1]
    page.driver.execute_script("arguments[0].click()", last)
    page.wait_for("dialog .viewer img[src*='size=display']")
    assert page.find("dialog input[name='caption']").get_attribute("value") == f"Photo {first - 1:03d}"
    page.click("dialog .viewer button[aria-label='Next']")
    page.wait_until(lambda: page.find("dialog input[name='caption']").get_attribute("value") == f"Photo {first:03d}",
                    message="next at the end of what is loaded loads more")
    assert count(page, f"{NOTES} li.photo") > first
    page.click("dialog .viewer .actions button:nth-child(4)")  # Close
    page.wait_gone("dialog")
    page.screenshot("notes-photos-long-1280")
    assert page.console_errors() == []


def test_reminders_load_more_on_scrolling_and_return_inserts_after_a_far_row(bridge, page):
    fill(bridge.db, "reminders.add", ({"title": f"Reminder {i:04d}"} for i in range(2000)), then="reminders.endEditing")
    with Satchel(db=bridge.db) as s:
        s.reminders.add(title="Call the lighthouse keeper")
        s.reminders.endEditing()
    titles = lambda: page.driver.execute_script(  # noqa: E731
        "return [...document.querySelectorAll(arguments[0])].map((input) => input.value)",
        f"{REMINDER} input.rem-title")
    page.open("reminders")
    page.wait_until(lambda: count(page, REMINDER) > 0)
    first = count(page, REMINDER)
    assert first <= 300
    assert page.find(f"{REMINDERS} button.load-more").is_displayed()
    page.screenshot("reminders-long-1280")
    scroll_to_end(page)
    page.wait_until(lambda: count(page, REMINDER) > first, message="scrolling to the end loads the next page")
    loaded = count(page, REMINDER)
    assert titles()[:loaded] == [f"Reminder {i:04d}" for i in range(loaded)]

    # Return in a row of the second page inserts the next one right after it, on the page and in the list.
    title = page.find(f"{REMINDER}:nth-child({first + 10}) input.rem-title")
    page.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", title)
    title.click()
    title.send_keys(Keys.END, Keys.RETURN)
    page.wait_until(lambda: titles()[first + 9:first + 11] == [f"Reminder {first + 9:04d}", ""])
    page.driver.switch_to.active_element.send_keys("Inserted", Keys.ESCAPE)
    around = [f"Reminder {first + 9:04d}", "Inserted", f"Reminder {first + 10:04d}"]
    with Satchel(db=bridge.db) as s:
        stored = lambda: [item["title"] for item in s.reminders.list(limit=500)["items"]]  # noqa: E731
        page.wait_until(lambda: stored()[first + 9:first + 12] == around)
    assert titles()[first + 9:first + 12] == around
    page.resize(390, 844)
    page.screenshot("reminders-long-390")
    page.resize(1280, 900)

    # A reminder far below what is loaded opens from search: the list is read down to it.
    search_and_open(page, "lighthouse", "reminders")
    page.wait_until(lambda: page.driver.switch_to.active_element.get_property("value") == "Call the lighthouse keeper")
    assert count(page, REMINDER) == 2002
    assert page.console_errors() == []


def test_a_large_import_while_the_notes_are_open_costs_a_few_list_reads(bridge_factory, page_factory, tmp_path):
    document = tmp_path / "five-thousand.json"
    source = tmp_path / "source.sqlite"
    fill(source, "notes.create", ({"title": f"Imported {i:04d}"} for i in range(5000)))
    with Satchel(db=source) as s:
        s.call("export", {"path": str(document)})
    assert len(json.loads(document.read_text())["notes"]) == 5000
    empty = bridge_factory("--memory", db=None)
    page = page_factory(on=empty)
    record_calls(page)
    page.open("notes")
    page.wait_for(f"{NOTES} .empty")
    page.click("#data-button")
    page.wait_for("dialog .data-panel")
    page.find(".data-panel input[type='file']").send_keys(str(document))
    page.click(".data-panel .data-import")
    page.wait_for(".data-progress[data-state='done']", timeout=60)
    page.click(".data-panel .data-close")
    first = ["Imported 0000", "Imported 0001", "Imported 0002"]
    page.wait_until(lambda: page.texts(f"{NOTES} .note-title")[:3] == first, timeout=30,
                    message="the imported notes are not shown")
    assert count(page, NOTE) <= 300
    # The import's 5000 changes reached the page as one resync (the server sends at most 500 one by one),
    # on which it read the list again: a few times, not once per change.
    page.wait_until(lambda: page.driver.execute_script("return window.changes.resyncs") == 1, timeout=30)
    assert page.driver.execute_script("return window.changes.changes") == 0
    page.wait_until(lambda: page.texts(f"{NOTES} .note-title")[:1] == ["Imported 0000"])
    reads = len(calls(page, "notes.list"))
    assert 1 <= reads <= 20, f"{reads} reads of notes.list"
    assert page.console_errors() == []
