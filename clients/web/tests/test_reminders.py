"""Reminders in a real Chromium, as the original app's flows go: "No Reminders", a click on the empty screen
adds one with the cursor in its title, Return inserts the next, Return on an empty one or Escape makes it
disappear, the memo shows only with text or while editing, the circle completes (dimmed), rows move by
keyboard and by drag, delete. What the page shows is checked against what another process reads from the
database."""
from __future__ import annotations

import os
import signal

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser import drag
from satchel_client import Satchel

APP = "section[data-app='reminders']"
ROW = f"{APP} li.rem-row"


@pytest.fixture
def store(bridge):
    """Another process on the page's database."""
    with Satchel(db=bridge.db) as satchel:
        yield satchel


def stored(store) -> list[tuple]:
    return [(item["title"], item["memo"], item["completed"]) for item in store.reminders.list(limit=500)["items"]]


def titles(page) -> list[str]:
    return page.driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((input) => input.value)", f"{ROW} input.rem-title")


def focused_row(page) -> str | None:
    """The id of the reminder whose title holds the focus (None when the focus is not in a title)."""
    return page.driver.execute_script(
        "const e = document.activeElement;"
        "return e && e.matches('input.rem-title') ? e.closest('li.rem-row').dataset.id : null;")


def row(page, title: str):
    for element in page.find_all(ROW):
        if element.find_element(By.CSS_SELECTOR, "input.rem-title").get_property("value") == title:
            return element
    raise AssertionError(f"no row titled {title!r} in {titles(page)}")


def part(element, css: str):
    return element.find_element(By.CSS_SELECTOR, css)


def alt(page, key: str) -> None:
    ActionChains(page.driver).key_down(Keys.ALT).send_keys(key).key_up(Keys.ALT).perform()


