// The new-game form's comforts (templates/game/new_game.html only; static/app.js has the Enter
// flow from name to name). Everything works without this file: every choice shows, those of
// another game are ignored, and « Ajouter un joueur » asks the server for one more field.
"use strict";

// The form shows the choices of the game chosen: each part's data-games lists the games that
// offer it, as they declare (app/rules/games); « Ajouter un joueur » while it seats one more,
// « N joueurs : la table est complète » once it seats no more (each radio's data-most).
const showGameChoices = () => {
  const form = document.getElementById("new-game");
  const chosen = form?.querySelector("[name=game]:checked");
  if (!chosen) return;
  const seated = form.querySelectorAll("[data-name-field]").length;
  for (const part of form.querySelectorAll("[data-games]")) {
    const full = part.dataset.full;
    part.hidden = !part.dataset.games.split(" ").includes(chosen.value) || (full !== undefined && +full !== seated);
  }
  const add = form.querySelector("[data-add-player]");
  if (add) add.hidden = seated >= +chosen.dataset.most;
};
document.addEventListener("change", (event) => event.target.name === "game" && showGameChoices());
document.addEventListener("htmx:after:swap", showGameChoices);
showGameChoices();

// « Ajouter un joueur » adds the field here, at once: the server's form came back a round trip
// later, without a name typed meanwhile, and with the focus moved under the typing thumb.
document.addEventListener("click", (event) => {
  const add = event.target.closest?.("[data-add-player]");
  if (!add) return;
  event.preventDefault();
  const fields = add.form.querySelectorAll("[data-name-field]");
  const last = fields[fields.length - 1].closest(".field");
  const field = last.cloneNode(true);
  const input = field.querySelector("input");
  const label = field.querySelector("label");
  field.querySelector(".field-error")?.remove(); // the refusal was the last name's
  for (const name of ["aria-invalid", "aria-describedby", "autofocus"]) input.removeAttribute(name);
  input.id = input.name = `players-${fields.length}`;
  input.value = "";
  label.htmlFor = input.id;
  label.textContent = label.textContent.replace(/\d+/, fields.length + 1); // « Joueur 3 »
  last.after(field);
  showGameChoices();
  input.focus();
});

// A limit or a round count typed selects its option: the form does what it shows (without this
// file, the server asks which rule was meant).
document.addEventListener("input", (event) => {
  const field = event.target;
  const option = { limit: "end-other", round_count: "end-rounds" }[field.id];
  if (option && field.value.trim()) document.getElementById(option).checked = true;
});
