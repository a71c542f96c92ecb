import { expect, test } from './fixtures/offline'

// Static files are answered by the assets binding before the Worker (public/_headers): only the running site shows
// their headers.

test('every static file is sent with X-Content-Type-Options: nosniff, once', async ({ request }) => {
  const page = await request.get('/it-it')
  const script = /\/assets\/[\w-]+\.js/.exec(await page.text())?.[0]
  expect(script).toBeTruthy()
  for (const path of ['/favicon.ico', '/logo.svg', '/images/hero.svg', '/images/news/factory-line.svg', script!]) {
    const response = await request.get(path)
    expect(response.status(), path).toBe(200)
    expect(response.headers()['x-content-type-options'], path).toBe('nosniff')
  }
})

test('pictures under /images/ stay fresh for a week and are revalidated in the background for 30 days more', async ({ request }) => {
  for (const path of ['/images/hero.svg', '/images/news/factory-line.svg', '/images/products/aurora-strada-9.svg']) {
    const response = await request.get(path)
    expect(response.status(), path).toBe(200)
    expect(response.headers()['cache-control'], path).toBe('public, max-age=604800, stale-while-revalidate=2592000')
    // Revalidation is a conditional request that costs a 304, not the picture again.
    const etag = response.headers().etag
    expect(etag, path).toBeTruthy()
    const again = await request.get(path, { headers: { 'If-None-Match': etag! } })
    expect(again.status(), path).toBe(304)
  }
})

test('the client build keeps its one-year immutable lifetime', async ({ request }) => {
  const script = /\/assets\/[\w-]+\.js/.exec(await (await request.get('/it-it')).text())?.[0]
  const response = await request.get(script!)
  expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
})
