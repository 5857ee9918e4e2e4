"""Layout in a real Chromium: one content width for every app, a header whose search is a field's width,
the five tabs on one line at 390 px in every language, and a long sheet whose Save is always in reach."""
from __future__ import annotations

from selenium.webdriver.support.ui import Select

APPS = {"moments": ".moments-list-view", "reminders": ".rem-canvas", "messages": ".chat", "notes": ".notes-list",
        "board": ".board-list"}


def width(page, css: str) -> float:
    return page.driver.execute_script("return document.querySelector(arguments[0]).getBoundingClientRect().width", css)


def test_every_app_has_one_content_width_and_the_search_is_a_fields_width(bridge_factory, page_factory):
    page = page_factory(on=bridge_factory("--demo"), width=1280).open()
    widths = {}
    for app, part in APPS.items():
        page.tab(app)
        page.wait_for(f"section[data-app='{app}'] {part}")
        widths[app] = round(width(page, f"section[data-app='{app}'] {part}"))
    assert len(set(widths.values())) == 1, widths
    assert width(page, ".search input") <= 440


def test_at_390_px_the_tabs_keep_one_line_in_every_language(bridge_factory, page_factory):
    page = page_factory(on=bridge_factory("--demo"), width=390, height=844).open()
    for language in ("en", "ru", "ja"):
        Select(page.find("#language")).select_by_value(language)
        page.wait_until(lambda: page.driver.execute_script("return document.documentElement.lang") == language)
        tops = page.driver.execute_script(
            "return [...document.querySelectorAll('[role=tab]')].map((t) => Math.round(t.getBoundingClientRect().top))")
        assert len(set(tops)) == 1, (language, tops)
        inside = page.driver.execute_script(
            "return [...document.querySelectorAll('[role=tab]')].every((t) => t.getBoundingClientRect().right <= innerWidth"
            " && t.scrollWidth <= t.clientWidth + 1)")
        assert inside, language
        page.screenshot(f"tabs-390-{language}")


def test_the_note_editor_keeps_save_in_reach_on_a_phone_with_the_picker_open(bridge, page_factory):
    page = page_factory(width=390, height=844).open("notes")
    page.click("section[data-app='notes'] .toolbar button.primary")
    page.wait_for("dialog .note-editor")
    page.click("dialog .palette .cell.custom")
    page.wait_for("dialog .hsb")
    box = page.driver.execute_script(
        "const r = document.querySelector('dialog .note-editor button[value=save]').getBoundingClientRect();"
        "return [r.top, r.bottom, innerHeight]")
    assert 0 <= box[0] and box[1] <= box[2], box
    page.screenshot("note-editor-picker-390")


def test_at_390_px_sheet_headers_keep_each_word_whole_in_every_language(bridge, page_factory):
    page = page_factory(width=390, height=844).open("moments")
    for language in ("en", "ru", "ja"):
        Select(page.find("#language")).select_by_value(language)
        page.wait_until(lambda: page.driver.execute_script("return document.documentElement.lang") == language)
        page.click("section[data-app='moments'] .moments-new")
        page.wait_for("dialog .sheet-bar")
        lines = page.driver.execute_script("""
            return [...document.querySelectorAll('dialog .sheet-bar > *')].map((el) => {
              const style = getComputedStyle(el);
              const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.4;
              const inner = el.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)
                - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
              return [el.textContent, Math.round(inner / line), el.scrollWidth <= el.clientWidth + 1];
            });""")
        for text, count, fits in lines:
            assert count == 1 and fits, (language, text, count, fits)
        page.screenshot(f"moments-sheet-390-{language}")
        page.click("dialog .moment-cancel")
        page.wait_gone("dialog")


