/* Duplex (D): each player's colour, frame N of 3, plus points of frames 1-2, the deciding
 * frame's plus, minus and provisional final, the frame's summary when it ends and the points of
 * each frame, all as the server's `view` says them; what may be entered is its `entry` (balls
 * of each colour, bounded by that colour on the table). Foul and illegal-break sheets ask their
 * own counts: nothing picked on the main screen is carried into them. */
import { btn, h, prompt } from "../dom.js";
import { board as viewBoard, buildEvent, choiceRow, countPad, endQuestion, ends, field, kindOf } from "../entry.js";

export function board(ctx) {
  const view = ctx.view;
  const extra = [];
  if (view.frame && view.frame.text) {
    extra.push(h("p", { class: "ref-frame", "data-frame": String(view.frame.number) }, view.frame.text));
  }
  if (view.provisional) {
    extra.push(h("p", { class: "ref-provisional", "data-provisional": "" },
      view.score_label + ": " + view.provisional.a + ":" + view.provisional.b));
  }
  const summary = view.frame_summary;
  if (summary) {
    extra.push(h("div", { class: "ref-frame-summary", "data-frame-summary": String(summary.frame), role: "note" },
      summary.lines.map((line) => h("p", null, line))));
  }
  // The frame has its own line above: the view's line that says it again says the
  // discipline only (no «партия N из 3» twice on one board).
  const frameText = view.frame && view.frame.text ? view.frame.text.toLowerCase() : null;
  const lines = (view.lines || []).map((l) => (frameText && l.toLowerCase().indexOf(frameText) >= 0 ? view.label : l));
  return viewBoard(ctx, extra, lines);
}

/* Under the step to enter (the step stays near the top of a phone's screen): the points of
 * each frame played. */
export function details(ctx) {
  const rows = ctx.view.frame_points || [];
  return rows.length ? h("section", { class: "ref-details" }, framePoints(ctx, rows)) : null;
}

function framePoints(ctx, rows) {
  const head = h("tr", null, h("th", { scope: "col" }, ctx.t("frame_col")),
    h("th", { scope: "col" }, ctx.name("a")), h("th", { scope: "col" }, ctx.name("b")));
  return h("table", { class: "ref-frame-points", "data-frame-points": "" },
    h("caption", null, ctx.t("frame_points")),
    h("thead", null, head),
    h("tbody", null, rows.map((row) => h("tr", { "data-frame-row": String(row.frame) },
      h("th", { scope: "row" }, String(row.frame)),
      h("td", null, String(row.points.a)), h("td", null, String(row.points.b))))));
}

/* Who acts: offline the referee may say who is at the table (the server judges). */
function actor(ctx, kind) {
  return kind.player ? ctx.shooter(ctx.st) : null;
}

function sendKind(ctx, kind, values) {
  const ev = buildEvent(kind, values);
  if (kind.player) {
    ev.player = actor(ctx, kind);
  }
  if (ctx.current && ends(kind, values)) {
    ctx.confirm(endQuestion(ctx, kind, values), ev);
  } else {
    ctx.event(ev);
  }
}

/* One number pad per colour, each named after the player whose colour it is. */
function colourPads(ctx, kind, values) {
  const wrap = h("div", { class: "ref-colours" });
  kind.fields.filter((f) => f.name.indexOf("pocketed.") === 0).forEach((f) => {
    const colour = f.name.slice("pocketed.".length);
    wrap.appendChild(countPad(ctx, kind, f, values, "colour-" + colour, { who: ctx.name(colour) }));
  });
  return wrap;
}

function picked(values) {
  return Object.keys(values).reduce((sum, k) => sum + (k.indexOf("pocketed.") === 0 ? values[k] || 0 : 0), 0);
}

