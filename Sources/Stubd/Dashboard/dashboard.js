// stubd's dashboard: plain DOM, no framework, nothing fetched but stubd's own admin API.
// Data is always put in the page as text (textContent), never as HTML.
"use strict";

const api = "/__stubd/";
const state = {
  view: "routes", session: "", all: false,
  routes: [], hits: [], routeRows: [], requests: [], requestRows: [], sessions: [],
  selectedRoute: null, selectedRequest: null, coverage: [], selectedCoverage: null, refreshing: false, again: false,
};
const $ = (id) => document.getElementById(id);

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
}

function notice(message) {
  const n = $("notice");
  n.textContent = message || "";
  n.hidden = !message;
}

function sessionQuery(id) { return "session=" + encodeURIComponent(id === undefined ? state.session : id); }

async function get(call, session) {
  const sep = call.includes("?") ? "&" : "?";
  const r = await fetch(api + call + sep + sessionQuery(session), { headers: { Accept: "application/json" } });
  if (!r.ok) throw await problem(r);
  return r.json();
}

// Writes go as JSON from the page's own origin: what AdminAccess lets a browser send.
async function post(call, body, method, session) {
  const r = await fetch(api + call + "?" + sessionQuery(session), {
    method: method || "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body || {}),
  });
  if (!r.ok) throw await problem(r);
  notice("");
  return r.json();
}

async function problem(r) {
  let text = r.status + " " + r.statusText;
  try { const p = await r.json(); text = (p.title || text) + ": " + (p.detail || ""); } catch (e) { /* not JSON */ }
  const error = new Error(text);
  error.status = r.status;
  return error;
}

function act(promise) {
  promise.then(() => refresh()).catch((e) => notice(e.status === 401 || e.status === 403
    ? "Read-only: " + e.message : e.message));
}

// MARK: Virtual lists: only the rows in view are in the DOM, so 10,000 routes cost what 30 do.

function virtualList(container, rowFor) {
  const spacer = container.querySelector(".spacer");
  const list = { items: [], pool: new Map(), rowHeight: 0 };
  function height() {
    if (!list.rowHeight) list.rowHeight = parseFloat(getComputedStyle(container).getPropertyValue("--row")) *
      parseFloat(getComputedStyle(document.documentElement).fontSize) || 32;
    return list.rowHeight;
  }
  list.render = function () {
    const h = height();
    spacer.style.height = (list.items.length * h) + "px";
    const first = Math.max(0, Math.floor(container.scrollTop / h) - 5);
    const last = Math.min(list.items.length, Math.ceil((container.scrollTop + container.clientHeight) / h) + 5);
    const keep = new Set();
    for (let i = first; i < last; i++) {
      const item = list.items[i];
      const row = rowFor(item, i);
      row.style.top = (i * h) + "px";
      row.tabIndex = -1;
      row.dataset.index = String(i);
      keep.add(i);
      const old = list.pool.get(i);
      if (old) {
        if (old.dataset.sig !== row.dataset.sig || old.className !== row.className) {
          const focused = document.activeElement === old;
          old.replaceWith(row);
          list.pool.set(i, row);
          if (focused) row.focus();
        } else {
          old.style.top = row.style.top;
        }
      } else {
        container.append(row);
        list.pool.set(i, row);
      }
    }
    for (const [i, row] of list.pool) if (!keep.has(i)) { row.remove(); list.pool.delete(i); }
  };
  list.set = function (items) { list.items = items; list.active = Math.min(list.active, Math.max(0, items.length - 1)); list.render(); };
  // One Tab stop for the whole list, however long (10,000 rows must not take 10,000 Tabs to pass):
  // the list takes focus, and the arrow keys, Home, End and Page keys move through its rows.
  list.active = 0;
  container.tabIndex = 0;
  container.addEventListener("keydown", (event) => {
    const rows = Math.max(1, Math.floor(container.clientHeight / height()));
    const current = document.activeElement && document.activeElement.dataset.index !== undefined
      ? Number(document.activeElement.dataset.index) : null;
    const from = current === null ? list.active - 1 : current;
    const moves = { ArrowDown: from + 1, ArrowUp: from - 1, Home: 0, End: list.items.length - 1, PageDown: from + rows, PageUp: from - rows };
    if (!(event.key in moves) || !list.items.length) return;
    event.preventDefault();
    const i = Math.max(0, Math.min(list.items.length - 1, moves[event.key]));
    list.active = i;
    const h = height();
    if (i * h < container.scrollTop) container.scrollTop = i * h;
    else if ((i + 1) * h > container.scrollTop + container.clientHeight) container.scrollTop = (i + 1) * h - container.clientHeight;
    list.render();
    const row = list.pool.get(i);
    if (row) row.focus();
  });
  container.addEventListener("scroll", () => requestAnimationFrame(list.render), { passive: true });
  window.addEventListener("resize", () => { list.rowHeight = 0; list.render(); });
  return list;
}

