// The deployed bundle keeps no function names (docs/decisions/073): esbuild's `keepNames`, wrangler's default, wraps
// every function made at run time in a `__name` call, a few per cent of an uncached page's CPU.
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { experimental_readRawConfig } from 'wrangler'
import { root } from '../../scripts/local.mjs'

describe('the Worker as bundled', () => {
  it('keeps no function names, in development and in every deployment (keep_names is inherited)', () => {
    const { rawConfig } = experimental_readRawConfig({ config: join(root, 'wrangler.toml') })
    assert.equal(rawConfig.keep_names, false)
    for (const [name, environment] of Object.entries(rawConfig.env ?? {}))
      assert.notEqual(environment.keep_names, true, `[env.${name}] keeps function names`)
  })
})
