// Live pages refresh themselves while they can still change, and stop when they cannot:
// - the score sheet (#sheet with data-live and data-url; the X-Game-Updated header says when it changed);
// - an event's pairings, standings and bracket, a referee's "My tables" and a table's time on its entry page
//   ([data-live-url] with data-live): each answer carries an ETag naming what it shows, sent back as
//   If-None-Match, so an unchanged part costs a 304 and is not redrawn; X-Updating says newer results are
//   being worked out (a note above the part says so).
// Every phone in a hall polls: each waits 5 s (or the part's data-live-every, in ms) plus a random part (so
// they do not all ask at once), asks nothing while the page is hidden (a phone in a pocket; it asks at once
// when looked at again), and backs off (doubling, up to a minute, or as Retry-After says) while the
// server answers 429 or 503. A part asked to refresh now ("live:refresh" on its box: the clock reaching
// time) asks at once.
// A part swapped in is announced ("live:updated" on its box: the projector page lays it out again at once),
// said to screen readers in one polite status line (the box's data-live-says, "Updated" otherwise), and
// the keyboard focus stays where it was (on the element of the same id, else on the box); a page with a
// .live-offline mark shows it while the server cannot be reached (the last part stays).
(function () {
  "use strict";
  const EVERY = 5000;
  const JITTER = 1500;
  const MOST = 60000;

  let status = null;
  function announce(words) {
    if (!status) {
      status = document.createElement("p");
      status.className = "visually-hidden";
      status.setAttribute("role", "status");
      status.setAttribute("aria-live", "polite");
      document.body.appendChild(status);
    }
    status.textContent = "";
    setTimeout(function () { status.textContent = words; }, 50);
  }

  function swap(box, html) {
    const focused = document.activeElement;
    const inside = focused && focused !== box && box.contains(focused);
    const id = inside ? focused.id : "";
    box.innerHTML = html;
    if (inside) {
      const again = id ? document.getElementById(id) : null;
      if (again && box.contains(again)) {
        again.focus();
      } else {
        if (!box.hasAttribute("tabindex")) box.setAttribute("tabindex", "-1");
        box.focus();
      }
    }
    announce(box.dataset.liveSays || "Updated");
    box.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
  }

  function follow(box, url, header, last, etag, every) {
    const note = document.querySelector(".live-updating");
    const offline = document.querySelector(".live-offline");
    let backoff = every;
    let timer = null;
    let busy = false;
    let asked = 0;
    let paused = false;
    async function refresh() {
      timer = null;
      if (document.hidden) {  // a phone in a pocket asks nothing until it is looked at again
        paused = true;
        return;
      }
      asked = Date.now();
      if (busy) return;
      busy = true;
      let wait = every;
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
          backoff = every;
          if (note) note.hidden = response.headers.get("X-Updating") !== "1";
          if (response.ok) {
            etag = response.headers.get("ETag") || etag;
            const stamp = response.headers.get(header);
            if (stamp !== last) {
              if (last !== null) swap(box, await response.text());
              last = stamp;
            }
          }
        }
      } catch (err) {
        if (offline) offline.hidden = false;
        backoff = Math.min(backoff * 2, MOST);  // offline for a moment: try again later
        wait = backoff;
      }
      busy = false;
      timer = setTimeout(refresh, wait + Math.random() * JITTER);
    }
    document.addEventListener("visibilitychange", function () {
      if (document.hidden || !paused) return;
      paused = false;
      timer = setTimeout(refresh, Math.random() * JITTER);  // looked at again: what it shows now, at once
    });
    box.addEventListener("live:refresh", function () {
      // At most one early refresh every few seconds (a phone whose clock runs ahead of the server's).
      if (busy || Date.now() - asked < EVERY) return;
      if (timer !== null) clearTimeout(timer);
      refresh();
    });
    timer = setTimeout(refresh, last === null ? 0 : every + Math.random() * JITTER);
  }
  const sheet = document.getElementById("sheet");
  if (sheet && sheet.dataset.live) follow(sheet, sheet.dataset.url, "X-Game-Updated", null, null, EVERY);
  document.querySelectorAll("[data-live-url][data-live]").forEach(function (box) {
    const every = parseInt(box.dataset.liveEvery || "", 10) || EVERY;
    follow(box, box.dataset.liveUrl, "X-Live-Version", box.dataset.liveVersion || null,
           box.dataset.liveEtag || null, every);
  });
})();
