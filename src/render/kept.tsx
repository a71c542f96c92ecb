import { createContext, type ReactNode, useContext } from 'react'

/**
 * Parts of a page that are the same for every visitor of a market and language (the header's menus, the footer, the
 * consent banner's texts) are rendered once per isolate and the data they show, then reused as bytes: a page rendered
 * whole marks where each part goes and `spliceKept` puts the kept bytes there (docs/decisions/063). What differs per
 * visitor stays outside a kept part, or is a spliced value: rendered as a placeholder, then written in, escaped as
 * React would have written it.
 */
export type KeptRender = {
  /** The isolate's kept parts, by key. */
  store: Map<string, string>
  /**
   * This render's parts: their keys, the bytes of a kept one (null: captured from this render), spliced values, and
   * whether they are of the head's hoisted elements (their markers are `<meta>` elements).
   */
  parts: Array<{ key: string; bytes: string | null; values: Record<string, string>; hoisted: boolean }>
  /** Where `spliceKept` put each part in the page it returned, in the page's order. */
  placed: KeptPlace[]
}

/**
 * A kept part in a page as spliced: its offset and length there, and its bytes as kept (before its values were
 * written in: the same string object on every page that reuses it, src/render/critical-css.ts reads it once).
 */
export type KeptPlace = { at: number; length: number; bytes: string }

/** This render's kept parts; null: every part is rendered as usual (React's stream, or reuse switched off). */
export const KeptContext = createContext<KeptRender | null>(null)

const STORE_LIMIT = 500
/**
 * The kept parts' characters an isolate holds at most (a page's body is kept too, one per product and market: at a
 * hundred times the catalogue they would otherwise fill the isolate's memory); the oldest are forgotten first.
 */
const STORE_CHARS = 4 * 1024 * 1024
const store = new Map<string, string>()
let storeChars = 0
/**
 * Unguessable per isolate, so a marker or placeholder can only be one this code wrote; made at the first render (the
 * runtime gives no random values in the global scope).
 */
let token: string | undefined
const isolateToken = () => {
  token ??= Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('')
  return token
}
const markerValue = (index: number, end = '') => `${isolateToken()}-${index}${end}`
/**
 * A part's marker as React writes it: an empty element between the page's elements, or, among the head's hoisted
 * elements, a `<meta>` (React writes a page's title, meta and links at the top of its head, in their order, wherever
 * they are rendered: a `<meta>` marker stays beside them, a `<template>` would not).
 */
const marker = (index: number, end = '', hoisted = false) =>
  hoisted
    ? `<meta name="kept" content="${markerValue(index, end)}"/>`
    : `<template data-kept="${markerValue(index, end)}"></template>`
