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
const TARGET_PX = 40; // a hole's touch target on a phone, at least
const PHONE_PX = 820; // narrower than this: one column, and the board's holes at their touch size
const UNDO_HOLD_MS = 900; // the Undo button holds the die button past its 0.8 s long press
// the page's marks for what the referee lit, drawn in the hole so they show on every hole colour:
// a dot where the piece may go, a ring round a piece to take up, a small dot on a jump's way
const MARK = {
  destination: "dot", "move to": "dot", "way back": "dot", "capture base": "dot", missing: "dot",
  "move from": "ring", "capture victim": "ring", unexpected: "ring", illegal: "ring", confirm: "ring",
  "jump path": "path",
};

const $ = (id) => document.getElementById(id);
const view = {
  board: null, boardName: null, state: null, frame: "", ws: null, replay: null,
  cells: {}, leds: [], selectedHand: null, spare: null, press: null, focus: null,
  starts: {}, startSeats: {}, botWords: {}, botLights: {}, cues: {}, heardCue: null, played: [], muted: false,
  audio: null, big: null,
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
      ? "The table is the emulated Pico: your pieces and presses go to its pins, its LEDs are decoded from the chain. It runs at about a quarter of real time: it says \u201cself-test passed\u201d in What happened when it is ready."
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
  view.startSeats = msg.start_seats || {};
  const start = $("start");
  start.textContent = "";
  for (const name of msg.starts) {
    const o = document.createElement("option");
    o.value = name; o.textContent = (msg.start_words || {})[name] || name; o.title = name;
    start.appendChild(o);
  }
  // the start of the game in play (after a reload too), else the game chosen, not the first start
  const playing = msg.state.start;
  start.value = msg.starts.includes(playing) ? playing : msg.starts.includes(msg.preset) ? msg.preset : msg.starts[0] || "";
  view.shownStart = playing;
  // the example for Play from it: a start of this game (a Checkers table is not shown Ludo's notation)
  const other = msg.starts.find((name) => name !== playing) || msg.starts[0];
  $("position").placeholder = other ? `e.g. ${other} or a position's notation` : "a position's notation";
  $("settings-note").hidden = true;
  view.botLevels = msg.bot_levels || [];
  view.botWords = msg.bot_words || {};
  view.botLights = msg.bot_lights || {};
  view.cues = msg.cues || {};
  view.heardCue = null; // the cues so far are history: only new ones sound
  showRules(msg.rules || [], view.botLevels, view.botWords);
  view.seatsShown = null;
  showBotChoices(msg.state, msg.mirror);
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

function showRules(rules, levels, words) {
  const ul = $("rules");
  ul.textContent = "";
  for (const text of rules) {
    const li = document.createElement("li");
    li.textContent = text;
    ul.appendChild(li);
  }
  const dl = $("bot-levels");
  dl.textContent = "";
  for (const level of levels) {
    const dt = document.createElement("dt");
    dt.textContent = level;
    const dd = document.createElement("dd");
    dd.textContent = words[level] || "";
    dl.append(dt, dd);
  }
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
  const defs = el("defs", {}, svg);
  const glow = el("filter", { id: "glow", x: "-50%", y: "-50%", width: "200%", height: "200%" }, defs);
  el("feGaussianBlur", { stdDeviation: "2.2" }, glow);
  el("rect", { x: -pad, y: -pad, width: b.width + 2 * pad, height: b.height + 2 * pad, rx: 14, fill: "#e9dcc0" }, svg);
  view.cells = {};
  view.leds = new Array(b.leds.count).fill(null);
  view.focus = b.cells.length ? b.cells[0].id : null;
  const zoneOf = {};
  for (const z of b.zones || []) for (const id of z.cells) zoneOf[id] = z.place;
  view.zoneOf = zoneOf;
  view.zones = {};
  for (const z of b.zones || []) view.zones[z.place] = z.cells;
  drawHomes(b, svg);
  view.lastMove = el("g", { id: "last-move" }, svg);
  const pitch = b.pitch || 25;
  let first = true;
  for (const c of b.cells) {
    const g = el("g", { class: "cell", "data-cell": c.id, tabindex: first ? "0" : "-1", role: "button" }, svg);
    first = false;
    // the touch target: half the way to the nearest other hole, at most half the board's pitch; the
    // small slots of a home in the middle have their home's triangle as their target (drawHomes)
    let near = Infinity;
    for (const o of b.cells) {
      if (o === c || o.role === "home" || (zoneOf[o.id] && zoneOf[o.id] === zoneOf[c.id])) continue;
      near = Math.min(near, Math.hypot(o.x - c.x, o.y - c.y));
    }
    const hitR = c.role === "home" ? c.r + 1 : Math.max(c.r + 1, Math.min(pitch / 2, near / 2));
    el("circle", { class: "hit", cx: c.x, cy: c.y, r: hitR }, g);
    const fill = c.colour ? CELL_TINT[c.colour] || "#fff" : "#fbf8f1";
    el("circle", { class: "hole", cx: c.x, cy: c.y, r: c.r, fill }, g);
    const halo = el("circle", { class: "halo", cx: c.x, cy: c.y, r: c.r + 2.6, visibility: "hidden" }, g);
    // a thin dark edge round a lit LED: a white or yellow light shows on the pale board too
    const edge = el("circle", { class: "led-edge", cx: c.x, cy: c.y, r: c.r + 4.3, visibility: "hidden" }, g);
    const led = el("circle", { class: "led", cx: c.x, cy: c.y, r: c.r + 2.4, "data-led": c.led }, g);
    el("title", {}, g).textContent = c.id;
    el("text", { class: "cell-name", x: c.x, y: c.y + c.r + 5.5 }, g).textContent = c.id;
    const pieces = el("g", { class: "pieces" }, g);
    const marks = el("g", { class: "marks" }, g);
    const glyph = el("text", { class: "glyph", x: c.x + c.r * 0.85, y: c.y - c.r * 0.85 }, g);
    view.cells[c.id] = { def: c, g, led, halo, pieces, marks, glyph, hitR };
    view.leds[c.led] = { el: led, halo, edge, glyph, kind: "cell", id: c.id };
  }
  for (const ind of b.indicators || []) {
    const r = Math.max(ind.r, 3);
    const halo = el("circle", { class: "halo", cx: ind.x, cy: ind.y, r: r + 1, visibility: "hidden" }, svg);
    const led = el("circle", { class: "indicator led-ind", cx: ind.x, cy: ind.y, r, "data-led": ind.led,
                               "data-id": ind.id, fill: "#3a352c" }, svg);
    const title = el("title", {}, led);
    title.textContent = ind.id;
    const glyph = el("text", { class: "glyph", x: ind.x + r + 3, y: ind.y - r }, svg);
    view.leds[ind.led] = { el: led, halo, glyph, kind: "indicator", id: ind.id };
  }
  view.neighbours = neighbours(b);
  view.ghost = el("g", { class: "ghost", visibility: "hidden" }, svg);
  el("circle", { r: 8, class: "piece" }, view.ghost);
  view.pitch = pitch;
  view.centred = false;
  fitBoard();
  if (svg.dataset.wired) return;
  svg.dataset.wired = "1";
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

function drawHomes(b, svg) {
  // A Ludo home of small slots in the middle of the board: its triangle of the centre square, drawn in
  // its colour, is the home's touch target (any slot will do: the table fills a free one).
  const cx = b.width / 2, cy = b.height / 2;
  for (const z of b.zones || []) {
    const cells = z.cells.map((id) => b.cells.find((c) => c.id === id)).filter(Boolean);
    if (!cells.length || cells[0].role !== "home") continue;
    const mx = cells.reduce((s, c) => s + c.x, 0) / cells.length;
    const my = cells.reduce((s, c) => s + c.y, 0) / cells.length;
    const h = 1.4 * Math.hypot(mx - cx, my - cy); // half the centre square
    const ux = (mx - cx) / Math.hypot(mx - cx, my - cy), uy = (my - cy) / Math.hypot(mx - cx, my - cy);
    const ex = cx + ux * h, ey = cy + uy * h; // the middle of the square's edge on the home's side
    const pts = [[cx, cy], [ex - uy * h, ey + ux * h], [ex + uy * h, ey - ux * h]];
    el("polygon", { class: "zone-hit", "data-zone": z.place, "data-cell": z.cells[0],
                    points: pts.map((p) => p.join(",")).join(" "), fill: CELL_TINT[cells[0].colour] || "#eee",
                    style: `fill: ${CELL_TINT[cells[0].colour] || "#eee"}` }, svg);
  }
}

function neighbours(b) {
  // each cell's neighbours on the board's geometry: the cells nearly as near as its nearest one
  const out = {};
  for (const c of b.cells) {
    let near = Infinity;
    for (const o of b.cells) if (o !== c) near = Math.min(near, Math.hypot(o.x - c.x, o.y - c.y));
    out[c.id] = b.cells.filter((o) => o !== c && Math.hypot(o.x - c.x, o.y - c.y) <= near * 1.3).map((o) => o.id);
  }
  return out;
}

function fitBoard() {
  // On a phone the board is drawn large enough that each hole's target is TARGET_PX across (it pans
  // inside its frame); "Whole board" fits it to the screen instead.
  const svg = $("board");
  const b = view.board;
  if (!b) return;
  const phone = window.innerWidth <= PHONE_PX;
  $("fit").hidden = !phone;
  const minHit = Math.min(...Object.values(view.cells).filter((c) => c.def.role !== "home").map((c) => c.hitR * 2));
  const need = Math.ceil((b.width + 16) * TARGET_PX / minHit);
  const big = phone && view.big !== false && need > svg.parentElement.clientWidth;
  svg.classList.toggle("big", big);
  svg.style.width = big ? need + "px" : "";
  svg.style.maxWidth = big ? "none" : "";
  $("fit").setAttribute("aria-pressed", String(!big && phone));
  $("fit").textContent = big ? "Whole board" : "Big holes";
  if (big && !view.centred) { // (its middle in view at first: the pieces start round it)
    view.centred = true;
    const wrap = svg.parentElement;
    wrap.scrollLeft = (wrap.scrollWidth - wrap.clientWidth) / 2;
  }
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
    // a stack of several: those under the top one peek out below and to the left, in their colours
    const shown = stack.slice(-3);
    shown.forEach((colour, k) => {
      const off = (shown.length - 1 - k) * c.r * 0.28;
      el("circle", { class: "piece", cx: c.x - off, cy: c.y + off, r: c.r * 0.72, fill: PIECE_FILL[colour] || "#999",
                     "data-colour": colour }, cell.pieces);
    });
    if (stack.length) {
      const top = stack[stack.length - 1];
      const letter = el("text", { class: "piece-letter" + (top === "blue" || top === "purple" ? " dark" : ""),
                                  x: c.x, y: c.y }, cell.pieces);
      letter.textContent = top === "?" ? "?" : top[0].toUpperCase();
      if (stack.length > 1) {
        el("circle", { cx: c.x + c.r * 0.7, cy: c.y + c.r * 0.7, r: 4, fill: "#111" }, cell.pieces);
        el("text", { class: "stack", x: c.x + c.r * 0.7, y: c.y + c.r * 0.7 }, cell.pieces).textContent = stack.length;
      }
    }
    cell.g.dataset.pieces = stack.join(" ");
  }
  labelCells();
}

function showLastMove(cells) {
  // the last move played: a line from where it left to where it arrived, the hole it left ringed
  const g = view.lastMove;
  if (!g) return;
  g.textContent = "";
  g.removeAttribute("data-from");
  g.removeAttribute("data-to");
  if (!cells || cells.length !== 2) return;
  const centre = (ids) => {
    const defs = ids.map((id) => view.cells[id] && view.cells[id].def).filter(Boolean);
    if (!defs.length) return null;
    return [defs.reduce((s, d) => s + d.x, 0) / defs.length, defs.reduce((s, d) => s + d.y, 0) / defs.length, defs[0].r];
  };
  const a = centre(cells[0]), b = centre(cells[1]);
  if (!a || !b) return;
  g.dataset.from = cells[0].join(" ");
  g.dataset.to = cells[1].join(" ");
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const ux = (b[0] - a[0]) / len, uy = (b[1] - a[1]) / len;
  const x2 = b[0] - ux * b[2] * 0.95, y2 = b[1] - uy * b[2] * 0.95;
  el("circle", { class: "from", cx: a[0], cy: a[1], r: a[2] + 5.5 }, g);
  el("line", { x1: a[0] + ux * a[2], y1: a[1] + uy * a[2], x2, y2 }, g);
  // the arrow's head
  const hx = -uy * 3.2, hy = ux * 3.2;
  el("polygon", { points: `${x2 + ux * 2},${y2 + uy * 2} ${x2 - ux * 4 + hx},${y2 - uy * 4 + hy} ${x2 - ux * 4 - hx},${y2 - uy * 4 - hy}`,
                  fill: "rgba(30,30,30,.55)" }, g);
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

function lightColour(r, g, b) {
  // a lit LED as light on the page: its hue at full brightness, lifted toward white, so that a dim or a
  // dark colour (blue, the budget's dimming) still reads as a light
  const m = Math.max(r, g, b);
  const f = (c) => Math.round(51 + (204 * c) / m);
  return [f(r), f(g), f(b)];
}
view.lightColour = lightColour;

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
    led.el.dataset.rgb = `${r},${g},${b}`;
    let colour;
    if (on) {
      const [R, G, B] = lightColour(r, g, b);
      colour = `rgb(${R},${G},${B})`;
      led.halo.style.stroke = colour;
      led.halo.style.opacity = String(Math.max(0.6, Math.max(r, g, b) / 255));
      led.halo.setAttribute("visibility", "visible");
    } else {
      colour = led.kind === "cell" ? "rgba(60,50,40,0.18)" : "#3a352c";
      led.halo.setAttribute("visibility", "hidden");
    }
    if (led.edge) led.edge.setAttribute("visibility", on ? "visible" : "hidden");
    if (led.kind === "cell") led.el.style.stroke = colour;
    else led.el.style.fill = colour;
  }
}

