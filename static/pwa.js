// Whatever the network: a form that cannot reach the server waits in storage and goes by itself
// when it is back, once (each form names its round; a repeat gets the sheet). Also the offline
// notice, the service worker, « Garder l’écran allumé ». The forms work without this file.
"use strict";

(() => {
  // The texts are French here. app/assets.py writes one copy of this file per language, each
  // `_("…")` and `ngettext("…", "…", n)` translated from the catalogs and `isPlural` that
  // language's rule (non-zero for a plural form): no catalog travels to the phone. Values go in
  // by name, through `fill`.
  const _ = (text) => text;
  const isPlural = (n) => n > 1;
  const ngettext = (one, other, n) => (isPlural(n) ? other : one);
  const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (match, key) => values[key]);
  const list = (items) => new Intl.ListFormat(document.documentElement.lang).format(items);
  const QUEUE = "sqp-en-attente"; // forms waiting for the network, all games, oldest first
  const SCREEN = "sqp-ecran-allume"; // "0" once « Garder l’écran allumé » is unticked
  const page = location.pathname;
  const root = document.documentElement;
  let sending = false;
  let retry = 0;
  let retryTimer = 0;

  // Storage refused (private browsing, full): nothing waits, and the page says so.
  const load = (key) => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  const store = (key, value) => {
    try {
      localStorage.setItem(key, value);
      return true;
    } catch {
      return false;
    }
  };
  const read = () => {
    try {
      return JSON.parse(load(QUEUE)) || [];
    } catch {
      return [];
    }
  };
  const write = (items) => store(QUEUE, JSON.stringify(items));
  const here = () => read().filter((item) => item.page === page);
  const same = (a, b) => a.action === b.action && a.number === b.number;
  const roundForm = () => document.getElementById("round-form");
  // The round's fields sit on the scoreboard, tied to the form by form="round-form".
  const headsOf = (form) => [...form.elements].filter((field) => field.matches("[data-heads]"));
  const queueable = (form) => form instanceof HTMLFormElement && form.matches("#game form[data-hx-post]");

  // Before #game (outside htmx's swaps), or atop other pages; hidden while empty, so that a
  // page's own status (result, messages) stays its one visible status.
  const game = document.getElementById("game");
  const unsent = _("Pas de réseau : rien n’a été envoyé, ce qui est saisi reste là. Réessayez à son retour.");
  const bar = document.createElement("div");
  bar.className = "network";
  bar.innerHTML = '<p role="status" class="notice" hidden></p><p role="status" class="notice" hidden></p><ul class="hint"></ul>';
  const [banner, status, pending] = bar.children;
  if (game) game.before(bar);
  else document.getElementById("main")?.prepend(bar);

  function say(text) {
    status.textContent = text;
    status.hidden = !text;
  }

  function waitingMessage() {
    const items = here();
    if (!items.length) return "";
    const what = list(items.map((item) => item.what));
    return fill(
      ngettext("Pas de réseau : %(what)s sera envoyée dès son retour.", "Pas de réseau : %(what)s seront envoyées dès son retour.", items.length),
      { what },
    );
  }

  function showPending() {
    pending.replaceChildren(
      ...here().map((item) => {
        const line = document.createElement("li");
        line.textContent = item.summary
          ? fill(_("En attente : %(what)s (%(heads)s)"), { what: item.what, heads: item.summary })
          : fill(_("En attente : %(what)s"), { what: item.what });
        return line;
      }),
    );
  }

  function showBanner() {
    const copy = root.hasAttribute("data-offline-copy");
    banner.hidden = !copy && navigator.onLine;
    banner.textContent = copy
      ? _("Hors ligne : voici cette page telle qu’à votre dernière visite sur ce téléphone.")
      : game
        ? _("Hors ligne : les manches saisies seront envoyées plus tard.")
        : _("Hors ligne.");
  }

  // Keep a form's submission, a round before later rounds; false if storage refused it.
  function keep(form) {
    const number = form.elements.number?.value;
    const round = form.id === "round-form";
    const heads = headsOf(form);
    const item = {
      page,
      action: form.action,
      number,
      round,
      fields: [...new FormData(form)].filter(([, value]) => typeof value === "string"),
      what: round
        ? fill(_("la manche %(number)s"), { number })
        : /\/annuler$/.test(form.action)
          ? fill(_("l’annulation de la manche %(number)s"), { number })
          : fill(_("la demande « %(button)s »"), { button: form.querySelector("button")?.textContent.trim() }),
      summary: heads.map((field) => `${field.labels[0]?.textContent} ${field.value || 0}`).join(", "),
    };
    const items = read();
    const known = items.findIndex((old) => same(old, item));
    if (known >= 0) items[known] = item;
    else {
      const later = items.findIndex((old) => round && old.round && old.action === item.action && +old.number > +number);
      items.splice(later < 0 ? items.length : later, 0, item);
    }
    const kept = write(items);
    showPending();
    if (!kept) say(unsent);
    return kept;
  }

  // Keep a form htmx could not send, say so, and try again in a while.
  function keepForLater(form) {
    if (!keep(form)) return;
    say(waitingMessage());
    later();
  }

  function later() {
    clearTimeout(retryTimer);
    retry = Math.min(retry * 2 || 2000, 60000);
    retryTimer = setTimeout(flush, retry);
  }

  // Send what waits, oldest first; stop at the first the network does not carry.
  async function flush() {
    clearTimeout(retryTimer);
    if (sending) return;
    sending = true;
    let sent = 0;
    let refused = false;
    try {
      for (let item = read()[0]; item; item = read()[0]) {
        const open = roundForm()?.elements.number.value;
        if (item.round && item.page === page && open && +item.number > +open) {
          // An earlier round was refused: it goes first, once corrected.
          say(fill(_("La manche %(number)s attend que la manche %(open)s soit enregistrée."), { number: item.number, open }));
          return;
        }
        let response = null;
        try {
          response = await fetch(item.action, {
            method: "POST",
            body: new URLSearchParams(item.fields),
            headers: { "HX-Request": "true" },
            signal: AbortSignal.timeout(10000),
          });
        } catch {}
        if (!response || [429, 502, 503, 504].includes(response.status)) {
          if (item.page === page) say(waitingMessage());
          later();
          return;
        }
        write(read().filter((old) => !same(old, item)));
        sent += 1;
        if (item.page !== page) continue;
        if ([200, 409, 422].includes(response.status)) showGame(await response.text());
        if (response.status === 200) continue;
        refused = true;
        say(
          [409, 422].includes(response.status) // the refusal (or the change: 409) is on screen, values kept
            ? ""
            : fill(_("Échec de l’envoi de %(what)s (erreur %(status)s) : saisissez-la de nouveau."), {
                what: item.what,
                status: response.status,
              }),
        );
      }
      retry = 0;
      if (sent && !refused) say(_("Réseau revenu : tout ce qui attendait a été envoyé."));
      if (root.hasAttribute("data-offline-copy")) await refresh();
    } finally {
      sending = false;
      showPending();
    }
  }

  // Swap the answer in as htmx would, keeping a round being typed.
  function showGame(html) {
    const old = document.getElementById("game");
    const template = document.createElement("template");
    template.innerHTML = html;
    const fresh = template.content.getElementById("game");
    if (!old || !fresh) return;
    const form = roundForm();
    const typing = form && headsOf(form).filter((field) => field.value);
    old.replaceWith(fresh);
    window.htmx?.process(fresh);
    for (const extra of template.content.querySelectorAll("[id][data-hx-swap-oob]")) {
      document.getElementById(extra.id)?.replaceWith(extra); // e.g. « déjà enregistrée »
    }
    const next = roundForm();
    if (typing && next && next.elements.number.value === form.elements.number.value) {
      for (const field of typing) next.elements[field.name].value = field.value;
    }
  }

  async function refresh() {
    try {
      const response = await fetch(location.href, { headers: { "HX-Request": "true" } });
      if (!response.ok) return;
      showGame(await response.text());
      root.removeAttribute("data-offline-copy");
      showBanner();
    } catch {}
  }

  // Show the round form as round `number` with these values.
  function setRound(form, number, fields) {
    const values = Object.fromEntries(fields);
    form.elements.number.value = number;
    document.querySelectorAll("[data-round-number]").forEach((element) => (element.textContent = number));
    document.querySelectorAll("#round-errors, .row-error").forEach((element) => element.remove());
    for (const field of headsOf(form)) {
      field.value = values[field.name] ?? "";
      field.removeAttribute("aria-invalid");
      field.removeAttribute("aria-describedby");
    }
  }

  document.addEventListener("htmx:before:request", (event) => {
    // Something waits for this game: this form goes after it.
    const form = event.detail.ctx?.sourceElement;
    if (!queueable(form) || !here().length) return;
    event.preventDefault();
    const rounds = here().filter((item) => item.round);
    if (/\/annuler$/.test(form.action) && rounds.length) {
      // Cancelling takes back a waiting round: it never reached the server.
      const last = rounds.at(-1);
      write(read().filter((old) => !same(old, last)));
      if (roundForm()) setRound(roundForm(), last.number, last.fields);
      say(fill(_("La manche %(number)s n’est plus en attente : elle n’avait pas été envoyée."), { number: last.number }));
      showPending();
      return;
    }
    if (keep(form)) flush();
  });

  document.addEventListener("htmx:error", (event) => {
    // No answer at all: no network, or a timeout.
    const ctx = event.detail.ctx;
    if (!ctx || ctx.response) return;
    if (queueable(ctx.sourceElement)) keepForLater(ctx.sourceElement);
    else say(unsent); // e.g. a new game: sent again by hand
  });

  document.addEventListener("submit", (event) => {
    // A plain form (an edit) would leave for the browser's error page.
    const form = event.target;
    if (navigator.onLine || form.matches("[data-hx-post]") || form.method !== "post") return;
    event.preventDefault();
    say(unsent);
  });

  document.addEventListener("htmx:after:request", (event) => {
    // A proxy before a server down or restarting: as good as no network.
    const ctx = event.detail.ctx;
    if (![502, 503, 504].includes(ctx?.response?.status) || !queueable(ctx.sourceElement)) return;
    event.preventDefault();
    keepForLater(ctx.sourceElement);
  });

  document.addEventListener("focusin", (event) => {
    // Typing in a round that already waits starts the next one.
    const form = event.target.form;
    if (!event.target.matches?.("[data-heads]") || form?.id !== "round-form") return;
    const number = form.elements.number.value;
    if (here().some((item) => item.round && item.number === number)) setRound(form, +number + 1, []);
  });

  addEventListener("online", () => {
    retry = 0;
    showBanner();
    flush();
  });
  addEventListener("offline", showBanner);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && read().length) flush();
  });

  showBanner();
  if (game) {
    const rounds = here().filter((item) => item.round);
    const form = roundForm();
    if (rounds.length && form) setRound(form, rounds.at(-1).number, rounds.at(-1).fields);
    showPending();
    say(waitingMessage());
    screenSwitch();
  }
  if (read().length) flush();
  else if (root.hasAttribute("data-offline-copy") && navigator.onLine) refresh();

  if ("serviceWorker" in navigator && window.isSecureContext) {
    addEventListener("load", () => navigator.serviceWorker.register("/sw.js").catch(() => {}));
  }

  // « Garder l’écran allumé »: a wake lock while a game goes on and the page is visible.
  function screenSwitch() {
    const line = document.createElement("p");
    line.className = "screen-switch";
    game.after(line);
    if (!("wakeLock" in navigator)) {
      line.className = "hint";
      line.textContent = window.isSecureContext
        ? _("Ce navigateur ne sait pas garder l’écran allumé.")
        : _("Pour garder l’écran allumé, ouvrez le compteur par une adresse https://.");
      return;
    }
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = load(SCREEN) !== "0";
    label.append(box, " ", _("Garder l’écran allumé"));
    line.append(label);
    let lock = null;
    let asking = false;
    const update = async () => {
      const wanted = box.checked && document.visibilityState === "visible" && roundForm();
      if (wanted && !lock && !asking) {
        asking = true;
        try {
          lock = await navigator.wakeLock.request("screen");
          lock.addEventListener("release", () => (lock = null));
        } catch {} // refused (battery saver): the switch stays as chosen
        asking = false;
      } else if (!wanted && lock) {
        lock.release();
      }
    };
    box.addEventListener("change", () => {
      store(SCREEN, box.checked ? "1" : "0");
      update();
    });
    document.addEventListener("visibilitychange", update);
    document.addEventListener("htmx:after:swap", update);
    update();
  }
})();
