import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Kept, KeptContext, keptRender, spliceKept } from '../../src/render/kept'

/** A page around one kept part, rendered whole with the isolate's kept parts, as render/stream.ts does. */
function page(calls: string[], menu: string[], path: string) {
  const kept = keptRender()
  const html = renderToString(
    <KeptContext.Provider value={kept}>
      <main>
        <p>before</p>
        <Kept part="unit-menu" deps={['it', menu]} values={{ path }}>
          {({ path: from }) => {
            calls.push(from)
            return (
              <nav data-from={from}>
                {menu.map((item) => (
                  <a key={item} href={`${from}/${item}`}>
                    {item}
                  </a>
                ))}
              </nav>
            )
          }}
        </Kept>
        <p>after</p>
      </main>
    </KeptContext.Provider>,
  )
  return spliceKept(html, kept)
}

const plain = (menu: string[], path: string) =>
  renderToString(
    <main>
      <p>before</p>
      <nav data-from={path}>
        {menu.map((item) => (
          <a key={item} href={`${path}/${item}`}>
            {item}
          </a>
        ))}
      </nav>
      <p>after</p>
    </main>,
  )

describe('a kept part', () => {
  it('is rendered once per content of its deps, its values written in as React writes them', () => {
    const calls: string[] = []
    const menu = ['bikes', 'e-bikes']
    expect(page(calls, menu, '/it-it')).toBe(plain(menu, '/it-it'))
    expect(page(calls, menu, "/it-it/a&b'c")).toBe(plain(menu, "/it-it/a&b'c"))
    // The same content in another array: still the kept bytes.
    expect(page(calls, [...menu], '/it-it/x')).toBe(plain(menu, '/it-it/x'))
    expect(calls).toHaveLength(1)
    // Other content: rendered again.
    expect(page(calls, ['bikes'], '/it-it')).toBe(plain(['bikes'], '/it-it'))
    expect(calls).toHaveLength(2)
    // Back to the first content, the very same list and another of the same length: its bytes, not the last ones.
    expect(page(calls, menu, '/it-it')).toBe(plain(menu, '/it-it'))
    expect(page(calls, ['bikes', 'gravel'], '/it-it')).toBe(plain(['bikes', 'gravel'], '/it-it'))
    expect(page(calls, menu, '/it-it')).toBe(plain(menu, '/it-it'))
    expect(calls).toHaveLength(3)
  })

  it("never answers one content with another's bytes after the isolate forgets its content ids", () => {
    /** A part kept by five objects' content, as the header is by its menus, its market and its texts. */
    const part = (lists: string[][]) => {
      const kept = keptRender()
      const html = renderToString(
        <KeptContext.Provider value={kept}>
          <Kept part="unit-five" deps={lists} values={{}}>
            {() => <p>{lists.flat().join(' ')}</p>}
          </Kept>
        </KeptContext.Provider>,
      )
      return spliceKept(html, kept)
    }
    const listsOf = (name: string, n: number) => [1, 2, 3, 4, 5].map((i) => [`${name}-${n}-${i}`])
    // Five new contents a part: past the ids kept (the store's limit × 4) the ids are forgotten while the parts kept
    // under them are still there; new content must never be given one of their ids.
    for (let n = 0; n < 400; n++) part(listsOf('old', n))
    for (let n = 0; n < 20; n++) {
      const lists = listsOf('new', n)
      expect(part(lists)).toBe(renderToString(<p>{lists.flat().join(' ')}</p>))
    }
  })

  it('is rendered afresh for a value it cannot write in, and outside a whole render', () => {
    const calls: string[] = []
    expect(page(calls, ['bikes'], '/it-it/"quoted"<b>')).toBe(plain(['bikes'], '/it-it/"quoted"<b>'))
    expect(calls).toEqual(['/it-it/"quoted"<b>'])
    expect(
      renderToString(
        <Kept part="unit-alone" deps={[]}>
          {() => <b>alone</b>}
        </Kept>,
      ),
    ).toBe('<b>alone</b>')
  })

  it("among the head's hoisted elements, stays where React writes them, whatever stands between them", () => {
    const calls: string[] = []
    const head = (title: string, canonical: string, keep: boolean) => {
      const kept = keptRender()
      const elements = (url: string) => (
        <>
          <title>{title}</title>
          <link rel="canonical" href={url} />
          <meta property="og:url" content={url} />
        </>
      )
      const tree = (
        <html lang="it">
          <head>
            <script>{'go()'}</script>
            {keep ? (
              <Kept part="unit-head" hoisted deps={[title]} values={{ canonical }}>
                {({ canonical: url }) => {
                  calls.push(title)
                  return elements(url)
                }}
              </Kept>
            ) : (
              elements(canonical)
            )}
            <link rel="icon" href="/favicon.ico" />
          </head>
          <body />
        </html>
      )
      return keep
        ? spliceKept(renderToString(<KeptContext.Provider value={kept}>{tree}</KeptContext.Provider>), kept)
        : renderToString(tree)
    }
    for (const [title, url] of [
      ['Aurora', 'https://x.test/it-it'],
      ['Aurora', 'https://x.test/it-it?a=1&b=2'],
      ['Strada 9', 'https://x.test/it-it/products/strada-9'],
    ] as const)
      expect(head(title, url, true)).toBe(head(title, url, false))
    expect(calls).toEqual(['Aurora', 'Strada 9'])
    // React writes the title, meta and links first in the head, the script after them.
    expect(head('Aurora', 'https://x.test/', true)).toMatch(
      /<head><title>Aurora<\/title>.*<script>go\(\)<\/script><\/head>/,
    )
  })

  it('holds at most 4 MiB of kept characters in an isolate, the oldest parts forgotten first', () => {
    const body = (n: number) => {
      const kept = keptRender()
      const html = renderToString(
        <KeptContext.Provider value={kept}>
          <Kept part="unit-body" deps={[n]}>
            {() => <p>{`${n}`.padEnd(600_000, '.')}</p>}
          </Kept>
        </KeptContext.Provider>,
      )
      return spliceKept(html, kept)
    }
    for (let n = 0; n < 12; n++) body(n)
    const store = keptRender().store
    const chars = [...store.values()].reduce((sum, bytes) => sum + bytes.length, 0)
    expect(chars).toBeLessThanOrEqual(4 * 1024 * 1024)
    const bodies = [...store.keys()].filter((key) => key.startsWith('unit-body'))
    expect(bodies.at(-1)).toContain('11')
    expect(bodies).not.toContainEqual(expect.stringContaining('\u00010'))
  })
})
