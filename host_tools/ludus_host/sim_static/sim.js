// The Ludus simulator page: draws the board from its definition, shows the firmware's LED frames and the
// referee's state as the server sends them over a WebSocket, and sends back what the player does with the
// pieces and the die button. It decides nothing about the rules: the referee on the server does.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const PIECE_FILL = {
  green: "#2e9e44", yellow: "#f2c811", red: "#d23a2f", blue: "#2f62d2",
  purple: "#8b45c7", white: "#f5f5f5", "?": "#9a9a9a",
};
const CELL_TINT = {
  green: "#cfe8d3", yellow: "#f7ecb5", red: "#f3cdc9", blue: "#cbd6f2", purple: "#e1cff0", white: "#f2f2f2",
};
// a sign beside each lit LED, so the lights read without telling colours apart (docs/simulator.md)
const GLYPH = {
  destination: "•", "jump path": "·", "capture victim": "×", "capture base": "⌂", missing: "?",
  unexpected: "!", "move from": "↑", "move to": "↓", illegal: "✕", "way back": "↩", confirm: "✓",
  turn: "▶", finished: "★", winner: "♛", player: "",
};
const LUDO_COLOURS = ["green", "yellow", "red", "blue"];
const CHECKERS_COLOURS = ["red", "purple", "blue", "yellow", "green", "white"];
const DRAG_PX = 6;

const $ = (id) => document.getElementById(id);
const view = {
  board: null, boardName: null, state: null, frame: "", ws: null, replay: null,
  cells: {}, leds: [], selectedHand: null, spare: null, press: null, focus: null,
};
window.ludus = view; // for the browser tests: what the page believes

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 10000);
}

// ---- the connection ------------------------------------------------------------------------------------

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  view.ws = ws;
  ws.onmessage = (m) => {
    let msg;
    try { msg = JSON.parse(m.data); } catch (e) { showError("the server sent something that is not JSON"); return; }
    if (msg.type === "hello") hello(msg);
    else if (msg.type === "state") { view.state = msg; if (!view.replay) showState(msg); }
    else if (msg.type === "frame") { view.frame = msg.grb; view.frameT = msg.t; if (!view.replay) showFrame(msg.grb); }
    else if (msg.type === "speed") $("speed").value = String(msg.speed);
    else if (msg.type === "error") showError(msg.message);
  };
  ws.onclose = () => {
    document.body.classList.add("offline");
    showError("the connection to the simulator closed; trying again…");
    setTimeout(connect, 1000);
  };
  ws.onopen = () => document.body.classList.remove("offline");
}

function send(msg) {
  if (!view.ws || view.ws.readyState !== WebSocket.OPEN) { showError("not connected to the simulator"); return; }
  view.ws.send(JSON.stringify(msg));
}

function hello(msg) {
  view.mirror = msg.mirror;
  document.body.classList.toggle("mirror-device", msg.mirror === "device");
  document.body.classList.toggle("mirror-pico", msg.mirror === "pico");
  const note = $("mirror-note");
  note.hidden = !msg.mirror;
  note.textContent = msg.mirror === "device"
    ? `Showing the board on ${msg.source} live: its LEDs as it lights them, its pieces where its sensors read them.`
    : msg.mirror === "pico"
      ? "The table is the emulated Pico: your pieces and presses go to its pins, its LEDs are decoded from the chain. It runs at about a quarter of real time."
      : "";
  const game = $("game");
  game.textContent = "";
  for (const [preset, words] of msg.games) {
    const o = document.createElement("option");
    o.value = preset; o.textContent = words; game.appendChild(o);
  }
  game.value = msg.preset;
  const speed = $("speed");
  speed.textContent = "";
  for (const s of msg.speeds) {
    const o = document.createElement("option");
    o.value = String(s); o.textContent = s + "×"; speed.appendChild(o);
  }
  speed.value = String(msg.speed);
  const start = $("start");
  start.textContent = "";
  for (const name of msg.starts) {
    const o = document.createElement("option");
    o.value = name; o.textContent = name.length > 40 ? name.slice(0, 38) + "…" : name; start.appendChild(o);
  }
  if (msg.starts.includes(msg.preset)) start.value = msg.preset; // the game chosen, not the first start
  $("settings-note").hidden = true;
  showBotChoices(msg.bot_seats || [], msg.bot_levels || [], msg.mirror);
  $("settle").value = msg.state.settle_ms;
  $("sensors").value = msg.state.analog ? "analog" : "presence";
  view.state = msg.state;
  view.frame = msg.frame;
  view.frameT = msg.frame_t;
  view.live = { board: msg.board, boardName: msg.board_name };
  if (view.replay) return; // the replay stays on show; the live table is shown on leaving it
  view.board = msg.board;
  view.boardName = msg.board_name;
  drawBoard(msg.board);
  showState(msg.state);
  showFrame(msg.frame);
}

