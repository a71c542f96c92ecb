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
})
