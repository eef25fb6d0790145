// The shared result (templates/game/_share_result.html): « Partager le résultat » opens the phone's
// share sheet with the image as a file where it has one (a group chat then gets the picture);
// elsewhere it shows the image and its download, and « Copier » copies the text.
// Loaded by the result itself, so a game in progress downloads none of it; the result may come
// later (swapped in by htmx, or by the follow page's stream): its buttons are shown as it comes.
// Without this file: the image, its download and the text.
"use strict";

(() => {
  if (window.shareResultReady) return; // loaded again by a result swapped in
  window.shareResultReady = true;

  let files = false;
  try {
    const probe = new File([new Uint8Array(1)], "resultat.png", { type: "image/png" });
    files = Boolean(navigator.canShare?.({ files: [probe] }));
  } catch {
    // No File constructor or no canShare: no share sheet for files.
  }
  const copies = Boolean(navigator.clipboard?.writeText);

  function show() {
    for (const button of document.querySelectorAll("[data-copy-result]")) {
      button.hidden = files || !copies;
    }
    // A result in words alone (the evening's): the share sheet with the text, else a copy.
    for (const button of document.querySelectorAll("[data-share-words]")) {
      button.hidden = !navigator.share && !copies;
    }
  }
  show();
  new MutationObserver(show).observe(document.body, { childList: true, subtree: true });

  async function copy(section, text) {
    await navigator.clipboard.writeText(text);
    const status = section.querySelector("[data-share-status]");
    status.textContent = section.querySelector("[data-copy-result], [data-share-words]").dataset.copied;
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest?.(
      "[data-share-file], [data-copy-result], [data-share-words]",
    );
    const section = button?.closest("[data-share-result]");
    if (!section) return;
    event.preventDefault();
    // Without a share sheet for files (a computer, an older phone), the person stays in the app:
    // the image in view, its download focused, and a word on what to do (without this file, the
    // link opens the image).
    if (button.hasAttribute("data-share-file") && !files) {
      section.querySelector("img").scrollIntoView({ block: "center" });
      section.querySelector("a[download]").focus({ preventScroll: true });
      section.querySelector("[data-share-status]").textContent = button.dataset.noShareSheet;
      return;
    }
    const text = section.querySelector("[data-share-text]").textContent.trim();
    try {
      if (button.hasAttribute("data-copy-result")) {
        await copy(section, text);
        return;
      }
      if (button.hasAttribute("data-share-words")) {
        if (navigator.share) await navigator.share({ text });
        else await copy(section, text);
        return;
      }
      // The image the page shows, from the browser's cache (the server answers 304 if asked).
      const image = await fetch(section.querySelector("img").src);
      const file = new File([await image.blob()], button.dataset.fileName, { type: "image/png" });
      await navigator.share({ files: [file], text });
    } catch (error) {
      // Dismissed by the person: nothing to do. Refused (too long after the tap): the text, copied.
      if (error.name !== "AbortError" && copies) await copy(section, text).catch(() => {});
    }
  });
})();
