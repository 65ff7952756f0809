// The web board: connects with the token of the link (#t=...), draws the state the server sends and
// turns the player's drags, clicks and keys into the protocol's commands (docs/protocol.md).

import { BoardView } from "./board.js";
import { askBlankLetter, askSetLetter, setUpBlankDialog } from "./blank.js";
import { Connection } from "./connection.js";
import { byId, el, fill } from "./dom.js";
import { enableDrag } from "./drag.js";
import { showGrid } from "./grid.js";
import {
  renderBag, renderChallenge, renderHistory, renderPlayers, renderUnseen, secondsLeft, turnText,
} from "./panels.js";
import { renderRack } from "./rack.js";
import { Tentative } from "./tentative.js";
import { PanZoom } from "./panzoom.js";
import { boardSquare, key, localState, onBoard, tileSet } from "./variant.js";

const PREVIEW_DELAY_MS = 150;
const RESIGN_CONFIRM_MS = 4000;
const HELP = "Drag tiles to the board, or click a square and type the word.";
const SHOWN_SQUARES = 15; // an infinite board opens zoomed to show about this many squares a side

const page = {
  connection: null,
  you: null,
  state: null,
  final: null,
  clockOffset: 0,
  tentative: new Tentative(),
  board: new BoardView(byId("board")),
  panZoom: new PanZoom(byId("board-area"), { ignore: ".square.has-tentative" }),
  centred: null, // the last move the board was last centred on
  selected: null, // rack index picked for placing by click
  exchange: null, // Set of rack indexes in exchange mode, else null
  previewTimer: null,
  previewGeneration: 0,
  resignArmed: null,
};

function isSeat() {
  return page.you && page.you.seat !== null;
}

function myTurn() {
  const state = page.state;
  return isSeat() && state.status === "active" && !state.over && state.current === page.you.seat;
}

// ---- Drawing ------------------------------------------------------------------------------------

function render() {
  const { state, you, tentative } = page;
  if (!state) return;
  document.title = `${myTurn() ? "▶ Your turn · " : ""}Scrabble · game ${state.game_id}`;
  byId("game-label").textContent = isSeat() ? `Game ${state.game_id} · playing as ${you.name}` : `Game ${state.game_id} · spectating`;
  page.board.build(state.variant);
  if (isSeat()) {
    tentative.setRack(state.rack ?? "");
    tentative.dropCovered(state.board);
  }
  page.board.render(state.board, state.last_move, tentative, {
    showCursor: isSeat() && gameActive(),
    setTiles: state.set_tiles,
  });
  zoomAndCentre();
  renderPlayers(byId("players"), state, you);
  byId("turn").textContent = turnText(state, you);
  byId("status-panel").classList.toggle("mine", myTurn());
  renderTimer();
  renderChallenge(byId("challenge-window"), state, you);
  renderBag(byId("bag"), state);
  renderUnseen(byId("unseen-panel"), byId("unseen"), state);
  renderHistory(byId("history"), state);
  renderFinal();
  byId("play-panel").hidden = !isSeat() || state.over || state.status !== "active";
  if (isSeat()) renderControls();
}

/** An infinite board opens zoomed in (about SHOWN_SQUARES squares a side) and centres on each new last
 * move (on its start before the first). */
function zoomAndCentre() {
  const variant = page.state.variant;
  byId("board-area").classList.toggle("pannable", Boolean(variant.infinite));
  if (!variant.infinite) return;
  page.panZoom.setLeast(Math.max(1, Math.max(variant.rows, variant.cols) / SHOWN_SQUARES));
  const last = page.state.last_move.length ? page.state.last_move : [variant.start];
  const [top, left] = variant.origin;
  const signature = JSON.stringify(last.map(([row, col]) => [row + top, col + left]));
  if (page.centred === signature) return;
  page.centred = signature;
  page.panZoom.centreOn(last.map(([row, col]) => page.board.squareAt(row, col)).filter(Boolean));
}

/** Whether the game is being played (a seat may place tiles, on its turn or to plan ahead). */
function gameActive() {
  return !page.state.over && page.state.status === "active";
}

