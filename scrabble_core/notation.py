"""What players type: forgiving input turned into exact moves.

``parse_player_play("8h quiz", board, rack)`` (on an infinite board ``"-3,5 across quiz"``, see
:mod:`scrabble_core.squares`) accepts any case, the whole word including tiles already
on the board (or ``.`` for them), ``?E`` for a blank standing for E, and uses a blank without being told
when the rack lacks a letter. Real tiles are always preferred to a blank. When the player did not say
which of several equal letters is the blank and the choice changes the score, the input is ambiguous.
:func:`player_notation` writes a play the way a player types it (hints, suggestions).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from scrabble_core.board import Board
from scrabble_core.errors import (
    EmptySquareError,
    InvalidMoveError,
    SquareOccupiedError,
    TileNotOnRackError,
)
from scrabble_core.letters import foreign_character, is_game_letter, is_letter_or_foreign_digit
from scrabble_core.move import PLAYED_THROUGH, Play
from scrabble_core.scoring import score_placements
from scrabble_core.squares import parse_coordinate, parse_signed_coordinate, signed_square_name
from scrabble_core.tiles import letter_of, set_tile, tile_text
from scrabble_core.validation import canonical_play, check_on_board
from scrabble_core.variant import BLANK, Variant

MAX_INPUT_LENGTH = 200


def parse_player_play(text: str, board: Board, rack: str) -> Play:
    """Turn a player's ``"<coordinate> <word>"`` into the exact :class:`Play`, in canonical notation.

    Raises:
        InvalidMoveError: the text is not a play, or it is ambiguous which letter a blank stands for.
        OffBoardError: the word runs off the board or over a hole.
        SquareOccupiedError: a typed letter differs from the tile already on its square.
        EmptySquareError: a ``.`` on an empty square.
        TileNotOnRackError: the rack cannot supply the tiles, even with its blanks.
    """
    if len(text) > MAX_INPUT_LENGTH:
        raise InvalidMoveError("that is far too long to be a play")
    parts = text.split()
    variant = board.variant
    if variant.infinite and len(parts) >= 2:
        row, col, across = parse_signed_coordinate(" ".join(parts[:-1]))
    elif len(parts) != 2:
        raise InvalidMoveError(
            "write a play as a coordinate and a word: 8H QUIZ goes across from H8, H8 QUIZ goes down"
        )
    else:
        row, col, across = parse_coordinate(parts[0])
    tokens = list(_tokens(parts[-1], variant))
    d_row, d_col = (0, 1) if across else (1, 0)
    fixed: list[tuple[int, str]] = []  # index in the word, tile (blanks marked lowercase, set tiles)
    free: list[tuple[int, str]] = []  # letters the player did not mark: a real tile or a blank
    for index, (letter, marked) in enumerate(tokens):
        square = (row + d_row * index, col + d_col * index)
        check_on_board(variant, square)
        tile = board[square]
        if tile is not None:
            if letter not in (PLAYED_THROUGH, letter_of(tile)) or marked:
                raise SquareOccupiedError(variant.square_name(square), letter_of(tile))
            continue
        if letter == PLAYED_THROUGH:
            raise EmptySquareError(variant.square_name(square))
        if marked:
            fixed.append((index, letter))
        else:
            free.append((index, letter))
    placed = [PLAYED_THROUGH] * len(tokens)
    for index, tile in fixed:
        placed[index] = tile
    blanks_marked = sum(1 for _, tile in fixed if tile.islower())
    options = list(_blank_choices(free, rack, blanks_marked=blanks_marked))
    play = _best_unambiguous(board, row, col, across, placed, options, free)
    return canonical_play(board, play)


def player_notation(play: Play, variant: Variant | None = None) -> str:
    """``play`` written as a player types it, which :func:`parse_player_play` reads back to the same play:
    ``?E`` for a blank E, ``[1E]`` for set tile 1 as E, ``.`` for a tile already on the board (``H8 QU?IZ``,
    ``8D .A?XE``); on an infinite ``variant``, with a signed coordinate (``-3,5 across QU?IZ``)."""
    word = "".join(
        f"{BLANK}{letter.upper()}" if letter.islower() else tile_text(letter) for letter in play.letters
    )
    if variant is not None and variant.infinite:
        return f"{signed_square_name(play.start)} {'across' if play.across else 'down'} {word}"
    return f"{play.coordinate} {word}"


def parse_tiles(text: str, alphabet: str, sets: str = "") -> str:
    """Parse tiles a player names (for an exchange): letters of ``alphabet`` in any case, ``?`` for a
    blank, the number of a set tile (one of ``sets``).

    Returns them written as a rack, uppercase. Spaces and commas are ignored.

    Raises:
        InvalidMoveError: no tile, a letter that is not one of the game's (named), or another character.
    """
    tiles = "".join(ch for ch in text if ch not in " ,")
    if not tiles or len(tiles) > MAX_INPUT_LENGTH:
        raise InvalidMoveError("name the tiles to exchange, e.g. AEI (? for a blank)")
    for ch in tiles:
        if ch != BLANK and ch not in sets and not is_game_letter(ch, alphabet):
            if is_letter_or_foreign_digit(ch):
                raise foreign_character(ch, alphabet, "a letter of this game")
            raise InvalidMoveError(f"{ch!r} is not a tile: use letters, and ? for a blank")
    return tiles.upper()


def _tokens(word: str, variant: Variant) -> Iterator[tuple[str, bool]]:
    """Split a typed word into (tile, marked): an unmarked letter uppercase, a marked blank (``?E``)
    lowercase, a set tile (``[1E]``, or ``1E``) its character, ``.`` for a tile on the board.

    Raises:
        InvalidMoveError: a character that is not a letter of the variant, ``.``, ``?`` before a letter or
            a set tile's number before one of its letters.
    """
    alphabet = variant.alphabet
    chars = iter(word)
    for first in chars:
        if first == PLAYED_THROUGH:
            yield first, False
            continue
        bracketed = first == "["
        ch = next(chars, "") if bracketed else first
        tile_set = variant.tile_set(ch)
        marked = ch == BLANK or tile_set is not None
        letter = next(chars, "") if marked else ch
        if bracketed and (tile_set is None or next(chars, "") != "]"):
            raise InvalidMoveError(
                "a set tile is written [1E]: its number and one of its letters, in brackets"
            )
        if tile_set is not None:
            if letter.upper() not in tile_set.points:
                raise InvalidMoveError(
                    f"set tile {ch} is {tile_set.text}: write [{ch}{tile_set.letters[0][0]}] for it as "
                    f"{tile_set.letters[0][0]}, with one of its letters"
                )
            yield set_tile(ch, letter.upper()), True
        elif is_game_letter(letter, alphabet):
            yield (letter.lower() if marked else letter.upper()), marked
        elif is_letter_or_foreign_digit(letter):
            raise foreign_character(letter, alphabet, "a letter of this game")
        elif marked:
            raise InvalidMoveError("? marks a blank and must come before its letter, e.g. ?E")
        else:
            raise InvalidMoveError(f"{ch!r} cannot be part of a word: use letters, ? before a blank's letter")


def _blank_choices(free: list[tuple[int, str]], rack: str, blanks_marked: int) -> Iterator[frozenset[int]]:
    """Every minimal way to cover the unmarked letters: the set of word indices played as blanks."""
    held = Counter(rack)
    blanks_left = held[BLANK] - blanks_marked
    if blanks_left < 0:
        raise TileNotOnRackError(BLANK * -blanks_left)
    by_letter: dict[str, list[int]] = {}
    for index, letter in free:
        by_letter.setdefault(letter, []).append(index)
    short = {letter: len(indices) - held[letter] for letter, indices in by_letter.items()}
    needed = sum(max(0, count) for count in short.values())
    if needed > blanks_left:
        missing = "".join(letter * count for letter, count in short.items() if count > 0)
        raise TileNotOnRackError(missing[blanks_left:] if blanks_left > 0 else missing)
    per_letter = [
        [frozenset(c) for c in itertools.combinations(by_letter[letter], count)]
        for letter, count in short.items()
        if count > 0
    ]
    for combination in itertools.product(*per_letter):
        yield frozenset().union(*combination)


def _best_unambiguous(
    board: Board,
    row: int,
    col: int,
    across: bool,
    placed: list[str],
    options: list[frozenset[int]],
    free: list[tuple[int, str]],
) -> Play:
    plays = []
    for blanks in options:
        letters = list(placed)
        for index, letter in free:
            letters[index] = letter.lower() if index in blanks else letter
        plays.append(Play(row, col, across, "".join(letters)))
    if len(plays) > 1:
        scores = {score_placements(board, play.placements(), across).total for play in plays}
        if len(scores) > 1:
            letters = sorted(
                {placed_letter for play in plays for placed_letter in play.letters if placed_letter.islower()}
            )
            shown = " or ".join(f"?{letter.upper()}" for letter in letters)
            raise InvalidMoveError(
                f"your blank could stand for more than one of these letters and the score depends on which: "
                f"mark the blank with {shown} in the word"
            )
    return plays[0]
