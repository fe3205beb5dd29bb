/* The referee form: one match, on a phone at the table. This is its core: the match as the
 * server sent it, the queue of taps, sending, focus, sheets, the clock and the footer. What
 * the board shows and what may be entered come from the discipline's renderer
 * (disciplines/<view.renderer>.js, or generic.js for a discipline without one), which reads
 * the server's `view` and `entry`.
 *
 * No rule is computed here. Each tap that changes the match goes into a queue kept on the phone
 * (queue.js) with one idempotency key, made when tapped and reused on every attempt, so a
 * double tap or a resend after a dropped connection never applies an event twice. Online, one
 * tap is in flight at a time and the buttons wait for its answer. Offline (club Wi-Fi), taps
 * keep being queued, shown as pending in the log, survive a reload, and leave in order when
 * the connection is back; a refused one (the match moved on, an impossible event) stops the
 * queue and the referee sees what was refused and the current state.
 */
import { get, matchFrom, post } from "./api.js";
import { btn, configure, h } from "./dom.js";
import { kindOf } from "./entry.js";
import { Queue } from "./queue.js";
import * as generic from "./disciplines/generic.js";

const root = document.getElementById("referee");
// One renderer per discipline, disciplines/<view.renderer>.js, loaded when a match needs it;
// the page lists the renderers there are (data-renderers), any other discipline is drawn by
// generic.js. The core names no discipline.
const RENDERERS = (root.getAttribute("data-renderers") || "")
  .split(" ")
  .filter(Boolean);
const loaded = { generic };
const loading = {};
const T = JSON.parse(document.getElementById("referee-ui").textContent);
const meNode = document.getElementById("referee-me");
// Who scores: {role: "organiser"|"referee"|"player", slot: "a"|"b"|null}.
const ME = meNode ? JSON.parse(meNode.textContent) || {} : {};
const API = root.getAttribute("data-api");
const CORRECT_URL = root.getAttribute("data-correct");
// The form's own words (templates/matches/referee.html), next to the server's T.text.
const W = {};
const words = document.getElementById("ref-words");
(words ? words.content.querySelectorAll("[data-k]") : []).forEach((el) => {
  W[el.getAttribute("data-k")] = el.textContent;
});
const POLL_MS = 4000;
// While the match's stream is up, the other phone's taps are pushed: a poll only now and then.
const STREAM_POLL_MS = 20000;
const STREAM_KINDS = ["match.event", "match.started", "match.finished", "match.corrected", "match.table", "reset"];
let streamOpen = false;
let lastPoll = 0;
let pushTimer = null;
const RETRY_DELAYS_MS = [800, 1600, 3200, 5000];

let match = null; // the last match the server sent
let receivedAt = Date.now(); // when it was received: the clock counts on from there
let sheet = null; // an open secondary panel: {kind, ...}
let pick = {}; // values chosen before a confirming tap; never carried into another step
let notice = null; // {text, kind}
let sending = false; // a request of the queue is in flight
let offline = !navigator.onLine; // the last attempt found no network
let attempt = 0;
let retryTimer = null;
let refused = null; // {item, message}: the queue stopped here
let shooterOffline = null; // offline: who is at the table (the turn rules, or the referee)
let awaitingOffline = null; // offline: the step that follows the last queued tap
let focusWanted = null; // the control to give the focus back to once it is enabled again
const app = document.getElementById("ref-app");
const status = document.getElementById("ref-status");
let queue = null;

// --- helpers ------------------------------------------------------------------------

function t(key, params) {
  let s = T.text[key] || W[key] || key;
  if (params) {
    Object.keys(params).forEach((k) => {
      s = s.split("%(" + k + ")s").join(String(params[k]));
    });
  }
  return s;
}

function announce(text) {
  if (status && text) {
    status.textContent = text;
  }
}

/* Taps wait while one is in flight online, and stop while a refusal is unresolved. */
function locked() {
  return (sending && !offline) || !!(refused && queue.length);
}

configure({ locked, balls: T.balls });

function name(side) {
  let p = match.players[side];
  return p ? p.name : "—";
}

// A self-scoring player waits while the judge is called: only the judge acts then.
function judgeHolds() {
  let judge = (match.raw && match.raw.judge) || {};
  let closed = match.state.finished || ["finished", "walkover", "void"].indexOf(match.status) >= 0;
  return ME.role === "player" && !!judge.called && !closed;
}

function closed() {
  return !!(match.state.finished || match.view.finished) || ["finished", "walkover", "void"].indexOf(match.status) >= 0;
}

function other(side) {
  return side === "a" ? "b" : "a";
}