function renderControls() {
  const { state, tentative } = page;
  renderRack(byId("rack"), state.variant, tentative, { selected: page.selected, exchange: page.exchange });
  const placed = tentative.placed.size > 0;
  const exchanging = page.exchange !== null;
  const challenge = state.challenge;
  const canChallenge = Boolean(challenge) && challenge.seat !== page.you.seat;
  const enable = (id, on) => {
    byId(id).disabled = !on;
  };
  enable("play", myTurn() && placed && !exchanging);
  enable("recall", placed && !exchanging);
  enable("shuffle", tentative.onRack().length > 1 && !exchanging);
  enable("exchange", myTurn() && !exchanging);
  enable("pass", myTurn() && !exchanging);
  byId("challenge").hidden = state.options.challenge_mode === "void";
  enable("challenge", canChallenge && !exchanging);
  byId("accept").hidden = !(canChallenge && challenge.final);
  enable("accept", canChallenge && challenge.final);
  const inWindow = canChallenge && challenge.window;
  byId("no-challenge").hidden = !inWindow;
  enable("no-challenge", inWindow && !exchanging);
  const me = state.players[page.you.seat];
  enable("resign", !me.resigned);
  const hintsLeft = state.hints_left ?? 0;
  byId("hint").hidden = (state.options.hints ?? 0) === 0;
  byId("hint").textContent = `Hint (${hintsLeft})`;
  byId("hint").setAttribute("aria-label", `Hint, ${hintsLeft} left`);
  enable("hint", hintsLeft > 0 && !exchanging);
  byId("actions").hidden = exchanging;
  byId("exchange-bar").hidden = !exchanging;
  if (exchanging) {
    const count = page.exchange.size;
    byId("exchange-confirm").textContent = count === 1 ? "Exchange 1 tile" : `Exchange ${count} tiles`;
    byId("exchange-confirm").disabled = count === 0;
  }
}

function renderTimer() {
  const left = page.state ? secondsLeft(page.state, page.clockOffset) : null;
  const timer = byId("timer");
  timer.hidden = left === null;
  timer.textContent = left === null ? "" : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  timer.classList.toggle("low", left !== null && left <= 30);
}

function renderFinal() {
  const state = page.state;
  const panel = byId("final");
  panel.hidden = !state.over;
  if (!state.over) return;
  // The standings from first to last (a resignation can win with fewer points), a player who left the
  // game marked so, then the end of the game's rack bonuses in words, as the channel says them.
  const won = (player) => (state.winners.includes(player.seat) ? 1 : 0);
  const ranking = page.final?.standings
    ?? [...state.players].sort((a, b) => won(b) - won(a) || b.score - a.score);
  fill(
    byId("final-scores"),
    ...ranking.map((player) => {
      const left = player.left ?? (player.resigned ? "resigned" : null);
      return el(
        "li",
        { class: won(player) ? "winner" : null },
        el("span", { class: "name" }, player.name, left ? ` (${left})` : null),
        el("span", { class: "score" }, String(player.score)),
      );
    }),
  );
  fill(byId("final-ending"), ...(page.final?.ending ?? []).map((line) => el("p", {}, line)));
  const gcg = page.final?.gcg;
  const link = byId("gcg");
  link.hidden = !gcg;
  if (gcg) {
    if (link.dataset.url) URL.revokeObjectURL(link.dataset.url);
    link.dataset.url = URL.createObjectURL(new Blob([gcg], { type: "text/plain" }));
    link.href = link.dataset.url;
    link.download = `scrabble-game-${state.game_id}.gcg`;
  }
}

function setFeedback(text, level = "info") {
  const line = byId("feedback");
  line.textContent = text;
  line.dataset.level = level;
}

function announce(text) {
  byId("announcer").textContent = text;
}

// ---- The tentative play -------------------------------------------------------------------------

function changed() {
  page.selected = null;
  render();
  schedulePreview();
}

function schedulePreview() {
  clearTimeout(page.previewTimer);
  page.previewGeneration += 1;
  const generation = page.previewGeneration;
  const tiles = page.tentative.tiles();
  if (tiles.length === 0) {
    setFeedback(myTurn() ? HELP : "");
    return;
  }
  page.previewTimer = setTimeout(async () => {
    const reply = await page.connection.send("preview", { tiles: sentTiles(tiles) });
    if (generation !== page.previewGeneration) return;
    if (reply.ok) setFeedback(`${reply.result.move} · ${reply.result.score} points`, "ok");
    else setFeedback(reply.error.message, "error");
  }, PREVIEW_DELAY_MS);
}

