// A referee link is /r/#<token>: the fragment never leaves the phone except in this form's POST,
// so the token stays out of every access log. Submit it at once when the page was opened from a link.
(function () {
  var token = window.location.hash.slice(1);
  var form = document.getElementById("referee-link-form");
  if (!token || !form || document.querySelector(".errors")) return;
  history.replaceState(null, "", window.location.pathname);
  form.elements.token.value = decodeURIComponent(token);
  form.submit();
})();
