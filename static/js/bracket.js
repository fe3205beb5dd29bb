/* Bracket on a phone: the round tabs scroll their stage sideways (not the page) and follow
 * the round in view. Without JavaScript the tabs are plain anchors. */
(function () {
  "use strict";

  function setup(root) {
    var stages = root.querySelectorAll(".bracket-stage");
    Array.prototype.forEach.call(stages, function (stage) {
      var scroller = stage.querySelector(".bracket");
      var tabs = stage.querySelectorAll(".round-tabs a");
      if (!scroller || !tabs.length) {
        return;
      }
      function mark() {
        var best = 0;
        var left = scroller.scrollLeft;
        Array.prototype.forEach.call(scroller.children, function (col, i) {
          if (col.offsetLeft - scroller.offsetLeft <= left + 10) {
            best = i;
          }
        });
        Array.prototype.forEach.call(tabs, function (tab, i) {
          tab.classList.toggle("active", i === best);
        });
      }
      // A live refresh keeps these elements (static/js/live.js merges, not replaces): bind
      // each one once.
      Array.prototype.forEach.call(tabs, function (tab) {
        if (tab.luzaBound) {
          return;
        }
        tab.luzaBound = true;
        tab.addEventListener("click", function (event) {
          var target = document.getElementById(tab.getAttribute("href").slice(1));
          if (!target) {
            return;
          }
          event.preventDefault();
          scroller.scrollTo({ left: target.offsetLeft - scroller.offsetLeft, behavior: "smooth" });
        });
      });
      if (!scroller.luzaBound) {
        scroller.luzaBound = true;
        scroller.addEventListener("scroll", function () {
          window.requestAnimationFrame(scroller.luzaMark);
        }, { passive: true });
      }
      scroller.luzaMark = mark; // the newest tabs: a tab replaced by a refresh is marked too
      mark();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    setup(document);
  });
  document.addEventListener("luza:updated", function (event) {
    setup(event.target);
  });
})();
