// A fix for the local dev server (`wrangler dev` 4.86.0), applied by `npm start` before it starts it
// (docs/decisions/023-dev-server-retry.md). Never part of the deployed Worker.
//
// Wrangler's ProxyWorker (the dev server's front, in its own workerd) forwards each request to the Worker's workerd
// over kept-alive connections; both ends drop an idle connection after about five seconds. When a request goes out on
// a connection just as the other end drops it, the fetch fails, and the ProxyWorker means to retry a GET only after a
// restart of the Worker: it compares the whole URL with the Worker's origin (never equal, but for `/`), parks the
// request for a restart that never comes, and the request is never answered (a stylesheet left pending, a page whose
// `load` never fires). Wrangler 4.100 and later retry such a request at once, but they need Node 22. This applies the
// same rule to the pinned version: a GET or HEAD that fails against the same Worker is tried again, at most twice.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './local.mjs'

const PINNED = '4.86.0'
const MARK = '/* brand-site: retry a dropped GET (scripts/proxy-worker-fix.mjs) */'

const BROKEN = `}).catch((error) => {
        const newUserWorkerUrl = this.proxyData && urlFromParts(this.proxyData.userWorkerUrl);
        if (userWorkerUrl.href === newUserWorkerUrl?.href) {`

const FIXED = `}).catch((error) => {
        ${MARK}
        const newUserWorkerUrl = this.proxyData && urlFromParts(this.proxyData.userWorkerUrl);
        const sameWorker = userWorkerUrl.origin === newUserWorkerUrl?.origin;
        const attempts = (this.droppedAttempts ??= new WeakMap()).get(request) ?? 0;
        if (sameWorker && (request.method === "GET" || request.method === "HEAD") && attempts < 2) {
          this.droppedAttempts.set(request, attempts + 1);
          console.warn(\`ProxyWorker: \${request.method} \${outerUrl.pathname} tried again after a dropped connection\`);
          this.requestRetryQueue.set(request, deferredResponse);
          this.processQueue();
        } else if (sameWorker) {`

/** Applies the fix to the installed wrangler (once; a no-op for any other version). Answers what it did. */
export function fixProxyWorker() {
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules/wrangler/package.json'), 'utf8'))
  if (version !== PINNED) return `wrangler ${version}: no ProxyWorker fix needed`
  const file = join(root, 'node_modules/wrangler/wrangler-dist/ProxyWorker.js')
  const source = readFileSync(file, 'utf8')
  if (source.includes(MARK)) return 'ProxyWorker fix in place'
  if (!source.includes(BROKEN)) throw new Error(`wrangler ${PINNED}'s ProxyWorker is not the one this fix knows: ${file}`)
  writeFileSync(file, source.replace(BROKEN, FIXED))
  return 'ProxyWorker fix applied'
}