// --- the match as the API sends it ---------------------------------------------------

function normalise(m, previous) {
  const st = m.state || {};
  return {
    raw: m,
    id: m.id,
    version: m.version,
    status: m.status,
    state: st,
    view: m.view || {},
    // A read without `entry` (an old page's poll) keeps the one it had for this version.
    entry: m.entry || (previous && previous.version === m.version ? previous.entry : null),
    players: m.players || { a: m.player_a, b: m.player_b },
    head: m.head_start || (st.ruleset && st.ruleset.head_start) || { a: 0, b: 0 },
    table: m.table && typeof m.table === "object" ? m.table.number : m.table,
    clock: m.clock || {},
    events: m.last_events || [],
  };
}

// The labels of the event types the entries have offered: what a tap not sent yet is called.
const typeLabels = {};

function accept(m) {
  match = normalise(m, match);
  ((match.entry && match.entry.kinds) || []).forEach((k) => {
    if (k.key === k.type) {
      typeLabels[k.type] = k.label;
    }
  });
  receivedAt = Date.now();
  queue.rememberMatch(m);
}

// --- the queue: taps leave in order, each once ------------------------------------------

function write(path, body) {
  if (locked()) {
    return; // one action at a time online: a second tap while the first is in flight is ignored
  }
  body = { ...body };
  // The log's writes (events, undo) are refused when the match moved on; each queued one
  // expects the version the ones before it lead to. The clock and the judge call act on the
  // match as it is.
  if (match && (path === "events/" || path === "undo/") && body.expected_version === undefined) {
    body.expected_version = match.version + queue.logWrites();
  }
  queue.push(path, body);
  notice = null;
  sheet = null;
  pick = {};
  render();
  flush();
}

function event(ev) {
  const before = queue.length;
  write("events/", { event: ev });
  if (queue.length > before) {
    followTurn(ev);
  }
}

function total(value) {
  if (Array.isArray(value)) {
    return value.length; // numbered balls: how many
  }
  if (value && typeof value === "object") {
    return Object.keys(value).reduce((n, k) => n + (typeof value[k] === "number" ? value[k] : 0), 0);
  }
  return typeof value === "number" ? value : 0;
}

/* Who is at the table after a tap, and what he does next, as the discipline describes it
 * (T.turns, from the engine's Discipline.turn_rules): the first rule that fits decides. Used
 * only while taps wait offline; the server judges each one when it gets it. */
function followTurn(ev) {
  const rule = (T.turns || []).find((r) => r.type === ev.type
    && Object.keys(r.when || {}).every((k) => ev[k] === r.when[k])
    && (!r.sum || r.sum.reduce((n, k) => n + total(ev[k]), 0) >= r.min)
    && (r.set || []).every((k) => ev[k] !== undefined && ev[k] !== null));
  if (!rule) {
    return;
  }
  const who = rule.next.indexOf("field:") === 0 ? ev[rule.next.slice(6)]
    : rule.next === "same" ? ev.player : other(ev.player);
  if (who === "a" || who === "b") {
    shooterOffline = who;
  }
  awaitingOffline = rule.then;
  render();
}

function scheduleRetry() {
  const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)];
  attempt += 1;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(flush, delay);
}

async function flush() {
  const item = queue.head();
  if (sending || !item || refused) {
    return;
  }
  if (!navigator.onLine) {
    // The phone knows it has no network: the tap stays queued with its key until the
    // "online" event (or the next retry). An attempt now could only fail, or leave over a
    // connection the browser still holds and be stored with the answer lost.
    offline = true;
    scheduleRetry();
    render();
    return;
  }
  sending = true;
  render();
  let r;
  try {
    // ?referee=1: the answer (and a conflict's current match) carries `entry` for the next tap.
    r = await post(API + item.path + "?referee=1", item.body);
  } catch (e) {
    r = null; // no network: the item stays, with its key, for the next attempt
  }
  sending = false;
  if (!r || r.status >= 500) {
    offline = !r;
    if (r) {
      notice = { kind: "warn", text: t("offline") };
    }
    scheduleRetry();
    render();
    return;
  }
  offline = false;
  attempt = 0;
  const m = matchFrom(r.data);
  if (r.status >= 200 && r.status < 300) {
    queue.shift();
    if (m) {
      accept(m);
    }
    announce(lastEventText());
    if (!queue.length) {
      shooterOffline = null;
      awaitingOffline = null;
      if (!m) {
        refresh();
      }
    }
    render();
    flush();
    return;
  }
  // Refused: stop here, say what and why, and show the match as it is now.
  queue.shift();
  const why =
    r.status === 409
      ? t("stale")
      : (r.data && r.data.message) || (r.status === 403 || r.status === 401 ? t("forbidden") : t("rejected"));
  refused = queue.length ? { item, message: why } : null;
  notice = {
    kind: r.status === 409 ? "warn" : "error",
    text: queue.length || item.at < Date.now() - 2000 ? t("refused", { what: describeItem(item), why }) : why,
  };
  if (r.status === 409 && m) {
    // Two phones on one match: say what the other one recorded since this tap was made, and
    // offer to enter this tap again on top of it (a new key, the version now).
    const since = item.body.expected_version;
    const newer = (m.last_events || [])
      .filter((e) => e.kind === "event" && typeof since === "number" && e.seq > since)
      .map((e) => e.text)
      .filter(Boolean);
    notice.meanwhile = newer.length ? t("meanwhile", { what: newer.join("; ") }) : null;
    notice.reenter = !queue.length && item.path === "events/" ? item : null;
  }
  announce(notice.text + (notice.meanwhile ? " " + notice.meanwhile : ""));
  if (m) {
    accept(m);
  } else {
    refresh();
  }
  render();
}

