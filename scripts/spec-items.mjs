// The demo catalogue's specification values (demo/content/catalogue.json) made into the API's parts for one locale,
// from the shared phrases of demo/content/spec-phrases.json. Used by the seed (scripts/demo-seed.mjs) and the checker
// (demo/content/check.mjs).
//
// An item is a phrase key ("carbon"), a phrase with arguments ({ "phrase": "fibre", "args": [{ "code": "T800" }] }:
// its `{0}`, `{1}` take the arguments), a code ({ "code": "700 × 28c" }: a designation written alike everywhere) or a
// quantity ({ "quantity": 7.4, "unit": "kg" }, a range with "to"). A spec's items are joined by the locale's list comma.

/** Arabic joins a list with its own comma. */
const SEPARATOR = { ar: '، ' }

/** The parts of one spec's items in `locale`; throws on an unknown phrase or a phrase missing the locale. */
export function specParts(items, phrases, locale) {
  const parts = []
  const text = (value) => {
    if (!value) return
    const last = parts.at(-1)
    if (last?.kind === 'text') last.text += value
    else parts.push({ kind: 'text', text: value })
  }
  const value = (arg) => {
    if (typeof arg?.code === 'string') parts.push({ kind: 'code', text: arg.code })
    else if (typeof arg?.quantity === 'number') {
      parts.push({
        kind: 'quantity',
        value: arg.quantity,
        ...(arg.to !== undefined && { to: arg.to }),
        ...(arg.unit && { unit: arg.unit }),
      })
    } else throw new Error(`not a code or a quantity: ${JSON.stringify(arg)}`)
  }
  const template = (key) => {
    const translated = phrases[key]?.[locale]
    if (typeof translated !== 'string' || !translated.trim()) throw new Error(`phrase ${key} has no ${locale} text`)
    return translated
  }
  for (const [index, item] of items.entries()) {
    if (index > 0) text(SEPARATOR[locale] ?? ', ')
    if (typeof item === 'string') text(template(item))
    else if (typeof item?.phrase !== 'string') value(item)
    else {
      const args = item.args ?? []
      for (const [i, piece] of template(item.phrase)
        .split(/\{(\d)\}/)
        .entries()) {
        if (i % 2 === 0) text(piece)
        else if (args[Number(piece)] === undefined) throw new Error(`phrase ${item.phrase} needs argument ${piece}`)
        else value(args[Number(piece)])
      }
    }
  }
  const first = parts[0]
  if (first?.kind === 'text') first.text = first.text.charAt(0).toLocaleUpperCase(locale) + first.text.slice(1)
  return parts
}

/** A spec's parts as plain English-style text (numbers unformatted), for readers of the older `products.specs`. */
export function plainText(parts) {
  return parts
    .map((part) =>
      part.kind === 'quantity'
        ? `${part.value}${part.to !== undefined ? `–${part.to}` : ''}${part.unit ? ` ${part.unit}` : ''}`
        : part.text,
    )
    .join('')
}