// ---- the board -----------------------------------------------------------------------------------------

function drawBoard(b) {
  const svg = $("board");
  svg.textContent = "";
  svg.setAttribute("tabindex", "-1");
  svg.setAttribute("focusable", "false");
  const pad = 8;
  svg.setAttribute("viewBox", `${-pad} ${-pad} ${b.width + 2 * pad} ${b.height + 2 * pad}`);
  svg.dataset.board = view.boardName;
  el("rect", { x: -pad, y: -pad, width: b.width + 2 * pad, height: b.height + 2 * pad, rx: 14, fill: "#e9dcc0" }, svg);
  view.cells = {};
  view.leds = new Array(b.leds.count).fill(null);
  view.focus = b.cells.length ? b.cells[0].id : null;
  let first = true;
  for (const c of b.cells) {
    const g = el("g", { class: "cell", "data-cell": c.id, tabindex: first ? "0" : "-1", role: "button" }, svg);
    first = false;
    const fill = c.colour ? CELL_TINT[c.colour] || "#fff" : "#fbf8f1";
    el("circle", { class: "hole", cx: c.x, cy: c.y, r: c.r, fill }, g);
    const led = el("circle", { class: "led", cx: c.x, cy: c.y, r: c.r + 2.4, "data-led": c.led }, g);
    el("title", {}, g).textContent = c.id;
    el("text", { class: "cell-name", x: c.x, y: c.y + c.r + 5.5 }, g).textContent = c.id;
    const pieces = el("g", { class: "pieces" }, g);
    const glyph = el("text", { class: "glyph", x: c.x + c.r * 0.85, y: c.y - c.r * 0.85 }, g);
    view.cells[c.id] = { def: c, g, led, pieces, glyph };
    view.leds[c.led] = { el: led, glyph, kind: "cell", id: c.id };
  }
  for (const ind of b.indicators || []) {
    const r = Math.max(ind.r, 3);
    const led = el("circle", { class: "indicator led-ind", cx: ind.x, cy: ind.y, r, "data-led": ind.led,
                               "data-id": ind.id, fill: "#3a352c" }, svg);
    const title = el("title", {}, led);
    title.textContent = ind.id;
    const glyph = el("text", { class: "glyph", x: ind.x + r + 3, y: ind.y - r }, svg);
    view.leds[ind.led] = { el: led, glyph, kind: "indicator", id: ind.id };
  }
  view.ghost = el("g", { class: "ghost", visibility: "hidden" }, svg);
  el("circle", { r: 8, class: "piece" }, view.ghost);
  svg.addEventListener("pointerdown", pointerDown);
  svg.addEventListener("pointermove", pointerMove);
  svg.addEventListener("pointerup", pointerUp);
  svg.addEventListener("pointercancel", () => endDrag(null));
  svg.addEventListener("keydown", cellKey);
  svg.addEventListener("focusin", (e) => {
    const g = e.target.closest && e.target.closest(".cell");
    if (g) setFocus(g.dataset.cell, false);
  });
}

function gameColours() {
  return (view.state && view.state.preset || "").startsWith("checkers") ? CHECKERS_COLOURS : LUDO_COLOURS;
}

function drawPieces(pieces) {
  for (const id in view.cells) {
    const cell = view.cells[id];
    const stack = pieces[id] || [];
    cell.pieces.textContent = "";
    const c = cell.def;
    if (stack.length) {
      const top = stack[stack.length - 1];
      el("circle", { class: "piece", cx: c.x, cy: c.y, r: c.r * 0.72, fill: PIECE_FILL[top] || "#999",
                     "data-colour": top }, cell.pieces);
      const letter = el("text", { class: "piece-letter" + (top === "blue" || top === "purple" ? " dark" : ""),
                                  x: c.x, y: c.y }, cell.pieces);
      letter.textContent = top === "?" ? "?" : top[0].toUpperCase();
      if (stack.length > 1) {
        el("circle", { cx: c.x - c.r * 0.7, cy: c.y + c.r * 0.7, r: 4, fill: "#111" }, cell.pieces);
        el("text", { class: "stack", x: c.x - c.r * 0.7, y: c.y + c.r * 0.7 }, cell.pieces).textContent = stack.length;
      }
    }
    cell.g.dataset.pieces = stack.join(" ");
  }
  labelCells();
}

