// The board: a grid of squares with the coordinates around it, drawn like the bot's PNG. One element
// per square, built once per variant and updated in place; the focused square is the typing cursor
// (roving tabindex: the board is one stop in the tab order, arrow keys move inside it).

import { el, fill } from "./dom.js";
import {
  columnLabel, isStart, key, onBoard, pointsWord, premiumAt, rowLabel, squareName, tileSet, tileValue,
} from "./variant.js";

export class BoardView {
  constructor(root) {
    this.root = root;
    this.variant = null;
    this.squares = new Map(); // key -> element
    this.focusKey = null;
  }

  /** Build the grid for `variant` (once; again only if the variant changes). */
  build(variant) {
    const signature = JSON.stringify([variant.rows, variant.cols, variant.premiums, variant.start, variant.origin]);
    if (this.signature === signature) return;
    this.signature = signature;
    this.variant = variant;
    this.squares.clear();
    this.root.style.setProperty("--cols", variant.cols);
    this.root.style.setProperty("--rows", variant.rows);
    const cells = [];
    const coordinateRow = (edge) => {
      const row = [el("div", { class: `corner ${edge} left`, "aria-hidden": "true" })];
      for (let col = 0; col < variant.cols; col += 1) {
        row.push(el("div", { class: `coordinate ${edge}`, "aria-hidden": "true" }, columnLabel(variant, col)));
      }
      row.push(el("div", { class: `corner ${edge} right`, "aria-hidden": "true" }));
      return row;
    };
    cells.push(...coordinateRow("top"));
    for (let row = 0; row < variant.rows; row += 1) {
      const line = el("div", { role: "row", class: "board-row" });
      line.append(el("div", { class: "coordinate left", "aria-hidden": "true" }, rowLabel(variant, row)));
      for (let col = 0; col < variant.cols; col += 1) {
        const premium = premiumAt(variant, row, col);
        if (premium === null) {
          line.append(el("div", { class: "hole", role: "gridcell", "aria-label": `${squareName(variant, row, col)}, no square` }));
          continue;
        }
        const start = isStart(variant, row, col);
        const square = el("div", {
          class: `square ${premium.kind}${start ? " start" : ""}`,
          role: "gridcell",
          tabindex: "-1",
          "data-row": row,
          "data-col": col,
        });
        this.squares.set(key(row, col), square);
        line.append(square);
      }
      line.append(el("div", { class: "coordinate right", "aria-hidden": "true" }, rowLabel(variant, row)));
      cells.push(line);
    }
    cells.push(...coordinateRow("bottom"));
    fill(this.root, ...cells);
    const first = key(...variant.start);
    this.focusKey = this.squares.has(first) ? first : this.squares.keys().next().value;
  }

  squareAt(row, col) {
    return this.squares.get(key(row, col)) ?? null;
  }

  /**
   * Draw `board` (the protocol's rows of letters), the last move, the tentative tiles and the cursor.
   */
  render(board, lastMove, tentative, { showCursor, setTiles = [] }) {
    const variant = this.variant;
    const last = new Set(lastMove.map(([row, col]) => key(row, col)));
    const sets = new Map(setTiles.map(([row, col, symbol]) => [key(row, col), symbol]));
    const cursor = showCursor ? tentative.cursor : null;
    for (const [k, square] of this.squares) {
      const row = Number(square.dataset.row);
      const col = Number(square.dataset.col);
      const premium = premiumAt(variant, row, col);
      const start = isStart(variant, row, col);
      const letter = board[row][col];
      const placed = tentative.tileAt(row, col);
      const parts = [squareName(variant, row, col)];
      let content;
      if (letter !== ".") {
        const blank = letter !== letter.toUpperCase();
        const set = sets.get(k);
        const value = blank ? null : set ? tileSet(variant, set)?.letters[letter] ?? 0 : tileValue(variant, letter);
        content = tileElement(letter.toUpperCase(), value, { blank, last: last.has(k), set: Boolean(set) });
        parts.push(blank ? `blank as ${letter.toUpperCase()}` : `${letter}, ${pointsWord(value)}`);
        if (set) parts.push(`set tile ${set}`);
        if (last.has(k)) parts.push("last move");
      } else if (placed) {
        const value = placed.blank ? null : placed.set ? tileSet(variant, placed.set).letters[placed.letter]
          : tileValue(variant, placed.letter);
        content = tileElement(placed.letter, value, { blank: placed.blank, tentative: true, set: Boolean(placed.set) });
        const what = placed.blank ? `blank as ${placed.letter}`
          : placed.set ? `set tile ${placed.set} as ${placed.letter}` : placed.letter;
        parts.push(`your tile ${what}, not played yet`);
      } else {
        if (premium.name) parts.push(premium.name);
        if (start) parts.push("start");
        content = start ? el("span", { class: "star", "aria-hidden": "true" }, "★")
          : premium.label ? el("span", { class: "label", "aria-hidden": "true" }, premium.label) : null;
      }
      const isCursor = cursor && cursor.row === row && cursor.col === col;
      if (isCursor) parts.push(cursor.across ? "typing across" : "typing down");
      square.setAttribute("aria-label", parts.join(", "));
      square.classList.toggle("filled", letter !== ".");
      square.classList.toggle("has-tentative", Boolean(placed));
      square.classList.toggle("cursor", Boolean(isCursor));
      square.classList.toggle("down", Boolean(isCursor && !cursor.across));
      square.tabIndex = k === this.focusKey ? 0 : -1;
      const children = [content];
      if (isCursor) children.push(el("span", { class: "arrow", "aria-hidden": "true" }, cursor.across ? "→" : "↓"));
      fill(square, ...children);
    }
  }

  /** Move the roving focus to a square (if it exists) and focus it when `focus` is true. */
  moveFocus(row, col, focus = true) {
    if (!onBoard(this.variant, row, col)) return false;
    const k = key(row, col);
    const old = this.squares.get(this.focusKey);
    if (old) old.tabIndex = -1;
    this.focusKey = k;
    const square = this.squares.get(k);
    square.tabIndex = 0;
    if (focus) square.focus();
    return true;
  }
}

/** A tile as shown on the board or the rack: the letter, and its value unless it is a blank. */
export function tileElement(letter, value, { blank = false, last = false, tentative = false, set = false } = {}) {
  const classes = ["tile"];
  if (blank) classes.push("blank");
  if (set) classes.push("set");
  if (last) classes.push("last");
  if (tentative) classes.push("tentative");
  return el(
    "span",
    { class: classes.join(" "), "aria-hidden": "true" },
    el("span", { class: "letter" }, letter),
    value === null || value === undefined ? null : el("span", { class: "value" }, String(value)),
  );
}
