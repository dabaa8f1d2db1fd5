// "Find a name" ([data-filters]: the rows it filters): typing shows only the rows whose name holds what is
// typed, case and accents aside ("petur" finds "Pétur"). Shown only where scripts run; without them the
// whole list is there.
(function () {
  "use strict";
  function folded(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  document.querySelectorAll("input[data-filters]").forEach(function (box) {
    box.closest("[hidden]") && (box.closest("[hidden]").hidden = false);
    box.addEventListener("input", function () {
      const wanted = folded(box.value.trim());
      document.querySelectorAll(box.dataset.filters).forEach(function (row) {
        const name = row.querySelector(".name") || row.querySelector("a");
        row.hidden = wanted !== "" && !folded(name ? name.textContent : row.textContent).includes(wanted);
      });
    });
  });
})();
