// The dialog that asks which letter a blank stands for (26 letter buttons, or type the letter), or
// which of its set's letters a set tile is played as.

import { el, fill } from "./dom.js";

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
let dialog = null;
let choices = LETTERS;

export function setUpBlankDialog(element) {
  dialog = element;
  dialog.addEventListener("keydown", (event) => {
    if (/^[a-zA-Z]$/.test(event.key)) {
      event.preventDefault();
      if (choices.includes(event.key.toUpperCase())) dialog.close(event.key.toUpperCase());
    }
  });
}

/** Ask for one of `letters` in the dialog titled `title`; resolves with it, or null if cancelled. */
function askLetter(letters, title, name) {
  choices = letters;
  dialog.querySelector("#blank-title").textContent = title;
  fill(dialog.querySelector(".letters"), ...[...letters].map((letter) =>
    el("button", { type: "submit", value: letter, class: "letter-choice", "aria-label": name(letter) }, letter)));
  return new Promise((resolve) => {
    dialog.returnValue = "";
    dialog.addEventListener("close", () => resolve(letters.includes(dialog.returnValue) && dialog.returnValue ? dialog.returnValue : null), { once: true });
    dialog.showModal();
    dialog.querySelector(".letter-choice").focus();
  });
}

/** Ask for the blank's letter; resolves with an uppercase letter, or null if the player cancels. */
export function askBlankLetter() {
  return askLetter(LETTERS, "Which letter is the blank?", (letter) => `blank as ${letter}`);
}

/** Ask which letter set tile `set` ({symbol, letters}) is played as; resolves with it, or null. */
export function askSetLetter(set) {
  const letters = Object.keys(set.letters).join("");
  return askLetter(letters, `Which letter is set tile ${set.symbol}?`, (letter) => `set tile ${set.symbol} as ${letter}`);
}
