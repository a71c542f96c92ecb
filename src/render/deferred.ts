/**
 * Data a page shows after its shell: a promise React's `use` can read synchronously once settled. Deferred loaders
 * never reject (they answer null on failure), so a slow or failing section never breaks the page.
 */
export type Deferred<T> = Promise<T> & { status: 'pending' | 'fulfilled'; value?: T }

/** Wraps a promise that never rejects. */
export function defer<T>(promise: Promise<T>): Deferred<T> {
  const deferred = promise.then((value) => {
    deferred.status = 'fulfilled'
    deferred.value = value
    return value
  }) as Promise<T> & Deferred<T>
  deferred.status = 'pending'
  return deferred
}

/** Resolves a loader to null instead of rejecting, reporting the failure. */
export function orNull<T>(promise: Promise<T | null>, onError: (error: unknown) => void): Promise<T | null> {
  return promise.catch((error: unknown) => {
    onError(error)
    return null
  })
}
