"""A published survey with simulated randomized responses, for the export tests."""

from __future__ import annotations

import numpy as np

from estimation import simulate_reports
from surveys.models import Survey
from surveys.respond.submissions import response_record

# True answer shares per question of the demo survey (warner, forced response,
# krr with four options, direct age group). The age group's last option is rare,
# so one subgroup falls below the dashboard's minimum size.
SHARES = ([0.7, 0.3], [0.8, 0.2], [0.4, 0.3, 0.2, 0.1], [0.45, 0.35, 0.17, 0.03])


def store_simulated(survey: Survey, n: int, seed: int = 20261123) -> list[str]:
    """Store ``n`` responses randomized as the browser would; returns their keys."""
    rng = np.random.default_rng(seed)
    questions = list(survey.questions.all())
    reports = [
        simulate_reports(q.get_design(), rng.choice(len(s), size=n, p=s), rng)
        for q, s in zip(questions, SHARES, strict=True)
    ]
    keys = []
    for i in range(n):
        key = "".join(f"{int(v):02x}" for v in rng.integers(0, 256, 16))
        answers = [
            {"question": q.pk, "report": int(r[i]), "spec_version": q.spec_version}
            for q, r in zip(questions, reports, strict=True)
        ]
        response_record(
            survey=survey, payload={"respondent_key": key, "answers": answers}
        )
        keys.append(key)
    return keys