/* The refused tap again, on top of what the other phone recorded: a new key and the version
 * now; the server judges it against the match as it is. */
function reenter() {
  const item = notice && notice.reenter;
  if (!item) {
    return;
  }
  const body = { ...item.body };
  delete body.idempotency_key;
  delete body.expected_version;
  notice = null;
  write(item.path, body);
}

function discardQueue() {
  queue.clear();
  refused = null;
  notice = null;
  shooterOffline = null;
  awaitingOffline = null;
  render();
  refresh();
}

/* The other phone's taps (and the organiser's changes) pushed on the match's stream
 * (Server-Sent Events): the form asks for the match as soon as one is committed. The browser
 * reconnects by itself (after the server's retry, spread at random) with Last-Event-ID; a
 * stream that refused or broke is opened again after a growing, jittered pause. */
function follow(matchId) {
  if (!window.EventSource || !matchId) {
    return;
  }
  const url = `/api/v1/matches/${matchId}/stream/`;
  let failures = 0;
  let lastId = "";
  const open = () => {
    const source = new EventSource(lastId ? `${url}?last_event_id=${encodeURIComponent(lastId)}` : url);
    const changed = (e) => {
      if (e.lastEventId) {
        lastId = e.lastEventId;
      }
      // One fetch for the events of one write (a first break is an event and the start).
      if (!pushTimer) {
        pushTimer = setTimeout(() => {
          pushTimer = null;
          if (!sending && !queue.length) {
            refresh();
          }
        }, 30);
      }
    };
    STREAM_KINDS.forEach((kind) => source.addEventListener(kind, changed));
    source.addEventListener("ready", (e) => {
      if (e.lastEventId) {
        lastId = e.lastEventId;
      }
      if (!streamOpen) {
        streamOpen = true;
        failures = 0;
        changed(e); // what happened between the page's load (or the drop) and now
      }
    });
    source.onerror = () => {
      streamOpen = false;
      if (source.readyState === 2) {
        source.close();
        failures += 1;
        const ceiling = Math.min(60000, 2000 * 2 ** (failures - 1));
        setTimeout(open, ceiling / 2 + Math.random() * (ceiling / 2));
      }
    };
  };
  open();
}

async function refresh() {
  lastPoll = Date.now();
  let m = null;
  try {
    // ?referee=1: the answer carries `entry`, what may be entered now.
    m = await get(API + "?referee=1");
  } catch (e) {
    offline = true;
    render();
    return;
  }
  if (m && !sending && !queue.length && (!match || m.version !== match.version || clockChanged(m) || !match.entry)) {
    accept(m);
    render();
  } else if (m) {
    receivedAt = Date.now();
    match.clock = m.clock || match.clock;
    queue.rememberMatch({ ...match.raw, clock: match.clock });
  }
  if (offline && m) {
    offline = false;
    render();
  }
}

function clockChanged(m) {
  const a = m.clock || {};
  const b = match.clock || {};
  return a.running !== b.running || a.expired !== b.expired || m.status !== match.status;
}

function lastEventText() {
  const evs = match ? match.events : [];
  return evs.length ? evs[evs.length - 1].text || "" : "";
}

/* A tap not sent yet has no sentence: the server words each entry of the log (its `text`).
 * Until then it is named by the entry's kind it was made with. */
function describeItem(item) {
  if (item.path === "events/") {
    const ev = item.body.event || {};
    return (ev.player ? name(ev.player) + ": " : "") + kindLabel(ev);
  }
  if (item.path === "undo/") {
    return t("undo");
  }
  return item.path.replace("/", "");
}

