"""The board in a real Chromium, as CLReddit's flows go: the twenty fruit posts with their votes, the five sorts
in the order the server gives, voting up and down (one vote per browser), a new post with its counter to 255
and the server's error for an empty title, delete after confirming. What the page shows is checked against
what another process reads from the database."""
from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from satchel_client import Satchel

APP = "section[data-app='board']"
POST = f"{APP} li.board-post"


@pytest.fixture
def demo(bridge_factory):
    return bridge_factory("--demo")


@pytest.fixture
def store(demo):
    """Another process on the page's database."""
    with Satchel(db=demo.db) as satchel:
        yield satchel


def shown(page) -> list[str]:
    return page.driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((post) => post.dataset.id)", POST)


def server_order(store, sort: str) -> list[str]:
    return [post["id"] for post in store.board.list(sort=sort, limit=500)["items"]]


def post(page, id: str):
    return page.find(f"{POST}[data-id='{id}']")


def part(element, css: str):
    return element.find_element(By.CSS_SELECTOR, css)


def count(page, id: str) -> str:
    return part(post(page, id), ".board-count").text.split()[0]


def test_posts_are_sorted_voted_created_and_deleted(demo, page_factory, store):
    page = page_factory(on=demo).open("board")
    page.wait_until(lambda: len(shown(page)) == 20, message="the twenty demo posts")
    sort = Select(page.find(f"{APP} select.board-sort"))
    assert sort.first_selected_option.get_attribute("value") == "votes"
    assert page.find(f"{APP} select.board-sort").accessible_name == "Sort"
    assert shown(page) == server_order(store, "votes")
    page.screenshot("board-1280")
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    page.screenshot("board-dark-1280")
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    # Every sort shows the order the server gives, and each differs from the one before it.
    previous = shown(page)
    for name in ("title", "new", "hot", "best", "votes"):
        sort.select_by_value(name)
        expected = server_order(store, name)
        page.wait_until(lambda: shown(page) == expected, message=f"the {name} order")
        assert expected != previous, f"{name} orders the demo posts as the sort before it did"
        previous = expected

    # Votes: up, then down (the vote switches), then down again (withdrawn); one vote per browser.
    sort.select_by_value("title")
    page.wait_until(lambda: shown(page) == server_order(store, "title"))
    target = shown(page)[0]
    voter = page.driver.execute_script("return localStorage.getItem('satchel.voter')")
    before = store.board.get(id=target)
    title = before["title"]
    up, down = part(post(page, target), "button.board-up"), part(post(page, target), "button.board-down")
    assert up.accessible_name == f"Upvote “{title}”"
    assert down.accessible_name == f"Downvote “{title}”"
    assert (up.get_attribute("aria-pressed"), down.get_attribute("aria-pressed")) == ("false", "false")
    assert count(page, target) == str(before["votes"])

    up.click()
    page.wait_until(lambda: count(page, target) == str(before["votes"] + 1))
    assert (up.get_attribute("aria-pressed"), down.get_attribute("aria-pressed")) == ("true", "false")
    page.screenshot("board-voted-1280")
    voted = store.board.get(id=target, voter=voter)
    assert (voted["votes"], voted["ups"], voted["myVote"]) == (before["votes"] + 1, before["ups"] + 1, "up")

    down.click()
    page.wait_until(lambda: count(page, target) == str(before["votes"] - 1))
    assert (up.get_attribute("aria-pressed"), down.get_attribute("aria-pressed")) == ("false", "true")
    voted = store.board.get(id=target, voter=voter)
    assert (voted["ups"], voted["downs"], voted["myVote"]) == (before["ups"], before["downs"] + 1, "down")

    # The vote is this browser's: after a reload the arrow is still pressed.
    page.driver.refresh()
    page.wait_for("body[data-state='ready']")
    page.wait_until(lambda: post(page, target).find_element(By.CSS_SELECTOR, "button.board-down").get_attribute("aria-pressed") == "true")
    down = part(post(page, target), "button.board-down")
    down.click()
    page.wait_until(lambda: count(page, target) == str(before["votes"]))
    assert down.get_attribute("aria-pressed") == "false"
    assert store.board.get(id=target, voter=voter)["myVote"] is None

    # A vote from another process shows up without reloading.
    store.board.vote(id=target, direction="up")
    page.wait_until(lambda: count(page, target) == str(before["votes"] + 1), message="another process's vote appears")

    # Create: "New Post" opens the sheet; the counter follows the text; an empty title is refused by the server.
    page.click(f"{APP} button.board-new")
    field = page.wait_for("dialog input.board-new-title")
    assert page.driver.switch_to.active_element == field
    assert page.find("dialog .board-counter").text == "0/255"
    page.click("dialog button.board-done")
    error = page.wait_for("dialog p.error")
    assert error.text == "The title cannot be empty"
    field.send_keys("Kiwi smoothie")
    assert page.find("dialog .board-counter").text == "13/255"
    assert not error.is_displayed(), "typing answers the error"
    page.screenshot("board-new-1280")
    field.send_keys("\n")
    page.wait_gone("dialog")
    page.wait_until(lambda: any(item["title"] == "Kiwi smoothie" for item in store.board.list(limit=500)["items"]))
    (kiwi,) = [item["id"] for item in store.board.list(limit=500)["items"] if item["title"] == "Kiwi smoothie"]
    page.wait_until(lambda: shown(page) == server_order(store, "title"))
    assert part(post(page, kiwi), ".board-title").text == "Kiwi smoothie"

    page.resize(390, 844)
    page.driver.execute_script("scrollTo(0, 0)")
    page.screenshot("board-390")
    assert page.driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), "nothing overflows at 390 px"
    page.resize(1280, 900)

    # Delete asks first: Cancel keeps the post, Delete removes it.
    remove = part(post(page, kiwi), "button.board-delete")
    assert remove.accessible_name == "Delete “Kiwi smoothie”"
    remove.click()
    page.wait_for("dialog.sheet")
    assert "Delete “Kiwi smoothie”?" in page.find("dialog.sheet").text
    page.click("dialog.sheet button[value='no']")
    page.wait_gone("dialog.sheet")
    assert kiwi in shown(page)
    remove.click()
    page.click("dialog.sheet button[value='yes']")
    page.wait_until(lambda: kiwi not in shown(page))
    assert kiwi not in server_order(store, "title")
    assert len(shown(page)) == 20

    assert page.console_errors() == []


