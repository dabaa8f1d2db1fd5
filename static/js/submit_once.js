// A director's form is sent once: a second tap while the first is on its way does nothing (the
// server refuses a form sent twice too, but the page the browser then shows is the second answer).
// A page brought back by the Back button may be sent again: the server says if it was already sent.
(function () {
  "use strict";
  document.querySelectorAll("form[method=post]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.dataset.sent) {
        event.preventDefault();
        return;
      }
      form.dataset.sent = "1";
    });
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      document.querySelectorAll("form[data-sent]").forEach(function (form) { delete form.dataset.sent; });
    }
  });
})();