/* The label of the entry's kind that makes this event (its type, its fixed keys, its fields),
 * else of its type as an entry offered it. */
function kindLabel(ev) {
  const kinds = (match && match.entry && match.entry.kinds) || [];
  const made = kinds.find((k) => k.type === ev.type
    && Object.keys(k.fixed || {}).every((key) => ev[key] === k.fixed[key])
    && Object.keys(ev).every((key) => key === "type" || key === "player" || key in (k.fixed || {})
      || (k.fields || []).some((f) => f.name.split(".")[0] === key)));
  return made ? made.label : typeLabels[ev.type] || ev.type || "";
}

// --- rendering ----------------------------------------------------------------------------

/* The control that had the focus, found again after a redraw (same action, same number). */
function focusKey() {
  const el = document.activeElement;
  if (!el || !app.contains(el) || !el.getAttribute("data-action")) {
    return null;
  }
  return { action: el.getAttribute("data-action"), n: el.getAttribute("data-n") };
}

function restoreFocus(key, hadFocus) {
  if (key) {
    let sel = `[data-action="${key.action}"]`;
    if (key.n !== null) {
      sel += `[data-n="${key.n}"]`;
    }
    const el = app.querySelector(sel);
    if (el && !el.disabled) {
      focusWanted = null;
      el.focus();
      return;
    }
    if (el) {
      // Disabled while the tap is in flight: the form holds the focus meanwhile and gives it
      // back to this control when the answer has drawn the screen again.
      focusWanted = key;
      app.setAttribute("tabindex", "-1");
      app.focus({ preventScroll: true });
      return;
    }
    focusWanted = null;
  }
  if (hadFocus) {
    // The control is gone (the step moved on): the new step's prompt takes the focus.
    const next = app.querySelector(".ref-action h2, .ref-action [data-action]:not(:disabled)");
    if (next) {
      if (next.tagName === "H2") {
        next.setAttribute("tabindex", "-1");
      }
      next.focus();
    }
  }
}

function renderer() {
  return loaded[match.view.renderer] || generic;
}

/* True while the match's renderer is still being fetched: render() waits for it (then runs
 * again) rather than drawing the generic board for a moment. A renderer that fails to load
 * leaves the match to generic.js. */
function rendererPending() {
  const name = match.view && match.view.renderer;
  if (!name || loaded[name] || !RENDERERS.includes(name)) {
    return false;
  }
  if (!loading[name]) {
    loading[name] = import("./disciplines/" + name + ".js")
      .then((module) => {
        loaded[name] = module;
      })
      .catch(() => {
        loaded[name] = generic;
      })
      .then(render);
  }
  return true;
}

/* What a renderer is given: the match, its view and entry, words, and the core's actions. */
function context() {
  return {
    match,
    st: match.state,
    view: match.view,
    entry: match.entry,
    // Offline with taps queued, the entry is the last one heard: its bounds and finishing
    // values may be out of date, so the server judges each tap when it gets it.
    current: !(offline && queue.logWrites()),
    T,
    W,
    ME,
    t,
    name,
    other,
    offline,
    sheet,
    pick,
    render,
    event,
    shooter,
    awaitingShown,
    shooterSwitch,
    sheetHead,
    foulList,
    moreRow,
    openSheet(s) {
      sheet = s;
      pick = {};
      render();
    },
    confirm,
  };
}

