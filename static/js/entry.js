// The referee's hand form: shows only the fields the chosen result needs (the others are hidden and
// disabled, so they are neither sent nor previewed), a card picker, the engine's preview of the score
// before saving (the server scores it; nothing is computed here) and, on the entry page, the PIN box of
// the side the hand goes against, under the hand read back. Focus moves on by itself where the next
// step is certain (a count of two digits is complete), so a hand takes as few touches as it can.
// A partnership deal has one block of hand fields per table ([data-hand], names prefixed "t1-", "t2-").
// A hand the server's preview accepted (or one that could not be previewed: no network) is recorded through
// the phone's outbox (outbox.js), which sends it and keeps it until the server has answered; a form the
// preview found wrong goes to the server as a plain form post, which says what is wrong beside the field.
(function () {
  "use strict";
  const form = document.getElementById("hand-form");
  if (!form) return;
  const preview = document.getElementById("preview");
  const blocks = Array.prototype.slice.call(form.querySelectorAll("[data-hand]"));
  const acceptNow = form.querySelector("[data-accept-now]");
  const record = form.querySelector("[data-record]");
  const outbox = window.ginscoreOutbox;
  // The offline PIN box: who has a PIN here, when the server cannot say who the hand goes against.
  const pinPlayers = JSON.parse(form.dataset.pinPlayers || "[]");
  function recordWords() { return record ? (record.dataset.words || record.textContent) : ""; }
  if (record) record.dataset.words = record.textContent;

  function named(block, name) {
    return block.querySelector("[name='" + block.dataset.prefix + name + "']");
  }

  // The result and the knocker, from the one-tap choice ("knock:Ann", "dead") or the plain radios.
  function play(block) {
    const chosen = block.querySelector("input[name='" + block.dataset.prefix + "play']:checked");
    if (chosen) {
      const at = chosen.value.indexOf(":");
      return at === -1 ? { result: chosen.value, knocker: "" }
        : { result: chosen.value.slice(0, at), knocker: chosen.value.slice(at + 1) };
    }
    const result = block.querySelector("input[name='" + block.dataset.prefix + "result']:checked");
    const knocker = block.querySelector("input[name='" + block.dataset.prefix + "knocker']:checked");
    return { result: result ? result.value : "", knocker: knocker ? knocker.value : "" };
  }

  // The players a hand's knocker plays against, from the rows of choices (two-player tables: one).
  function opponents(block, knocker) {
    return Array.prototype.map.call(block.querySelectorAll("[data-knocker]"), function (row) {
      return row.dataset.knocker;
    }).filter(function (name) { return name !== knocker; });
  }

  function relabel(block, chosen) {
    const others = opponents(block, chosen.knocker);
    block.querySelectorAll("[data-label-for]").forEach(function (label) {
      if (!label.dataset.original) label.dataset.original = label.textContent;
      let words = label.dataset.original;
      if (chosen.knocker && label.dataset.labelFor === "knocker") words = chosen.knocker + "'s deadwood";
      if (chosen.knocker && label.dataset.labelFor === "opponent" && others.length === 1) {
        words = others[0] + "'s deadwood (after lay-offs)";
      }
      label.textContent = words;
    });
  }

  // Hidden fields are disabled: a field the page does not show is never sent, nor previewed.
  function showFields() {
    blocks.forEach(function (block) {
      const chosen = play(block);
      block.querySelectorAll("[data-when]").forEach(function (el) {
        el.hidden = chosen.result === "" || el.dataset.when.split(" ").indexOf(chosen.result) === -1;
      });
      block.querySelectorAll("[data-unless-knocker]").forEach(function (el) {
        el.hidden = chosen.knocker !== "" && el.dataset.unlessKnocker === chosen.knocker;
      });
      block.querySelectorAll("input, select, textarea").forEach(function (input) {
        if (input.name.slice(-"picker-target".length) === "picker-target") return;
        input.disabled = input.closest("[hidden]") !== null && block.contains(input.closest("[hidden]"));
      });
      relabel(block, chosen);
    });
  }

  function visible(el) {
    return el && !el.disabled && !el.closest("[hidden]") && el.offsetParent !== null;
  }

  function pinBox() {
    return acceptNow ? acceptNow.querySelector("input[name=accept_pin]") : null;
  }

  // The next place to type after ``from``: the next empty count of this hand (or deal), else the PIN box
  // once the preview has shown it (if anyone here may accept with a PIN). Says whether there was one.
  function nextPlace(from) {
    const counts = Array.prototype.filter.call(form.querySelectorAll("input.count"), visible);
    const after = counts.slice(counts.indexOf(from) + 1).filter(function (input) { return input.value === ""; });
    if (after.length) { after[0].focus(); return true; }
    const pin = pinBox();
    if (acceptNow && !acceptNow.hidden && pin && !pin.value) { focusPin(); return true; }
    return false;
  }

  // After the preview now on its way (if any): the preview may bring the PIN box.
  function afterPreview(then) {
    if (previewPending) previewDone.then(then); else then();
  }

  function focusPin() {
    if (!acceptNow || acceptNow.hidden) return;
    const pin = pinBox();
    const choices = acceptNow.querySelector("[data-accept-choices]");
    if (!choices.hidden) { // several may accept: each taps their own name first
      choices.scrollIntoView({ block: "nearest" });
      return;
    }
    pin.focus();
    if (record) record.scrollIntoView({ block: "nearest" });
  }

  function firstCount(block) {
    return Array.prototype.filter.call(block.querySelectorAll("input.count"), visible)
      .filter(function (input) { return input.value === ""; })[0];
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
          // the knocker's hand is complete: the next taps are the opponent's cards
          if (target === "knocker_cards" && mine.length === knockerCardsNeeded(block)) {
            block.querySelector("input[name='" + block.dataset.prefix + "picker-target'][value=opponent_cards]").checked = true;
          }
          redraw();
          changed();
        });
        row.appendChild(b);
      }
      picker.appendChild(row);
    });
    redraw();
  }
  blocks.forEach(cardPicker);

  function knockerCardsNeeded(block) {
    return play(block).result === "big_gin" ? 11 : 10;
  }

  // While cards are being tapped, say what is still to tap instead of asking the engine about a hand
  // that is not all there yet (it would call the missing count "required").
  function cardsStillToTap(block) {
    const knocker = named(block, "knocker_cards"), opponent = named(block, "opponent_cards");
    if (!knocker || !visible(knocker.closest("details")) || knocker.disabled) return "";
    const k = knocker.value.split(/\s+/).filter(Boolean).length;
    const o = opponent.value.split(/\s+/).filter(Boolean).length;
    if (k === 0 && o === 0) return "";
    const need = knockerCardsNeeded(block);
    if (k < need) return "Tap the knocker's cards: " + k + " of " + need + ".";
    const count = named(block, "opponent_deadwood");
    if (o < 10 && !(count && count.value !== "" && o === 0)) {
      return "Now tap the opponent's cards: " + o + " of 10 (or type their deadwood).";
    }
    return "";
  }

  let timer = null;
  let previewPending = false;
  let previewDone = Promise.resolve();
  let previewsAsked = 0;
  // What the last preview said of the hand as it is now: "ok", "bad" (the server found it wrong),
  // "offline" (no answer: the network, or a server not answering), "" (none yet, or the hand changed).
  let previewSaid = "";
  let finishPreview = function () {};
  function schedulePreview() {
    if (!form.dataset.preview) return;
    clearTimeout(timer);
    if (!previewPending) {
      previewPending = true;
      previewDone = new Promise(function (resolve) { finishPreview = resolve; });
    }
    // A count of one digit still being typed may have a second one coming: its preview (which may open the
    // PIN box and take the keyboard) waits a little longer than after any other change.
    const at = document.activeElement;
    const typing = at && at.classList && at.classList.contains("count") && /^[0-9]$/.test(at.value);
    timer = setTimeout(function () {
      runPreview().catch(function () {}).finally(function () {
        if (timer !== null) return; // another change came in meanwhile: its preview settles this
        previewPending = false;
        finishPreview();
      });
      timer = null;
    }, typing ? 900 : 250);
  }

  // Errors go beside their fields, in the words the server chose (the field's label, never its name).
  function showErrors(errors) {
    // (the PIN's errors are the record's, not the preview's: they stay until the PIN is typed again)
    const ours = function (el) { return !acceptNow || !acceptNow.contains(el); };
    Array.prototype.filter.call(form.querySelectorAll("[data-errors-for]"), ours).forEach(function (el) { el.textContent = ""; });
    Array.prototype.filter.call(form.querySelectorAll(".has-error"), ours).forEach(function (el) { el.classList.remove("has-error"); });
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

  // The PIN box of the side the hand goes against, under the hand read back; hidden (and its fields
  // disabled) while nobody here can accept it with a PIN. Nobody is chosen for them.
  function showAccept(players) {
    if (!acceptNow) return;
    const player = acceptNow.querySelector("[data-accept-player]");
    const choices = acceptNow.querySelector("[data-accept-choices]");
    const label = acceptNow.querySelector("[data-accept-label]");
    const who = acceptNow.querySelector("[data-accept-who]");
    const appearing = acceptNow.hidden && players.length > 0;
    acceptNow.hidden = !players.length;
    acceptNow.querySelectorAll("input").forEach(function (input) { input.disabled = !players.length; });
    choices.querySelectorAll("label").forEach(function (el) { el.remove(); });
    if (players.length === 1) {
      player.value = players[0];
      choices.hidden = true;
      label.textContent = players[0] + "'s PIN";
      who.textContent = players[0] + " accepts: read the hand above, then type your PIN.";
    } else if (players.length > 1) {
      player.value = "";
      player.disabled = true;
      choices.hidden = false;
      players.forEach(function (name) {
        const option = document.createElement("label");
        option.className = "choice";
        const radio = document.createElement("input");
        radio.type = "radio";
        radio.name = "accept_player";
        radio.value = name;
        option.appendChild(radio);
        option.appendChild(line("span", "", name));
        choices.appendChild(option);
      });
      label.textContent = "PIN";
      who.textContent = players.join(" or ") + " accepts: read the hand above, tap your name, then type your PIN.";
    }
    showRecordWords();
    // The PIN box takes the keyboard the moment it appears: digits typed next are the PIN, never more of a
    // count (a count of one digit, "7", would otherwise become "71" and the hand read back no longer be the
    // hand accepted). A count typed again later is a change: the box closes and the hand is read back anew.
    const at = document.activeElement;
    if (appearing && (at === document.body || at === null || (form.contains(at) && at.classList.contains("count")))) {
      focusPin();
    }
  }

  function showRecordWords() {
    if (!record) return;
    const pin = pinBox();
    record.textContent = pin && visible(pin) && pin.value ? recordWords() + " and accept it" : recordWords();
  }

  async function runPreview() {
    previewSaid = "";
    const waiting = blocks.filter(function (block) { return !play(block).result; });
    if (waiting.length === blocks.length) { preview.className = "preview"; preview.textContent = ""; return; }
    if (waiting.length) {
      // a deal is scored as a whole: wait for every table's result before asking the engine
      preview.className = "preview";
      preview.textContent = "Enter " + waiting.map(function (b) { return b.dataset.label; }).join(" and ") +
        " to see the deal's points.";
      return;
    }
    const toTap = blocks.map(cardsStillToTap).filter(Boolean);
    if (toTap.length) {
      showErrors([]);
      preview.className = "preview";
      preview.textContent = toTap.join(" ");
      return;
    }
    const data = new FormData(form);
    data.delete("accept_pin"); // a PIN goes only with the hand it accepts, never to the preview
    data.delete("accept_player");
    const asked = ++previewsAsked;
    let response = null, answer = null;
    try {
      response = await fetch(form.dataset.preview, { method: "POST", body: data });
      answer = await response.json();
    } catch (error) {
      answer = null;
    }
    if (asked !== previewsAsked) return; // a later change asked again: only its answer is shown
    if (!answer || (!response.ok && !answer.errors)) {
      // No answer: nothing is scored here. The hand can still be recorded: it waits on the phone.
      previewSaid = "offline";
      showErrors([]);
      preview.className = "preview offline";
      preview.textContent = "No network: the score is not shown until the server has it. Record it: it waits on " +
        "this phone and is sent by itself when the network returns.";
      showAccept(pinPlayers);
      return;
    }
    previewSaid = response.ok ? "ok" : "bad";
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
    showAccept(answer.accept ? answer.accept.pin_players : []);
  }

  // Any change to the hand: the PIN typed for what was read back no longer stands.
  function changed() {
    previewSaid = "";
    showFields();
    if (acceptNow) {
      const pin = pinBox();
      if (pin.value) pin.value = "";
      showAccept([]);
    }
    schedulePreview();
  }

  form.addEventListener("change", function (event) {
    // typed fields were handled as they were typed ("input"); their change on leaving them is no news
    if (event.target.type === "text" || event.target.type === "password") return;
    if (acceptNow && acceptNow.contains(event.target)) {
      if (event.target.name === "accept_player") pinBox().focus();
      return;
    }
    changed();
    const block = event.target.closest("[data-hand]");
    if (!block) return;
    const name = event.target.name.slice(block.dataset.prefix.length);
    if (name === "play") {
      // the next step of this result: knock, its deadwood key (already on screen); gin, the count
      if (play(block).result !== "knock") {
        const next = firstCount(block);
        if (next) next.focus();
      }
    } else if (name === "knocker_deadwood" && event.target.type === "radio") {
      const next = firstCount(block);
      if (next) next.focus();
    }
  });
  form.addEventListener("input", function (event) {
    if (acceptNow && acceptNow.contains(event.target)) { showRecordWords(); return; }
    changed();
    // a count is at most two digits (98): two typed, it is complete, and the next field follows
    const count = event.target;
    if (count.classList.contains("count") && /^[0-9]{2}$/.test(count.value) && !nextPlace(count)) {
      afterPreview(function () { if (document.activeElement === count) nextPlace(count); });
    }
  });
  form.addEventListener("keydown", function (event) {
    // the keypad's Next (or Go) key moves on to what is left to type; with nothing left, it records
    const count = event.target;
    if (event.key !== "Enter" || !count.classList.contains("count")) return;
    event.preventDefault();
    afterPreview(function () {
      if (!nextPlace(count) && record) form.requestSubmit(record);
    });
  });
  // The hand as the outbox keeps it: the form's fields (the PIN among them), and what was typed in words
  // (never a score: only the server gives one).
  function summary() {
    return blocks.map(function (block) {
      const parts = [];
      const chosen = block.querySelector("input[name='" + block.dataset.prefix + "play']:checked, " +
        "input[name='" + block.dataset.prefix + "result']:checked");
      if (chosen) {
        const label = chosen.closest("label");
        const words = label && (label.querySelector(".sr") || label);
        parts.push((words ? words.textContent : chosen.value).trim());
      }
      block.querySelectorAll("input.count, fieldset.keys").forEach(function (field) {
        const input = field.matches("fieldset") ? field.querySelector("input:checked") : field;
        if (!input || input.disabled || !visible(field) || input.value === "") return;
        const label = field.matches("fieldset") ? field.querySelector("legend")
          : form.querySelector("label[for='" + input.id + "']");
        parts.push((label ? label.textContent.trim() + " " : "") + input.value);
      });
      const cards = named(block, "knocker_cards");
      if (cards && !cards.disabled && cards.value) parts.push("cards entered");
      return (blocks.length > 1 ? block.dataset.label.replace(/'s result$/, "") + ": " : "") + parts.join(", ");
    }).join("; ");
  }

  // Whether the hand may go to the outbox: the server's preview found it right, or could not be asked.
  // A PIN mistyped, or typed with nobody chosen, is said here offline (the server says it online).
  function problemHere() {
    if (blocks.some(function (block) { return !play(block).result; })) {
      return "Choose the result: who knocked or went gin, or a dead hand";
    }
    const pin = pinBox();
    if (pin && visible(pin) && pin.value) {
      if (!/^[0-9]{4,8}$/.test(pin.value)) return "A PIN is 4 to 8 digits (0-9): type it again";
      const chosen = acceptNow.querySelector("input[name=accept_player]:checked") || acceptNow.querySelector("[data-accept-player]");
      if (!chosen || !chosen.value || chosen.disabled) return "Choose who is accepting: tap your name, then type your PIN";
    }
    return "";
  }

  function startAgain() {
    form.reset();
    previewSaid = "";
    showFields();
    showErrors([]);
    preview.className = "preview";
    preview.replaceChildren();
    showAccept([]);
    outbox.numberForm();
    window.scrollTo(0, 0);
  }

  let sending = false;
  form.addEventListener("submit", function (event) {
    if (!outbox || !record || (event.submitter && event.submitter !== record)) {
      // one tap is enough; the server also records a resubmitted form only once
      form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; });
      return;
    }
    event.preventDefault();
    if (sending) return;
    sending = true;
    record.disabled = true;
    afterPreview(function () {
      const problem = problemHere();
      const queue = (previewSaid === "ok" || previewSaid === "offline") && !problem;
      if (!queue && navigator.onLine && previewSaid !== "offline") {
        // the server says what is wrong, beside the field, as without this script (nothing is recorded)
        sending = false;
        form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; });
        HTMLFormElement.prototype.submit.call(form);
        return;
      }
      if (!queue) {
        sending = false;
        record.disabled = false;
        preview.className = "preview bad";
        preview.textContent = "Not recorded: " + (problem || "see the field marked above") + ".";
        return;
      }
      outbox.add(new FormData(form), summary()).then(function () {
        startAgain();
      }, function (error) {
        preview.className = "preview bad";
        preview.textContent = "Not recorded: this phone could not keep the hand (" + error + "). Write it down.";
      }).finally(function () {
        sending = false;
        record.disabled = false;
      });
    });
  });
  showFields();
  if (acceptNow && !acceptNow.querySelector(".field-errors:not(:empty)")) showAccept([]);
  // a form sent back (refused) or a correction: show what it scores now
  if (blocks.some(function (block) { return play(block).result; })) schedulePreview();
  const problems = document.getElementById("form-errors");
  if (problems) problems.focus();
  // back from a refused acceptance: the accept card's PIN box is ready
  const card = location.hash.match(/^#accept-[0-9]+$/) ? document.querySelector(location.hash) : null;
  if (card) {
    const pin = card.querySelector("input[name=pin]");
    const choosing = card.querySelector("input[name=player][type=radio]");
    // after the browser has scrolled to the card (which would take the focus back)
    if (pin && !choosing) window.addEventListener("load", function () { setTimeout(function () { pin.focus(); }, 0); });
  }
})();
