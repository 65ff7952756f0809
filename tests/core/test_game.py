"""Tests of scrabble_core.game: setting up, turns, plays, exchanges, passes, resignations, and that a
refused action changes nothing."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from scrabble_core.errors import (
    ExchangeNotAllowedError,
    GameOverError,
    GameSetupError,
    IllegalMoveError,
    InvalidMoveError,
    NoTilesError,
    NotYourTurnError,
    ScrabbleError,
    SquareOccupiedError,
    TileNotOnRackError,
    UnknownWordsError,
)
from scrabble_core.game import ChallengeMode, Event, EventKind, Game
from scrabble_core.lexicon import ENGLISH_ALPHABET, Lexicon
from scrabble_core.move import Exchange, Move, Pass, Play
from scrabble_core.variant import Variant, get_variant, variant_from_dict

MakeGame = Callable[..., Game]


def standard_game(seed: int = 1, players: int = 2, **kwargs: object) -> Game:
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    return Game(get_variant("standard"), names, rng=random.Random(seed), **kwargs)  # type: ignore[arg-type]


def tile_count(game: Game) -> int:
    return len(game.bag) + sum(len(p.rack) for p in game.players) + sum(1 for _ in game.board.tiles())


# --- Setting up ---------------------------------------------------------------------------------------


def test_new_game_deals_racks_in_seat_order() -> None:
    game = standard_game(seed=1)
    assert [p.name for p in game.players] == ["Ann", "Bob"]
    assert [p.rack for p in game.players] == ["ADEGORZ", "CELNOOT"]
    assert [p.score for p in game.players] == [0, 0]
    assert len(game.bag) == 86
    assert tile_count(game) == 100
    assert game.current == 0
    assert game.history == []
    assert not game.is_over
    assert game.scoreless_turns == 0
    assert game.challengeable is None
    assert not game.awaiting_final_challenge
    assert game.challenge_mode is ChallengeMode.VOID
    assert game.board.is_empty()
    assert game.winners() == []
    # The same seed deals the same game.
    assert standard_game(seed=1).to_dict() == game.to_dict()


def test_four_players_on_super() -> None:
    game = Game(get_variant("super"), ["A", "B", "C", "D"], rng=random.Random(2))
    assert len(game.bag) == 200 - 28
    assert all(len(p.rack) == 7 for p in game.players)


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Ann"], "a game has 2 to 4 players, not 1"),
        (["A", "B", "C", "D", "E"], "a game has 2 to 4 players, not 5"),
        ([], "a game has 2 to 4 players, not 0"),
        (["Ann", "Ann"], "every player needs a name of their own"),
        (["Ann", " "], "every player needs a name of their own"),
    ],
)
def test_game_setup_errors(names: list[str], message: str) -> None:
    with pytest.raises(GameSetupError) as info:
        Game(get_variant("standard"), names, rng=random.Random(0))
    assert str(info.value) == message


def test_tile_set_too_small_for_the_racks() -> None:
    mini = variant_from_dict(
        {
            "name": "mini",
            "board": {"start": "B2", "layout": "-- -- --\n-- -- --\n-- -- --"},
            "tiles": {"A": [14, 1]},
        },
        "mini",
    )
    Game(mini, ["Ann", "Bob"], rng=random.Random(0))
    with pytest.raises(GameSetupError) as info:
        Game(mini, ["Ann", "Bob", "Cid"], rng=random.Random(0))
    assert str(info.value) == "the mini tile set cannot fill 3 racks"


# --- Turns --------------------------------------------------------------------------------------------


def test_play_from_player_input(make_game: MakeGame) -> None:
    game = make_game(["AEIQTUZ", "AEIOSTU"], draws="RSTLNE")
    events = game.play(0, "8h quiz")
    assert events == [Event(EventKind.PLAY, 0, "AEIQTUZ", "8H QUIZ", 44, 44, "QUIZ 44")]
    assert game.history == events
    assert game.players[0].score == 44
    assert game.current == 1
    assert game.scoreless_turns == 0
    assert game.board.rows_text()[7] == ".......QUIZ...."


def test_play_draws_from_the_bag_in_order(make_game: MakeGame) -> None:
    game = make_game(["QUIZAET", "AEIOUST"], draws="RSTLNE")
    game.play(0, "8h quiz")
    # Four tiles drawn, in bag order: R, S, T, L; the rack is kept sorted.
    assert game.players[0].rack == "AELRSTT"
    assert list(game.bag) == ["E", "N"]


def test_play_object_is_written_in_canonical_notation(make_game: MakeGame) -> None:
    game = make_game(["CATSEED", "AEIOUST"], draws="ABCDEFGH")
    game.play(0, Play.from_gcg("8G CAT"))
    game.play(1, Play.from_gcg("J8 S"))
    assert game.history[-1].move == "8G ...S"
    assert game.history[-1].score == 6


def test_blank_play_keeps_the_blank_on_the_board(make_game: MakeGame) -> None:
    game = make_game(["?AT", "AEIOUST"], draws="XYZ")
    events = game.play(0, "8h eat")
    assert events[0].move == "8H eAT"
    assert events[0].rack == "AT?"
    assert events[0].score == 4
    assert game.board[(7, 7)] == "e"
    assert game.players[0].rack == "XYZ"


def test_exchange(make_game: MakeGame) -> None:
    game = make_game(["QUVVWWX", "AEIOUST"], draws="AEIRSTLN", seed=5)
    events = game.exchange(0, "vw v w")
    assert events == [Event(EventKind.EXCHANGE, 0, "QUVVWWX", "-VVWW", 0, 0)]
    # Four tiles drawn first, then the four returned, then the bag shuffled.
    assert game.players[0].rack == "AEIQRUX"
    assert sorted(game.bag) == sorted("STLNVVWW")
    assert game.current == 1
    assert game.scoreless_turns == 1


def test_exchange_of_a_blank(make_game: MakeGame) -> None:
    game = make_game(["?ABCDEF", "AEIOUST"], draws="GHIJKLMN")
    events = game.exchange(0, "?")
    assert events[0].move == "-?"
    assert "?" in game.bag


def test_exchange_not_allowed_with_fewer_than_seven_in_the_bag(make_game: MakeGame) -> None:
    game = make_game(["QUVVWWX", "AEIOUST"], draws="AEIRST")
    with pytest.raises(ExchangeNotAllowedError) as info:
        game.exchange(0, "Q")
    assert str(info.value) == "you can only exchange while at least 7 tiles are in the bag (6 left)"
    assert isinstance(info.value, IllegalMoveError)
    # With seven it is allowed.
    game = make_game(["QUVVWWX", "AEIOUST"], draws="AEIRSTL")
    game.exchange(0, "Q")


def test_exchange_of_tiles_not_on_the_rack(make_game: MakeGame) -> None:
    game = make_game(["QUVVWWX", "AEIOUST"], draws="AEIRSTLN")
    with pytest.raises(TileNotOnRackError) as info:
        game.exchange(0, "QQZ?")
    assert str(info.value) == "you don't have Q, Z and a blank on your rack"
    with pytest.raises(InvalidMoveError) as bad:
        game.exchange(0, "")
    assert str(bad.value) == "name the tiles to exchange, e.g. AEI (? for a blank)"


def test_exchange_needs_as_many_tiles_in_the_bag(make_game: MakeGame, tiny_variant: Variant) -> None:
    # A variant that allows exchanges down to an empty bag still cannot give back fewer tiles than
    # it takes.
    data = {
        "name": "loose",
        "exchange_min_bag": 0,
        "board": {"start": "B2", "layout": "-- -- --\n-- -- --\n-- -- --"},
        "tiles": {"A": [10, 1], "B": [10, 3]},
    }
    loose = variant_from_dict(data, "loose")
    game = make_game(["AAABBBB", "AAAAAAB"], variant=loose, draws="AB")
    with pytest.raises(ExchangeNotAllowedError) as info:
        game.exchange(0, "BBB")
    assert str(info.value) == "the bag has only 2 tiles left: you cannot exchange 3"
    game.exchange(0, "BB")
    assert len(game.players[0].rack) == 7


def test_pass(make_game: MakeGame) -> None:
    game = make_game(["AEIQTUZ", "AEIOSTU"], draws="ABC")
    assert game.pass_turn(0) == [Event(EventKind.PASS, 0, "AEIQTUZ", "-", 0, 0)]
    assert game.current == 1
    assert game.scoreless_turns == 1


def test_not_your_turn() -> None:
    game = standard_game()
    actions: tuple[Callable[[], object], ...] = (
        lambda: game.play(1, "8h cote"),
        lambda: game.exchange(1, "c"),
        lambda: game.pass_turn(1),
    )
    for action in actions:
        with pytest.raises(NotYourTurnError) as info:
            action()
        assert str(info.value) == "it is Ann's turn, not Bob's"
        assert (info.value.player, info.value.current) == ("Bob", "Ann")


def test_seat_not_playing() -> None:
    game = standard_game(players=3)
    with pytest.raises(GameSetupError) as info:
        game.pass_turn(3)
    assert str(info.value) == "that seat is not playing"
    with pytest.raises(GameSetupError):
        game.pass_turn(-1)
    game.resign(0)
    with pytest.raises(GameSetupError) as info:
        game.pass_turn(0)
    assert str(info.value) == "that seat is not playing"
    with pytest.raises(GameSetupError) as info:
        game.resign(0)
    assert str(info.value) == "that seat is not playing"


def test_game_over() -> None:
    game = standard_game()
    events = game.resign(1)
    assert events == [Event(EventKind.RESIGN, 1, "CELNOOT", "(resigned)", 0, 0)]
    assert game.is_over
    assert game.winners() == [0]
    actions: tuple[Callable[[], object], ...] = (
        lambda: game.play(0, "8h adz"),
        lambda: game.exchange(0, "z"),
        lambda: game.pass_turn(0),
        lambda: game.challenge(1),
        lambda: game.accept(0),
        lambda: game.resign(0),
    )
    for action in actions:
        with pytest.raises(GameOverError) as info:
            action()
        assert str(info.value) == "the game is over"


def test_void_mode_checks_words_on_play(make_game: MakeGame) -> None:
    lexicon = Lexicon.from_words(["QUIZ", "ZA"], ENGLISH_ALPHABET)
    game = make_game(["QUIZAXE", "AEIOUST"], draws="ABCDEFGH", lexicon=lexicon)
    with pytest.raises(UnknownWordsError) as info:
        game.play(0, "8h quix")
    assert str(info.value) == "QUIX is not in the dictionary"
    game.play(0, "8h quiz")
    assert game.challengeable is None


def test_resign_passes_the_turn_and_the_seat_is_skipped(make_game: MakeGame) -> None:
    game = make_game(["AAAAAAA", "BBBBBBB", "CCCCCCC"], draws="EEEEEEEEEE")
    events = game.resign(0)
    assert [e.kind for e in events] == [EventKind.RESIGN]
    assert game.current == 1
    game.pass_turn(1)
    game.pass_turn(2)
    assert game.current == 1
    # A seat that is not on turn may resign too; with one player left the game ends.
    game.resign(2)
    assert game.is_over
    assert game.winners() == [1]
    assert game.standings() == [1, 0, 2]


def test_standings_and_winners(make_game: MakeGame) -> None:
    game = make_game(["A", "B", "C"], scores=[10, 30, 30])
    assert game.standings() == [1, 2, 0]
    assert game.winners() == []
    game.resign(1)
    game.resign(2)
    assert game.standings() == [0, 1, 2]
    assert game.winners() == [0]


def test_unseen_tiles(make_game: MakeGame) -> None:
    game = make_game(["ABC", "DE?", "FG"], draws="ZY")
    assert game.unseen_tiles(0) == "DEFGYZ?"
    assert game.unseen_tiles(1) == "ABCFGYZ"


# --- A refused action changes nothing ------------------------------------------------------------------


def test_failed_actions_leave_the_game_exactly_as_it_was(make_game: MakeGame) -> None:
    lexicon = Lexicon.from_words(["QUIZ", "ZA", "AX"], ENGLISH_ALPHABET)
    game = make_game(
        ["QUIZAXE", "AEIOUST", "?EEIRST"],
        draws="ABCDEFGHIJKLMNOPQRST",
        lexicon=lexicon,
        seed=11,
    )
    game.play(0, "8h quiz")
    game.exchange(1, "aei")  # uses the random generator
    before = game.to_dict()
    history = list(game.history)
    failures: list[tuple[Callable[[], object], type[ScrabbleError]]] = [
        (lambda: game.play(2, "8h quiz"), NoTilesError),
        (lambda: game.play(2, "8h quit"), SquareOccupiedError),
        (lambda: game.play(2, "h7 eh"), SquareOccupiedError),
        (lambda: game.play(2, "9g eerie"), UnknownWordsError),
        (lambda: game.play(2, "9g zzz"), TileNotOnRackError),
        (lambda: game.play(2, "nonsense"), InvalidMoveError),
        (lambda: game.play(0, "9g ax"), NotYourTurnError),
        (lambda: game.exchange(2, "qq"), TileNotOnRackError),
        (lambda: game.exchange(2, "1"), InvalidMoveError),
        (lambda: game.challenge(0), ScrabbleError),
        (lambda: game.accept(2), ScrabbleError),
        (lambda: game.resign(7), GameSetupError),
    ]
    for action, error in failures:
        with pytest.raises(error):
            action()
        assert game.to_dict() == before
        assert list(game.history) == history
    # The game goes on as if nothing had happened.
    game.exchange(2, "eir")
    assert len(game.history) == 3


def test_push_makes_any_move(make_game: MakeGame) -> None:
    # The same games, moved by push and by each kind's own method, end up identical.
    moves: list[Move] = [Play.from_gcg("8G QI"), Exchange("AE"), Pass(), Exchange("?")]
    pushed = make_game(["QIAEOU?", "AEEIO?S"], draws="RSTLNEAEIOUDGBCM")
    direct = make_game(["QIAEOU?", "AEEIO?S"], draws="RSTLNEAEIOUDGBCM")
    events = [pushed.push(pushed.current, move) for move in moves]
    assert events == [
        direct.play(0, Play.from_gcg("8G QI")),
        direct.exchange(1, "AE"),
        direct.pass_turn(0),
        direct.exchange(1, "?"),
    ]
    assert [e[0].move for e in events] == ["8G QI", "-AE", "-", "-?"]
    assert pushed.to_dict() == direct.to_dict()


def test_a_refused_push_changes_nothing(make_game: MakeGame) -> None:
    game = make_game(["QIAEOU?", "AEEIO?S"], draws="RSTLNEAEIOUDGBCM")
    before = game.to_dict()
    with pytest.raises(TileNotOnRackError):
        game.push(0, Exchange("ZZ"))
    with pytest.raises(NotYourTurnError):
        game.push(1, Pass())
    assert game.to_dict() == before
