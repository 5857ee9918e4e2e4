"""Readable for everyone, in a real Chromium: axe-core's WCAG 2 A/AA rules find nothing on any screen, light
or dark; a note's text keeps 4.5:1 contrast on whatever colour the person picks; and the page runs under a
Content-Security-Policy without 'unsafe-inline'."""
from __future__ import annotations

import json

import pytest
from selenium_axe_python import Axe

from selenium.webdriver.common.keys import Keys

from fill import fill
from satchel_client import Satchel
from satchel_web.security import CSP

RULES = json.dumps({"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}})
# Each app, and what shows once its (demo) data is drawn.
APPS = {"moments": ".moment-card", "reminders": ".rem-row:not([hidden])", "messages": ".chat-row", "notes": ".note",
        "board": ".board-post"}

# The contrast of two computed CSS colours (rgb(...) strings), as WCAG defines it.
CONTRAST_JS = """
const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => p - q); return (y + 0.05) / (x + 0.05); };
"""


def scheme(page, name: str) -> None:
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                {"features": [{"name": "prefers-color-scheme", "value": name}]})


def violations(page) -> list[str]:
    """axe's findings once nothing on the page is moving (a message fading in is measured at its end)."""
    page.wait_until(lambda: page.driver.execute_script(
        "return document.getAnimations().filter((a) => a.playState === 'running'"
        " && a.effect.getComputedTiming().iterations !== Infinity).length === 0"), message="animations settle")
    axe = Axe(page.driver)
    axe.inject()
    found = axe.run(options=RULES)["violations"]
    return [f"{v['id']}: {[node['target'] for node in v['nodes']][:5]} {v['nodes'][0]['any'][0]['message'] if v['nodes'][0]['any'] else ''}"
            for v in found]


@pytest.mark.parametrize("colours", ["light", "dark"])
def test_axe_finds_no_violation_on_any_screen(bridge_factory, page_factory, colours):
    bridge = bridge_factory("--demo")
    page = page_factory(on=bridge)
    scheme(page, colours)
    page.open()
    for app, drawn in APPS.items():
        page.tab(app)
        page.wait_for(f"section[data-app='{app}'] {drawn}")
        assert violations(page) == [], app
    page.tab("notes")
    page.click("section[data-app='notes'] .note-open")
    page.wait_for("dialog .note-editor")
    assert violations(page) == [], "the note editor"
    page.screenshot(f"accessibility-note-editor-{colours}")
    assert page.console_errors() == []


@pytest.mark.parametrize("colours", ["light", "dark"])
def test_a_merge_notice_and_the_device_dialog_have_no_violation(bridge, page, colours):
    """The note editor with a change from elsewhere merged in (its words marked), and the dialog that names
    this device with a refused name, in light and dark."""
    with Satchel(db=bridge.db) as s:
        note = s.notes.create(title="Plan", content="One.\n\nTwo.")
    scheme(page, colours)
    page.open("notes")
    page.click("section[data-app='notes'] .note-open")
    page.wait_for("dialog .note-editor")
    page.find("dialog .note-editor textarea[name='content']").send_keys(" Mine.")
    with Satchel(db=bridge.db) as other:
        other.notes.update(id=note["id"], content="One, theirs.\n\nTwo.")
    page.wait_for("dialog .note-editor .merged mark")
    assert violations(page) == [], "the merge notice"
    page.screenshot(f"accessibility-merged-{colours}")
    page.driver.execute_script("document.querySelector('dialog').close()")
    page.wait_gone("dialog")
    page.click("#device-button")
    field = page.wait_for("dialog .device-form input")
    field.clear()
    page.click("dialog .device-save")
    page.wait_for("dialog .device-form .error")
    assert violations(page) == [], "the device dialog"
    assert page.console_errors() == []


@pytest.mark.parametrize("colours", ["light", "dark"])
def test_refused_photos_and_a_photo_the_browser_cannot_draw_have_no_violation(bridge, page, colours, tmp_path):
    """A photo refused in ENotes (its tile saying why), and a post's sheet with a HEIC the browser cannot draw
    beside a photo refused at Save, at a phone's width."""
    import pathlib

    heic = pathlib.Path(__file__).resolve().parents[3] / "Tests/DomainTests/Fixtures/sample.heic"
    words = tmp_path / "notes.jpg"
    words.write_bytes(b"a shopping list, not a photo")
    scheme(page, colours)
    page.resize(390)
    page.open("notes")
    page.click("section[data-app='notes'] .segmented button:nth-child(2)")
    page.find("section[data-app='notes'] input[type='file']").send_keys(str(words))
    page.wait_for("section[data-app='notes'] li.photo.refused .error")
    assert violations(page) == [], "a refused photo's tile"
    page.tab("moments")
    page.click("section[data-app='moments'] button[aria-label='New post']")
    page.wait_for("dialog textarea").send_keys("From a phone")
    page.find("dialog input[type='file']").send_keys(f"{heic}\n{words}")
    page.click("dialog button.moment-save")
    page.wait_for("dialog .moment-picked-photo.refused .error")
    page.wait_for("dialog .moment-undrawable")
    assert violations(page) == [], "a post's sheet with a HEIC and a refused photo"
    page.screenshot(f"accessibility-photos-refused-390-{colours}")


@pytest.mark.parametrize("colours", ["light", "dark"])
def test_what_a_change_made_elsewhere_shows_has_no_violation(bridge, page, colours):
    """A reminder deleted elsewhere while typed in (its notice), Undo for one whose title was cleared, Show
    Completed, a board post deleted under the focus, and an open message deleted elsewhere, in light and dark."""
    from selenium.webdriver.common.keys import Keys

    with Satchel(db=bridge.db) as s:
        milk = s.reminders.add(title="Milk", memo="2 litres")["reminder"]["id"]
        bread = s.reminders.add(title="Bread")["reminder"]["id"]
        s.reminders.endEditing()
        banana = s.board.create(title="Banana")["id"]
        message = s.messages.send(text="See you at eight?")["id"]
    scheme(page, colours)
    page.open("reminders")
    title = page.wait_for(f"li.rem-row[data-id='{milk}'] input.rem-title")
    title.click()
    title.send_keys(Keys.CONTROL, "a")
    title.send_keys(Keys.BACKSPACE, Keys.ESCAPE)
    page.wait_for("section[data-app='reminders'] .rem-undo")
    page.click(f"li.rem-row[data-id='{bread}'] input.rem-title")
    with Satchel(db=bridge.db) as other:
        other.reminders.delete(id=bread)
    page.wait_for(f"li.rem-row[data-id='{bread}'] .rem-gone")
    assert page.find("section[data-app='reminders'] .rem-show-completed").is_displayed()
    assert violations(page) == [], "Reminders"
    page.screenshot(f"accessibility-elsewhere-reminders-{colours}")

    page.tab("board")
    up = page.wait_for(f"li.board-post[data-id='{banana}'] .board-up")
    page.driver.execute_script("arguments[0].focus()", up)
    with Satchel(db=bridge.db) as other:
        other.board.delete(id=banana)
    page.wait_for("section[data-app='board'] .board-gone")
    assert violations(page) == [], "Board"

    page.tab("messages")
    page.click(f"button.chat-message[data-id='{message}']")
    page.wait_for("dialog .message-detail")
    with Satchel(db=bridge.db) as other:
        other.messages.delete(id=message)
    page.wait_for("dialog .message-gone")
    assert violations(page) == [], "the message sheet"
    assert page.console_errors() == []


def test_note_text_stays_readable_on_every_colour(bridge, page_factory):
    """Every colour of the palette, picked in the editor, and a grid over hue, saturation and brightness as any
    client may send it (hue 0.55, saturation 1, brightness 0.75 read at 4.2:1 once): what the page draws keeps
    4.5:1 between a note's title (and deadline) and its colour, in light and dark."""
    page = page_factory().open("notes")
    page.click("section[data-app='notes'] button[aria-label='New note']")
    cells = len(page.wait_for("dialog .note-editor").find_elements("css selector", ".palette .cell:not(.custom)"))
    page.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    page.wait_gone("dialog")
    for index in range(cells):
        page.click("section[data-app='notes'] button[aria-label='New note']")
        page.wait_for("dialog .note-editor")
        page.find_all("dialog .palette .cell:not(.custom)")[index].click()
        page.find("dialog .note-editor input[name='title']").send_keys(f"Palette {index}")
        page.click("dialog .note-editor button[value='save']")
        page.wait_gone("dialog")
    steps = [n / 12 for n in range(12)] + [0.55]
    grid = [{"hue": hue, "saturation": saturation, "brightness": brightness}
            for hue in steps for saturation in (0.25, 0.5, 0.75, 1)
            for brightness in (0.35, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 1)]
    grid += [{"hue": 0, "saturation": 0, "brightness": n / 20} for n in range(21)]
    fill(bridge.db, "notes.create", [{"title": f"Grid {index}", "color": colour, "deadline": "2026-12-24T18:00:00Z"}
                                     for index, colour in enumerate(grid)])
    with Satchel(db=bridge.db) as s:
        palette = [note["color"] for note in s.notes.list(limit=cells)["items"]]
    assert len({colour["hex"] for colour in palette}) == cells, "each cell its own colour"
    total = cells + len(grid)
    for name in ("light", "dark"):
        page = page_factory()
        scheme(page, name)
        page.open("notes")
        # Scrolled to the end until every note is read (a page at a time).
        page.wait_until(lambda: page.driver.execute_script(
            "document.querySelector('section[data-app=notes] .load-more:not([hidden])')?.click();"
            "return document.querySelectorAll('section[data-app=notes] .note').length") == total, timeout=30)
        ratios = page.driver.execute_script(CONTRAST_JS + """
            return [...document.querySelectorAll('section[data-app="notes"] .note')].map((card) => {
              const background = getComputedStyle(card).backgroundColor;
              const parts = [...card.querySelectorAll('.note-title, .note-deadline')];
              return [card.querySelector('.note-title').textContent, background,
                      Math.min(...parts.map((part) => ratio(getComputedStyle(part).color, background)))];
            });""")
        assert len(ratios) == total
        low = [(title, background, round(value, 2)) for title, background, value in ratios if value < 4.5]
        assert low == [], (name, low[:10], len(low))
        blue = grid.index({"hue": 0.55, "saturation": 1, "brightness": 0.75})
        page.driver.execute_script("[...document.querySelectorAll('.note-title')].find((t) => t.textContent === arguments[0])"
                                   ".scrollIntoView({block: 'center'})", f"Grid {blue}")
        page.screenshot(f"notes-colours-{name}")


def test_the_page_runs_under_a_policy_without_inline_style(bridge, page):
    assert "unsafe-inline" not in CSP
    page.open("notes")
    page.click("section[data-app='notes'] .toolbar button.primary")
    page.wait_for("dialog .note-editor")
    page.click("dialog .palette .cell.custom")  # the picker sets its knob and preview through the CSSOM
    page.wait_for("dialog .hsb")
    cells = page.driver.execute_script(
        "return [...document.querySelectorAll('dialog .palette .cell')].map((c) => getComputedStyle(c).backgroundColor)")
    assert len(set(cells)) > 3, "the palette's colours are applied"
    assert page.console_errors() == []
