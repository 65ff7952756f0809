"""The AI's challenges: the words a challengeable play formed (:meth:`Game.challengeable_words`) and the
decision of each level (:func:`should_challenge`) under each challenge mode."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from scrabble_core.ai import CHALLENGE_RATES, Level, should_challenge
from scrabble_core.game import ChallengeMode, EventKind, Game
from scrabble_core.lexicon import ENGLISH_ALPHABET, Lexicon

MakeGame = Callable[..., Game]

# QUIZ and QIZ are left out on purpose: they are the phonies of these tests.
LEXICON = Lexicon.from_words(
    ["QI", "QIS", "ZA", "ZAX", "AX", "XI", "TA", "AT", "EAT", "TEA", "QAT"], ENGLISH_ALPHABET
)
DRAWS = "RSTLNEAEIOUDGBCM"
CHALLENGE_MODES = [ChallengeMode.SINGLE, ChallengeMode.DOUBLE, ChallengeMode.FIVE_POINT]
SEEDS = range(2000)


def game_in(mode: ChallengeMode, make_game: MakeGame) -> Game:
    return make_game(["AEIQTUZ", "AEIOSTX"], draws=DRAWS, lexicon=LEXICON, challenge_mode=mode)


def challenges(words: list[str], level: Level) -> int:
    """In how many of :data:`SEEDS` ``level`` challenges the play that formed ``words``."""
    return sum(should_challenge(words, level, LEXICON, random.Random(seed)) for seed in SEEDS)


# --- The words of the play that can be challenged ------------------------------------------------------


def test_challengeable_words_main_word_first_then_cross_words(make_game: MakeGame) -> None:
    game = game_in(ChallengeMode.SINGLE, make_game)
    assert game.challengeable_words() == []
    game.play(0, "8h qi")
    assert game.challengeable_words() == ["QI"]
    # AX across makes QA and IX down through QI: the main word first, then each cross-word once.
    game.play(1, "9h ax")
    assert game.challengeable_words() == ["AX", "QA", "IX"]


def test_challengeable_words_read_blanks_as_their_letter_and_reach_tiles_on_the_board(
    make_game: MakeGame,
) -> None:
    game = make_game(
        ["AEIQTU?", "AEIOSTX"], draws=DRAWS, lexicon=LEXICON, challenge_mode=ChallengeMode.SINGLE
    )
    game.play(0, "8h qui?z")
    assert game.challengeable_words() == ["QUIZ"]
    game.play(1, "h8 .at")  # down from the Q of QUIZ: the word is QAT
    assert game.challengeable_words() == ["QAT"]


def test_no_challengeable_words_once_the_play_is_settled(make_game: MakeGame) -> None:
    void = game_in(ChallengeMode.VOID, make_game)
    void.play(0, "8h qi")
    assert void.challengeable_words() == []
    game = game_in(ChallengeMode.SINGLE, make_game)
    game.play(0, "8h quiz")
    game.challenge(1)
    assert game.challengeable_words() == []  # withdrawn
    game.play(1, "8h ax")
    game.pass_turn(0)  # the window closes when the next player acts
    assert game.challengeable_words() == []


def test_challengeable_words_do_not_change_the_game(make_game: MakeGame) -> None:
    game = game_in(ChallengeMode.SINGLE, make_game)
    game.play(0, "8h quiz")
    before = game.to_dict()
    assert game.challengeable_words() == ["QUIZ"]
    assert game.to_dict() == before


# --- The decision ------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", list(Level))
def test_no_level_ever_challenges_a_valid_play(level: Level) -> None:
    assert challenges(["QI"], level) == 0
    assert challenges(["AX", "XI", "TA"], level) == 0
    assert challenges([], level) == 0


@pytest.mark.parametrize("level", [Level.HARD, Level.GREEDY, Level.EXPERT])
def test_hard_and_greedy_always_challenge_a_phony_and_draw_nothing(level: Level) -> None:
    rng = random.Random(3)
    state = rng.getstate()
    assert should_challenge(["QUIZ"], level, LEXICON, rng)
    assert should_challenge(["AX", "QA", "IX"], level, LEXICON, rng)  # a phony cross-word is enough
    assert rng.getstate() == state
    assert challenges(["QUIZ"], level) == len(SEEDS)


@pytest.mark.parametrize(("level", "low", "high"), [(Level.MEDIUM, 0.75, 0.85), (Level.EASY, 0.45, 0.55)])
def test_weaker_levels_miss_some_phonies(level: Level, low: float, high: float) -> None:
    assert low < CHALLENGE_RATES[level] < high
    rate = challenges(["QUIZ"], level) / len(SEEDS)
    assert low < rate < high
    assert 0 < challenges(["AX", "QA", "IX"], level) < len(SEEDS)


@pytest.mark.parametrize("level", list(Level))
def test_the_decision_is_seeded(level: Level) -> None:
    first = [should_challenge(["QUIZ"], level, LEXICON, random.Random(seed)) for seed in range(50)]
    again = [should_challenge(["QUIZ"], level, LEXICON, random.Random(seed)) for seed in range(50)]
    assert first == again


def test_the_rates_are_ordered_by_strength() -> None:
    rates = CHALLENGE_RATES
    assert rates[Level.EASY] < rates[Level.MEDIUM] < rates[Level.HARD] == rates[Level.GREEDY] == 1.0


# --- In each mode ------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", CHALLENGE_MODES)
@pytest.mark.parametrize("level", list(Level))
def test_a_phony_is_challenged_and_comes_off_in_each_mode(
    make_game: MakeGame, mode: ChallengeMode, level: Level
) -> None:
    game = game_in(mode, make_game)
    game.play(0, "8h quiz")
    words = game.challengeable_words()
    decisions = [should_challenge(words, level, LEXICON, random.Random(seed)) for seed in range(40)]
    assert any(decisions)
    assert all(decisions) is (level in (Level.HARD, Level.GREEDY, Level.EXPERT))
    events = game.challenge(1)
    assert [e.kind for e in events] == [EventKind.PHONY_WITHDRAWN]
    assert game.board.is_empty()
    assert game.current == 1  # the AI challenged on its turn and still has it


@pytest.mark.parametrize("mode", CHALLENGE_MODES)
@pytest.mark.parametrize("level", list(Level))
def test_a_valid_play_is_never_challenged_in_any_mode(
    make_game: MakeGame, mode: ChallengeMode, level: Level
) -> None:
    game = game_in(mode, make_game)
    game.play(0, "8h qi")
    assert game.challengeable_words() == ["QI"]
    assert challenges(game.challengeable_words(), level) == 0
    game.play(1, "i7 x.")  # XI down through the I of QI
    assert game.challengeable_words() == ["XI"]
    assert challenges(game.challengeable_words(), level) == 0


@pytest.mark.parametrize("mode", CHALLENGE_MODES)
def test_a_phony_that_went_out_is_challenged_and_a_valid_one_accepted(
    make_game: MakeGame, mode: ChallengeMode
) -> None:
    phony = make_game(["IQZ", "AEX"], lexicon=LEXICON, challenge_mode=mode)
    phony.play(0, "8h qiz")
    assert phony.awaiting_final_challenge
    assert should_challenge(phony.challengeable_words(), Level.HARD, LEXICON, random.Random(0))
    phony.challenge(1)
    assert not phony.is_over
    valid = make_game(["IQ", "AEX"], lexicon=LEXICON, challenge_mode=mode)
    valid.play(0, "8h qi")
    assert valid.awaiting_final_challenge
    assert not should_challenge(valid.challengeable_words(), Level.HARD, LEXICON, random.Random(0))
    valid.accept(1)
    assert valid.is_over
