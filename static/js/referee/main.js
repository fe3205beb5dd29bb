/* The referee form: one match, on a phone at the table.
 *
 * Everything shown follows the engine's `awaiting` and `turn` as the server sends them; no
 * rule is computed here. Each tap that changes the match goes into a queue kept on the phone
 * (queue.js) with one idempotency key, made when tapped and reused on every attempt, so a
 * double tap or a resend after a dropped connection never applies an event twice. Online, one
 * tap is in flight at a time and the buttons wait for its answer. Offline (club Wi-Fi), taps
 * keep being queued, shown as pending in the log, survive a reload, and leave in order when
 * the connection is back; a refused one (the match moved on, an impossible event) stops the
 * queue and the referee sees what was refused and the current state.
 */
import { get, matchFrom, post } from "./api.js";
import { Queue } from "./queue.js";

const root = document.getElementById("referee");
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
const RETRY_DELAYS_MS = [800, 1600, 3200, 5000];

let match = null; // the last match the server sent
let receivedAt = Date.now(); // when it was received: the clock counts on from there
let sheet = null; // an open secondary panel: {kind, ...}
let pick = { a: 0, b: 0, legal: 0 }; // counts chosen before a confirming tap
let notice = null; // {text, kind}
let sending = false; // a request of the queue is in flight
let offline = !navigator.onLine; // the last attempt found no network
let attempt = 0;
let retryTimer = null;
let refused = null; // {item, message}: the queue stopped here
let shooterOffline = null; // offline, the referee says who is at the table
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

