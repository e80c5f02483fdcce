// The page of `sudoku serve`: a grid editor and an exact-cover form over
// the JSON API.  All reading, solving and formatting is done by the server
// (the library's own code); this file draws and sends.
"use strict";

const ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const $ = (id) => document.getElementById(id);

// -- the grid -------------------------------------------------------------
const grid = {
  rows: 3, cols: 3, n: 9,
  givens: [],      // n*n digits typed or loaded (0 empty)
  shown: [],       // digits the solver or a hint put in empty cells
  shownClass: [],  // "filled" or "hint" per shown cell
  inputs: [],
};

function setShape(rows, cols, cells) {
  grid.rows = rows; grid.cols = cols; grid.n = rows * cols;
  const n = grid.n;
  grid.givens = cells ? cells.flat() : new Array(n * n).fill(0);
  grid.shown = new Array(n * n).fill(0);
  grid.shownClass = new Array(n * n).fill("");
  const table = $("grid");
  table.replaceChildren();
  table.className = "n" + n;
  grid.inputs = [];
  for (let r = 0; r < n; r++) {
    const tr = document.createElement("tr");
    for (let c = 0; c < n; c++) {
      const td = document.createElement("td");
      if ((c + 1) % cols === 0 && c + 1 < n) td.classList.add("box-right");
      if ((r + 1) % rows === 0 && r + 1 < n) td.classList.add("box-bottom");
      const input = document.createElement("input");
      input.dataset.r = r; input.dataset.c = c;
      input.maxLength = 2; input.autocomplete = "off"; input.spellcheck = false;
      input.setAttribute("aria-label", `row ${r + 1}, column ${c + 1}`);
      td.append(input); tr.append(td);
      grid.inputs.push(input);
    }
    table.append(tr);
  }
  const select = $("size");
  const value = `${rows}x${cols}`;
  if (![...select.options].some((o) => o.value === value)) {
    select.add(new Option(`${n}x${n} (${value} boxes)`, value));
  }
  select.value = value;
  draw();
  if ($("variant").value !== "standard") refreshShape();
}

function draw() {
  const n = grid.n;
  grid.inputs.forEach((input, k) => {
    const given = grid.givens[k], shown = grid.shown[k];
    const digit = given || shown;
    input.value = digit ? (n <= ALPHABET.length ? ALPHABET[digit - 1] : String(digit)) : "";
    input.classList.toggle("filled", !given && !!shown && grid.shownClass[k] === "filled");
    input.classList.toggle("hint", !given && !!shown && grid.shownClass[k] === "hint");
  });
}

function clearMarks() {
  grid.shown.fill(0);
  grid.inputs.forEach((i) => { i.classList.remove("conflict", "differ"); i.title = ""; });
}

function edited() {  // a change to the givens makes old answers stale
  clearMarks();
  $("solution-text").textContent = "";
  say("", "");
  draw();
}

function puzzleText() {
  return grid.givens.map((d) => (d ? ALPHABET[d - 1] : ".")).join("");
}

function digitOf(key) {
  const k = ALPHABET.indexOf(key.toUpperCase());
  return k >= 0 && k < grid.n ? k + 1 : 0;
}

function focusCell(r, c) {
  const n = grid.n;
  r = (r + n) % n; c = (c + n) % n;
  grid.inputs[r * n + c].focus();
}

function onKey(event) {
  const input = event.target;
  if (!input.dataset || input.dataset.r === undefined) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;  // paste, copy...
  const r = +input.dataset.r, c = +input.dataset.c, k = r * grid.n + c;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[event.key]) {
    event.preventDefault();
    focusCell(r + moves[event.key][0], c + moves[event.key][1]);
  } else if (event.key === "Backspace" || event.key === "Delete") {
    event.preventDefault();
    if (grid.givens[k] || event.key === "Delete") {
      grid.givens[k] = 0; edited();
    } else if (c > 0 || r > 0) {  // an empty cell: clear the one before it
      const back = k - 1;
      grid.givens[back] = 0; edited();
      focusCell(Math.floor(back / grid.n), back % grid.n);
    }
  } else if (event.key === "Enter") {
    event.preventDefault();
    run("solve");
  } else if (event.key.length === 1) {
    event.preventDefault();
    const digit = digitOf(event.key);
    if (digit || ".0 _-*".includes(event.key)) {
      grid.givens[k] = digit; edited();
      if (k + 1 < grid.n * grid.n) focusCell(Math.floor((k + 1) / grid.n), (k + 1) % grid.n);
    }
  }
}

function onInput(event) {  // typing without key events (phones, IMEs)
  const input = event.target;
  const k = +input.dataset.r * grid.n + +input.dataset.c;
  const last = input.value.slice(-1);
  grid.givens[k] = last ? digitOf(last) : 0;
  edited();
}