/** The tentative tiles as the server is sent them: on the board's own squares. */
function sentTiles(tiles) {
  return tiles.map((tile) => {
    const [row, col] = boardSquare(page.state.variant, tile.row, tile.col);
    return { ...tile, row, col };
  });
}

/** The letter rack tile `index` is played as: its own, or asked for a blank or a set tile (null if
 * the player cancels). */
async function letterFor(index) {
  const letter = page.tentative.letterOf(index);
  if (letter === "?") return askBlankLetter();
  const set = tileSet(page.state.variant, letter);
  return set ? askSetLetter(set) : letter;
}

async function placeAt(index, row, col) {
  const { tentative, state } = page;
  const letter = await letterFor(index);
  if (letter === null) return false;
  if (tentative.occupied(state.board, row, col)) return false;
  tentative.place(index, row, col, letter);
  return true;
}

/** Put rack tile `index` at the typing cursor, as if its letter had been typed. */
async function placeAtCursor(index) {
  const { tentative, state } = page;
  const letter = await letterFor(index);
  if (letter === null) return;
  const error = tentative.type(state.variant, state.board, letter, index);
  if (error) setFeedback(error, "error");
  followCursor();
  changed();
}

function followCursor() {
  const cursor = page.tentative.cursor;
  if (!cursor) return;
  const inBoard = byId("board").contains(document.activeElement);
  page.board.moveFocus(cursor.row, cursor.col, inBoard);
}

// ---- Commands -----------------------------------------------------------------------------------

/** Send a command and show its reply: in the feedback line, unless `inPanel` (the caller shows it). */
async function command(type, fields = {}, { inPanel = false } = {}) {
  const reply = await page.connection.send(type, fields);
  if (reply.ok) {
    if (reply.result?.message) {
      if (!inPanel) setFeedback(reply.result.message, "ok");
      announce(reply.result.message);
    }
  } else {
    setFeedback(reply.error.message, "error");
    announce(reply.error.message);
  }
  return reply;
}

async function play() {
  const tiles = page.tentative.tiles();
  if (tiles.length === 0) return;
  clearTimeout(page.previewTimer);
  page.previewGeneration += 1;
  const reply = await command("play", { turn: page.state.turn, tiles: sentTiles(tiles) });
  if (reply.ok) {
    page.tentative.recall();
    page.tentative.cursor = null;
    render();
  }
}

async function confirmExchange() {
  const letters = [...page.exchange].map((index) => page.tentative.letterOf(index)).join("");
  const reply = await command("exchange", { turn: page.state.turn, tiles: letters });
  if (reply.ok) page.exchange = null;
  render();
}

function armResign() {
  const button = byId("resign");
  if (page.resignArmed) {
    clearTimeout(page.resignArmed);
    page.resignArmed = null;
    button.textContent = "Resign";
    command("resign", { turn: page.state.turn });
    return;
  }
  button.textContent = "Really resign?";
  page.resignArmed = setTimeout(() => {
    page.resignArmed = null;
    button.textContent = "Resign";
  }, RESIGN_CONFIRM_MS);
}

async function hint() {
  const reply = await command("hint", {}, { inPanel: true });
  if (reply.ok) {
    byId("hint-panel").hidden = false;
    byId("hint-text").textContent = reply.result.message;
  }
}

// ---- Input --------------------------------------------------------------------------------------

function squareOf(target) {
  const square = target?.closest?.(".square");
  return square ? { square, row: Number(square.dataset.row), col: Number(square.dataset.col) } : null;
}

async function clickSquare(event) {
  const hit = squareOf(event.target);
  if (!hit || !isSeat() || !gameActive() || page.exchange) return;
  const { tentative, state } = page;
  const { row, col } = hit;
  page.board.moveFocus(row, col);
  const placed = tentative.tileAt(row, col);
  if (page.selected !== null && !tentative.occupied(state.board, row, col)) {
    const index = page.selected;
    page.selected = null;
    await placeAt(index, row, col);
  } else if (placed) {
    tentative.unplace(key(row, col));
  } else if (state.board[row][col] === ".") {
    tentative.setCursor(row, col);
  }
  changed();
}

