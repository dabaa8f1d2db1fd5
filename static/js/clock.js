// Round clocks ([data-clock]): counts down each second from the time the server said the round ends
// (data-ends-at), on the phone's own clock; a paused clock (data-status="paused") keeps the server's words.
// A clock inside a live part (live.js: a table's time, My tables) that reaches time on the phone asks that
// part to refresh at once, so what the table does at time is said without waiting for the next refresh.
(function () {
  function words(left) {
    var m = Math.floor(left / 60), s = left % 60;
    return m + ":" + (s < 10 ? "0" : "") + s + " left";
  }
  function tick() {
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      var status = el.getAttribute("data-status"), text = el.querySelector("[data-clock-text]");
      var ends = Date.parse(el.getAttribute("data-ends-at") || "");
      if (!text || (status !== "running" && status !== "time") || isNaN(ends)) return;
      var left = Math.ceil((ends - Date.now()) / 1000);
      if (left <= 0) {
        if (text.textContent !== "Time") {
          text.textContent = "Time";
          const part = el.closest("[data-live-url]");
          if (part && status === "running") part.dispatchEvent(new CustomEvent("live:refresh"));
        }
        el.classList.add("clock-time");
      } else {
        text.textContent = words(left);
        el.classList.remove("clock-time");
      }
    });
  }
  tick();
  setInterval(tick, 1000);
})();