function render() {
  if (!match) {
    return;
  }
  const st = match.state;
  if (!st.discipline) {
    app.replaceChildren(h("p", { class: "ref-loading" }, t("waiting")));
    return;
  }
  if (rendererPending()) {
    return;
  }
  const key = focusKey() || focusWanted;
  const hadFocus = app.contains(document.activeElement);
  const ctx = context();
  const r = renderer();
  const view = h("div", { class: "ref" + (locked() ? " busy" : "") + (offline ? " offline" : ""),
    "data-renderer": r === generic ? "generic" : match.view.renderer });
  view.appendChild(r.board(ctx));
  view.appendChild(renderClock());
  if (offline || queue.length) {
    view.appendChild(renderQueueNotice());
  }
  if (notice) {
    view.appendChild(h("div", { class: "ref-notice " + notice.kind, role: "alert" }, notice.text,
      notice.meanwhile ? h("p", { class: "ref-meanwhile", "data-meanwhile": "" }, notice.meanwhile) : null,
      notice.reenter ? btn(t("reenter", { what: describeItem(notice.reenter) }), "reenter", reenter,
        { class: "rbtn small" }) : null,
      // Not btn(): that one is disabled while the refusal holds the queue, and this is the
      // way out of it.
      refused ? h("button", { type: "button", class: "rbtn small", "data-action": "discard-queue", onclick: discardQueue },
        t("discard")) : null));
  }
  // What the last penalty did to the balls, from the engine (a ball from the offender's
  // shelf, a debt, the opponent's ball): the table is told before it is told where to spot.
  if (match.view.penalty) {
    view.appendChild(h("div", { class: "ref-penalty", "data-penalty": "" }, match.view.penalty));
  }
  if (match.view.to_spot > 0 && match.view.spotting) {
    view.appendChild(h("div", { class: "ref-spot", "data-to-spot": match.view.to_spot }, match.view.spotting));
  }
  (match.view.notices || []).forEach((text) => {
    view.appendChild(h("div", { class: "ref-golden" }, text));
  });
  if (judgeHolds()) {
    sheet = null;
    view.appendChild(h("section", { class: "ref-action ref-judge-wait", "data-judge-wait": "" },
      h("h2", { class: "ref-prompt" }, t("judge_coming"))));
  } else if (st.finished) {
    sheet = null;
    view.appendChild(renderFinished(st));
  } else if (sheet && sheet.kind === "confirm") {
    view.appendChild(renderConfirm());
  } else if (sheet && sheet.kind === "foul_event") {
    view.appendChild(renderFoulEvent());
  } else if (sheet && sheet.kind !== "forfeit") {
    view.appendChild(r.sheet(ctx));
  } else {
    if (lagAsked(st)) {
      view.appendChild(renderLag());
    }
    view.appendChild(r.action(ctx));
  }
  // A renderer may add what reads best under the step (Duplex: the points of each frame).
  const details = r.details ? r.details(ctx) : null;
  if (details) {
    view.appendChild(details);
  }
  view.appendChild(renderFooter(st));
  app.replaceChildren(view);
  if (window.LuzaClock) {
    window.LuzaClock.scan(app);
  }
  restoreFocus(key, hadFocus);
}

/* A finished match never reopens: a mistake is fixed by the result correction. */
function renderFinished(st) {
  const winner = match.view.winner || st.winner;
  const box = h("section", { class: "ref-action", "data-awaiting": "null" },
    h("div", { class: "ref-finished" },
      h("img", { class: "trophy", src: T.trophy, alt: "", width: "56", height: "56" }),
      h("h2", null, t("winner", { name: name(winner) })),
      match.view.end_label ? h("p", { class: "muted" }, match.view.end_label) : null,
      CORRECT_URL ? h("a", { class: "rbtn", href: CORRECT_URL, "data-action": "correct" }, t("correct_result")) : null));
  // After the match: straight on to the next one called to this table.
  if (root.dataset.tableUrl) {
    box.appendChild(h("p", null, h("a", { class: "btn primary", href: root.dataset.tableUrl },
      root.dataset.tableLabel)));
  }
  return box;
}

/* A tap that ends the match asks first; Cancel and Escape back out. */
function confirm(question, ev) {
  sheet = { kind: "confirm", question, ev, back: focusKey() };
  render();
  const yes = app.querySelector("[data-action=confirm-end]");
  if (yes) {
    yes.focus();
  }
}

function renderConfirm() {
  return h("section", { class: "ref-action sheet", "data-sheet": "confirm", role: "alertdialog",
    "aria-labelledby": "confirm-q" },
  h("h2", { class: "ref-prompt", id: "confirm-q" }, sheet.question),
  h("div", { class: "ref-options two" },
    btn(t("confirm"), "confirm-end", () => event(sheet.ev), { class: "rbtn danger", "aria-describedby": "confirm-q" }),
    btn(t("cancel"), "cancel", closeSheet, { class: "rbtn" })));
}

/* A foul outside a shot: which one, then who committed it. */
function renderFoulEvent() {
  const box = h("section", { class: "ref-action sheet", "data-sheet": "foul_event" });
  if (!sheet.code) {
    box.appendChild(sheetHead(t("foul_outside")));
    box.appendChild(foulList(T.event_fouls, (code) => {
      sheet.code = code;
      render();
    }));
    return box;
  }
  box.appendChild(sheetHead(T.foul_titles[sheet.code]));
  box.appendChild(h("p", { class: "ref-label" }, t("who_fouled")));
  const row = h("div", { class: "ref-options two" });
  ["a", "b"].forEach((s) => {
    row.appendChild(btn(name(s), "offender-" + s, () => {
      event({ type: "foul", player: s, foul: sheet.code });
    }, { class: "rbtn option" }));
  });
  box.appendChild(row);
  return box;
}

