import { useRef, useState } from 'react';
import type { ActionResult } from '../data-access/types.ts';

/**
 * Runs a sensitive action; when the answer asks for a step-up, it remembers the action, shows
 * the step-up prompt, and runs the action again once the user has confirmed it's them.
 */
export function useSensitiveAction() {
  const [prompting, setPrompting] = useState(false);
  const parked = useRef<(() => Promise<void>) | null>(null);

  /** The action's own answer (a direct call's `{ ok: true, …data }` or its refusal) is handed to `onResult` as it is. */
  async function run<A extends () => Promise<ActionResult>>(action: A, onResult: (r: Awaited<ReturnType<A>>) => void | Promise<void>): Promise<void> {
    const result = (await action()) as Awaited<ReturnType<A>>;
    if (!result.ok && result.step_up) {
      parked.current = async () => {
        await onResult((await action()) as Awaited<ReturnType<A>>);
      };
      setPrompting(true);
      return;
    }
    await onResult(result);
  }

  return {
    prompting,
    run,
    async confirmed() {
      setPrompting(false);
      const again = parked.current;
      parked.current = null;
      await again?.();
    },
    cancelled() {
      parked.current = null;
      setPrompting(false);
    },
  };
}
