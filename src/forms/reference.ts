import { grouped, randomCrockford } from '../crypto/crockford'

/**
 * The references of submissions as the embedded API makes them; the Worker makes one the same way for a bot it caught,
 * so that its confirmation looks like any other.
 */

/** A new reference, `TR-4K7M-Q2XD`: 40 random bits after the form's letters. */
export function newReference(prefix: string): string {
  return `${prefix}-${grouped(randomCrockford(8))}`
}
