"""The leave model: features, evaluation, the bundled asset and its validation, and the fit."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from scrabble_core.leaves import (
    PROVENANCE_KEYS,
    LeaveModel,
    LeaveModelError,
    leave_features,
    leave_model_from_dict,
    load_leave_model,
)

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "fit_leaves.py"


@pytest.fixture(scope="module")
def bundled() -> LeaveModel:
    return load_leave_model()


@pytest.fixture(scope="module")
def fit_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fit_leaves", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fit_leaves"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _model(**weights: dict[str, float]) -> LeaveModel:
    tables: dict[str, dict[str, float]] = {"tiles": {}, "duplicates": {}, "balance": {}, "synergies": {}}
    tables |= weights
    return LeaveModel("AEIOU", tables, {})


def test_features_count_tiles_duplicates_balance_and_synergies() -> None:
    features = leave_features("EEQU?", "AEIOU", ("QU", "ER", "EE"))
    assert features == {
        ("tiles", "E"): 2,
        ("tiles", "Q"): 1,
        ("tiles", "U"): 1,
        ("tiles", "?"): 1,
        ("duplicates", "E"): 1,
        ("balance", "3/1"): 1,
        ("synergies", "QU"): 1,
        ("synergies", "EE"): 1,
    }
    assert leave_features("", "AEIOU", ("QU",)) == {("balance", "0/0"): 1}


def test_evaluate_sums_weights_in_any_order() -> None:
    model = _model(
        tiles={"S": 8.0, "Q": -7.0, "U": -1.0},
        duplicates={"S": -2.0},
        balance={"1/2": 1.5, "1/1": 0.5},
        synergies={"QU": 4.0},
    )
    assert model.evaluate("SS") == 8.0 * 2 - 2.0
    assert model.evaluate("QU") == model.evaluate("UQ") == -7.0 - 1.0 + 0.5 + 4.0
    assert model.evaluate("SQU") == 8.0 - 7.0 - 1.0 + 1.5 + 4.0
    assert model.evaluate("XYZ") == 0.0


def test_evaluate_is_the_weighted_sum_of_the_features(bundled: LeaveModel) -> None:
    # evaluate() sums a precomputed table, not leave_features(): both must give the same float, in
    # any tile order (summed in the sorted order), cached or not: the AI's choices depend on the exact
    # values.
    rng = random.Random(7)
    bag = (
        "AAAAAAAAABBCCDDDDEEEEEEEEEEEEFFGGGHHIIIIIIIIIJKLLLLMMNNNNNNOOOOOOOOPPQRRRRRRSSSSTTTTTTUUUUVVWWXYYZ??"
    )
    for _ in range(3000):
        leave = "".join(rng.sample(bag, rng.randint(0, 7)))
        features = leave_features("".join(sorted(leave)), bundled.vowels, bundled.synergies)
        expected = sum(
            bundled.weights[group].get(name, 0.0) * count for (group, name), count in features.items()
        )
        assert bundled.evaluate(leave) == expected
        assert bundled.evaluate("".join(sorted(leave, reverse=True))) == expected
        assert bundled.values([leave, leave[::-1]]) == [expected, expected]


def test_bundled_model_is_plausible(bundled: LeaveModel) -> None:
    assert all(key in bundled.provenance for key in PROVENANCE_KEYS)
    assert int(str(bundled.provenance["games"])) >= 1000
    assert bundled.evaluate("") == 0.0
    assert bundled.evaluate("?") > bundled.evaluate("S") > 0 > bundled.evaluate("Q")
    assert bundled.evaluate("QU") > bundled.evaluate("Q")
    assert bundled.evaluate("ERS") > bundled.evaluate("UUV")
    assert bundled.evaluate("IIII") < bundled.evaluate("I")


def test_to_dict_round_trips(bundled: LeaveModel) -> None:
    again = leave_model_from_dict(json.loads(json.dumps(bundled.to_dict())), "copy")
    assert again.weights == bundled.weights
    assert again.provenance == bundled.provenance
    assert again.evaluate("AERST?") == bundled.evaluate("AERST?")


def _valid() -> dict[str, object]:
    return {
        "format": 1,
        "provenance": {key: 1 for key in PROVENANCE_KEYS},
        "vowels": "AEIOU",
        "tiles": {"S": 8.0},
        "duplicates": {},
        "balance": {"0/0": 0.0},
        "synergies": {"QU": 3},
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": 2}, "format must be 1"),
        ({"extra": 1}, "unknown key 'extra'"),
        ({"provenance": {"games": 3}}, "provenance lacks"),
        ({"provenance": []}, "provenance must be a table"),
        ({"vowels": ""}, "vowels must be"),
        ({"tiles": [1, 2]}, "tiles must be a table"),
        ({"tiles": {"S": "8"}}, "tiles.S must be a finite number"),
        ({"tiles": {"S": True}}, "tiles.S must be a finite number"),
        ({"tiles": {"S": float("nan")}}, "tiles.S must be a finite number"),
        ({"balance": {"1/0": 5000}}, "not a plausible weight"),
    ],
)
def test_invalid_models_are_refused_with_the_reason(change: dict[str, object], message: str) -> None:
    data = _valid() | change
    with pytest.raises(LeaveModelError, match=message) as raised:
        leave_model_from_dict(data, "model.json")
    assert raised.value.source == "model.json"


def test_load_reports_the_file(tmp_path: Path) -> None:
    with pytest.raises(LeaveModelError, match="no such file"):
        load_leave_model(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(LeaveModelError, match=r"broken\.json: not valid JSON"):
        load_leave_model(broken)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_valid()), encoding="utf-8")
    assert load_leave_model(good).evaluate("S") == 8.0


def test_fit_recovers_known_weights(fit_script: ModuleType) -> None:
    leaves = ["S", "Q", "SQ", "E", "ES", "EQ", "", "SS", "QU", "U", "EU", "SU"] * 20
    truth = _model(tiles={"S": 8.0, "Q": -6.0, "E": 2.0, "U": -1.0}, synergies={"QU": 5.0})
    samples = [(leave, 30.0 + truth.evaluate(leave)) for leave in leaves]
    weights = fit_script.fit(samples, ridge=1e-6)
    fitted = LeaveModel("AEIOU", weights, {})
    for leave in set(leaves):
        assert fitted.evaluate(leave) == pytest.approx(truth.evaluate(leave), abs=0.05)
