-- Post-game analyses and daily puzzles (issue 12).

-- One analysis per finished game, stored once computed so that asking again is instant.
CREATE TABLE analyses (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    level       TEXT    NOT NULL,  -- the AI level that evaluated the moves (hard, expert)
    data        TEXT    NOT NULL,  -- JSON of scrabble_core.analysis.GameAnalysis.to_dict()
    created_at  REAL    NOT NULL
);

-- Each guild's puzzle of a UTC day, fixed the first time it is asked for.
CREATE TABLE puzzles (
    guild_id    INTEGER NOT NULL,
    day         TEXT    NOT NULL,  -- UTC date, YYYY-MM-DD
    data        TEXT    NOT NULL,  -- JSON of scrabble_core.puzzles.Puzzle.to_dict()
    created_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, day)
);

-- One answer per user per puzzle.
CREATE TABLE puzzle_answers (
    guild_id    INTEGER NOT NULL,
    day         TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,  -- the name shown on the leaderboard
    answer      TEXT    NOT NULL,  -- the play as given (GCG notation)
    points      INTEGER NOT NULL,  -- puzzle points earned (see bot/games/scrabble/puzzles.py)
    solved      INTEGER NOT NULL,  -- 1 when within the puzzle's tolerance of the best
    at          REAL    NOT NULL,
    PRIMARY KEY (guild_id, day, user_id),
    FOREIGN KEY (guild_id, day) REFERENCES puzzles (guild_id, day)
);
CREATE INDEX puzzle_answers_by_user ON puzzle_answers (guild_id, user_id, day);
