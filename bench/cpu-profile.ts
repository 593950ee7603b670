/**
 * A V8 CPU profile as DevTools' `Profiler.stop` returns it, and its self time by function: what
 * the profiling benches (mirror-profile.ts, cold-bodies.ts) print.
 */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Self time by function (name, file, line, column), the `n` largest first, and the profile's span and idle time (ms). */
export function selfTimes(profile: CpuProfile, n = 20): { spanMs: number; idleMs: number; top: { fn: string; ms: number }[] } {
  const byNode = new Map<number, number>();
  profile.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFn = new Map<string, number>();
  let idle = 0;
  for (const node of profile.nodes) {
    const us = byNode.get(node.id);
    if (!us) continue;
    const f = node.callFrame;
    if (f.functionName === '(idle)') idle += us;
    const file = f.url.split('/').pop() ?? '';
    const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
  }
  const top = [...byFn].sort((a, b) => b[1] - a[1]).slice(0, n).map(([fn, us]) => ({ fn, ms: Math.round(us / 1000) }));
  return { spanMs: Math.round((profile.endTime - profile.startTime) / 1000), idleMs: Math.round(idle / 1000), top };
}
