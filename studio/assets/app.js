// The mask studio's page. It holds the mask and which paths are open, asks
// the server for everything it shows (POST /api/view), and renders the
// answer with DOM calls (never HTML from data). Nothing is computed here
// that the library computes (SPEC W3).
"use strict";

// mask is the mask's JSON text, as the server printed it: kept as text, so
// that its keys keep their order (JSON.parse puts keys like "0" first).
// open is null until the first view says which paths are open.
const state = { mask: null, open: null, seq: 0, busy: 0 };
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

const fmt = (n) => n == null ? "…" : n.toLocaleString("en-US");
const pct = (f) => f == null ? "…" : (100 * f).toFixed(1) + "%";

// ask posts a request for a view; it returns the view, or null when a
// later request has been made since or the server refused.
async function ask(body) {
  const seq = ++state.seq;
  state.busy++;
  document.body.dataset.busy = String(state.busy);
  $("status").textContent = "working…";
  try {
    const r = await fetch("api/view", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: requestText(body),
    });
    const v = await r.json();
    if (!r.ok) { showError(v.error || r.statusText); return null; }
    showError("");
    return seq === state.seq ? v : null;
  } catch (e) {
    showError(String(e));
    return null;
  } finally {
    if (--state.busy === 0) $("status").textContent = "";
    document.body.dataset.busy = String(state.busy);
  }
}

function showError(msg) {
  $("error").textContent = msg;
  $("error").hidden = !msg;
}

// requestText is body as JSON, its mask inserted as the text it is.
function requestText(body) {
  const rest = Object.assign({}, body);
  delete rest.mask;
  const tail = JSON.stringify(rest).slice(1);
  return '{"mask":' + (body.mask == null ? "null" : body.mask) + (tail === "}" ? "}" : "," + tail);
}

// refresh shows the view quickly (without tokens), then with them.
async function refresh(extra) {
  const body = Object.assign({ mask: state.mask, open: state.open && [...state.open] }, extra || {});
  const fast = await ask(Object.assign({}, body, { tokens: false }));
  if (!fast) return;
  state.mask = fast.mask;
  state.open = new Set(fast.open);
  render(fast);
  const full = await ask({ mask: state.mask, open: [...state.open], tokens: true });
  if (full) render(full);
  document.body.dataset.ready = String(state.seq);
}

function render(v) {
  $("samples").textContent = v.samples.map((s) => s.name + (s.ndjson ? " (NDJSON)" : "")).join(", ");
  $("encoding").textContent = v.encoding;
  $("tokens-in").textContent = fmt(v.tokens_in);
  $("tokens-out").textContent = fmt(v.tokens_out);
  $("saved").textContent = pct(v.saved);
  $("bytes-in").textContent = fmt(v.bytes_in);
  $("bytes-out").textContent = fmt(v.bytes_out);
  $("map-by").textContent = "by " + v.map_by;
  document.body.dataset.mapBy = v.map_by;
  $("mask-json").value = v.mask;
  $("fields").value = v.fields;
  $("fields-note").textContent = v.fields_note;
  $("output").textContent = v.output;
  $("output-more").textContent = v.output_more ? "(" + fmt(v.output_more) + " more bytes not shown)" : "";
  renderRows(v.rows);
  renderMap(v.tiles);
  renderWarnings(v.warnings);
}

function renderRows(rows) {
  const body = $("paths").tBodies[0];
  body.replaceChildren();
  for (const r of rows) {
    const tr = el("tr", { "data-path": r.path, class: r.mask });
    const name = el("span", { class: "name" }, r.name === "*" ? "[*]" : r.name);
    const toggle = el("button", { class: "toggle", type: "button", "aria-label": "open" },
      r.has_children ? (r.open ? "▾" : "▸") : "");
    if (r.has_children) toggle.addEventListener("click", () => {
      if (state.open.has(r.path)) state.open.delete(r.path); else state.open.add(r.path);
      refresh();
    });
    const cell = el("td", { class: "path", title: r.path }, toggle, name);
    cell.style.paddingLeft = (0.4 + 1.1 * (r.depth - 1)) + "em";
    for (const w of r.warnings || []) cell.append(el("span", { class: "warn" }, "⚠ " + w));
    const acts = el("td", { class: "acts" });
    for (const [action, label, on] of [["keep", "keep", "kept"], ["mask", "into", "masked"], ["drop", "drop", "dropped"]]) {
      if (action === "mask" && !r.has_children) continue;
      const b = el("button", { type: "button", "data-action": action, class: r.mask === on ? "on" : "" }, label);
      b.addEventListener("click", () => act(r, action));
      acts.append(b);
    }
    tr.append(cell, acts,
      el("td", { class: "num tokens" }, fmt(r.tokens)),
      el("td", { class: "num" }, pct(r.token_share != null ? r.token_share : r.share)),
      el("td", { class: "num" }, fmt(r.bytes)),
      el("td", { class: "num" }, fmt(r.count)),
      el("td", {}, r.types.join(",")));
    body.append(tr);
  }
}

