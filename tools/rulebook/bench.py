"""How fast the rules search answers, and how it compares with SQLite FTS5 (not a timed test).

    python -m tools.rulebook.bench              # ms per query over the whole rulebook
    python -m tools.rulebook.bench --compare    # also: hit rates and speed of the alternatives

Each timed pass starts with empty word caches, so every query pays for its own typo fixing, as a
new query typed at the table would.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

from referee.engine.house_rules import HouseRules
from referee.rulebook.kb import entries
from referee.rulebook.search import DEFAULT_PARAMS, Index, Params, _fields, default_index, search
from referee.rulebook.text import STOPWORDS, stem, terms

from .evaluate import DEFAULT_CASE_FILES, Case, Report, evaluate, load_cases

Searcher = Callable[[str], list[str]]


@dataclass(frozen=True)
class Timing:
    """Per-query latency over some passes of a query set, in milliseconds."""

    mean_ms: float
    median_ms: float
    p95_ms: float
    max_ms: float
    queries: int


def _clear_caches(index: Index) -> None:
    stem.cache_clear()
    index.speller.correct.cache_clear()


def time_queries(
    run: Callable[[str], object], queries: Sequence[str], passes: int, reset: Callable[[], None]
) -> Timing:
    """Time `run` on every query, `passes` times, calling `reset` before each pass."""
    samples = []
    for _ in range(passes):
        reset()
        for query in queries:
            start = time.perf_counter()
            run(query)
            samples.append((time.perf_counter() - start) * 1000.0)
    samples.sort()
    return Timing(
        mean_ms=statistics.fmean(samples),
        median_ms=statistics.median(samples),
        p95_ms=samples[int(0.95 * (len(samples) - 1))],
        max_ms=samples[-1],
        queries=len(samples),
    )


class Fts5Searcher:
    """The same rulebook in an in-memory SQLite FTS5 table, ranked by its built-in bm25()."""

    def __init__(self, normalise: bool, index: Index) -> None:
        self.normalise = normalise
        self.index = index
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        tokenizer = "unicode61" if normalise else "porter unicode61"
        self.db.execute(
            f"CREATE VIRTUAL TABLE kb USING fts5(id UNINDEXED, title, aliases, questions, answer, reasoning, "
            f"tokenize='{tokenizer}')"
        )
        rows = []
        for item in entries():
            fields = _fields(item)
            if normalise:
                # Our own terms (synonyms, stems) stored as plain words, so FTS5 only does the ranking.
                values = [" ".join(" ".join(terms(phrase)) for phrase in fields[name]) for name in _COLUMNS]
            else:
                values = [" ".join(fields[name]) for name in _COLUMNS]
            rows.append((item.id, *values))
        self.db.executemany("INSERT INTO kb VALUES (?, ?, ?, ?, ?, ?)", rows)
        weights = ", ".join(str(DEFAULT_PARAMS.weights[name]) for name in _COLUMNS)
        self.sql = f"SELECT id FROM kb WHERE kb MATCH ? ORDER BY bm25(kb, 0, {weights}) LIMIT 10"

    def __call__(self, query: str) -> list[str]:
        if self.normalise:
            tokens = self.index.query_tokens(query)
        else:
            plain = "".join(ch if ch.isalnum() else " " for ch in query.lower()).split()
            tokens = [word for word in plain if word not in STOPWORDS]
        if not tokens:
            return []
        match = " OR ".join('"' + token.replace('"', "") + '"' for token in dict.fromkeys(tokens))
        return [row[0] for row in self.db.execute(self.sql, (match,))]


_COLUMNS = ("title", "aliases", "questions", "answer", "reasoning")


def fts5_available() -> bool:
    """True if this Python's SQLite was built with FTS5."""
    try:
        sqlite3.connect(":memory:").execute("CREATE VIRTUAL TABLE probe USING fts5(x)")
    except sqlite3.OperationalError:
        return False
    return True


def _ours(params: Params) -> tuple[Index, Searcher]:
    index = Index(entries(), params)

    def run(query: str) -> list[str]:
        return [index.items[doc].id for _, doc in index.scores(query)[:10]]

    return index, run


