"""The browser phase of `python -m tools.bench` (`--browser`): what a tap costs in the phone, beside a bare floor.

One server (`referee serve` as the README runs it, with a bare Flask + htmx page mounted beside the app in the
same process: tools/bench/floor.py) and Debian's chromium, each page at phone size with its CPU slowed 4× through
the DevTools protocol (`Emulation.setCPUThrottlingRate`; a budget Android phone is slower still). Three phones:

- the tapping phone: the host's, which started a 4-player table from the home page and taps number cards;
- the watching phone: Bob's, joined by the table's link; it hears each tap on its live stream and fetches its board;
- the floor: the bare page, whose button posts and swaps a one-line board (the network, the server and htmx with
  nothing else).

A probe in each page (added before the page's own scripts, through Playwright's `add_init_script`) notes the time
of every `pointerdown` and, when the running total's text changes, the time its frame has been painted: a
`requestAnimationFrame` after the change, then a message posted from it, which runs once that frame's rendering
(style, layout, paint) is done. A tap's time is from the finger's `pointerdown` (the mouse button pressed through
the DevTools protocol, the click that sends the form following it) to the new total painted; the watching phone's,
from the same `pointerdown` on the tapping phone to its own new total painted (both pages read the same clock:
`performance.timeOrigin + performance.now()`). App taps and floor taps take turns, which goes first alternating,
so the rest of the machine touches both alike; each run is a fresh table, a fresh floor page and fresh phones.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..harness import CHROMIUM, CHROMIUM_ARGS
from .http import percentile

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

ROOT = Path(__file__).resolve().parents[2]
PHONE: ViewportSize = {"width": 390, "height": 844}
CPU_SLOWDOWN = 4
GOALS = {"tapping_ratio": 1.5, "watching_ratio": 2.0}
# The pad rests 600 ms after this phone's own card is answered (static/js/onetap.js): the next tap waits longer.
PAD_REST_SECONDS = 0.8
# Quiet between two measured taps, so one tap's leftovers (a garbage collection, a stream's catch-up) stay its own.
BETWEEN_SECONDS = 0.3
# A tap whose total is not painted in this long is counted as missed (and reported), not measured.
PAINT_TIMEOUT_SECONDS = 10.0

PROBE = """(() => {
  const probe = window.__paint = {down: [], painted: [], asked: [], live: false};
  document.addEventListener("htmx:sseOpen", () => { probe.live = true; });
  const origin = performance.timeOrigin;
  const now = () => origin + performance.now();
  // Each tap's post and board fetch: when it was sent, and when its answer's first byte came.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!/[/](act|board|tap)([?]|$)/.test(entry.name)) continue;
      probe.asked.push([origin + entry.startTime, origin + entry.responseStart]);
    }
  }).observe({type: "resource"});
  performance.setResourceTimingBufferSize(2000);
  document.addEventListener("pointerdown", (event) => {
    probe.down.push(performance.timeOrigin + event.timeStamp);
  }, true);
  let shown = null;
  new MutationObserver(() => {
    const total = document.getElementById("total");
    const text = total ? total.textContent.trim() : null;
    if (text === shown) return;
    shown = text;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => probe.painted.push([text, now()]);
      channel.port2.postMessage(null);
    });
  }).observe(document, {subtree: true, childList: true, characterData: true});
})();"""

# The card to tap on the tapping phone: a number card that moves the total without going bust, or "=0" once the
# total is high (so every tap changes the total the probe watches). Scrolled into view; its centre is returned.
CHOOSE_CARD = """(seed) => {
  const board = document.getElementById("board");
  if (!board || board.hasAttribute("data-settling") || board.querySelector(".htmx-request")) return {wait: true};
  const total = Number((document.getElementById("total") || {}).textContent);
  let buttons = [...document.querySelectorAll("#pad button.card.num:not([disabled]):not(.busts)")]
    .filter((button) => button.value !== "0");
  if (total >= 14 || !buttons.length) buttons = [document.getElementById("card-eq0")].filter(Boolean);
  if (!buttons.length) return null;
  const button = buttons[seed % buttons.length];
  button.scrollIntoView({block: "nearest"});
  const box = button.getBoundingClientRect();
  return {x: box.left + box.width / 2, y: box.top + box.height / 2, card: button.value};
}"""


def _server_command(host: str, port: int) -> list[str]:
    return [sys.executable, "-m", "tools.bench.floor", "--host", host, "--port", str(port)]


@contextmanager
def _chromium() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    if not os.access(CHROMIUM, os.X_OK):
        raise RuntimeError(f"{CHROMIUM} is missing: install Debian's chromium to run the browser phase")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def _phone(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(20_000)
    context.add_init_script(PROBE)
    return context.new_page()


class _Busy:
    """A page's main-thread busy time so far (DevTools `Performance.getMetrics`, TaskDuration), in ms."""

    def __init__(self, page: Page):
        self.session = page.context.new_cdp_session(page)
        self.session.send("Performance.enable")

    def slow_down(self) -> None:
        """Slow the page's CPU as a cheap phone's (from now on: the setup before it runs at full speed)."""
        self.session.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})

    def ms(self) -> float:
        """Milliseconds the page's main thread has spent running tasks (slowed, as the phone's would be)."""
        metrics = self.session.send("Performance.getMetrics")["metrics"]
        return 1000 * float(next(metric["value"] for metric in metrics if metric["name"] == "TaskDuration"))


