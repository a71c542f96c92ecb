import { describe, expect, it } from 'vitest'
import { isolateMemo } from '../../src/cache/memo'

describe('isolateMemo', () => {
  it('keeps at most its limit, letting go of the entry written longest ago', () => {
    const memo = isolateMemo<number>({ limit: 2 })
    memo.set('a', 1)
    memo.set('b', 2)
    memo.set('a', 3)
    memo.set('c', 4)
    expect([memo.get('a'), memo.get('b'), memo.get('c')]).toEqual([3, undefined, 4])
  })

  it('answers an entry only while younger than its age, and tells an older one with when it was written', () => {
    const memo = isolateMemo<string>({ limit: 10, maxAgeMs: 1000 })
    memo.set('site', 'it', 5000)
    expect(memo.get('site', 5999)).toBe('it')
    expect(memo.get('site', 6000)).toBeUndefined()
    expect(memo.entry('site')).toEqual({ value: 'it', at: 5000 })
  })

  it('keeps entries without an age until they are pushed out or forgotten', () => {
    const memo = isolateMemo<string>({ limit: 10 })
    memo.set('key', 'value', 0)
    expect(memo.get('key', Date.now())).toBe('value')
    memo.delete('key')
    expect(memo.get('key')).toBeUndefined()
  })

  it('makes a remembered value once while it is current, and again once it is not', () => {
    const memo = isolateMemo<number>({ limit: 10, maxAgeMs: 1000 })
    let made = 0
    const make = () => ++made
    expect([memo.remember('k', make, 0), memo.remember('k', make, 999), memo.remember('k', make, 1000)]).toEqual([
      1, 1, 2,
    ])
  })

  it('forgets a promise that rejects, so the next call makes it again', async () => {
    const memo = isolateMemo<Promise<string>>({ limit: 10 })
    const failed = memo.remember('keys', () => Promise.reject(new Error('certs answered 503')))
    await expect(failed).rejects.toThrow('503')
    await expect(memo.remember('keys', () => Promise.resolve('imported'))).resolves.toBe('imported')
    await expect(memo.remember('keys', () => Promise.resolve('again'))).resolves.toBe('imported')
  })

  it('forgets every entry, or those it is told to', () => {
    const memo = isolateMemo<number>({ limit: 10 })
    memo.set('site:it', 1)
    memo.set('site:ch', 2)
    memo.set('menu:it', 3)
    memo.clear((key) => key.startsWith('site:'))
    expect([memo.get('site:it'), memo.get('site:ch'), memo.get('menu:it')]).toEqual([undefined, undefined, 3])
    memo.clear()
    expect(memo.get('menu:it')).toBeUndefined()
  })
})
