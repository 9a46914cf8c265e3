// The mcpmock inspector: reads the admin API (GET /__admin/stubs, /requests, /sessions,
// /scenarios, /app-events) and follows the live feed (GET /__admin/events). MCP Apps probe
// events are journal rows of their own, in time order with the requests. Plain DOM, no dependencies;
// every value from the journal is set as text, never as HTML.
const ADMIN = "/__admin";
/** Rows drawn at most; older ones stay in the journal (GET /__admin/requests). */
const SHOWN = 500;
/** Entries the page keeps (the journal's default cap): the oldest go first. */
const KEPT = 10_000;

const $ = (id) => document.getElementById(id);
const entries = new Map(); // seq -> entry
const expanded = new Set(); // seqs open (app events: "app:<n>")
/** App events as they came, each with a local number `n`; at most KEPT. */
let appEvents = [];
let appCount = 0;
let stubs = [];
let sessions = [];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

async function getJson(path) {
  const response = await fetch(ADMIN + path, { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

function setStatus(state, text) {
  const status = $("status");
  status.dataset.state = state;
  status.textContent = text;
}

// ---- side panels --------------------------------------------------------------------------

function renderStubs() {
  const showDefaults = $("show-defaults").checked;
  const list = $("stubs");
  const shown = stubs.filter((s) => showDefaults || s.source !== "default");
  list.replaceChildren(
    ...shown.map((s) =>
      el(
        "li",
        { class: `stub${s.calls > 0 ? " hit" : ""}`, "data-id": s.id },
        el("span", { class: "hits", title: "calls answered" }, String(s.calls)),
        el("span", { class: "sentence" }, s.sentence.replace(/ \(seen \d+\)$/, "")),
        el("span", { class: "source" }, `${s.id} · ${s.source}`),
      ),
    ),
  );
  if (shown.length === 0) list.append(el("li", { class: "empty" }, "No stubs yet."));
  $("stub-count").textContent = `${stubs.filter((s) => s.source !== "default").length} + ${stubs.filter((s) => s.source === "default").length} built-in`;
}

function renderList(id, items, render) {
  const list = $(id);
  list.replaceChildren(...items.map(render));
  if (items.length === 0) list.append(el("li", { class: "empty" }, "none"));
}

function renderScenarios(scenarios) {
  renderList("scenarios", scenarios, (s) => el("li", {}, el("b", {}, s.name), " is in ", el("code", {}, s.state)));
}

function renderSessions() {
  renderList("sessions", sessions, (s) =>
    el(
      "li",
      { class: "session", "data-session": s.id },
      el("code", {}, s.id),
      el("span", { class: "meta" }, `${s.clientInfo?.name ?? "?"} ${s.clientInfo?.version ?? ""} · ${s.protocolVersion}${s.initialized ? "" : " · not initialized"}`),
      el("span", { class: `stream${s.streamOpen ? " open" : ""}` }, s.streamOpen ? "GET stream open" : "no GET stream"),
    ),
  );
  fillSelect($("filter-session"), sessions.map((s) => s.id).concat([...entries.values()].map((e) => e.sessionId)));
}

function renderOpen() {
  const open = [...entries.values()].filter((e) => e.kind === "request" && e.durationMs === undefined);
  renderList("open", open, (e) => el("li", {}, el("code", {}, `#${e.seq}`), ` ${e.method}${e.target ? ` ${e.target}` : ""}`, el("span", { class: "meta" }, ` since ${time(e.receivedAt)}`)));
}

let refreshing;
/** Stubs, sessions and scenarios again, at most every 200 ms. */
function refreshSoon() {
  refreshing ??= setTimeout(async () => {
    refreshing = undefined;
    try {
      const [s, ss, sc] = await Promise.all([getJson("/stubs"), getJson("/sessions"), getJson("/scenarios")]);
      stubs = s;
      sessions = ss;
      renderStubs();
      renderSessions();
      renderScenarios(sc);
    } catch (error) {
      setStatus("error", `admin API: ${error.message}`);
    }
  }, 200);
}

// ---- the journal --------------------------------------------------------------------------

function time(ms) {
  const d = new Date(ms);
  return `${d.toLocaleTimeString([], { hour12: false })}.${String(d.getMilliseconds()).padStart(3, "0")}`;
}

function fillSelect(select, values) {
  const keep = select.value;
  const known = new Set([...select.options].map((o) => o.value));
  for (const v of new Set(values)) if (v && !known.has(v)) select.append(el("option", { value: v }, v));
  select.value = keep;
}

function passesApp(a) {
  const method = $("filter-method").value;
  if (method && a.method !== method) return false;
  if ($("filter-tool").value || $("filter-session").value) return false;
  if ($("filter-misses").checked && a.error === undefined) return false;
  return true;
}

/**
 * One journal row: a summary button (the columns, in the header's order) that opens and closes
 * the row's details, drawn by `detail` when open.
 */
function entryRow(key, attributes, columns, detail) {
  const open = expanded.has(key);
  const toggle = () => {
    if (expanded.has(key)) expanded.delete(key);
    else expanded.add(key);
    renderJournal();
  };
  const names = ["seq", "time", "method", "target", "session", "revision", "duration", "answered-by"];
  const summary = el("button", { type: "button", class: "summary", "aria-expanded": open ? "true" : "false", onclick: toggle }, ...names.map((name, i) => el("span", { class: name }, columns[i])));
  const item = el("li", attributes, summary);
  if (open) item.append(detail());
  return item;
}

function appRow(a) {
  const answer = a.result !== undefined || a.error !== undefined;
  return entryRow(
    `app:${a.n}`,
    { class: `entry app-event${a.error !== undefined ? " miss" : ""}`, "data-app-event": a.n },
    ["app", time(a.at), a.method, a.from === "host" ? "host → view" : "view → host", a.app, "", "", a.error !== undefined ? "error" : answer ? "answer" : ""],
    () => {
      const value = a.error !== undefined ? ["Error", a.error] : a.result !== undefined ? ["Result", a.result] : ["Params", a.params ?? {}];
      return el("div", { class: "details" }, block(value[0], value[1]));
    },
  );
}

function addAppEvents(list) {
  for (const a of list) appEvents.push({ ...a, n: appCount++ });
  if (appEvents.length > KEPT) appEvents = appEvents.slice(-KEPT);
}

function passes(e) {
  const method = $("filter-method").value;
  const tool = $("filter-tool").value;
  const session = $("filter-session").value;
  if (method && e.method !== method) return false;
  if (tool && !(e.method === "tools/call" && e.target === tool)) return false;
  if (session && e.sessionId !== session) return false;
  if ($("filter-misses").checked && !e.unmatched) return false;
  return true;
}

function json(value) {
  return JSON.stringify(value, null, 2) ?? "undefined";
}

function copyButton(text, label) {
  return el(
    "button",
    {
      type: "button",
      class: "copy",
      onclick: async (event) => {
        const button = event.currentTarget;
        try {
          await navigator.clipboard.writeText(text);
          button.textContent = "copied";
        } catch {
          button.textContent = "select and copy";
        }
        setTimeout(() => (button.textContent = label), 1500);
      },
    },
    label,
  );
}

function block(title, value, copy) {
  const text = typeof value === "string" ? value : json(value);
  return el("div", { class: "block" }, el("h4", {}, title, copy ? copyButton(text, "copy") : undefined), el("pre", {}, text));
}

function details(e) {
  const parts = [];
  if (e.unmatched && e.missReport) parts.push(el("div", { class: "miss-report" }, block("Near misses", e.missReport)));
  if (e.suggestion) {
    parts.push(
      el(
        "div",
        { class: "suggestion" },
        block("Stub it in the definition (or POST /__admin/stubs)", e.suggestion.definition, true),
        block("Stub it in code", e.suggestion.dsl, true),
      ),
    );
  }
  parts.push(el("div", { class: "pair" }, block(e.kind === "response" ? "Client's answer" : "Request params", e.params ?? {}), block("Answer", e.answer === undefined ? "(not answered yet)" : e.answer)));
  const facts = [
    ["session", e.sessionId ?? "-"],
    ["revision", e.protocolVersion],
    ["transport", e.transport],
    ["id", e.id === undefined ? "-" : JSON.stringify(e.id)],
    ["stub", e.stubId ?? (e.unmatched ? "none (miss)" : "-")],
    ["duration", e.durationMs === undefined ? "pending" : `${e.durationMs} ms`],
  ];
  parts.push(el("dl", { class: "facts" }, ...facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])));
  if (Object.keys(e.headers ?? {}).length) parts.push(el("details", { class: "headers" }, el("summary", {}, "Headers"), el("pre", {}, json(e.headers))));
  return el("div", { class: "details" }, ...parts);
}

function row(e) {
  const status = e.unmatched ? "miss" : e.durationMs === undefined && e.kind === "request" ? "pending" : "ok";
  return entryRow(
    e.seq,
    { class: `entry ${status} ${e.kind}`, "data-seq": e.seq },
    [
      `#${e.seq}`,
      time(e.receivedAt),
      e.method ?? "(response)",
      e.target ?? "",
      e.sessionId ?? "",
      e.protocolVersion,
      e.durationMs === undefined ? "…" : `${e.durationMs} ms`,
      e.unmatched ? "MISS" : (e.stubId ?? (e.kind === "request" ? "…" : "")),
    ],
    () => details(e),
  );
}

function renderJournal() {
  const all = [...entries.values()].sort((a, b) => b.seq - a.seq);
  const shown = all.filter(passes);
  // Requests and app events, newest first, by time (requests by their order within a millisecond).
  const rows = [...shown.map((e) => ({ t: e.receivedAt, n: e.seq, draw: () => row(e) })), ...appEvents.filter(passesApp).map((a) => ({ t: a.at, n: a.n, draw: () => appRow(a) }))];
  rows.sort((a, b) => b.t - a.t || b.n - a.n);
  $("journal").replaceChildren(...rows.slice(0, SHOWN).map((r) => r.draw()));
  $("journal-empty").hidden = rows.length > 0;
  $("journal-count").textContent = `${shown.length} of ${all.length}${rows.length > SHOWN ? `, newest ${SHOWN} rows shown` : ""} · ${all.filter((e) => e.unmatched).length} missed${appEvents.length ? ` · ${appEvents.length} app events` : ""}`;
}

let drawing;
function drawSoon() {
  drawing ??= requestAnimationFrame(() => {
    drawing = undefined;
    renderJournal();
    renderOpen();
    fillSelect($("filter-method"), [...entries.values()].map((e) => e.method).concat(appEvents.map((a) => a.method)));
    fillSelect($("filter-tool"), [...entries.values()].filter((e) => e.method === "tools/call").map((e) => e.target));
  });
}

function upsert(e) {
  const known = entries.get(e.seq);
  // An answered copy wins over the arrival it follows, whichever came first.
  if (known && known.durationMs !== undefined && e.durationMs === undefined) return;
  entries.set(e.seq, e);
  if (entries.size > KEPT) {
    const oldest = entries.keys().next().value; // arrival order: the oldest first
    entries.delete(oldest);
    expanded.delete(oldest);
  }
}

async function loadAll() {
  const [list, apps] = await Promise.all([getJson("/requests"), getJson("/app-events")]);
  entries.clear();
  for (const e of list) upsert(e);
  appEvents = [];
  addAppEvents(apps);
  drawSoon();
  refreshSoon();
}

// ---- wiring -------------------------------------------------------------------------------

function connect() {
  const feed = new EventSource(`${ADMIN}/events`);
  feed.addEventListener("hello", () => {
    setStatus("live", "live");
    loadAll().catch((error) => setStatus("error", error.message));
  });
  feed.addEventListener("entry", (event) => {
    upsert(JSON.parse(event.data));
    drawSoon();
    refreshSoon();
  });
  feed.addEventListener("app-events", (event) => {
    addAppEvents(JSON.parse(event.data));
    drawSoon();
  });
  feed.addEventListener("reset", () => loadAll().catch((error) => setStatus("error", error.message)));
  feed.addEventListener("error", () => setStatus("down", "disconnected: retrying…"));
}

$("reset").addEventListener("click", async () => {
  const response = await fetch(`${ADMIN}/reset`, { method: "POST" });
  if (!response.ok) setStatus("error", `reset: HTTP ${response.status}`);
  expanded.clear();
  await loadAll();
});
for (const id of ["filter-method", "filter-tool", "filter-session", "filter-misses"]) $(id).addEventListener("change", () => renderJournal());
$("show-defaults").addEventListener("change", renderStubs);
// Stubs and declarations change without a request too (a definition reloaded by --watch, a test's code).
setInterval(refreshSoon, 3000);
connect();
