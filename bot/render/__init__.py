"""The drawing toolkit every game's images share, with Pillow: fonts, colours and PNG encoding
(:mod:`~bot.render.drawing`, :mod:`~bot.render.style`, :mod:`~bot.render.png_bands`), the charts' axes and
the score and rating charts (:mod:`~bot.render.chart`, :mod:`~bot.render.rating_chart`).

Every function is a pure function of its data and returns PNG bytes; nothing here knows about Discord.
"""
