/** What the re-wrap moved, per part, and the newest key's id. */
export type RewrapReport = {
  keyId: string | null
  parts: Record<'cases' | 'recipients', { moved: number; newest: number; failed: number }>
}
/** Runs the re-wrap to its end over `fetch` (batch after batch of `POST /_rewrap/whistleblower`). */
export function rewrapWhistleblower(options: {
  origin: string
  secret: string
  fetch?: (request: Request) => Promise<Response>
  limit?: number
}): Promise<RewrapReport>
