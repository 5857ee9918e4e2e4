#!/usr/bin/env python3
"""Photos at phone size in a real headless Chromium: Moments with 20 posts of two 12-megapixel JPEGs each,
and ENotes' photo grid with 200 of them. For each: the time from clicking the tab until every photo on the
first screen is drawn (a first visit with an empty cache, and again), with the machine idle and busy
(one process spinning per core), and Chromium's memory after scrolling through all of them.

usage: bench_moments.py [--runs N] [--binary PATH] [--grid N] [--shots DIR]
The photos are made here with Pillow (4032x3024 JPEGs of ~5 MB, each different) and added to the database
through satchel-client before the bridge starts.
"""
from __future__ import annotations

import argparse
import io
import multiprocessing
import os
import pathlib
import statistics
import sys
import tempfile

from PIL import Image, ImageDraw

from satchel_client import Satchel, find_binary

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))
from conftest import Bridge, Page, chromium_driver  # noqa: E402  (the suite's own bridge and browser)

SIZE = (4032, 3024)

# Clicks each of `clicks` in turn as soon as it shows (the tab, then perhaps a mode inside it), then waits
# until the photos inside the viewport are loaded, decoded and painted (a frame after their decode), and
# answers the milliseconds since the first click.
FIRST_SCREEN = """
const [clicks, images, minimum, done] = arguments;
const start = performance.now();
const pending = [...clicks];
function onScreen(img) {
  const box = img.getBoundingClientRect();
  return box.width > 0 && box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth;
}
function check() {
  while (pending.length) {
    const target = document.querySelector(pending[0]);
    if (!target || target.offsetParent === null) return requestAnimationFrame(check);
    target.click();
    pending.shift();
  }
  const visible = [...document.querySelectorAll(images)].filter(onScreen);
  if (visible.length < minimum || !visible.every((img) => img.complete && img.naturalWidth > 0)) {
    return requestAnimationFrame(check);
  }
  Promise.all(visible.map((img) => img.decode())).then(
    () => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - start))),
    () => requestAnimationFrame(check));
}
check();
"""

# Brings each photo into view in turn, a person scrolling, and waits for it to be drawn.
SCROLL_THROUGH = """
const [images, more, done] = arguments;
(async () => {
  for (let seen = 0; ; ) {
    const all = [...document.querySelectorAll(images)];
    for (; seen < all.length; seen++) {
      all[seen].scrollIntoView({ block: 'center' });
      await new Promise((resolve) => requestAnimationFrame(resolve));
      while (!all[seen].complete) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const button = more && document.querySelector(more);
    if (!button || button.hidden || button.offsetParent === null) break;
    button.click();
    const until = performance.now() + 10000;
    while (document.querySelectorAll(images).length === seen && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (document.querySelectorAll(images).length === seen) break;
  }
  done(document.querySelectorAll(images).length);
})();
"""


def phone_photos(count: int) -> list[bytes]:
    """``count`` different 12 MP JPEGs with detail everywhere (noise over gradients), ~5 MB each."""
    noise = Image.effect_noise(SIZE, 32)
    gradient = Image.linear_gradient("L").resize(SIZE)
    radial = Image.radial_gradient("L").resize(SIZE)
    base = Image.merge("RGB", (Image.blend(noise, gradient, 0.4), Image.blend(gradient, noise, 0.3),
                               Image.blend(radial, noise, 0.3)))
    photos = []
    for index in range(count):
        photo = base.copy()
        ImageDraw.Draw(photo).rectangle((40 + index * 9 % 3000, 40, 400 + index * 9 % 3000, 300),
                                        fill=(index * 37 % 256, index * 91 % 256, 200))
        out = io.BytesIO()
        photo.save(out, "JPEG", quality=92)
        photos.append(out.getvalue())
    return photos


