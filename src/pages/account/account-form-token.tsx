import type { Context } from 'hono'
import type { MarketEnv } from '../../env'
import { PageError } from '../../errors/page-error'
import { FORM_TOKEN_FIELD, type FormToken, issueFormToken, readFormToken } from '../../forms/form-token'

/** The account's own forms that change it (docs/decisions/062): each token is signed for one form of one customer. */
export type AccountForm = 'profile' | 'password' | 'newsletter' | 'erase'

const scopeOf = (c: Context<MarketEnv>, form: AccountForm) => `account-${form}:${c.var.viewer?.user.id ?? 0}`

function sessionSecret(c: Context<MarketEnv>): string {
  const secret = c.env.SESSION_SECRET
  if (!secret) throw PageError.maintenance()
  return secret
}

/**
 * A new token for one of the account's forms, signed for this customer and this form (src/forms/form-token.ts), so a
 * form posted from anywhere else, or another form's token, changes nothing.
 *
 * @example
 * const token = await accountFormToken(c, 'password')
 */
export const accountFormToken = (c: Context<MarketEnv>, form: AccountForm): Promise<string> =>
  issueFormToken(sessionSecret(c), scopeOf(c, form))

/**
 * The token a posted account form carries, when this site signed it for this form of this customer and it is not
 * older than a day; else null. A quick click counts: the token shows intent, not a person.
 */
export async function accountFormTokenOf(
  c: Context<MarketEnv>,
  form: AccountForm,
  values: Record<string, string>,
): Promise<FormToken | null> {
  const token = await readFormToken(sessionSecret(c), scopeOf(c, form), values[FORM_TOKEN_FIELD], {
    minFillSeconds: 0,
    previous: c.env.SESSION_SECRET_PREVIOUS,
  })
  return token && token.state !== 'expired' ? token : null
}

/** The hidden field that carries an account form's token. */
export function AccountFormToken({ token }: { token: string }) {
  return <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
}
