"""The data files bundled with the engine and the bot, installed as the package ``scrabble_core.assets``:
variants, the AI's leave values, the tile font (read through :func:`scrabble_core.variant.assets_dir`)."""
