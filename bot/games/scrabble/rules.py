"""The rules as this bot plays them, for ``/scrabble rules``: one section per topic, written from a
variant (tile count, blanks, rack size, bingo bonus, board, exchanges) and the number of players (the
limit of scoreless turns)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.games.scrabble.board_view import square_rules
from bot.games.scrabble.errors import RulesTopicError
from bot.host.text import quoted
from scrabble_core.variant import Variant


def _tiles(variant: Variant, players: int | None) -> str:
    rack = variant.rack_size
    sets = ""
    if variant.tile_sets:
        kinds = "; ".join(
            f"{tile_set.count} × set tile {tile_set.symbol} {tile_set.text} "
            f"({', '.join(f'{letter} {points}' for letter, points in tile_set.letters)})"
            for tile_set in variant.tile_sets
        )
        sets = (
            " A set tile stands for one letter of its set, chosen when it is played, and scores that "
            f"letter's points: {kinds}."
        )
    return (
        f"**Tiles**: {variant.tile_count} tiles, {variant.blanks} of them blanks: a blank is worth 0 and stands for "
        f"any letter, chosen when it is played.{sets} Each player holds {rack} tiles and draws back up to {rack} "
        "after playing."
    )


def _board(variant: Variant, players: int | None) -> str:
    if variant.infinite:
        x, y = variant.start[1], variant.start[0]
        size = (
            f"infinite ({variant.title}): words go as far as you like in every direction. A square is "
            f"named x,y: x counts columns to the right, y rows down, and the start square is {x},{y}."
        )
    else:
        size = f"{variant.rows}×{variant.cols} squares ({variant.title})."
    return f"**Board**: {size}{_squares(variant)}"


def _squares(variant: Variant) -> str:
    """What each kind of square of a board written as a program does: in words for a letter or word
    multiplier, else its programs as code (one ``priority = program`` a line) in a code block."""
    lines = []
    for rule in square_rules(variant):
        name = (
            f"{rule.look.label} (square {rule.square_id})" if rule.look.label else f"Square {rule.square_id}"
        )
        if rule.words is not None:
            lines.append(f"- {name}: {rule.words}")
        else:
            lines.append(f"- {name}: scored by its program\n```\n{rule.code}\n```")
    if not lines:
        return ""
    return " Its squares:\n" + "\n".join(lines)


def _turns(variant: Variant, players: int | None) -> str:
    return (
        "**Turns**: play a word, exchange tiles or pass. The first word covers the start square and has at "
        "least 2 letters; later words touch the tiles on the board. The new tiles are in one row or column "
        "with no gap, and every word they form counts."
    )


def _bingo(variant: Variant, players: int | None) -> str:
    return (
        f"**Bingo**: playing all {variant.rack_size} of your tiles in one move scores "
        f"{variant.bingo_bonus} extra points."
    )


def _exchange(variant: Variant, players: int | None) -> str:
    return (
        f"**Exchange**: swap any of your tiles for new ones from the bag, only while at least "
        f"{variant.exchange_min_bag} tiles are left in it. It scores nothing and uses your turn."
    )


def _end(variant: Variant, players: int | None) -> str:
    if players is None:
        limit = (
            f"{variant.scoreless_rounds} rounds of consecutive scoreless turns are played (passes, exchanges, "
            f"withdrawn plays: {variant.scoreless_turn_limit(2)} turns with two players, "
            f"{variant.scoreless_turn_limit(4)} "
            "with four)"
        )
    else:
        limit = f"{variant.scoreless_turn_limit(players)} consecutive turns score nothing (passes, exchanges, withdrawn plays)"
    return (
        f"**End of the game**: a player plays their last tile once the bag is empty, or {limit}. Rack "
        "adjustments: whoever goes out gains twice the value of the opponent's rack (two players), or "
        "with more players, the sum of the other racks, which each other player loses. After the "
        "scoreless turns, every player loses the value of their own rack."
    )


def _challenges(variant: Variant, players: int | None) -> str:
    return (
        "**Challenges** (set per game): *void*: every word is checked as it is played and an invalid play "
        "is refused. *single*: plays stand unless challenged; a play with an invalid word is taken back and "
        "scores 0, a failed challenge costs nothing. *double*: the same, but a failed challenge costs the "
        "challenger their next turn. *five-point*: the same, but a failed challenge gives the player who "
        "made the play 5 points. AI opponents challenge invalid words too (the easier levels miss some) "
        "and never challenge a valid play."
    )


def _notation(variant: Variant, players: int | None) -> str:
    if variant.infinite:
        where = (
            "the square of the first letter as x,y, then `across` or `down` (`a` or `d`): "
            "`-3,5 across QUIZ` starts at -3,5 and goes right, `0,0 down QUIZ` goes down."
        )
    else:
        where = (
            "row number first plays across (`8H QUIZ` starts at H8 and goes right), column letter "
            "first plays down (`H8 QUIZ` goes down)."
        )
    sets = ""
    if variant.tile_sets:
        tile_set = variant.tile_sets[0]
        letter = tile_set.letters[-1][0]
        sets = f" `[{tile_set.symbol}{letter}]` is set tile {tile_set.symbol} used as {letter}."
    return (
        f"**Notation**: {where} Type the whole word, including tiles already on the board (or `.` for "
        f"each of them). `?E` is a blank used as E.{sets}"
    )


def move_example(variant: Variant) -> str:
    """How a move is typed on ``variant``'s board, short enough for a form's placeholder (at most 100
    characters): ``8H QUIZ (across) or H8 QUIZ (down); ?E is a blank as E``."""
    if variant.infinite:
        example = "-3,5 across QUIZ or 0,0 down QUIZ; ?E is a blank as E"
    else:
        example = "8H QUIZ (across) or H8 QUIZ (down); ?E is a blank as E"
    if variant.tile_sets:
        tile_set = variant.tile_sets[0]
        letter = tile_set.letters[-1][0]
        example += f"; [{tile_set.symbol}{letter}] set tile {tile_set.symbol} as {letter}"
    return example


SECTIONS: Final[dict[str, Callable[[Variant, int | None], str]]] = {
    "tiles": _tiles,
    "board": _board,
    "turns": _turns,
    "bingo": _bingo,
    "exchange": _exchange,
    "end": _end,
    "challenges": _challenges,
    "notation": _notation,
}
"""Each topic of ``/scrabble rules`` and its section, in the order they are shown."""

TOPICS: Final = tuple(SECTIONS)


def rules_text(variant: Variant, players: int | None = None, topic: str | None = None) -> str:
    """The rules for ``variant`` with ``players`` players (``None``: any number): every section, or
    only ``topic``'s.

    Raises:
        RulesTopicError: no topic is called ``topic`` (its echo cut short).
    """
    if topic is None:
        title = "**Scrabble rules as this bot plays them (tournament rules)**"
        return "\n\n".join([title, *(section(variant, players) for section in SECTIONS.values())])
    section = SECTIONS.get(topic.strip().lower())
    if section is None:
        raise RulesTopicError(f"There is no rules topic called {quoted(topic)}. Topics: {', '.join(TOPICS)}.")
    return section(variant, players)
