// The site menu on a phone: one "Menu" button opens and closes it (without JavaScript it is always shown).
(function () {
  "use strict";
  const toggle = document.querySelector("header.site .menu-toggle");
  if (!toggle) return;
  toggle.addEventListener("click", function () {
    const open = toggle.closest("header").classList.toggle("open");
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  });
})();
