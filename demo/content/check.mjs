#!/usr/bin/env node
// Validates the demo content (pages.json, news.json, products.json, catalogue.json, spec-phrases.json, frame-geometry.json,
// dealers.json, jobs.json), the markets'
// currencies (../markets.json) and the images it points to.
// Usage: node demo/content/check.mjs   — prints a summary and exits 1 if anything is wrong.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..', '..')
const publicDir = join(root, 'public')

const LOCALES = ['en', 'it', 'es', 'el', 'pt', 'de', 'fr', 'sl', 'hr', 'nl', 'he', 'ar']
const MARKETS = {
  int: ['en'],
  it: ['it'],
  es: ['es'],
  gr: ['el'],
  pt: ['pt'],
  de: ['de'],
  fr: ['fr'],
  ch: ['de', 'fr', 'it'],
  si: ['sl'],
  hr: ['hr'],
  nl: ['nl'],
  us: ['en', 'es'],
  mx: ['es'],
  il: ['he'],
  ae: ['ar', 'en'],
  au: ['en'],
  za: ['en'],
}
const PAGE_KEYS = [
  'home',
  'landing',
  'about-us',
  'contact-us',
  'test-drive',
  'become-a-dealer',
  'become-a-distributor',
  'work-with-us',
  'dealer-locator',
  'privacy-policy',
  'cookie-policy',
  'terms-of-sale',
  'legal-notice',
  'warranty',
  'delivery-returns',
]
/** How many blocks each page may have. */
const BLOCK_RANGE = {
  home: [0, 6],
  landing: [0, 6],
  'about-us': [4, 6],
  'contact-us': [3, 5],
  'test-drive': [2, 4],
  'become-a-dealer': [2, 4],
  'become-a-distributor': [2, 4],
  'work-with-us': [2, 4],
  'dealer-locator': [1, 2],
  'privacy-policy': [14, 22],
  'cookie-policy': [6, 12],
  'terms-of-sale': [8, 14],
  'legal-notice': [6, 10],
  warranty: [6, 12],
  'delivery-returns': [6, 12],
}
/** The company behind the site: the contact page's postal address and the privacy policy's controller. */
const COMPANY = ['Aurora Cycles S.p.A.', 'Via delle Officine 12', '24126']
/** A script each of these locales' texts must use, so they are not left in English. */
const SCRIPT = { el: /[\u0370-\u03FF]/, he: /[\u0590-\u05FF]/, ar: /[\u0600-\u06FF]/ }
/** The listings' filter values (migrations/0015_listing_facets.sql, contract/catalogue-schemas.ts). */
const DISCIPLINES = ['road', 'gravel', 'city', 'mtb', 'touring', 'kids', 'cargo', 'folding']
const FRAME_MATERIALS = ['carbon', 'aluminium', 'steel', 'titanium']
const NEWS_FROM = '2025-06-01'
const NEWS_TO = '2026-11-15'

