/* Reading the discipline's description the server sends with the match: `view` (what to show)
 * and `entry` (what the referee may enter now: kinds of event with their fields, bounds,
 * choices and the values that end the match). Nothing here knows a rule: it maps the fields a
 * kind declares onto the event, as rules.describe.build_event does. */
import { btn, h, numbers } from "./dom.js";

export function kindOf(entry, key) {
  return ((entry && entry.kinds) || []).find((k) => k.key === key) || null;
}

export function field(kind, name) {
  return (kind ? kind.fields : []).find((f) => f.name === name) || null;
}

/* The event a kind sends with these field values (defaults for the others). */
export function buildEvent(kind, values) {
  values = values || {};
  const ev = { type: kind.type };
  if (kind.player) {
    ev.player = kind.player;
  }
  Object.assign(ev, kind.fixed || {});
  kind.fields.forEach((f) => {
    const value = values[f.name] !== undefined ? values[f.name] : f.default;
    const dot = f.name.indexOf(".");
    if (dot > 0) {
      const outer = f.name.slice(0, dot);
      ev[outer] = ev[outer] || {};
      ev[outer][f.name.slice(dot + 1)] = value;
    } else {
      ev[f.name] = Array.isArray(value) ? value.slice() : value;
    }
  });
  // A field of numbered balls that `includes` another (the called ball) always holds it.
  kind.fields.forEach((f) => {
    if (f.includes && typeof ev[f.includes] === "number" && ev[f.name].indexOf(ev[f.includes]) < 0) {
      ev[f.name] = ev[f.name].concat([ev[f.includes]]).sort((x, y) => x - y);
    }
  });
  return ev;
}

/* Do these values end the match? The server tried them with the engine (`finishing`). */
export function ends(kind, values) {
  return (kind && kind.finishing ? kind.finishing : []).some((combo) =>
    Object.keys(combo).every((k) => (values[k] !== undefined ? values[k] : field(kind, k).default) === combo[k]));
}

/* The question before values that end the match: the result they leave, as the server's
 * engine played them (`results`, one per `finishing` combination). */
export function endQuestion(ctx, kind, values) {
  const combos = kind && kind.finishing ? kind.finishing : [];
  const i = combos.findIndex((combo) =>
    Object.keys(combo).every((k) => (values[k] !== undefined ? values[k] : field(kind, k).default) === combo[k]));
  const r = i >= 0 && kind.results ? kind.results[i] : null;
  if (!r || r.a === null || r.b === null || !r.winner) {
    return ctx.t("ends_confirm");
  }
  return ctx.t("ends_confirm_result", {
    a: ctx.name("a"), b: ctx.name("b"), sa: r.a, sb: r.b, winner: ctx.name(r.winner),
  });
}

/* The highest value a count may take with the others as picked (a kind's limits). */
export function bound(kind, f, values) {
  let max = f.max;
  (kind.limits || []).forEach((lim) => {
    if (lim.fields.indexOf(f.name) < 0) {
      return;
    }
    const others = lim.fields.filter((n) => n !== f.name).reduce((sum, n) => sum + (values[n] || 0), 0);
    max = Math.min(max, lim.max - others);
  });
  return Math.max(max, f.min || 0);
}

/* The label of a choice: its own words, or the name of the player it stands for. */
export function choiceLabel(ctx, c) {
  return c.label || (c.player ? ctx.name(c.player) : c.value);
}

/* A count field as a number pad: tapping a number picks it (or, with `onpick`, acts). */
export function countPad(ctx, kind, f, values, action, opts) {
  opts = opts || {};
  const who = kind.player ? ctx.name(kind.player) : null;
  return h("div", { class: "ref-field", "data-field": f.name },
    f.prompt ? h("p", { class: "ref-label" }, f.prompt) : null,
    numbers(bound(kind, f, values), action, opts.onpick || ((n) => {
      values[f.name] = n;
      ctx.render();
    }), {
      from: f.min || 0,
      selected: opts.onpick ? undefined : (values[f.name] !== undefined ? values[f.name] : f.default),
      who: opts.who === undefined ? who : opts.who,
      label: f.prompt || "",
      zero: opts.zero,
    }));
}

