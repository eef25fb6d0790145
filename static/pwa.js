// On every page: the one line that says the network's state, the service worker, « Garder
// l’écran allumé », and the hooks that hand every round submitted to static/waiting.js, which
// draws it at the tap where rounds are (counted by static/tally.js) and sends it, now or when
// the network is back. Those two are not part of a first visit's bytes: they are fetched once a
// game's page is loaded (the service worker keeps a copy). The forms work without any of them.
"use strict";

(() => {
  // The texts are French here. app/platform/static_files.py writes one copy of this file per language, each
  // `_("…")` translated from the catalogs: no catalog travels to the phone.
  const _ = (text) => text;
  const QUEUE = "sqp-en-attente"; // rounds waiting for the network, all games, oldest first
  const SCREEN = "sqp-ecran-allume"; // "0" once « Garder l’écran allumé » is unticked
  const LAST = "sqp-derniere-partie"; // the last #game the server drew on this phone: {page, html}
  const page = location.pathname;
  const root = document.documentElement;
  const unsent = _("Pas de réseau : rien n’a été envoyé, ce qui est saisi reste là. Réessayez à son retour.");
  // static/waiting.js (this language's copy) and static/tally.js, the counting it draws from.
  const { tally, waiting: script } = document.currentScript.dataset;
  let waiting = null; // waiting.js, once asked for

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
  const queued = () => {
    try {
      return JSON.parse(load(QUEUE)) || [];
    } catch {
      return [];
    }
  };
  // Once waiting.js is in, a round another tab has on its way is that tab's (waiting.js's `mine`).
  const waitsHere = () => queued().some((item) => item.page === page && item.round && (sqp.mine?.(item) ?? true));
  const isRoundForm = (form) => form instanceof HTMLFormElement && form.id === "round-form";
  const isGameForm = (form) => form instanceof HTMLFormElement && form.matches("#game form[data-hx-post]");

  // The service worker's copy of a game is the page as last loaded; the rounds played since came
  // by htmx, and the last drawing has them. It replaces the copy now, before anyone types: a
  // round typed into the copy's form would be for a round already played, and a form swapped
  // away under a round being kept would leave its fields behind.
  if (root.hasAttribute("data-offline-copy")) drawnLast();

  // The one line that says the network's state, before #game (outside htmx's swaps) or atop
  // other pages; hidden while there is nothing to say, so that a page's own status stays its one.
  const game = document.getElementById("game");
  const line = document.createElement("p");
  line.setAttribute("role", "status");
  line.className = "notice network";
  if (game) game.before(line);
  else document.getElementById("main")?.prepend(line);

  // Shared with waiting.js: what just happened (`note`, said until the state changes), the
  // state of the rounds that wait (`state`), this line, the last drawing of the game.
  const sqp = (window.sqp = { note: "", state: () => "", show: showState, remember, unsent });

  function showState() {
    line.textContent = [sqp.note, sqp.state() || offline()].filter(Boolean).join(" ");
    line.hidden = !line.textContent;
  }

  function offline() {
    if (root.hasAttribute("data-offline-copy")) return _("Hors ligne : voici cette page telle qu’à votre dernière visite sur ce téléphone.");
    if (navigator.onLine) return "";
    if (game) return _("Hors ligne : les manches saisies seront envoyées plus tard.");
    return document.querySelector("form[method=post]")
      ? _("Hors ligne : cette page a besoin du réseau pour enregistrer ; ce qui est saisi reste là.")
      : _("Hors ligne.");
  }

  function say(note) {
    sqp.note = note;
    showState();
  }

  // The service worker's copy is the page as last loaded; the rounds played since came by htmx,
  // so the page keeps its last drawing too, for a reload without network.
  function remember(part) {
    store(LAST, JSON.stringify({ page, html: part.outerHTML }));
  }

  function drawnLast() {
    let last = null;
    try {
      last = JSON.parse(load(LAST));
    } catch {}
    const copy = document.getElementById("game");
    if (last?.page !== page || !copy) return;
    const template = document.createElement("template");
    template.innerHTML = last.html;
    const part = template.content.getElementById("game");
    if (!part) return;
    copy.replaceWith(part);
    window.htmx?.process(part);
  }

  // Run `action` with waiting.js. If it cannot load (no network before it was ever fetched),
  // nothing waits: the page says so, and what was typed is still in its fields.
  function withWaiting(action) {
    // Both fetched at once (one round trip: the network may go any moment), run in order
    // (async false); one already run is not run again.
    const add = (src, ran) => ran || new Promise((resolve, reject) => document.head.append(Object.assign(document.createElement("script"), { src, async: false, onload: resolve, onerror: reject })));
    waiting ??= Promise.all([add(tally, window.sqpTally), add(script, window.sqpWaiting)]).then(() => window.sqpWaiting);
    return waiting.then(action, () => {
      waiting = null;
      say(unsent);
    });
  }

  document.addEventListener("htmx:before:request", (event) => {
    // Every round is drawn at the tap, then sent (waiting.js: one path, network or not). Rounds
    // wait for this game: « Annuler la manche » takes the last back.
    const form = event.detail.ctx?.sourceElement;
    if (!isRoundForm(form) && !(isGameForm(form) && waitsHere())) return;
    event.preventDefault();
    // After htmx is done with the request it was asked for (its button disabled meanwhile would
    // be drawn so in the form for the next round).
    setTimeout(() => withWaiting((module) => module.submitted(form)));
  });

  // After htmx is done with the request (it enables the form again then), not inside it.
  const keepForLater = (form) => setTimeout(() => withWaiting((module) => module.submitLater(form)));

  document.addEventListener("htmx:error", (event) => {
    // No answer at all: no network, or a timeout.
    const ctx = event.detail.ctx;
    if (!ctx || ctx.response) return;
    if (isRoundForm(ctx.sourceElement)) keepForLater(ctx.sourceElement);
    else say(unsent); // e.g. a cancel, a new game, the assistant: sent again by hand
  });

  document.addEventListener("htmx:after:request", (event) => {
    // A proxy before a server down or restarting: as good as no network.
    const ctx = event.detail.ctx;
    if (![502, 503, 504].includes(ctx?.response?.status) || !isRoundForm(ctx.sourceElement)) return;
    event.preventDefault();
    keepForLater(ctx.sourceElement);
  });

  document.addEventListener("htmx:after:swap", () => {
    const part = document.getElementById("game");
    if (part) remember(part);
    say("");
  });

  document.addEventListener("submit", (event) => {
    // A plain form (an edit) would leave for the browser's error page.
    const form = event.target;
    if (navigator.onLine || form.matches("[data-hx-post]") || form.method !== "post") return;
    event.preventDefault();
    say(unsent);
  });

  // The network back, the page seen again, another tab's change: waiting.js, if anything waits.
  const resume = (elsewhere) => {
    if (waiting || queued().length || (root.hasAttribute("data-offline-copy") && navigator.onLine)) {
      withWaiting((module) => module.resume(elsewhere));
    }
  };
  addEventListener("storage", (event) => event.key === QUEUE && game && resume(true));
  addEventListener("online", () => {
    say("");
    resume();
  });
  addEventListener("offline", () => say(""));
  // Back or Forward to a page the browser kept whole: the sheet as it now stands (the server
  // asks for no such copy of a game, but a browser may keep one all the same).
  addEventListener("pageshow", (event) => event.persisted && game && navigator.onLine && withWaiting((module) => module.resume(true)));
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && resume());

  const worker = "serviceWorker" in navigator && window.isSecureContext;
  if (game) {
    if (!root.hasAttribute("data-offline-copy")) remember(game);
    screenSwitch();
    // Fetched once the page is loaded (the service worker's copy after that): the first round is
    // drawn at its tap, and a round that has to wait finds it without a network.
    if (document.getElementById("round-form")) addEventListener("load", () => withWaiting(() => {}));
  }
  showState();
  resume();

  if (worker) addEventListener("load", () => navigator.serviceWorker.register("/sw.js").catch(() => {}));

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
      const wanted = box.checked && document.visibilityState === "visible" && document.getElementById("round-form");
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