def _start_table(host: Page, url: str) -> str:
    """The host's phone starts a 4-player table from the home page and goes on to it; return the join link."""
    host.goto(url + "/")
    for index, name in enumerate(("Ann", "Bob", "Cy", "Dee")):
        field = host.locator(f"#name-{index}")
        if not field.count():
            host.get_by_role("button", name="+ Add a player").click()
        field.fill(name)
    host.get_by_role("button", name="Start the table").click()
    host.wait_for_url("**/lobby")
    host.get_by_role("link", name="Start without waiting").click()
    host.locator("#board").wait_for()
    link = host.locator("#join a.join-link").get_attribute("href")
    assert link, "the host's page shows no join link"
    return link


def _join(watcher: Page, url: str, link: str) -> None:
    """Bob's phone opens the join link and answers "Who are you?"."""
    path = link.split("://", 1)[-1].partition("/")[2]
    watcher.goto(f"{url}/{path}")
    watcher.get_by_role("button", name="Bob", exact=True).click()
    watcher.locator("#board").wait_for()


def _live(page: Page) -> None:
    """Wait until the page's live stream is open (the probe hears htmx's sseOpen event)."""
    deadline = time.monotonic() + 10
    while not page.evaluate("window.__paint.live"):
        assert time.monotonic() < deadline, "the live stream did not open"
        page.wait_for_timeout(50)


@dataclass(frozen=True)
class Timing:
    """One phone's side of one tap, in ms from the finger's pointerdown (on the tapping phone)."""

    painted: float  # the new total painted
    asked: float | None  # its request sent: the tap's post, or the watching phone's board fetch
    answered: float | None  # that request's answer: its first byte


LOOK = """(since) => {
  const probe = window.__paint;
  const painted = probe.painted.filter(([, at]) => at > since).map(([, at]) => at);
  const asked = probe.asked.filter(([sent]) => sent > since);
  return {painted: painted.length ? Math.min(...painted) : null, asked: asked.length ? asked[0] : null};
}"""


def _look(page: Page, since: float) -> Timing | None:
    """The page's first new total painted after `since` (epoch ms), with its request, or None if not yet."""
    found = page.evaluate(LOOK, since)
    if found["painted"] is None:
        return None
    sent, first = found["asked"] if found["asked"] and found["asked"][0] < found["painted"] else (None, None)
    return Timing(
        painted=round(found["painted"] - since, 2),
        asked=None if sent is None else round(sent - since, 2),
        answered=None if first is None else round(first - since, 2),
    )


def _wait_painted(pages: list[Page], since: float) -> list[Timing | None]:
    """Each page's first paint of a new total after `since`, looked for sparingly (each look runs in the slowed
    page, after the first 150 ms, when the work measured is usually done)."""
    found: list[Timing | None] = [None] * len(pages)
    deadline = time.monotonic() + PAINT_TIMEOUT_SECONDS
    time.sleep(0.15)
    while time.monotonic() < deadline:
        for index, page in enumerate(pages):
            if found[index] is None:
                found[index] = _look(page, since)
        if all(one is not None for one in found):
            break
        time.sleep(0.1)
    return found


def _last_down(page: Page) -> float:
    down = page.evaluate("window.__paint.down.length ? window.__paint.down[window.__paint.down.length - 1] : 0")
    return float(down)


def _choose_card(host: Page, rng: random.Random) -> dict[str, Any] | None:
    """Where to tap on the host's phone, once its pad takes a tap again."""
    seed = rng.randrange(1000)
    deadline = time.monotonic() + PAINT_TIMEOUT_SECONDS
    choice: dict[str, Any] | None = host.evaluate(CHOOSE_CARD, seed)
    while choice is not None and choice.get("wait") and time.monotonic() < deadline:
        # The pad still rests after the last card, or a request is out: a tap now would be ignored.
        time.sleep(0.05)
        choice = host.evaluate(CHOOSE_CARD, seed)
    return None if choice is None or choice.get("wait") else choice


def _tap(page: Page, at: dict[str, Any], watchers: list[Page]) -> list[Timing | None]:
    """Tap at `at` on `page`; the timings on it and on each of `watchers`."""
    before = _last_down(page)
    page.mouse.click(at["x"], at["y"])
    down = _last_down(page)
    if down == before:
        return [None] * (1 + len(watchers))
    return _wait_painted([page, *watchers], down)