// MARK: Routes

let routeList, requestList;

function routeRow(r, i) {
  const row = el("button", { type: "button", class: "row" + (state.selectedRoute === r.key ? " selected" : ""), role: "listitem",
    "data-route": r.key, onclick: () => showRoute(r) },
    el("span", { class: "hits", text: String(r.hits), title: "hits" }),
    el("span", { class: "method", text: r.method }),
    el("span", { class: "path", text: r.pattern }),
    el("span", { class: "name", text: r.name || r.source }));
  row.dataset.sig = r.key + "|" + r.hits;
  row.setAttribute("aria-label", r.hits + " hits, " + r.method + " " + r.pattern + (r.name ? ", " + r.name : ""));
  return row;
}

function mergeRoutes() {
  // /hits lists the catalog in the order of /routes, then the session's runtime stubs.
  const rows = state.hits.map((h, i) => {
    const d = state.routes[i] && state.routes[i].signature === h.signature ? state.routes[i] : {};
    const [method, ...rest] = h.signature.split(" ");
    return { key: h.route, signature: h.signature, hits: h.hits, source: h.source, method: d.method || method,
      pattern: d.pattern || rest.join(" "), name: d.name, priority: d.priority, responses: d.responses,
      quotas: d.quotas, times: d.times, templated: d.templated };
  });
  const filter = $("routes-filter").value.trim().toLowerCase();
  const onlyHit = $("routes-hit").checked;
  state.routeRows = rows.filter((r) => (!onlyHit || r.hits > 0) &&
    (!filter || (r.signature + " " + (r.name || "") + " " + r.source).toLowerCase().includes(filter)));
  state.routeTotals = { routes: rows.length, hits: rows.reduce((n, r) => n + r.hits, 0), shown: state.routeRows.length };
  routesCount();
  routeList.set(state.routeRows);
  const selected = rows.find((r) => r.key === state.selectedRoute);
  if (selected) showRoute(selected, true);
}

// Hits and requests differ by the requests no route answered: say how many, so "24 requests" and
// "22 hits" add up. Called again when the session list (which counts them) arrives.
function unmatchedCount() {
  const sessions = state.all ? state.sessions : state.sessions.filter((s) => s.id === state.session);
  return sessions.reduce((n, s) => n + (s.unmatched || 0), 0);
}

function routesCount() {
  const t = state.routeTotals;
  if (!t) return;
  const unmatched = unmatchedCount();
  $("routes-count").textContent = "(" + t.routes + " routes, " + t.hits + " hits" +
    (t.shown !== t.routes ? ", " + t.shown + " shown" : "") +
    (unmatched ? "; " + unmatched + " unmatched request" + (unmatched === 1 ? "" : "s") + ", under Requests" : "") + ")";
}

