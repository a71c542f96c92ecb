import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { CardImage } from '../../src/components/card-image'
import { IMAGE_SIZES, ResponsiveImage, resizedUrl } from '../../src/components/responsive-image'
import { configOf } from '../../src/config'
import type { Bindings } from '../../src/env'

const attributes = (tag: string) =>
  Object.fromEntries(
    [...tag.matchAll(/([a-zA-Z-]+)="([^"]*)"/g)].map(([, name, value]) => [
      name!.toLowerCase(),
      value!.replaceAll('&amp;', '&'),
    ]),
  )

/** The attributes of the one `<img>` a component renders (React may put a preload `<link>` before an eager one). */
function imgOf(element: React.ReactElement): Record<string, string> {
  const html = renderToStaticMarkup(element)
  const images = html.match(/<img [^>]*\/>/g) ?? []
  expect(images).toHaveLength(1)
  return attributes(images[0]!)
}

/** The preload `<link>` React puts before an eager picture, or null. */
const preloadOf = (element: React.ReactElement) => {
  const link = /<link [^>]*rel="preload"[^>]*\/>/.exec(renderToStaticMarkup(element))
  return link ? attributes(link[0]) : null
}

describe('ResponsiveImage with image resizing on', () => {
  it('gives a photograph srcset candidates through /cdn-cgi/image at each width, the sizes of its place, and a fallback src', () => {
    const img = imgOf(
      <ResponsiveImage src="/images/news/launch.jpg" alt="" width={480} height={320} place="card" resizing />,
    )
    expect(img.srcset).toBe(
      [320, 480, 640, 960]
        .map((w) => `/cdn-cgi/image/width=${w},quality=80,format=auto/images/news/launch.jpg ${w}w`)
        .join(', '),
    )
    expect(img.sizes).toBe(IMAGE_SIZES.card)
    expect(img.src).toBe('/cdn-cgi/image/width=480,quality=80,format=auto/images/news/launch.jpg')
    expect(img).toMatchObject({ width: '480', height: '320', loading: 'lazy', decoding: 'async', alt: '' })
  })

  it('serves the hero full width (sizes 100vw) up to 2560 px, at once and with high priority', () => {
    const img = imgOf(
      <ResponsiveImage src="/images/hero.jpg" alt="" width={1600} height={700} place="hero" resizing loading="eager" />,
    )
    expect(img.sizes).toBe('100vw')
    expect(img.srcset!.split(', ').map((c) => c.split(' ')[1])).toEqual([
      '640w',
      '960w',
      '1280w',
      '1600w',
      '1920w',
      '2560w',
    ])
    expect(img.src).toBe('/cdn-cgi/image/width=1600,quality=80,format=auto/images/hero.jpg')
    expect(img.fetchpriority).toBe('high')
    expect(img.loading).toBeUndefined()
    // Preloaded with the same candidates, so the browser fetches the one it will show.
    expect(
      preloadOf(
        <ResponsiveImage
          src="/images/hero.jpg"
          alt=""
          width={1600}
          height={700}
          place="hero"
          resizing
          loading="eager"
        />,
      ),
    ).toMatchObject({
      as: 'image',
      imagesrcset: img.srcset,
      imagesizes: '100vw',
    })
  })

  it("resizes a picture of the brand's API host by its absolute URL, on this site's own /cdn-cgi path (the CSP's 'self')", () => {
    const img = imgOf(
      <ResponsiveImage
        src="https://api.brand.example/media/a.webp?v=2"
        alt="Aurora"
        width={960}
        height={640}
        place="column"
        resizing
      />,
    )
    expect(img.srcset!.split(', ')[0]).toBe(
      '/cdn-cgi/image/width=480,quality=80,format=auto/https://api.brand.example/media/a.webp?v=2 480w',
    )
    expect(img.sizes).toBe(IMAGE_SIZES.column)
    expect(img.alt).toBe('Aurora')
  })

  it("serves a product card at half the phone's width (two a row) and a gallery picture at the width of its column", () => {
    expect(
      imgOf(<ResponsiveImage src="/images/p.jpg" alt="" width={480} height={320} place="card" resizing />).sizes,
    ).toBe('(min-width: 75rem) 18rem, (min-width: 50rem) 33vw, 50vw')
    const gallery = imgOf(
      <ResponsiveImage
        src="/images/p.jpg"
        alt="Strada 9"
        width={960}
        height={640}
        place="gallery"
        resizing
        loading="eager"
      />,
    )
    expect(gallery.sizes).toBe('(min-width: 75rem) 42rem, (min-width: 60rem) 58vw, 88vw')
    expect(gallery.srcset!.split(', ').map((c) => c.split(' ')[1])).toEqual(['480w', '640w', '960w', '1280w', '1600w'])
    expect(gallery.src).toBe('/cdn-cgi/image/width=960,quality=80,format=auto/images/p.jpg')
  })

  it('leaves an SVG as it is: a vector is sharp at any width, no srcset, no sizes', () => {
    const img = imgOf(
      <ResponsiveImage src="/images/hero.svg" alt="" width={1600} height={700} place="hero" resizing loading="eager" />,
    )
    expect(img.src).toBe('/images/hero.svg')
    expect(img.srcset).toBeUndefined()
    expect(img.sizes).toBeUndefined()
  })

  it('gives a news card the sizes of the news grid (three a row), a product card those of the product grid', () => {
    expect(
      imgOf(<CardImage src="/images/n.jpg" width={480} height={320} eager={false} resizing place="news" />).sizes,
    ).toBe(IMAGE_SIZES.news)
    expect(imgOf(<CardImage src="/images/p.jpg" width={480} height={320} eager={false} resizing />).sizes).toBe(
      IMAGE_SIZES.card,
    )
  })

  it('never resizes what is neither a site path nor an http(s) URL', () => {
    expect(resizedUrl('//elsewhere.example/a.jpg', 320)).toBeNull()
    expect(resizedUrl('data:image/png;base64,AAAA', 320)).toBeNull()
    expect(resizedUrl('/images/a.svg?v=1', 320)).toBeNull()
    const img = imgOf(
      <ResponsiveImage src="data:image/png;base64,AAAA" alt="" width={10} height={10} place="thumb" resizing />,
    )
    expect(img.srcset).toBeUndefined()
  })
})

