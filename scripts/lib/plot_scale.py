"""Draws `satchel-bench scale --json` figures: time as a ratio to 1,000 notes, and peak RSS, against notes."""

import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (the backend is chosen first)
from matplotlib.ticker import FuncFormatter, NullFormatter  # noqa: E402

# (label, how to read the figure from a size, colour[, line style]; for the memory panel, the operation whose
# refusals the label mentions)
TIMES = [
    ("search", lambda s: s["searchMicroseconds"], "tab:blue"),
    ("server.info", lambda s: s["serverInfoMicroseconds"], "tab:orange"),
    ("notes.list page", lambda s: s["listFirstMicroseconds"], "tab:green"),
    ("export {path}", lambda s: s["export"].get("seconds"), "tab:red"),
    ("import {path}", lambda s: s["import"].get("seconds"), "tab:purple"),
]
MEMORY = [
    ("export {path}", lambda s: s["export"].get("peakRSS"), "tab:red", "-", "export"),
    ("import {path}", lambda s: s["import"].get("peakRSS"), "tab:purple", "-", "import"),
    ("import {path}: allocated (RssAnon)", lambda s: s["import"].get("peakAnonymousRSS"), "tab:purple", ":", "import"),
    ("export {} (in message)", lambda s: s["exportInMessage"].get("peakRSS"), "tab:brown", "--", "exportInMessage"),
    ("idle", lambda s: s.get("idleRSS"), "tab:gray", ":", None),
]


def series(sizes, figure):
    """The (notes, value) points where the figure was measured."""
    points = [(s["notes"], figure(s)) for s in sizes]
    return [(n, v) for n, v in points if v is not None]


def value_at(sizes, figure, notes):
    return dict(series(sizes, figure)).get(notes)


def notes_label(notes):
    return f"{notes // 1_000_000}M" if notes >= 1_000_000 else f"{notes // 1000}k"


def axes(panel, sizes, title, ylabel, unit):
    """Log-log axes with the sizes as ticks and plain numbers (with `unit`) up the side."""
    panel.set_xscale("log")
    panel.set_yscale("log")
    panel.set_xticks([s["notes"] for s in sizes], [notes_label(s["notes"]) for s in sizes])
    panel.xaxis.set_minor_formatter(NullFormatter())
    panel.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}{unit}"))
    # Between the powers of ten, only 2 and 5 (20, 50, ...) are labelled.
    panel.yaxis.set_minor_formatter(FuncFormatter(lambda y, _: f"{y:g}{unit}" if f"{y:g}"[0] in "25" else ""))
    panel.tick_params(axis="y", which="minor", labelsize=7)
    panel.set_xlabel("notes")
    panel.set_ylabel(ylabel)
    panel.set_title(title, fontsize=10)
    panel.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)
    panel.grid(True, which="major", alpha=0.3)


def main(source, target):
    with open(source) as file:
        sizes = json.load(file)["sizes"]
    largest = max(s["notes"] for s in sizes)
    figure, (times, memory) = plt.subplots(1, 2, figsize=(9.6, 4.2), dpi=100)

    for label, read, colour in TIMES:
        points = series(sizes, read)
        base = value_at(sizes, read, 1000)
        if not points or not base:
            continue
        times.plot([n for n, _ in points], [v / base for _, v in points], "o-", color=colour, label=label, ms=4)
    # The bounds: search at 1M within 3x of its 10k time; server.info at 1M within 2x of 1k.
    search = TIMES[0][1]
    if value_at(sizes, search, 10_000) and value_at(sizes, search, 1000):
        level = 3 * value_at(sizes, search, 10_000) / value_at(sizes, search, 1000)
        times.plot([10_000, largest], [level, level], "--", color="tab:blue", lw=1, label="search bound (3x of 10k)")
    times.plot([1000, largest], [2, 2], "--", color="tab:orange", lw=1, label="server.info bound (2x)")
    times.plot([1000, largest], [1, largest / 1000], ":", color="black", lw=0.8, label="linear in notes")
    axes(times, sizes, "Time, as a ratio to 1,000 notes", "time / time at 1,000 notes", "x")

    for label, read, colour, style, operation in MEMORY:
        points = series(sizes, read)
        refused = [s["notes"] for s in sizes if operation and s[operation].get("error", "").startswith("refused")]
        if refused:
            label += ", refused at " + ", ".join(notes_label(n) for n in refused)
        if points:
            memory.plot(
                [n for n, _ in points], [v / 2**20 for _, v in points], "o" + style, color=colour, label=label, ms=4
            )
    axes(memory, sizes, "Peak RSS of the satchel process", "peak RSS", " MiB")

    figure.tight_layout()
    figure.savefig(target, bbox_inches="tight")
    print(f"plot-scale: wrote {target}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_scale.py FILE.json OUT.png")
    main(sys.argv[1], sys.argv[2])
