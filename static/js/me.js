/* "My match": live.js refreshes the region every 2 s (ETag/304); when the fragment says the
 * match is called to a table, a browser notification is shown while the page is open. The
 * permission is asked once, on a tap, and never required: the page itself shows the call. */
(function () {
  "use strict";
  var ASKED = "luza-notify-asked";
  var seen = {};

  function supported() {
    return "Notification" in window;
  }

  function calledIn(root) {
    var el = root.querySelector("[data-called]");
    return el ? { key: el.getAttribute("data-called"), text: el.getAttribute("data-called-text") } : null;
  }

  function notify(call) {
    if (!call || seen[call.key]) {
      return;
    }
    seen[call.key] = true;
    if (supported() && Notification.permission === "granted") {
      try {
        new Notification(call.text, { tag: "luza-" + call.key });
      } catch (e) {
        /* Some phones allow notifications from a service worker only: the page shows it. */
      }
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var region = document.querySelector("[data-me]");
    if (!region) {
      return;
    }
    var first = calledIn(region);
    if (first) {
      seen[first.key] = true; /* already on the screen when the page opened */
    }
    region.addEventListener("luza:updated", function () {
      notify(calledIn(region));
    });
    var box = document.querySelector("[data-notify-box]");
    if (!box || !supported() || Notification.permission !== "default") {
      return;
    }
    var asked = false;
    try { asked = window.localStorage.getItem(ASKED) === "1"; } catch (e) { asked = false; }
    if (asked) {
      return;
    }
    box.hidden = false;
    box.querySelector("[data-notify-ask]").addEventListener("click", function () {
      try { window.localStorage.setItem(ASKED, "1"); } catch (e) { /* private mode */ }
      Notification.requestPermission().then(function () {
        box.hidden = true;
      });
    });
  });
})();
