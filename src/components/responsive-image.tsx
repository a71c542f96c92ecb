import { preload } from 'react-dom'
/**
 * Pictures served at the width they are shown (docs/decisions, "responsive images"). With Cloudflare's image resizing
 * switched on (`IMAGE_RESIZING = "on"`, src/config.ts), a raster picture comes with a `srcset` of resized candidates
 * (`/cdn-cgi/image/width=W,quality=Q,format=auto/<source>`: same origin, so the CSP's `img-src 'self'` covers them)
 * and the `sizes` of the place it is shown in; the browser picks the smallest that fills its box at the screen's
 * density. Switched off (the default, and `npm start`: no zone resizes there), the original file is the only
 * candidate. SVG is never resized: a vector is sharp at any width, and resizing would turn it into a raster.
 */

/** How wide a picture is shown, as `sizes` says it, for each place pictures are shown on the site. */
export const IMAGE_SIZES = {
  /** Full bleed: the home hero. */
  hero: '100vw',
  /**
   * A product card of `.product-grid`: inside the 72rem band, four a row from 75rem, three from 50rem, two below (phones
   * too).
   */
  card: '(min-width: 75rem) 18rem, (min-width: 50rem) 33vw, 50vw',
  /** A card of `.news-grid`: wider cards for longer titles, three a row from 62rem, two from 42rem, one below. */
  news: '(min-width: 75rem) 23rem, (min-width: 62rem) 33vw, (min-width: 42rem) 50vw, 100vw',
  /** An article's or a content page's picture: the reading column (46rem at most, its padding off below). */
  column: '(min-width: 50rem) 46rem, calc(100vw - 2rem)',
  /**
   * A product page's gallery picture: on phones a swiped row showing 88% of a picture, from 60rem the wider column
   * (7/12 of the 72rem band) beside the buy column.
   */
  gallery: '(min-width: 75rem) 42rem, (min-width: 60rem) 58vw, 88vw',
  /** A search result's thumbnail (7.5rem). */
  thumb: '7.5rem',
} as const

/** The widths resized candidates are made at, per place: none wider than the place's widest box at 2× density. */
export const IMAGE_WIDTHS = {
  hero: [640, 960, 1280, 1600, 1920, 2560],
  card: [320, 480, 640, 960],
  news: [320, 480, 640, 800, 1280],
  column: [480, 640, 960, 1280, 1600],
  gallery: [480, 640, 960, 1280, 1600],
  thumb: [120, 240, 360],
} as const

/** The quality resized photographs are encoded at (Cloudflare's scale, 1–100): no visible loss at a third of the bytes. */
export const IMAGE_QUALITY = 80

export type ImagePlace = keyof typeof IMAGE_SIZES

/** Whether a source is a vector (never resized) or a raster that image resizing can serve at other widths. */
const isVector = (src: string) => /\.svgz?$/i.test(src.split(/[?#]/)[0] ?? '')

/**
 * The resizing URL of `src` at `width` pixels: `/cdn-cgi/image/width=640,quality=80,format=auto/images/x.jpg` for a
 * same-site path, the absolute URL appended for a picture of the brand's API host. Null for what cannot be resized
 * (a vector, a data URI, anything that is neither a site path nor an http(s) URL).
 */
export function resizedUrl(src: string, width: number, quality = IMAGE_QUALITY): string | null {
  if (isVector(src)) return null
  const options = `width=${width},quality=${quality},format=auto`
  if (/^\/(?![/\\])/.test(src)) return `/cdn-cgi/image/${options}${src}`
  if (/^https?:\/\//i.test(src)) return `/cdn-cgi/image/${options}/${src}`
  return null
}

/** The `src`, `srcSet` and `sizes` of a picture shown in `place`: candidates only when resizing is on and it is a raster. */
export function imageSources(
  src: string,
  place: ImagePlace,
  resizing: boolean,
  width: number,
): { src: string; srcSet?: string; sizes?: string } {
  if (!resizing || !resizedUrl(src, width)) return { src }
  const widths = IMAGE_WIDTHS[place]
  const candidates = widths.map((w) => `${resizedUrl(src, w)} ${w}w`).join(', ')
  // The fallback for a browser without srcset: the candidate nearest the picture's own layout width.
  const fallback = widths.find((w) => w >= width) ?? widths.at(-1) ?? width
  return { src: resizedUrl(src, fallback) ?? src, srcSet: candidates, sizes: IMAGE_SIZES[place] }
}

type ResponsiveImageProps = {
  src: string
  /** Empty for a decorative picture (a card's, whose heading names the link). */
  alt: string
  /** The picture's layout width and height: its aspect ratio, reserved before it loads. */
  width: number
  height: number
  place: ImagePlace
  /** Whether Cloudflare's image resizing is on (`view.imageResizing`). */
  resizing: boolean
  /**
   * `eager`: the page's largest paint, loaded at once with high priority; `lazy` (the default): loaded when near the
   * viewport and decoded off the main thread.
   */
  loading?: 'eager' | 'lazy'
  className?: string
}

/**
 * The head's preload of a page's largest picture, as its eager `ResponsiveImage` asks for it: a page whose picture is
 * in a kept part (src/render/kept.tsx, not rendered when reused) asks for it outside the part, so the preload is the
 * same either way.
 */
export function preloadPicture(src: string, place: ImagePlace, resizing: boolean, width: number): void {
  const { src: href, srcSet, sizes } = imageSources(src, place, resizing, width)
  preload(href, { as: 'image', fetchPriority: 'high', imageSrcSet: srcSet, imageSizes: sizes })
}

/**
 * A picture with `srcset` and `sizes` for the place it is shown in.
 *
 * @example
 * <ResponsiveImage src={article.image} alt="" width={480} height={320} place="card" resizing={view.imageResizing ?? false} />
 */
export function ResponsiveImage({
  src,
  alt,
  width,
  height,
  place,
  resizing,
  loading = 'lazy',
  className,
}: ResponsiveImageProps) {
  const sources = imageSources(src, place, resizing, width)
  if (loading === 'eager') preloadPicture(src, place, resizing, width)
  return loading === 'eager' ? (
    <img {...sources} className={className} alt={alt} width={width} height={height} fetchPriority="high" />
  ) : (
    <img {...sources} className={className} alt={alt} width={width} height={height} loading="lazy" decoding="async" />
  )
}
