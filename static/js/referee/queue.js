/* The taps of one match kept on this phone until the server has them.
 *
 * A tap that writes is an item {key, path, body, at}: its idempotency key is made once, when
 * the referee taps, and travels with every attempt, so the server applies it at most once
 * however often a flaky connection makes us resend it. Items live in localStorage, so a reload
 * (or a flat battery) while the Wi-Fi is down loses nothing; they leave in the order tapped.
 * The last match the server sent is kept too, with the moment it was received, so a reload
 * offline shows it and the clock counts on from those figures.
 */

function store() {
  try {
    return window.localStorage;
  } catch (e) {
    return null; // storage disabled: the queue lives in memory for this page only
  }
}

export function uuid() {
  if (window.crypto && crypto.randomUUID) {
    return crypto.randomUUID();
  }
  // Plain-HTTP club networks are not a secure context: no randomUUID, but getRandomValues.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => (x + 0x100).toString(16).slice(1)).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export class Queue {
  constructor(matchId) {
    this.itemsKey = `luza.referee.${matchId}.queue`;
    this.matchKey = `luza.referee.${matchId}.match`;
    this.memory = [];
    this.items = this.load(this.itemsKey) || [];
  }

  load(key) {
    const s = store();
    if (!s) {
      return null;
    }
    try {
      return JSON.parse(s.getItem(key) || "null");
    } catch (e) {
      return null;
    }
  }

  save() {
    const s = store();
    if (s) {
      s.setItem(this.itemsKey, JSON.stringify(this.items));
    }
  }

  /* A new tap: its key is made here, once. */
  push(path, body) {
    const item = { key: uuid(), path, body: { ...body }, at: Date.now() };
    item.body.idempotency_key = item.key;
    this.items.push(item);
    this.save();
    return item;
  }

  head() {
    return this.items[0] || null;
  }

  shift() {
    const item = this.items.shift();
    this.save();
    return item;
  }

  clear() {
    this.items = [];
    this.save();
  }

  get length() {
    return this.items.length;
  }

  /* How many log writes (events, undo) wait: each one moves the version on by one. */
  logWrites() {
    return this.items.filter((i) => i.path === "events/" || i.path === "undo/").length;
  }

  rememberMatch(data) {
    const s = store();
    if (s) {
      s.setItem(this.matchKey, JSON.stringify({ data, at: Date.now() }));
    }
  }

  /* {data, at} of the last match the server sent, or null. */
  lastMatch() {
    return this.load(this.matchKey);
  }
}
