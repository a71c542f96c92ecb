import type { Context } from 'hono'
import type { AppEnv } from '../../env'
import { PageError } from '../../errors/page-error'
import { logEvent } from '../../ops/log'
import { type CaseCalls, type CaseReadPurpose, caseCalls } from '../../upstream/contract/cases'
import type { CaseFile } from '../../../contract/staff-schemas'
import { UnreadableCase } from '../../whistleblower/case-file'
import { keyringOf, type WhistleblowerKeyring } from '../../whistleblower/keyring'
import { sectionPath } from '../sections'

/**
 * What every page and change of the console's cases reads first: the case's id in the path, its file from the API
 * (over the staff member's token), and the keyring that opens it; a case that cannot be opened is a 503, never a 500.
 */

export const CASES_PATH = sectionPath('cases')
export const casePath = (id: number) => `${CASES_PATH}/${id}`

/** The case calls of the request, with the staff member's token. */
export const callsOf = (c: Context<AppEnv>): CaseCalls => caseCalls(c.var.staffApi)

/** A case id of the path, or a 404. */
export function caseId(c: Context<AppEnv>, name = 'id'): number {
  const value = c.req.param(name) ?? ''
  if (!/^[1-9][0-9]{0,8}$/.test(value)) throw PageError.notFound('')
  return Number(value)
}

/** The keyring that opens cases; without one the console cannot open a case (503, logged). */
export function caseKeyring(c: Context<AppEnv>): WhistleblowerKeyring {
  const keyring = keyringOf(c.env)
  if (!keyring) {
    logEvent('error', 'whistleblower_key_missing')
    throw PageError.maintenance()
  }
  return keyring
}

/** A case file read for a purpose (404 when there is none). */
export async function fileOf(c: Context<AppEnv>, id: number, purpose?: CaseReadPurpose): Promise<CaseFile> {
  const file = await callsOf(c).file(id, purpose)
  if (!file) throw PageError.notFound('')
  return file
}

/** A case that cannot be opened (a key the ring lacks, altered data) answers 503 and is logged, never a 500. */
export async function opened<T>(work: Promise<T>, id: number): Promise<T> {
  try {
    return await work
  } catch (error) {
    if (!(error instanceof UnreadableCase)) throw error
    logEvent('error', 'case_unreadable', { case: id })
    throw PageError.maintenance()
  }
}
