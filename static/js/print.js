/* The diploma page's Print button (the page prints fine from the browser menu too). */
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var buttons = document.querySelectorAll("[data-print]");
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener("click", function () {
      window.print();
    });
  }
});