def main(argv: Sequence[str] | None = None) -> int:
    """Print ms per query (and with --compare, the alternatives' hit rates and speed)."""
    parser = argparse.ArgumentParser(prog="python -m tools.rulebook.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--passes", type=int, default=20, help="timed passes over the query set (default 20)")
    parser.add_argument("--compare", action="store_true", help="also measure SQLite FTS5 and ablations")
    args = parser.parse_args(argv)

    cases: list[Case] = []
    sets: dict[str, tuple[Case, ...]] = {}
    for path in DEFAULT_CASE_FILES:
        if path.exists():
            sets[path.stem] = load_cases(path)
            cases.extend(sets[path.stem])
    queries = [case.query for case in cases] or ["bomb last card", "deck ran out", "skip with 2 players"]
    # Also the prefixes of each query, as a search box sends them while someone types.
    typed = [query[:cut] for query in queries for cut in range(3, len(query) + 1, 3)]

    start = time.perf_counter()
    default_index.cache_clear()
    index = default_index()
    build_ms = (time.perf_counter() - start) * 1000.0
    print(f"Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}; {len(entries())} entries")
    print(f"index build (once per process): {build_ms:.1f} ms")

    table = HouseRules(bomb_last_card="round_only")
    for label, workload in (("whole queries", queries), ("as-you-type prefixes", typed)):
        timing = time_queries(lambda query: search(query, table), workload, args.passes, lambda: _clear_caches(index))
        print(
            f"search() on {label}: mean {timing.mean_ms:.3f} ms, median {timing.median_ms:.3f}, "
            f"p95 {timing.p95_ms:.3f}, max {timing.max_ms:.3f} ms/query ({timing.queries} queries)"
        )

    if args.compare:
        _compare(sets, queries, args.passes)
    return 0


def _compare(sets: dict[str, tuple[Case, ...]], queries: list[str], passes: int) -> None:
    contenders: list[tuple[str, Searcher, Callable[[], None]]] = []
    index, ours = _ours(DEFAULT_PARAMS)
    contenders.append(("ours: BM25F + posterior + topics + pairs + speller", ours, partial(_clear_caches, index)))
    for label, params in (
        ("ours without the naive Bayes posterior", replace(DEFAULT_PARAMS, typical_weight=0.0)),
        (
            "ours without the posterior, with the one-kind-of-game cut it had before (0.2)",
            replace(DEFAULT_PARAMS, typical_weight=0.0, scope_penalty=0.2),
        ),
        ("ours without the players' words", replace(DEFAULT_PARAMS, player_words=False)),
        ("ours without the story table", replace(DEFAULT_PARAMS, story_boost=0.0)),
        ("ours without named topics", replace(DEFAULT_PARAMS, exact_boost=0.0)),
        ("ours without word pairs", replace(DEFAULT_PARAMS, bigram_weight=0.0)),
        ("ours without the one-kind-of-game cut", replace(DEFAULT_PARAMS, scope_penalty=0.0)),
        ("ours without the narrow-ruling cut", replace(DEFAULT_PARAMS, focus_penalty=0.0)),
        (
            "ours with the early knobs (full IDF, k1 1.2, pairs 1.0)",
            replace(DEFAULT_PARAMS, idf_power=1.0, k1=1.2, bigram_weight=1.0),
        ),
        ("ours + nearest example question (30 % of the score)", replace(DEFAULT_PARAMS, question_weight=0.3)),
    ):
        variant_index, variant = _ours(params)
        contenders.append((label, variant, partial(_clear_caches, variant_index)))
    _, no_speller = _ours(replace(DEFAULT_PARAMS, fix_typos=False))
    contenders.append(("ours without typo fixing", no_speller, stem.cache_clear))
    if fts5_available():
        fts_ours = Fts5Searcher(normalise=True, index=index)
        contenders.append(("FTS5 bm25 on our terms (+ speller)", fts_ours, partial(_clear_caches, index)))
        fts_raw = Fts5Searcher(normalise=False, index=index)
        contenders.append(("FTS5 bm25, porter tokenizer, raw text, stopwords dropped", fts_raw, lambda: None))
    else:
        print("SQLite here has no FTS5: skipped")

    names = list(sets)
    header = " | ".join(f"{name} top-1 / top-3" for name in names)
    print(f"\n| searcher | {header} | ms/query (mean) |")
    print("|---|" + "---|" * len(names) + "---|")
    for label, searcher, reset in contenders:
        reports: list[Report] = [evaluate(sets[name], searcher) for name in names]
        timing = time_queries(searcher, queries, passes, reset)
        rates = " | ".join(f"{report.top1:.1%} / {report.top3:.1%}" for report in reports)
        print(f"| {label} | {rates} | {timing.mean_ms:.3f} |")


if __name__ == "__main__":
    raise SystemExit(main())
