/** The islands the server marks and the browser hydrates, by name. */
export const IslandNames = {
  dealerMap: 'dealer-map',
  locateButton: 'locate-button',
  testRideDays: 'test-ride-days',
  printButton: 'print-button',
  addToCart: 'add-to-cart',
  listingUpdates: 'listing-updates',
} as const

export type IslandName = (typeof IslandNames)[keyof typeof IslandNames]
