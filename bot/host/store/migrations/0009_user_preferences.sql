-- What a person asked for, across servers and games (no row: the default, off): "dms", their private
-- views by DM even when a command's answer shows them.
CREATE TABLE user_preferences (
    user_id     INTEGER NOT NULL,
    preference  TEXT    NOT NULL,
    enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    PRIMARY KEY (user_id, preference)
);
