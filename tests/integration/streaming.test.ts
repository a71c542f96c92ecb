import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../src/api'
import { app } from '../../src/app'
import { httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { clearCaches, ORIGIN, visit } from '../fixtures/worker'

const http = { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '2000' }
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const LOADING = 'role="status"'

/** The title of the newest Italian article, as the embedded API answers it. */
async function newestTitle(): Promise<string> {
  const answer = await api.fetch(new Request('http://x/api/front/news?per_page=1', { headers: { 'X-Tenant': 'it', 'X-Locale': 'it' } }), env)
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

beforeEach(clearCaches)
afterEach(() => vi.unstubAllGlobals())

describe('the home page\'s latest news streams after the shell', () => {
  it('sends the shell first, without waiting for slow news, then the news', async () => {
    const title = await newestTitle()
    const upstream = httpUpstream()
    const news = gate()
    upstream.fail('front/news', async (request) => {
      await news.opened
      return api.fetch(request as Parameters<typeof api.fetch>[0], env)
    })
    const ctx = createExecutionContext()
    const response = await app.request(`${ORIGIN}/it-it`, {}, { ...env, ...http }, ctx)
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    const shell = await readUntil(reader, '</footer>')
    expect(shell).toContain('</footer>')
    expect(shell).toContain(LOADING)
    expect(shell).not.toContain(title)

    news.open()
    const page = await readUntil(reader, '</html>', shell)
    expect(page).toContain(title)
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get('Content-Security-Policy') ?? '')?.[1]
    expect(nonce).toBeTruthy()
    expect(page).toContain(`<script nonce="${nonce}"`)
    await waitOnExecutionContext(ctx)
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
