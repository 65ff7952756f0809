"""The bot's cogs: its slash commands."""
