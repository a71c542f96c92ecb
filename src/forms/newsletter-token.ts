import type { Context } from 'hono'
import type { MarketEnv } from '../env'
import { issueFormToken } from './form-token'

/** What the newsletter form's token is signed for: the newsletter of one market (`it-it:newsletter`). */
export const newsletterTokenScope = (segment: string) => `${segment}:newsletter`

/** A newsletter form's token, given out now: null without `SESSION_SECRET` (the form is then not shown). */
export async function newsletterToken(c: Context<MarketEnv>): Promise<string | null> {
  const secret = c.env.SESSION_SECRET
  return secret ? issueFormToken(secret, newsletterTokenScope(c.get('market').segment)) : null
}
