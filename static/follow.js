// The follow page, live: an EventSource on the game's stream swaps in its live part each time the
// game changes. A browser without EventSource asks again every few seconds with the version it
// has (If-None-Match: the server answers 304 while nothing changed). Also the share page's
// « Envoyer le lien » (the Web Share API, where the browser has it).
// Without this file both pages are complete; the follow page then has its « Recharger » link.
"use strict";

(() => {
  const share = document.querySelector("[data-share-url]");
  if (share && navigator.share) {
    share.hidden = false;
    share.addEventListener("click", () => {
      navigator.share({ title: document.title, url: share.dataset.shareUrl }).catch(() => {});
    });
  }

  const live = document.getElementById("follow");
  if (!live) return;

  function swap(html) {
    const part = new DOMParser().parseFromString(html, "text/html").getElementById("follow");
    const current = document.getElementById("follow");
    if (current && part) current.replaceWith(document.adoptNode(part));
  }

  function stopped() {
    const current = document.getElementById("follow");
    if (!current) return;
    current.setAttribute("role", "alert");
    current.textContent = current.dataset.followStopped;
  }

  const every = Number(live.dataset.followEvery) || 2000;
  let etag = live.dataset.followEtag; // the tag of the live part this page was drawn with
  let timer = null;
  let asking = false;

  async function poll() {
    timer = null;
    if (asking) return;
    asking = true;
    let wait = every;
    try {
      const headers = { "HX-Request": "true" };
      if (etag) headers["If-None-Match"] = etag;
      // no-store: the browser's cache would turn our 304 into a 200 with the old body.
      const answer = await fetch(location.pathname, { headers, cache: "no-store" });
      if (answer.status === 200) {
        etag = answer.headers.get("ETag");
        swap(await answer.text());
      } else if (answer.status === 404) {
        stopped();
        return; // for good: a stopped share never comes back under the same address
      } else if (answer.status === 429) {
        wait = every * 5;
      }
    } catch {
      wait = every * 2; // no network for now: keep trying, a little less often
    } finally {
      asking = false;
    }
    if (!document.hidden) timer = setTimeout(poll, wait);
  }

  function startPolling() {
    // A phone in a pocket asks nothing; it catches up as soon as it is looked at again.
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && timer === null) poll();
      else if (document.hidden && timer !== null) {
        clearTimeout(timer);
        timer = null;
      }
    });
    poll();
  }

  if (!window.EventSource || !live.dataset.followStream) {
    startPolling();
    return;
  }
  const stream = new EventSource(live.dataset.followStream);
  stream.addEventListener("partie", (event) => {
    swap(event.data);
    etag = document.getElementById("follow")?.dataset.followEtag;
  });
  stream.addEventListener("fin", () => {
    stream.close();
    stopped();
  });
  // EventSource reconnects by itself after a dropped connection (sending the last version it
  // got). An answer other than a stream (404: the share stopped; 503: streams are full) closes
  // it: polling then says which, and carries on if the game is still shared. A server that does
  // not answer for 5 s (stopped, the laptop asleep): the badge says so, until the stream is back,
  // so that a big screen shows no old scores as live.
  let lost = null;
  const badge = () => document.querySelector("#follow .follow-badge");
  stream.addEventListener("error", () => {
    if (stream.readyState === EventSource.CLOSED) return startPolling();
    lost ??= setTimeout(() => {
      const shown = badge();
      if (!shown) return;
      shown.dataset.live = shown.textContent;
      shown.textContent = live.dataset.followLost;
      shown.classList.add("lost");
    }, 5000);
  });
  stream.addEventListener("open", () => {
    clearTimeout(lost);
    lost = null;
    const shown = badge();
    if (shown?.dataset.live) shown.textContent = shown.dataset.live;
    shown?.classList.remove("lost");
  });
})();
