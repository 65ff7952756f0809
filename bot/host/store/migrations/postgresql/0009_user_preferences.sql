-- PostgreSQL's 0009 (see ../0009_user_preferences.sql): what a person asked for, across servers and games.
CREATE TABLE user_preferences (
    user_id     BIGINT  NOT NULL,
    preference  TEXT    NOT NULL,
    enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    PRIMARY KEY (user_id, preference)
);
