"""Fixtures: the bridge as its users start it (``python -m satchel_web``), a headless Chromium driven by
Selenium (Debian's ``chromium`` and ``chromedriver``; nothing is downloaded), and a folder for screenshots
that the run names (``$SATCHEL_SCREENSHOTS``, else ``screenshots/`` in pytest's temporary folder)."""
from __future__ import annotations

import asyncio
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

URL_LINE = re.compile(r"(http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]+))")


class Bridge:
    """A running bridge: ``url`` (with the token), ``origin``, ``port``, ``token``, ``process``, ``db``."""

    def __init__(self, args: list[str], db: pathlib.Path | None) -> None:
        self.db = db
        self.process = subprocess.Popen(
            [sys.executable, "-m", "satchel_web", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.stderr: list[str] = []
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()
        deadline = time.monotonic() + 60
        line = ""
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if URL_LINE.search(line) or not line:
                break
        match = URL_LINE.search(line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"the bridge printed no URL: {line!r} {''.join(self.stderr)}")
        self.url, port, self.token = match.groups()
        self.port = int(port)
        self.origin = f"http://127.0.0.1:{self.port}"

    def satchel_pids(self) -> list[int]:
        """The satchel processes this bridge runs."""
        out = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True).stdout
        return [int(pid) for pid in out.split()]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def bridge_factory(tmp_path):
    """``bridge_factory(*satchel_flags, db=True)`` starts a bridge; ``db=True`` gives it a fresh database
    file (``bridge.db``), ``db=None`` leaves the flags to say (``--memory``)."""
    started: list[Bridge] = []

    def start(*args: str, db: bool | None = True) -> Bridge:
        path = tmp_path / f"web-{len(started)}.sqlite" if db else None
        bridge = Bridge([*(["--db", str(path)] if path else []), *args], path)
        started.append(bridge)
        return bridge

    yield start
    for bridge in started:
        bridge.stop()


@pytest.fixture
def bridge(bridge_factory):
    """A bridge on a fresh database file."""
    return bridge_factory()


def chromium_driver(width: int = 1280, height: int = 900, downloads: pathlib.Path | None = None) -> webdriver.Chrome:
    """A headless Chromium; ``downloads``: the folder its downloads go to, without asking."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 f"--window-size={width},{height}", "--lang=en-US", "--disable-extensions",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if downloads is not None:
        options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                                  "download.prompt_for_download": False})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    if downloads is not None:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    resize(driver, width, height)
    return driver


def resize(driver: webdriver.Chrome, width: int, height: int) -> None:
    """The page's viewport at exactly ``width`` x ``height`` CSS pixels (a window is never narrower than
    about 500 px, so a phone's 390 is emulated, as the browser's device mode does)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600,
    })


class Page:
    """A browser window on the app, with the small helpers every scenario uses."""

    def __init__(self, driver: webdriver.Chrome, bridge: Bridge, shots: pathlib.Path) -> None:
        self.driver = driver
        self.bridge = bridge
        self.shots = shots

    def open(self, tab: str | None = None) -> Page:
        self.driver.get(self.bridge.url)
        self.wait_for("body[data-state='ready']")
        if tab:
            self.tab(tab)
        return self

    def tab(self, name: str) -> None:
        self.click(f"[role='tab'][data-app='{name}']")
        self.wait_for(f"section[data-app='{name}']:not([hidden])")

    def find(self, css: str):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css: str):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def wait_for(self, css: str, timeout: float = 10):
        return WebDriverWait(self.driver, timeout).until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))

    def wait_gone(self, css: str, timeout: float = 10) -> None:
        WebDriverWait(self.driver, timeout).until(EC.invisibility_of_element_located((By.CSS_SELECTOR, css)))

    def wait_until(self, condition, timeout: float = 10, message: str = ""):
        """Waits for ``condition()`` to be true; elements replaced by a re-render meanwhile are read again."""
        wait = WebDriverWait(self.driver, timeout, ignored_exceptions=(StaleElementReferenceException,))
        return wait.until(lambda _: condition(), message)

    def click(self, css: str) -> None:
        self.wait_for(css)
        WebDriverWait(self.driver, 10).until(EC.element_to_be_clickable((By.CSS_SELECTOR, css))).click()

    def texts(self, css: str) -> list[str]:
        return [element.text for element in self.find_all(css)]

    def resize(self, width: int, height: int = 844) -> None:
        resize(self.driver, width, height)

    def screenshot(self, name: str) -> pathlib.Path:
        path = self.shots / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path

    def console_errors(self) -> list[str]:
        return [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]


@pytest.fixture(scope="session")
def shots(tmp_path_factory) -> pathlib.Path:
    folder = os.environ.get("SATCHEL_SCREENSHOTS")
    path = pathlib.Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def page_factory(bridge, shots):
    """``page_factory(width=1280, on=bridge, downloads=None)``: more browser windows (each its own page and
    satchel; ``downloads``: the folder where its downloads go)."""
    drivers: list[webdriver.Chrome] = []

    def open_page(width: int = 1280, height: int = 900, on: Bridge | None = None,
                  downloads: pathlib.Path | None = None) -> Page:
        driver = chromium_driver(width, height, downloads)
        drivers.append(driver)
        return Page(driver, on or bridge, shots)

    yield open_page
    for driver in drivers:
        driver.quit()


@pytest.fixture
def page(page_factory) -> Page:
    """One browser window (1280 px wide) on the bridge, not yet opened."""
    return page_factory()


@pytest.fixture
def run():
    """``run(coroutine)``: runs it on a fresh event loop."""
    return asyncio.run


def same_origin(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
