/* Live pages: every element with data-live-url is brought up to a fresh server-rendered
 * fragment as soon as the server pushes a change (data-live-stream, Server-Sent Events; see
 * "the push channel" below), and every 2 seconds while the tab is visible and the push channel
 * is unavailable.
 *
 * The fresh fragment is merged into the page node by node (morph), not swapped in whole: a
 * control that is still there stays the same element, so the keyboard focus and a screen
 * reader's place survive the refresh. Children with an id or data-live-key are matched by it
 * (a table card stays itself when the queue above it grows). A control that went away hands
 * the focus to the nearest part of the page that is still there, never to <body>. What
 * changed is said in one small status region: the data-announce texts that changed.
 *
 * The server answers 304 when nothing changed (ETag), so an idle scoreboard costs one tiny
 * request per viewer every 2 s. Without JavaScript the page is still the current state
 * (server-rendered) and a <noscript> refresh reloads it.
 */
(function () {
  "use strict";

  var PERIOD_MS = 2000;
  var STALE_AFTER_FAILURES = 3;

  /* A phone reader scrolled the bracket to round 3: a refresh must not throw him back. */
  function keptScroll(root) {
    var kept = {};
    var els = root.querySelectorAll("[data-keep-scroll][id]");
    for (var i = 0; i < els.length; i++) {
      kept[els[i].id] = [els[i].scrollLeft, els[i].scrollTop];
    }
    return kept;
  }

  function restoreScroll(root, kept) {
    Object.keys(kept).forEach(function (id) {
      var el = root.querySelector("#" + CSS.escape(id));
      if (el) {
        el.scrollLeft = kept[id][0];
        el.scrollTop = kept[id][1];
      }
    });
  }

  // --- the merge ------------------------------------------------------------------------

  function keyOf(node) {
    if (node.nodeType !== 1) {
      return null;
    }
    return node.id ? "#" + node.id : node.getAttribute("data-live-key");
  }

  function sameKind(a, b) {
    return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
  }

  function syncAttributes(from, to) {
    var i;
    for (i = from.attributes.length - 1; i >= 0; i--) {
      var name = from.attributes[i].name;
      if (!to.hasAttribute(name)) {
        from.removeAttribute(name);
      }
    }
    for (i = 0; i < to.attributes.length; i++) {
      var a = to.attributes[i];
      if (from.getAttribute(a.name) !== a.value) {
        from.setAttribute(a.name, a.value);
      }
    }
    // What a field shows is its property, not its attribute (never the focused field: a
    // region in use is not refreshed at all).
    if (from !== document.activeElement) {
      if (from.tagName === "INPUT") {
        from.checked = to.hasAttribute("checked");
        from.value = to.getAttribute("value") || "";
      }
    }
  }

  function morph(from, to) {
    if (from.nodeType !== 1) {
      if (from.nodeValue !== to.nodeValue) {
        from.nodeValue = to.nodeValue;
      }
      return;
    }
    syncAttributes(from, to);
    morphChildren(from, to);
    if (from.tagName === "SELECT" && from !== document.activeElement) {
      var chosen = to.querySelector("option[selected]");
      from.value = chosen ? chosen.value : (from.options[0] || {}).value || "";
    }
  }

  function morphChildren(from, to) {
    var old = Array.prototype.slice.call(from.childNodes);
    var keyed = {};
    old.forEach(function (n) {
      var k = keyOf(n);
      if (k) {
        keyed[k] = n;
      }
    });
    var used = [];
    var cursor = 0;
    var result = Array.prototype.map.call(to.childNodes, function (next) {
      var k = keyOf(next);
      var match = null;
      if (k) {
        match = keyed[k] && sameKind(keyed[k], next) ? keyed[k] : null;
        delete keyed[k];
      } else {
        while (cursor < old.length && (keyOf(old[cursor]) || used.indexOf(old[cursor]) >= 0)) {
          cursor += 1;
        }
        if (cursor < old.length && sameKind(old[cursor], next)) {
          match = old[cursor];
          cursor += 1;
        }
      }
      if (match) {
        used.push(match);
        morph(match, next);
        return match;
      }
      return next;
    });
    result.forEach(function (node, i) {
      if (from.childNodes[i] !== node) {
        from.insertBefore(node, from.childNodes[i] || null);
      }
    });
    while (from.childNodes.length > result.length) {
      from.removeChild(from.lastChild);
    }
  }

  // --- focus and what to announce -----------------------------------------------------------

  /* The focused element and its ancestors inside the region, nearest first. */
  function focusTrail(root) {
    var trail = [];
    var el = document.activeElement;
    if (!el || el === document.body || !root.contains(el)) {
      return trail;
    }
    for (; el && el !== root; el = el.parentElement) {
      trail.push(el);
    }
    trail.push(root);
    return trail;
  }

  var FOCUSABLE = "a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select:not([disabled]), summary";

  function restoreFocus(trail) {
    if (!trail.length || trail[0].isConnected && document.activeElement === trail[0]) {
      return;
    }
    for (var i = 1; i < trail.length; i++) {
      var place = trail[i];
      if (!place.isConnected) {
        continue;
      }
      var next = place.querySelector(FOCUSABLE);
      if (!next) {
        place.setAttribute("tabindex", "-1");
        next = place;
      }
      next.focus({ preventScroll: true });
      return;
    }
  }

  function announcements(root) {
    var out = {};
    var els = root.querySelectorAll("[data-announce]");
    for (var i = 0; i < els.length; i++) {
      var keyed = els[i].closest("[data-live-key], [id]");
      out[(keyed && keyOf(keyed)) || "n" + i] = els[i].getAttribute("data-announce");
    }
    return out;
  }

  var status = null;

  function announce(before, after) {
    var changed = Object.keys(after).filter(function (k) {
      return before[k] !== after[k] && after[k];
    });
    if (!changed.length) {
      return;
    }
    if (!status) {
      status = document.createElement("div");
      status.className = "visually-hidden";
      status.setAttribute("role", "status");
      status.setAttribute("data-live-status", "");
      document.body.appendChild(status);
    }
    status.textContent = changed.map(function (k) {
      return after[k];
    }).join(". ");
  }

  function Region(el) {
    this.el = el;
    this.url = el.getAttribute("data-live-url");
    this.etag = el.getAttribute("data-live-etag") || "";
    this.failures = 0;
    this.busy = false;
  }

  /* Someone is choosing a table in a select or has a menu open: do not pull it away. */
  function inUse(root) {
    var active = document.activeElement;
    if (active && active !== document.body && root.contains(active) &&
        /^(SELECT|INPUT|TEXTAREA)$/.test(active.tagName)) {
      return true;
    }
    return root.querySelector("details[open]") !== null;
  }

  Region.prototype.refresh = function () {
    var self = this;
    if (self.busy || inUse(self.el)) {
      return Promise.resolve();
    }
    self.busy = true;
    var headers = { "X-Requested-With": "fetch", Accept: "text/html" };
    if (self.etag) {
      headers["If-None-Match"] = self.etag;
    }
    return fetch(self.url, { headers: headers, credentials: "same-origin", cache: "no-cache" })
      .then(function (response) {
        if (response.status === 304) {
          return null;
        }
        if (!response.ok) {
          throw new Error("HTTP " + response.status);
        }
        self.etag = response.headers.get("ETag") || "";
        return response.text();
      })
      .then(function (html) {
        self.failures = 0;
        self.el.classList.remove("stale");
        if (html !== null) {
          var scroll = keptScroll(self.el);
          var trail = focusTrail(self.el);
          var before = announcements(self.el);
          var fresh = document.createElement("template");
          fresh.innerHTML = html;
          // data-live-select: the region is one element of a whole page (the table page).
          var select = self.el.getAttribute("data-live-select");
          var source = select ? fresh.content.querySelector(select) : fresh.content;
          if (!source) {
            return;
          }
          morphChildren(self.el, source);
          restoreFocus(trail);
          restoreScroll(self.el, scroll);
          announce(before, announcements(self.el));
          self.el.setAttribute("data-live-etag", self.etag);
          if (window.LuzaClock) {
            window.LuzaClock.scan(self.el);
          }
          self.el.dispatchEvent(new CustomEvent("luza:updated", { bubbles: true }));
        }
      })
      .catch(function () {
        self.failures += 1;
        if (self.failures >= STALE_AFTER_FAILURES) {
          self.el.classList.add("stale");
        }
      })
      .then(function () {
        self.busy = false;
      });
  };

  // --- the push channel ----------------------------------------------------------------------
  //
  // A region with data-live-stream (space-separated URLs of Server-Sent Events streams:
  // /api/v1/tournaments/N/stream/, /api/v1/matches/N/stream/) fetches its fragment as soon as
  // an event of its kinds (data-live-kinds; every kind when absent) arrives, instead of every
  // 2 s; data-live-spread-ms spreads the fetches of a hall over that many milliseconds at
  // random (a result seen by thousands of phones at once). While a stream is up the region
  // polls only every SLOW_POLL_MS (a safety net); while it is down, every PERIOD_MS as before.
  // Each event is also told to the page as a "luza:push" event on document (the bracket's
  // cells take their score from it). One EventSource per stream URL, however many regions.
  //
  // Reconnecting: the browser reconnects by itself after the server's retry (spread at random
  // over 1–8 s by the server) and sends Last-Event-ID, so nothing is missed; a stream that
  // refused or failed (EventSource closed) is opened again after a growing, jittered pause
  // (2 s to 60 s), resuming from the last id it had (?last_event_id=).

  var SLOW_POLL_MS = 30000;
  var KINDS = ["match.event", "match.started", "match.finished", "match.corrected",
    "match.table", "tournament.draw", "reset", "ready"];
  var regions = [];
  var streams = {};
  var timer = null;
  var slowTimer = null;

  function Stream(url) {
    this.url = url;
    this.regions = [];
    this.source = null;
    this.open = false;
    this.lastId = "";
    this.failures = 0;
    this.retryTimer = null;
  }

  Stream.prototype.connect = function () {
    var self = this;
    if (self.source || !window.EventSource) {
      return;
    }
    var url = self.url;
    if (self.lastId) {
      url += (url.indexOf("?") < 0 ? "?" : "&") + "last_event_id=" + encodeURIComponent(self.lastId);
    }
    var source = new EventSource(url, { withCredentials: true });
    self.source = source;
    KINDS.forEach(function (kind) {
      source.addEventListener(kind, function (event) {
        self.receive(kind, event);
      });
    });
    source.onerror = function () {
      self.open = false;
      schedule();
      if (source.readyState === 2) {  // CLOSED: refused or broken, not retried by itself
        source.close();
        self.source = null;
        self.failures += 1;
        var ceiling = Math.min(60000, 2000 * Math.pow(2, self.failures - 1));
        self.retryTimer = setTimeout(function () {
          self.retryTimer = null;
          self.connect();
        }, ceiling / 2 + Math.random() * ceiling / 2);
      }
    };
  };

  Stream.prototype.close = function () {
    if (this.source) {
      this.source.close();
      this.source = null;
    }
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    this.open = false;
  };

  Stream.prototype.receive = function (kind, event) {
    if (event.lastEventId) {
      this.lastId = event.lastEventId;
    }
    var data = null;
    try {
      data = JSON.parse(event.data || "null");
    } catch (e) {
      data = null;
    }
    if (kind === "ready") {
      var wasOpen = this.open;
      this.open = true;
      this.failures = 0;
      schedule();
      // What changed between the page's render (or the drop) and this connection.
      if (!wasOpen) {
        this.regions.forEach(function (region) {
          region.soon(0);
        });
      }
      return;
    }
    document.dispatchEvent(new CustomEvent("luza:push", { detail: { kind: kind, data: data } }));
    this.regions.forEach(function (region) {
      if (kind === "reset" || region.wants(kind)) {
        region.soon(kind === "reset" ? 0 : region.spread);
      }
    });
  };

  Region.prototype.wants = function (kind) {
    return !this.kinds || this.kinds.indexOf(kind) >= 0;
  };

  /* A fetch within `spread` ms; several events meanwhile make one fetch, and an event during
   * a fetch makes one more after it. */
  Region.prototype.soon = function (spread) {
    var self = this;
    if (self.pending) {
      return;
    }
    self.pending = true;
    setTimeout(function () {
      self.pending = false;
      if (self.busy) {
        self.soon(50);
        return;
      }
      self.refresh();
    }, spread ? Math.random() * spread : 0);
  };

  function live(region) {
    return region.streams.length > 0 && region.streams.every(function (stream) {
      return stream.open;
    });
  }

  function refreshAll(slow) {
    for (var i = 0; i < regions.length; i++) {
      if (live(regions[i]) === Boolean(slow)) {
        regions[i].refresh();
      }
    }
  }

  /* Poll every 2 s the regions whose stream is down, every 30 s the others. */
  function schedule() {
    if (document.hidden || !regions.length) {
      return;
    }
    if (timer === null) {
      timer = setInterval(function () {
        refreshAll(false);
      }, PERIOD_MS);
    }
    if (slowTimer === null) {
      slowTimer = setInterval(function () {
        refreshAll(true);
      }, SLOW_POLL_MS);
    }
  }

  function start() {
    Object.keys(streams).forEach(function (url) {
      streams[url].connect();
    });
    schedule();
  }

  function stop() {
    if (timer !== null) {
      clearInterval(timer);
      timer = null;
    }
    if (slowTimer !== null) {
      clearInterval(slowTimer);
      slowTimer = null;
    }
    Object.keys(streams).forEach(function (url) {
      streams[url].close();
    });
  }

  /* A ball at a table: the score in every cell of that match ([data-live-match] holding
   * [data-live-score=a|b], the bracket's) from the event itself, no fetch. */
  document.addEventListener("luza:push", function (event) {
    var data = event.detail.data;
    if (!data || !data.match || !data.score) {
      return;
    }
    var spans = document.querySelectorAll('[data-live-match="' + data.match + '"] [data-live-score]');
    for (var i = 0; i < spans.length; i++) {
      var value = data.score[spans[i].getAttribute("data-live-score")];
      var text = value === null || value === undefined
        ? spans[i].getAttribute("data-live-empty") || "" : String(value);
      if (spans[i].textContent !== text) {
        spans[i].textContent = text;
      }
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var found = document.querySelectorAll("[data-live-url]");
    for (var i = 0; i < found.length; i++) {
      var region = new Region(found[i]);
      var kinds = found[i].getAttribute("data-live-kinds");
      region.kinds = kinds ? kinds.split(/\s+/) : null;
      region.spread = parseInt(found[i].getAttribute("data-live-spread-ms") || "0", 10) || 0;
      region.streams = [];
      region.pending = false;
      (found[i].getAttribute("data-live-stream") || "").split(/\s+/).forEach(function (url) {
        if (!url || !window.EventSource) {
          return;
        }
        if (!streams[url]) {
          streams[url] = new Stream(url);
        }
        streams[url].regions.push(region);
        region.streams.push(streams[url]);
      });
      regions.push(region);
    }
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) {
        stop();
      } else {
        refreshAll(false);
        refreshAll(true);
        start();
      }
    });
    if (!document.hidden) {
      start();
    }
  });
})();