const problems = []
const warnings = []
const fail = (where, message) => problems.push(`${where}: ${message}`)

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const HTML_TAG = /<\/?[a-z!][^>]*>|&[a-z]+;|&#\d+;/i
const MARKDOWN = /\*\*|__|`|\[[^\]]*\]\([^)]*\)|^\s{0,3}#{1,6}\s|^\s*[-*+]\s|^\s*\d+\.\s/m

function readJson(name) {
  const path = join(here, name)
  if (!existsSync(path)) {
    fail(name, 'file is missing')
    return null
  }
  const text = readFileSync(path, 'utf8')
  let value
  try {
    value = JSON.parse(text)
  } catch (error) {
    fail(name, `invalid JSON: ${error.message}`)
    return null
  }
  if (text.charCodeAt(0) === 0xfeff) fail(name, 'has a byte-order mark')
  if (text !== `${JSON.stringify(value, null, 2)}\n`)
    fail(name, 'is not formatted with 2-space indentation (JSON.stringify(v, null, 2) + newline)')
  return value
}

/** A piece of text shown to visitors: non-empty, plain text, no HTML or Markdown. */
function text(where, value, { max } = {}) {
  if (typeof value !== 'string' || value.trim() === '') {
    fail(where, 'missing or empty text')
    return false
  }
  if (value !== value.trim()) fail(where, 'has leading or trailing whitespace')
  if (HTML_TAG.test(value)) fail(where, `contains an HTML tag or entity: ${JSON.stringify(value.slice(0, 60))}`)
  if (MARKDOWN.test(value)) fail(where, `contains Markdown: ${JSON.stringify(value.slice(0, 60))}`)
  if (max && [...value].length > max) fail(where, `is ${[...value].length} characters long, more than ${max}`)
  return true
}

/** Every text of a localised item, to compare with the English one. */
function blockTexts(blocks) {
  return (blocks ?? []).flatMap((b) => (b.type === 'list' ? (b.items ?? []) : [b.text]))
}

function checkNative(where, locale, strings, english, { eachOf = 0 } = {}) {
  const script = SCRIPT[locale]
  if (script && !script.test(strings.join(' '))) fail(where, `no ${locale} script found: looks untranslated`)
  // The first `eachOf` strings (titles, summaries…) must each be written in the locale's own script.
  if (script)
    strings.slice(0, eachOf).forEach((s) => {
      if (s && !script.test(s)) fail(where, `${JSON.stringify(s.slice(0, 60))} is not written in ${locale} script`)
    })
  if (locale !== 'en' && english) {
    strings.forEach((s, i) => {
      if (s && english[i] && s === english[i] && /\p{L}{2,}\s+\p{L}{2,}/u.test(s) && !s.includes('@')) {
        fail(where, `text identical to English: ${JSON.stringify(s.slice(0, 60))}`)
      }
    })
  }
}

function checkBlocks(where, blocks) {
  if (!Array.isArray(blocks)) {
    fail(where, 'blocks must be an array')
    return
  }
  blocks.forEach((block, i) => {
    const at = `${where}.blocks[${i}]`
    const keys = Object.keys(block ?? {})
      .sort()
      .join(',')
    if (block?.type === 'heading' || block?.type === 'paragraph') {
      if (keys !== 'text,type') fail(at, `unexpected fields ${keys}`)
      text(at, block.text)
    } else if (block?.type === 'list') {
      if (keys !== 'items,type') fail(at, `unexpected fields ${keys}`)
      if (!Array.isArray(block.items) || block.items.length < 2) fail(at, 'a list needs at least two items')
      else for (const [j, item] of block.items.entries()) text(`${at}.items[${j}]`, item)
    } else {
      fail(at, `unknown block type ${JSON.stringify(block?.type)}`)
    }
  })
}

function imageExists(where, url, folder) {
  const prefix = folder ? `/images/${folder}/` : '/images/'
  if (typeof url !== 'string' || !url.startsWith(prefix) || !url.endsWith('.svg')) {
    fail(where, `image ${JSON.stringify(url)} must be ${prefix}….svg`)
    return
  }
  if (!existsSync(join(publicDir, url))) fail(where, `image file public${url} does not exist`)
  usedImages.add(url)
}
const usedImages = new Set()

// ------------------------------------------------------------------------------------------------ pages

const pages = readJson('pages.json')
if (pages) {
  const keys = Object.keys(pages)
  for (const key of PAGE_KEYS) if (!keys.includes(key)) fail('pages.json', `page "${key}" is missing`)
  for (const key of keys) if (!PAGE_KEYS.includes(key)) fail('pages.json', `unexpected page "${key}"`)
  for (const key of PAGE_KEYS.filter((k) => pages[k])) {
    const byLocale = pages[key]
    for (const locale of LOCALES) if (!byLocale[locale]) fail(`pages.${key}`, `locale "${locale}" is missing`)
    for (const locale of Object.keys(byLocale))
      if (!LOCALES.includes(locale)) fail(`pages.${key}`, `unknown locale "${locale}"`)
    const en = byLocale.en
    for (const locale of LOCALES.filter((l) => byLocale[l])) {
      const page = byLocale[locale]
      const at = `pages.${key}.${locale}`
      text(`${at}.title`, page.title)
      text(`${at}.summary`, page.summary)
      checkBlocks(at, page.blocks)
      const [min, max] = BLOCK_RANGE[key]
      if (Array.isArray(page.blocks) && (page.blocks.length < min || page.blocks.length > max))
        fail(at, `has ${page.blocks.length} blocks, expected ${min}–${max}`)
      if (
        en &&
        Array.isArray(page.blocks) &&
        Array.isArray(en.blocks) &&
        page.blocks.map((b) => b.type).join() !== en.blocks.map((b) => b.type).join()
      ) {
        warnings.push(`${at}: block structure differs from English`)
      }
      const seo = page.seo
      if (!seo || typeof seo !== 'object') {
        fail(at, 'seo is missing')
        continue
      }
      const seoKeys = [
        'page_title',
        'meta_description',
        'meta_keywords',
        'og_title',
        'og_description',
        'og_image',
        'og_image_alt',
      ]
      for (const k of Object.keys(seo))
        if (!seoKeys.includes(k) && k !== 'meta_name') fail(`${at}.seo`, `unexpected field ${k}`)
      text(`${at}.seo.page_title`, seo.page_title, { max: 70 })
      text(`${at}.seo.meta_description`, seo.meta_description, { max: 160 })
      text(`${at}.seo.og_title`, seo.og_title, { max: 90 })
      text(`${at}.seo.og_description`, seo.og_description, { max: 200 })
      text(`${at}.seo.og_image_alt`, seo.og_image_alt, { max: 160 })
      if (text(`${at}.seo.meta_keywords`, seo.meta_keywords)) {
        const words = seo.meta_keywords.split(',').map((w) => w.trim())
        if (words.length < 3 || words.some((w) => w === ''))
          fail(`${at}.seo.meta_keywords`, 'must be at least three comma-separated keywords')
      }
      if (seo.og_image !== `/images/og/${key}.svg`) fail(`${at}.seo.og_image`, `must be /images/og/${key}.svg`)
      imageExists(`${at}.seo.og_image`, seo.og_image, 'og')
      if (key === 'landing' && !/Aurora Cycles/.test(page.title))
        fail(`${at}.title`, 'the landing title must name Aurora Cycles')
      const strings = [page.title, page.summary, ...blockTexts(page.blocks), seo.meta_description]
      const english = en ? [en.title, en.summary, ...blockTexts(en.blocks), en.seo?.meta_description] : null
      checkNative(at, locale, strings, english, { eachOf: 2 })
    }
  }
  // Facts the contact page must carry in every locale.
  for (const locale of LOCALES) {
    const page = pages['contact-us']?.[locale]
    if (!page) continue
    const all = [page.summary, ...blockTexts(page.blocks)].join(' ')
    for (const fact of ['care@aurora-cycles.example', '+39 035 000 0000', ...COMPANY]) {
      if (!all.includes(fact)) fail(`pages.contact-us.${locale}`, `does not mention ${fact}`)
    }
    if (!/9[.:]00|9 h/.test(all) || !/18[.:]00|18 h/.test(all))
      fail(`pages.contact-us.${locale}`, 'does not give the opening hours 9:00–18:00')
    if (!/press@/.test(all)) fail(`pages.contact-us.${locale}`, 'has no press contact')
  }
  // Facts the privacy policy must carry in every locale: its controller, where to write, the supervisory authority,
  // the 12 months form submissions are kept (besides the street number 12) and the date of its last change.
  for (const locale of LOCALES) {
    const page = pages['privacy-policy']?.[locale]
    if (!page) continue
    const all = [page.summary, ...blockTexts(page.blocks)].join(' ')
    for (const fact of [
      ...COMPANY,
      'privacy@aurora-cycles.example',
      'Garante per la protezione dei dati personali',
      'www.garanteprivacy.it',
      '2026',
    ]) {
      if (!all.includes(fact)) fail(`pages.privacy-policy.${locale}`, `does not mention ${fact}`)
    }
    if ((all.match(/(?<!\d)12(?!\d)/g) ?? []).length < 2)
      fail(`pages.privacy-policy.${locale}`, 'does not give the 12 months form submissions are kept')
  }
  // Facts the legal notice must carry in every locale: the company, its address, registration and VAT numbers and how
  // to reach it; the terms of sale name the seller and its VAT number; every trust page says where to write.
  const LEGAL_FACTS = {
    'legal-notice': [...COMPANY, 'BG-198765', 'IT01987650163', 'care@aurora-cycles.example', '+39 035 000 0000'],
    'terms-of-sale': [...COMPANY, 'IT01987650163', 'care@aurora-cycles.example', '14'],
    'delivery-returns': ['care@aurora-cycles.example', '30', '14'],
    warranty: ['care@aurora-cycles.example'],
    'cookie-policy': ['privacy@aurora-cycles.example', '2026', '180'],
  }
  for (const [key, facts] of Object.entries(LEGAL_FACTS)) {
    for (const locale of LOCALES) {
      const page = pages[key]?.[locale]
      if (!page) continue
      const all = [page.summary, ...blockTexts(page.blocks)].join(' ')
      for (const fact of facts) if (!all.includes(fact)) fail(`pages.${key}.${locale}`, `does not mention ${fact}`)
    }
  }
  for (const locale of LOCALES) {
    const about = pages['about-us']?.[locale]
    if (about && !blockTexts(about.blocks).join(' ').includes('1987'))
      fail(`pages.about-us.${locale}`, 'does not mention the founding year 1987')
  }
}

// ------------------------------------------------------------------------------------------------ news

const news = readJson('news.json')
/** The catalogue's product slugs, which an article may name. */
const productSlugs = new Set((readJson('products.json')?.products ?? []).map((product) => product.slug))
if (news) {
  if (!Array.isArray(news)) fail('news.json', 'must be an array')
  else {
    if (news.length < 24) fail('news.json', `has ${news.length} articles, at least 24 are needed`)
    const seen = new Set()
    const globalPerLocale = Object.fromEntries(LOCALES.map((l) => [l, 0]))
    const fields = ['blocks', 'excerpt', 'image', 'locale', 'published_at', 'scope', 'slug', 'story', 'title']
    // A story is told once per language: its articles are one another's hreflang alternates.
    const storyLocales = new Map()
    news.forEach((article, i) => {
      const at = `news[${i}]${article?.slug ? ` (${article.slug})` : ''}`
      // `products` is optional: the catalogue's bikes an article names (docs/decisions/062), checked with the catalogue.
      const keys = Object.keys(article ?? {})
        .filter((key) => key !== 'products')
        .sort()
      if (keys.join() !== fields.join()) fail(at, `fields must be ${fields.join(', ')}; found ${keys.join(', ')}`)
      if (article && 'products' in article) {
        const named = article.products
        if (!Array.isArray(named) || named.length === 0 || named.some((slug) => !productSlugs.has(slug)))
          fail(at, `products must be a non-empty list of the catalogue's product slugs; found ${JSON.stringify(named)}`)
      }
      if (typeof article.slug !== 'string' || !KEBAB.test(article.slug))
        fail(at, `slug ${JSON.stringify(article.slug)} is not kebab-case ASCII`)
      if (!LOCALES.includes(article.locale)) fail(at, `unknown locale ${JSON.stringify(article.locale)}`)
      if (article.scope !== '*' && !MARKETS[article.scope])
        fail(at, `scope ${JSON.stringify(article.scope)} is neither "*" nor a market`)
      if (MARKETS[article.scope] && !MARKETS[article.scope].includes(article.locale))
        fail(at, `market ${article.scope} has no locale ${article.locale}`)
      if (article.scope === '*' && globalPerLocale[article.locale] !== undefined) globalPerLocale[article.locale]++
      if (article.story !== null && (typeof article.story !== 'string' || !KEBAB.test(article.story)))
        fail(at, `story ${JSON.stringify(article.story)} is neither null nor kebab-case ASCII`)
      if (typeof article.story === 'string') {
        const told = storyLocales.get(article.story) ?? new Set()
        if (told.has(article.locale)) fail(at, `story ${article.story} is told twice in ${article.locale}`)
        storyLocales.set(article.story, told.add(article.locale))
      }
      const id = `${article.slug}|${article.locale}|${article.scope}`
      if (seen.has(id)) fail(at, `duplicate (slug, locale, scope) ${id}`)
      seen.add(id)
      text(`${at}.title`, article.title)
      text(`${at}.excerpt`, article.excerpt)
      const sentences = (article.excerpt ?? '').split(/(?<=[.!?؟。])\s+/).filter(Boolean)
      if (sentences.length > 2) fail(`${at}.excerpt`, `has ${sentences.length} sentences, at most 2`)
      checkBlocks(at, article.blocks)
      if (Array.isArray(article.blocks) && (article.blocks.length < 2 || article.blocks.length > 4))
        fail(at, `has ${article.blocks.length} blocks, expected 2–4`)
      imageExists(`${at}.image`, article.image, 'news')
      const date = article.published_at
      const valid =
        typeof date === 'string' &&
        /^\d{4}-\d{2}-\d{2}$/.test(date) &&
        new Date(`${date}T00:00:00Z`).toISOString().startsWith(date)
      if (!valid) fail(at, `published_at ${JSON.stringify(date)} is not a YYYY-MM-DD date`)
      else if (date < NEWS_FROM || date > NEWS_TO) fail(at, `published_at ${date} is outside ${NEWS_FROM}…${NEWS_TO}`)
      if (LOCALES.includes(article.locale))
        checkNative(at, article.locale, [article.title, article.excerpt, ...blockTexts(article.blocks)], null, {
          eachOf: 2,
        })
    })
    for (const [locale, count] of Object.entries(globalPerLocale)) {
      if (count < 2) fail('news.json', `locale ${locale} has ${count} articles with scope "*", at least 2 are needed`)
    }
    if (![...storyLocales.values()].some((locales) => locales.size >= 3))
      fail('news.json', 'no story is told in three languages or more')
    const scoped = news.filter((a) => a.scope !== '*')
    if (scoped.length < 3) fail('news.json', `only ${scoped.length} market-specific articles, expected a few`)
  }
}

