/* The Kalah board page: plain JavaScript, no build step, nothing from the internet.
 *
 * The server owns the rules and the games; this page draws the board in SVG,
 * animates what the server says a move did (MoveEffect: the cells sown, extra
 * turn, capture), and sends clicks and keys as moves.
 *
 * For tests: #board carries data-to-move, data-over, data-busy (true while a
 * move is animated or the computer thinks) and data-human-to-move; every pit
 * data-pit="P-I" and data-seeds, every store data-store="P" and data-seeds.
 */
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (sel) => document.querySelector(sel);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const SEED_COLORS = [
  ["#e8574a", "#9c2419"], ["#3d8fd6", "#1b4f86"], ["#46b36b", "#1d6b39"], ["#f2c84b", "#a9791a"],
  ["#a56ad6", "#5c2d8a"], ["#f08a3c", "#a24e12"], ["#eef0f2", "#9aa3ab"], ["#2fb3a6", "#136b62"],
];

const S = {
  info: null,
  game: null,          // the server's state of the open game
  shown: null,         // {board, toMove, over} currently drawn
  busy: false,
  driving: false,
  paused: false,
  flipped: null,       // null: automatic
  view: "game",
  mode: "play",        // play | replay
  replay: null,        // {id, frames, index, playing}
  analysis: null,
  hint: null,
  marks: null,         // {origin, sown:Set, capture:[cells]} of the last move
  animMs: 170,
};

// --- the API --------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function api(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(url, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const detail = data && data.detail ? (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)) : response.statusText;
    throw new ApiError(response.status, detail);
  }
  return data;
}

// --- geometry --------------------------------------------------------------------

function geometry(m) {
  const pitStep = 100, R = 41, storeW = 86, side = 26, gap = 14;
  const pitsX0 = side + storeW + gap;
  const W = pitsX0 + m * pitStep + gap + storeW + side;
  const H = 350;
  const rowTop = 110, rowBottom = 240;
  return {
    m, R, W, H, pitStep, storeW, rowTop, rowBottom,
    colX: (j) => pitsX0 + pitStep / 2 + j * pitStep,
    storeLeft: { x: side, y: 60, w: storeW, h: 230 },
    storeRight: { x: pitsX0 + m * pitStep + gap, y: 60, w: storeW, h: 230 },
  };
}

// The bottom player's pits run left to right, their store on the right; the
// top player's pits run right to left (counter-clockwise sowing).
function cellPlace(g, cell, bottom) {
  const m = g.m, half = m + 1;
  const player = cell < half ? 0 : 1;
  const index = cell % half;
  const atBottom = player === bottom;
  if (index === m) {
    return { kind: "store", player, rect: atBottom ? g.storeRight : g.storeLeft };
  }
  const col = atBottom ? index : m - 1 - index;
  return { kind: "pit", player, index, x: g.colX(col), y: atBottom ? g.rowBottom : g.rowTop, top: !atBottom };
}

