import { describe, expect, it } from 'vitest';
import { withDefaultPool } from '../../src/cli/v8-pool.ts';

describe("a full build's flags (src/cli/v8-pool.ts)", () => {
  it("are this process's without its V8 pool size, in either form, with a full build's heap flags; none when it has V8's default", () => {
    expect(withDefaultPool(['--max-semi-space-size=16', '--v8-pool-size=1', '--experimental-strip-types'])).toEqual(['--max-semi-space-size=16', '--experimental-strip-types', '--heap-growing-percent=25', '--no-allocation-site-pretenuring']);
    expect(withDefaultPool(['--v8-pool-size', '2', '--no-warnings'])).toEqual(['--no-warnings', '--heap-growing-percent=25', '--no-allocation-site-pretenuring']);
    // A flag given is kept as it is, in either form.
    expect(withDefaultPool(['--v8-pool-size=1', '--heap-growing-percent=80'])).toEqual(['--heap-growing-percent=80', '--no-allocation-site-pretenuring']);
    expect(withDefaultPool(['--allocation-site-pretenuring', '--v8-pool-size=1'])).toEqual(['--allocation-site-pretenuring', '--heap-growing-percent=25']);
    expect(withDefaultPool(['--v8-pool-size=1', '--no_allocation_site_pretenuring', '--heap_growing_percent=30'])).toEqual(['--no_allocation_site_pretenuring', '--heap_growing_percent=30']);
    expect(withDefaultPool(['--max-semi-space-size=16', '--no-warnings'])).toBeUndefined();
    expect(withDefaultPool([])).toBeUndefined();
    // Another flag that starts alike is kept.
    expect(withDefaultPool(['--v8-pool-sizes=3'])).toBeUndefined();
  });
});
