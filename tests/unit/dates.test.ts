import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseContentDate, utcDay } from '../../src/content/dates.ts';
import { schemaProblems } from '../../src/content/schema-validation.ts';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Whether the topic schema takes the text as a `created` date. */
const schemaTakes = (created: string) =>
  schemaProblems('topic', { title: 't', author: 'a', created, forum: 'f' }, 't.md', () => undefined).length === 0;

describe('parseContentDate', () => {
  it('reads YYYY-MM-DD as that day at midnight UTC', () => {
    expect(parseContentDate('2024-03-05')).toBe(Date.UTC(2024, 2, 5));
    expect(new Date(parseContentDate('2024-12-31')!).toISOString()).toBe('2024-12-31T00:00:00.000Z');
  });

  it('does not depend on the machine time zone for a plain day', () => {
    // Date.UTC is the oracle: midnight UTC whatever TZ the tests run in.
    expect(parseContentDate('1999-07-01')).toBe(Date.UTC(1999, 6, 1, 0, 0, 0));
  });

  it('reads a date-time with its offset', () => {
    expect(parseContentDate('2024-03-05T10:30:00Z')).toBe(Date.UTC(2024, 2, 5, 10, 30));
    expect(parseContentDate('2024-03-05T10:30:00+02:00')).toBe(Date.UTC(2024, 2, 5, 8, 30));
    expect(parseContentDate('2024-03-05T10:30:00-05:30')).toBe(Date.UTC(2024, 2, 5, 16, 0));
    expect(parseContentDate('2024-03-05T00:30:00+01:00')).toBe(Date.UTC(2024, 2, 4, 23, 30));
    expect(parseContentDate('2024-03-05T10:30:00.250Z')).toBe(Date.UTC(2024, 2, 5, 10, 30, 0, 250));
    expect(parseContentDate('2024-03-05t10:30:00z')).toBe(Date.UTC(2024, 2, 5, 10, 30));
  });

  it('reads the forms of offset the schema also takes: +0530 and +05', () => {
    expect(parseContentDate('2024-03-05T10:30:00+0530')).toBe(Date.UTC(2024, 2, 5, 5, 0));
    expect(parseContentDate('2024-03-05T10:30:00+05')).toBe(Date.UTC(2024, 2, 5, 5, 30));
  });

  it('reads a leap second as the first instant of the next minute', () => {
    expect(parseContentDate('2016-12-31T23:59:60Z')).toBe(Date.UTC(2017, 0, 1));
  });

  it('keeps years before 100 (Date.UTC would move them to the 1900s)', () => {
    expect(new Date(parseContentDate('0050-06-01')!).getUTCFullYear()).toBe(50);
  });

  it('accepts 29 February only in leap years', () => {
    expect(parseContentDate('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(parseContentDate('2000-02-29')).toBe(Date.UTC(2000, 1, 29));
    expect(parseContentDate('2023-02-29')).toBeUndefined();
    expect(parseContentDate('1900-02-29')).toBeUndefined();
  });

  it.each([
    '2023-02-30', '2023-04-31', '2023-13-01', '2023-00-10', '2023-01-00', '2023-01-32', '2023-1-01',
    '2024-01-01T24:00:00Z', '2024-01-01T10:60:00Z', '2024-02-30T10:00:00Z', '', 'yesterday', '2024',
    '12/31/2024', '2024-01-01T10:00:00+05:00 extra',
  ])('rejects %j', (text) => {
    expect(parseContentDate(text)).toBeUndefined();
  });

  it('reads every date-time the topic schema accepts, to the same instant as an ISO parse', () => {
    const zone = fc.oneof(
      fc.constantFrom('Z', 'z'),
      fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom(':', '', 'hours')),
    );
    fc.assert(
      fc.property(
        fc.record({
          year: fc.integer({ min: 1000, max: 9999 }),
          month: fc.integer({ min: 1, max: 12 }),
          day: fc.integer({ min: 1, max: 28 }),
          hour: fc.integer({ min: 0, max: 23 }),
          minute: fc.integer({ min: 0, max: 59 }),
          second: fc.integer({ min: 0, max: 59 }),
          fraction: fc.option(fc.stringMatching(/^\d{1,9}$/), { nil: undefined }),
          separator: fc.constantFrom('T', 't', ' '),
          zone,
        }),
        ({ year, month, day, hour, minute, second, fraction, separator, zone }) => {
          const date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
          const time = `${pad(hour)}:${pad(minute)}:${pad(second)}${fraction === undefined ? '' : `.${fraction}`}`;
          let written: string;
          let iso: string;
          if (typeof zone === 'string') [written, iso] = [zone, 'Z'];
          else {
            const [sign, h, m, form] = zone;
            written = form === 'hours' ? `${sign}${pad(h)}` : `${sign}${pad(h)}${form}${pad(m)}`;
            iso = `${sign}${pad(h)}:${form === 'hours' ? '00' : pad(m)}`;
          }
          const text = `${date}${separator}${time}${written}`;
          expect(schemaTakes(text)).toBe(true);
          const millis = fraction === undefined ? '000' : fraction.padEnd(3, '0').slice(0, 3);
          expect(parseContentDate(text)).toBe(Date.parse(`${date}T${pad(hour)}:${pad(minute)}:${pad(second)}.${millis}${iso}`));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('reads every calendar day the schema accepts as midnight UTC', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }), (instant) => {
        const day = instant.toISOString().slice(0, 10);
        fc.pre(/^\d{4}-\d{2}-\d{2}$/.test(day));
        expect(schemaTakes(day)).toBe(true);
        expect(parseContentDate(day)).toBe(Date.parse(`${day}T00:00:00Z`));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('years', () => {
  it('the schema takes years 1000–9999 only (an RSS date of year 0000 is no date)', () => {
    for (const day of ['0000-01-01', '0999-12-31', '0000-01-01T00:00:00Z']) expect(schemaTakes(day), day).toBe(false);
    for (const day of ['1000-01-01', '9999-12-31', '1000-01-01T00:00:00Z']) expect(schemaTakes(day), day).toBe(true);
  });
});

describe('utcDay', () => {
  it('gives the calendar day in UTC', () => {
    expect(utcDay(Date.UTC(2024, 0, 31, 23, 59))).toBe('2024-01-31');
    expect(utcDay(parseContentDate('2024-02-01T01:00:00+02:00')!)).toBe('2024-01-31');
  });
});
