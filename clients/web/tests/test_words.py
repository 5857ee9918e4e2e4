"""The page's words, in a real Chromium: empty states worded alike in every app and language (Reminders' as the
original and iOS word it, "No Reminders"), no reorder hint under an empty list, and an untitled photo named by
its place."""
from __future__ import annotations

import base64

from selenium.webdriver.support.ui import Select

from satchel_client import Satchel

EMPTY = {
    "en": {"moments": "No moments yet", "reminders": "No Reminders", "notes": "No notes yet", "board": "No posts yet"},
    "ru": {"moments": "Моментов пока нет", "reminders": "Нет напоминаний", "notes": "Заметок пока нет",
           "board": "Постов пока нет"},
    "ja": {"moments": "モーメントはまだありません", "reminders": "リマインダーなし", "notes": "ノートはまだありません",
           "board": "投稿はまだありません"},
}


def test_empty_states_are_worded_alike_in_every_app_and_language(bridge, page):
    page.open()
    for language, apps in EMPTY.items():
        Select(page.find("#language")).select_by_value(language)
        for app, words in apps.items():
            page.tab(app)
            page.wait_until(lambda: words in page.find(f"section[data-app='{app}']").text, message=f"{language} {app}")
        page.tab("notes")
        assert not page.find("#notes-hint").is_displayed(), "no reorder hint under an empty list"
        page.screenshot(f"empty-notes-{language}")


def test_an_untitled_photo_is_named_by_its_place(bridge, page):
    png = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=="
    with Satchel(db=bridge.db) as s:
        s.photos.add(image={"data": png}, caption="Sea")
        s.photos.add(image={"data": base64.b64encode(base64.b64decode(png) + b"\0").decode()})
    page.open("notes")
    page.click("section[data-app='notes'] .segmented button:nth-child(2)")
    page.wait_until(lambda: len(page.find_all("section[data-app='notes'] li.photo")) == 2)
    names = [b.get_attribute("aria-label") for b in page.find_all("section[data-app='notes'] .photo-open")]
    assert names == ["Sea", "Photo 2"]