def test_reminders_are_added_typed_submitted_dismissed_completed_moved_and_deleted(page, store):
    page.open("reminders")
    empty = page.wait_for(f"{APP} .rem-empty")
    assert empty.text == "No Reminders"
    assert page.find_all(ROW) == []
    page.screenshot("reminders-empty-1280")

    # A click on the empty screen adds a reminder and puts the cursor in its title.
    empty.click()
    page.wait_until(lambda: focused_row(page), message="the new reminder's title has the focus")
    page.wait_gone(f"{APP} .rem-empty")
    first = focused_row(page)

    # Return inserts the next one and the cursor follows it.
    page.driver.switch_to.active_element.send_keys("Milk", Keys.RETURN)
    page.wait_until(lambda: focused_row(page) not in (None, first), message="Return moves to a new reminder")
    second = focused_row(page)
    page.driver.switch_to.active_element.send_keys("Bread", Keys.RETURN)
    page.wait_until(lambda: focused_row(page) not in (None, first, second))
    assert titles(page) == ["Milk", "Bread", ""]

    # Return on the empty one: it disappears.
    page.driver.switch_to.active_element.send_keys(Keys.RETURN)
    page.wait_until(lambda: titles(page) == ["Milk", "Bread"], message="the empty reminder disappears")
    page.wait_until(lambda: stored(store) == [("Milk", None, False), ("Bread", None, False)])

    # A click below the last row adds one at the end; Escape with an empty title makes it disappear.
    page.click(f"{APP} .rem-tail")
    page.wait_until(lambda: titles(page) == ["Milk", "Bread", ""] and focused_row(page) == page.find_all(ROW)[2].get_attribute("data-id"))
    page.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    page.wait_until(lambda: titles(page) == ["Milk", "Bread"], message="Escape ends editing and the empty one goes")
    page.wait_until(lambda: stored(store) == [("Milk", None, False), ("Bread", None, False)])

    # The memo line shows while a reminder is edited, and afterwards only when it has text.
    milk, bread = row(page, "Milk"), row(page, "Bread")
    assert not part(milk, "input.rem-memo").is_displayed()
    assert not part(bread, "input.rem-memo").is_displayed()
    part(milk, "input.rem-title").click()
    page.wait_until(lambda: part(milk, "input.rem-memo").is_displayed(), message="editing shows the memo")
    page.screenshot("reminders-editing-1280")
    assert not part(bread, "input.rem-memo").is_displayed()
    part(milk, "input.rem-memo").click()
    page.driver.switch_to.active_element.send_keys("2 litres", Keys.ESCAPE)
    page.wait_until(lambda: stored(store) == [("Milk", "2 litres", False), ("Bread", None, False)])
    page.wait_until(lambda: "editing" not in milk.get_attribute("class"))
    assert part(milk, "input.rem-memo").is_displayed()
    part(bread, "input.rem-title").click()
    page.wait_until(lambda: part(bread, "input.rem-memo").is_displayed())
    part(bread, "input.rem-title").send_keys(Keys.ESCAPE)
    page.wait_until(lambda: not part(bread, "input.rem-memo").is_displayed(), message="an empty memo hides again")
    assert part(milk, "input.rem-memo").is_displayed()

    # The circle completes: the button says so and the title is dimmed.
    check = part(bread, "button.rem-check")
    assert check.get_attribute("aria-pressed") == "false"
    assert check.accessible_name == "Completed: Bread"
    check.click()
    page.wait_until(lambda: check.get_attribute("aria-pressed") == "true")
    page.wait_until(lambda: stored(store) == [("Milk", "2 litres", False), ("Bread", None, True)])
    dimmed = part(bread, "input.rem-title").value_of_css_property("color")
    assert dimmed != part(milk, "input.rem-title").value_of_css_property("color")
    page.screenshot("reminders-1280")
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    page.screenshot("reminders-dark-1280")
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    # The keyboard moves a row: Alt+ArrowUp on its handle, Alt+ArrowDown in its title; the focus stays with it.
    handle = part(bread, "button.rem-handle")
    assert handle.accessible_name.startswith("Move “Bread”")
    page.driver.execute_script("arguments[0].focus()", handle)
    alt(page, Keys.ARROW_UP)
    page.wait_until(lambda: titles(page) == ["Bread", "Milk"])
    page.wait_until(lambda: [item[0] for item in stored(store)] == ["Bread", "Milk"])
    assert page.driver.switch_to.active_element == handle
    part(bread, "input.rem-title").click()
    alt(page, Keys.ARROW_DOWN)
    page.wait_until(lambda: titles(page) == ["Milk", "Bread"])
    page.wait_until(lambda: [item[0] for item in stored(store)] == ["Milk", "Bread"])
    assert focused_row(page) == bread.get_attribute("data-id")
    part(bread, "input.rem-title").send_keys(Keys.ESCAPE)

    # Drag and drop: Bread's handle dragged onto the upper half of Milk puts Bread first.
    drag(page, part(bread, "button.rem-handle"), milk, above=True)
    page.wait_until(lambda: titles(page) == ["Bread", "Milk"], message="the drop moves the row")
    page.wait_until(lambda: [item[0] for item in stored(store)] == ["Bread", "Milk"])

    # A change made by another process shows up without reloading.
    store.reminders.add(title="Eggs")
    store.reminders.endEditing()
    page.wait_until(lambda: titles(page) == ["Bread", "Milk", "Eggs"], message="another process's reminder appears")

    page.resize(390, 844)
    page.screenshot("reminders-390")
    assert page.driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), "nothing overflows at 390 px"
    page.resize(1280, 900)

    # Delete: the row and the stored reminder go; the focus lands on the next row.
    remove = part(milk, "button.rem-delete")
    assert remove.accessible_name == "Delete “Milk”"
    remove.click()
    page.wait_until(lambda: titles(page) == ["Bread", "Eggs"])
    page.wait_until(lambda: [item[0] for item in stored(store)] == ["Bread", "Eggs"])
    assert page.driver.switch_to.active_element == part(row(page, "Eggs"), "button.rem-check")

    assert page.console_errors() == []


def test_two_windows_each_edit_their_own_reminder(page_factory, store):
    one = page_factory().open("reminders")
    two = page_factory().open("reminders")

    one.click(f"{APP} .rem-empty")
    one.wait_until(lambda: focused_row(one))
    # The second window sees the first one's new (still empty) reminder, and adds its own below it.
    two.wait_until(lambda: len(two.find_all(ROW)) == 1)
    two.click(f"{APP} .rem-tail")
    two.wait_until(lambda: focused_row(two) and len(two.find_all(ROW)) == 2)

    # Typing in turns: neither window ends the other's editing nor overwrites the field being typed in.
    one.driver.switch_to.active_element.send_keys("Eg")
    two.driver.switch_to.active_element.send_keys("Butt")
    one.wait_until(lambda: titles(one) == ["Eg", "Butt"], message="the first window sees the second's typing")
    one.driver.switch_to.active_element.send_keys("gs")
    two.driver.switch_to.active_element.send_keys("er")
    one.wait_until(lambda: [item[0] for item in stored(store)] == ["Eggs", "Butter"])
    assert one.driver.switch_to.active_element.get_property("value") == "Eggs"
    assert two.driver.switch_to.active_element.get_property("value") == "Butter"

    one.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    two.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    one.wait_until(lambda: titles(one) == ["Eggs", "Butter"])
    two.wait_until(lambda: titles(two) == ["Eggs", "Butter"])
    assert stored(store) == [("Eggs", None, False), ("Butter", None, False)]
    assert one.console_errors() == []
    assert two.console_errors() == []