function showRoute(r, quiet) {
  state.selectedRoute = r.key;
  const d = $("route-detail");
  d.hidden = false;
  d.replaceChildren(el("h3", { text: r.signature }), facts([
    ["Hits", String(r.hits) + (state.all ? " (all sessions)" : "")],
    ["Name", r.name || "—"], ["Source", r.source],
    ["Answers", r.responses === undefined ? "—" : r.responses + (r.responses > 1 ? " in sequence" : "") + (r.templated ? ", templated" : "")],
    ["Times", r.times === undefined || r.times === null ? "unlimited" : String(r.times)],
    ["Priority", r.priority === undefined ? "—" : String(r.priority)],
    ["Quotas", r.quotas && r.quotas.length ? r.quotas.join(", ") : "none"],
  ]));
  if (!quiet) routeList.render();
}

function facts(pairs) {
  const dl = el("dl", { class: "facts" });
  for (const [k, v] of pairs) dl.append(el("dt", { text: k }), el("dd", { text: v }));
  return dl;
}

async function loadRoutes(full) {
  // The routes and their hits are fetched at once: with 10,000 routes each is a large document.
  const routes = full || !state.routes.length ? get("routes") : null;
  if (!state.all) {
    const [r, h] = await Promise.all([routes, get("hits")]);
    if (r) state.routes = r.routes;
    state.hits = h.routes;
  } else {
    if (routes) state.routes = (await routes).routes;
    const sums = new Map();
    let base = null;
    for (const s of state.sessions.slice(0, 50)) {
      const h = await get("hits", s.id);
      if (!base) base = h.routes;
      for (const r of h.routes) sums.set(r.signature + "|" + r.source, (sums.get(r.signature + "|" + r.source) || 0) + r.hits);
    }
    state.hits = (base || []).map((r) => Object.assign({}, r, { hits: sums.get(r.signature + "|" + r.source) || 0 }));
  }
  mergeRoutes();
  performance.mark("stubd-routes-rendered");
}

// MARK: Requests

function requestRow(q, i) {
  const miss = !q.route;
  const row = el("button", { type: "button", class: "row" + (miss ? " miss" : "") + (state.selectedRequest === q ? " selected" : ""),
    role: "listitem", onclick: () => showRequest(q) },
    el("span", { class: "time", text: q.time.slice(11, 23) }),
    el("span", { class: "status", text: String(q.status) }),
    el("span", { class: "method", text: q.method }),
    el("span", { class: "path", text: q.path + queryText(q.query) }),
    el("span", { class: "name", text: (q.route || "unmatched") + (q.contract && q.contract.length ? " · breaks the spec" : "") }),
    el("span", { class: "took", text: tookText(q) }),
    el("span", { class: "quota", text: quotaShort(q.quota), title: q.quota || "" }));
  row.dataset.sig = q.time + q.path + q.status + (state.selectedRequest === q);
  return row;
}

// A row shows the note without a frozen clock's hint (" of virtual time (…)"); its tooltip and the detail show it whole.
function quotaShort(note) { return (note || "").replace(/ of virtual time \(.*\)$/, ""); }

function tookText(q) {
  if (q.tookMicroseconds === undefined || q.tookMicroseconds === null) return "";
  return q.tookMicroseconds < 1000 ? q.tookMicroseconds + " µs" : (q.tookMicroseconds / 1000).toFixed(1) + " ms";
}

function queryText(query) {
  const keys = Object.keys(query || {});
  return keys.length ? "?" + keys.map((k) => k + "=" + query[k]).join("&") : "";
}

function filterRequests() {
  const filter = $("requests-filter").value.trim().toLowerCase();
  const unmatched = $("requests-unmatched").checked;
  state.requestRows = state.requests.filter((q) => (!unmatched || !q.route) &&
    (!filter || (q.method + " " + q.path + " " + (q.route || "unmatched") + " " + q.status).toLowerCase().includes(filter)));
  requestList.set(state.requestRows);
}

async function loadRequests() {
  const j = await get("requests?limit=100000");
  state.requests = j.requests.slice().reverse();
  $("requests-count").textContent = "(newest first; " + j.total + " since start, the last " + j.capacity + " kept)";
  filterRequests();
}