function h(tag, props) {
  let el = document.createElement(tag);
  props = props || {};
  Object.keys(props).forEach(function (k) {
    let v = props[k];
    if (v === null || v === undefined || v === false) {
      return;
    }
    if (k === "class") {
      el.className = v;
    } else if (k === "text") {
      el.textContent = v;
    } else if (k === "onclick") {
      el.addEventListener("click", v);
    } else if (k === "disabled") {
      el.disabled = true;
    } else {
      el.setAttribute(k, v === true ? "" : v);
    }
  });
  for (let i = 2; i < arguments.length; i++) {
    let c = arguments[i];
    if (c === null || c === undefined || c === false) {
      continue;
    }
    if (Array.isArray(c)) {
      c.forEach(function (x) {
        if (x) {
          el.appendChild(typeof x === "string" ? document.createTextNode(x) : x);
        }
      });
    } else {
      el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
  }
  return el;
}

function btn(label, action, onclick, extra) {
  let props = { type: "button", class: "rbtn", "data-action": action, onclick: onclick };
  Object.keys(extra || {}).forEach(function (k) {
    props[k] = extra[k];
  });
  if (locked()) {
    props.disabled = true;
  }
  return h("button", props, label);
}

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

function other(side) {
  return side === "a" ? "b" : "a";
}


// --- the match as the API sends it ---------------------------------------------------

function normalise(m) {
  const st = m.state || {};
  return {
    raw: m,
    id: m.id,
    version: m.version,
    status: m.status,
    state: st,
    players: m.players || { a: m.player_a, b: m.player_b },
    head: m.head_start || (st.ruleset && st.ruleset.head_start) || { a: 0, b: 0 },
    table: m.table && typeof m.table === "object" ? m.table.number : m.table,
    clock: m.clock || {},
    events: m.last_events || [],
  };
}

function accept(m) {
  match = normalise(m);
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
  pick = { a: 0, b: 0, legal: 0 };
  render();
  flush();
}

function event(ev) {
  write("events/", { event: ev });
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
  sending = true;
  render();
  let r;
  try {
    r = await post(API + item.path, item.body);
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
  announce(notice.text);
  if (m) {
    accept(m);
  } else {
    refresh();
  }
  render();
}

function discardQueue() {
  queue.clear();
  refused = null;
  notice = null;
  shooterOffline = null;
  render();
  refresh();
}

async function refresh() {
  let m = null;
  try {
    m = await get(API);
  } catch (e) {
    offline = true;
    render();
    return;
  }
  if (m && !sending && !queue.length && (!match || m.version !== match.version || clockChanged(m))) {
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
  return evs.length ? describe(evs[evs.length - 1]) : "";
}

function describeItem(item) {
  if (item.path === "events/") {
    return describe({ kind: "event", event: item.body.event });
  }
  if (item.path === "undo/") {
    return t("undo");
  }
  return item.path.replace("/", "");
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

function render() {
  if (!match) {
    return;
  }
  const st = match.state;
  if (!st.discipline) {
    app.replaceChildren(h("p", { class: "ref-loading" }, t("waiting")));
    return;
  }
  const key = focusKey() || focusWanted;
  const hadFocus = app.contains(document.activeElement);
  const view = h("div", { class: "ref" + (locked() ? " busy" : "") + (offline ? " offline" : "") });
  view.appendChild(renderScore(st));
  view.appendChild(renderClock());
  if (offline || queue.length) {
    view.appendChild(renderQueueNotice());
  }
  if (notice) {
    view.appendChild(h("div", { class: "ref-notice " + notice.kind, role: "alert" }, notice.text,
      // Not btn(): that one is disabled while the refusal holds the queue, and this is the
      // way out of it.
      refused ? h("button", { type: "button", class: "rbtn small", "data-action": "discard-queue", onclick: discardQueue },
        t("discard")) : null));
  }
  if (st.to_spot > 0) {
    view.appendChild(h("div", { class: "ref-spot", "data-to-spot": st.to_spot }, spotHint(st.to_spot)));
  }
  if (st.golden_ball) {
    view.appendChild(h("div", { class: "ref-golden" }, t("golden_ball")));
  }
  if (judgeHolds()) {
    sheet = null;
    view.appendChild(h("section", { class: "ref-action ref-judge-wait", "data-judge-wait": "" },
      h("h2", { class: "ref-prompt" }, t("judge_coming"))));
  } else {
    view.appendChild(sheet && sheet.kind !== "forfeit" ? renderSheet(st) : renderAction(st));
  }
  view.appendChild(renderFooter(st));
  app.replaceChildren(view);
  if (window.LuzaClock) {
    window.LuzaClock.scan(app);
  }
  restoreFocus(key, hadFocus);
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
    return "shot";
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

function spotHint(n) {
  return T.spot[n] || T.spot["16"];
}

function renderScore(st) {
  var duplex = st.discipline === "duplex";
  function side(s) {
    var score = duplex ? plusOf(st, s) : st.score[s];
    var sub = [];
    if (!duplex && match.head[s]) {
      sub.push(t("head_start", { n: match.head[s] }));
    }
    if (!duplex && st.debt && st.debt[s]) {
      sub.push(t("debt", { n: st.debt[s] }));
    }
    if (duplex && st.frame === 3 && st.minus && st.minus[s]) {
      sub.push(t("minus", { n: st.minus[s] }));
    }
    return h("div", { class: "ref-side" + (st.turn === s ? " turn" : ""), "data-side": s },
      h("div", { class: "ref-name" }, name(s)),
      h("div", { class: "ref-score", "data-score": s }, String(score)),
      h("div", { class: "ref-sub" }, sub.join(" · ")));
  }
  var info = [];
  if (duplex) {
    info.push(t("frame_of", { n: st.frame }));
    info.push(t("duplex_table", { a: st.table.a, b: st.table.b }));
  } else {
    if (st.ruleset && st.ruleset.frames_to_win > 1) {
      info.push(t("frames", { a: st.frames.a, b: st.frames.b }));
    }
    info.push(t("to_win", { n: st.ruleset ? st.ruleset.balls_to_win : "" }));
    info.push(t("on_table", { n: st.balls_on_table }));
  }
  return h("section", { class: "ref-board" },
    h("div", { class: "ref-sides" }, side("a"), h("div", { class: "ref-colon" }, ":"), side("b")),
    h("div", { class: "ref-info" }, info.join(" · ")));
}

function plusOf(st, s) {
  if (st.final) {
    return st.final[s];
  }
  var sum = 0;
  (st.frame_points || []).forEach(function (fp) {
    sum += fp[s] || 0;
  });
  return sum;
}

function renderClock() {
  var c = match.clock || {};
  var remaining = c.remaining_seconds;
  if (remaining !== null && remaining !== undefined && c.running) {
    remaining = Math.max(0, remaining - (Date.now() - receivedAt) / 1000);
  }
  if (remaining === null || remaining === undefined) {
    return h("section", { class: "ref-clock off" }, t("no_clock"));
  }
  var status = match.status;
  var finished = match.state.finished || status === "finished" || status === "walkover";
  if (finished) {
    return h("section", { class: "ref-clock" },
      h("div", null, h("div", { class: "ref-clock-label" }, t("clock_played")),
        h("span", { class: "clock" }, window.LuzaClock.format(c.elapsed_seconds || 0))));
  }
  var started = ["scheduled", "ready", "on_table"].indexOf(status) < 0;
  var clockEl = h("span", {
    class: "clock" + (c.running ? "" : " paused"),
    "data-clock": "",
    "data-remaining": String(remaining),
    "data-running": c.running ? "1" : "0",
    "data-warn-below": "600",
  }, window.LuzaClock.format(remaining));
  var control = null;
  if (!finished && !c.expired && !judgeHolds()) {
    if (c.running) {
      control = btn(t("pause"), "clock-pause", function () {
        write("clock/", { action: "pause" });
      }, { class: "rbtn clockbtn" });
    } else if (started) {
      control = btn(t("resume"), "clock-resume", function () {
        write("clock/", { action: "resume" });
      }, { class: "rbtn clockbtn primary" });
    } else {
      control = btn(t("start"), "clock-start", function () {
        write("clock/", { action: "start" });
      }, { class: "rbtn clockbtn primary" });
    }
  }
  var label = c.running ? t("clock_running") : started ? t("clock_paused") : t("clock_not_started");
  if (offline) {
    label += " · " + t("clock_offline");
  }
  return h("section", { class: "ref-clock" + (c.running ? " running" : "") + (offline ? " offline" : "") },
    h("div", null, h("div", { class: "ref-clock-label" }, label), clockEl), control);
}

function numbers(max, action, onpick, opts) {
  opts = opts || {};
  var from = opts.from || 0;
  var grid = h("div", { class: "numpad", role: "group", "aria-label": opts.label || "" });
  for (var n = from; n <= max; n++) {
    (function (n) {
      var label = n === 0 && opts.zero ? opts.zero : String(n);
      var cls = "rbtn num" + (opts.selected === n ? " selected" : "") + (n === 0 && opts.zero ? " zero" : "");
      grid.appendChild(btn(label, action, function () {
        onpick(n);
      }, { class: cls, "data-n": String(n), "aria-label": numberName(n, opts), "aria-pressed": opts.selected === undefined ? null : String(opts.selected === n) }));
    })(n);
  }
  return grid;
}

/* What a number button does, said in full: «3 шара — Алексеев», «2 дурака — Алексеев». */
function numberName(n, opts) {
  const what = n === 0 && opts.zero ? opts.zero : ((opts.unit || T.balls)[n] || String(n));
  return opts.who ? what + " — " + opts.who : what;
}

function prompt(text, who) {
  return h("h2", { class: "ref-prompt" }, who ? h("span", { class: "who" }, who) : null, who ? " " : null, text);
}

function renderAction(st) {
  var awaiting = awaitingShown(st);
  var box = h("section", { class: "ref-action", "data-awaiting": String(awaiting) });
  var p = shooter(st);
  var duplex = st.discipline === "duplex";
  if (st.finished) {
    box.appendChild(h("div", { class: "ref-finished" },
      h("img", { class: "trophy", src: T.trophy, alt: "", width: "56", height: "56" }),
      h("h2", null, t("winner", { name: name(st.winner) })),
      h("p", { class: "muted" }, t("end_" + (st.end_reason || "frames"))),
      // A finished match never reopens: a mistake is fixed by the result correction.
      CORRECT_URL ? h("a", { class: "rbtn", href: CORRECT_URL, "data-action": "correct" }, t("correct_result")) : null));
    // After the match: straight on to the next one called to this table.
    if (root.dataset.tableUrl) {
      box.appendChild(h("p", null, h("a", { class: "btn primary", href: root.dataset.tableUrl },
        root.dataset.tableLabel)));
    }
    return box;
  }
  if (offline && (awaiting === "break" || awaiting === "shot")) {
    box.appendChild(shooterSwitch(st));
  }
  switch (awaiting) {
    case "break":
      box.appendChild(prompt(t("breaks"), name(p)));
      if (duplex) {
        box.appendChild(colourPick(st));
        box.appendChild(h("div", { class: "ref-row" },
          btn(t("legal_break"), "break-legal", function () {
            event({ type: "break", player: p, legal: true, pocketed: { a: pick.a, b: pick.b } });
          }, { class: "rbtn primary wide" }),
          btn(t("illegal_break"), "break-illegal", function () {
            event({ type: "break", player: p, legal: false, pocketed: { a: pick.a, b: pick.b } });
          }, { class: "rbtn danger wide" })));
      } else {
        box.appendChild(h("p", { class: "ref-label" }, t("break_pocketed")));
        box.appendChild(numbers(st.balls_on_table, "break", function (n) {
          event({ type: "break", player: p, legal: true, pocketed: n });
        }, { who: name(p), label: t("break_pocketed") }));
        box.appendChild(h("div", { class: "ref-row" },
          btn(t("illegal_break") + " (" + t("rule_illegal_break") + ")", "break-illegal", function () {
            sheet = { kind: "illegal_break" };
            render();
          }, { class: "rbtn danger wide" })));
      }
      box.appendChild(moreRow(st, false));
      break;
    case "shot":
      box.appendChild(prompt(t("shoots"), name(p)));
      if (duplex) {
        box.appendChild(colourPick(st));
        box.appendChild(h("div", { class: "ref-row" },
          btn(t("miss"), "miss", function () {
            event({ type: "shot", player: p, pocketed: { a: 0, b: 0 } });
          }, { class: "rbtn wide" }),
          btn(t("record_shot"), "shot", function () {
            event({ type: "shot", player: p, pocketed: { a: pick.a, b: pick.b } });
          }, { class: "rbtn primary wide", disabled: pick.a + pick.b === 0 })));
      } else {
        box.appendChild(h("p", { class: "ref-label" }, t("pocketed_legally")));
        box.appendChild(numbers(st.balls_on_table, "pot", function (n) {
          event({ type: "shot", player: p, pocketed: n });
        }, { zero: t("miss"), who: name(p), label: t("pocketed_legally") }));
      }
      box.appendChild(moreRow(st, true));
      break;
    case "choice":
      box.appendChild(prompt(t("chooses"), name(p)));
      box.appendChild(h("p", { class: "ref-label" }, t("after_foul_of", { name: name(st.offender || other(p)) })));
      box.appendChild(optionList(st.options, "choice", p));
      box.appendChild(moreRow(st, false));
      break;
    case "rerack":
      box.appendChild(prompt(t("rerack_prompt"), name(p)));
      box.appendChild(optionList(st.options, "rerack", p));
      box.appendChild(moreRow(st, false));
      break;
    case "penalty_removal":
      box.appendChild(prompt(t("removes"), name(p)));
      var row = h("div", { class: "ref-options" });
      ["a", "b"].forEach(function (c) {
        row.appendChild(btn(h("span", null, h("strong", null, t("colour_of", { name: name(c) })),
          h("small", null, t("on_table", { n: st.table[c] }))), "removal-" + c, function () {
          event({ type: "penalty_removal", player: p, colour: c });
        }, { class: "rbtn option", disabled: !st.table[c] }));
      });
      box.appendChild(row);
      break;
    case "choose_breaker":
      box.appendChild(prompt(t("choose_breaker"), name(p)));
      var r2 = h("div", { class: "ref-options" });
      ["a", "b"].forEach(function (c) {
        r2.appendChild(btn(name(c), "breaker-" + c, function () {
          event({ type: "choose_breaker", player: p, breaker: c });
        }, { class: "rbtn option" }));
      });
      box.appendChild(r2);
      break;
    default:
      box.appendChild(h("p", null, t("waiting")));
  }
  return box;
}

function colourPick(st) {
  var wrap = h("div", { class: "ref-colours" });
  ["a", "b"].forEach(function (c) {
    wrap.appendChild(h("p", { class: "ref-label" }, t("pocketed_colour", { name: name(c) })));
    wrap.appendChild(numbers(st.table[c], "colour-" + c, function (n) {
      pick[c] = n;
      render();
    }, { selected: pick[c], label: t("pocketed_colour", { name: name(c) }) }));
  });
  return wrap;
}

function optionList(options, type, p) {
  var list = h("div", { class: "ref-options" });
  (options || []).forEach(function (o) {
    list.appendChild(btn(h("span", null, h("strong", null, T.options[o] || o),
      T.option_hints[o] ? h("small", null, T.option_hints[o]) : null), type + "-" + o, function () {
      event({ type: type, player: p, option: o });
    }, { class: "rbtn option" + (o === "play" || o === "full" ? " primary" : "") }));
  });
  return list;
}

function moreRow(st, shot) {
  var row = h("div", { class: "ref-more" });
  if (shot && T.rules && T.rules.fool_button) {  // the rules in force say whether fools count
    row.appendChild(btn(t("fool"), "open-fool", function () {
      sheet = { kind: "fool" };
      pick.legal = 0;
      render();
    }, { class: "rbtn" }));
  }
  if (shot) {
    row.appendChild(btn(t("foul"), "open-foul", function () {
      sheet = { kind: "foul" };
      render();
    }, { class: "rbtn warn" }));
  }
  row.appendChild(btn(t("foul_outside"), "open-foul-event", function () {
    sheet = { kind: "foul_event" };
    render();
  }, { class: "rbtn" }));
  return row;
}

function sheetHead(title) {
  return h("div", { class: "sheet-head" }, h("h2", null, title),
    btn(t("cancel"), "cancel", closeSheet, { class: "rbtn small ghost" }));
}

function renderSheet(st) {
  var box = h("section", { class: "ref-action sheet", "data-sheet": sheet.kind });
  var p = st.turn;
  var max = st.discipline === "duplex" ? st.table.a + st.table.b : st.balls_on_table;
  if (sheet.kind === "illegal_break") {
    box.appendChild(sheetHead(t("illegal_break") + " — " + name(p)));
    box.appendChild(h("p", { class: "ref-label" }, t("illegal_break_balls")));
    box.appendChild(numbers(max, "illegal-break-n", function (n) {
      event({ type: "break", player: p, legal: false, pocketed: n });
    }, { who: name(p), label: t("illegal_break_balls") }));
  } else if (sheet.kind === "fool") {
    box.appendChild(sheetHead(t("fool") + " — " + name(p)));
    box.appendChild(h("p", { class: "ref-label" }, t("fool_legal_too")));
    box.appendChild(numbers(Math.max(0, max - 1), "fool-legal", function (n) {
      pick.legal = n;
      render();
    }, { selected: pick.legal, who: name(p), label: t("fool_legal_too") }));
    box.appendChild(h("p", { class: "ref-label" }, t("fool_count")));
    box.appendChild(numbers(max - pick.legal, "fools", function (n) {
      event({ type: "shot", player: p, pocketed: pick.legal, fools: n });
    }, { from: 1, unit: T.fools, who: name(p), label: t("fool_count") }));
  } else if (sheet.kind === "foul") {
    if (!sheet.code) {
      box.appendChild(sheetHead(t("foul") + " — " + name(p)));
      box.appendChild(foulList(T.shot_fouls, function (code) {
        sheet.code = code;
        if (st.discipline === "duplex" && code !== "ball_off_table") {
          // Duplex: the pocketed colours were picked on the main screen.
          event({ type: "shot", player: p, pocketed: { a: pick.a, b: pick.b }, foul: code });
          return;
        }
        render();
      }));
    } else {
      var off = sheet.code === "ball_off_table";
      box.appendChild(sheetHead(T.foul_titles[sheet.code]));
      box.appendChild(h("p", { class: "ref-label" }, off ? t("off_table_count") : t("foul_balls")));
      box.appendChild(numbers(max, "foul-n", function (n) {
        var ev = { type: "shot", player: p, foul: off ? null : sheet.code };
        if (off) {
          ev.off_table = n;
          ev.foul = "ball_off_table";
        }
        if (st.discipline === "duplex") {
          ev.pocketed = { a: pick.a, b: pick.b };
          ev.off_table = n;
        } else if (!off) {
          ev.pocketed = n;
        }
        event(ev);
      }, { from: off ? 1 : 0, who: name(p), label: off ? t("off_table_count") : t("foul_balls") }));
    }
  } else if (sheet.kind === "foul_event") {
    if (!sheet.code) {
      box.appendChild(sheetHead(t("foul_outside")));
      box.appendChild(foulList(T.event_fouls, function (code) {
        sheet.code = code;
        render();
      }));
    } else {
      box.appendChild(sheetHead(T.foul_titles[sheet.code]));
      box.appendChild(h("p", { class: "ref-label" }, t("who_fouled")));
      var row = h("div", { class: "ref-options two" });
      ["a", "b"].forEach(function (s) {
        row.appendChild(btn(name(s), "offender-" + s, function () {
          event({ type: "foul", player: s, foul: sheet.code });
        }, { class: "rbtn option" }));
      });
      box.appendChild(row);
    }
  }
  return box;
}

function foulList(fouls, onpick) {
  var list = h("div", { class: "foul-list" });
  fouls.forEach(function (f) {
    // A short name and the clause on the button; the rule's exact text behind a tap.
    list.appendChild(btn(h("span", null,
      h("span", { class: "foul-title" }, h("strong", null, f.title), " ", h("span", { class: "rule" }, f.rule))),
      "foul-" + f.code, function () {
      onpick(f.code);
    }, { class: "rbtn foul", "data-code": f.code }));
    if (f.quote) {
      list.appendChild(h("details", { class: "foul-quote", "data-quote": f.code },
        h("summary", null, t("rule_text") + " " + f.rule),
        h("p", { lang: "ru" }, f.quote)));
    }
  });
  return list;
}

function count(v) {
  if (v && typeof v === "object") {
    return (v.a || 0) + (v.b || 0);
  }
  return v || 0;
}

function describe(entry) {
  if (entry.kind === "undo") {
    return t("ev_undo", { seq: (entry.event || {}).seq });
  }
  var ev = entry.event || {};
  var who = ev.player ? name(ev.player) : "";
  var n = count(ev.pocketed);
  switch (ev.type) {
    case "break":
      if (ev.legal === false) {
        return t("ev_break_illegal", { who: who });
      }
      return n ? t("ev_break", { who: who, balls: T.balls[n] || n }) : t("ev_break_none", { who: who });
    case "shot":
      if (ev.foul || ev.off_table) {
        return t("ev_foul", { who: who, foul: T.foul_titles[ev.foul || "ball_off_table"] });
      }
      var parts = [];
      if (n) {
        parts.push(T.balls[n] || n);
      }
      if (ev.fools) {
        parts.push(T.fools[ev.fools] || ev.fools);
      }
      return parts.length ? who + ": " + parts.join(", ") : t("ev_miss", { who: who });
    case "foul":
      return t("ev_foul", { who: who, foul: T.foul_titles[ev.foul] || ev.foul });
    case "choice":
    case "rerack":
      return who + ": " + (T.options[ev.option] || ev.option);
    case "penalty_removal":
      return t("ev_removal", { who: who, colour: name(ev.colour) });
    case "choose_breaker":
      return t("ev_breaker", { who: who, breaker: name(ev.breaker) });
    case "time_expired":
      return t("ev_time");
    case "forfeit":
      return t("ev_forfeit", { who: who });
    default:
      return ev.type || "";
  }
}

function renderFooter(st) {
  var foot = h("section", { class: "ref-foot" });
  var closed = st.finished || ["finished", "walkover", "void"].indexOf(match.status) >= 0;
  var inForce = match.events.some(function (e) {
    return e.kind === "event" && !e.undone;
  });
  // A finished match is corrected by the organiser, not undone (the API says so too).
  var undoable = !closed && !judgeHolds() && (inForce || match.version > match.events.length);
  foot.appendChild(btn("↶ " + t("undo"), "undo", function () {
    write("undo/", {});
  }, { class: "rbtn undo", disabled: !undoable }));
  if (!closed && !judgeHolds()) {
    foot.appendChild(btn(t("forfeit"), "forfeit", function () {
      sheet = { kind: "forfeit" };
      render();
    }, { class: "rbtn ghost small" }));
  }
  var judge = match.raw.judge || {};
  if (!closed) {
    if (judge.called) {
      foot.appendChild(h("div", { class: "ref-judge", role: "status" }, t("judge_called")));
    } else {
      foot.appendChild(btn(t("call_judge"), "judge-call", function () {
        write("judge/", { action: "call" });
      }, { class: "rbtn ghost small" }));
    }
  }
  if (sheet && sheet.kind === "forfeit") {
    foot.appendChild(renderConcede());
  }
  var evs = match.events.slice(-6).reverse();
  if (evs.length || queue.length) {
    var list = h("ol", { class: "events ref-events" });
    // Taps not yet sent, newest first, with the key the server will know them by.
    queue.items.slice().reverse().forEach(function (item) {
      list.appendChild(h("li", { class: "pending", "data-key": item.key },
        h("span", { class: "t" }, "…"),
        h("span", null, describeItem(item), " ", h("small", null, t("pending") + " · " + item.key.slice(0, 8)))));
    });
    evs.forEach(function (e) {
      list.appendChild(h("li", { class: e.undone ? "undone" : "" }, h("span", { class: "t" }, "#" + e.seq),
        h("span", null, describe(e))));
    });
    foot.appendChild(h("h3", null, t("last_events")));
    foot.appendChild(list);
  }
  return foot;
}

/* Conceding ends the match: pick who, then confirm; Cancel and Escape back out. */
function renderConcede() {
  var box = h("div", { class: "ref-options two forfeit", "data-sheet": "forfeit" });
  if (sheet.side) {
    var who = name(sheet.side);
    box.appendChild(h("p", { class: "ref-label", id: "concede-q" }, t("concede_confirm", { name: who })));
    box.appendChild(btn(t("confirm"), "concede-confirm", function () {
      event({ type: "forfeit", player: sheet.side });
    }, { class: "rbtn danger", "aria-describedby": "concede-q" }));
    box.appendChild(btn(t("cancel"), "concede-cancel", closeSheet, { class: "rbtn" }));
    return box;
  }
  box.appendChild(h("p", { class: "ref-label" }, t("who_concedes")));
  // A player concedes only for themselves; a referee or an organiser records either.
  var slots = ME.role === "player" && ME.slot ? [ME.slot] : ["a", "b"];
  slots.forEach(function (s) {
    box.appendChild(btn(ME.role === "player" ? t("concede_self") : name(s), "concede-" + s, function () {
      sheet = { kind: "forfeit", side: s };
      render();
      var yes = app.querySelector("[data-action=concede-confirm]");
      if (yes) {
        yes.focus();
      }
    }, { class: "rbtn danger" }));
  });
  box.appendChild(btn(t("cancel"), "concede-cancel", closeSheet, { class: "rbtn" }));
  return box;
}

function closeSheet() {
  var opener = sheet && sheet.kind === "forfeit" ? "forfeit" : null;
  sheet = null;
  pick.legal = 0;
  render();
  var el = app.querySelector(opener ? "[data-action=" + opener + "]" : ".ref-action [data-action]:not(:disabled)");
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
  setInterval(() => {
    if (!document.hidden && !sending && !queue.length) {
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
