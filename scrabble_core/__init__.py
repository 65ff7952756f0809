"""scrabble_core: a pure, synchronous Scrabble engine (board, rules, notation, scoring, GCG)."""
