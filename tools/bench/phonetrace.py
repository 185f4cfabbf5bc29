"""Where a slowed phone's main-thread time goes on a tap and on a watched update: `python -m tools.bench.phonetrace`.

The browser phase (tools/bench/browser.py) says how long a tap takes; this says what the phone did meanwhile. The same
table and phones (the host's phone taps number cards, Bob's watches, each page's CPU slowed 4×), then:

- a Chromium performance trace (Playwright's `Browser.start_tracing`) over `--taps` taps: each page's main-thread
  events counted by their self time (an event's time less its children's), grouped as DevTools' Performance panel
  groups them (script, parsing HTML, style, layout, paint and compositing, garbage collection);
- then each page's JavaScript CPU profile (the DevTools protocol's `Profiler` domain) over as many taps again, apart,
  so that the profiler's own cost stays out of the trace: script time by the code that asked for it (htmx, each of
  our own scripts in static/js/, joined in app.js and told apart by where each one starts in it, the benchmark's
  probe). A browser function a script calls (parsing HTML into a fragment, `getClientRects` and the layout it forces)
  counts for that script, as DevTools' bottom-up view shows it under its caller.

Both are counted twice: within each tap's window (from the finger's `pointerdown` to that phone's new total
painted: what the player waits for) and in all (the work that follows the paint, such as htmx's settling, too).
Figures are milliseconds of the slowed main thread per tap. `--keep DIR` saves the trace and the profiles, which
Chromium's DevTools opens (Performance panel: "Load profile").
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.web.assets import BUNDLES, MINIFIERS

from . import browser as phase

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
ROLES = ("tapping", "watching")
CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "blink.user_timing"]
# The trace's event names, grouped as DevTools' Performance panel groups them (those that show up on these pages).
GROUPS = {
    "parse HTML": {"ParseHTML"},
    "style": {"UpdateLayoutTree", "ParseAuthorStyleSheet"},
    "layout": {"Layout", "HitTest", "IntersectionObserverController::computeIntersections"},
    "paint and composite": {"PrePaint", "Paint", "PaintImage", "Layerize", "Commit", "UpdateLayer", "RasterTask"},
    "garbage collection": {"MinorGC", "MajorGC"},
}
# Profile frames of the browser's own, not a script's.
IDLE = {"(idle)", "(root)"}
Window = tuple[float, float]
# The parts of a tap the breakdown is given for (Tap.window), and the whole run.
PARTS = ("before", "after", "tap", "all")


def _group(name: str) -> str:
    for group, names in GROUPS.items():
        if name in names:
            return group
    if name.startswith(("V8.GC", "BlinkGC", "CppGC")):
        return "garbage collection"
    return "script and events"


def _main_thread(events: list[dict[str, Any]], pid: int) -> int:
    for event in events:
        named = event.get("ph") == "M" and event.get("name") == "thread_name" and event["pid"] == pid
        if named and event["args"].get("name") == "CrRendererMain":
            return int(event["tid"])
    raise LookupError(f"no main thread for renderer {pid}")


def self_segments(events: Iterable[dict[str, Any]]) -> list[tuple[float, float, str]]:
    """Each stretch of time (µs) one event spent on its own, not in a child: (start, end, name)."""
    spans = sorted(
        ((event["ts"], event["ts"] + event["dur"], event["name"]) for event in events if "dur" in event),
        key=lambda span: (span[0], -span[1]),
    )
    segments: list[tuple[float, float, str]] = []
    stack: list[tuple[float, str]] = []  # (end, name)
    cursor = 0.0

    def run_until(moment: float) -> None:
        nonlocal cursor
        while stack and stack[-1][0] <= moment:
            end, name = stack.pop()
            if end > cursor:
                segments.append((cursor, end, name))
                cursor = end
        if stack and moment > cursor:
            segments.append((cursor, moment, stack[-1][1]))
        cursor = max(cursor, moment)

    for start, end, name in spans:
        run_until(start)
        if stack:
            end = min(end, stack[-1][0])  # a child never outlasts its parent
        stack.append((end, name))
    run_until(float("inf"))
    return [segment for segment in segments if segment[2] != "RunTask"]


def _inside(start: float, end: float, windows: Sequence[Window]) -> float:
    return sum(max(0.0, min(end, last) - max(start, first)) for first, last in windows)


def trace_groups(segments: list[tuple[float, float, str]], windows: Sequence[Window]) -> dict[str, dict[str, float]]:
    """Self time (ms) by group, within the windows and in all."""
    within: dict[str, float] = defaultdict(float)
    overall: dict[str, float] = defaultdict(float)
    for start, end, name in segments:
        group = _group(name)
        overall[group] += (end - start) / 1000
        within[group] += _inside(start, end, windows) / 1000
    return {"within": dict(within), "all": dict(overall)}


def _part_starts(app_js: str) -> list[tuple[int, str]]:
    """Where each part of the served app.js starts (an offset in it): each part minified alone, found in the whole."""
    starts = []
    for part in BUNDLES["app.js"]:
        alone = MINIFIERS[".js"]((ROOT / "static" / part).read_text())
        at = app_js.find(alone[:120].strip())
        if at >= 0:
            starts.append((at, Path(part).name))
    return sorted(starts)


def _app_js_parts(app_js: str) -> Callable[[int, int], str]:
    """A function from a (line, column) of the served app.js to the part of it there."""
    starts = _part_starts(app_js)
    line_starts = [0]
    for line in app_js.split("\n"):
        line_starts.append(line_starts[-1] + len(line) + 1)

    def part(line: int, column: int) -> str:
        at = line_starts[min(line, len(line_starts) - 1)] + column
        return next((name for start, name in reversed(starts) if start <= at), "app.js")

    return part


def _source(frame: dict[str, Any], app_js: Callable[[int, int], str]) -> str | None:
    """Which code a profile's frame is; None for the browser's own functions (they count for their caller)."""
    url = str(frame.get("url", ""))
    if "/static/app.js" in url:
        return app_js(frame["lineNumber"], frame["columnNumber"])
    if "htmx" in url:
        return "htmx"
    if url:
        return url.rsplit("/", 1)[-1].split("?")[0]
    if frame.get("lineNumber", -1) >= 0:
        return "the benchmark's probe"  # script without a URL: the init script and Playwright's evaluations
    return None


@dataclass
class ProfileTimes:
    """A CPU profile's samples, each with its time (µs, the trace's clock), its length, and who it counts for."""

    samples: list[tuple[float, float, str, str]]  # (at, µs, source, function)


def profile_times(profile: dict[str, Any], app_js: str) -> ProfileTimes:
    """Attribute each sample of a CPU profile to the code that asked for it and to its function."""
    parts = _app_js_parts(app_js)
    nodes = {node["id"]: node for node in profile["nodes"]}
    parents = {child: node["id"] for node in profile["nodes"] for child in node.get("children", ())}
    owners: dict[int, tuple[str, str] | None] = {}

    def owner(node_id: int) -> tuple[str, str] | None:
        if node_id in owners:
            return owners[node_id]
        frame = nodes[node_id]["callFrame"]
        name = frame.get("functionName", "")
        found: tuple[str, str] | None = None
        if name not in IDLE:
            caller: int | None = node_id
            source = None
            while caller is not None and source is None:
                source = _source(nodes[caller]["callFrame"], parts)
                if source is None:
                    caller = parents.get(caller)
            if source is None or caller is None:
                found = ("garbage collector" if name == "(garbage collector)" else "the browser, outside scripts", name)
            else:
                outer = nodes[caller]["callFrame"].get("functionName") or "(anonymous)"
                found = (source, outer if caller == node_id else f"{outer} → {name or '(native)'}")
        owners[node_id] = found
        return found

    at = float(profile["startTime"])
    samples = []
    ids, deltas = profile.get("samples", []), profile.get("timeDeltas", [])
    for index, node_id in enumerate(ids[:-1]):
        at += deltas[index]
        length = float(deltas[index + 1])
        counted = owner(node_id)
        if counted is not None:
            samples.append((at, length, *counted))
    return ProfileTimes(samples)


def profile_split(times: ProfileTimes, windows: Sequence[Window]) -> dict[str, dict[str, float]]:
    """Milliseconds by source and by function, within the windows and in all."""
    split: dict[str, dict[str, float]] = {
        "within": defaultdict(float),
        "all": defaultdict(float),
        "functions_within": defaultdict(float),
    }
    for at, length, source, function in times.samples:
        split["all"][source] += length / 1000
        inside = _inside(at, at + length, windows) / 1000
        if inside:
            split["within"][source] += inside
            split["functions_within"][f"{source}: {function}"] += inside
    return {key: dict(values) for key, values in split.items()}


def _per_tap(values: dict[str, float], taps: int, top: int | None = None) -> dict[str, float]:
    ordered = sorted(values.items(), key=lambda item: -item[1])[:top]
    return {key: round(value / taps, 2) for key, value in ordered if value / taps >= 0.01}


@dataclass
class Tap:
    """One tap: the finger's pointerdown, and on each phone its request sent, its answer's first byte and its new
    total painted (epoch ms)."""

    down: float
    painted: dict[str, float]
    asked: dict[str, float]
    answered: dict[str, float]

    def window(self, role: str, part: str) -> Window | None:
        """Part of this tap on one phone (epoch ms): "tap" (down to painted), "before" (to its request), "after"
        (from its answer's first byte to painted)."""
        if role not in self.painted or part == "all":
            return None
        if part == "tap":
            return (self.down, self.painted[role])
        if role not in self.asked or role not in self.answered:
            return None
        return (self.down, self.asked[role]) if part == "before" else (self.answered[role], self.painted[role])


def _taps(host: Page, watcher: Page, rng: random.Random, count: int) -> list[Tap]:
    """`count` taps on the host's phone, each waited for on both phones."""
    taps = []
    for _ in range(count):
        card = phase._choose_card(host, rng)
        if card is None:
            continue
        found = phase._tap(host, card, [watcher])
        time.sleep(phase.PAD_REST_SECONDS)
        down = phase._last_down(host)
        timings = {role: one for role, one in zip(ROLES, found, strict=True) if one is not None}
        taps.append(
            Tap(
                down,
                {role: down + one.painted for role, one in timings.items()},
                {role: down + one.asked for role, one in timings.items() if one.asked is not None},
                {role: down + one.answered for role, one in timings.items() if one.answered is not None},
            )
        )
    return taps


def _clock(page: Page, role: str) -> dict[str, float]:
    """A User Timing mark that names the page's renderer in the trace and ties its clock to the epoch's."""
    return dict(
        page.evaluate(
            "(role) => ({at: performance.mark('phone:' + role).startTime, origin: performance.timeOrigin})", role
        )
    )


def measure(taps: int, warmup: int, seed: int, keep: Path | None = None) -> dict[str, Any]:
    """Trace `taps` taps on the host's phone (and the watching phone's updates) after `warmup`, then profile as many."""
    from .scale import server

    rng = random.Random(seed)
    with server(command=phase._server_command, env={"PYTHONPATH": str(ROOT)}) as running, phase._chromium() as chromium:
        host, watcher = phase._phone(chromium), phase._phone(chromium)
        link = phase._start_table(host, running.url)
        phase._join(watcher, running.url, link)
        for page in (host, watcher):
            phase._live(page)
        busy = [phase._Busy(page) for page in (host, watcher)]
        for one in busy:
            one.slow_down()
        app_js = str(host.evaluate("fetch(document.querySelector('script[src*=app]').src).then((r) => r.text())"))
        _taps(host, watcher, rng, warmup)
        chromium.start_tracing(categories=CATEGORIES)
        clocks = {role: _clock(page, role) for role, page in zip(ROLES, (host, watcher), strict=True)}
        traced = _taps(host, watcher, rng, taps)
        trace = json.loads(chromium.stop_tracing())
        for one in busy:
            one.session.send("Profiler.enable")
            one.session.send("Profiler.setSamplingInterval", {"interval": 200})
            one.session.send("Profiler.start")
        profiled = _taps(host, watcher, rng, taps)
        profiles = [one.session.send("Profiler.stop")["profile"] for one in busy]
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / "trace.json").write_text(json.dumps(events))
        for role, profile in zip(ROLES, profiles, strict=True):
            (keep / f"{role}.cpuprofile").write_text(json.dumps(profile))
    if keep is not None:
        (keep / "taps.json").write_text(json.dumps({"clocks": clocks, "traced": [vars(tap) for tap in traced]}))
    return report(events, clocks, traced, profiles, profiled, app_js)


