import { type KeyboardEvent, type MouseEvent, type PointerEvent, useEffect, useRef, useState } from 'react'
import { createRoot } from 'react-dom/client'

/** The viewer's texts, which the product page puts on its gallery (`data-viewer-texts`) in the market's language. */
export type ViewerTexts = {
  label: string
  close: string
  zoomIn: string
  zoomOut: string
  previous: string
  next: string
}
type Picture = { src: string; alt: string }

const MAX_ZOOM = 4
const CLICK_ZOOM = 2.5

/**
 * Opens the product's pictures full screen from the gallery link that was clicked: this chunk is fetched only on
 * that click (the entry's `openGalleryViewer`). Shows the pictures that are visible in the gallery (the chosen
 * colour's and the shared ones), from the one clicked.
 */
export function openViewer(link: HTMLAnchorElement): void {
  const gallery = link.closest<HTMLElement>('.product-gallery')
  if (!gallery) return
  const links = [...gallery.querySelectorAll<HTMLAnchorElement>('a[data-viewer]')].filter(
    (candidate) => candidate.offsetParent !== null,
  )
  const pictures = links.map((candidate) => ({
    src: candidate.getAttribute('href') ?? '',
    alt: candidate.querySelector('img')?.alt ?? '',
  }))
  const texts = JSON.parse(gallery.dataset.viewerTexts ?? '{}') as ViewerTexts
  const host = document.createElement('div')
  document.body.appendChild(host)
  const root = createRoot(host)
  const close = () => {
    root.unmount()
    host.remove()
    link.focus()
  }
  root.render(
    <GalleryViewer
      pictures={pictures}
      start={Math.max(0, links.indexOf(link))}
      texts={texts}
      onClose={close}
      rtl={document.dir === 'rtl'}
    />,
  )
}

/**
 * A modal dialog (the page behind it inert, so the focus stays inside) with one picture at a time: Escape or the close
 * button closes it, the arrow keys (mirrored right to left) and the buttons go through the pictures, a click or a tap
 * zooms in where it lands and again out, + and − zoom, two fingers pinch; a zoomed picture pans by scrolling/dragging.
 */
function GalleryViewer({
  pictures,
  start,
  texts,
  onClose,
  rtl,
}: {
  pictures: Picture[]
  start: number
  texts: ViewerTexts
  onClose: () => void
  rtl: boolean
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const stage = useRef<HTMLDivElement>(null)
  const [index, setIndex] = useState(start)
  const [zoom, setZoom] = useState(1)
  const pointers = useRef(new Map<number, { x: number; y: number }>())
  const pinch = useRef<{ distance: number; zoom: number } | null>(null)
  const picture = pictures[index]

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    element.showModal()
    // The close button takes the focus (showModal would give it to the first control).
    element.querySelector<HTMLButtonElement>('.viewer-close')?.focus()
    // Escape closes the dialog natively: unmount with it.
    const closed = () => onClose()
    element.addEventListener('close', closed)
    return () => element.removeEventListener('close', closed)
  }, [onClose])

  const go = (step: number) => {
    if (pictures.length < 2) return
    setIndex((current) => (current + step + pictures.length) % pictures.length)
    setZoom(1)
  }

  /** Zooms to `next`, keeping the point (relative to the stage, 0–1) under the pointer where it was. */
  const zoomTo = (next: number, at = { x: 0.5, y: 0.5 }) => {
    const clamped = Math.min(MAX_ZOOM, Math.max(1, next))
    setZoom(clamped)
    requestAnimationFrame(() => {
      const box = stage.current
      if (!box) return
      box.scrollLeft = (box.scrollWidth - box.clientWidth) * at.x * (rtl ? -1 : 1)
      box.scrollTop = (box.scrollHeight - box.clientHeight) * at.y
    })
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Tab') return trapFocus(event)
    if (event.key === 'ArrowRight') go(rtl ? -1 : 1)
    else if (event.key === 'ArrowLeft') go(rtl ? 1 : -1)
    else if (event.key === '+' || event.key === '=') zoomTo(zoom + 0.5)
    else if (event.key === '-') zoomTo(zoom - 0.5)
    else return
    event.preventDefault()
  }

  /** Tab from the last control goes round to the first, Shift+Tab from the first to the last: the focus stays in the viewer. */
  const trapFocus = (event: KeyboardEvent) => {
    const controls = [...(dialog.current?.querySelectorAll<HTMLElement>('button') ?? [])]
    const [first, last] = [controls[0], controls[controls.length - 1]]
    if (!first || !last) return
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  const onImageClick = (event: MouseEvent<HTMLImageElement>) => {
    const box = event.currentTarget.getBoundingClientRect()
    const at = { x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height }
    zoomTo(zoom > 1 ? 1 : CLICK_ZOOM, rtl ? { x: 1 - at.x, y: at.y } : at)
  }

  const distance = () => {
    const [a, b] = [...pointers.current.values()]
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0
  }
  const onPointerDown = (event: PointerEvent) => {
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY })
    if (pointers.current.size === 2) pinch.current = { distance: distance(), zoom }
  }
  const onPointerMove = (event: PointerEvent) => {
    if (!pointers.current.has(event.pointerId)) return
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY })
    if (pinch.current && pointers.current.size === 2 && pinch.current.distance > 0) {
      setZoom(Math.min(MAX_ZOOM, Math.max(1, (pinch.current.zoom * distance()) / pinch.current.distance)))
    }
  }
  const onPointerUp = (event: PointerEvent) => {
    pointers.current.delete(event.pointerId)
    if (pointers.current.size < 2) pinch.current = null
  }

  return (
    <dialog
      ref={dialog}
      className="viewer"
      aria-label={texts.label}
      onKeyDown={onKeyDown}
      data-zoomed={zoom > 1 ? '' : undefined}
    >
      <div className="viewer-bar">
        <p className="viewer-count" aria-live="polite">
          <bdi>
            {index + 1} / {pictures.length}
          </bdi>
        </p>
        <button
          type="button"
          className="viewer-button"
          onClick={() => zoomTo(zoom > 1 ? 1 : CLICK_ZOOM)}
          aria-pressed={zoom > 1}
        >
          {zoom > 1 ? texts.zoomOut : texts.zoomIn}
        </button>
        <button type="button" className="viewer-button viewer-close" onClick={() => dialog.current?.close()}>
          {texts.close}
        </button>
      </div>
      <div
        ref={stage}
        className="viewer-stage"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      >
        {picture && (
          // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the picture is the pointer's shortcut of the zoom buttons above
          <img
            key={picture.src}
            src={picture.src}
            alt={picture.alt}
            className="viewer-image"
            style={{ inlineSize: `${zoom * 100}%`, blockSize: `${zoom * 100}%` }}
            onClick={onImageClick}
            draggable={false}
          />
        )}
      </div>
      {pictures.length > 1 && (
        <>
          <button
            type="button"
            className="viewer-nav viewer-previous"
            onClick={() => go(-1)}
            aria-label={texts.previous}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <button type="button" className="viewer-nav viewer-next" onClick={() => go(1)} aria-label={texts.next}>
            <span aria-hidden="true">›</span>
          </button>
        </>
      )}
    </dialog>
  )
}
