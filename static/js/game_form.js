// The new-game form: when the preset changes, each convention field shows that preset's value.
(function () {
  "use strict";
  const form = document.getElementById("game-form");
  const data = document.getElementById("preset-values");
  if (!form || !data) return;
  const presets = JSON.parse(data.textContent);
  const preset = form.querySelector("[name=preset]");
  function show() {
    const values = presets[preset.value] || {};
    form.querySelectorAll("[data-convention]").forEach(function (p) {
      const shown = p.querySelector("[data-preset-value]");
      if (shown) shown.textContent = values[p.dataset.convention] || "";
    });
  }
  preset.addEventListener("change", show);
  show();
})();
