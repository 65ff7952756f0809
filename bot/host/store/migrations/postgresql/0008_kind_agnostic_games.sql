-- PostgreSQL's 0008 (see ../0008_kind_agnostic_games.sql): every kind of game in the same rows, with
-- nothing in the schema naming a kind. The CHECK on the games' kind goes; the codec's version (format) and
-- the result of a finished game (JSON, NULL until known) are added; the stats of every kind are one table.

ALTER TABLE games DROP CONSTRAINT IF EXISTS games_kind_check;
ALTER TABLE games ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN result TEXT;

CREATE TABLE stats_of_kinds (
    guild_id    BIGINT  NOT NULL,
    kind        TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    games       BIGINT  NOT NULL DEFAULT 0,
    wins        BIGINT  NOT NULL DEFAULT 0,
    draws       BIGINT  NOT NULL DEFAULT 0,
    total_score BIGINT  NOT NULL DEFAULT 0,
    best_score  BIGINT,
    best_move   TEXT,
    PRIMARY KEY (guild_id, kind, user_id)
);
INSERT INTO stats_of_kinds (guild_id, kind, user_id, name, games, wins, draws, total_score, best_score, best_move)
    SELECT guild_id, 'scrabble', user_id, name, games, wins, 0, total_score, best_score, best_move FROM stats;
INSERT INTO stats_of_kinds (guild_id, kind, user_id, name, games, wins, draws)
    SELECT guild_id, kind, user_id, name, games, wins, draws FROM kind_stats;
DROP TABLE stats;
DROP TABLE kind_stats;
ALTER TABLE stats_of_kinds RENAME TO stats;
ALTER TABLE stats RENAME CONSTRAINT stats_of_kinds_pkey TO stats_pkey;
