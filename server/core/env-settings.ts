/**
 * Whole-number settings a server start reads (request timeouts, quotas): for each, the caller's
 * override (createApp / listen options, tests), else its environment variable, else the default.
 * A variable that is set but is not a whole number of at least 1 stops the start, naming the
 * variable, rather than running with a setting nobody meant.
 */
export function resolveWholeSettings<K extends string>(opts: {
  defaults: Record<K, number>;
  envNames: Record<K, string>;
  overrides: Partial<Record<K, number>>;
  env: Record<string, string | undefined>;
  /** The refusal's words after the variable's name, e.g. "must be a whole number of milliseconds". */
  mustBe: string;
  /** The setting from the variable's number (a unit the variable is written in); as it is by default. */
  fromEnv?: (name: K, value: number) => number;
}): Record<K, number> {
  const out = { ...opts.defaults };
  for (const name of Object.keys(opts.envNames) as K[]) {
    const raw = opts.env[opts.envNames[name]];
    if (raw !== undefined && raw.trim() !== '') {
      if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw new Error(`${opts.envNames[name]} ${opts.mustBe}, not "${raw}".`);
      out[name] = opts.fromEnv ? opts.fromEnv(name, Number(raw)) : Number(raw);
    }
    const given = opts.overrides[name];
    if (given !== undefined) out[name] = given;
  }
  return out;
}