// ------------------------------------------------------------------------------------------------ products

const catalogue = readJson('products.json')
if (catalogue) {
  const types = catalogue.types ?? []
  const wantTypes = { 1: 'bikes', 2: 'e-bikes', 3: 'accessories' }
  if (types.length !== 3) fail('products.types', `expected 3 types, found ${types.length}`)
  for (const t of types) {
    if (wantTypes[t.id] !== t.slug) fail(`products.types[${t.id}]`, `id ${t.id} must have slug ${wantTypes[t.id]}`)
    for (const locale of LOCALES) text(`products.types.${t.slug}.names.${locale}`, t.names?.[locale])
    for (const locale of Object.keys(t.names ?? {}))
      if (!LOCALES.includes(locale)) fail(`products.types.${t.slug}`, `unknown locale ${locale}`)
    checkNative(`products.types.${t.slug}`, 'el', [t.names?.el], null)
    checkNative(`products.types.${t.slug}`, 'he', [t.names?.he], null)
    checkNative(`products.types.${t.slug}`, 'ar', [t.names?.ar], null)
  }
  const products = catalogue.products ?? []
  if (products.length < 18) fail('products', `has ${products.length} products, at least 18 are needed`)
  const perType = { 1: 0, 2: 0, 3: 0 }
  const ids = new Set(),
    slugs = new Set()
  products.forEach((p, i) => {
    const at = `products[${i}]${p?.slug ? ` (${p.slug})` : ''}`
    if (!Number.isInteger(p.id) || ids.has(p.id)) fail(at, `id ${p.id} is missing or duplicated`)
    ids.add(p.id)
    if (typeof p.slug !== 'string' || !KEBAB.test(p.slug))
      fail(at, `slug ${JSON.stringify(p.slug)} is not kebab-case ASCII`)
    if (slugs.has(p.slug)) fail(at, 'duplicate slug')
    slugs.add(p.slug)
    if (!(p.type_id in perType)) fail(at, `unknown type_id ${p.type_id}`)
    else perType[p.type_id]++
    if (typeof p.featured !== 'boolean') fail(at, 'featured must be true or false')
    // The listings' filters (migrations/0015): bikes have a discipline and a frame material, accessories neither.
    if (typeof p.e_bike !== 'boolean') fail(at, 'e_bike must be true or false')
    else if (p.e_bike !== (p.type_id === 2)) fail(at, 'e_bike must be true exactly for e-bikes (type 2)')
    if (p.type_id === 3 ? p.discipline !== undefined : !DISCIPLINES.includes(p.discipline))
      fail(
        at,
        `discipline ${JSON.stringify(p.discipline)}: one of ${DISCIPLINES.join(', ')} on bikes, none on accessories`,
      )
    if (p.type_id === 3 ? p.frame_material !== undefined : !FRAME_MATERIALS.includes(p.frame_material))
      fail(
        at,
        `frame_material ${JSON.stringify(p.frame_material)}: one of ${FRAME_MATERIALS.join(', ')} on bikes, none on accessories`,
      )
    if (typeof p.released_on !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(p.released_on))
      fail(at, 'released_on must be a YYYY-MM-DD date')
    if (p.image !== `/images/products/${p.slug}.svg`) fail(at, `image must be /images/products/${p.slug}.svg`)
    imageExists(`${at}.image`, p.image, 'products')
    const names = p.names ?? {}
    for (const locale of LOCALES) {
      if (!names[locale]) {
        fail(at, `locale ${locale} is missing`)
        continue
      }
      text(`${at}.names.${locale}.name`, names[locale].name)
      text(`${at}.names.${locale}.tagline`, names[locale].tagline, { max: 110 })
      if (names.en && names[locale].name !== names.en.name)
        fail(`${at}.names.${locale}.name`, `model names stay the same in every locale (${names.en.name})`)
      if (locale !== 'en' && names.en && names[locale].tagline === names.en.tagline)
        fail(`${at}.names.${locale}.tagline`, 'is the English tagline, not a translation')
      checkNative(`${at}.names.${locale}`, locale, [names[locale].tagline], null)
    }
    for (const locale of Object.keys(names)) if (!LOCALES.includes(locale)) fail(at, `unknown locale ${locale}`)
  })
  if (perType[1] < 8) fail('products', `${perType[1]} bikes (type 1), at least 8 are needed`)
  if (perType[2] < 6) fail('products', `${perType[2]} e-bikes (type 2), at least 6 are needed`)
  if (perType[3] < 4) fail('products', `${perType[3]} accessories (type 3), at least 4 are needed`)
  const featured = products.filter((p) => p.featured === true).length
  if (featured !== 4) fail('products', `${featured} featured products, exactly 4 are expected`)
}

