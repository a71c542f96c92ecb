import rosetta from 'rosetta'
import type { Messages } from '../../contract/schemas'
import { logEvent } from '../ops/log'
import english from './en.json'
import { direction, type Direction } from './direction'

export type TranslateParams = Record<string, string | number>

/** The text of a key in one visitor's language, its `{{params}}` filled in. */
export type Translate = (key: string, params?: TranslateParams) => string

/**
 * One visitor's texts: called as `t(key, params)`, and knowing its locale and direction (`t.locale`, `t.dir`). Built
 * per request, never shared.
 */
export type Translator = Translate & {
  readonly locale: string
  readonly dir: Direction
  /** The market's texts it reads (null: the Worker's English): what a kept part's texts depend on (render/kept.tsx). */
  readonly messages: Messages | null
}

/**
 * What a translator's texts depend on, for a part rendered once and kept (render/kept.tsx): its locale and the market's
 * texts; a bare translate function (tests) stands for itself.
 */
export const textsOf = (t: Translate): readonly unknown[] =>
  'messages' in t && 'locale' in t ? [t.locale, t.messages] : [t]

const MISSING_LIMIT = 1000
const missingReported = new Set<string>()

/**
 * Creates the translator of one request. A key the market's texts lack falls back to the Worker's English and is
 * logged once per isolate; a key nobody has answers itself, so a gap is visible and never blank.
 *
 * @example
 * const t = createTranslator('it', messages)
 * t('picker.suggested', { market: 'Italia' })
 */
export function createTranslator(locale: string, messages: Messages | null): Translator {
  const dictionary = rosetta<Messages>({ market: messages ?? {}, fallback: english })
  const known = plainTextsOf(locale, messages)
  const lookUp = (key: string, params: TranslateParams | undefined) => {
    const text: unknown = dictionary.t(key, params, 'market')
    if (typeof text === 'string' && text) return text
    reportMissing(locale, key, messages !== null)
    const fallback: unknown = dictionary.t(key, params, 'fallback')
    return typeof fallback === 'string' && fallback ? fallback : key
  }
  const translate: Translate = (key, params) => {
    if (params) return lookUp(key, params)
    let text = known.get(key)
    if (text === undefined) {
      text = lookUp(key, undefined)
      if (known.size < PLAIN_TEXTS_LIMIT) known.set(key, text)
    }
    return text
  }
  return Object.assign(translate, { locale, dir: direction(locale), messages })
}

const PLAIN_TEXTS_LIMIT = 5000
/**
 * The texts without parameters, looked up once per isolate for the same market texts (the lookup's own object, kept
 * in the memo) and locale: a page asks for a few hundred, the same on every page.
 */
const plainTexts = new WeakMap<Messages, Map<string, Map<string, string>>>()
const englishTexts = new Map<string, Map<string, string>>()

function plainTextsOf(locale: string, messages: Messages | null): Map<string, string> {
  let byLocale = messages ? plainTexts.get(messages) : englishTexts
  if (!byLocale) {
    byLocale = new Map()
    if (messages) plainTexts.set(messages, byLocale)
  }
  let texts = byLocale.get(locale)
  if (!texts) {
    texts = new Map()
    byLocale.set(locale, texts)
  }
  return texts
}

function reportMissing(locale: string, key: string, hadMessages: boolean): void {
  const id = `${locale}:${key}`
  if (!hadMessages || missingReported.has(id) || missingReported.size >= MISSING_LIMIT) return
  missingReported.add(id)
  logEvent('warn', 'missing_translation', { locale, key })
}