def test_a_refused_title_stays_in_its_row_with_the_error(page, store):
    page.open("reminders")
    page.click(f"{APP} .rem-empty")
    page.wait_until(lambda: focused_row(page))
    title = page.driver.switch_to.active_element
    title.send_keys("x" * 1001)
    error = page.wait_for(f"{ROW} p.error")
    assert error.text == "The title is too long: at most 1000 characters"
    assert title.get_property("value") == "x" * 1001

    # Leaving the field keeps the row and what was typed (the server never got it).
    title.send_keys(Keys.ESCAPE)
    page.wait_until(lambda: focused_row(page) is None)
    assert titles(page) == ["x" * 1001]
    assert error.is_displayed()

    # Once the title is one the server takes, it is saved and the error goes.
    title.click()
    title.send_keys(Keys.BACKSPACE)
    page.wait_gone(f"{ROW} p.error")
    page.wait_until(lambda: stored(store) == [("x" * 1000, None, False)])
    title.send_keys(Keys.ESCAPE)
    page.wait_until(lambda: "editing" not in page.find(ROW).get_attribute("class"))
    assert stored(store) == [("x" * 1000, None, False)]
    assert page.console_errors() == []


def test_what_is_typed_while_satchel_restarts_is_kept(bridge, page, store):
    page.open("reminders")
    page.click(f"{APP} .rem-empty")
    page.wait_until(lambda: focused_row(page))
    page.driver.switch_to.active_element.send_keys("Milk", Keys.RETURN)
    page.wait_until(lambda: len(titles(page)) == 2 and focused_row(page) == page.find_all(ROW)[1].get_attribute("data-id"))
    page.wait_until(lambda: [item[0] for item in stored(store)] == ["Milk", ""])

    # The satchel dies while the new reminder is still empty on its side; the user goes on typing.
    (pid,) = bridge.satchel_pids()
    os.kill(pid, signal.SIGKILL)
    ActionChains(page.driver).send_keys("Eggs").perform()  # to whatever has the focus, as a keyboard does
    page.wait_until(lambda: page.driver.execute_script("return document.body.dataset.connection") == "ready"
                    and bridge.satchel_pids() not in ([], [pid]), timeout=15)

    # The new satchel swept the empty reminder; the page adds what was typed again, in its place.
    page.wait_until(lambda: stored(store) == [("Milk", None, False), ("Eggs", None, False)], timeout=15)
    assert titles(page) == ["Milk", "Eggs"]
    page.wait_gone(f"{ROW} p.error")
    assert page.driver.switch_to.active_element.get_property("value") == "Eggs"
    page.driver.switch_to.active_element.send_keys(" and ham", Keys.ESCAPE)
    page.wait_until(lambda: stored(store) == [("Milk", None, False), ("Eggs and ham", None, False)])
    assert page.console_errors() == []


def test_a_reminder_whose_title_is_cleared_goes_with_its_notes_and_undo_brings_it_back(page, store):
    """The server removes a reminder left with a blank title, notes and all (the original's rule); the page says
    so at once, and Undo adds it back where it was, with its title and notes."""
    store.reminders.add(title="Milk", memo="2 litres")
    store.reminders.add(title="Eggs")
    store.reminders.endEditing()
    page.open("reminders")
    page.wait_until(lambda: titles(page) == ["Milk", "Eggs"])
    title = part(row(page, "Milk"), "input.rem-title")
    title.click()
    title.send_keys(Keys.CONTROL, "a")
    title.send_keys(Keys.BACKSPACE, Keys.ESCAPE)
    page.wait_until(lambda: titles(page) == ["Eggs"])
    page.wait_until(lambda: stored(store) == [("Eggs", None, False)])
    undo = page.wait_for(f"{APP} .rem-undo")
    assert undo.text.startswith("“Milk” deleted")
    page.screenshot("reminders-undo-1280")
    button = part(undo, "button")
    assert button.text == "Undo"
    assert page.driver.switch_to.active_element == button, "the focus Milk's row had is on Undo, on no other reminder"
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    page.resize(390, 844)
    page.screenshot("reminders-undo-390-dark")
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    page.resize(1280, 900)
    button.send_keys(Keys.ENTER)
    page.wait_until(lambda: stored(store) == [("Milk", "2 litres", False), ("Eggs", None, False)])
    page.wait_until(lambda: titles(page) == ["Milk", "Eggs"])
    page.wait_gone(f"{APP} .rem-undo")
    assert focused_row(page) == row(page, "Milk").get_attribute("data-id"), "back in its title"
    page.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    page.wait_until(lambda: "editing" not in row(page, "Milk").get_attribute("class"))
    assert stored(store) == [("Milk", "2 litres", False), ("Eggs", None, False)]
    assert page.console_errors() == []


