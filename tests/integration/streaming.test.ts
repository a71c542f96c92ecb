import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../reference-api'
import { app } from '../../src/app'
import { httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { requestLinesOf } from '../fixtures/request-lines'
import { clearCaches, ORIGIN, visit } from '../fixtures/worker'

const http = { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '2000' }
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const LOADING = 'role="status"'

/** The title of the newest Italian article, as the embedded API answers it. */
async function newestTitle(): Promise<string> {
  const answer = await api.fetch(
    new Request('http://x/api/front/news?per_page=1', { headers: { 'X-Tenant': 'it', 'X-Locale': 'it' } }),
    env,
  )
  return ((await answer.json()) as { data: Array<{ title: string }> }).data[0]!.title
}

/** A gate the test opens: the news call waits behind it. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open }
}

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, marker: string, sofar = ''): Promise<string> {
  const decoder = new TextDecoder()
  let text = sofar
  while (!text.includes(marker)) {
    const { value, done } = await reader.read()
    if (done) break
    text += decoder.decode(value, { stream: true })
  }
  return text
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The work's result, or a failure saying what did not happen in time. */
async function within<T>(work: T | Promise<T>, ms: number, failure: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(failure)), ms)))
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}

beforeEach(clearCaches)
afterEach(() => vi.unstubAllGlobals())

describe("the home page's latest news streams after the shell", () => {
  it('sends the shell first, without waiting for slow news, then the news', async () => {
    const title = await newestTitle()
    const upstream = httpUpstream()
    const news = gate()
    let newsAsked = false
    let released = false
    upstream.fail('front/news', async (request) => {
      newsAsked = true
      await news.opened
      return api.fetch(request as Parameters<typeof api.fetch>[0], env)
    })
    const ctx = createExecutionContext()
    try {
      const response = await within(
        app.request(`${ORIGIN}/it-it`, {}, { ...env, ...http }, ctx),
        2500,
        'the answer waited for the news',
      )
      expect(response.status).toBe(200)
      const reader = response.body!.getReader()

      // The first chunks leave while the news call is still held: the document's start, the consent banner, the header.
      const start = await within(readUntil(reader, '<header'), 2500, 'the first chunks waited for the news')
      expect(newsAsked).toBe(true)
      expect(released).toBe(false)
      expect(start.startsWith('<!DOCTYPE html>')).toBe(true)
      expect(start).toContain('<header')

      // The whole shell, footer included, with the news' placeholder and without the news, still before the release.
      const shell = await within(readUntil(reader, '</footer>', start), 2500, 'the shell waited for the news')
      expect(shell).toContain('</footer>')
      expect(shell).toContain(LOADING)
      expect(shell).not.toContain(title)
      expect(released).toBe(false)
      // Nothing more comes while the news are held.
      const next = reader.read()
      expect(await Promise.race([next.then(() => 'more'), delay(100).then(() => 'waiting')])).toBe('waiting')

      released = true
      news.open()
      const after = await next
      const rest = await readUntil(reader, '</html>', after.done ? '' : new TextDecoder().decode(after.value))
      expect(rest).toContain(title)
      expect(rest).toContain('</html>')
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get('Content-Security-Policy') ?? '')?.[1]
      expect(nonce).toBeTruthy()
      expect(rest).toContain(`<script nonce="${nonce}"`)
    } finally {
      news.open()
      await waitOnExecutionContext(ctx)
    }
  })

  it('keeps a streamed page out of the page cache: the next visitor gets it rendered whole, and kept', async () => {
    const upstream = httpUpstream()
    const news = gate()
    upstream.fail('front/news', async (request) => {
      await news.opened
      return api.fetch(request as Parameters<typeof api.fetch>[0], env)
    })
    const policies: string[] = []
    const lines = await requestLinesOf(async () => {
      // The first answer leaves while the news are held (its shell streams), then completes once they come.
      const ctx = createExecutionContext()
      const first = await within(
        app.request(`${ORIGIN}/it-it`, {}, { ...env, ...http }, ctx),
        2500,
        'the answer waited for the news',
      )
      policies.push(first.headers.get('Content-Security-Policy') ?? '')
      news.open()
      await first.text()
      await waitOnExecutionContext(ctx)
      for (let i = 0; i < 2; i++)
        policies.push((await visit('/it-it', {}, http)).headers.get('Content-Security-Policy') ?? '')
    })
    expect(lines.map((line) => line.page)).toEqual(['miss', 'miss', 'memory'])
    // The stream carried this answer's nonce; the page kept is allowed by hashes.
    expect(policies[0]).toContain("'nonce-")
    expect(policies[1]).not.toContain("'nonce-")
    expect(policies[2]).toBe(policies[1])
  })

  it('gives crawlers the complete document, news included', async () => {
    const title = await newestTitle()
    const upstream = httpUpstream()
    upstream.fail('front/news', async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 30))
      return api.fetch(request as Parameters<typeof api.fetch>[0], env)
    })
    const { status, text } = await visit('/it-it', { headers: { 'User-Agent': GOOGLEBOT } }, http)
    expect(status).toBe(200)
    expect(text).toContain(title)
    expect(text).not.toContain(LOADING)
  })

  it('renders a warm page in one piece, with no streaming scripts', async () => {
    const title = await newestTitle()
    await visit('/it-it')
    const { text } = await visit('/it-it')
    expect(text.startsWith('<!DOCTYPE html>')).toBe(true)
    expect(text).toContain(title)
    expect(text).not.toContain(LOADING)
    expect(text).not.toContain('$RC')
  })

  it('keeps the page when the news fail after the shell has left: only the block says so', async () => {
    const upstream = httpUpstream()
    upstream.fail('front/news', async () => {
      await new Promise((resolve) => setTimeout(resolve, 30))
      return new Response('down', { status: 500 })
    })
    const { status, text } = await visit('/it-it', {}, http)
    expect(status).toBe(200)
    expect(text).toContain('</footer>')
    const italian = env.TEST_DEMO_MESSAGES.it as { home: { news_unavailable: string } }
    expect(text).toContain(italian.home.news_unavailable)
  })
})