async function onPaste(event) {
  const text = (event.clipboardData || window.clipboardData).getData("text");
  if (!text || text.trim().length <= 1) return;  // one digit: a keystroke
  event.preventDefault();
  $("puzzle-text").value = text;
  await loadText(text);
}

async function loadText(text) {
  const box = text.trim().split(/\s+/).length === 1 && text.trim().length === grid.n * grid.n
    ? `${grid.rows}x${grid.cols}` : null;
  const answer = await call("/api/parse", { puzzle: text, box, ...rules() }, false);
  if (!answer.ok) return show(answer);
  const [rows, cols] = answer.data.box.split("x").map(Number);
  setShape(rows, cols, answer.data.cells);
  if (answer.data.conflicts.length) {
    markConflicts(answer.data.conflicts);
    say(answer.data.message, "error");
  } else {
    say(`loaded a ${answer.data.n}x${answer.data.n} puzzle`, "");
  }
}

function markConflicts(cells) {
  for (const [r, c] of cells) grid.inputs[r * grid.n + c].classList.add("conflict");
}

// -- talking to the server ---------------------------------------------
let controller = null;

async function call(path, body, long = true) {
  const stop = long ? $(path === "/api/exact-cover" ? "cover-stop" : "stop") : null;
  if (long) {
    controller = new AbortController();
    setBusy(true, stop);
  }
  try {
    const response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal: long ? controller.signal : undefined,
    });
    let data;
    try { data = await response.json(); } catch { data = { error: `the server answered ${response.status}` }; }
    return { ok: response.ok, status: response.status, data };
  } catch (error) {
    const stopped = error.name === "AbortError";
    return { ok: false, status: 0, data: { error: stopped ? "stopped: the search was dropped" : "the server cannot be reached" } };
  } finally {
    if (long) { setBusy(false, stop); controller = null; }
  }
}

function setBusy(busy, stop) {
  document.querySelectorAll("main button:not([id$=stop])").forEach((b) => { b.disabled = busy; });
  if (stop) stop.hidden = !busy;
  document.body.classList.toggle("busy", busy);
}

function say(message, kind, id = "status") {
  const line = $(id);
  line.textContent = message;
  line.className = kind;
}

function stats(data, id = "stats") {
  const parts = [];
  if (data.nodes !== undefined) parts.push(`${data.nodes.toLocaleString("en")} nodes`);
  if (data.ms !== undefined) parts.push(`${data.ms} ms`);
  $(id).textContent = parts.join(" · ");
}

function show(answer) {  // an error answer
  clearMarks(); draw();
  if (answer.data.conflicts) markConflicts(answer.data.conflicts);
  say(answer.data.error, "error");
  $("stats").textContent = "";
}

function timeLimit() {
  const value = parseFloat($("time-limit").value);
  return value > 0 ? value : undefined;
}

function rules() {  // the variant fields of a request (none for standard rules)
  const variant = $("variant").value;
  if (variant === "standard") return {};
  return variant === "jigsaw" ? { variant, regions: $("regions").value } : { variant };
}

function request(extra = {}) {
  return { puzzle: puzzleText(), box: `${grid.rows}x${grid.cols}`, time_limit: timeLimit(), ...rules(), ...extra };
}

// Borders follow the boxes, or a variant's regions; X diagonals and
// windoku windows are shaded.
function drawShape(shape = {}) {
  const n = grid.n;
  const region = shape.regions ||
    Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) =>
      Math.floor(r / grid.rows) * grid.rows + Math.floor(c / grid.cols)));
  const mark = (cells) => new Set((cells || []).map(([r, c]) => r * n + c));
  const diagonal = mark(shape.diagonal), windows = mark(shape.windows);
  grid.inputs.forEach((input, k) => {
    const r = Math.floor(k / n), c = k % n, td = input.parentElement;
    td.classList.toggle("box-right", c + 1 < n && region[r][c] !== region[r][c + 1]);
    td.classList.toggle("box-bottom", r + 1 < n && region[r][c] !== region[r + 1][c]);
    td.classList.toggle("diag", diagonal.has(k));
    td.classList.toggle("window", windows.has(k));
  });
}

async function refreshShape() {
  const variant = $("variant").value;
  $("regions-box").hidden = variant !== "jigsaw";
  if (variant === "standard") return drawShape();
  if (variant === "jigsaw" && !$("regions").value.trim()) {
    drawShape();
    return say("type the jigsaw regions: one letter per cell", "warn");
  }
  const answer = await call("/api/parse", request(), false);
  if (!answer.ok) return say(answer.data.error, "error");
  drawShape(answer.data);
  say(`rules: ${answer.data.variant}`, "");
}

