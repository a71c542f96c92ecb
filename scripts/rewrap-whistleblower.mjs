// `PURGE_SECRET=… npm run rewrap:whistleblower -- https://www.brand.example` (without an origin: the local site,
// http://127.0.0.1:8787): moves every case's key and every queued sealed recipient to the newest whistleblower key,
// batch after batch through the Worker's `POST /_rewrap/whistleblower`, and prints what it moved, what already was
// under the newest key and what failed (docs/operations.md "Rotating keys", docs/decisions/048). Exits 1 on a failure.

/** The parts re-wrapped, in order. */
const PARTS = ['cases', 'recipients']

/**
 * Runs the re-wrap to its end over `fetch`; answers the counts per part and the newest key's id. Throws on an answer
 * other than 200 (a wrong secret, no keyring, a backend that keeps the channel itself).
 *
 * @param {{ origin: string, secret: string, fetch?: typeof fetch, limit?: number }} options
 */
export async function rewrapWhistleblower({ origin, secret, fetch: send = fetch, limit }) {
  const report = { keyId: null, parts: {} }
  for (const part of PARTS) {
    const counts = { moved: 0, newest: 0, failed: 0 }
    let after = 0
    for (;;) {
      const query = new URLSearchParams({ part, after: String(after), ...(limit ? { limit: String(limit) } : {}) })
      const response = await send(
        new Request(`${origin}/_rewrap/whistleblower?${query}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${secret}` },
        }),
      )
      const body = await response.json().catch(() => ({}))
      if (response.status !== 200) throw new Error(`${response.status}: ${body.error ?? 'no answer'}`)
      report.keyId = body.key_id
      counts.moved += body.moved
      counts.newest += body.newest
      counts.failed += body.failed
      if (body.next === null) break
      after = body.next
    }
    report.parts[part] = counts
  }
  return report
}

if (globalThis.process?.argv?.[1]?.endsWith('rewrap-whistleblower.mjs')) {
  const origin = (process.argv[2] ?? 'http://127.0.0.1:8787').replace(/\/$/, '')
  const secret = process.env.PURGE_SECRET ?? (origin.startsWith('http://127.0.0.1') ? 'local-purge-secret' : '')
  if (!secret) {
    console.error('PURGE_SECRET is not set')
    process.exit(2)
  }
  try {
    const { keyId, parts } = await rewrapWhistleblower({ origin, secret })
    console.log(`newest key: ${keyId}`)
    for (const [part, counts] of Object.entries(parts))
      console.log(`${part}: ${counts.moved} moved, ${counts.newest} already newest, ${counts.failed} failed`)
    process.exitCode = Object.values(parts).some((counts) => counts.failed > 0) ? 1 : 0
  } catch (error) {
    console.error(`re-wrap refused: ${error instanceof Error ? error.message : error}`)
    process.exitCode = 1
  }
}
