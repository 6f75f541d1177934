// The web app's service worker: an offline shell. Pages (navigations) go to the network first and
// fall back to the last index.html seen, so the installed app opens without a connection; the
// hashed build files (/assets/…) never change, so they are answered from the cache once fetched.
// Nothing else is cached: API answers, streams and covers always go to the server.
const CACHE = 'earshot-shell-v1';

/** The build files index.html names (its script, styles and preloads): what the shell needs to start. */
const shellAssets = (html) => [...new Set(html.match(/\/assets\/[^"'\s>]+/g) ?? [])];

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
        await cache.addAll(shellAssets(await shell.text()));
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
