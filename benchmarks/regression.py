"""A logistic regression fit on a million responses, against estimating the prevalence.

The data: 10^6 simulated responses to a Warner (p = 0.75) yes/no question and
three direct questions (5, 4 and 3 options: 60 covariate patterns, 10
coefficients), drawn once from a fixed seed as per-response option codes.

Two operations, each starting from the per-response codes:

- ``estimate`` (the baseline): the core of an estimate run for this question.
  The responses are tallied into counts per (covariate pattern, report) with
  ``np.ravel_multi_index`` and ``np.bincount``, the question's counts are summed
  from that table, and ``estimate_question`` (maximum-likelihood estimate,
  standard errors, the default interval and warnings) runs on them.
- ``breakdown`` (for information): the baseline plus what the run adds for
  the dashboard's breakdown: ``estimate_question`` for each of the 12
  subgroups (each level of each direct question).
- ``regression``: the same tally, then ``fit_logistic`` on the 60 patterns
  with everything it computes (the fit, observed-information standard errors,
  Wald and profile intervals for every coefficient, a likelihood-ratio test per
  covariate and for the model, predicted prevalences with intervals).

Timing: in each of ``--rounds`` rounds both operations are timed once, in a
shuffled order, with the garbage collector paused (as ``timeit`` does); the
figure is the median. Memory: each operation once more under ``tracemalloc``,
its peak of Python and NumPy allocations above what was allocated before.

Target: the regression at most ``MAX_RATIO`` (3) times the baseline
(``estimate``), in time and in peak memory. Run with ``make bench-regression`` or::

    python -m benchmarks.regression [--quick] [--rounds N] [--json PATH]

It exits with status 1 when the target is missed. See ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from scipy.special import expit

from benchmarks.estimate import machine_facts
from estimation import Warner, estimate_question
from estimation.inference.regression import Factor, LogisticFit, fit_logistic

MAX_RATIO = 3.0
RESPONSES = 10**6
QUICK_RESPONSES = 10**5
ROUNDS = 15
QUICK_ROUNDS = 3
SEED = 20261125
DESIGN = Warner(p=0.75)
FACTORS = (
    Factor("age", ("18-24", "25-34", "35-44", "45-54", "55+")),
    Factor("faculty", ("arts", "science", "medicine", "law")),
    Factor("year", ("first", "second", "third")),
)
# Intercept, then each factor's non-reference levels.
BETA = np.array([-1.2, 0.2, 0.4, 0.6, 0.8, -0.3, 0.5, 0.1, 0.3, -0.2])
SHAPE = tuple(len(f.levels) for f in FACTORS)


@dataclass(frozen=True)
class Data:
    """Per-response option codes: one array per direct question, and the report."""

    covariates: tuple[np.ndarray, ...]
    report: np.ndarray

    @property
    def n(self) -> int:
        return int(self.report.size)


def simulate(n: int, seed: int = SEED) -> Data:
    rng = np.random.default_rng(seed)
    codes = tuple(rng.integers(0, k, n) for k in SHAPE)
    eta = np.full(n, BETA[0])
    column = 1
    for factor, values in zip(FACTORS, codes, strict=True):
        for level in range(1, len(factor.levels)):
            eta += BETA[column] * (values == level)
            column += 1
    truth = rng.random(n) < expit(eta)
    m = DESIGN.matrix
    report = (rng.random(n) < np.where(truth, m[1, 1], m[0, 1])).astype(np.int64)
    return Data(codes, report)


def tally(data: Data) -> np.ndarray:
    """Counts per (pattern..., report): one pass over the codes."""
    index = np.ravel_multi_index((*data.covariates, data.report), (*SHAPE, 2))
    return np.bincount(index, minlength=int(np.prod(SHAPE)) * 2).reshape(*SHAPE, 2)


def estimate(data: Data) -> Any:
    """The baseline: the question's counts and its estimate."""
    table = tally(data)
    return estimate_question(table.sum(axis=tuple(range(len(SHAPE)))), DESIGN)


def breakdown(data: Data) -> list[Any]:
    """The question overall and by each direct question."""
    table = tally(data)
    axes = tuple(range(len(SHAPE)))
    results = [estimate_question(table.sum(axis=axes), DESIGN)]
    for keep in axes:
        margin = table.sum(axis=tuple(a for a in axes if a != keep))
        results.extend(estimate_question(row, DESIGN) for row in margin)
    return results


def regression(data: Data) -> LogisticFit:
    table = tally(data).reshape(-1, 2)
    patterns = np.stack(np.unravel_index(np.arange(table.shape[0]), SHAPE), axis=1)
    present = table.sum(axis=1) > 0
    return fit_logistic(
        design=DESIGN,
        factors=FACTORS,
        patterns=patterns[present],
        reports=table[present],
    )


OPERATIONS: dict[str, Callable[[Data], Any]] = {
    "estimate": estimate,
    "breakdown": breakdown,
    "regression": regression,
}


