"""The whole benchmark in one run: `python -m tools.bench` or `python -m tools.bench`.

It measures the engine in this process, then starts `referee serve` on a free 127.0.0.1 port with a temporary
database and measures HTTP throughput, live fan-out, page weight and memory against it (tools/bench/http.py).
The figures go to a JSON file (bench-results/latest.json, with the date) and replace the generated section of
docs/performance.md, with the machine and the commit measured (the docs name no dates); the rest of that file is
written by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import engine as engine_bench
from . import http as http_bench
from . import scale

ROOT = Path(__file__).resolve().parents[2]
BEGIN = "<!-- bench:begin -->"
END = "<!-- bench:end -->"


def machine() -> dict[str, Any]:
    """CPU model, cores, OS, Python, and how busy the machine was (load average)."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "load_average_1m": round(load[0], 2),
    }


def commit() -> str | None:
    """The checkout's commit, short, or None outside a git checkout."""
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return found.stdout.strip() or None


def run(
    seconds: float = 5.0, engine_seconds: float = 3.0, memory_tables: int = http_bench.MEMORY_TABLES
) -> dict[str, Any]:
    """Measure everything and return the figures."""
    started = time.perf_counter()
    figures: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit(),
        "machine": machine(),
        "engine": engine_bench.run(engine_seconds),
        "http": http_bench.run(seconds, memory_tables=memory_tables),
    }
    figures["machine"]["load_average_1m_after"] = round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None
    figures["goals"] = http_bench.goals(figures["http"])
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures


def _n(value: float, digits: int = 0) -> str:
    return f"{value:,.{digits}f}"


def _met(goal: Mapping[str, Any]) -> str:
    return "met" if goal["met"] else "**missed**"


def markdown(figures: Mapping[str, Any]) -> str:
    """The generated section of docs/performance.md."""
    lines = [
        BEGIN,
        "<!-- Written by `python -m tools.bench` (tools/bench/__main__.py); edit the text outside these markers. -->",
        "",
        _provenance(figures),
        "",
        *_goal_table(figures),
        "",
        *_scale_table(figures.get("scale", {})),
        *_resource_table(figures["http"]["page_weight"]["first_load"]),
        "",
        _fanout_note(figures["http"]["fanout"]),
        "",
        END,
    ]
    return "\n".join(lines)


def _provenance(figures: Mapping[str, Any]) -> str:
    """Where and when the figures were measured: machine, load, server, and how long the run took."""
    # Figures mean little without the machine and how busy it was, so they open the section.
    m = figures["machine"]
    server = figures["http"]["server"]
    return (
        f"Measured on {_where(figures)}, on **{m['cpu']}, {m['cores']} cores**, {m['os']}, Python {m['python']} "
        f"(load average {m['load_average_1m']} at the start, {m['load_average_1m_after']} at the end). "
        f"Server: `{server['command']}`, hypercorn ({server['threads']}), "
        "a fresh SQLite database; the clients run on the same machine. The whole run took "
        f"{figures['seconds']:.0f} s. Raw figures: `bench-results/latest.json`."
    )


def _where(figures: Mapping[str, Any]) -> str:
    # The commit, as the rest of docs/performance.md names what it measured; a date only outside a git checkout.
    found = figures.get("commit")
    return f"`{found}`" if found else f"a checkout without git history ({figures['date']})"


def _goal_table(figures: Mapping[str, Any]) -> list[str]:
    """The table of figures, each row numbered by the goal it belongs to (docs/performance.md)."""
    http = figures["http"]
    goals = figures["goals"]
    return [
        "| # | figure | measured | goal | |",
        "|---|---|---|---|---|",
        *_engine_rows(figures["engine"]),
        *_throughput_rows(http["throughput"], goals),
        *_fanout_rows(http["fanout"], goals),
        *_page_weight_rows(http["page_weight"], goals),
        *_memory_rows(http["memory"], goals),
    ]


def _engine_rows(engine: Mapping[str, Any]) -> list[str]:
    """Goal 1: the engine alone, against the engine's own goals."""
    engine_rate = engine.get("random_play_actions_per_s")
    apply_rate = engine.get("apply_actions_per_s")
    replay = engine.get("replay_ms_median")
    return [
        f"| 1 | engine: `apply` alone, random legal actions/s | {_n(apply_rate or 0)} | ≥ 20,000 | "
        f"{'met' if (apply_rate or 0) >= 20_000 else '**missed**'} |",
        f"| 1 | engine: choose + apply a random legal action, actions/s | {_n(engine_rate or 0)} | | |",
        f"| 1 | engine: replay a 500-action game (median) | {replay} ms | ≤ 25 ms | "
        f"{'met' if replay is not None and replay <= 25 else '**missed**'} |",
    ]


