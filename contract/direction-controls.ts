/**
 * The Unicode controls that embed, override or isolate a run of text's direction: LRE, RLE, PDF, LRO, RLO
 * (U+202A–U+202E) and LRI, RLI, FSI, PDI (U+2066–U+2069). Invisible, they make `Mario \u202Eotnemagap` read "Mario
 * pagamento". Right-to-left letters (Hebrew, Arabic) and the marks LRM and RLM are not among them: the bidirectional
 * algorithm places those by itself. Single-line fields refuse the controls (contract/fields.ts); a value stored
 * before that is stripped where a visitor's name, address or field goes into a plain-text mail (the mails of
 * reference-api/: not every placeholder, since the site's own right-to-left amounts carry isolates on purpose). docs/decisions/028.
 */

const DIRECTION_CONTROL = /[\u202A-\u202E\u2066-\u2069]/
const DIRECTION_CONTROLS = new RegExp(DIRECTION_CONTROL.source, 'g')

/** Whether a text holds any direction control. */
export const hasDirectionControls = (text: string): boolean => DIRECTION_CONTROL.test(text)

/** A text without its direction controls, every other character kept. */
export const withoutDirectionControls = (text: string): string => text.replace(DIRECTION_CONTROLS, '')