const KIND = { solved: "good", multiple: "warn", "no solution": "error", stopped: "warn" };

async function run(what) {
  if (what === "solve") {
    const answer = await call("/api/solve", request({ format: $("format").value }));
    if (!answer.ok) return show(answer);
    const data = answer.data;
    clearMarks();
    if (data.cells) {
      data.cells.flat().forEach((d, k) => {
        if (!grid.givens[k]) { grid.shown[k] = d; grid.shownClass[k] = "filled"; }
      });
    }
    draw();
    for (const d of data.differ || []) {
      const input = grid.inputs[d.row * grid.n + d.col];
      input.classList.add("differ");
      input.title = `${d.first} here, ${d.second} in another solution`;
    }
    say(data.message, KIND[data.status] || "");
    stats(data);
    $("solution-text").textContent = data.solution || "";
  } else if (what === "check" || what === "count") {
    const limit = what === "check" ? 2 : parseInt($("count-limit").value, 10) || null;
    const answer = await call("/api/count", request({ limit }));
    if (!answer.ok) return show(answer);
    const data = answer.data;
    let message = data.message;
    if (what === "check") {
      message = { unique: "check: unique (exactly one solution)", several: "check: several solutions",
                  none: "check: none (no solution)", unknown: `check: unknown (${data.message})` }[data.verdict];
    }
    clearMarks(); draw();
    say(message, { unique: "good", none: "error", several: "warn", unknown: "warn" }[data.verdict] || "");
    stats(data);
  } else if (what === "hint") {
    const answer = await call("/api/hint", request());
    if (!answer.ok) return show(answer);
    const data = answer.data;
    if (data.status === "hint") {
      const k = data.row * grid.n + data.col;
      grid.shown[k] = digitOf(data.digit);
      grid.shownClass[k] = "hint";
      draw();
      grid.inputs[k].focus();
    }
    say(data.message, data.status === "hint" ? "good" : "warn");
    stats(data);
  }
}

async function randomPuzzle() {
  const set = $("random-set").value;
  let answer, message;
  if (set.startsWith("new:")) {  // made by the generator
    const difficulty = set.slice(4) || undefined;
    answer = await call("/api/generate", { box: `${grid.rows}x${grid.cols}`, difficulty });
    if (answer.ok && answer.data.status !== "generated") {
      say(answer.data.message, "warn");
      return;
    }
    message = answer.ok && answer.data.message;
  } else {
    answer = await call("/api/random", { set }, false);
    message = `a puzzle from the bundled set "${set}", relabelled and shuffled`;
  }
  if (!answer.ok) return show(answer);
  const [rows, cols] = answer.data.box.split("x").map(Number);
  setShape(rows, cols, answer.data.cells);
  $("puzzle-text").value = answer.data.puzzle;
  say(message, "");
  $("stats").textContent = answer.data.ms !== undefined ? `${answer.data.ms} ms` : "";
}

async function ratePuzzle() {
  const answer = await call("/api/rate", request());
  if (!answer.ok) return show(answer);
  say(answer.data.message, answer.data.status === "rated" ? "good" : "warn");
  stats(answer.data);
}

// -- exact cover -----------------------------------------------------------
function coverBuilder() { return $("builder").value; }

function showBuilder() {
  const panel = $("panel-cover");
  for (const b of ["queens", "langford", "pentomino", "dlx"]) panel.classList.toggle(`show-${b}`, coverBuilder() === b);
}

async function runCover() {
  const builder = coverBuilder();
  const mode = document.querySelector("input[name=mode]:checked").value;
  const limit = parseInt($("cover-limit").value, 10) || null;
  const body = { builder, mode, limit, time_limit: timeLimit() };
  if (builder === "queens" || builder === "langford") body.n = parseInt($("cover-n").value, 10);
  if (builder === "langford" || builder === "pentomino") body.distinct = $("distinct").checked;
  if (builder === "pentomino") { body.board = $("board").value.trim() || "6x10"; body.pieces = $("pieces").value; }
  if (builder === "dlx") body.problem = $("dlx-text").value;
  const answer = await call("/api/exact-cover", body);
  const out = $("cover-solutions");
  out.replaceChildren();
  if (!answer.ok) {
    say(answer.data.error, "error", "cover-status");
    $("cover-stats").textContent = "";
    return;
  }
  const data = answer.data;
  const kind = data.status === "stopped" ? "warn" : data.count ? "good" : "error";
  const label = data.mode === "count" ? `count: ${data.message}` : data.message;
  say(label, kind, "cover-status");
  stats(data, "cover-stats");
  $("cover-stats").textContent += ` · ${data.items} items, ${data.options} options`;
  data.solutions.forEach((s, i) => out.append(picture(builder, s, i + 1)));
}