def chromium_memory(driver) -> tuple[float, float]:
    """(PSS, RSS) in MB summed over the browser's processes (every descendant of its chromedriver)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parent = int(open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    pss = rss = 0
    stack = list(children.get(driver.service.process.pid, []))
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        try:
            for line in open(f"/proc/{pid}/smaps_rollup"):
                if line.startswith("Pss:"):
                    pss += int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss += int(line.split()[1])
        except OSError:
            continue
    return pss / 1024, rss / 1024


def spin(stop) -> None:
    while not stop.is_set():
        pass


def measure(name: str, bridge: Bridge, shots: pathlib.Path, clicks: list[str], images: str, minimum: int, runs: int,
            more: str | None = None) -> dict[str, list[float]]:
    """First and second visits (``clicks`` from another tab), idle and busy, each first visit in a fresh
    Chromium (an empty cache); memory after scrolling through everything, in the last idle one."""
    results: dict[str, list[float]] = {"first": [], "again": [], "first busy": [], "again busy": []}
    memory = (0.0, 0.0)
    for busy in (False, True):
        stop = multiprocessing.Event()
        spinners = [multiprocessing.Process(target=spin, args=(stop,)) for _ in range(os.cpu_count() or 1)] if busy else []
        for spinner in spinners:
            spinner.start()
        try:
            for _ in range(runs):
                driver = chromium_driver(1280, 900)
                try:
                    page = Page(driver, bridge, shots)
                    driver.get(bridge.url + "#reminders")  # opened on another tab: nothing of the photos loads
                    page.wait_for("body[data-state='ready']")
                    suffix = " busy" if busy else ""
                    for visit in ("first", "again"):
                        if visit == "again":
                            page.tab("reminders")
                        results[visit + suffix].append(driver.execute_async_script(FIRST_SCREEN, clicks, images, minimum))
                    if not busy:
                        page.screenshot(f"bench-{name}-first-screen")
                        results["memory before"] = list(chromium_memory(driver))
                        seen = driver.execute_async_script(SCROLL_THROUGH, images, more)
                        memory = chromium_memory(driver)
                        results.setdefault("photos scrolled through", []).append(seen)
                finally:
                    driver.quit()
        finally:
            stop.set()
            for spinner in spinners:
                spinner.join()
    results["memory"] = list(memory)
    return results


def report(title: str, results: dict[str, list[float]]) -> None:
    print(f"{title}:")
    for name in ("first", "again", "first busy", "again busy"):
        times = results[name]
        print(f"  {name:11} median {statistics.median(times):7.0f} ms  [{min(times):.0f}-{max(times):.0f}] of {len(times)}")
    pss, rss = results["memory before"]
    print(f"  at the first screen: Chromium {pss:.0f} MB (PSS; {rss:.0f} MB RSS summed over its processes)")
    pss, rss = results["memory"]
    print(f"  after scrolling through {results['photos scrolled through'][-1]:.0f} photos: "
          f"Chromium {pss:.0f} MB (PSS; {rss:.0f} MB RSS summed over its processes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--binary")
    parser.add_argument("--grid", type=int, default=200, help="photos in the photo-notes grid")
    parser.add_argument("--shots", default=".test-artifacts/bench-moments", help="where its screenshots go")
    options = parser.parse_args()
    os.environ["SATCHEL_BINARY"] = find_binary(options.binary)
    print(f"{os.cpu_count()} cores, satchel {os.environ['SATCHEL_BINARY']}, {options.runs} runs each", flush=True)
    photos = phone_photos(max(40, options.grid))
    print(f"photos: {len(photos)} of 4032x3024, {statistics.mean(map(len, photos)) / 1e6:.1f} MB on average", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        db = pathlib.Path(folder) / "photos.sqlite"
        with Satchel(db=str(db)) as s:
            for post in range(20):
                uploads = [s.images.upload(photo) for photo in photos[post * 2:post * 2 + 2]]
                s.diary.create(text=f"Walk {post + 1}", images=uploads)
            for index in range(options.grid):
                s.photos.add(image=s.images.upload(photos[index]), caption=f"Photo {index + 1}")
        shots = pathlib.Path(options.shots)
        shots.mkdir(parents=True, exist_ok=True)
        bridge = Bridge(["--db", str(db)], db)
        try:
            moments = measure("moments", bridge, shots, ["[role='tab'][data-app='moments']"],
                              "section[data-app='moments'] img.moment-thumb", 2, options.runs)
            report("Moments, 20 posts of two 12 MP photos", moments)
            grid = measure("photo-grid", bridge, shots, ["[role='tab'][data-app='notes']",
                                           "section[data-app='notes'] .segmented button:nth-child(2)"],
                           "section[data-app='notes'] .photo-grid img", 4, options.runs,
                           more="section[data-app='notes'] .photo-grid + .load-more")
            report(f"ENotes photo grid, {options.grid} photos", grid)
        finally:
            bridge.stop()


if __name__ == "__main__":
    main()