function showRequest(q) {
  state.selectedRequest = q;
  const d = $("request-detail");
  d.hidden = false;
  const parts = [el("h3", { text: q.method + " " + q.path + queryText(q.query) + " → " + q.status }), facts([
    ["Time", q.time], ["Route", q.route || "none matched"],
    ["Took", tookText(q) || "—"], ["Quota", q.quota || "—"],
    ["Headers", Object.entries(q.headers).map(([k, v]) => k + ": " + v).join("\n") || "—"],
  ])];
  if (q.notes && q.notes.length) parts.push(el("h3", { text: "Notes" }), list(q.notes));
  if (q.contract && q.contract.length) parts.push(el("h3", { text: "Breaks the API's spec" }), list(q.contract));
  if (!q.route) {
    parts.push(el("h3", { text: "Why nothing matched (nearest routes)" }),
      q.nearest && q.nearest.length ? list(q.nearest) : el("p", { text: "No route is near this request." }));
    const yaml = el("textarea", { class: "yaml", id: "stub-yaml", readonly: "", "aria-label": "Manifest YAML that answers this request" });
    yaml.value = stubYAML(q);
    const copy = el("button", { type: "button", id: "copy-stub", onclick: () => copyStub(yaml) }, "Copy as stub");
    parts.push(el("h3", { text: "A stub that answers it (stubd.yml)" }), el("div", { class: "toolbar" }, copy), yaml);
  }
  d.replaceChildren(...parts);
  requestList.render();
}

function list(items) { return el("ul", { class: "plain" }, ...items.map((t) => el("li", { text: t }))); }

// JSON strings are YAML double-quoted scalars, so quoting goes through JSON.stringify.
function stubYAML(q) {
  const name = (q.method + q.path).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60) || "stub";
  const lines = ["routes:", "  - name: " + JSON.stringify(name), "    request:",
    "      method: " + (q.method === "HEAD" ? "GET" : q.method), "      path: " + JSON.stringify(q.path)];
  const keys = Object.keys(q.query || {});
  if (keys.length) {
    lines.push("      query:");
    // A masked credential is matched as "present", not by a value the journal does not keep.
    for (const k of keys) lines.push("        " + JSON.stringify(k) + ": " + JSON.stringify(q.query[k] === "<masked>" ? "*" : q.query[k]));
  }
  lines.push("    response:", "      status: 200", "      json: {}");
  return lines.join("\n") + "\n";
}

function copyStub(area) {
  area.focus();
  area.select();
  const done = () => notice("");
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(area.value).then(done, () => document.execCommand("copy"));
  else document.execCommand("copy");
  $("copy-stub").textContent = "Copied";
}

// MARK: Quotas, sessions, clock

async function loadQuotas() {
  const j = await get("quotas");
  const box = $("quotas");
  if (!j.quotas.length) { box.replaceChildren(el("p", { text: "No quotas in this catalog." })); return; }
  const now = Date.parse(j.now);
  box.replaceChildren(el("p", { text: "Session clock: " + j.now }), ...j.quotas.map((q) => {
    const card = el("div", { class: "card" }, el("h3", { text: q.name }),
      facts([["Limits", q.limits.join(", ")], ["Key", q.key], ["Algorithm", q.algorithm], ["Routes", q.routes.join(", ")]]));
    if (!q.keys.length) card.append(el("p", { text: "Nothing used yet in this session." }));
    // The report comes a page at a time; the first is enough to look at.
    if (q.keyCount > q.keys.length) card.append(el("p", { text: "The first " + q.keys.length + " of " + q.keyCount + " keys (at most " + q.maxKeys + " at once)." }));
    for (const k of q.keys) {
      const standing = el("div", { class: "card" }, el("strong", { text: "key " + (k.key || "(global)") }));
      for (const l of k.limits) {
        // resets_in is seconds on the session's clock, which may be virtual: the time shown is on that clock too.
        const resetsIn = l.resets_in;
        const at = now + resetsIn * 1000;
        const reset = isFinite(at) ? " at " + new Date(at).toISOString().replace(".000", "") : "";
        standing.append(el("div", { class: "standing" },
          el("span", { text: l.policy }), el("span", { class: l.remaining === 0 ? "bad" : "", text: l.used + " / " + l.limit + " used" }),
          el("span", { text: l.remaining + " remaining" }), el("span", { text: "resets in " + resetsIn + " s" + reset })));
      }
      const zero = {};
      for (const l of k.limits) zero[l.policy] = 0;
      standing.append(el("button", { type: "button", "data-write": "", onclick: () => act(post("quotas/" + encodeURIComponent(q.name), { key: k.key, used: zero }, "PUT")) },
        "Reset " + q.name + (k.key ? " for " + k.key : "")));
      card.append(standing);
    }
    return card;
  }));
}