def report(
    events: list[dict[str, Any]],
    clocks: dict[str, dict[str, float]],
    traced: list[Tap],
    profiles: list[dict[str, Any]],
    profiled: list[Tap],
    app_js: str,
) -> dict[str, Any]:
    """The breakdown of each phone's main-thread time, per tap: by the trace's groups and by the profile's code, in
    each part of the tap ("before": to its request; "after": from its answer's first byte to the new total painted;
    "tap": the two and the wait between; "all": the whole run, the work after the paint too)."""
    marks = {
        event["name"].removeprefix("phone:"): event for event in events if event.get("name", "").startswith("phone:")
    }
    result: dict[str, Any] = {"traced_taps": len(traced), "profiled_taps": len(profiled)}
    for role, profile in zip(ROLES, profiles, strict=True):
        mark = marks[role]
        pid = mark["pid"]
        # The trace's clock (µs) at an epoch time (ms) of the page's.
        zero = mark["ts"] - 1000 * (clocks[role]["origin"] + clocks[role]["at"])

        def windows(taps: list[Tap], part: str, zero: float = zero, role: str = role) -> list[Window]:
            found = (tap.window(role, part) for tap in taps)
            return [(zero + 1000 * first, zero + 1000 * last) for first, last in filter(None, found)]

        thread = _main_thread(events, pid)
        segments = self_segments(e for e in events if e.get("pid") == pid and e.get("tid") == thread and e["ph"] == "X")
        times = profile_times(profile, app_js)
        painted = [tap.painted[role] - tap.down for tap in traced if role in tap.painted]
        figures: dict[str, Any] = {"painted_median_ms": round(statistics.median(painted), 1) if painted else None}
        for part in PARTS:
            groups = trace_groups(segments, windows(traced, part))
            split = profile_split(times, windows(profiled, part))
            key = "within" if part != "all" else "all"
            figures[part] = {
                "trace_ms": _per_tap(groups[key], len(traced)),
                "script_ms": _per_tap(split[key], len(profiled)),
                "functions_ms": _per_tap(split["functions_within"], len(profiled), top=20) if part != "all" else {},
            }
        result[role] = figures
    return result


