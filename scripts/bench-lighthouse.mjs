// `npm run bench:lighthouse`: Lighthouse (mobile: a mid-range phone, simulated slow 4G and 4× CPU slowdown) over every
// page kind of it-it and a few of il-he, on the whole site served on 127.0.0.1 as `npm start` serves it (wrangler dev,
// the embedded API on a local D1 of its own, `.wrangler/lighthouse-state`), in Debian's Chromium. Prints a table of
// the performance, accessibility, best-practices and SEO scores and LCP, TBT and CLS per page, and writes it with
// the machine's load as JSON to test-results/lighthouse.json. It measures: it exits 0 whatever the scores (a page
// that fails to load is a row with its error). Never a timed test (docs/benchmark.md "Lighthouse").
//
// Offline, nothing off the site's origin can be reached (the tag manager, the map's tiles): those requests are
// blocked for the run, as a quiet production page with nothing to wait for would behave; what a page asks for is
// counted in its row (`offOrigin`).
//   LIGHTHOUSE_PORT  the site's port (8822)
//   LIGHTHOUSE_ONLY  a comma-separated list of page names to run (e.g. `home,listing`)
//   LIGHTHOUSE_REUSE=1  measure the site already served on that port (`PORT=8822 npm start`) instead of starting one
//   LIGHTHOUSE_REPORTS=1  also write each page's whole report (its opportunities and diagnostics) to
//                         test-results/lighthouse/<page>.json
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { demoSessionCookie } from './demo-login.mjs'
import { root } from './local.mjs'

const PORT = Number(process.env.LIGHTHOUSE_PORT || 8822)
const ORIGIN = `http://127.0.0.1:${PORT}`
const ONLY = process.env.LIGHTHOUSE_ONLY ? new Set(process.env.LIGHTHOUSE_ONLY.split(',')) : null
const REPORTS = process.env.LIGHTHOUSE_REPORTS === '1' ? join(root, 'test-results/lighthouse') : null
/** Off-origin hosts a page may name that the machine cannot reach offline. */
const BLOCKED = ['*googletagmanager.com*', '*google-analytics.com*', '*tile.openstreetmap.org*', '*tiles.*']

/** The site as `npm start` serves it, on a state of its own; answers once its health check does. */
async function startSite() {
  if (process.env.LIGHTHOUSE_REUSE === '1') return null
  const site = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), WRANGLER_PERSIST_TO: '.wrangler/lighthouse-state' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  })
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${ORIGIN}/_health`)).ok) return site
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`the site did not answer on ${ORIGIN}`)
}

/** The first link of a page's HTML whose href matches `pattern`. */
async function firstLink(path, pattern, cookie) {
  const html = await (await fetch(`${ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} })).text()
  const href = [...html.matchAll(/href="([^"]+)"/g)]
    .map(([, h]) => h.replaceAll('&amp;', '&'))
    .find((h) => pattern.test(h))
  if (!href) throw new Error(`no link like ${pattern} on ${path}`)
  return new URL(href, ORIGIN).pathname
}

/** Adds a Strada 9 (M, red) to the cart of `cookie` (or a new one): answers the cookies then. */
async function withABike(market, cookie = '') {
  const answer = await fetch(`${ORIGIN}/${market}/cart/items`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN, Cookie: cookie },
    body: new URLSearchParams({
      sku: 'STR9-M-RED',
      quantity: '1',
      key: `lighthouse-${Date.now()}-${Math.random().toString(36).slice(2)}`,
      product: 'aurora-strada-9',
    }),
  })
  const set = answer.headers.getSetCookie().map((line) => line.split(';')[0])
  return [cookie, ...set].filter(Boolean).join('; ')
}

/** The pages measured: name, market, path, and the cookies the browser has first (a session, a cart). */
async function pages() {
  const session = await demoSessionCookie(ORIGIN)
  const cart = await withABike('it-it')
  const customerCart = await withABike('it-it', session)
  const checkout = await firstLink('/it-it/cart', /\/checkout\/[A-Za-z0-9_-]+$/, customerCart)
  const all = [
    { name: 'home', path: '/it-it' },
    { name: 'listing', path: '/it-it/products' },
    { name: 'product', path: '/it-it/products/aurora-strada-9' },
    { name: 'news index', path: '/it-it/news' },
    { name: 'article', path: await firstLink('/it-it/news', /\/news\/details\//) },
    { name: 'search', path: '/it-it/search/all?q=aurora', indexable: false },
    { name: 'dealer locator', path: '/it-it/rivenditori' },
    { name: 'dealer page', path: await firstLink('/it-it/rivenditori', /\/dealers\/[a-z0-9-]+$/) },
    { name: 'lead form', path: '/it-it/diventa-rivenditore' },
    { name: 'whistleblower form', path: '/it-it/whistleblower-form', indexable: false },
    { name: 'login', path: `/login?redirect=${encodeURIComponent('/it-it/my-account')}`, indexable: false },
    { name: 'cart', path: '/it-it/cart', cookie: cart, indexable: false },
    { name: 'checkout review', path: checkout, cookie: customerCart, indexable: false },
    { name: 'account overview', path: '/it-it/my-account', cookie: session, indexable: false },
    { name: 'home (he)', path: '/il-he' },
    { name: 'listing (he)', path: '/il-he/products' },
    { name: 'product (he)', path: '/il-he/products/aurora-strada-9' },
    { name: 'dealer locator (he)', path: '/il-he/chanuyot' },
  ]
  return all.filter((page) => !ONLY || ONLY.has(page.name))
}

/** The cookies of `header` set in the browser for the site, through the DevTools protocol. */
async function setCookies(port, header) {
  const version = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()
  const socket = new WebSocket(version.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => {
    socket.onopen = resolve
    socket.onerror = reject
  })
  const cookies = header
    .split('; ')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=')
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: ORIGIN, secure: true, path: '/' }
    })
  await new Promise((resolve) => {
    socket.onmessage = resolve
    socket.send(JSON.stringify({ id: 1, method: 'Storage.clearCookies', params: {} }))
  })
  await new Promise((resolve) => {
    socket.onmessage = resolve
    socket.send(JSON.stringify({ id: 2, method: 'Storage.setCookies', params: { cookies } }))
  })
  socket.close()
}