function showLit(lit) {
  for (const led of view.leds) if (led) led.glyph.textContent = "";
  for (const id in view.cells) { view.cells[id].marks.textContent = ""; delete view.cells[id].marks.dataset.mark; }
  const hand = (view.replay ? [] : (view.state || {}).hand) || [];
  const from = hand.length && view.cells[view.liftedFrom];
  if (from && !from.g.dataset.pieces) {
    el("circle", { class: "lifted", cx: from.def.x, cy: from.def.y, r: from.def.r * 0.78 }, from.marks);
    from.marks.dataset.mark = "lifted";
  }
  for (const [index, , meaning] of lit || []) {
    const led = view.leds[index];
    if (!led) continue;
    led.glyph.textContent = GLYPH[meaning] !== undefined ? GLYPH[meaning] : "";
    const cell = led.kind === "cell" ? view.cells[led.id] : null;
    if (cell && MARK[meaning]) mark(cell, MARK[meaning], meaning);
  }
}

function mark(cell, kind, meaning) {
  // a mark in the hole, dark with a white edge: it shows on every hole colour and on every piece
  const c = cell.def;
  const full = cell.g.dataset.pieces;
  const g = cell.marks;
  g.dataset.mark = meaning;
  if (kind === "path") {
    el("circle", { class: "marker path", cx: c.x, cy: c.y, r: c.r * 0.28 }, g);
  } else if (kind === "dot" && !full) {
    el("circle", { class: "marker dot", cx: c.x, cy: c.y, r: c.r * 0.42 }, g);
  } else {
    el("circle", { class: "marker ring-outer", cx: c.x, cy: c.y, r: c.r * 0.9 }, g);
    el("circle", { class: "marker ring", cx: c.x, cy: c.y, r: c.r * 0.9 }, g);
  }
}

