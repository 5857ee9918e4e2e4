"""The page as a whole in a real Chromium: the token, tabs from the keyboard, search opening items in every
app, the language switch, themes, accessible names, and the banner while a dead satchel is restarted."""
from __future__ import annotations

import os
import signal

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from satchel_client import Satchel

# Every visible control without an accessible name: its text, aria-label, aria-labelledby, a <label>, alt.
UNNAMED = """
return [...document.querySelectorAll('button, input, select, textarea, a[href], [role=tab], [role=radio]')]
  .filter(e => e.offsetParent !== null && e.type !== 'hidden' && e.type !== 'file')
  .filter(e => !(e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') || e.textContent.trim()
                 || (e.labels && e.labels.length) || e.getAttribute('title') || e.querySelector('img[alt]:not([alt=""])')))
  .map(e => e.outerHTML.slice(0, 120));
"""


def test_without_the_token_the_page_is_refused(bridge, page):
    page.driver.get(bridge.origin + "/")
    assert "403" in page.driver.title or "forbidden" in page.find("body").text.lower()
    page.open()  # with the token, then the cookie carries it
    assert "token=" not in page.driver.current_url  # and it leaves the address bar
    page.driver.get(bridge.origin + "/#notes")
    page.wait_for("body[data-state='ready']")


def test_tabs_work_from_the_keyboard_and_every_control_has_a_name(bridge_factory, page_factory):
    demo = bridge_factory("--demo")
    page = page_factory(on=demo).open()
    page.find("[role='tab'][aria-selected='true']").send_keys(Keys.ARROW_RIGHT)
    page.wait_for("section[data-app='reminders']:not([hidden])")
    assert page.driver.switch_to.active_element.get_attribute("data-app") == "reminders"
    for app in ("moments", "reminders", "messages", "notes", "board"):
        page.tab(app)
        page.wait_until(lambda: page.driver.execute_script(UNNAMED) == [], message=f"unnamed controls in {app}")
    assert page.console_errors() == []


def test_search_finds_every_app_and_opens_the_item(bridge, page):
    with Satchel(db=bridge.db) as s:
        note = s.notes.create(title="Kyoto trip", content="maple leaves")
        s.board.create(title="Kyoto ramen")
        s.reminders.add(title="Book Kyoto hotel")
        s.reminders.endEditing()
    page.open("moments")
    search = page.find("#search-input")
    search.send_keys("kyoto", Keys.ENTER)
    page.wait_for("section[data-app='search'] .hit")
    domains = {hit.get_attribute("data-domain") for hit in page.find_all("section[data-app='search'] .hit")}
    assert domains == {"notes", "board", "reminders"}
    assert page.find("section[data-app='search'] mark").text.lower() == "kyoto"
    page.click(f"section[data-app='search'] .hit[data-id='{note['id']}']")
    page.wait_for("section[data-app='notes']:not([hidden])")
    title = page.wait_for("dialog .note-editor input[name='title']")
    assert title.get_attribute("value") == "Kyoto trip"
    assert page.console_errors() == []


def test_the_language_switch_changes_the_page_and_the_servers_messages(bridge, page):
    page.open("board")
    Select(page.find("#language")).select_by_value("ja")
    page.wait_until(lambda: page.find("[role='tab'][data-app='board']").text == "掲示板")
    assert page.driver.execute_script("return document.documentElement.lang") == "ja"
    page.find("#search-input").send_keys("nothing-like-this", Keys.ENTER)
    page.wait_until(lambda: "見つかりません" in page.find("section[data-app='search']").text)
    page.driver.refresh()  # the choice is remembered
    page.wait_for("body[data-state='ready']")
    assert page.find("[role='tab'][data-app='notes']").text == "ENotes"
    assert Select(page.find("#language")).first_selected_option.get_attribute("value") == "ja"


def test_dark_theme_follows_the_system(bridge, page):
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    page.open("notes")
    assert page.driver.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
    page.screenshot("dark-notes-1280")
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    assert page.driver.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(242, 242, 247)"


def test_a_dead_satchel_is_restarted_under_a_banner_and_nothing_typed_is_lost(bridge, page):
    page.open("notes")
    page.click("section[data-app='notes'] button[aria-label='New note']")
    page.wait_for("dialog .note-editor")
    page.driver.switch_to.active_element.send_keys("Typed before the crash")
    (pid,) = bridge.satchel_pids()
    os.kill(pid, signal.SIGKILL)
    page.wait_until(lambda: page.driver.execute_script("return document.body.dataset.connection") == "ready"
                    and bridge.satchel_pids() not in ([], [pid]), timeout=15)
    assert page.find("dialog .note-editor input[name='title']").get_attribute("value") == "Typed before the crash"
    page.click("dialog button[type='submit']")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        assert [n["title"] for n in s.notes.list()["items"]] == ["Typed before the crash"]
    assert page.console_errors() == []


def test_the_banner_shows_while_the_satchel_is_gone(bridge, page):
    page.open("notes")
    page.driver.execute_script("""
        window.statuses = [];
        new MutationObserver(() => statuses.push(document.getElementById('banner').hidden ? 'hidden' : 'shown'))
          .observe(document.getElementById('banner'), {attributes: true});""")
    (pid,) = bridge.satchel_pids()
    os.kill(pid, signal.SIGKILL)
    page.wait_until(lambda: page.driver.execute_script("return statuses").count("hidden") >= 1, timeout=15)
    assert page.driver.execute_script("return statuses")[0] == "shown"


def test_two_bridges_in_one_browser_each_keep_their_token(bridge_factory, page_factory):
    first, second = bridge_factory(), bridge_factory()
    page = page_factory(on=first).open()
    page.driver.get(second.url)
    page.wait_for("body[data-state='ready']")
    page.driver.get(first.origin + "/#board")  # the first bridge's cookie was not overwritten
    page.wait_for("body[data-state='ready']")
    page.wait_for("section[data-app='board']:not([hidden])")


def test_each_window_keeps_its_own_language(bridge, page_factory):
    russian, english = page_factory().open("notes"), page_factory().open("notes")
    Select(russian.find("#language")).select_by_value("ru")
    russian.wait_until(lambda: russian.find("[role='tab'][data-app='moments']").text == "Моменты")
    messages = {}
    for name, window in (("ru", russian), ("en", english)):
        window.click("section[data-app='notes'] .toolbar button.primary")
        window.wait_for("dialog .note-editor")
        window.click("dialog button[type='submit']")
        messages[name] = window.wait_for("dialog .error").text
    assert any("а" <= ch <= "я" for ch in messages["ru"].lower())
    assert messages["en"].isascii() and messages["en"] != messages["ru"]


def test_a_page_of_a_bridge_started_again_says_to_open_the_new_url(bridge_factory, page_factory):
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    first = bridge_factory("--port", port)
    page = page_factory(on=first).open()
    first.stop()
    second = bridge_factory("--port", port)
    assert second.token != first.token
    page.wait_until(lambda: "new address" in page.find("#banner").text, timeout=20)
    page.driver.get(second.url)
    page.wait_for("body[data-state='ready']")
    assert not page.find("#banner").is_displayed()
