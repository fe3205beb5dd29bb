/* Match clocks: count down locally from the server's figures.
 *
 * Markup: <span class="clock" data-clock data-remaining="4712" data-running="1"
 *               data-warn-below="600">1:18:32</span>
 * The server's `remaining` is the truth at render time; between refreshes the page only
 * subtracts the time it has been showing it, so a clock never drifts more than one refresh.
 */
(function () {
  "use strict";

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function format(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    var sec = s % 60;
    return h ? h + ":" + pad(m) + ":" + pad(sec) : m + ":" + pad(sec);
  }

  var clocks = [];

  function track(el) {
    var remaining = parseFloat(el.getAttribute("data-remaining"));
    if (isNaN(remaining)) {
      return;
    }
    clocks.push({
      el: el,
      remaining: remaining,
      running: el.getAttribute("data-running") === "1",
      warnBelow: parseFloat(el.getAttribute("data-warn-below") || "600"),
      since: performance.now(),
    });
  }

  function paint(c, now) {
    var left = c.remaining - (c.running ? (now - c.since) / 1000 : 0);
    var text = format(left);
    if (c.el.textContent !== text) {
      c.el.textContent = text;
    }
    c.el.classList.toggle("warning", left > 0 && left <= c.warnBelow);
    c.el.classList.toggle("expired", left <= 0);
  }

  /* Forget clocks that left the document, start the ones inside `root`. */
  function scan(root) {
    clocks = clocks.filter(function (c) {
      return document.documentElement.contains(c.el) && !(root && root.contains(c.el));
    });
    var found = (root || document).querySelectorAll("[data-clock]");
    for (var i = 0; i < found.length; i++) {
      track(found[i]);
    }
    tick();
  }

  function tick() {
    var now = performance.now();
    for (var i = 0; i < clocks.length; i++) {
      paint(clocks[i], now);
    }
  }

  window.LuzaClock = { scan: scan, format: format };
  document.addEventListener("DOMContentLoaded", function () {
    scan(document);
    setInterval(tick, 250);
  });
})();