def test_the_title_stops_taking_input_at_255_characters(bridge, page):
    page.open("board")
    page.click(f"{APP} button.board-new")
    field = page.wait_for("dialog input.board-new-title")
    field.send_keys("a" * 250 + "😀" * 3)
    field.send_keys("bcdef")  # the 254th and 255th fit; the rest is not taken
    assert page.find("dialog .board-counter").text == "255/255"
    value = field.get_attribute("value")
    assert value == "a" * 250 + "😀" * 3 + "bc"
    field.send_keys("\ue012" * 10 + "X")  # in the middle, with the field full: not taken either
    assert field.get_attribute("value") == value
    field.send_keys("\ue003")  # Backspace makes room (an "a" before the caret)
    field.send_keys("Z")
    assert page.find("dialog .board-counter").text == "255/255"
    field.send_keys("\n")
    page.wait_gone("dialog")
    with Satchel(db=bridge.db) as s:
        (created,) = s.board.list()["items"]
    assert len(created["title"]) == 255 and created["title"].endswith("aZaaaaa😀😀😀bc")


def test_after_a_vote_the_posts_stay_put_until_the_new_order_is_asked_for(demo, page_factory, store):
    page = page_factory(on=demo).open("board")
    Select(page.find(f"{APP} select.board-sort")).select_by_value("votes")
    page.wait_until(lambda: shown(page) == server_order(store, "votes"))
    before = shown(page)
    target = before[3]
    for _ in range(2):  # enough to pass the posts above it, from another process as well as here
        store.board.vote(id=target, direction="up")
    part(post(page, target), "button.board-up").click()
    page.wait_until(lambda: part(post(page, target), ".board-count").text.split()[0] != "", message="counted")
    page.wait_until(lambda: page.find(f"{APP} .board-resort").is_displayed(), message="the new order offered")
    assert shown(page) == before, "nothing moved under the pointer"
    assert server_order(store, "votes").index(target) < 3
    page.click(f"{APP} .board-resort")
    page.wait_until(lambda: shown(page) == server_order(store, "votes"))
    assert not page.find(f"{APP} .board-resort").is_displayed()
