/**
 * Reading a ZIP archive (a DOCX or an ODT) as far as the CV checks need: the entries its central directory lists, and
 * how far they expand, without keeping anything expanded. ZIP64 archives are not read: a CV of at most 5 MB never
 * needs one.
 */
import { Inflate } from 'fflate'

/** One entry of the central directory: its name, how it is stored, and where its bytes are. */
export type ZipEntry = {
  name: string
  /** 0: stored as it is; 8: deflated; anything else: a method no word processor writes. */
  method: number
  /** Its bytes in the archive. */
  stored: Uint8Array<ArrayBuffer>
  /** Its size once expanded, as the directory declares it. */
  size: number
  /** Where its local header starts in the archive (0 for the file's first). */
  header: number
}

/** How far an archive expands: within the bounds, beyond them, or not as its directory declares (a forged archive). */
export type Expansion = 'within' | 'too_large' | 'damaged'

const u16 = (bytes: Uint8Array, at: number) => (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8)
const u32 = (bytes: Uint8Array, at: number) => (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0
const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const END_OF_DIRECTORY = 0x06054b50
const STORED = 0
const DEFLATED = 8
const latin1 = new TextDecoder('latin1')

/**
 * The entries of a ZIP archive's central directory, or null when the bytes are no complete ZIP (no local header first,
 * no end record, a directory or an entry's bytes outside the file).
 */
export function zipEntries(bytes: Uint8Array<ArrayBuffer>): ZipEntry[] | null {
  if (bytes.length < 22 || u32(bytes, 0) !== LOCAL_HEADER) return null
  // The end record is the last 22 bytes, unless an archive comment (at most 65 535 bytes) follows it.
  let end = -1
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (u32(bytes, at) === END_OF_DIRECTORY && at + 22 + u16(bytes, at + 20) === bytes.length) {
      end = at
      break
    }
  }
  if (end < 0) return null
  const count = u16(bytes, end + 10)
  const size = u32(bytes, end + 12)
  const offset = u32(bytes, end + 16)
  if (offset + size > end) return null
  const entries: ZipEntry[] = []
  let at = offset
  for (let index = 0; index < count; index++) {
    if (at + 46 > end || u32(bytes, at) !== CENTRAL_HEADER) return null
    const nameLength = u16(bytes, at + 28)
    const next = at + 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32)
    if (next > end) return null
    const header = u32(bytes, at + 42)
    const stored = storedBytes(bytes, header, u32(bytes, at + 20), offset)
    if (!stored) return null
    const name = latin1.decode(bytes.subarray(at + 46, at + 46 + nameLength))
    entries.push({ name, method: u16(bytes, at + 10), stored, size: u32(bytes, at + 24), header })
    at = next
  }
  // The directory holds exactly the entries counted (a 16-bit count: more than 65,535 entries would read as fewer).
  return at === offset + size ? entries : null
}

/** An entry's bytes after its local header (whose name and extra field may differ in length from the directory's). */
function storedBytes(
  bytes: Uint8Array<ArrayBuffer>,
  header: number,
  length: number,
  directory: number,
): Uint8Array<ArrayBuffer> | null {
  if (header + 30 > directory || u32(bytes, header) !== LOCAL_HEADER) return null
  const start = header + 30 + u16(bytes, header + 26) + u16(bytes, header + 28)
  return start + length <= directory ? bytes.subarray(start, start + length) : null
}

/** Whether the archive's first entry (the first in the file) has this name and holds exactly this text, not compressed. */
export function firstEntryIs(entries: ZipEntry[], name: string, content: string): boolean {
  const first = entries.find((entry) => entry.header === 0)
  return first?.name === name && first.method === STORED && latin1.decode(first.stored) === content
}

/**
 * How far an archive's entries expand: `too_large` when there are more than `maxEntries` or their declared sizes add up
 * to more than `maxBytes` (a "ZIP bomb" that says what it is); `damaged` when an entry does not expand to the size
 * the directory declares — inflated only up to that size plus one byte, so a forged small size costs no more than the
 * honest one — or is stored in a way no word processor writes; else `within`.
 */
export function expansionOf(
  entries: ZipEntry[],
  { maxBytes, maxEntries }: { maxBytes: number; maxEntries: number },
): Expansion {
  if (entries.length > maxEntries) return 'too_large'
  if (entries.reduce((total, entry) => total + entry.size, 0) > maxBytes) return 'too_large'
  for (const entry of entries) {
    if (entry.method === STORED && entry.stored.length === entry.size) continue
    if (entry.method !== DEFLATED || inflatedLength(entry.stored, entry.size + 1) !== entry.size) return 'damaged'
  }
  return 'within'
}

/** The compressed bytes given to the inflater at once: at most ~1 MiB of output each (deflate expands ~1,032:1 at most). */
const INFLATE_SLICE = 1024

/**
 * How many bytes deflated data expands to, counting no further than `atMost`; -1 when it is no valid deflate data.
 * The data is inflated a kilobyte at a time and its output counted and dropped as it comes, so an entry that expands
 * to gigabytes costs no more memory than a kilobyte's output and stops at `atMost` (workerd's DecompressionStream
 * expands a whole chunk before its first read: a forged entry of 5 MB would have taken gigabytes).
 */
function inflatedLength(data: Uint8Array<ArrayBuffer>, atMost: number): number {
  let length = 0
  const inflater = new Inflate((chunk) => {
    length += chunk.length
  })
  try {
    for (let at = 0; at < data.length && length < atMost; at += INFLATE_SLICE) {
      inflater.push(data.subarray(at, at + INFLATE_SLICE), at + INFLATE_SLICE >= data.length)
    }
  } catch {
    return -1
  }
  return length
}
