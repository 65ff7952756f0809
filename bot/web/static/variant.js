// The board's geometry and names, from the `variant` object of the protocol's state.

export const COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY";

const PREMIUMS = {
  "--": { name: null, label: "", kind: "plain" },
  "2L": { name: "double letter", label: "DL", kind: "dl" },
  "3L": { name: "triple letter", label: "TL", kind: "tl" },
  "4L": { name: "quadruple letter", label: "QL", kind: "ql" },
  "2W": { name: "double word", label: "DW", kind: "dw" },
  "3W": { name: "triple word", label: "TW", kind: "tw" },
  "4W": { name: "quadruple word", label: "QW", kind: "qw" },
};

/**
 * The state with the board's squares counted from its window's first row and column: an infinite
 * board's `board`, `premiums`, `last_move`, `start` and `set_tiles` cover the window `variant.origin`
 * starts (see docs/protocol.md); the page works in window squares and names them with `squareName`.
 */
export function localState(state) {
  const [top, left] = state.variant.origin ?? [0, 0];
  const shift = ([row, col, ...rest]) => [row - top, col - left, ...rest];
  return {
    ...state,
    variant: { ...state.variant, start: shift(state.variant.start), origin: [top, left] },
    last_move: state.last_move.map(shift),
    set_tiles: (state.set_tiles ?? []).map(shift),
  };
}

/** The board's own coordinates of window square (row, col): what the server is sent. */
export function boardSquare(variant, row, col) {
  return [row + variant.origin[0], col + variant.origin[1]];
}

/** How column `col` of the window is labelled: its letter, or an infinite board's signed x. */
export function columnLabel(variant, col) {
  return variant.infinite ? String(col + variant.origin[1]) : COLUMN_LETTERS[col];
}

/** How row `row` of the window is labelled: its number from 1, or an infinite board's signed y. */
export function rowLabel(variant, row) {
  return variant.infinite ? String(row + variant.origin[0]) : String(row + 1);
}

/** "H8" for row 7, column 7 (the column letter then the row number, as players write it); "-3,5" on an
 * infinite board (x then y). */
export function squareName(variant, row, col) {
  if (variant.infinite) return `${columnLabel(variant, col)},${rowLabel(variant, row)}`;
  return `${COLUMN_LETTERS[col]}${row + 1}`;
}

/** The set tile of rack symbol `symbol` ({symbol, count, letters: {A: 1, ...}}), or null. */
export function tileSet(variant, symbol) {
  return (variant.tile_sets ?? []).find((set) => set.symbol === symbol) ?? null;
}

export function key(row, col) {
  return `${row},${col}`;
}

/** The premium of a square: {name, label, kind}, or null for a hole (no square there). */
export function premiumAt(variant, row, col) {
  const token = variant.premiums[row].slice(2 * col, 2 * col + 2);
  if (token === "##") return null;
  const program = variant.programs?.[token];
  if (program) return { name: program.rule, label: program.label, kind: "program" };
  return PREMIUMS[token] ?? PREMIUMS["--"];
}

export function isStart(variant, row, col) {
  return variant.start[0] === row && variant.start[1] === col;
}

export function onBoard(variant, row, col) {
  return row >= 0 && col >= 0 && row < variant.rows && col < variant.cols && premiumAt(variant, row, col) !== null;
}

/** Points of a tile: 0 for a blank (`?`, or a lowercase letter on the board). */
export function tileValue(variant, letter, blank = false) {
  if (blank || letter === "?" || letter !== letter.toUpperCase()) return 0;
  const set = tileSet(variant, letter);
  if (set) return Math.max(...Object.values(set.letters));
  return variant.values[letter] ?? 0;
}

export function pointsWord(points) {
  return points === 1 ? "1 point" : `${points} points`;
}
