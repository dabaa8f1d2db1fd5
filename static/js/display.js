// The projector page: one screen at a time, each for data-seconds (the pairings one page at a time), in a
// loop. The pairings are paged here, from the real height of a row and the room the screen leaves: as many
// rows as fit in a column, as many columns as fit across, so 64 tables (or 250) never need a scrollbar.
// The standings show the top rows that fit; the bracket is scaled to fit (to the rounds being played when
// the whole would be too small to read). live.js refreshes the screens ("live:updated"): they are laid out
// again at once, before the browser paints, on the same screen and page, so nothing flashes.
(function () {
  "use strict";
  const box = document.getElementById("live");
  if (!box) return;
  const seconds = Math.max(1, parseInt(document.body.dataset.seconds || "15", 10) || 15);
  const MIN_COLUMN_REM = 14;   // a column of tables is at least this wide (3 across a 1080p screen)
  const SMALLEST_BRACKET = 0.5;  // below this scale, only the bracket rounds being played are shown
  let slides = [];
  let at = 0;
  let timer = null;

  function rem() {
    return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  }

  function show(screen) {
    box.querySelectorAll(".screen").forEach(function (s) { s.classList.toggle("shown", s === screen); });
  }

  // How the tables fall into pages on this screen: {perColumn, columns, size, pages}.
  function pairingPages(screen) {
    const list = screen.querySelector(".display-pairings");
    if (!list || !list.children.length) return null;
    const rows = Array.prototype.slice.call(list.children);
    rows.forEach(function (row, i) { row.hidden = i > 0; });  // one row to measure, nothing overflowing
    list.style.gridTemplateRows = "";
    list.style.gridTemplateColumns = "";
    const style = getComputedStyle(list);
    const rowGap = parseFloat(style.rowGap) || 0;
    const columnGap = parseFloat(style.columnGap) || 0;
    const height = rows[0].getBoundingClientRect().height;
    const perColumn = Math.max(1, Math.floor((list.clientHeight + rowGap) / (height + rowGap)));
    const columns = Math.max(1, Math.floor((list.clientWidth + columnGap) / (MIN_COLUMN_REM * rem() + columnGap)));
    const size = perColumn * columns;
    return { list: list, rows: rows, height: height, perColumn: perColumn, columns: columns, size: size,
             pages: Math.ceil(rows.length / size) };
  }

  function showPage(screen, layout, page) {
    const first = page * layout.size;
    layout.list.style.gridTemplateRows = "repeat(" + layout.perColumn + ", " + layout.height + "px)";
    layout.list.style.gridTemplateColumns = "repeat(" + layout.columns + ", minmax(0, 1fr))";
    layout.rows.forEach(function (row, i) { row.hidden = i < first || i >= first + layout.size; });
    const label = screen.querySelector(".display-page");
    if (label) {
      const last = Math.min(first + layout.size, layout.rows.length);
      label.textContent = layout.pages > 1 ? "· page " + (page + 1) + "/" + layout.pages + " (" + (first + 1) + "–" + last + " of " + layout.rows.length + ")" : "";
    }
  }

  // The top standings rows that fit the room left under the heading.
  function fitStandings(screen) {
    const room = screen.querySelector(".display-standings-box");
    if (!room) return;
    const rows = Array.prototype.slice.call(room.querySelectorAll("tbody tr"));
    rows.forEach(function (row) { row.hidden = false; });
    for (let i = rows.length - 1; i > 0 && room.scrollHeight > room.clientHeight; i--) rows[i].hidden = true;
  }

  function fitBracket(screen) {
    const room = screen.querySelector(".display-bracket-box");
    const drawn = screen.querySelector(".display-bracket");
    if (!room || !drawn) return;
    function scale() {
      drawn.style.transform = "none";
      return Math.min(1.6, room.clientWidth / drawn.scrollWidth, room.clientHeight / drawn.scrollHeight);
    }
    drawn.querySelectorAll(".round-not-now").forEach(function (r) { r.classList.remove("round-not-now"); });
    drawn.classList.remove("now-only");
    let factor = scale();
    if (factor < SMALLEST_BRACKET && drawn.querySelector(".status-ready")) {
      drawn.querySelectorAll(".bracket-round").forEach(function (r) {
        if (!r.querySelector(".status-ready")) r.classList.add("round-not-now");
      });
      drawn.querySelectorAll(".bracket-section").forEach(function (s) {
        if (!s.querySelector(".status-ready")) s.classList.add("round-not-now");
      });
      drawn.querySelectorAll(".bracket").forEach(function (b) {
        b.style.setProperty("--rounds", b.querySelectorAll(".bracket-round:not(.round-not-now)").length || 1);
      });
      // The rounds being played, their matches side by side: as many columns as make them largest.
      drawn.classList.add("now-only");
      let best = 1;
      factor = 0;
      for (let columns = 1; columns <= 8; columns++) {
        drawn.style.setProperty("--match-columns", columns);
        const here = scale();
        if (here > factor) { factor = here; best = columns; }
      }
      drawn.style.setProperty("--match-columns", best);
      factor = scale();
    }
    drawn.style.transform = "scale(" + factor + ")";
  }

  // Every screen's slides: the pairings one per page, the others one each.
  function layOut(keep) {
    slides = [];
    // The venue's check-in QR (a director's screen) stays only while round 1 is still to start.
    const venue = document.getElementById("display-venue");
    if (venue) venue.hidden = !box.querySelector('[data-screen="soon"]');
    box.querySelectorAll(".screen").forEach(function (screen) {
      let pages = 1;
      if (screen.dataset.screen === "pairings") {
        show(screen);
        const layout = pairingPages(screen);
        pages = layout ? layout.pages : 1;
      }
      for (let page = 0; page < pages; page++) slides.push({ screen: screen, kind: screen.dataset.screen, page: page, pages: pages });
    });
    at = 0;
    if (keep) {
      const same = slides.filter(function (s) { return s.kind === keep.kind; });
      if (same.length) at = slides.indexOf(same[Math.min(keep.page, same.length - 1)]);
    }
    present();
  }

  function present() {
    const slide = slides[at];
    if (!slide) return;
    show(slide.screen);
    if (slide.kind === "pairings") {
      const layout = pairingPages(slide.screen);
      if (layout) showPage(slide.screen, layout, Math.min(slide.page, layout.pages - 1));
    } else if (slide.screen.querySelector(".display-standings-box")) {
      fitStandings(slide.screen);
    }
    if (slide.kind === "bracket") fitBracket(slide.screen);
  }

  function next() {
    if (slides.length) at = (at + 1) % slides.length;
    present();
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(next, seconds * 1000);
  }

  box.addEventListener("live:updated", function () {
    // The refreshed part carries the round's clock as it now stands: it goes to the top of the page.
    var next = document.getElementById("display-clock-next"), slot = document.getElementById("display-clock-slot");
    if (next && slot) slot.innerHTML = next.innerHTML;
    layOut(slides[at]);
  });
  let resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { layOut(slides[at]); }, 200);
  });
  // For whoever drives the page (a test, a remote): the next screen now, and what is shown.
  window.ginscoreDisplay = {
    next: next,
    shown: function () { const s = slides[at]; return s ? { kind: s.kind, page: s.page + 1, pages: s.pages } : null; },
  };
  layOut(null);
  schedule();
})();
