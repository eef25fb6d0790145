// Every round submitted, loaded by static/pwa.js once a game's page is loaded: each is kept in
// storage, drawn at the tap where rounds are (its own line in « Manches », counted in « Scores »,
// the end it would bring) and sent at once; the server's answer then replaces the drawing. One the
// network does not carry waits, can be taken back before it leaves, and goes by itself when the
// network is back, in order, once (each form names its round; a repeat gets the sheet).
// Only what the person submitted ever waits: typing queues nothing.
"use strict";

(() => {
  // The texts are French here; app/platform/static_files.py writes a copy per language, as for pwa.js.
  const _ = (text) => text;
  const isPlural = (n) => n > 1;
  const ngettext = (one, other, n) => (isPlural(n) ? other : one);
  const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (match, key) => values[key]);
  const list = (items) => new Intl.ListFormat(document.documentElement.lang).format(items);
  const QUEUE = "sqp-en-attente"; // as in pwa.js
  const TAB = "sqp-onglet"; // sessionStorage: this tab's name for the rounds it sends
  const sqp = window.sqp; // pwa.js's: the status line and what it says
  const page = location.pathname;
  const root = document.documentElement;
  let sending = false;
  let retry = 0;
  let retryTimer = 0;
  let ending = ""; // the end the waiting rounds would bring, said with them
  let pristine = null; // #game as the server drew it, before the waiting rounds were added

  // A round kept before its fields were named `score-N` holds `heads-N`: read as today's (the
  // server takes either, app/web/forms.py).
  const renamed = (item) => ({ ...item, fields: item.fields?.map(([name, value]) => [name.replace(/^heads-/, "score-"), value]) });
  const read = () => {
    try {
      return (JSON.parse(localStorage.getItem(QUEUE)) || []).map(renamed);
    } catch {
      return [];
    }
  };
  const write = (items) => {
    try {
      localStorage.setItem(QUEUE, JSON.stringify(items));
      return true;
    } catch {
      return false;
    }
  };
  // A queue item is a submitted form: {page, action, number, fields, round, tab, waited};
  // `waited` once the network did not carry it (« en attente »), until then it is being sent
  // (« envoi… ») by the tab that kept it, the only one to draw or send it (`mine`):
  // another tab of the phone on the game learns it from the server, as another phone would.
  // This tab's name, kept for its life (a reload, another game's page); storage refused: this
  // page's alone.
  const tab = (() => {
    const made = Math.random().toString(36).slice(2);
    try {
      if (!sessionStorage.getItem(TAB)) sessionStorage.setItem(TAB, made);
      return sessionStorage.getItem(TAB);
    } catch {
      return made;
    }
  })();
  // Rounds from before tabs were named (no `tab`) had all waited for the network.
  const mine = (sqp.mine = (item) => item.waited || !item.tab || item.tab === tab);
  const here = () => read().filter((item) => item.page === page && item.round && mine(item));
  const same = (a, b) => a.action === b.action && a.number === b.number && a.tab === b.tab;
  // A typed score as the server reads it (app/web/forms.py's score_number): a whole number, maybe
  // after a minus as phones type it (« -5 », « −5 », « –5 »); blank is 0; anything else null.
  const scoreOf = (typed) => {
    const text = typed.trim();
    const sign = /^[-\u2212\u2013]/.test(text) ? -1 : 1;
    const digits = /^[-\u2212\u2013+]/.test(text) ? text.slice(1).trim() : text;
    if (!text) return 0;
    return /^[0-9]+$/.test(digits) ? sign * Number(digits) : null;
  };
  const scoresOf = (item) => item.fields.filter(([name]) => name.startsWith("score-")).map(([, value]) => scoreOf(value) ?? 0);
  const enderOf = (item) => {
    const seat = item.fields.find(([name]) => name === "ended_by")?.[1];
    return seat ? +seat : null; // « A fini la manche », where the game asks (Skyjo)
  };
  const roundForm = () => document.getElementById("round-form");
  // The round's fields sit on the scoreboard, tied to the form by form="round-form"; a copy not
  // yet in the page has no form owner, hence a query.
  const fieldsIn = (part) => [...part.querySelectorAll("[data-score]")];
  const nameOf = (row) => row.querySelector("label, .name").textContent;
  // Something typed is on screen (as static/app.js's `typing`): the round's values, or those a
  // refusal brought back (« Valeurs envoyées »). Another tab's change never takes them away.
  const typing = (part) => fieldsIn(part).some((field) => field.value.trim()) || !!part.querySelector(".sent-values");
  const showChanged = (part) => part.querySelector("[data-live-notice]")?.removeAttribute("hidden");

  // What the status line says of the rounds that wait (pwa.js adds the rest).
  sqp.state = () => {
    const numbers = here().map((item) => item.number);
    const open = roundForm()?.elements.number.value;
    if (!numbers.length) return "";
    if (sending) return fill(_("Envoi de la manche %(number)s…"), { number: numbers[0] });
    if (open && +numbers[0] > +open) {
      // An earlier round was refused: it goes first, once corrected.
      return fill(_("La manche %(number)s attend que la manche %(open)s soit enregistrée."), { number: numbers[0], open });
    }
    const text = ngettext("Pas de réseau : la manche %(numbers)s attend, comptée dans les totaux ; elle partira dès son retour.", "Pas de réseau : les manches %(numbers)s attendent, comptées dans les totaux ; elles partiront dès son retour.", numbers.length);
    return fill(text, { numbers: list(numbers) }) + ending;
  };

  // Show the rounds waiting for this game where rounds are. Always drawn from the page as the
  // server drew it, so that a round taken back leaves no trace. Drawn for another tab's change
  // (`elsewhere`), a page with something typed that the drawing would not keep stays as it is.
  function draw(focusFirst, elsewhere) {
    const live = document.getElementById("game");
    let items = here();
    if (!live || (!items.length && !pristine)) return;
    pristine ??= live.cloneNode(true);
    // A round this sheet is already past (its page left while it was on its way, recorded
    // there or elsewhere) is not drawn again: it still goes, and the server says which.
    const open = pristine.querySelector("#round-form [name=number]")?.value;
    items = items.filter((item) => !open || +item.number >= +open);
    const copy = pristine.cloneNode(true);
    ending = items.length ? addWaiting(copy, items) : "";
    const active = document.activeElement?.id;
    const kept = keepTyping(live, copy);
    if (elsewhere && !kept && typing(live)) return showChanged(live);
    live.replaceWith(copy);
    window.htmx?.process(copy);
    if (!items.length) pristine = null;
    // After a round is kept: the next round's first field or, when that round would end the
    // game (the form is gone), the line that says so, as the result is once online — never
    // « Annuler la manche », which the Enter that sent the round, held a moment, would press.
    const line = document.querySelector(".notice.network");
    if (line) line.tabIndex = -1;
    const next = fieldsIn(copy).find((field) => !field.closest("[hidden]")) || line;
    const focus = focusFirst ? next : kept && active ? document.getElementById(active) : null;
    sqp.show(); // the line shown before it is focused (online with no server, it was still hidden)
    focus?.focus();
  }

  // What is being typed stays while the form is for the same round; true if it is.
  function keepTyping(old, fresh) {
    const number = (part) => part.querySelector("#round-form [name=number]")?.value;
    if (!number(old) || number(old) !== number(fresh)) return false;
    const typed = fieldsIn(old);
    fieldsIn(fresh).forEach((field, seat) => (field.value = typed[seat]?.value ?? ""));
    chooseEnder(fresh, old.querySelector("[name=ended_by]:checked")?.value);
    return true;
  }

  // « A fini la manche » (Skyjo): the seat chosen, or no one.
  function chooseEnder(part, seat) {
    for (const radio of part.querySelectorAll("[name=ended_by]")) radio.checked = radio.value === seat;
  }

  // Count the waiting rounds in this copy of #game as the server will once they are recorded:
  // static/tally.js, with the rules and words the server handed the page (data-rules), does the
  // counting; this only draws what it found. Return what the end would be, if any.
  function addWaiting(copy, items) {
    const board = copy.querySelector("[data-rules]");
    if (!board) return "";
    const rules = JSON.parse(board.dataset.rules);
    const rows = [...board.tBodies[0].rows].filter((row) => !row.matches(".row-error"));
    const counted = window.sqpTally(rules, rows.map((row) => +row.querySelector(".total").textContent), items.map(scoresOf), items.map(enderOf));
    const rounds = counted.rounds;
    const crown = (copy.querySelector("#scores .crown") || copy.querySelector("#crown")?.content.firstElementChild)?.cloneNode(true);
    rows.forEach((row, seat) => {
      const total = counted.totals[seat];
      const leads = counted.leaders.includes(seat);
      const cell = row.querySelector(".total");
      cell.textContent = total;
      cell.classList.add("waiting");
      const last = rounds.at(-1)[seat] || 0;
      row.querySelector(".last").textContent = last < 0 ? `${last}` : `+${last}`;
      row.classList.toggle("leader", leads);
      const who = row.querySelector(".who");
      who.querySelector(".crown, .rank")?.remove();
      const rank = document.createElement("span");
      rank.className = "rank";
      rank.innerHTML = fill(_("%(rank)s<sup>e</sup>"), { rank: counted.ranks[seat] });
      who.append(" ", leads && crown ? crown.cloneNode(true) : rank);
      const meter = row.querySelector("meter");
      row.querySelector(".warning")?.remove();
      row.classList.toggle("close", counted.close[seat]);
      if (!meter) return;
      meter.value = Math.min(total, meter.max);
      meter.ariaLabel = fill(_("%(name)s : %(total)s sur %(limit)s"), { name: `\u2068${nameOf(row)}\u2069`, total, limit: meter.max });
      const warning = counted.warnings[seat];
      if (warning) meter.after(Object.assign(document.createElement("span"), { className: "warning", textContent: warning }));
    });
    // « donne » moves as the server will move it once the rounds are recorded.
    const deal = board.querySelector(".deal");
    if (deal && counted.dealer === null) deal.remove();
    else if (deal) rows[counted.dealer].querySelector("label, .name").after(" ", deal); // a space: « Chloé donne », as the server writes it
    addRows(copy.querySelector(".sheet"), items, rounds, counted.totals, rules.played);

    const last = items.at(-1).number;
    const cancel = copy.querySelector("form[action$='/annuler']");
    // A round on its way cannot be taken back: the answer may already be recorded.
    if (cancel) cancel.hidden = !items.at(-1).waited;
    if (cancel?.hidden === false) {
      cancel.querySelector(".hint").textContent = fill(_("Retire la manche %(number)s, en attente : elle ne sera jamais envoyée."), { number: last });
    }
    copy.querySelector("form[action$='/retablir']")?.remove(); // it would put a round where one waits
    // « Qui donne ? » and « Tirer au sort » would act on the game before these rounds (a 409),
    // and lots are for before the first: back with the server's drawing.
    copy.querySelector("form.dealer")?.remove();
    const number = copy.querySelector("#round-form [name=number]");
    if (!number || number.value !== items[0].number) return ""; // the form holds a refused round
    // The form is for the round after those that wait, empty.
    number.value = +last + 1;
    // Drawn from the game with the rounds that wait: each one recorded moves its version once.
    const version = copy.querySelector("#round-form [name=version]");
    if (version) version.value = +version.value + items.length;
    copy.querySelectorAll("[data-round-number]").forEach((element) => (element.textContent = number.value));
    copy.querySelectorAll("#round-errors, .row-error").forEach((element) => element.remove());
    for (const field of fieldsIn(copy)) {
      field.value = "";
      field.removeAttribute("aria-invalid");
      field.removeAttribute("aria-describedby");
    }
    // Who ended the round waiting did not end the next: kept, it doubled the next round too.
    chooseEnder(copy, null);
    if (!counted.over) return "";
    // No round after the end: the form goes until the end is recorded, or taken back.
    copy.querySelectorAll("#round-form, #scores .entry").forEach((element) => (element.hidden = true));
    const winners = counted.winners.map((seat) => nameOf(rows[seat]));
    const text = ngettext("Si elle est enregistrée ainsi, la manche %(number)s termine la partie : %(names)s gagne avec %(total)s.", "Si elle est enregistrée ainsi, la manche %(number)s termine la partie : victoire partagée de %(names)s, avec %(total)s.", winners.length);
    return " " + fill(text, { number: last, names: list(winners), total: counted.totals[counted.winners[0]] });
  }

  // Each waiting round as its own line of « Manches », and the totals that count them.
  function addRows(sheet, items, rounds, totals, played) {
    const cells = (header, values) => {
      const row = document.createElement("tr");
      const th = Object.assign(document.createElement("th"), { scope: "row", textContent: header });
      row.append(th, ...values.map((value) => Object.assign(document.createElement("td"), { textContent: value })));
      return row;
    };
    if (!played) sheet.tBodies[0].replaceChildren(); // « Aucune manche pour l’instant. »
    items.forEach((item, index) => {
      const mark = item.waited ? _("Manche %(number)s — en attente") : _("Manche %(number)s — envoi…");
      const row = cells(fill(mark, { number: item.number }), rounds[index]);
      row.className = "waiting";
      sheet.tBodies[0].append(row);
    });
    sheet.tFoot?.remove();
    sheet.createTFoot().append(cells(_("Total"), totals));
    sheet.tFoot.rows[0].className = "waiting";
  }

  // Keep a submitted round, before any later one of its game; false if storage refused it.
  function keep(form) {
    const item = {
      page,
      action: form.action,
      number: form.elements.number.value,
      round: true,
      tab,
      waited: !navigator.onLine,
      fields: [...new FormData(form)].filter(([, value]) => typeof value === "string"),
    };
    const items = read().filter((old) => !same(old, item));
    const later = items.findIndex((old) => old.action === item.action && +old.number > +item.number);
    items.splice(later < 0 ? items.length : later, 0, item);
    return write(items);
  }

  // A score that is no whole number (« 5- », « 1.5 ») is refused beside its field, in the
  // server's words: kept, it would count as 0 until sent, then come back refused. So is one out
  // of a player's range for this game (data-rules' `range`), before it is drawn as counted. What
  // only the server knows (the deck's whole round, another phone's round) comes back from it.
  // True if any is refused.
  function refuseUnreadable(form) {
    const [low, high] = JSON.parse(document.querySelector("[data-rules]")?.dataset.rules || "{}").range || [-Infinity, Infinity];
    const why = (typed) => {
      const score = scoreOf(typed);
      if (score === null) return fill(_("« %(typed)s » n’est pas un nombre entier."), { typed: typed.trim().slice(0, 20) });
      return score < low || score > high ? fill(_("De %(low)s à %(high)s pour un joueur en une manche."), { low, high }) : "";
    };
    document.querySelectorAll("[data-unreadable]").forEach((element) => element.remove());
    const fields = [...form.elements].filter((field) => field.matches("[data-score]"));
    for (const field of fields) {
      if (field.hasAttribute("aria-describedby") && !document.getElementById(field.getAttribute("aria-describedby"))) {
        field.removeAttribute("aria-invalid");
        field.removeAttribute("aria-describedby");
      }
    }
    const wrong = fields.filter((field) => why(field.value));
    for (const field of wrong) {
      const id = `${field.id}-error`;
      document.getElementById(id)?.closest(".row-error")?.remove(); // the server's, of a value gone
      const row = field.closest("tr");
      const name = Object.assign(document.createElement("bdi"), { textContent: nameOf(row) });
      const message = why(field.value);
      const [before, after] = fill(_("%(name)s : %(message)s"), { name: "\0", message }).split("\0");
      const text = Object.assign(document.createElement("p"), { className: "field-error", id });
      text.append(before, name, after);
      const line = Object.assign(document.createElement("tr"), { className: "row-error" });
      line.dataset.unreadable = "";
      line.append(Object.assign(document.createElement("td"), { colSpan: 4 }));
      line.cells[0].append(text);
      row.after(line);
      field.setAttribute("aria-invalid", "true");
      field.setAttribute("aria-describedby", id);
    }
    wrong[0]?.focus();
    wrong[0]?.select();
    return wrong.length > 0;
  }

  // A round that cannot go now: it waits, shown, and the form is for the next one.
  function submitLater(form) {
    // A double tap: its second half hits the form drawn by the first (gone), or the next round's,
    // still blank while the first is on its way.
    const blank = fieldsIn(document).every((field) => !field.value.trim());
    if (!form.isConnected || (blank && here().some((item) => !item.waited))) return;
    if (refuseUnreadable(form)) return;
    sqp.note = keep(form) ? "" : sqp.unsent;
    if (!sqp.note) {
      const messages = document.getElementById("messages"); // e.g. « Manche 8 annulée » is past
      messages?.replaceChildren();
      messages?.removeAttribute("role");
      flush(); // first: the line then says the round is being sent
      draw(true);
      document.getElementById("scores")?.scrollIntoView(); // the new totals, as htmx showed them
    }
    sqp.show();
  }

  // « Annuler la manche » while rounds wait: the last one leaves the queue, unsent, and the form
  // offers it again.
  function takeBack() {
    const last = here().at(-1);
    write(read().filter((old) => !same(old, last)));
    draw();
    const form = roundForm();
    if (form?.elements.number.value === last.number) setRound(form, last);
    sqp.note = fill(_("La manche %(number)s n’est plus en attente : elle n’avait pas été envoyée."), { number: last.number });
    sqp.show();
  }

  function setRound(form, item) {
    const values = Object.fromEntries(item.fields);
    form.elements.number.value = item.number;
    if (values.version) form.elements.version.value = values.version;
    document.querySelectorAll("[data-round-number]").forEach((element) => (element.textContent = item.number));
    const fields = fieldsIn(document);
    for (const field of fields) field.value = values[field.name] ?? "";
    chooseEnder(document, values.ended_by);
    // Selected, as a field reached by Tab is: a digit typed now replaces the value (a caret
    // before it, where a script's focus puts it, made « 1 » then « 9 » read « 19 »).
    fields[0]?.focus();
    fields[0]?.select();
  }

  // Sooner or later, but not before the server said it could take it (Retry-After, in seconds).
  function later(response) {
    clearTimeout(retryTimer);
    if (here().some((item) => !item.waited)) {
      write(read().map((item) => ({ ...item, waited: true })));
      draw();
    }
    const asked = 1000 * (+response?.headers.get("Retry-After") || 0);
    retry = Math.max(Math.min(retry * 2 || 2000, 60000), Math.min(asked, 300000));
    retryTimer = setTimeout(flush, retry);
  }

  // Send what waits, one tab at a time where the browser can tell (Web Locks need https).
  async function flush() {
    clearTimeout(retryTimer);
    if (sending || !navigator.onLine) return;
    if (!read().some(mine)) return root.hasAttribute("data-offline-copy") && refresh(); // the page as it stands
    sending = true;
    try {
      await (navigator.locks ? navigator.locks.request(QUEUE, sendAll) : sendAll());
    } finally {
      sending = false;
      sqp.show();
    }
  }

  // Oldest first; stop at the first the network does not carry, or a round refused. A round
  // another phone of the table recorded meanwhile (409, its sheet now past it) holds back none
  // typed after it here: they are the table's next rounds. It goes again once they are sent, and
  // its answer, the values back in the form for the round then open, is what stays on screen.
  async function sendAll() {
    let sent = 0; // rounds of this page that had waited for the network
    const passed = new Set(); // the rounds sent again last, once each
    if (root.hasAttribute("data-offline-copy")) await refresh(); // the sheet as it stands first
    for (let item = read().find(mine); item; item = read().find(mine)) {
      const open = roundForm()?.elements.number.value;
      if (item.page === page && item.round && open && +item.number > +open) return;
      sqp.show();
      const response = await post(item);
      if (!response || [429, 502, 503, 504].includes(response.status)) return later(response);
      const rest = read().filter((old) => !same(old, item));
      write(rest);
      if (item.page !== page) continue;
      sent += item.waited ? 1 : 0;
      if (![200, 409, 422].includes(response.status)) return failed(item, response.status);
      const html = await response.text();
      const key = `${item.action} ${item.number}`;
      const after = rest.some((old) => old.page === page && old.round && mine(old));
      if (response.status === 409 && after && !passed.has(key) && pastRound(html, item)) {
        passed.add(key);
        write([...rest, item]); // after the others: nothing was recorded for it
        continue;
      }
      showGame(html, response.status !== 200);
      if (response.status !== 200) return; // the refusal (or the change: 409) is on screen, values kept
    }
    retry = 0;
    if (sent) sqp.note = _("Réseau revenu : tout ce qui attendait a été envoyé.");
  }

  // Whether an answer's sheet is past this round (its form is for a later one): the round was
  // recorded elsewhere, not cancelled there.
  function pastRound(html, item) {
    const template = document.createElement("template");
    template.innerHTML = html;
    return +template.content.querySelector("#round-form [name=number]")?.value > +item.number;
  }

  async function post(item) {
    try {
      return await fetch(item.action, {
        method: "POST",
        body: new URLSearchParams(item.fields),
        headers: { "HX-Request": "true" },
        signal: AbortSignal.timeout(10000),
      });
    } catch {
      return null;
    }
  }

  // An answer that is no page (a server error, an expired form): the round comes back, nothing lost.
  function failed(item, status) {
    draw();
    const form = roundForm();
    if (form?.elements.number.value === item.number) setRound(form, item);
    sqp.note = fill(_("Échec de l’envoi de la manche %(number)s (erreur %(status)s) : elle est de nouveau dans le formulaire."), { number: item.number, status });
  }

  // Swap the answer in as htmx would, then the rounds still waiting; a round being typed stays,
  // unless the answer brings back a refused one with its values.
  function showGame(html, refused) {
    const old = document.getElementById("game");
    const template = document.createElement("template");
    template.innerHTML = html;
    const fresh = template.content.getElementById("game");
    if (!old || !fresh) return;
    const active = document.activeElement;
    const kept = !refused && keepTyping(old, fresh);
    // Another tab's round (or a change elsewhere) while something is typed here for a round
    // the answer no longer has open (past, or the game over): the page stays, says the game
    // changed, and catches up once the fields are emptied or sent (static/app.js).
    if (!refused && !kept && typing(old) && !old.querySelector(".sheet .waiting")) return showChanged(old);
    // A script of the answer (the result's share.js) runs as in htmx's swap: one parsed by a
    // template does not.
    for (const script of fresh.querySelectorAll("script")) {
      const live = document.createElement("script");
      for (const { name, value } of script.attributes) live.setAttribute(name, value);
      live.textContent = script.textContent;
      script.replaceWith(live);
    }
    old.replaceWith(fresh);
    window.htmx?.process(fresh);
    // Typing goes on where it was (the caret too); else the answer's own focus, as htmx gives
    // it: the value to fix, the next round's first field, the result.
    const same = kept && active?.id && old.contains(active) && document.getElementById(active.id);
    if (same) {
      same.focus();
      if (active.selectionStart != null) same.setSelectionRange(active.selectionStart, active.selectionEnd);
    } else if (refused || old.contains(active) || active === document.body || active?.matches("[role=status]")) {
      // Where htmx's swap showed it (the form's hx-swap, HX-Reswap): the scores, or the top
      // when the game is over (the result above them).
      document.getElementById(fresh.querySelector(".result") ? "main" : "scores")?.scrollIntoView();
      fresh.querySelector("[autofocus]")?.focus({ preventScroll: !!fresh.querySelector(".result") });
    }
    sqp.remember(fresh);
    for (const extra of template.content.querySelectorAll("[id][data-hx-swap-oob]")) {
      document.getElementById(extra.id)?.replaceWith(extra); // e.g. « déjà enregistrée »
    }
    pristine = null;
    draw();
    document.dispatchEvent(new Event("sqp:answered")); // static/app.js catches up then
  }

  async function refresh() {
    try {
      const response = await fetch(location.href, { headers: { "HX-Request": "true" } });
      if (!response.ok) return;
      showGame(await response.text());
      root.removeAttribute("data-offline-copy");
      sqp.show();
    } catch {}
  }

  document.addEventListener("htmx:after:swap", () => (pristine = null)); // the server's new drawing

  // What is typed in a round's fields stays when another write of the page redraws the game
  // (« Annuler la manche », « Changer »…; its answer knows nothing of the fields): the new round
  // form gets it back, in the fields the answer left empty. Not after a round of its own: its
  // values were sent (and a refusal brings them back itself).
  let typed = [];
  document.addEventListener("htmx:before:swap", (event) => {
    const source = event.detail.ctx?.sourceElement;
    if (source?.id === "round-form") return;
    typed = [...document.querySelectorAll("#game input[data-score]")].filter((field) => field.value.trim());
    typed = typed.map((field) => [field.id, field.value]);
  });
  document.addEventListener("htmx:after:swap", () => {
    for (const [id, value] of typed) {
      const field = document.getElementById(id);
      if (field?.matches("[data-score]") && !field.value.trim()) field.value = value;
    }
    typed = [];
  });
  // Leaving with a round on its way (a reload, the rematch): its answer is lost with the page, so
  // it waits, for whichever tab of the game is open next (a repeat gets the sheet).
  addEventListener("pagehide", () => {
    const items = read();
    if (items.some((item) => item.tab === tab && !item.waited)) {
      write(items.map((item) => (item.tab === tab ? { ...item, waited: true } : item)));
    }
  });

  draw();
  sqp.show();

  window.sqpWaiting = {
    // A form of the game while rounds wait: a round goes after them, a cancel takes one back.
    submitted: (form) => (form.id === "round-form" ? submitLater(form) : /\/annuler$/.test(form.action) && takeBack()),
    submitLater,
    // Something changed (the network, another tab): show it, send what can go.
    resume(elsewhere) {
      retry = 0;
      if (!navigator.onLine) draw(false, elsewhere);
      else if (read().some(mine)) flush();
      else if (elsewhere || root.hasAttribute("data-offline-copy")) refresh(); // as it now stands
      sqp.show();
    },
  };
})();
