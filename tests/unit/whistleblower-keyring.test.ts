import { afterEach, describe, expect, it, vi } from 'vitest'
import { keyIdOf, keyOf, keyringOf, LEGACY_KEY_ID, UnknownKeyId, withKeyId } from '../../src/whistleblower/keyring'

afterEach(() => vi.restoreAllMocks())

describe('reading the whistleblower keyring', () => {
  it('lists WHISTLEBLOWER_KEYS newest first, the secret being all after the first colon', () => {
    const ring = keyringOf({ WHISTLEBLOWER_KEYS: ' 2026-11:bmV3:c2VjcmV0 , 2025_06:b2xk== ' })
    expect(ring?.newest).toEqual({ id: '2026-11', secret: 'bmV3:c2VjcmV0' })
    expect(ring?.keys.map((key) => key.id)).toEqual(['2026-11', '2025_06'])
  })

  it('reads WHISTLEBLOWER_KEY as the key legacy: alone it seals, beside a list it comes last', () => {
    expect(keyringOf({ WHISTLEBLOWER_KEY: 'single' })?.newest).toEqual({ id: LEGACY_KEY_ID, secret: 'single' })
    const both = keyringOf({ WHISTLEBLOWER_KEYS: 'new:fresh', WHISTLEBLOWER_KEY: 'single' })
    expect(both?.keys).toEqual([
      { id: 'new', secret: 'fresh' },
      { id: 'legacy', secret: 'single' },
    ])
    // A list that names a key legacy itself keeps its own.
    expect(keyringOf({ WHISTLEBLOWER_KEYS: 'legacy:listed', WHISTLEBLOWER_KEY: 'single' })?.keys).toEqual([
      { id: 'legacy', secret: 'listed' },
    ])
  })

  it('is no keyring without keys, or with a malformed list (logged without a secret)', () => {
    const lines: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line))
    expect(keyringOf({})).toBeNull()
    for (const listed of [
      'no-colon',
      ':empty-id',
      'empty-secret:',
      'a:one,a:twice',
      'bad id:x',
      `${'x'.repeat(33)}:long`,
    ])
      expect(keyringOf({ WHISTLEBLOWER_KEYS: listed, WHISTLEBLOWER_KEY: 'single' }), listed).toBeNull()
    expect(lines.every((line) => line.includes('whistleblower_keys_malformed'))).toBe(true)
    expect(lines.join('\n')).not.toContain('single')
  })
})

describe('a stored value and its key id', () => {
  it('names its key as v2:{id}:, and a value from before key ids carries legacy', () => {
    expect(keyIdOf(withKeyId('2026-11', 'QUJD=='))).toEqual({ id: '2026-11', value: 'QUJD==' })
    expect(keyIdOf('QUJD==')).toEqual({ id: LEGACY_KEY_ID, value: 'QUJD==' })
  })

  it('refuses a key id the ring lacks with UnknownKeyId, logged with the id only', () => {
    const lines: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line))
    const ring = keyringOf({ WHISTLEBLOWER_KEYS: 'new:fresh-secret' })
    expect(ring).not.toBeNull()
    if (!ring) return
    expect(keyOf(ring, 'new').secret).toBe('fresh-secret')
    expect(() => keyOf(ring, 'old')).toThrow(UnknownKeyId)
    expect(JSON.parse(lines[0] ?? '{}')).toEqual({ level: 'error', event: 'whistleblower_key_unknown', key_id: 'old' })
  })
})
