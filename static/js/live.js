/* Live pages: every element with data-live-url is replaced by a fresh server-rendered
 * fragment every 2 seconds while the tab is visible.
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
          self.el.innerHTML = html;
          restoreScroll(self.el, scroll);
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
