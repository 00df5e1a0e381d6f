"""Strata: a response's direct answers as one integer, and back."""

import itertools

from surveys.respond.strata import stratum_decode, stratum_encode


def test_every_combination_round_trips_to_a_distinct_code():
    sizes = [4, 3, 5]
    codes = set()
    for levels in itertools.product(*(range(s) for s in sizes)):
        code = stratum_encode(levels, sizes)
        assert stratum_decode(code, sizes) == list(levels)
        codes.add(code)
    assert codes == set(range(4 * 3 * 5))


def test_a_survey_without_direct_questions_has_one_stratum():
    assert stratum_encode([], []) == 0
    assert stratum_decode(0, []) == []
