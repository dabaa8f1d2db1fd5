// Live pages refresh themselves while they can still change, and stop when they cannot:
// - the score sheet (#sheet with data-live and data-url; the X-Game-Updated header says when it changed);
// - an event's pairings, standings and bracket ([data-live-url] with data-live; the X-Live-Version
//   header names the results the fragment shows, so an unchanged page is not redrawn).
(function () {
  "use strict";
  function follow(box, url, header, last) {
    async function refresh() {
      try {
        const response = await fetch(url, { headers: { "X-Requested-With": "fetch" }, cache: "no-store" });
        if (!response.ok) return;
        const stamp = response.headers.get(header);
        if (stamp !== last) {
          if (last !== null) box.innerHTML = await response.text();
          last = stamp;
        }
      } catch (err) {
        // offline for a moment: try again next time
      }
    }
    if (last === null) refresh();
    setInterval(refresh, 5000);
  }
  const sheet = document.getElementById("sheet");
  if (sheet && sheet.dataset.live) follow(sheet, sheet.dataset.url, "X-Game-Updated", null);
  document.querySelectorAll("[data-live-url][data-live]").forEach(function (box) {
    follow(box, box.dataset.liveUrl, "X-Live-Version", box.dataset.liveVersion || null);
  });
})();
