// The score sheet page refreshes itself while the game is in progress (and stops when it is not).
(function () {
  "use strict";
  const box = document.getElementById("sheet");
  if (!box || !box.dataset.live) return;
  let last = null;
  async function refresh() {
    try {
      const response = await fetch(box.dataset.url, { headers: { "X-Requested-With": "fetch" } });
      if (!response.ok) return;
      const stamp = response.headers.get("X-Game-Updated");
      if (stamp !== last) {
        if (last !== null) box.innerHTML = await response.text();
        last = stamp;
      }
    } catch (err) {
      // offline for a moment: try again next time
    }
  }
  refresh();
  setInterval(refresh, 5000);
})();