const score = (category) => (category?.score == null ? null : Math.round(category.score * 100))

/** One page's Lighthouse run in a fresh Chromium: its row. */
async function measure(page) {
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic'],
  })
  try {
    await setCookies(chrome.port, page.cookie ?? '')
    const result = await lighthouse(
      `${ORIGIN}${page.path}`,
      { port: chrome.port, output: 'json', logLevel: 'error' },
      {
        extends: 'lighthouse:default',
        settings: {
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
          blockedUrlPatterns: BLOCKED,
          // The session and the cart set above stay for the run.
          disableStorageReset: true,
        },
      },
    )
    const { categories, audits, runtimeError } = result.lhr
    if (REPORTS) {
      mkdirSync(REPORTS, { recursive: true })
      writeFileSync(join(REPORTS, `${page.name.replace(/[^a-z0-9]+/gi, '-')}.json`), JSON.stringify(result.lhr))
    }
    const offOrigin = (audits['network-requests']?.details?.items ?? []).filter(
      (item) => !item.url.startsWith(ORIGIN) && !item.url.startsWith('data:'),
    ).length
    return {
      name: page.name,
      path: page.path,
      performance: score(categories.performance),
      accessibility: score(categories.accessibility),
      bestPractices: score(categories['best-practices']),
      seo: page.indexable === false ? null : score(categories.seo),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
      cls: Number((audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
      offOrigin,
      // What moved, for a CLS above 0: each shift's element and score.
      shifts: (audits['layout-shifts']?.details?.items ?? []).map((item) => ({
        node: item.node?.selector ?? item.node?.snippet ?? null,
        score: item.score,
      })),
      failed: Object.values(audits)
        .filter(
          (a) =>
            a.score !== null &&
            a.score < 1 &&
            a.scoreDisplayMode !== 'informative' &&
            a.scoreDisplayMode !== 'manual' &&
            a.scoreDisplayMode !== 'notApplicable',
        )
        .map((a) => a.id),
      error: runtimeError?.message ?? null,
    }
  } catch (error) {
    return { name: page.name, path: page.path, error: error instanceof Error ? error.message : String(error) }
  } finally {
    chrome.kill()
  }
}

const cell = (value, width) => String(value ?? '–').padStart(width)
function printRow(row) {
  if (row.performance === undefined) {
    console.log(`${row.name.padEnd(22)} failed: ${row.error}`)
    return
  }
  console.log(
    `${row.name.padEnd(22)}${cell(row.performance, 5)}${cell(row.accessibility, 6)}${cell(row.bestPractices, 5)}${cell(row.seo, 5)}${cell(row.lcpMs, 8)}${cell(row.tbtMs, 7)}${cell(row.cls, 7)}${row.failed.length ? `  (${row.failed.join(', ')})` : ''}`,
  )
}

const load = loadavg()
console.log(
  `Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version} mobile, ${cpus().length} cores, load ${load.map((l) => l.toFixed(2)).join(' ')}`,
)
const site = await startSite()
const rows = []
try {
  const list = await pages()
  console.log(`${'page'.padEnd(22)} perf  a11y   bp  seo  LCP ms TBT ms    CLS`)
  for (const page of list) {
    const row = await measure(page)
    printRow(row)
    rows.push(row)
  }
} finally {
  if (site) process.kill(-site.pid, 'SIGTERM')
}
mkdirSync(join(root, 'test-results'), { recursive: true })
const file = join(root, 'test-results/lighthouse.json')
writeFileSync(
  file,
  `${JSON.stringify({ date: new Date().toISOString(), cores: cpus().length, loadBefore: load, loadAfter: loadavg(), rows }, null, 2)}\n`,
)
console.log(
  `load after ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; written to ${file}`,
)