function hash(a, b) {
  let h = (a * 374761393 + b * 668265263) ^ 0x5bd1e995;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

function seedSpots(count, cell, radius) {
  // A sunflower spiral, a little jittered, so a pit of seeds looks like a heap.
  const spots = [];
  const shown = Math.min(count, 24);
  const scale = shown <= 1 ? 0 : Math.min(7.6, (radius - 9) / Math.sqrt(shown));
  for (let k = 0; k < shown; k++) {
    const r = scale * Math.sqrt(k + 0.5);
    const a = k * 2.39996 + cell * 1.7;
    spots.push({
      x: r * Math.cos(a) + (hash(cell, k) - 0.5) * 3,
      y: r * Math.sin(a) + (hash(k, cell) - 0.5) * 3,
      color: SEED_COLORS[Math.floor(hash(cell * 31 + k, 7) * SEED_COLORS.length)],
      rot: Math.floor(hash(k, cell * 13) * 180),
    });
  }
  return spots;
}

function storeSpots(count, cell, rect) {
  const spots = [];
  const shown = Math.min(count, 72);
  const cols = 4, dx = 16, dy = 14;
  const x0 = rect.x + rect.w / 2 - ((cols - 1) * dx) / 2;
  for (let k = 0; k < shown; k++) {
    const row = Math.floor(k / cols), col = k % cols;
    const shift = row % 2 ? dx / 2 - 4 : 0;
    spots.push({
      x: x0 + col * dx + shift + (hash(cell, k) - 0.5) * 4,
      y: rect.y + rect.h - 22 - row * dy + (hash(k, cell) - 0.5) * 4,
      color: SEED_COLORS[Math.floor(hash(cell * 31 + k, 7) * SEED_COLORS.length)],
      rot: Math.floor(hash(k, cell * 13) * 180),
    });
  }
  return spots;
}

// --- drawing ----------------------------------------------------------------------

function el(name, attrs, parent) {
  const node = document.createElementNS(SVGNS, name);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function defs(svg) {
  const d = el("defs", {}, svg);
  const wood = el("linearGradient", { id: "wood", x1: "0", y1: "0", x2: "0", y2: "1" }, d);
  el("stop", { offset: "0", "stop-color": "#c98b4f" }, wood);
  el("stop", { offset: "0.5", "stop-color": "#b0713a" }, wood);
  el("stop", { offset: "1", "stop-color": "#8e5527" }, wood);
  const grain = el("filter", { id: "grain", x: "0", y: "0", width: "100%", height: "100%" }, d);
  el("feTurbulence", { type: "fractalNoise", baseFrequency: "0.004 0.09", numOctaves: "3", seed: "7", result: "noise" }, grain);
  el("feColorMatrix", { in: "noise", type: "matrix", values: "0 0 0 0 0.35  0 0 0 0 0.18  0 0 0 0 0.05  0 0 0 0.55 -0.05", result: "tint" }, grain);
  el("feComposite", { in: "tint", in2: "SourceGraphic", operator: "in" }, grain);
  const hole = el("radialGradient", { id: "hole", cx: "0.5", cy: "0.42", r: "0.62" }, d);
  el("stop", { offset: "0", "stop-color": "#4a2a12" }, hole);
  el("stop", { offset: "0.75", "stop-color": "#5e3618" }, hole);
  el("stop", { offset: "1", "stop-color": "#2e1806" }, hole);
  const rim = el("linearGradient", { id: "rim", x1: "0", y1: "0", x2: "0", y2: "1" }, d);
  el("stop", { offset: "0", "stop-color": "#6b3d17" }, rim);
  el("stop", { offset: "1", "stop-color": "#e2ab73" }, rim);
  SEED_COLORS.forEach(([light, dark], i) => {
    const g = el("radialGradient", { id: `seed${i}`, cx: "0.35", cy: "0.3", r: "0.75" }, d);
    el("stop", { offset: "0", "stop-color": "#ffffff", "stop-opacity": "0.85" }, g);
    el("stop", { offset: "0.25", "stop-color": light }, g);
    el("stop", { offset: "1", "stop-color": dark }, g);
  });
  const shadow = el("filter", { id: "shadow", x: "-10%", y: "-10%", width: "120%", height: "130%" }, d);
  el("feDropShadow", { dx: "0", dy: "6", stdDeviation: "6", "flood-color": "#2b1605", "flood-opacity": "0.45" }, shadow);
}

function drawSeed(parent, spot, cls) {
  const i = SEED_COLORS.indexOf(spot.color);
  el("ellipse", {
    cx: spot.x.toFixed(1), cy: spot.y.toFixed(1), rx: "7.4", ry: "6.2",
    transform: `rotate(${spot.rot} ${spot.x.toFixed(1)} ${spot.y.toFixed(1)})`,
    fill: `url(#seed${i})`, stroke: "rgba(0,0,0,0.35)", "stroke-width": "0.6", class: cls || "seed",
  }, parent);
}

function bottomPlayer() {
  if (S.flipped !== null) return S.flipped;
  const players = currentPlayers();
  if (players && players[1].human && !players[0].human) return 1;
  return 0;
}

function currentPlayers() {
  if (S.mode === "replay" && S.replay) return S.replay.players;
  return S.game ? S.game.players : null;
}

/* Draw `board` ([[pits..., store], [pits..., store]]) with `toMove` and `over`.
 * opts: legal (pits clickable), marks, fresh (cell that just got a seed),
 * values (analysis per move), hint (move). */
function drawBoard(board, toMove, over, opts) {
  opts = opts || {};
  const svg = $("#board");
  const m = board[0].length - 1;
  const g = geometry(m);
  const bottom = bottomPlayer();
  svg.setAttribute("viewBox", `0 0 ${g.W} ${g.H}`);
  svg.replaceChildren();
  defs(svg);
  svg.dataset.toMove = String(toMove);
  svg.dataset.over = over ? "true" : "false";
  svg.dataset.pits = String(m);
  svg.dataset.bottom = String(bottom);

  el("rect", { x: 8, y: 8, width: g.W - 16, height: g.H - 16, rx: 70, fill: "url(#wood)", filter: "url(#shadow)", class: "wood" }, svg);
  el("rect", { x: 8, y: 8, width: g.W - 16, height: g.H - 16, rx: 70, fill: "#a0642f", filter: "url(#grain)", opacity: "0.9" }, svg);
  el("rect", { x: 14, y: 14, width: g.W - 28, height: g.H - 28, rx: 64, fill: "none", stroke: "rgba(255,230,190,0.35)", "stroke-width": 2 }, svg);

  // The mover's row glows.
  if (!over) {
    const y = toMove === bottom ? g.rowBottom : g.rowTop;
    el("rect", { x: g.colX(0) - g.R - 10, y: y - g.R - 10, width: g.pitStep * (m - 1) + 2 * g.R + 20, height: 2 * g.R + 20,
      rx: g.R + 10, class: "turn-glow" }, svg);
  }

  const cells = board[0].concat(board[1]);
  const marks = opts.marks || {};
  const legal = new Set((opts.legal || []).filter((x) => x !== "swap"));
  const values = opts.values || {};
  cells.forEach((count, cell) => {
    const place = cellPlace(g, cell, bottom);
    const sown = marks.sown && marks.sown.has(cell);
    if (place.kind === "store") {
      const r = place.rect;
      const group = el("g", { class: "store" + (sown ? " sown" : ""), "data-store": String(place.player), "data-seeds": String(count) }, svg);
      el("rect", { x: r.x - 3, y: r.y - 3, width: r.w + 6, height: r.h + 6, rx: r.w / 2 + 3, fill: "url(#rim)", opacity: "0.8" }, group);
      el("rect", { x: r.x, y: r.y, width: r.w, height: r.h, rx: r.w / 2, fill: "url(#hole)", class: "cup" }, group);
      storeSpots(count, cell, r).forEach((spot, k) => drawSeed(group, spot, opts.fresh === cell && k === count - 1 ? "seed fresh" : "seed"));
      const label = el("g", { class: "count store-count" }, group);
      const cy = place.player === bottom ? r.y + r.h + 26 : r.y - 18;
      el("rect", { x: r.x + r.w / 2 - 24, y: cy - 17, width: 48, height: 26, rx: 13, class: "badge" }, label);
      el("text", { x: r.x + r.w / 2, y: cy + 2, "text-anchor": "middle", class: "count-text" }, label).textContent = String(count);
      return;
    }
    const pitId = `${place.player}-${place.index}`;
    const isLegal = legal.has(place.index) && place.player === toMove;
    const classes = ["pit"];
    if (isLegal) classes.push("legal");
    if (sown) classes.push("sown");
    if (marks.origin === cell) classes.push("origin");
    if (marks.capture && marks.capture.includes(cell)) classes.push("captured");
    if (opts.hint === place.index && place.player === toMove) classes.push("hint");
    const letter = String.fromCharCode((place.player === 0 ? 65 : 97) + place.index);
    const group = el("g", { class: classes.join(" "), "data-pit": pitId, "data-seeds": String(count),
      "data-letter": letter }, svg);
    if (isLegal) {
      group.setAttribute("role", "button");
      group.setAttribute("tabindex", "0");
      group.setAttribute("aria-label", `pit ${letter}, ${count} seeds`);
    }
    el("circle", { cx: place.x, cy: place.y, r: g.R + 3, fill: "url(#rim)", opacity: "0.8" }, group);
    el("circle", { cx: place.x, cy: place.y, r: g.R, fill: "url(#hole)", class: "cup" }, group);
    const seeds = el("g", { transform: `translate(${place.x} ${place.y})` }, group);
    seedSpots(count, cell, g.R).forEach((spot, k) => drawSeed(seeds, spot, opts.fresh === cell && k === count - 1 ? "seed fresh" : "seed"));
    el("circle", { cx: place.x, cy: place.y, r: g.R, class: "ring" }, group);
    const cy = place.top ? place.y - g.R - 17 : place.y + g.R + 29;
    const label = el("g", { class: "count" }, group);
    el("rect", { x: place.x - 17, y: cy - 17, width: 34, height: 24, rx: 12, class: "badge" }, label);
    el("text", { x: place.x, y: cy + 1, "text-anchor": "middle", class: "count-text" }, label).textContent = String(count);
    el("text", { x: place.x, y: place.top ? place.y + g.R + 17 : place.y - g.R - 8, "text-anchor": "middle",
      class: "letter" }, group).textContent = letter;
    if (isLegal && values[place.index] !== undefined && values[place.index] !== null) {
      const v = values[place.index];
      const best = opts.best === place.index;
      const tag = el("g", { class: "value" + (best ? " best" : "") }, group);
      const vx = place.x + g.R - 6, vy = place.top ? place.y - g.R + 6 : place.y + g.R - 6;
      el("rect", { x: vx - 18, y: vy - 11, width: 36, height: 20, rx: 10 }, tag);
      el("text", { x: vx, y: vy + 4, "text-anchor": "middle" }, tag).textContent = (v > 0 ? "+" : "") + v;
    }
    if (isLegal) {
      group.addEventListener("click", () => playHuman(place.index));
      group.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); playHuman(place.index); }
      });
    }
  });
  S.shown = { board: board.map((row) => row.slice()), toMove, over };
}