def _throughput_rows(tp: Mapping[str, Any], goals: Mapping[str, Any]) -> list[str]:
    """Goal 2: HTTP actions against bare /healthz, and action latency at half load and flat out."""
    half = tp["actions_at_half_load"]
    return [
        f"| 2 | HTTP actions/s, {tp['clients']} clients flat out, one table each | "
        f"{_n(tp['actions']['per_second'])} | | |",
        f"| 2 | bare `/healthz`/s, same clients, same server | {_n(tp['healthz']['per_second'])} | | |",
        f"| 2 | **ratio actions / healthz** | **{tp['ratio']:.2f}** | ≥ 0.35 | {_met(goals['ratio'])} |",
        f"| 2 | server CPU per request: action / healthz (ratio) | {tp['actions']['server_cpu_ms_per_request']} ms / "
        f"{tp['healthz']['server_cpu_ms_per_request']} ms ({tp['cpu_ratio']:.2f}) | | |",
        f"| 2 | action latency p50 / p99 at half load ({_n(half['per_second'])} actions/s) | "
        f"{half['p50_ms']} / **{half['p99_ms']} ms** | p99 ≤ 25 ms | {_met(goals['action_p99_ms'])} |",
        f"| 2 | action latency p50 / p99 flat out (16 requests always waiting) | "
        f"{tp['actions']['p50_ms']} / {tp['actions']['p99_ms']} ms | | |",
    ]


def _fanout_rows(fan: Mapping[str, Any], goals: Mapping[str, Any]) -> list[str]:
    """Goal 3: from an action's response to each listener's message, and on to its refreshed board."""
    msg = fan["message_after_response_ms"]
    board = fan["board_refreshed_after_response_ms"]
    return [
        f"| 3 | fan-out {fan['tables']} tables × {fan['listeners_per_table']} streams: message after the action's "
        f"response, p50 / p99 | {msg['p50']} / **{msg['p99']} ms** | p99 ≤ 150 ms | {_met(goals['fanout_p99_ms'])} |",
        f"| 3 | … and until that phone has fetched the new board, p50 / p99 | {board['p50']} / {board['p99']} ms | "
        "(< 1 s) | |",
    ]


def _page_weight_rows(weight: Mapping[str, Any], goals: Mapping[str, Any]) -> list[str]:
    """Goal 4: bytes for the first table-page load, and for one tap's update on each kind of phone."""
    first = weight["first_load"]
    update = weight["update"]
    return [
        f"| 4 | first table-page load, gzip, {first['requests']} requests | "
        f"**{first['wire_bytes'] / 1024:.1f} KB** ({first['uncompressed_bytes'] / 1024:.0f} KB unzipped) | ≤ 40 KB | "
        f"{_met(goals['first_load_kb'])} |",
        f"| 4 | one tap's update (tapping phone: POST + stream message) | "
        f"**{update['tapping_phone']['wire_bytes'] / 1024:.2f} KB** | ≤ 4 KB | {_met(goals['update_kb'])} |",
        f"| 4 | … every other phone (stream message + board refresh) | "
        f"{update['other_phone']['wire_bytes'] / 1024:.2f} KB | ≤ 4 KB | |",
    ]


def _memory_rows(memory: Mapping[str, Any], goals: Mapping[str, Any]) -> list[str]:
    """Goal 5: the server's resident memory after many whole games."""
    return [
        f"| 5 | server RSS after {memory['tables']} tables each played a whole game "
        f"({_n(memory['actions'])} actions) | "
        f"**{memory['rss_mb']} MB** (idle {memory['rss_idle_mb']} MB) | ≤ 120 MB | {_met(goals['rss_mb'])} |",
    ]


def _resource_table(first: Mapping[str, Any]) -> list[str]:
    """The first load resource by resource, with a total row."""
    lines = [
        "First load, resource by resource (bytes on the wire: status line, headers and gzipped body):",
        "",
        "| resource | type | on the wire | body (gzip) | unzipped |",
        "|---|---|---|---|---|",
    ]
    for load in first["resources"]:
        # Every run creates a new table: its code would change the docs on each run for nothing.
        url = re.sub(r"^/t/[^/]+", "/t/CODE", load["url"])
        lines.append(f"| `{url}` | {load['type']} | {_n(load['wire'])} | {_n(load['body'])} | {_n(load['raw'])} |")
    lines.append(f"| **total** | | **{_n(first['wire_bytes'])}** | | {_n(first['uncompressed_bytes'])} |")
    return lines


def _fanout_note(fan: Mapping[str, Any]) -> str:
    """The fan-out counts, and why a message can come before the action's response."""
    msg = fan["message_after_response_ms"]
    return (
        f"Fan-out: {fan['streams_connected']} streams connected, {fan['actions']} actions, {fan['deliveries']} "
        f"deliveries, {fan['missed']} missed; {msg['before_response']} messages arrived before the action's own "
        "response (the server publishes right after the commit), which is why the p50 can be at or below 0."
    )


def update_docs(path: Path, figures: Mapping[str, Any]) -> None:
    """Replace the generated section of `path` (or append one) with the new figures."""
    text = path.read_text() if path.exists() else "# Performance\n\n"
    section = markdown(figures)
    if BEGIN in text and END in text:
        head, _, rest = text.partition(BEGIN)
        _, _, tail = rest.partition(END)
        text = head + section + tail
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text)


