"""An edit that meets another, in a real Chromium: the note and Moments editors see that the item changed
elsewhere as soon as it does and merge the other version into what is typed (`text.merge`, as sync merges),
its words marked, when the two changed different words; when both changed the same words, both versions side
by side, to keep theirs, take the other or keep both (a copy titled with this device's name and the time);
nothing typed is lost without the person choosing, Cancel included."""
from __future__ import annotations

import base64
import datetime

from satchel_client import Satchel

from test_moments import png

EDITOR = "dialog .note-editor"
CONTENT = f"{EDITOR} textarea[name='content']"
THREE = "First paragraph.\n\nSecond paragraph.\n\nThird paragraph."


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


def put_caret(page, css, start, end=None):
    """Focuses the field `css` with the caret at `start` (or `start`..`end` selected), as a click there would."""
    page.driver.execute_script(
        "const f = document.querySelector(arguments[0]); f.focus(); f.setSelectionRange(arguments[1], arguments[2]);",
        css, start, start if end is None else end)


def caret(page, css):
    return page.driver.execute_script(
        "const f = document.querySelector(arguments[0]);"
        "return [f.selectionStart, f.selectionEnd, document.activeElement === f];", css)


def marked(page, css):
    """The words the merged view marks as having come from elsewhere."""
    return page.texts(f"{css} .merged mark")


def stamps(before, after):
    """How a copy made between `before` and `after` is dated: "27 Nov 19:20" (local time), either minute."""
    return {f"{moment.day} {moment:%b %H:%M}" for moment in (before, after)}


def test_an_edit_elsewhere_to_another_paragraph_is_merged_into_what_is_typed(bridge, page, page_factory):
    """Window A types in the first paragraph; window B, on the same database, changes the third and saves: A
    shows both at once, B's words marked, no choice to make; A's Save keeps both."""
    note = open_note(page, bridge, content=THREE)
    put_caret(page, CONTENT, len("First paragraph"))
    page.find(CONTENT).send_keys(", typed in A")
    other = page_factory().open("notes")
    other.click("section[data-app='notes'] .note-open")
    other.wait_for(EDITOR)
    put_caret(other, CONTENT, len(THREE) - 1)
    other.find(CONTENT).send_keys(", changed in B")
    other.click(f"{EDITOR} button[value='save']")
    other.wait_gone("dialog")

    merged = "First paragraph, typed in A.\n\nSecond paragraph.\n\nThird paragraph, changed in B."
    notice = page.wait_for(f"{EDITOR} .merged")
    assert "Merged with a change made elsewhere" in notice.text
    assert page.find(CONTENT).get_attribute("value") == merged
    assert "".join(marked(page, EDITOR)).strip(" ,") == "changed in B"
    assert page.find(f"{EDITOR} .merged .merged-text").text == merged
    assert not page.find(f"{EDITOR} .conflict").is_displayed(), "no choice to make"
    assert page.find(f"{EDITOR} button[value='save']").is_displayed()
    assert page.find(f"{EDITOR} .merged-message").get_attribute("aria-live") == "polite"
    end_of_typing = len("First paragraph, typed in A")
    assert caret(page, CONTENT) == [end_of_typing, end_of_typing, True], "the caret stays after what A typed"
    page.find(CONTENT).send_keys(" too")  # typing goes on where it was
    page.screenshot("merged-note-1280")
    page.click(f"{EDITOR} button[value='save']")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        saved = s.notes.get(id=note["id"])
    assert saved["content"] == merged.replace("typed in A", "typed in A too")
    assert saved["revision"] == 3, "saved over B's version, with no conflict in between"
    assert [title for title, _ in notes(bridge)] == ["Plan"]
    assert page.console_errors() == [] and other.console_errors() == []