const placeholder = (name: string) => `kept${isolateToken()}${name}`
/** Values written in as they are: their escaped form is the same in text, an attribute and JSON in an attribute. */
const SPLICEABLE = /^[\w\-.~!$&'()*+,;=:@%/?#[\]]*$/

/** A new render's kept parts, over the isolate's store. */
export function keptRender(): KeptRender {
  return { store, parts: [], placed: [] }
}

type KeptProps<V extends string> = {
  /** The part's name, unique in the site ("header-product-menu"): two parts never share their bytes. */
  part: string
  /** Everything the part shows that can change: texts, data (objects by their content), flags. */
  deps: readonly unknown[]
  /** Values of this visitor or page, written into the kept bytes (a path: the letters a URL path may hold). */
  values?: Record<V, string>
  /**
   * The part is some of the head's hoisted elements (`<title>`, `<meta>`, `<link>` but stylesheets, preloads included):
   * its markers are `<meta>` elements, hoisted with them. It must hold nothing else (a script would be written after
   * them, outside the part).
   */
  hoisted?: boolean
  children: (values: Record<V, string>) => ReactNode
}

/**
 * A part rendered once per isolate and `deps`, then reused as bytes. Outside a whole render it is its children.
 *
 * @example
 * <Kept part="header-product-menu" deps={[...textsOf(t), base, chrome.productMenu]}>{() => <ProductMenu … />}</Kept>
 */
export function Kept<V extends string = never>({
  part,
  deps,
  values = {} as Record<V, string>,
  hoisted = false,
  children,
}: KeptProps<V>) {
  const render = useContext(KeptContext)
  const names = Object.keys(values) as V[]
  if (!render || names.some((name) => !SPLICEABLE.test(values[name]))) return children(values)
  const key = keyOf(part, deps, names)
  const bytes = render.store.get(key) ?? null
  const index = render.parts.push({ key, bytes, values, hoisted }) - 1
  const Marker = hoisted ? MetaMarker : TemplateMarker
  if (bytes !== null) return <Marker value={markerValue(index)} />
  const placeholders = Object.fromEntries(names.map((name) => [name, placeholder(name)])) as Record<V, string>
  return (
    <>
      <Marker value={markerValue(index)} />
      {children(placeholders)}
      <Marker value={markerValue(index, '-end')} />
    </>
  )
}

const TemplateMarker = ({ value }: { value: string }) => <template data-kept={value} />
const MetaMarker = ({ value }: { value: string }) => <meta name="kept" content={value} />

/**
 * The page with its kept parts in place: the bytes of a part rendered this time are kept for the next renders, a
 * kept part's bytes written where its marker is, and each part's spliced values written in.
 */
export function spliceKept(html: string, render: KeptRender): string {
  // Each part's place in the page as rendered (searched from the last one's: parts render in the page's order), then
  // the page joined once.
  let last = 0
  const places = render.parts.flatMap(({ key, bytes, values, hoisted }, index) => {
    const start = marker(index, '', hoisted)
    let at = html.indexOf(start, last)
    if (at < 0) at = html.indexOf(start)
    if (at < 0) return []
    last = at
    if (bytes !== null) return [{ at, after: at + start.length, bytes, values }]
    const end = marker(index, '-end', hoisted)
    const endAt = html.indexOf(end, at)
    if (endAt < 0) return []
    const captured = html.slice(at + start.length, endAt)
    remember(render.store, key, captured)
    return [{ at, after: endAt + end.length, bytes: captured, values }]
  })
  places.sort((a, b) => a.at - b.at)
  const chunks: string[] = []
  let from = 0
  let length = 0
  for (const { at, after, bytes, values } of places) {
    const before = html.slice(from, at)
    const part = written(bytes, values)
    chunks.push(before, part)
    render.placed.push({ at: length + before.length, length: part.length, bytes })
    length += before.length + part.length
    from = after
  }
  chunks.push(html.slice(from))
  return chunks.join('')
}

/** Whether a text holds a value's placeholder (a kept part's bytes where a visitor's value is written in). */
export const holdsValue = (text: string): boolean => text.includes(`kept${isolateToken()}`)

/** The part with its values written in (the values are SPLICEABLE: escaped, `&` and `'` change). */
function written(part: string, values: Record<string, string>): string {
  let out = part
  if (Object.keys(values).length === 0) return out
  for (const [name, value] of Object.entries(values))
    out = out.replaceAll(placeholder(name), value.replaceAll('&', '&amp;').replaceAll("'", '&#x27;'))
  return out
}

function remember(kept: Map<string, string>, key: string, bytes: string): void {
  if (kept !== store) {
    kept.set(key, bytes)
    return
  }
  storeChars -= store.get(key)?.length ?? 0
  store.delete(key)
  while (store.size > 0 && (store.size >= STORE_LIMIT || storeChars + bytes.length > STORE_CHARS)) {
    const [oldest, old] = store.entries().next().value as [string, string]
    store.delete(oldest)
    storeChars -= old.length
  }
  store.set(key, bytes)
  storeChars += bytes.length
}

/** A function stands for itself: a part that depends on one is kept only for that very function. */
const identities = new WeakMap<object, number>()
let functionCount = 0
function identityOf(dep: object): number {
  let id = identities.get(dep)
  if (id === undefined) {
    id = ++functionCount
    identities.set(dep, id)
  }
  return id
}

/**
 * Objects' content by their identity (a lookup kept in the isolate's memo is serialised once), and a short id of it.
 * An id is never given twice, even after the ids are forgotten: kept bytes under an old id must never answer for
 * other content (another market's header).
 */
const contents = new WeakMap<object, string>()
const contentIds = new Map<string, number>()
let contentCount = 0
let contentChars = 0

/**
 * Each part's last key and what it was made of: a part rendered with the very same deps and value names as last time
 * (the same strings and objects) has the same key, found without writing it again (decision 087). One per part name.
 */
const lastKeys = new Map<string, { deps: readonly unknown[]; names: readonly string[]; key: string }>()

const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i])

function keyOf(part: string, deps: readonly unknown[], names: readonly string[]): string {
  const last = lastKeys.get(part)
  if (last !== undefined && same(last.deps, deps) && same(last.names, names)) return last.key
  const key = keyFrom(part, deps, names)
  if (lastKeys.size >= STORE_LIMIT) lastKeys.clear()
  lastKeys.set(part, { deps, names, key })
  return key
}

function keyFrom(part: string, deps: readonly unknown[], names: readonly string[]): string {
  const parts = deps.map((dep) => {
    if (typeof dep === 'function') return `f${identityOf(dep)}`
    if (dep === null || typeof dep !== 'object') return JSON.stringify(dep) ?? 'undefined'
    let content = contents.get(dep)
    if (content === undefined) {
      content = JSON.stringify(dep)
      contents.set(dep, content)
    }
    let id = contentIds.get(content)
    if (id === undefined) {
      if (contentIds.size >= STORE_LIMIT * 4 || contentChars + content.length > STORE_CHARS) {
        contentIds.clear()
        contentChars = 0
      }
      id = ++contentCount
      contentIds.set(content, id)
      contentChars += content.length
    }
    return `#${id}`
  })
  return `${part}\u0001${names.join(',')}\u0001${parts.join('\u0001')}`
}