export function action(ctx) {
  const { entry, t, name } = ctx;
  const awaiting = entry ? entry.awaiting : null;
  const box = h("section", { class: "ref-action", "data-awaiting": String(ctx.awaitingShown(ctx.st)) });
  if (!entry || !awaiting) {
    box.appendChild(h("p", null, t("waiting")));
    return box;
  }
  const p = ctx.shooter(ctx.st);
  if (ctx.offline && (awaiting === "break" || awaiting === "shot")) {
    box.appendChild(ctx.shooterSwitch(ctx.st));
  }
  box.appendChild(prompt(entry.prompt || "", name(p)));
  const values = ctx.pick;
  if (awaiting === "break") {
    const legal = kindOf(entry, "break");
    const illegal = kindOf(entry, "illegal_break");
    box.appendChild(colourPads(ctx, legal, values));
    box.appendChild(h("div", { class: "ref-row" },
      btn(legal.label, "break-legal", () => sendKind(ctx, legal, values), { class: "rbtn primary wide" }),
      illegal ? btn(illegal.label, "break-illegal", () => ctx.openSheet({ kind: "kind", key: "illegal_break" }),
        { class: "rbtn danger wide" }) : null));
    box.appendChild(ctx.moreRow([]));
  } else if (awaiting === "shot") {
    const shot = kindOf(entry, "shot");
    box.appendChild(colourPads(ctx, shot, values));
    const zero = {};
    box.appendChild(h("div", { class: "ref-row" },
      btn(t("miss"), "miss", () => sendKind(ctx, shot, zero), { class: "rbtn wide" }),
      btn(shot.label, "shot", () => sendKind(ctx, shot, values),
        { class: "rbtn primary wide", disabled: picked(values) === 0 })));
    const more = [];
    if (kindOf(entry, "foul_shot") || kindOf(entry, "off_table")) {
      more.push(btn(t("foul"), "open-foul", () => ctx.openSheet({ kind: "foul" }), { class: "rbtn warn" }));
    }
    box.appendChild(ctx.moreRow(more));
  } else {
    // One choice to tap: the penalty ball's colour, the option after a foul, the breaker.
    const kind = entry.kinds.find((k) => k.key !== "foul" && k.key !== "forfeit");
    if (kind) {
      const f = kind.fields[0];
      if (f.prompt) {
        box.appendChild(h("p", { class: "ref-label" }, f.prompt));
      }
      const prefix = { penalty_removal: "removal", choose_breaker: "breaker" }[kind.key] || kind.key;
      box.appendChild(choiceRow(ctx, { ...f, prompt: null }, values, prefix, (c) => {
        sendKind(ctx, kind, { [f.name]: c.value });
      }));
    }
    box.appendChild(ctx.moreRow([]));
  }
  return box;
}

/* The fouls of a shot: the foul kind's choices (with the rule's text from the form's words),
 * and the ball off the table, its own kind. */
function shotFouls(ctx) {
  const foulShot = kindOf(ctx.entry, "foul_shot");
  const off = kindOf(ctx.entry, "off_table");
  const quoted = {};
  (ctx.T.shot_fouls || []).forEach((f) => {
    quoted[f.code] = f;
  });
  const out = [];
  const codes = foulShot ? field(foulShot, "foul").choices : [];
  codes.forEach((c) => {
    out.push(quoted[c.value] || { code: c.value, title: c.label, rule: c.rule_label || "" });
  });
  if (off) {
    out.push(quoted.ball_off_table || { code: "ball_off_table", title: off.label, rule: off.rule || "" });
  }
  return out;
}

export function sheet(ctx) {
  const { t, name } = ctx;
  const s = ctx.sheet;
  const values = ctx.pick;
  const box = h("section", { class: "ref-action sheet", "data-sheet": s.kind === "kind" ? s.key : s.kind });
  const p = ctx.shooter(ctx.st);
  let kind = null;
  if (s.kind === "kind") {
    kind = kindOf(ctx.entry, s.key);
    box.appendChild(ctx.sheetHead(kind.label + " — " + name(p)));
  } else if (s.kind === "foul") {
    if (!s.code) {
      box.appendChild(ctx.sheetHead(t("foul") + " — " + name(p)));
      box.appendChild(ctx.foulList(shotFouls(ctx), (code) => {
        s.code = code;
        ctx.render();
      }));
      return box;
    }
    kind = kindOf(ctx.entry, s.code === "ball_off_table" ? "off_table" : "foul_shot");
    values.foul = s.code;
    box.appendChild(ctx.sheetHead((ctx.T.foul_titles || {})[s.code] || kind.label));
  }
  if (!kind) {
    return box;
  }
  const off = field(kind, "off_table");
  if (off) {
    box.appendChild(countPad(ctx, kind, off, values, "off-table-n"));
  }
  box.appendChild(colourPads(ctx, kind, values));
  box.appendChild(h("div", { class: "ref-row" },
    btn(t("record"), "sheet-send", () => {
      const chosen = { ...values };
      if (!field(kind, "foul")) {
        delete chosen.foul;
      }
      sendKind(ctx, kind, chosen);
    }, { class: "rbtn primary wide" })));
  return box;
}
