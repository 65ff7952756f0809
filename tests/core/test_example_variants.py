"""The example variants of ``assets/variants/examples``: every AI level plays a whole game on each."""

from __future__ import annotations

import pytest

from scrabble_core.ai import AI_LEVELS, ExpertBudget, Level
from scrabble_core.lexicon import Lexicon
from scrabble_core.movegen import MoveGenerator
from scrabble_core.selfplay import play_game
from scrabble_core.variant import example_variants_dir, load_variant

EXAMPLES = sorted(path.stem for path in example_variants_dir().glob("*.toml"))


def test_the_examples() -> None:
    assert EXAMPLES == ["diamond", "infinite", "letter-sets", "standard-program"]


@pytest.mark.slow
@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("level", AI_LEVELS)
def test_every_level_plays_a_whole_game(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, name: str, level: Level
) -> None:
    variant = load_variant(example_variants_dir() / f"{name}.toml")
    record = play_game(
        variant,
        enable_lexicon,
        enable_generator,
        [level, Level.HARD],
        f"{name}-{level}",
        budget=ExpertBudget(1, 20),
    )
    assert record.winners
    assert len(record.turns) > 5