function labelCells() {
  const lit = {};
  for (const [led, , meaning] of (view.replay ? view.replay.steps[view.replay.k].lit : (view.state || {}).lit) || []) {
    lit[led] = meaning;
  }
  const pieces = (view.replay ? view.replay.steps[view.replay.k].pieces : (view.state || {}).pieces) || {};
  for (const id in view.cells) {
    const cell = view.cells[id];
    const stack = pieces[id] || [];
    const what = stack.length ? stack.length + " piece" + (stack.length > 1 ? "s" : "") + ": " + stack.join(", ") : "empty";
    const m = lit[cell.def.led];
    cell.g.setAttribute("aria-label", `${id}, ${what}${m ? ", lit: " + m : ""}`);
  }
}

function showFrame(hex) {
  const svg = $("board");
  svg.dataset.grb = hex || "";
  for (let i = 0; i < view.leds.length; i++) {
    const led = view.leds[i];
    if (!led) continue;
    let g = 0, r = 0, b = 0;
    if (hex && hex.length >= 6 * (i + 1)) {
      g = parseInt(hex.substr(6 * i, 2), 16);
      r = parseInt(hex.substr(6 * i + 2, 2), 16);
      b = parseInt(hex.substr(6 * i + 4, 2), 16);
    }
    const on = r + g + b > 0;
    const colour = on ? `rgb(${r},${g},${b})` : (led.kind === "cell" ? "rgba(60,50,40,0.18)" : "#3a352c");
    led.el.dataset.rgb = `${r},${g},${b}`;
    if (led.kind === "cell") led.el.style.stroke = colour;
    else led.el.style.fill = colour;
  }
}

function showLit(lit) {
  for (const led of view.leds) if (led) led.glyph.textContent = "";
  for (const [index, , meaning] of lit || []) {
    const led = view.leds[index];
    if (led) led.glyph.textContent = GLYPH[meaning] !== undefined ? GLYPH[meaning] : "";
  }
}

// ---- the panels ----------------------------------------------------------------------------------------

function showState(st) {
  drawPieces(st.pieces);
  showLit(st.lit);
  showHand(st.hand);
  let status = st.phase === "setup" ? "setting up: put the pieces out, then press the die button" :
    st.phase === "over" ? "game over" : `${st.turn} to play · ${st.situation}`;
  $("status").textContent = status;
  $("status").dataset.phase = st.phase;
  $("status").dataset.situation = st.situation || "";
  $("die-shown").textContent = st.die && st.die.length ? "Die: " + st.die.join(" ") : "";
  $("commitment").textContent = st.commitment ? "Dice commitment (SHA-256 of the secret seed): " + st.commitment : "";
  $("verified").textContent = st.seed ? "Seed revealed: " + st.seed + (st.verified ? " — " + st.verified : "") : "";
  showMoves(st.moves);
  if (st.bots) showBots(st.bots);
  if (st.names) showNames(st.names);
  showSeason(st.season, view.mirror);
  showLog(st.log.map(([t, text]) => `${(t / 1000).toFixed(1)} s  ${text}`));
  $("die-button").classList.toggle("down", !!st.button_down);
}

// ---- bots: a level per seat, or a person ---------------------------------------------------------------

function showBotChoices(seats, levels, mirror) {
  const box = $("bots");
  box.textContent = "";
  $("bots-box").hidden = !!mirror || !seats.length;
  for (const [key, words] of seats) {
    const row = document.createElement("div");
    row.className = "seat";
    const name = document.createElement("input");
    name.id = "name-" + key;
    name.dataset.seat = key;
    name.size = 12;
    name.maxLength = 16;
    name.placeholder = words;
    name.setAttribute("aria-label", "name of " + words);
    name.addEventListener("change", sendNames);
    row.appendChild(name);
    const label = document.createElement("label");
    label.textContent = " ";
    const sel = document.createElement("select");
    sel.setAttribute("aria-label", "who plays " + words);
    sel.id = "bot-" + key;
    sel.dataset.seat = key;
    for (const level of ["person", ...levels]) {
      const o = document.createElement("option");
      o.value = level; o.textContent = level === "person" ? "a person" : level + " bot";
      sel.appendChild(o);
    }
    sel.addEventListener("change", sendBots);
    label.appendChild(sel);
    row.appendChild(label);
    box.appendChild(row);
  }
}

