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
      Array.prototype.forEach.call(tabs, function (tab) {
        tab.addEventListener("click", function (event) {
          var target = document.getElementById(tab.getAttribute("href").slice(1));
          if (!target) {
            return;
          }
          event.preventDefault();
          scroller.scrollTo({ left: target.offsetLeft - scroller.offsetLeft, behavior: "smooth" });
        });
      });
      scroller.addEventListener("scroll", function () {
        window.requestAnimationFrame(mark);
      }, { passive: true });
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
