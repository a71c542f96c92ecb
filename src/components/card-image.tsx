/** How a card grid loads its first picture: `eager` where the cards are the page's main content, else `lazy`. */
export type CardImageLoading = 'eager' | 'lazy'

/**
 * A card's picture, decorative (the card's heading names the link). Lazy and decoded off the main thread, or, for
 * the first card of a listing (the largest paint), loaded at once with high priority.
 */
export function CardImage({ src, width, height, eager }: { src: string; width: number; height: number; eager: boolean }) {
  return eager ? (
    <img src={src} alt="" width={width} height={height} fetchPriority="high" />
  ) : (
    <img src={src} alt="" width={width} height={height} loading="lazy" decoding="async" />
  )
}
