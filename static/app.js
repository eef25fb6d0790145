// Keyboard flow for entering a round at the table, and small comforts for the new-game form.
// Everything works without this file; it only saves taps.
"use strict";

document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.isComposing) return;
  const field = event.target;
  if (!(field instanceof HTMLInputElement) || !field.form) return;

  const kind = ["data-heads", "data-card"].find((name) => field.hasAttribute(name));
  if (kind) {
    // Enter moves to the next player's field (heads, or a card for the assistant); on the last
    // one the browser submits the form. form.elements, not querySelectorAll: the round's fields
    // sit on the scoreboard (form="round-form").
    const fields = [...field.form.elements].filter((element) => element.hasAttribute(kind));
    const next = fields[fields.indexOf(field) + 1];
    if (next) {
      event.preventDefault();
      next.focus();
      next.select();
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
      if (add) add.click();
    }
  }
});

// The first key typed in a round also asks the server for a few bytes, so that a connection the
// phone, a router or the server (after 75 s idle, gunicorn.conf.py) closed during a long pause
// is open again before the tap on « Valider la manche » (docs/performance.md).
document.addEventListener("input", (event) => {
  const form = event.target.form;
  if (!form || form.id !== "round-form" || form.dataset.warmed) return;
  form.dataset.warmed = "true";
  fetch("/healthz", { method: "HEAD", cache: "no-store" }).catch(() => {});
});

// A limit or a round count typed on the new-game form selects its option: the form does what
// it shows (without JavaScript, the server asks which rule was meant).
document.addEventListener("input", (event) => {
  const field = event.target;
  const option = { limit: "end-other", round_count: "end-rounds" }[field.id];
  if (option && field.value.trim()) document.getElementById(option).checked = true;
});

// « Compter les têtes » takes the heads already typed along: the count page brings them back
// with the one it counts, so counting a pile loses no one's. (Without this file the link opens
// the count alone, and what was typed stays only in this page.)
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("[data-keeps-heads]");
  const form = document.getElementById("round-form");
  if (!link || !form) return;
  const url = new URL(link.href);
  for (const field of form.elements) {
    if (field.matches("[data-heads]") && field.value) url.searchParams.set(field.name, field.value.trim());
  }
  link.href = url;
});

// The shared result (templates/game/_share_result.html): the phone's share sheet with the image
// as a file where it has one (a group chat then gets the picture), else « Copier » for the text.
// Marks on <html> show the buttons (app.css): the result may come later, swapped in by htmx or by
// the follow page's stream. Without this file: the image, its download and the text.
(() => {
  const root = document.documentElement;
  try {
    const probe = new File([new Uint8Array(1)], "resultat.png", { type: "image/png" });
    if (navigator.canShare?.({ files: [probe] })) root.classList.add("can-share-files");
  } catch {
    // No File constructor or no canShare: no share sheet for files.
  }
  if (navigator.clipboard?.writeText) root.classList.add("can-copy");
})();

async function copyResult(section, text) {
  await navigator.clipboard.writeText(text);
  const status = section.querySelector("[data-share-status]");
  status.textContent = section.querySelector("[data-copy-result]").dataset.copied;
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest?.("[data-share-file], [data-copy-result]");
  const section = button?.closest("[data-share-result]");
  if (!section) return;
  const text = section.querySelector("[data-share-text]").textContent.trim();
  try {
    if (button.hasAttribute("data-copy-result")) {
      await copyResult(section, text);
      return;
    }
    // The image the page shows, from the browser's cache (the server answers 304 if asked).
    const image = await fetch(section.querySelector("img").currentSrc);
    const file = new File([await image.blob()], button.dataset.fileName, { type: "image/png" });
    await navigator.share({ files: [file], text });
  } catch (error) {
    // Dismissed by the person: nothing to do. Refused (too long after the tap): the text, copied.
    if (error.name !== "AbortError" && navigator.clipboard?.writeText) {
      await copyResult(section, text).catch(() => {});
    }
  }
});
