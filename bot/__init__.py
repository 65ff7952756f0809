"""The Discord bot: commands, game sessions and the images it posts."""