def test_the_same_words_changed_on_both_sides_still_ask(bridge, page):
    """A change elsewhere to other words is merged in; a second one to the very word being edited here is not:
    the two versions side by side, as before, and Keep mine keeps what was merged so far."""
    note = open_note(page, bridge, content=THREE)
    put_caret(page, CONTENT, len("First paragraph.\n\n"), len("First paragraph.\n\nSecond"))
    page.find(CONTENT).send_keys("Middle")
    with Satchel(db=bridge.db) as other:
        other.notes.update(id=note["id"], content=THREE.replace("Third paragraph.", "Third paragraph, changed."))
    page.wait_for(f"{EDITOR} .merged")
    assert page.find(CONTENT).get_attribute("value") == (
        "First paragraph.\n\nMiddle paragraph.\n\nThird paragraph, changed.")
    with Satchel(db=bridge.db) as other:
        other.notes.update(id=note["id"], content="First paragraph.\n\nCentral paragraph.\n\nThird paragraph, changed.")
    panel = page.wait_for(f"{EDITOR} .conflict")
    assert "changed somewhere else" in panel.text
    assert "Central paragraph" in page.find(f"{EDITOR} .conflict-theirs .conflict-text").text
    assert not page.find(f"{EDITOR} .merged").is_displayed()
    assert not page.find(f"{EDITOR} button[value='save']").is_displayed(), "a choice, not Save"
    assert page.find(CONTENT).get_attribute("value") == (
        "First paragraph.\n\nMiddle paragraph.\n\nThird paragraph, changed.")
    page.click(f"{EDITOR} .conflict-keep-mine")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        assert s.notes.get(id=note["id"])["content"] == "First paragraph.\n\nMiddle paragraph.\n\nThird paragraph, changed."


def test_a_change_elsewhere_shows_at_once_and_keep_both_keeps_both(bridge, page):
    with Satchel(db=bridge.db) as s:
        s.call("sync.setDeviceName", {"name": "laptop"})
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
    before = datetime.datetime.now()
    page.click(f"{EDITOR} .conflict-keep-both")
    page.wait_gone("dialog")
    after = datetime.datetime.now()
    (first, theirs), (copy, mine) = notes(bridge)
    assert (first, theirs, mine) == ("Plan", "theirs", "mine")
    assert copy != first, "two notes, two titles"
    assert copy in {f"Plan — laptop, {stamp}" for stamp in stamps(before, after)}, copy
    assert page.console_errors() == []


def test_keep_both_twice_names_every_copy_apart(bridge, page):
    """Two notes are never titled alike by Keep both: a second copy made the same minute is "(2)"."""
    with Satchel(db=bridge.db) as s:
        s.call("sync.setDeviceName", {"name": "laptop"})
    note = open_note(page, bridge)
    before = datetime.datetime.now()
    for turn in (1, 2):
        if turn == 2:
            page.click("section[data-app='notes'] li.note:first-child .note-open")
            page.wait_for(EDITOR)
        type_content(page, f"mine {turn}")
        with Satchel(db=bridge.db) as other:
            other.notes.update(id=note["id"], content=f"theirs {turn}")
        page.wait_for(f"{EDITOR} .conflict")
        page.click(f"{EDITOR} .conflict-keep-both")
        page.wait_gone("dialog")
        page.wait_until(lambda: len(notes(bridge)) == turn + 1)
    after = datetime.datetime.now()
    titles = [title for title, _ in notes(bridge)]
    assert len(set(titles)) == 3, titles
    copies = {f"Plan — laptop, {stamp}" for stamp in stamps(before, after)}
    assert titles[0] == "Plan" and set(titles[1:]) <= copies | {f"{copy} (2)" for copy in copies}, titles
    if len({title.removesuffix(" (2)") for title in titles[1:]}) == 1:
        assert sorted(titles[1:])[1].endswith(" (2)")
    assert page.console_errors() == []


def test_keep_both_of_a_post_whose_words_are_the_same_marks_the_copy(bridge, page):
    """A post has no title: when only the photos differ, Keep both marks the copy's text as sync does, so the
    two posts can be told apart."""
    with Satchel(db=bridge.db) as s:
        s.call("sync.setDeviceName", {"name": "laptop"})
        first = s.diary.create(text="the harbour", images=[{"data": base64.b64encode(png(40, 30, (10, 90, 160))).decode()}])
    page.open("moments")
    page.click("section[data-app='moments'] .moment-card")
    page.click("section[data-app='moments'] .moments-edit")
    page.wait_for("dialog .moment-form")
    page.click("dialog .moment-remove-photo")  # here: the photo taken out
    with Satchel(db=bridge.db) as other:  # there: another photo instead
        other.diary.update(id=first["id"], images=[{"data": base64.b64encode(png(30, 40, (160, 90, 10))).decode()}])
    page.wait_for("dialog .moment-form .conflict")
    before = datetime.datetime.now()
    page.click("dialog .moment-form .conflict-keep-both")
    page.wait_gone("dialog")
    after = datetime.datetime.now()
    with Satchel(db=bridge.db) as s:
        texts = sorted(s.diary.get(id=item["id"])["text"] for item in s.diary.list()["items"])
    assert texts[0] == "the harbour"
    assert texts[1] in {f"the harbour — laptop, {stamp}" for stamp in stamps(before, after)}, texts