def test_every_screen_at_both_widths_in_light_and_dark_in_every_language(bridge_factory, page_factory):
    """The gallery a designer reviews (screenshots in the run's folder), and the page never wider than the
    window in any of them."""
    bridge = bridge_factory("--demo")
    for scheme in ("light", "dark"):
        page = page_factory(on=bridge)
        page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                    {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        page.open()
        for language in ("en", "ru", "ja"):
            Select(page.find("#language")).select_by_value(language)
            page.wait_until(lambda: page.driver.execute_script("return document.documentElement.lang") == language)
            for size in (1280, 390):
                page.resize(size, 900 if size > 600 else 844)
                for app in ("moments", "reminders", "messages", "notes", "board"):
                    page.tab(app)
                    page.wait_for(f"section[data-app='{app}'] .list, section[data-app='{app}'] .chat")
                    overflow = page.driver.execute_script("return document.documentElement.scrollWidth - innerWidth")
                    assert overflow <= 0, (scheme, language, size, app, overflow)
                    page.screenshot(f"gallery-{app}-{size}-{scheme}-{language}")


# Each tab's box and the gaps between them, at the window's edges too.
TAB_SPACING = """
const boxes = [...document.querySelectorAll('[role=tab]')].map((t) => t.getBoundingClientRect());
const gaps = boxes.slice(1).map((box, i) => box.left - boxes[i].right);
return {gaps, left: boxes[0].left, right: innerWidth - boxes.at(-1).right,
        fits: [...document.querySelectorAll('[role=tab]')].every((t) => t.scrollWidth <= t.clientWidth + 1)};
"""


def test_at_390_px_the_tabs_keep_apart_and_the_reminders_toolbar_keeps_one_line(bridge_factory, page_factory):
    """A selected tab is a filled pill: it never touches its neighbour or the window's edge, with room to spare
    for a wider font than this machine's; "New Reminder" stays on the heading's line (its + on a phone, its
    words its accessible name), in every language."""
    page = page_factory(on=bridge_factory("--demo"), width=390, height=844).open("reminders")
    for language in ("en", "ru", "ja"):
        Select(page.find("#language")).select_by_value(language)
        page.wait_until(lambda: page.driver.execute_script("return document.documentElement.lang") == language)
        spacing = page.driver.execute_script(TAB_SPACING)
        assert min(spacing["gaps"]) >= 6 and spacing["left"] >= 4 and spacing["right"] >= 4 and spacing["fits"], \
            (language, spacing)
        heading = page.find("section[data-app='reminders'] .rem-toolbar h2").rect
        button = page.find("section[data-app='reminders'] .rem-new")
        assert button.rect["y"] < heading["y"] + heading["height"], (language, "wrapped under the heading")
        assert button.rect["x"] + button.rect["width"] <= 390
        assert button.accessible_name == {"en": "New Reminder", "ru": "Новое напоминание", "ja": "新規リマインダー"}[language]
        page.screenshot(f"reminders-toolbar-390-{language}")


def test_the_page_does_not_move_sideways_when_the_scrollbar_comes_or_goes(bridge_factory, page_factory):
    """A long screen (the board) has a scrollbar, a short one (reminders) and an open post or sheet none: the
    tabs and the content stay where they are (the scrollbar's room is kept)."""
    page = page_factory(on=bridge_factory("--demo"), width=1280, height=700).open("board")
    page.wait_for("section[data-app='board'] .board-post")
    where = "return [document.querySelector('[role=tab]').getBoundingClientRect().left," \
            " document.querySelector('main').getBoundingClientRect().left]"
    long = page.driver.execute_script(where)
    assert page.driver.execute_script("return document.documentElement.scrollHeight > innerHeight")
    page.tab("reminders")
    page.wait_for("section[data-app='reminders'] .rem-row:not([hidden])")  # the demo's completed one is hidden
    assert page.driver.execute_script("return document.documentElement.scrollHeight <= innerHeight")
    assert page.driver.execute_script(where) == long
    page.tab("moments")
    page.click("section[data-app='moments'] .moment-card")
    page.wait_for("section[data-app='moments'] .moments-detail-view")
    assert page.driver.execute_script(where) == long
    page.tab("board")
    page.click("section[data-app='board'] .board-new")
    page.wait_for("dialog .board-compose")
    assert page.driver.execute_script(where) == long
