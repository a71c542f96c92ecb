import type { Point } from '../contract/distance'

/** Cells per degree: a grid of quarter degrees (about 28 km north to south), as migration 0029's `dealers.cell`. */
const PER_DEGREE = 4
/** Columns around the globe (the antimeridian's two sides are neighbours). */
const COLUMNS = 360 * PER_DEGREE
/** Rows from pole to pole. */
const ROWS = 180 * PER_DEGREE
/** A cell's number: row * ROW_STRIDE + column. */
const ROW_STRIDE = 2000
/** The earth's radius of `distanceKm` (contract/distance.ts), in km. */
const EARTH_KM = 6371
const RAD = Math.PI / 180

/** A point's row and column of the grid: what SQLite's generated `dealers.cell` computes from lat and lng. */
export const cellOf = (point: Point) => ({
  row: Math.trunc((point.lat + 90) * PER_DEGREE),
  column: Math.trunc((point.lng + 180) * PER_DEGREE),
})

/** A square of rings around a point's cell: ring 0 is its own cell, ring k the 8k cells around ring k - 1. */
export type CellSquare = { centre: Point; rings: number }

/**
 * The cell numbers of rings `from` to `to` (inclusive) around the point's cell: columns wrap across the antimeridian
 * (column 0's west is the last column; a point at exactly 180° east is its own column 1440), rows stop at the poles.
 */
export function ringCells(centre: Point, from: number, to: number): number[] {
  const { row, column } = cellOf(centre)
  const cells = new Set<number>()
  for (let dy = -to; dy <= to; dy++) {
    const y = row + dy
    if (y < 0 || y > ROWS) continue
    for (let dx = -to; dx <= to; dx++) {
      if (Math.max(Math.abs(dx), Math.abs(dy)) < from) continue
      const x = (((column + dx) % COLUMNS) + COLUMNS) % COLUMNS
      cells.add(y * ROW_STRIDE + x)
      if (x === 0) cells.add(y * ROW_STRIDE + COLUMNS)
    }
  }
  return [...cells]
}

/**
 * The same cells as `ringCells`, as runs of consecutive cell numbers (`[first, last]`, one or two a grid row): the
 * statement seeks once a run through `dealers_by_cell` instead of once a cell (the outer rings hold thousands of cells,
 * most of them empty).
 */
export function ringRuns(centre: Point, from: number, to: number): Array<[number, number]> {
  const runs: Array<[number, number]> = []
  for (const cell of ringCells(centre, from, to).sort((a, b) => a - b)) {
    const last = runs.at(-1)
    if (last && cell === last[1] + 1) last[1] = cell
    else runs.push([cell, cell])
  }
  return runs
}

/**
 * How far from the centre every point is known to have been searched once rings 0 to `rings` are (km): the distance
 * to the nearest point outside their square. Outside its rows, at least the meridian's distance to the nearer edge;
 * inside them but outside its columns, at least the haversine distance of the nearer column edge at the rows' widest
 * latitude (the shortest way between two latitudes of the band). Zero when the square reaches a pole.
 */
export function searchedKm({ centre, rings }: CellSquare): number {
  const { row, column } = cellOf(centre)
  const south = (row - rings) / PER_DEGREE - 90
  const north = (row + rings + 1) / PER_DEGREE - 90
  if (south <= -90 || north >= 90) return 0
  const rowsKm = Math.min(centre.lat - south, north - centre.lat) * RAD * EARTH_KM
  const west = (column - rings) / PER_DEGREE - 180
  const east = (column + rings + 1) / PER_DEGREE - 180
  const gap = Math.min(centre.lng - west, east - centre.lng)
  if (gap >= 180) return rowsKm
  const widest = Math.cos(Math.max(Math.abs(south), Math.abs(north)) * RAD)
  const columnsKm = 2 * EARTH_KM * Math.asin(Math.min(1, widest * Math.sin((gap * RAD) / 2)))
  return Math.min(rowsKm, columnsKm)
}
