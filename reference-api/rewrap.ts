import type { RewrapBatch, RewrapPart } from '../contract/rewrap-batch'
import { SEALED_RECIPIENT_PREFIX } from '../contract/staff-schemas'
import { logEvent } from './log'

/**
 * Moving what the reference API stores sealed under the Worker's whistleblower keys to its newest key
 * (docs/decisions/048), in batches: the API cannot open anything, so the Worker hands it `rewrap`, which answers a
 * stored value sealed again under the newest key, null when it already is, or throws when it cannot be opened. Each
 * row is written back only if it is still what was read, so two runs at once, or a handler writing meanwhile, lose
 * nothing.
 */

/** A stored value sealed again under the newest key, null when it already is; throws when it cannot be opened. */
export type Rewrap = (stored: string) => Promise<string | null>

/** Each part's rows: where the sealed value is, and which rows hold one. Fixed statements, never built from input. */
const PARTS = {
  cases: {
    read: 'SELECT id, wrapped_key AS stored FROM whistleblower_reports WHERE id > ? ORDER BY id LIMIT ?',
    write: 'UPDATE whistleblower_reports SET wrapped_key = ? WHERE id = ? AND wrapped_key = ?',
  },
  recipients: {
    read: `SELECT id, recipient AS stored FROM outbox WHERE id > ? AND sent_at IS NULL AND substr(recipient, 1, ${SEALED_RECIPIENT_PREFIX.length}) = '${SEALED_RECIPIENT_PREFIX}' ORDER BY id LIMIT ?`,
    write: 'UPDATE outbox SET recipient = ? WHERE id = ? AND recipient = ?',
  },
} as const satisfies Record<RewrapPart, { read: string; write: string }>

/**
 * Re-wraps at most `limit` rows of a part after the id `after`, one at a time; answers the counts and where to go on.
 * A row that cannot be opened stays as it is, counted and logged with its id and the error's name.
 *
 * @example await rewrapSealed(env.DB, 'cases', (wrapped) => rewrapReportKey(keyring, wrapped), 0, 50)
 */
export async function rewrapSealed(
  db: D1Database,
  part: RewrapPart,
  rewrap: Rewrap,
  after: number,
  limit: number,
): Promise<RewrapBatch> {
  const { read, write } = PARTS[part]
  const { results } = await db.prepare(read).bind(after, limit).all<{ id: number; stored: string }>()
  const batch: RewrapBatch = { moved: 0, newest: 0, failed: 0, next: null }
  for (const row of results) {
    try {
      const rewrapped = await rewrap(row.stored)
      if (rewrapped === null) batch.newest += 1
      else if ((await db.prepare(write).bind(rewrapped, row.id, row.stored).run()).meta.changes === 1) batch.moved += 1
      // Changed since it was read: left for the next run to see as it is now.
      else throw new Error('changed meanwhile')
    } catch (error) {
      batch.failed += 1
      logEvent('error', 'rewrap_failed', { part, id: row.id, error: error instanceof Error ? error.name : 'unknown' })
    }
  }
  batch.next = results.length === limit ? (results.at(-1)?.id ?? null) : null
  return batch
}