def check(data: Data) -> None:
    """Fail loudly unless both operations do what their names say."""
    results = breakdown(data)
    if len(results) != 1 + sum(SHAPE) or estimate(data).n != data.n:
        raise AssertionError("the baseline did not estimate every subgroup")
    fit = regression(data)
    problems = []
    if not fit.converged:
        problems.append("the fit did not converge")
    if fit.boundary or fit.separation or fit.warnings:
        problems.append(f"unexpected warnings: {fit.warnings}")
    if fit.n != data.n:
        problems.append(f"the fit used {fit.n} responses, not {data.n}")
    if any(c.profile_ci is None or None in c.profile_ci for c in fit.coefficients):
        problems.append("a profile interval is missing")
    # The estimates should be within 5 standard errors of the truth.
    for c, truth in zip(fit.coefficients, BETA, strict=True):
        if c.estimate is None or abs(c.estimate - truth) > 5 * (c.std_error or 0):
            problems.append(f"{c.name} = {c.estimate}, far from {truth}")
    if problems:
        raise AssertionError("; ".join(problems))


def timed(operation: Callable[[Data], Any], data: Data) -> float:
    """Seconds for one call, with the garbage collector paused."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        operation(data)
        return time.perf_counter() - start
    finally:
        if enabled:
            gc.enable()


def peak_bytes(operation: Callable[[Data], Any], data: Data) -> int:
    """Peak traced allocation during one call, above what was allocated before."""
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        operation(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before


def run(data: Data, rounds: int, rng: random.Random) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {name: [] for name in OPERATIONS}
    for name, operation in OPERATIONS.items():  # warm up
        operation(data)
        samples[name].clear()
    order = list(OPERATIONS)
    for _ in range(rounds):
        rng.shuffle(order)
        for name in order:
            samples[name].append(timed(OPERATIONS[name], data))
    return samples


def report(
    data: Data,
    samples: dict[str, list[float]],
    memory: dict[str, int],
    facts: dict[str, Any],
    settings: dict[str, Any],
) -> dict[str, Any]:
    medians = {name: statistics.median(values) for name, values in samples.items()}
    header = (
        f"{'operation':<12} {'median ms':>10} {'min ms':>8} {'max ms':>8} "
        f"{'peak MB':>8} {'× base':>7}"
    )
    print(header)
    print("-" * len(header))
    for name, values in samples.items():
        print(
            f"{name:<12} {medians[name] * 1e3:>10.1f} {min(values) * 1e3:>8.1f} "
            f"{max(values) * 1e3:>8.1f} {memory[name] / 2**20:>8.1f} "
            f"{medians[name] / medians['estimate']:>7.2f}"
        )
    time_ratio = medians["regression"] / medians["estimate"]
    memory_ratio = memory["regression"] / memory["estimate"]
    tally_ms = statistics.median(timed(tally, data) for _ in range(5)) * 1e3
    print(f"\n(the tally alone, in both: {tally_ms:.1f} ms)")
    passed = time_ratio <= MAX_RATIO and memory_ratio <= MAX_RATIO
    print(
        f"{'PASS' if passed else 'FAIL'}: regression / estimate = {time_ratio:.2f}× "
        f"in time and {memory_ratio:.2f}× in peak memory; target ≤ {MAX_RATIO:g}×."
    )
    return {
        "benchmark": "regression",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": facts,
        "settings": settings,
        "responses": data.n,
        "patterns": int(np.prod(SHAPE)),
        "coefficients": len(BETA),
        "median_ms": {k: v * 1e3 for k, v in medians.items()},
        "samples_ms": {k: [s * 1e3 for s in v] for k, v in samples.items()},
        "peak_mb": {k: v / 2**20 for k, v in memory.items()},
        "tally_ms": tally_ms,
        "time_ratio": time_ratio,
        "memory_ratio": memory_ratio,
        "target_ratio": MAX_RATIO,
        "passed": passed,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.regression", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="10^5 responses")
    parser.add_argument("--rounds", type=int, help=f"samples per operation ({ROUNDS})")
    parser.add_argument("--json", metavar="PATH", type=Path, help="write figures here")
    args = parser.parse_args(argv)
    rounds = args.rounds or (QUICK_ROUNDS if args.quick else ROUNDS)
    if rounds < 1:
        parser.error("--rounds must be positive")
    n = QUICK_RESPONSES if args.quick else RESPONSES
    started = time.perf_counter()
    facts = machine_facts()
    print(
        f"Python {facts['python']}, NumPy {facts['numpy']}, SciPy {facts['scipy']}; "
        f"CPUs: {facts['cpu_count']} (usable {facts['usable_cpus']}), "
        f"{facts['cpu_model']}"
    )
    print(f"Load average at start (1, 5, 15 min): {facts['load_average']}")
    print(
        f"{n:,} responses, {len(FACTORS)} covariates "
        f"({' × '.join(map(str, SHAPE))} patterns), {rounds} rounds\n"
    )
    data = simulate(n)
    check(data)
    samples = run(data, rounds, random.Random(SEED))
    memory = {name: peak_bytes(op, data) for name, op in OPERATIONS.items()}
    settings = {"rounds": rounds, "quick": args.quick, "seed": SEED}
    figures = report(data, samples, memory, facts, settings)
    figures["wall_seconds"] = time.perf_counter() - started
    print(f"({figures['wall_seconds']:.0f} s)")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"Figures written to {args.json}")
    return 0 if figures["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
