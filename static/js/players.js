/* A player's rating chart: a tap (or focus) on a point shows its tournament and change in
 * the caption under the chart; hover shows the same as the point's tooltip (<title>). */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var charts = document.querySelectorAll(".rating-chart");
    Array.prototype.forEach.call(charts, function (chart) {
      var caption = chart.querySelector(".chart-caption");
      var points = chart.querySelectorAll(".pt");
      function show(point) {
        Array.prototype.forEach.call(points, function (p) { p.classList.remove("active"); });
        point.classList.add("active");
        if (caption) {
          caption.textContent = point.getAttribute("data-caption");
        }
      }
      Array.prototype.forEach.call(points, function (point) {
        point.addEventListener("click", function () { show(point); });
        point.addEventListener("focus", function () { show(point); });
      });
    });
  });
})();