def test_keep_mine_saves_over_the_other_version_after_seeing_it(bridge, page):
    note = open_note(page, bridge)
    type_content(page, "mine")
    with Satchel(db=bridge.db) as other:
        other.notes.update(id=note["id"], title="Their plan", content="theirs")
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
    # The list is drawn again in the new language, maybe between finding the note and clicking it: once more.
    page.wait_until(lambda: page.find("section[data-app='notes'] .note-open").click() or True)
    page.wait_for(EDITOR)
    type_content(page, "私の版")
    with Satchel(db=bridge.db) as other:
        other.notes.update(id=note["id"], content="相手の版")
    panel = page.wait_for(f"{EDITOR} .conflict")
    assert "別の場所で変更されました" in panel.text and "両方残す" in panel.text
    page.resize(390)
    page.screenshot("conflict-note-390-ja")


def edit_post(page, bridge, text):
    with Satchel(db=bridge.db) as s:
        post = s.diary.create(text=text)
    page.open("moments")
    page.click("section[data-app='moments'] .moment-card")
    page.click("section[data-app='moments'] .moments-edit")
    page.wait_for("dialog .moment-form")
    return post


def test_a_moments_post_changed_elsewhere_keeps_what_was_typed(bridge, page):
    post = edit_post(page, bridge, "a sunny morning")
    field = page.find("dialog .moment-text-input")
    field.clear()
    field.send_keys("a rainy morning")
    with Satchel(db=bridge.db) as other:
        other.diary.update(id=post["id"], text="a foggy morning")
    panel = page.wait_for("dialog .moment-form .conflict")
    assert "post was changed" in panel.text and "a foggy morning" in panel.text
    assert field.get_attribute("value") == "a rainy morning"
    page.screenshot("conflict-moments-1280")
    page.click("dialog .moment-form .conflict-keep-mine")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        assert s.diary.get(id=post["id"])["text"] == "a rainy morning"


def test_a_moments_post_changed_elsewhere_in_another_paragraph_is_merged(bridge, page):
    text = "Woke early.\n\nWent to the market.\n\nRain in the evening."
    post = edit_post(page, bridge, text)
    form = "dialog .moment-form"
    field_css = f"{form} .moment-text-input"
    put_caret(page, field_css, len("Woke early"))
    page.find(field_css).send_keys(" and made tea")
    with Satchel(db=bridge.db) as other:  # another device
        other.diary.update(id=post["id"], text=text.replace("evening.", "evening, then a rainbow."))
    notice = page.wait_for(f"{form} .merged")
    merged = "Woke early and made tea.\n\nWent to the market.\n\nRain in the evening, then a rainbow."
    assert "Merged with a change made elsewhere to this post" in notice.text
    assert page.find(field_css).get_attribute("value") == merged
    assert "".join(marked(page, form)).strip(" ,") == "then a rainbow"
    assert not page.find(f"{form} .conflict").is_displayed()
    assert caret(page, field_css)[:2] == [len("Woke early and made tea")] * 2
    page.screenshot("merged-moments-1280")
    page.click(f"{form} .merged-dismiss")
    page.wait_gone(f"{form} .merged")
    page.click(f"{form} .moment-save")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        saved = s.diary.get(id=post["id"])
        assert (saved["text"], saved["revision"]) == (merged, 3)
        assert len(s.diary.list()["items"]) == 1
    assert page.console_errors() == []


def test_the_caret_keeps_its_place_in_what_was_typed(bridge, page):
    """Where the caret goes when a merge changes the text around it, from the page's own module: after the
    character it followed, before words inserted elsewhere right there, where words deleted elsewhere were."""
    page.open()
    said = page.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import(new URL('app/js/conflict.js', document.baseURI).href).then(({ caretAfterMerge }) => {
          const base = (text) => ({ text, from: 'base' });
          const theirs = (text) => ({ text, from: 'theirs' });
          const ours = (text) => ({ text, from: 'ours' });
          done([
            caretAfterMerge('ab', [base('a'), theirs('X'), base('b')], 1),  // inserted at the caret: after it
            caretAfterMerge('ab', [base('a'), theirs('X'), base('b')], 2),
            caretAfterMerge('a b c', [base('a c')], 3),  // "b" deleted there, the caret after it
            caretAfterMerge('a b c', [base('a c')], 5),
            caretAfterMerge('one TWO', [base('one '), ours('TWO'), theirs(' three')], 7),
            caretAfterMerge('x', [theirs('new '), base('x')], 0),
          ]);
        }, (error) => done(String(error)));""")
    assert said == [1, 3, 2, 3, 7, 4], said
