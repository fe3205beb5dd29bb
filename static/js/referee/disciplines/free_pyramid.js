/* Free pyramid (and its regulation's variants): a number pad per question. The numbers go up
 * to the balls on the table as the server last said; offline, taps are queued and the
 * referee says who is at the table. A ball that ends the match (the entry's `finishing`)
 * asks to confirm. */
import { btn, h, numbers, prompt } from "../dom.js";
import { bound, board as viewBoard, endQuestion, ends, field, kindOf } from "../entry.js";

export function board(ctx) {
  return viewBoard(ctx);
}

/* The highest count of a kind's field as the entry bounds it (with the others as picked);
 * the balls on the table when the entry is not for this step (offline, taps queued). */
function most(ctx, key, name, values) {
  const kind = kindOf(ctx.entry, key);
  const f = kind ? field(kind, name) : null;
  return f ? bound(kind, f, values || {}) : ctx.st.balls_on_table;
}

/* Send a count of a kind; confirm first when the engine says it ends the match. */
function sendCount(ctx, key, n, ev) {
  const kind = kindOf(ctx.entry, key);
  if (ctx.current && kind && ends(kind, { pocketed: n })) {
    ctx.confirm(endQuestion(ctx, kind, { pocketed: n }), ev);
  } else {
    ctx.event(ev);
  }
}

export function action(ctx) {
  const { st, t, name } = ctx;
  const awaiting = ctx.awaitingShown(st);
  const box = h("section", { class: "ref-action", "data-awaiting": String(awaiting) });
  const p = ctx.shooter(st);
  if (ctx.offline && (awaiting === "break" || awaiting === "shot" || awaiting === "choice")) {
    box.appendChild(ctx.shooterSwitch(st));
  }
  switch (awaiting) {
    case "break":
      box.appendChild(prompt(t("breaks"), name(p)));
      box.appendChild(h("p", { class: "ref-label" }, t("break_pocketed")));
      box.appendChild(numbers(most(ctx, "break", "pocketed"), "break", (n) => {
        sendCount(ctx, "break", n, { type: "break", player: p, legal: true, pocketed: n });
      }, { who: name(p), label: t("break_pocketed") }));
      box.appendChild(h("div", { class: "ref-row" },
        btn(t("illegal_break") + " (" + t("rule_illegal_break") + ")", "break-illegal", () => {
          ctx.openSheet({ kind: "illegal_break" });
        }, { class: "rbtn danger wide" })));
      box.appendChild(ctx.moreRow([]));
      break;
    case "shot":
      box.appendChild(prompt(t("shoots"), name(p)));
      box.appendChild(h("p", { class: "ref-label" }, t("pocketed")));
      box.appendChild(numbers(most(ctx, "shot", "pocketed"), "pot", (n) => {
        sendCount(ctx, "shot", n, { type: "shot", player: p, pocketed: n });
      }, { zero: t("miss"), who: name(p), label: t("pocketed") }));
      box.appendChild(ctx.moreRow(shotButtons(ctx)));
      break;
    case "choice": {
      // Offline with taps queued the last state's options are not this step's: after a
      // foul or a fool the chooser plays or hands the table back (G6, R).
      const opts = ctx.current ? st.options : ["play", "hand_back"];
      const offender = ctx.current ? st.offender || ctx.other(p) : ctx.other(p);
      // A fool is not a foul (R): no penalty was paid, so nobody is an offender; the
      // opponent accepts the position or asks the other player to continue.
      const fool = ctx.current && "last_penalty" in st && !st.last_penalty && opts.indexOf("rebreak_self") < 0;
      box.appendChild(prompt(t("chooses"), name(p)));
      box.appendChild(h("p", { class: "ref-label", "data-fool": fool ? "" : null },
        fool ? t("after_fool") : t("after_foul_of", { name: name(offender) })));
      box.appendChild(optionList(ctx, opts, "choice", p, fool));
      box.appendChild(ctx.moreRow([]));
      break;
    }
    case "rerack":
      box.appendChild(prompt(t("rerack_prompt"), name(p)));
      box.appendChild(optionList(ctx, st.options, "rerack", p));
      box.appendChild(ctx.moreRow([]));
      break;
    default:
      box.appendChild(h("p", null, t("waiting")));
  }
  return box;
}