function sendNames() {
  const names = {};
  for (const input of $("bots").querySelectorAll("input")) {
    const text = input.value.trim();
    if (text) names[input.dataset.seat] = text;
  }
  send({ do: "names", names });
}

function showNames(names) {
  for (const input of $("bots").querySelectorAll("input")) {
    if (document.activeElement === input) continue; // (not while someone types in it)
    input.value = (names || {})[input.dataset.seat] || "";
  }
}

// ---- the season: the table of every finished game of this rule set, by the players' names ------------

function showSeason(season, mirror) {
  $("season-box").hidden = !season || !!mirror;
  if (!season) return;
  const s = season.games === 1 ? "" : "s";
  const p = season.playoffs.length;
  $("season-title").textContent = `${season.rules}: ${season.games} game${s}` +
    (p ? ` and ${p} play-off${p === 1 ? "" : "s"}` : "") + " (3, 2, 1, 0 points by place)";
  const body = $("season").querySelector("tbody");
  body.textContent = "";
  for (const row of season.standings) {
    const tr = document.createElement("tr");
    if (row.tied) tr.className = "tied";
    for (const v of [row.rank, row.player, row.points, row.games, ...row.places]) {
      const td = document.createElement("td");
      td.textContent = String(v);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  const notes = season.ties.map((g) => "tied, a play-off is due: " + g.join(", "));
  notes.push(season.champion ? "champion: " + season.champion :
    season.games ? "champion: not settled" : "no games yet: finish one to start the table");
  $("season-note").textContent = notes.join(" · ");
}

function sendBots() {
  const bots = {};
  for (const sel of $("bots").querySelectorAll("select")) {
    if (sel.value !== "person") bots[sel.dataset.seat] = sel.value;
  }
  send({ do: "bots", bots });
}

function showBots(bots) {
  for (const sel of $("bots").querySelectorAll("select")) {
    const level = (bots || {})[sel.dataset.seat];
    sel.value = level || "person";
  }
}

function showMoves(moves) {
  const ol = $("moves");
  ol.textContent = "";
  for (const m of moves || []) {
    const li = document.createElement("li");
    li.textContent = m;
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

function showLog(lines) {
  const ul = $("log");
  ul.textContent = "";
  for (const line of lines) {
    const li = document.createElement("li");
    li.textContent = line;
    ul.appendChild(li);
  }
  ul.scrollTop = ul.scrollHeight;
}

function trayPiece(colour, title) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "tray-piece";
  b.style.background = PIECE_FILL[colour] || "#999";
  b.style.color = colour === "blue" || colour === "purple" ? "#fff" : "#000";
  b.textContent = colour === "?" ? "?" : colour[0].toUpperCase();
  b.title = title;
  b.setAttribute("aria-label", title);
  b.dataset.colour = colour;
  return b;
}

function showHand(hand) {
  const held = $("held");
  held.textContent = "";
  if (view.selectedHand !== null && view.selectedHand >= hand.length) view.selectedHand = null;
  hand.forEach((colour, k) => {
    const b = trayPiece(colour, `a ${colour} piece in the hand: click it, then a cell`);
    if (view.selectedHand === k || (view.selectedHand === null && k === hand.length - 1 && !view.spare)) b.classList.add("selected");
    b.addEventListener("click", () => { view.selectedHand = k; view.spare = null; showHand(hand); refocus("held", k); });
    b.addEventListener("pointerdown", (e) => trayDown(e, colour));
    held.appendChild(b);
  });
  if (!hand.length) held.textContent = "nothing";
  const spares = $("spares");
  spares.textContent = "";
  for (const colour of gameColours()) {
    const b = trayPiece(colour, `a new ${colour} piece from the box: click it, then a cell`);
    if (view.spare === colour) b.classList.add("selected");
    b.addEventListener("click", () => {
      view.spare = view.spare === colour ? null : colour;
      showHand(hand);
      refocus("spares", gameColours().indexOf(colour));
    });
    b.addEventListener("pointerdown", (e) => trayDown(e, colour));
    spares.appendChild(b);
  }
}

function refocus(box, k) {
  // the tray is drawn afresh: the keyboard's place in it is kept
  const b = $(box).querySelectorAll("button")[k];
  if (b) b.focus();
}

// ---- moving pieces -------------------------------------------------------------------------------------

function svgPoint(e) {
  const svg = $("board");
  const p = svg.createSVGPoint();
  p.x = e.clientX; p.y = e.clientY;
  return p.matrixTransform(svg.getScreenCTM().inverse());
}

function cellAt(e) {
  const hit = document.elementFromPoint(e.clientX, e.clientY);
  const g = hit && hit.closest ? hit.closest(".cell") : null;
  return g ? g.dataset.cell : null;
}

function piecesOn(id) {
  return (view.state && view.state.pieces[id]) || [];
}

function placeColour() {
  // the piece a click puts down: a new one from the box, the one picked in the hand, or the last lifted
  if (view.spare) return view.spare;
  const hand = (view.state && view.state.hand) || [];
  if (!hand.length) return undefined;
  const k = view.selectedHand !== null ? view.selectedHand : hand.length - 1;
  return hand[k] === "?" ? null : hand[k];
}

function liftColour(id) {
  // From a stack of different colours a player takes the piece that does not belong there: after a
  // Ludo capture, the victim under the piece to move. Otherwise the top one.
  const stack = piecesOn(id);
  const mover = view.state && view.state.turn;
  if (stack.length > 1 && mover) {
    for (const colour of stack) if (colour !== mover && colour !== "?") return colour;
  }
  return stack.length ? stack[stack.length - 1] : null;
}

function lift(id) {
  const colour = liftColour(id);
  send(colour && colour !== "?" ? { do: "lift", cell: id, colour } : { do: "lift", cell: id });
  return colour;
}
function place(id, colour) {
  send(colour ? { do: "place", cell: id, colour } : { do: "place", cell: id });
  view.selectedHand = null;
  view.spare = null; // one piece from the box per choice
}

function clickCell(id, forceLift) {
  if (view.replay) return;
  const colour = placeColour();
  if (!forceLift && colour !== undefined) place(id, colour);
  else if (piecesOn(id).length) lift(id);
  else showError(`${id} is empty: lift a piece first, or take one from the box`);
}

function pointerDown(e) {
  if (view.replay || e.button > 0) return;
  const id = cellAt(e);
  if (!id) return;
  e.preventDefault();
  $("board").setPointerCapture(e.pointerId);
  view.press = { id, x: e.clientX, y: e.clientY, dragging: false, colour: null, shift: e.shiftKey };
  setFocus(id, false);
}

function trayDown(e, colour) {
  if (view.replay) return;
  view.press = { id: null, x: e.clientX, y: e.clientY, dragging: false, colour, fromTray: true };
  window.addEventListener("pointermove", pointerMove);
  window.addEventListener("pointerup", pointerUp, { once: true });
}

function pointerMove(e) {
  const p = view.press;
  if (!p) return;
  if (!p.dragging && Math.hypot(e.clientX - p.x, e.clientY - p.y) > DRAG_PX) {
    if (p.fromTray) p.dragging = true;
    else {
      if (!piecesOn(p.id).length) return;
      p.dragging = true;
      p.colour = lift(p.id); // the magnet leaves the sensor as the piece leaves the hole
    }
    const ghost = view.ghost.firstChild;
    ghost.setAttribute("fill", PIECE_FILL[p.colour] || "#999");
    view.ghost.setAttribute("visibility", "visible");
  }
  if (p.dragging) {
    const q = svgPoint(e);
    view.ghost.setAttribute("transform", `translate(${q.x},${q.y})`);
  }
}

function pointerUp(e) {
  const p = view.press;
  if (!p) return;
  window.removeEventListener("pointermove", pointerMove);
  const target = cellAt(e);
  if (p.dragging) {
    // dropped on a cell: put down there; anywhere else: it stays in the hand, beside the board
    if (target) place(target, p.colour === "?" ? null : p.colour);
    if (p.fromTray) view.spare = null;
  } else if (!p.fromTray && target === p.id) {
    clickCell(p.id, p.shift);
  }
  endDrag();
}

function endDrag() {
  view.press = null;
  if (view.ghost) view.ghost.setAttribute("visibility", "hidden");
}

// ---- the keyboard --------------------------------------------------------------------------------------

function setFocus(id, move) {
  const cell = view.cells[id];
  if (!cell) return;
  if (view.focus && view.cells[view.focus]) view.cells[view.focus].g.setAttribute("tabindex", "-1");
  cell.g.setAttribute("tabindex", "0");
  view.focus = id;
  if (move) cell.g.focus();
}

function nearest(id, dx, dy) {
  // the closest cell in the arrow's direction (within 60° of it)
  const from = view.cells[id].def;
  let best = null, bestScore = Infinity;
  for (const k in view.cells) {
    if (k === id) continue;
    const c = view.cells[k].def;
    const vx = c.x - from.x, vy = c.y - from.y;
    const along = vx * dx + vy * dy;
    if (along <= 0) continue;
    const across = Math.abs(vx * dy - vy * dx);
    if (across > along * 1.8) continue;
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = k; }
  }
  return best;
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function cellKey(e) {
  const g = e.target.closest && e.target.closest(".cell");
  if (!g) return;
  const id = g.dataset.cell;
  if (ARROWS[e.key]) {
    const next = nearest(id, ...ARROWS[e.key]);
    if (next) setFocus(next, true);
    e.preventDefault();
  } else if (e.key === "Enter" || e.key === " ") {
    clickCell(id, e.shiftKey);
    e.preventDefault();
  } else if (e.key === "l" || e.key === "L") {
    clickCell(id, true);
  }
}

// ---- the die button ------------------------------------------------------------------------------------

function buttonDown(e) {
  if (view.replay) return;
  if (e.type === "keydown") {
    if ((e.key !== " " && e.key !== "Enter") || e.repeat) return;
  }
  e.preventDefault();
  if (view.buttonHeld) return;
  view.buttonHeld = true;
  $("die-button").classList.add("down");
  send({ do: "button", down: true });
}

function buttonUp(e) {
  if (e.type === "keyup" && e.key !== " " && e.key !== "Enter") return;
  if (!view.buttonHeld) return;
  if (e.cancelable) e.preventDefault();
  view.buttonHeld = false;
  $("die-button").classList.remove("down");
  send({ do: "button", down: false });
}

// ---- saving and replaying ------------------------------------------------------------------------------

async function download(url) {
  let r;
  try { r = await fetch(url); } catch (e) { showError("the simulator did not answer: " + e); return; }
  if (!r.ok) {
    let message = r.statusText;
    try { message = (await r.json()).error; } catch (e) { /* not JSON */ }
    showError(message);
    return;
  }
  const disposition = r.headers.get("Content-Disposition") || "";
  const name = (disposition.match(/filename="([^"]+)"/) || [])[1] || "ludus.txt";
  const a = document.createElement("a");
  a.href = URL.createObjectURL(await r.blob());
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

async function loadReplay(file) {
  let text;
  try { text = await file.text(); } catch (e) { showError("cannot read " + file.name + ": " + e); return; }
  await startReplay(text, file.name);
}

async function startReplay(text, name) {
  let r, body;
  try {
    r = await fetch("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" },
                                    body: JSON.stringify({ text }) });
    body = await r.json();
  } catch (e) { showError("the replay failed: " + e); return; }
  if (!r.ok) { showError((name ? name + ": " : "") + body.error); return; }
  if (body.board !== view.boardName) {
    try {
      const b = await (await fetch("/api/boards/" + body.board)).json();
      view.boardName = body.board;
      view.board = b;
      drawBoard(b);
    } catch (e) { showError("cannot load board " + body.board); return; }
  }
  view.replay = { steps: body.steps, moves: body.moves || [], k: 0, kind: body.kind, name: name || "" };
  document.body.classList.add("replaying");
  $("stepper").hidden = false;
  showStep();
}

function stepView(k) {
  // step k as shown: the moves carried forward from the last step that changed them, the log so far
  const rp = view.replay;
  const steps = rp.steps;
  const s = steps[k];
  let moves = [];
  if (s.moves_upto !== undefined) moves = rp.moves.slice(0, s.moves_upto);
  else for (let j = k; j >= 0; j--) if (steps[j].moves !== null) { moves = steps[j].moves; break; }
  const log = [];
  for (let j = 0; j <= k; j++) log.push(...steps[j].log_new);
  return Object.assign({}, s, { moves, log });
}
view.stepView = stepView;

function showStep() {
  const rp = view.replay;
  const s = stepView(rp.k);
  drawPieces(s.pieces);
  showFrame(s.grb || "");
  showLit(s.lit);
  showMoves(s.moves);
  showLog(s.log);
  $("status").textContent = s.phase === "setup" ? "setting up" :
    s.phase === "over" ? "game over" : (s.turn ? s.turn + " to play" : "");
  $("die-shown").textContent = s.die && s.die.length ? "Die: " + s.die.join(" ") : "";
  $("commitment").textContent = "";
  $("verified").textContent = "";
  $("step-label").textContent = `${rp.name} · step ${rp.k} of ${rp.steps.length - 1} · ${s.label}`;
  $("step-label").dataset.step = rp.k;
}

function step(to) {
  const rp = view.replay;
  if (!rp) return;
  rp.k = Math.max(0, Math.min(rp.steps.length - 1, to));
  showStep();
}

function leaveReplay() {
  view.replay = null;
  document.body.classList.remove("replaying");
  $("stepper").hidden = true;
  $("load").value = "";
  // the live table went on meanwhile: show it as it is now
  if (view.boardName !== view.live.boardName) {
    view.boardName = view.live.boardName;
    view.board = view.live.board;
    drawBoard(view.board);
  }
  showState(view.state);
  showFrame(view.frame);
}

// ---- wiring --------------------------------------------------------------------------------------------

function wire() {
  const die = $("die-button");
  die.addEventListener("pointerdown", buttonDown);
  die.addEventListener("pointerup", buttonUp);
  die.addEventListener("pointercancel", buttonUp);
  die.addEventListener("pointerleave", buttonUp);
  die.addEventListener("keydown", buttonDown);
  die.addEventListener("keyup", buttonUp);
  die.addEventListener("click", (e) => e.preventDefault());
  $("setup").addEventListener("click", () => send({ do: "setup", start: $("start").value }));
  $("clear").addEventListener("click", () => send({ do: "clear" }));
  $("new-season").addEventListener("click", () => {
    if (window.confirm("Begin a new season? This table is cleared (saved game records keep every game).")) {
      send({ do: "new_season" });
    }
  });
  $("play-from").addEventListener("click", () => send({ do: "start", position: $("position").value }));
  $("power").addEventListener("click", () => send({ do: "power" }));
  $("new-game").addEventListener("click", () => {
    const text = $("settle").value.trim();
    const settle = /^[0-9]{1,4}$/.test(text) ? parseInt(text, 10) : NaN;
    if (!(settle >= 0 && settle <= 5000)) { showError("settle time: a whole number of ms, 0 to 5000"); return; }
    const st = view.state || {};
    if ((st.moves || []).length && st.phase === "play" &&
        !window.confirm("Start a new table? The game on this one ends for everyone watching it.")) return;
    send({ do: "new", game: $("game").value, settle_ms: settle, analog: $("sensors").value === "analog" });
  });
  for (const id of ["game", "sensors", "settle"]) {
    $(id).addEventListener("change", () => { $("settings-note").hidden = false; });
  }
  $("show-names").addEventListener("change", (e) => document.body.classList.toggle("names", e.target.checked));
  $("aside").addEventListener("click", () => { view.spare = null; send({ do: "aside" }); });
  // a page that loses the pointer or goes away while the button is held lets it go
  window.addEventListener("blur", buttonUp);
  window.addEventListener("pagehide", buttonUp);
  $("speed").addEventListener("change", () => send({ do: "speed", value: parseFloat($("speed").value) }));
  $("save-record").addEventListener("click", () => download("/api/record"));
  $("save-script").addEventListener("click", () => download("/api/script"));
  $("load").addEventListener("change", (e) => { if (e.target.files[0]) loadReplay(e.target.files[0]); });
  $("step-first").addEventListener("click", () => step(0));
  $("step-back").addEventListener("click", () => step(view.replay.k - 1));
  $("step-next").addEventListener("click", () => step(view.replay.k + 1));
  $("step-last").addEventListener("click", () => step(Infinity));
  $("step-live").addEventListener("click", leaveReplay);
  $("goto").addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    const id = $("goto").value.trim();
    if (view.cells[id]) setFocus(id, true);
    else showError(`no cell ${id} on this board`);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      view.spare = null; view.selectedHand = null; showHand((view.state || {}).hand || []);
      return;
    }
    if (!view.replay || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (e.key === "ArrowRight") step(view.replay.k + 1);
    else if (e.key === "ArrowLeft") step(view.replay.k - 1);
  });
  connect();
}

wire();