// ------------------------------------------------------------------------------------------------ catalogue details

/**
 * Specification values (catalogue.json `specs[].items`) are phrases of spec-phrases.json (each in every locale, with
 * exactly the placeholders of its English text), codes (designations written alike everywhere) and quantities (a number
 * or a range and a unit the Worker formats): every value a visitor reads is in their language (scripts/spec-items.mjs).
 */
const SPEC_UNITS = ['g', 'kg', 'mm', 'cm', 'km', 'W', 'Nm', 'Wh', 'A', 'h', 'lm', 'L', 'bar', 'psi']
const specPhrases = readJson('spec-phrases.json') ?? {}
const usedPhrases = new Set()
const placeholdersOf = (template) =>
  [...template.matchAll(/\{(\d)\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',')
for (const [key, texts] of Object.entries(specPhrases)) {
  const at = `spec-phrases.${key}`
  if (!/^[a-z0-9_]+$/.test(key)) fail(at, 'keys are lower-case words joined by underscores')
  const english = texts?.en ?? ''
  for (const locale of LOCALES) {
    const value = texts?.[locale]
    if (!text(`${at}.${locale}`, value)) continue
    if (placeholdersOf(value) !== placeholdersOf(english))
      fail(`${at}.${locale}`, `must have the placeholders of the English text (${placeholdersOf(english) || 'none'})`)
    // Words must be written in the locale's script (a phrase of placeholders only, "{0} {1}", has none to translate).
    const words = value.replace(/\{\d\}/g, '')
    if (SCRIPT[locale] && /\p{L}/u.test(words) && !SCRIPT[locale].test(words))
      fail(`${at}.${locale}`, `is not written in ${locale} script`)
  }
  for (const locale of Object.keys(texts ?? {})) if (!LOCALES.includes(locale)) fail(at, `unknown locale ${locale}`)
}
function checkSpecValue(where, value) {
  if (typeof value?.code === 'string') {
    if (!value.code.trim() || /\p{Script=Hebrew}|\p{Script=Arabic}|\p{Script=Greek}/u.test(value.code))
      fail(where, `code ${JSON.stringify(value.code)} must be a designation in Latin letters and digits`)
  } else if (typeof value?.quantity === 'number') {
    if (!Number.isFinite(value.quantity)) fail(where, 'quantity must be a number')
    if (value.to !== undefined && !(typeof value.to === 'number' && value.to > value.quantity))
      fail(where, 'a range\'s "to" must be larger than its quantity')
    if (value.unit !== undefined && !SPEC_UNITS.includes(value.unit))
      fail(where, `unknown unit ${value.unit} (one of ${SPEC_UNITS.join(', ')})`)
  } else fail(where, `${JSON.stringify(value)} is neither a phrase, a code nor a quantity`)
}
function checkSpecItems(where, items) {
  if (!Array.isArray(items) || items.length === 0) {
    fail(where, 'needs items')
    return
  }
  for (const [i, item] of items.entries()) {
    const key = typeof item === 'string' ? item : item?.phrase
    if (key === undefined) checkSpecValue(`${where}[${i}]`, item)
    else if (!specPhrases[key]) fail(`${where}[${i}]`, `unknown phrase ${key}`)
    else {
      const args = typeof item === 'string' ? [] : (item.args ?? [])
      const wanted = placeholdersOf(specPhrases[key].en ?? '')
      if (args.map((_, n) => String(n)).join(',') !== wanted)
        fail(`${where}[${i}]`, `phrase ${key} takes ${wanted || 'no'} arguments, ${args.length} given`)
      for (const [n, arg] of args.entries()) checkSpecValue(`${where}[${i}].args[${n}]`, arg)
    }
    if (key !== undefined) usedPhrases.add(key)
  }
}

/** The frame families' size guides: sizes with rider heights (cm) and geometry (mm and degrees). */
const GEOMETRY = ['stack', 'reach', 'seat_tube', 'top_tube', 'head_angle', 'seat_angle', 'chainstay', 'wheelbase']
const geometry = readJson('frame-geometry.json')
for (const [family, rows] of Object.entries(geometry ?? {})) {
  const at = `frame-geometry.${family}`
  if (!Array.isArray(rows) || rows.length === 0) {
    fail(at, 'needs sizes')
    continue
  }
  if (new Set(rows.map((row) => row.size)).size !== rows.length) fail(at, 'has a size twice')
  rows.forEach((row, i) => {
    const where = `${at}[${row?.size ?? i}]`
    const { min, max } = row?.rider_height_cm ?? {}
    if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 90 && max <= 215 && min < max))
      fail(where, 'rider_height_cm needs whole centimetres, 90 ≤ min < max ≤ 215')
    if (i > 0 && !(min > rows[i - 1].rider_height_cm.min && max > rows[i - 1].rider_height_cm.max))
      fail(where, 'rider heights must grow with the sizes')
    if (Object.keys(row?.geometry ?? {}).join(',') !== GEOMETRY.join(','))
      fail(where, `geometry must list ${GEOMETRY.join(', ')}`)
    for (const [name, value] of Object.entries(row?.geometry ?? {})) {
      const angle = name.endsWith('_angle')
      if (
        typeof value !== 'number' ||
        (angle ? !(value > 60 && value < 80) : !(Number.isInteger(value) && value > 200 && value < 1400))
      ) {
        fail(
          `${where}.${name}`,
          angle ? 'an angle in degrees between 60 and 80' : 'whole millimetres between 200 and 1400',
        )
      }
    }
  })
}

