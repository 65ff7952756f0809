-- When an announcement's channel message went out (issue 15's kill -9 test): an announcement is marked
-- posted once its message is in the channel, and sent once the racks it DMs are out too. A restart
-- DMs the racks of one posted but not sent, and never posts its message again.
ALTER TABLE outbox ADD COLUMN posted_at REAL;  -- NULL until its message is in the channel