// ---- the panels ----------------------------------------------------------------------------------------

const TITLE = (c) => (c ? c[0].toUpperCase() + c.slice(1) : "");

function showState(st) {
  drawPieces(st.pieces);
  showLit(st.lit);
  showHand(st.hand);
  showTurn(st.phase, st.turn_colour, st.turn_name, st.rolls || [], st.prompt, st.details, st.winner, st.turn_bot);
  $("status").dataset.phase = st.phase;
  $("status").dataset.situation = st.situation || "";
  $("die-shown").textContent = st.die && st.die.length ? "The board's die shows: " + st.die.join(" ") : "";
  $("commitment").textContent = st.commitment ? "Dice commitment (SHA-256 of the secret seed): " + st.commitment : "";
  $("verified").textContent = st.seed ? "Seed revealed: " + st.seed + (st.verified ? " — " + st.verified : "") : "";
  showLastMove(st.last_move);
  showMoves(st.moves);
  showBotChoices(st, view.mirror);
  if (st.bots) showBots(st.bots);
  if (st.names) showNames(st.names);
  showSeason(st.season, view.mirror);
  showLog(st.log.map(([t, text]) => logLine(t, text)));
  $("die-button").classList.toggle("down", !!st.button_down);
  if (st.start !== view.shownStart) { // a game begun: the set-up list shows its start
    view.shownStart = st.start;
    if (st.start && [...$("start").options].some((o) => o.value === st.start)) $("start").value = st.start;
  }
  sound(st.cues || []);
}

