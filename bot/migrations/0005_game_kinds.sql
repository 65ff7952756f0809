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
