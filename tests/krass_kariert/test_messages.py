"""Reason codes in words: the engine's English, and the presenter's English and German.

The presenter never reads an error's English text: it translates the code's template and
renders the params, combinations through ``localize_param``.
"""

from __future__ import annotations

import random
import string
from collections import Counter
from collections.abc import Iterator
from types import ModuleType

import pytest

from kartentisch.cli.presenters import Presenter, load_presenter
from kartentisch.core.errors import IllegalActionError, KartentischError
from kartentisch.core.reasons import CORE_REASONS
from kartentisch.games.krass_kariert import KrassKariert, Play
from kartentisch.games.krass_kariert.actions import ACTIONS, NUM_ACTIONS
from kartentisch.games.krass_kariert.reasons import REASONS, combination_words
from kartentisch.locale import set_language

PRESENTER = load_presenter("krass-kariert")


@pytest.fixture(autouse=True)
def in_english() -> Iterator[None]:
    """Every test starts in English and leaves the process in English."""
    set_language("en")
    yield
    set_language("en")


def explain(error: KartentischError) -> str:
    message = PRESENTER.explain_error(error, "", None)
    assert message is not None
    return message


def test_the_presenter_translates_codes_and_matches_no_text() -> None:
    assert type(PRESENTER).explain_error is Presenter.explain_error


def test_kk_codes_are_prefixed_and_do_not_clash_with_the_core() -> None:
    assert all(code.startswith("kk.") for code in REASONS)
    assert not set(REASONS) & set(CORE_REASONS)
    assert KrassKariert.reasons is REASONS


def test_a_refusal_in_english_and_german(kk: ModuleType) -> None:
    s = kk.build(["12 12 1", "5 9 X 7", "4 4", "6 7"], reserves=["", "1", "", ""], leader=0)
    kk.play(s, "1-2")
    error = s.why_illegal(Play(1))
    assert error.code == "kk.does_not_beat"
    assert error.params["combination"] == {"kind": "single", "high": 9}
    english = "Not allowed now: 2. That is a single 9, which does not beat a pair of 12s."
    assert str(error) == english and explain(error) == english
    set_language("de")
    assert explain(error) == ("Jetzt nicht erlaubt: 2. Das ist ein Solo 9 und damit nicht höher"
                              " als ein Paar 12er.")
    error = s.why_illegal(Play(2, 2))
    assert explain(error) == ("Jetzt nicht erlaubt: 3-4. Wofür die X-Karte auch steht, X-7 ist"
                              " nicht höher als ein Paar 12er.")


@pytest.mark.parametrize(
    ("param", "english", "german"),
    [
        ({"kind": "single", "high": 9}, "a single 9", "ein Solo 9"),
        ({"kind": "run2", "high": 5}, "a 2-run up to 5", "eine 2er-Straße bis 5"),
        ({"kind": "pair", "high": 7}, "a pair of 7s", "ein Paar 7er"),
        ({"kind": "run3", "high": 9}, "a 3-run up to 9", "eine 3er-Straße bis 9"),
        ({"kind": "triple", "high": 3}, "a triple of 3s", "ein Drilling 3er"),
        (None, "nothing", "nichts"),
    ],
)
def test_combinations_in_words(param: object, english: str, german: str) -> None:
    assert combination_words(param) == english  # type: ignore[arg-type]
    assert PRESENTER.localize_param("best", param) == english  # type: ignore[arg-type]
    set_language("de")
    assert PRESENTER.localize_param("combination", param) == german  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["pair", 7, [1], {"kind": "quad", "high": 2},
                                   {"kind": "pair", "high": "7"}, {"kind": 3}])
def test_other_params_are_left_to_the_default(value: object) -> None:
    assert PRESENTER.localize_param("best", value) is None  # type: ignore[arg-type]
    assert PRESENTER.localize_param("cards", "X-7") is None


def _fields(template: str) -> set[str]:
    return {f for _t, f, _s, _c in string.Formatter().parse(template) if f}


def test_every_refusal_fills_its_template_in_both_languages() -> None:
    """Illegal ids from random games: each error's code is known, its params fill every
    field of its template, and it reads the same in English from engine and presenter."""
    table = CORE_REASONS | REASONS
    rng = random.Random(3)
    errors: dict[tuple[str, str], IllegalActionError] = {}
    per_code: Counter[str] = Counter()
    for players in (3, 4, 5):
        game = KrassKariert(players, {"x_with_x": players == 4})
        s = game.new_initial_state(players)
        while not s.is_terminal():
            legal = set(s.legal_action_ids())
            for aid in rng.sample(range(NUM_ACTIONS), 25):
                if aid not in legal:
                    error = s.why_illegal(ACTIONS[aid])
                    key = (error.code, str(error))
                    if key not in errors and per_code[error.code] < 12:  # a few of each
                        errors[key] = error
                        per_code[error.code] += 1
            s.apply(rng.choice(s.legal_actions()))
    for error in errors.values():
        assert isinstance(error, IllegalActionError)
        assert _fields(table[error.code]) <= set(error.params), error.code
        assert explain(error) == str(error)
    set_language("de")
    for error in errors.values():
        german = explain(error)
        assert "{" not in german and german != str(error), german
    assert len(per_code) >= 8  # the sweep meets most reasons
