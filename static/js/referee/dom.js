/* DOM helpers of the referee form: elements, buttons (44 px targets, disabled while a tap is
 * in flight), number pads with full accessible names («3 шара — Алексеев»). */

let isLocked = () => false;
let ballNames = {};

/* The core says when taps wait (one in flight online, a refusal unresolved) and how balls are
 * named in the user's language. */
export function configure(options) {
  isLocked = options.locked || isLocked;
  ballNames = options.balls || ballNames;
}

export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  Object.entries(props || {}).forEach(([k, v]) => {
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
  children.flat().forEach((c) => {
    if (c === null || c === undefined || c === false) {
      return;
    }
    el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  });
  return el;
}

export function btn(label, action, onclick, extra) {
  const props = { type: "button", class: "rbtn", "data-action": action, onclick, ...(extra || {}) };
  if (isLocked()) {
    props.disabled = true;
  }
  return h("button", props, label);
}

/* Buttons from..max; each names what it records in full. */
export function numbers(max, action, onpick, opts) {
  opts = opts || {};
  const from = opts.from || 0;
  const grid = h("div", { class: "numpad", role: "group", "aria-label": opts.label || null });
  for (let n = from; n <= max; n++) {
    const label = n === 0 && opts.zero ? opts.zero : String(n);
    const cls = "rbtn num" + (opts.selected === n ? " selected" : "") + (n === 0 && opts.zero ? " zero" : "");
    grid.appendChild(btn(label, action, () => onpick(n), {
      class: cls,
      "data-n": String(n),
      "aria-label": numberName(n, opts),
      "aria-pressed": opts.selected === undefined ? null : String(opts.selected === n),
    }));
  }
  return grid;
}

/* What a number button does, said in full: «3 шара — Алексеев», «2 дурака — Алексеев». */
export function numberName(n, opts) {
  const what = n === 0 && opts.zero ? opts.zero : ((opts.unit || ballNames)[n] || String(n));
  return opts.who ? what + " — " + opts.who : what;
}

export function prompt(text, who) {
  return h("h2", { class: "ref-prompt" }, who ? h("span", { class: "who" }, who) : null, who ? " " : null, text);
}