describe('ResponsiveImage with image resizing off', () => {
  it('serves the original file as the only candidate: no srcset, no sizes, no /cdn-cgi path', () => {
    const img = imgOf(
      <ResponsiveImage src="/images/news/launch.jpg" alt="" width={480} height={320} place="card" resizing={false} />,
    )
    expect(img.src).toBe('/images/news/launch.jpg')
    expect(img.srcset).toBeUndefined()
    expect(img.sizes).toBeUndefined()
    expect(img).toMatchObject({ loading: 'lazy', decoding: 'async' })
  })

  it('is what a card shows unless told otherwise', () => {
    expect(imgOf(<CardImage src="/images/p.jpg" width={480} height={320} eager={false} />).srcset).toBeUndefined()
    expect(imgOf(<CardImage src="/images/p.jpg" width={480} height={320} eager resizing />).srcset).toContain(
      '/cdn-cgi/image/width=320,',
    )
  })
})

describe('IMAGE_RESIZING', () => {
  const env = (value: string | undefined) => ({ IMAGE_RESIZING: value }) as unknown as Bindings
  it('is on only when it says "on"; empty, "off" or anything else is off', () => {
    expect(configOf(env('on')).imageResizing).toBe(true)
    expect(configOf(env('off')).imageResizing).toBe(false)
    expect(configOf(env('')).imageResizing).toBe(false)
    expect(configOf(env('yes')).imageResizing).toBe(false)
  })
})
