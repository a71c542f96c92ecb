import { Agent, request as httpRequest, type IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { expect, test } from '@playwright/test'

// The dev server itself (`npm start`'s `wrangler dev`), driven over one kept-alive connection as a browser drives it.
// Wrangler 4.86's dev proxy left a GET unanswered for ever when it crossed a connection the server had just dropped
// after its idle time (docs/decisions/023). A guard, not a reproduction: that race needed a request within
// milliseconds of the close, under load, and never came on demand (docs/decisions/029); this proves the page is
// answered on the agent after the server dropped the connection it kept.

/** A GET on `agent`, answered with its status and the socket it went over; rejected after `waitMs` without an answer. */
function get(agent: Agent, url: string, waitMs: number): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { agent }, (response: IncomingMessage) => {
      response.resume()
      response.on('end', () => resolve({ status: response.statusCode ?? 0, socket: request.socket as Socket }))
    })
    request.setTimeout(waitMs, () => request.destroy(new Error(`GET ${url}: no answer within ${waitMs / 1000} s`)))
    request.on('error', reject)
    request.end()
  })
}

/** Resolves when `socket` is closed (by either end); rejected if it is still open after `waitMs`. */
function closed(socket: Socket, waitMs: number): Promise<void> {
  if (socket.destroyed) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the idle connection was still open after ${waitMs / 1000} s`)),
      waitMs,
    )
    socket.once('close', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

test('answers a page after the server dropped the idle kept-alive connection it came over before', async ({
  baseURL,
}) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const first = await get(agent, `${baseURL}/it-it`, 30_000)
    expect(first.status).toBe(200)
    // The connection goes back to the agent's pool; the server ends it after its keep-alive time.
    await closed(first.socket, 60_000)

    const again = await get(agent, `${baseURL}/it-it`, 30_000)
    expect(again.status).toBe(200)
  } finally {
    agent.destroy()
  }
})
