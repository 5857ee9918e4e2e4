"""Messages in a real Chromium, as the original chat's flows go: the conversation from the bottom up, earlier
batches loaded at the top (by scrolling and by the button) with a loading indicator until the end of history
says so, sending from the field at the bottom, round avatars with a placeholder, and the detail sheet that
deletes or just closes. Errors (an unreachable feed, a refused message) are shown where they happened."""
from __future__ import annotations

import datetime
import http.server
import json
import re
import threading
import time
import urllib.parse

import pytest
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from satchel_client import Satchel

from test_moments import as_phone, png

APP = "section[data-app='messages']"
AUTHORS = [("Anna Petrova", "ok.png"), ("Boris", None), ("Sam Lee", "broken.png")]
COUNT = 45


class Feed:
    """A chat server's history on 127.0.0.1: 45 messages, newest first, pages of `?offset=N&limit=M`, and
    the avatars. While `hold` is set, answers wait until `release` (so the page's loading state can be seen)."""

    def __init__(self) -> None:
        self.hold = threading.Event()
        self.release = threading.Event()
        self.asked: list[tuple[int, int]] = []
        feed = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                url = urllib.parse.urlsplit(self.path)
                if url.path == "/feed":
                    query = urllib.parse.parse_qs(url.query)
                    offset, limit = int(query["offset"][0]), int(query["limit"][0])
                    feed.asked.append((offset, limit))
                    if feed.hold.is_set():
                        feed.release.wait(20)
                    self.answer("application/json", json.dumps({"messages": feed.messages[offset:offset + limit]}).encode())
                elif url.path == "/avatars/ok.png":
                    self.answer("image/png", png(48, 48, (200, 90, 60)))
                elif url.path == "/avatars/broken.png":
                    self.answer("image/png", b"these bytes are not a picture")
                else:
                    self.send_error(404)

            def answer(self, kind: str, body: bytes) -> None:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.messages = []
        for n in range(COUNT, 0, -1):
            name, picture = AUTHORS[n % 3]
            self.messages.append({
                "id": f"m{n}", "text": f"Message {n}", "sentAt": f"2026-01-01T{8 + n // 60:02d}:{n % 60:02d}:00Z",
                "author": {"name": name, "avatarUrl": f"{self.url}/avatars/{picture}" if picture else None},
            })
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()


@pytest.fixture
def feed():
    server = Feed()
    yield server
    server.stop()


@pytest.fixture
def bridge(bridge_factory, feed):
    """The bridge, its satchels reading the test's feed."""
    return bridge_factory("--messages-feed", f"{feed.url}/feed", "--user-name", "Kim Ode")


def stored(bridge):
    """The stored messages as another process sees them, newest first."""
    with Satchel(db=bridge.db) as s:
        return s.messages.list(limit=500)["items"]


def texts(page):
    return page.texts(f"{APP} .chat-list .chat-text")


def log_state(page):
    return page.driver.execute_script(
        "const log = document.querySelector(arguments[0]);"
        "return {top: log.scrollTop, height: log.scrollHeight, client: log.clientHeight,"
        "        busy: log.getAttribute('aria-busy')};", f"{APP} .chat-log")


def avatar_of(page, text):
    """(kind, initials or None, whether a picture has loaded) of the avatar next to `text`."""
    return page.driver.execute_script(
        "const row = [...document.querySelectorAll('.chat-row')].find(r => r.querySelector('.chat-text').textContent === arguments[0]);"
        "const avatar = row.querySelector('.avatar'); const img = avatar.querySelector('img');"
        "return [avatar.dataset.avatar, avatar.querySelector('.avatar-initials')?.textContent ?? null,"
        "        !!img && img.complete && img.naturalWidth > 0, getComputedStyle(avatar).borderRadius];", text)