// act asks the server to edit the mask at a row's path; recursing into a
// path opens it, and its array elements, so that its children can be
// chosen.
function act(r, action) {
  if (action === "mask" && r.has_children) {
    state.open.add(r.path);
    state.open.add(r.path + "/*");
    for (let p = r.parent; p; p = p.slice(0, p.lastIndexOf("/"))) state.open.add(p);
  }
  refresh({ edit: { path: r.path, action } });
}

function renderMap(tiles) {
  const map = $("treemap");
  map.replaceChildren();
  for (const t of tiles) {
    const g = svg("g", { "data-path": t.path });
    const cls = t.open ? "masked" : t.mask;
    const rect = svg("rect", { x: t.x, y: t.y, width: Math.max(t.w, 0), height: Math.max(t.h, 0), class: cls });
    const title = svg("title", {});
    title.textContent = (t.path || "(root)") + " · " + t.mask + " · " + pct(t.share) + " of the bytes";
    rect.append(title);
    rect.addEventListener("click", () => cycle(t));
    g.append(rect);
    if (t.mask === "masked" && !t.open && t.kept > 0) {
      g.append(svg("rect", { x: t.x, y: t.y, width: t.w * t.kept, height: t.h, class: "part" }));
    }
    if (t.w > 40 && t.h > 13) {
      const text = svg("text", { x: t.x + 3, y: t.y + 12, class: !t.open && t.mask === "kept" ? "on-kept" : "" });
      const label = t.label === "*" ? "[*]" : t.label;
      text.textContent = label.length * 6.5 > t.w - 6 ? label.slice(0, Math.max(1, Math.floor((t.w - 6) / 6.5))) : label;
      g.append(text);
    }
    map.append(g);
  }
}

// cycle is a click on the treemap: a dropped path is kept, a kept one is
// recursed into when it has children (else dropped), a masked one dropped.
function cycle(t) {
  const row = { path: t.path, parent: t.path.slice(0, t.path.lastIndexOf("/")), has_children: false };
  const tr = document.querySelector('#paths tr[data-path="' + CSS.escape(t.path) + '"]');
  row.has_children = !!(tr && tr.querySelector('button[data-action="mask"]'));
  const next = t.mask === "dropped" ? "keep" : t.mask === "kept" && row.has_children ? "mask" : "drop";
  act(row, next);
}

function renderWarnings(ws) {
  const list = $("warnings");
  list.replaceChildren();
  if (!ws.length) list.append(el("li", { class: "none" }, "none: no object becomes {}, every entry matches"));
  for (const w of ws) {
    list.append(el("li", { "data-kind": w.kind, "data-path": w.path }, el("code", {}, w.path || "(root)"), " " + w.text));
  }
}

async function copy(text) {
  try { await navigator.clipboard.writeText(text); $("status").textContent = "copied"; }
  catch { $("status").textContent = "select and copy the text"; }
}

document.addEventListener("DOMContentLoaded", () => {
  $("copy-json").addEventListener("click", () => copy($("mask-json").value));
  $("copy-fields").addEventListener("click", () => copy($("fields").value));
  $("apply-json").addEventListener("click", () => {
    const text = $("mask-json").value;
    try { JSON.parse(text); } catch (e) { showError("the mask: " + e.message); return; }
    state.mask = text;
    refresh({ open: null });
  });
  $("apply-fields").addEventListener("click", () => refresh({ fields: $("fields").value, open: null }));
  refresh();
});