function logLine(t, text) {
  // as ludus_host.virtual.words.log_line writes it (ludus play --words): tenths of a second, cut
  return `${Math.floor(t / 1000)}.${Math.floor((t % 1000) / 100)} s  ${text}`;
}

function showTurn(phase, colour, name, rolls, prompt, details, winner, bot) {
  // whose turn, large and in the seat's colour (at the end, the winner's), and whether the board plays
  // it at which level; the throws waiting as dice; what to do now, in words
  if (phase === "over" && winner) [colour, name] = winner;
  const box = $("status-box");
  const fill = colour ? PIECE_FILL[colour] || "#777" : "#bbb";
  box.style.setProperty("--turn", fill);
  box.dataset.colour = colour || "";
  $("turn-swatch").style.visibility = colour ? "visible" : "hidden";
  $("turn-who").textContent = phase === "setup" ? "Setting up" : !colour ? (phase === "over" ? "Game over" : "") :
    name ? `${name} (${TITLE(colour)})` : TITLE(colour);
  $("turn-what").textContent = !colour ? "" : phase === "over" ? "Game over" : bot ? "to play. " + bot : "to play";
  // the set-up list where it is wanted: beside the words in setup and at the end, with the tools in play
  const setup = $("setup-row");
  const home = phase === "play" ? $("tools-box") : $("status-box");
  if (setup.parentElement !== home) home.insertBefore(setup, phase === "play" ? home.children[1] : null);
  $("prompt").textContent = prompt || "";
  $("status").textContent = details ? "Referee: " + details : "";
  const dice = $("dice");
  dice.textContent = "";
  for (const [value, c] of rolls) dice.appendChild(drawDie(value, c));
  dice.dataset.values = rolls.map(([v]) => v).join(" ");
}

