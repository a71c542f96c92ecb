/**
 * The original site's read policy: up to 5 attempts from 350 ms, doubling, at most 10 in parallel. Used as is by
 * background refreshes; a visitor's call retries only while its own timeout budget lasts.
 */
export const ReadRetry = { attempts: 5, firstDelayMs: 350, parallel: 10 } as const

/** A slot older than this is taken for lost (workerd cancels `waitUntil` work after 30 s, skipping `finally`). */
const SLOT_LIMIT_MS = 30_000
const slots = new Map<symbol, number>()

/**
 * Takes one of the isolate's `ReadRetry.parallel` slots for a retried background read, or answers null when all are
 * busy: the refresh then makes a single attempt. Nothing waits for a slot, so no request awaits another's work.
 */
export function takeRetrySlot(): { release(): void } | null {
  const now = Date.now()
  for (const [slot, taken] of slots) if (now - taken > SLOT_LIMIT_MS) slots.delete(slot)
  if (slots.size >= ReadRetry.parallel) return null
  const slot = Symbol('retry slot')
  slots.set(slot, now)
  return { release: () => slots.delete(slot) }
}

/** The delay before attempt `n` (1-based, n >= 2). */
export const retryDelay = (attempt: number): number => ReadRetry.firstDelayMs * 2 ** (attempt - 2)

/** Waits `ms` milliseconds: the retry's delay between two attempts. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