/* Before the first break, where the tournament does not draw it: who won the lag (G7.1) and
 * whether he breaks or gives the break (G7.4, D4.1-4.2), two taps, one "lag" event. A
 * discipline takes it when its state keeps a `lag`; a break tapped first keeps the ruleset's
 * first breaker. */
function lagAsked(st) {
  return "lag" in st && st.lag === null && st.events === 0 && st.awaiting === "break"
    && match.raw.break_by_lag !== false && !(offline && queue.logWrites());
}

function renderLag() {
  const box = h("section", { class: "ref-lag", "data-lag": "" });
  const winner = pick.lagWinner;
  if (!winner) {
    box.appendChild(h("p", { class: "ref-label", id: "lag-q" }, t("lag_who")));
    const row = h("div", { class: "ref-options two", role: "group", "aria-labelledby": "lag-q" });
    ["a", "b"].forEach((s) => {
      row.appendChild(btn(t("lag_won", { name: name(s) }), "lag-" + s, () => {
        pick.lagWinner = s;
        render();
      }, { class: "rbtn option" }));
    });
    box.appendChild(row);
    return box;
  }
  box.appendChild(h("p", { class: "ref-label", id: "lag-q" }, t("lag_choice", { name: name(winner) })));
  const row = h("div", { class: "ref-options two", role: "group", "aria-labelledby": "lag-q" });
  row.appendChild(btn(t("lag_breaks", { name: name(winner) }), "lag-breaks", () => {
    event({ type: "lag", winner, breaker: winner });
  }, { class: "rbtn option primary" }));
  row.appendChild(btn(t("lag_gives", { name: name(other(winner)) }), "lag-gives", () => {
    event({ type: "lag", winner, breaker: other(winner) });
  }, { class: "rbtn option" }));
  box.appendChild(row);
  box.appendChild(btn(t("cancel"), "lag-cancel", () => {
    pick = {};
    render();
  }, { class: "rbtn small ghost" }));
  return box;
}

function renderQueueNotice() {
  const box = h("div", { class: "ref-notice queue" + (offline ? " warn" : ""), "data-queue": String(queue.length) },
    h("span", null, offline ? t("offline_note") : t("sending", { n: queue.length })));
  if (offline && queue.length) {
    box.appendChild(h("strong", { class: "ref-queue-count" }, t("pending_count", { n: queue.length })));
  }
  return box;
}

/* Offline the server cannot say whose turn comes next, and the form computes no rule: the
 * referee says who is at the table, and the server judges each queued tap in order. */
function shooter(st) {
  return offline && shooterOffline ? shooterOffline : st.turn;
}

function awaitingShown(st) {
  if (offline && queue.logWrites() && ["break", "shot", "choice", "rerack"].indexOf(st.awaiting) >= 0) {
    return ["break", "shot", "choice"].indexOf(awaitingOffline) >= 0 ? awaitingOffline : "shot";
  }
  return st.awaiting;
}

function shooterSwitch(st) {
  const p = shooter(st);
  const row = h("div", { class: "ref-options two ref-shooter", role: "group", "aria-label": t("at_table") });
  ["a", "b"].forEach((s) => {
    row.appendChild(btn(name(s), "shooter-" + s, () => {
      shooterOffline = s;
      render();
    }, { class: "rbtn option" + (p === s ? " selected" : ""), "aria-pressed": String(p === s) }));
  });
  return h("div", null, h("p", { class: "ref-label" }, t("at_table")), row);
}

function renderClock() {
  let c = match.clock || {};
  let remaining = c.remaining_seconds;
  if (remaining !== null && remaining !== undefined && c.running) {
    remaining = Math.max(0, remaining - (Date.now() - receivedAt) / 1000);
  }
  if (remaining === null || remaining === undefined) {
    return h("section", { class: "ref-clock off" }, t("no_clock"));
  }
  const status = match.status;
  const finished = match.state.finished || status === "finished" || status === "walkover";
  if (finished) {
    return h("section", { class: "ref-clock" },
      h("div", null, h("div", { class: "ref-clock-label" }, t("clock_played")),
        h("span", { class: "clock" }, window.LuzaClock.format(c.elapsed_seconds || 0))));
  }
  let started = ["scheduled", "ready", "on_table"].indexOf(status) < 0;
  let clockEl = h("span", {
    class: "clock" + (c.running ? "" : " paused"),
    "data-clock": "",
    "data-remaining": String(remaining),
    "data-running": c.running ? "1" : "0",
    "data-warn-below": "600",
  }, window.LuzaClock.format(remaining));
  let control = null;
  if (!finished && !c.expired && !judgeHolds()) {
    if (c.running) {
      control = btn(t("pause"), "clock-pause", () => {
        write("clock/", { action: "pause" });
      }, { class: "rbtn clockbtn" });
    } else if (started) {
      control = btn(t("resume"), "clock-resume", () => {
        write("clock/", { action: "resume" });
      }, { class: "rbtn clockbtn primary" });
    } else {
      control = btn(t("start"), "clock-start", () => {
        write("clock/", { action: "start" });
      }, { class: "rbtn clockbtn primary" });
    }
  }
  let label = c.running ? t("clock_running") : started ? t("clock_paused") : t("clock_not_started");
  if (offline) {
    label += " · " + t("clock_offline");
  }
  return h("section", { class: "ref-clock" + (c.running ? " running" : "") + (offline ? " offline" : "") },
    h("div", null, h("div", { class: "ref-clock-label" }, label), clockEl), control);
}


