/* The referee form: one match, on a phone at the table.
 *
 * Everything shown follows the engine's `awaiting` and `turn`. Each tap that changes the
 * match is one user action with one idempotency key (made once, reused on every retry), so a
 * double tap or a retry after a dropped connection never applies an event twice; buttons are
 * disabled while a request is in flight. A 409 (another device moved the match on) is not an
 * error page: the screen re-renders from the match in the response.
 */
(function () {
  "use strict";

  var root = document.getElementById("referee");
  if (!root) {
    return;
  }
  var T = JSON.parse(document.getElementById("referee-ui").textContent);
  var meNode = document.getElementById("referee-me");
  // Who scores: {role: "organiser"|"referee"|"player", slot: "a"|"b"|null}.
  var ME = meNode ? JSON.parse(meNode.textContent) || {} : {};
  var API = root.getAttribute("data-api");
  var POLL_MS = 4000;
  var RETRY_DELAYS_MS = [800, 1600, 3200, 5000];

  var match = null; // the last match the server sent
  var pending = null; // {url, body, attempt} of the action in flight
  var sheet = null; // an open secondary panel: {kind, ...}
  var pick = { a: 0, b: 0, legal: 0 }; // counts chosen before a confirming tap
  var notice = null; // {text, kind}
  var app = document.getElementById("ref-app");

  // --- helpers ------------------------------------------------------------------------

  function t(key, params) {
    var s = T.text[key] || key;
    if (params) {
      Object.keys(params).forEach(function (k) {
        s = s.split("%(" + k + ")s").join(String(params[k]));
      });
    }
    return s;
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) {
      return crypto.randomUUID();
    }
    // Plain-HTTP club networks are not a secure context: no randomUUID, but getRandomValues.
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(b, function (x) {
      return (x + 0x100).toString(16).slice(1);
    }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" +
      hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) {
      return decodeURIComponent(m[1]);
    }
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  function h(tag, props) {
    var el = document.createElement(tag);
    props = props || {};
    Object.keys(props).forEach(function (k) {
      var v = props[k];
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
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
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
    var props = { type: "button", class: "rbtn", "data-action": action, onclick: onclick };
    Object.keys(extra || {}).forEach(function (k) {
      props[k] = extra[k];
    });
    if (pending) {
      props.disabled = true;
    }
    return h("button", props, label);
  }

  function name(side) {
    var p = match.players[side];
    return p ? p.name : "—";
  }

  // A self-scoring player waits while the judge is called: only the judge acts then.
  function judgeHolds() {
    var judge = (match.raw && match.raw.judge) || {};
    var closed = match.state.finished || ["finished", "walkover", "void"].indexOf(match.status) >= 0;
    return ME.role === "player" && !!judge.called && !closed;
  }

  function other(side) {
    return side === "a" ? "b" : "a";
  }

  // --- the match as the API sends it ---------------------------------------------------

  function normalise(m) {
    var st = m.state || {};
    var players = m.players || { a: m.player_a, b: m.player_b };
    var head = m.head_start || (st.ruleset && st.ruleset.head_start) || { a: 0, b: 0 };
    var clock = m.clock || {};
    return {
      raw: m,
      id: m.id,
      version: m.version,
      status: m.status,
      state: st,
      players: players,
      head: head,
      table: m.table && typeof m.table === "object" ? m.table.number : m.table,
      clock: clock,
      events: m.last_events || [],
    };
  }

  function matchFrom(body) {
    if (!body) {
      return null;
    }
    if (body.match && body.match.state) {
      return body.match;
    }
    if (body.current && body.current.state) {
      return body.current;
    }
    return body.state ? body : null;
  }

  // --- talking to the API ----------------------------------------------------------------

  function act(path, body) {
    if (pending) {
      return; // one action at a time: a second tap while the first is in flight is ignored
    }
    body.idempotency_key = uuid();
    // The log's writes (events, undo) are refused when the match moved on; the clock and
    // the judge call act on the match as it is.
    var logWrite = path === "events/" || path === "undo/";
    if (match && logWrite && body.expected_version === undefined) {
      body.expected_version = match.version;
    }
    pending = { url: API + path, body: body, attempt: 0 };
    notice = null;
    render();
    send();
  }

  function send() {
    var p = pending;
    fetch(p.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": csrfToken(),
      },
      body: JSON.stringify(p.body),
    })
      .then(function (response) {
        return response.text().then(function (text) {
          var data = null;
          try {
            data = text ? JSON.parse(text) : null;
          } catch (e) {
            data = null;
          }
          return { status: response.status, data: data };
        });
      })
      .then(function (r) {
        if (r.status >= 500) {
          retry();
          return;
        }
        pending = null;
        var m = matchFrom(r.data);
        if (r.status >= 200 && r.status < 300) {
          sheet = null;
          pick = { a: 0, b: 0, legal: 0 };
          if (m) {
            match = normalise(m);
          } else {
            refresh();
          }
        } else if (r.status === 409) {
          sheet = null;
          notice = { kind: "warn", text: t("stale") };
          if (m) {
            match = normalise(m);
          } else {
            refresh();
          }
        } else if (r.status === 403 || r.status === 401) {
          // The API says why when it knows (a judge call, a concession for the opponent).
          notice = { kind: "error", text: (r.data && r.data.code && r.data.message) || t("forbidden") };
          refresh();
        } else {
          var msg = r.data && r.data.message;
          notice = { kind: "error", text: msg || t("rejected") };
          if (m) {
            match = normalise(m);
          }
        }
        render();
      })
      .catch(function () {
        retry();
      });
  }

  function retry() {
    var p = pending;
    notice = { kind: "warn", text: t("offline") };
    var delay = RETRY_DELAYS_MS[Math.min(p.attempt, RETRY_DELAYS_MS.length - 1)];
    p.attempt += 1;
    render();
    // The same body, so the same idempotency key: the server applies it at most once.
    setTimeout(function () {
      if (pending === p) {
        send();
      }
    }, delay);
  }

  function refresh() {
    return fetch(API, { credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-cache" })
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (m) {
        if (m && !pending && (!match || m.version !== match.version || clockChanged(m))) {
          match = normalise(m);
          render();
        }
      })
      .catch(function () {});
  }

  function clockChanged(m) {
    var a = m.clock || {};
    var b = match.clock || {};
    return a.running !== b.running || a.expired !== b.expired || m.status !== match.status;
  }

  function event(ev) {
    act("events/", { event: ev });
  }

  // --- rendering ----------------------------------------------------------------------------

  function render() {
    if (!match) {
      return;
    }
    var st = match.state;
    if (!st.discipline) {
      app.replaceChildren(h("p", { class: "ref-loading" }, t("waiting")));
      return;
    }
    var view = h("div", { class: "ref" + (pending ? " busy" : "") });
    view.appendChild(renderScore(st));
    view.appendChild(renderClock());
    if (notice) {
      view.appendChild(h("div", { class: "ref-notice " + notice.kind, role: "alert" }, notice.text,
        pending ? h("button", { type: "button", class: "rbtn small", "data-action": "retry-now", onclick: function () {
          if (pending) {
            send();
          }
        } }, t("retry")) : null));
    }
    if (st.to_spot > 0) {
      view.appendChild(h("div", { class: "ref-spot", role: "status", "data-to-spot": st.to_spot },
        spotHint(st.to_spot)));
    }
    if (st.golden_ball) {
      view.appendChild(h("div", { class: "ref-golden" }, t("golden_ball")));
    }
    if (judgeHolds()) {
      sheet = null;
      view.appendChild(h("section", { class: "ref-action ref-judge-wait", role: "status", "data-judge-wait": "" },
        h("h2", { class: "ref-prompt" }, t("judge_coming"))));
    } else {
      view.appendChild(sheet && sheet.kind !== "forfeit" ? renderSheet(st) : renderAction(st));
    }
    view.appendChild(renderFooter(st));
    app.replaceChildren(view);
    if (window.LuzaClock) {
      window.LuzaClock.scan(app);
    }
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
          act("clock/", { action: "pause" });
        }, { class: "rbtn clockbtn" });
      } else if (started) {
        control = btn(t("resume"), "clock-resume", function () {
          act("clock/", { action: "resume" });
        }, { class: "rbtn clockbtn primary" });
      } else {
        control = btn(t("start"), "clock-start", function () {
          act("clock/", { action: "start" });
        }, { class: "rbtn clockbtn primary" });
      }
    }
    var label = c.running ? t("clock_running") : started ? t("clock_paused") : t("clock_not_started");
    return h("section", { class: "ref-clock" + (c.running ? " running" : "") },
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
        }, { class: cls, "data-n": String(n), "aria-pressed": opts.selected === undefined ? null : String(opts.selected === n) }));
      })(n);
    }
    return grid;
  }

  function prompt(text, who) {
    return h("h2", { class: "ref-prompt" }, who ? h("span", { class: "who" }, who) : null, who ? " " : null, text);
  }

  function renderAction(st) {
    var box = h("section", { class: "ref-action", "data-awaiting": String(st.awaiting) });
    var p = st.turn;
    var duplex = st.discipline === "duplex";
    if (st.finished) {
      box.appendChild(h("div", { class: "ref-finished" },
        h("img", { class: "trophy", src: T.trophy, alt: "", width: "56", height: "56" }),
        h("h2", null, t("winner", { name: name(st.winner) })),
        h("p", { class: "muted" }, t("end_" + (st.end_reason || "frames")))));
      // After the match: straight on to the next one called to this table.
      if (root.dataset.tableUrl) {
        box.appendChild(h("p", null, h("a", { class: "btn primary", href: root.dataset.tableUrl },
          root.dataset.tableLabel)));
      }
      return box;
    }
    switch (st.awaiting) {
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
          }));
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
          }, { zero: t("miss") }));
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
      }, { selected: pick[c] }));
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
    if (shot && st.discipline !== "duplex") {
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
      btn(t("cancel"), "cancel", function () {
        sheet = null;
        render();
      }, { class: "rbtn small ghost" }));
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
      }));
    } else if (sheet.kind === "fool") {
      box.appendChild(sheetHead(t("fool") + " — " + name(p)));
      box.appendChild(h("p", { class: "ref-label" }, t("fool_legal_too")));
      box.appendChild(numbers(Math.max(0, max - 1), "fool-legal", function (n) {
        pick.legal = n;
        render();
      }, { selected: pick.legal }));
      box.appendChild(h("p", { class: "ref-label" }, t("fool_count")));
      box.appendChild(numbers(max - pick.legal, "fools", function (n) {
        event({ type: "shot", player: p, pocketed: pick.legal, fools: n });
      }, { from: 1 }));
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
        }, { from: off ? 1 : 0 }));
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
      list.appendChild(btn(h("span", null,
        h("span", { class: "foul-title" }, h("strong", null, f.title), " ", h("span", { class: "rule" }, f.rule)),
        h("span", { class: "foul-wording", lang: "ru" }, f.wording)), "foul-" + f.code, function () {
        onpick(f.code);
      }, { class: "rbtn foul", "data-code": f.code }));
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
      act("undo/", {});
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
          act("judge/", { action: "call" });
        }, { class: "rbtn ghost small" }));
      }
    }
    if (sheet && sheet.kind === "forfeit") {
      var row = h("div", { class: "ref-options two forfeit" }, h("p", { class: "ref-label" }, t("who_concedes")));
      // A player concedes only for themselves; a referee or an organiser records either.
      var slots = ME.role === "player" && ME.slot ? [ME.slot] : ["a", "b"];
      slots.forEach(function (s) {
        row.appendChild(btn(ME.role === "player" ? t("concede_self") : name(s), "concede-" + s, function () {
          event({ type: "forfeit", player: s });
        }, { class: "rbtn danger" }));
      });
      foot.appendChild(row);
    }
    var evs = match.events.slice(-6).reverse();
    if (evs.length) {
      var list = h("ol", { class: "events ref-events" });
      evs.forEach(function (e) {
        list.appendChild(h("li", { class: e.undone ? "undone" : "" }, h("span", { class: "t" }, "#" + e.seq),
          h("span", null, describe(e))));
      });
      foot.appendChild(h("h3", null, t("last_events")));
      foot.appendChild(list);
    }
    return foot;
  }

  // --- start -------------------------------------------------------------------------------

  var initial = document.getElementById("match-data");
  if (initial) {
    var data = JSON.parse(initial.textContent);
    if (data && data.state) {
      match = normalise(data);
      render();
    }
  }
  refresh();
  setInterval(function () {
    if (!document.hidden && !pending) {
      refresh();
    }
  }, POLL_MS);
})();
