"""An edit that meets another, in a real Chromium: the note and Moments editors show that the item changed
elsewhere as soon as it does, both versions side by side, and let the person keep theirs, take the other or
keep both; nothing typed is lost without the person choosing, Cancel included."""
from __future__ import annotations

from satchel_client import Satchel

EDITOR = "dialog .note-editor"


def open_note(page, bridge, title="Plan", content="v1"):
    with Satchel(db=bridge.db) as s:
        note = s.notes.create(title=title, content=content)
    page.open("notes")
    page.wait_until(lambda: page.texts("section[data-app='notes'] .note-title") == [title])
    page.click("section[data-app='notes'] .note-open")
    page.wait_for(EDITOR)
    return note


def type_content(page, text):
    field = page.find(f"{EDITOR} textarea[name='content']")
    field.clear()
    field.send_keys(text)


def notes(bridge):
    with Satchel(db=bridge.db) as s:
        return [(n["title"], n["content"]) for n in s.notes.list()["items"]]


def test_a_change_elsewhere_shows_at_once_and_keep_both_keeps_both(bridge, page):
    note = open_note(page, bridge)
    type_content(page, "mine")
    with Satchel(db=bridge.db) as other:  # another window, another device
        other.notes.update(id=note["id"], content="theirs")
    panel = page.wait_for(f"{EDITOR} .conflict")  # before any Save
    assert "changed somewhere else" in panel.text and "revision" not in panel.text.lower()
    assert page.find(f"{EDITOR} .conflict-theirs .conflict-text").text == "theirs"
    assert page.find(f"{EDITOR} textarea[name='content']").get_attribute("value") == "mine"
    assert not page.find(f"{EDITOR} button[value='save']").is_displayed(), "a choice, not Save"
    page.screenshot("conflict-note-1280")
    page.click(f"{EDITOR} .conflict-keep-both")
    page.wait_gone("dialog")
    assert notes(bridge) == [("Plan", "theirs"), ("Plan", "mine")]
    assert page.console_errors() == []


def test_keep_mine_saves_over_the_other_version_after_seeing_it(bridge, page):
    note = open_note(page, bridge)
    type_content(page, "mine")
    with Satchel(db=bridge.db) as other:
        other.notes.update(id=note["id"], title="Their plan")
    page.wait_for(f"{EDITOR} .conflict")
    assert page.find(f"{EDITOR} .conflict-theirs .conflict-title").text == "Their plan"
    page.click(f"{EDITOR} .conflict-keep-mine")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        saved = s.notes.get(id=note["id"])
    assert (saved["title"], saved["content"], saved["revision"]) == ("Plan", "mine", 3)


def test_use_the_other_shows_it_in_the_editor_and_save_works_from_there(bridge, page):
    note = open_note(page, bridge)
    type_content(page, "mine")
    with Satchel(db=bridge.db) as other:
        other.notes.update(id=note["id"], content="theirs", color={"hue": 0.6, "saturation": 0.5, "brightness": 0.9})
    page.wait_for(f"{EDITOR} .conflict")
    page.click(f"{EDITOR} .conflict-take-theirs")
    page.wait_gone(f"{EDITOR} .conflict")
    assert page.find(f"{EDITOR} textarea[name='content']").get_attribute("value") == "theirs"
    page.find(f"{EDITOR} textarea[name='content']").send_keys(" and more")
    page.click(f"{EDITOR} button[value='save']")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        saved = s.notes.get(id=note["id"])
    assert saved["content"] == "theirs and more"
    assert (saved["color"]["hue"], saved["color"]["saturation"]) == (0.6, 0.5), "the other colour kept exactly"


def test_a_note_deleted_elsewhere_can_be_kept_as_a_new_one(bridge, page):
    note = open_note(page, bridge)
    type_content(page, "still needed")
    with Satchel(db=bridge.db) as other:
        other.notes.delete(id=note["id"])
    panel = page.wait_for(f"{EDITOR} .conflict")
    assert "deleted somewhere else" in panel.text
    page.click(f"{EDITOR} .conflict-keep-mine")
    page.wait_gone("dialog")
    assert notes(bridge) == [("Plan", "still needed")]


def test_cancel_and_escape_ask_before_dropping_what_was_typed(bridge, page):
    open_note(page, bridge)
    type_content(page, "half a thought")
    page.click(f"{EDITOR} .actions button:not(.primary):not(.danger)")
    page.wait_for("dialog .confirm")
    page.click("dialog .confirm button[value='no']")  # keep editing
    page.wait_gone("dialog .confirm")
    assert page.find(f"{EDITOR} textarea[name='content']").get_attribute("value") == "half a thought"
    page.find(f"{EDITOR} textarea[name='content']").send_keys("\ue00c")  # Escape
    page.wait_for("dialog .confirm")
    page.click("dialog .confirm button[value='yes']")  # discard
    page.wait_gone("dialog")
    assert notes(bridge) == [("Plan", "v1")]
    page.click("section[data-app='notes'] .note-open")  # nothing typed: Cancel closes at once
    page.wait_for(EDITOR)
    page.click(f"{EDITOR} .actions button:not(.primary):not(.danger)")
    page.wait_gone("dialog")


def test_the_panel_speaks_the_pages_language(bridge, page):
    from selenium.webdriver.support.ui import Select

    note = open_note(page, bridge)
    page.click(f"{EDITOR} .actions button:not(.primary):not(.danger)")
    page.wait_gone("dialog")
    Select(page.find("#language")).select_by_value("ja")
    page.wait_until(lambda: page.find("[role='tab'][data-app='moments']").text == "モーメント")
    page.click("section[data-app='notes'] .note-open")
    page.wait_for(EDITOR)
    type_content(page, "私の版")
    with Satchel(db=bridge.db) as other:
        other.notes.update(id=note["id"], content="相手の版")
    panel = page.wait_for(f"{EDITOR} .conflict")
    assert "別の場所で変更されました" in panel.text and "両方残す" in panel.text
    page.resize(390)
    page.screenshot("conflict-note-390-ja")


def test_a_moments_post_changed_elsewhere_keeps_what_was_typed(bridge, page):
    with Satchel(db=bridge.db) as s:
        post = s.diary.create(text="morning")
    page.open("moments")
    page.click("section[data-app='moments'] .moment-card")
    page.click("section[data-app='moments'] .moments-edit")
    page.wait_for("dialog .moment-form")
    field = page.find("dialog .moment-text-input")
    field.clear()
    field.send_keys("morning, then rain")
    with Satchel(db=bridge.db) as other:
        other.diary.update(id=post["id"], text="morning, then sun")
    panel = page.wait_for("dialog .moment-form .conflict")
    assert "post was changed" in panel.text and "morning, then sun" in panel.text
    assert field.get_attribute("value") == "morning, then rain"
    page.screenshot("conflict-moments-1280")
    page.click("dialog .moment-form .conflict-keep-mine")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        assert s.diary.get(id=post["id"])["text"] == "morning, then rain"