const PIPS = {
  1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};

function drawDie(value, colour) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", "die");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${TITLE(colour)}'s throw: ${value}`);
  svg.dataset.value = value;
  el("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16, stroke: PIECE_FILL[colour] || "#333" }, svg);
  if (PIPS[value]) for (const [i, j] of PIPS[value]) el("circle", { cx: 25 * i, cy: 25 * j, r: 9 }, svg);
  else el("text", { x: 50, y: 52 }, svg).textContent = String(value); // a two-dice sum
  return svg;
}

// ---- sound: the board's piezo cues ---------------------------------------------------------------------

function sound(cues) {
  // the cues played since the last state: each once (on a page that has just opened, none: they are past)
  const last = cues.length ? cues[cues.length - 1][0] : 0;
  if (view.heardCue === null) { view.heardCue = last; return; }
  for (const [n, name] of cues) {
    if (n <= view.heardCue) continue;
    const notes = view.cues[name] || [];
    view.played.push({ n, name, notes, muted: view.muted });
    if (view.played.length > 50) view.played.shift();
    if (!view.muted) play(notes);
  }
  view.heardCue = Math.max(view.heardCue, last);
}

function play(notes) {
  // (Hz, ms) pairs as the piezo plays them (0 Hz: a rest), a square wave kept soft
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  if (!view.audio) view.audio = new Ctx();
  const ctx = view.audio;
  if (ctx.state === "suspended") ctx.resume();
  let at = ctx.currentTime + 0.01;
  for (let k = 0; k + 1 < notes.length; k += 2) {
    const hz = notes[k], ms = notes[k + 1];
    if (hz) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "square";
      osc.frequency.value = hz;
      gain.gain.value = 0.05;
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + ms / 1000);
    }
    at += ms / 1000;
  }
}

