// The referee's hand form: shows only the fields each result needs, a card picker, and the engine's
// preview of the score before saving (the server scores it; nothing is computed here). A partnership
// deal has one block of hand fields per table ([data-hand], field names prefixed "t1-", "t2-").
(function () {
  "use strict";
  const form = document.getElementById("hand-form");
  if (!form) return;
  const preview = document.getElementById("preview");
  const blocks = Array.prototype.slice.call(form.querySelectorAll("[data-hand]"));

  function named(block, name) {
    return block.querySelector("[name='" + block.dataset.prefix + name + "']");
  }

  function result(block) {
    const checked = block.querySelector("input[name='" + block.dataset.prefix + "result']:checked");
    return checked ? checked.value : "";
  }

  function showFields() {
    blocks.forEach(function (block) {
      const r = result(block);
      block.querySelectorAll("[data-when]").forEach(function (el) {
        el.hidden = r !== "" && el.dataset.when.split(" ").indexOf(r) === -1;
      });
    });
  }

  // Card picker: 52 buttons; each tap adds or removes the card from the chosen hand.
  function cardPicker(block) {
    const picker = block.querySelector("[data-picker]");
    if (!picker) return;
    const suits = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];
    const ranks = "A23456789TJQK";
    function cards(name) { return named(block, name).value.split(/\s+/).filter(Boolean); }
    function redraw() {
      const k = cards("knocker_cards"), o = cards("opponent_cards");
      picker.querySelectorAll("button").forEach(function (b) {
        b.classList.toggle("in-knocker", k.indexOf(b.dataset.card) !== -1);
        b.classList.toggle("in-opponent", o.indexOf(b.dataset.card) !== -1);
      });
      block.querySelector("[data-shows=knocker_cards]").textContent = k.join(" ") + " (" + k.length + ")";
      block.querySelector("[data-shows=opponent_cards]").textContent = o.join(" ") + " (" + o.length + ")";
    }
    suits.forEach(function (suit) {
      const row = document.createElement("div");
      for (const rank of ranks) {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.card = rank + suit[0];
        b.textContent = rank + suit[1];
        b.className = "card suit-" + suit[0];
        b.setAttribute("aria-label", rank + " of " + { S: "spades", H: "hearts", D: "diamonds", C: "clubs" }[suit[0]]);
        b.addEventListener("click", function () {
          const target = block.querySelector("input[name='" + block.dataset.prefix + "picker-target']:checked").value;
          const other = target === "knocker_cards" ? "opponent_cards" : "knocker_cards";
          const mine = cards(target).filter(function (c) { return c !== b.dataset.card; });
          if (mine.length === cards(target).length) mine.push(b.dataset.card);
          named(block, target).value = mine.join(" ");
          named(block, other).value = cards(other).filter(function (c) { return c !== b.dataset.card; }).join(" ");
          redraw();
          schedulePreview();
        });
        row.appendChild(b);
      }
      picker.appendChild(row);
    });
    redraw();
  }
  blocks.forEach(cardPicker);

  let timer = null;
  function schedulePreview() {
    if (!form.dataset.preview) return;
    clearTimeout(timer);
    timer = setTimeout(runPreview, 250);
  }

  // Errors go beside their fields, in the words the server chose (the field's label, never its name).
  function showErrors(errors) {
    form.querySelectorAll("[data-errors-for]").forEach(function (el) { el.textContent = ""; });
    form.querySelectorAll(".has-error").forEach(function (el) { el.classList.remove("has-error"); });
    const loose = [];
    (errors || []).forEach(function (e) {
      const slot = e.field ? form.querySelector("[data-errors-for='" + e.field + "']") : null;
      if (slot && !slot.closest("[hidden]")) {
        slot.textContent = e.message;
        const holder = slot.closest(".field, fieldset");
        if (holder) holder.classList.add("has-error");
      } else {
        loose.push(e.message);
      }
    });
    return loose;
  }

  function line(tag, className, text) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    el.textContent = text;
    return el;
  }

  async function runPreview() {
    const waiting = blocks.filter(function (block) { return !result(block); });
    if (waiting.length === blocks.length) { preview.className = "preview"; preview.textContent = ""; return; }
    if (waiting.length) {
      // a deal is scored as a whole: wait for every table's result before asking the engine
      preview.className = "preview";
      preview.textContent = "Enter " + waiting.map(function (b) { return b.dataset.label; }).join(" and ") +
        " to see the deal's points.";
      return;
    }
    const response = await fetch(form.dataset.preview, { method: "POST", body: new FormData(form) });
    const answer = await response.json();
    preview.className = "preview " + (response.ok ? "ok" : "bad");
    if (!response.ok) {
      const loose = showErrors(answer.errors);
      preview.textContent = loose.length ? loose.join(" ") : "Not scored yet: see the field marked above.";
      return;
    }
    showErrors([]);
    // The engine's own reading of the hand, and a deal's team points; nothing is computed here.
    preview.replaceChildren();
    if (answer.team_points) {
      const teams = line("p", "team-points", "");
      answer.team_points.forEach(function (t) {
        const cell = line("span", "team" + (t.scores ? " scores" : ""), t.team + " ");
        cell.appendChild(line("strong", "", (t.scores ? "+" : "") + t.points));
        teams.appendChild(cell);
      });
      preview.appendChild(teams);
    }
    let text = answer.said ? answer.said + "." : "";
    if (answer.complete) text += " This " + (answer.team_points ? "deal" : "hand") + " ends the game.";
    preview.appendChild(line("span", "said", text));
  }

  form.addEventListener("submit", function () {
    // one tap is enough; the server also records a resubmitted form only once
    form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; });
  });
  form.addEventListener("change", function () { showFields(); schedulePreview(); });
  form.addEventListener("input", schedulePreview);
  showFields();
})();