const SPEC_KEYS = [
  'frame',
  'fork',
  'groupset',
  'gearing',
  'brakes',
  'wheels',
  'tyres',
  'weight',
  'motor',
  'battery',
  'range',
  'charger',
  'material',
  'size',
  'capacity',
  'lumens',
  'runtime',
  'compatibility',
]
const COLOURS = ['black', 'white', 'red', 'sage', 'blue', 'orange', 'grey', 'sand', 'green', 'yellow']
const AVAILABILITY = ['in_stock', 'low_stock', 'out_of_stock', 'preorder']
const SITES = Object.keys(MARKETS)
const details = readJson('catalogue.json')
if (details && catalogue) {
  const skus = new Set()
  const soldPerSite = Object.fromEntries(SITES.map((site) => [site, 0]))
  for (const product of catalogue.products ?? []) {
    const at = `catalogue.${product.slug}`
    const detail = details[product.slug]
    if (!detail) {
      fail(at, 'is missing')
      continue
    }
    for (const locale of LOCALES) text(`${at}.description.${locale}`, detail.description?.[locale])
    // A gallery entry is a picture's path, or `{ src, colour }` for a picture of the product in one of its colours.
    const pictures = (detail.gallery ?? []).map((entry) => (typeof entry === 'string' ? { src: entry } : entry))
    const colours = new Set((detail.variants ?? []).map((variant) => variant.colour))
    pictures.forEach(({ src, colour }, i) => {
      imageExists(`${at}.gallery[${i}]`, src, 'products')
      if (colour !== undefined && !colours.has(colour))
        fail(`${at}.gallery[${i}]`, `colour ${colour} is not one of the product's`)
    })
    if (pictures[0]?.src !== product.image) fail(`${at}.gallery`, "must start with the product's image")
    for (const spec of detail.specs ?? []) {
      if (!SPEC_KEYS.includes(spec?.key)) fail(`${at}.specs`, `unknown spec key ${spec?.key}`)
      checkSpecItems(`${at}.specs.${spec?.key}`, spec?.items)
    }
    if (detail.frame_family !== undefined) {
      const rows = geometry?.[detail.frame_family]
      if (!rows) fail(`${at}.frame_family`, `unknown frame family ${detail.frame_family}`)
      else {
        const sizes = new Set(rows.map((row) => row.size))
        for (const size of new Set((detail.variants ?? []).map((variant) => variant.size))) {
          if (!sizes.has(size))
            fail(`${at}.frame_family`, `${detail.frame_family} has no size ${size}, which the product comes in`)
        }
      }
    } else if (product.type_id !== 3 && new Set((detail.variants ?? []).map((variant) => variant.size)).size > 1) {
      fail(`${at}.frame_family`, 'a bicycle sold in several sizes needs a frame family (its size guide)')
    }
    const sold = Object.keys(detail.prices ?? {})
    const variantsSold = Object.fromEntries(sold.map((site) => [site, 0]))
    for (const variant of detail.variants ?? []) {
      const where = `${at}.variants.${variant.sku}`
      if (skus.has(variant.sku)) fail(`${at}.variants`, `duplicate sku ${variant.sku}`)
      skus.add(variant.sku)
      if (!COLOURS.includes(variant.colour)) fail(where, `unknown colour ${variant.colour}`)
      if (!AVAILABILITY.includes(variant.availability)) fail(where, `unknown availability ${variant.availability}`)
      // A variant is sold wherever its product is, at the product's price, unless its own `prices` or `not_sold_in` say otherwise.
      for (const [site, amount] of Object.entries(variant.prices ?? {})) {
        if (!sold.includes(site)) fail(`${where}.prices`, `${site}: the product is not sold there`)
        if (!Number.isInteger(amount) || amount <= 0)
          fail(`${where}.prices.${site}`, 'must be a positive whole number of minor units')
      }
      for (const site of variant.not_sold_in ?? [])
        if (!sold.includes(site)) fail(`${where}.not_sold_in`, `${site}: the product is not sold there`)
      for (const site of sold) if (!(variant.not_sold_in ?? []).includes(site)) variantsSold[site]++
    }
    if (detail.variants?.length) {
      for (const [site, count] of Object.entries(variantsSold))
        if (count === 0) fail(`${at}.variants`, `none is sold in ${site}, where the product is`)
    }
    for (const [site, amount] of Object.entries(detail.prices ?? {})) {
      if (!SITES.includes(site)) fail(`${at}.prices`, `unknown site ${site}`)
      else soldPerSite[site]++
      if (!Number.isInteger(amount) || amount <= 0)
        fail(`${at}.prices.${site}`, 'must be a positive whole number of minor units')
    }
  }
  for (const [site, count] of Object.entries(soldPerSite))
    if (count < 12) fail(`catalogue (${site})`, `sells ${count} products, at least 12 are needed`)
  for (const key of Object.keys(specPhrases))
    if (!usedPhrases.has(key)) warnings.push(`spec-phrases.${key} is not used by any product`)
}

