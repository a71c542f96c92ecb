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
  const translate: Translate = (key, params) => {
    const text: unknown = dictionary.t(key, params, 'market')
    if (typeof text === 'string' && text) return text
    reportMissing(locale, key, messages !== null)
    const fallback: unknown = dictionary.t(key, params, 'fallback')
    return typeof fallback === 'string' && fallback ? fallback : key
  }
  return Object.assign(translate, { locale, dir: direction(locale), messages })
}

function reportMissing(locale: string, key: string, hadMessages: boolean): void {
  const id = `${locale}:${key}`
  if (!hadMessages || missingReported.has(id) || missingReported.size >= MISSING_LIMIT) return
  missingReported.add(id)
  logEvent('warn', 'missing_translation', { locale, key })
}
