-- Game kinds (issue 13): the host's games are Scrabble or Go, rows of the same games table, with the same
-- seats, event log and outbox. Every game stored before this migration is a Scrabble game.

ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'scrabble' CHECK (kind IN ('scrabble', 'go'));
CREATE INDEX games_by_kind ON games (kind, status);

-- The stats of the games other than Scrabble (whose stats table keeps its columns): games, wins and
-- draws of a player per guild per kind.
CREATE TABLE kind_stats (
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,  -- the name last seen
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, kind, user_id)
);

-- One rating per game kind: the ratings (derived data) are keyed by kind too. The tables are made again
-- with the kind in their keys, and the model marker cleared, so the store rebuilds every rating from the
-- finished games at start-up (the same numbers for Scrabble: see bot/host/store/games.py, _check_ratings).
DROP TABLE ratings;
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    player      TEXT    NOT NULL,
    name        TEXT    NOT NULL,  -- the name last seen
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL,  -- rated games played
    PRIMARY KEY (guild_id, kind, player)
);

DROP TABLE rating_history;
CREATE TABLE rating_history (
    seq         INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    player      TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    place       INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    finished_at REAL    NOT NULL,
    UNIQUE (game_id, player)
);
CREATE INDEX rating_history_by_player ON rating_history (guild_id, kind, player, finished_at, game_id);
CREATE INDEX rating_history_by_time ON rating_history (guild_id, kind, finished_at, game_id);

UPDATE rating_state SET model = '';