def test_the_chat_loads_from_the_bottom_up_sends_opens_and_deletes(page, feed):
    # The first batch arrives with a loading indicator meanwhile, and shows bottom-up (newest at the bottom).
    feed.hold.set()
    page.open("messages")
    page.wait_for(f"{APP} .chat-loading")
    assert log_state(page)["busy"] == "true"
    assert page.find(f"{APP} button.chat-load").get_attribute("disabled") is not None
    feed.hold.clear()
    feed.release.set()
    page.wait_gone(f"{APP} .chat-loading")
    page.wait_until(lambda: len(texts(page)) == 20)
    assert texts(page) == [f"Message {n}" for n in range(26, 46)]
    state = log_state(page)
    assert state["busy"] == "false"
    assert state["height"] > state["client"] and state["top"] + state["client"] >= state["height"] - 2
    assert [m["text"] for m in stored(page.bridge)] == [f"Message {n}" for n in range(45, 25, -1)]
    page.screenshot("messages-chat-1280")

    # Round avatars: a picture, or initials in a circle when there is none or it fails to load.
    page.wait_until(lambda: avatar_of(page, "Message 44")[0] == "placeholder")  # Sam Lee's picture is broken
    assert avatar_of(page, "Message 44")[:2] == ["placeholder", "SL"]
    assert avatar_of(page, "Message 43")[:2] == ["placeholder", "B"]  # Boris has none
    page.wait_until(lambda: avatar_of(page, "Message 45")[2])  # Anna's loads
    assert avatar_of(page, "Message 45")[0] == "image"
    assert avatar_of(page, "Message 45")[3] == "50%"

    # Reaching the top loads the next batch, and the messages read before stay where they were.
    feed.release.clear()
    feed.hold.set()
    page.driver.execute_script("document.querySelector(arguments[0]).scrollTop = 0", f"{APP} .chat-log")
    page.wait_for(f"{APP} .chat-loading")
    assert log_state(page)["busy"] == "true"
    feed.hold.clear()
    feed.release.set()
    page.wait_until(lambda: len(texts(page)) == 40)
    page.wait_gone(f"{APP} .chat-loading")
    assert texts(page) == [f"Message {n}" for n in range(6, 46)]
    assert log_state(page)["top"] > 0
    assert feed.asked[-1] == (20, 20)

    # The button does the same; once the feed has nothing more, an alert says so.
    page.click(f"{APP} button.chat-load")
    page.wait_until(lambda: len(texts(page)) == 45)
    assert texts(page)[0] == "Message 1"
    assert page.find_all(f"{APP} .chat-end:not([hidden])") == []
    page.click(f"{APP} button.chat-load")
    alert = page.wait_for(f"{APP} .chat-end")
    assert alert.get_attribute("role") == "alert" and alert.text == "No more messages"
    assert len(texts(page)) == 45 and len(stored(page.bridge)) == 45
    page.screenshot("messages-end-of-history-1280")

    # The field at the bottom sends with Return and empties; the message is stored as the newest.
    field = page.find(f"{APP} input[aria-label='Message']")
    field.click()
    field.send_keys("Hello from the web", Keys.ENTER)
    page.wait_until(lambda: texts(page)[-1] == "Hello from the web")
    assert field.get_attribute("value") == ""
    newest = stored(page.bridge)[0]
    assert newest["text"] == "Hello from the web" and newest["origin"] == "local" and newest["author"]["name"] == "Kim Ode"
    assert avatar_of(page, "Hello from the web")[:2] == ["placeholder", "KO"]
    state = log_state(page)
    assert state["top"] + state["client"] >= state["height"] - 2
    page.find(f"{APP} button.chat-send").click()  # nothing typed: the server's refusal, under the field
    assert page.wait_for(f"{APP} .chat-composer [role='alert']").text == "A message cannot be empty"
    assert len(stored(page.bridge)) == 46

    # The detail: date, avatar and text; Close keeps the message, "Delete message" removes it.
    page.click(f"{APP} .chat-message[data-id='{stored(page.bridge)[6]['id']}']")
    sheet = page.wait_for("dialog.message-sheet")
    assert sheet.find_element("css selector", ".message-detail-text").text == "Message 40"
    assert sheet.find_element("css selector", ".message-detail-author").text == "Boris"
    assert "2026" in sheet.find_element("css selector", ".message-detail-date").text
    assert sheet.find_element("css selector", ".avatar-large").is_displayed()
    page.wait_until(lambda: page.driver.execute_script(
        "return document.getAnimations().every(a => a.playState !== 'running' || a.effect.getTiming().iterations === Infinity)"))
    page.screenshot("messages-detail-1280")
    page.click("dialog.message-sheet button.message-close")
    page.wait_gone("dialog.message-sheet")
    assert "Message 40" in texts(page) and len(stored(page.bridge)) == 46

    target = page.find(f"{APP} .chat-message[data-id='{stored(page.bridge)[6]['id']}']")
    target.send_keys(Keys.ENTER)  # the keyboard opens it too
    page.wait_for("dialog.message-sheet")
    page.click("dialog.message-sheet button.message-delete")
    page.wait_gone("dialog.message-sheet")
    page.wait_until(lambda: "Message 40" not in texts(page))
    assert len(texts(page)) == 45
    assert "Message 40" not in [m["text"] for m in stored(page.bridge)]

    # A phone's width: the chat still fits, the field stays at the bottom.
    as_phone(page)
    assert page.driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    composer = page.find(f"{APP} .chat-composer")
    assert composer.location["y"] + composer.size["height"] <= page.driver.execute_script("return window.innerHeight")
    page.screenshot("messages-chat-390")
    page.find(f"{APP} .chat-message").send_keys(Keys.ENTER)
    page.wait_for("dialog.message-sheet")
    page.wait_until(lambda: page.driver.execute_script(
        "return document.getAnimations().every(a => a.playState !== 'running' || a.effect.getTiming().iterations === Infinity)"))
    page.screenshot("messages-detail-390")
    page.find("dialog.message-sheet").send_keys(Keys.ESCAPE)
    page.wait_gone("dialog.message-sheet")

    assert page.console_errors() == []


