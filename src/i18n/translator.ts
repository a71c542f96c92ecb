import rosetta from 'rosetta'
import type { Messages } from '../../contract/schemas'
import { logEvent } from '../ops/log'
import english from './en.json'
import { direction, type Direction } from './direction'

export type TranslateParams = Record<string, string | number>

/** One visitor's texts: a locale, its direction and `t(key, params)`. Built per request, never shared. */
export type Translator = {
  readonly locale: string
  readonly dir: Direction
  t(key: string, params?: TranslateParams): string
}

const MISSING_LIMIT = 1000
const missingReported = new Set<string>()

/**
 * Creates the translator of one request. A key the market's texts lack falls back to the Worker's English and is
 * logged once per isolate; a key nobody has answers itself, so a gap is visible and never blank.
 *
 * @example
 * const { t } = createTranslator('it', messages)
 * t('picker.suggested', { market: 'Italia' })
 */
export function createTranslator(locale: string, messages: Messages | null): Translator {
  const dictionary = rosetta<Messages>({ market: messages ?? {}, fallback: english })
  return {
    locale,
    dir: direction(locale),
    t(key, params) {
      const text: unknown = dictionary.t(key, params, 'market')
      if (typeof text === 'string' && text) return text
      reportMissing(locale, key, messages !== null)
      const fallback: unknown = dictionary.t(key, params, 'fallback')
      return typeof fallback === 'string' && fallback ? fallback : key
    },
  }
}

function reportMissing(locale: string, key: string, hadMessages: boolean): void {
  const id = `${locale}:${key}`
  if (!hadMessages || missingReported.has(id) || missingReported.size >= MISSING_LIMIT) return
  missingReported.add(id)
  logEvent('warn', 'missing_translation', { locale, key })
}
