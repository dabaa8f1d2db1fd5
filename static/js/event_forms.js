// Event forms show only what applies: a new event's options for the format chosen (Swiss rounds,
// third place, grand final), and a director's result form the margin only for an adjusted result.
// Without JavaScript every field shows, and the server says what does not apply.
(function () {
  "use strict";
  function follow(control, attribute) {
    if (!control) return;
    function show() {
      const chosen = control.type === "radio"
        ? (document.querySelector(`[name="${control.name}"]:checked`) || {}).value
        : control.value;
      document.querySelectorAll(`[${attribute}]`).forEach(function (box) {
        box.hidden = box.getAttribute(attribute) !== chosen;
      });
    }
    document.querySelectorAll(`[name="${control.name}"]`).forEach(function (c) { c.addEventListener("change", show); });
    show();
  }
  follow(document.querySelector("#game-form [name=format]"), "data-for-format");
  follow(document.querySelector("#result-form [name=result-kind]"), "data-for-kind");
})();