function shotButtons(ctx) {
  const out = [];
  if (ctx.T.rules && ctx.T.rules.fool_button) { // the rules in force say whether fools count
    out.push(btn(ctx.t("fool"), "open-fool", () => ctx.openSheet({ kind: "fool" }), { class: "rbtn" }));
  }
  out.push(btn(ctx.t("foul"), "open-foul", () => ctx.openSheet({ kind: "foul" }), { class: "rbtn warn" }));
  return out;
}

function optionList(ctx, options, type, p, fool) {
  const { T } = ctx;
  const list = h("div", { class: "ref-options" });
  (options || []).forEach((o) => {
    const label = fool && o === "play" ? ctx.t("fool_play")
      : fool && o === "hand_back" ? ctx.t("fool_hand_back") : T.options[o] || o;
    const hint = fool ? null : T.option_hints[o];
    list.appendChild(btn(h("span", null, h("strong", null, label),
      hint ? h("small", null, hint) : null), type + "-" + o, () => {
      ctx.event({ type, player: p, option: o });
    }, { class: "rbtn option" + (o === "play" || o === "full" ? " primary" : "") }));
  });
  return list;
}

export function sheet(ctx) {
  const { st, t, name, T, pick } = ctx;
  const s = ctx.sheet;
  const box = h("section", { class: "ref-action sheet", "data-sheet": s.kind });
  const p = st.turn;
  if (s.kind === "illegal_break") {
    box.appendChild(ctx.sheetHead(t("illegal_break") + " — " + name(p)));
    // What makes a break legal under the rules in force (the regulation's strict break or
    // rule 12.1), before the referee records it as illegal.
    if (T.text.break_criteria) {
      box.appendChild(h("p", { class: "ref-criteria", "data-criteria": "" }, T.text.break_criteria));
    }
    box.appendChild(h("p", { class: "ref-label" }, t("illegal_break_balls")));
    box.appendChild(numbers(most(ctx, "illegal_break", "pocketed"), "illegal-break-n", (n) => {
      ctx.event({ type: "break", player: p, legal: false, pocketed: n });
    }, { who: name(p), label: t("illegal_break_balls") }));
  } else if (s.kind === "fool") {
    const legal = pick.legal || 0;
    box.appendChild(ctx.sheetHead(t("fool") + " — " + name(p)));
    box.appendChild(h("p", { class: "ref-label" }, t("fool_legal_too")));
    box.appendChild(numbers(most(ctx, "fool", "pocketed", { fools: 1 }), "fool-legal", (n) => {
      pick.legal = n;
      ctx.render();
    }, { selected: legal, who: name(p), label: t("fool_legal_too") }));
    box.appendChild(h("p", { class: "ref-label" }, t("fool_count")));
    box.appendChild(numbers(most(ctx, "fool", "fools", { pocketed: legal }), "fools", (n) => {
      ctx.event({ type: "shot", player: p, pocketed: legal, fools: n });
    }, { from: 1, unit: T.fools, who: name(p), label: t("fool_count") }));
  } else if (s.kind === "foul") {
    if (!s.code) {
      box.appendChild(ctx.sheetHead(t("foul") + " — " + name(p)));
      box.appendChild(ctx.foulList(T.shot_fouls, (code) => {
        s.code = code;
        ctx.render();
      }));
    } else {
      const off = s.code === "ball_off_table";
      box.appendChild(ctx.sheetHead(T.foul_titles[s.code]));
      if (off) {
        // G22.3, G24.4: balls pocketed on the same shot do not count and are spotted too.
        box.appendChild(h("p", { class: "ref-label" }, t("off_table_pocketed")));
        box.appendChild(numbers(most(ctx, "off_table", "pocketed", { off_table: 1 }), "off-pocketed", (n) => {
          pick.pocketed = n;
          ctx.render();
        }, { selected: pick.pocketed || 0, who: name(p), label: t("off_table_pocketed") }));
      }
      box.appendChild(h("p", { class: "ref-label" }, off ? t("off_table_count") : t("foul_balls")));
      const top = off ? most(ctx, "off_table", "off_table", { pocketed: pick.pocketed || 0 })
        : most(ctx, "foul_shot", "pocketed");
      box.appendChild(numbers(top, "foul-n", (n) => {
        const ev = { type: "shot", player: p, foul: off ? null : s.code };
        if (off) {
          ev.off_table = n;
          ev.foul = "ball_off_table";
          if (pick.pocketed) {
            ev.pocketed = pick.pocketed;
          }
        } else {
          ev.pocketed = n;
        }
        ctx.event(ev);
      }, { from: off ? 1 : 0, who: name(p), label: off ? t("off_table_count") : t("foul_balls") }));
    }
  }
  return box;
}
