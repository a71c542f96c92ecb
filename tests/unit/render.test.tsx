import { Suspense, use, useContext } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { defer } from '../../src/render/deferred'
import { InlineScript, inlineScriptHashes, InlineScriptsContext } from '../../src/render/inline-scripts'
import { ScriptNonce } from '../../src/render/nonce'
import { renderPage } from '../../src/render/stream'

function Section({ data }: { data: Promise<string> }) {
  return <p>{use(data)}</p>
}

function Broken({ data }: { data: Promise<string> }): never {
  use(data)
  throw new Error('a section broke after the shell left')
}

const page = (section: React.ReactNode) => (
  <html lang="en">
    <body>
      <header>shell</header>
      <Suspense fallback={<p role="status">loading</p>}>{section}</Suspense>
    </body>
  </html>
)

const options = { nonce: 'n0nce', complete: false, keepable: true, onError: () => {} }

/** A kept page's scripts: the entry, a registered inline script, and what content could smuggle in (never allowed). */
function KeptPageScripts() {
  const nonce = useContext(ScriptNonce)
  return (
    <>
      <script type="module" src="/assets/entry.js" nonce={nonce} />
      <InlineScript code="window.dataLayer=[]" />
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the test injects a script on purpose */}
      <div dangerouslySetInnerHTML={{ __html: '<script>alert(1)</script>' }} />
    </>
  )
}

/** The client's entry script, with the answer's nonce. */
function EntryScript() {
  return <script type="module" src="/assets/entry.js" nonce={useContext(ScriptNonce)} />
}

describe('renderPage', () => {
  it('renders one string, doctype first, when the deferred data is already there', async () => {
    const data = defer(Promise.resolve('latest news'))
    await data
    const body = await renderPage(page(<Section data={data} />), { ...options, deferred: [data] })
    expect(typeof body).toBe('string')
    expect(body).toMatch(/^<!DOCTYPE html><html lang="en">/)
    expect(body).toContain('<p>latest news</p>')
    expect(body).not.toContain('loading')
  })

  it('sets no timer when the deferred data is already there (docs/decisions/073)', async () => {
    const data = defer(Promise.resolve('latest news'))
    await data
    const timers = vi.spyOn(globalThis, 'setTimeout')
    try {
      const body = await renderPage(page(<Section data={data} />), { ...options, deferred: [data] })
      expect(body).toContain('<p>latest news</p>')
      expect(timers).not.toHaveBeenCalled()
    } finally {
      timers.mockRestore()
    }
  })

  it('streams the shell first when the deferred data is still pending, then the section', async () => {
    let resolve!: (value: string) => void
    const data = defer(new Promise<string>((r) => (resolve = r)))
    const body = await renderPage(page(<Section data={data} />), { ...options, deferred: [data] })
    expect(body).toBeInstanceOf(ReadableStream)
    const reader = (body as ReadableStream<Uint8Array>).getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toContain('<header>shell</header>')
    expect(first).toContain('loading')
    resolve('latest news')
    let rest = ''
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value)
    expect(rest).toContain('latest news')
    expect(rest).toContain('<script nonce="n0nce"')
  })

  it('renders a keepable page without a nonce, allowing only the inline scripts its own components registered', async () => {
    const registered = new Set<string>()
    const body = (await renderPage(
      <InlineScriptsContext.Provider value={registered}>{page(<KeptPageScripts />)}</InlineScriptsContext.Provider>,
      { ...options, deferred: [] },
    )) as string
    expect(body).not.toContain('nonce')
    expect([...registered]).toEqual(['window.dataLayer=[]'])
    const expected = `'sha256-${btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('window.dataLayer=[]')))))}'`
    expect(await inlineScriptHashes(registered)).toEqual([expected])
  })

  it("gives a page that is not kept, rendered whole, the answer's nonce on its scripts", async () => {
    const body = (await renderPage(page(<InlineScript code="go()" />), {
      ...options,
      keepable: false,
      deferred: [],
    })) as string
    expect(body).toContain('<script nonce="n0nce">go()</script>')
  })

  it("gives a stream, which is this answer's own, the answer's nonce on every script", async () => {
    const pending = defer(new Promise<string>(() => {}))
    const body = (await renderPage(page(<EntryScript />), {
      ...options,
      deferred: [pending],
    })) as ReadableStream<Uint8Array>
    const first = new TextDecoder().decode((await body.getReader().read()).value)
    expect(first).toContain('nonce="n0nce"')
  })

  it('waits for everything for crawlers', async () => {
    const data = defer(new Promise<string>((r) => setTimeout(() => r('latest news'), 20)))
    const body = await renderPage(page(<Section data={data} />), { ...options, complete: true, deferred: [data] })
    expect(typeof body).toBe('string')
    expect(body).toContain('<p>latest news</p>')
  })

  it('only logs an error that happens after the shell has left', async () => {
    const onError = vi.fn()
    let resolve!: (value: string) => void
    const data = defer(new Promise<string>((r) => (resolve = r)))
    const body = (await renderPage(page(<Broken data={data} />), {
      ...options,
      onError,
      deferred: [data],
    })) as ReadableStream
    resolve('x')
    const html = await new Response(body).text()
    expect(html).toContain('<header>shell</header>')
    expect(html).toContain('</html>')
    expect(onError).toHaveBeenCalledTimes(1)
    expect(String(onError.mock.calls[0]?.[0])).toContain('a section broke')
  })

  it("always streams in RENDER_MODE=stream (the benchmark's baseline)", async () => {
    const data = defer(Promise.resolve('ready'))
    await data
    expect(
      await renderPage(page(<Section data={data} />), { ...options, mode: 'stream', deferred: [data] }),
    ).toBeInstanceOf(ReadableStream)
  })
})