def _table(result: dict[str, Any]) -> str:
    """The breakdown as two tables per phone (ms of the slowed main thread per tap)."""
    lines = [f"{result['traced_taps']} taps traced, {result['profiled_taps']} profiled; ms per tap, CPU slowed 4×"]
    for role in ROLES:
        figures = result[role]
        lines += ["", f"{role} phone (new total painted {figures['painted_median_ms']} ms after the tap, median)"]
        for kind, title in (("trace_ms", "by kind of work"), ("script_ms", "by the code that asked for it")):
            names = sorted(
                {name for part in PARTS for name in figures[part][kind]}, key=lambda n: -figures["tap"][kind].get(n, 0)
            )
            lines.append(f"  {title:32}" + "".join(f"{part:>10}" for part in PARTS))
            for name in names:
                lines.append(f"    {name:30}" + "".join(f"{figures[part][kind].get(name, 0):10.1f}" for part in PARTS))
        lines.append("  costliest functions after the answer:")
        for name, ms in list(figures["after"]["functions_ms"].items())[:12]:
            lines.append(f"    {ms:6.1f}  {name}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Trace and profile the taps; print the breakdown as JSON."""
    parser = argparse.ArgumentParser(prog="python -m tools.bench.phonetrace", description=__doc__.split("\n")[0])
    parser.add_argument("--taps", type=int, default=20, help="taps traced, and as many profiled")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the breakdown here")
    parser.add_argument("--keep", type=Path, help="a folder for the raw trace and profiles (DevTools opens them)")
    args = parser.parse_args(argv)
    result = measure(args.taps, args.warmup, args.seed, args.keep)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(_table(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
