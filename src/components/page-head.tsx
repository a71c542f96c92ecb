import { useContext } from 'react'
import { ScriptNonce } from '../render/nonce'
import { jsonLd, type Thing } from '../seo/structured-data'
import type { SeoRecord } from '../../contract/schemas'

export type HeadProps = {
  title: string
  description?: string | null
  keywords?: string | null
  /** Absolute canonical URL. */
  canonical?: string
  ogImage?: string | null
  ogImageAlt?: string | null
  /** hreflang alternates: language tag → absolute URL (plus `x-default`). */
  alternates?: Array<{ hreflang: string; href: string }>
  robots?: string
  /** schema.org things (seo/structured-data.ts), written as one JSON-LD script; never on a page that is not indexed. */
  structuredData?: Thing[]
  /** Stylesheets only this page needs (the dealer map's). */
  stylesheets?: string[]
  /** Seconds after which the page loads itself again (`<meta http-equiv="refresh">`: a result waiting, without script). */
  refreshSeconds?: number
}

/**
 * The page's title and meta tags, Open Graph and alternates: elements React hoists to the top of the head (its
 * structured data is `HeadData`'s, a script).
 */
export function PageHead({
  title,
  description,
  keywords,
  canonical,
  ogImage,
  ogImageAlt,
  alternates = [],
  robots,
  refreshSeconds,
}: HeadProps) {
  return (
    <>
      <title>{title}</title>
      {description && <meta name="description" content={description} />}
      {keywords && <meta name="keywords" content={keywords} />}
      {robots && <meta name="robots" content={robots} />}
      {refreshSeconds !== undefined && <meta httpEquiv="refresh" content={String(refreshSeconds)} />}
      {canonical && <link rel="canonical" href={canonical} />}
      {alternates.map((a) => (
        <link key={a.hreflang} rel="alternate" hrefLang={a.hreflang} href={a.href} />
      ))}
      <meta property="og:type" content="website" />
      <meta property="og:title" content={title} />
      {description && <meta property="og:description" content={description} />}
      {canonical && <meta property="og:url" content={canonical} />}
      {ogImage && <meta property="og:image" content={ogImage} />}
      {ogImageAlt && <meta property="og:image:alt" content={ogImageAlt} />}
    </>
  )
}

/**
 * What `PageHead` shows but its canonical URL, for a kept part's deps (src/render/kept.tsx): its texts, robots, refresh,
 * alternates and Open Graph picture, and whether there is a canonical URL at all.
 */
export const pageHeadDeps = (head: HeadProps): unknown[] => [
  head.title,
  head.description ?? null,
  head.keywords ?? null,
  head.robots ?? null,
  head.refreshSeconds ?? null,
  Boolean(head.canonical),
  head.alternates ?? [],
  head.ogImage ?? null,
  head.ogImageAlt ?? null,
]

/** The page's structured data, one JSON-LD script; none on a page that is not indexed. */
export function HeadData({ robots, structuredData = [] }: Pick<HeadProps, 'robots' | 'structuredData'>) {
  const indexed = !robots?.includes('noindex')
  const nonce = useContext(ScriptNonce)
  return (
    <>
      {/* A data block, never run; it carries the nonce like every script element, and jsonLd escapes what could end it. */}
      {indexed && structuredData.length > 0 && (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON-LD escaped by jsonLd (no `<` left)
        <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: jsonLd(structuredData) }} />
      )}
    </>
  )
}

/** An absolute URL on the site's public origin for a path or a link from the content API, or null. */
export function absoluteUrl(origin: string | null, href: string | null | undefined): string | null {
  if (!href || !origin) return null
  try {
    return new URL(href, origin).href
  } catch {
    return null
  }
}

/** Head props from an SEO record, with the page's own title and description where the record has none. */
export function headFromSeo(
  seo: SeoRecord | null | undefined,
  fallback: { title: string; description?: string },
  origin: string | null,
): Pick<HeadProps, 'title' | 'description' | 'keywords' | 'ogImage' | 'ogImageAlt'> {
  return {
    title: seo?.page_title || seo?.og_title || fallback.title,
    description: seo?.meta_description || seo?.og_description || fallback.description,
    keywords: seo?.meta_keywords,
    ogImage: absoluteUrl(origin, seo?.og_image),
    ogImageAlt: seo?.og_image_alt,
  }
}
