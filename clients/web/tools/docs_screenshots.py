#!/usr/bin/env python3
"""Writes the README's screenshots (docs/*.png): each app on a demo database, as a phone shows it (390 px).

usage: SATCHEL_BINARY=.build/release/satchel .venv/bin/python clients/web/tools/docs_screenshots.py
"""
from __future__ import annotations

import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from conftest import Bridge, Page, chromium_driver  # noqa: E402


def main() -> None:
    out = HERE.parent / "docs"
    out.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        db = pathlib.Path(folder) / "demo.sqlite"
        bridge = Bridge(["--db", str(db), "--demo"], db)
        driver = chromium_driver(390, 700)
        try:
            page = Page(driver, bridge, out).open()
            for app in ("moments", "reminders", "messages", "notes", "board"):
                page.tab(app)
                page.wait_until(lambda: not page.find_all("[aria-busy='true']"))
                driver.execute_script("window.scrollTo(0, 0)")
                page.screenshot(app)
                print(f"wrote {out / (app + '.png')}")
        finally:
            driver.quit()
            bridge.stop()


if __name__ == "__main__":
    main()