/* The row under the main step: the renderer's own buttons, then a foul outside a shot when
 * the entry offers one. */
function moreRow(buttons) {
  const row = h("div", { class: "ref-more" }, buttons || []);
  if (!match.entry || kindOf(match.entry, "foul")) {
    row.appendChild(btn(t("foul_outside"), "open-foul-event", () => {
      sheet = { kind: "foul_event" };
      pick = {};
      render();
    }, { class: "rbtn" }));
  }
  return row;
}

function sheetHead(title) {
  return h("div", { class: "sheet-head" }, h("h2", null, title),
    btn(t("cancel"), "cancel", closeSheet, { class: "rbtn small ghost" }));
}

/* Fouls as buttons: a short name and the clause; the rule's exact text behind a tap. */
function foulList(fouls, onpick) {
  const list = h("div", { class: "foul-list" });
  fouls.forEach((f) => {
    list.appendChild(btn(h("span", null,
      h("span", { class: "foul-title" }, h("strong", null, f.title), " ", h("span", { class: "rule" }, f.rule))),
    "foul-" + f.code, () => onpick(f.code), { class: "rbtn foul", "data-code": f.code }));
    if (f.quote) {
      list.appendChild(h("details", { class: "foul-quote", "data-quote": f.code },
        h("summary", null, t("rule_text") + " " + f.rule),
        h("p", { lang: "ru" }, f.quote)));
    }
  });
  return list;
}

function renderFooter(st) {
  const foot = h("section", { class: "ref-foot" });
  const over = closed();
  const inForce = match.events.some((e) => e.kind === "event" && !e.undone);
  // A finished match is corrected by the organiser, not undone (the API says so too).
  const undoable = !over && !judgeHolds() && (inForce || match.version > match.events.length);
  foot.appendChild(btn("↶ " + t("undo"), "undo", () => {
    write("undo/", {});
  }, { class: "rbtn undo", disabled: !undoable }));
  if (!over && !judgeHolds()) {
    foot.appendChild(btn(t("forfeit"), "forfeit", () => {
      sheet = { kind: "forfeit" };
      pick = {};
      render();
    }, { class: "rbtn ghost small" }));
  }
  const judge = match.raw.judge || {};
  if (!over) {
    if (judge.called) {
      foot.appendChild(h("div", { class: "ref-judge", role: "status" }, t("judge_called")));
    } else {
      foot.appendChild(btn(t("call_judge"), "judge-call", () => {
        write("judge/", { action: "call" });
      }, { class: "rbtn ghost small" }));
    }
  }
  if (sheet && sheet.kind === "forfeit" && !over) {
    foot.appendChild(renderConcede());
  }
  const evs = match.events.slice(-6).reverse();
  if (evs.length || queue.length) {
    const list = h("ol", { class: "events ref-events" });
    // Taps not yet sent, newest first, with the key the server will know them by.
    queue.items.slice().reverse().forEach((item) => {
      list.appendChild(h("li", { class: "pending", "data-key": item.key },
        h("span", { class: "t" }, "…"),
        h("span", null, describeItem(item), " ", h("small", null, t("pending") + " · " + item.key.slice(0, 8)))));
    });
    evs.forEach((e) => {
      list.appendChild(h("li", { class: e.undone ? "undone" : "" }, h("span", { class: "t" }, "#" + e.seq),
        h("span", null, e.text || "")));
    });
    foot.appendChild(h("h3", null, t("last_events")));
    foot.appendChild(list);
  }
  return foot;
}

/* Conceding ends the match: pick who, then confirm (the entry's question); Cancel and Escape
 * back out. */
