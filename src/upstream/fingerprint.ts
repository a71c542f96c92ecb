import { shortHash } from '../crypto/short-hash'

/**
 * The upstream's fingerprint: a short hash of its URL (or of `embedded`), part of every cached lookup's key
 * (src/cache/keys.ts) and of every kept page's (src/page-cache/keys.ts). A switch of `UPSTREAM_URL` starts from empty
 * caches: no answer of the previous upstream is ever served.
 *
 * @example
 * upstreamFingerprint('https://api.brand.example')
 */
export const upstreamFingerprint = (url: string): string => shortHash(url)
