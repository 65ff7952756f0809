// The tiles a player is placing before submitting: the rack in the player's order, the tiles put on
// the board, and the typing cursor (the Woogles habit: click a square, type the word).
//
// Pure state, no DOM: the page redraws from it after every change.

import { key, onBoard } from "./variant.js";

export class Tentative {
  constructor() {
    this.rack = ""; // the server's rack, "?" for a blank
    this.order = []; // rack indexes in the order the player sees them
    this.placed = new Map(); // key(row, col) -> {index, row, col, letter, blank}
    this.typed = []; // keys placed by typing, in order, for Backspace
    this.cursor = null; // {row, col, across}
  }

  /** A new rack from the server: keep the player's order and placement if the tiles are the same. */
  setRack(rack) {
    const same = [...rack].sort().join("") === [...this.rack].sort().join("");
    if (same && this.rack.length === rack.length) return;
    this.rack = rack;
    this.order = [...rack].map((_, index) => index);
    this.placed.clear();
    this.typed = [];
  }

  /** Drop tentative tiles that now sit on a square someone filled. */
  dropCovered(board) {
    for (const [k, tile] of [...this.placed]) {
      if (board[tile.row][tile.col] !== ".") this.unplace(k);
    }
  }

  letterOf(index) {
    return this.rack[index];
  }

  isPlaced(index) {
    for (const tile of this.placed.values()) if (tile.index === index) return true;
    return false;
  }

  /** Rack indexes still on the rack, in the player's order. */
  onRack() {
    return this.order.filter((index) => !this.isPlaced(index));
  }

  tileAt(row, col) {
    return this.placed.get(key(row, col)) ?? null;
  }

  /** Put rack tile `index` on an empty square; `letter` is the letter a blank or a set tile stands for. */
  place(index, row, col, letter) {
    for (const [k, tile] of this.placed) if (tile.index === index) this.unplace(k);
    const symbol = this.rack[index];
    const blank = symbol === "?";
    const set = /^[1-8]$/.test(symbol) ? symbol : null;
    const k = key(row, col);
    const shown = blank || set ? letter.toUpperCase() : symbol;
    this.placed.set(k, { index, row, col, letter: shown, blank, set });
    return k;
  }

  /** The board's window moved by (rows, cols): keep the tiles and the cursor on their squares. */
  shift(rows, cols) {
    if (!rows && !cols) return;
    const moved = [...this.placed.values()].map((tile) => ({ ...tile, row: tile.row + rows, col: tile.col + cols }));
    this.placed = new Map(moved.map((tile) => [key(tile.row, tile.col), tile]));
    this.typed = [];
    if (this.cursor) this.cursor = { ...this.cursor, row: this.cursor.row + rows, col: this.cursor.col + cols };
  }

  unplace(k) {
    this.placed.delete(k);
    this.typed = this.typed.filter((typedKey) => typedKey !== k);
  }

  /** Move rack tile `index` before rack tile `before` (or to the end) in the player's order. */
  reorder(index, before) {
    this.order = this.order.filter((other) => other !== index);
    const at = before === null ? this.order.length : this.order.indexOf(before);
    this.order.splice(at < 0 ? this.order.length : at, 0, index);
  }

  recall() {
    this.placed.clear();
    this.typed = [];
  }

  shuffle(random = Math.random) {
    const order = this.order;
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
  }

  setCursor(row, col) {
    const same = this.cursor && this.cursor.row === row && this.cursor.col === col;
    this.cursor = { row, col, across: same ? !this.cursor.across : (this.cursor?.across ?? true) };
  }

  toggleDirection() {
    if (this.cursor) this.cursor.across = !this.cursor.across;
  }

  occupied(board, row, col) {
    return board[row][col] !== "." || this.placed.has(key(row, col));
  }

  /**
   * Type `letter` at the cursor: the first free square from the cursor along its direction gets a rack
   * tile with that letter, or else a blank standing for it (or rack tile `index` when given).
   * Returns an error text or null.
   */
  type(variant, board, letter, index = null) {
    const inSet = (i) => Boolean(variant.tile_sets?.find((set) => set.symbol === this.rack[i])?.letters[letter]);
    if (!this.cursor) return "click a square first";
    const step = this.cursor.across ? [0, 1] : [1, 0];
    let { row, col } = this.cursor;
    while (onBoard(variant, row, col) && this.occupied(board, row, col)) {
      row += step[0];
      col += step[1];
    }
    if (!onBoard(variant, row, col)) return "no free square left in that direction";
    const free = this.onRack();
    const tile = index ?? free.find((i) => this.rack[i] === letter) ?? free.find(inSet)
      ?? free.find((i) => this.rack[i] === "?");
    if (tile === undefined) return `there is no ${letter} on your rack`;
    this.typed.push(this.place(tile, row, col, letter));
    this.cursor = { row: row + step[0], col: col + step[1], across: this.cursor.across };
    return null;
  }

  /** Take back the last typed tile (or the last placed one) and put the cursor on its square. */
  backspace() {
    const k = this.typed.at(-1) ?? [...this.placed.keys()].at(-1);
    if (k === undefined) return;
    const tile = this.placed.get(k);
    this.unplace(k);
    this.cursor = { row: tile.row, col: tile.col, across: this.cursor?.across ?? true };
  }

  /** The placement in the protocol's `tiles` form. */
  tiles() {
    return [...this.placed.values()].map(({ row, col, letter, blank, set }) => (
      set ? { row, col, letter, blank, set } : { row, col, letter, blank }));
  }
}