function renderConcede() {
  const box = h("div", { class: "ref-options two forfeit", "data-sheet": "forfeit" });
  const kind = kindOf(match.entry, "forfeit");
  const choices = kind && kind.fields[0] ? kind.fields[0].choices : [];
  if (sheet.side) {
    const who = name(sheet.side);
    const c = choices.find((x) => x.value === sheet.side);
    const question = c && c.confirm ? c.confirm : t("concede_confirm", { name: who });
    box.appendChild(h("p", { class: "ref-label", id: "concede-q" }, question));
    box.appendChild(btn(t("confirm"), "concede-confirm", () => {
      event({ type: "forfeit", player: sheet.side });
    }, { class: "rbtn danger", "aria-describedby": "concede-q" }));
    box.appendChild(btn(t("cancel"), "concede-cancel", closeSheet, { class: "rbtn" }));
    return box;
  }
  box.appendChild(h("p", { class: "ref-label" }, kind && kind.fields[0] && kind.fields[0].prompt ? kind.fields[0].prompt : t("who_concedes")));
  // A player concedes only for themselves; a referee or an organiser records either.
  const slots = ME.role === "player" && ME.slot ? [ME.slot] : ["a", "b"];
  slots.forEach((s) => {
    // Named by what it does (the entry's label: «Иванов сдаёт матч»), not by the player alone.
    const c = choices.find((x) => x.value === s);
    const label = ME.role === "player" ? t("concede_self") : c && c.label ? c.label : name(s);
    box.appendChild(btn(label, "concede-" + s, () => {
      sheet = { kind: "forfeit", side: s };
      render();
      const yes = app.querySelector("[data-action=concede-confirm]");
      if (yes) {
        yes.focus();
      }
    }, { class: "rbtn danger" }));
  });
  box.appendChild(btn(t("cancel"), "concede-cancel", closeSheet, { class: "rbtn" }));
  return box;
}

/* Any sheet closes with Cancel or Escape; the focus goes back to what opened it. */
function closeSheet() {
  const was = sheet;
  sheet = null;
  pick = {};
  render();
  let el = null;
  if (was && was.kind === "forfeit") {
    el = app.querySelector("[data-action=forfeit]");
  } else if (was && was.back) {
    let sel = `[data-action="${was.back.action}"]`;
    if (was.back.n !== null) {
      sel += `[data-n="${was.back.n}"]`;
    }
    el = app.querySelector(sel);
  }
  el = el || app.querySelector(".ref-action [data-action]:not(:disabled)");
  if (el) {
    el.focus();
  }
}

// --- start -------------------------------------------------------------------------------

function start() {
  const initial = JSON.parse(document.getElementById("match-data").textContent);
  queue = new Queue(initial && initial.id ? initial.id : root.getAttribute("data-match"));
  // A reload offline gets the page from the service worker: the last match this phone heard
  // of may be newer than the one baked into that page.
  const kept = queue.lastMatch();
  if (kept && kept.data && (!initial || !initial.state || kept.data.version > initial.version)) {
    match = normalise(kept.data);
    receivedAt = kept.at;
  } else if (initial && initial.state) {
    accept(initial);
  }
  render();
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && sheet) {
      e.preventDefault();
      closeSheet();
    }
  });
  window.addEventListener("online", () => {
    attempt = 0;
    clearTimeout(retryTimer);
    if (queue.length) {
      flush();
    } else {
      refresh();
    }
  });
  window.addEventListener("offline", () => {
    offline = true;
    render();
  });
  if (queue.length) {
    flush();
  } else {
    refresh();
  }
  follow(root.getAttribute("data-match"));
  setInterval(() => {
    const due = Date.now() - lastPoll >= (streamOpen ? STREAM_POLL_MS : POLL_MS) - 100;
    if (due && !document.hidden && !sending && !queue.length) {
      refresh();
    }
  }, POLL_MS);
  registerServiceWorker();
}

/* The page, its scripts and styles are kept by a service worker so a reload while the Wi-Fi
 * is down still opens the form (templates/matches/referee_sw.js). */
function registerServiceWorker() {
  const url = root.getAttribute("data-sw");
  if (!url || !("serviceWorker" in navigator)) {
    return;
  }
  // No scope given: the worker's folder (/m/), which covers every form (/m/<pk>/score/). A
  // scope of the worker's own URL covered no page, so the worker never took a form over.
  navigator.serviceWorker
    .register(url)
    .then(() => navigator.serviceWorker.ready)
    .then((reg) => {
      if (reg.active) {
        reg.active.postMessage({ type: "keep", urls: [location.pathname] });
      }
    })
    .catch(() => {});
}

start();