// --- panels, status, banners ------------------------------------------------------

function playerLabel(players, p) {
  if (!players) return `Player ${p + 1}`;
  const player = players[p];
  return player.name;
}

function drawPanels(board, toMove, over) {
  const players = currentPlayers();
  const bottom = bottomPlayer();
  for (const [where, p] of [["#panel-bottom", bottom], ["#panel-top", 1 - bottom]]) {
    const panel = $(where);
    const store = board[p][board[p].length - 1];
    const active = !over && toMove === p;
    panel.className = "player-panel" + (active ? " active" : "") + (where === "#panel-top" ? " top" : " bottom");
    const kind = players ? (players[p].human ? "human" : "computer") : "";
    panel.innerHTML = "";
    const dot = document.createElement("span");
    dot.className = "dot " + kind;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = playerLabel(players, p);
    const side = document.createElement("span");
    side.className = "muted small";
    const m = board[0].length - 1;
    const first = p === 0 ? 65 : 97;
    side.textContent = (p === 0 ? "first player" : "second player") +
      ` · pits ${String.fromCharCode(first)}–${String.fromCharCode(first + m - 1)}`;
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = String(store);
    const turn = document.createElement("span");
    turn.className = "turn";
    turn.textContent = active ? (kind === "computer" ? "thinking…" : "to move") : "";
    panel.append(dot, name, side, turn, score);
  }
}