/* A field of numbered balls as toggles: each tap puts a ball in or out of the list. */
export function ballsRow(ctx, f, values, action) {
  const picked = values[f.name] !== undefined ? values[f.name] : (f.default || []);
  const row = h("div", { class: "ref-options balls", role: "group", "aria-label": f.prompt || "" });
  f.choices.forEach((c) => {
    const on = picked.indexOf(c.value) >= 0;
    row.appendChild(btn(h("span", null, h("strong", null, choiceLabel(ctx, c))),
      action + "-" + c.value, () => {
        const now = (values[f.name] || []).slice();
        const at = now.indexOf(c.value);
        if (at >= 0) {
          now.splice(at, 1);
        } else {
          now.push(c.value);
        }
        values[f.name] = now.sort((x, y) => x - y);
        ctx.render();
      }, { class: "rbtn option ball" + (on ? " selected" : ""), "aria-pressed": String(on) }));
  });
  return h("div", { class: "ref-field", "data-field": f.name },
    f.prompt ? h("p", { class: "ref-label" }, f.prompt) : null, row);
}

/* A choice field as buttons: tapping one picks it (or, with `onpick`, acts). */
export function choiceRow(ctx, f, values, action, onpick) {
  const row = h("div", { class: "ref-options" + (f.choices.length === 2 ? " two" : ""), role: "group",
    "aria-label": f.prompt || (ctx.entry && ctx.entry.prompt) || null });
  const current = values[f.name] !== undefined ? values[f.name] : f.default;
  f.choices.forEach((c) => {
    const picked = !onpick && current === c.value;
    row.appendChild(btn(h("span", null, h("strong", null, choiceLabel(ctx, c)),
      c.hint ? h("small", null, c.hint) : null,
      c.rule_label ? h("small", { class: "rule" }, c.rule_label) : null),
    action + "-" + c.value, () => {
      if (onpick) {
        onpick(c);
        return;
      }
      values[f.name] = c.value;
      ctx.render();
    }, {
      class: "rbtn option" + (picked ? " selected" : "") + (c.player ? " colour-" + c.player : ""),
      disabled: c.disabled,
      "aria-pressed": onpick ? null : String(picked),
    }));
  });
  return h("div", { class: "ref-field", "data-field": f.name },
    f.prompt ? h("p", { class: "ref-label" }, f.prompt) : null, row);
}

/* Send a kind with these values; a value that ends the match (the engine said so) or a
 * choice that does (its `confirm`) is asked about first. */
export function send(ctx, kind, values, question) {
  const ev = buildEvent(kind, values);
  if (question) {
    ctx.confirm(question, ev);
  } else if (ctx.current && ends(kind, values)) {
    ctx.confirm(endQuestion(ctx, kind, values), ev);
  } else {
    ctx.event(ev);
  }
}

/* The scoreboard from the view: names, the headline numbers and what they are, each
 * player's facts, the discipline's lines. */
export function board(ctx, extra, lines) {
  const view = ctx.view;
  const side = (s) => {
    const p = view.players[s] || {};
    const facts = (p.facts || []).map((f) => h("span", { class: "fact", "data-fact": f.key }, f.text));
    const sub = [];
    facts.forEach((f, i) => {
      if (i) {
        sub.push(" · ");
      }
      sub.push(f);
    });
    return h("div", { class: "ref-side" + (p.turn ? " turn" : "") + (p.colour ? " colour-" + p.colour : ""),
      "data-side": s },
    h("div", { class: "ref-name" }, p.colour ? h("span", { class: "swatch", "aria-hidden": "true" }) : null, ctx.name(s)),
    h("div", { class: "ref-score", "data-score": s }, p.score === null || p.score === undefined ? "–" : String(p.score)),
    h("div", { class: "ref-sub" }, sub));
  };
  return h("section", { class: "ref-board", "data-score-kind": view.score_kind },
    view.score_label ? h("p", { class: "ref-score-label" }, view.score_label) : null,
    h("div", { class: "ref-sides" }, side("a"), h("div", { class: "ref-colon" }, ":"), side("b")),
    h("div", { class: "ref-info" }, (lines || view.lines || []).join(" · ")),
    extra || null);
}