// ------------------------------------------------------------------------------------------------ markets' money

/** What Intl writes for a currency in a language (`€`, `$`, `A$`, `CHF`…). */
const currencySymbol = (tag, currency, display) =>
  new Intl.NumberFormat(tag, { style: 'currency', currency, currencyDisplay: display })
    .formatToParts(1)
    .find((p) => p.type === 'currency')?.value
const markets = JSON.parse(readFileSync(join(here, '..', 'markets.json'), 'utf8'))
const CURRENCIES = Intl.supportedValuesOf('currency')
for (const market of markets) {
  const at = `markets.${market.slug}.currency`
  if (!MARKETS[market.slug]) {
    fail(`markets.${market.slug}`, 'is not a known market')
    continue
  }
  const { code, token, place } = market.currency ?? {}
  if (!/^[A-Z]{3}$/.test(code ?? '') || !CURRENCIES.includes(code)) {
    fail(at, `code ${JSON.stringify(code)} is not an ISO 4217 currency`)
    continue
  }
  if (!['left', 'right'].includes(place)) fail(at, `place ${JSON.stringify(place)} must be left or right`)
  // The token must be how someone writes this very currency: its code, or its symbol in English or a market language.
  const tags = [
    'en',
    ...market.locales.map((locale) => (market.slug.length === 2 ? `${locale}-${market.slug.toUpperCase()}` : locale)),
  ]
  const written = new Set([
    code,
    ...tags.flatMap((tag) => [currencySymbol(tag, code, 'symbol'), currencySymbol(tag, code, 'narrowSymbol')]),
  ])
  if (!written.has(token)) fail(at, `token ${JSON.stringify(token)} does not write ${code} (${[...written].join(' ')})`)
}

// ------------------------------------------------------------------------------------------------ dealers

const dealerData = readJson('dealers.json')
if (dealerData) {
  const slugs = new Set()
  for (const dealer of dealerData.dealers ?? []) {
    const at = `dealers.${dealer.slug}`
    if (!KEBAB.test(dealer.slug ?? '') || slugs.has(dealer.slug)) fail(at, 'slug missing, not kebab-case or duplicated')
    slugs.add(dealer.slug)
    if (!SITES.includes(dealer.site)) fail(at, `unknown site ${dealer.site}`)
    if (!(Math.abs(dealer.lat) <= 90 && Math.abs(dealer.lng) <= 180)) fail(at, 'coordinates out of range')
    if (!Array.isArray(dealer.hours) || dealer.hours.length !== 7) fail(at, 'hours must list seven days')
    else
      for (const ranges of dealer.hours)
        for (const range of ranges) if (!/^\d{2}:\d{2}-\d{2}:\d{2}$/.test(range)) fail(at, `hours range ${range}`)
  }
  if (slugs.size < 40) fail('dealers', `${slugs.size} dealers, at least 40 are needed`)
  for (const site of SITES)
    if (!dealerData.dealers.some((d) => d.site === site)) fail('dealers', `no dealer for ${site}`)
  checkPlaces(dealerData.dealers ?? [], dealerData.places ?? [])
}

/**
 * The places a visitor may type into the dealer locator: the larger towns of each market and every town with a
 * dealer (within 30 km of it), each with coordinates, a postcode where the country has them, its name in each of the
 * market's languages that writes it otherwise and other spellings. Dealers of markets whose language has its own
 * script carry their address and town in it.
 */
function checkPlaces(dealers, places) {
  const fold = (text) =>
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/['’ʼ`´.]/g, '')
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
  const namesOf = (place) =>
    [place.name, ...Object.values(place.names ?? {}), ...(place.aliases ?? [])].flatMap((n) => [
      fold(n),
      fold(n.split(',')[0]),
    ])
  const km = (a, b) => {
    const rad = Math.PI / 180
    const h =
      Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
      Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2
    return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)))
  }
  const seen = new Map()
  for (const [index, place] of places.entries()) {
    const at = `dealers.places[${index}] ${place.site}/${place.name}`
    const fields = ['aliases', 'lat', 'lng', 'name', 'names', 'postal_code', 'site']
    for (const key of Object.keys(place)) if (!fields.includes(key)) fail(at, `unknown field ${key}`)
    if (!SITES.includes(place.site)) {
      fail(at, `unknown site ${place.site}`)
      continue
    }
    text(`${at}.name`, place.name, { max: 60 })
    if (
      !(
        typeof place.lat === 'number' &&
        typeof place.lng === 'number' &&
        Math.abs(place.lat) <= 90 &&
        Math.abs(place.lng) <= 180
      )
    )
      fail(at, 'coordinates missing or out of range')
    if (place.postal_code !== null && !/^[A-Z0-9][A-Z0-9 -]{1,9}$/.test(place.postal_code ?? ''))
      fail(at, `postal_code ${JSON.stringify(place.postal_code)} is neither null nor a postcode`)
    for (const [locale, name] of Object.entries(place.names ?? {})) {
      if (!LOCALES.includes(locale)) fail(at, `names: unknown locale ${locale}`)
      text(`${at}.names.${locale}`, name, { max: 60 })
      if (name === place.name) fail(at, `names.${locale} repeats the name: list only names written otherwise`)
    }
    if (!Array.isArray(place.aliases ?? [])) fail(at, 'aliases must be a list')
    // A market's places are shown in its languages: in a language with its own script, the name is in it.
    for (const locale of MARKETS[place.site]) {
      const shown = place.names?.[locale] ?? place.name
      if (SCRIPT[locale] && !SCRIPT[locale].test(shown))
        fail(at, `${JSON.stringify(shown)} is not written in ${locale} script`)
    }
    for (const name of new Set(namesOf(place))) {
      const key = `${place.site}|${name}`
      if (seen.has(key)) fail(at, `"${name}" also names ${seen.get(key)}: a typed name must find one place`)
      seen.set(key, place.name)
    }
  }
  for (const site of SITES) {
    const count = places.filter((p) => p.site === site).length
    if (count < 9)
      fail('dealers.places', `${count} places for ${site}: list the larger towns of the country (9 at least)`)
  }
  for (const town of [
    'Palermo',
    'Venezia',
    'Venice',
    'Como',
    'Monza',
    'Milano',
    'Roma',
    'Napoli',
    'Torino',
    'Bologna',
    'Firenze',
    'Bari',
    'Catania',
    'Genova',
    'Verona',
    'Bergamo',
    'Brescia',
    'Padova',
    'Trieste',
  ]) {
    if (!places.some((p) => p.site === 'it' && namesOf(p).includes(fold(town))))
      fail('dealers.places', `Italy has no place ${town}`)
  }
  for (const dealer of dealers) {
    const at = `dealers.${dealer.slug}`
    const town = places.find((p) => p.site === dealer.site && namesOf(p).includes(fold(dealer.city ?? '')))
    if (!town) fail(at, `its town ${dealer.city} is not a place of ${dealer.site}: visitors could not type it`)
    else if (km(town, dealer) > 30) fail(at, `its town's place ${town.name} is ${Math.round(km(town, dealer))} km away`)
    const translations = dealer.translations ?? {}
    for (const [locale, words] of Object.entries(translations)) {
      if (!MARKETS[dealer.site]?.includes(locale))
        fail(at, `translations: ${locale} is not a language of ${dealer.site}`)
      for (const key of Object.keys(words))
        if (!['address', 'city', 'region'].includes(key)) fail(at, `translations.${locale}: unknown field ${key}`)
      text(`${at}.translations.${locale}.address`, words.address)
      text(`${at}.translations.${locale}.city`, words.city)
    }
    // What a visitor reads in a language with its own script is written in it (the dealer's name aside: names are names).
    for (const locale of MARKETS[dealer.site] ?? []) {
      if (!SCRIPT[locale]) continue
      const words = translations[locale]
      if (!words) {
        fail(at, `no ${locale} address: its ${dealer.site}-${locale} pages would show it in another script`)
        continue
      }
      for (const key of ['address', 'city', 'region'])
        if (words[key] && !SCRIPT[locale].test(words[key]))
          fail(at, `translations.${locale}.${key} is not written in ${locale} script`)
      if (dealer.region && !words.region) fail(at, `translations.${locale}.region is missing`)
    }
  }
}

