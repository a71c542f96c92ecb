/**
 * The D1 rows one request of the site read and wrote through the embedded API, summed from D1's own result metadata
 * (`meta.rows_read`, `meta.rows_written`): the site owns the tally and hands it to each in-process call, the API's
 * database adds to it (reference-api/row-count.ts), the request's log line reports it (issue 31).
 */
export type D1Rows = { read: number; written: number }
