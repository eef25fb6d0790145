{# The service worker, rendered by app/platform/installed_app.py: this version's static files, and the last copy of
   each game page opened on this phone (and of home), to show its scores again without network.
   Comments are Jinja's: they stay here and cost the phone no byte. #}
"use strict";

const VERSION = {{ version | tojson }};
const PRECACHE = {{ precache | tojson }};
const STATIC = "static-" + VERSION;
const PAGES = "pages"; {# kept across versions: a deploy must not lose a table's offline copy #}
const KEPT_PAGES = 50; {# the pages most recently opened; each copy is a few KB #}
const SLOW_MS = 6000; {# a network this slow is no network at the table: show the copy #}
{# The pages kept for offline, as the web layer names them (app/web/game.py, KEPT_OFFLINE). #}
const KEPT = new RegExp({{ kept_pages | tojson }});
{# app.1a2b3c4d5e6f.css -> app.css: an old page's files, in their current version. #}
const plain = (path) => path.replace(/\.[0-9a-f]{12}(\.[^./]+)$/, "$1");
const current = new Map(PRECACHE.map((url) => [plain(url), url]));
{# The page links the stylesheet only when told that this cache holds it (else it writes it in:
   app/platform/static_files.py); a cookie would outlive an evicted cache. #}
const STYLESHEET = current.get("/static/app.css");
{# Shown for a kept page never opened on this phone, without network (not the browser's error),
   with the games it can show; in the language of the last page opened, as each page is. #}
const OFFLINE = {{ offline | tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC).then((cache) => cache.addAll([...PRECACHE, OFFLINE])).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const keep = [STATIC, PAGES];
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => !keep.includes(name)).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(KEPT.test(url.pathname) ? keptPage(request) : otherPage(request));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(staticFile(request, url.pathname));
  }
});

async function staticFile(request, path) {
  const cache = await caches.open(STATIC);
  return (await cache.match(path)) || (await cache.match(current.get(plain(path)) || path)) || fetch(request);
}

{# Network first, so that a page is never stale when the server answers; its copy otherwise. #}
async function keptPage(request) {
  const cache = await caches.open(PAGES);
  const network = fetch(await saysStylesheet(request)).then(async (response) => {
    if (response.ok) {
      await keepCopy(cache, request, response.clone());
      await sameLanguage(response);
    }
    else if (response.status === 404) await cache.delete(request, { ignoreVary: true }); {# a deleted game #}
    return response;
  });
  const late = new Promise((resolve) => setTimeout(resolve, SLOW_MS))
    .then(() => offlineCopy(cache, request))
    .then((copy) => copy || network);
  try {
    return await Promise.race([network, late]);
  } catch (error) {
    return (await offlineCopy(cache, request)) || (await offlinePage(cache)) || Response.error();
  }
}

{# Any other page (the rules, the assistant…): the network's, else the offline page with the games
   this phone can show — never the browser's error page. #}
async function otherPage(request) {
  try {
    return await fetch(await saysStylesheet(request));
  } catch (error) {
    return (await offlinePage(await caches.open(PAGES))) || Response.error();
  }
}

async function saysStylesheet(request) {
  if (!STYLESHEET || !(await (await caches.open(STATIC)).match(STYLESHEET))) return request;
  const headers = new Headers(request.headers);
  headers.set("X-Feuille-De-Style", STYLESHEET);
  return new Request(request, { headers });
}

{# The offline page follows a change of language (the Content-Language of each page). #}
async function sameLanguage(response) {
  const cache = await caches.open(STATIC);
  const page = await cache.match(OFFLINE);
  const language = response.headers.get("Content-Language");
  if (language && page?.headers.get("Content-Language") !== language) await cache.add(OFFLINE).catch(() => {});
}

{# The offline page with a link to each game this phone keeps, named by its copy's title. #}
async function offlinePage(pages) {
  const page = await (await caches.open(STATIC)).match(OFFLINE);
  if (!page) return undefined;
  const links = [];
  for (const request of await pages.keys()) {
    const path = new URL(request.url).pathname;
    const copy = path !== "/" && (await ours(pages, request, await pages.match(request, { ignoreVary: true })));
    const title = copy && /<title>([^<]*?)(?: — [^<—]*)?<\/title>/.exec(await copy.text());
    if (title) links.push(`<li><a href="${path}">${title[1]}</a></li>`); {# escaped by the server #}
  }
  const html = (await page.text()).replace(/<!--parties-->[^]*<!--\/parties-->/, (none) => (links.length ? `<ul>${links.reverse().join("")}</ul>` : none));
  return new Response(html, { status: 200, headers: withoutLength(page.headers) });
}

const withoutLength = (kept) => {
  const headers = new Headers(kept);
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  return headers;
};

async function keepCopy(cache, request, response) {
  await cache.delete(request, { ignoreVary: true }); {# put it last: the oldest copies go first #}
  await cache.put(request, response);
  const requests = await cache.keys();
  await Promise.all(requests.slice(0, -KEPT_PAGES).map((old) => cache.delete(old)));
}

{# The copy, marked so that the page says it is offline (static/pwa.js reads the mark). Only
   this device's: a copy drawn for another device token (the cookies were cleared since) is not
   shown, and goes (app/platform/devices.py: the « copie » cookie and X-Copie-Appareil). #}
async function offlineCopy(cache, request) {
  const copy = await ours(cache, request, await cache.match(request, { ignoreVary: true }));
  if (!copy) return undefined;
  const html = (await copy.text()).replace("<html ", "<html data-offline-copy ");
  return new Response(html, { status: 200, headers: withoutLength(copy.headers) });
}

async function ours(cache, request, copy) {
  if (copy && self.cookieStore && copy.headers.has("X-Copie-Appareil")) {
    const mark = await self.cookieStore.get("copie").catch(() => null);
    if (mark?.value !== copy.headers.get("X-Copie-Appareil")) {
      await cache.delete(request, { ignoreVary: true });
      return undefined;
    }
  }
  return copy;
}
