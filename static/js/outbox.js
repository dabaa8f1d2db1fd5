// The table's outbox: every hand the entry page records is kept on the phone (IndexedDB) until the server
// has answered for it, so a hall without network costs nothing but the wait. Each hand carries an id made
// here, sent as its Idempotency-Key: the server records it once however often it comes (a week later
// too). The outbox drains by itself (on load, when the network returns, when the page is shown again, on
// a timer), one table's hands in order, one at a time (a phone keeping several tables' hands sends them all
// from whichever table's page is open); a hand the server refuses stops that table's queue with the
// server's words until the referee mends it, sends it again or discards it. Nothing here scores a
// hand: the page shows only what the server said. Loaded before entry.js, which hands it the hands.
(function () {
  "use strict";
  const root = document.getElementById("outbox");
  if (!root || !window.indexedDB) return;
  const game = Number(root.dataset.game);
  const unit = root.dataset.unit;
  const form = document.getElementById("hand-form");
  const kept = document.documentElement.dataset.keptCopy;

  // The service worker keeps this page and its assets on the phone; a first visit keeps the page itself
  // (the worker only sees the pages opened after it).
  if ("serviceWorker" in navigator && root.dataset.worker) {
    const controlled = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register(root.dataset.worker, { scope: root.dataset.scope }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function () {
      if (kept || !window.caches) return;
      return caches.match(location.pathname).then(function (copy) {
        if (copy && controlled) return;
        return caches.open("ginscore-table-pages").then(function (cache) { return cache.add(location.pathname); });
      });
    }).catch(function () {});
  }

  // A tiny IndexedDB wrapper: "hands" (the outbox, in the order recorded) and "known" (the next hand the
  // server last said it expects, per game).
  const opened = new Promise(function (resolve, reject) {
    const request = indexedDB.open("ginscore-table", 1);
    request.onupgradeneeded = function () {
      const db = request.result;
      db.createObjectStore("hands", { keyPath: "seq", autoIncrement: true }).createIndex("game", "game");
      db.createObjectStore("known", { keyPath: "game" });
    };
    request.onsuccess = function () { resolve(request.result); };
    request.onerror = function () { reject(request.error); };
  });
  function run(store, mode, work) {
    return opened.then(function (db) {
      return new Promise(function (resolve, reject) {
        const transaction = db.transaction(store, mode);
        const request = work(transaction.objectStore(store));
        transaction.oncomplete = function () { resolve(request ? request.result : undefined); };
        transaction.onerror = transaction.onabort = function () { reject(transaction.error); };
      });
    });
  }
  function queueOf(table) { return run("hands", "readonly", function (s) { return s.index("game").getAll(table); }); }
  function queue() { return queueOf(game); }
  function everyHand() { return run("hands", "readonly", function (s) { return s.getAll(); }); }
  function save(hand) { return run("hands", "readwrite", function (s) { return s.put(hand); }); }
  function forget(hand) { return run("hands", "readwrite", function (s) { return s.delete(hand.seq); }); }

  let serverNext = Number(root.dataset.next);
  let waiting = [];
  let mending = null;  // the refused hand back in the form: recorded again, it keeps its place
  const knownRead = run("known", "readonly", function (s) { return s.get(game); }).then(function (known) {
    if (known && known.next > serverNext) serverNext = known.next;
  }).catch(function () {});
  function learnt(next) {
    if (!next || next <= serverNext) return Promise.resolve();
    serverNext = next;
    return run("known", "readwrite", function (s) { return s.put({ game: game, next: next }); });
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // The form's hand number: the next the server expects, after the hands waiting here.
  function numberForm() {
    if (!form) return;
    const number = mending ? mending.number : serverNext + waiting.length;
    form.querySelectorAll("input[name=number]").forEach(function (input) { input.value = number; });
    const title = form.querySelector("h2");
    if (title) title.textContent = unit + " " + number;
    const record = form.querySelector("[data-record]");
    if (record) {
      record.dataset.words = "Record " + unit.toLowerCase() + " " + number;
      record.textContent = record.dataset.words;
    }
  }

  function element(tag, className, text) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (text) el.textContent = text;
    return el;
  }

  let state = "";  // "offline": the last try found no network; "sending"
  function render() {
    root.replaceChildren();
    const notes = document.querySelectorAll("[data-outbox-note]");
    notes.forEach(function (note) { note.remove(); });
    if (kept) {
      const when = new Date(kept);
      const copy = element("p", "note kept-copy", "No network: this is the copy of this page kept on this phone" +
        (isNaN(when) ? "" : " (from " + when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) + ")") +
        ". Hands you record wait here and are sent by themselves when the network returns.");
      copy.dataset.outboxNote = "";
      root.before(copy);
    }
    root.hidden = waiting.length === 0 && others === 0;
    // who deals next follows from the hands the server has not seen yet: not said until it has
    document.querySelectorAll("[data-dealer]").forEach(function (el) { el.hidden = waiting.length > 0; });
    const elsewhere = others ? element("p", "note outbox-others", (others === 1 ? "1 hand" : others + " hands") +
      " of other tables " + (others === 1 ? "waits" : "wait") + " on this phone too: sent from here as well; " +
      "their table's page lists them.") : null;
    if (!waiting.length) {
      if (elsewhere) root.appendChild(elsewhere);
      numberForm();
      return;
    }
    const count = waiting.length + " " + unit.toLowerCase() + (waiting.length === 1 ? "" : "s");
    root.appendChild(element("h2", "", count + " waiting to send"));
    const stopped = waiting.find(function (hand) { return hand.refused; });
    let said;
    if (stopped) said = "The server refused " + unit.toLowerCase() + " " + stopped.number + ": mend it, send it again or discard it. The " + unit.toLowerCase() + "s after it wait.";
    else if (state === "sending") said = "Sending…";
    else if (state === "offline" || !navigator.onLine) {
      said = waiting.length === 1 ? "No network: it is kept on this phone and sent by itself when the network returns."
        : "No network: they are kept on this phone and sent by themselves when the network returns.";
    }
    else said = "Sending as soon as the server answers.";
    root.appendChild(element("p", "outbox-state", said));
    const list = element("ol", "outbox-hands");
    waiting.forEach(function (hand) {
      const item = element("li", hand.refused ? "refused" : "");
      item.appendChild(element("strong", "", unit + " " + hand.number + ": "));
      item.appendChild(document.createTextNode(hand.summary + (hand.pin ? " (with " + hand.pin + "'s PIN)" : "")));
      if (hand.refused) {
        item.appendChild(element("p", "errors", hand.refused));
        const actions = element("p", "outbox-actions");
        [["Mend it", mend], ["Send it again", retry], ["Discard it", discard]].forEach(function (pair) {
          const button = element("button", "button secondary", pair[0]);
          button.type = "button";
          button.addEventListener("click", function () { pair[1](hand); });
          actions.appendChild(button);
        });
        item.appendChild(actions);
      }
      list.appendChild(item);
    });
    root.appendChild(list);
    if (elsewhere) root.appendChild(elsewhere);
    // The totals are the server's last answer: say what they leave out.
    const headline = document.querySelector("[data-headline]");
    if (headline) {
      const since = serverNext > Number(root.dataset.next) ? " The server has recorded up to " + unit.toLowerCase() +
        " " + (serverNext - 1) + " since this page was loaded: reload it to see them." : "";
      const those = waiting.length === 1 ? unit.toLowerCase() : count;
      const note = element("p", "note totals-note", "Totals as the server last answered: they do not include the " +
        those + " waiting to send." + since);
      note.dataset.outboxNote = "";
      headline.after(note);
    }
    numberForm();
  }

  function refresh() {
    return queue().then(function (hands) { waiting = hands; render(); });
  }

  // Other tables' hands kept on this phone: said under this table's, as a count (their own pages list them).
  let others = 0;
  function otherTables() {
    return everyHand().then(function (hands) {
      others = hands.filter(function (hand) { return hand.game !== game; }).length;
    }).catch(function () {});
  }

  // The entry page's form hands a hand over: kept first, then sent.
  function add(data, summary) {
    data.delete("once");
    const pin = data.get("accept_pin") ? (data.get("accept_player") || "") : "";
    const fresh = { id: newId(), fields: Array.from(data.entries()), summary: summary, pin: pin, refused: "" };
    let saved;
    if (mending) {
      // the mended hand keeps its place; it and the hands after it are numbered from the server's next
      const mended = Object.assign(mending, fresh);
      mending = null;
      saved = queue().then(function (hands) {
        return Promise.all(hands.map(function (hand, i) {
          const item = hand.seq === mended.seq ? mended : hand;
          item.number = serverNext + i;
          item.fields = item.fields.map(function (pair) {
            return pair[0] === "number" ? ["number", String(serverNext + i)] : pair;
          });
          return save(item);
        }));
      });
    } else {
      saved = save(Object.assign(fresh, { game: game, send: root.dataset.send, made: Date.now(),
                                          number: Number(data.get("number")) || serverNext + waiting.length }));
    }
    return saved.then(function () { return refresh(); }).then(function () { drain(); });
  }

  function csrf() {
    const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  let timer = null, delay = 2000, sent = 0, lastNumber = 0;
  let askAgain = 0;  // the first hand sent that awaits acceptance after a PIN: its card asks for it again
  function later() {
    clearTimeout(timer);
    timer = setTimeout(drain, delay);
    delay = Math.min(delay * 2, 30000);
  }

  // One hand to the server. Resolves true when the server answered for it (it is then forgotten here, or
  // marked refused), false when there was no answer (it stays, and is sent again later).
  async function send(hand) {
    // The CSRF token as the cookie has it now (the form's may be older than a sign-in since).
    const token = csrf();
    const body = new FormData();
    hand.fields.forEach(function (pair) {
      if (!(token && pair[0] === "csrfmiddlewaretoken")) body.append(pair[0], pair[1]);
    });
    const headers = { "Idempotency-Key": hand.id, "Accept": "application/json" };
    if (token) headers["X-CSRFToken"] = token;
    let response, answer = null;
    try {
      response = await fetch(hand.send || root.dataset.send, { method: "POST", body: body, headers: headers,
                                                  credentials: "same-origin", redirect: "manual" });
      answer = await response.json().catch(function () { return null; });
    } catch (error) {
      return false;  // no network, or the answer lost on its way: the id makes sending it again safe
    }
    if (!answer && (response.status === 0 || response.status >= 500 || response.status === 429 || response.status === 409)) {
      return false;  // busy or away: try again later
    }
    const ours = hand.game === game;
    if (answer && ours) await learnt(answer.next_number);
    if (!answer || answer.outcome === "refused") {
      hand.refused = answer ? answer.message : "Not recorded: the server answered " +
        response.status + " (sign in again, or reload this page with the network, then send it again).";
      await save(hand);
      return true;
    }
    await forget(hand);
    if (!ours) return true;
    sent += 1;
    lastNumber = answer.number || hand.number;
    const waits = answer.outcome === "not_accepted" || (answer.outcome === "sent_before" && !answer.accepted);
    if (waits && hand.pin && !askAgain) askAgain = lastNumber;
    return true;
  }

  // One table's hands, in order, until none is left, one is refused, or the network fails (false).
  async function drainTable(table) {
    for (;;) {
      const hands = await queueOf(table);
      const head = hands[0];
      if (!head || head.refused) return true;
      if (table === game) { state = "sending"; waiting = hands; render(); }
      if (!(await send(head))) return false;
      if (table === game) state = "";
      delay = 2000;
    }
  }

  async function drainHere() {
    await knownRead;
    let reached = await drainTable(game);
    if (reached) {  // then the other tables' hands kept on this phone, each table's in order
      const others = (await everyHand()).filter(function (hand) { return hand.game !== game && hand.send; })
        .map(function (hand) { return hand.game; });
      for (const table of Array.from(new Set(others))) {
        if (!(await drainTable(table))) { reached = false; break; }
      }
    }
    if (!reached) { state = "offline"; later(); }
    waiting = await queue();
    await otherTables();
    if (state !== "offline") state = "";
    render();
    // Everything sent: the server's own page (its sheet, its words, the cards asking for a PIN), unless
    // a hand is being typed.
    if (sent && !waiting.length && !typing()) {
      location.assign(location.pathname + "?sent=" + lastNumber + (askAgain ? "#accept-" + askAgain : ""));
    }
  }

  let draining = null;
  function drain() {
    if (draining) return draining;
    const work = navigator.locks ? navigator.locks.request("ginscore-outbox-" + game, drainHere) : drainHere();
    draining = work.catch(function () { later(); }).finally(function () { draining = null; });
    return draining;
  }

  function typing() {
    return form && form.querySelector("[data-hand] input:checked:not([name$=picker-target])") !== null;
  }

  function retry(hand) {
    if (mending && mending.seq === hand.seq) mending = null;
    hand.refused = "";
    delay = 2000;
    save(hand).then(refresh).then(drain);
  }

  function discard(hand) {
    if (!window.confirm("Discard " + unit.toLowerCase() + " " + hand.number + " (" + hand.summary + ")? It was never recorded.")) return;
    if (mending && mending.seq === hand.seq) mending = null;
    forget(hand).then(refresh).then(drain);
  }

  // Back into the form, for the referee to put right; recorded again, it keeps its place in the queue.
  function mend(hand) {
    if (!form) return;
    mending = hand;
    hand.number = serverNext;
    form.reset();
    hand.fields.forEach(function (pair) {
      if (pair[0] === "csrfmiddlewaretoken" || pair[0] === "number") return;
      form.querySelectorAll("[name='" + pair[0] + "']").forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") input.checked = input.value === pair[1];
        else input.value = pair[1];
      });
    });
    numberForm();
    form.dispatchEvent(new Event("change", { bubbles: true }));
    form.scrollIntoView({ block: "start" });
  }

  window.addEventListener("online", function () { delay = 2000; drain(); });
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") drain(); });
  window.addEventListener("offline", function () { state = "offline"; render(); });
  if (kept) document.querySelectorAll(".messages").forEach(function (list) { list.hidden = true; });

  window.ginscoreOutbox = { add: add, numberForm: numberForm };
  otherTables().then(refresh).then(drain).catch(function () {});
  setInterval(function () { if (!draining && waiting.length) drain(); }, 30000);
})();