// ------------------------------------------------------------------------------------------------ open positions

const jobs = readJson('jobs.json')
const workWithUs = (slug) => markets.find((m) => m.slug === slug)?.settings?.work_with_us !== false
if (jobs) {
  if (!Array.isArray(jobs)) fail('jobs.json', 'must be an array')
  else {
    const ids = new Set()
    jobs.forEach((job, i) => {
      const at = `jobs[${i}]`
      const keys = Object.keys(job ?? {})
        .sort()
        .join()
      if (keys !== 'contents,id,open,site') fail(at, `fields must be contents, id, open, site; found ${keys}`)
      if (!Number.isInteger(job.id) || job.id <= 0 || ids.has(job.id))
        fail(at, `id ${job.id} is missing, not a positive whole number or duplicated`)
      ids.add(job.id)
      if (typeof job.open !== 'boolean') fail(at, 'open must be true or false')
      const locales = MARKETS[job.site]
      if (!locales) {
        fail(at, `unknown site ${JSON.stringify(job.site)}`)
        return
      }
      if (job.open && !workWithUs(job.site))
        fail(at, `market ${job.site} has work_with_us off: nobody would see this position`)
      const contents = job.contents ?? {}
      // Every language of its market, so no visitor reads a position in a language the market does not speak.
      for (const locale of locales) if (!contents[locale]) fail(at, `locale ${locale} of market ${job.site} is missing`)
      for (const locale of Object.keys(contents))
        if (!locales.includes(locale)) fail(at, `market ${job.site} has no locale ${locale}`)
      for (const [locale, content] of Object.entries(contents)) {
        const where = `${at}.contents.${locale}`
        const fields = Object.keys(content ?? {})
          .sort()
          .join()
        if (fields !== 'place,summary,title') fail(where, `fields must be place, summary, title; found ${fields}`)
        text(`${where}.title`, content.title, { max: 90 })
        text(`${where}.place`, content.place, { max: 60 })
        text(`${where}.summary`, content.summary, { max: 240 })
        const sentences = (content.summary ?? '').split(/(?<=[.!?؟])\s+/).filter(Boolean)
        if (sentences.length > 2) fail(`${where}.summary`, `has ${sentences.length} sentences, at most 2`)
        const english = locale === 'en' || !contents.en ? null : [contents.en.title, contents.en.summary]
        checkNative(where, locale, [content.title, content.summary, content.place], english, { eachOf: 3 })
      }
    })
    // The empty state ("no open positions: an open application is always possible") shows somewhere.
    const hiring = new Set(jobs.filter((job) => job.open).map((job) => job.site))
    if (!Object.keys(MARKETS).some((site) => workWithUs(site) && !hiring.has(site)))
      fail('jobs.json', 'every market has open positions: leave one without')
    if (!jobs.some((job) => !job.open)) fail('jobs.json', 'no closed position: keep one, to prove it is never listed')
  }
}

// ------------------------------------------------------------------------------------------------ SVG files

