// Live pages refresh themselves while they can still change, and stop when they cannot:
// - the score sheet (#sheet with data-live and data-url; the X-Game-Updated header says when it changed);
// - an event's pairings, standings and bracket ([data-live-url] with data-live): each answer carries an
//   ETag naming what it shows, sent back as If-None-Match, so an unchanged page costs a 304 and is not
//   redrawn; X-Updating says newer results are being worked out (a note above the part says so).
// Every phone in a hall polls: each waits 5 s plus a random part (so they do not all ask at once), and
// backs off (doubling, up to a minute, or as Retry-After says) while the server answers 429 or 503.
// A part swapped in is announced ("live:updated" on its box: the projector page lays it out again at
// once); a page with a .live-offline mark shows it while the server cannot be reached (the last part stays).
(function () {
  "use strict";
  const EVERY = 5000;
  const JITTER = 1500;
  const MOST = 60000;

  function follow(box, url, header, last, etag) {
    const note = document.querySelector(".live-updating");
    const offline = document.querySelector(".live-offline");
    let backoff = EVERY;
    async function refresh() {
      let wait = EVERY;
      try {
        const headers = { "X-Requested-With": "fetch" };
        if (etag) headers["If-None-Match"] = etag;
        const response = await fetch(url, { headers: headers, cache: "no-store" });
        if (offline) offline.hidden = true;
        if (response.status === 429 || response.status === 503) {
          backoff = Math.min(backoff * 2, MOST);
          const told = parseInt(response.headers.get("Retry-After") || "0", 10) * 1000;
          wait = Math.min(Math.max(backoff, told || 0), MOST);
        } else {
          backoff = EVERY;
          if (note) note.hidden = response.headers.get("X-Updating") !== "1";
          if (response.ok) {
            etag = response.headers.get("ETag") || etag;
            const stamp = response.headers.get(header);
            if (stamp !== last) {
              if (last !== null) {
                box.innerHTML = await response.text();
                box.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
              }
              last = stamp;
            }
          }
        }
      } catch (err) {
        if (offline) offline.hidden = false;
        backoff = Math.min(backoff * 2, MOST);  // offline for a moment: try again later
        wait = backoff;
      }
      setTimeout(refresh, wait + Math.random() * JITTER);
    }
    setTimeout(refresh, last === null ? 0 : EVERY + Math.random() * JITTER);
  }
  const sheet = document.getElementById("sheet");
  if (sheet && sheet.dataset.live) follow(sheet, sheet.dataset.url, "X-Game-Updated", null, null);
  document.querySelectorAll("[data-live-url][data-live]").forEach(function (box) {
    follow(box, box.dataset.liveUrl, "X-Live-Version", box.dataset.liveVersion || null, box.dataset.liveEtag || null);
  });
})();