async function loadSessions() {
  const j = await get("sessions", "");
  state.sessions = j.sessions;
  const select = $("session");
  const want = state.all ? "*all*" : state.session;
  const options = [el("option", { value: "*all*", text: "all sessions (hits summed)" })].concat(j.sessions.map((s) =>
    el("option", { value: s.id, text: (s.id || "default") + " — " + s.requests + " requests" + (s.unmatched ? ", " + s.unmatched + " unmatched" : "") })));
  if (!state.all && !j.sessions.some((s) => s.id === state.session)) options.push(el("option", { value: state.session, text: state.session + " (no requests yet)" }));
  select.replaceChildren(...options);
  select.value = want;
  routesCount();
  if (state.view !== "sessions") return;
  $("sessions").replaceChildren(el("p", { text: j.sessions.length - 1 + " named sessions (at most " + j.maxSessions + ")" }),
    ...j.sessions.map((s) => el("div", { class: "card" },
      el("h3", { text: s.id || "default session" }),
      facts([["Requests", String(s.requests)], ["Unmatched", String(s.unmatched)], ["Runtime stubs", String(s.runtimeStubs)],
        ["Clock", s.now + (s.frozen ? " (virtual)" : "")]]),
      el("div", { class: "toolbar" },
        el("button", { type: "button", onclick: () => chooseSession(s.id) }, "Show " + (s.id || "default")),
        el("button", { type: "button", "data-write": "", onclick: () => act(post("reset", {}, "POST", s.id)) }, "Reset " + (s.id || "default (and every session)"))))));
}

async function loadClock() {
  const c = await get("clock");
  $("clock").replaceChildren(...[["Now", c.now], ["Kind", c.frozen ? "virtual (moves only through the admin API)" : "system time"],
    ["Offset", c.offsetSeconds + " s"], ["Session", c.session || "default"]].flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })]));
  if (!$("clock-time").value) $("clock-time").value = c.now;
}

// MARK: State (GET /__stubd/scenarios and /__stubd/resources): what the session's stubs remember.

// What the State view last drew, as text: a change elsewhere in the session (any request) refetches
// it, and drawing the same documents again would replace the cards under the user's hands, taking the
// focus from a key half typed and the open list from a state being picked.
let stateShown = "";

