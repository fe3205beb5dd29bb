/* Live pages: every element with data-live-url is brought up to a fresh server-rendered
 * fragment every 2 seconds while the tab is visible.
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
          morphChildren(self.el, fresh.content);
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

  var regions = [];
  var timer = null;

  function refreshAll() {
    for (var i = 0; i < regions.length; i++) {
      regions[i].refresh();
    }
  }

  function start() {
    if (timer === null && regions.length) {
      timer = setInterval(refreshAll, PERIOD_MS);
    }
  }

  function stop() {
    if (timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var found = document.querySelectorAll("[data-live-url]");
    for (var i = 0; i < found.length; i++) {
      regions.push(new Region(found[i]));
    }
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) {
        stop();
      } else {
        refreshAll();
        start();
      }
    });
    if (!document.hidden) {
      start();
    }
  });
})();
