// « Compter les cartes » as the person taps (templates/cards/count.html): the form is sent as it
// is on each change, and the page the server answers gives each player's score and any refusal.
// The count stays the server's (the game's own rules); without this script « Compter » does it.
"use strict";

(() => {
  const form = document.querySelector("form[data-card-count]");
  if (!form || !window.fetch || !window.DOMParser) return;
  let asked = 0; // the last count asked: an answer to an older one is dropped

  const count = async () => {
    const mine = ++asked;
    let answer;
    try {
      const response = await fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" });
      if (response.status !== 200 && response.status !== 422) return; // « Compter » still works
      answer = new DOMParser().parseFromString(await response.text(), "text/html");
    } catch {
      return;
    }
    if (mine !== asked) return;
    for (const part of form.querySelectorAll("[data-count-part]")) {
      const fresh = answer.querySelector(`[data-count-part="${part.dataset.countPart}"]`);
      if (fresh) part.replaceChildren(...fresh.childNodes);
    }
    // A typed hand says it is wrong where the server says so (a ticked one has no such state).
    for (const field of form.querySelectorAll("input[type=text]")) {
      if (answer.getElementById(field.id)?.getAttribute("aria-invalid") === "true") field.setAttribute("aria-invalid", "true");
      else field.removeAttribute("aria-invalid");
    }
  };

  let typing = 0;
  form.addEventListener("change", count);
  // Typed cards are counted once the person pauses, not at each key.
  form.addEventListener("input", (event) => {
    if (event.target.type !== "text") return;
    clearTimeout(typing);
    typing = setTimeout(count, 400);
  });
})();
