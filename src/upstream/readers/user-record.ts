import { z } from 'zod'
import { userSchema } from '../../../contract/schemas'

/**
 * A user as the brand's own backend sends it: a Laravel user has `id`, `name`, `email` and its timestamps, no
 * `first_name` or `last_name`. Where no first name is given, the name is split at its first space (`Giulia Rossi` →
 * `Giulia`, `Rossi`) for greetings; where no name is given, it is the first and last names joined. Laravel's
 * `email_verified_at` says whether the address is confirmed where `email_confirmed` is not given. A user in the
 * contract's shape is left as it is.
 */
function asContractUser(user: unknown): unknown {
  if (typeof user !== 'object' || user === null || Array.isArray(user)) return user
  const record = user as Record<string, unknown>
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')
  const name = text(record.name) || [text(record.first_name), text(record.last_name)].filter(Boolean).join(' ')
  const [first = '', ...rest] = name.split(/\s+/)
  const given = text(record.first_name)
  return {
    ...record,
    name,
    first_name: given || first,
    last_name: given ? text(record.last_name) : text(record.last_name) || rest.join(' '),
    created_at: text(record.created_at),
    email_confirmed:
      record.email_confirmed ?? ('email_verified_at' in record ? Boolean(record.email_verified_at) : undefined),
  }
}

/** One user, in the contract's shape or a plain Laravel user's. */
export const userRecord = z.preprocess(asContractUser, userSchema)

/** `GET api/auth/user`, read tolerantly. */
export const userRecordAnswer = z.object({ data: userRecord })