function resultText(state, board) {
  const scores = state.scores || [board[0][board[0].length - 1], board[1][board[1].length - 1]];
  const players = currentPlayers();
  if (scores[0] === scores[1]) return `Draw, ${scores[0]} – ${scores[1]}`;
  const winner = scores[0] > scores[1] ? 0 : 1;
  const humans = players ? players.filter((p) => p.human).length : 0;
  const name = players ? players[winner].name : `Player ${winner + 1}`;
  let text = `${name} wins`;
  if (humans === 1 && players) text = players[winner].human ? "You win!" : `${name} wins`;
  return `${text} ${Math.max(...scores)} – ${Math.min(...scores)}`;
}

function showBanner(text, kind, ms) {
  const banner = $("#banner");
  banner.textContent = text;
  banner.className = "banner " + (kind || "");
  banner.hidden = false;
  clearTimeout(showBanner.timer);
  if (ms) showBanner.timer = setTimeout(() => { banner.hidden = true; }, ms);
}

function hideBanner() { $("#banner").hidden = true; }

function setStatus(text, error) {
  const status = $("#status");
  status.textContent = text;
  status.classList.toggle("error", !!error);
}

function setBusy(busy) {
  S.busy = busy;
  $("#board").dataset.busy = busy ? "true" : "false";
}

// --- animation ------------------------------------------------------------------------

function effectMarks(last) {
  if (!last || last.move === "swap") return null;
  const m = last.before[0].length - 1;
  const origin = last.player * (m + 1) + last.move;
  const capture = [];
  if (last.capture_pit !== null && last.capture_pit !== undefined) {
    const own = last.capture_pit;
    const ownIndex = own % (m + 1);
    const opposite = (1 - last.player) * (m + 1) + (m - 1 - ownIndex);
    capture.push(own, opposite);
  }
  return { origin, sown: new Set(last.sown), capture };
}

/* Animate `last` (the server's description of a move) from its `before` board, then draw `final`. */
async function animateMove(last, final, toMove, over, extraOpts) {
  const m = last.before[0].length - 1;
  const half = m + 1;
  const ms = S.animMs;
  if (last.move === "swap") {
    if (ms > 0) { showBanner("Swap! The sides change hands", "info", 1400); await sleep(ms * 4); }
    drawBoard(final, toMove, over, extraOpts);
    return;
  }
  if (ms > 0) {
    const cells = last.before[0].concat(last.before[1]);
    const origin = last.player * half + last.move;
    const marks = { origin, sown: new Set(), capture: [] };
    cells[origin] = 0;
    const asBoard = () => [cells.slice(0, half), cells.slice(half)];
    drawBoard(asBoard(), last.player, false, { marks });
    await sleep(ms * 1.5);
    for (const cell of last.sown) {
      cells[cell] += 1;
      marks.sown.add(cell);
      drawBoard(asBoard(), last.player, false, { marks, fresh: cell });
      await sleep(ms);
    }
    if (last.extra_turn) showBanner("Extra turn!", "good", Math.max(900, ms * 8));
    if (last.captured > 0) {
      marks.capture = effectMarks(last).capture;
      drawBoard(asBoard(), last.player, false, { marks });
      showBanner(`Capture! ${last.captured} seeds`, "capture", Math.max(1100, ms * 9));
      await sleep(ms * 5);
    }
  } else {
    if (last.extra_turn) showBanner("Extra turn!", "good", 900);
    if (last.captured > 0) showBanner(`Capture! ${last.captured} seeds`, "capture", 1100);
  }
  drawBoard(final, toMove, over, Object.assign({ marks: effectMarks(last) }, extraOpts || {}));
}

// --- the game ----------------------------------------------------------------------

function boardOpts() {
  const game = S.game;
  const opts = { marks: effectMarks(game.last) };
  if (game.human_to_move && !S.busy) opts.legal = game.legal_moves;
  if (S.analysis && S.analysis.available && S.analysis.forMoves === game.moves) {
    opts.values = {};
    for (const entry of S.analysis.moves || []) if (entry.move !== "swap") opts.values[entry.move] = entry.value;
    opts.best = S.analysis.best_move;
  }
  if (S.hint && S.hint.forMoves === game.moves) opts.hint = S.hint.move;
  return opts;
}

function redraw() {
  if (S.mode !== "play" || !S.game) return;
  const game = S.game;
  drawBoard(game.board, game.to_move, game.over, boardOpts());
  drawPanels(game.board, game.to_move, game.over);
  updateControls();
}

