// Keyboard flow for entering a round at the table, and small comforts for the new-game form.
// Everything works without this file; it only saves taps.
"use strict";

document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.isComposing) return;
  const field = event.target;
  if (!(field instanceof HTMLInputElement) || !field.form) return;

  const kind = ["data-score", "data-card"].find((name) => field.hasAttribute(name));
  if (kind) {
    // Enter moves to the next player's field (a score, or a card for the assistant); on the last
    // one the browser submits the form. form.elements, not querySelectorAll: the round's fields
    // sit on the scoreboard (form="round-form").
    const fields = [...field.form.elements].filter((element) => element.hasAttribute(kind));
    const next = fields[fields.indexOf(field) + 1];
    // Skyjo asks who ended the round after the scores: Enter goes there while no one is chosen
    // (the round would be refused); arrows choose, Enter then sends.
    const ender = field.form.elements.namedItem("ended_by");
    if (next) {
      event.preventDefault();
      next.focus();
      next.select();
    } else if (ender instanceof RadioNodeList && !ender.value) {
      event.preventDefault();
      ender[0].focus();
    }
  } else if (field.matches("[data-name-field]")) {
    // Enter moves to the next name, or adds a field after the last one.
    const fields = [...field.form.querySelectorAll("[data-name-field]")];
    const next = fields[fields.indexOf(field) + 1];
    event.preventDefault();
    if (next) {
      next.focus();
    } else {
      const add = field.form.querySelector("[data-add-player]");
      if (add && !add.hidden) add.click(); // hidden: the game chosen seats no more
    }
  }
});

// Text that is no number (« 5- », « e ») leaves a number field (a limit, a card of the
// assistant) empty, which the server cannot tell from a field left empty: the form is not sent,
// and the browser says what is wrong in that field (its own words: the page has only ""). Score
// fields are text fields (templates/game/_score_input.html): the server reads and refuses them.
document.addEventListener(
  "submit",
  (event) => {
    const wrong = [...event.target.elements].find((field) => field.validity?.badInput && !field.closest("[hidden]"));
    if (!wrong) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    wrong.reportValidity();
  },
  true,
);

// The first key typed in a round also asks the server for a few bytes, so that a connection the
// phone, a router or the server (after 75 s idle, gunicorn.conf.py) closed during a long pause
// is open again before the tap on « Valider la manche » (docs/performance.md).
document.addEventListener("input", (event) => {
  const form = event.target.form;
  if (!form || form.id !== "round-form" || form.dataset.warmed) return;
  form.dataset.warmed = "true";
  fetch("/healthz", { method: "HEAD", cache: "no-store" }).catch(() => {});
});

// « Compter les têtes » and the language links take what is typed along: the scores (and who
// ended the round, in Skyjo) of a round or its correction, or the new game's names and choices.
// The count page brings the scores back with the one it counts; the page comes back in the other
// language with them (app/web/game.py keeps `score-N` and `ended_by` of its address for one
// drawing; the correction's and the new game's forms are filled from it), so neither loses what
// was typed. (Without this file the link opens its page alone, and what was typed stays here.)
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("[data-keeps-scores], .languages a");
  const form = document.querySelector("#round-form, #edit-round, #new-game");
  if (!link || !form) return;
  const url = new URL(link.href);
  // A language link names the page it comes back to (`next`): what is typed goes in that address.
  const next = url.searchParams.get("next");
  const target = link.hasAttribute("data-keeps-scores") || !next ? url : new URL(next, location.origin);
  // What the address carried from a switch before goes: a field emptied since stays empty.
  for (const field of form.elements) target.searchParams.delete(field.name);
  for (const [name, value] of new FormData(form)) {
    if (value.trim() && form.elements[name].type !== "hidden") target.searchParams.set(name, value.trim());
  }
  if (target !== url) url.searchParams.set("next", target.pathname + target.search);
  link.href = url;
});

// A game scored by several phones (templates/game/_game.html, data-live): a round recorded on
// another phone shows here within seconds. The live part is fetched again only while nothing is
// typed in it (typing is never lost); until then one line says the game changed, and sending the
// round gets the usual answer for a round already recorded. Without this file: on a reload.
(() => {
  const first = document.getElementById("game");
  if (!first?.dataset.live || !window.EventSource) return;
  let newest = Number(first.dataset.version);
  // Something typed is on screen: in the round's fields, or a round's values refused because the
  // game ended elsewhere (« Valeurs envoyées », kept for « Annuler la manche »).
  const typing = () =>
    [...document.querySelectorAll("#game input[data-score]")].some((field) => field.value.trim()) ||
    !!document.querySelector("#game .sent-values");
  const catchUp = () => {
    const game = document.getElementById("game");
    if (!game || newest <= Number(game.dataset.version) || document.hidden) return;
    // This phone's own round is on its way (drawn at the tap, static/waiting.js): the stream may
    // tell of it before its answer comes, which brings that version (and the next look, once it
    // is in, any other).
    if (game.querySelector(".sheet .waiting")) return;
    if (typing()) {
      game.querySelector("[data-live-notice]")?.removeAttribute("hidden");
      return;
    }
    window.htmx?.ajax("GET", location.pathname, { target: "#game", swap: "outerHTML" });
  };
  const stream = new EventSource(first.dataset.live);
  stream.addEventListener("version", (event) => {
    newest = Math.max(newest, Number(event.data));
    catchUp();
  });
  // The game is gone for this phone (deleted, or the phone removed from the table): the page
  // asked again says so (404), where the stream would only have gone quiet.
  stream.addEventListener("fin", () => {
    stream.close();
    location.reload();
  });
  // « Rejouer avec les mêmes joueurs » on another phone of the table (or in another tab): this
  // phone goes on with the new game, as its followers do. Back comes to this game, which then
  // links the new one. A page being typed in stays and says the game changed: its round, once
  // sent, comes back refused with this game's end, the values kept and the link to the new game;
  // its fields emptied, it catches up to that end (the round that ended it moved `newest`).
  // A round on its way (drawn at the tap, its fields emptied) is as good as typed: its answer
  // stays on screen (refused, with this game's end and the link to the new one).
  stream.addEventListener("suite", (event) => {
    stream.close();
    if (!typing() && !document.querySelector("#game .sheet .waiting")) return location.assign(event.data);
    document.querySelector("#game [data-live-notice]")?.removeAttribute("hidden");
  });
  // Fields emptied, the phone looked at again, or a round's answer in: catch up then.
  document.addEventListener("input", catchUp);
  document.addEventListener("visibilitychange", catchUp);
  document.addEventListener("htmx:after:swap", catchUp);
  document.addEventListener("sqp:answered", catchUp);
})();

// While a round is on its way its fields are read only: what shows is what is sent (a value
// changed then would go with the answer, unsaid). The form's button is htmx's (hx-disable).
// Rounds that wait for the network (pwa.js) prevent the request: the fields stay open.
document.addEventListener("htmx:before:request", (event) => {
  const form = event.detail.ctx?.sourceElement;
  if (form?.id !== "round-form") return;
  const fields = [...form.elements].filter((field) => field.matches("[data-score]"));
  const open = () => fields.forEach((field) => (field.readOnly = false));
  fields.forEach((field) => (field.readOnly = true));
  // Once every listener had its say: a request prevented (rounds wait) opens them at once.
  queueMicrotask(() =>
    event.defaultPrevented ? open() : document.addEventListener("htmx:finally:request", open, { once: true }),
  );
});
