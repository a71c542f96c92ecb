/**
 * Whose rows a statement reads: a user already known by id, or the user of a bearer token's hash, looked up by the
 * statement itself (`ownerSql`), so that one batch or statement answers the token's user and their rows (docs/decisions/066).
 */
export type Owner = number | { tokenHash: string }

/**
 * The SQL of an owner's user id where a statement binds `placeholder` (`?` or `?2`): the placeholder itself for a
 * known user, a subquery on `access_tokens` (the token known and not expired) for a token's. Bind `ownerValue`.
 *
 * @example
 * db.prepare(`SELECT … FROM addresses WHERE user_id = ${ownerSql(owner)}`).bind(ownerValue(owner))
 */
export const ownerSql = (owner: Owner, placeholder = '?'): string =>
  typeof owner === 'number'
    ? placeholder
    : `(SELECT tok.user_id FROM access_tokens tok WHERE tok.token_hash = ${placeholder} AND tok.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`

/** The value a statement binds at `ownerSql`'s placeholder. */
export const ownerValue = (owner: Owner): number | string => (typeof owner === 'number' ? owner : owner.tokenHash)
