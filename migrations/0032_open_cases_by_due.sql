-- The open whistleblower cases in the order a case handler works on them, read a page at a time (issue 31,
-- docs/decisions/077): by when the next deadline of EU Directive 2019/1937 falls due — the acknowledgement 7 days after
-- receipt, then the feedback 3 calendar months after the acknowledgement (on the month's last day when it has fewer
-- days, as src/whistleblower/deadlines.ts counts) —, and the cases with no deadline left last, by id. The expression
-- is reference-api/resources/cases.ts's `DUE`, written the same way so that SQLite serves its ORDER BY from here.
CREATE INDEX whistleblower_open_by_due ON whistleblower_reports ((CASE
  WHEN acknowledged_at IS NULL THEN strftime('%Y-%m-%dT%H:%M:%fZ', received_at, '+7 days')
  WHEN feedback_at IS NULL THEN min(strftime('%Y-%m-%dT%H:%M:%fZ', acknowledged_at, '+3 months'),
    strftime('%Y-%m-%d', acknowledged_at, 'start of month', '+4 months', '-1 day') || strftime('T%H:%M:%fZ', acknowledged_at))
  ELSE '9999-12-31T23:59:59.999Z' END), id) WHERE state != 'closed';
