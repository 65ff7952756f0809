"""The draw for who plays first, as in tournaments."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.host.seats import shown
from scrabble_core.variant import BLANK, Variant


@dataclass(frozen=True, slots=True)
class FirstDraw:
    """The draw for the first turn: who plays first (an index into the names drawn for) and the line
    that tells the channel how the tiles fell."""

    first: int
    line: str


def draw_first(names: Sequence[str], variant: Variant, rng: random.Random) -> FirstDraw:
    """Who plays first, drawn as in tournaments: each player draws a tile from a full bag (returned
    after each round); the tile nearest the start of the alphabet wins, a blank beats every letter, a
    set tile ranks as the first of its letters, and the players tied for the best tile draw again."""
    order = {tile: rank for rank, tile in enumerate([BLANK, *variant.alphabet])}
    for tile_set in variant.tile_sets:
        order[tile_set.symbol] = min(order[letter] for letter, _ in tile_set.letters)
    drawing = list(range(len(names)))
    rounds = []
    while True:
        tiles = rng.sample(variant.full_bag(), len(drawing))
        rounds.append(
            ", ".join(
                f"{shown(names[i])} drew {_tile_name(t, variant)}"
                for i, t in zip(drawing, tiles, strict=True)
            )
        )
        best = min(order[tile] for tile in tiles)
        drawing = [i for i, tile in zip(drawing, tiles, strict=True) if order[tile] == best]
        if len(drawing) == 1:
            break
    (first,) = drawing
    return FirstDraw(
        first, f"Draw for the first turn: {'; again: '.join(rounds)}. {shown(names[first])} plays first."
    )


def _tile_name(tile: str, variant: Variant) -> str:
    tile_set = variant.tile_set(tile)
    if tile_set is not None:
        return f"set tile {tile} {tile_set.text}"
    return "a blank" if tile == BLANK else tile
