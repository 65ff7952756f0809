// The side panels drawn from the state: players and scores, whose turn with the timer, the challenge
// window, the bag and unseen tiles, the move history and the final result. Names are text, always.

import { el, fill } from "./dom.js";

const KIND_TEXT = {
  pass: "passed",
  withdrawn: "play withdrawn",
  "challenge-bonus": "challenge bonus",
  "lost-turn": "lost a turn (failed challenge)",
  resign: "resigned",
  "end-rack": "tiles left",
  "time-penalty": "time penalty",
};

export function renderPlayers(root, state, you) {
  const items = state.players.map((player) => {
    const toMove = state.current === player.seat && !state.over;
    const winner = state.over && state.winners.includes(player.seat);
    const classes = ["player"];
    if (toMove) classes.push("to-move");
    if (winner) classes.push("winner");
    if (player.resigned) classes.push("resigned");
    const details = [`${player.rack_count} tiles`];
    if (player.kind === "ai") details.unshift("AI");
    if (player.resigned) details.push("resigned");
    const label = [player.name, `${player.score} points`, ...details];
    if (you.seat === player.seat) label.push("you");
    if (toMove) label.push("to move");
    if (winner) label.push("winner");
    return el(
      "li",
      { class: classes.join(" "), "aria-label": label.join(", ") },
      el("span", { class: "marker", "aria-hidden": "true" }, toMove ? "▶" : winner ? "★" : ""),
      el("span", { class: "name" }, player.name),
      you.seat === player.seat ? el("span", { class: "you" }, "you") : null,
      el("span", { class: "details" }, details.join(" · ")),
      el("span", { class: "score" }, String(player.score)),
    );
  });
  fill(root, ...items);
}

/** Whose turn it is, in words; the timer is drawn separately every second. */
export function turnText(state, you) {
  if (state.status === "lobby") return "Waiting for the game to start";
  if (state.status === "cancelled") return "The game was cancelled";
  if (state.over) {
    const names = state.winners.map((seat) => (seat === you.seat ? "you" : state.players[seat].name));
    if (names.length === 0) return "Game over";
    if (names.length > 1) return `Game over: a tie between ${names.join(" and ")}`;
    return state.winners[0] === you.seat ? "Game over: you win" : `Game over: ${names[0]} wins`;
  }
  if (state.current === null) return "";
  if (state.current === you.seat) return "Your turn";
  return `${state.players[state.current].name} to move`;
}

/** Whole seconds left on the turn's clock (by the server's clock), or null without a deadline. */
export function secondsLeft(state, clockOffset) {
  if (!state.deadline || state.over) return null;
  return Math.max(0, Math.ceil(state.deadline - (Date.now() / 1000 + clockOffset)));
}

export function renderChallenge(root, state, you) {
  const challenge = state.challenge;
  root.hidden = !challenge;
  if (!challenge) return;
  const player = state.players[challenge.seat].name;
  const words = challenge.words.join(", ");
  const mine = challenge.seat === you.seat;
  fill(
    root,
    el("strong", {}, mine ? "Your play can be challenged" : `${player}'s play can be challenged`),
    el("span", { class: "words" }, words),
    challenge.final ? el("span", {}, "It went out: the game ends once it is accepted or challenged.") : null,
  );
}

export function renderBag(root, state) {
  fill(root, el("span", { class: "count" }, String(state.bag)), state.bag === 1 ? " tile in the bag" : " tiles in the bag");
}

/** The unseen tiles grouped by letter ("A×4 B C×2 … ?"), for a seat; hidden for a spectator. */
export function renderUnseen(section, list, state) {
  section.hidden = state.unseen === undefined || state.over;
  if (state.unseen === undefined) return;
  const counts = new Map();
  for (const letter of state.unseen) counts.set(letter, (counts.get(letter) ?? 0) + 1);
  const items = [...counts].map(([letter, count]) =>
    el(
      "li",
      { "aria-label": `${count} ${letter === "?" ? "blank" : letter}` },
      el("span", { class: "letter" }, letter),
      count > 1 ? el("span", { class: "count" }, String(count)) : null,
    ));
  fill(list, ...items);
  section.querySelector(".total").textContent = `(${state.unseen.length})`;
}

export function renderHistory(list, state) {
  const items = state.history.map((entry, index) => {
    const name = state.players[entry.player]?.name ?? `seat ${entry.player}`;
    let move = entry.words;
    if (entry.kind === "exchange") move = `exchanged ${entry.move.slice(1)}`;
    else if (entry.kind !== "play") move = KIND_TEXT[entry.kind] ?? entry.kind;
    const score = entry.score > 0 ? `+${entry.score}` : String(entry.score);
    return el(
      "li",
      { class: `entry ${entry.kind}`, title: entry.text },
      el("span", { class: "number" }, String(index + 1)),
      el("span", { class: "name" }, name),
      el("span", { class: "move" }, move),
      el("span", { class: "score" }, score),
      el("span", { class: "total" }, String(entry.total)),
    );
  });
  fill(list, ...items);
  list.scrollTop = list.scrollHeight;
}