def summary(figures: Mapping[str, Any]) -> str:
    """One line per goal, for the terminal."""
    return "\n".join(
        f"{name:>15}: {goal['value']} (goal {'≥' if name == 'ratio' else '≤'} {goal['goal']}) "
        f"{'met' if goal['met'] else 'MISSED'}"
        for name, goal in figures["goals"].items()
    )


def scale_summary(results: Mapping[str, Any]) -> str:
    """One line per further phase's goal, for the terminal."""
    return "\n".join(
        f"{name}: {value} (goal {goal}) {'' if met is None else 'met' if met else 'MISSED'}"
        for name, value, goal, met in scale.goals(dict(results))
    )


def _scale_table(results: Mapping[str, Any]) -> list[str]:
    """The further phases' goals, from the phases this run measured."""
    rows = scale.goals(dict(results))
    if not rows:
        return []
    lines = [
        "Further phases of this run (`python -m tools.bench --all` runs every one):",
        "",
        "| figure | measured | goal | |",
        "|---|---|---|---|",
    ]
    for name, value, goal, met in rows:
        lines.append(f"| {name} | {value} | {goal} | {'' if met is None else 'met' if met else '**missed**'} |")
    return [*lines, ""]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark, write the JSON and the docs table, print a summary."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench", description="Measure the engine and the real server."
    )
    add_arguments(parser)
    return run_from_args(parser.parse_args(argv))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `python -m tools.bench` (shared with `python -m tools.bench`)."""
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each HTTP throughput phase")
    parser.add_argument("--engine-seconds", type=float, default=3.0, help="length of the engine benchmark")
    parser.add_argument("--memory-tables", type=int, default=http_bench.MEMORY_TABLES)
    parser.add_argument("--json", type=Path, default=ROOT / "bench-results" / "latest.json", help="where to write")
    parser.add_argument("--docs", type=Path, default=ROOT / "docs" / "performance.md", help="markdown to update")
    parser.add_argument("--no-docs", action="store_true", help="do not touch the markdown")
    # The further phases (tools/bench/scale.py). tap and undo run by default (under a minute together); the
    # others take a minute or more each and hold thousands of sockets, so they run when asked.
    for name in scale.PHASES:
        default = " (on by default)" if name in DEFAULT_PHASES else ""
        parser.add_argument(f"--{name}", action="store_true", help=f"run the {name} phase{default}")
    parser.add_argument("--all", action="store_true", help="run every phase, the heavy ones included")
    parser.add_argument("--only", action="store_true", help="run only the phases named, not the base benchmark")
    parser.add_argument("--soak-minutes", type=float, default=3.0, help="length of the soak phase")
    parser.add_argument("--phones", type=int, default=1000, help="phones in the live phase")
    parser.add_argument("--browser-taps", type=int, default=40, help="measured taps per run of the browser phase")


DEFAULT_PHASES = ("tap", "undo")


def chosen_phases(args: argparse.Namespace) -> list[str]:
    """The further phases to run: every one with --all, else the defaults (unless --only) and those named."""
    if args.all:
        return list(scale.PHASES)
    named = [name for name in scale.PHASES if getattr(args, name)]
    return named if args.only else [*DEFAULT_PHASES, *(name for name in named if name not in DEFAULT_PHASES)]


def run_phases(names: Sequence[str], args: argparse.Namespace) -> dict[str, Any]:
    """Run the named further phases, each on a fresh server, with the load average before each."""
    results: dict[str, Any] = {}
    for name in names:
        options: dict[str, Any] = {}
        if name == "soak":
            options["minutes"] = args.soak_minutes
        if name == "live":
            options["phones"] = args.phones
        if name == "browser":
            options["taps"] = args.browser_taps
        load = round(os.getloadavg()[0], 2)
        started = time.perf_counter()
        results[name] = {
            **scale.PHASES[name](**options),
            "load_average_1m": load,
            "phase_seconds": round(time.perf_counter() - started, 1),
        }
        print(f"{name}: done in {results[name]['phase_seconds']} s", file=sys.stderr)
    return results


def run_from_args(args: argparse.Namespace) -> int:
    """Run with parsed options."""
    phases = chosen_phases(args)
    if args.only:
        figures: dict[str, Any] = {"date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "machine": machine()}
        figures["scale"] = run_phases(phases, args)
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
        print(scale_summary(figures["scale"]))
        return 0
    figures = run(args.seconds, args.engine_seconds, args.memory_tables)
    figures["scale"] = run_phases(phases, args)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(figures, indent=2) + "\n")
    if not args.no_docs:
        update_docs(args.docs, figures)
    print(summary(figures))
    print(scale_summary(figures["scale"]))
    print(f"figures: {args.json}" + ("" if args.no_docs else f"; table: {args.docs}"), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
