/* The referee form's service worker (matches/pwa.py renders it with the static file names).
 *
 * Network first for everything it keeps: online the phone always gets today's page and
 * files; when the club Wi-Fi is down it gets the copies kept here. Writes (POST) never pass
 * through it: the form's own queue (static/js/referee/queue.js) keeps the taps.
 */
const CACHE = "{{ cache }}";
const FILES = {{ urls_json|safe }};
const FORM = /\/m\/\d+\/score\/$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("luza-referee-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

/* The form asks to keep its own page (the first visit is not yet served through here). */
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "keep" && Array.isArray(data.urls)) {
    event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(data.urls.filter((u) => FORM.test(u)))).catch(() => {}));
  }
});

function kept(request) {
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") {
    return false;
  }
  return FORM.test(url.pathname) || FILES.indexOf(url.pathname) >= 0;
}

self.addEventListener("fetch", (event) => {
  if (!kept(event.request)) {
    return; // the API and everything else go to the network as if there were no worker
  }
  const key = new URL(event.request.url).pathname;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok && !response.redirected) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key).then((hit) => hit || Response.error())),
  );
});
