import { readdirSync } from 'node:fs'
import { relative } from 'node:path'
import { expect, test } from './fixtures/offline'

// Static files are answered by the assets binding before the Worker (public/_headers): only the running site shows
// their headers.

test('every static file is sent with X-Content-Type-Options: nosniff, once', async ({ request }) => {
  // Every file the build put where the assets binding serves from (the site's start built it), but the rules file.
  const files = readdirSync('dist/client', { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== '_headers')
    .map((entry) => `/${relative('dist/client', `${entry.parentPath}/${entry.name}`)}`)
  const page = await request.get('/it-it')
  const script = /\/assets\/[\w-]+\.js/.exec(await page.text())?.[0]
  expect(files).toContain(script)
  expect(files).toEqual(expect.arrayContaining(['/favicon.ico', '/logo.svg', '/images/hero.svg']))
  for (const path of files) {
    const response = await request.get(path)
    expect(response.status(), path).toBe(200)
    expect(response.headers()['x-content-type-options'], path).toBe('nosniff')
  }
})

test('pictures under /images/ stay fresh for a week and are revalidated in the background for 30 days more', async ({
  request,
}) => {
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