def shown_titles(page) -> list[str]:
    """The titles of the rows on screen (not hidden)."""
    return page.driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter((li) => li.offsetParent !== null)"
        ".map((li) => li.querySelector('input.rem-title').value)", ROW)


def test_completed_reminders_hide_behind_show_completed_as_in_ios(page, store):
    """As iOS's list: completed reminders are hidden until Show Completed. One completed here stays in view
    while the focus is in its row (Space again takes it back), and goes once the person leaves it; the focus is
    never handed to another reminder. Alt+arrows move a row past the hidden ones, by the rows on screen."""
    ids = {title: store.reminders.add(title=title)["reminder"]["id"] for title in ("Milk", "Bread", "Eggs")}
    store.reminders.endEditing()
    store.reminders.setCompleted(id=ids["Eggs"], completed=True)
    page.open("reminders")
    page.wait_until(lambda: shown_titles(page) == ["Milk", "Bread"])
    toggle = page.find(f"{APP} .rem-show-completed")
    assert toggle.text == "Show Completed"
    toggle.click()
    page.wait_until(lambda: shown_titles(page) == ["Milk", "Bread", "Eggs"])
    assert toggle.text == "Hide Completed"
    page.screenshot("reminders-completed-shown-1280")
    toggle.click()
    page.wait_until(lambda: shown_titles(page) == ["Milk", "Bread"])

    # Space on Bread's circle completes it; the row stays while the focus is there, Space again takes it back.
    check = part(row(page, "Bread"), "button.rem-check")
    page.driver.execute_script("arguments[0].focus()", check)
    check.send_keys(Keys.SPACE)
    page.wait_until(lambda: stored(store)[1] == ("Bread", None, True))
    assert shown_titles(page) == ["Milk", "Bread"] and page.driver.switch_to.active_element == check
    check.send_keys(Keys.SPACE)
    page.wait_until(lambda: stored(store)[1] == ("Bread", None, False))
    check.send_keys(Keys.SPACE)
    page.wait_until(lambda: stored(store)[1] == ("Bread", None, True))
    ActionChains(page.driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()  # to Milk's handle
    page.wait_until(lambda: shown_titles(page) == ["Milk"], message="left, the completed row goes")
    assert page.driver.switch_to.active_element == part(row(page, "Milk"), "button.rem-handle")
    assert stored(store) == [("Milk", None, False), ("Bread", None, True), ("Eggs", None, True)]

    # Moving Milk down by the keyboard passes the hidden rows: it lands after the next row on screen.
    store.reminders.add(title="Tea")
    store.reminders.endEditing()
    page.wait_until(lambda: shown_titles(page) == ["Milk", "Tea"])
    alt(page, Keys.ARROW_DOWN)
    page.wait_until(lambda: [item[0] for item in stored(store)] == ["Bread", "Eggs", "Tea", "Milk"])
    assert shown_titles(page) == ["Tea", "Milk"]

    # Completed elsewhere while the focus is in its row, a reminder stays until the person leaves it.
    store.reminders.setCompleted(id=ids["Milk"], completed=True)
    page.wait_until(lambda: part(row(page, "Milk"), "button.rem-check").get_attribute("aria-pressed") == "true")
    assert shown_titles(page) == ["Tea", "Milk"]
    page.driver.execute_script("document.activeElement.blur()")

    # With every reminder completed and hidden, the screen reads "No Reminders", as iOS's; the choice is kept.
    store.reminders.delete(id=store.reminders.list()["items"][2]["id"])  # Tea
    page.wait_until(lambda: shown_titles(page) == [])
    assert page.wait_for(f"{APP} .rem-empty").text == "No Reminders"
    page.resize(390, 844)
    page.screenshot("reminders-completed-hidden-390")
    for language, words in (("ru", ("Нет напоминаний", "Показать выполненные")), ("ja", ("リマインダーなし", "実行済みを表示"))):
        Select(page.find("#language")).select_by_value(language)
        page.wait_until(lambda: (page.find(f"{APP} .rem-empty").text, page.find(f"{APP} .rem-show-completed").text) == words)
        page.screenshot(f"reminders-completed-hidden-390-{language}")
    Select(page.find("#language")).select_by_value("en")
    page.resize(1280, 900)
    page.open("reminders")
    page.wait_for(f"{APP} .rem-empty")
    page.click(f"{APP} .rem-show-completed")
    page.wait_until(lambda: shown_titles(page) == ["Bread", "Eggs", "Milk"])
    page.open("reminders")
    page.wait_until(lambda: shown_titles(page) == ["Bread", "Eggs", "Milk"], message="Show Completed is remembered")
    assert page.console_errors() == []