/** A light well-formedness check: balanced tags, one root <svg>, quoted attributes. */
function wellFormed(source) {
  const stack = []
  const body = source.replace(/<\?xml[^>]*\?>/, '').replace(/<!--[\s\S]*?-->/g, '')
  const tag = /<(\/?)([a-zA-Z][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g
  let last = 0
  let roots = 0
  for (const match of body.matchAll(tag)) {
    const between = body.slice(last, match.index)
    if (between.includes('<'))
      return `unparseable markup near ${JSON.stringify(between.slice(between.indexOf('<'), between.indexOf('<') + 40))}`
    last = match.index + match[0].length
    const [, closing, name, , selfClosing] = match
    if (closing) {
      if (stack.pop() !== name) return `unbalanced </${name}>`
    } else if (!selfClosing) {
      if (stack.length === 0) roots++
      stack.push(name)
    } else if (stack.length === 0) roots++
  }
  if (body.slice(last).includes('<')) return 'unparseable markup at the end'
  if (stack.length) return `unclosed <${stack.at(-1)}>`
  if (roots !== 1) return `${roots} root elements`
  return null
}

function checkSvg(rel, { width, height, ratio, maxBytes = 20000 } = {}) {
  const path = join(publicDir, rel)
  if (!existsSync(path)) {
    fail(`public/${rel}`, 'is missing')
    return null
  }
  const source = readFileSync(path, 'utf8')
  const at = `public/${rel}`
  if (!/^<svg[\s>]/.test(source.trimStart())) fail(at, 'must start with <svg')
  if (!/<svg[^>]*\sxmlns="http:\/\/www\.w3\.org\/2000\/svg"/.test(source))
    fail(at, 'the root needs xmlns="http://www.w3.org/2000/svg"')
  const viewBox = /<svg[^>]*\sviewBox="([^"]+)"/.exec(source)
  if (!viewBox) fail(at, 'has no viewBox')
  else if (
    width &&
    viewBox[1]
      .trim()
      .split(/[\s,]+/)
      .join(' ') !== `0 0 ${width} ${height}`
  )
    fail(at, `viewBox must be 0 0 ${width} ${height}, found ${viewBox[1]}`)
  else if (ratio) {
    // The pages declare these pictures' width and height at this ratio (no layout shift): the files must keep it.
    const [, , w, h] = viewBox[1]
      .trim()
      .split(/[\s,]+/)
      .map(Number)
    if (w * ratio[1] !== h * ratio[0]) fail(at, `viewBox must be ${ratio[0]}:${ratio[1]}, found ${viewBox[1]}`)
  }
  if (/<script/i.test(source)) fail(at, 'contains a script')
  if (/\son[a-z]+\s*=/i.test(source)) fail(at, 'contains an event handler attribute')
  if (/<image|<foreignObject|<iframe|<use\b/i.test(source))
    fail(at, 'contains an embedded image, foreign object or <use>')
  if (/data:/i.test(source)) fail(at, 'contains a data: URL (embedded raster?)')
  if (/(?:xlink:)?href\s*=/i.test(source)) fail(at, 'contains a link (href)')
  if (/@import|url\(\s*['"]?(?!#)/i.test(source)) fail(at, 'references an external resource')
  const urls = source.match(/https?:\/\/[^"'\s)]+/g) ?? []
  for (const url of urls) if (url !== 'http://www.w3.org/2000/svg') fail(at, `references ${url}`)
  if (!/<title[^>]*>[^<]+<\/title>/.test(source)) warnings.push(`${at}: has no <title>`)
  const bytes = statSync(path).size
  if (bytes > maxBytes) fail(at, `is ${bytes} bytes, more than ${maxBytes}`)
  const error = wellFormed(source)
  if (error) fail(at, `is not well-formed: ${error}`)
  return source
}

const svgCount = { products: 0, news: 0, og: 0 }
for (const folder of Object.keys(svgCount)) {
  const dir = join(publicDir, 'images', folder)
  if (!existsSync(dir)) {
    fail(`public/images/${folder}`, 'folder is missing')
    continue
  }
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.svg'))) {
    const rel = `images/${folder}/${file}`
    checkSvg(rel, folder === 'og' ? { width: 1200, height: 630 } : { ratio: [3, 2] })
    svgCount[folder]++
    if (!usedImages.has(`/${rel}`)) warnings.push(`public/${rel}: not referenced by any content`)
  }
}
for (const key of PAGE_KEYS)
  if (!existsSync(join(publicDir, 'images', 'og', `${key}.svg`))) fail('public/images/og', `${key}.svg is missing`)
checkSvg('images/hero.svg', { width: 1600, height: 700 })
const logo = checkSvg('logo.svg', { maxBytes: 6000 })
if (logo) {
  if (!/currentColor/.test(logo)) fail('public/logo.svg', 'must be coloured with currentColor')
  const hard = [...logo.replace(/<style[\s\S]*?<\/style>/g, '').matchAll(/\s(fill|stroke)="([^"]+)"/g)].filter(
    ([, , v]) => v !== 'currentColor' && v !== 'none',
  )
  if (hard.length)
    fail('public/logo.svg', `has fixed colours (${hard.map(([, k, v]) => `${k}="${v}"`).join(', ')}); use currentColor`)
}

// ------------------------------------------------------------------------------------------------ page slugs

// Every locale names every content page in its own language (../page-slugs.json, issue 12 item 9): kebab-case ASCII
// (Greek, Hebrew and Arabic transliterated), one page per slug in a locale, and no slug that is another page's key
// (the key is the old English slug that is moved to the page: it must not be another page of the locale).
const pageSlugs = JSON.parse(readFileSync(join(here, '..', 'page-slugs.json'), 'utf8'))
const SLUGGED = PAGE_KEYS.filter((key) => !['home', 'landing'].includes(key))
for (const locale of LOCALES) {
  const slugs = pageSlugs[locale]
  if (!slugs) {
    fail(`page-slugs.${locale}`, 'is missing')
    continue
  }
  for (const key of SLUGGED)
    if (!KEBAB.test(slugs[key] ?? ''))
      fail(`page-slugs.${locale}.${key}`, `${JSON.stringify(slugs[key])} is not a kebab-case ASCII slug`)
  for (const key of Object.keys(slugs))
    if (!SLUGGED.includes(key)) fail(`page-slugs.${locale}.${key}`, 'is not a content page key')
  const values = Object.values(slugs)
  if (new Set(values).size !== values.length) fail(`page-slugs.${locale}`, 'gives two pages the same slug')
  for (const [key, slug] of Object.entries(slugs))
    if (SLUGGED.includes(slug) && slug !== key) fail(`page-slugs.${locale}.${key}`, `${slug} is another page's key`)
}
for (const locale of Object.keys(pageSlugs))
  if (!LOCALES.includes(locale)) fail(`page-slugs.${locale}`, 'is not a locale of the demo')

// ------------------------------------------------------------------------------------------------ report

const summary = [
  `pages: ${pages ? Object.keys(pages).length : 0} keys × ${LOCALES.length} locales`,
  `news: ${Array.isArray(news) ? news.length : 0} articles (${Array.isArray(news) ? news.filter((a) => a.scope !== '*').length : 0} market-specific)`,
  `products: ${catalogue?.products?.length ?? 0} in ${catalogue?.types?.length ?? 0} types, ${catalogue?.products?.filter((p) => p.featured).length ?? 0} featured`,
  `specification phrases: ${Object.keys(specPhrases).length} × ${LOCALES.length} locales; frame families: ${Object.keys(geometry ?? {}).length}`,
  `markets: ${markets.length}, in ${new Set(markets.map((m) => m.currency?.code)).size} currencies`,
  `dealers: ${dealerData?.dealers?.length ?? 0}, places: ${dealerData?.places?.length ?? 0}`,
  `jobs: ${Array.isArray(jobs) ? jobs.filter((job) => job.open).length : 0} open positions in ${Array.isArray(jobs) ? new Set(jobs.filter((job) => job.open).map((job) => job.site)).size : 0} markets`,
  `svg: ${svgCount.products} product, ${svgCount.news} news, ${svgCount.og} og images, hero and logo`,
]
console.log(summary.join('\n'))
for (const warning of warnings) console.log(`warning: ${warning}`)
if (problems.length) {
  console.error(`\n${problems.length} problem(s):`)
  for (const problem of problems) console.error(`  - ${problem}`)
  process.exit(1)
}
console.log('\nOK: demo content is valid.')