def test_errors_show_where_they_happened_and_keep_what_was_typed(bridge_factory, page_factory):
    down = bridge_factory("--messages-feed", "http://127.0.0.1:9/x", "--feed-timeout", "1")
    page = page_factory(on=down).open("messages")

    # The feed is unreachable: the chat says so at the top, where the history is loaded.
    top = page.wait_for(f"{APP} .chat-top .error")
    assert top.text == "The message server cannot be reached; nothing was loaded"
    assert page.find_all(f"{APP} .chat-composer [role='alert']:not([hidden])") == []
    page.click(f"{APP} button.chat-load")
    page.wait_until(lambda: page.find(f"{APP} .chat-log").get_attribute("aria-busy") == "false"
                    and page.find(f"{APP} .chat-top .error").is_displayed())
    assert page.find_all(f"{APP} .chat-end:not([hidden])") == []

    # A message over the limit is refused under the field, and the text stays there.
    long_text = "x" * 10_001
    field = page.find(f"{APP} input[aria-label='Message']")
    page.driver.execute_script("arguments[0].value = arguments[1]", field, long_text)
    field.send_keys(Keys.END, Keys.ENTER)
    refusal = page.wait_for(f"{APP} .chat-composer [role='alert']")
    assert refusal.text == "The message is too long: at most 10000 characters"
    assert field.get_attribute("value") == long_text

    # In Russian, the server's words; sending still works while the feed is down.
    Select(page.find("#language")).select_by_value("ru")
    page.wait_for(f"{APP} input[aria-label='Сообщение']")
    field.send_keys(Keys.ENTER)
    page.wait_until(lambda: page.find(f"{APP} .chat-composer [role='alert']").text
                    == "Слишком длинное сообщение: не более 10000 символов")
    assert field.get_attribute("value") == long_text
    page.click(f"{APP} button.chat-load")
    page.wait_until(lambda: top.text == "Сервер сообщений недоступен; ничего не загружено")
    page.driver.execute_script("arguments[0].value = ''", field)
    field.send_keys("Всё равно отправлю", Keys.ENTER)
    page.wait_until(lambda: texts(page) == ["Всё равно отправлю"])
    assert field.get_attribute("value") == ""
    assert page.find_all(f"{APP} .chat-composer [role='alert']:not([hidden])") == []
    with Satchel(db=down.db) as s:
        assert [m["text"] for m in s.messages.list()["items"]] == ["Всё равно отправлю"]
        s.messages.send(text="Из другого окна")  # another process: the chat shows it, the error stays
    page.wait_until(lambda: texts(page) == ["Всё равно отправлю", "Из другого окна"])
    assert top.text == "Сервер сообщений недоступен; ничего не загружено"
    page.screenshot("messages-feed-down-ru-1280")

    assert page.console_errors() == []