function clickRack(event) {
  const button = event.target.closest(".rack-tile");
  if (!button) return;
  const index = Number(button.dataset.index);
  if (page.exchange) {
    if (page.exchange.has(index)) page.exchange.delete(index);
    else page.exchange.add(index);
    render();
    return;
  }
  const cursor = page.tentative.cursor;
  if (cursor && onBoard(page.state.variant, cursor.row, cursor.col)) {
    placeAtCursor(index);
    return;
  }
  page.selected = page.selected === index ? null : index;
  render();
  if (page.selected !== null) setFeedback("Now click a square to put that tile on.");
}

async function dropTile(source, target) {
  const { tentative, state } = page;
  const fromBoard = squareOf(source);
  const index = fromBoard ? tentative.tileAt(fromBoard.row, fromBoard.col).index : Number(source.dataset.index);
  const onSquare = squareOf(target);
  if (onSquare) {
    if (tentative.occupied(state.board, onSquare.row, onSquare.col)) return;
    if (fromBoard) {
      const tile = tentative.tileAt(fromBoard.row, fromBoard.col);
      tentative.place(index, onSquare.row, onSquare.col, tile.letter);
    } else if (!(await placeAt(index, onSquare.row, onSquare.col))) {
      return;
    }
    changed();
    return;
  }
  if (target?.closest?.("#rack")) {
    if (fromBoard) tentative.unplace(key(fromBoard.row, fromBoard.col));
    const before = target.closest(".rack-tile");
    tentative.reorder(index, before ? Number(before.dataset.index) : null);
    changed();
  }
}

function highlightDropTarget(target) {
  for (const square of document.querySelectorAll(".drop-target")) square.classList.remove("drop-target");
  const hit = squareOf(target);
  if (hit && !page.tentative.occupied(page.state.board, hit.row, hit.col)) hit.square.classList.add("drop-target");
}

const ARROWS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

function boardKey(event) {
  const hit = squareOf(event.target);
  if (!hit) return;
  const { tentative } = page;
  if (event.key in ARROWS) {
    event.preventDefault();
    const [dr, dc] = ARROWS[event.key];
    let row = hit.row + dr;
    let col = hit.col + dc;
    while (row >= 0 && col >= 0 && row < page.state.variant.rows && col < page.state.variant.cols) {
      if (page.board.moveFocus(row, col)) break;
      row += dr;
      col += dc;
    }
    if (tentative.cursor) {
      const focused = squareOf(document.activeElement);
      tentative.cursor = { row: focused.row, col: focused.col, across: tentative.cursor.across };
      render();
    }
  } else if (event.key === " " || event.key === "Enter" && !tentative.placed.size) {
    event.preventDefault();
    if (!isSeat() || page.exchange) return;
    if (page.selected !== null) {
      clickSquare({ target: hit.square });
      return;
    }
    const cursor = tentative.cursor;
    if (cursor && cursor.row === hit.row && cursor.col === hit.col) tentative.toggleDirection();
    else if (page.state.board[hit.row][hit.col] === ".") tentative.setCursor(hit.row, hit.col);
    render();
  }
}

function globalKey(event) {
  if (!isSeat() || !page.state || page.exchange || byId("blank-dialog").open) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const { tentative, state } = page;
  const inBoard = byId("board").contains(event.target);
  const inField = event.target.closest?.("input, textarea, select");
  if (inField) return;
  if (/^[a-zA-Z]$/.test(event.key) && gameActive()) {
    if (!tentative.cursor) {
      if (!inBoard) return;
      const hit = squareOf(event.target);
      tentative.setCursor(hit.row, hit.col);
    }
    event.preventDefault();
    const error = tentative.type(state.variant, state.board, event.key.toUpperCase());
    if (error) setFeedback(error, "error");
    followCursor();
    changed();
  } else if (event.key === "Backspace" && tentative.placed.size) {
    event.preventDefault();
    tentative.backspace();
    followCursor();
    changed();
  } else if (event.key === "Escape" && tentative.placed.size) {
    tentative.recall();
    changed();
  } else if (event.key === "Enter" && (inBoard || event.target === document.body) && tentative.placed.size && myTurn()) {
    event.preventDefault();
    play();
  }
}

