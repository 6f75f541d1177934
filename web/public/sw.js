// The web app's service worker: an offline shell. Pages (navigations) go to the network first and
// fall back to the last index.html seen, so the installed app opens without a connection; the
// hashed build files (/assets/…) never change, so they are kept at install (every page's, from the
// build's app-files.json) and answered from the cache.
// Nothing else is cached: API answers, streams and covers always go to the server.
const CACHE = 'earshot-shell-v1';

/** The build files index.html names (its script, styles and preloads): what the shell needs to start. */
const shellAssets = (html) => html.match(/\/assets\/[^"'\s>]+/g) ?? [];

/** Every script and style sheet of the build (lazy pages too), or none when the list is missing. */
const appFiles = () =>
  fetch('/app-files.json', { cache: 'no-cache' })
    .then((answer) => (answer.ok ? answer.json() : []))
    .catch(() => []);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then(async (cache) => {
        await cache.add('/');
        // Stored before this worker is active, so the app opens offline from then on: the page that
        // registered it fetched these without it, and a later fetch through it stores them only after
        // answering (a connection lost right after would find them missing).
        const shell = await cache.match('/');
        const listed = await appFiles();
        const files = new Set([...shellAssets(await shell.text()), ...listed]);
        await cache.addAll([...files]);
        // A new build's files have new names: drop the old ones, which the server no longer has
        // either, so the cache holds one build (only when the list came, or lazy pages would go).
        if (listed.length === 0) return;
        for (const request of await cache.keys()) {
          const { pathname } = new URL(request.url);
          if (pathname.startsWith('/assets/') && !files.has(pathname)) await cache.delete(request);
        }
      })
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request)
        .then((response) => {
          // Any page answers the same shell (a 404 page too): keep the newest for offline use.
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put('/', copy));
          return response;
        })
        .catch(() => caches.match('/')),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.match(request).then(
        (cached) =>
          cached ??
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              // The worker stays up until the file is stored.
              event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
            }
            return response;
          }),
      ),
    );
  }
});