def test_english_times_have_no_leading_zero_and_other_languages_their_own_form(bridge, page):
    page.open("messages")
    page.wait_until(lambda: len(page.find_all(f"{APP} .chat-time")) > 0, message="a batch from the feed")
    # Each time is written just after its row is placed: wait for the batch's, then look at every one.
    page.wait_until(lambda: all(page.texts(f"{APP} .chat-time")), message="the batch's times")
    times = page.texts(f"{APP} .chat-time")
    assert all(re.fullmatch(r"[1-9]\d?:\d\d\s[AP]M", text) for text in times), times
    Select(page.find("#language")).select_by_value("ru")
    page.wait_until(lambda: all(re.fullmatch(r"\d{1,2}:\d\d", text) for text in page.texts(f"{APP} .chat-time")))


def test_a_load_waiting_on_the_feed_holds_back_no_save_and_leaving_messages_cancels_it(page, feed):
    # The chat's first batch waits on a feed that does not answer yet.
    feed.hold.set()
    page.open("messages")
    page.wait_until(lambda: len(feed.asked) == 1, message="the feed is asked")
    # Meanwhile a note saved in ENotes is answered and shown at once.
    page.tab("notes")
    page.click("section[data-app='notes'] button[aria-label='New note']")
    page.wait_for("dialog .note-editor")
    started = time.monotonic()
    page.driver.switch_to.active_element.send_keys("Saved while the chat loads", Keys.ENTER)
    page.wait_gone("dialog", timeout=5)
    page.wait_until(lambda: "Saved while the chat loads" in page.texts("section[data-app='notes'] li.note"), timeout=5)
    assert time.monotonic() - started < 3, "the save waited for the feed"
    # Leaving Messages cancelled the load: when the feed answers, nothing of it is stored.
    feed.hold.clear()
    feed.release.set()
    time.sleep(1.0)
    assert stored(page.bridge) == []
    # Back in Messages the chat loads again, and shows.
    page.tab("messages")
    page.wait_until(lambda: len(texts(page)) == 20)
    assert len(stored(page.bridge)) == 20
    assert page.console_errors() == []


