"""Fonts in a real Chromium: Japanese words (the page's and a person's) and emoji are drawn by fonts the page's
stack names, a Japanese face and a colour emoji font, never as empty boxes. On Debian these are
fonts-noto-cjk and fonts-noto-color-emoji (see the README); without them this test fails."""
from __future__ import annotations

from selenium.webdriver.support.ui import Select

from satchel_client import Satchel

JAPANESE = ("Noto Sans CJK JP", "Noto Sans JP", "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Yu Gothic UI", "Meiryo")
EMOJI = ("Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji")


def fonts_drawing(page, css: str) -> set[str]:
    """The font families Chromium drew the text of the element `css` with (DevTools' "Rendered fonts")."""
    root = page.driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = page.driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": css})["nodeId"]
    page.driver.execute_cdp_cmd("CSS.enable", {})
    return {font["familyName"] for font in page.driver.execute_cdp_cmd("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]}


def stack(page, css: str) -> str:
    return page.driver.execute_script("return getComputedStyle(document.querySelector(arguments[0])).fontFamily", css)


def test_japanese_and_emoji_are_drawn_by_the_fonts_the_page_names(bridge, page):
    with Satchel(db=bridge.db) as s:
        s.notes.create(title="日本語のメモ", content="")
        s.notes.create(title="🎉😀👍🏽❤️", content="")
    page.open("notes")
    page.wait_until(lambda: len(page.find_all("section[data-app='notes'] .note-title")) == 2)

    # A person's Japanese, under English words: a Japanese face of the stack.
    japanese = fonts_drawing(page, "section[data-app='notes'] li:nth-child(1) .note-title")
    assert japanese and japanese <= set(JAPANESE), japanese
    assert all(name in stack(page, ".note-title") for name in japanese)

    # Emoji, even those a text face also has in black and white (😀 in DejaVu Sans): a colour emoji font.
    emoji = fonts_drawing(page, "section[data-app='notes'] li:nth-child(2) .note-title")
    assert emoji and emoji <= set(EMOJI), emoji
    assert all(name in stack(page, ".note-title") for name in emoji)

    # The page in Japanese: its own words too.
    Select(page.find("#language")).select_by_value("ja")
    page.wait_until(lambda: page.find("[role='tab'][data-app='reminders']").text == "リマインダー")
    for css in ("[role='tab'][data-app='reminders']", "section[data-app='notes'] .segmented button"):
        drawn = fonts_drawing(page, css)
        assert drawn & set(JAPANESE), (css, drawn)
    page.screenshot("fonts-japanese-emoji-1280")
    page.resize(390)
    page.screenshot("fonts-japanese-emoji-390")
    assert page.console_errors() == []