function updateControls() {
  const game = S.game;
  if (!game) return;
  const svg = $("#board");
  svg.dataset.humanToMove = game.human_to_move && !S.busy ? "true" : "false";
  svg.dataset.game = String(game.id);
  svg.dataset.moves = String(game.moves);
  const cvc = !game.players[0].human && !game.players[1].human;
  const hasComputer = !game.players[0].human || !game.players[1].human;
  $("#btn-takeback").disabled = !game.can_take_back || S.busy;
  $("#btn-redo").disabled = !game.can_redo || S.busy;
  $("#btn-hint").disabled = !game.human_to_move || S.busy;
  $("#btn-swap").hidden = !(game.human_to_move && game.legal_moves.includes("swap"));
  $("#btn-pause").hidden = !cvc || game.over;
  $("#btn-pause").textContent = S.paused ? "▶ Resume" : "❚❚ Pause";
  $("#cvc-speed").hidden = !cvc;
  const history = $("#history");
  history.replaceChildren();
  game.history.forEach((name, i) => {
    const li = document.createElement("li");
    li.textContent = name;
    if (i === game.history.length - 1) li.className = "current";
    history.appendChild(li);
  });
  history.scrollTop = history.scrollHeight;
  if (game.over) {
    setStatus(resultText(game, game.board));
    showBanner(resultText(game, game.board), "result");
  } else if (game.human_to_move) {
    const humans = game.players.filter((p) => p.human).length;
    setStatus(humans === 2 ? `${game.players[game.to_move].name} to move: click a pit` : "Your move: click a pit (or type its letter)");
  } else if (hasComputer) {
    setStatus(S.paused ? "Paused" : `${game.players[game.to_move].name} is thinking…`);
  }
}

async function showState(state, animate) {
  const previous = S.game;
  S.game = state;
  if (S.mode !== "play") return;
  const sameGame = previous && previous.id === state.id;
  if (!(sameGame && previous.over && state.over)) hideBanner();
  if (animate && sameGame && state.last && state.moves === previous.moves + 1) {
    setBusy(true);
    drawPanels(state.last.before, state.last.player, false);
    await animateMove(state.last, state.board, state.to_move, state.over);
    setBusy(false);
  }
  redraw();
  if (S.analysisOn) refreshAnalysis();
  driveComputer();
}

async function openGame(id) {
  S.mode = "play";
  S.replay = null;
  S.paused = false;
  S.analysis = null;
  S.hint = null;
  S.flipped = null;
  showView("game");
  setBusy(true);
  try {
    const state = await api("GET", `/api/games/${id}`);
    S.game = null;
    hideBanner();
    setBusy(false);
    await showState(state, false);
  } catch (error) {
    setBusy(false);
    setStatus(error.message, true);
  }
}

async function freshGame() {
  // The default game, reused while nobody has moved in it.
  const state = await api("POST", "/api/games", { reuse_unstarted: true });
  history.replaceState(null, "", `#/game/${state.id}`);
  await openGame(state.id);
}

async function playHuman(move) {
  const game = S.game;
  if (!game || S.busy || !game.human_to_move || S.mode !== "play") return;
  if (!game.legal_moves.includes(move)) return;
  S.hint = null;
  setBusy(true);
  try {
    const state = await api("POST", `/api/games/${game.id}/moves`, { move });
    setBusy(false);
    await showState(state, true);
  } catch (error) {
    setBusy(false);
    setStatus(error.message, true);
    if (error.status === 409) reload();
  }
}

async function reload() {
  if (!S.game) return;
  const state = await api("GET", `/api/games/${S.game.id}`);
  S.game = state;
  redraw();
  driveComputer();
}

function computerDelay() {
  const game = S.game;
  const cvc = !game.players[0].human && !game.players[1].human;
  if (cvc) return Number($("#speed").value);
  return S.animMs > 0 ? 350 : 0;
}

async function driveComputer() {
  if (S.driving) return;
  S.driving = true;
  try {
    while (S.mode === "play" && S.game && S.game.computer_to_move && !S.paused) {
      const id = S.game.id;
      setBusy(true);
      updateControls();
      const wait = computerDelay();
      if (wait) await sleep(wait);
      if (!S.game || S.game.id !== id || S.paused || S.mode !== "play") break;
      let state;
      try {
        state = await api("POST", `/api/games/${id}/computer-move`);
      } catch (error) {
        if (error.status === 409) { state = await api("GET", `/api/games/${id}`); }
        else { setStatus(error.message, true); break; }
      }
      if (!S.game || S.game.id !== id || S.mode !== "play") break;
      setBusy(false);
      await showStateNoDrive(state);
    }
  } finally {
    S.driving = false;
    setBusy(false);
    if (S.mode === "play" && S.game) redraw();
  }
}

async function showStateNoDrive(state) {
  const wasDriving = S.driving;
  S.driving = true;   // keeps showState from starting a second loop
  try { await showState(state, true); } finally { S.driving = wasDriving; }
}

async function gameAction(path) {
  if (!S.game || S.busy) return;
  S.hint = null;
  try {
    const state = await api("POST", `/api/games/${S.game.id}/${path}`);
    S.paused = S.paused && !state.over;
    await showState(state, false);
  } catch (error) {
    setStatus(error.message, true);
  }
}

// --- analysis and hints ----------------------------------------------------------------

async function fetchAnalysis(position) {
  if (position) return api("POST", "/api/analyse", { position, seconds: 0.5 });
  return api("GET", `/api/games/${S.game.id}/analysis?seconds=0.5`);
}

function moveName(player, move) {
  if (move === "swap") return "swap";
  return String.fromCharCode((player === 0 ? 65 : 97) + move);
}