def _summary(timings: list[Timing]) -> dict[str, float]:
    """Median, p95 and extremes of the times to the new total painted, and the medians of where they went."""
    values = [one.painted for one in timings]
    figures = {
        "median": round(statistics.median(values), 1),
        "p95": round(percentile(values, 95), 1),
        "min": round(min(values), 1),
        "max": round(max(values), 1),
    }
    parts = [one for one in timings if one.asked is not None and one.answered is not None]
    if parts:
        # Before the request (the tap's handling; on the watching phone also the tap's server time and the stream),
        # the request (server and network), and after the answer's first byte (receiving, swapping, painting).
        figures["asked_median"] = round(statistics.median(one.asked or 0 for one in parts), 1)
        figures["answer_median"] = round(statistics.median((one.answered or 0) - (one.asked or 0) for one in parts), 1)
        figures["after_answer_median"] = round(statistics.median(one.painted - (one.answered or 0) for one in parts), 1)
    return figures


def _one_run(browser: Browser, url: str, taps: int, warmup: int, seed: int) -> dict[str, Any]:
    """A fresh table, watching phone and floor page; `warmup` + `taps` pairs of an app tap and a floor tap."""
    rng = random.Random(seed)
    host, watcher, floor = _phone(browser), _phone(browser), _phone(browser)
    try:
        link = _start_table(host, url)
        _join(watcher, url, link)
        floor.goto(f"{url}/floor/")
        floor.locator("#tap").wait_for()
        for page in (host, watcher):
            _live(page)
        busy = [_Busy(page) for page in (host, watcher, floor)]
        for one in busy:
            one.slow_down()
        box = floor.locator("#tap").bounding_box()
        assert box is not None
        button = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
        kept: dict[str, list[Timing]] = {"tapping": [], "watching": [], "floor": []}
        missed = dict.fromkeys(kept, 0)
        work: dict[str, list[float]] = {name: [] for name in kept}
        for index in range(warmup + taps):
            started = time.monotonic()
            busy_before = [one.ms() for one in busy]
            card = _choose_card(host, rng)
            # Which goes first alternates, so neither always follows the other's leftovers.
            if index % 2:
                (floor_tap,) = _tap(floor, button, [])
                time.sleep(BETWEEN_SECONDS)
                app_taps = _tap(host, card, [watcher]) if card else [None, None]
            else:
                app_taps = _tap(host, card, [watcher]) if card else [None, None]
                time.sleep(BETWEEN_SECONDS)
                (floor_tap,) = _tap(floor, button, [])
            time.sleep(max(BETWEEN_SECONDS, PAD_REST_SECONDS - (time.monotonic() - started)))
            if index < warmup:
                continue
            for name, one, before in zip(kept, busy, busy_before, strict=True):
                work[name].append(one.ms() - before)
            for name, timing in zip(kept, (*app_taps, floor_tap), strict=True):
                if timing is None:
                    missed[name] += 1
                else:
                    kept[name].append(timing)
        floor_median = statistics.median(one.painted for one in kept["floor"])
        return {
            **{f"{name}_ms": _summary(timings) for name, timings in kept.items()},
            "tapping_ratio": round(statistics.median(one.painted for one in kept["tapping"]) / floor_median, 2),
            "watching_ratio": round(statistics.median(one.painted for one in kept["watching"]) / floor_median, 2),
            "missed": missed,
            # Main-thread time per tap (slowed 4×), from before the tap to the next: the phone's own work for it
            # (and the probe's few looks).
            "busy_ms_per_tap": {name: round(statistics.median(values), 1) for name, values in work.items()},
            "samples": {name: [one.painted for one in timings] for name, timings in kept.items()},
        }
    finally:
        for page in (host, watcher, floor):
            page.context.close()


def _spread(values: list[float]) -> dict[str, float]:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def measure_browser(runs: int = 3, taps: int = 40, warmup: int = 5) -> dict[str, Any]:
    """`runs` runs of `taps` measured taps each (after `warmup`): medians and p95s, and their ratios to the floor."""
    from .scale import server

    with server(command=_server_command, env={"PYTHONPATH": str(ROOT)}) as running, _chromium() as browser:
        measured = [_one_run(browser, running.url, taps, warmup, seed) for seed in range(runs)]
    return {
        "cpu_slowdown": CPU_SLOWDOWN,
        "runs": measured,
        "taps_per_run": taps,
        "tapping_ratio": _spread([run["tapping_ratio"] for run in measured]),
        "watching_ratio": _spread([run["watching_ratio"] for run in measured]),
        "floor_median_ms": _spread([run["floor_ms"]["median"] for run in measured]),
        "floor_p95_ms": _spread([run["floor_ms"]["p95"] for run in measured]),
        "tapping_median_ms": _spread([run["tapping_ms"]["median"] for run in measured]),
        "tapping_p95_ms": _spread([run["tapping_ms"]["p95"] for run in measured]),
        "watching_median_ms": _spread([run["watching_ms"]["median"] for run in measured]),
        "watching_p95_ms": _spread([run["watching_ms"]["p95"] for run in measured]),
        "busy_ms_per_tap": {
            name: _spread([run["busy_ms_per_tap"][name] for run in measured])
            for name in ("tapping", "watching", "floor")
        },
    }
