-- PostgreSQL's 0004 (see ../0004_analysis_and_puzzles.sql): post-game analyses and daily puzzles.

CREATE TABLE analyses (
    game_id     BIGINT  PRIMARY KEY REFERENCES games (id),
    level       TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL
);

CREATE TABLE puzzles (
    guild_id    BIGINT  NOT NULL,
    day         TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, day)
);

CREATE TABLE puzzle_answers (
    guild_id    BIGINT  NOT NULL,
    day         TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    answer      TEXT    NOT NULL,
    points      BIGINT  NOT NULL,
    solved      INTEGER NOT NULL,
    at          DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, day, user_id),
    FOREIGN KEY (guild_id, day) REFERENCES puzzles (guild_id, day)
);
CREATE INDEX puzzle_answers_by_user ON puzzle_answers (guild_id, user_id, day);