function renderAnalysis(result, toMove) {
  const box = $("#analysis");
  if (!result) { box.textContent = "Turn on to see the value of every move."; return; }
  if (!result.available) { box.textContent = result.reason || "Analysis is unavailable."; return; }
  box.replaceChildren();
  const head = document.createElement("p");
  const v = result.value;
  head.innerHTML = "";
  head.textContent = `Value for the side to move: ${v === null || v === undefined ? "?" : (v > 0 ? "+" : "") + v}` +
    (result.exact ? " (exact)" : " (search)");
  box.appendChild(head);
  const list = document.createElement("ul");
  list.className = "move-values";
  for (const entry of (result.moves || []).slice().sort((a, b) => (b.value ?? -1e9) - (a.value ?? -1e9))) {
    const li = document.createElement("li");
    const bound = entry.bound === "upper" ? "≤ " : entry.bound === "unknown" ? "" : "";
    li.textContent = `${moveName(toMove, entry.move)}: ${entry.value === null ? "?" : bound + (entry.value > 0 ? "+" : "") + entry.value}`;
    if (entry.move === result.best_move) li.className = "best";
    list.appendChild(li);
  }
  box.appendChild(list);
  if (result.pv_names && result.pv_names.length) {
    const line = document.createElement("p");
    line.textContent = "Best line: " + result.pv_names.join(" ");
    box.appendChild(line);
  }
}

async function refreshAnalysis() {
  if (!S.analysisOn) return;
  if (S.mode === "replay") {
    const frame = S.replay.frames[S.replay.index];
    if (frame.over) { renderAnalysis({ available: true, value: null, moves: [] }, frame.to_move); return; }
    $("#analysis").textContent = "Thinking…";
    try {
      const position = { board: frame.board, to_move: frame.to_move, variant: S.replay.variant };
      const result = await fetchAnalysis(position);
      renderAnalysis(result, frame.to_move);
    } catch (error) { $("#analysis").textContent = error.message; }
    return;
  }
  const game = S.game;
  if (!game || game.over) { renderAnalysis(null); $("#analysis").textContent = game && game.over ? "The game is over." : ""; return; }
  const moves = game.moves;
  $("#analysis").textContent = "Thinking…";
  try {
    const result = await fetchAnalysis();
    if (!S.game || S.game.moves !== moves || S.game.id !== game.id) return;
    result.forMoves = moves;
    S.analysis = result;
    renderAnalysis(result, game.to_move);
    if (!S.busy) redraw();
  } catch (error) { $("#analysis").textContent = error.message; }
}

async function hint() {
  const game = S.game;
  if (!game || !game.human_to_move) return;
  setStatus("Looking for the best move…");
  try {
    const result = await fetchAnalysis();
    if (!result.available) { setStatus(result.reason || "Hints need a search engine, and none is installed.", true); return; }
    if (result.best_move === null || result.best_move === undefined) { setStatus("No hint for this position.", true); return; }
    S.hint = { move: result.best_move, forMoves: game.moves };
    setStatus(`Hint: play ${moveName(game.to_move, result.best_move)}`);
    drawBoard(game.board, game.to_move, game.over, boardOpts());
  } catch (error) { setStatus(error.message, true); }
}

// --- replay ------------------------------------------------------------------------------

async function openReplay(id) {
  S.mode = "replay";
  S.paused = false;
  S.flipped = null;
  showView("game");
  hideBanner();
  setBusy(true);
  try {
    const data = await api("GET", `/api/games/${id}/replay`);
    S.replay = { id, frames: data.frames, players: data.players, variant: data.variant, index: 0, playing: false,
      unfinished: !data.frames[data.frames.length - 1].over };
    $("#rp-slider").max = String(data.frames.length - 1);
    setBusy(false);
    replayShow(0, false);
  } catch (error) {
    setBusy(false);
    setStatus(error.message, true);
  }
}

async function replayShow(index, animate) {
  const rp = S.replay;
  if (!rp) return;
  index = Math.max(0, Math.min(rp.frames.length - 1, index));
  const frame = rp.frames[index];
  const forward = animate && index === rp.index + 1 && frame.last;
  rp.index = index;
  hideBanner();
  if (forward) {
    setBusy(true);
    drawPanels(frame.last.before, frame.last.player, false);
    await animateMove(frame.last, frame.board, frame.to_move, frame.over);
    setBusy(false);
  } else {
    drawBoard(frame.board, frame.to_move, frame.over, { marks: effectMarks(frame.last) });
  }
  if (S.mode !== "replay" || S.replay !== rp) return;
  drawPanels(frame.board, frame.to_move, frame.over);
  $("#rp-slider").value = String(index);
  $("#rp-pos").textContent = `move ${index} of ${rp.frames.length - 1}` + (frame.last ? ` (${frame.last.name})` : "");
  $("#rp-continue").hidden = !(rp.unfinished && index === rp.frames.length - 1);
  const historyList = $("#history");
  historyList.replaceChildren();
  rp.frames.slice(1).forEach((f, i) => {
    const li = document.createElement("li");
    li.textContent = f.last.name;
    li.tabIndex = 0;
    if (i + 1 === index) li.className = "current";
    li.addEventListener("click", () => replayShow(i + 1, false));
    historyList.appendChild(li);
  });
  const scores = [frame.board[0][frame.board[0].length - 1], frame.board[1][frame.board[1].length - 1]];
  if (frame.over) {
    const text = resultText({ scores }, frame.board);
    setStatus(`Replay of game ${rp.id}: ${text}`);
    showBanner(text, "result");
  } else {
    setStatus(`Replay of game ${rp.id}: ${rp.players[frame.to_move].name} to move`);
  }
  const svg = $("#board");
  svg.dataset.humanToMove = "false";
  svg.dataset.replayIndex = String(index);
  if (S.analysisOn) refreshAnalysis();
}

