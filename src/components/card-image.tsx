import { type ImagePlace, ResponsiveImage } from './responsive-image'

/** How a card grid loads its first picture: `eager` where the cards are the page's main content, else `lazy`. */
export type CardImageLoading = 'eager' | 'lazy'

/**
 * A card's picture, decorative (the card's heading names the link), with the `sizes` of a card in the grid. Lazy and
 * decoded off the main thread, or, for the first card of a listing (the largest paint), loaded at once with high
 * priority. `resizing`: served through image resizing (`view.imageResizing`); `place`: a product card or a news card.
 */
export function CardImage({
  src,
  width,
  height,
  eager,
  resizing = false,
  place = 'card',
}: {
  src: string
  width: number
  height: number
  eager: boolean
  resizing?: boolean
  place?: Extract<ImagePlace, 'card' | 'news'>
}) {
  return (
    <ResponsiveImage
      src={src}
      alt=""
      width={width}
      height={height}
      place={place}
      resizing={resizing}
      loading={eager ? 'eager' : 'lazy'}
    />
  )
}
