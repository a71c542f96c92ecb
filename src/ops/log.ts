type Level = 'info' | 'warn' | 'error'

/** Writes one structured log line. Callers pass names and counts, never cookies, tokens or form content. */
export function logEvent(level: Level, event: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, event, ...fields })
  if (level === 'error') console.error(line)
  else if (level === 'warn') console.warn(line)
  else console.log(line)
}

/** An error's name and message without its stack. */
export function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
