/**
 * Reads a content date: a plain `YYYY-MM-DD` is that day at 00:00 UTC; an ISO 8601 date-time keeps
 * its own offset (none means UTC). Returns epoch milliseconds, or undefined when it is not a real date.
 * The strings reaching here have already passed the schema's format check.
 */
export function parseContentDate(text: string): number | undefined {
  // Read by hand rather than with Date.parse: it must take every form the schema's date-time format
  // takes (an offset of hours only, `+05`; a leap second; years before 100) and nothing else.
  const match =
    /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[zZ]|([+-])(\d{2})(?::?(\d{2}))?)?)?$/.exec(text);
  if (!match) return undefined;
  const [year, month, date, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
  if (hour! > 23 || minute! > 59 || second! > 60) return undefined;
  const day = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years 0–99 as they are.
  day.setUTCFullYear(year!, month! - 1, date!);
  if (day.getUTCFullYear() !== year || day.getUTCMonth() !== month! - 1 || day.getUTCDate() !== date) return undefined;
  const fraction = Number(`0.${match[7] ?? '0'}`);
  const offsetMinutes = match[8] ? (match[8] === '-' ? -1 : 1) * (Number(match[9]) * 60 + Number(match[10] ?? 0)) : 0;
  // A leap second (:60) is read as the first instant of the next minute.
  return day.getTime() + ((hour! * 60 + minute! - offsetMinutes) * 60 + second!) * 1000 + Math.floor(fraction * 1000);
}

/** The calendar day (UTC) of an instant, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