function setMuted(muted) {
  view.muted = muted;
  try { localStorage.setItem("ludus-muted", muted ? "1" : "0"); } catch (e) { /* private mode */ }
  $("mute").setAttribute("aria-pressed", String(muted));
  $("mute").textContent = muted ? "Sound: off" : "Sound: on";
}

// ---- players: a name and a person or a bot, for each seat in play --------------------------------------

function seatsShown(st) {
  // the seats in play, or before a game the seats of the start chosen in the set-up list
  if (st && st.seats) return st.seats.map(([key, colour]) => [key, colour]);
  return view.startSeats[$("start").value] || [];
}

function showBotChoices(st, mirror) {
  const seats = seatsShown(st);
  const key = JSON.stringify(seats);
  if (view.seatsShown === key) return; // (redrawn only when the seats change: not under someone typing)
  view.seatsShown = key;
  const box = $("bots");
  box.textContent = "";
  $("bots-box").hidden = !!mirror || !seats.length;
  for (const [seat, colour] of seats) {
    const row = document.createElement("div");
    row.className = "seat";
    row.dataset.seat = seat;
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = PIECE_FILL[colour] || "#999";
    row.appendChild(swatch);
    const name = document.createElement("input");
    name.id = "name-" + seat;
    name.dataset.seat = seat;
    name.size = 12;
    name.maxLength = 16;
    name.placeholder = TITLE(colour);
    name.setAttribute("aria-label", "name of " + colour);
    name.addEventListener("change", sendNames);
    row.appendChild(name);
    const sel = document.createElement("select");
    sel.setAttribute("aria-label", "who plays " + colour);
    sel.id = "bot-" + seat;
    sel.dataset.seat = seat;
    for (const level of ["person", ...(view.botLevels || [])]) {
      const o = document.createElement("option");
      o.value = level; o.textContent = level === "person" ? "a person" : level + " bot";
      if (level !== "person") o.title = view.botWords[level] || "";
      sel.appendChild(o);
    }
    sel.addEventListener("change", sendBots);
    row.appendChild(sel);
    const words = document.createElement("span");
    words.className = "bot-words";
    words.id = "bot-words-" + seat;
    row.appendChild(words);
    box.appendChild(row);
  }
  const st_ = view.state || {};
  showBots(st_.bots || {});
  showNames(st_.names || {});
}