async function loadState() {
  // State is per session: "all sessions" shows the default one's, and says so.
  const session = state.all ? "" : state.session;
  const [sc, rs, ws] = await Promise.all([get("scenarios", session), get("resources", session), get("websockets", session)]);
  const shown = JSON.stringify([session, state.all, sc, rs, ws]);
  if (shown === stateShown) return;
  stateShown = shown;
  $("state-scope").textContent = "(session " + (session || "default") + (state.all ? "; state is per session, pick one to see its own" : "") + ")";
  // A state (and key) picked but not yet set survives a refresh, so a change elsewhere does not undo the choice.
  const picked = {}, typed = {};
  for (const select of document.querySelectorAll("#scenarios select[data-picked]")) picked[select.dataset.scenario] = select.value;
  for (const input of document.querySelectorAll("#scenarios input[data-scenario]")) typed[input.dataset.scenario] = input.value;
  $("scenarios").replaceChildren(...(sc.scenarios.length ? sc.scenarios.map((s) => {
    const select = el("select", { "data-scenario": s.name, "aria-label": "State to put " + s.name + " in" },
      ...s.states.map((name) => el("option", { value: name, text: name })));
    select.value = s.name in picked && s.states.includes(picked[s.name]) ? picked[s.name] : s.state;
    if (select.value !== s.state) select.dataset.picked = "";
    select.addEventListener("change", () => { select.dataset.picked = ""; });
    // A keyed scenario (scenarioKey:) holds a state per request value: a move names the key.
    const keyed = Boolean(s.keyedBy);
    const key = keyed ? el("input", { type: "text", "data-scenario": s.name, "aria-label": "Key of " + s.name + " to move", placeholder: "e.g. 17" }) : null;
    if (key) key.value = typed[s.name] || "";
    const set = el("button", { type: "button", "data-write": "", onclick: () => act(post("scenarios/" + encodeURIComponent(s.name),
      keyed ? { state: select.value, key: key.value.trim() } : { state: select.value }, "PUT", session)) }, "Set " + s.name);
    const card = el("div", { class: "card", "data-scenario": s.name }, el("h4", { text: s.name + (keyed ? " (a state per " + s.keyedBy + ")" : "") }),
      el("div", { class: "standing" }, el("span", { text: keyed ? "every other key in" : "in state" }), el("strong", { class: "state", text: s.state }),
        el("span", { class: "count", text: "(its states: " + s.states.join(", ") + ")" })));
    const keys = Object.entries(s.keys || {}).sort((a, b) => a[0].localeCompare(b[0], undefined, { numeric: true }));
    if (keys.length) {
      // Up to 10,000 keys a session: the first 50 are enough to look at.
      const held = el("dl", { class: "facts" });
      for (const [k, v] of keys.slice(0, 50)) held.append(el("dt", { text: "key " + k }), el("dd", { "data-key": k, text: v }));
      card.append(held);
      if (keys.length > 50) card.append(el("p", { text: "and " + (keys.length - 50) + " more keys out of " + s.states[0] + "." }));
    }
    card.append(el("div", { class: "toolbar" }, key ? el("label", { class: "field" }, "Key", key) : null,
      el("label", { class: "field" }, "Move to", select), set));
    return card;
  }) : [el("p", { text: "No scenarios: no route names one (scenario: in stubd.yml, docs/scenarios.md)." })]));
  const dl = el("dl", { class: "facts" });
  for (const r of rs.resources) dl.append(el("dt", { text: r.name }),
    el("dd", { "data-resource": r.name, text: r.count + " item" + (r.count === 1 ? "" : "s") + " at " + r.path }));
  $("resources").replaceChildren(rs.resources.length ? dl : el("p", { text: "No resources: stubd.yml declares none (resources:, docs/resources.md)." }));
  // Open sockets come with the request that opened them; a close or a message the app sent shows
  // with the session's next change (a request, an admin write such as a push).
  const sockets = el("dl", { class: "facts" });
  for (const w of ws.webSockets) sockets.append(el("dt", { text: w.route === w.signature ? w.signature : w.route + " (" + w.signature + ")" }),
    el("dd", { "data-websocket": w.route, text: w.open + " open, " + w.received + " received from the app, " + w.sent + " sent to it" }));
  $("websockets").replaceChildren(ws.webSockets.length ? sockets : el("p", { text: "No WebSocket routes (websocket: in a response, docs/websocket.md)." }));
}

// MARK: Coverage (GET /__stubd/coverage): the default session's report is the whole server's.

let coverageList;

function coverageRow(c) {
  const row = el("button", { type: "button", class: "row" + (c.item.hits ? "" : " miss") + (state.selectedCoverage === c.key ? " selected" : ""),
    role: "listitem", onclick: () => showCoverage(c) },
    el("span", { class: "hits", text: c.item.hits ? String(c.item.hits) : "✗", title: "hits" }),
    el("span", { class: "path", text: c.item.title }),
    el("span", { class: "name", text: c.route.signature }));
  row.dataset.sig = c.key + "|" + c.item.hits + "|" + (state.selectedCoverage === c.key);
  row.setAttribute("aria-label", (c.item.hits ? c.item.hits + " hits: " : "not reached: ") + c.item.title + ", " + c.route.signature);
  return row;
}