function picture(builder, solution, number) {
  const box = document.createElement("div");
  box.className = "solution";
  const title = document.createElement("h3");
  // Mode best: each solution with its cost, cheapest first.
  title.textContent = `solution ${number}` + (solution.cost === undefined ? "" : `, cost ${solution.cost}`);
  box.append(title);
  if (solution.svg) {  // drawn by the server (dlx.draw); as an image, so nothing in it can run
    const img = document.createElement("img");
    img.className = "tiling";
    img.alt = solution.text;
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(solution.svg);
    box.append(img);
  } else if (builder === "queens" || builder === "pentomino") {
    const rows = solution.text.split("\n");
    const table = document.createElement("table");
    table.className = "picture" + (builder === "queens" ? " chess" : "");
    rows.forEach((line, r) => {
      const tr = document.createElement("tr");
      [...line].forEach((ch, c) => {
        const td = document.createElement("td");
        if (builder === "queens") {
          if ((r + c) % 2) td.classList.add("dark");
          if (ch === "Q") td.classList.add("queen");
        } else if (ch !== "#" && ch !== ".") {
          td.style.background = colour(ch);
          td.textContent = ch;
          // Borders between different pieces make the tiling readable.
          const edge = "2px solid #333";
          if (r === 0 || rows[r - 1][c] !== ch) td.style.borderTop = edge;
          if (r === rows.length - 1 || rows[r + 1][c] !== ch) td.style.borderBottom = edge;
          if (c === 0 || line[c - 1] !== ch) td.style.borderLeft = edge;
          if (c === line.length - 1 || line[c + 1] !== ch) td.style.borderRight = edge;
        }
        tr.append(td);
      });
      table.append(tr);
    });
    box.append(table);
  } else {
    const pre = document.createElement("pre");
    pre.textContent = solution.text;
    box.append(pre);
  }
  return box;
}

function colour(ch) {
  const k = ALPHABET.indexOf(ch.toUpperCase()) + (ch === ch.toLowerCase() ? 7 : 0);
  return `hsl(${(k * 47) % 360}, 65%, 78%)`;
}

// -- wiring -------------------------------------------------------------
async function init() {
  setShape(3, 3);
  const table = $("grid");
  table.addEventListener("keydown", onKey);
  table.addEventListener("input", onInput);
  table.addEventListener("paste", onPaste);
  $("size").addEventListener("change", () => {
    const [rows, cols] = $("size").value.split("x").map(Number);
    setShape(rows, cols);
    say("", ""); $("stats").textContent = "";
  });
  $("solve").addEventListener("click", () => run("solve"));
  $("check").addEventListener("click", () => run("check"));
  $("count").addEventListener("click", () => run("count"));
  $("hint").addEventListener("click", () => run("hint"));
  $("clear").addEventListener("click", () => {
    grid.givens.fill(0); edited(); $("puzzle-text").value = "";
  });
  $("random").addEventListener("click", randomPuzzle);
  $("rate").addEventListener("click", ratePuzzle);
  $("variant").addEventListener("change", () => { edited(); refreshShape(); });
  $("regions").addEventListener("change", refreshShape);
  $("load-text").addEventListener("click", () => loadText($("puzzle-text").value));
  for (const id of ["stop", "cover-stop"]) $(id).addEventListener("click", () => controller && controller.abort());
  for (const [tab, panel] of [["tab-sudoku", "panel-sudoku"], ["tab-cover", "panel-cover"]]) {
    $(tab).addEventListener("click", () => {
      document.querySelectorAll("[role=tab]").forEach((t) => t.setAttribute("aria-selected", String(t.id === tab)));
      document.querySelectorAll("[role=tabpanel]").forEach((p) => { p.hidden = p.id !== panel; });
    });
  }
  $("builder").addEventListener("change", showBuilder);
  showBuilder();
  $("cover-run").addEventListener("click", runCover);
  try {
    const status = await (await fetch("/api/status")).json();
    for (const set of status.features.sets) $("random-set").add(new Option(set, set));
    if (status.features.generate) {
      $("random-set").add(new Option("new puzzle", "new:"));
      for (const level of status.features.levels) $("random-set").add(new Option(`new: ${level}`, `new:${level}`));
    }
    $("time-limit").value = status.time_limit;
    $("time-limit").max = status.max_time_limit;
    $("rate-box").hidden = !status.features.rate;
    for (const rule of status.features.variants.slice(1)) $("variant").add(new Option(rule, rule));
    $("variant-box").hidden = status.features.variants.length < 2;
  } catch {
    say("the server cannot be reached", "error");
  }
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", init);
