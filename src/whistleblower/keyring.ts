import type { Bindings } from '../env'
import { logEvent } from '../ops/log'
import { WHISTLEBLOWER_KEY_ID } from '../../contract/whistleblower-schemas'

/**
 * The whistleblower channel's keys (docs/decisions/048): `WHISTLEBLOWER_KEYS` lists `id:secret` pairs, newest first;
 * the newest seals, every listed key opens. What is stored names the key it was sealed under (`v2:{id}:…`); a value
 * from before key ids names none and was sealed under `WHISTLEBLOWER_KEY`, which the ring keeps as the key
 * `legacy` (last, unless `WHISTLEBLOWER_KEYS` lists a key of that id itself).
 */

/** One key of the ring: its id, as stored beside what it sealed, and its secret. */
export type WhistleblowerKey = { id: string; secret: string }

/** The ring: the newest key (which seals) and every key that opens, the newest first. */
export type WhistleblowerKeyring = { newest: WhistleblowerKey; keys: readonly WhistleblowerKey[] }

/** The id of `WHISTLEBLOWER_KEY`, and of every value stored before key ids. */
export const LEGACY_KEY_ID = 'legacy'

/** How a value sealed under a key of the ring starts: its version, then the key's id. */
const KEYED = /^v2:([A-Za-z0-9_-]{1,32}):(.*)$/s

/** Thrown when a stored value names a key the ring does not hold (removed too early, or another deployment's). */
export class UnknownKeyId extends Error {
  override name = 'UnknownKeyId'
  constructor(readonly keyId: string) {
    super(`no whistleblower key "${keyId}" in WHISTLEBLOWER_KEYS`)
  }
}

/**
 * The deployment's keyring, or null when it has none (the channel and the console's cases then answer 503) or when
 * `WHISTLEBLOWER_KEYS` is malformed (logged, never its secrets).
 *
 * @example keyringOf({ WHISTLEBLOWER_KEYS: '2026-11:Zm9v…,2025-06:YmFy…' })?.newest.id // '2026-11'
 */
export function keyringOf(
  env: Pick<Bindings, 'WHISTLEBLOWER_KEYS' | 'WHISTLEBLOWER_KEY'>,
): WhistleblowerKeyring | null {
  const listed = env.WHISTLEBLOWER_KEYS?.trim() ? listedKeys(env.WHISTLEBLOWER_KEYS) : []
  if (!listed) {
    logEvent('error', 'whistleblower_keys_malformed')
    return null
  }
  const keys =
    env.WHISTLEBLOWER_KEY && !listed.some((key) => key.id === LEGACY_KEY_ID)
      ? [...listed, { id: LEGACY_KEY_ID, secret: env.WHISTLEBLOWER_KEY }]
      : listed
  const [newest] = keys
  return newest ? { newest, keys } : null
}

/** The `id:secret` pairs of `WHISTLEBLOWER_KEYS`, or null when one is malformed or an id comes twice. */
function listedKeys(text: string): WhistleblowerKey[] | null {
  const keys = text.split(',').map((entry) => {
    const at = entry.indexOf(':')
    return at < 0 ? { id: '', secret: '' } : { id: entry.slice(0, at).trim(), secret: entry.slice(at + 1).trim() }
  })
  const ids = new Set(keys.map((key) => key.id))
  const wellFormed = keys.every((key) => WHISTLEBLOWER_KEY_ID.test(key.id) && key.secret.length > 0)
  return wellFormed && ids.size === keys.length ? keys : null
}

/** The ring's key of an id; throws UnknownKeyId (logged with the id) when it holds none. */
export function keyOf(keyring: WhistleblowerKeyring, id: string): WhistleblowerKey {
  const key = keyring.keys.find((candidate) => candidate.id === id)
  if (key) return key
  logEvent('error', 'whistleblower_key_unknown', { key_id: id })
  throw new UnknownKeyId(id)
}

/** A value sealed under a key, written with the key's id: `v2:{id}:{value}`. */
export const withKeyId = (id: string, value: string): string => `v2:${id}:${value}`

/** A stored value's key id and what follows it; a value from before key ids carries LEGACY_KEY_ID. */
export function keyIdOf(stored: string): { id: string; value: string } {
  const keyed = KEYED.exec(stored)
  return keyed ? { id: keyed[1] as string, value: keyed[2] as string } : { id: LEGACY_KEY_ID, value: stored }
}
