"""Time to estimate one check-all-that-apply question of m = 20 items.

``estimate_items`` (per-item estimates, standard errors, the default interval
and the Bonferroni band) for symmetric and optimized unary encoding at
m = 20, with interior and boundary counts, at n = 10^3 and n = 10^9. Each case
is reported as its median time per call and as a ratio to the baseline of
``benchmarks.estimate`` (``estimate_question``, Warner p = 0.75, interior
counts, n = 10^3), measured in the same run. Also, for information, tallying
per-item counts from 10^4 distinct reported bit masks (``item_counts``).

Targets: those of ``benchmarks.estimate``, no case above ``MAX_RATIO`` times
the baseline and none above ``MAX_SECONDS``.

Rounds as in ``benchmarks.estimate``: each round takes one sample of every
case in a shuffled order; a case's figure is the median of its samples.

    python -m benchmarks.unary [--quick] [--json PATH]

It exits with status 1 when a case misses a target. See ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from estimation import Warner, estimate_question
from estimation.kinds.multiselect.designs import (
    OptimizedUnary,
    SymmetricUnary,
    UnaryEncoding,
    item_counts,
)
from estimation.kinds.multiselect.estimate import estimate_items

from .estimate import MAX_RATIO, MAX_SECONDS, QUICK_ROUNDS, ROUNDS, SEED

M = 20
SIZES = (10**3, 10**9)
SAMPLE_S = 0.025
QUICK_SAMPLE_S = 0.002
# Unbiased estimates the counts are built to give: interior inside [0, 1];
# boundary with the last four items below zero (the estimate clips them and
# some intervals fall back to the profile likelihood).
TARGETS = {
    "interior": 0.85 ** np.arange(M) * 0.9,
    "boundary": np.linspace(0.3, -0.05, M),
}


@dataclass
class Case:
    name: str
    call: Callable[[], Any]
    judged: bool = True
    reps: int = 1
    samples_ns: list[float] = field(default_factory=list)
    cpu_samples_ns: list[float] = field(default_factory=list)

    def sample(self) -> None:
        """Wall-clock and CPU (this thread's) nanoseconds per call: on a shared
        machine their ratio shows how much other processes slowed the run."""
        enabled = gc.isenabled()
        gc.disable()
        try:
            cpu_start = time.thread_time_ns()
            start = time.perf_counter_ns()
            for _ in range(self.reps):
                self.call()
            self.samples_ns.append((time.perf_counter_ns() - start) / self.reps)
            self.cpu_samples_ns.append((time.thread_time_ns() - cpu_start) / self.reps)
        finally:
            if enabled:
                gc.enable()

    @property
    def median_ns(self) -> float:
        return statistics.median(self.samples_ns)

    @property
    def cpu_median_ns(self) -> float:
        return statistics.median(self.cpu_samples_ns)


def ticked_for(design: UnaryEncoding, target: np.ndarray, n: int) -> list[int]:
    share = design.q + (design.p - design.q) * target
    return [int(round(float(s) * n)) for s in share]


def cases() -> list[Case]:
    baseline = Warner(p=0.75)
    yes = round((0.25 + 0.5 * 0.3) * 1000)
    found = [
        Case(
            "baseline: k = 2 warner interior, estimate_question, n = 1e3",
            lambda: estimate_question([1000 - yes, yes], baseline),
            judged=False,
        )
    ]
    for design in (
        SymmetricUnary(m=M, epsilon_one_hot=1.0),
        OptimizedUnary(m=M, epsilon_one_hot=1.0),
    ):
        for solution, target in TARGETS.items():
            for n in SIZES:
                ticked = ticked_for(design, target, n)
                found.append(
                    Case(
                        f"m = {M} {design.name} {solution} n = 1e{len(str(n)) - 1}",
                        lambda n=n, ticked=ticked, design=design: estimate_items(
                            n, ticked, design
                        ),
                    )
                )
    rng = np.random.default_rng(SEED)
    masks = {int(v): 1 for v in rng.choice(1 << M, size=10_000, replace=False)}
    found.append(
        Case(
            f"tally: item_counts of 10^4 distinct masks, m = {M}",
            lambda: item_counts(masks, M),
            judged=False,
        )
    )
    return found


def calibrate(case: Case, sample_s: float) -> None:
    start = time.perf_counter()
    case.call()
    once = max(time.perf_counter() - start, 1e-7)
    case.reps = max(1, int(sample_s / once))


def run(rounds: int, sample_s: float) -> tuple[list[Case], bool]:
    found = cases()
    for case in found:
        calibrate(case, sample_s)
    shuffler = random.Random(SEED)
    for _ in range(rounds):
        order = found[:]
        shuffler.shuffle(order)
        for case in order:
            case.sample()
    baseline = found[0].median_ns
    passed = all(
        c.median_ns <= MAX_SECONDS * 1e9 and c.median_ns / baseline <= MAX_RATIO
        for c in found
        if c.judged
    )
    return found, passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.unary")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rounds = QUICK_ROUNDS if args.quick else ROUNDS
    sample_s = QUICK_SAMPLE_S if args.quick else SAMPLE_S
    started = time.perf_counter()
    found, passed = run(rounds, sample_s)
    baseline = found[0].median_ns
    print(
        f"{'case':64s} {'reps':>5s} {'median µs':>10s} {'CPU µs':>10s} "
        f"{'× baseline':>10s}"
    )
    rows = []
    for case in found:
        ratio = case.median_ns / baseline
        print(
            f"{case.name:64s} {case.reps:5d} {case.median_ns / 1e3:10,.0f} "
            f"{case.cpu_median_ns / 1e3:10,.0f} {ratio:10.2f}"
        )
        rows.append(
            {
                "case": case.name,
                "reps": case.reps,
                "median_us": case.median_ns / 1e3,
                "cpu_median_us": case.cpu_median_ns / 1e3,
                "ratio": ratio,
                "judged": case.judged,
            }
        )
    verdict = "PASS" if passed else "FAIL"
    print(f"{rounds} rounds in {time.perf_counter() - started:.0f} s: {verdict}")
    if args.json:
        args.json.write_text(json.dumps({"cases": rows, "passed": passed}, indent=1))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
