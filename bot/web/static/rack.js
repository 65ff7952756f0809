// The player's rack: one button per tile still on it, in the player's order.

import { el, fill } from "./dom.js";
import { tileElement } from "./board.js";
import { pointsWord, tileSet, tileValue } from "./variant.js";

/** A tile's accessible name: "tile Q, 10 points" or "tile blank, 0 points". */
export function tileLabel(variant, letter) {
  const set = tileSet(variant, letter);
  if (set) return `set tile ${letter}: ${Object.entries(set.letters).map(([l, p]) => `${l} ${pointsWord(p)}`).join(" or ")}`;
  return `tile ${letter === "?" ? "blank" : letter}, ${pointsWord(tileValue(variant, letter))}`;
}

/**
 * Draw the rack. `selected` is the rack index picked for placing (or null); in exchange mode
 * `exchange` is the set of indexes picked for the exchange.
 */
export function renderRack(root, variant, tentative, { selected, exchange }) {
  const buttons = tentative.onRack().map((index) => {
    const letter = tentative.letterOf(index);
    const pressed = exchange ? exchange.has(index) : selected === index;
    return el(
      "button",
      {
        type: "button",
        class: `rack-tile${pressed ? " picked" : ""}`,
        "data-index": index,
        "data-letter": letter,
        "aria-label": tileLabel(variant, letter),
        "aria-pressed": pressed ? "true" : "false",
      },
      rackTile(variant, letter),
    );
  });
  if (buttons.length === 0) buttons.push(el("span", { class: "rack-empty" }, "All your tiles are on the board"));
  fill(root, ...buttons);
}

/** A rack tile: its letter and points, a blank "?", a set tile its set's letters ("A/E"). */
function rackTile(variant, letter) {
  const set = tileSet(variant, letter);
  if (set) return tileElement(Object.keys(set.letters).join("/"), tileValue(variant, letter), { set: true });
  return tileElement(letter, letter === "?" ? null : tileValue(variant, letter), {
    blank: letter === "?",
  });
}
