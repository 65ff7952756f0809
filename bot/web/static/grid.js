// The page of every grid game (docs/protocol.md, "Grid games": Go, and any game whose state has a
// `grid`): the board as cells drawn by the classes its legend names, the players, lines of
// information, the actions of your seat as buttons, and a click on a cell sending the command the
// state names. It takes the page over from the Scrabble board when the welcome names another kind.

import { byId, el, fill } from "./dom.js";

/** Show the game of `welcome` (a grid game's) over `connection`, which now feeds this view. */
export function showGrid(connection, welcome) {
  document.head.append(el("link", { rel: "stylesheet", href: "static/grid.css" }));
  const view = new GridView(connection);
  connection.handlers.welcome = (message) => view.welcome(message);
  connection.handlers.event = (message) => view.event(message);
  view.welcome(welcome);
}

class GridView {
  constructor(connection) {
    this.connection = connection;
    this.you = null;
    this.state = null;
    this.final = null;
    this.armed = null;
    byId("layout").hidden = true;
    this.board = el("div", { id: "grid", class: "grid", role: "grid", "aria-label": "Board" });
    this.players = el("ol", { id: "grid-players", class: "grid-players" });
    this.turn = el("p", { id: "grid-turn", class: "turn-line" });
    this.timer = el("p", { id: "grid-timer", class: "timer", role: "timer", hidden: true });
    this.info = el("ul", { id: "grid-info", class: "grid-info" });
    this.result = el("p", { id: "grid-final", class: "grid-final", role: "status", hidden: true });
    this.record = el("a", { id: "grid-record", class: "button", hidden: true }, "Download the game (SGF)");
    this.actions = el("div", { id: "grid-actions", class: "actions" });
    this.feedback = el("p", { id: "grid-feedback", class: "feedback", "aria-live": "polite" });
    this.history = el("ol", { id: "grid-history", class: "grid-history" });
    this.playPanel = el("section", { class: "panel play-panel", "aria-label": "Your moves" }, this.feedback, this.actions);
    this.root = el(
      "main",
      { id: "grid-layout", class: "layout grid-layout" },
      el("section", { class: "board-area", "aria-label": "Board" }, this.board),
      el(
        "div",
        { class: "side" },
        el("section", { class: "panel players-panel", "aria-label": "Players" }, this.players),
        el("section", { class: "panel status-panel", "aria-label": "Turn" }, this.turn, this.timer, this.result, this.info, this.record),
        this.playPanel,
        el("section", { class: "panel history-panel", "aria-label": "Moves" }, el("h2", {}, "Moves"), this.history),
      ),
    );
    byId("layout").after(this.root);
    this.board.addEventListener("click", (event) => this.click(event));
    setInterval(() => this.renderTimer(), 1000);
  }

  welcome(message) {
    this.you = message.you;
    this.final = message.final ?? null;
    this.receive(message.state);
    this.render();
  }

  event(message) {
    this.receive(message.state);
    if (message.type === "game_over") this.final = message.final;
    this.render();
  }

  receive(state) {
    this.state = state;
    this.clockOffset = state.now - Date.now() / 1000;
  }

  historyLine(entry) {
    const name = this.state.players[entry.player]?.name ?? "?";
    const captured = entry.captured ? `, capturing ${entry.captured}` : "";
    return el("li", {}, `${name}: ${entry.move}${captured}`);
  }

  /** The seconds left to move, or null when there is no deadline. */
  secondsLeft() {
    const deadline = this.state?.over ? null : this.state?.deadline;
    if (deadline === null || deadline === undefined) return null;
    return Math.max(0, Math.round(deadline - (Date.now() / 1000 + this.clockOffset)));
  }

  renderTimer() {
    const left = this.secondsLeft();
    this.timer.hidden = left === null;
    this.timer.textContent = left === null ? "" : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }

  render() {
    const state = this.state;
    document.title = state.title;
    const heading = document.querySelector(".topbar h1");
    if (heading) heading.textContent = state.title;
    const label = byId("game-label");
    if (label) label.textContent = `Game ${state.game_id}`;
    this.renderBoard(state.grid, state.click !== null);
    // Once over, the winners first.
    const won = (player) => (state.over && state.winners.includes(player.seat) ? 1 : 0);
    fill(
      this.players,
      ...[...state.players].sort((a, b) => won(b) - won(a)).map((player) =>
        el(
          "li",
          {
            class: `grid-player${player.seat === state.current ? " to-move" : ""}${won(player) ? " winner" : ""}`,
            "data-seat": player.seat,
          },
          el("span", { class: "name" }, player.name),
          player.colour ? el("span", { class: "colour" }, ` (${player.colour})`) : null,
          player.seat === this.you.seat ? el("span", { class: "you" }, " — you") : null,
          player.score ? el("span", { class: "score" }, ` · ${player.score}`) : null,
        ),
      ),
    );
    this.turn.textContent = this.turnLine();
    const result = new Set(this.final?.text.split("\n") ?? []); // shown once, above the lines
    fill(this.info, ...state.info.filter((line) => !result.has(line)).map((line) => el("li", {}, line)));
    fill(this.history, ...(state.history ?? []).map((entry) => this.historyLine(entry)));
    this.renderTimer();
    fill(
      this.actions,
      ...state.actions.map((action) => {
        const button = el("button", { type: "button", "data-action": action.type }, action.label);
        button.addEventListener("click", () => this.act(action, button));
        return button;
      }),
    );
    this.result.hidden = !this.final;
    this.result.textContent = this.final ? this.final.text : "";
    this.playPanel.hidden = state.over || this.you.seat === null;
    this.renderRecord(state);
  }

  /** The link to download the record of a game that is over (SGF). */
  renderRecord(state) {
    const sgf = this.final?.sgf;
    this.record.hidden = !sgf;
    if (!sgf || this.record.dataset.url) return;
    this.record.dataset.url = URL.createObjectURL(new Blob([sgf], { type: "application/x-go-sgf" }));
    this.record.href = this.record.dataset.url;
    this.record.download = `go-game-${state.game_id}.sgf`;
  }

  turnLine() {
    const state = this.state;
    if (state.over) return "Game over";
    if (state.current === null) return state.phase === "scoring" ? "Marking the dead stones" : "";
    if (state.current === this.you.seat) return "Your move";
    return `${state.players[state.current].name} to move`;
  }

  renderBoard(grid, clickable) {
    this.board.style.setProperty("--grid-cols", grid.cols);
    this.board.classList.toggle("clickable", clickable);
    this.board.classList.toggle("points", Boolean(grid.points));
    const last = new Set(grid.last.map(([row, col]) => `${row},${col}`));
    const rows = [];
    rows.push(this.labelRow(grid));
    grid.cells.forEach((line, row) => {
      const cells = [el("span", { class: "grid-label" }, grid.row_labels?.[row] ?? "")];
      [...line].forEach((letter, col) => {
        const classes = (grid.legend[letter] ?? "empty").split(" ").map((name) => `cell-${name}`);
        if (last.has(`${row},${col}`)) classes.push("cell-last");
        if (row === 0) classes.push("edge-top");
        if (row === grid.rows - 1) classes.push("edge-bottom");
        if (col === 0) classes.push("edge-left");
        if (col === grid.cols - 1) classes.push("edge-right");
        const name = `${grid.col_labels?.[col] ?? col + 1}${grid.row_labels?.[row] ?? row + 1}`;
        cells.push(
          el(
            "button",
            {
              type: "button",
              class: `grid-cell ${classes.join(" ")}`,
              role: "gridcell",
              "data-row": row,
              "data-col": col,
              "aria-label": `${name} ${grid.legend[letter] ?? ""}`.trim(),
            },
            el("span", { class: "piece" }),
          ),
        );
      });
      cells.push(el("span", { class: "grid-label" }, grid.row_labels?.[row] ?? ""));
      rows.push(el("div", { class: "grid-row", role: "row" }, ...cells));
    });
    rows.push(this.labelRow(grid));
    fill(this.board, ...rows);
  }

  labelRow(grid) {
    const labels = (grid.col_labels ?? []).map((label) => el("span", { class: "grid-label" }, label));
    return el("div", { class: "grid-row grid-labels" }, el("span", { class: "grid-label" }), ...labels, el("span", { class: "grid-label" }));
  }

  async click(event) {
    const cell = event.target.closest(".grid-cell");
    if (!cell || !this.state.click) return;
    await this.send(this.state.click, {
      row: Number(cell.dataset.row),
      col: Number(cell.dataset.col),
      turn: this.state.turn,
    });
  }

  async act(action, button) {
    if (action.type === "resign" && this.armed !== button) {
      this.armed = button;
      button.textContent = "Really resign?";
      setTimeout(() => {
        if (this.armed === button) {
          this.armed = null;
          button.textContent = action.label;
        }
      }, 4000);
      return;
    }
    this.armed = null;
    await this.send(action.type, { turn: this.state.turn });
  }

  async send(type, fields) {
    const reply = await this.connection.send(type, fields);
    if (reply.ok) this.setFeedback(reply.result?.message ?? "", "ok");
    else this.setFeedback(reply.error.message, "error");
    return reply;
  }

  setFeedback(text, level) {
    this.feedback.textContent = text;
    this.feedback.dataset.level = level;
  }
}