def test_days_have_headings_far_back_comes_in_few_trips_and_the_end_is_no_button(page, feed):
    """Messages over many days: each day's first under its heading ("Today", "Yesterday", a date), in each
    language; 1,000 messages reached by scrolling to the top in a few trips (the batch grows as the person
    goes back), and at the end a note that says so where the button was, not a second button."""
    now = datetime.datetime.now().astimezone()
    at = lambda days, hour, minute: (now - datetime.timedelta(days=days)).replace(hour=hour, minute=minute, second=0,
                                                                                   microsecond=0)
    recent = [("Good morning", at(0, 9, 5)), ("See you tomorrow", at(1, 18, 0)), ("Long ago", at(25, 1, 57))]
    older = [(f"Old {n}", at(40, 12, 0) - datetime.timedelta(hours=n)) for n in range(997)]
    feed.messages = [{"id": f"d{index}", "text": text, "sentAt": when.astimezone(datetime.timezone.utc).isoformat(),
                      "author": {"name": "Anna Petrova"}} for index, (text, when) in enumerate(recent + older)]
    page.open("messages")
    page.wait_until(lambda: len(texts(page)) == 20)

    def under_headings():
        """[heading, [texts]] in the chat's order."""
        return page.driver.execute_script("""
            const days = [];
            for (const li of document.querySelector(arguments[0]).children) {
              if (li.classList.contains('chat-day')) days.push([li.textContent, []]);
              else days.at(-1)[1].push(li.querySelector('.chat-text').textContent);
            }
            return days;""", f"{APP} .chat-list")

    long_ago = at(25, 1, 57)
    expected = (f"{long_ago:%A}, {long_ago:%B} {long_ago.day}" if long_ago.year == now.year
                else f"{long_ago:%B} {long_ago.day}, {long_ago.year}")
    days = under_headings()
    assert days[-3:] == [[expected, ["Long ago"]], ["Yesterday", ["See you tomorrow"]], ["Today", ["Good morning"]]]
    shown = [datetime.datetime.fromisoformat(m["sentAt"]).astimezone().date() for m in feed.messages[:20]]
    assert len(days) == len(set(shown)), "one heading a day"
    assert page.texts(f"{APP} .chat-time")[-3].replace("\u202f", " ") == "1:57 AM"
    page.screenshot("messages-days-1280")
    for language, today, yesterday in (("ru", "Сегодня", "Вчера"), ("ja", "今日", "昨日")):
        Select(page.find("#language")).select_by_value(language)
        page.wait_until(lambda: [day for day, _ in under_headings()[-2:]] == [yesterday, today], message=language)
    page.screenshot("messages-days-ja-1280")
    Select(page.find("#language")).select_by_value("en")
    page.wait_until(lambda: under_headings()[-1][0] == "Today")

    # Far back: each trip to the top brings as many again as are shown (500 at most).
    for _ in range(60):
        if page.find_all(f"{APP} .chat-end:not([hidden])"):
            break
        asked = len(feed.asked)
        page.driver.execute_script("document.querySelector(arguments[0]).scrollTop = 0", f"{APP} .chat-log")
        page.wait_until(lambda: len(feed.asked) > asked and log_state(page)["busy"] == "false", timeout=30, message=f"{feed.asked} {len(texts(page))} {log_state(page)}")
    assert len(texts(page)) == 1000 and texts(page)[0] == "Old 996"
    assert [limit for _, limit in feed.asked] == [20, 20, 40, 80, 160, 320, 500, 500][:len(feed.asked)]
    assert len(feed.asked) <= 8, feed.asked
    assert len(stored(page.bridge)) == 500 and len(under_headings()) == len(
        {datetime.datetime.fromisoformat(m["sentAt"]).astimezone().date() for m in feed.messages})

    # The end: the note alone, in the chat's words and no control's look.
    end = page.find(f"{APP} .chat-end")
    assert end.text == "No more messages" and end.get_attribute("role") == "alert"
    assert page.find_all(f"{APP} button.chat-load:not([hidden])") == []
    look = page.driver.execute_script(
        "const s = getComputedStyle(arguments[0]); return [s.borderTopWidth, s.backgroundColor];", end)
    assert look == ["0px", "rgba(0, 0, 0, 0)"], look
    page.driver.execute_script("document.querySelector(arguments[0]).scrollTop = 0", f"{APP} .chat-log")
    page.screenshot("messages-end-1280")
    as_phone(page)
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    Select(page.find("#language")).select_by_value("ru")
    page.wait_until(lambda: end.text == "Больше сообщений нет")
    page.driver.execute_script("document.querySelector(arguments[0]).scrollTop = 0", f"{APP} .chat-log")
    page.screenshot("messages-end-390-ru-dark")
    assert page.console_errors() == []
