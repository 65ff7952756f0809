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

/** "H8" for row 7, column 7: the column letter then the row number, as players write it. */
export function squareName(row, col) {
  return `${COLUMN_LETTERS[col]}${row + 1}`;
}

export function key(row, col) {
  return `${row},${col}`;
}

/** The premium of a square: {name, label, kind}, or null for a hole (no square there). */
export function premiumAt(variant, row, col) {
  const token = variant.premiums[row].slice(2 * col, 2 * col + 2);
  if (token === "##") return null;
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
  return variant.values[letter] ?? 0;
}

export function pointsWord(points) {
  return points === 1 ? "1 point" : `${points} points`;
}
