import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { consoleGate } from './guard'
import { cancelOrder, markOrderPaid, refundOrder, shipOrder } from './order-actions'
import { consoleOrderPage, consoleOrdersPage } from './orders'

/**
 * Orders (editors, docs/decisions/049): the list and one order (orders.tsx), and the order's actions
 * (order-actions.ts): mark a bank transfer paid, ship, cancel, refund.
 */
export const orders = new Hono<AppEnv>()
orders.use(consoleGate('editor'))
orders.get('/', consoleOrdersPage)
orders.get('/:code', consoleOrderPage)
orders.post('/:code/paid', markOrderPaid)
orders.post('/:code/ship', shipOrder)
orders.post('/:code/cancel', cancelOrder)
orders.post('/:code/refund', refundOrder)