function filterCoverage() {
  const filter = $("coverage-filter").value.trim().toLowerCase();
  const missing = $("coverage-missing").checked;
  coverageList.set(state.coverage.filter((c) => (!missing || !c.item.hits) &&
    (!filter || (c.route.signature + " " + c.route.route + " " + c.item.title).toLowerCase().includes(filter))));
}

async function loadCoverage() {
  const j = await get("coverage", state.all ? "" : state.session);
  const s = j.summary;
  $("coverage-scope").textContent = j.session ? "(session " + j.session + ", since its last reset)" : "(the whole server, since it started)";
  $("coverage-summary").textContent = s.covered + " of " + s.items + " items covered (" + s.percent + "%), " +
    s.routesHit + " of " + s.routes + " routes hit" + (j.behaviours && j.behaviours.length
      ? "; network behaviours: " + j.behaviours.map((b) => b.behaviour + " " + b.covered + "/" + b.answers).join(", ") : "");
  state.coverage = j.routes.flatMap((route) => route.items.map((item) => ({ key: route.route + "|" + item.id, route, item })));
  filterCoverage();
  // With a spec: each operation and the documented statuses no answer had.
  const ops = j.operations || [];
  $("coverage-operations").replaceChildren(...(ops.length ? [el("h3", { text: "Spec operations" }),
    list(ops.map((o) => o.operation + ": " + o.state + " (answered " + (o.answered.join(", ") || "none") + " of " + o.documented.join(", ") + ")" +
      (o.hints && o.hints.length ? "; missing: " + o.hints.map((h) => h.status + " — " + h.hint).join("; ") : "")))] : []));
  const selected = state.coverage.find((c) => c.key === state.selectedCoverage);
  if (selected) showCoverage(selected, true);
}

function showCoverage(c, quiet) {
  state.selectedCoverage = c.key;
  const d = $("coverage-detail");
  d.hidden = false;
  d.replaceChildren(el("h3", { text: c.item.title }), facts([
    ["Route", c.route.signature + (c.route.route !== c.route.signature ? " (" + c.route.route + ")" : "")],
    ["Source", c.route.source], ["Hits", String(c.item.hits)],
    ["How to reach it", c.item.hint || "—"],
  ]));
  if (!quiet) coverageList.render();
}

// MARK: Views and refresh

// MARK: Server (GET /__stubd/health and /__stubd/contract): recording or proxying, and the spec.

async function loadServer() {
  const h = await get("health");
  const f = h.forwarding;
  $("server-forwarding").replaceChildren(f
    ? facts([["Mode", f.mode === "record" ? "recording every request (stubd record)" : "proxy: what no stub answers goes on (serve --proxy)"],
      ["Target", f.target], ["Recording", f.recording ? "on: answers are written into the Stubs folder" : "off"],
      ["Recorded", String(f.recorded) + " answer" + (f.recorded === 1 ? "" : "s") + " since start"]])
    : el("p", { text: "Neither recording nor proxying: every answer comes from the Stubs folder." }));
  if (!h.spec) {
    $("server-contract").replaceChildren(el("p", { text: "No spec loaded (stubd serve --spec FILE holds stubs and requests to one)." }));
    return;
  }
  const c = await get("contract");
  // Several specs (serve --spec A --spec B): one line each, not their names run together.
  const several = (c.specs || []).length > 1;
  const each = several
    ? [el("h3", { text: "Specs (" + c.specs.length + ")" }),
      list(c.specs.map((s) => s.file + " (OpenAPI " + s.openapi + ", " + s.operations.length + " operation" + (s.operations.length === 1 ? "" : "s") + ")"))]
    : [];
  $("server-contract").replaceChildren(facts([several ? ["Specs", c.specs.length + ", each listed below"] : ["Spec", c.file + " (OpenAPI " + c.openapi + ")"],
    ["Operations", String(c.operations.length)],
    ["Requests", c.requests === "strict" ? "strict: one that breaks the spec gets 422" : c.requests === "off" ? "not checked"
      : "report: served, and the problem shown under Requests"]]),
    ...each, el("h3", { text: "Notices (" + c.notices.length + ")" }), c.notices.length ? list(c.notices) : el("p", { text: "None." }));
}

