// Destructive forms carry data-confirm="question": with JavaScript a <dialog> asks it before
// the form is sent (with confirmed=1); without, the server shows the same question on a page.
(function () {
  "use strict";
  var dialog = null;
  function build() {
    dialog = document.createElement("dialog");
    dialog.className = "confirm-dialog";
    var text = document.createElement("p");
    var actions = document.createElement("form");
    actions.method = "dialog";
    actions.className = "actions";
    var yes = document.createElement("button");
    yes.value = "yes";
    yes.className = "btn danger";
    yes.textContent = document.documentElement.lang === "en" ? "Yes, do it" : "Да, выполнить";
    var no = document.createElement("button");
    no.value = "no";
    no.className = "btn";
    no.textContent = document.documentElement.lang === "en" ? "Cancel" : "Отмена";
    actions.append(yes, no);
    dialog.append(text, actions);
    document.body.append(dialog);
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
    if (form.querySelector("input[name=confirmed]")) return;
    if (typeof HTMLDialogElement !== "function") return; // the server's page asks instead
    event.preventDefault();
    if (!dialog) build();
    // A choice may carry its own question (the players' names in it): the checked one asks.
    var chosen = form.querySelector("input[data-confirm]:checked");
    dialog.querySelector("p").textContent = chosen ? chosen.dataset.confirm : form.dataset.confirm;
    dialog.returnValue = "";
    dialog.onclose = function () {
      if (dialog.returnValue !== "yes") return;
      var flag = document.createElement("input");
      flag.type = "hidden";
      flag.name = "confirmed";
      flag.value = "1";
      form.append(flag);
      form.submit();
    };
    dialog.showModal();
  });
})();
