/**
 * Re-wrapping what the reference API stores sealed under the Worker's whistleblower keys (docs/decisions/048): the
 * shapes `/_rewrap/whistleblower` and the embedded API's `rewrapSealed` share.
 */

/** What is re-wrapped: the cases' wrapped keys (their texts and attachments stay sealed with them) or the queued sealed recipients. */
export type RewrapPart = 'cases' | 'recipients'

/** What one batch did, and the id to go on after (null: the part is done). */
export type RewrapBatch = { moved: number; newest: number; failed: number; next: number | null }