const loaders = { routes: () => loadRoutes(false), requests: loadRequests, quotas: loadQuotas, sessions: async () => {}, clock: loadClock, state: loadState, coverage: loadCoverage, server: loadServer };

async function refresh(full) {
  if (state.refreshing) { state.again = true; return; }
  state.refreshing = true;
  try {
    const load = full && state.view === "routes" ? () => loadRoutes(true) : loaders[state.view];
    // The session list travels beside the view's own documents; only "all sessions" needs it first.
    if (state.all) { await loadSessions(); await load(); } else await Promise.all([loadSessions(), load()]);
  } catch (e) {
    notice(e.message);
  } finally {
    state.refreshing = false;
    if (state.again) { state.again = false; refresh(); }
  }
}

function show(view) {
  state.view = view;
  for (const b of document.querySelectorAll("nav button")) b.setAttribute("aria-pressed", String(b.dataset.view === view));
  for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== "view-" + view;
  history.replaceState(null, "", "#" + view + (state.all ? "/*all*" : state.session ? "/" + encodeURIComponent(state.session) : ""));
  refresh();
}

function chooseSession(id) {
  state.all = id === "*all*";
  state.session = state.all ? "" : id;
  state.selectedRequest = null;
  $("request-detail").hidden = true;
  show(state.view);
}

// MARK: Live: the server says which sessions changed (Server-Sent Events); the page refetches what it shows.

let source = null;
function listen() {
  if (source) source.close();
  // Every session's changes: the session list and "all sessions" need them; the page picks what it shows.
  source = new EventSource(api + "events?all=1");
  source.addEventListener("open", () => { $("live").textContent = "live"; $("live").classList.add("on"); });
  source.addEventListener("error", () => { $("live").textContent = "disconnected, retrying…"; $("live").classList.remove("on"); });
  source.addEventListener("change", (event) => {
    let sessions = [];
    try { sessions = JSON.parse(event.data); } catch (e) { return; }
    const reload = sessions.includes("*");
    if (state.all || reload || state.view === "sessions" || sessions.includes(state.session)) refresh(reload);
  });
}

function start() {
  routeList = virtualList($("routes-list"), routeRow);
  requestList = virtualList($("requests-list"), requestRow);
  coverageList = virtualList($("coverage-list"), coverageRow);
  $("coverage-filter").addEventListener("input", filterCoverage);
  $("coverage-missing").addEventListener("change", filterCoverage);
  for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => show(b.dataset.view));
  $("session").addEventListener("change", (e) => chooseSession(e.target.value));
  $("routes-filter").addEventListener("input", mergeRoutes);
  $("routes-hit").addEventListener("change", mergeRoutes);
  $("requests-filter").addEventListener("input", filterRequests);
  $("requests-unmatched").addEventListener("change", filterRequests);
  $("quotas-reset").addEventListener("click", () => act(post("quotas/reset")));
  $("clock-advance").addEventListener("submit", (e) => {
    e.preventDefault();
    act(post("clock/advance", { seconds: Number($("clock-seconds").value) }));
  });
  $("clock-set").addEventListener("submit", (e) => {
    e.preventDefault();
    act(post("clock/set", { time: $("clock-time").value.trim() }));
  });
  // Deep links: #VIEW is the default session, #VIEW/ID a named one, #VIEW/*all* every session summed.
  const [view, session] = (location.hash.slice(1) || "routes").split("/");
  if (session === "*all*") state.all = true;
  else if (session !== undefined) state.session = decodeURIComponent(session);
  const params = new URLSearchParams(location.search);
  if (params.has("session")) { state.session = params.get("session"); state.all = false; }
  listen();
  show(loaders[view] ? view : "routes");
}

document.addEventListener("DOMContentLoaded", start);
