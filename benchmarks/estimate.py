"""Time to estimate one question from its counts.

``estimate_question`` (maximum-likelihood estimate, standard errors and the
default interval) for binary, k = 5 and k = 20 questions, with interior and
boundary solutions, at n = 10^3 and n = 10^9. Each case is reported as its
median time per call and as a ratio to the baseline, the binary closed form
(Warner p = 0.75, interior counts, n = 10^3), measured in the same run.

Targets: no case above ``MAX_RATIO`` times the baseline and none above
``MAX_SECONDS``. The ``exact`` interval method is timed once per k for
information; it is not held to the targets.

Every case is timed in rounds: each round takes one sample of every case, in a
shuffled order, so that a noisy neighbour on a shared machine slows all cases
alike rather than a few of them. A sample is many calls back to back (enough to
take ``--sample-ms``), timed with ``time.perf_counter_ns`` with the garbage
collector paused as ``timeit`` does; a case's figure is the median of its
samples.

Run with ``make bench`` or::

    python -m benchmarks.estimate [--quick] [--json PATH]

It exits with status 1 when a case misses a target. See ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import scipy
from numpy.typing import ArrayLike

from estimation import ForcedResponse, Geometric, KaryRR, Warner, estimate_question
from estimation.designs import Design
from estimation.inference.intervals import DEFAULT_METHOD
from estimation.results import QuestionEstimate

MAX_RATIO = 100.0
MAX_SECONDS = 0.020
SIZES = (10**3, 10**9)
ROUNDS = 15
SAMPLE_MS = 25.0
QUICK_ROUNDS = 3
QUICK_SAMPLE_MS = 2.0
SEED = 20261122

# The unbiased estimates the counts are built to give, per k. Interior: inside
# the simplex, so the maximum-likelihood estimate is the unbiased one. Boundary:
# some options below zero, so the maximum-likelihood estimate has zeros.
_K20_INTERIOR = 0.85 ** np.arange(20)
TARGETS: dict[tuple[int, str], np.ndarray] = {
    (2, "interior"): np.array([0.7, 0.3]),
    (2, "boundary"): np.array([1.06, -0.06]),
    (5, "interior"): np.array([0.35, 0.25, 0.2, 0.12, 0.08]),
    (5, "boundary"): np.array([0.5, 0.3, 0.2, 0.04, -0.04]),
    (20, "interior"): _K20_INTERIOR / _K20_INTERIOR.sum(),
    (20, "boundary"): np.linspace(0.12, -0.02, 20),  # sums to 1; last 3 < 0
    # Counts 0..50 (geometric design): fewer with each count; for the boundary,
    # the largest counts' unbiased estimates below zero.
    (51, "interior"): 0.93 ** np.arange(51) / (0.93 ** np.arange(51)).sum(),
    (51, "boundary"): np.linspace(0.06, -0.0208, 51)
    / np.linspace(0.06, -0.0208, 51).sum(),
}


def _uneven_forced_response(k: int) -> ForcedResponse:
    """Forced response with p_truth = 1/2 and forced answers of unequal weight."""
    weights = np.linspace(2.0, 1.0, k)
    forced = 0.5 * weights / weights.sum()
    return ForcedResponse(p_truth=0.5, p_forced=tuple(float(v) for v in forced))


# (label, design) for every design that is held to the targets; the first is
# the baseline's.
DESIGNS: tuple[tuple[str, Design], ...] = (
    ("warner p=0.75", Warner(p=0.75)),
    ("krr eps=1", KaryRR(k=5, epsilon=1.0)),
    ("krr eps=1", KaryRR(k=20, epsilon=1.0)),
    ("forced_response uneven", _uneven_forced_response(20)),
    ("geometric m=50 eps=3", Geometric(m=50, epsilon=3.0)),
)


@dataclass
class Case:
    """One timed call of ``estimate_question``."""

    label: str
    design: Design
    solution: str
    n: int
    counts: list[int]
    method: str
    judged: bool
    reps: int = 1
    samples_ns: list[float] = field(default_factory=list)
    cpu_samples_ns: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        extra = "" if self.method == DEFAULT_METHOD else f" [{self.method}]"
        return (
            f"k={self.design.k} {self.label} {self.solution} "
            f"n=1e{round(math.log10(self.n))}{extra}"
        )

    def call(self) -> QuestionEstimate:
        return estimate_question(self.counts, self.design, ci_method=self.method)

    def sample(self) -> tuple[float, float]:
        """Wall-clock and CPU nanoseconds per call, over ``reps`` calls back to back.

        The CPU time (of this thread) leaves out the time other processes had
        the core, which shows how much a busy machine inflated the wall clock.
        """
        call, reps = self.call, self.reps
        enabled = gc.isenabled()
        gc.disable()
        try:
            cpu_start = time.thread_time_ns()
            start = time.perf_counter_ns()
            for _ in range(reps):
                call()
            elapsed = time.perf_counter_ns() - start
            cpu = time.thread_time_ns() - cpu_start
        finally:
            if enabled:
                gc.enable()
        return elapsed / reps, cpu / reps

    @property
    def median_ns(self) -> float:
        return statistics.median(self.samples_ns)

    @property
    def cpu_median_ns(self) -> float:
        return statistics.median(self.cpu_samples_ns)


def expected_counts(design: Design, target: ArrayLike, n: int) -> list[int]:
    """Counts of ``n`` reports whose unbiased estimate is ``target`` (to rounding).

    The report shares ``base + diagonal * target``, scaled to ``n`` and rounded
    by largest remainder so that they sum to ``n`` exactly. The same shares at
    every ``n``, so that only ``n`` differs between sizes.
    """
    target = np.asarray(target, dtype=float)
    share = (
        design.base + design.diagonal * target
        if design.uniform_plus_diagonal
        else target @ design.matrix
    )
    if np.any(share <= 0) or not math.isclose(float(share.sum()), 1.0):
        raise ValueError(f"target {target!r} gives impossible shares {share!r}")
    exact = share * n
    counts = np.floor(exact).astype(np.int64)
    short = n - int(counts.sum())
    order = np.argsort(-(exact - counts), kind="stable")
    counts[order[:short]] += 1
    return [int(c) for c in counts]


def check(case: Case) -> None:
    """Fail loudly when a case does not exercise what its name says."""
    result = case.call()
    problems = []
    if not result.solver.converged:
        problems.append("the solver did not converge")
    if case.design.k == 2 and result.solver.method != "closed_form":
        problems.append(f"binary solver is {result.solver.method}, not closed_form")
    zeros = bool(np.any(result.estimate == 0.0))
    outside = bool(np.any(result.unbiased < 0.0) or np.any(result.unbiased > 1.0))
    if case.solution == "boundary" and not (zeros and outside):
        problems.append("boundary case: the estimate has no zeros")
    # Under geometric noise over 51 counts, deconvolving 10^3 reports amplifies
    # the counts' rounding to whole numbers enough to put some estimates at
    # zero whatever the truth: only 10^9 reports can be held to "interior".
    noisy = not case.design.uniform_plus_diagonal and case.n < 10**6
    if case.solution == "interior" and (zeros or outside) and not noisy:
        problems.append("interior case: the estimate is at the boundary")
    if problems:
        raise AssertionError(f"{case.name}: {'; '.join(problems)}")


def build_cases() -> list[Case]:
    """The judged cases, baseline first, then the ``exact`` extras."""
    cases = []
    for label, design in DESIGNS:
        for solution in ("interior", "boundary"):
            target = TARGETS[(design.k, solution)]
            for n in SIZES:
                cases.append(
                    Case(
                        label=label,
                        design=design,
                        solution=solution,
                        n=n,
                        counts=expected_counts(design, target, n),
                        method=DEFAULT_METHOD,
                        judged=True,
                    )
                )
    # The exact method once per k: interior counts at the smaller n.
    seen: set[int] = set()
    for label, design in DESIGNS:
        # A count's per-option intervals are Wald's whatever the method.
        if design.k in seen or not design.uniform_plus_diagonal:
            continue
        seen.add(design.k)
        cases.append(
            Case(
                label=label,
                design=design,
                solution="interior",
                n=SIZES[0],
                counts=expected_counts(
                    design, TARGETS[(design.k, "interior")], SIZES[0]
                ),
                method="exact",
                judged=False,
            )
        )
    return cases


def calibrate(case: Case, sample_ns: float) -> None:
    """Warm the case up and choose enough calls per sample to take ``sample_ns``."""
    case.call()
    fastest = min(case.sample()[0] for _ in range(3))
    case.reps = max(1, math.ceil(sample_ns / fastest))


def run(cases: Sequence[Case], rounds: int, rng: random.Random) -> None:
    """One sample of every case per round, in a fresh random order each round."""
    order = list(cases)
    for _ in range(rounds):
        rng.shuffle(order)
        for case in order:
            wall, cpu = case.sample()
            case.samples_ns.append(wall)
            case.cpu_samples_ns.append(cpu)
        gc.collect()


def machine_facts() -> dict[str, Any]:
    try:
        usable: int | None = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        usable = None
    cpu_model = platform.processor() or None
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    cpu_model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "cpu_count": os.cpu_count(),
        "usable_cpus": usable,
        "cpu_model": cpu_model,
        "platform": platform.platform(),
        "load_average": _load_average(),
    }


def _load_average() -> list[float] | None:
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except (AttributeError, OSError):  # not on every platform
        return None


def _us(ns: float) -> str:
    return f"{ns / 1e3:,.1f}"


def report(
    cases: Sequence[Case],
    baseline: Case,
    facts: dict[str, Any],
    settings: dict[str, Any],
) -> dict[str, Any]:
    """Print the table and verdict; return the same figures as plain data."""
    base_ns = baseline.median_ns
    rows = []
    header = (
        f"{'case':<52} {'reps':>5} {'median µs':>11} {'min µs':>10} "
        f"{'max µs':>10} {'CPU µs':>10} {'× base':>7}  target"
    )
    print(header)
    print("-" * len(header))
    for case in cases:
        median = case.median_ns
        ratio = median / base_ns
        ok = ratio <= MAX_RATIO and median <= MAX_SECONDS * 1e9
        verdict = ("ok" if ok else "MISS") if case.judged else "(info)"
        if case is baseline:
            verdict = "baseline"
        print(
            f"{case.name:<52} {case.reps:>5} {_us(median):>11} "
            f"{_us(min(case.samples_ns)):>10} {_us(max(case.samples_ns)):>10} "
            f"{_us(case.cpu_median_ns):>10} {ratio:>7.2f}  {verdict}"
        )
        rows.append(
            {
                "name": case.name,
                "design": case.design.to_dict(),
                "k": case.design.k,
                "solution": case.solution,
                "n": case.n,
                "counts": case.counts,
                "ci_method": case.method,
                "judged": case.judged,
                "reps_per_sample": case.reps,
                "samples_us": [s / 1e3 for s in case.samples_ns],
                "median_us": median / 1e3,
                "min_us": min(case.samples_ns) / 1e3,
                "max_us": max(case.samples_ns) / 1e3,
                "cpu_samples_us": [s / 1e3 for s in case.cpu_samples_ns],
                "cpu_median_us": case.cpu_median_ns / 1e3,
                "ratio_to_baseline": ratio,
                "meets_targets": ok if case.judged else None,
            }
        )

    judged = [c for c in cases if c.judged]
    growth = []
    print("\nGrowth with n (median at n=1e9 / median at n=1e3):")
    for small in (c for c in judged if c.n == SIZES[0]):
        large = next(
            c
            for c in judged
            if c.n == SIZES[-1]
            and c.design is small.design
            and c.solution == small.solution
        )
        factor = large.median_ns / small.median_ns
        where = f"k={small.design.k} {small.label} {small.solution}"
        print(f"  {where:<44} {factor:6.2f}×")
        growth.append({"case": where, "factor": factor})

    wall = sum(sum(c.samples_ns) * c.reps for c in cases)
    cpu = sum(sum(c.cpu_samples_ns) * c.reps for c in cases)
    busy = wall / cpu if cpu > 0 else math.nan
    print(
        f"\nWall-clock / CPU time over all samples: {busy:.2f} "
        "(near 1 on an idle machine; above it, other processes had the CPU)."
    )

    slowest = max(judged, key=lambda c: c.median_ns)
    worst_ratio = slowest.median_ns / base_ns
    passed = worst_ratio <= MAX_RATIO and slowest.median_ns <= MAX_SECONDS * 1e9
    print(
        f"\nBaseline (binary closed form): {_us(base_ns)} µs. "
        f"Slowest judged case: {slowest.name}, {_us(slowest.median_ns)} µs "
        f"= {worst_ratio:.1f}× baseline."
    )
    print(
        f"{'PASS' if passed else 'FAIL'}: targets are ≤ {MAX_RATIO:g}× baseline "
        f"and ≤ {MAX_SECONDS * 1e3:g} ms per question."
    )
    return {
        "benchmark": "estimate_question",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": facts,
        "settings": settings,
        "targets": {"max_ratio": MAX_RATIO, "max_ms": MAX_SECONDS * 1e3},
        "baseline": baseline.name,
        "baseline_median_us": base_ns / 1e3,
        "cases": rows,
        "growth_with_n": growth,
        "wall_over_cpu": busy,
        "slowest": {"name": slowest.name, "median_us": slowest.median_ns / 1e3},
        "max_ratio": worst_ratio,
        "passed": passed,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.estimate", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="a fast smoke run")
    parser.add_argument("--json", metavar="PATH", type=Path, help="write figures here")
    parser.add_argument("--rounds", type=int, help=f"samples per case ({ROUNDS})")
    parser.add_argument(
        "--sample-ms", type=float, help=f"least time per sample ({SAMPLE_MS:g} ms)"
    )
    args = parser.parse_args(argv)
    rounds = args.rounds or (QUICK_ROUNDS if args.quick else ROUNDS)
    sample_ms = args.sample_ms or (QUICK_SAMPLE_MS if args.quick else SAMPLE_MS)
    if rounds < 1 or sample_ms <= 0:
        parser.error("--rounds and --sample-ms must be positive")

    started = time.perf_counter()
    facts = machine_facts()
    print(
        f"Python {facts['python']} ({facts['implementation']}), "
        f"NumPy {facts['numpy']}, SciPy {facts['scipy']}"
    )
    print(
        f"CPUs: {facts['cpu_count']} (usable {facts['usable_cpus']}), "
        f"{facts['cpu_model']}; {facts['platform']}"
    )
    print(f"Load average at start (1, 5, 15 min): {facts['load_average']}")
    print(
        f"estimate_question, default interval {DEFAULT_METHOD!r}; {rounds} rounds, "
        f"samples of ≥ {sample_ms:g} ms{' (quick)' if args.quick else ''}\n"
    )

    cases = build_cases()
    baseline = cases[0]
    for case in cases:
        check(case)
        calibrate(case, sample_ms * 1e6)
    run(cases, rounds, random.Random(SEED))

    settings = {
        "rounds": rounds,
        "sample_ms": sample_ms,
        "quick": args.quick,
        "seed": SEED,
        "default_ci_method": DEFAULT_METHOD,
        "gc_paused_during_samples": True,
    }
    figures = report(cases, baseline, facts, settings)
    figures["wall_seconds"] = time.perf_counter() - started
    figures["load_average_at_end"] = _load_average()
    print(f"({figures['wall_seconds']:.0f} s)")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"Figures written to {args.json}")
    return 0 if figures["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
