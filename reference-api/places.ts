/** A place of a market a visitor may type into the dealer locator: its names, its postcode and its position. */
export type PlaceEntry = {
  /** Its name in the market's first language. */
  name: string
  /** Its name where another language of the market writes it otherwise, by locale (shown to that language). */
  names: Record<string, string>
  /** Other spellings a visitor may type (exonyms, transliterations, former names): matched, never shown. */
  aliases: string[]
  postal_code: string | null
  lat: number
  lng: number
}

/** Fewest characters a typed postcode must share with a place's, from the start, to be that place's area. */
const MIN_SHARED_PREFIX = 2

/**
 * Lower case without diacritics, punctuation as spaces, spaces collapsed: "  Zürich ", "zurich", "Be'er Sheva" and
 * "beer-sheva" compare as "zurich", "be er sheva" / "beer sheva" do ("'" is dropped, "-" and "," become spaces).
 */
export const foldName = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’ʼ`´.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

/** A postcode as compared: upper case, letters and digits only ("114 71" → "11471", "d02 x285" → "D02X285"). */
export const foldPostcode = (text: string): string =>
  text
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '')

/** Every name a place answers to, folded: its own, its translations, its other spellings and the part before a comma. */
function namesOf(place: PlaceEntry): string[] {
  const all = [place.name, ...Object.values(place.names), ...place.aliases]
  return [...new Set(all.flatMap((name) => [foldName(name), foldName(name.split(',')[0] ?? '')]).filter(Boolean))]
}

const sharedPrefix = (a: string, b: string): number => {
  let n = 0
  while (n < a.length && n < b.length && a[n] === b[n]) n++
  return n
}

/**
 * The place a visitor's words name, among a market's places, or null. In this order: a postcode typed whole; a
 * name typed whole (in any of the market's languages, or another spelling); the start of a name; then a postcode by
 * its prefix: the place whose postcode shares the longest start with the one typed ("90146" → Palermo's "90100",
 * "901" → Palermo), at least two characters and all of a shorter typed one, the nearest number breaking a tie.
 * Case, accents, spaces and punctuation aside.
 */
export function matchPlace<P extends PlaceEntry>(places: P[], words: string): P | null {
  const name = foldName(words)
  const code = foldPostcode(words)
  if (name.length < 2 && code.length < 2) return null
  const withCode = places.flatMap((p) => (p.postal_code ? [{ ...p, postal_code: p.postal_code }] : []))
  const exactCode = code.length >= 2 ? withCode.find((p) => foldPostcode(p.postal_code) === code) : undefined
  if (exactCode) return exactCode
  const named = places.map((place) => ({ place, names: namesOf(place) }))
  const exactName = named.find(({ names }) => names.includes(name))
  if (exactName) return exactName.place
  // The start of a name: the place whose name is the shortest so completed ("Mon" is Monza before Monterrey), the
  // first listed on a tie.
  const starts = named
    .map(({ place, names }) => ({
      place,
      length: Math.min(...names.filter((n) => n.startsWith(name)).map((n) => n.length)),
    }))
    .filter(({ length }) => Number.isFinite(length))
  if (name.length >= 2 && starts.length > 0)
    return starts.reduce((best, next) => (next.length < best.length ? next : best)).place
  if (!/\p{N}/u.test(code)) return null
  let best: { place: P; shared: number; gap: number } | null = null
  for (const place of withCode) {
    const theirs = foldPostcode(place.postal_code)
    const shared = sharedPrefix(code, theirs)
    // A short postcode (three characters or fewer) is an area: all of it must start the place's.
    if (shared < MIN_SHARED_PREFIX || (code.length <= 3 && shared < code.length)) continue
    const gap = Math.abs(numberOf(code.padEnd(theirs.length, '0').slice(0, theirs.length)) - numberOf(theirs))
    if (!best || shared > best.shared || (shared === best.shared && gap < best.gap)) best = { place, shared, gap }
  }
  return best?.place ?? null
}

/** A postcode as a number, to tell the nearer of two in the same area (letters count as base-36 digits). */
const numberOf = (code: string): number => Number.parseInt(code, 36) || 0

/** The name to show a visitor in `locale`: the place's name in that language where it has one. */
export const placeName = (place: Pick<PlaceEntry, 'name' | 'names'>, locale: string): string =>
  place.names[locale] ?? place.name
