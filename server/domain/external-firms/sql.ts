/** A timestamptz column as the wire's ISO text (UTC, milliseconds). */
export const iso = (expr: string) => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
