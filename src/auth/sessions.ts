import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { type SessionStore, type SessionUser, sessionStore } from './session-store'

/** The session store of the request's environment, or null when `SESSION_SECRET` is not set (login is then unavailable). */
export function sessionsOf<E extends AppEnv>(c: Context<E>): SessionStore | null {
  return c.env.SESSION_SECRET ? sessionStore(c.env.SESSIONS, c.env.SESSION_SECRET) : null
}

/** The fields of an upstream user that a session keeps. */
export const sessionUser = ({ id, name, first_name, email }: SessionUser): SessionUser => ({ id, name, first_name, email })