function wireInput() {
  const board = byId("board");
  board.addEventListener("click", clickSquare);
  board.addEventListener("keydown", boardKey);
  document.addEventListener("keydown", globalKey);
  byId("rack").addEventListener("click", clickRack);
  enableDrag(document.body, ".rack-tile, .square.has-tentative", { drop: dropTile, over: highlightDropTarget });
  byId("play").addEventListener("click", play);
  byId("recall").addEventListener("click", () => {
    page.tentative.recall();
    changed();
  });
  byId("shuffle").addEventListener("click", () => {
    page.tentative.shuffle();
    render();
  });
  byId("exchange").addEventListener("click", () => {
    page.tentative.recall();
    page.exchange = new Set();
    setFeedback("");
    render();
  });
  byId("exchange-cancel").addEventListener("click", () => {
    page.exchange = null;
    setFeedback("");
    render();
  });
  byId("exchange-confirm").addEventListener("click", confirmExchange);
  byId("pass").addEventListener("click", () => command("pass", { turn: page.state.turn }));
  byId("challenge").addEventListener("click", () => command("challenge", { turn: page.state.turn }));
  byId("accept").addEventListener("click", () => command("accept", { turn: page.state.turn }));
  byId("no-challenge").addEventListener("click", () => command("no_challenge", { turn: page.state.turn }));
  byId("resign").addEventListener("click", armResign);
  byId("hint").addEventListener("click", hint);
  byId("hint-close").addEventListener("click", () => {
    byId("hint-panel").hidden = true;
  });
}

// ---- Server messages ----------------------------------------------------------------------------

function receiveState(state) {
  const before = page.state?.variant.origin;
  page.state = localState(state);
  const after = page.state.variant.origin;
  if (before) page.tentative.shift(before[0] - after[0], before[1] - after[1]);
  page.clockOffset = state.now - Date.now() / 1000;
  if (page.exchange && !myTurn()) page.exchange = null;
}

function onWelcome(message) {
  if (message.state.grid) {
    showGrid(page.connection, message); // a grid game (Go...): its own view takes the page over
    return;
  }
  page.you = message.you;
  page.final = message.final ?? null;
  receiveState(message.state);
  for (const missed of message.missed ?? []) announceEvents(missed);
  render();
  if (myTurn() && page.tentative.placed.size === 0) setFeedback(HELP);
  schedulePreviewIfPlaced();
}

function schedulePreviewIfPlaced() {
  if (page.tentative.placed.size) schedulePreview();
}

function announceEvents(message) {
  const lines = (message.events ?? []).map((entry) => entry.text);  // as the channel says it
  if (lines.length && myTurn()) lines.push("Your turn.");
  if (lines.length) announce(lines.join(" "));
}

function onEvent(message) {
  if (page.seatOnStart && message.state.status === "active") location.reload();
  receiveState(message.state);
  announceEvents(message);
  if (message.type === "game_over") {
    page.final = message.final;
    page.tentative.recall();
  }
  render();
  if (message.type !== "state") schedulePreviewIfPlaced();
}

function setStatus(text, level) {
  const status = byId("connection");
  status.textContent = text;
  status.dataset.level = level;
}

function fatal(text) {
  setStatus("Disconnected", "error");
  setFeedback(text, "error");
  byId("fatal").hidden = false;
  byId("fatal-text").textContent = text;
}

// The token of the link (#t=...), or inside Discord (the Activity: the SDK's frame_id in the query) the
// token of the Discord user's seat; the SDK loads only there.
// A player who opened it in the lobby watches it, and signs in again (the page reloads) once it starts.
async function boardToken() {
  const token = new URLSearchParams(location.hash.slice(1)).get("t");
  if (token || !new URLSearchParams(location.search).has("frame_id")) return token;
  const { signIn } = await import("./activity.js");
  const session = await signIn();
  page.seatOnStart = session.seat_on_start;
  return session.token;
}

async function start() {
  setUpBlankDialog(byId("blank-dialog"));
  wireInput();
  let token;
  try {
    token = await boardToken();
  } catch (error) {
    fatal(error.message);
    return;
  }
  if (!token) {
    fatal("This page needs the link the bot gave you: it ends with #t= and a token.");
    return;
  }
  const url = new URL("ws", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  url.hash = "";
  page.connection = new Connection(url.href, token, {
    welcome: onWelcome,
    event: onEvent,
    status: setStatus,
    fatal,
  });
  page.connection.open();
  setInterval(renderTimer, 1000);
}

start();
