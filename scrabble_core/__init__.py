"""A pure, synchronous Scrabble engine: boards (programmable, holed or infinite), variants, tiles (letters,
blanks and letter sets), notation, validation, scoring, move generation, hints and GCG records.

No I/O beyond strings and the word list it reads: front ends (Discord, the web board, the terminal) live
in :mod:`bot`. The names below are the public surface; the AI levels are in :mod:`scrabble_core.ai`.

>>> from scrabble_core import Board, get_variant, parse_player_play, player_notation
>>> board = Board(get_variant("standard"))
>>> play = parse_player_play("H8 quiz", board, "QUIZAEN")
>>> player_notation(play)
'H8 QUIZ'
>>> play.across
False
"""

from scrabble_core.board import Board, InfiniteBoard
from scrabble_core.errors import (
    ChallengeError,
    EmptySquareError,
    ExchangeNotAllowedError,
    FirstMoveTooShortError,
    GameOverError,
    GameSetupError,
    GapError,
    GcgError,
    IllegalMoveError,
    InvalidMoveError,
    NotConnectedError,
    NoTilesError,
    NotInLineError,
    NotYourTurnError,
    OffBoardError,
    ProgramError,
    ProgramLimitError,
    ProgramRuntimeError,
    ProgramSyntaxError,
    ScrabbleError,
    SquareOccupiedError,
    StartSquareError,
    TileNotOnRackError,
    UnknownWordsError,
    VariantError,
)
from scrabble_core.game import MAX_PLAYERS, MIN_PLAYERS, ChallengeMode, Event, EventKind, Game, Player
from scrabble_core.gcg import GcgRecord, export_gcg, parse_gcg, replay
from scrabble_core.hints import Hint, Hints, hints
from scrabble_core.lexicon import Lexicon, LexiconError, WordList, load_enable, load_lexicon, load_word_list
from scrabble_core.move import Exchange, Move, Pass, Play
from scrabble_core.movegen import GeneratedMove, MoveGenerator, load_move_generator
from scrabble_core.notation import parse_player_play, parse_tiles, player_notation
from scrabble_core.squares import coordinate_name, parse_coordinate, parse_square, square_name
from scrabble_core.validation import check_play, play_from_tiles
from scrabble_core.variant import (
    BLANK,
    VARIANTS,
    Premium,
    TileSet,
    Variant,
    VariantRegistry,
    find_variant,
    get_variant,
    load_variant,
    variant_names,
)

__all__ = [
    "BLANK",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "VARIANTS",
    "Board",
    "ChallengeError",
    "ChallengeMode",
    "EmptySquareError",
    "Event",
    "EventKind",
    "Exchange",
    "ExchangeNotAllowedError",
    "FirstMoveTooShortError",
    "Game",
    "GameOverError",
    "GameSetupError",
    "GapError",
    "GcgError",
    "GcgRecord",
    "GeneratedMove",
    "Hint",
    "Hints",
    "IllegalMoveError",
    "InfiniteBoard",
    "InvalidMoveError",
    "Lexicon",
    "LexiconError",
    "Move",
    "MoveGenerator",
    "NoTilesError",
    "NotConnectedError",
    "NotInLineError",
    "NotYourTurnError",
    "OffBoardError",
    "Pass",
    "Play",
    "Player",
    "Premium",
    "ProgramError",
    "ProgramLimitError",
    "ProgramRuntimeError",
    "ProgramSyntaxError",
    "ScrabbleError",
    "SquareOccupiedError",
    "StartSquareError",
    "TileNotOnRackError",
    "TileSet",
    "UnknownWordsError",
    "Variant",
    "VariantError",
    "VariantRegistry",
    "WordList",
    "check_play",
    "coordinate_name",
    "export_gcg",
    "find_variant",
    "get_variant",
    "hints",
    "load_enable",
    "load_lexicon",
    "load_move_generator",
    "load_variant",
    "load_word_list",
    "parse_coordinate",
    "parse_gcg",
    "parse_player_play",
    "parse_square",
    "parse_tiles",
    "play_from_tiles",
    "player_notation",
    "replay",
    "square_name",
    "variant_names",
]
