"""The queue rotation's pure parts (`spark.routing.rotation`): WSO2's cursor carried across runs
deals as one run does (what a stream's checkpoint relies on), and the micro-batch order is
Spark's ascending order with NULLs last."""
from __future__ import annotations

import math
import random

from jms_selector_spark.spark.routing.rotation import deal, order_key

NAMES = ["a", "b", "c", "d"]
INDEX = {n: i for i, n in enumerate(NAMES)}


def test_the_cursor_carried_across_any_split_deals_as_one_run():
    rnd = random.Random(5)
    matches = [rnd.sample(NAMES, rnd.randrange(0, 5)) for _ in range(300)]
    whole, _ = deal(matches, INDEX, len(NAMES), 0)
    for _ in range(20):
        cuts = sorted(rnd.sample(range(1, len(matches)), 5))
        picks, cursor = [], 0
        for lo, hi in zip([0] + cuts, cuts + [len(matches)]):
            part, cursor = deal(matches[lo:hi], INDEX, len(NAMES), cursor)
            picks += part
        assert picks == whole


def test_the_cursor_is_wso2s():
    # the first matching consumer at or after the cursor, which moves past it; none: no pick
    picks, cursor = deal([["a", "b"], ["a", "b"], ["a", "b"], [], ["d", "a"], ["c"]], INDEX, 4, 0)
    assert [None if p is None else NAMES[p] for p in picks] == ["a", "b", "a", None, "d", "c"]
    assert cursor == 3


def test_order_key_is_ascending_with_nan_after_numbers_and_nulls_last():
    rows = [{"t": 3.0, "id": "b"}, {"t": None, "id": "a"}, {"t": float("nan"), "id": "a"}, {"t": -1.0, "id": "z"},
            {"t": 3.0, "id": "a"}, {"t": 3.0, "id": None}]
    ordered = sorted(rows, key=order_key)
    assert [(r["t"], r["id"]) for r in ordered[:4]] == [(-1.0, "z"), (3.0, "a"), (3.0, "b"), (3.0, None)]
    assert math.isnan(ordered[4]["t"]) and ordered[5]["t"] is None
    assert order_key(None) == ()
