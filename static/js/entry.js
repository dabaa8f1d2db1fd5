// The referee's hand form: shows only the fields the result needs, a card picker, and the engine's
// preview of the score before saving (the server scores it; nothing is computed here).
(function () {
  "use strict";
  const form = document.getElementById("hand-form");
  if (!form) return;
  const preview = document.getElementById("preview");

  function result() {
    const checked = form.querySelector("input[name=result]:checked");
    return checked ? checked.value : "";
  }

  function showFields() {
    const r = result();
    form.querySelectorAll("[data-when]").forEach(function (el) {
      el.hidden = r !== "" && el.dataset.when.split(" ").indexOf(r) === -1;
    });
  }

  // Card picker: 52 buttons; each tap adds or removes the card from the chosen hand.
  const picker = form.querySelector("[data-picker]");
  if (picker) {
    const suits = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];
    const ranks = "A23456789TJQK";
    function field(name) { return form.querySelector("[name=" + name + "]"); }
    function cards(name) { return field(name).value.split(/\s+/).filter(Boolean); }
    function redraw() {
      const k = cards("knocker_cards"), o = cards("opponent_cards");
      picker.querySelectorAll("button").forEach(function (b) {
        b.classList.toggle("in-knocker", k.indexOf(b.dataset.card) !== -1);
        b.classList.toggle("in-opponent", o.indexOf(b.dataset.card) !== -1);
      });
      form.querySelector("[data-shows=knocker_cards]").textContent = k.join(" ") + " (" + k.length + ")";
      form.querySelector("[data-shows=opponent_cards]").textContent = o.join(" ") + " (" + o.length + ")";
    }
    suits.forEach(function (suit) {
      const row = document.createElement("div");
      for (const rank of ranks) {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.card = rank + suit[0];
        b.textContent = rank + suit[1];
        b.className = "card suit-" + suit[0];
        b.addEventListener("click", function () {
          const target = form.querySelector("input[name=picker-target]:checked").value;
          const other = target === "knocker_cards" ? "opponent_cards" : "knocker_cards";
          const mine = cards(target).filter(function (c) { return c !== b.dataset.card; });
          if (mine.length === cards(target).length) mine.push(b.dataset.card);
          field(target).value = mine.join(" ");
          field(other).value = cards(other).filter(function (c) { return c !== b.dataset.card; }).join(" ");
          redraw();
          schedulePreview();
        });
        row.appendChild(b);
      }
      picker.appendChild(row);
    });
    redraw();
  }

  let timer = null;
  function schedulePreview() {
    if (!form.dataset.preview) return;
    clearTimeout(timer);
    timer = setTimeout(runPreview, 250);
  }

  async function runPreview() {
    if (!result()) { preview.textContent = ""; return; }
    const response = await fetch(form.dataset.preview, { method: "POST", body: new FormData(form) });
    const answer = await response.json();
    preview.className = "preview " + (response.ok ? "ok" : "bad");
    if (!response.ok) {
      preview.textContent = (answer.errors || []).map(function (e) {
        return (e.field ? e.field + ": " : "") + e.message;
      }).join("; ");
      return;
    }
    const h = answer.hand;
    if (!h || !h.winner) {
      preview.textContent = h ? "Scores nothing (" + h.outcome + ")." : "";
      return;
    }
    let text = h.winner + " scores " + h.points + " (" + h.outcome.replace("_", " ") + ")";
    if (h.knocker_deadwood !== undefined && h.knocker_deadwood !== null && h.opponent_deadwood !== undefined) {
      text += ": deadwood " + h.knocker_deadwood + " v " + h.opponent_deadwood;
    }
    if (h.layoffs && h.layoffs.length) text += "; lay-offs " + h.layoffs.map(function (l) { return l.card; }).join(" ");
    if (answer.complete) text += ". This hand ends the game.";
    preview.textContent = text;
  }

  form.addEventListener("submit", function () {
    // one tap is enough; the server also records a resubmitted form only once
    form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; });
  });
  form.addEventListener("change", function () { showFields(); schedulePreview(); });
  form.addEventListener("input", schedulePreview);
  showFields();
})();
