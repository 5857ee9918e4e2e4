"""Dates in one voice, in a real Chromium: a moment of time is written one way in every app (a Moments post, a
board post, a note's deadline, a message's detail) and a chat's time of day as that same moment's time, each as
the page's language writes it: English "Nov 27, 2026, 7:20 PM", Russian "27 нояб. 2026 г., 19:20", Japanese
"2026/11/27 19:20". Never the original's "27/11/2026 19:20" in every language."""
from __future__ import annotations

import datetime

from selenium.webdriver.support.ui import Select

from satchel_client import Satchel

RU_MONTHS = ["янв.", "февр.", "мар.", "апр.", "мая", "июн.", "июл.", "авг.", "сент.", "окт.", "нояб.", "дек."]


def written(iso: str, language: str) -> tuple[str, str]:
    """(the moment, its time of day) as the page writes `iso` in the machine's time zone (the browser's too)."""
    at = datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone()
    if language == "en":
        clock = f"{at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"
        return f"{at:%b} {at.day}, {at.year}, {clock}", clock
    clock = f"{at.hour:02d}:{at.minute:02d}" if language == "ru" else f"{at.hour}:{at.minute:02d}"
    if language == "ru":
        return f"{at.day} {RU_MONTHS[at.month - 1]} {at.year} г., {clock}", clock
    return f"{at.year}/{at.month}/{at.day} {clock}", clock


def test_every_app_writes_a_moment_one_way_in_the_pages_language(bridge, page):
    deadline = "2026-11-30T19:20:00Z"
    with Satchel(db=bridge.db) as s:
        post = s.diary.create(text="A walk by the river")
        board = s.board.create(title="Picnic on Sunday?")
        s.notes.create(title="Tickets", content="", deadline=deadline)
        message = s.messages.send(text="On my way")
    page.open("moments")
    text = lambda css: page.find(css).text.replace("\u202f", " ")
    for language, due in (("en", "Due"), ("ru", "До"), ("ja", "期限")):
        Select(page.find("#language")).select_by_value(language)
        page.wait_until(lambda: page.driver.execute_script("return document.documentElement.lang") == language)

        page.tab("moments")
        page.wait_until(lambda: text("section[data-app='moments'] .moment-date") == written(post["createdAt"], language)[0])
        page.click("section[data-app='moments'] .moment-card")
        page.wait_until(lambda: text("section[data-app='moments'] .moment-detail-date")
                        == written(post["createdAt"], language)[0])
        page.click("section[data-app='moments'] .moments-back")

        page.tab("board")
        page.wait_until(lambda: text("section[data-app='board'] .board-meta").endswith(
            f" · {written(board['createdAt'], language)[0]}"))

        page.tab("notes")
        page.wait_until(lambda: text("section[data-app='notes'] .note-deadline") == f"{due} {written(deadline, language)[0]}")

        page.tab("messages")
        row = f"section[data-app='messages'] .chat-row[data-id='{message['id']}']"
        page.wait_until(lambda: text(f"{row} .chat-time") == written(message["sentAt"], language)[1])
        page.click(f"{row} .chat-message")
        page.wait_until(lambda: text("dialog .message-detail-date") == written(message["sentAt"], language)[0])
        page.screenshot(f"dates-message-{language}")
        page.click("dialog .message-close")
        page.wait_gone("dialog")
    page.tab("board")
    page.screenshot("dates-board-ja")
    assert page.console_errors() == []
