"""More changes at once than the server sends one by one (a batch or an import of more than 500 in another
process), in a real Chromium: the page is sent one ``resync`` instead of them, and every screen reads again
what it shows, the open note editor included, without touching what the person is typing."""
from __future__ import annotations

import pytest

from satchel_client import Satchel

pytestmark = pytest.mark.timeout(120)

NOTES = "section[data-app='notes']"
EDITOR = "dialog .note-editor"

# What the page's socket brings, kept in window.received: the method of every notification (installed before
# the page loads).
RECORD_NOTIFICATIONS = """
window.received = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (!this.recorded) {
    this.recorded = true;
    this.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      if (message.method) window.received.push(message.method);
    });
  }
  return send.call(this, data);
};
"""


def received(page, method: str) -> int:
    return page.driver.execute_script("return window.received.filter((m) => m === arguments[0]).length", method)


def test_a_resync_reads_every_screen_again_and_keeps_what_is_typed(bridge, page):
    with Satchel(db=bridge.db) as s:
        shown = s.notes.create(title="Shown")
        plan = s.notes.create(title="Plan", content="v1")
        s.board.create(title="Apple")
    page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_NOTIFICATIONS})
    page.open("board")
    page.wait_until(lambda: "Apple" in page.find("section[data-app='board']").text)
    page.tab("notes")
    page.wait_until(lambda: page.texts(f"{NOTES} .note-title") == ["Shown", "Plan"])
    page.click(f"{NOTES} li[data-id='{plan['id']}'] .note-open")
    page.wait_for(EDITOR)
    content = page.find(f"{EDITOR} textarea[name='content']")
    content.clear()
    content.send_keys("mine, not saved yet")

    # Another process changes 603 things in one batch (one commit): more than a subscription is sent one by one.
    with Satchel(db=bridge.db) as other:
        answers = other.batch([
            *(("notes.create", {"title": f"Imported {i:03d}"}) for i in range(600)),
            ("notes.update", {"id": shown["id"], "title": "Shown, renamed elsewhere"}),
            ("notes.update", {"id": plan["id"], "content": "theirs"}),
            ("board.create", {"title": "Banana"}),
        ])
        assert not [answer for answer in answers if isinstance(answer, Exception)]

    page.wait_until(lambda: received(page, "resync") == 1, message="the page is told of one resync")
    # The open editor learns its note changed, and shows the other version beside what was typed.
    panel = page.wait_for(f"{EDITOR} .conflict")
    assert "changed somewhere else" in panel.text
    assert page.find(f"{EDITOR} .conflict-theirs .conflict-text").text == "theirs"
    assert page.find(f"{EDITOR} textarea[name='content']").get_attribute("value") == "mine, not saved yet"
    # The list behind it, and the board in its hidden tab, are read again.
    page.wait_until(lambda: page.driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent)", f"{NOTES} .note-title"
    )[:3] == ["Shown, renamed elsewhere", "Plan", "Imported 000"], message="the notes list is not read again")
    page.wait_until(lambda: "Banana" in page.driver.execute_script(
        "return document.querySelector(\"section[data-app='board']\").textContent"), message="the board is not read again")
    assert received(page, "changed") == 0, "the batch came as one resync, not as changes"
    page.screenshot("resync-notes-editor-1280")

    # The person's text is theirs to keep: Keep mine saves it over the other version.
    page.click(f"{EDITOR} .conflict-keep-mine")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        assert s.notes.get(id=plan["id"])["content"] == "mine, not saved yet"
    assert page.console_errors() == []
