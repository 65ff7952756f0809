// The dialog that asks which letter a blank stands for: 26 letter buttons, or type the letter.

import { el, fill } from "./dom.js";

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
let dialog = null;

export function setUpBlankDialog(element) {
  dialog = element;
  const grid = dialog.querySelector(".letters");
  fill(grid, ...[...LETTERS].map((letter) =>
    el("button", { type: "submit", value: letter, class: "letter-choice", "aria-label": `blank as ${letter}` }, letter)));
  dialog.addEventListener("keydown", (event) => {
    if (/^[a-zA-Z]$/.test(event.key)) {
      event.preventDefault();
      dialog.close(event.key.toUpperCase());
    }
  });
}

/** Ask for the blank's letter; resolves with an uppercase letter, or null if the player cancels. */
export function askBlankLetter() {
  return new Promise((resolve) => {
    dialog.returnValue = "";
    dialog.addEventListener("close", () => resolve(LETTERS.includes(dialog.returnValue) && dialog.returnValue ? dialog.returnValue : null), { once: true });
    dialog.showModal();
    dialog.querySelector(".letter-choice").focus();
  });
}
