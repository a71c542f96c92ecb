/**
 * The original site's read policy: up to 5 attempts from 350 ms, doubling, at most 10 in parallel. Used as is by
 * background refreshes; a visitor's call retries only while its own timeout budget lasts.
 */
export const ReadRetry = { attempts: 5, firstDelayMs: 350, parallel: 10 } as const

let running = 0
const waiting: Array<() => void> = []

/** Runs `task` when fewer than `ReadRetry.parallel` retried reads of this isolate are running. */
export async function withRetrySlot<T>(task: () => Promise<T>): Promise<T> {
  if (running >= ReadRetry.parallel) await new Promise<void>((resolve) => waiting.push(resolve))
  running++
  try {
    return await task()
  } finally {
    running--
    waiting.shift()?.()
  }
}

/** The delay before attempt `n` (1-based, n >= 2). */
export const retryDelay = (attempt: number): number => ReadRetry.firstDelayMs * 2 ** (attempt - 2)

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
