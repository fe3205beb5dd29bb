/* Any discipline without a renderer of its own, drawn from `view` and `entry` alone: the board
 * is the view's numbers, facts and lines; the first kind of event is asked on the main screen,
 * every other one behind its own button in a sheet. A kind of one count or one choice sends on
 * the tap; a kind of several fields, or of numbered balls, is filled in, then recorded. Choices that end the match ask
 * (their `confirm`), as do values the engine says end it (`finishing`). */
import { btn, h, prompt } from "../dom.js";
import { ballsRow, board as viewBoard, choiceRow, countPad, kindOf, send } from "../entry.js";

export function board(ctx) {
  return viewBoard(ctx);
}

// The footer concedes; a foul outside a shot has the core's own sheet.
const ELSEWHERE = ["forfeit"];

function kinds(ctx) {
  return ((ctx.entry && ctx.entry.kinds) || []).filter((k) => ELSEWHERE.indexOf(k.key) < 0);
}

/* The fields of a kind; one field acts on the tap, several are picked and then recorded. */
function kindForm(ctx, kind, values) {
  const wrap = h("div", { class: "ref-kind", "data-kind": kind.key });
  if (kind.prompt) {
    wrap.appendChild(h("p", { class: "ref-label" }, kind.prompt));
  }
  // Numbered balls are picked one by one, then recorded: never sent on the first tap.
  const single = kind.fields.length === 1 && kind.fields[0].kind !== "balls";
  kind.fields.forEach((f) => {
    const action = "field-" + kind.key + "-" + f.name.replace(".", "-");
    if (f.kind === "balls") {
      wrap.appendChild(ballsRow(ctx, f, values, action));
    } else if (f.kind === "count") {
      wrap.appendChild(countPad(ctx, kind, f, values, action, single ? {
        onpick: (n) => send(ctx, kind, { [f.name]: n }),
      } : {}));
    } else {
      wrap.appendChild(choiceRow(ctx, f, values, action, single ? (c) => {
        send(ctx, kind, { [f.name]: c.value }, c.confirm);
      } : null));
    }
  });
  if (!kind.fields.length || !single) {
    const question = kind.fields.map((f) => {
      const c = f.kind === "choice" ? f.choices.find((x) => x.value === (values[f.name] ?? f.default)) : null;
      return c ? c.confirm : null;
    }).find(Boolean);
    wrap.appendChild(h("div", { class: "ref-row" },
      btn(kind.fields.length ? ctx.t("record") : kind.label, "send-" + kind.key,
        () => send(ctx, kind, { ...values }, question), { class: "rbtn primary wide" })));
  }
  return wrap;
}

export function action(ctx) {
  const { entry, name } = ctx;
  const box = h("section", { class: "ref-action", "data-awaiting": String(entry ? entry.awaiting : null) });
  const list = kinds(ctx);
  if (!entry || !list.length) {
    box.appendChild(h("p", null, ctx.t("waiting")));
    return box;
  }
  const first = list[0];
  const who = entry.player ? name(entry.player) : null;
  box.appendChild(prompt(entry.prompt || first.label, who));
  if (entry.prompt) {
    box.appendChild(h("p", { class: "ref-label ref-kind-label" }, first.label));
  }
  box.appendChild(kindForm(ctx, first, ctx.pick));
  const more = list.slice(1).map((k) => btn(k.label, "kind-" + k.key, () => ctx.openSheet({ kind: "kind", key: k.key }),
    { class: "rbtn" + (k.type === "foul" || (k.fields[0] && k.fields[0].name === "foul") ? " warn" : "") }));
  if (more.length) {
    box.appendChild(h("div", { class: "ref-more" }, more));
  }
  return box;
}

export function sheet(ctx) {
  const kind = kindOf(ctx.entry, ctx.sheet.key);
  const box = h("section", { class: "ref-action sheet", "data-sheet": ctx.sheet.key });
  if (!kind) {
    box.appendChild(ctx.sheetHead(""));
    return box;
  }
  box.appendChild(ctx.sheetHead(kind.label + (kind.player ? " — " + ctx.name(kind.player) : "")));
  box.appendChild(kindForm(ctx, kind, ctx.pick));
  return box;
}
