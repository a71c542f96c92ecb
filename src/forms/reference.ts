import { grouped, randomCrockford } from '../crypto/crockford'

/**
 * The reference the Worker gives a bot it caught, made the way the reference API makes a submission's (the contract's
 * `REFERENCE_FORMAT`), so that its confirmation looks like any other.
 */

/** A new reference, `TR-4K7M-Q2XD`: 40 random bits after the form's letters. */
export function newReference(prefix: string): string {
  return `${prefix}-${grouped(randomCrockford(8))}`
}