async function replayAutoplay() {
  const rp = S.replay;
  if (!rp) return;
  if (rp.playing) { rp.playing = false; $("#rp-play").textContent = "▶ Play"; return; }
  rp.playing = true;
  $("#rp-play").textContent = "❚❚ Pause";
  if (rp.index >= rp.frames.length - 1) await replayShow(0, false);
  while (rp.playing && S.replay === rp && rp.index < rp.frames.length - 1) {
    await sleep(Math.max(250, S.animMs * 3));
    if (!rp.playing || S.replay !== rp) break;
    await replayShow(rp.index + 1, true);
  }
  rp.playing = false;
  $("#rp-play").textContent = "▶ Play";
}

// --- library --------------------------------------------------------------------------------

function formatDate(text) {
  const date = new Date(text);
  if (isNaN(date)) return text || "";
  return date.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

async function openLibrary(message) {
  S.mode = "library";
  showView("library");
  $("#library-message").textContent = message || "";
  const body = $("#library tbody");
  body.replaceChildren();
  let games;
  try { games = await api("GET", "/api/games?limit=500"); } catch (error) {
    $("#library-message").textContent = error.message; return;
  }
  if (!games.length) {
    const tr = document.createElement("tr");
    tr.innerHTML = '<td colspan="7" class="muted">No games yet.</td>';
    body.appendChild(tr);
  }
  for (const game of games) {
    const tr = document.createElement("tr");
    tr.dataset.game = String(game.id);
    tr.dataset.status = game.status;
    let result;
    if (game.status === "finished") {
      result = game.winner === null ? `draw ${game.scores[0]}–${game.scores[1]}`
        : `${game.players[game.winner].name} won ${game.scores[0]}–${game.scores[1]}`;
    } else result = game.status === "stopped" ? "stopped" : "in progress";
    const cells = [String(game.id), formatDate(game.started_at), `${game.players[0].name} vs ${game.players[1].name}`,
      game.variant_name, String(game.moves), result];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    const actions = document.createElement("td");
    actions.className = "actions";
    if (game.status !== "finished") {
      const open = document.createElement("a");
      open.href = `#/game/${game.id}`;
      open.textContent = "Continue";
      open.className = "button small continue";
      actions.appendChild(open);
    }
    const replay = document.createElement("a");
    replay.href = `#/replay/${game.id}`;
    replay.textContent = "Replay";
    replay.className = "button small replay";
    const exportLink = document.createElement("a");
    exportLink.href = `/api/games/${game.id}/record?download=true`;
    exportLink.textContent = "Export";
    exportLink.className = "button small export";
    exportLink.setAttribute("download", `kalah-game-${game.id}.json`);
    actions.append(replay, exportLink);
    tr.appendChild(actions);
    body.appendChild(tr);
  }
}

async function importRecord(file) {
  try {
    const text = await file.text();
    const state = await api("POST", "/api/records", text);
    await openLibrary(`Imported as game ${state.id}.`);
  } catch (error) {
    $("#library-message").textContent = `Import failed: ${error.message}`;
  }
}

// --- new game dialog ---------------------------------------------------------------------

function fillPlayerSelect(select, value) {
  select.replaceChildren();
  const add = (val, text, disabled) => {
    const option = document.createElement("option");
    option.value = val;
    option.textContent = text;
    option.disabled = !!disabled;
    select.appendChild(option);
  };
  add("human", "Human");
  for (const level of S.info.levels) {
    add(level.name, `Computer: ${level.name}` + (level.available ? "" : " (not installed)"), !level.available);
  }
  add("custom", "Computer: custom spec…");
  select.value = value;
}

function openNewGame() {
  const dialog = $("#dlg-new");
  fillPlayerSelect($("#ng-p0"), "human");
  fillPlayerSelect($("#ng-p1"), S.info.default_level);
  $("#ng-types").textContent = "Player types: " + S.info.player_types.map((t) => t.name + (t.options ? ` (${t.options})` : "")).join(", ");
  $("#ng-error").textContent = "";
  for (const p of [0, 1]) $(`#ng-p${p}-spec`).hidden = true;
  dialog.showModal();
}

async function startNewGame(event) {
  event.preventDefault();
  const players = [0, 1].map((p) => {
    const value = $(`#ng-p${p}`).value;
    return value === "custom" ? $(`#ng-p${p}-spec`).value.trim() : value;
  });
  const body = {
    variant: { pits: Number($("#ng-pits").value), seeds: Number($("#ng-seeds").value),
      empty_capture: $("#ng-empty").checked, pie_rule: $("#ng-pie").checked },
    players,
  };
  try {
    const state = await api("POST", "/api/games", body);
    $("#dlg-new").close();
    location.hash = `#/game/${state.id}`;
  } catch (error) {
    $("#ng-error").textContent = error.message;
  }
}

// --- views and routing ----------------------------------------------------------------------

function showView(name) {
  S.view = name;
  $("#view-game").hidden = name !== "game";
  $("#view-library").hidden = name !== "library";
  $("#play-controls").hidden = S.mode !== "play";
  $("#replay-controls").hidden = S.mode !== "replay";
  $("#nav-library").classList.toggle("current", name === "library");
  $("#nav-board").classList.toggle("current", name === "game");
}

async function route() {
  if (S.replay) S.replay.playing = false;
  const hash = location.hash || "#/";
  let match;
  if ((match = hash.match(/^#\/game\/(\d+)/))) return openGame(Number(match[1]));
  if ((match = hash.match(/^#\/replay\/(\d+)/))) return openReplay(Number(match[1]));
  if (hash.startsWith("#/library")) return openLibrary();
  S.mode = "play";
  showView("game");
  try { await freshGame(); } catch (error) { setStatus(error.message, true); }
}

function onKey(event) {
  if (event.target.closest("input, select, textarea, dialog")) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (S.mode === "replay") {
    if (event.key === "ArrowRight") { replayShow(S.replay.index + 1, true); event.preventDefault(); }
    else if (event.key === "ArrowLeft") { replayShow(S.replay.index - 1, false); event.preventDefault(); }
    else if (event.key === "Home") replayShow(0, false);
    else if (event.key === "End") replayShow(S.replay.frames.length - 1, false);
    return;
  }
  if (S.mode !== "play" || !S.game || !S.game.human_to_move) return;
  const key = event.key;
  if (key.length !== 1 || !/[a-z]/i.test(key)) return;
  const m = S.game.board[0].length - 1;
  const index = key.toLowerCase().charCodeAt(0) - 97;
  if (index >= 0 && index < m) { playHuman(index); return; }
  if (key.toLowerCase() === "s" && S.game.legal_moves.includes("swap")) playHuman("swap");
}

function setAnimation(value) {
  S.animMs = Number(value);
  $("#anim").value = String(value);
  try { localStorage.setItem("kalah.anim", String(value)); } catch (e) { /* private mode */ }
}

async function init() {
  const params = new URLSearchParams(location.search);
  let anim = null;
  try { anim = localStorage.getItem("kalah.anim"); } catch (e) { anim = null; }
  if (params.has("anim")) anim = params.get("anim") === "off" ? "0" : params.get("anim");
  if (anim !== null && !isNaN(Number(anim))) {
    S.animMs = Number(anim);
    const select = $("#anim");
    if (![...select.options].some((o) => o.value === String(S.animMs))) {
      const option = document.createElement("option");
      option.value = String(S.animMs);
      option.textContent = `${S.animMs} ms`;
      select.appendChild(option);
    }
    select.value = String(S.animMs);
  }
  if (params.has("speed")) $("#speed").value = params.get("speed");
  $("#anim").addEventListener("change", (e) => setAnimation(e.target.value));
  $("#btn-new").addEventListener("click", openNewGame);
  $("#ng-cancel").addEventListener("click", () => $("#dlg-new").close());
  $("#form-new").addEventListener("submit", startNewGame);
  for (const p of [0, 1]) {
    $(`#ng-p${p}`).addEventListener("change", (e) => { $(`#ng-p${p}-spec`).hidden = e.target.value !== "custom"; });
  }
  $("#btn-takeback").addEventListener("click", () => gameAction("takeback"));
  $("#btn-redo").addEventListener("click", () => gameAction("redo"));
  $("#btn-swap").addEventListener("click", () => playHuman("swap"));
  $("#btn-hint").addEventListener("click", hint);
  $("#btn-flip").addEventListener("click", () => {
    S.flipped = 1 - bottomPlayer();
    if (S.mode === "replay") replayShow(S.replay.index, false); else redraw();
  });
  $("#btn-pause").addEventListener("click", () => {
    S.paused = !S.paused;
    updateControls();
    if (!S.paused) driveComputer();
  });
  $("#analysis-toggle").addEventListener("change", (e) => {
    S.analysisOn = e.target.checked;
    if (!S.analysisOn) { S.analysis = null; renderAnalysis(null); redraw(); } else refreshAnalysis();
  });
  $("#rp-first").addEventListener("click", () => replayShow(0, false));
  $("#rp-prev").addEventListener("click", () => replayShow(S.replay.index - 1, false));
  $("#rp-next").addEventListener("click", () => replayShow(S.replay.index + 1, true));
  $("#rp-last").addEventListener("click", () => replayShow(S.replay.frames.length - 1, false));
  $("#rp-play").addEventListener("click", replayAutoplay);
  $("#rp-slider").addEventListener("input", (e) => replayShow(Number(e.target.value), false));
  $("#rp-continue").addEventListener("click", () => { location.hash = `#/game/${S.replay.id}`; });
  $("#import-file").addEventListener("change", (e) => { if (e.target.files[0]) importRecord(e.target.files[0]); e.target.value = ""; });
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  try { S.info = await api("GET", "/api/info"); } catch (error) { setStatus(error.message, true); return; }
  await route();
}

init();
