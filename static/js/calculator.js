// The calculator page: sends the sheet to POST /api/v1/score/ and draws the scored sheet.
(function () {
  "use strict";
  const form = document.getElementById("calculator");
  const errors = document.getElementById("errors");
  const result = document.getElementById("result");

  function text(tag, value) {
    const el = document.createElement(tag);
    el.textContent = value === null || value === undefined ? "" : String(value);
    return el;
  }

  function showErrors(list) {
    errors.replaceChildren(text("strong", "The sheet was not scored:"));
    const ul = document.createElement("ul");
    for (const e of list) {
      const where = [e.hand ? "hand " + e.hand : null, e.field].filter(Boolean).join(", ");
      ul.appendChild(text("li", (where ? where + ": " : "") + e.message));
    }
    errors.appendChild(ul);
    errors.hidden = false;
    result.hidden = true;
  }

  function draw(answer) {
    const names = Object.keys(answer.players);
    const table = document.getElementById("sheet-table");
    const head = document.createElement("tr");
    for (const h of ["Hand", "Dealer", "Result", "Winner", "Points", ...names]) head.appendChild(text("th", h));
    table.tHead.replaceChildren(head);
    const body = table.tBodies[0];
    body.replaceChildren();
    for (const h of answer.hands) {
      const tr = document.createElement("tr");
      const totals = h.totals || {};
      for (const v of [h.number, h.dealer, h.outcome, h.winner || "–", h.points, ...names.map((n) => totals[n])]) {
        tr.appendChild(text("td", v));
      }
      body.appendChild(tr);
    }
    const foot = document.createElement("tr");
    for (const v of ["Grand total", "", "", "", "", ...names.map((n) => answer.players[n].total)]) foot.appendChild(text("td", v));
    table.tFoot.replaceChildren(foot);
    document.getElementById("status").textContent = answer.complete
      ? answer.winner + " wins by " + answer.margin
      : "In progress" + (answer.next_dealer ? " · next dealer: " + answer.next_dealer : "");
    document.getElementById("answer").textContent = JSON.stringify(answer, null, 2);
    errors.hidden = true;
    result.hidden = false;
  }

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    let sheet;
    try {
      sheet = JSON.parse(document.getElementById("sheet").value);
    } catch (err) {
      showErrors([{ hand: null, field: null, message: "the sheet is not valid JSON: " + err.message }]);
      return;
    }
    const response = await fetch(form.action, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-CSRFToken": form.querySelector("[name=csrfmiddlewaretoken]").value,
      },
      body: JSON.stringify(sheet),
    });
    const answer = await response.json();
    if (response.ok) draw(answer);
    else showErrors(answer.errors || [{ message: "the server answered " + response.status }]);
  });
})();
