/**
 * Runs `start` once, after the page's first contentful paint (its `paint` performance entry, which the browser gives
 * once the frame is shown; without that entry type, the task after the first animation frame), or at once in a page
 * that is not shown (a background tab paints nothing until it is): the islands' modules are evaluated, and the dealer
 * map's chunk fetched, after the first view is on screen, so on a phone they share neither its bandwidth nor its main
 * thread (docs/decisions/085). The inline script that applies the rest of the stylesheet waits the same way
 * (STYLESHEET_SWAP, src/render/critical-css.ts).
 *
 * @example
 * afterFirstPaint(startIslands)
 */
export function afterFirstPaint(start: () => void): void {
  let started = false
  const once = () => {
    if (started) return
    started = true
    start()
  }
  if (document.visibilityState === 'hidden') once()
  else if (PerformanceObserver.supportedEntryTypes?.includes('paint'))
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return
      observer.disconnect()
      once()
    }).observe({ type: 'paint', buffered: true })
  else requestAnimationFrame(() => setTimeout(once, 0))
}
