/**
 * A few characters that tell texts apart (FNV-1a, 32 bits, base 36): for keys, never for secrets or integrity.
 *
 * @example
 * shortHash('https://api.brand.example') // '1x3k9qa'
 */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193)
  return (hash >>> 0).toString(36)
}
