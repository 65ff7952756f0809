"""The variants games may use, :class:`Variants`: the bundled ones and those of the configured
variant files (``variant_files``), by name."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from scrabble_core.errors import VariantError
from scrabble_core.variant import Variant, bundled_variant_names, get_variant, load_variant, variant_names


class Variants:
    """The bundled variants and the variants of ``files``, each known by its name."""

    def __init__(self, files: Sequence[Path] = ()) -> None:
        """Load each variant file.

        Raises:
            VariantError: a file is missing or not a valid variant, or its name is taken (by a bundled
                variant or an earlier file); the message names the file.
        """
        self._files: dict[str, Variant] = {}
        for path in files:
            variant = load_variant(path)
            if variant.name in bundled_variant_names() or variant.name in self._files:
                raise VariantError(str(path), "name", f"a variant is already named {variant.name!r}")
            self._files[variant.name] = variant

    def names(self) -> list[str]:
        """Every variant's name: the engine's (bundled, then any file added to it, as the console's
        ``--variant path`` does), then the files' in their order."""
        return [*variant_names(), *self._files]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names()

    def get(self, name: str) -> Variant:
        """The variant called ``name``.

        Raises:
            VariantError: no variant has that name.
        """
        return self._files.get(name) or get_variant(name)