function sendNames() {
  // the names of the seats shown, and those of seats not in play kept as they are
  const names = Object.assign({}, (view.state || {}).names || {});
  for (const input of $("bots").querySelectorAll("input")) {
    const text = input.value.trim();
    if (text) names[input.dataset.seat] = text;
    else delete names[input.dataset.seat];
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
  const bots = Object.assign({}, (view.state || {}).bots || {});
  for (const sel of $("bots").querySelectorAll("select")) {
    if (sel.value !== "person") bots[sel.dataset.seat] = sel.value;
    else delete bots[sel.dataset.seat];
  }
  send({ do: "bots", bots });
}

function showBots(bots) {
  for (const sel of $("bots").querySelectorAll("select")) {
    const level = (bots || {})[sel.dataset.seat];
    sel.value = level || "person";
    const words = $("bot-words-" + sel.dataset.seat);
    if (words) {
      words.textContent = !level ? "" : `Board plays: ${level}. On its turn ${view.botLights[level] || ""}; it ` +
        (view.botWords[level] || "") + ".";
    }
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
  if (hit && hit.classList && hit.classList.contains("zone-hit")) return hit.dataset.cell; // a home's triangle
  const g = hit && hit.closest ? hit.closest(".cell") : null;
  return g ? g.dataset.cell : null;
}

function piecesOn(id) {
  return (view.state && view.state.pieces[id]) || [];
}

function slotWithPiece(id) {
  // a zone's slots are one place: lifting from an empty slot of it takes from a slot that holds one
  const zone = view.zoneOf && view.zoneOf[id];
  if (piecesOn(id).length || !zone) return id;
  return view.zones[zone].find((c) => piecesOn(c).length) || id;
}

function placeColour() {
  // the piece a click puts down: a new one from the box, the one picked in the hand, or the last lifted
  if (view.spare) return view.spare;
  const hand = (view.state && view.state.hand) || [];
  if (!hand.length) return undefined;
  const k = view.selectedHand !== null ? view.selectedHand : hand.length - 1;
  return hand[k] === "?" ? null : hand[k];
}

function litMeaning(id) {
  for (const [, name, meaning] of (view.state && view.state.lit) || []) if (name === id) return meaning;
  return null;
}

function liftColour(id) {
  // The top piece of a stack, as a hand takes it; but where the board lights a capture's victim (the
  // capturing token put down on it first), the victim under it, which is what a player takes off.
  const stack = piecesOn(id);
  if (!stack.length) return null;
  const mover = view.state && view.state.turn_colour;
  if (stack.length > 1 && litMeaning(id) === "capture victim") {
    for (let k = stack.length - 1; k >= 0; k--) if (stack[k] !== mover && stack[k] !== "?") return stack[k];
  }
  return stack[stack.length - 1];
}

function lift(id) {
  view.liftedFrom = id; // (drawn as a dashed ring while the piece is in the hand)
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
  else if (piecesOn(slotWithPiece(id)).length) lift(slotWithPiece(id));
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
      const from = slotWithPiece(p.id);
      if (!piecesOn(from).length) return;
      p.dragging = true;
      p.colour = lift(from); // the magnet leaves the sensor as the piece leaves the hole
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
  // The neighbouring hole in the arrow's direction, on the board's own geometry (a Chinese Checkers
  // hole has six neighbours; Up and Down take the one of the two nearer the column the keys went up or
  // down from, so that repeated presses go straight); where no neighbour lies that way (from a Ludo
  // base to the track), the nearest hole within 60° of the arrow.
  const from = view.cells[id].def;
  const keep = dx ? view.keyLine.y : view.keyLine.x; // the line the keys keep to
  let best = null, bestCos = 0.38, bestOff = Infinity; // (cos 67.5°)
  for (const k of view.neighbours[id] || []) {
    const c = view.cells[k].def;
    const vx = c.x - from.x, vy = c.y - from.y;
    const cos = (vx * dx + vy * dy) / Math.hypot(vx, vy);
    const off = Math.abs((dx ? c.y : c.x) - keep);
    if (cos > bestCos + 0.05 || (cos > bestCos - 0.05 && off < bestOff - 0.01)) {
      best = k; bestCos = Math.max(cos, bestCos); bestOff = off;
    }
  }
  if (best) return best;
  for (const k in view.cells) {
    if (k === id) continue;
    const c = view.cells[k].def;
    const vx = c.x - from.x, vy = c.y - from.y;
    const along = vx * dx + vy * dy;
    if (along <= 0) continue;
    const across = Math.abs(vx * dy - vy * dx);
    if (across > along * 1.8) continue;
    const score = along + 2 * across;
    if (score < bestOff) { bestOff = score; best = k; }
  }
  return best;
}
view.nearest = (id, key) => { keyLineFrom(id); return nearest(id, ...ARROWS[key]); };

function keyLineFrom(id) {
  if (!view.keyLine || view.keyLine.at !== id) {
    const c = view.cells[id].def;
    view.keyLine = { at: id, x: c.x, y: c.y };
  }
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function cellKey(e) {
  const g = e.target.closest && e.target.closest(".cell");
  if (!g) return;
  const id = g.dataset.cell;
  if (ARROWS[e.key]) {
    keyLineFrom(id);
    const [dx, dy] = ARROWS[e.key];
    const next = nearest(id, dx, dy);
    if (next) {
      const c = view.cells[next].def;
      // across the arrow, the line kept moves with the keys; along it, it stays
      view.keyLine = { at: next, x: dx ? c.x : view.keyLine.x, y: dy ? c.y : view.keyLine.y };
      setFocus(next, true);
    }
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
  showLastMove(s.last_move);
  showTurn(s.phase, s.turn_colour, null, s.rolls || [], s.prompt, s.details, null, s.turn_bot);
  $("die-shown").textContent = s.die && s.die.length ? "The board's die shows: " + s.die.join(" ") : "";
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

function gameInPlay() {
  const st = view.state || {};
  return st.phase === "play" && (st.moves || []).length > 0;
}

function undo() {
  // the Undo button: the die button held past its long press, then let go
  if (view.replay || view.buttonHeld || view.undoing) return;
  view.undoing = true;
  $("undo").classList.add("holding");
  send({ do: "button", down: true });
  setTimeout(() => {
    send({ do: "button", down: false });
    view.undoing = false;
    $("undo").classList.remove("holding");
  }, UNDO_HOLD_MS);
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
  $("play-from").addEventListener("click", () => {
    // (it ends the game in play for everyone at the table, as New table does: ask first)
    if (gameInPlay() && !window.confirm("Play from this position? The game in play ends for everyone watching it.")) return;
    send({ do: "start", position: $("position").value });
  });
  $("undo").addEventListener("click", undo);
  $("mute").addEventListener("click", () => setMuted(!view.muted));
  $("fit").addEventListener("click", () => { view.big = $("board").classList.contains("big") ? false : true; fitBoard(); });
  window.addEventListener("resize", fitBoard);
  $("start").addEventListener("change", () => showBotChoices(view.state, view.mirror));
  try { setMuted(localStorage.getItem("ludus-muted") === "1"); } catch (e) { setMuted(false); }
  $("power").addEventListener("click", () => send({ do: "power" }));
  $("new-game").addEventListener("click", () => {
    const text = $("settle").value.trim();
    const settle = /^[0-9]{1,4}$/.test(text) ? parseInt(text, 10) : NaN;
    if (!(settle >= 0 && settle <= 5000)) { showError("settle time: a whole number of ms, 0 to 5000"); return; }
    if (gameInPlay() && !window.confirm("Start a new table? The game on this one ends for everyone watching it.")) return;
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
